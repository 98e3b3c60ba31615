// claude-agent-sdk-native/browser side by side with the official @anthropic-ai/claude-agent-sdk/browser
// (0.3.332) under Node and Bun, against the same local server (helpers/remote-session-server.mjs):
// a real Claude Code CLI behind a WebSocket and behind SSE + POST, and scripted sessions for the
// wire's edge cases. The frames each sends, and what each yields and throws, must match.
import { describe as suite, it } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'

// Node 20 has WebSocket only behind --experimental-websocket: run this file again with it.
const REEXEC = typeof WebSocket === 'undefined' && !process.versions.bun
if (REEXEC) {
  it('runs under --experimental-websocket (Node 20 has no global WebSocket)', () => {
    const env = { ...process.env }
    delete env.NODE_TEST_CONTEXT // else the child's --test would report to this runner and run nothing
    const r = spawnSync(process.execPath, ['--experimental-websocket', '--test', fileURLToPath(import.meta.url)], { encoding: 'utf8', env, timeout: 120000 })
    const count = (what) => Number(r.stdout.match(new RegExp(`^# ${what} (\\d+)$`, 'm'))?.[1] ?? -1)
    assert.equal(r.status, 0, `the suite failed under --experimental-websocket:\n${r.stdout}\n${r.stderr}`)
    assert.equal(count('fail'), 0)
    assert.ok(count('pass') >= 10, `only ${count('pass')} tests passed:\n${r.stdout}`)
  })
}
// Here the suites run only where WebSocket is (in the child above, under Node 20).
const describe = REEXEC ? () => {} : suite

const { startRemoteSessionServer } = await import('./helpers/remote-session-server.mjs')
const { startScriptedModel, toolResultText, lastToolResult } = await import('../testing/index.mjs')
const ours = await import('../browser/index.mjs')
const official = await import('@anthropic-ai/claude-agent-sdk/browser')
const SDKS = { ours, official }

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g

/** A frame with its ids made comparable: uuids and the SDK's own request ids become <id>. */
function normalizeFrame(text) {
  const v = JSON.parse(text)
  if (typeof v.request_id === 'string') v.request_id = '<id>'
  if (v.response && typeof v.response.request_id === 'string') v.response.request_id = '<id>'
  return JSON.stringify(v).replace(UUID, '<uuid>').replace(/toolu_scripted_\w+?_(\d+)/g, 'toolu_scripted_$1')
}

function userMessage(text) {
  return { type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null, session_id: '' }
}

async function* once(...messages) {
  for (const m of messages) yield m
}

/** A prompt that stays open until `end()` (a remote session's input usually does). */
function openPrompt(...messages) {
  let end
  const ended = new Promise((resolve) => (end = resolve))
  return { prompt: (async function* () { yield* messages; await ended })(), end }
}

function greeter(sdk, calls) {
  return sdk.createSdkMcpServer({
    name: 'demo',
    version: '1.0.0',
    tools: [
      sdk.tool('greet', 'Greets someone', { name: z.string() }, async ({ name }) => {
        calls.push(name)
        return { content: [{ type: 'text', text: `Hello, ${name}!` }] }
      }),
      sdk.tool('strict', 'Needs a count', { count: z.number().int().min(1) }, async ({ count }) => ({ content: [{ type: 'text', text: `count=${count}` }] })),
    ],
  })
}

/** One query of `sdk` against the real CLI with a tool call, canUseTool and a hook; until the result. */
async function toolRoundTrip(sdk, transport) {
  const calls = []
  const seen = []
  const { prompt, end } = openPrompt(userMessage('Greet Alice'))
  const q = sdk.query({
    prompt,
    ...transport,
    mcpServers: { demo: greeter(sdk, calls) },
    canUseTool: async (name, input, { toolUseID }) => {
      seen.push(['canUseTool', name, input, typeof toolUseID])
      return { behavior: 'allow', updatedInput: input }
    },
    hooks: {
      PreToolUse: [{ matcher: 'mcp__demo__greet', hooks: [async (input) => { seen.push(['PreToolUse', input.tool_name, input.tool_input]); return {} }] }],
      PostToolUse: [{ hooks: [async (input) => { seen.push(['PostToolUse', input.tool_name]); return {} }] }],
    },
  })
  const messages = []
  for await (const m of q) {
    messages.push(m)
    if (m.type === 'result') break
  }
  end()
  return { q, calls, seen, messages }
}

function shapeOf(messages) {
  return messages.map((m) => (m.type === 'system' ? `system:${m.subtype}` : m.type))
}

describe('side by side with the official ./browser against a real CLI', { concurrency: true }, () => {
  for (const kind of ['websocket', 'sse']) {
    it(`${kind}: tool round trip with canUseTool and hooks sends the same frames and yields the same messages`, async () => {
      const script = () => [{ toolUses: [{ name: 'mcp__demo__greet', input: { name: 'Alice' } }] }, (req) => ({ text: 'Tool said: ' + toolResultText(lastToolResult(req)) })]
      const models = {}
      const server = await startRemoteSessionServer({
        cli: () => {
          const model = models.current
          return { env: model.env(), cwd: model.tempDir('browser-') }
        },
      })
      const runs = {}
      try {
        for (const [name, sdk] of Object.entries(SDKS)) {
          models.current = await startScriptedModel({ turns: script() })
          const id = `${kind}-${name}`
          const transport = kind === 'websocket'
            ? { websocket: { url: server.wsUrl('cli', id), authMessage: { type: 'auth', credential: { type: 'oauth', token: 'tok' } } } }
            : { sse: { ...server.sseUrls(id), headers: { Authorization: 'Bearer tok', 'anthropic-client-platform': 'web' } } }
          const run = await toolRoundTrip(sdk, transport)
          run.model = models.current
          run.sent = kind === 'websocket' ? server.ws(id).received : server.sse(id).posts.map((p) => JSON.stringify(p.body.events[0].payload))
          run.headers = kind === 'websocket' ? [] : [...server.sse(id).streamRequests.map((h) => [h.accept, h.authorization, h['anthropic-client-platform'], h['last-event-id']]), ...server.sse(id).posts.map((p) => [p.headers['content-type'], p.headers.authorization, p.body.session_id === id])]
          if (kind === 'sse') {
            run.drops = sdk.getSseDropCounts(run.q)
            const result = run.messages.at(-1)
            run.cursor = sdk.getSseLastSequenceNum(run.q)
            run.resultEvent = sdk.getCcrEvent(run.q, result)
          } else {
            assert.equal(sdk.getSseDropCounts(run.q), undefined)
            assert.equal(sdk.getSseLastSequenceNum(run.q), undefined)
          }
          runs[name] = run
          await models.current.close()
        }
        const { ours: a, official: b } = runs
        assert.equal(a.messages.at(-1).result, 'Tool said: Hello, Alice!')
        assert.deepEqual(a.calls, ['Alice'])
        assert.deepEqual(a.calls, b.calls)
        assert.deepEqual(a.seen, b.seen)
        assert.deepEqual(a.seen.map((s) => s[0]), ['PreToolUse', 'canUseTool', 'PostToolUse'])
        assert.deepEqual(shapeOf(a.messages), shapeOf(b.messages))
        // The frames each sent: initialize and the prompt first, in that order; the answers to the
        // CLI's requests as a set (their order follows the CLI's concurrent requests).
        const na = a.sent.flatMap((t) => t.split('\n').filter(Boolean)).map(normalizeFrame)
        const nb = b.sent.flatMap((t) => t.split('\n').filter(Boolean)).map(normalizeFrame)
        assert.deepEqual(na.slice(0, kind === 'websocket' ? 3 : 2), nb.slice(0, kind === 'websocket' ? 3 : 2))
        assert.deepEqual([...na].sort(), [...nb].sort())
        assert.ok(na.some((f) => f.includes('"subtype":"initialize"') && f.includes('"hookCallbackIds":["hook_0"]') && f.includes('"sdkMcpServers":["demo"]')))
        assert.ok(na.some((f) => f.includes('"behavior":"allow"')))
        if (kind === 'websocket') assert.equal(na[0], '{"type":"auth","credential":{"type":"oauth","token":"tok"}}')
        else {
          assert.deepEqual(a.headers, b.headers)
          assert.deepEqual(a.headers[0], ['text/event-stream', 'Bearer tok', 'web', undefined])
          assert.deepEqual(a.drops, b.drops)
          assert.equal(a.cursor, b.cursor)
          assert.equal(a.resultEvent.sequence_num, a.cursor)
          assert.equal(b.resultEvent.sequence_num, b.cursor)
          assert.deepEqual(Object.keys(a.resultEvent).sort(), Object.keys(b.resultEvent).sort())
        }
        // What the model saw: the tool's answer, for both.
        assert.equal(toolResultText(lastToolResult(a.model.requests[1])), 'Hello, Alice!')
        assert.equal(toolResultText(lastToolResult(b.model.requests[1])), 'Hello, Alice!')
      } finally {
        await server.close()
      }
    })
  }
})

/** Runs `fn(server)` with a scripted server of its own, closed after. */
async function withServer(fn) {
  const server = await startRemoteSessionServer()
  try {
    return await fn(server)
  } finally {
    await server.close()
  }
}

/** Runs `body(sdk, ids)` for both SDKs and returns {ours, official}. */
async function both(body) {
  const out = {}
  for (const [name, sdk] of Object.entries(SDKS)) out[name] = await body(sdk, name)
  return out
}

async function collect(q, { until, timeoutMs = 5000 } = {}) {
  const messages = []
  let error
  const timer = setTimeout(() => q.close(), timeoutMs)
  try {
    for await (const m of q) {
      messages.push(m)
      if (until?.(m, messages)) break
    }
  } catch (err) {
    error = err
  } finally {
    clearTimeout(timer)
  }
  return { messages, error }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

async function waitFor(check, what, ms = 5000) {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await sleep(5)
  }
}

describe('the SSE wire, scripted', { concurrency: true }, () => {
  it('filters, drop counts, envelopes, delivery updates and catch_up_truncated match', async () => {
    await withServer(async (server) => {
      const got = await both(async (sdk, name) => {
        const id = `script-filters-${name}`
        const session = server.sse(id)
        session.echo = false // no echo of initialize: the sequence numbers and updates are the test's own
        const truncated = []
        const updates = []
        const warn = console.warn
        const debug = console.debug
        console.warn = console.debug = () => {}
        const q = sdk.query({
          prompt: once(),
          sse: { ...server.sseUrls(id), onCatchUpTruncated: () => truncated.push(true), onDeliveryUpdate: (u) => { updates.push(u); throw new Error('contained') } },
        })
        await waitFor(() => session.streams.size === 1, 'the stream')
        const n = (i) => ({ eventId: `ev-${i}`, createdAt: '2026-11-27T00:00:00Z' })
        session.append({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'hi' }] }, parent_tool_use_id: null, session_id: 's', uuid: 'u1', ccr_event: { sequence_num: 999 } }, { source: 'worker', ...n(1) })
        session.emit('event: catch_up_truncated\ndata: {}\n\n')
        session.emit('event: delivery_update\ndata: {"event_id":"ev-1","status":"DELIVERY_STATUS_PROCESSED","timestamp":"t"}\n\n')
        session.emit('event: delivery_update\ndata: {"event_id":1}\n\n')
        session.emit(`event: ephemeral_event\ndata: ${JSON.stringify({ payload: { type: 'stream_event', event: { type: 'message_start' }, ccr_event: 1 } })}\n\n`)
        session.emit(`event: ephemeral_event\ndata: ${JSON.stringify({ payload: { type: 'system', subtype: 'thinking_tokens', uuid: 'u2', session_id: 's', estimated_tokens: 5, secret: 'x' } })}\n\n`)
        session.emit(`event: ephemeral_event\ndata: ${JSON.stringify({ payload: { type: 'assistant' } })}\n\n`)
        session.emit('event: client_event\nid: 50\ndata: {not json\n\n')
        session.append({ notype: true }, n(2))
        session.append({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'x' }] }, parent_tool_use_id: null, session_id: 's' }, { source: 'client', ...n(3) })
        session.append({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: 5 }] }, parent_tool_use_id: null, session_id: 's' }, { source: 'worker', ...n(4) })
        session.append({ type: 'user', message: { role: 'user', content: 'from a peer' }, parent_tool_use_id: null, session_id: 's' }, { source: 'client', ...n(5) })
        session.append({ type: 'control_response', response: 'bad' }, n(6))
        session.append({ type: 'control_response', response: { subtype: 'success', request_id: 'other-client', response: {}, pending_permission_requests: [], error_code: 'x' } }, { source: 'client', ...n(7) })
        session.append({ type: 'assistant', message: { role: 'assistant', content: [] } }, { source: 'client', ...n(8) })
        session.append({ type: 'queued_notification', text: 'x' }, { source: 'worker', eventType: 'other', ...n(9) })
        session.append({ type: 'result', subtype: 'success', is_error: false, result: 'done', num_turns: 1, session_id: 's', uuid: 'u3' }, { source: 'worker', ...n(10) })
        const { messages } = await collect(q, { until: (m) => m.type === 'result' })
        console.warn = warn
        console.debug = debug
        const envelopes = messages.map((m) => sdk.getCcrEvent(q, m))
        return {
          messages,
          envelopes,
          drops: sdk.getSseDropCounts(q),
          cursor: sdk.getSseLastSequenceNum(q),
          truncated: truncated.length,
          updates,
          copyEnvelope: sdk.getCcrEvent(q, { ...messages[0] }),
        }
      })
      assert.deepEqual(got.ours.messages, got.official.messages)
      assert.deepEqual(got.ours.envelopes, got.official.envelopes)
      assert.deepEqual(got.ours.drops, got.official.drops)
      assert.equal(got.ours.cursor, got.official.cursor)
      assert.equal(got.ours.truncated, 1)
      assert.equal(got.official.truncated, 1)
      assert.deepEqual(got.ours.updates, got.official.updates)
      assert.equal(got.ours.copyEnvelope, undefined)
      assert.equal(got.official.copyEnvelope, undefined)
      // And what that is: the counts by category, the cursor at the result's sequence number.
      assert.deepEqual(got.ours.drops, {
        catch_up_truncated: 1, malformed_delivery_update: 1, ephemeral_type: 1, unparseable_frame: 1, missing_type: 1,
        user_worker_only: 1, malformed_user_content: 1, malformed_control_response: 1, non_worker_type: 2,
      })
      assert.equal(got.ours.cursor, 10)
      assert.deepEqual(got.ours.envelopes[0], { event_id: 'ev-1', sequence_num: 1, created_at: '2026-11-27T00:00:00Z', source: 'worker' })
      assert.equal('ccr_event' in got.ours.messages[0], false)
      // (Another client's control_response reaches the query, which keeps it as unmatched.)
      assert.deepEqual(got.ours.messages.map((m) => m.type), ['assistant', 'stream_event', 'system', 'user', 'result'])
    })
  })

  it('suspend, resume and a dropped stream reconnect from the cursor (Last-Event-ID); fromSequenceNum seeds it', async () => {
    await withServer(async (server) => {
      const got = await both(async (sdk, name) => {
        const id = `script-resume-${name}`
        const session = server.sse(id)
        session.echo = false // sequence numbers stay the test's own
        for (let i = 1; i <= 3; i++) session.append({ type: 'system', subtype: 'status', status: `s${i}`, session_id: 's', uuid: `u${i}` }, { eventId: `e${i}` })
        const q = sdk.query({ prompt: once(), sse: { ...server.sseUrls(id), fromSequenceNum: 1 } })
        const seen = []
        const reader = (async () => {
          for await (const m of q) {
            seen.push(m.status ?? m.type)
            if (m.type === 'result') break
          }
        })()
        await waitFor(() => seen.length === 2, 'the replay after the seed')
        const cursorAfterReplay = sdk.getSseLastSequenceNum(q)
        const suspended = [sdk.suspendSseStream(q), sdk.suspendSseStream(q)]
        await waitFor(() => session.streams.size === 0, 'the stream to close')
        session.append({ type: 'system', subtype: 'status', status: 's4', session_id: 's', uuid: 'u4' }, { eventId: 'e4' })
        await sleep(50)
        const whileSuspended = seen.length
        const resumed = [sdk.resumeSseStream(q), sdk.resumeSseStream(q)]
        await waitFor(() => seen.length === 3, 'the replay after resume')
        session.closeStreams() // the server drops the stream: reconnect after ~1 s
        session.append({ type: 'system', subtype: 'status', status: 's5', session_id: 's', uuid: 'u5' }, { eventId: 'e5' })
        session.append({ type: 'result', subtype: 'success', is_error: false, result: 'ok', num_turns: 1, session_id: 's', uuid: 'u6' }, { eventId: 'e6' })
        await reader
        return {
          seen,
          cursorAfterReplay,
          suspended,
          resumed,
          whileSuspended,
          lastEventIds: session.streamRequests.map((h) => h['last-event-id']),
          afterClose: [sdk.suspendSseStream(q), sdk.resumeSseStream(q)],
          cursor: sdk.getSseLastSequenceNum(q),
        }
      })
      assert.deepEqual(got.ours, got.official)
      assert.deepEqual(got.ours.seen, ['s2', 's3', 's4', 's5', 'result'])
      assert.deepEqual(got.ours.lastEventIds, ['1', '3', '4'])
      assert.deepEqual(got.ours.suspended, [true, false])
      assert.deepEqual(got.ours.resumed, [true, false])
      assert.equal(got.ours.whileSuspended, 2)
      assert.equal(got.ours.cursor, 6)
      assert.deepEqual(got.ours.afterClose, [false, false])
    })
  })

  it('a 404 on the stream ends the query with the same SSEHttpError; a refused POST fails it too', async () => {
    await withServer(async (server) => {
      const got = await both(async (sdk, name) => {
        const id = `script-404-${name}`
        server.sse(id).reject = { status: 404, type: 'not_found_error' }
        const q = sdk.query({ prompt: once(userMessage('hi')), sse: server.sseUrls(id) })
        const { error } = await collect(q)
        return { name: error?.name, message: error?.message, code: error?.code, reason: error?.reason }
      })
      assert.deepEqual(got.ours, got.official)
      assert.deepEqual(got.ours, { name: 'SSEHttpError', message: 'SSE connect failed: HTTP 404', code: 404, reason: 'not_found_error' })
    })
  })
})

describe('the control protocol over WebSocket, scripted', { concurrency: true }, () => {
  it('answers the session\'s requests the same way (unknown subtype, hook id, server, elicitation, dialogs, cancel)', async () => {
    await withServer(async (server) => {
      const got = await both(async (sdk, name) => {
        const id = `ws-control-${name}`
        let cancelled
        const q = sdk.query({
          prompt: once(),
          websocket: { url: server.wsUrl('script', id) },
          mcpServers: { demo: greeter(sdk, []) },
          canUseTool: (tool, input, { signal }) => new Promise((resolve) => {
            if (tool === 'Slow') signal.addEventListener('abort', () => { cancelled = signal.aborted; resolve({ behavior: 'deny', message: 'late' }) })
            else resolve({ behavior: 'deny', message: `no ${tool}` })
          }),
          hooks: { Stop: [{ hooks: [async () => ({ continue: true })] }] },
        })
        const reading = collect(q, { until: (m) => m.type === 'result' })
        const entry = await server.wsConnected(id)
        await waitFor(() => entry.received.length >= 1, 'initialize')
        const send = (v) => entry.conn.send(JSON.stringify(v) + '\n')
        const req = (rid, request) => send({ type: 'control_request', request_id: rid, request })
        req('r1', { subtype: 'no_such_thing' })
        req('r2', { subtype: 'hook_callback', callback_id: 'hook_99', input: {} })
        req('r3', { subtype: 'hook_callback', callback_id: 'hook_0', input: { hook_event_name: 'Stop' } })
        req('r4', { subtype: 'mcp_message', server_name: 'nope', message: { jsonrpc: '2.0', id: 1, method: 'tools/list' } })
        req('r5', { subtype: 'mcp_message', server_name: 'demo', message: { jsonrpc: '2.0', id: 2, method: 'tools/list' } })
        req('r6', { subtype: 'mcp_message', server_name: 'demo', message: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'strict', arguments: { count: 0 } } } })
        req('r7', { subtype: 'mcp_message', server_name: 'demo', message: { jsonrpc: '2.0', id: 4, method: 'resources/list' } })
        req('r8', { subtype: 'elicitation', mcp_server_name: 'demo', message: 'pick' })
        req('r9', { subtype: 'request_user_dialog', dialog_kind: 'x', payload: {} })
        req('r10', { subtype: 'can_use_tool', tool_name: 'Bash', input: { command: 'ls' }, tool_use_id: 'tu1' })
        req('r11', { subtype: 'can_use_tool', tool_name: 'Slow', input: {}, tool_use_id: 'tu2' })
        req('r12', { subtype: 'mcp_message', server_name: 'demo', message: { jsonrpc: '2.0', method: 'notifications/initialized' } })
        req('r13', { subtype: 'oauth_token_refresh' })
        await waitFor(() => entry.received.length >= 12, 'answers')
        send({ type: 'control_cancel_request', request_id: 'r11' })
        await waitFor(() => entry.received.length >= 13, 'the cancelled request\'s answer')
        send({ type: 'result', subtype: 'success', is_error: false, result: 'ok', num_turns: 1, session_id: 's' })
        await reading
        const answers = entry.received.slice(1).flatMap((t) => t.split('\n').filter(Boolean)).map((t) => JSON.parse(t)).sort((x, y) => x.response.request_id.localeCompare(y.response.request_id, 'en', { numeric: true }))
        return { answers, cancelled }
      })
      assert.deepEqual(got.ours.answers, got.official.answers)
      assert.equal(got.ours.cancelled, true)
      assert.equal(got.official.cancelled, true)
      const byId = Object.fromEntries(got.ours.answers.map((a) => [a.response.request_id, a.response]))
      assert.deepEqual(byId.r1, { subtype: 'error', request_id: 'r1', error: 'Unsupported control request subtype: no_such_thing', error_code: 'unsupported_request' })
      assert.equal(byId.r2.error, 'No hook callback found for ID: hook_99')
      assert.equal(byId.r4.error, 'SDK MCP server not found: nope')
      assert.deepEqual(byId.r7.response.mcp_response.error, { code: -32601, message: 'Method not found' })
      assert.deepEqual(byId.r8.response, { action: 'decline' })
      assert.equal(byId.r9, undefined) // no onUserDialog: left for another client
      // Cancelled: the callback's signal aborts; what it still returns is sent (as the official does).
      assert.deepEqual(byId.r11.response, { behavior: 'deny', message: 'late', toolUseID: 'tu2' })
      assert.match(byId.r6.response.mcp_response.result.content[0].text, /^MCP error -32602: Input validation error: Invalid arguments for tool strict: /)
    })
  })

  it('callbacks and declarations: a blocking hook holds the prompt until initialize confirms it; elicitation, dialogs, jsonSchema, promptSuggestions', async () => {
    await withServer(async (server) => {
      const got = await both(async (sdk, name) => {
        const id = `ws-callbacks-${name}`
        const q = sdk.query({
          prompt: once(userMessage('hello')),
          websocket: { url: server.wsUrl('script', id) },
          hooks: { PreToolUse: [{ matcher: 'Bash', onFailure: 'block', hooks: [async () => ({ decision: 'approve' })] }] },
          onElicitation: async (req, { requestId }) => ({ action: 'accept', content: { pick: req.message, requestId } }),
          onUserDialog: async (req) => ({ behavior: 'completed', result: { kind: req.dialogKind, tool: req.toolUseID } }),
          supportedDialogKinds: ['ask'],
          promptSuggestions: true,
          jsonSchema: { type: 'object', properties: { a: { type: 'string' } } },
        })
        const reading = collect(q, { until: (m) => m.type === 'result' })
        const entry = await server.wsConnected(id)
        await waitFor(() => entry.received.length >= 1, 'initialize')
        await sleep(50)
        const beforeAnswer = entry.received.length
        const init = JSON.parse(entry.received[0])
        const send = (v) => entry.conn.send(JSON.stringify(v) + '\n')
        send({ type: 'control_response', response: { subtype: 'success', request_id: init.request_id, response: { hook_on_failure_supported: true, hooks_applied: true } } })
        await waitFor(() => entry.received.length >= 2, 'the prompt')
        send({ type: 'control_request', request_id: 'e1', request: { subtype: 'elicitation', mcp_server_name: 'srv', message: 'pick one', requested_schema: { type: 'object' } } })
        send({ type: 'control_request', request_id: 'd1', request: { subtype: 'request_user_dialog', dialog_kind: 'ask', payload: { q: 1 }, tool_use_id: 'tu9' } })
        send({ type: 'control_request', request_id: 'h1', request: { subtype: 'hook_callback', callback_id: 'hook_0', input: { hook_event_name: 'PreToolUse', tool_name: 'Bash' }, tool_use_id: 'tu1' } })
        await waitFor(() => entry.received.length >= 5, 'the answers')
        send({ type: 'result', subtype: 'success', is_error: false, result: 'ok', num_turns: 1, session_id: 's' })
        await reading
        return { beforeAnswer, sent: entry.received.map(normalizeFrame).sort() }
      })
      assert.deepEqual(got.ours, got.official)
      assert.equal(got.ours.beforeAnswer, 1) // the prompt waited for initialize's answer
      const init = JSON.parse(got.ours.sent.find((f) => f.includes('"initialize"')))
      assert.deepEqual(init.request.hooks.PreToolUse[0].onFailure, 'block')
      assert.deepEqual(init.request.supportedDialogKinds, ['ask'])
      assert.equal(init.request.promptSuggestions, true)
      assert.deepEqual(init.request.jsonSchema, { type: 'object', properties: { a: { type: 'string' } } })
    })
  })

  it('a blocking hook the session cannot honour ends the query before the prompt is sent', async () => {
    await withServer(async (server) => {
      const got = await both(async (sdk, name) => {
        const id = `ws-block-${name}`
        const q = sdk.query({ prompt: once(userMessage('hello')), websocket: { url: server.wsUrl('script', id) }, hooks: { Stop: [{ onFailure: 'block', hooks: [async () => ({})] }] } })
        const reading = collect(q)
        const entry = await server.wsConnected(id)
        await waitFor(() => entry.received.length >= 1, 'initialize')
        const init = JSON.parse(entry.received[0])
        entry.conn.send(JSON.stringify({ type: 'control_response', response: { subtype: 'success', request_id: init.request_id, response: {} } }) + '\n')
        const { error } = await reading
        await sleep(20)
        return { error: error?.message, frames: entry.received.length }
      })
      assert.deepEqual(got.ours, got.official)
      assert.match(got.ours.error, /does not honor onFailure on hook matchers/)
      assert.equal(got.ours.frames, 1)
    })
  })

  it('the in-process MCP server answers as the official one (and an official server object works in our query)', async () => {
    const MESSAGES = [
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'greet', arguments: { name: 'Ann' } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'strict', arguments: { count: 'x' } } },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'missing', arguments: {} } },
      { jsonrpc: '2.0', id: 5, method: 'ping' },
      { jsonrpc: '2.0', id: 6, method: 'prompts/list' },
      { jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion: '1999-01-01', capabilities: {}, clientInfo: { name: 'c', version: '1' } } },
    ]
    await withServer(async (server) => {
      const run = async (querySdk, serverSdk, tag) => {
        const id = `ws-mcp-${tag}`
        const q = querySdk.query({ prompt: once(), websocket: { url: server.wsUrl('script', id) }, mcpServers: { demo: greeter(serverSdk, []) } })
        const entry = await server.wsConnected(id)
        await waitFor(() => entry.received.length >= 1, 'initialize')
        MESSAGES.forEach((message, i) => entry.conn.send(JSON.stringify({ type: 'control_request', request_id: `m${i}`, request: { subtype: 'mcp_message', server_name: 'demo', message } }) + '\n'))
        await waitFor(() => entry.received.length >= 1 + MESSAGES.length, 'the answers')
        q.close()
        return entry.received.slice(1).map((t) => JSON.parse(t)).sort((a, b) => a.response.request_id.localeCompare(b.response.request_id, 'en', { numeric: true }))
      }
      const mine = await run(ours, ours, 'ours')
      const theirs = await run(official, official, 'official')
      const mixed = await run(ours, official, 'mixed')
      assert.deepEqual(mine, theirs)
      assert.deepEqual(mixed, theirs)
      assert.equal(mine[3].response.response.mcp_response.result.content[0].text, 'Hello, Ann!')
    })
  })

  it('every Query method sends the same control request and reads the answer the same way', async () => {
    const CALLS = [
      ['reinitialize'], ['setMcpPermissionModeOverride', 'srv', 'always_ask'], ['updateSettings', 'userSettings', { a: 1 }], ['seedReadState', '/f', 5],
      ['readFile', '/f', { maxBytes: 9 }], ['usage_EXPERIMENTAL_MAY_CHANGE_DO_NOT_RELY_ON_THIS_API_YET', { skipBehaviors: true }], ['reloadOutputStyles'],
      ['reloadSkills'], ['reloadPlugins', { addPlugins: ['p'], refuseIfBusy: true }], ['applyFlagSettings', { model: 'm' }], ['stopTask', 't1'],
      ['backgroundTasks', 'tu'], ['mcpServerStatus'], ['reconnectMcpServer', 's'], ['toggleMcpServer', 's', false], ['readMcpResource', 's', 'u://x'],
      ['getContextUsage'], ['rewindFiles', 'm1', { dryRun: true }], ['cancelAsyncMessage', 'u1'], ['setMaxThinkingTokens', 100],
      ['setMcpServers', { other: { type: 'http', url: 'http://127.0.0.1:9/mcp' } }],
    ]
    await withServer(async (server) => {
      const got = await both(async (sdk, name) => {
        const id = `ws-methods-${name}`
        const q = sdk.query({ prompt: once(), websocket: { url: server.wsUrl('script', id) } })
        const entry = await server.wsConnected(id)
        // Answers every control request of the client: success, echoing what was asked.
        const answer = (text) => {
          for (const l of text.split('\n').filter(Boolean)) {
            const f = JSON.parse(l)
            if (f.type !== 'control_request') continue
            const s = f.request.subtype
            const response = s === 'read_file' ? { content: 'x' } : s === 'mcp_status' ? { mcpServers: [] } : s === 'background_tasks' ? { backgrounded: false } : s === 'cancel_async_message' ? { cancelled: true } : { asked: s }
            entry.conn.send(JSON.stringify({ type: 'control_response', response: { subtype: 'success', request_id: f.request_id, response } }) + '\n')
          }
        }
        entry.received.forEach(answer)
        entry.onFrame = answer
        const results = []
        for (const [method, ...args] of CALLS) results.push([method, await q[method](...args)])
        q.close()
        return { results, sent: entry.received.map(normalizeFrame) }
      })
      assert.deepEqual(got.ours, got.official)
      assert.equal(got.ours.sent.length, CALLS.length + 1)
    })
  })

  it('its own requests: interrupt, setModel, setPermissionMode, an error answer, a malformed line skipped', async () => {
    await withServer(async (server) => {
      const got = await both(async (sdk, name) => {
        const id = `ws-requests-${name}`
        const q = sdk.query({ prompt: once(), websocket: { url: server.wsUrl('script', id) } })
        const entry = await server.wsConnected(id)
        await waitFor(() => entry.received.length >= 1, 'initialize')
        const send = (v) => entry.conn.send(JSON.stringify(v) + '\n')
        const init = JSON.parse(entry.received[0])
        send({ type: 'control_response', response: { subtype: 'success', request_id: init.request_id, response: { commands: [{ name: 'c' }], models: [], account: { email: 'a@b' } } } })
        const results = {}
        const answer = (match, response) => waitFor(() => entry.received.some((t) => t.includes(match)), match).then(() => {
          const frame = JSON.parse(entry.received.find((t) => t.includes(match)))
          send({ type: 'control_response', response: { ...response, request_id: frame.request_id } })
        })
        const calls = [
          q.interrupt().then((v) => (results.interrupt = v)),
          q.setModel('m2').then((v) => (results.setModel = v)),
          q.setPermissionMode('plan').then((v) => (results.mode = v)),
          q.mcpServerStatus().then((v) => (results.status = v), (e) => (results.statusError = e.message)),
          q.supportedCommands().then((v) => (results.commands = v)),
          q.accountInfo().then((v) => (results.account = v)),
        ]
        await answer('"interrupt"', { subtype: 'success', response: { still_queued: ['a', 1] } })
        await answer('"set_model"', { subtype: 'success' })
        await answer('"set_permission_mode"', { subtype: 'success', response: { mode: 'manual' } })
        await answer('"mcp_status"', { subtype: 'error', error: 'nope', error_code: 'bad_code' })
        await Promise.all(calls)
        entry.conn.send('this is not json\n{"type":"system","subtype":"status","status":"x",')
        entry.conn.send('"session_id":"s"}\n')
        send({ type: 'result', subtype: 'success', is_error: false, result: 'ok', num_turns: 1, session_id: 's' })
        const { messages } = await collect(q, { until: (m) => m.type === 'result' })
        const sent = entry.received.map(normalizeFrame)
        return { results, messages, sent }
      })
      assert.deepEqual(got.ours, got.official)
      assert.deepEqual(got.ours.results.interrupt, { still_queued: ['a'] })
      assert.deepEqual(got.ours.results.mode, { mode: 'default' })
      assert.equal(got.ours.results.statusError, 'nope')
      assert.deepEqual(got.ours.messages.map((m) => m.type), ['system', 'result'])
    })
  })
})

describe('the entry as published', () => {
  it('resolves as claude-agent-sdk-native/browser; pure ESM importing only itself, zod/v4 and eventsource-parser', async () => {
    const viaExports = await import('claude-agent-sdk-native/browser')
    assert.equal(viaExports.query, ours.query)
    assert.deepEqual(Object.keys(ours).sort(), Object.keys(official).sort())
    assert.equal(typeof ours.z.object, 'function')
    assert.deepEqual(ours.z.object({ a: ours.z.string() }).parse({ a: 'x' }), official.z.object({ a: official.z.string() }).parse({ a: 'x' }))
    const fs = await import('node:fs')
    const dir = new URL('../browser/', import.meta.url)
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.mjs'))) {
      const text = fs.readFileSync(new URL(file, dir), 'utf8')
      const specifiers = [...text.matchAll(/^(?:import|export)[^'"]*from '([^']+)'/gm)].map((m) => m[1])
      for (const spec of specifiers) assert.ok(spec.startsWith('./') || spec === 'zod/v4' || spec === 'eventsource-parser', `${file} imports ${spec}`)
      assert.doesNotMatch(text, /\brequire\(|\bprocess\.\w|\bBuffer\.\w|'node:/, `${file} uses a Node-only API`)
    }
  })
  it("its FileIndex and CommandMatcher are lib/'s, copied as ES modules by scripts/browser-shared.mjs", async () => {
    const { SHARED, esmOf } = await import('../scripts/browser-shared.mjs')
    const fs = await import('node:fs')
    for (const [source, target] of SHARED) {
      assert.equal(fs.readFileSync(new URL(`../${target}`, import.meta.url), 'utf8'), esmOf(source), `${target} is stale: run node scripts/browser-shared.mjs`)
    }
  })
})

describe('bad input and failures', { concurrency: true }, () => {
  it('the server closing the socket abnormally ends both with the same error', async () => {
    await withServer(async (server) => {
      const got = await both(async (sdk, name) => {
        const id = `ws-close-${name}`
        const q = sdk.query({ prompt: once(), websocket: { url: server.wsUrl('script', id) } })
        const entry = await server.wsConnected(id)
        entry.conn.send('{"type":"system","subtype":"status","status":"a","session_id":"s"}\n')
        entry.conn.close(4001, 'session expired')
        const { messages, error } = await collect(q)
        return { types: messages.map((m) => m.type), message: error?.message }
      })
      assert.deepEqual(got.ours, got.official)
      assert.deepEqual(got.ours, { types: ['system'], message: 'WebSocket closed abnormally with code 4001: session expired' })
    })
  })

  it('aborting ends both the same way, over WebSocket and over SSE', async () => {
    await withServer(async (server) => {
      const got = await both(async (sdk, name) => {
        const out = {}
        for (const kind of ['websocket', 'sse']) {
          const id = `script-abort-${kind}-${name}`
          const abortController = new AbortController()
          const transport = kind === 'websocket' ? { websocket: { url: server.wsUrl('script', id) } } : { sse: server.sseUrls(id) }
          const q = sdk.query({ prompt: once(), abortController, ...transport })
          if (kind === 'websocket') await server.wsConnected(id)
          else await waitFor(() => server.sse(id).streams.size === 1, 'the stream')
          setTimeout(() => abortController.abort(), 20)
          const { error } = await collect(q)
          out[kind] = { name: error?.name, message: error?.message, isError: error instanceof Error }
        }
        return out
      })
      assert.deepEqual(got.ours, got.official)
      assert.deepEqual(got.ours.websocket, { name: 'Error', message: 'WebSocket connection aborted by user', isError: true })
      assert.deepEqual(got.ours.sse, { name: 'Error', message: 'SSE connection aborted by user', isError: true })
    })
  })

  it('a POST answered 503 is sent again (after 1 s); a socket closed normally ends the query without an error', async () => {
    await withServer(async (server) => {
      const got = await both(async (sdk, name) => {
        const id = `script-retry-${name}`
        const session = server.sse(id)
        session.echo = false
        session.failPosts = 1
        const q = sdk.query({ prompt: once(userMessage('hi')), sse: server.sseUrls(id) })
        const started = Date.now()
        await waitFor(() => session.posts.filter((p) => p.body.events[0].payload.type === 'user').length === 1, 'the prompt', 8000)
        const waited = Date.now() - started
        q.close()
        const wsId = `ws-normal-close-${name}`
        const wq = sdk.query({ prompt: once(), websocket: { url: server.wsUrl('script', wsId) } })
        const entry = await server.wsConnected(wsId)
        entry.conn.send('{"type":"system","subtype":"status","status":"a","session_id":"s"}\n')
        entry.conn.close(1000, 'done')
        const closed = await collect(wq)
        return { posts: session.posts.map((p) => p.body.events[0].payload.type), retriedAfterASecond: waited >= 1000, closed: { types: closed.messages.map((m) => m.type), error: closed.error } }
      })
      assert.deepEqual(got.ours, got.official)
      assert.deepEqual(got.ours, { posts: ['control_request', 'control_request', 'user'], retriedAfterASecond: true, closed: { types: ['system'], error: undefined } })
    })
  })

  it('a POST refused with 401 ends an SSE query with the same SSEHttpError', async () => {
    await withServer(async (server) => {
      const got = await both(async (sdk, name) => {
        const id = `script-post401-${name}`
        server.sse(id).postStatus = 401
        const { error } = await collect(sdk.query({ prompt: once(userMessage('hi')), sse: server.sseUrls(id) }))
        return { name: error?.name, message: error?.message.replace(id, '<id>'), code: error?.code }
      })
      assert.deepEqual(got.ours, got.official)
      assert.equal(got.ours.name, 'SSEHttpError')
      assert.equal(got.ours.code, 401)
    })
  })

  it('nothing listening: both end with the same connection error', async () => {
    const server = await startRemoteSessionServer()
    const url = server.wsUrl('script', 'gone')
    await server.close()
    const got = await both(async (sdk) => {
      const { error } = await collect(sdk.query({ prompt: once(), websocket: { url } }))
      return error?.message
    })
    assert.equal(got.ours, got.official)
    // Node's WebSocket fires only `error`; Bun's (and browsers') `close` (1006) after it, which wins.
    assert.match(got.ours, /^(WebSocket connection error|WebSocket closed abnormally with code 1006: )$/)
  })

  it('options the official rejects are rejected with its words; what it would fail on later gets a clear error', () => {
    const prompt = once()
    const same = (options, expected) => {
      for (const sdk of Object.values(SDKS)) assert.throws(() => sdk.query(options), expected)
    }
    same({ prompt, websocket: { url: 'ws://127.0.0.1:1' }, mcpServers: { x: { type: 'stdio', command: 'x' } } }, { message: 'Browser SDK only supports SDK MCP servers for now' })
    same({ prompt, websocket: { url: 'ws://127.0.0.1:1' }, supportedDialogKinds: ['x'] }, /supportedDialogKinds requires an onUserDialog callback/)
    same({ prompt, websocket: { url: 'ws://127.0.0.1:1' }, hooks: { PreToolUse: {} } }, /the hooks option can't be sent to Claude Code: hooks\.PreToolUse must be an array of matchers/)
    // A URL of the wrong scheme: the official names the protocol; ours names the option too.
    assert.throws(() => official.query({ prompt, websocket: { url: 'http://127.0.0.1:1' } }), { message: 'WebSocket URL must use ws:// or wss:// protocol' })
    assert.throws(() => ours.query({ prompt, websocket: { url: 'http://127.0.0.1:1' } }), { message: /websocket\.url must use ws:\/\/ or wss:\/\//, name: 'TypeError' })
    assert.throws(() => ours.query({ prompt, websocket: { url: 'not a url' } }), /websocket\.url is not a valid URL: "not a url"/)
    // No transport: the official fails reading `undefined.url`; ours says what is missing.
    assert.throws(() => official.query({ prompt }), TypeError)
    assert.throws(() => ours.query({ prompt }), /give one of `websocket: \{ url \}` or `sse: \{ streamUrl, sendUrl, sessionId \}`/)
    assert.throws(() => ours.query({ prompt, websocket: { url: 'ws://x' }, sse: {} }), /exactly one of `websocket` or `sse`/)
    assert.throws(() => ours.query({ prompt, sse: { streamUrl: 'http://x/s', sendUrl: 'http://x/e' } }), /sse\.sessionId must be a non-empty string/)
    assert.throws(() => ours.query({ prompt, sse: { streamUrl: 'ftp://x/s', sendUrl: 'http://x/e', sessionId: 's' } }), /sse\.streamUrl must use http:\/\/ or https:\/\//)
    assert.throws(() => ours.query({ prompt: 'hello', websocket: { url: 'ws://x' } }), /`prompt` must be an AsyncIterable of SDKUserMessage/)
  })

  it('tool() and createSdkMcpServer() take zod 4 and JSON Schema, and name a zod 3 or unknown schema', async () => {
    const { compileInputSchema } = await import('../browser/schema.mjs')
    const s = compileInputSchema('t', { a: z.string().describe('A'), n: z.number().optional() })
    assert.deepEqual(s.jsonSchema, { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { a: { type: 'string', description: 'A' }, n: { type: 'number' } }, required: ['a'] })
    assert.deepEqual(await s.validate({ a: 'x' }), { ok: true, value: { a: 'x' } })
    assert.match((await s.validate({ a: 1 })).message, /^MCP error -32602: Input validation error: Invalid arguments for tool t: /)
    const json = compileInputSchema('j', { type: 'object', properties: { q: { type: 'string' } } })
    assert.deepEqual(json.jsonSchema, { type: 'object', properties: { q: { type: 'string' } } })
    assert.throws(() => compileInputSchema('u', { foo: 1 }), { message: 'inputSchema must be a Zod schema or raw shape, received an unrecognized object' })
    const v3 = await import('zod/v3')
    assert.throws(() => ours.createSdkMcpServer({ name: 'x', tools: [ours.tool('old', 'd', { a: v3.z.string() }, async () => ({ content: [] }))] }), /Tool old: the browser entry takes zod 4 schemas/)
  })
})
