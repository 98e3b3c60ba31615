// Shared helpers for tests of our package: run a query to the end, check processes.
import fs from 'node:fs'
import { mockCliPath, mockEnv, tempScenario, tempLogPath, readLog, readStdin } from '../mock-cli/index.mjs'

export { mockCliPath, mockEnv, tempScenario, tempLogPath, readLog, readStdin }
export * as sdk from '../../index.mjs'

/** Runs a query to its end; returns the messages, and the error if it threw. */
export async function collect(q) {
  const messages = []
  try {
    for await (const m of q) messages.push(m)
    return { messages, error: null }
  } catch (error) {
    return { messages, error }
  }
}

/** Options that run the mock CLI with `scenario` (module source) and log to a fresh file. */
export function mockOptions(scenarioSource, extra = {}) {
  const log = tempLogPath()
  const scenario = scenarioSource === undefined ? undefined : tempScenario(scenarioSource)
  // The official SDK runs a .mjs CLI with `bun` under Bun, which is not on PATH here: name the
  // running binary (ours does that by default).
  const runtime = process.versions.bun ? { executable: process.execPath } : {}
  return { log, options: { pathToClaudeCodeExecutable: mockCliPath, env: mockEnv({ scenario, log }), ...runtime, ...extra } }
}

/** Whether a process is still alive (zombies count as gone). */
export function alive(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    return !/^\d+ \(.*\) Z/.test(stat)
  } catch {
    return false
  }
}

/** Waits until `pred()` holds, polling; throws after `ms`. */
export async function eventually(pred, ms = 10000, what = 'condition') {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await pred()) return
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** The pids the mock logged as started, from its log. */
export function mockPids(log) {
  return readLog(log).filter((r) => r.kind === 'start').map((r) => r.pid)
}

/** Scenario records the mock logged with cli.log(). */
export function scenarioRecords(log) {
  return readLog(log).filter((r) => r.kind === 'scenario').map((r) => r.data)
}

/**
 * Runs `body(q, results, log)` against a streaming-input query of `sdk` (with `extra` options) on
 * the mock CLI `scenario`:
 * a first prompt `start`, then, once the body is done, `done` (the scenario ends the session on
 * it). Returns what the body put in `results` and every line the SDK wrote to the CLI.
 */
export async function driveControl(sdk, scenario, body, extra = {}) {
  const { log, options } = mockOptions(scenario, extra)
  let sendDone
  const done = new Promise((r) => (sendDone = r))
  async function* prompt() {
    yield { type: 'user', message: { role: 'user', content: 'start' }, parent_tool_use_id: null, session_id: '' }
    await done
    yield { type: 'user', message: { role: 'user', content: 'done' }, parent_tool_use_id: null, session_id: '' }
  }
  const q = sdk.query({ prompt: prompt(), options })
  const it = q[Symbol.asyncIterator]()
  const first = await it.next()
  if (first.value?.type !== 'system') throw new Error(`expected the system init first, got ${JSON.stringify(first.value)}`)
  const results = {}
  try {
    await body(q, results, log)
  } finally {
    sendDone()
  }
  for (;;) if ((await it.next()).done) break
  return { results, stdin: readStdin(log), log }
}
