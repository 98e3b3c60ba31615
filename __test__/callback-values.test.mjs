// Issue 31 item 8: callbacks that throw or reject with values nothing can look at — a Proxy whose
// every trap throws (itself), a revoked Proxy, an Error whose `message` getter throws, a Symbol,
// a frozen null-prototype object. Every callback kind (canUseTool, hooks, elicitation and dialog
// callbacks, tool handlers, a session store's append, onProcessSpawned, stderr) must leave the
// host running (no unhandled rejection, no uncaught exception) and every request of the CLI
// answered (with an error answer), the session going on to its result.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sdk, collect, mockOptions, scenarioRecords } from './helpers/sdk.mjs'
import { within } from './helpers/process.mjs'

const { query, tool, createSdkMcpServer } = sdk

/** A Proxy each of whose traps (instanceof, property reads, String(), `in`, ...) throws the Proxy itself. */
function throwingProxy() {
  // The handler is itself a Proxy: whatever trap the engine asks for is a function that throws.
  const p = new Proxy({}, new Proxy({}, { get: () => () => { throw p } }))
  return p
}
function revokedProxy() {
  const { proxy, revoke } = Proxy.revocable({}, {})
  revoke()
  return proxy
}
function errorWithThrowingMessage() {
  const e = new Error('placeholder')
  Object.defineProperty(e, 'message', { get() { throw throwingProxy() } })
  return e
}

/** Each case: the value a callback throws (or rejects with). */
const VALUES = {
  proxy: throwingProxy,
  revoked: revokedProxy,
  getterThrows: errorWithThrowingMessage,
  symbol: () => Symbol('thrown'),
  frozenNullProto: () => Object.freeze(Object.create(null)),
}
// `sync`: a plain function that throws; `async`: a rejected promise.
const CASES = Object.keys(VALUES).flatMap((v) => [`${v}-sync`, `${v}-async`])
const fail = (name) => {
  const value = VALUES[name.replace(/-(sync|async)$/, '')]()
  if (name.endsWith('-sync')) throw value
  return Promise.reject(value)
}

/** Records unhandled rejections and uncaught exceptions without looking at the value (it throws). */
function trap() {
  const seen = []
  const onRejection = () => seen.push('unhandledRejection')
  const onException = () => seen.push('uncaughtException')
  process.on('unhandledRejection', onRejection)
  process.on('uncaughtException', onException)
  return {
    async check() {
      await new Promise((r) => setTimeout(r, 100))
      assert.deepEqual(seen, [], 'the host saw no unhandled rejection nor uncaught exception')
    },
    stop() {
      process.off('unhandledRejection', onRejection)
      process.off('uncaughtException', onException)
    },
  }
}

test('every callback kind throwing or rejecting with a value that throws on every look: each request answered with an error, no crash, the session goes on', async () => {
  const server = createSdkMcpServer({
    name: 'demo',
    tools: [
      ...CASES.map((n) => tool(n, 'd', {}, (_args) => fail(n))),
      // A handler resolving with such a value is an invalid result, answered too.
      tool('resolvesProxy', 'd', {}, async () => throwingProxy()),
    ],
  })
  const { log, options } = mockOptions(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      cli.systemInit()
      cli.stderr('some stderr for the stderr callback\\n')
      const out = {}
      for (const n of ${JSON.stringify(CASES)}) {
        out[n] = {
          perm: await cli.request('can_use_tool', { tool_name: n, input: { x: 1 }, tool_use_id: 'tu_' + n }),
          hook: await cli.request('hook_callback', { callback_id: 'hook_0', input: { hook_event_name: 'PreToolUse', tool_name: n }, tool_use_id: 'tu_' + n }),
          elicit: await cli.request('elicitation', { mcp_server_name: 'srv', message: n, mode: 'form', requested_schema: { type: 'object' } }),
          dialog: await cli.request('request_user_dialog', { dialog_kind: 'k', payload: { n }, tool_use_id: 'tu_' + n }),
          tool: await cli.request('mcp_message', { server_name: 'demo', message: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: n, arguments: {} } } }),
        }
      }
      out.resolvesProxy = await cli.request('mcp_message', { server_name: 'demo', message: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'resolvesProxy', arguments: {} } } })
      cli.log(out)
      cli.assistantText('carried on')
      cli.result()
    }`, {
    mcpServers: { demo: server },
    canUseTool: (name) => fail(name),
    hooks: { PreToolUse: [{ hooks: [(input) => fail(input.tool_name)] }] },
    onElicitation: (req) => fail(req.message),
    onUserDialog: (req) => fail(req.payload.n),
    supportedDialogKinds: ['k'],
    stderr: () => { throw throwingProxy() },
    onProcessSpawned: () => { throw throwingProxy() },
    onProcessExit: () => Promise.reject(revokedProxy()),
  })
  const unhandled = trap()
  try {
    const { messages, error } = await within(collect(query({ prompt: 'go', options })), 30000, 'the query to end (a request left unanswered?)')
    assert.equal(error, null)
    assert.deepEqual(messages.map((m) => m.type), ['system', 'assistant', 'result'])
    const [out] = scenarioRecords(log)
    for (const n of CASES) {
      const { perm, hook, elicit, dialog, tool: t } = out[n]
      assert.equal(perm.response?.behavior, 'deny', `${n}: canUseTool's request is answered with a deny (${JSON.stringify(perm)})`)
      assert.equal(perm.response.toolUseID, 'tu_' + n)
      assert.equal(typeof perm.response.message, 'string')
      for (const [kind, r] of [['hook', hook], ['elicitation', elicit], ['dialog', dialog]]) {
        assert.equal(r.subtype, 'error', `${n}: ${kind} gets an error response (${JSON.stringify(r)})`)
        assert.equal(typeof r.error, 'string')
      }
      const result = t.response?.mcp_response?.result
      assert.equal(result?.isError, true, `${n}: the tool call is an isError result (${JSON.stringify(t)})`)
      assert.equal(typeof result.content[0].text, 'string')
      if (n.startsWith('symbol')) assert.match(perm.response.message, /Symbol\(thrown\)/)
      if (n.startsWith('frozenNullProto')) assert.match(result.content[0].text, /\[object Object\]/)
    }
    const r = out.resolvesProxy
    const answered = r.response?.mcp_response ?? r
    assert.ok(answered.result?.isError === true || answered.error || r.subtype === 'error', `a tool resolving with such a value is answered (${JSON.stringify(r)})`)
    await unhandled.check()
  } finally {
    unhandled.stop()
  }
})

test("a session store whose append rejects with a Proxy that throws on every look: a mirror_error in the stream, the session ends normally", async () => {
  const SID = '11111111-2222-4333-8444-555555555555'
  const config = fs.mkdtempSync(path.join(os.tmpdir(), 'callback-values-'))
  try {
    const { options } = mockOptions(`
      import path from 'node:path'
      export default async function (cli) {
        await cli.initialize()
        await cli.nextUserMessage()
        cli.systemInit({ session_id: '${SID}' })
        if (cli.argv.includes('--session-mirror')) {
          cli.send({ type: 'transcript_mirror', filePath: path.join(process.env.CLAUDE_CONFIG_DIR, 'projects', 'p', '${SID}.jsonl'), entries: [{ type: 'user', uuid: 'u1', sessionId: '${SID}' }] })
        }
        cli.assistantText('hi', { session_id: '${SID}' })
        cli.result({ session_id: '${SID}' })
      }`)
    options.env.CLAUDE_CONFIG_DIR = config
    let calls = 0
    options.sessionStore = {
      append: () => { calls++; return Promise.reject(throwingProxy()) },
      load: async () => null,
    }
    const unhandled = trap()
    try {
      const { messages, error } = await within(collect(query({ prompt: 'go', options })), 30000, 'the query to end')
      assert.equal(error, null)
      const failure = messages.find((m) => m.subtype === 'mirror_error')
      assert.ok(failure, `a mirror_error is delivered (${JSON.stringify(messages.map((m) => m.subtype ?? m.type))})`)
      assert.equal(typeof failure.error, 'string')
      assert.equal(calls, 3, 'tried three times, as any failing append')
      assert.equal(messages.at(-1).type, 'result')
      await unhandled.check()
    } finally {
      unhandled.stop()
    }
  } finally {
    fs.rmSync(config, { recursive: true, force: true })
  }
})

test('an abort reason that throws on every look, for a control request with a signal: the request rejects, no crash', async () => {
  const { options } = mockOptions(`
    export default async function (cli) {
      cli.onControlRequest('slow_thing', () => cli.SILENT)
      await cli.initialize()
      await cli.nextUserMessage()
      cli.systemInit()
      await cli.waitStdinClosed()
    }`)
  let release
  const input = (async function* () {
    yield { type: 'user', message: { role: 'user', content: 'hi' }, parent_tool_use_id: null, session_id: '' }
    await new Promise((r) => (release = r))
  })()
  const q = query({ prompt: input, options })
  const unhandled = trap()
  try {
    await q.next()
    const controller = new AbortController()
    // An undeclared method of the official Query that takes a signal (lib/query-extra.js).
    const pending = q.readCloudSessions({ subtype: 'slow_thing' }, { signal: controller.signal })
    controller.abort(throwingProxy())
    const outcome = await within(pending.then(() => 'resolved', (e) => e), 10000, 'the aborted request to settle')
    assert.notEqual(outcome, 'resolved')
    await unhandled.check()
  } finally {
    unhandled.stop()
    release?.()
    q.close()
  }
})

test('issue 31 item 11: a session store append that never settles does not keep the host alive after break', async () => {
  const { runHost, entry, sdkHelpers } = await import('./helpers/process.mjs')
  const SID = '11111111-2222-4333-8444-555555555555'
  const config = fs.mkdtempSync(path.join(os.tmpdir(), 'callback-values-'))
  let host
  try {
    host = runHost(`
      import { query } from ${JSON.stringify(entry)}
      import { mockOptions } from ${JSON.stringify(sdkHelpers)}
      const { options } = mockOptions(\`
        import path from 'node:path'
        export default async function (cli) {
          await cli.initialize()
          await cli.nextUserMessage()
          cli.systemInit({ session_id: '${SID}' })
          cli.send({ type: 'transcript_mirror', filePath: path.join(process.env.CLAUDE_CONFIG_DIR, 'projects', 'p', '${SID}.jsonl'), entries: [{ type: 'user', uuid: 'u1', sessionId: '${SID}' }] })
          await cli.sleep(200)
          cli.assistantText('hi', { session_id: '${SID}' })
          cli.result({ session_id: '${SID}' })
        }\`)
      options.env.CLAUDE_CONFIG_DIR = ${JSON.stringify(config)}
      options.sessionStoreFlush = 'eager'
      let appends = 0
      options.sessionStore = { append: () => { appends++; return new Promise(() => {}) }, load: async () => null }
      for await (const m of query({ prompt: 'go', options })) {
        if (m.type === 'assistant') break
      }
      report({ broke: true, appends, at: Date.now() })
    `)
    const broke = await host.next((r) => r.broke, 20000)
    assert.equal(broke.appends, 1, 'the append was called and is still pending')
    const exited = await within(host.exited, 15000, `the host to exit after break (it stayed alive for the pending append); stderr: ${host.stderr()}`)
    assert.equal(exited.code, 0, host.stderr())
    assert.ok(Date.now() - broke.at < 10000, `the host exited ${Date.now() - broke.at} ms after break`)
  } finally {
    if (host && host.child.exitCode === null) host.child.kill('SIGKILL')
    fs.rmSync(config, { recursive: true, force: true })
  }
})
