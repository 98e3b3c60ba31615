// @ts-check
'use strict'
// Argument checks of the bridge's public functions: a wrong type is a TypeError naming the
// argument and what it got, instead of a request built from `undefined`.

function describe(value) {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'string' ? `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}` : typeof value
}

function requireString(fn, name, value, { optional = false } = {}) {
  if (optional && value === undefined) return
  if (typeof value !== 'string') throw new TypeError(`${fn}: ${name} must be a string${optional ? ' or undefined' : ''}, got ${describe(value)}`)
}

function requireHttpUrl(fn, name, value) {
  requireString(fn, name, value)
  let url
  try {
    url = new URL(value)
  } catch {
    throw new TypeError(`${fn}: ${name} must be an absolute http(s) URL, got ${describe(value)}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`${fn}: ${name} must be an http(s) URL, got ${describe(value)}`)
}

function requireTimeout(fn, name, value) {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new TypeError(`${fn}: ${name} must be a finite number of milliseconds >= 0, got ${describe(value)}`)
}

function requireFunction(fn, name, value) {
  if (value !== undefined && typeof value !== 'function') throw new TypeError(`${fn}: ${name} must be a function or undefined, got ${describe(value)}`)
}

module.exports = { describe, requireString, requireHttpUrl, requireTimeout, requireFunction }
