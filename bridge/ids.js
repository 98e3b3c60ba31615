// @ts-check
'use strict'
// Identifier checks of the official `./bridge`: session ids travel in URL paths, so only
// [A-Za-z0-9_-] is accepted; a created session's id must be a `cse_*` id.

const SAFE_ID = /^[a-zA-Z0-9_-]+$/

/** @param {unknown} id @returns {id is string} */
function isSafeId(id) {
  return typeof id === 'string' && id !== '' && SAFE_ID.test(id)
}

/** @param {unknown} id @param {string} what the id's name, for the message */
function assertSafeId(id, what) {
  if (!isSafeId(id)) throw new Error(`Invalid ${what}: contains unsafe characters`)
  return id
}

/** @param {unknown} id */
function isCodeSessionId(id) {
  return isSafeId(id) && !id.startsWith('-') && id.startsWith('cse_')
}

// A number or a numeric string that is a safe integer (worker epochs arrive as either).
/** @param {unknown} value */
function safeInteger(value) {
  const n = typeof value === 'string' ? Number(value) : value
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : undefined
}

module.exports = { isSafeId, assertSafeId, isCodeSessionId, safeInteger }
