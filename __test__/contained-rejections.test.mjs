// Promises the bridge, the browser entry and the testing helpers start without awaiting them:
// what a host callback returns or throws (a value whose getter throws, a null-prototype object
// that String() cannot print, a fetchStream that resolves to no Response) is answered where
// answers go, and never becomes an unhandled rejection (which ends a Node host).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { Query } from '../browser/session.mjs'
import * as browser from '../browser/index.mjs'
import { startScriptedResponses } from '../testing/index.mjs'
import { until, sleep } from './helpers/bridge-side-by-side.mjs'

const require = createRequire(import.meta.url)
const { handleControlRequest } = require('../bridge/control.js')

const unhandled = []
process.on('unhandledRejection', (err) => unhandled.push(err))

/** A settled value whose `ok` cannot be read. */
const unreadable = () => Promise.resolve({ get ok() { throw new Error('getter threw') } })

test('bridge: an async set_max_thinking_tokens / set_model verdict whose value throws when read gets an error reply', async () => {
  const sent = []
  const ctx = {
    sessionId: 's',
    outboundOnly: false,
    callbacks: { onSetMaxThinkingTokens: unreadable, onSetModel: unreadable },
    getPendingPrompts: () => [],
    send: (reply) => sent.push(reply),
  }
  handleControlRequest({ type: 'control_request', request_id: 'tt', request: { subtype: 'set_max_thinking_tokens', max_thinking_tokens: 5 } }, ctx)
  handleControlRequest({ type: 'control_request', request_id: 'sm', request: { subtype: 'set_model', model: 'm' } }, ctx)
  await until('both replies', () => sent.length === 2)
  await sleep(20)
  const byId = Object.fromEntries(sent.map((r) => [r.response.request_id, r.response]))
  assert.deepEqual(byId.tt, { subtype: 'error', request_id: 'tt', error: 'set_max_thinking_tokens failed' })
  assert.deepEqual(byId.sm, { subtype: 'error', request_id: 'sm', error: 'set_model failed', error_code: 'internal_error' })
  assert.deepEqual(unhandled, [])
})

test('browser: canUseTool rejecting with a null-prototype object gets an error reply', async () => {
  const written = []
  let push
  const incoming = []
  const transport = {
    write: async (line) => { written.push(...line.split('\n').filter(Boolean).map((t) => JSON.parse(t))) },
    async *readMessages() {
      while (true) {
        while (incoming.length) yield incoming.shift()
        await new Promise((resolve) => (push = resolve))
      }
    },
    endInput() {},
    close() {},
  }
  const q = new Query({
    transport,
    canUseTool: async () => { throw Object.create(null) },
    abortController: new AbortController(),
    mcpServers: new Map(),
  })
  q.initialization.catch(() => {})
  incoming.push({ type: 'control_request', request_id: 'cu', request: { subtype: 'can_use_tool', tool_name: 'Bash', input: {}, tool_use_id: 't' } })
  push?.()
  await until('the reply', () => written.some((f) => f.type === 'control_response' && f.response.request_id === 'cu'))
  q.close()
  const reply = written.find((f) => f.type === 'control_response' && f.response.request_id === 'cu')
  assert.deepEqual(reply.response, { subtype: 'error', request_id: 'cu', error: '[object Object]' })
  assert.deepEqual(unhandled, [])
})

test('browser: an sse.fetchStream that resolves to no Response, or to a broken one, ends the query with an error', async () => {
  const end = async (fetchStream) => {
    const q = browser.query({
      prompt: (async function* () {})(),
      sse: { streamUrl: 'http://127.0.0.1:9/stream', sendUrl: 'http://127.0.0.1:9/events', sessionId: 's', fetchStream },
    })
    try {
      for await (const _ of q) { /* nothing arrives */ }
    } catch (err) {
      return err
    }
    return undefined
  }
  const none = await end(async () => undefined)
  assert.ok(none instanceof TypeError)
  assert.equal(none.message, 'sse.fetchStream must resolve to a Response, got undefined')
  // Not ok, and no headers to read Retry-After from.
  const broken = await end(async () => ({ ok: false, status: 500 }))
  assert.ok(broken instanceof TypeError, `expected a TypeError, got ${broken}`)
  await sleep(20)
  assert.deepEqual(unhandled, [])
})

test('testing: a Responses turn function throwing a null-prototype object is answered 500', async () => {
  const model = await startScriptedResponses({ turns: [async () => { throw Object.create(null) }] })
  try {
    const r = await fetch(`${model.url}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":"m","input":[]}' })
    assert.equal(r.status, 500)
    assert.deepEqual(await r.json(), { error: { type: 'server_error', message: 'scripted turn failed: [object Object]' } })
  } finally {
    await model.close()
  }
  assert.deepEqual(unhandled, [])
})
