// @ts-check
'use strict'
// The official Query's methods that its sdk.d.ts does not declare (0.3.332): each sends the
// control request the official sends, with the same fields, and resolves with the same part of
// the CLI's answer (for most, the answer's body as is). Apps written against the official
// runtime (its own UIs, the remote-control host, the auth flows) call them untyped.

/**
 * The query's port (lib/query.js QueryPort), given by usePort(): these methods
 * reach the query through it only.
 * @type {(q: Query) => import('./query').Port}
 */
let portOf = /** @type {(q: Query) => import('./query').Port} */ (/** @type {unknown} */ (undefined))
/** Per query: the latest enableRemoteControl() call's number (only its own answer decides). */
/** @type {WeakMap<Query, number>} */
const remoteControlCalls = new WeakMap()

/**
 * @typedef {InstanceType<typeof import('./query').Query>} Query
 * @typedef {import('./types').ControlRequest} ControlRequest
 */

/**
 * The CLI's answer body of `request`, through the query's control channel.
 * @param {Query} q
 * @param {ControlRequest} request
 * @param {AbortSignal} [signal]
 * @returns {Promise<any>} the answer's JSON, as parsed
 */
function ask(q, request, signal) {
  return portOf(q).control(request, signal)
}

const methods = {
  /** @this {Query} */
  async getSettings() { return ask(this, { subtype: 'get_settings' }) },
  /** @this {Query} */
  async getHooksListing() { return ask(this, { subtype: 'get_hooks_listing' }) },
  /**
   * @this {Query}
   * @param {string} taskId
   */
  async getTaskOutput(taskId) { return ask(this, { subtype: 'get_task_output', task_id: taskId }) },
  /** @this {Query} */
  async listPermissionRules() { return ask(this, { subtype: 'list_permission_rules' }) },

  /**
   * @this {Query}
   * @param {string} path
   * @param {{ trustAccepted?: boolean, trustedDirectory?: string }} [options]
   */
  async setCwd(path, options) {
    return ask(this, {
      subtype: 'set_cwd',
      path,
      ...(options?.trustAccepted !== undefined && { trust_accepted: options.trustAccepted }),
      ...(options?.trustedDirectory !== undefined && { trusted_directory: options.trustedDirectory }),
    })
  },

  /**
   * @this {Query}
   * @param {Record<string, unknown>} hints
   */
  async setChromeBrowserHints(hints) { await ask(this, { subtype: 'set_chrome_browser_hints', ...hints }) },
  /**
   * @this {Query}
   * @param {boolean} paused
   */
  async setPromptSuggestionsPaused(paused) { await ask(this, { subtype: 'set_prompt_suggestions_paused', paused }) },
  /**
   * @this {Query}
   * @param {string} serverName
   */
  async enableChannel(serverName) { await ask(this, { subtype: 'channel_enable', serverName }) },

  /**
   * @this {Query}
   * @param {string} serverName
   * @param {string} [redirectUri]
   * @param {{ redirectUriOnly?: boolean }} [options]
   */
  async mcpAuthenticate(serverName, redirectUri, options) {
    return ask(this, { subtype: 'mcp_authenticate', serverName, redirectUri, redirectUriOnly: options?.redirectUriOnly })
  },
  /**
   * @this {Query}
   * @param {string} serverName
   */
  async mcpClearAuth(serverName) { return ask(this, { subtype: 'mcp_clear_auth', serverName }) },
  /**
   * @this {Query}
   * @param {string} serverName
   * @param {string} callbackUrl
   */
  async mcpSubmitOAuthCallbackUrl(serverName, callbackUrl) {
    return ask(this, { subtype: 'mcp_oauth_callback_url', serverName, callbackUrl })
  },
  /**
   * @this {Query}
   * @param {boolean} loginWithClaudeAi
   * @param {{ consoleProfile?: string }} [options]
   */
  async claudeAuthenticate(loginWithClaudeAi, options) {
    return ask(this, { subtype: 'claude_authenticate', loginWithClaudeAi, consoleProfile: options?.consoleProfile })
  },
  /**
   * @this {Query}
   * @param {string} authorizationCode
   * @param {string} state
   */
  async claudeOAuthCallback(authorizationCode, state) {
    return ask(this, { subtype: 'claude_oauth_callback', authorizationCode, state })
  },
  /** @this {Query} */
  async claudeOAuthWaitForCompletion() { return ask(this, { subtype: 'claude_oauth_wait_for_completion' }) },

  /** @this {Query} */
  async getMemoryDialog() { return ask(this, { subtype: 'get_memory_dialog' }) },
  /** @this {Query} */
  async getSkillsDialog() { return ask(this, { subtype: 'get_skills_dialog' }) },
  /** @this {Query} */
  async getStatus() { return ask(this, { subtype: 'get_status' }) },
  /** @this {Query} */
  async exportConversation() { return ask(this, { subtype: 'export_conversation' }) },
  /** @this {Query} */
  async getChromeDialog() { return ask(this, { subtype: 'get_chrome_dialog' }) },
  /** @this {Query} */
  async getChromeBrowsers() { return ask(this, { subtype: 'get_chrome_browsers' }) },
  /**
   * @this {Query}
   * @param {string} deviceId
   */
  async selectChromeBrowser(deviceId) { return ask(this, { subtype: 'select_chrome_browser', device_id: deviceId }) },
  /**
   * @this {Query}
   * @param {Record<string, unknown>} [options]
   */
  async getSandboxDialog(options) { return ask(this, { subtype: 'get_sandbox_dialog', ...options }) },
  /** @this {Query} */
  async getPlan() { return ask(this, { subtype: 'get_plan' }) },

  // Requests the app composes whole (the official passes them through as given).
  /**
   * @this {Query}
   * @param {ControlRequest} request
   * @param {{ signal?: AbortSignal }} [options]
   */
  async readCloudSessions(request, options) { return ask(this, request, options?.signal) },
  /**
   * @this {Query}
   * @param {ControlRequest} request
   * @param {{ signal?: AbortSignal }} [options]
   */
  async logHostEvents(request, options) { return ask(this, request, options?.signal) },
  /**
   * @this {Query}
   * @param {ControlRequest} request
   */
  async dictate(request) { return ask(this, request) },

  /**
   * @this {Query}
   * @param {string} description
   * @param {{ surface?: string, draft_id?: string, type?: string, title?: string, area?: string, attach_transcript?: boolean, save_locally?: boolean }} [options]
   */
  async submitFeedback(description, options) {
    return ask(this, {
      subtype: 'submit_feedback', description, surface: options?.surface, draft_id: options?.draft_id, type: options?.type,
      title: options?.title, area: options?.area, attach_transcript: options?.attach_transcript, save_locally: options?.save_locally,
    })
  },
  /**
   * @this {Query}
   * @param {Record<string, unknown>} feedback
   */
  async submitSurveyFeedback(feedback) { return ask(this, { subtype: 'submit_survey_feedback', ...feedback }) },

  /**
   * @this {Query}
   * @param {string} title
   * @param {string} [sessionId]
   */
  async renameSession(title, sessionId) {
    await ask(this, { subtype: 'rename_session', title, source: 'host', session_id: sessionId })
  },
  /**
   * @this {Query}
   * @param {string} description
   * @param {{ persist?: boolean }} [options]
   */
  async generateSessionTitle(description, options) {
    return (await ask(this, { subtype: 'generate_session_title', description, persist: options?.persist })).title
  },

  /**
   * A question beside the conversation: `null` when the CLI has no answer, else the answer with
   * `synthetic` (default false) and, after a refusal fallback, `refusalFallback` in camelCase.
   * @this {Query}
   * @param {string} question
   * @param {{ history?: unknown[], signal?: AbortSignal }} [options]
   */
  async askSideQuestion(question, options) {
    const r = await ask(this, { subtype: 'side_question', question, ...(options?.history?.length && { history: [...options.history] }) }, options?.signal)
    if (r.response === null) return null
    return {
      response: r.response,
      synthetic: r.synthetic ?? false,
      ...(r.refusal_fallback && {
        refusalFallback: { originalModel: r.refusal_fallback.original_model, fallbackModel: r.refusal_fallback.fallback_model, content: r.refusal_fallback.content },
      }),
    }
  },

  /**
   * Turns remote control on or off (`remote_control`). With `workSecret` and `refreshWorkSecret`,
   * the CLI's later `remote_control_work_secret` requests for the attached session are answered
   * with `refreshWorkSecret(sessionId, {signal})` (see lib/host-requests.js); a later call
   * replaces that, and only its own answer decides (an older call finishing late does not).
   * @this {Query}
   * @param {boolean} enabled
   * @param {string} [name]
   * @param {{ reattachSessionId?: string, keepSessionOnExit?: boolean, workSecret?: string, refreshWorkSecret?: (sessionId: string, context: { signal: AbortSignal }) => unknown }} [options]
   */
  async enableRemoteControl(enabled, name, options) {
    const generation = (remoteControlCalls.get(this) ?? 0) + 1
    remoteControlCalls.set(this, generation)
    const hostState = portOf(this).hostState
    const previous = hostState.workSecretAnswerer
    const sessionId = options?.reattachSessionId || (options?.workSecret === undefined ? undefined : sessionOfWorkSecret(options.workSecret))
    const mine = enabled && options?.workSecret !== undefined && options.refreshWorkSecret && sessionId !== undefined
      ? { sessionId, refresh: options.refreshWorkSecret }
      : undefined
    hostState.workSecretAnswerer = mine
    let response
    try {
      response = await ask(this, {
        subtype: 'remote_control', enabled, ...(name !== undefined && { name }),
        reattach_session_id: options?.reattachSessionId, keep_session_on_exit: options?.keepSessionOnExit, work_secret: options?.workSecret,
      })
    } catch (e) {
      if (generation === remoteControlCalls.get(this)) hostState.workSecretAnswerer = undefined
      throw e
    }
    if (enabled && generation === remoteControlCalls.get(this)) {
      const attached = response.bridge_session_id
      hostState.workSecretAnswerer = typeof attached === 'string' ? [mine, previous].find((a) => a !== undefined && sameSession(a.sessionId, attached)) : undefined
    }
    return response
  },

  /**
   * Claims a parked session (`claim_session`, `include_initialize` true unless given). When the
   * answer carries the claimed session's `initialize` answer, initializationResult() gives that
   * from now on, with the `*_applied` confirmations of the first answer where it has none.
   * @this {Query}
   * @param {Record<string, unknown> & { include_initialize?: boolean }} request
   */
  async claimSession(request) {
    const claimed = ask(this, { subtype: 'claim_session', ...request, include_initialize: request.include_initialize ?? true })
    const before = this.initializationResult()
    const merged = claimed.then(async (r) => {
      if (r?.initialize === undefined) return before
      const prior = await Promise.resolve(before).then((init) => init ?? {}, () => ({}))
      const out = { ...r.initialize }
      for (const key of APPLIED) {
        const value = r.initialize[key] ?? prior[key]
        if (value !== undefined) out[key] = value
      }
      return out
    }, () => before)
    merged.catch(() => {})
    portOf(this).overrideInit(merged)
    return claimed
  },

  /**
   * Whether the query has ended (closed, aborted, or its stream done).
   * @this {Query}
   */
  isClosed() {
    return portOf(this).finished === true
  },

  /**
   * The app's handlers of the CLI's `ui_*` requests (copy, promptRead, promptFill, ...).
   * @this {Query}
   * @param {import('./host-requests').HostState['uiHost']} host
   */
  setUiHost(host) {
    portOf(this).hostState.uiHost = host
  },

  /**
   * @this {Query}
   * @param {unknown} args
   * @param {{ confirm?: boolean }} [options]
   */
  async launchUltrareview(args, options) {
    return ask(this, { subtype: 'ultrareview_launch', args, confirm: options?.confirm ?? false })
  },

  /**
   * @this {Query}
   * @param {{ messageUuid: string, sentiment: string, surface?: string, cleared?: boolean }} rating
   */
  async messageRated(rating) {
    await ask(this, { subtype: 'message_rated', messageUuid: rating.messageUuid, sentiment: rating.sentiment, surface: rating.surface, cleared: rating.cleared ?? false })
  },
}

/** The confirmations of an initialize answer that a claimed session's answer keeps. */
const APPLIED = ['hooks_applied', 'plugins_applied', 'managed_settings_applied', 'settings_applied', 'disallowed_tools_applied', 'mcp_servers_applied', 'code_running_mcp_tools_applied']

/**
 * Whether two session ids name the same session: equal, or equal in the part after their last
 * `_` when that is at least 4 characters (`session_abc1` and `cse_abc1`), as the official compares.
 * @param {string} a
 * @param {string} b
 */
function sameSession(a, b) {
  if (a === b) return true
  /** @param {string} s */
  const tail = (s) => s.slice(s.lastIndexOf('_') + 1)
  return tail(a).length >= 4 && tail(a) === tail(b)
}

/**
 * The session id inside a work secret (base64url JSON whose `session_ingress_token` is a JWT,
 * perhaps prefixed `sk-ant-si-`, with `session_id` in its payload); undefined if there is none.
 * @param {string} secret
 * @returns {string | undefined}
 */
function sessionOfWorkSecret(secret) {
  try {
    const outer = JSON.parse(Buffer.from(secret, 'base64url').toString('utf8'))
    if (typeof outer !== 'object' || outer === null || typeof outer.session_ingress_token !== 'string') return undefined
    const token = outer.session_ingress_token
    const parts = (token.startsWith('sk-ant-si-') ? token.slice(10) : token).split('.')
    if (parts.length !== 3 || !parts[1]) return undefined
    const payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'))
    return typeof payload === 'object' && payload !== null && typeof payload.session_id === 'string' && payload.session_id ? payload.session_id : undefined
  } catch {
    return undefined
  }
}

/**
 * Sets how the methods reach a query: `port` gives its QueryPort. lib/query.js calls it as it
 * loads this module, on the first call of any of the methods (their stubs on Query's prototype).
 * @param {(q: Query) => import('./query').Port} port
 */
function usePort(port) {
  portOf = port
}

module.exports = { methods, usePort, sameSession }
