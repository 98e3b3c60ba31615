// @ts-check
'use strict'
// POST {session}/worker/register — the worker epoch for a session when the caller does not know
// it. A status other than 2xx, a network error or the 10 s deadline throws the HTTP error; an answer without a
// safe-integer worker_epoch throws, quoting the answer when it is one plain line.
const { API_VERSION, USER_AGENT } = require('./headers.js')
const { requestJson } = require('./http.js')
const { isPlainLine } = require('./service-text.js')

/** @param {unknown} data */
function quote(data) {
  let text
  try {
    text = JSON.stringify(data) ?? String(data)
  } catch {
    text = String(data)
  }
  return isPlainLine(text) ? text : undefined
}

/** @param {string} sessionUrl @param {string} token @returns {Promise<number>} the worker's epoch */
async function registerWorker(sessionUrl, token) {
  const res = await requestJson('POST', `${sessionUrl}/worker/register`, {
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'anthropic-version': API_VERSION, 'User-Agent': USER_AGENT },
    body: {},
    timeoutMs: 10000,
    accept: (status) => status >= 200 && status < 300,
  })
  const raw = res.data?.worker_epoch
  const epoch = typeof raw === 'string' ? Number(raw) : raw
  if (typeof epoch !== 'number' || !Number.isFinite(epoch) || !Number.isSafeInteger(epoch)) {
    const quoted = quote(res.data)
    throw new Error(`registerWorker: invalid worker_epoch in response${quoted === undefined ? ' (the response is not quoted: it is too long or is not one plain line)' : `: ${quoted}`}`)
  }
  return epoch
}

module.exports = { registerWorker }
