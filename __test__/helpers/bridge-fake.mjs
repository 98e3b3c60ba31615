// A local fake of the HTTP + SSE endpoints the `./bridge` entry calls (session create, /bridge
// credentials, worker register, PUT/GET /worker, events, delivery, heartbeat, the event stream),
// on 127.0.0.1. Each request is recorded; `routes` decides the answers.
import http from 'node:http'

export async function startBridgeFake(routes = {}) {
  const log = []
  const streams = new Set()
  const server = http.createServer(async (req, res) => {
    let text = ''
    for await (const chunk of req) text += chunk
    const url = new URL(req.url, 'http://fake')
    let body
    try { body = text ? JSON.parse(text) : undefined } catch { body = text }
    const entry = { method: req.method, path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, body }
    log.push(entry)
    const route = routes.answer?.(entry)
    if (route?.delayMs) await new Promise((r) => setTimeout(r, route.delayMs))
    if (route?.destroy) return req.socket.destroy()
    if (url.pathname.endsWith('/worker/events/stream') && !route) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      res.write(':ok\n\n')
      const stream = { res, entry }
      streams.add(stream)
      res.on('close', () => streams.delete(stream))
      routes.onStream?.(stream)
      return
    }
    const r = route ?? defaultAnswer(entry)
    res.writeHead(r.status, { 'content-type': r.contentType ?? 'application/json', ...r.headers })
    res.end(r.raw ?? (r.body === undefined ? '' : JSON.stringify(r.body)))
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${server.address().port}`
  return {
    url,
    log,
    streams,
    // Sends one client_event frame on every open stream (`extra`: more fields of the frame).
    send(seq, payload, eventId = `ev${seq}`, extra = {}) {
      for (const { res } of streams) res.write(`event: client_event\nid: ${seq}\ndata: ${JSON.stringify({ event_id: eventId, sequence_num: seq, ...extra, payload })}\n\n`)
    },
    endStreams() {
      for (const { res } of streams) res.end()
    },
    async close() {
      for (const { res } of streams) res.destroy()
      server.closeAllConnections?.()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

function defaultAnswer(e) {
  if (e.method === 'POST' && e.path === '/v1/code/sessions') return { status: 200, body: { session: { id: 'cse_fake1' } } }
  if (e.method === 'POST' && e.path.endsWith('/bridge')) return { status: 200, body: { worker_jwt: 'jwt-1', api_base_url: 'http://api', expires_in: 14400, worker_epoch: 3 } }
  if (e.path.endsWith('/worker/register')) return { status: 200, body: { worker_epoch: 7 } }
  if (e.path.endsWith('/worker/events/delivery')) return { status: 200, body: {} }
  if (e.path.endsWith('/worker/events')) return { status: 200, body: {} }
  if (e.path.endsWith('/worker/heartbeat')) return { status: 200, body: {} }
  if (e.path.endsWith('/worker')) return { status: 200, body: {} }
  return { status: 404, body: { error: { type: 'not_found_error' } } }
}

// The parts of a request both packages must agree on: method, path, query, the headers that
// carry meaning, and the body with run-specific values (uuids, pids) replaced.
const HEADERS = ['authorization', 'content-type', 'anthropic-version', 'anthropic-client-platform', 'user-agent', 'x-trusted-device-token', 'accept', 'last-event-id', 'x-ccr-upload-attempt']
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

export function normalizeBody(v) {
  if (Array.isArray(v)) return v.map(normalizeBody)
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === 'pid' ? '<pid>' : k === 'cwd' ? '<cwd>' : normalizeBody(x)]))
  return typeof v === 'string' && UUID.test(v) ? '<uuid>' : v
}

export function normalizeRequest(e, { headers = HEADERS } = {}) {
  const h = {}
  for (const name of headers) {
    if (e.headers[name] === undefined) continue
    // The event stream's Accept differs in nothing but case; JSON calls' Accept is the HTTP client's own.
    if (name === 'accept' && !e.path.endsWith('/stream')) continue
    h[name] = e.headers[name]
  }
  return { method: e.method, path: e.path, query: e.query, headers: h, body: normalizeBody(e.body) }
}
