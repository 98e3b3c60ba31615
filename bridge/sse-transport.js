// @ts-check
'use strict'
// The read side of a worker: GET {session}/worker/events/stream, a text/event-stream of
// `client_event` frames whose `id` is the session's sequence number. As in the official
// `./bridge`: it resumes from the high-water mark (`from_sequence_num` + `Last-Event-ID`),
// reconnects after a dropped stream, a network error, a 5xx or 45 s without a byte (1 s doubling
// to 30 s, ±25%), and closes for good on 401, 403 or 404, reporting the status.
const { workerHeaders } = require('./headers.js')
const { SseParser } = require('./sse-parser.js')
const { symmetricBackoff } = require('./backoff.js')
const { debug } = require('./debug.js')

const RECONNECT_BASE_MS = 1000
const RECONNECT_CAP_MS = 30000
const CONNECT_TIMEOUT_MS = 30000
const KEEPALIVE_INTERVAL_MS = 15000
const LIVENESS_GRACE_MS = 30000
const PERMANENT = new Set([401, 403, 404])
const SEEN_LIMIT = 1000
const SERVER_ONLY_TYPES = new Set(['workflow_launch', 'queued_notification', 'session_notice'])

class SseTransport {
  constructor(url, { sessionId, initialSequenceNum, getToken, connectTimeoutMs = CONNECT_TIMEOUT_MS, livenessTimeoutMs = KEEPALIVE_INTERVAL_MS + LIVENESS_GRACE_MS }) {
    this.url = url
    this.sessionId = sessionId
    this.getToken = getToken
    this.connectTimeoutMs = connectTimeoutMs
    this.livenessTimeoutMs = livenessTimeoutMs
    this.state = 'idle'
    this.lastSequenceNum = initialSequenceNum > 0 ? initialSequenceNum : 0
    this.seen = new Set()
    this.reconnectAttempts = 0
    /** @type {any} a timer, or null */
    this.reconnectTimer = null
    /** @type {any} a timer, or null */
    this.livenessTimer = null
    this.abort = null
    this.onData = undefined
    this.onEvent = undefined
    this.onClose = undefined
  }

  getLastSequenceNum() {
    return this.lastSequenceNum
  }

  isConnected() {
    return this.state === 'connected'
  }

  connect() {
    if (this.state !== 'idle' && this.state !== 'reconnecting') return
    this.state = 'reconnecting'
    this.open().catch((err) => debug(`SSETransport: ${err?.message ?? err}`))
  }

  async open() {
    const url = new URL(this.url.href)
    if (this.lastSequenceNum > 0) url.searchParams.set('from_sequence_num', String(this.lastSequenceNum))
    const headers = workerHeaders(this.getToken(), { Accept: 'text/event-stream' })
    if (this.lastSequenceNum > 0) headers['Last-Event-ID'] = String(this.lastSequenceNum)
    const controller = new AbortController()
    this.abort = controller
    let timedOut = false
    const deadline = setTimeout(() => { timedOut = true; controller.abort() }, this.connectTimeoutMs)
    let res
    try {
      res = await fetch(url.href, { headers, signal: controller.signal })
    } catch (err) {
      if (controller.signal.aborted && !timedOut) return
      debug(`SSETransport: ${timedOut ? 'no response in time' : `connection error: ${err?.message ?? err}`}`)
      return this.retry()
    } finally {
      clearTimeout(deadline)
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => {})
      if (controller.signal.aborted) return
      debug(`SSETransport: HTTP ${res.status}${PERMANENT.has(res.status) ? ' (permanent)' : ''}`)
      if (PERMANENT.has(res.status)) {
        this.state = 'closed'
        this.onClose?.(res.status)
        return
      }
      return this.retry()
    }
    if (!res.body) return this.retry()
    this.state = 'connected'
    this.reconnectAttempts = 0
    this.resetLiveness()
    await this.read(res.body, controller)
  }

  async read(body, controller) {
    const parser = new SseParser((frame) => this.frame(frame))
    const reader = body.getReader()
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        parser.push(value)
      }
    } catch (err) {
      if (controller.signal.aborted) return
      debug(`SSETransport: stream read error: ${err?.message ?? err}`)
    } finally {
      reader.releaseLock()
    }
    if (controller.signal.aborted || this.state === 'closing' || this.state === 'closed') return
    debug('SSETransport: stream ended, reconnecting')
    this.retry()
  }

  /** @param {import('./sse-parser').SseFields} fields one event of the stream */
  frame({ event, data, id }) {
    if (!data) return
    this.resetLiveness()
    if (id && event !== 'ephemeral_event') {
      const seq = parseInt(id, 10)
      if (!Number.isNaN(seq)) {
        if (!this.seen.has(seq)) {
          this.seen.add(seq)
          if (this.seen.size > SEEN_LIMIT) for (const s of this.seen) if (s < this.lastSequenceNum - 200) this.seen.delete(s)
        }
        if (seq > this.lastSequenceNum) this.lastSequenceNum = seq
      }
    }
    if (!event || event === 'ephemeral_event' || event !== 'client_event') return
    let frame
    try {
      frame = JSON.parse(data)
    } catch {
      debug('SSETransport: Failed to parse client_event data')
      return
    }
    const payload = frame?.payload
    if (payload && typeof payload === 'object' && 'type' in payload) {
      // A type only the service may send must be named by the frame too; a worker's own
      // control_request echoed back is not for us.
      const vetoed = SERVER_ONLY_TYPES.has(payload.type) && frame.event_type !== payload.type
      if (!vetoed && !(payload.type === 'control_request' && frame.source === 'worker')) this.onData?.(`${JSON.stringify(payload)}\n`)
    }
    if (frame !== null && typeof frame === 'object') this.onEvent?.(frame)
  }

  resetLiveness() {
    clearTimeout(this.livenessTimer)
    this.livenessTimer = setTimeout(() => {
      this.livenessTimer = null
      debug('SSETransport: liveness timeout, reconnecting')
      this.retry()
    }, this.livenessTimeoutMs)
  }

  retry() {
    clearTimeout(this.livenessTimer)
    this.livenessTimer = null
    if (this.state === 'closing' || this.state === 'closed') return
    this.abort?.abort()
    this.abort = null
    clearTimeout(this.reconnectTimer)
    this.state = 'reconnecting'
    this.reconnectAttempts++
    const delay = symmetricBackoff(this.reconnectAttempts, RECONNECT_BASE_MS, RECONNECT_CAP_MS)
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null
      this.connect()
    }, delay)
  }

  close() {
    clearTimeout(this.reconnectTimer)
    clearTimeout(this.livenessTimer)
    this.reconnectTimer = null
    this.livenessTimer = null
    this.state = 'closing'
    this.abort?.abort()
    this.abort = null
  }
}

module.exports = { SseTransport }
