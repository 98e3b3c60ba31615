// @ts-check
'use strict'
// The service's own words (an error's `message`) are passed on to the caller only when they are
// one plain line: at most 1,024 UTF-16 units, no control, format, private-use, unassigned or
// invisible characters, no whitespace but single ASCII spaces, no leading or trailing space,
// already NFC. Otherwise `undefined` (the official `./bridge`'s CreateSessionFailure.detail rule).

const NOT_PLAIN = /[^\S ]|[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\u2028\u2029\u115f\u1160\u3164\uffa0\u2800]/u
const LOOKALIKE_BACKTICKS = /[\uff40\u02cb\u1fef\u2035]/
const LOOSE_MARKS = /(?<![^\s\p{P}])\p{M}+/u

/** @param {unknown} text @param {number} [max] @returns {text is string} */
function isPlainLine(text, max = 1024) {
  return typeof text === 'string' &&
    text.length <= max &&
    !NOT_PLAIN.test(text) &&
    text === text.trim() &&
    !text.includes('  ') &&
    text.normalize('NFC') === text &&
    !LOOKALIKE_BACKTICKS.test(text) &&
    !LOOSE_MARKS.test(text)
}

// `body.message` or `body.error.message`, when the body has one.
/** @param {unknown} body */
function serviceMessage(body) {
  if (!body || typeof body !== 'object') return undefined
  const b = /** @type {{ message?: unknown, error?: { message?: unknown } | null }} */ (body)
  if (typeof b.message === 'string') return b.message
  if (b.error !== null && typeof b.error === 'object' && typeof b.error.message === 'string') return b.error.message
  return undefined
}

/** @param {unknown} body */
function serviceDetail(body) {
  const message = serviceMessage(body)
  return message !== undefined && isPlainLine(message) ? message : undefined
}

// Strings the bridge puts into control responses: controls and invisible characters removed,
// at most 1,024 UTF-16 units (a lone surrogate left by the cut is dropped).
const STRIPPED = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800]|(?!\u0020)\p{Zs}/gu
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** @param {unknown} text @returns {string} */
function cleanText(text) {
  if (typeof text !== 'string') return ''
  let out = (text.length > 4096 ? text.slice(0, 4096) : text)
  for (let i = 0; i < 64; i++) {
    const next = out.replace(LONE_SURROGATE, '').replace(STRIPPED, '')
    if (next === out) break
    out = next
  }
  if (out.length > 1024) {
    out = out.slice(0, 1024)
    const last = out.charCodeAt(1023)
    if (last >= 0xd800 && last <= 0xdbff) out = out.slice(0, -1)
  }
  return out
}

module.exports = { isPlainLine, serviceMessage, serviceDetail, cleanText }
