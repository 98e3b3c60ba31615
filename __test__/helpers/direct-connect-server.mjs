// A fake Claude Code server for DirectConnectTransport tests, on 127.0.0.1: POST /sessions
// answers with a session (or what the test scripts), DELETE /sessions/:id is recorded, and
// GET /ws/:id upgrades to a WebSocket (RFC 6455 text frames, server side, unmasked) that sends
// the scripted frames and records what the client sends.
import http from 'node:http'
import crypto from 'node:crypto'
import { wsFrame as frame, readWsFrame as readFrame } from './ws-frames.mjs'

/**
 * @param {object} script
 * @param {(req, body) => {status: number, json?: unknown, text?: string}} [script.create]
 * @param {string[]} [script.frames] text frames to send once the socket is open
 * @param {number} [script.closeCode] close the socket with this code after the frames
 */
export async function startFakeServer(script = {}) {
  const log = { creates: [], deletes: [], received: [], headers: [] }
  const sockets = new Set()
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (d) => { body += d })
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/sessions') {
        log.creates.push({ headers: req.headers, body: body ? JSON.parse(body) : undefined })
        const { port } = server.address()
        const answer = script.create ? script.create(req, body) : { status: 200, json: { session_id: 'sess-1', ws_url: `ws://127.0.0.1:${port}/ws/sess-1`, work_dir: '/srv/work' } }
        res.writeHead(answer.status, answer.statusText, { 'content-type': answer.json !== undefined ? 'application/json' : 'text/plain' })
        res.end(answer.json !== undefined ? JSON.stringify(answer.json) : answer.text ?? '')
      } else if (req.method === 'DELETE' && req.url.startsWith('/sessions/')) {
        log.deletes.push({ url: req.url, headers: req.headers })
        res.writeHead(204)
        res.end()
      } else {
        res.writeHead(404)
        res.end()
      }
    })
  })
  server.on('upgrade', (req, socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    log.headers.push(req.headers)
    const accept = crypto.createHash('sha1').update(req.headers['sec-websocket-key'] + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64')
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`)
    let buf = Buffer.alloc(0)
    socket.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk])
      for (;;) {
        const f = readFrame(buf)
        if (!f) break
        buf = buf.subarray(f.size)
        if (f.opcode === 1) log.received.push(f.payload.toString('utf8'))
        else if (f.opcode === 8) {
          socket.end(frame(8, f.payload))
        }
      }
    })
    for (const text of script.frames ?? []) socket.write(frame(1, Buffer.from(text)))
    if (script.closeCode !== undefined) {
      const p = Buffer.alloc(2)
      p.writeUInt16BE(script.closeCode)
      socket.write(frame(8, Buffer.concat([p, Buffer.from('bye')])))
    }
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address()
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    log,
    async close() {
      for (const s of sockets) s.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
