// Diagnostics: the engine's tracing, off by default, on with DEBUG_CLAUDE_AGENT_SDK=1 or
// options.debug; a session's lines go to its `stderr` option if it has one, else to the
// process's stderr; never an API key or a tool argument.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { mockCliPath, mockEnv, tempScenario } from './helpers/sdk.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const SECRET_KEY = 'sk-ant-api03-SECRETSECRETSECRET'
const SECRET_ARG = 'tool-arg-secret-4711'

/** Runs one query in a fresh host process; returns its stderr and what the `stderr` option got. */
function runHost({ debugEnv = false, debugOption = false, stderrOption = false, extraEnv = {} } = {}) {
  const scenario = tempScenario(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      cli.sendRaw('not json ${SECRET_KEY}\\n')
      await cli.mcp('demo', { method: 'tools/call', params: { name: 'echo', arguments: { text: '${SECRET_ARG}' } }, id: 1 })
      cli.result()
    }`)
  const env = { ...mockEnv({ scenario }), ANTHROPIC_API_KEY: SECRET_KEY }
  const script = `
    const { query, tool, createSdkMcpServer } = require(${JSON.stringify(path.join(root, 'index.js'))})
    const server = createSdkMcpServer({ name: 'demo', tools: [tool('echo', 'e', { type: 'object', properties: { text: { type: 'string' } } }, async (a) => ({ content: [{ type: 'text', text: a.text }] }))] })
    const captured = []
    ;(async () => {
      const options = { pathToClaudeCodeExecutable: ${JSON.stringify(mockCliPath)}, env: ${JSON.stringify(env)}, mcpServers: { demo: server } }
      if (${debugOption}) options.debug = true
      if (${stderrOption}) options.stderr = (d) => captured.push(d)
      for await (const m of query({ prompt: 'hi', options })) {}
      process.stdout.write(JSON.stringify(captured))
    })()`
  const r = spawnSync(process.execPath, ['-e', script], {
    env: { ...process.env, DEBUG_CLAUDE_AGENT_SDK: debugEnv ? '1' : '', ...extraEnv },
    encoding: 'utf8',
  })
  assert.equal(r.status, 0, r.stderr)
  return { stderr: r.stderr, option: JSON.parse(r.stdout).join('') }
}

const ENGINE_LINE = /^\[claude-agent-sdk-native\] (DEBUG|INFO|WARN) /m

test('off by default', () => {
  const { stderr, option } = runHost({ stderrOption: true })
  assert.doesNotMatch(stderr, ENGINE_LINE)
  assert.doesNotMatch(option, ENGINE_LINE)
})

test('DEBUG_CLAUDE_AGENT_SDK=1: one line per event on stderr, with the session id; no secrets', () => {
  const { stderr } = runHost({ debugEnv: true })
  assert.match(stderr, /^\[claude-agent-sdk-native\] DEBUG session \d+: spawned Claude Code/m)
  assert.match(stderr, /control request request_id=\S+ subtype=mcp_message/)
  assert.match(stderr, /WARN session \d+: skipped a line from Claude Code/)
  assert.ok(!stderr.includes(SECRET_KEY), 'no API key')
  assert.ok(!stderr.includes(SECRET_ARG), 'no tool argument')
})

test('options.debug with a stderr option: the session lines go to the option', () => {
  const { stderr, option } = runHost({ debugOption: true, stderrOption: true })
  assert.match(option, /session \d+: control request/)
  assert.doesNotMatch(stderr, /session \d+: control request/)
  assert.ok(!option.includes(SECRET_KEY) && !option.includes(SECRET_ARG))
})
