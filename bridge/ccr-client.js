// @ts-check
'use strict'
// The write side of a worker (the official `./bridge`'s CCRClient, for what a bridge session
// uses): register the worker's state (PUT /worker, after reading the stored state), heartbeats,
// client events (POST /worker/events), delivery receipts (POST /worker/events/delivery), state
// and metadata patches, and the goodbye. A 409 means another worker took over the epoch, and
// three 404s in a row or ten refused credentials in a row mean the worker cannot go on: each
// ends the worker with onEpochMismatch.
const { randomUUID } = require('node:crypto')
const { workerHeaders } = require('./headers.js')
const { BatchLane, PermanentFailure, RetryableFailure } = require('./batch-lane.js')
const { WorkerStateLane } = require('./worker-state-lane.js')
const { StreamEventBuffer } = require('./stream-event-buffer.js')
const { additiveBackoff, sleep } = require('./backoff.js')
const { debug } = require('./debug.js')

const REQUEST_TIMEOUT_MS = 10000
const HEARTBEAT_INTERVAL_MS = 20000
const MIN_ADVISED_INTERVAL_MS = 10000
const MAX_ADVISED_INTERVAL_MS = 300000
const GOODBYE_TIMEOUT_MS = 2000
const INIT_ATTEMPTS = 10
const STATE_READ_BOUND_MS = 10000
const NOT_FOUND_LIMIT = 3
const AUTH_FAILURE_LIMIT = 10

// A status the service will refuse again for the same request.
const isRefusal = (status) => status === 400 || status === 413 || status === 422

class WorkerInitError extends Error {
  constructor(status, noAnswer) {
    super('worker_register_failed')
    this.reason = 'worker_register_failed'
    this.httpStatus = status
    this.noAnswer = noAnswer
  }
}

class CcrClient {
  constructor(sessionUrl, { getToken, heartbeatIntervalMs, onEpochMismatch }) {
    this.sessionBaseUrl = sessionUrl.href.replace(/\/$/, '')
    this.sessionId = sessionUrl.pathname.replace(/\/$/, '').split('/').pop() || ''
    this.getToken = getToken
    this.heartbeatIntervalMs = heartbeatIntervalMs ?? HEARTBEAT_INTERVAL_MS
    this.onEpochMismatch = onEpochMismatch
    this.workerEpoch = 0
    this.currentState = 'idle'
    this.closed = false
    this.superseded = false
    this.notFound = 0
    this.authFailures = 0
    /** @type {any} the heartbeat's timer, or null */
    this.heartbeatTimer = null
    this.heartbeatInFlight = false
    this.closeAbort = new AbortController()
    this.events = new BatchLane({ maxBatchSize: 100, send: (batch, info) => this.sendEvents(batch, info) })
    this.streamEvents = new StreamEventBuffer((frames) => this.events.enqueue(frames.map((payload) => ({ payload, ephemeral: true }))))
    this.delivery = new BatchLane({ maxBatchSize: 64, send: (batch) => this.sendDelivery(batch) })
    this.state = new WorkerStateLane(async (patch) => {
      if (this.closed) return { ok: false, permanent: true, reason: 'closed' }
      const r = await this.request('put', '/worker', { worker_epoch: this.workerEpoch, ...patch })
      return { ...r, permanent: isRefusal(r.status) }
    })
  }

  /**
   * @param {string} method
   * @param {string} path
   * @param {unknown} body
   * @param {{ timeoutMs?: number, uploadAttempt?: string | number, countsTowardEscalation?: boolean, parse?: boolean, signal?: AbortSignal }} [options]
   */
  async request(method, path, body, { timeoutMs = REQUEST_TIMEOUT_MS, uploadAttempt, countsTowardEscalation = true, parse = false, signal } = {}) {
    const url = `${this.sessionBaseUrl}${path}`
    const headers = workerHeaders(this.getToken(), body === undefined ? undefined : { 'Content-Type': 'application/json' })
    if (uploadAttempt !== undefined) headers['x-ccr-upload-attempt'] = uploadAttempt
    // The deadline, or the caller's signal (AbortSignal.any is not in Node 18).
    const controller = new AbortController()
    const deadline = setTimeout(() => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')), timeoutMs)
    const stop = () => controller.abort(signal?.reason)
    if (signal?.aborted) stop()
    else signal?.addEventListener('abort', stop, { once: true })
    let res
    try {
      res = await fetch(url, { method: method.toUpperCase(), headers, body: body === undefined ? undefined : JSON.stringify(body), signal: controller.signal })
    } catch (err) {
      clearTimeout(deadline)
      signal?.removeEventListener('abort', stop)
      debug(`CCRClient: ${method.toUpperCase()} ${path} failed: ${err?.message ?? err}`)
      return { ok: false, fetchFailed: true, reason: `fetch_failed:${err?.name ?? 'Error'}` }
    }
    try {
      return await this.answer(res, method, path, { parse, countsTowardEscalation })
    } finally {
      clearTimeout(deadline)
      signal?.removeEventListener('abort', stop)
    }
  }

  async answer(res, method, path, { parse, countsTowardEscalation }) {
    if (res.ok) {
      this.notFound = 0
      this.authFailures = 0
      let data
      try {
        data = parse ? await res.json() : (await res.arrayBuffer(), undefined)
      } catch {}
      return { ok: true, status: res.status, data }
    }
    let conflictReason
    try {
      const text = await res.text()
      if (res.status === 409) conflictReason = JSON.parse(text)?.error?.reason
    } catch {}
    if (this.closed) return { ok: false, status: res.status, reason: `http_${res.status}` }
    debug(`CCRClient: ${method.toUpperCase()} ${path} returned ${res.status}`)
    if (res.status === 409) this.escalate(typeof conflictReason === 'string' ? conflictReason : 'epoch_conflict')
    if (res.status === 404 && countsTowardEscalation && path !== '/worker/event-batch' && ++this.notFound >= NOT_FOUND_LIMIT) this.escalate('session_not_found')
    if ((res.status === 401 || res.status === 403) && countsTowardEscalation && ++this.authFailures >= AUTH_FAILURE_LIMIT) this.escalate('auth_exhausted')
    if (res.status === 429) {
      const seconds = parseInt(res.headers.get('retry-after') ?? '', 10)
      if (!Number.isNaN(seconds) && seconds >= 0) return { ok: false, status: res.status, reason: `http_${res.status}`, retryAfterMs: seconds * 1000 }
    }
    return { ok: false, status: res.status, reason: `http_${res.status}` }
  }

  escalate(cause) {
    if (this.superseded) return
    this.superseded = true
    try {
      this.onEpochMismatch(cause)
    } catch {}
  }

  async initialize(epoch) {
    if (!this.getToken()) throw new WorkerInitError(undefined, false)
    if (epoch === undefined || Number.isNaN(epoch)) throw new Error('missing_epoch')
    this.workerEpoch = epoch
    // The stored state is read first (waited for at most 10 s, and given up once the worker is
    // registered), as the official client orders it.
    const readAbort = new AbortController()
    this.closeAbort.signal.addEventListener('abort', () => readAbort.abort(), { once: true })
    const read = this.readWorkerState(readAbort.signal)
    const bound = new AbortController()
    await Promise.race([read.finally(() => bound.abort()), sleep(STATE_READ_BOUND_MS, bound.signal)])
    const patch = { worker_status: 'idle', worker_epoch: epoch, external_metadata: { pending_action: null, pending_actions: null, task_summary: null } }
    let result = { ok: false }
    for (let attempt = 1; attempt <= INIT_ATTEMPTS && !this.closed; attempt++) {
      result = await this.request('put', '/worker', patch)
      if (result.ok || this.closed || isRefusal(result.status)) break
      if (attempt < INIT_ATTEMPTS) await sleep(additiveBackoff(attempt, 500, 30000, 500), this.closeAbort.signal)
    }
    readAbort.abort()
    if (!result.ok) throw new WorkerInitError(result.status, result.fetchFailed === true)
    this.currentState = 'idle'
    this.startHeartbeat()
  }

  // GET /worker, retried (10 attempts, 500 ms doubling to 30 s, plus up to 500 ms) until it
  // answers, the service refuses it for good, the signal ends it, or a 409 ends the worker.
  async readWorkerState(signal) {
    for (let attempt = 1; attempt <= INIT_ATTEMPTS; attempt++) {
      if (signal.aborted || this.closed) return null
      const both = new AbortController()
      const stop = () => both.abort()
      signal.addEventListener('abort', stop, { once: true })
      this.closeAbort.signal.addEventListener('abort', stop, { once: true })
      const r = await this.request('get', '/worker', undefined, { parse: true, signal: both.signal, countsTowardEscalation: false })
      signal.removeEventListener('abort', stop)
      this.closeAbort.signal.removeEventListener('abort', stop)
      if (r.ok) return r.data ?? null
      if (r.status === 409 || isRefusal(r.status) || signal.aborted || this.closed) return null
      if (attempt < INIT_ATTEMPTS) await sleep(additiveBackoff(attempt, 500, 30000, 500), signal)
    }
    return null
  }

  startHeartbeat() {
    clearTimeout(this.heartbeatTimer)
    if (this.closed) return
    this.heartbeatTimer = setTimeout(() => {
      // request() answers every failure as a value; anything else is logged, never unhandled.
      this.sendHeartbeat().catch((err) => debug(`CCRClient: heartbeat failed: ${err?.message ?? err}`))
      if (this.heartbeatTimer !== null) this.startHeartbeat()
    }, this.heartbeatIntervalMs)
  }

  async sendHeartbeat() {
    if (this.closed || this.heartbeatInFlight) return
    this.heartbeatInFlight = true
    try {
      const timeoutMs = Math.max(5000, Math.min(15000, this.heartbeatIntervalMs - 5000))
      const r = await this.request('post', '/worker/heartbeat', { session_id: this.sessionId, worker_epoch: this.workerEpoch }, { timeoutMs, parse: true })
      if (r.ok) this.takeUpAdvisedInterval(r.data?.heartbeat_interval_seconds)
    } finally {
      this.heartbeatInFlight = false
    }
  }

  // The service's heartbeat_interval_seconds replaces the interval (10 s to 5 min); a shorter one
  // takes effect at once, a longer one from the next beat.
  takeUpAdvisedInterval(seconds) {
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0 || this.closed) return
    const next = Math.min(Math.max(seconds * 1000, MIN_ADVISED_INTERVAL_MS), MAX_ADVISED_INTERVAL_MS)
    if (next === this.heartbeatIntervalMs) return
    const shorter = next < this.heartbeatIntervalMs
    this.heartbeatIntervalMs = next
    if (shorter && this.heartbeatTimer !== null) this.startHeartbeat()
  }

  async sendEvents(batch, { attempt }) {
    if (this.closed) throw new PermanentFailure('closed')
    const post = (events, uploadAttempt) => this.request('post', '/worker/events', { worker_epoch: this.workerEpoch, events: events.map((e) => ({ payload: e.payload })) }, { uploadAttempt, parse: true })
    let r = await post(batch, attempt)
    if (r.ok) return
    if (isRefusal(r.status)) {
      // Refused: the partial-message frames go, the rest is offered once more on its own.
      const durable = batch.filter((e) => !e.ephemeral)
      if (durable.length === batch.length || durable.length === 0) throw new PermanentFailure(`client events refused (${r.status})`)
      batch.splice(0, batch.length, ...durable)
      r = await post(durable, 'resend')
      if (r.ok) return
      if (isRefusal(r.status)) throw new PermanentFailure(`client events refused (${r.status})`)
    }
    throw new RetryableFailure(`client event POST failed (${r.reason})`, r.retryAfterMs)
  }

  async sendDelivery(batch) {
    if (this.closed) throw new PermanentFailure('closed')
    const r = await this.request('post', '/worker/events/delivery', { worker_epoch: this.workerEpoch, updates: batch.map((u) => ({ event_id: u.eventId, status: u.status })) })
    if (r.ok) return
    if (isRefusal(r.status)) throw new PermanentFailure(`delivery refused (${r.status})`)
    throw new RetryableFailure(`delivery POST failed (${r.reason})`, r.retryAfterMs)
  }

  // Every client event carries a uuid (the service dedupes resends by it). Partial-message frames
  // are held briefly and merged; any other write sends them first.
  writeEvent(message) {
    // A task_progress with neither summary nor workflow progress says nothing to the service.
    if (message.type === 'system' && message.subtype === 'task_progress' && message.summary === undefined && message.workflow_progress === undefined) return
    const payload = typeof message.uuid === 'string' ? message : { ...message, uuid: randomUUID() }
    if (payload.type === 'stream_event') return this.streamEvents.hold(payload)
    const held = this.streamEvents.take().map((frame) => ({ payload: frame, ephemeral: true }))
    this.events.enqueue([...held, { payload }])
  }

  reportState(state) {
    if (state === this.currentState) return
    this.currentState = state
    this.state.enqueue({ worker_status: state, requires_action_details: null, internal_metadata: { reply_degraded: false } })
  }

  reportMetadata(metadata) {
    this.state.enqueue({ external_metadata: metadata })
  }

  reportDelivery(eventId, status) {
    if (status === 'processing' && this.closed) return
    this.delivery.enqueue([{ eventId, status }])
  }

  async flush() {
    this.streamEvents.release()
    await Promise.all([this.events.flush(), this.delivery.flush(), this.state.flush()])
  }

  // Undelivered client events, without the partial-message frames (they are not carried over).
  takeUndelivered() {
    return this.events.takeUndelivered().filter((e) => !e.ephemeral)
  }

  discardUndelivered() {
    return this.events.discardUndelivered().filter((e) => !e.ephemeral)
  }

  adopt(events) {
    this.events.enqueue(events)
  }

  /** @param {{ goodbye?: boolean, retainUndelivered?: boolean }} [options] */
  close({ goodbye, retainUndelivered = false } = {}) {
    const wasClosed = this.closed
    this.closed = true
    this.closeAbort.abort()
    this.state.close()
    if (!wasClosed && goodbye !== false) this.sendGoodbye()
    clearTimeout(this.heartbeatTimer)
    this.heartbeatTimer = null
    this.streamEvents.drop()
    this.events.close({ retainUndelivered })
    this.delivery.close()
  }

  // Tells the service this worker left, unless another worker took over or a turn is running.
  sendGoodbye() {
    if (this.workerEpoch <= 0 || this.superseded || this.currentState === 'running') return
    this.request('put', '/worker', { worker_epoch: this.workerEpoch, connection_status: 'disconnected' }, { timeoutMs: GOODBYE_TIMEOUT_MS, countsTowardEscalation: false }).catch(() => {})
  }
}

module.exports = { CcrClient, WorkerInitError }
