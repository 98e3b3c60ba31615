// @ts-check
'use strict'
// What user code threw or rejected with, read without ever throwing. Such a value may be
// anything: a Proxy whose every trap throws (even `instanceof` runs its getPrototypeOf trap), a
// revoked Proxy, an object whose `message` getter throws, a Symbol, a frozen null-prototype
// object. Every place in lib/ that looks at one goes through here, so that no value a callback
// throws can turn an answer the CLI waits for into an unhandled rejection (issue 31, item 8).

/**
 * Whether `v` is an instance of `C` (an Error by default); false when even asking throws.
 * @param {unknown} v
 * @param {Function} [C]
 * @returns {boolean}
 */
function isError(v, C = Error) {
  try {
    return v instanceof C
  } catch {
    return false
  }
}

/**
 * `v[key]`, or undefined when reading it throws.
 * @param {unknown} v
 * @param {PropertyKey} key
 * @returns {any} whatever the property holds
 */
function field(v, key) {
  if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return undefined
  try {
    return /** @type {Record<PropertyKey, unknown>} */ (v)[key]
  } catch {
    return undefined
  }
}

/**
 * A value's text for a message, whatever it is (String() throws for some objects).
 * @param {unknown} v
 * @returns {string}
 */
function safeString(v) {
  try {
    return String(v)
  } catch {}
  try {
    return Object.prototype.toString.call(v)
  } catch {}
  return `an unprintable ${typeof v}`
}

/**
 * The message of what user code threw, always a string: an Error's `message` (when it is one),
 * else the value as text.
 * @param {unknown} err
 * @returns {string}
 */
function errorText(err) {
  if (!isError(err)) return safeString(err)
  let message
  try {
    message = /** @type {Error} */ (err).message
  } catch {
    return 'threw an Error whose message cannot be read'
  }
  if (typeof message === 'string') return message
  return `threw an Error whose message is not a string: ${safeString(message)}`
}

module.exports = { isError, field, safeString, errorText }
