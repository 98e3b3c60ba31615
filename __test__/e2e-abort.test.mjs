// Issue 14.7: abort during a tool call, against the real CLI (both pinned versions) and the
// scripted model, side by side with the official SDK: every message the CLI writes before the
// abort took effect — the user message carrying the interrupted tool result first — is delivered,
// then the AbortError.
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import * as official from '@anthropic-ai/claude-agent-sdk'
import { CLIS } from './helpers/clis.mjs'
import { sdk as ours } from './helpers/sdk.mjs'
import { startScriptedModel } from '../testing/index.mjs'

/** Runs the abort-during-a-tool-call scenario; the messages seen and the error thrown. */
async function run(sdk, cli) {
  const abortController = new AbortController()
  let signalled = false
  const server = sdk.createSdkMcpServer({
    name: 'slow',
    tools: [sdk.tool('wait', 'Waits', {}, async (args, extra) => {
      setTimeout(() => abortController.abort(), 50)
      await new Promise((r) => extra.signal.addEventListener('abort', r))
      signalled = true
      return { content: [{ type: 'text', text: 'aborted' }] }
    })],
  })
  const model = await startScriptedModel({ turns: [{ toolUses: [{ name: 'mcp__slow__wait', input: {} }] }, { text: 'after the abort' }] })
  const messages = []
  let error
  try {
    const options = { pathToClaudeCodeExecutable: cli, env: model.env(), cwd: model.tempDir('abort-'), mcpServers: { slow: server }, allowedTools: ['mcp__slow__wait'], abortController }
    for await (const m of sdk.query({ prompt: 'wait', options })) messages.push(m)
  } catch (e) {
    error = e
  } finally {
    await model.close()
  }
  return { messages, error, signalled }
}

/** The tool_result text of the first user message carrying one. */
const interrupted = (messages) => {
  const user = messages.find((m) => m.type === 'user' && Array.isArray(m.message.content) && m.message.content.some((c) => c.type === 'tool_result'))
  const result = user?.message.content.find((c) => c.type === 'tool_result')
  return typeof result?.content === 'string' ? result.content : result?.content?.[0]?.text
}

for (const [version, cli] of Object.entries(CLIS)) {
  describe(`abort during a tool call, real CLI ${version}`, { concurrency: true }, () => {
    it('the interrupted tool result arrives before the AbortError, as with the official SDK', async () => {
      const [mine, theirs] = await Promise.all([run(ours, cli), run(official, cli)])
      for (const [label, r] of [['official', theirs], ['ours', mine]]) {
        assert.ok(r.error, `${label}: the iterator throws`)
        assert.ok(r.error instanceof (label === 'ours' ? ours : official).AbortError, `${label}: ${r.error.stack}`)
        assert.ok(r.signalled, `${label}: the handler's signal fired`)
        const text = interrupted(r.messages)
        assert.ok(text, `${label}: a user message with the tool result arrives (${r.messages.map((m) => m.type)})`)
        assert.match(text, /interrupted before a result was received|stream closed before response received/, label)
      }
      assert.equal(interrupted(mine.messages), interrupted(theirs.messages), 'the same tool result text')
      // What comes before the tool result is the same; after it, the CLI may finish its turn.
      const head = (r) => r.messages.slice(0, r.messages.findIndex((m) => m.type === 'user') + 1).map((m) => m.type)
      assert.deepEqual(head(mine), head(theirs))
    })
  })
}
