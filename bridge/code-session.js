// @ts-check
'use strict'
// POST /v1/code/sessions — create a Claude Code (CCR) session with the caller's OAuth token, as
// the official `./bridge`'s createCodeSession does: the `cse_*` id, a terminal
// CreateSessionFailure, the non-terminal `oauth_rejected` CredentialsRejection, or null for a
// transient failure (network error, timeout, 408/429/5xx).
const { oauthHeaders } = require('./headers.js')
const { requestJson } = require('./http.js')
const { isCodeSessionId } = require('./ids.js')
const { serviceDetail } = require('./service-text.js')
const { gitContextBody } = require('./git-context.js')
const { classifyStatus } = require('./status-class.js')
const { requireString, requireHttpUrl, requireTimeout, requireFunction } = require('./arguments.js')
const { debug } = require('./debug.js')

function isCreateSessionFailure(r) {
  return r !== null && typeof r === 'object' && 'terminal' in r && r.terminal === true
}

// The service refused the session grouping (the caller may retry without it).
function isGroupingRejection(body) {
  if (body === null || typeof body !== 'object' || body.error === null || typeof body.error !== 'object') return false
  const { type, resource_type: resourceType, reason } = body.error
  return (type === 'not_found_error' && resourceType === 'session_grouping') || reason === 'public_grouping_hosted_only' || reason === 'feature_disabled'
}

function checkArguments(args) {
  const [baseUrl, accessToken, title, timeoutMs, tags, gitContext, cwd, model, sessionGroupingId, dropLogDedup, onOAuthRejected] = args
  const fn = 'createCodeSession'
  requireHttpUrl(fn, 'baseUrl', baseUrl)
  requireString(fn, 'accessToken', accessToken)
  requireString(fn, 'title', title)
  requireTimeout(fn, 'timeoutMs', timeoutMs)
  if (tags !== undefined && (!Array.isArray(tags) || !tags.every((t) => typeof t === 'string'))) throw new TypeError(`${fn}: tags must be an array of strings or undefined`)
  if (gitContext !== undefined && (gitContext === null || typeof gitContext !== 'object')) throw new TypeError(`${fn}: gitContext must be an object ({ gitRepoUrl, branch, defaultBranch? }) or undefined`)
  if (gitContext && 'gitRepoUrl' in gitContext) {
    requireString(fn, 'gitContext.gitRepoUrl', gitContext.gitRepoUrl)
    requireString(fn, 'gitContext.branch', gitContext.branch)
    requireString(fn, 'gitContext.defaultBranch', gitContext.defaultBranch, { optional: true })
  }
  requireString(fn, 'cwd', cwd, { optional: true })
  requireString(fn, 'model', model, { optional: true })
  requireString(fn, 'sessionGroupingId', sessionGroupingId, { optional: true })
  if (dropLogDedup !== undefined && (dropLogDedup === null || typeof dropLogDedup !== 'object')) throw new TypeError(`${fn}: dropLogDedup must be an object ({ lastKey }) or undefined`)
  requireFunction(fn, 'onOAuthRejected', onOAuthRejected)
}

async function createCodeSession(...args) {
  checkArguments(args)
  const [baseUrl, accessToken, title, timeoutMs, tags, gitContext, cwd, model, sessionGroupingId, dropLogDedup, onOAuthRejected] = args
  const config = { cwd: cwd ?? process.cwd(), ...(model && { model }) }
  if (gitContext && 'gitRepoUrl' in gitContext) {
    const { sources, outcomes, report } = gitContextBody(gitContext.gitRepoUrl, gitContext.branch, gitContext.defaultBranch)
    if (report.branchDropped && report.warnMessage) {
      const key = `${report.branchDropped}:${gitContext.gitRepoUrl}:${gitContext.branch}`
      if (!dropLogDedup || dropLogDedup.lastKey !== key) {
        if (dropLogDedup) dropLogDedup.lastKey = key
        debug(`[code-session] ${report.warnMessage}`)
      }
    } else if (dropLogDedup) {
      dropLogDedup.lastKey = null
    }
    if (sources.length > 0 || outcomes.length > 0) Object.assign(config, { sources, outcomes, reuse_outcome_branches: true })
  }
  const body = { title, bridge: {}, ...(tags?.length && { tags }), ...(sessionGroupingId && { session_grouping_id: sessionGroupingId }), config }
  let res
  try {
    res = await requestJson('POST', `${baseUrl}/v1/code/sessions`, { headers: oauthHeaders(accessToken), body, timeoutMs })
  } catch (err) {
    debug(`[code-session] Session create request failed: ${err.message}`)
    return null
  }
  if (res.status !== 200 && res.status !== 201) {
    debug(`[code-session] Session create failed ${res.status}`)
    const detail = serviceDetail(res.data)
    if (res.status === 401) onOAuthRejected?.()
    if (res.status >= 400 && res.status < 500 && isGroupingRejection(res.data)) return { terminal: true, reason: 'grouping_rejected', status: res.status, detail }
    switch (classifyStatus(res.status)) {
      case 'oauth_rejected': return { terminal: false, reason: 'oauth_rejected' }
      case 'transient': return null
      default: return { terminal: true, reason: 'request_rejected', status: res.status, detail }
    }
  }
  const id = res.data?.session?.id
  if (res.data === null || typeof res.data !== 'object' || res.data.session === null || typeof res.data.session !== 'object' || typeof id !== 'string' || !isCodeSessionId(id)) {
    debug('[code-session] No usable session.id (cse_*) in response')
    return { terminal: true, reason: 'malformed_response', status: res.status, detail: undefined }
  }
  return id
}

module.exports = { createCodeSession, isCreateSessionFailure }
