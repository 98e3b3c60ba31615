// End to end, in-process MCP servers beyond tools/call: the real Claude Code CLI against the
// scripted Messages API. Resources read by the model, prompts, tools added and removed
// mid-session, outputSchema/structuredContent, elicitation, and a foreign McpServer of
// @modelcontextprotocol/sdk — each where it matters side by side with the official SDK.
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { z } from 'zod'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import * as official from '@anthropic-ai/claude-agent-sdk'
import { CLIS } from './helpers/clis.mjs'
import { sdk } from './helpers/sdk.mjs'
import { startScriptedModel, toolResults, toolResultText, toolNames } from '../testing/index.mjs'

const { query, createSdkMcpServer } = sdk
const NEW_CLI = CLIS['2.1.332']

async function run(q, model, cli, prompt, options) {
  let stderr = ''
  const messages = []
  for await (const m of q({ prompt, options: { pathToClaudeCodeExecutable: cli, env: model.env(), cwd: model.tempDir('e2e-mcp-'), stderr: (d) => (stderr += d), ...options } })) messages.push(m)
  const result = messages.find((m) => m.type === 'result')
  assert.ok(result, `no result; stderr: ${stderr}`)
  return { messages, result }
}

/** The text of each tool result the model received, per request. */
const resultsSeen = (model) => model.requests.map((r) => toolResults(r).map((b) => toolResultText(b)))

function docs() {
  const server = createSdkMcpServer({ name: 'docs', tools: [] })
  const s = server.instance
  s.registerResource('readme', 'file:///readme.md', { mimeType: 'text/markdown' }, async (uri) => ({ contents: [{ uri: uri.href, text: '# the readme' }] }))
  s.registerPrompt('review', { description: 'Review code', argsSchema: { code: z.string() } }, ({ code }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Please review ${code}` } }] }))
  let added
  s.registerTool('grow', { description: 'Adds the tool extra' }, async () => {
    added = s.registerTool('extra', { description: 'Added at run time', outputSchema: { n: z.number() } }, async () => {
      added.remove()
      return { content: [{ type: 'text', text: 'extra ran' }], structuredContent: { n: 7 } }
    })
    // The CLI refetches tools/list when told, in the background: give it a moment before the
    // turn goes on (with either SDK the next request could otherwise race the refetch).
    await new Promise((resolve) => setTimeout(resolve, 1000))
    return { content: [{ type: 'text', text: 'grown' }] }
  })
  s.registerTool('ask', { description: 'Asks the user' }, async (extra) => {
    const answer = await extra.sendRequest({ method: 'elicitation/create', params: { message: 'Sure?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } } })
      .then((r) => `answer ${JSON.stringify(r)}`, (e) => `error ${e.message}`)
    return { content: [{ type: 'text', text: answer }] }
  })
  return server
}

const SCRIPT = () => [
  { toolUses: [{ name: 'ReadMcpResourceTool', input: { server: 'docs', uri: 'file:///readme.md' } }] },
  { toolUses: [{ name: 'mcp__docs__grow', input: {} }] },
  { toolUses: [{ name: 'mcp__docs__extra', input: {} }] },
  { toolUses: [{ name: 'mcp__docs__ask', input: {} }] },
  { text: 'done' },
]
const ALLOWED = ['ReadMcpResourceTool', 'mcp__docs__grow', 'mcp__docs__extra', 'mcp__docs__ask']

describe('real CLI 2.1.332: in-process MCP servers', { concurrency: true }, () => {
  it('our server: a resource read by the model, a tool added then removed mid-session, structuredContent, an elicitation (as the official SDK)', async () => {
    const outcomes = []
    for (const q of [query, official.query]) {
      const model = await startScriptedModel({ turns: SCRIPT() })
      try {
        const { result } = await run(q, model, NEW_CLI, 'go', { mcpServers: { docs: docs() }, allowedTools: ALLOWED })
        assert.equal(result.subtype, 'success')
        const seen = resultsSeen(model)
        assert.match(seen[1][0], /# the readme/, 'the resource reached the model')
        assert.equal(seen[2][0], 'grown')
        assert.ok(!toolNames(model.requests[1]).includes('mcp__docs__extra'), 'not there before it was added')
        assert.ok(toolNames(model.requests[2]).includes('mcp__docs__extra'), 'the next request lists the added tool')
        assert.match(seen[3][0], /"n":\s*7/, 'its structuredContent reached the model')
        outcomes.push({ elicitation: seen[4][0] })
      } finally {
        await model.close()
      }
    }
    // The CLI answers the server's elicitation/create; ours gets the same answer as the official.
    assert.deepEqual(outcomes[0], outcomes[1])
  })

  it('a tool removed at run time is gone: a later call does not run it, as with the official SDK', async () => {
    // The CLI refetches tools/list when told; depending on whether that is done when the model
    // calls again, it refuses the call itself ("No such tool available") or the server does
    // ("Tool once not found"), with either SDK. Either way the tool does not run again.
    for (const q of [query, official.query]) {
      const server = createSdkMcpServer({ name: 'docs', tools: [] })
      let runs = 0
      const once = server.instance.registerTool('once', { description: 'Runs once' }, async () => {
        runs++
        once.remove()
        return { content: [{ type: 'text', text: 'ran' }] }
      })
      const model = await startScriptedModel({ turns: [{ toolUses: [{ name: 'mcp__docs__once', input: {} }] }, { toolUses: [{ name: 'mcp__docs__once', input: {} }] }, { text: 'done' }] })
      try {
        await run(q, model, NEW_CLI, 'go', { mcpServers: { docs: server }, allowedTools: ['mcp__docs__once'] })
        const seen = resultsSeen(model)
        assert.equal(seen[1][0], 'ran')
        assert.match(seen[2][0], /Tool once not found|No such tool available: mcp__docs__once/)
        assert.equal(runs, 1)
        assert.deepEqual(server.instance.listTools(), [])
      } finally {
        await model.close()
      }
    }
  })
})

for (const [version, cli] of Object.entries(CLIS)) {
  describe(`real CLI ${version}: a foreign McpServer`, { concurrency: true }, () => {
    it('its tool and its resource, as with the official SDK', async () => {
      const texts = []
      for (const q of [query, official.query]) {
        const server = new McpServer({ name: 'ext', version: '1.0.0' })
        server.registerTool('echo', { description: 'Echoes', inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }))
        server.registerResource('note', 'note://one', { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, text: 'a foreign note' }] }))
        const model = await startScriptedModel({
          turns: [
            { toolUses: [{ name: 'mcp__ext__echo', input: { text: 'hi' } }] },
            { toolUses: [{ name: 'ReadMcpResourceTool', input: { server: 'ext', uri: 'note://one' } }] },
            { text: 'done' },
          ],
        })
        try {
          const { result } = await run(q, model, cli, 'go', { mcpServers: { ext: { type: 'sdk', name: 'ext', instance: server } }, allowedTools: ['mcp__ext__echo', 'ReadMcpResourceTool'] })
          assert.equal(result.subtype, 'success')
          const seen = resultsSeen(model)
          assert.equal(seen[1][0], 'echo: hi')
          assert.match(seen[2][0], /a foreign note/)
          texts.push(seen)
        } finally {
          await model.close()
        }
      }
      assert.deepEqual(texts[0], texts[1])
    })
  })
}
