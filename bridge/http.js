// @ts-check
'use strict'
// One JSON request with a deadline, answered the way the official `./bridge`'s HTTP client answers:
// an accepted status (below 500 unless `accept` says otherwise) resolves with the parsed body (the
// raw text when it is not JSON, '' when empty) and the response headers; another status, a
// network error or the deadline rejects.

class HttpError extends Error {
  /**
   * @param {string} message
   * @param {{ status?: number, code?: string, cause?: unknown }} [details]
   */
  constructor(message, { status, code, cause } = {}) {
    super(message, cause ? { cause } : undefined)
    this.name = 'HttpError'
    if (status !== undefined) this.status = status
    if (code !== undefined) this.code = code
  }
}

function parseBody(text) {
  if (text === '') return ''
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

async function requestJson(method, url, { headers, body, timeoutMs, accept = (status) => status < 500 }) {
  const signal = timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined
  let res
  try {
    res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal })
  } catch (err) {
    if (err && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
      throw new HttpError(`timeout of ${timeoutMs}ms exceeded`, { code: 'ECONNABORTED', cause: err })
    }
    throw new HttpError(`request to ${url} failed: ${err?.cause?.message ?? err?.message ?? err}`, { code: 'ERR_NETWORK', cause: err })
  }
  let text
  try {
    text = await res.text()
  } catch (err) {
    throw new HttpError(`reading the answer of ${url} failed: ${err?.message ?? err}`, { code: 'ERR_NETWORK', cause: err })
  }
  if (!accept(res.status)) throw new HttpError(`Request failed with status code ${res.status}`, { status: res.status, code: res.status >= 500 ? 'ERR_BAD_RESPONSE' : 'ERR_BAD_REQUEST' })
  const responseHeaders = {}
  res.headers.forEach((value, key) => { responseHeaders[key] = value })
  return { status: res.status, headers: responseHeaders, data: parseBody(text) }
}

module.exports = { HttpError, requestJson, parseBody }
