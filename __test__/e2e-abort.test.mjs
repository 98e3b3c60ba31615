// Issue 14.7: abort during a tool call, against the real CLI (both pinned versions) and the
// scripted model, side by side with the official SDK: the messages the CLI writes before the
// abort took effect — the user message carrying the interrupted tool result — are delivered,
// then the AbortError. With a string prompt and an MCP tool call, and with a streaming prompt and
// a permission prompt.
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import * as official from '@anthropic-ai/claude-agent-sdk'
import { CLIS } from './helpers/clis.mjs'
import { sdk as ours } from './helpers/sdk.mjs'
import { startScriptedModel } from '../testing/index.mjs'

/** Aborts from inside a callback 50 ms in, and waits for the callback's own signal. */
function aborter(abortController, seen) {
  return async (signal) => {
    setTimeout(() => abortController.abort(), 50)
    await new Promise((r) => signal.addEventListener('abort', r))
    seen.signalled = true
  }
}

const SCENARIOS = {
  'string prompt, an MCP tool call': (sdk, abortController, seen) => {
    const wait = aborter(abortController, seen)
    const server = sdk.createSdkMcpServer({
      name: 'slow',
      tools: [sdk.tool('wait', 'Waits', {}, async (args, extra) => {
        await wait(extra.signal)
        return { content: [{ type: 'text', text: 'aborted' }] }
      })],
    })
    return {
      turns: [{ toolUses: [{ name: 'mcp__slow__wait', input: {} }] }, { text: 'after the abort' }],
      prompt: 'wait',
      options: { mcpServers: { slow: server }, allowedTools: ['mcp__slow__wait'] },
    }
  },
  'streaming prompt, a permission prompt': (sdk, abortController, seen) => {
    const wait = aborter(abortController, seen)
    async function* prompt() {
      yield { type: 'user', message: { role: 'user', content: 'write' }, parent_tool_use_id: null, session_id: '' }
      await new Promise((r) => abortController.signal.addEventListener('abort', r))
    }
    return {
      turns: [{ toolUses: [{ name: 'Bash', input: { command: 'touch made-by-bash' } }] }, { text: 'after the abort' }],
      prompt: prompt(),
      options: { canUseTool: async (name, input, { signal }) => { await wait(signal); return { behavior: 'deny', message: 'no' } } },
    }
  },
}

/** Runs a scenario; the messages seen and the error thrown. */
async function run(sdk, cli, scenario) {
  const abortController = new AbortController()
  const seen = {}
  const { turns, prompt, options } = SCENARIOS[scenario](sdk, abortController, seen)
  const model = await startScriptedModel({ turns })
  const messages = []
  let error
  try {
    const all = { ...options, pathToClaudeCodeExecutable: cli, env: model.env(), cwd: model.tempDir('abort-'), abortController }
    for await (const m of sdk.query({ prompt, options: all })) messages.push(m)
  } catch (e) {
    error = e
  } finally {
    await model.close()
  }
  return { messages, error, signalled: seen.signalled }
}

/** Index of the first user message carrying a tool result. */
const interruptedAt = (messages) => messages.findIndex((m) => m.type === 'user' && Array.isArray(m.message.content) && m.message.content.some((c) => c.type === 'tool_result'))

const resultText = (message) => {
  const result = message?.message.content.find((c) => c.type === 'tool_result')
  return typeof result?.content === 'string' ? result.content : result?.content?.[0]?.text
}

for (const [version, cli] of Object.entries(CLIS)) {
  describe(`abort during a tool call, real CLI ${version}`, { concurrency: true }, () => {
    for (const scenario of Object.keys(SCENARIOS)) {
      it(`${scenario}: the interrupted tool result arrives before the AbortError, as with the official SDK`, async () => {
        const [mine, theirs] = await Promise.all([run(ours, cli, scenario), run(official, cli, scenario)])
        for (const [label, r, sdk] of [['official', theirs, official], ['ours', mine, ours]]) {
          assert.ok(r.error instanceof sdk.AbortError, `${label}: ${r.error?.stack ?? 'no error'}`)
          assert.ok(r.signalled, `${label}: the callback's signal fired`)
          const at = interruptedAt(r.messages)
          assert.ok(at >= 0, `${label}: a user message with the tool result arrives (${r.messages.map((m) => m.type)})`)
          assert.match(resultText(r.messages[at]), /interrupted before a result was received|stream closed before response received|Tool permission request failed/, label)
        }
        // The same messages up to the interrupted tool result, with the same text. After it, the
        // official SDK goes on delivering until the CLI exits (here the scripted model answers
        // at once); ours stops there: what follows is the CLI's next step, not the abort's.
        const head = (r) => r.messages.slice(0, interruptedAt(r.messages) + 1)
        assert.deepEqual(head(mine).map((m) => m.type), head(theirs).map((m) => m.type))
        assert.equal(resultText(head(mine).at(-1)), resultText(head(theirs).at(-1)))
        assert.equal(mine.messages.length, head(mine).length, 'ours ends with the interrupted tool result')
      })
    }
  })
}
