// @ts-check
'use strict'
// What every store adapter (lib/stores/postgres.js, redis.js, s3.js) checks and parses the same
// way: the key and entries a caller passes, and the stored text of one entry read back.

/** A key's description for error messages: `session S (project P, subpath X)`. */
function describeKey(key) {
  const sub = key.subpath !== undefined ? `, subpath ${JSON.stringify(key.subpath)}` : ''
  return `session ${JSON.stringify(key.sessionId)} (project ${JSON.stringify(key.projectKey)}${sub})`
}

/** A lone surrogate: text that has no UTF-8 form (and so no key). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** Throws a TypeError naming the method and the field when `key` is not a SessionKey. */
function checkKey(store, method, key, { subpath = true } = {}) {
  const where = `${store}.${method}()`
  if (key === null || typeof key !== 'object') throw new TypeError(`${where}: key must be an object { projectKey, sessionId }, got ${key === null ? 'null' : typeof key}`)
  for (const field of ['projectKey', 'sessionId']) {
    if (typeof key[field] !== 'string' || key[field] === '') throw new TypeError(`${where}: key.${field} must be a non-empty string, got ${JSON.stringify(key[field])}`)
    if (LONE_SURROGATE.test(key[field])) throw new TypeError(`${where}: key.${field} is not well-formed Unicode (a lone surrogate): ${JSON.stringify(key[field])}`)
  }
  if (subpath && key.subpath !== undefined && (typeof key.subpath !== 'string' || key.subpath === '')) {
    throw new TypeError(`${where}: key.subpath must be a non-empty string or undefined, got ${JSON.stringify(key.subpath)}`)
  }
  if (subpath && typeof key.subpath === 'string' && LONE_SURROGATE.test(key.subpath)) throw new TypeError(`${where}: key.subpath is not well-formed Unicode (a lone surrogate): ${JSON.stringify(key.subpath)}`)
}

/** Throws a TypeError when `projectKey` is not a non-empty string. */
function checkProjectKey(store, method, projectKey) {
  if (typeof projectKey !== 'string' || projectKey === '') throw new TypeError(`${store}.${method}(): projectKey must be a non-empty string, got ${JSON.stringify(projectKey)}`)
  if (LONE_SURROGATE.test(projectKey)) throw new TypeError(`${store}.${method}(): projectKey is not well-formed Unicode (a lone surrogate): ${JSON.stringify(projectKey)}`)
}

/**
 * The entries of an append as JSON lines, checked: an array of objects with a string `type`
 * (JSON.stringify of anything else would store something load() cannot give back).
 */
function serializeEntries(store, key, entries) {
  if (!Array.isArray(entries)) throw new TypeError(`${store}.append(): entries must be an array, got ${entries === null ? 'null' : typeof entries}`)
  return entries.map((e, i) => {
    if (e === null || typeof e !== 'object' || Array.isArray(e) || typeof e.type !== 'string') {
      throw new TypeError(`${store}.append(): entry ${i} for ${describeKey(key)} must be an object with a string "type"`)
    }
    return JSON.stringify(e)
  })
}

/** An entry read back: parsed, or an error naming the session and the entry's position. */
function parseEntry(store, key, text, index) {
  let value
  try {
    value = JSON.parse(text)
  } catch (e) {
    throw new Error(`${store}.load(): corrupt entry ${index} of ${describeKey(key)}: not JSON (${e.message}): ${String(text).slice(0, 80)}`)
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || typeof value.type !== 'string') {
    throw new Error(`${store}.load(): corrupt entry ${index} of ${describeKey(key)}: not an object with a string "type": ${String(text).slice(0, 80)}`)
  }
  return value
}

/**
 * One key component as text without separators: percent-encoding (as encodeURIComponent) that
 * also encodes `.`, `!`, `'`, `(`, `)`, `*` and `~`, so no component is `.` or `..`, holds `/`,
 * `:`, `{` or `}`, or ends up empty. Reversible with decodeURIComponent.
 */
function encodePart(value) {
  return encodeURIComponent(value).replace(/[.!'()*~]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
}

/** decodeURIComponent, or undefined for text no encodePart() made. */
function decodePart(text) {
  try {
    return decodeURIComponent(text)
  } catch {
    return undefined
  }
}

/** The last reading of monotonicMs(). */
let lastMs = 0
/** A clock whose readings never repeat or go back within this process (integer ms). */
function monotonicMs() {
  lastMs = Math.max(Date.now(), lastMs + 1)
  return lastMs
}

/** `list` in slices of at most `size` items. */
function chunks(list, size) {
  const out = []
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size))
  return out
}

module.exports = { encodePart, decodePart, describeKey, checkKey, checkProjectKey, serializeEntries, parseEntry, monotonicMs, chunks }
