// attachBridgeSession of claude-agent-sdk-native/bridge side by side with the official
// `./bridge`, each against its own copy of the same local fake (worker register, PUT/GET /worker,
// events, delivery, heartbeats, the SSE event stream): the same requests, the same callbacks,
// the same close codes — including reconnectTransport's token refresh and the writes it carries
// over. Failures and retries: bridge-failures.test.mjs.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import * as ours from 'claude-agent-sdk-native/bridge'
import { startBridgeFake } from './helpers/bridge-fake.mjs'
import { sideBySide, until, sleep, callbacks } from './helpers/bridge-side-by-side.mjs'

test('attach: register, stream, inbound routing, control requests, writes, state, delivery, goodbye', async () => {
  const r = await sideBySide({}, async (pkg, fake, record) => {
    const h = await pkg.attachBridgeSession({
      sessionId: 'cse_s1', ingressToken: 'jwt-a', apiBaseUrl: fake.url + '/', heartbeatIntervalMs: 200, claudeCodeVersion: '2.1.332',
      ...callbacks(record),
      onSetPermissionMode: (m) => (m === 'plan' ? { ok: false, error: 'no plan here' } : { ok: true }),
      onRenameSession: (t) => { record('rename', t); return { ok: true } },
      onStopTask: async (id) => { if (id === 'bad') throw new Error('x') },
      onBackgroundTasks: (id) => id === 'tu_1',
      onSetModel: (m) => (m === 'slow' ? Promise.resolve({ ok: true, notices: ['switched'], model: 'slow-1' }) : m === 'no' ? { ok: false, error: 'unknown model' } : undefined),
      onSetMaxThinkingTokens: (t) => (t === 1 ? Promise.reject(new Error('boom')) : { ok: true }),
    })
    record('attached', h.sessionId, h.getEpoch(), h.getSequenceNum())
    await until('stream', () => fake.streams.size === 1)
    await until('connected', () => h.isConnected())
    h.sendControlRequest({ type: 'control_request', request_id: 'perm-1', request: { subtype: 'can_use_tool', tool_name: 'Bash', input: {} } })
    const frames = [
      { type: 'user', uuid: '11111111-1111-4111-8111-111111111111', message: { role: 'user', content: 'hi' } },
      { type: 'user', uuid: '11111111-1111-4111-8111-111111111111', message: { role: 'user', content: 'again' } },
      { type: 'user', isReplay: true, uuid: 'r1', message: { role: 'user', content: 'replay' } },
      { type: 'user', parent_tool_use_id: 'tu', uuid: 'p1', message: { role: 'user', content: 'sub' } },
      { type: 'assistant', uuid: 'a9', message: { role: 'assistant', content: [] } },
      { type: 'control_request', request_id: 'init-1', request: { subtype: 'initialize' } },
      { type: 'control_request', request_id: 'int-1', request: { subtype: 'interrupt', spare_background_tasks: true } },
      { type: 'control_request', request_id: 'pm-1', request: { subtype: 'set_permission_mode', mode: 'manual' } },
      { type: 'control_request', request_id: 'pm-2', request: { subtype: 'set_permission_mode', mode: 'plan' } },
      { type: 'control_request', request_id: 'pm-3', request: { subtype: 'set_permission_mode', mode: 'yolo' } },
      { type: 'control_request', request_id: 'rn-1', request: { subtype: 'rename_session', title: 'New' } },
      { type: 'control_request', request_id: 'rn-2', request: { subtype: 'rename_session', title: 5 } },
      { type: 'control_request', request_id: 'st-1', request: { subtype: 'stop_task', task_id: 'ok' } },
      { type: 'control_request', request_id: 'st-2', request: { subtype: 'stop_task', task_id: 'bad' } },
      { type: 'control_request', request_id: 'bg-1', request: { subtype: 'background_tasks', tool_use_id: 'tu_1' } },
      { type: 'control_request', request_id: 'bg-2', request: { subtype: 'background_tasks' } },
      { type: 'control_request', request_id: 'sm-1', request: { subtype: 'set_model', model: 'slow' } },
      { type: 'control_request', request_id: 'sm-2', request: { subtype: 'set_model', model: 'no' } },
      { type: 'control_request', request_id: 'sm-3', request: { subtype: 'set_model', model: 5 } },
      { type: 'control_request', request_id: 'tt-1', request: { subtype: 'set_max_thinking_tokens', max_thinking_tokens: 1 } },
      { type: 'control_request', request_id: 'tt-2', request: { subtype: 'set_max_thinking_tokens', max_thinking_tokens: 1.5 } },
      { type: 'control_request', request_id: 'ms-1', request: { subtype: 'mcp_status' } },
      { type: 'control_request', request_id: 'gu-1', request: { subtype: 'get_usage' } },
      { type: 'control_request', request_id: 'fl-1', request: { subtype: 'apply_flag_settings', settings: { model: 'x' } } },
      { type: 'control_request', request_id: 'fl-2', request: { subtype: 'apply_flag_settings', settings: { ultracode: true } } },
      { type: 'control_request', request_id: 'fk-1', request: { subtype: 'fork_conversation' } },
      { type: 'control_request', request_id: 'xx-1', request: { subtype: 'teleport' } },
      { type: 'control_response', response: { subtype: 'success', request_id: 'perm-1', response: { behavior: 'allow' } } },
    ]
    frames.forEach((f, i) => fake.send(i + 1, f))
    await until('sequence', () => h.getSequenceNum() === frames.length)
    await sleep(100)
    h.write({ type: 'assistant', uuid: '22222222-2222-4222-8222-222222222222', message: { role: 'assistant', content: [{ type: 'text', text: 'yo' }] } })
    h.write({ type: 'assistant', uuid: '22222222-2222-4222-8222-222222222222', message: { role: 'assistant', content: [] } })
    h.sendResult()
    h.sendControlResponse({ type: 'control_response', response: { subtype: 'success', request_id: 'x1' } })
    h.sendControlCancelRequest('perm-9')
    h.reportState('requires_action')
    h.reportMetadata({ branch: 'main' })
    h.reportDelivery('ev1', 'processing')
    await h.flush()
    await sleep(400)
    h.reportState('idle')
    await h.flush()
    record('seq', h.getSequenceNum(), h.isConnected())
    h.close()
    h.close()
    h.write({ type: 'user', message: { role: 'user', content: 'after close' } })
  })
  assert.equal(r.summary.register.length, 1)
  assert.ok(r.summary.events.length > 20)
})

test('attach: inbound edge cases (notifications, requestId, rejected permission answers, odd frames)', async () => {
  await sideBySide({}, async (pkg, fake, record) => {
    const h = await pkg.attachBridgeSession({
      sessionId: 'cse_e', ingressToken: 'jwt', apiBaseUrl: fake.url, epoch: 2, ...callbacks(record),
      onPermissionResponse: (r) => { record('permission', r); return r.response.request_id !== 'p-keep' && undefined },
    })
    await until('stream', () => fake.streams.size === 1)
    h.sendControlRequest({ type: 'control_request', request_id: 'p-keep', request: { subtype: 'can_use_tool', tool_name: 'Read', input: {} } })
    h.sendControlRequest({ type: 'control_request', request_id: 'p-drop', request: { subtype: 'can_use_tool', tool_name: 'Edit', input: {} } })
    h.sendControlRequest({ type: 'control_request', request_id: 'd-1', request: { subtype: 'request_user_dialog', dialog_kind: 'x', payload: {} } })
    h.sendControlRequest({ type: 'control_request', request_id: 'p-cancel', request: { subtype: 'can_use_tool', tool_name: 'Bash', input: {} } })
    h.sendControlCancelRequest('p-cancel')
    const frames = [
      { type: 'queued_notification', notification: { notification_id: 'n1', origin: 'mcp_send_message', content: 'from elsewhere' } },
      { type: 'queued_notification', uuid: 'qn-2', notification: { notification_id: 'n2', origin: 'mcp_send_message', content: 'shown', show_to_auto_mode: true } },
      { type: 'queued_notification', notification: { notification_id: '', origin: 'mcp_send_message', content: 'bad' } },
      { type: 'control_response', response: { subtype: 'success', requestId: 'p-keep', response: { behavior: 'deny' } } },
      { type: 'control_response', response: { subtype: 'success', request_id: 'p-drop', response: { behavior: 'allow' } } },
      { type: 'control_response', response: { subtype: 'error', request_id: 'd-1', error: 'not mine' } },
      { type: 'user', historical: true, display_only: true, uuid: 'h1', message: { role: 'user', content: 'old' } },
      { type: 'control_cancel_request', request_id: 'nothing' },
      { type: 'control_request', requestId: 'init-2', request: { subtype: 'initialize' } },
      { no_type: true },
      { type: 'user', uuid: 'u-last', message: { role: 'user', content: 'last' } },
    ]
    // Server-only types count only when the frame names them too (the first is vetoed).
    frames.forEach((f, i) => fake.send(i + 1, f, undefined, i === 0 ? {} : { event_type: f.type }))
    for (const { res } of fake.streams) {
      res.write('event: client_event\nid: 20\ndata: {not json\n\n')
      res.write('id: 21\ndata: {"payload":{"type":"user"}}\n\n')
      res.write('event: ephemeral_event\nid: 99\ndata: {"event_type":"x"}\n\n')
      res.write(`event: client_event\nid: 22\ndata: ${JSON.stringify({ event_id: 'evw', source: 'worker', payload: { type: 'control_request', request_id: 'w1', request: { subtype: 'interrupt' } } })}\n\n`)
      res.write(`event: client_event\r\nid: 23\r\ndata: ${JSON.stringify({ event_id: 'ev23', payload: { type: 'user', uuid: 'crlf', message: { role: 'user', content: 'crlf' } } })}\r\n\r\n`)
      res.write(`event: client_event\nid: 11\ndata: ${JSON.stringify({ event_id: 'ev11', payload: { type: 'user', uuid: 'u-last', message: { role: 'user', content: 'dup' } } })}\n\n`)
    }
    await until('sequence', () => h.getSequenceNum() === 23)
    await until('processed', () => fake.log.some((e) => e.path.endsWith('/delivery') && e.body.updates.some((u) => u.event_id === 'ev11' && u.status === 'processed')))
    await until('init reply', () => fake.log.some((e) => e.path.endsWith('/worker/events') && e.body.events.some((x) => x.payload.type === 'control_response')))
    record('seq', h.getSequenceNum())
    h.close()
  })
})

test('attach: partial-message frames are held briefly and runs of deltas merged', async () => {
  const delta = (uuid, index, delta, extra = {}) => ({ type: 'stream_event', uuid, session_id: 'x', parent_tool_use_id: null, ...extra, event: { type: 'content_block_delta', index, delta } })
  await sideBySide({}, async (pkg, fake, record) => {
    const h = await pkg.attachBridgeSession({ sessionId: 'cse_se', ingressToken: 'jwt', apiBaseUrl: fake.url, epoch: 2, ...callbacks(record) })
    await until('stream', () => fake.streams.size === 1)
    h.write({ type: 'stream_event', uuid: 's0', session_id: 'x', parent_tool_use_id: null, event: { type: 'message_start', message: { id: 'm1' } } })
    h.write({ type: 'stream_event', uuid: 's1', session_id: 'x', parent_tool_use_id: null, event: { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } } })
    for (let i = 0; i < 4; i++) h.write(delta(`th${i}`, 0, { type: 'thinking_delta', thinking: `think${i} `, estimated_tokens: 2 }))
    h.write(delta('sig', 0, { type: 'signature_delta', signature: 'abc' }))
    for (let i = 0; i < 5; i++) h.write(delta(`t${i}`, 1, { type: 'text_delta', text: `w${i} ` }))
    h.write(delta('sub', 1, { type: 'text_delta', text: 'sub' }, { parent_tool_use_id: 'tu_1' }))
    h.write(delta('t5', 1, { type: 'text_delta', text: 'after' }))
    for (let i = 0; i < 3; i++) h.write(delta(`j${i}`, 2, { type: 'input_json_delta', partial_json: `{"a":${i}` }))
    h.write(delta('huge', 3, { type: 'citations_delta', citation: { text: 'x'.repeat(70000) } }))
    h.write({ type: 'system', subtype: 'task_progress', uuid: 'tp0', task_id: 't1', session_id: 'x' })
    h.write({ type: 'system', subtype: 'task_progress', uuid: 'tp1', task_id: 't1', summary: 'half way', session_id: 'x' })
    h.write({ type: 'assistant', uuid: 'a1', message: { role: 'assistant', content: [] } })
    for (let i = 0; i < 3; i++) h.write(delta(`late${i}`, 0, { type: 'text_delta', text: `late${i}` }))
    await until('timer release', () => fake.log.some((e) => e.path.endsWith('/worker/events') && e.body.events.some((x) => x.payload.uuid === 'late0')))
    for (let i = 0; i < 2; i++) h.write(delta(`fl${i}`, 0, { type: 'text_delta', text: `fl${i}` }))
    await h.flush()
    record('flushed', fake.log.some((e) => e.path.endsWith('/worker/events') && e.body.events.some((x) => x.payload.uuid === 'fl0')))
    h.write(delta('dropped', 0, { type: 'text_delta', text: 'never sent' }))
    h.close()
  })
})

test('attach: writes and reports made before the worker is registered leave at once (with its epoch)', async () => {
  const slowRead = { answer: (e) => (e.method === 'GET' && e.path.endsWith('/worker') ? { status: 200, body: {}, delayMs: 300 } : undefined) }
  await sideBySide(slowRead, async (pkg, fake, record) => {
    const h = await pkg.attachBridgeSession({ sessionId: 'cse_p', ingressToken: 'jwt', apiBaseUrl: fake.url, ...callbacks(record) })
    h.write({ type: 'assistant', uuid: 'early', message: { role: 'assistant', content: [] } })
    h.reportState('running')
    h.reportMetadata({ a: 1 })
    h.reportDelivery('evx', 'processing')
    record('connected at once', h.isConnected())
    await until('connected', () => h.isConnected())
    await until('stream', () => fake.streams.size === 1)
    // Which requests came before the registration (PUT /worker with worker_status idle).
    const init = fake.log.findIndex((e) => e.method === 'PUT' && e.body?.worker_status === 'idle')
    record('before registration', fake.log.slice(0, init).map((e) => `${e.method} ${e.path.split('/cse_p')[1]}`).sort())
    await h.flush()
    h.close()
  })
})

test('attach: a known epoch skips the register; initialSequenceNum resumes the stream; outbound-only opens none', async () => {
  await sideBySide({}, async (pkg, fake, record) => {
    const h = await pkg.attachBridgeSession({ sessionId: 'cse_s2', ingressToken: 'jwt', apiBaseUrl: fake.url, epoch: 42, initialSequenceNum: 17, ...callbacks(record) })
    await until('stream', () => fake.streams.size === 1)
    record('epoch', h.getEpoch(), h.getSequenceNum())
    h.close()
  })
  await sideBySide({}, async (pkg, fake, record) => {
    const h = await pkg.attachBridgeSession({ sessionId: 'cse_s3', ingressToken: 'jwt', apiBaseUrl: fake.url, epoch: 1, outboundOnly: true, ...callbacks(record) })
    await until('connected', () => h.isConnected())
    await sleep(200)
    h.close()
  })
})

test('attach: reconnectTransport refreshes the token, keeps the epoch and the stream position', async () => {
  await sideBySide({}, async (pkg, fake, record) => {
    const h = await pkg.attachBridgeSession({ sessionId: 'cse_t', ingressToken: 'jwt-old', apiBaseUrl: fake.url, ...callbacks(record) })
    await until('stream', () => fake.streams.size === 1)
    fake.send(8, { type: 'user', uuid: 'u8', message: { role: 'user', content: 'eight' } })
    await until('seq', () => h.getSequenceNum() === 8)
    await until('ev8 processed', () => fake.log.some((e) => e.path.endsWith('/delivery') && e.body.updates.some((u) => u.event_id === 'ev8' && u.status === 'processed')))
    await h.reconnectTransport({ ingressToken: 'jwt-new', apiBaseUrl: fake.url })
    record('after', h.getEpoch(), h.getSequenceNum())
    await until('new stream', () => fake.log.filter((e) => e.path.endsWith('/stream')).length === 2)
    await until('connected', () => h.isConnected())
    h.write({ type: 'assistant', uuid: 'a2', message: { role: 'assistant', content: [] } })
    await h.flush()
    await h.reconnectTransport({ ingressToken: 'jwt-3', apiBaseUrl: fake.url, epoch: 99 })
    record('after2', h.getEpoch())
    await until('third stream', () => fake.log.filter((e) => e.path.endsWith('/stream')).length === 3)
    h.reportState('running')
    await h.flush()
    h.close()
  })
})

test('attach: writes the transport could not deliver are handed to the rebuilt one', async () => {
  // POST /worker/events fails for the first token; the writes made then reach the service once
  // reconnectTransport has swapped in a fresh one.
  await sideBySide({ answer: (e) => (e.path.endsWith('/worker/events') && e.headers.authorization === 'Bearer jwt-old' ? { status: 503, body: {} } : undefined) }, async (pkg, fake, record) => {
    const h = await pkg.attachBridgeSession({ sessionId: 'cse_u', ingressToken: 'jwt-old', apiBaseUrl: fake.url, epoch: 6, ...callbacks(record) })
    await until('connected', () => h.isConnected())
    // The partial-message frame is not carried over; the messages are.
    h.write({ type: 'stream_event', uuid: 'p1', session_id: 'x', parent_tool_use_id: null, event: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'partial' } } })
    h.write({ type: 'assistant', uuid: 'w1', message: { role: 'assistant', content: [] } })
    h.write({ type: 'assistant', uuid: 'w2', message: { role: 'assistant', content: [] } })
    await until('first attempt', () => fake.log.some((e) => e.path.endsWith('/worker/events')))
    await h.reconnectTransport({ ingressToken: 'jwt-new', apiBaseUrl: fake.url })
    await until('delivered', () => fake.log.some((e) => e.path.endsWith('/worker/events') && e.headers.authorization === 'Bearer jwt-new'))
    await h.flush()
    const delivered = fake.log.filter((e) => e.path.endsWith('/worker/events') && e.headers.authorization === 'Bearer jwt-new').flatMap((e) => e.body.events.map((x) => x.payload.uuid))
    record('delivered after reconnect', delivered)
    await until('new stream', () => fake.log.filter((e) => e.path.endsWith('/stream')).length === 2)
    h.close()
  })
})

test('attach: after onClose (4090), writes made since are kept for reconnectTransport with a fresh epoch', async () => {
  const routes = { answer: (e) => (e.path.endsWith('/worker/events') && e.headers.authorization === 'Bearer jwt-a' ? { status: 409, body: { error: { reason: 'superseded_by_worker' } } } : undefined) }
  await sideBySide(routes, async (pkg, fake, record) => {
    let closed
    const h = await pkg.attachBridgeSession({ sessionId: 'cse_k', ingressToken: 'jwt-a', apiBaseUrl: fake.url, epoch: 10, ...callbacks(record), onClose: (c) => { closed = c; record('close', c) } })
    await until('connected', () => h.isConnected())
    h.write({ type: 'assistant', uuid: 'k1', message: { role: 'assistant', content: [] } })
    await until('closed', () => closed !== undefined)
    h.write({ type: 'assistant', uuid: 'k2', message: { role: 'assistant', content: [] } })
    h.sendResult()
    await h.reconnectTransport({ ingressToken: 'jwt-b', apiBaseUrl: fake.url, epoch: 11 })
    await until('delivered', () => fake.log.filter((e) => e.path.endsWith('/worker/events') && e.headers.authorization === 'Bearer jwt-b').flatMap((e) => e.body.events).length >= 3)
    await until('stream', () => fake.log.filter((e) => e.path.endsWith('/stream')).length === 2)
    record('epoch', h.getEpoch())
    h.close()
  })
})

test('bad input: clear errors naming the option', async () => {
  await assert.rejects(ours.attachBridgeSession(), /attachBridgeSession: options must be an object/)
  await assert.rejects(ours.attachBridgeSession({ ingressToken: 't', apiBaseUrl: 'http://127.0.0.1:1' }), /sessionId must be a string, got undefined/)
  await assert.rejects(ours.attachBridgeSession({ sessionId: 'cse_1', ingressToken: 't', apiBaseUrl: 'nope' }), /apiBaseUrl must be an absolute http\(s\) URL/)
  await assert.rejects(ours.attachBridgeSession({ sessionId: 'cse_1', ingressToken: 't', apiBaseUrl: 'http://127.0.0.1:1', epoch: -1 }), /epoch must be an integer >= 0/)
  await assert.rejects(ours.attachBridgeSession({ sessionId: 'cse_1', ingressToken: 't', apiBaseUrl: 'http://127.0.0.1:1', onClose: 'x' }), /onClose must be a function/)
  await assert.rejects(ours.attachBridgeSession({ sessionId: 'a/b', ingressToken: 't', apiBaseUrl: 'http://127.0.0.1:1', epoch: 1 }), /Invalid sessionId: contains unsafe characters/)
})

test('ours: callbacks that throw or reject never reach the host; control requests still get a reply', async () => {
  const fake = await startBridgeFake()
  const unhandled = []
  const onUnhandled = (err) => unhandled.push(err)
  process.on('unhandledRejection', onUnhandled)
  try {
    const inbound = []
    const h = await ours.attachBridgeSession({
      sessionId: 'cse_x', ingressToken: 'jwt', apiBaseUrl: fake.url, epoch: 1,
      onInboundMessage: async (m) => { inbound.push(m.uuid); throw new Error('handler failed') },
      onSetPermissionMode: () => { throw new Error('sync throw') },
      onRenameSession: () => { throw new Error('sync throw') },
      onPermissionResponse: () => { throw new Error('sync throw') },
      onClose: () => { throw new Error('onClose throws') },
    })
    await until('stream', () => fake.streams.size === 1)
    fake.send(1, { type: 'user', uuid: 'x1', message: { role: 'user', content: 'a' } })
    fake.send(2, { type: 'control_request', request_id: 'pm', request: { subtype: 'set_permission_mode', mode: 'plan' } })
    fake.send(3, { type: 'control_request', request_id: 'rn', request: { subtype: 'rename_session', title: 't' } })
    fake.send(4, { type: 'control_response', response: { subtype: 'success', request_id: 'zz' } })
    fake.send(5, { type: 'user', uuid: 'x2', message: { role: 'user', content: 'b' } })
    const replies = () => fake.log.filter((e) => e.path.endsWith('/worker/events')).flatMap((e) => e.body.events.map((x) => x.payload)).filter((p) => p.type === 'control_response')
    await until('replies', () => replies().length === 2)
    assert.deepStrictEqual(replies().map((r) => [r.response.request_id, r.response.subtype, r.response.error]), [['pm', 'error', 'set_permission_mode failed'], ['rn', 'error', 'rename_session failed']])
    await until('inbound', () => inbound.length === 2)
    assert.throws(() => h.write(null), /write: the message must be an SDKMessage object, got null/)
    assert.throws(() => h.sendControlRequest({}), /sendControlRequest: the request must be an SDKControlRequest/)
    await assert.rejects(h.reconnectTransport({ ingressToken: 5, apiBaseUrl: fake.url }), /reconnectTransport: ingressToken must be a string, got number/)
    h.close()
    // The stream refused for good: onClose throws, the host goes on.
    const refusing = await startBridgeFake({ answer: (e) => (e.path.endsWith('/stream') ? { status: 404, body: {} } : undefined) })
    let closedWith
    const g = await ours.attachBridgeSession({ sessionId: 'cse_y', ingressToken: 'jwt', apiBaseUrl: refusing.url, epoch: 1, onClose: (c) => { closedWith = c; throw new Error('onClose throws') } })
    await until('onClose', () => closedWith === 404)
    g.close()
    await refusing.close()
    await sleep(50)
    assert.deepStrictEqual(unhandled, [])
  } finally {
    process.off('unhandledRejection', onUnhandled)
    await fake.close()
  }
})
