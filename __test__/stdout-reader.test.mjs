// Who reads the CLI's stdout. Under Node the JS thread does (a libuv poll on the pipe), so a
// tool call reaches its handler in the wake-up that read it; when the CLI streams (a read budget
// already waiting at one wake-up) the engine's thread takes over, in parallel with the consumer,
// and hands the reader back once the CLI is quiet. Other runtimes read on the engine's thread
// throughout. Either way: every message, in order, and every call answered.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { mockCliPath, mockEnv, tempLogPath, tempScenario, scenarioRecords } from './helpers/sdk.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const BURST = 3000 // messages of ~1 KB: 3 MB, far past the 128 KiB that marks a stream

test('bursts are read on the engine thread and calls between them on the JS thread; nothing is lost or reordered', () => {
  const log = tempLogPath()
  const scenario = tempScenario(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      const burst = (from) => Array.from({ length: ${BURST} }, (_, i) => JSON.stringify({ type: 'assistant', n: from + i, pad: 'x'.repeat(1000) })).join('\\n') + '\\n'
      cli.sendRaw(burst(0))
      await cli.sleep(150)
      const one = await cli.mcp('demo', { method: 'tools/call', params: { name: 'echo', arguments: { text: 'one' } }, id: 1 })
      cli.sendRaw(burst(${BURST}))
      await cli.sleep(150)
      const two = await cli.mcp('demo', { method: 'tools/call', params: { name: 'echo', arguments: { text: 'two' } }, id: 2 })
      cli.log({ one, two })
      cli.result()
    }`)
  const script = `
    const { query, tool, createSdkMcpServer } = require(${JSON.stringify(path.join(root, 'index.js'))})
    const server = createSdkMcpServer({ name: 'demo', tools: [tool('echo', 'e', { type: 'object', properties: { text: { type: 'string' } } }, async (a) => ({ content: [{ type: 'text', text: a.text }] }))] })
    ;(async () => {
      const ns = []
      const options = { pathToClaudeCodeExecutable: ${JSON.stringify(mockCliPath)}, env: ${JSON.stringify(mockEnv({ scenario, log }))}, mcpServers: { demo: server } }
      for await (const m of query({ prompt: 'hi', options })) if (m.type === 'assistant') ns.push(m.n)
      process.stdout.write(JSON.stringify(ns))
    })()`
  const r = spawnSync(process.execPath, ['-e', script], {
    env: { ...process.env, DEBUG_CLAUDE_AGENT_SDK: '1', CLAUDE_AGENT_SDK_LOG: 'agent_core::session=trace' },
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  })
  assert.equal(r.status, 0, r.stderr.slice(-2000))
  const ns = JSON.parse(r.stdout)
  assert.equal(ns.length, 2 * BURST)
  assert.ok(ns.every((n, i) => n === i), 'messages in order')
  const [{ one, two }] = scenarioRecords(log)
  assert.equal(one.result.content[0].text, 'one')
  assert.equal(two.result.content[0].text, 'two')

  const toEngine = (r.stderr.match(/its stdout is read on the engine's thread/g) ?? []).length
  const toHost = (r.stderr.match(/its stdout goes back to the host's thread/g) ?? []).length
  if (process.versions.bun) {
    assert.match(r.stderr, /reading Claude Code's stdout thread=engine/)
    assert.equal(toEngine + toHost, 0)
  } else {
    assert.match(r.stderr, /reading Claude Code's stdout thread=host/)
    // Each burst went to the engine's thread, and the reader came back for each tool call.
    assert.ok(toEngine >= 2, `handed to the engine ${toEngine} times`)
    assert.ok(toHost >= 2, `given back ${toHost} times`)
    assert.match(r.stderr, /TRACE session \d+: the CLI is streaming/)
  }
})
