// @ts-check
// The SSE transport's writer: frames are POSTed one at a time, in order. A failed POST is retried
// after 1 s, 2 s, 4 s … (at most 30 s, plus up to 250 ms of jitter, or the server's Retry-After);
// after 3 failures in a row that frame is dropped and the next one goes. A send that fails for
// good (the transport's decision) stops the queue.
const MAX_QUEUE = 1000
const BASE_DELAY_MS = 1000
const MAX_DELAY_MS = 30000
const JITTER_MS = 250
const MAX_CONSECUTIVE_FAILURES = 3

export class SerialUploader {
  #send
  /** @type {string[]} */
  #pending = []
  #draining = false
  #closed = false
  /** @type {Array<(value?: unknown) => void>} enqueue() calls waiting for room */
  #room = []
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  #timer
  /** @type {(() => void) | undefined} */
  #wake

  /** @param {(item: string) => Promise<void>} send */
  constructor(send) {
    this.#send = send
  }

  /** @param {string} item */
  async enqueue(item) {
    if (this.#closed) return
    while (this.#pending.length >= MAX_QUEUE && !this.#closed) await new Promise((resolve) => this.#room.push(resolve))
    if (this.#closed) return
    this.#pending.push(item)
    // Never rejects: every failed send is caught (retried or dropped) inside the loop.
    void this.#drain()
  }

  async #drain() {
    if (this.#draining) return
    this.#draining = true
    let failures = 0
    try {
      while (!this.#closed && this.#pending.length > 0) {
        const item = this.#pending[0]
        try {
          await this.#send(item)
          failures = 0
          this.#pending.shift()
          this.#roomFreed()
        } catch (err) {
          if (this.#closed) break
          failures += 1
          if (failures >= MAX_CONSECUTIVE_FAILURES) {
            failures = 0
            this.#pending.shift()
            this.#roomFreed()
            continue
          }
          await this.#sleep(this.#delay(failures, err?.retryAfterMs))
        }
      }
    } finally {
      this.#draining = false
    }
  }

  /** @param {number} attempt @param {number | undefined} retryAfterMs */
  #delay(attempt, retryAfterMs) {
    const jitter = Math.random() * JITTER_MS
    if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs)) return Math.max(BASE_DELAY_MS, Math.min(retryAfterMs, MAX_DELAY_MS)) + jitter
    return Math.min(BASE_DELAY_MS * 2 ** (attempt - 1), MAX_DELAY_MS) + jitter
  }

  /** @param {number} ms @returns {Promise<void>} */
  #sleep(ms) {
    return new Promise((resolve) => {
      this.#wake = resolve
      this.#timer = setTimeout(resolve, ms)
    })
  }

  #roomFreed() {
    const waiting = this.#room.shift()
    waiting?.()
  }

  close() {
    this.#closed = true
    clearTimeout(this.#timer)
    this.#wake?.()
    for (const resolve of this.#room.splice(0)) resolve()
    this.#pending = []
  }
}
