'use strict'

/** Thrown when a query is aborted, as the official SDK's AbortError. */
class AbortError extends Error {
  constructor(message) {
    super(message)
    this.name = 'AbortError'
  }
}

/**
 * Turns an engine error (`CODE: message`, or an EndReason) into the Error the official SDK
 * would throw: AbortError for aborts, Error otherwise, with `code` kept for programs.
 */
function engineError(codeOrError, maybeMessage) {
  let code = codeOrError
  let message = maybeMessage
  if (codeOrError instanceof Error) {
    const m = /^([A-Z_]+): ([\s\S]*)$/.exec(codeOrError.message)
    code = m ? m[1] : undefined
    message = m ? m[2] : codeOrError.message
  }
  const err = code === 'ABORTED' ? new AbortError(message) : new Error(message)
  if (code) err.code = code
  return err
}

module.exports = { AbortError, engineError }
