// @ts-check
'use strict'
// One upload lane of a worker: items queue up and leave in batches, one request at a time, in
// order. A batch the service refuses for good is dropped; any other failure is retried
// (500 ms doubling to 30 s, or the service's Retry-After, plus up to 500 ms). Closing keeps what was not delivered when asked,
// so that a rebuilt transport can send it.
const { additiveBackoff } = require('./backoff.js')

class PermanentFailure extends Error {}

// A failure to retry, after the service's Retry-After when it gave one.
class RetryableFailure extends Error {
  constructor(message, retryAfterMs) {
    super(message)
    this.retryAfterMs = retryAfterMs
  }
}

class BatchLane {
  // send(batch, { attempt: 'first' | 'resend' }) resolves when delivered, rejects with
  // PermanentFailure to drop the batch, or with anything else to retry it.
  constructor({ send, maxBatchSize = 100, baseDelayMs = 500, maxDelayMs = 30000, jitterMs = 500 }) {
    this.send = send
    this.maxBatchSize = maxBatchSize
    this.baseDelayMs = baseDelayMs
    this.maxDelayMs = maxDelayMs
    this.jitterMs = jitterMs
    this.pending = []
    this.inFlight = null
    this.closed = false
    this.retainOnClose = false
    this.undelivered = []
    this.idleWaiters = []
    /** @type {any} the retry's timer, or null */
    this.timer = null
    /** @type {((value?: unknown) => void) | null} */
    this.wakeRetry = null
  }

  enqueue(items) {
    if (this.closed) {
      if (this.retainOnClose) this.undelivered.push(...items)
      return
    }
    this.pending.push(...items)
    if (!this.inFlight) this.inFlight = this.drain()
  }

  async drain() {
    while (!this.closed && this.pending.length > 0) {
      const batch = this.pending.splice(0, this.maxBatchSize)
      this.current = batch
      for (let attempt = 1; !this.closed; attempt++) {
        try {
          await this.send(batch, { attempt: attempt === 1 ? 'first' : 'resend' })
          break
        } catch (err) {
          if (err instanceof PermanentFailure || this.closed) break
          await new Promise((resolve) => {
            this.wakeRetry = resolve
            this.timer = setTimeout(resolve, this.retryDelay(attempt, err?.retryAfterMs))
          })
          this.timer = null
          this.wakeRetry = null
        }
      }
      if (this.closed) break
      this.current = null
    }
    this.inFlight = null
    const waiters = this.idleWaiters.splice(0)
    for (const resolve of waiters) resolve()
  }

  // The service's Retry-After (kept within base..max) when it gave one, else the backoff.
  retryDelay(attempt, retryAfterMs) {
    if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs)) return Math.max(this.baseDelayMs, Math.min(retryAfterMs, this.maxDelayMs)) + Math.random() * this.jitterMs
    return additiveBackoff(attempt, this.baseDelayMs, this.maxDelayMs, this.jitterMs)
  }

  // Resolves once everything queued so far has left (or the lane closed).
  flush() {
    if (!this.inFlight) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  close({ retainUndelivered = false } = {}) {
    if (this.closed) return
    this.closed = true
    this.retainOnClose = retainUndelivered
    if (retainUndelivered) this.undelivered.push(...(this.current ?? []), ...this.pending)
    this.current = null
    this.pending = []
    clearTimeout(this.timer)
    this.wakeRetry?.()
    const waiters = this.idleWaiters.splice(0)
    for (const resolve of waiters) resolve()
  }

  takeUndelivered() {
    const out = this.undelivered
    this.undelivered = []
    return out
  }

  discardUndelivered() {
    const out = this.undelivered
    this.undelivered = []
    this.retainOnClose = false
    return out
  }
}

module.exports = { BatchLane, PermanentFailure, RetryableFailure }
