// Our argv, initialize request and child env, compared case by case with what the official SDK
// 0.3.330 sent for the same options (captured in fixtures/official/options.json by
// scripts/capture-official.mjs). Runs each case against the mock CLI.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { z } from 'zod'
import { sdk, collect, mockOptions, readLog, readStdin } from './helpers/sdk.mjs'

const { query, tool, createSdkMcpServer } = sdk
const fixture = JSON.parse(fs.readFileSync(new URL('./fixtures/official/options.json', import.meta.url), 'utf8'))

/** Cases we deliberately do not replicate, with the reason. */
const NOT_REPLICATED = {
  executableArgs: 'the mock CLI is a script: executableArgs go to its runtime, not to it (the Rust unit tests check their place)',
  'mcpServers-mix+mcpServersDelivery-initialize': 'the capture fake answered initialize without a version, the mock CLI names one, so the error texts differ by it (side by side on the same mock in surface-notices.test.mjs)',
}

/** Turns the fixture's printed options back into live ones. */
function revive(value) {
  if (value === '[undefined]') return undefined
  if (value === '<options.cwd>') return cwdDir
  if (value === '[Function canUseTool]') return async () => ({ behavior: 'allow' })
  if (value === '[Function]') return async () => ({})
  if (typeof value === 'string' && /^\[Function on[A-Za-z]+\]$/.test(value)) return async () => null
  if (Array.isArray(value)) return value.map(revive)
  if (value && typeof value === 'object') {
    if (value.type === 'sdk' && value.instance === '[McpServer]') {
      return createSdkMcpServer({ name: value.name, tools: [tool('greet', 'Greets someone', { name: z.string() }, async () => ({ content: [] }))] })
    }
    const out = {}
    for (const [k, v] of Object.entries(value)) out[k] = revive(v)
    return out
  }
  return value
}

const cwdDir = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-cwd-'))
const SDK_ADDED_DEBUG_FILE = /^--debug-file=<home>\/\.claude\/debug\/sdk-<uuid>\.txt$/

for (const [name, c] of Object.entries(fixture.cases)) {
  if (NOT_REPLICATED[name]) continue
  test(`options conformance: ${name}`, async () => {
    const options = revive(c.options)
    // Servers in `initialize` hold the prompt until the CLI confirms them (as the capture fake did).
    const scenario = /mcp_servers_applied: true/.test(c.note ?? '')
      ? 'export default async function (cli) { await cli.initialize({ mcp_servers_applied: true }); for (;;) { await cli.nextUserMessage(); cli.systemInit(); cli.result() } }'
      : undefined
    const { log, options: mock } = mockOptions(scenario)
    // The mock's own settings ride along in env; an `env` option replaces the environment,
    // so they are added to it (they are not compared).
    const env = options.env
      ? { ...options.env, MOCK_CLI_LOG: log }
      : { ...mock.env, ...(c.capturingProcessEnv ?? {}) }
    // Some option errors are thrown by query() itself, as the official throws them.
    let started
    try {
      started = query({ prompt: 'capture', options: { ...options, pathToClaudeCodeExecutable: mock.pathToClaudeCodeExecutable, env } })
    } catch (e) {
      started = { [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(e) }) }
    }
    const { error } = await collect(started)
    if (c.error) {
      assert.ok(error, `expected the error: ${c.error.message}`)
      assert.equal(error.message, c.error.message)
      return
    }
    assert.equal(error, null, error && error.message)
    const start = readLog(log).find((r) => r.kind === 'start')
    const expectedArgv = c.argv.filter((a) => !SDK_ADDED_DEBUG_FILE.test(a)).map((a) => a.replaceAll('<options.cwd>', options.cwd ?? ''))
    assert.deepEqual(start.argv, expectedArgv)
    if (c.cwd === '<options.cwd>') assert.equal(fs.realpathSync(start.cwd), fs.realpathSync(cwdDir))
    const [init, ...rest] = readStdin(log)
    const expectedInit = { ...c.initialize, request_id: init.request_id }
    assert.deepEqual(init, expectedInit)
    assert.equal(JSON.stringify(init.request), JSON.stringify(expectedInit.request), 'same key order')
    assert.deepEqual(rest.filter((m) => m.type === 'user'), c.otherStdin.filter((m) => m.type === 'user'))
    for (const key of Object.keys(c.env)) {
      if (c.env[key] === '<redacted>') assert.ok(start.env[key], `env ${key} is set`)
      else if (/^(CLAUDE_|ANTHROPIC_)/.test(key)) assert.equal(start.env[key], c.env[key], `env ${key}`)
      else if (/^(DEBUG|MY_VAR)/.test(key)) assert.ok(start.ENV_KEYS.includes(key), `env ${key} is set`)
    }
    for (const key of start.ENV_KEYS.filter((k) => /^(CLAUDE_|ANTHROPIC_|DEBUG$|NODE_OPTIONS$)/.test(k))) {
      assert.ok(key in c.env, `the official SDK does not set ${key}`)
    }
  })
}
