// @ts-check
'use strict'
// The official Query's methods that its sdk.d.ts does not declare (0.3.332): each sends the
// control request the official sends, with the same fields, and resolves with the same part of
// the CLI's answer (for most, the answer's body as is). Apps written against the official
// runtime (its own UIs, the remote-control host, the auth flows) call them untyped.

/**
 * The query's port (lib/query.js QueryPort), given by addUndeclaredMethods(): these methods
 * reach the query through it only.
 * @type {(q: any) => import('./query').Port}
 */
let portOf
/** Per query: the latest enableRemoteControl() call's number (only its own answer decides). */
const remoteControlCalls = new WeakMap()

/** The CLI's answer body of `request`, through the query's control channel. */
function ask(q, request, signal) {
  return portOf(q).control(request, signal)
}

const methods = {
  async getSettings() { return ask(this, { subtype: 'get_settings' }) },
  async getHooksListing() { return ask(this, { subtype: 'get_hooks_listing' }) },
  async getTaskOutput(taskId) { return ask(this, { subtype: 'get_task_output', task_id: taskId }) },
  async listPermissionRules() { return ask(this, { subtype: 'list_permission_rules' }) },

  async setCwd(path, options) {
    return ask(this, {
      subtype: 'set_cwd',
      path,
      ...(options?.trustAccepted !== undefined && { trust_accepted: options.trustAccepted }),
      ...(options?.trustedDirectory !== undefined && { trusted_directory: options.trustedDirectory }),
    })
  },

  async setChromeBrowserHints(hints) { await ask(this, { subtype: 'set_chrome_browser_hints', ...hints }) },
  async setPromptSuggestionsPaused(paused) { await ask(this, { subtype: 'set_prompt_suggestions_paused', paused }) },
  async enableChannel(serverName) { await ask(this, { subtype: 'channel_enable', serverName }) },

  async mcpAuthenticate(serverName, redirectUri, options) {
    return ask(this, { subtype: 'mcp_authenticate', serverName, redirectUri, redirectUriOnly: options?.redirectUriOnly })
  },
  async mcpClearAuth(serverName) { return ask(this, { subtype: 'mcp_clear_auth', serverName }) },
  async mcpSubmitOAuthCallbackUrl(serverName, callbackUrl) {
    return ask(this, { subtype: 'mcp_oauth_callback_url', serverName, callbackUrl })
  },
  async claudeAuthenticate(loginWithClaudeAi, options) {
    return ask(this, { subtype: 'claude_authenticate', loginWithClaudeAi, consoleProfile: options?.consoleProfile })
  },
  async claudeOAuthCallback(authorizationCode, state) {
    return ask(this, { subtype: 'claude_oauth_callback', authorizationCode, state })
  },
  async claudeOAuthWaitForCompletion() { return ask(this, { subtype: 'claude_oauth_wait_for_completion' }) },

  async getMemoryDialog() { return ask(this, { subtype: 'get_memory_dialog' }) },
  async getSkillsDialog() { return ask(this, { subtype: 'get_skills_dialog' }) },
  async getStatus() { return ask(this, { subtype: 'get_status' }) },
  async exportConversation() { return ask(this, { subtype: 'export_conversation' }) },
  async getChromeDialog() { return ask(this, { subtype: 'get_chrome_dialog' }) },
  async getChromeBrowsers() { return ask(this, { subtype: 'get_chrome_browsers' }) },
  async selectChromeBrowser(deviceId) { return ask(this, { subtype: 'select_chrome_browser', device_id: deviceId }) },
  async getSandboxDialog(options) { return ask(this, { subtype: 'get_sandbox_dialog', ...options }) },
  async getPlan() { return ask(this, { subtype: 'get_plan' }) },

  // Requests the app composes whole (the official passes them through as given).
  async readCloudSessions(request, options) { return ask(this, request, options?.signal) },
  async logHostEvents(request, options) { return ask(this, request, options?.signal) },
  async dictate(request) { return ask(this, request) },

  async submitFeedback(description, options) {
    return ask(this, {
      subtype: 'submit_feedback', description, surface: options?.surface, draft_id: options?.draft_id, type: options?.type,
      title: options?.title, area: options?.area, attach_transcript: options?.attach_transcript, save_locally: options?.save_locally,
    })
  },
  async submitSurveyFeedback(feedback) { return ask(this, { subtype: 'submit_survey_feedback', ...feedback }) },

  async renameSession(title, sessionId) {
    await ask(this, { subtype: 'rename_session', title, source: 'host', session_id: sessionId })
  },
  async generateSessionTitle(description, options) {
    return (await ask(this, { subtype: 'generate_session_title', description, persist: options?.persist })).title
  },

  /**
   * A question beside the conversation: `null` when the CLI has no answer, else the answer with
   * `synthetic` (default false) and, after a refusal fallback, `refusalFallback` in camelCase.
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

  /** Whether the query has ended (closed, aborted, or its stream done). */
  isClosed() {
    return portOf(this).finished === true
  },

  /** The app's handlers of the CLI's `ui_*` requests (copy, promptRead, promptFill, ...). */
  setUiHost(host) {
    portOf(this).hostState.uiHost = host
  },

  async launchUltrareview(args, options) {
    return ask(this, { subtype: 'ultrareview_launch', args, confirm: options?.confirm ?? false })
  },

  async messageRated(rating) {
    await ask(this, { subtype: 'message_rated', messageUuid: rating.messageUuid, sentiment: rating.sentiment, surface: rating.surface, cleared: rating.cleared ?? false })
  },
}

/** The confirmations of an initialize answer that a claimed session's answer keeps. */
const APPLIED = ['hooks_applied', 'plugins_applied', 'managed_settings_applied', 'settings_applied', 'disallowed_tools_applied', 'mcp_servers_applied', 'code_running_mcp_tools_applied']

/**
 * Whether two session ids name the same session: equal, or equal in the part after their last
 * `_` when that is at least 4 characters (`session_abc1` and `cse_abc1`), as the official compares.
 */
function sameSession(a, b) {
  if (a === b) return true
  const tail = (s) => s.slice(s.lastIndexOf('_') + 1)
  return tail(a).length >= 4 && tail(a) === tail(b)
}

/**
 * The session id inside a work secret (base64url JSON whose `session_ingress_token` is a JWT,
 * perhaps prefixed `sk-ant-si-`, with `session_id` in its payload); undefined if there is none.
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
 * Adds the methods to Query's prototype; `port` gives a query's QueryPort.
 * @param {Function} Query
 * @param {(q: any) => import('./query').Port} port
 */
function addUndeclaredMethods(Query, port) {
  portOf = port
  for (const [name, fn] of Object.entries(methods)) {
    Object.defineProperty(Query.prototype, name, { value: fn, writable: true, configurable: true, enumerable: false })
  }
}

module.exports = { addUndeclaredMethods, sameSession }
