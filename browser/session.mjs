// @ts-check
// The Query of the browser entry: the official SDK's control protocol over a transport (WebSocket
// or SSE) instead of a child process. It sends `initialize` (hooks as callback ids, the names of
// the in-process MCP servers), answers the remote session's control requests (can_use_tool,
// hook_callback, mcp_message, elicitation, request_user_dialog, control_cancel_request), sends
// its own (interrupt, set_model, mcp_status, …) and yields every other message.
import { MessageQueue } from './queue.mjs'
import { AbortError, closedError, toError, errorMessage } from './errors.mjs'
import { McpRouter } from './mcp-routing.mjs'

const UNMATCHED_MAX = 1024
/** Requests for the machine that serves the session's remote tools: left unanswered here. */
const REMOTE_TOOL_SUBTYPES = ['remote_tool_call', 'remote_plumbing_call', 'remote_tools_probe', 'remote_tools_reannounce']
/** Requests that wait behind a held prompt (a hook set to block must be confirmed first). */
const BEHIND_PROMPT_HOLD = new Set(['interrupt', 'cancel_async_message'])
const PERMISSION_MODES = new Set(['default', 'acceptEdits', 'bypassPermissions', 'plan', 'dontAsk', 'auto'])
const ERROR_CODE = /^[a-z][a-z0-9_]{0,63}$/
/** A handler's answer that means "stay silent" (another client or a deadline settles it). */
const SILENT = Symbol('suppressControlResponse')
const RUN_END_CEILING_MS = 600000

class UnsupportedRequestError extends Error {
  constructor(message) {
    super(message)
    this.name = 'TelemetrySafeError'
    this.errorCode = 'unsupported_request'
  }
}

function line(value) {
  return JSON.stringify(value) + '\n'
}

function withCode(err, telemetryMessage, errorClass, code) {
  err.telemetryMessage = telemetryMessage
  if (errorClass !== undefined) err.errorClass = errorClass
  if (typeof code === 'string' && ERROR_CODE.test(code)) err.errorCode = code
  return err
}

export class Query {
  #transport
  #canUseTool
  #hooks
  #abortController
  #jsonSchema
  #initConfig
  #onElicitation
  #onUserDialog
  #pending = new Map()
  #unmatched = new Map()
  #answered = new Set()
  #closed = false
  #cleanupCause
  #cleanupPromise
  #cleanupCallbacks = []
  #messages = new MessageQueue()
  #sdkMessages
  #cancelControllers = new Map()
  #hookCallbacks = new Map()
  #nextCallbackId = 0
  #initHooksPayload
  #initializeWritten
  #initializeHasBeenWritten = false
  #markInitializeWritten
  #writingFirstInitialize = false
  #promptHold
  #runEnded = false
  #runEndedResolve
  #resultReceived = false
  #runEndCeiling
  #sessionState
  #lastErrorResultText
  #errorTextBeforeModelLessTurns
  #modelLessTurnEnded = false
  #latestCommands
  #mcp

  constructor({ transport, canUseTool, hooks, abortController, mcpServers, jsonSchema, initConfig, onElicitation, onUserDialog }) {
    this.#transport = transport
    this.#canUseTool = canUseTool
    this.#hooks = hooks
    this.#abortController = abortController
    this.#jsonSchema = jsonSchema
    this.#initConfig = initConfig
    this.#onElicitation = onElicitation
    this.#onUserDialog = onUserDialog
    this.#mcp = new McpRouter((frame) => this.#afterInitialize(() => this.#transport.write(line(frame))))
    for (const [name, config] of mcpServers) this.#mcp.connect(name, config)
    this.#sdkMessages = this.#readSdkMessages()
    // Never rejects: what ends the stream (an error included) ends the queue in its catch.
    void this.#readMessages()
    this.#initializeWritten = new Promise(/** @param {(value?: unknown) => void} resolve */ (resolve) => {
      this.#markInitializeWritten = () => {
        this.#initializeHasBeenWritten = true
        resolve()
      }
    })
    this.initialization = this.#initialize(true)
    this.initialization.catch(() => {})
    if (this.#hasHookSetToBlock()) {
      this.#promptHold = this.initialization.then(() => true, (err) => {
        this.#cleanup(err)
        return false
      })
      this.#writeBehindPromptHold(this.#promptHold, () => {})
    }
  }

  // --- the async iterator ---------------------------------------------------------------------

  next(...args) {
    return this.#sdkMessages.next(...args)
  }

  async return(value) {
    await this.#cleanup()
    return this.#sdkMessages.return(value)
  }

  async throw(err) {
    await this.#cleanup()
    return this.#sdkMessages.throw(err)
  }

  [Symbol.asyncIterator]() {
    return this.#sdkMessages
  }

  async [Symbol.asyncDispose]() {
    await this.#cleanup()
  }

  close() {
    this.#cleanup()
  }

  async *#readSdkMessages() {
    try {
      for await (const message of this.#messages) {
        this.#transport.markDelivered?.(message)
        yield message
      }
    } finally {
      await this.#cleanup()
    }
  }

  // --- reading the session's frames ---------------------------------------------------------

  async #readMessages() {
    try {
      for await (const m of this.#transport.readMessages()) {
        if (m.type === 'control_response') {
          const id = m.response.request_id
          const waiter = this.#pending.get(id)
          if (waiter) waiter.handler(m.response)
          else if (!this.#answered.delete(id)) {
            if (this.#unmatched.size >= UNMATCHED_MAX) this.#unmatched.delete(this.#unmatched.keys().next().value)
            this.#unmatched.set(id, m.response)
          }
          continue
        }
        if (m.type === 'control_request') {
          // Never rejects: a callback's failure is answered as an error reply, and a failed
          // write of the answer is ignored (the session is gone).
          void this.#handleControlRequest(m)
          continue
        }
        if (m.type === 'control_cancel_request') {
          const controller = this.#cancelControllers.get(m.request_id)
          if (controller) {
            controller.abort()
            this.#cancelControllers.delete(m.request_id)
          }
          continue
        }
        if (m.type === 'keep_alive' || m.type === 'transcript_mirror') continue
        if (m.type === 'system' && m.subtype === 'commands_changed' && Array.isArray(m.commands)) this.#latestCommands = m.commands
        if (m.type === 'system' && (m.subtype === 'post_turn_summary' || m.subtype === 'task_summary' || m.subtype === 'session_metadata')) {
          this.#messages.enqueue(m)
          continue
        }
        if (m.type === 'active_goal' || m.type === 'autocompact_state') {
          this.#messages.enqueue(m)
          continue
        }
        if (m.type === 'result') this.#onResult(m)
        else if (m.type === 'system' && m.subtype === 'session_state_changed') {
          this.#sessionState = m.state
          if (m.state === 'idle') {
            if (this.#resultReceived) this.#endRun()
          } else {
            this.#runEnded = false
            if (m.state === 'requires_action') this.#clearRunEndCeiling()
            else if (this.#resultReceived) this.#armRunEndCeiling()
          }
          if ('sdk_host_only' in m && m.sdk_host_only === true) continue
        } else if (!(m.type === 'system' && (m.subtype === 'session_writes_lost' || m.subtype === 'plugin_install'))) {
          this.#lastErrorResultText = undefined
          if (m.type === 'system' && m.subtype === 'init') this.#modelLessTurnEnded = false
          else if (m.type !== 'system' || m.subtype === 'compact_boundary') {
            this.#errorTextBeforeModelLessTurns = undefined
            this.#modelLessTurnEnded = false
          }
          if ((m.type === 'assistant' || m.type === 'stream_event') && m.parent_tool_use_id === null) {
            this.#runEnded = false
            this.#clearRunEndCeiling()
          }
        }
        this.#messages.enqueue(m)
      }
      this.#messages.done()
      this.#cleanup()
    } catch (err) {
      const text = this.#lastErrorResultText ?? (this.#modelLessTurnEnded ? this.#errorTextBeforeModelLessTurns : undefined)
      if (text !== undefined && !(err instanceof AbortError) && err?.name !== 'SSEHttpError') {
        const replaced = withCode(new Error(`Claude Code returned an error result: ${text}`), 'Claude Code returned an error result', 'error_result')
        this.#messages.error(replaced)
        this.#cleanup(replaced)
        return
      }
      this.#messages.error(err)
      this.#cleanup(err)
    }
  }

  #onResult(m) {
    const text = m.is_error ? (m.subtype === 'success' ? m.result : (m.errors ?? []).map((e) => String(e).trim()).filter(Boolean).join('; ')) : undefined
    this.#lastErrorResultText = text || undefined
    this.#modelLessTurnEnded = m.subtype === 'success' && !m.is_error && m.num_turns === 0 && m.result === ''
    if (!this.#modelLessTurnEnded) this.#errorTextBeforeModelLessTurns = this.#lastErrorResultText
    this.#resultReceived = true
    if (this.#sessionState === undefined || this.#sessionState === 'idle' || !this.#hasBidirectionalNeeds()) this.#endRun()
    else this.#armRunEndCeiling()
  }

  // --- the session's requests to us ---------------------------------------------------------

  async #handleControlRequest(req) {
    if (this.#closed || this.#cancelControllers.has(req.request_id)) return
    const controller = new AbortController()
    this.#cancelControllers.set(req.request_id, controller)
    try {
      let answer
      try {
        const response = await this.#processControlRequest(req, controller.signal)
        if (this.#closed || response === SILENT) return
        answer = line({ type: 'control_response', response: { subtype: 'success', request_id: req.request_id, response } })
      } catch (err) {
        if (this.#closed) return
        answer = line({
          type: 'control_response',
          response: { subtype: 'error', request_id: req.request_id, error: errorMessage(err), ...(err instanceof UnsupportedRequestError && { error_code: err.errorCode }) },
        })
      }
      this.#answered.add(req.request_id)
      if (this.#answered.size > UNMATCHED_MAX) this.#answered.delete(this.#answered.values().next().value)
      try {
        await this.#transport.write(answer)
      } catch {}
    } finally {
      if (this.#cancelControllers.get(req.request_id) === controller) this.#cancelControllers.delete(req.request_id)
    }
  }

  async #processControlRequest(req, signal) {
    const r = req.request
    if (REMOTE_TOOL_SUBTYPES.includes(r.subtype)) return SILENT
    switch (r.subtype) {
      case 'can_use_tool': {
        if (!this.#canUseTool) throw new Error('canUseTool callback is not provided.')
        const folder = r.computer_folder
        const result = await this.#canUseTool(r.tool_name, r.input, {
          signal,
          suggestions: r.permission_suggestions,
          blockedPath: r.blocked_path,
          ...(r.mcp_server && { mcpServer: { name: r.mcp_server.name, source: r.mcp_server.source } }),
          decisionReason: r.decision_reason,
          ...(typeof r.decision_reason_type === 'string' && { decisionReasonType: r.decision_reason_type }),
          ...(typeof r.decision_reason_code === 'string' && { decisionReasonCode: r.decision_reason_code }),
          ...(typeof r.server_policy_ask_only === 'boolean' && { serverPolicyAskOnly: r.server_policy_ask_only }),
          title: r.title,
          displayName: r.display_name,
          description: r.description,
          defaultToNo: r.default_to_no,
          suppressAlwaysAllowRule: r.suppress_always_allow_rule,
          toolUseID: r.tool_use_id,
          agentID: r.agent_id,
          ...(typeof r.plugin === 'string' && { plugin: r.plugin }),
          requestId: req.request_id,
          ...(typeof r.requires_user_interaction === 'boolean' && { requiresUserInteraction: r.requires_user_interaction }),
          ...(typeof r.server_prompt === 'string' && { serverPrompt: r.server_prompt }),
          ...(typeof folder === 'object' && folder !== null && typeof folder.path === 'string' && typeof folder.computer_name === 'string' && {
            computerFolder: { path: folder.path, computer_name: folder.computer_name },
          }),
          ...(r.matched_ask_rule && {
            matchedAskRule: {
              source: r.matched_ask_rule.source,
              toolName: r.matched_ask_rule.tool_name,
              ...(r.matched_ask_rule.rule_content !== undefined && { ruleContent: r.matched_ask_rule.rule_content }),
            },
          }),
        })
        if (result === null) return SILENT
        return { ...result, toolUseID: r.tool_use_id }
      }
      case 'hook_callback': {
        if (!this.#initializeHasBeenWritten) {
          await this.#initializeWritten
          if (this.#closed || signal.aborted) return SILENT
        }
        const callback = this.#hookCallbacks.get(r.callback_id)
        if (!callback) throw new Error(`No hook callback found for ID: ${r.callback_id}`)
        return await callback(r.input, r.tool_use_id, { signal })
      }
      case 'mcp_message':
        return this.#mcp.handle(r.server_name, r.message)
      case 'elicitation': {
        if (!this.#onElicitation) return { action: 'decline' }
        const result = await this.#onElicitation({
          serverName: r.mcp_server_name,
          message: r.message,
          mode: r.mode,
          url: r.url,
          elicitationId: r.elicitation_id,
          requestedSchema: r.requested_schema,
          title: r.title,
          displayName: r.display_name,
          description: r.description,
        }, { signal, requestId: req.request_id })
        return result === null ? SILENT : result
      }
      case 'request_user_dialog': {
        // Without a handler: stay silent, so a capable client (or the worker's deadline) settles it.
        if (!this.#onUserDialog) return SILENT
        const result = await this.#onUserDialog({ dialogKind: r.dialog_kind, payload: r.payload, toolUseID: r.tool_use_id }, { signal, requestId: req.request_id })
        return result === null ? SILENT : result
      }
      case 'oauth_token_refresh':
        throw new Error('getOAuthToken callback is not provided.')
      case 'host_auth_token_refresh':
        throw new Error('getHostAuthToken callback is not provided.')
      case 'remote_control_work_secret':
        throw new Error('refreshWorkSecret callback is not provided.')
    }
    throw new UnsupportedRequestError('Unsupported control request subtype: ' + r.subtype)
  }

  // --- our requests to the session ------------------------------------------------------------

  #hasHookSetToBlock() {
    return Object.values(this.#hooks ?? {}).some((ms) => Array.isArray(ms) && ms.some((m) => m?.onFailure != null && m.onFailure !== 'continue'))
  }

  #hasBidirectionalNeeds() {
    return this.#mcp.size > 0 || (this.#hooks !== undefined && Object.keys(this.#hooks).length > 0) ||
      this.#canUseTool !== undefined || this.#onElicitation !== undefined || this.#onUserDialog !== undefined
  }

  #writeBehindPromptHold(hold, write) {
    const written = hold.then(async (ok) => {
      if (!ok || this.#abortController?.signal.aborted) return false
      await write()
      return true
    })
    const next = written.catch(() => true).then((ok) => {
      if (ok && this.#promptHold === next) this.#promptHold = undefined
      return ok
    })
    this.#promptHold = next
    return written
  }

  #afterInitialize(fn) {
    if (this.#initializeHasBeenWritten) return Promise.resolve(fn())
    return this.#initializeWritten.then(fn)
  }

  async #initialize(first) {
    let sent
    try {
      const request = this.#buildInitializeRequest()
      if (this.#closed) throw this.#cleanupCause ?? new Error('Query closed before initialize was sent')
      this.#writingFirstInitialize = first
      try {
        sent = this.request(request)
      } finally {
        this.#writingFirstInitialize = false
      }
    } finally {
      if (first) this.#markInitializeWritten()
    }
    const response = (await sent).response
    if (this.#hasHookSetToBlock()) {
      const err = response.hook_on_failure_supported !== true
        ? new Error('The process answering initialize does not honor onFailure on hook matchers, so a hook that fails would not block. Update Claude Code if it is old, or remove onFailure: "block" from your hooks.')
        : first && response.hooks_applied === false
          ? new Error('This session was already running and did not register your hooks, so a hook set to onFailure: "block" would never run. Start a new session, or remove onFailure: "block" from your hooks.')
          : undefined
      if (err) {
        this.#cleanup(err)
        throw err
      }
    }
    return response
  }

  #buildInitializeRequest() {
    if (this.#hooks && !this.#initHooksPayload) {
      this.#initHooksPayload = {}
      for (const [event, matchers] of Object.entries(this.#hooks)) {
        if (!(matchers?.length > 0)) continue
        this.#initHooksPayload[event] = matchers.map((m) => {
          const ids = []
          for (const callback of m.hooks) {
            const id = `hook_${this.#nextCallbackId++}`
            this.#hookCallbacks.set(id, callback)
            ids.push(id)
          }
          return {
            matcher: m.matcher,
            hookCallbackIds: ids,
            timeout: m.timeout,
            onFailure: m.onFailure,
            contextOnly: m.contextOnly,
            replacedByFrame: m.replacedByFrame,
            whenUnanswered: m.whenUnanswered,
          }
        })
      }
    }
    return {
      subtype: 'initialize',
      hooks: this.#initHooksPayload,
      sdkMcpServers: this.#mcp.size > 0 ? this.#mcp.names() : undefined,
      sdkMcpServerConfigs: this.#mcp.configs(),
      sdkMcpServerManifests: undefined,
      jsonSchema: this.#jsonSchema,
      promptSuggestions: this.#initConfig?.promptSuggestions,
      supportedDialogKinds: this.#initConfig?.supportedDialogKinds,
    }
  }

  /** Sends a control request; resolves with the session's success answer, rejects with its error. */
  request(body, options) {
    const signal = options?.signal
    if (signal?.aborted) return Promise.reject(toError(signal.reason ?? 'Control request aborted'))
    if (this.#closed) return Promise.reject(closedError())
    const id = Math.random().toString(36).substring(2, 15)
    this.#transport.expectControlResponse?.(id)
    const frame = { request_id: id, type: 'control_request', request: body }
    return new Promise((resolve, reject) => {
      let detach
      let written = false
      const settle = (fn, value) => {
        this.#pending.delete(id)
        detach?.()
        fn(value)
      }
      if (signal) {
        const onAbort = () => {
          settle(reject, toError(signal.reason ?? 'Control request aborted'))
          if (!written) return
          Promise.resolve().then(() => this.#transport.write(line({ type: 'control_cancel_request', request_id: id }))).catch(() => {})
        }
        signal.addEventListener('abort', onAbort, { once: true })
        detach = () => signal.removeEventListener('abort', onAbort)
      }
      this.#pending.set(id, {
        handler: (response) => {
          if (response.subtype === 'success') settle(resolve, response)
          else settle(reject, withCode(new Error(response.error), `Claude Code control request failed (${body.subtype})`, 'control_request_failed', response.error_code))
          if (body.subtype === 'initialize') {
            if (response.pending_permission_requests) {
              for (const p of response.pending_permission_requests) {
                if (p.request.subtype === 'can_use_tool') this.#handleControlRequest({ ...p, request: { ...p.request, server_policy_ask_only: undefined } }).catch(() => {})
              }
            }
            if (response.pending_user_dialog_requests) {
              for (const p of response.pending_user_dialog_requests) if (p.request.subtype === 'request_user_dialog') this.#handleControlRequest(p).catch(() => {})
            }
          }
        },
        reject: (err) => settle(reject, err),
      })
      const write = () => {
        if (signal?.aborted) return
        written = true
        return this.#transport.write(line(frame))
      }
      try {
        const hold = this.#promptHold
        const p = hold !== undefined && BEHIND_PROMPT_HOLD.has(body.subtype)
          ? this.#writeBehindPromptHold(hold, write)
          : this.#initializeHasBeenWritten || this.#writingFirstInitialize ? Promise.resolve(write()) : this.#initializeWritten.then(write)
        p.catch((err) => settle(reject, err))
      } catch (err) {
        settle(reject, err)
      }
    })
  }

  // --- the prompt stream ----------------------------------------------------------------------

  async streamInput(stream) {
    try {
      if (!this.#initializeHasBeenWritten) await this.#initializeWritten
      let count = 0
      const held = []
      for await (const message of stream) {
        count++
        if (this.#abortController?.signal.aborted || (this.#promptHold !== undefined && this.#closed)) break
        const frame = line(message)
        if (this.#promptHold === undefined) await this.#writeStreamMessage(frame)
        else held.push(this.#writeBehindPromptHold(this.#promptHold, () => this.#writeStreamMessage(frame)))
      }
      if (this.#promptHold !== undefined) held.push(this.#promptHold)
      if ((await Promise.all(held)).includes(false)) return
      if (count > 0 && this.#hasBidirectionalNeeds()) await this.#waitForRunEnd()
      this.#transport.endInput()
    } catch (err) {
      if (!(err instanceof AbortError)) throw err
    }
  }

  #writeStreamMessage(frame) {
    this.#runEnded = false
    this.#resultReceived = false
    this.#clearRunEndCeiling()
    return this.#transport.write(frame)
  }

  #endRun() {
    if (this.#runEnded) return
    this.#runEnded = true
    this.#clearRunEndCeiling()
    this.#runEndedResolve?.()
  }

  #armRunEndCeiling() {
    this.#clearRunEndCeiling()
    if (this.#runEnded || this.#closed) return
    this.#runEndCeiling = setTimeout(() => this.#endRun(), RUN_END_CEILING_MS)
  }

  #clearRunEndCeiling() {
    clearTimeout(this.#runEndCeiling)
    this.#runEndCeiling = undefined
  }

  #waitForRunEnd() {
    if (this.#runEnded) return Promise.resolve()
    return new Promise(/** @param {(value?: unknown) => void} resolve */ (resolve) => {
      const signal = this.#abortController?.signal
      if (this.#closed || signal?.aborted) return resolve()
      const done = () => {
        signal?.removeEventListener('abort', done)
        resolve()
      }
      signal?.addEventListener('abort', done, { once: true })
      this.#addCleanupCallback(done)
      this.#runEndedResolve = done
    })
  }

  #addCleanupCallback(fn) {
    if (this.#closed) fn()
    else this.#cleanupCallbacks.push(fn)
  }

  // --- closing --------------------------------------------------------------------------------

  #cleanup(cause) {
    this.#clearRunEndCeiling()
    if (this.#cleanupPromise) return this.#cleanupPromise
    this.#closed = true
    this.#cleanupCause = cause
    this.#cleanupPromise = this.#performCleanup(cause)
    return this.#cleanupPromise
  }

  async #performCleanup(cause) {
    for (const fn of this.#cleanupCallbacks.splice(0)) {
      try {
        fn()
      } catch {}
    }
    try {
      for (const c of this.#cancelControllers.values()) c.abort()
      this.#cancelControllers.clear()
      this.#transport.close()
    } catch {}
    try {
      const err = cause ?? closedError()
      for (const { reject } of this.#pending.values()) reject(err)
      this.#pending.clear()
      this.#unmatched.clear()
      this.#answered.clear()
      this.#hookCallbacks.clear()
      this.#mcp.closeAll(err)
      if (cause) this.#messages.error(cause)
      else this.#messages.done()
    } catch {}
  }

  // --- the Query methods ------------------------------------------------------------------------

  async interrupt(options) {
    const r = await this.request({ subtype: 'interrupt', ...(options?.cancelQueued === true && { cancel_queued: true }) })
    const queued = r.response?.still_queued
    if (!Array.isArray(queued)) return undefined
    const cancelled = r.response?.cancelled
    return { still_queued: queued.filter((s) => typeof s === 'string'), ...(Array.isArray(cancelled) && { cancelled: cancelled.filter((s) => typeof s === 'string') }) }
  }

  async setPermissionMode(mode, options) {
    const answered = (await this.request({ subtype: 'set_permission_mode', mode, answers_bypass_switch_back: options?.answersBypassSwitchBack })).response?.mode
    const inEffect = answered === 'manual' ? 'default' : answered
    return typeof inEffect === 'string' && PERMISSION_MODES.has(inEffect) ? { mode: inEffect } : undefined
  }

  async setModel(model) {
    await this.request({ subtype: 'set_model', model })
  }

  async setMaxThinkingTokens(maxThinkingTokens, display) {
    await this.request({ subtype: 'set_max_thinking_tokens', max_thinking_tokens: maxThinkingTokens, thinking_display: display })
  }

  async applyFlagSettings(settings) {
    await this.request({ subtype: 'apply_flag_settings', settings })
  }

  async stopTask(taskId) {
    await this.request({ subtype: 'stop_task', task_id: taskId })
  }

  async backgroundTasks(toolUseId) {
    return (await this.request({ subtype: 'background_tasks', tool_use_id: toolUseId })).response.backgrounded ?? true
  }

  initializationResult() {
    return this.initialization
  }

  async supportedCommands() {
    const { commands } = await this.initialization
    return this.#latestCommands ?? commands
  }

  async supportedModels() {
    return (await this.initialization).models
  }

  async supportedAgents() {
    return (await this.initialization).agents
  }

  async accountInfo() {
    return (await this.initialization).account
  }

  async mcpServerStatus() {
    return (await this.request({ subtype: 'mcp_status' })).response.mcpServers
  }

  async reconnectMcpServer(serverName) {
    await this.request({ subtype: 'mcp_reconnect', serverName })
  }

  async toggleMcpServer(serverName, enabled) {
    await this.request({ subtype: 'mcp_toggle', serverName, enabled })
  }

  async readMcpResource(serverName, uri) {
    return (await this.request({ subtype: 'mcp_read_resource', serverName, uri })).response
  }

  async setMcpServers(servers) {
    const sdk = {}
    const others = {}
    for (const [name, config] of Object.entries(servers)) {
      if (config.type === 'sdk' && 'instance' in config) sdk[name] = config
      else others[name] = config
    }
    for (const name of this.#mcp.names()) if (!(name in sdk)) await this.#mcp.disconnect(name)
    for (const [name, config] of Object.entries(sdk)) if (!this.#mcp.has(name)) this.#mcp.connect(name, config)
    const sdkConfigs = {}
    for (const name of Object.keys(sdk)) sdkConfigs[name] = { type: 'sdk', name, ...this.#mcp.settingsOf(name) }
    return (await this.request({ subtype: 'mcp_set_servers', servers: { ...others, ...sdkConfigs } })).response
  }

  async getContextUsage(options) {
    return (await this.request({ subtype: 'get_context_usage', ...options })).response
  }

  async getSettings() {
    return (await this.request({ subtype: 'get_settings' })).response
  }

  async rewindFiles(userMessageId, options) {
    return (await this.request({ subtype: 'rewind_files', user_message_id: userMessageId, dry_run: options?.dryRun })).response
  }

  async cancelAsyncMessage(messageUuid) {
    return (await this.request({ subtype: 'cancel_async_message', message_uuid: messageUuid })).response.cancelled
  }

  async setPromptSuggestionsPaused(paused) {
    await this.request({ subtype: 'set_prompt_suggestions_paused', paused })
  }

  async notePromptDraftActivity() {
    await this.request({ subtype: 'prompt_draft_activity' })
  }

  async renameSession(title, sessionId) {
    await this.request({ subtype: 'rename_session', title, source: 'host', session_id: sessionId })
  }

  async getTaskOutput(taskId) {
    return (await this.request({ subtype: 'get_task_output', task_id: taskId })).response
  }

  async reloadPlugins(options) {
    return (await this.request({
      subtype: 'reload_plugins',
      ...(options?.holdOnCacheImpact && { hold_on_cache_impact: true }),
      ...(options?.addPlugins && options.addPlugins.length > 0 && { add_plugins: options.addPlugins }),
      ...(options?.refuseIfBusy && { refuse_if_busy: true }),
    })).response
  }

  async reinitialize() {
    if (!this.#initializeHasBeenWritten) await this.#initializeWritten
    return this.#initialize(false)
  }

  async setMcpPermissionModeOverride(serverName, mode) {
    return (await this.request({ subtype: 'set_mcp_permission_mode_override', serverName, mode })).response ?? {}
  }

  async updateSettings(source, settings) {
    await this.request({ subtype: 'update_settings', source, settings })
  }

  async seedReadState(path, mtime) {
    await this.request({ subtype: 'seed_read_state', path, mtime })
  }

  /** The file's content as the session reads it, or null when it can't (as the official). */
  async readFile(path, options) {
    try {
      return (await this.request({ subtype: 'read_file', path, max_bytes: options?.maxBytes, encoding: options?.encoding })).response
    } catch {
      return null
    }
  }

  async usage_EXPERIMENTAL_MAY_CHANGE_DO_NOT_RELY_ON_THIS_API_YET(options) {
    return (await this.request({ subtype: 'get_usage', ...(options?.skipBehaviors && { skip_behaviors: true }) })).response
  }

  async reloadOutputStyles() {
    return (await this.request({ subtype: 'reload_output_styles' })).response
  }

  async reloadSkills() {
    return (await this.request({ subtype: 'reload_skills' })).response
  }

  async getStatus() {
    return (await this.request({ subtype: 'get_status' })).response
  }

  async askSideQuestion(question, options) {
    const r = (await this.request({ subtype: 'side_question', question, ...(options?.history?.length && { history: [...options.history] }) }, options)).response
    if (r.response === null) return null
    return {
      response: r.response,
      synthetic: r.synthetic ?? false,
      ...(r.refusal_fallback && {
        refusalFallback: { originalModel: r.refusal_fallback.original_model, fallbackModel: r.refusal_fallback.fallback_model, content: r.refusal_fallback.content },
      }),
    }
  }
}
