// End to end: our package driving the real Claude Code CLI (both pinned versions: 2.1.332 takes
// the servers' manifests from initialize, 2.1.197 does the mcp_message handshake) against the
// scripted Messages API from testing/.
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { CLIS, root } from './helpers/clis.mjs'
import { z } from 'zod'
import { sdk } from './helpers/sdk.mjs'
import { startScriptedModel, toolResults, toolResultText, lastToolResult } from '../testing/index.mjs'

const { query, tool, createSdkMcpServer } = sdk
const STDIO_SERVER = path.join(root, '__test__/fixtures/servers/stdio-mcp-server.mjs')

function greeter(calls = []) {
  return createSdkMcpServer({
    name: 'demo',
    version: '1.0.0',
    tools: [
      tool('greet', 'Greets someone', { name: z.string() }, async ({ name }) => {
        calls.push(name)
        return { content: [{ type: 'text', text: `Hello, ${name}!` }] }
      }),
      tool('fail', 'Always fails', {}, async () => { throw new Error('the tool broke') }),
      tool('strict', 'Needs a count', { count: z.number().int().min(1) }, async ({ count }) => ({ content: [{ type: 'text', text: `count=${count}` }] })),
    ],
  })
}

/** The text of every tool_result the model received, in order, per turn. */
function resultsSeen(model) {
  return model.requests.map((r) => toolResults(r).map((b) => ({ text: toolResultText(b), isError: Boolean(b.is_error) })))
}

async function run(model, cli, prompt, options) {
  const messages = []
  let stderr = ''
  const q = query({ prompt, options: { pathToClaudeCodeExecutable: cli, env: model.env(), cwd: model.tempDir('e2e-'), stderr: (d) => (stderr += d), ...options } })
  for await (const m of q) messages.push(m)
  const result = messages.find((m) => m.type === 'result')
  assert.ok(result, `no result; stderr: ${stderr}`)
  return { messages, result }
}

for (const [version, cli] of Object.entries(CLIS)) {
  describe(`real CLI ${version}`, { concurrency: true }, () => {
    it('tool call round trip', async () => {
      const calls = []
      const model = await startScriptedModel({
        turns: [{ toolUses: [{ name: 'mcp__demo__greet', input: { name: 'Alice' } }] }, (req) => ({ text: 'Tool said: ' + toolResultText(lastToolResult(req)) })],
      })
      try {
        const { result, messages } = await run(model, cli, 'Greet Alice', { mcpServers: { demo: greeter(calls) }, allowedTools: ['mcp__demo__greet'] })
        assert.equal(result.subtype, 'success')
        assert.equal(result.result, 'Tool said: Hello, Alice!')
        assert.deepEqual(calls, ['Alice'])
        const init = messages.find((m) => m.type === 'system' && m.subtype === 'init')
        assert.ok(init.tools.includes('mcp__demo__greet'))
        assert.equal(init.mcp_servers.find((s) => s.name === 'demo').status, 'connected')
        assert.ok(messages.some((m) => m.type === 'user' && m.message.content.some?.((b) => b.type === 'tool_result')))
      } finally {
        await model.close()
      }
    })

    it('two parallel tool calls in one turn', async () => {
      const calls = []
      const model = await startScriptedModel({
        turns: [{ toolUses: [{ name: 'mcp__demo__greet', input: { name: 'Ann' } }, { name: 'mcp__demo__greet', input: { name: 'Bob' } }] }, { text: 'done' }],
      })
      try {
        const { result } = await run(model, cli, 'Greet both', { mcpServers: { demo: greeter(calls) }, allowedTools: ['mcp__demo__greet'] })
        assert.equal(result.subtype, 'success')
        assert.deepEqual(calls.sort(), ['Ann', 'Bob'])
        assert.deepEqual(resultsSeen(model)[1].map((r) => r.text).sort(), ['Hello, Ann!', 'Hello, Bob!'])
      } finally {
        await model.close()
      }
    })

    it('a throwing handler and a schema violation reach the model as errors', async () => {
      const model = await startScriptedModel({
        turns: [{ toolUses: [{ name: 'mcp__demo__fail', input: {} }] }, { toolUses: [{ name: 'mcp__demo__strict', input: { count: 'many' } }] }, { text: 'ok' }],
      })
      try {
        const { result } = await run(model, cli, 'Try', { mcpServers: { demo: greeter() }, allowedTools: ['mcp__demo__fail', 'mcp__demo__strict'] })
        assert.equal(result.subtype, 'success')
        const seen = resultsSeen(model)
        assert.deepEqual(seen[1], [{ text: 'the tool broke', isError: true }])
        assert.equal(seen[2][0].isError, true)
        assert.match(seen[2][0].text, /Input validation error: Invalid arguments for tool strict/)
        assert.match(seen[2][0].text, /count/)
      } finally {
        await model.close()
      }
    })

    it('canUseTool: deny, and allow with updatedInput', async () => {
      const calls = []
      const model = await startScriptedModel({
        turns: [{ toolUses: [{ name: 'mcp__demo__greet', input: { name: 'Mallory' } }] }, { toolUses: [{ name: 'mcp__demo__greet', input: { name: 'alice' } }] }, { text: 'ok' }],
      })
      try {
        const asked = []
        const { result } = await run(model, cli, 'Greet', {
          mcpServers: { demo: greeter(calls) },
          canUseTool: async (name, input, { toolUseID, signal }) => {
            asked.push({ name, input, hasId: typeof toolUseID === 'string', signal: signal instanceof AbortSignal })
            if (input.name === 'Mallory') return { behavior: 'deny', message: 'Mallory is not welcome' }
            return { behavior: 'allow', updatedInput: { name: 'Alice (capitalised)' } }
          },
        })
        assert.equal(result.subtype, 'success')
        assert.deepEqual(asked, [
          { name: 'mcp__demo__greet', input: { name: 'Mallory' }, hasId: true, signal: true },
          { name: 'mcp__demo__greet', input: { name: 'alice' }, hasId: true, signal: true },
        ])
        assert.deepEqual(calls, ['Alice (capitalised)'])
        const seen = resultsSeen(model)
        assert.equal(seen[1][0].isError, true)
        assert.match(seen[1][0].text, /Mallory is not welcome/)
        assert.deepEqual(seen[2][0], { text: 'Hello, Alice (capitalised)!', isError: false })
      } finally {
        await model.close()
      }
    })

    it('a stdio MCP server next to an SDK server, and two SDK servers at once', async () => {
      const second = createSdkMcpServer({ name: 'math', tools: [tool('add', 'Adds', { a: z.number(), b: z.number() }, async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }))] })
      const model = await startScriptedModel({
        turns: [{ toolUses: [{ name: 'mcp__echo__echo', input: { text: 'hi' } }, { name: 'mcp__demo__greet', input: { name: 'Zoe' } }, { name: 'mcp__math__add', input: { a: 2, b: 3 } }] }, { text: 'done' }],
      })
      try {
        const { result, messages } = await run(model, cli, 'Use all tools', {
          mcpServers: { echo: { command: process.execPath, args: [STDIO_SERVER] }, demo: greeter(), math: second },
          allowedTools: ['mcp__echo__echo', 'mcp__demo__greet', 'mcp__math__add'],
        })
        assert.equal(result.subtype, 'success')
        const init = messages.find((m) => m.type === 'system' && m.subtype === 'init')
        for (const t of ['mcp__echo__echo', 'mcp__demo__greet', 'mcp__math__add']) assert.ok(init.tools.includes(t), t)
        assert.deepEqual(resultsSeen(model)[1].map((r) => r.text).sort(), ['5', 'Hello, Zoe!', 'echo: hi'])
      } finally {
        await model.close()
      }
    })
  })
}
