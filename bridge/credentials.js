// @ts-check
'use strict'
// POST /v1/code/sessions/{id}/bridge — mint a worker JWT for a session (the call is the worker
// register: each one bumps worker_epoch server-side), as the official `./bridge`'s
// fetchRemoteCredentials does: RemoteCredentials, a terminal CredentialsFailure, the
// non-terminal `oauth_rejected` CredentialsRejection, or null for a transient failure.
const { oauthHeaders } = require('./headers.js')
const { requestJson } = require('./http.js')
const { isSafeId, safeInteger } = require('./ids.js')
const { classifyStatus } = require('./status-class.js')
const { rejectSource } = require('./reject-source.js')
const { requireString, requireHttpUrl, requireTimeout, requireFunction } = require('./arguments.js')
const { debug } = require('./debug.js')

const SNAKE = /^[a-z0-9_]{1,64}$/

function isCredentialsFailure(r) {
  return r !== null && typeof r === 'object' && 'terminal' in r && r.terminal === true
}

function isCredentialsRejection(r) {
  return typeof r === 'object' && r !== null && 'terminal' in r && r.terminal === false
}

function errorObject(body) {
  return body !== null && typeof body === 'object' && body.error !== null && typeof body.error === 'object' ? body.error : undefined
}

// A server-minted 403 reason that needs the user: enroll the device, or log in again.
function remediation(body) {
  const resource = errorObject(body)?.resource
  return resource === 'untrusted_device' || resource === 'session_stale_relogin' ? resource : undefined
}

// Why an untrusted_device 403 refused the token (passed on as `refusal`).
function untrustedRefusal(body) {
  const sub = errorObject(body)?.sub_reason
  if (sub === undefined || sub === null || sub === '') return { kind: 'token_refused' }
  if (typeof sub !== 'string') return { kind: 'unrecognized', subReason: `(${typeof sub}, not a string)` }
  if (sub === 'bound_unattested') return { kind: 'token_refused' }
  if (sub === 'served_call_unsigned') return { kind: 'signature_wanted', subReason: sub }
  return SNAKE.test(sub) ? { kind: 'unrecognized', subReason: sub } : { kind: 'unrecognized', subReason: '(string, too long or not snake_case)' }
}

// error.reason / error.resource, when they are snake_case words.
function errorField(body, key) {
  const value = errorObject(body)?.[key]
  if (value === undefined || value === null || value === '') return ''
  return typeof value === 'string' && SNAKE.test(value) ? value : undefined
}

function checkArguments(args) {
  const [sessionId, baseUrl, accessToken, timeoutMs, trustedDeviceToken, onOAuthRejected] = args
  const fn = 'fetchRemoteCredentials'
  requireString(fn, 'sessionId', sessionId)
  requireHttpUrl(fn, 'baseUrl', baseUrl)
  requireString(fn, 'accessToken', accessToken)
  requireTimeout(fn, 'timeoutMs', timeoutMs)
  requireString(fn, 'trustedDeviceToken', trustedDeviceToken, { optional: true })
  requireFunction(fn, 'onOAuthRejected', onOAuthRejected)
}

async function fetchRemoteCredentials(...args) {
  checkArguments(args)
  const [sessionId, baseUrl, accessToken, timeoutMs, trustedDeviceToken, onOAuthRejected] = args
  if (!isSafeId(sessionId)) {
    debug('[code-session] /bridge: Invalid sessionId: contains unsafe characters')
    return { terminal: true, reason: 'invalid_session_id' }
  }
  const headers = oauthHeaders(accessToken)
  if (trustedDeviceToken) headers['X-Trusted-Device-Token'] = trustedDeviceToken
  let res
  try {
    res = await requestJson('POST', `${baseUrl}/v1/code/sessions/${sessionId}/bridge`, { headers, body: {}, timeoutMs })
  } catch (err) {
    debug(`[code-session] /bridge request failed: ${err.message}`)
    return null
  }
  if (res.status !== 200) {
    debug(`[code-session] /bridge failed ${res.status}`)
    if (res.status === 401) onOAuthRejected?.()
    let source
    if (res.status === 403) {
      const reason = remediation(res.data)
      if (reason === 'untrusted_device') return { terminal: true, reason, refusal: untrustedRefusal(res.data) }
      if (reason) return { terminal: true, reason }
      if (errorField(res.data, 'resource') === 'session_security_tier_below_org_policy') return { terminal: true, reason: 'session_security_tier_below_org_policy', status: 403 }
      source = rejectSource((name) => res.headers[name])
    }
    switch (classifyStatus(res.status)) {
      case 'oauth_rejected': return { terminal: false, reason: 'oauth_rejected' }
      case 'transient': return null
      default: return {
        terminal: true,
        reason: 'request_rejected',
        status: res.status,
        ...(errorField(res.data, 'reason') === 'session_not_bridge' && { sessionNotBridge: true }),
        ...(source && { source }),
      }
    }
  }
  const c = res.data
  if (c === null || typeof c !== 'object' || typeof c.worker_jwt !== 'string' || typeof c.expires_in !== 'number' || typeof c.api_base_url !== 'string' || !('worker_epoch' in c)) {
    debug('[code-session] /bridge response malformed (need worker_jwt, expires_in, api_base_url, worker_epoch)')
    return { terminal: true, reason: 'malformed_response', status: 200 }
  }
  const epoch = safeInteger(c.worker_epoch)
  if (epoch === undefined) {
    debug('[code-session] /bridge worker_epoch invalid')
    return { terminal: true, reason: 'malformed_response', status: 200 }
  }
  const mcp = c.mcp_config
  const mcpConfig = 'mcp_config' in c && mcp !== null && typeof mcp === 'object' && typeof mcp.content === 'string' && mcp.content.length > 0 ? { content: mcp.content } : undefined
  return { worker_jwt: c.worker_jwt, api_base_url: c.api_base_url, expires_in: c.expires_in, worker_epoch: epoch, mcp_config: mcpConfig }
}

module.exports = { fetchRemoteCredentials, isCredentialsFailure, isCredentialsRejection }
