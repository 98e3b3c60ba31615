// Helpers for tests that run something (the official SDK, our native SDK, or
// the test itself) against the mock Claude Code CLI in ./mock-cli.mjs.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** Absolute path of the executable mock (shebang `#!/usr/bin/env node`). */
export const mockCliPath = fileURLToPath(new URL('./mock-cli.mjs', import.meta.url))

let tmpDir
let tmpN = 0
// Not removed when the process exits: host scripts read the mock's log in exit handlers of their
// own (cancelled-tools.test.mjs), which a cleanup registered first would run after.
function tmp(name) {
  tmpDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'mock-cli-'))
  return path.join(tmpDir, `${++tmpN}-${name}`)
}

/** Write `sourceText` (an ES module exporting `default async function (cli)`) to a temp .mjs; returns its path. */
export function tempScenario(sourceText) {
  const file = tmp('scenario.mjs')
  fs.writeFileSync(file, sourceText)
  return file
}

/** A fresh (not yet existing) temp path for MOCK_CLI_LOG. */
export function tempLogPath() {
  return tmp('mock-cli.log.jsonl')
}

/** Records of a mock's log; tolerates a torn last line and a missing file. */
export function readLog(file) {
  let text
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (e) {
    if (e.code === 'ENOENT') return []
    throw e
  }
  const out = []
  for (const line of text.split('\n')) {
    if (!line) continue
    try {
      out.push(JSON.parse(line))
    } catch {}
  }
  return out
}

/** The JSON messages the SDK wrote to the mock's stdin, in order (unparsable lines skipped). */
export function readStdin(file) {
  const out = []
  for (const r of readLog(file)) {
    if (r.kind !== 'stdin') continue
    try {
      out.push(JSON.parse(r.line))
    } catch {}
  }
  return out
}

/**
 * process.env plus the mock's settings. A missing `scenario` removes any
 * inherited MOCK_CLI_SCENARIO so the default scenario really runs.
 */
export function mockEnv({ scenario, log } = {}) {
  const env = { ...process.env }
  delete env.MOCK_CLI_SCENARIO
  delete env.MOCK_CLI_LOG
  if (scenario) env.MOCK_CLI_SCENARIO = scenario
  if (log) env.MOCK_CLI_LOG = log
  return env
}

/**
 * Spawn the mock directly, with the test playing the SDK. Returns
 * `{ child, send, sendRaw, end, next, lines, stderr(), exited }`:
 * `next(predicate?, timeoutMs?)` resolves with the next parsed stdout message
 * matching `predicate` (unparsable lines are kept in `lines` only);
 * `exited` resolves with `{ code, signal }`.
 */
export function spawnMockCli({ scenario, log, args = ['--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json'], env, cwd } = {}) {
  const child = spawn(mockCliPath, args, { env: { ...mockEnv({ scenario, log }), ...env }, cwd, stdio: 'pipe' })
  child.stdin.on('error', () => {}) // the mock may exit before we stop writing

  const lines = []
  const messages = [] // parsed, not yet consumed by next()
  const waiters = []
  let ended = false
  let buf = ''
  let stderr = ''

  const push = (msg) => {
    const i = waiters.findIndex((w) => w.predicate(msg))
    if (i >= 0) waiters.splice(i, 1)[0].resolve(msg)
    else messages.push(msg)
  }
  child.stdout.setEncoding('utf8')
  child.stdout.on('data', (d) => {
    buf += d
    let nl
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl)
      buf = buf.slice(nl + 1)
      lines.push(line)
      try {
        push(JSON.parse(line))
      } catch {}
    }
  })
  child.stdout.on('end', () => {
    ended = true
    if (buf) lines.push(buf)
    for (const w of waiters.splice(0)) w.reject(new Error(`mock stdout ended; stderr: ${stderr}`))
  })
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (d) => (stderr += d))

  const exited = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })))

  return {
    child,
    lines,
    exited,
    stderr: () => stderr,
    send: (obj) => child.stdin.write(JSON.stringify(obj) + '\n'),
    sendRaw: (text) => child.stdin.write(text),
    end: () => child.stdin.end(),
    next(predicate = () => true, timeoutMs = 5000) {
      const i = messages.findIndex(predicate)
      if (i >= 0) return Promise.resolve(messages.splice(i, 1)[0])
      if (ended) return Promise.reject(new Error(`mock stdout ended; stderr: ${stderr}`))
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(w), 1)
          reject(new Error(`timed out waiting for a message; lines so far:\n${lines.join('\n')}\nstderr: ${stderr}`))
        }, timeoutMs)
        const w = {
          predicate,
          resolve: (m) => (clearTimeout(timer), resolve(m)),
          reject: (e) => (clearTimeout(timer), reject(e)),
        }
        waiters.push(w)
      })
    },
  }
}
