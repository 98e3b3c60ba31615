// @ts-check
'use strict'
// The CLI's requests that optional host handlers answer, as the official SDK 0.3.332 answers
// each (the engine routes them here as `host_request` calls; see
// crates/agent-core/src/session/router.rs): `oauth_token_refresh` (the `getOAuthToken` option),
// `host_auth_token_refresh` (`getHostAuthToken`), `remote_control_work_secret`
// (`enableRemoteControl()`'s `refreshWorkSecret`) and the `ui_*` requests (`setUiHost()`).
// Each resolves with an envelope: `{ response }` (a `response` of undefined is a success without
// a body), or `{ error, error_code }`; what a handler throws becomes an error response with its
// message.

/** The reasons `onDecline` takes (others are ignored, as the official ignores them). */
const DECLINE_REASONS = ['signed_out', 'identity_changed', 'transient', 'refresh_failed']

/** `ui_*` subtypes, and the uiHost method that answers each (same order). */
const UI_SUBTYPES = ['ui_copy', 'ui_prompt_read', 'ui_prompt_fill', 'ui_prompt_paint', 'ui_prompt_suggest', 'ui_read_selection']
const UI_METHODS = ['copy', 'promptRead', 'promptFill', 'promptPaint', 'promptSuggest', 'readSelection']

/**
 * A host request as the engine routes it: the CLI's control request body.
 * @typedef {{ subtype: string } & Record<string, any>} HostRequest
 */
/**
 * What the app set on the query: setUiHost()'s host, enableRemoteControl()'s work-secret answerer.
 * @typedef {{
 *   uiHost?: Record<string, ((fields: Record<string, unknown>, context: { signal: AbortSignal }) => unknown) | undefined>,
 *   workSecretAnswerer?: { sessionId: string, refresh: (sessionId: string, context: { signal: AbortSignal }) => unknown },
 * }} HostState
 */
/**
 * The handler of host requests for one query: `options` are its options, `state` the query's
 * `{ uiHost, workSecretAnswerer }`, set as the app calls setUiHost() and enableRemoteControl().
 * @param {import('./types').QueryOptions} options
 * @param {HostState} state
 */
function makeHostRequests(options, state) {
  const { getOAuthToken, getHostAuthToken } = options
  /**
   * @param {HostRequest} request
   * @param {{ signal: AbortSignal }} context
   * @returns {Promise<{ response?: unknown } | { error: string, error_code: string }>}
   */
  return async function hostRequest(request, { signal }) {
    const r = request
    if (request.subtype === 'oauth_token_refresh') {
      if (!getOAuthToken) throw new Error('getOAuthToken callback is not provided.')
      /** @type {string | undefined} */
      let reason
      const token = (await getOAuthToken({
        signal,
        onDecline: (why) => { if (DECLINE_REASONS.includes(why)) reason = why },
        ...(r.kind !== undefined && { kind: r.kind }),
        ...((r.token_state === 'refused' || r.token_state === 'not_refused') && { tokenState: r.token_state }),
        ...(r.token_state === 'refused' && (r.refused_call === 'model' || r.refused_call === 'connector' || r.refused_call === 'other') && { refusedCall: r.refused_call }),
        ...(Array.isArray(r.refused_bearer_sha256) && { refusedBearerSha256: r.refused_bearer_sha256 }),
      })) ?? null
      return { response: token === null && reason !== undefined ? { accessToken: token, reason } : { accessToken: token } }
    }
    if (request.subtype === 'host_auth_token_refresh') {
      if (!getHostAuthToken) throw new Error('getHostAuthToken callback is not provided.')
      const token = (await getHostAuthToken({ signal, status: r.status, ...(r.token_state === 'not_refused' && { tokenState: r.token_state }) })) ?? null
      return { response: typeof token === 'string' || token === null ? { authToken: token } : token }
    }
    if (request.subtype === 'remote_control_work_secret') {
      const answerer = state.workSecretAnswerer
      if (!answerer) throw new Error('refreshWorkSecret callback is not provided.')
      if (!require('./query-extra').sameSession(answerer.sessionId, r.session_id)) throw new Error('remote_control_work_secret names a session this host did not attach.')
      return { response: { work_secret: (await answerer.refresh(answerer.sessionId, { signal })) || null } }
    }
    const ui = state.uiHost
    const method = UI_METHODS[UI_SUBTYPES.indexOf(request.subtype)]
    if (UI_SUBTYPES.includes(request.subtype) && ui?.[method]) {
      const { subtype, ...fields } = request
      return { response: await ui[method](fields, { signal }) }
    }
    return { error: `Unsupported control request subtype: ${request.subtype}`, error_code: 'unsupported_request' }
  }
}

module.exports = { makeHostRequests }
