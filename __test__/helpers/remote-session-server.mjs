// A local stand-in for the remote Claude Code session the `./browser` entry talks to, on
// 127.0.0.1, fronting a real Claude Code CLI (driven by the scripted Messages API of testing/).
//
// How the CLI takes a remote SDK session (found in claude.exe 2.1.332 and the official bundles):
// the CLI has a hidden `--sdk-url <url>` ("Use remote WebSocket endpoint for SDK I/O streaming
// (only with -p and stream-json format)"), but it checks the URL against an allowlist:
// only wss:// or https:// to api.anthropic.com, api-staging.anthropic.com and a few other
// Anthropic hosts ("--sdk-url rejected: host "127.0.0.1" is not an approved Anthropic endpoint.
// This flag is reserved for Remote Control worker processes connecting to Anthropic's backend").
// So this server relays the CLI's stdio stream-json itself, which is all the browser wire is:
//
// - WebSocket `GET /ws/cli/<id>`: every text frame from the client is NDJSON for the CLI's
//   stdin (the optional auth message `{"type":"auth",…}` and `keep_alive` lines are recorded,
//   not forwarded); every stdout line of the CLI goes to the client as one text frame.
// - SSE `GET /v1/code/sessions/<id>/events/stream` (`Last-Event-ID` resumes after that
//   sequence number) and `POST /v1/code/sessions/<id>/events` with
//   `{session_id, events: [{payload}]}`: each CLI stdout line becomes a durable event
//   `event: client_event`, `id: <sequence_num>`, data `{event_id, sequence_num, created_at,
//   source: "worker", event_type, payload}` (`stream_event` lines go as `ephemeral_event`); each
//   POSTed payload is written to the CLI's stdin and echoed into the stream with
//   `source: "client"` (as the session's event log holds every event, the client's own too),
//   followed by a `delivery_update` (DELIVERY_STATUS_RECEIVED) for it.
//
// Sessions named `script-*` have no CLI: the test pushes events, raw SSE text or WebSocket frames
// itself (for catch_up_truncated, malformed frames, forged replies, abnormal closes).
// GET /page/<name> serves the page for the Chromium test; /browser/… and /node_modules/… serve
// the files it imports.
import http from 'node:http'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { spawn } from 'node:child_process'
import { root } from './clis.mjs'
import { wsFrame, readWsFrame } from './ws-frames.mjs'

export const CLI = path.join(root, 'node_modules/@anthropic-ai/claude-code/bin/claude.exe')
const CLI_ARGS = ['--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json', '--permission-prompt-tool', 'stdio']

const MIME = { '.mjs': 'text/javascript', '.js': 'text/javascript', '.html': 'text/html', '.json': 'application/json' }
const SERVED = ['browser/', 'node_modules/zod/', 'node_modules/eventsource-parser/']

/** A WebSocket connection: text frames in (`onText`), `send(text)`, `close(code, reason)`. */
function acceptWebSocket(req, socket, onText) {
  const accept = crypto.createHash('sha1').update(req.headers['sec-websocket-key'] + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64')
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`)
  let buf = Buffer.alloc(0)
  let fragments = []
  const conn = {
    closed: false,
    closeCode: undefined,
    send(text) {
      if (!conn.closed) socket.write(wsFrame(1, Buffer.from(text)))
    },
    close(code = 1000, reason = '') {
      if (conn.closed) return
      conn.closed = true
      const p = Buffer.alloc(2)
      p.writeUInt16BE(code)
      socket.end(wsFrame(8, Buffer.concat([p, Buffer.from(reason)])))
    },
    onClose: () => {},
  }
  socket.on('data', (chunk) => {
    buf = Buffer.concat([buf, chunk])
    for (;;) {
      const f = readWsFrame(buf)
      if (!f) break
      buf = buf.subarray(f.size)
      if (f.opcode === 1 || f.opcode === 0) {
        fragments.push(f.payload)
        if (f.fin) {
          const text = Buffer.concat(fragments).toString('utf8')
          fragments = []
          onText(text)
        }
      } else if (f.opcode === 8) {
        conn.closeCode = f.payload.length >= 2 ? f.payload.readUInt16BE(0) : 1005
        if (!conn.closed) {
          conn.closed = true
          socket.end(wsFrame(8, f.payload))
        }
      } else if (f.opcode === 9) socket.write(wsFrame(10, f.payload))
    }
  })
  socket.on('close', () => {
    conn.closed = true
    conn.onClose()
  })
  socket.on('error', () => {})
  return conn
}

// --- the CLI behind a session -------------------------------------------------------------

function startCli({ env, cwd, args = [] }, onLine, onExit) {
  const child = spawn(CLI, [...CLI_ARGS, ...args], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] })
  let out = ''
  let stderr = ''
  child.stdout.setEncoding('utf8')
  child.stdout.on('data', (d) => {
    out += d
    let nl
    while ((nl = out.indexOf('\n')) >= 0) {
      const line = out.slice(0, nl)
      out = out.slice(nl + 1)
      if (line.trim()) onLine(line)
    }
  })
  child.stderr.on('data', (d) => (stderr += d))
  child.stdin.on('error', () => {})
  child.on('exit', (code, signal) => onExit(code, signal, stderr))
  return {
    child,
    write(line) {
      if (child.stdin.writable) child.stdin.write(line.endsWith('\n') ? line : line + '\n')
    },
    stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin.end()
        const t = setTimeout(() => child.kill('SIGKILL'), 3000)
        t.unref()
        child.kill('SIGTERM')
      }
    },
    get stderr() {
      return stderr
    },
  }
}

// --- an SSE session: the event log, its streams and its CLI ----------------------------------

class SseSession {
  constructor(id, cliOptions) {
    this.id = id
    this.events = [] // {event_id, sequence_num, created_at, source, event_type, payload}
    this.streams = new Set()
    this.streamRequests = [] // headers of each GET
    this.posts = [] // {headers, body}
    this.cli = cliOptions ? startCli(cliOptions, (line) => this.#fromCli(line), (code, signal, stderr) => {
      this.exit = { code, signal, stderr }
    }) : undefined
    this.postStatus = undefined // set by a test: answer POSTs with this status
    this.failPosts = 0 // set by a test: answer the next N POSTs with 503 and Retry-After: 0
    this.echo = true // set false by a test: POSTed events are not echoed into the stream
  }

  #fromCli(line) {
    let payload
    try {
      payload = JSON.parse(line)
    } catch {
      return
    }
    if (payload.type === 'stream_event') this.emit(`event: ephemeral_event\ndata: ${JSON.stringify({ payload })}\n\n`)
    else this.append(payload, { source: 'worker' })
  }

  /** Adds a durable event and sends it to every open stream. */
  append(payload, { source = 'worker', eventType = payload?.type, eventId, createdAt } = {}) {
    const seq = this.events.length + 1
    const event = { event_id: eventId ?? crypto.randomUUID(), sequence_num: seq, created_at: createdAt ?? new Date().toISOString(), source, event_type: eventType, payload }
    this.events.push(event)
    this.emit(sseEvent(event))
    return event
  }

  /** Raw SSE text to every open stream. */
  emit(text) {
    for (const res of this.streams) res.write(text)
  }

  closeStreams() {
    for (const res of this.streams) res.end()
    this.streams.clear()
  }

  openStream(req, res) {
    this.streamRequests.push(req.headers)
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
    res.write(': connected\n\n')
    const after = Number(req.headers['last-event-id'] ?? 0) || 0
    for (const e of this.events) if (e.sequence_num > after) res.write(sseEvent(e))
    this.streams.add(res)
    res.on('close', () => this.streams.delete(res))
  }

  receive(headers, body) {
    this.posts.push({ headers, body })
    if (this.postStatus) return this.postStatus
    if (this.failPosts > 0) {
      this.failPosts -= 1
      return 503
    }
    for (const { payload } of body.events ?? []) {
      this.cli?.write(JSON.stringify(payload))
      if (!this.echo) continue
      const echo = this.append(payload, { source: 'client' })
      this.emit(`event: delivery_update\ndata: ${JSON.stringify({ event_id: echo.event_id, status: 'DELIVERY_STATUS_RECEIVED', timestamp: new Date().toISOString() })}\n\n`)
    }
    return 200
  }

  stop() {
    this.closeStreams()
    this.cli?.stop()
  }
}

function sseEvent(e) {
  return `event: client_event\nid: ${e.sequence_num}\ndata: ${JSON.stringify(e)}\n\n`
}

// --- the server -------------------------------------------------------------------------------

/**
 * @param {object} opts
 * @param {(sessionId: string) => {env: object, cwd: string, args?: string[]}} [opts.cli] how to start a CLI for a session
 * @param {Record<string, string>} [opts.pages] HTML pages served at /page/<name>
 */
export async function startRemoteSessionServer(opts = {}) {
  const sse = new Map()
  const ws = new Map() // id -> {conn, received: string[], cli?}
  const sockets = new Set()

  function sseSession(id, create) {
    let s = sse.get(id)
    if (!s && create) {
      s = new SseSession(id, id.startsWith('script-') ? undefined : opts.cli?.(id))
      sse.set(id, s)
    }
    return s
  }

  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (d) => (body += d))
    req.on('end', () => {
      const url = new URL(req.url, 'http://127.0.0.1')
      const m = url.pathname.match(/^\/v1\/code\/sessions\/([^/]+)\/events(\/stream)?$/)
      if (m) {
        const session = sseSession(decodeURIComponent(m[1]), true)
        if (session.reject) {
          res.writeHead(session.reject.status, { 'content-type': 'application/json', ...session.reject.headers })
          res.end(JSON.stringify({ error: { type: session.reject.type ?? 'not_found_error' } }))
          return
        }
        if (m[2] && req.method === 'GET') return session.openStream(req, res)
        if (!m[2] && req.method === 'POST') {
          let parsed
          try {
            parsed = JSON.parse(body)
          } catch {
            res.writeHead(400).end()
            return
          }
          const status = session.receive(req.headers, parsed)
          res.writeHead(status, { 'content-type': 'application/json', ...(status === 503 && { 'retry-after': '0' }) })
          res.end(status === 200 ? '{}' : JSON.stringify({ error: { type: status === 401 ? 'authentication_error' : 'overloaded_error' } }))
          return
        }
      }
      const page = url.pathname.match(/^\/page\/([\w-]+)$/)
      if (page && opts.pages?.[page[1]]) {
        res.writeHead(200, { 'content-type': 'text/html' })
        res.end(opts.pages[page[1]])
        return
      }
      const rel = decodeURIComponent(url.pathname).replace(/^\/+/, '')
      if (req.method === 'GET' && SERVED.some((p) => rel.startsWith(p)) && !rel.includes('..')) {
        const file = path.join(root, rel)
        if (fs.existsSync(file) && fs.statSync(file).isFile()) {
          res.writeHead(200, { 'content-type': MIME[path.extname(file)] ?? 'application/octet-stream' })
          res.end(fs.readFileSync(file))
          return
        }
      }
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: { type: 'not_found_error' } }))
    })
  })

  server.on('upgrade', (req, socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    const m = new URL(req.url, 'http://127.0.0.1').pathname.match(/^\/ws\/(cli|script)\/([^/]+)$/)
    if (!m) {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n')
      return
    }
    const id = decodeURIComponent(m[2])
    const entry = { received: [], headers: req.headers, cli: undefined, conn: undefined }
    ws.set(id, entry)
    let partial = ''
    entry.conn = acceptWebSocket(req, socket, (text) => {
      entry.received.push(text)
      entry.onFrame?.(text)
      if (!entry.cli) return
      const lines = (partial + text).split('\n')
      partial = lines.pop() ?? ''
      for (const l of lines) {
        if (!l.trim()) continue
        let type
        try {
          type = JSON.parse(l).type
        } catch {}
        if (type === 'auth' || type === 'keep_alive') continue
        entry.cli.write(l)
      }
    })
    if (m[1] === 'cli') {
      entry.cli = startCli(opts.cli(id), (l) => entry.conn.send(l + '\n'), (code, signal, stderr) => {
        entry.exit = { code, signal, stderr }
        entry.conn.close(1000, 'session ended')
      })
      entry.conn.onClose = () => entry.cli.stop()
    }
    entry.ready?.()
  })

  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address()
  const base = `http://127.0.0.1:${port}`
  return {
    port,
    url: base,
    wsUrl: (kind, id) => `ws://127.0.0.1:${port}/ws/${kind}/${encodeURIComponent(id)}`,
    sseUrls: (id) => ({ streamUrl: `${base}/v1/code/sessions/${encodeURIComponent(id)}/events/stream`, sendUrl: `${base}/v1/code/sessions/${encodeURIComponent(id)}/events`, sessionId: id }),
    /** The SSE session `id` (created on first use). */
    sse: (id) => sseSession(id, true),
    /** The WebSocket session `id`, once a client has connected. */
    ws: (id) => ws.get(id),
    /** Resolves with the WebSocket session `id` once a client has connected. */
    async wsConnected(id) {
      for (let i = 0; i < 500 && !ws.has(id); i++) await new Promise((r) => setTimeout(r, 10))
      return ws.get(id)
    },
    async close() {
      for (const s of sse.values()) s.stop()
      for (const e of ws.values()) {
        e.cli?.stop()
        e.conn?.close(1001, 'server closing')
      }
      for (const s of sockets) s.destroy()
      server.closeAllConnections?.()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
