// @ts-check
'use strict'
const { isError, field } = require('./thrown')

/**
 * Thrown when a query is aborted, as the official SDK's AbortError: a plain subclass of Error,
 * so its instances' `name` is `'Error'` as the official's are (tell it by `instanceof`).
 */
class AbortError extends Error {}

/**
 * The Error a query throws for an engine error. The binding makes it, with its stable `code`
 * (and `exitCode`, `signal`, `stderr` when the CLI died); an abort becomes the official SDK's
 * AbortError, keeping those fields. `fromEngine` takes a thrown native error or an EndReason.
 * @param {unknown} e
 * @returns {unknown} `e` itself, or the Error made from it
 */
function fromEngine(e) {
  // What a callback threw may pass here too (spawnClaudeCodeProcess): read it without throwing.
  const code = field(e, 'code')
  if (typeof code !== 'string') return e
  if (code !== 'ABORTED' && isError(e)) return e
  const err = code === 'ABORTED' ? new AbortError(field(e, 'message')) : new Error(field(e, 'message'))
  const fields = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (err))
  for (const key of ['code', 'exitCode', 'signal', 'stderr']) if (field(e, key) != null) fields[key] = field(e, key)
  return err
}

module.exports = { AbortError, fromEngine }
