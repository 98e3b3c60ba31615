// @ts-check
'use strict'
// DirectConnectTransport: a transport to a Claude Code server (`claude server`) rather than a
// local process — POST /sessions creates the session, then its messages flow as NDJSON over a
// WebSocket. Same protocol, results and errors as the official SDK's class of that name.
const { AbortError } = require('./errors')
const { errorText, isError, safeString } = require('./thrown')

const CONNECT_TIMEOUT_MS = 15000

class DirectConnectError extends Error {
  constructor(message, code) {
    super(message)
    this.name = 'DirectConnectError'
    this.code = code
  }
}

/** `cc://host[:port]/token`, `host:port` or an http(s) URL → { serverUrl, authToken }. */
function parseDirectConnectUrl(url) {
  if (url.startsWith('cc://')) {
    const u = new URL(`http://${url.slice(5)}`)
    return { serverUrl: `http://${u.host}`, authToken: u.pathname.slice(1) || undefined }
  }
  if (url.startsWith('cc+unix://')) throw new DirectConnectError('Unix socket connect (cc+unix://) is not supported by the SDK transport')
  const u = new URL(/^https?:\/\//i.test(url) ? url : `http://${url}`)
  return { serverUrl: `${u.protocol}//${u.host}`, authToken: undefined }
}

const kind = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)

/** The problems of a POST /sessions answer, in the form (and message) of the official check. */
function sessionResponseIssues(body) {
  if (kind(body) !== 'object') return [{ expected: 'object', code: 'invalid_type', path: [], message: `Invalid input: expected object, received ${kind(body)}` }]
  const issues = []
  for (const [key, optional] of /** @type {[string, boolean][]} */ ([['session_id', false], ['ws_url', false], ['work_dir', true], ['session_key', true]])) {
    const v = body[key]
    if (typeof v === 'string' || (optional && v === undefined)) continue
    issues.push({ expected: 'string', code: 'invalid_type', path: [key], message: `Invalid input: expected string, received ${kind(v)}` })
  }
  return issues
}

async function createSession(options) {
  const headers = { 'content-type': 'application/json' }
  if (options.authToken) headers.authorization = `Bearer ${options.authToken}`
  const body = {}
  if (options.cwd) body.cwd = options.cwd
  if (options.sessionKey) body.session_key = options.sessionKey
  if (options.permissionMode) body.permission_mode = options.permissionMode
  let res
  try {
    res = await fetch(`${options.serverUrl}/sessions`, { method: 'POST', headers, body: JSON.stringify(body) })
  } catch (e) {
    throw new DirectConnectError(`Failed to connect to server at ${options.serverUrl}: ${errorText(e)}`, 'session_create_failed')
  }
  if (!res.ok) {
    const text = await res.text().catch(() => '')
    throw new DirectConnectError(`Failed to create session: ${res.status} ${res.statusText}${text ? ` — ${text}` : ''}`, 'session_create_failed')
  }
  const data = await res.json()
  const issues = sessionResponseIssues(data)
  if (issues.length) throw new DirectConnectError(`Invalid session response: ${JSON.stringify(issues, null, 2)}`, 'session_create_invalid_response')
  return { sessionId: data.session_id, wsUrl: data.ws_url, workDir: data.work_dir }
}

async function deleteSession(serverUrl, sessionId, authToken) {
  const headers = {}
  if (authToken) headers.authorization = `Bearer ${authToken}`
  try {
    await fetch(`${serverUrl}/sessions/${sessionId}`, { method: 'DELETE', headers })
  } catch {}
}

/** A single-reader queue of messages: pushed by the socket, pulled by readMessages(). */
class MessageQueue {
  constructor() {
    this.items = []
    this.waiter = undefined
    this.ended = false
    this.started = false
  }
  [Symbol.asyncIterator]() {
    if (this.started) throw new Error('Stream can only be iterated once')
    this.started = true
    return this
  }
  next() {
    if (this.items.length > 0) return Promise.resolve({ done: false, value: this.items.shift() })
    if (this.ended) return Promise.resolve({ done: true, value: undefined })
    return new Promise((resolve) => { this.waiter = resolve })
  }
  return() {
    this.ended = true
    return Promise.resolve({ done: true, value: undefined })
  }
  push(item) {
    if (this.waiter) {
      const w = this.waiter
      this.waiter = undefined
      w({ done: false, value: item })
    } else this.items.push(item)
  }
  end() {
    this.ended = true
    if (this.waiter) {
      const w = this.waiter
      this.waiter = undefined
      w({ done: true, value: undefined })
    }
  }
}

class DirectConnectTransport {
  constructor(options) {
    this.options = options
    this.ws = undefined
    this.sessionId = undefined
    this.workDir = undefined
    this.readyState = false
    this.closed = false
    this.exitError = undefined
    this.messages = new MessageQueue()
    this.partialChunks = []
    this.abortController = options.abortController ?? new AbortController()
    this.readyPromise = new Promise(/** @param {(value?: unknown) => void} resolve */ (resolve, reject) => {
      this.readyResolve = resolve
      this.readyReject = reject
    })
    this.readyPromise.catch(() => {})
    // Every failure of the connection lands in `ready` / readMessages(), never as an unhandled
    // rejection.
    this.initialize().catch((e) => this.failInit(e))
  }

  get ready() {
    return this.readyPromise
  }

  getSessionId() {
    return this.sessionId
  }

  getWorkDir() {
    return this.workDir
  }

  async initialize() {
    if (this.abortController.signal.aborted) {
      this.failInit(new AbortError('Connection aborted'))
      return
    }
    this.abortHandler = () => {
      this.close()
      this.exitError = new AbortError('Connection aborted by user')
    }
    this.abortController.signal.addEventListener('abort', this.abortHandler)
    let wsUrl
    try {
      const s = await createSession(this.options)
      this.sessionId = s.sessionId
      this.workDir = s.workDir
      wsUrl = s.wsUrl
    } catch (e) {
      this.failInit(isError(e) ? e : new Error(safeString(e)))
      return
    }
    if (this.closed) {
      if (this.options.deleteSessionOnClose && this.sessionId) void deleteSession(this.options.serverUrl, this.sessionId, this.options.authToken)
      return
    }
    if (typeof globalThis.WebSocket !== 'function') {
      // Node 18 and 20 have no WebSocket client (the official class fails there with an
      // unhandled ReferenceError).
      this.failInit(new DirectConnectError('WebSocket is not available in this runtime (Node 22+ or Bun has it)', 'ws_unavailable'))
      return
    }
    const headers = {}
    if (this.options.authToken) headers.authorization = `Bearer ${this.options.authToken}`
    const ws = new globalThis.WebSocket(wsUrl, { headers })
    this.ws = ws
    const timer = setTimeout(() => {
      if (this.readyState) return
      ws.close()
      const err = new DirectConnectError(`WebSocket connection timeout after ${CONNECT_TIMEOUT_MS}ms`)
      this.exitError = err
      this.readyReject(err)
    }, CONNECT_TIMEOUT_MS)
    ws.addEventListener('open', () => {
      clearTimeout(timer)
      this.readyState = true
      this.readyResolve()
    })
    ws.addEventListener('message', (event) => this.onData(typeof event.data === 'string' ? event.data : ''))
    ws.addEventListener('error', () => {
      clearTimeout(timer)
      const err = new DirectConnectError('WebSocket connection error')
      this.exitError = err
      this.readyReject(err)
      this.messages.end()
    })
    ws.addEventListener('close', (event) => {
      clearTimeout(timer)
      this.readyState = false
      this.closed = true
      const abnormal = event.code !== 1000 && event.code !== 1001
      if (abnormal && !this.exitError) this.exitError = new DirectConnectError(`WebSocket closed abnormally: ${event.code} ${event.reason}`)
      this.messages.end()
    })
  }

  /** NDJSON over frames: a line may span frames; malformed lines are dropped. */
  onData(text) {
    if (text.indexOf('\n') === -1) {
      if (text) this.partialChunks.push(text)
      return
    }
    const lines = (this.partialChunks.join('') + text).split('\n')
    this.partialChunks.length = 0
    const rest = lines.pop() ?? ''
    if (rest) this.partialChunks.push(rest)
    for (const line of lines) {
      if (!line) continue
      let message
      try {
        message = JSON.parse(line)
      } catch {
        continue
      }
      this.messages.push(message)
    }
  }

  failInit(err) {
    this.exitError = err
    this.closed = true
    this.readyReject(err)
    this.messages.end()
  }

  async write(data) {
    if (this.abortController.signal.aborted) throw new AbortError('Operation aborted')
    if (!this.readyState) await this.readyPromise
    if (!this.ws || this.ws.readyState !== 1) throw new DirectConnectError('Transport is not ready for writing')
    this.ws.send(data)
  }

  isReady() {
    return this.readyState && this.ws?.readyState === 1
  }

  endInput() {}

  close() {
    if (this.closed) return
    this.closed = true
    this.readyState = false
    if (this.abortHandler) {
      this.abortController.signal.removeEventListener('abort', this.abortHandler)
      this.abortHandler = undefined
    }
    if (!this.abortController.signal.aborted) this.abortController.abort()
    if (this.ws && this.ws.readyState === 1) this.ws.close(1000, 'Normal closure')
    this.messages.end()
    if (this.options.deleteSessionOnClose && this.sessionId) void deleteSession(this.options.serverUrl, this.sessionId, this.options.authToken)
  }

  async *readMessages() {
    yield* this.messages
    if (this.exitError) throw this.exitError
  }
}

if (typeof Symbol.dispose === 'symbol') {
  DirectConnectTransport.prototype[Symbol.dispose] = function () {
    this.close()
  }
}

module.exports = { DirectConnectTransport, DirectConnectError, parseDirectConnectUrl }
