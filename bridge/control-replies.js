// @ts-check
'use strict'
// control_response envelopes of the bridge.
const { randomUUID } = require('node:crypto')

const success = (requestId, response) => ({ type: 'control_response', response: { subtype: 'success', request_id: requestId, ...(response !== undefined && { response }) } })

function failure(requestId, error, errorCode, model) {
  return { type: 'control_response', response: { subtype: 'error', request_id: requestId, error, ...(errorCode !== undefined && { error_code: errorCode }), ...(model !== undefined && { model }) } }
}

const unsupported = (requestId, message) => failure(requestId, message, 'unsupported_request')

// The error text of a handler that threw or rejected: an abort's own message, else "<subtype> failed".
function rejectionText(subtype, err, clean) {
  if (err instanceof Error && (err.name === 'AbortError' || /** @type {any} */ (err).__CANCEL__)) return clean(err.message)
  return `${subtype} failed`
}

const notice = (content, sessionId) => ({ type: 'system', subtype: 'informational', content, level: 'notice', uuid: randomUUID(), session_id: sessionId })

module.exports = { success, failure, unsupported, rejectionText, notice }
