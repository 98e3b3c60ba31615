// The CLI's stdout is read by the engine's thread in every runtime, and the session loop that
// reads it owns every request: bursts of messages with tool calls between them arrive complete
// and in order, and every call is answered.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { mockCliPath, mockEnv, tempLogPath, tempScenario, scenarioRecords } from './helpers/sdk.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const BURST = 3000 // messages of ~1 KB: 3 MB, far past the consumer queue's bound

test('bursts with tool calls between and among them: nothing is lost or reordered, every call answered', () => {
  const log = tempLogPath()
  const scenario = tempScenario(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      const burst = (from) => Array.from({ length: ${BURST} }, (_, i) => JSON.stringify({ type: 'assistant', n: from + i, pad: 'x'.repeat(1000) })).join('\\n') + '\\n'
      cli.sendRaw(burst(0))
      await cli.sleep(150)
      const one = await cli.mcp('demo', { method: 'tools/call', params: { name: 'echo', arguments: { text: 'one' } }, id: 1 })
      // Calls in the middle of a burst, in the same write as the messages around them.
      const [two, three] = await Promise.all([
        cli.mcp('demo', { method: 'tools/call', params: { name: 'echo', arguments: { text: 'two' } }, id: 2 }),
        cli.mcp('demo', { method: 'tools/call', params: { name: 'echo', arguments: { text: 'three' } }, id: 3 }),
        cli.sendRaw(burst(${BURST})),
      ])
      cli.log({ one, two, three })
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
    env: { ...process.env, DEBUG_CLAUDE_AGENT_SDK: '1' },
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  })
  assert.equal(r.status, 0, r.stderr.slice(-2000))
  const ns = JSON.parse(r.stdout)
  assert.equal(ns.length, 2 * BURST)
  assert.ok(ns.every((n, i) => n === i), 'messages in order')
  const [{ one, two, three }] = scenarioRecords(log)
  assert.equal(one.result.content[0].text, 'one')
  assert.equal(two.result.content[0].text, 'two')
  assert.equal(three.result.content[0].text, 'three')
})
