// The side-by-side harness of the attachBridgeSession tests: each package runs the same script
// against its own copy of the bridge fake, and what the fakes saw (summarised per endpoint) and
// what the scripts recorded must be equal.
import assert from 'node:assert/strict'
import * as official from '@anthropic-ai/claude-agent-sdk/bridge'
import * as ours from 'claude-agent-sdk-native/bridge'
import { startBridgeFake, normalizeRequest, normalizeBody } from './bridge-fake.mjs'

export const PACKAGES = { official, ours }
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

export async function until(what, cond, ms = 10000) {
  const end = Date.now() + ms
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await sleep(10)
  }
}

// What both packages must agree on, from a fake's log: each endpoint's requests in order
// (events flattened to their payloads, delivery updates as a sorted list, heartbeats counted).
export function summary(log) {
  const out = { register: [], workerGet: [], workerPut: [], events: [], delivery: [], streams: [], heartbeats: 0, attempts: new Set() }
  for (const e of log) {
    const n = normalizeRequest(e)
    if (e.path.endsWith('/worker/register')) out.register.push(n)
    else if (e.path.endsWith('/worker/events/stream')) out.streams.push({ query: n.query, headers: n.headers })
    else if (e.path.endsWith('/worker/events/delivery')) out.delivery.push(...n.body.updates.map((u) => JSON.stringify(u)))
    else if (e.path.endsWith('/worker/events')) {
      out.events.push(...n.body.events.map((x) => x.payload))
      out.attempts.add(n.headers['x-ccr-upload-attempt'])
      out.eventHeaders = { ...n.headers, 'x-ccr-upload-attempt': undefined }
    } else if (e.path.endsWith('/worker/heartbeat')) {
      out.heartbeats++
      out.heartbeatBody = n.body
    } else if (e.method === 'GET' && e.path.endsWith('/worker')) out.workerGet.push(n.headers)
    else if (e.method === 'PUT' && e.path.endsWith('/worker')) out.workerPut.push({ body: n.body, auth: n.headers.authorization })
    else out.other = [...(out.other ?? []), n]
  }
  out.delivery.sort()
  out.attempts = [...out.attempts].sort()
  out.heartbeats = out.heartbeats > 0
  return out
}

// Runs `script(pkg, fake, record)` for each package against its own fake (routes, or a function
// making fresh routes for each run); compares summaries and what was recorded.
export async function sideBySide(routes, script) {
  // Both packages at once, each against its own fake.
  const runs = await Promise.all(Object.entries(PACKAGES).map(async ([name, pkg]) => {
    const fake = await startBridgeFake(typeof routes === 'function' ? routes() : routes)
    const records = []
    const record = (...x) => records.push(normalizeBody(x))
    try {
      await script(pkg, fake, record)
      await sleep(150)
      return [name, { summary: summary(fake.log), records }]
    } finally {
      await fake.close()
    }
  }))
  const out = Object.fromEntries(runs)
  // BRIDGE_DUMP=/tmp/x writes both sides' summaries (/tmp/x-ours.json, /tmp/x-official.json) to diff.
  if (process.env.BRIDGE_DUMP) for (const n of ['ours', 'official']) (await import('node:fs')).writeFileSync(`${process.env.BRIDGE_DUMP}-${n}.json`, JSON.stringify(out[n], null, 1))
  assert.deepStrictEqual(out.ours.summary, out.official.summary, 'requests')
  assert.deepStrictEqual(out.ours.records, out.official.records, 'callbacks and results')
  return out.official
}

export const callbacks = (record) => ({
  onInboundMessage: (m) => record('inbound', m),
  onPermissionResponse: (r) => record('permission', r),
  onInterrupt: (x) => record('interrupt', x),
  onClose: (c) => record('close', c),
})
