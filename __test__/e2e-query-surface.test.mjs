// The query() surface against the real CLI (both pinned versions) and the scripted model:
// streaming input, interrupt, hooks, setPermissionMode, mcpServerStatus, abort during a tool
// call, partial messages, structured output.
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { CLIS, root } from './helpers/clis.mjs'
import { z } from 'zod'
import { sdk, alive, eventually } from './helpers/sdk.mjs'
import { childrenOf } from './helpers/process.mjs'
import { startScriptedModel, toolResults, toolResultText, lastUserText } from '../testing/index.mjs'

const { query, tool, createSdkMcpServer, AbortError } = sdk

const user = (text) => ({ type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null, session_id: '' })

/** A prompt stream whose next message is released by calling `next()`; ends on `end()`. */
function promptStream(texts) {
  const gates = texts.map(() => { let open; const p = new Promise((r) => (open = r)); return { p, open } })
  gates[0].open()
  let finish
  const done = new Promise((r) => (finish = r))
  let i = 0
  return {
    async *[Symbol.asyncIterator]() {
      for (const [k, text] of texts.entries()) {
        await gates[k].p
        yield user(text)
      }
      await done
    },
    next() { gates[++i]?.open() },
    end: () => finish(),
  }
}

function greeter(calls) {
  return createSdkMcpServer({
    name: 'demo',
    tools: [tool('greet', 'Greets someone', { name: z.string() }, async ({ name }) => {
      calls.push(name)
      return { content: [{ type: 'text', text: `Hello, ${name}!` }] }
    })],
  })
}

for (const [version, cli] of Object.entries(CLIS)) {
  describe(`query() surface, real CLI ${version}`, { concurrency: true }, () => {
    const base = (model, extra = {}) => ({ pathToClaudeCodeExecutable: cli, env: model.env(), cwd: model.tempDir('surface-'), ...extra })

    it('streaming input with two turns; interrupt; setPermissionMode; mcpServerStatus', async () => {
      const model = await startScriptedModel({ turns: [{ text: 'first answer' }, { text: 'slow', delayMs: 20000 }, { text: 'third answer' }] })
      const prompt = promptStream(['one', 'two', 'three'])
      const q = query({ prompt, options: base(model, { mcpServers: { demo: greeter([]) } }) })
      const results = []
      let status
      let sawMode
      try {
        for await (const m of q) {
          if (m.type === 'system' && m.subtype === 'init' && results.length === 1) {
            // Turn two is the slow one: interrupt it instead of waiting 20 s, once the model has
            // its request (an interrupt that arrives before the CLI asks the model ends the turn
            // before the scripted 'slow' turn is consumed, and turn three would get it).
            const asked = () => model.requests.some((r) => /two$/.test(lastUserText(r)))
            const poll = () => (asked() ? q.interrupt().catch(() => {}) : setTimeout(poll, 20))
            poll()
          }
          if (m.type === 'system' && m.permissionMode === 'acceptEdits') sawMode = true
          if (m.type !== 'result') continue
          results.push(m)
          if (results.length === 1) prompt.next()
          if (results.length === 2) {
            await q.setPermissionMode('acceptEdits')
            status = await q.mcpServerStatus()
            prompt.next()
          }
          if (results.length === 3) break
        }
      } finally {
        prompt.end()
        await model.close()
      }
      assert.equal(results[0].result, 'first answer')
      assert.equal(results[1].subtype, 'error_during_execution', 'the slow turn was interrupted')
      assert.equal(results[2].result, 'third answer')
      assert.ok(sawMode, 'the CLI reported the new permission mode')
      assert.equal(status.find((s) => s.name === 'demo')?.status, 'connected')
      assert.match(lastUserText(model.requests.at(-1)), /three$/)
    })

    it('PreToolUse deny, PostToolUse observe, and a hook changing tool input', async () => {
      const calls = []
      const observed = []
      const model = await startScriptedModel({
        turns: [
          { toolUses: [{ name: 'mcp__demo__greet', input: { name: 'Mallory' } }] },
          { toolUses: [{ name: 'mcp__demo__greet', input: { name: 'alice' } }] },
          { text: 'done' },
        ],
      })
      try {
        const q = query({
          prompt: 'greet people',
          options: base(model, {
            mcpServers: { demo: greeter(calls) },
            allowedTools: ['mcp__demo__greet'],
            hooks: {
              PreToolUse: [{
                matcher: 'mcp__demo__greet',
                hooks: [async (input) => {
                  if (input.tool_input.name === 'Mallory') {
                    return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'Mallory is blocked' } }
                  }
                  return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { name: input.tool_input.name.toUpperCase() } } }
                }],
              }],
              PostToolUse: [{ hooks: [async (input, toolUseID) => { observed.push({ tool: input.tool_name, toolUseID: typeof toolUseID, response: input.tool_response }); return {} }] }],
            },
          }),
        })
        for await (const m of q) if (m.type === 'result') assert.equal(m.subtype, 'success')
        assert.deepEqual(calls, ['ALICE'], 'Mallory never reached the handler; alice arrived changed')
        const denied = toolResults(model.requests[1])[0]
        assert.equal(denied.is_error, true)
        assert.match(toolResultText(denied), /Mallory is blocked/)
        assert.equal(observed.length, 1)
        assert.equal(observed[0].tool, 'mcp__demo__greet')
        assert.match(JSON.stringify(observed[0].response), /Hello, ALICE!/)
      } finally {
        await model.close()
      }
    })

    it('UserPromptSubmit adds context the model sees; Stop is observed', async () => {
      const model = await startScriptedModel({ turns: [{ text: 'ok' }] })
      const seen = []
      try {
        const q = query({
          prompt: 'hello there',
          options: base(model, {
            hooks: {
              UserPromptSubmit: [{ hooks: [async (input) => {
                seen.push(`${input.hook_event_name}:${input.prompt}`)
                return { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'CONTEXT-FROM-HOOK-42' } }
              }] }],
              Stop: [{ hooks: [async (input) => { seen.push(input.hook_event_name); return {} }] }],
            },
          }),
        })
        for await (const m of q) if (m.type === 'result') assert.equal(m.subtype, 'success')
        assert.deepEqual(seen, ['UserPromptSubmit:hello there', 'Stop'])
        assert.ok(JSON.stringify(model.requests[0]).includes('CONTEXT-FROM-HOOK-42'), 'the model received the added context')
      } finally {
        await model.close()
      }
    })

    it('abort during a tool call: AbortError, the handler is signalled, no process left', async () => {
      const abortController = new AbortController()
      let handlerSignal
      const server = createSdkMcpServer({
        name: 'slow',
        tools: [tool('wait', 'Waits', {}, async (args, extra) => {
          handlerSignal = extra.signal
          setTimeout(() => abortController.abort(), 50)
          await new Promise((r) => extra.signal.addEventListener('abort', r))
          return { content: [{ type: 'text', text: 'aborted' }] }
        })],
      })
      const model = await startScriptedModel({ turns: [{ toolUses: [{ name: 'mcp__slow__wait', input: {} }] }, { text: 'never' }] })
      const before = new Set(childrenOf())
      let cliPid
      try {
        const q = query({ prompt: 'wait', options: base(model, { mcpServers: { slow: server }, allowedTools: ['mcp__slow__wait'], abortController }) })
        await assert.rejects(async () => {
          for await (const m of q) {
            if (!cliPid) cliPid = childrenOf().find((p) => !before.has(p))
          }
        }, (e) => e instanceof AbortError)
        assert.equal(handlerSignal.aborted, true)
        assert.ok(cliPid, 'saw the CLI process')
        await eventually(() => !alive(cliPid), 15000, `CLI ${cliPid} to exit`)
      } finally {
        await model.close()
      }
    })

    it('includePartialMessages yields stream_event messages', async () => {
      const model = await startScriptedModel({ turns: [{ text: 'streamed words here' }] })
      try {
        const types = []
        for await (const m of query({ prompt: 'hi', options: base(model, { includePartialMessages: true }) })) types.push(m.type === 'stream_event' ? `stream_event:${m.event.type}` : m.type)
        assert.ok(types.includes('stream_event:message_start'))
        assert.ok(types.includes('stream_event:content_block_delta'))
        assert.ok(types.indexOf('stream_event:message_start') < types.indexOf('result'))
      } finally {
        await model.close()
      }
    })

    it('outputFormat: structured output in the result', async () => {
      const schema = { type: 'object', properties: { answer: { type: 'string' }, score: { type: 'number' } }, required: ['answer'] }
      const model = await startScriptedModel({ turns: [{ toolUses: [{ name: 'StructuredOutput', input: { answer: 'forty-two', score: 42 } }] }, { text: 'done' }] })
      try {
        let result
        for await (const m of query({ prompt: 'answer', options: base(model, { outputFormat: { type: 'json_schema', schema } }) })) if (m.type === 'result') result = m
        assert.equal(result.subtype, 'success')
        assert.deepEqual(result.structured_output ?? JSON.parse(result.result), { answer: 'forty-two', score: 42 })
      } finally {
        await model.close()
      }
    })
  })
}
