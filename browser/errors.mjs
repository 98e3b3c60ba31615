// @ts-check
// The errors the browser entry throws, as the official's: an abort is a plain Error subclass
// (its name stays 'Error'), an HTTP failure of the SSE stream or a POST an SSEHttpError with
// the status as `code`, the server's error type as `reason` and Retry-After in ms.
export class AbortError extends Error {}

export class SSEHttpError extends Error {
  /** @param {string} what @param {number} status @param {string | undefined} reason @param {number} [retryAfterMs] */
  constructor(what, status, reason, retryAfterMs) {
    super(`${what}: HTTP ${status}`)
    this.retryAfterMs = retryAfterMs
    this.name = 'SSEHttpError'
    this.code = status
    this.reason = reason
  }
}

/** A POST failure worth retrying (5xx, 429, network), with the server's Retry-After. */
export class RetryableError extends Error {
  /** @param {string} message @param {number | undefined} retryAfterMs */
  constructor(message, retryAfterMs) {
    super(message)
    this.retryAfterMs = retryAfterMs
  }
}

/** The error a query's pending requests get when it closes. */
export function closedError() {
  return new Error('Query closed before response received')
}

/** @param {unknown} value */
export function toError(value) {
  return value instanceof Error ? value : new Error(errorMessage(value))
}

/**
 * The text of what a callback threw, never throwing itself (String() throws for a null-prototype object).
 * @param {unknown} value
 * @returns {string}
 */
export function errorMessage(value) {
  try {
    return value instanceof Error ? value.message : String(value)
  } catch {}
  try {
    return Object.prototype.toString.call(value)
  } catch {}
  return `an unprintable ${typeof value}`
}
