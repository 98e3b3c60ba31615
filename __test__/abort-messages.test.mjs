// Issue 14.7, against the mock CLI: after an abort, the messages the CLI wrote before it took
// effect are delivered, then the AbortError — what the pipe held, and, when one of the CLI's
// requests was running here, what it writes as it stops (the interrupted tool result), for a
// moment at most. The abort wins over however the session ends before the consumer reaches the
// end. (Side by side with the official SDK and the real CLIs: e2e-abort.test.mjs.)
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { sdk, collect, mockOptions, mockPids, eventually, readLog } from './helpers/sdk.mjs'
import { gone } from './helpers/process.mjs'
import * as official from '@anthropic-ai/claude-agent-sdk'

const { query, tool, createSdkMcpServer, AbortError } = sdk

/** A server whose `wait` tool aborts the query once called, then waits for its own signal. */
function slowServer(abortController, state = {}) {
  return createSdkMcpServer({
    name: 'slow',
    tools: [tool('wait', 'Waits', {}, async (args, extra) => {
      state.calls = (state.calls ?? 0) + 1
      if (state.calls === (state.abortAt ?? 1)) {
        state.abortedAt = performance.now()
        abortController.abort()
      }
      await new Promise((r) => extra.signal.addEventListener('abort', r))
      return { content: [{ type: 'text', text: 'too late' }] }
    })],
  })
}

/**
 * A CLI that calls `wait` (`calls` of them at once) and, as the real CLI does when its input ends
 * during the calls, writes a tool result for each, saying it was interrupted; `later` ms after
 * that it goes on with the next step of its turn, then exits.
 */
function interruptedScenario({ calls = 1, answerOnEof = true, later = 100 } = {}) {
  return `
  export default async function (cli) {
    await cli.initialize()
    await cli.nextUserMessage()
    cli.systemInit()
    const ids = Array.from({ length: ${calls} }, () => cli.assistantToolUse('mcp__slow__wait', {}))
    await Promise.all(ids.map(async (id, i) => {
      try {
        await cli.mcp('slow', { method: 'tools/call', params: { name: 'wait', arguments: {}, _meta: { 'claudecode/toolUseId': id } } })
        cli.toolResult(id, 'answered')
      } catch {
        if (!${answerOnEof}) return
        await cli.sleep(10 * i)
        cli.toolResult(id, 'The tool call was interrupted before a result was received.', { is_error: true })
      }
    }))
    await cli.sleep(${later})
    cli.assistantText('the next step of the turn')
    cli.result()
    await cli.exit(0)
  }`
}

/** Runs a query to its end; the messages, the error, and ms from the abort to the end. */
async function run(options, state) {
  const r = await collect(query({ prompt: 'go', options }))
  return { ...r, ms: performance.now() - state.abortedAt }
}

const types = (messages) => messages.map((m) => m.type === 'user' ? `user:${m.message.content[0].content}` : `${m.type}${m.subtype ? ':' + m.subtype : ''}`)

async function reaped(log) {
  const [pid] = mockPids(log)
  await eventually(() => gone(pid), 15000, `CLI ${pid} to be gone`)
}

test('abort during a tool call: the interrupted tool result the CLI writes as it stops arrives, then the AbortError; nothing after it', async () => {
  const abortController = new AbortController()
  const state = {}
  const { log, options } = mockOptions(interruptedScenario(), { abortController, mcpServers: { slow: slowServer(abortController, state) } })
  const { messages, error, ms } = await run(options, state)
  assert.ok(error instanceof AbortError, String(error))
  assert.equal(error.message, 'Claude Code process aborted by user')
  assert.deepEqual(types(messages), ['system:init', 'assistant', 'user:The tool call was interrupted before a result was received.'])
  console.log(`# the interrupted tool result, then the AbortError: ${ms.toFixed(1)} ms after the abort`)
  // The handler's late answer never reached the CLI: its input was closed by the abort.
  assert.ok(!readLog(log).some((r) => r.kind === 'stdin' && r.line.includes('too late')))
  await reaped(log)
})

test('abort during a tool call with spawnClaudeCodeProcess: the app\'s process hears of the abort only as it stops, so its interrupted tool result arrives, as with the official SDK', async () => {
  const { spawn } = await import('node:child_process')
  const run = async (sdk) => {
    const abortController = new AbortController()
    const state = {}
    const server = sdk.createSdkMcpServer({
      name: 'slow',
      tools: [sdk.tool('wait', 'Waits', {}, async (args, extra) => {
        abortController.abort()
        await new Promise((r) => extra.signal.addEventListener('abort', r))
        return { content: [{ type: 'text', text: 'too late' }] }
      })],
    })
    const { options } = mockOptions(interruptedScenario(), {
      abortController,
      mcpServers: { slow: server },
      // The app hands the signal to spawn(), which kills the process when it fires.
      spawnClaudeCodeProcess: ({ command, args, cwd, env, signal }) => {
        const child = spawn(command, args, { cwd, env, signal, stdio: ['pipe', 'pipe', 'ignore'] })
        child.on('error', () => {})
        return child
      },
    })
    const { messages, error } = await collect(sdk.query({ prompt: 'go', options }))
    return { types: types(messages.slice(0, 3)), error }
  }
  const [mine, theirs] = await Promise.all([run(sdk), run(official)])
  for (const [label, r, { AbortError }] of [['ours', mine, sdk], ['official', theirs, official]]) {
    assert.ok(r.error instanceof AbortError, `${label}: ${r.error}`)
    assert.deepEqual(r.types, ['system:init', 'assistant', 'user:The tool call was interrupted before a result was received.'], label)
  }
})

test('abort during parallel tool calls: a tool result for each, then the AbortError', async () => {
  const abortController = new AbortController()
  const state = { abortAt: 2 }
  const { log, options } = mockOptions(interruptedScenario({ calls: 2 }), { abortController, mcpServers: { slow: slowServer(abortController, state) } })
  const { messages, error } = await run(options, state)
  assert.ok(error instanceof AbortError, String(error))
  const interrupted = 'user:The tool call was interrupted before a result was received.'
  assert.deepEqual(types(messages), ['system:init', 'assistant', 'assistant', interrupted, interrupted])
  await reaped(log)
})

test('abort during a tool call with a CLI that never writes again: the wait is bounded, and the CLI is still stopped', async () => {
  const abortController = new AbortController()
  const state = {}
  const { log, options } = mockOptions(interruptedScenario({ answerOnEof: false, later: 1500 }), { abortController, mcpServers: { slow: slowServer(abortController, state) } })
  const { messages, error, ms } = await run(options, state)
  assert.ok(error instanceof AbortError, String(error))
  assert.deepEqual(types(messages), ['system:init', 'assistant'])
  console.log(`# nothing more from the CLI: the AbortError ${ms.toFixed(1)} ms after the abort`)
  // The engine waits 500 ms at most (the official SDK waits for the CLI's exit: 2 s and more).
  assert.ok(ms < 1500, `the abort returned after ${ms} ms`)
  await reaped(log)
})

test('what the CLI wrote before the abort is delivered, and the abort does not wait when nothing of the CLI runs here', async () => {
  const abortController = new AbortController()
  const { log, options } = mockOptions(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      cli.systemInit()
      // Written to the pipe (Bun's stdout writes complete later) before the test aborts.
      await cli.assistantText('one')
      await cli.assistantText('two')
      cli.log({ written: true })
      await cli.waitStdinClosed()
      // It takes its time to stop, and writes nothing more.
      await cli.sleep(500)
      await cli.exit(0)
    }`, { abortController })
  const q = query({ prompt: 'go', options })
  assert.equal((await q.next()).value.subtype, 'init')
  await eventually(() => readLog(log).some((r) => r.kind === 'scenario' && r.data.written), 5000, 'the CLI to write its messages')
  const t0 = performance.now()
  abortController.abort()
  const { messages, error } = await collect(q)
  const ms = performance.now() - t0
  assert.ok(error instanceof AbortError, String(error))
  assert.deepEqual(messages.map((m) => m.message.content[0].text), ['one', 'two'])
  assert.ok(ms < 200, `the abort returned after ${ms} ms`)
  await reaped(log)
})

test('an abort wins over however the session ends before the consumer reaches the end', async (t) => {
  const ends = {
    // stdout closed, the process still running until its input closes (then it exits 0,
    // "before sending a result"): the engine is waiting for the exit when the abort comes.
    'stdout closed, the CLI still running': `
      import fs from 'node:fs'
      export default async function (cli) {
        await cli.initialize()
        await cli.nextUserMessage()
        cli.systemInit()
        cli.log({ done: true })
        fs.closeSync(1)
        await cli.waitStdinClosed()
        await cli.exit(0)
      }`,
    // The session is over (the CLI failed) before the abort.
    'the CLI exited with code 3': `
      export default async function (cli) {
        await cli.initialize()
        await cli.nextUserMessage()
        cli.systemInit()
        cli.assistantText('before the crash')
        cli.log({ done: true })
        await cli.exit(3)
      }`,
    // A clean end: the result came, the CLI exited 0.
    'a result and a clean exit': `
      export default async function (cli) {
        await cli.initialize()
        await cli.nextUserMessage()
        cli.systemInit()
        cli.assistantText('answer')
        cli.result()
        cli.log({ done: true })
        await cli.exit(0)
      }`,
  }
  for (const [how, scenario] of Object.entries(ends)) {
    await t.test(how, async () => {
      const abortController = new AbortController()
      const { log, options } = mockOptions(scenario, { abortController })
      const q = query({ prompt: 'go', options })
      assert.equal((await q.next()).value.subtype, 'init')
      await eventually(() => readLog(log).some((r) => r.kind === 'scenario' && r.data.done), 5000, 'the CLI to be done')
      // Let the engine see the end (stdout closed, or the exit).
      await new Promise((r) => setTimeout(r, 100))
      const t0 = performance.now()
      abortController.abort()
      const { messages, error } = await collect(q)
      const ms = performance.now() - t0
      assert.ok(error instanceof AbortError, `${how}: ${error}`)
      // Everything the CLI wrote before is still delivered.
      if (how !== 'stdout closed, the CLI still running') assert.equal(messages.length, how === 'a result and a clean exit' ? 2 : 1)
      assert.ok(ms < 200, `${how}: the abort returned after ${ms} ms`)
      await reaped(log)
    })
  }
})
