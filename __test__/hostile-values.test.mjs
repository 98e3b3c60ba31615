// Issue 14.1: callbacks that settle with values JSON cannot carry (a Symbol, a function, an object
// whose toJSON() returns undefined, a BigInt, a cycle) or throw something whose message is not a
// string. Every callback kind of lib/dispatch.js's table gets its request answered (a deny, an
// error response, an isError result) naming what was returned; the host never sees an unhandled
// rejection, and the session goes on.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { sdk, collect, mockOptions, scenarioRecords } from './helpers/sdk.mjs'
import { trapUnhandled, within } from './helpers/process.mjs'

const { query, tool, createSdkMcpServer } = sdk

function errWithMessage(message) {
  const e = new Error('placeholder')
  e.message = message
  return e
}
const cyclic = () => { const o = { a: 1 }; o.self = o; return o }

/** Each case: what the callback settles with, and what the answer must name. */
const CASES = {
  symbol: [() => Symbol('s'), /Symbol/],
  function: [() => () => {}, /function/],
  toJSONUndefined: [() => ({ toJSON() { return undefined } }), /JSON cannot represent|undefined/],
  bigint: [() => 10n, /BigInt/],
  cycle: [() => cyclic(), /circular|cyclic/i],
  throwSymbolMessage: [() => { throw errWithMessage(Symbol('m')) }, /Symbol\(m\)/],
  throwObjectMessage: [() => { throw errWithMessage({ a: 1 }) }, /message is not a string/],
  throwNullProto: [() => { throw Object.create(null) }, /\[object Object\]/],
}
const names = Object.keys(CASES)
const run = (name) => CASES[name][0]()

test('callbacks settling with values JSON cannot carry: every request is answered naming the value, no unhandled rejection, the session goes on', async () => {
  const server = createSdkMcpServer({ name: 'demo', tools: names.map((n) => tool(n, 'd', {}, async () => run(n))) })
  const { log, options } = mockOptions(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      cli.systemInit()
      const names = ${JSON.stringify(names)}
      const out = {}
      for (const n of names) {
        out[n] = {
          perm: await cli.request('can_use_tool', { tool_name: n, input: { x: 1 }, tool_use_id: 'tu_' + n }),
          hook: await cli.request('hook_callback', { callback_id: 'hook_0', input: { hook_event_name: 'PreToolUse', tool_name: n }, tool_use_id: 'tu_' + n }),
          elicit: await cli.request('elicitation', { mcp_server_name: 'srv', message: n, mode: 'form', requested_schema: { type: 'object' } }),
          dialog: await cli.request('request_user_dialog', { dialog_kind: 'k', payload: { n }, tool_use_id: 'tu_' + n }),
          tool: await cli.mcp('demo', { method: 'tools/call', params: { name: n, arguments: {} } }),
        }
      }
      cli.log(out)
      cli.assistantText('carried on')
      cli.result()
    }`, {
    mcpServers: { demo: server },
    canUseTool: async (name) => run(name),
    hooks: { PreToolUse: [{ hooks: [async (input) => run(input.tool_name)] }] },
    onElicitation: async (req) => run(req.message),
    onUserDialog: async (req) => run(req.payload.n),
    supportedDialogKinds: ['k'],
  })
  const unhandled = trapUnhandled()
  try {
    const { messages, error } = await within(collect(query({ prompt: 'go', options })), 30000, 'the query to end')
    assert.equal(error, null)
    assert.deepEqual(messages.map((m) => m.type), ['system', 'assistant', 'result'])
    const [out] = scenarioRecords(log)
    const tools = {}
    for (const n of names) {
      const re = CASES[n][1]
      const { perm, hook, elicit, dialog, tool: t } = out[n]
      assert.equal(perm.response?.behavior, 'deny', `${n}: canUseTool denies (${JSON.stringify(perm)})`)
      assert.equal(perm.response.toolUseID, 'tu_' + n)
      assert.match(perm.response.message, re, `${n}: canUseTool's deny names the value`)
      for (const [kind, r] of [['hook', hook], ['elicitation', elicit], ['dialog', dialog]]) {
        assert.equal(r.subtype, 'error', `${n}: ${kind} gets an error response (${JSON.stringify(r)})`)
        assert.match(r.error, re, `${n}: ${kind}'s error names the value`)
      }
      // A tool's invalid result is a JSON-RPC error, as the official McpServer answers it; a
      // throw is an isError result.
      const toolText = t.result?.isError === true ? t.result.content[0].text : t.error?.message
      assert.equal(typeof toolText, 'string', `${n}: the tool call is an isError result or a JSON-RPC error (${JSON.stringify(t)})`)
      assert.match(toolText, n === 'throwNullProto' ? re : new RegExp(re.source, 'i'), `${n}: the tool's answer names the value`)
      tools[n] = toolText
    }
    await unhandled.check()
  } finally {
    unhandled.stop()
  }
})
