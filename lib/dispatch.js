// @ts-check
'use strict'
// The one function the native engine calls into JS with: dispatch(kind, requestId, payload).
// It returns at once; the calls of a burst (tools, permission prompts, hooks) come together as
// dispatch('calls', '', '[[kind, requestId, payload], ...]'), and each is answered later with
// session.reply(requestId, ok, text), which hands the answer to the session loop in Rust (it
// owns every call in flight and decides when one is cancelled). Every failure of user code
// becomes the answer the official SDK gives (an isError tool result; a failed reply the engine
// maps to a deny or an error response), so nothing thrown here can reach the process.
//
// User code runs in the async context query() was called in, as with the official SDK: the
// engine calls dispatch through a ThreadsafeFunction made inside query(), and Node runs every
// such call in the async context the ThreadsafeFunction was made in, so AsyncLocalStorage stores
// set around query() are visible in tool handlers, canUseTool and hooks
// (__test__/async-context.test.mjs).
const { loadNative } = require('./native')
const { errorText, safeString, field } = require('./thrown')

/**
 * The payloads of the engine's calls: the CLI's request bodies, parsed from JSON.
 * @typedef {{ server: string, message?: import('./mcp-link').JsonRpcMessage, forward?: unknown, [key: string]: unknown }} ToolPayload
 * @typedef {{
 *   tool_name: string, input: Record<string, unknown>, tool_use_id: string,
 *   permission_suggestions?: import('../types/permissions').PermissionUpdate[], blocked_path?: string,
 *   mcp_server?: { name: string, source: string }, decision_reason?: string, decision_reason_type?: unknown,
 *   decision_reason_code?: unknown, server_policy_ask_only?: unknown, title?: string, display_name?: string,
 *   description?: string, default_to_no?: boolean, suppress_always_allow_rule?: boolean, agent_id?: string,
 *   plugin?: unknown, requires_user_interaction?: unknown, server_prompt?: unknown,
 *   computer_folder?: { path?: unknown, computer_name?: unknown },
 *   matched_ask_rule?: { source: string, tool_name: string, rule_content?: string },
 * }} PermissionPayload
 * @typedef {{ callback_id: string, input: unknown, tool_use_id?: string }} HookPayload
 * @typedef {{
 *   mcp_server_name: string, message: string, mode?: 'form' | 'url', url?: string, elicitation_id?: string,
 *   requested_schema?: Record<string, unknown>, title?: string, display_name?: string, description?: string,
 * }} ElicitationPayload
 * @typedef {{ dialog_kind: string, payload: Record<string, unknown>, tool_use_id?: string }} UserDialogPayload
 * @typedef {{ key: import('../types/options').SessionKey, entries: import('../types/options').SessionStoreEntry[] }} StoreAppendPayload
 * @typedef {Parameters<import('../types/permissions').CanUseTool>[2] & {
 *   decisionReasonType?: string, decisionReasonCode?: string, serverPolicyAskOnly?: boolean, plugin?: string,
 *   requiresUserInteraction?: boolean, serverPrompt?: string, computerFolder?: { path: string, computer_name: string },
 * }} CanUseToolOptions the options canUseTool gets, as the official SDK builds them
 * @typedef {import('./types').EngineSession | import('../native/binding').NativeCodex} Attached what a dispatcher serves: a query's session or a Codex thread
 * @typedef {Attached | import('../native/binding').NativeReplier} AnswerTarget
 */

/**
 * A call in flight. Its AbortSignal is made only if the user code asks for it (most never do,
 * and an AbortController per call is a measurable share of a tool call's cost).
 */
class RunningCall {
  constructor() {
    /** @type {AbortController | undefined} */
    this.controller = undefined
    this.aborted = false
  }

  get signal() {
    if (!this.controller) {
      this.controller = new AbortController()
      if (this.aborted) this.controller.abort()
    }
    return this.controller.signal
  }

  abort() {
    this.aborted = true
    this.controller?.abort()
  }
}

/**
 * What a value is, for a message about it.
 * @param {unknown} v
 */
function describe(v) {
  if (typeof v === 'symbol') return `a Symbol (${safeString(v)})`
  if (typeof v === 'function') return 'a function'
  if (typeof v === 'bigint') return 'a BigInt'
  if (v === undefined) return 'undefined'
  if (typeof field(v, 'toJSON') === 'function') return 'an object whose toJSON() returned undefined'
  return typeof v
}

/**
 * The JSON text of a callback's answer. A value JSON cannot carry (a Symbol, a function, an
 * object whose toJSON() gives undefined, a BigInt, a cycle) becomes an error naming it, which
 * the engine answers as each kind's failure (a deny, an error response, an isError result).
 * @param {string} who the callback, for the message
 * @param {unknown} value
 * @returns {string}
 */
function toJson(who, value) {
  let text
  try {
    text = JSON.stringify(value)
  } catch (err) {
    throw new Error(`${who} returned a value JSON cannot represent: ${errorText(err)}`)
  }
  if (typeof text !== 'string') throw new Error(`${who} returned ${describe(value)}, which JSON cannot represent`)
  return text
}

/**
 * What a dispatcher serves: the in-process servers and hook callbacks by name, and the app's
 * callbacks (each optional: a query and a Codex thread each pass theirs; the engine routes a
 * request here only for a callback that was given, hence `any`).
 * @param {{
 *   sdkServers: Map<string, any>, hookCallbacks: Map<string, Function>, canUseTool?: any,
 *   onElicitation?: any, onUserDialog?: any, hostRequest?: any, stderr?: Function,
 *   hostProcess?: any, mcpLink?: any, sessionStore?: any, codexRequest?: any,
 * }} deps
 */
function makeDispatch({ sdkServers, hookCallbacks, canUseTool, onElicitation, onUserDialog, hostRequest, stderr, hostProcess, mcpLink, sessionStore, codexRequest }) {
  /** The abort signals of calls in flight, by the CLI's request id; the engine says which to fire. */
  /** @type {Map<string, RunningCall>} */
  const running = new Map()
  // Weak: the engine holds this dispatcher for the session's life, and a strong reference back
  // to the session would keep an abandoned Query (and its CLI) from ever being collected.
  /** @type {WeakRef<Attached> | undefined} */
  let sessionRef
  // With a session store: answers reach the engine even once the session is collected (its
  // last batch is sent after the query was left). It holds the engine's host, not the session.
  /** @type {import('../native/binding').NativeReplier | undefined} */
  let replier

  /** @param {string} requestId */
  function track(requestId) {
    const call = new RunningCall()
    running.set(requestId, call)
    return call
  }

  // Answers wait for the end of the microtask checkpoint they settle in, then go to the engine
  // together: the engine holds their lines and writes them to the CLI in one write(2) (at 64
  // calls in flight, a write per answer was a tenth of the JS thread's time). A lone answer
  // waits only for the microtasks queued before its own flush.
  /** @type {Array<string | boolean>} requestId, ok, text; requestId, ok, text; ... */
  let held = []

  /** @param {string} requestId @param {boolean} ok @param {string} text */
  function reply(requestId, ok, text) {
    if (held.push(requestId, ok, text) === 3) queueMicrotask(flush)
  }

  function flush() {
    const answers = held
    held = []
    const target = sessionRef?.deref() ?? replier
    if (!target) return
    // A lone answer is written by reply() itself: holding it would only add two calls.
    if (answers.length === 3) return send(target, /** @type {string} */ (answers[0]), /** @type {boolean} */ (answers[1]), /** @type {string} */ (answers[2]))
    const native = loadNative()
    native.holdAnswers()
    try {
      for (let i = 0; i < answers.length; i += 3) send(target, /** @type {string} */ (answers[i]), /** @type {boolean} */ (answers[i + 1]), /** @type {string} */ (answers[i + 2]))
    } finally {
      native.releaseAnswers()
    }
  }

  // Every outcome reaches the engine as a string: a reply that cannot be made is an error
  // answer, never an unhandled rejection.
  /** @param {AnswerTarget} target @param {string} requestId @param {boolean} ok @param {string} text */
  function send(target, requestId, ok, text) {
    try {
      target.reply(requestId, ok, text)
    } catch (err) {
      try {
        target.reply(requestId, false, `The SDK could not send the callback's answer: ${errorText(err)}`)
      } catch {}
    }
  }

  /** @param {string} requestId @param {Promise<unknown>} promise */
  function settle(requestId, promise) {
    promise.then(
      (text) => (typeof text === 'string' ? reply(requestId, true, text) : reply(requestId, false, `The callback returned ${describe(text)}, which JSON cannot represent`)),
      (err) => reply(requestId, false, errorText(err)),
    )
  }

  // Each call is tracked before its first await, so a cancel right behind it finds it.
  // The MCP requests themselves run in ./mcp-calls (shared with instance.connect(transport)).
  /** @param {string} requestId @param {ToolPayload} payload @returns {Promise<string>} */
  async function callTool(requestId, payload) {
    const controller = track(requestId)
    try {
      const server = sdkServers.get(payload.server)
      // A response or notification the engine passed on (answered already), for the link.
      if (payload.message !== undefined) return mcpLink?.message(payload), '{}'
      // Any message for a foreign server object: its own answer, once it gives it.
      if (payload.forward !== undefined) return await server.forward(payload.forward, controller)
      return await require('./mcp-calls').runMcpCall(server, payload, controller, mcpLink?.channel(payload.server))
    } finally {
      running.delete(requestId)
    }
  }

  /** @param {string} requestId @param {PermissionPayload} payload @param {unknown} shownId */
  async function permission(requestId, payload, shownId) {
    const controller = track(requestId)
    const r = payload
    try {
      // The CanUseTool options object, field for field (and key for key) as the official SDK
      // builds it. Assigned one by one, not spread: fifteen conditional spreads were the larger
      // part of a prompt's JS work (≈ 4 µs against ≈ 2 µs, measured in isolation).
      /** @param {unknown} v @returns {v is string} */
      const str = (v) => typeof v === 'string'
      // toolUseID and requestId are set below, in the official's key order.
      const opts = /** @type {CanUseToolOptions} */ ({ get signal() { return controller.signal }, suggestions: r.permission_suggestions, blockedPath: r.blocked_path })
      if (r.mcp_server) opts.mcpServer = { name: r.mcp_server.name, source: r.mcp_server.source }
      opts.decisionReason = r.decision_reason
      if (str(r.decision_reason_type)) opts.decisionReasonType = r.decision_reason_type
      if (str(r.decision_reason_code)) opts.decisionReasonCode = r.decision_reason_code
      if (typeof r.server_policy_ask_only === 'boolean') opts.serverPolicyAskOnly = r.server_policy_ask_only
      opts.title = r.title
      opts.displayName = r.display_name
      opts.description = r.description
      opts.defaultToNo = r.default_to_no
      opts.suppressAlwaysAllowRule = r.suppress_always_allow_rule
      opts.toolUseID = r.tool_use_id
      opts.agentID = r.agent_id
      if (str(r.plugin)) opts.plugin = r.plugin
      opts.requestId = /** @type {string} */ (shownId)
      if (typeof r.requires_user_interaction === 'boolean') opts.requiresUserInteraction = r.requires_user_interaction
      if (str(r.server_prompt)) opts.serverPrompt = r.server_prompt
      const folder = r.computer_folder
      if (folder && str(folder.path) && str(folder.computer_name)) {
        opts.computerFolder = { path: folder.path, computer_name: folder.computer_name }
      }
      if (r.matched_ask_rule) {
        opts.matchedAskRule = {
          source: r.matched_ask_rule.source,
          toolName: r.matched_ask_rule.tool_name,
          ...(r.matched_ask_rule.rule_content !== undefined && { ruleContent: r.matched_ask_rule.rule_content }),
        }
      }
      const result = await canUseTool(r.tool_name, r.input, opts)
      return toJson('canUseTool', result ?? null)
    } finally {
      running.delete(requestId)
    }
  }

  /** @param {string} requestId @param {HookPayload} payload */
  async function hook(requestId, payload) {
    const controller = track(requestId)
    const r = payload
    const fn = hookCallbacks.get(r.callback_id)
    if (!fn) throw new Error(`No hook callback found for ID: ${r.callback_id}`)
    try {
      const out = await fn(r.input, r.tool_use_id, { get signal() { return controller.signal } })
      return toJson('The hook callback', out ?? {})
    } finally {
      running.delete(requestId)
    }
  }

  // `elicitation` and `request_user_dialog`: the request object the official SDK hands the
  // callback, and its answer as is (null: none).
  /** @param {string} requestId @param {ElicitationPayload} r @param {unknown} shownId */
  async function elicitation(requestId, r, shownId) {
    const controller = track(requestId)
    try {
      const result = await onElicitation({
        serverName: r.mcp_server_name, message: r.message, mode: r.mode, url: r.url, elicitationId: r.elicitation_id,
        requestedSchema: r.requested_schema, title: r.title, displayName: r.display_name, description: r.description,
      }, { get signal() { return controller.signal }, requestId: /** @type {string} */ (shownId) })
      return toJson('onElicitation', result ?? null)
    } finally {
      running.delete(requestId)
    }
  }

  /** @param {string} requestId @param {UserDialogPayload} r @param {unknown} shownId */
  async function userDialog(requestId, r, shownId) {
    const controller = track(requestId)
    try {
      const result = await onUserDialog({ dialogKind: r.dialog_kind, payload: r.payload, toolUseID: r.tool_use_id }, { get signal() { return controller.signal }, requestId: /** @type {string} */ (shownId) })
      return toJson('onUserDialog', result ?? null)
    } finally {
      running.delete(requestId)
    }
  }

  // The requests optional host handlers answer (lib/host-requests.js): their answer is an
  // envelope, `{response}` or `{error, error_code}`.
  /** @param {string} requestId @param {import('./host-requests').HostRequest} r */
  async function hostRequestCall(requestId, r) {
    const controller = track(requestId)
    try {
      return toJson(`The ${r.subtype} handler`, await hostRequest(r, { get signal() { return controller.signal } }))
    } finally {
      running.delete(requestId)
    }
  }

  // The session store's append (the engine batches, retries and reports; see
  // crates/agent-core/src/session/mirror.rs). Its result is not used.
  /** @param {string} requestId @param {StoreAppendPayload} payload */
  async function storeAppend(requestId, { key, entries }) {
    await sessionStore.append(key, entries)
    return 'null'
  }

  // A Codex app-server request for the user (an approval, a question, an elicitation): the
  // Codex thread's callback gets `{method, params}` and its answer goes back as JSON (the
  // engine turns allow/deny and failures into Codex's answers; see crates/agent-core/src/codex).
  /** @param {string} requestId @param {unknown} body */
  async function codexCall(requestId, body) {
    const controller = track(requestId)
    try {
      const result = await codexRequest(body, { get signal() { return controller.signal } })
      return toJson('The Codex callback', result ?? null)
    } finally {
      running.delete(requestId)
    }
  }

  /**
   * The user code each kind of call runs (the engine's `CallKind` names), with its payload as
   * parsed from the engine's JSON, and the id as the CLI wrote it (user code shown the id gets
   * that value: a number stays a number, as in the official SDK).
   * @type {Record<string, ((requestId: string, payload: any, shownId: unknown) => Promise<string>) | undefined>}
   */
  const callbacks = { tool: callTool, can_use_tool: permission, hook_callback: hook, elicitation, request_user_dialog: userDialog, store_append: storeAppend, host_request: hostRequestCall }
  if (codexRequest) callbacks.codex_request = codexCall

  /**
   * @param {string} kind
   * @param {string} requestId
   * @param {string} payload
   */
  function dispatch(kind, requestId, payload) {
    try {
      switch (kind) {
        // A burst of calls: [kind, requestId, payload] entries, payloads parsed together; an id
        // the CLI did not write as a plain string comes as written in a fourth element.
        case 'calls': {
          for (const entry of JSON.parse(payload)) {
            const [k, id, body] = entry
            const run = callbacks[k]
            settle(id, run ? run(id, body, entry.length > 3 ? entry[3] : id) : Promise.reject(new Error(`Unknown callback kind: ${k}`)))
          }
          return
        }
        case 'cancel': return running.get(requestId)?.abort()
        // '' : a chunk queued before the stream ended, withheld since (src/js_host.rs).
        case 'stderr': return payload === '' ? undefined : stderr?.(payload)
        // I/O of a process the app started itself (spawnClaudeCodeProcess).
        case 'stdin': return hostProcess.proc?.stdin.write(payload)
        case 'stdin_end': return hostProcess.proc?.stdin.end()
        case 'kill': return hostProcess.proc?.kill(payload)
      }
    } catch (err) {
      // A throwing stderr callback or a broken host process must not take the process down.
      process.emitWarning(`claude-agent-sdk-native: ${kind} handler threw: ${errorText(err)}`)
    }
  }

  /** Fires the signal of everything still running (the session ended). */
  function abortAll() {
    for (const c of running.values()) c.abort()
    running.clear()
  }

  return {
    dispatch,
    abortAll,
    /** @param {Attached} s */
    attach: (s) => {
      sessionRef = new WeakRef(s)
      // A session store is a query's option: `s` is then its session (a Codex thread has none).
      if (sessionStore) replier = /** @type {import('./types').EngineSession} */ (s).replier()
    },
  }
}

module.exports = { makeDispatch }
