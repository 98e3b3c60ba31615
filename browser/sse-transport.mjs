// @ts-check
// The SSE transport of the official browser entry (the v1alpha2 path): events are read from
// `streamUrl` (GET, `Accept: text/event-stream`, `Last-Event-ID: <cursor>` after the first
// event) and frames are POSTed to `sendUrl` as `{session_id, events: [{payload}]}`.
//
// Stream events: `client_event` (durable; `id:` and `sequence_num` give its place in the
// session, `source` who wrote it, `event_id`/`created_at`/`processing_at` its envelope),
// `ephemeral_event` (stream_event, sources_changed and display-only system status frames
// only), `delivery_update` (the worker's acknowledgement of one event, to onDeliveryUpdate) and
// `catch_up_truncated` (the server could not replay every event after the cursor). Frames that
// fail a check are dropped and counted by category (getDropCounts). A stream that ends or
// errs is reopened from the cursor (1 s, 2 s, … 30 s; 5 attempts in a row, then the query
// fails); 401/403/404 fail at once; 45 s without a byte counts as a dead stream.
import { createParser } from 'eventsource-parser'
import { MessageQueue } from './queue.mjs'
import { connectionGate } from './gate.mjs'
import { AbortError, SSEHttpError, RetryableError, toError } from './errors.mjs'
import { SerialUploader } from './uploader.mjs'
import {
  PEER_TYPES, CONTROL_TYPES, displayOnlySystemFrame, isWorkerOutputShaped, hasMalformedContent, logSafe, sequenceNumber,
} from './sse-frames.mjs'

const CONNECT_TIMEOUT_MS = 15000
const RECONNECT_BASE_MS = 1000
const RECONNECT_CAP_MS = 30000
const MAX_RECONNECTS = 5
const LIVENESS_MS = 45000
const POST_TIMEOUT_MS = 30000
const PERMANENT = new Set([401, 403, 404])
const LOG_FIRST = 5
const LOG_EVERY = 50
const MAX_EXPECTED_IDS = 1024
const MAX_ISSUED_IDS = 500
const TAG = '[BrowserSSETransport]'

export class SSETransport {
  #options
  #ready = false
  #closed = false
  /** @type {AbortController | null} */
  #streamAbort = null
  #suspended = false
  #messages = new MessageQueue()
  #exitError
  #gate = connectionGate()
  #abortHandler
  #livenessTimer
  #reconnectTimer
  #reconnectAttempts = 0
  #lastSequenceNum = 0
  #deliveredSequenceNum = 0
  #expectedControlResponseIds = new Set()
  #issuedRequestIds = new Set()
  #dropCounts = new Map()
  #envelopes = new WeakMap()
  #uploader

  constructor(options) {
    this.#options = options
    this.abortController = options.abortController || new AbortController()
    const seed = sequenceNumber(options.fromSequenceNum)
    if (seed !== undefined) this.#lastSequenceNum = this.#deliveredSequenceNum = seed
    this.#uploader = new SerialUploader((item) => this.#postOnce(item))
    this.#abortHandler = () => {
      this.#exitError = new AbortError('SSE connection aborted by user')
      this.close()
    }
    if (this.abortController.signal.aborted) this.#abortHandler()
    else this.abortController.signal.addEventListener('abort', this.#abortHandler)
    this.#start()
  }

  // --- what the public helpers read ---------------------------------------------------------

  getDropCounts() {
    return Object.fromEntries(this.#dropCounts)
  }

  getLastSequenceNum() {
    return this.#deliveredSequenceNum > 0 ? this.#deliveredSequenceNum : undefined
  }

  /** Called by the query right before it yields `message`: the resume cursor covers it. */
  markDelivered(message) {
    const envelope = this.#envelopes.get(message)
    if (envelope && envelope.sequence_num > this.#deliveredSequenceNum) this.#deliveredSequenceNum = envelope.sequence_num
  }

  getCcrEvent(message) {
    return this.#envelopes.get(message)
  }

  suspend() {
    if (this.#closed || this.#suspended) return false
    this.#suspended = true
    this.#ready = false
    clearTimeout(this.#reconnectTimer)
    this.#reconnectTimer = undefined
    this.#clearLiveness()
    this.#streamAbort?.abort()
    this.#streamAbort = null
    return true
  }

  resume() {
    if (this.#closed || !this.#suspended) return false
    this.#suspended = false
    this.#start()
    return true
  }

  // --- reading -------------------------------------------------------------------------------

  #drop(category, text, level = 'debug') {
    const n = (this.#dropCounts.get(category) ?? 0) + 1
    this.#dropCounts.set(category, n)
    if (n <= LOG_FIRST) console[level](text)
    else if (n % LOG_EVERY === 0) console[level](`${text} (${n} total — sampling 1/${LOG_EVERY})`)
  }

  #advanceCursor(n) {
    if (n !== undefined && n > this.#lastSequenceNum) this.#lastSequenceNum = n
  }

  #enqueueDurable(message, envelope) {
    if (envelope) this.#envelopes.set(message, envelope)
    this.#messages.enqueue(message)
  }

  // Opens the stream. #connect answers the failures it expects itself (a reconnect, or #fail);
  // anything else (a fetchStream that resolves to no Response) ends the query with that error
  // instead of becoming an unhandled rejection.
  #start() {
    this.#connect().catch((err) => this.#fail(toError(err)))
  }

  async #connect() {
    if (this.#closed) return
    const attempt = new AbortController()
    this.#streamAbort = attempt
    const signal = attempt.signal
    const headers = { ...this.#options.headers, Accept: 'text/event-stream' }
    if (this.#lastSequenceNum > 0) headers['Last-Event-ID'] = String(this.#lastSequenceNum)
    const timeoutMs = this.#options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS
    const deadline = Date.now() + timeoutMs
    const timer = setTimeout(() => {
      attempt.abort()
      if (this.#streamAbort === attempt) this.#streamEnded(new Error('SSE connect timeout'))
    }, timeoutMs)
    let response
    try {
      const { streamUrl, fetchStream } = this.#options
      const init = { method: 'GET', headers, signal }
      const plain = () => fetch(streamUrl, init)
      response = await (fetchStream ? fetchStream(streamUrl, init, plain) : plain())
      if (response === null || typeof response !== 'object') {
        clearTimeout(timer)
        return this.#fail(new TypeError(`sse.fetchStream must resolve to a Response, got ${response === null ? 'null' : typeof response}`))
      }
      if (signal.aborted) {
        response.body?.cancel().catch(() => {})
        throw signal.reason
      }
    } catch (err) {
      clearTimeout(timer)
      if (this.#closed || signal.aborted) return
      return this.#streamEnded(toError(err))
    }
    if (!response.ok || !response.body) {
      clearTimeout(timer)
      const status = response.status
      const bodyTimer = setTimeout(() => attempt.abort(), Math.max(0, deadline - Date.now()))
      const reason = await errorReason(response, signal)
      clearTimeout(bodyTimer)
      if (this.#closed || this.#streamAbort !== attempt) return
      const err = new SSEHttpError('SSE connect failed', status, reason, retryAfterMs(response.headers.get('Retry-After')))
      if (PERMANENT.has(status)) return this.#fail(err)
      return this.#streamEnded(err)
    }
    clearTimeout(timer)
    if (this.#closed || this.#streamAbort !== attempt) {
      response.body.cancel().catch(() => {})
      return
    }
    this.#ready = true
    this.#reconnectAttempts = 0
    this.#resetLiveness()
    this.#gate.open()
    this.#read(response.body, attempt).catch((err) => this.#fail(toError(err)))
  }

  async #read(body, attempt) {
    const signal = attempt.signal
    const reader = body.getReader()
    const decoder = new TextDecoder('utf-8')
    let events = []
    const parser = createParser({ onEvent: (e) => events.push(e) })
    try {
      while (!signal.aborted) {
        const { done, value } = await reader.read()
        if (done || this.#streamAbort !== attempt) break
        this.#resetLiveness()
        parser.feed(decoder.decode(value, { stream: true }))
        const batch = events
        events = []
        for (const event of batch) {
          if (this.#streamAbort !== attempt) break
          this.#onEvent(event)
        }
      }
    } catch (err) {
      if (!this.#closed && !signal.aborted) return this.#streamEnded(toError(err))
      return
    } finally {
      reader.releaseLock()
    }
    if (!this.#closed && !signal.aborted) this.#streamEnded()
  }

  #onEvent(event) {
    if (!event.data) return
    const kind = event.event
    let seq = kind === 'client_event' ? sequenceNumber(event.id) : undefined
    this.#advanceCursor(seq)
    if (kind === 'catch_up_truncated') {
      this.#drop('catch_up_truncated', `${TAG} catch_up_truncated — events after the resume cursor were not all replayed`, 'warn')
      try {
        this.#options.onCatchUpTruncated?.()
      } catch (err) {
        console.warn(`${TAG} onCatchUpTruncated handler threw`, err)
      }
      return
    }
    if (kind === 'delivery_update') {
      const update = deliveryUpdate(event.data)
      if (!update) {
        this.#drop('malformed_delivery_update', `${TAG} Dropping malformed delivery_update frame`)
        return
      }
      try {
        this.#options.onDeliveryUpdate?.(update)
      } catch (err) {
        console.warn(`${TAG} onDeliveryUpdate handler threw`, err)
      }
      return
    }
    if (kind !== 'client_event' && kind !== 'ephemeral_event') return
    try {
      const frame = JSON.parse(event.data)
      if (kind === 'client_event' && seq === undefined) {
        seq = sequenceNumber(frame.sequence_num)
        this.#advanceCursor(seq)
      }
      const payload = frame.payload
      if (!payload || typeof payload.type !== 'string') {
        this.#drop('missing_type', `${TAG} Dropping ${kind} frame with no string payload.type`)
        return
      }
      if (kind === 'ephemeral_event') return this.#onEphemeral(payload)
      const envelope = seq !== undefined && typeof frame.event_id === 'string'
        ? {
            event_id: frame.event_id,
            sequence_num: seq,
            ...(typeof frame.created_at === 'string' && { created_at: frame.created_at }),
            ...(typeof frame.processing_at === 'string' && { processing_at: frame.processing_at }),
            ...(typeof frame.source === 'string' && { source: frame.source }),
          }
        : undefined
      delete payload.ccr_event
      const source = frame.source
      if (payload.type === 'control_response' && (!isPlainObject(payload.response) || typeof payload.response.request_id !== 'string')) {
        this.#drop('malformed_control_response', `${TAG} Dropping malformed control_response from source=${logSafe(source)}`, 'warn')
        return
      }
      if (payload.type === 'user') {
        if (source !== 'worker' && isWorkerOutputShaped(payload)) {
          this.#drop('user_worker_only', `${TAG} Dropping worker-output-shaped user frame from source=${logSafe(source)}`, 'warn')
          return
        }
        if (hasMalformedContent(payload)) {
          this.#drop('malformed_user_content', `${TAG} Dropping user frame with malformed content from source=${logSafe(source)}`, 'warn')
          return
        }
      }
      if (payload.type === 'control_response') {
        const id = payload.response.request_id
        if (source !== 'worker') {
          // Another client's answer: never taken as the reply to one of this client's requests,
          // and shown without the fields only the worker may send.
          if (this.#issuedRequestIds.has(id) || this.#expectedControlResponseIds.has(id)) {
            this.#drop('forged_reply', `${TAG} Dropping control_response for this client's request_id from source=${logSafe(source)}`, 'warn')
            return
          }
          const { pending_user_dialog_requests, pending_permission_requests, pending_elicitation_requests, error_code, ...rest } = payload.response
          this.#enqueueDurable({ ...payload, response: rest }, envelope)
          return
        }
        this.#issuedRequestIds.delete(id)
        this.#expectedControlResponseIds.delete(id)
        this.#enqueueDurable(payload, envelope)
        return
      }
      const refused = payload.type === 'queued_notification' ? frame.event_type !== payload.type : source !== 'worker' && !PEER_TYPES.has(payload.type)
      if (refused) {
        const echo = CONTROL_TYPES.has(payload.type) && typeof payload.request_id === 'string' && this.#issuedRequestIds.has(payload.request_id)
        this.#drop(echo ? 'expected_echo' : 'non_worker_type', `${TAG} Dropping ${logSafe(payload.type)} from source=${logSafe(source)}`)
        return
      }
      this.#enqueueDurable(payload, envelope)
    } catch {
      this.#drop('unparseable_frame', `${TAG} Dropping unparseable ${kind} frame`)
    }
  }

  #onEphemeral(payload) {
    if (payload.type === 'stream_event' || payload.type === 'sources_changed') {
      delete payload.ccr_event
      this.#messages.enqueue(payload)
      return
    }
    const status = displayOnlySystemFrame(payload)
    if (status) {
      this.#messages.enqueue(status)
      return
    }
    const name = logSafe(typeof payload.subtype === 'string' ? `${payload.type}:${payload.subtype}` : payload.type)
    this.#drop('ephemeral_type', `${TAG} Dropping ${name} on ephemeral_event (only stream_event, sources_changed and display-only system status frames are accepted there)`)
  }

  #streamEnded(err) {
    this.#ready = false
    this.#clearLiveness()
    if (this.#closed) return
    if (this.#reconnectAttempts >= MAX_RECONNECTS) return this.#fail(err ?? new Error(`SSE reconnect budget exhausted (${MAX_RECONNECTS} attempts)`))
    this.#reconnectAttempts += 1
    const exp = Math.min(RECONNECT_CAP_MS, RECONNECT_BASE_MS * 2 ** (this.#reconnectAttempts - 1))
    const backoff = Math.max(0, exp + exp * 0.25 * (2 * Math.random() - 1))
    const asked = err instanceof SSEHttpError ? Math.min(err.retryAfterMs ?? 0, RECONNECT_CAP_MS) : 0
    const delay = Math.max(backoff, asked * (1 + Math.random() / 4))
    clearTimeout(this.#reconnectTimer)
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = undefined
      this.#start()
    }, delay)
  }

  #fail(err) {
    this.#exitError = this.#exitError ?? err
    this.close()
  }

  #resetLiveness() {
    this.#clearLiveness()
    this.#livenessTimer = setTimeout(() => {
      this.#streamAbort?.abort()
      this.#streamEnded(new Error('SSE liveness timeout'))
    }, LIVENESS_MS)
  }

  #clearLiveness() {
    clearTimeout(this.#livenessTimer)
    this.#livenessTimer = undefined
  }

  // --- writing -------------------------------------------------------------------------------

  /** The query is about to wait for the answer to `requestId` (a reply from another source is forged). */
  expectControlResponse(requestId) {
    this.resume()
    this.#expectedControlResponseIds.add(requestId)
    evictOldest(this.#expectedControlResponseIds, MAX_EXPECTED_IDS, this.#issuedRequestIds, 'expectedControlResponseIds')
  }

  async write(line) {
    if (this.abortController.signal.aborted) throw new AbortError('Operation aborted')
    this.resume()
    if (!this.#ready) await this.#gate.promise
    if (this.#closed) throw this.#exitError ?? new Error('SSETransport is closed')
    const frame = JSON.parse(line)
    const isObject = frame && typeof frame === 'object' && !Array.isArray(frame)
    if (isObject && frame.type === 'control_request' && typeof frame.request_id === 'string') {
      this.#issuedRequestIds.add(frame.request_id)
      evictOldest(this.#issuedRequestIds, MAX_ISSUED_IDS, this.#expectedControlResponseIds, 'issuedRequestIds')
    }
    // Every event gets a uuid (the server dedupes retried POSTs by it).
    const body = !isObject || (typeof frame.uuid === 'string' && frame.uuid) ? line : JSON.stringify({ ...frame, uuid: crypto.randomUUID() })
    await this.#uploader.enqueue(body)
  }

  async #postOnce(line) {
    const headers = { ...this.#options.headers, 'Content-Type': 'application/json' }
    const body = JSON.stringify({ session_id: this.#options.sessionId, events: [{ payload: JSON.parse(line) }] })
    const { signal, detach } = anySignal([this.abortController.signal, AbortSignal.timeout(POST_TIMEOUT_MS)])
    try {
      const response = await fetch(this.#options.sendUrl, { method: 'POST', headers, body, signal })
      if (response.ok) {
        response.body?.cancel().catch(() => {})
        return
      }
      if (PERMANENT.has(response.status)) {
        const reason = await errorReason(response)
        this.#fail(new SSEHttpError(`POST ${this.#options.sendUrl}`, response.status, reason))
        throw new Error(`permanent HTTP ${response.status}`)
      }
      response.body?.cancel().catch(() => {})
      throw new RetryableError(`POST ${this.#options.sendUrl}: HTTP ${response.status}`, retryAfterMs(response.headers.get('Retry-After')))
    } finally {
      detach()
    }
  }

  close() {
    if (this.#closed) return
    this.#closed = true
    if (!this.#ready) this.#gate.fail(this.#exitError ?? new AbortError('SSE transport closed before connect'))
    this.#ready = false
    clearTimeout(this.#reconnectTimer)
    this.#reconnectTimer = undefined
    this.#clearLiveness()
    this.#streamAbort?.abort()
    this.#uploader.close()
    if (this.#abortHandler) {
      this.abortController.signal.removeEventListener('abort', this.#abortHandler)
      this.#abortHandler = undefined
    }
    this.#messages.done()
  }

  isReady() {
    return this.#ready && !this.#closed
  }

  endInput() {}

  async *readMessages() {
    yield* this.#messages
    if (this.#exitError) throw this.#exitError
  }
}

function isPlainObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function deliveryUpdate(data) {
  try {
    const v = JSON.parse(data)
    if (!isPlainObject(v) || typeof v.event_id !== 'string' || typeof v.status !== 'string') return undefined
    if (v.timestamp !== undefined && typeof v.timestamp !== 'string') return undefined
    return { event_id: v.event_id, status: v.status, ...(v.timestamp !== undefined && { timestamp: v.timestamp }) }
  } catch {
    return undefined
  }
}

function evictOldest(set, max, other, name) {
  if (set.size <= max) return
  const oldest = set.values().next().value
  if (oldest === undefined) return
  if (!other.has(oldest)) console.warn(`${TAG} ${name} overflow — evicting oldest unanswered request_id`)
  set.delete(oldest)
}

/** Retry-After as ms: delta-seconds or an HTTP date. */
export function retryAfterMs(value, now = Date.now()) {
  if (typeof value !== 'string' || value.length > 100) return undefined
  const trimmed = value.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000
  const at = Date.parse(trimmed)
  return Number.isFinite(at) && at > now ? at - now : undefined
}

/** The server's error type (`error.resource` or `error.type`) from at most 4 KiB of an error body. */
async function errorReason(response, signal) {
  try {
    const reader = response.body.getReader()
    const chunks = []
    let size = 0
    const onAbort = () => reader.cancel().catch(() => {})
    signal?.addEventListener('abort', onAbort, { once: true })
    try {
      while (size < 4096) {
        const { done, value } = await reader.read()
        if (done) break
        chunks.push(value)
        size += value.length
      }
    } finally {
      signal?.removeEventListener('abort', onAbort)
      reader.cancel().catch(() => {})
    }
    const bytes = new Uint8Array(Math.min(size, 4096))
    let at = 0
    for (const c of chunks) {
      bytes.set(c.subarray(0, bytes.length - at), at)
      at += Math.min(c.length, bytes.length - at)
    }
    const json = JSON.parse(new TextDecoder().decode(bytes))
    const reason = json?.error?.resource ?? json?.error?.type
    if (typeof reason !== 'string') return undefined
    return logSafe(reason, 128) || undefined
  } catch {
    return undefined
  }
}

function anySignal(signals) {
  if (typeof AbortSignal.any === 'function') return { signal: AbortSignal.any(signals), detach: () => {} }
  const controller = new AbortController()
  const links = []
  for (const s of signals) {
    if (s.aborted) {
      controller.abort(s.reason)
      break
    }
    const onAbort = () => controller.abort(s.reason)
    s.addEventListener('abort', onAbort, { once: true })
    links.push([s, onAbort])
  }
  return { signal: controller.signal, detach: () => links.forEach(([s, f]) => s.removeEventListener('abort', f)) }
}
