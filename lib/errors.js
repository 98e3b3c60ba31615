// @ts-check
'use strict'

/**
 * Thrown when a query is aborted, as the official SDK's AbortError: a plain subclass of Error,
 * so its instances' `name` is `'Error'` as the official's are (tell it by `instanceof`).
 */
class AbortError extends Error {}

/**
 * The Error a query throws for an engine error. The binding makes it, with its stable `code`
 * (and `exitCode`, `signal`, `stderr` when the CLI died); an abort becomes the official SDK's
 * AbortError, keeping those fields. `fromEngine` takes a thrown native error or an EndReason.
 */
function fromEngine(e) {
  if (!e || typeof e.code !== 'string') return e
  if (e.code !== 'ABORTED' && e instanceof Error) return e
  const err = e.code === 'ABORTED' ? new AbortError(e.message) : new Error(e.message)
  for (const key of ['code', 'exitCode', 'signal', 'stderr']) if (e[key] != null) err[key] = e[key]
  return err
}

module.exports = { AbortError, fromEngine }
