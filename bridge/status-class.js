// @ts-check
'use strict'
// How the OAuth calls (session create, /bridge) read a non-success status: 401 is the bearer
// rejected (a new credential may succeed), 408/429/5xx are transient (null), anything else is
// an authoritative refusal.

/** @param {number} status */
function classifyStatus(status) {
  if (status === 401) return 'oauth_rejected'
  if (status === 408 || status === 429 || status >= 500) return 'transient'
  return 'rejected'
}

module.exports = { classifyStatus }
