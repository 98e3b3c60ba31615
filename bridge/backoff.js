// @ts-check
'use strict'
// Retry delays of the bridge: exponential from a base, capped, with the jitter the official
// `./bridge` uses (symmetric ±25% for the event stream, up to +N ms for upload lanes).

/** @param {number} attempt @param {number} baseMs @param {number} capMs @param {number} [ratio] */
function symmetricBackoff(attempt, baseMs, capMs, ratio = 0.25) {
  const d = Math.min(capMs, baseMs * 2 ** (attempt - 1))
  return Math.max(0, d + d * ratio * (2 * Math.random() - 1))
}

/** @param {number} attempt @param {number} baseMs @param {number} capMs @param {number} jitterMs */
function additiveBackoff(attempt, baseMs, capMs, jitterMs) {
  return Math.min(capMs, baseMs * 2 ** (attempt - 1)) + Math.random() * jitterMs
}

/**
 * Resolves after `ms`, or at once when `signal` aborts (so a closed worker leaves no timer behind).
 * @param {number} ms
 * @param {AbortSignal} [signal]
 * @returns {Promise<void>}
 */
function sleep(ms, signal) {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve()
    const done = () => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal?.addEventListener('abort', done, { once: true })
  })
}

module.exports = { symmetricBackoff, additiveBackoff, sleep }
