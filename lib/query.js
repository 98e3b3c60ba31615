// @ts-check
'use strict'
// query(): the Query async generator over the native session. Messages cross from Rust in
// batches, each the text of one JSON array, parsed here with one JSON.parse.
const path = require('path')
const { loadNative } = require('./native')
const { splitOptions, splitServers } = require('./options')
const { AsyncResource } = require('async_hooks')
const { makeDispatch } = require('./dispatch')
const { AbortError, fromEngine } = require('./errors')
const { isError, safeString } = require('./thrown')
const { McpLink } = require('./mcp-link')
const { pendingPreload } = require('./schema/zod-loader')
const { lazyModule, lazyFunction } = require('./lazy')
const { holdsPrompt, afterLaunchFieldsApplied, checkDeliveries } = require('./mcp-delivery')

// As the official SDK sets it when loaded: on Windows, executables are not looked up in the current
// directory (the CLI and what it starts inherit this, as the official's children do).
process.env.NoDefaultCurrentDirectoryInExePath = '1'

/** The modes `setPermissionMode()` reports (the official's PermissionMode). */
const PERMISSION_MODES = ['default', 'acceptEdits', 'bypassPermissions', 'plan', 'dontAsk', 'auto']

function searchRoots() {
  // The CLI's npm package is our dependency: look beside our own install first, then the app's.
  return [path.join(__dirname, '..'), process.cwd()]
}

/**
 * @typedef {import('./types').EngineMessage} EngineMessage
 * @typedef {import('./types').EngineSession} EngineSession
 * @typedef {import('./types').QueryOptions} QueryOptions
 * @typedef {import('./types').Prompt} Prompt
 * @typedef {import('./types').ControlRequest} ControlRequest
 * @typedef {{ proc: import('./types').SpawnedProcess | undefined }} HostProcess the app's own CLI process, once spawned
 */

class Query {
  /**
   * @param {Prompt | symbol | undefined} prompt a prompt, or WARM (startup(), prewarm(): it comes later)
   * @param {QueryOptions} options
   */
  constructor(prompt, options) {
    /** @type {Array<EngineMessage | undefined>} read and not yet taken (taken ones are cleared) */
    this._buffer = []
    this._pos = 0
    this._finished = false
    /** @type {unknown} what the iterator throws once the buffer is drained */
    this._error = null
    this._tail = Promise.resolve()
    this._waiting = 0
    // The engine's session, set by _start(); what may run before it checks for null.
    /** @type {import('./types').EngineSession} */
    this._session = /** @type {import('./types').EngineSession} */ (/** @type {unknown} */ (null))
    this._abortSignal = options.abortController ? options.abortController.signal : undefined
    /** @type {Promise<unknown> | null} settles when the query may start (zod loaded, the store read) */
    this._ready = null
    // What the CLI's host requests are answered with, set later by setUiHost() and
    // enableRemoteControl() (see lib/host-requests.js).
    /** @type {import('./host-requests').HostState} */
    this._hostState = { uiHost: undefined, workSecretAnswerer: undefined }
    /** @type {() => void} */
    this._resolveEnded = () => {}
    /** @type {boolean | undefined} */
    this._aborted = undefined
    /** @type {boolean | undefined} */
    this._released = undefined
    /** @type {unknown} the error that ended the session (_fail), over its exit */
    this._fatal = undefined
    /** @type {boolean | undefined} every user message goes with client_composed (verbatimPrompts) */
    this._verbatim = undefined
    /** @type {Map<string, any> | undefined} the in-process servers by name (SdkMcpServer or ForeignServer), set by _start */
    this._sdkServers = undefined
    /** @type {HostProcess | undefined} */
    this._hostProcess = undefined
    /** @type {InstanceType<typeof McpLink> | undefined} */
    this._mcpLink = undefined
    /** @type {(() => void) | undefined} */
    this._abortAll = undefined
    /** @type {AbortController | undefined} the signal given to the app's spawner */
    this._processAbort = undefined
    /** @type {unknown[] | undefined} the CLI's latest commands_changed push */
    this._latestCommands = undefined
    /** @type {string | undefined} the text of an error result that ended the stream */
    this._lastErrorResult = undefined
    // Settles when the stream has ended (prewarm()'s `exited`).
    /** @type {Promise<void>} */
    this._ended = new Promise((resolve) => { this._resolveEnded = resolve })
    // Set through the QueryPort (below) by the modules that work with a query from outside.
    /** @type {((frame: any) => void) | undefined} Sees each system frame as it is read. */
    this._frameObserver = undefined
    /** @type {Promise<any> | undefined} Replaces initializationResult()'s answer. */
    this._initOverride = undefined
    /** @type {(() => void) | undefined} Runs when the query lets go of what it holds. */
    this._storeCleanup = undefined
    this._onAbort = () => {
      if (this._finished) return
      if (this._session) {
        // As the official SDK: the messages the CLI wrote before the abort took effect (the
        // interrupted tool result of a call in flight) are still delivered, then the engine
        // ends the stream with the AbortError (within a moment: it does not wait for the CLI).
        // The abort wins over however the session ends meanwhile (an end already on its way
        // to this thread too).
        this._aborted = true
        this._close(true)
        this._release()
        return
      }
      // Not started yet: nothing to deliver.
      this._error = new AbortError('Claude Code process aborted by user')
      this._cleanup()
    }
    // Tool schemas may still be loading their zod (see preloadZod4): start when they are.
    const loading = pendingPreload()
    // A session store: transcript frames are mirrored to it, a resume is loaded from it first.
    if (options.sessionStore) this._ready = require('./session-store').startWithStore(new QueryPort(this), prompt, options, loading)
    else if (loading) this._ready = loading.then(() => this._begin(prompt, options))
    else this._begin(prompt, options)
  }

  /**
   * @param {Prompt | symbol | undefined} prompt
   * @param {QueryOptions} options
   */
  _begin(prompt, options) {
    if (this._finished) return // closed before it could start
    try {
      this._start(prompt, options)
    } catch (e) {
      // Surfaces on the first next(), as the official SDK's spawn errors do.
      this._error = fromEngine(e)
      this._finished = true
    }
  }

  /**
   * @param {Prompt | symbol | undefined} prompt
   * @param {QueryOptions} options
   */
  _start(prompt, options) {
    if (prompt !== WARM) checkPrompt(prompt)
    const { data, sdkServers, hookCallbacks } = splitOptions(options)
    // verbatimPrompts: every user message goes with `client_composed: true`.
    this._verbatim = options.verbatimPrompts === true
    // The dispatcher reads this map; setMcpServers() updates it in place.
    this._sdkServers = sdkServers
    // The app's own process, when it starts the CLI itself (spawnClaudeCodeProcess).
    const hostProcess = { proc: undefined }
    this._hostProcess = hostProcess
    // How the in-process servers reach the CLI on their own (list_changed, elicitation, progress).
    const mcpLink = (this._mcpLink = new McpLink(sdkServers))
    const { dispatch, abortAll, attach } = makeDispatch({
      mcpLink,
      hostProcess,
      sdkServers,
      hookCallbacks,
      canUseTool: options.canUseTool,
      onElicitation: options.onElicitation,
      onUserDialog: options.onUserDialog,
      hostRequest: lazyHostRequests(options, this._hostState),
      stderr: typeof options.stderr === 'function' ? options.stderr : undefined,
      sessionStore: options.sessionStore,
    })
    this._abortAll = abortAll
    if (this._abortSignal && this._abortSignal.aborted) {
      throw new AbortError('Claude Code process aborted by user')
    }
    // The app's own spawn (hostSpawn) runs as a process the app starts, as spawnClaudeCodeProcess.
    const spawner = typeof options.spawnClaudeCodeProcess === 'function' ? options.spawnClaudeCodeProcess
      : typeof options.hostSpawn === 'function' ? require('./host-spawn').hostSpawner(options) : undefined
    // Process servers sent in `initialize`: as the official, the prompt waits for the CLI's answer
    // (see lib/mcp-delivery.js).
    const holdPrompt = holdsPrompt(options, data)
    const { startSession } = loadNative()
    const spawnStart = performance.now()
    this._session = startSession({
      options: JSON.stringify(data),
      servers: [...sdkServers].map(([name, s]) => ({ name, id: s.native().id })),
      prompt: typeof prompt === 'string' && !this._verbatim && !holdPrompt ? prompt : undefined,
      forwardStderr: typeof options.stderr === 'function',
      searchFrom: searchRoots(),
      // Script CLIs run with `node` (from PATH) as the official SDK names it; under Bun, the running
      // bun (the official names `bun`, which a local install does not put on PATH).
      runtime: process.versions.bun ? process.execPath : 'node',
      hostProcess: typeof spawner === 'function',
      // Bound to query()'s async context: on Node 24 (AsyncLocalStorage on AsyncContextFrame) a
      // ThreadsafeFunction's calls no longer run in the context it was made in. One scope per
      // batch of calls (≈ 0.3 µs), not per call. (Not AsyncResource.bind: its deprecated
      // `asyncResource` accessors cost every query six more closures and contexts.)
    }, inAsyncScope(new AsyncResource('dispatch'), dispatch))
    attach(this._session)
    mcpLink.attach(this._session)
    if (typeof spawner !== 'function' && (options.onProcessSpawned || options.onProcessExit)) require('./process-events').watchProcess(this._session, options, performance.now() - spawnStart)
    if (typeof spawner === 'function') this._startHostProcess(spawner, hostProcess)
    if (this._abortSignal) this._abortSignal.addEventListener('abort', this._onAbort, { once: true })
    if (holdPrompt) {
      afterLaunchFieldsApplied(new QueryPort(this), options, data, () => { if (prompt !== WARM) this._attachPrompt(prompt) })
    } else if (prompt !== WARM && typeof prompt !== 'string') void this._pump(/** @type {AsyncIterable<import('../types/messages').SDKUserMessage>} */ (prompt))
    else if (typeof prompt === 'string' && this._verbatim) this._attachPrompt(prompt)
  }

  /**
   * Ends the session with `error`, which the iterator then throws (not the exit it causes).
   * @param {unknown} error
   */
  _fail(error) {
    this._fatal = error
    this._close(false)
  }

  /**
   * Gives a warm query (from startup()) its prompt.
   * @param {unknown} prompt checked here
   */
  _attachPrompt(prompt) {
    checkPrompt(prompt)
    if (this._finished) return
    if (typeof prompt === 'string') {
      // The user message a string prompt becomes, as the official SDK writes it.
      this._session.sendUserMessage(JSON.stringify({ type: 'user', session_id: '', message: { role: 'user', content: [{ type: 'text', text: prompt }] }, parent_tool_use_id: null, ...(this._verbatim && { client_composed: true }) }))
      this._session.endInput()
    } else {
      void this._pump(prompt)
    }
  }

  /**
   * Starts the CLI through the app's spawnClaudeCodeProcess and connects it to the engine.
   * @param {(request: import('./types').SpawnRequest) => import('./types').SpawnedProcess} spawner
   * @param {HostProcess} holder
   */
  _startHostProcess(spawner, holder) {
    const session = this._session
    const { command, args, cwd, env } = session.launchSpec()
    this._processAbort = new AbortController()
    let proc
    try {
      proc = spawner({ command, args, cwd: cwd ?? undefined, env, signal: this._processAbort.signal })
    } catch (e) {
      session.processExited(1, null)
      throw e
    }
    holder.proc = proc
    proc.stdin.on('error', () => {}) // the process may be gone; its exit is reported below
    proc.stdout.on('data', /** @param {string | Buffer} chunk */ (chunk) => session.pushStdout(typeof chunk === 'string' ? Buffer.from(chunk) : chunk))
    proc.stdout.on('end', () => session.stdoutEnd())
    let exited = false
    /** @param {number | null | undefined} code @param {string | null | undefined} signal */
    const onExit = (code, signal) => {
      if (exited) return
      exited = true
      session.processExited(code ?? null, signal ?? null)
    }
    proc.on('exit', onExit)
    proc.on('error', () => onExit(1, null))
    if (proc.exitCode !== null && proc.exitCode !== undefined) onExit(proc.exitCode, null)
  }

  /** @param {AsyncIterable<import('../types/messages').SDKUserMessage>} stream */
  async _pump(stream) {
    try {
      for await (const message of stream) {
        if (this._finished || this._aborted) return
        this._session.sendUserMessage(JSON.stringify(this._verbatim ? { ...message, client_composed: true } : message))
      }
      if (!this._finished && !this._aborted) this._session.endInput()
    } catch (e) {
      // A failing input stream ends the query with its error, as an abort would.
      this._error = this._error ?? e
      this._close(false)
    }
  }

  /** @param {boolean} abort */
  _close(abort) {
    if (this._session) this._session.close(abort)
  }

  _cleanup() {
    this._finished = true
    this._resolveEnded()
    this._release()
  }

  /** Lets go of everything the query holds besides its stream (once). */
  _release() {
    if (this._released) return
    this._released = true
    if (this._storeCleanup) this._storeCleanup()
    const processAbort = this._processAbort
    if (this._hostProcess?.proc) {
      // After an abort, the app's process (spawnClaudeCodeProcess) hears of it as the official
      // SDK tells it: once it has ended, or with the SIGTERM 2 s on. Until then the CLI may
      // write what it writes as it stops (the interrupted tool result), which is delivered.
      endHostProcess(this._hostProcess.proc, this._aborted ? () => processAbort?.abort() : undefined)
      this._hostProcess = undefined
      if (!this._aborted) processAbort?.abort()
    } else if (processAbort) processAbort.abort()
    if (this._abortSignal) this._abortSignal.removeEventListener('abort', this._onAbort)
    if (this._abortAll) this._abortAll()
    if (this._mcpLink) this._mcpLink.close()
  }

  /** @returns {Promise<IteratorResult<EngineMessage | undefined, undefined>>} */
  async _next() {
    if (this._ready) await this._ready
    if (this._pos < this._buffer.length) {
      const value = this._buffer[this._pos]
      this._buffer[this._pos++] = undefined
      return { value, done: false }
    }
    if (this._finished) {
      if (this._error) {
        const e = this._error
        this._error = null
        throw e
      }
      return { value: undefined, done: true }
    }
    if (this._takeQueued()) return this._next()
    const batch = await this._session.nextBatch()
    if (batch === null) {
      this._endOfStream()
      return this._next()
    }
    this._setBatch(batch)
    this._pos = 0
    return this._next()
  }

  /**
   * Reads the next batch into the buffer, in turn with next() calls, without consuming it: a
   * parked spare (prewarm()) learns of its process's end this way while nobody iterates.
   */
  _prefetch() {
    this._waiting++
    const p = this._tail.then(() => this._fill())
    this._tail = p.then(() => { this._waiting-- }, () => { this._waiting-- })
    return p
  }

  async _fill() {
    if (this._ready) await this._ready
    if (this._finished || !this._session) return
    // Messages read ahead and not taken yet stay ahead of the new batch.
    const unread = this._pos < this._buffer.length ? this._buffer.slice(this._pos) : undefined
    const batch = await this._session.nextBatch()
    if (batch === null) {
      this._endOfStream()
      if (unread) { this._buffer = unread; this._pos = 0 }
      return
    }
    this._setBatch(batch)
    if (unread) this._buffer = unread.concat(this._buffer)
    this._pos = 0
  }

  /**
   * The engine has no more batches (read by next() or by _prefetch()): the query lets go, and
   * the error the iterator throws after the buffered messages is set. The session's own end
   * reason (the CLI's exit code and stderr) outranks a failure to write streamed input, which is
   * only its consequence; an error that ended it outranks both; an abort outranks everything.
   */
  _endOfStream() {
    const reason = this._session.endReason()
    this._cleanup()
    if (this._aborted) this._error = new AbortError('Claude Code process aborted by user')
    else if (this._fatal) this._error = this._fatal
    else if (reason) this._error = this._endError(reason)
  }

  /** @param {string | Buffer} batch */
  _setBatch(batch) {
    const messages = parseBatch(batch)
    this._buffer = messages
    // supportedCommands() follows the CLI's latest commands_changed push; a parked spare's
    // onCommands() watches the frames as they are read.
    for (const m of messages) {
      if (m.type !== 'system') continue
      if (m.subtype === 'commands_changed' && Array.isArray(m.commands)) this._latestCommands = m.commands
      if (this._frameObserver) this._frameObserver(m)
    }
    // The text of an error result that ends the stream (the CLI exits non-zero after one).
    const last = messages[messages.length - 1]
    if (last && last.type === 'result') {
      this._lastErrorResult = last.is_error ? (last.subtype === 'success' ? last.result : (last.errors ?? []).map(/** @param {unknown} e */ (e) => String(e).trim()).filter(Boolean).join('; ')) || undefined : undefined
    } else if (last && !(last.type === 'system' && (last.subtype === 'session_writes_lost' || last.subtype === 'plugin_install'))) {
      this._lastErrorResult = undefined
    }
  }

  /**
   * The error a failed end of stream throws: as the official SDK, a process that exits right
   * after an error result fails with that result's text rather than its exit code.
   * @param {import('../native/binding').EndReason} reason
   */
  _endError(reason) {
    if (this._lastErrorResult !== undefined && reason.code !== 'ABORTED') {
      const err = new Error(`Claude Code returned an error result: ${this._lastErrorResult}`)
      // What the engine knows of the exit stays on it (code, exitCode or signal, stderr).
      const from = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (reason))
      const to = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (err))
      for (const key of ['code', 'exitCode', 'signal', 'stderr']) if (from[key] != null) to[key] = from[key]
      return err
    }
    return fromEngine(reason)
  }

  /** Parses the messages Rust already holds into the buffer, without waiting; false if none. */
  _takeQueued() {
    if (!this._session || this._finished) return false
    const batch = this._session.tryBatch()
    if (batch === null) return false
    this._setBatch(batch)
    this._pos = 0
    return this._buffer.length > 0
  }

  next() {
    // Fast path: a message is here (or already queued in Rust) and no earlier next() is
    // pending — no promise chain, no wake-up.
    if (this._waiting === 0 && (this._pos < this._buffer.length || this._takeQueued())) {
      const value = this._buffer[this._pos]
      this._buffer[this._pos++] = undefined
      return Promise.resolve({ value, done: false })
    }
    // Otherwise calls are served in order, as an async generator's are.
    this._waiting++
    const p = this._tail.then(() => this._next())
    this._tail = p.then(() => { this._waiting-- }, () => { this._waiting-- })
    return p
  }

  /** @param {unknown} value */
  async return(value) {
    this._close(false)
    this._cleanup()
    this._buffer = []
    this._error = null
    return { value, done: true }
  }

  /** @param {unknown} err */
  async throw(err) {
    this._close(false)
    this._cleanup()
    throw err
  }

  [Symbol.asyncIterator]() {
    return this
  }


  /** Ends the query and the CLI process now. */
  close() {
    this._close(false)
    this._cleanup()
  }

  /**
   * Calls an async method of the native session that answers with JSON text: its value, or
   * undefined for the empty text (a control answer without a body, whose `response` the
   * official SDK reads as undefined).
   * @param {(session: EngineSession) => Promise<string>} call
   * @returns {Promise<any>} the answer's JSON, as parsed
   */
  async _ask(call) {
    if (this._ready) await this._ready
    if (!this._session) throw this._error ?? new Error('The query did not start')
    try {
      const text = await call(this._session)
      return text === '' ? undefined : JSON.parse(text)
    } catch (e) {
      throw fromEngine(e)
    }
  }

  /** @param {ControlRequest} request */
  _control(request) {
    return this._ask((s) => s.control(JSON.stringify(request)))
  }

  /**
   * `_control` with the official `request(body, {signal})`'s abort: an already aborted signal
   * rejects at once (nothing is sent); one that fires later rejects with its reason (an Error as
   * is, anything else made one) and withdraws the request from the CLI (`control_cancel_request`).
   * @param {ControlRequest} request
   * @param {AbortSignal} [signal]
   * @returns {Promise<any>} the answer's JSON, as parsed
   */
  _controlWithSignal(request, signal) {
    if (!signal) return this._control(request)
    const reason = () => (isError(signal.reason) ? signal.reason : new Error(safeString(signal.reason ?? 'Control request aborted')))
    if (signal.aborted) return Promise.reject(reason())
    const id = `sdk_ctl_${++controlIds}`
    return new Promise((resolve, reject) => {
      /** @type {EngineSession | undefined} */
      let sent
      const onAbort = () => {
        reject(reason())
        if (sent) sent.cancelControl(id)
      }
      signal.addEventListener('abort', onAbort, { once: true })
      this._ask((s) => {
        if (signal.aborted) throw reason()
        sent = s
        return s.control(JSON.stringify(request), id)
      }).then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
    })
  }

  /**
   * Interrupts the current turn. With `{cancelQueued: true}` also drops queued prompts.
   * @param {{ cancelQueued?: boolean }} [options]
   */
  async interrupt(options) {
    const r = await this._control({ subtype: 'interrupt', ...(options?.cancelQueued === true && { cancel_queued: true }) })
    const stillQueued = r?.still_queued
    if (!Array.isArray(stillQueued)) return undefined
    return {
      still_queued: stillQueued.filter(/** @param {unknown} x */ (x) => typeof x === 'string'),
      ...(Array.isArray(r.cancelled) && { cancelled: r.cancelled.filter(/** @param {unknown} x */ (x) => typeof x === 'string') }),
    }
  }

  /**
   * Resolves with `{ mode }`, the mode now in effect as the CLI says (its `manual` read as
   * `default`), or `undefined` when the answer names no mode, or one outside PermissionMode;
   * rejects where the mode is refused.
   * @param {import('../types/permissions').PermissionMode} mode
   * @param {{ answersBypassSwitchBack?: boolean }} [options]
   */
  async setPermissionMode(mode, options) {
    const r = await this._control({ subtype: 'set_permission_mode', mode, answers_bypass_switch_back: options?.answersBypassSwitchBack })
    const now = r?.mode === 'manual' ? 'default' : r?.mode
    return typeof now === 'string' && PERMISSION_MODES.includes(now) ? { mode: now } : undefined
  }

  /** Tells the CLI the user is drafting a prompt (control subtype `prompt_draft_activity`). */
  async notePromptDraftActivity() {
    await this._control({ subtype: 'prompt_draft_activity' })
  }

  /** @param {string} [model] */
  async setModel(model) {
    await this._control({ subtype: 'set_model', model })
  }

  /**
   * @param {number | null} maxThinkingTokens
   * @param {'summarized' | 'omitted' | 'highlights' | null} [display]
   */
  async setMaxThinkingTokens(maxThinkingTokens, display) {
    await this._control({ subtype: 'set_max_thinking_tokens', max_thinking_tokens: maxThinkingTokens, thinking_display: display })
  }

  /** The CLI's answer to `initialize`: commands, models, agents, account, ... */
  initializationResult() {
    // After a spare's claim: the claimed session's answer (see lib/prewarm.js).
    if (this._initOverride) return this._initOverride
    return this._ask((s) => s.initializationResult())
  }

  async supportedCommands() {
    const { commands } = await this.initializationResult()
    return this._latestCommands ?? commands
  }

  async supportedModels() {
    return (await this.initializationResult()).models
  }

  async supportedAgents() {
    return (await this.initializationResult()).agents
  }

  async accountInfo() {
    return (await this.initializationResult()).account
  }

  async mcpServerStatus() {
    return (await this._control({ subtype: 'mcp_status' })).mcpServers
  }

  /** @param {Record<string, unknown>} [options] */
  async getContextUsage(options) {
    return this._control({ subtype: 'get_context_usage', ...options })
  }

  /** @param {string} serverName */
  async reconnectMcpServer(serverName) {
    await this._control({ subtype: 'mcp_reconnect', serverName })
  }

  /** @param {string} serverName @param {boolean} enabled */
  async toggleMcpServer(serverName, enabled) {
    await this._control({ subtype: 'mcp_toggle', serverName, enabled })
  }

  /**
   * Replaces the session's dynamically added MCP servers. In-process servers are routed by the
   * engine from now on; the CLI learns the set (in-process ones by name) from `mcp_set_servers`.
   * @param {Record<string, import('../types/mcp-servers').McpServerConfig>} servers
   */
  async setMcpServers(servers) {
    if (this._ready) await this._ready
    const { sdk, processServers } = splitServers(servers)
    if (!this._session) throw this._error ?? new Error('The query did not start')
    const all = sdk // as the official: the given set replaces every in-process server
    this._session.setSdkServers([...all].map(([name, s]) => ({ name, id: s.native().id })))
    const current = /** @type {Map<string, any>} */ (this._sdkServers) // set by _start, as _session
    current.clear()
    for (const [name, s] of all) current.set(name, s)
    this._mcpLink?.serversChanged()
    const sdkConfigs = Object.fromEntries([...sdk.keys()].map((name) => [name, { type: 'sdk', name }]))
    return this._control({ subtype: 'mcp_set_servers', servers: { ...processServers, ...sdkConfigs } })
  }

  /** @param {string} userMessageId @param {{ dryRun?: boolean }} [options] */
  async rewindFiles(userMessageId, options) {
    return this._control({ subtype: 'rewind_files', user_message_id: userMessageId, dry_run: options?.dryRun })
  }

  /** @param {string} taskId */
  async stopTask(taskId) {
    await this._control({ subtype: 'stop_task', task_id: taskId })
  }

  /** Sends `initialize` again (a fresh answer, unlike initializationResult()). */
  reinitialize() {
    return this._ask((s) => s.reinitialize())
  }

  // The remaining control methods of the official Query: one control request each, the same
  // request the official SDK sends, resolving with the same part of the CLI's answer.

  /** @param {string} serverName @param {'default' | 'auto' | null} mode */
  async setMcpPermissionModeOverride(serverName, mode) {
    return (await this._control({ subtype: 'set_mcp_permission_mode_override', serverName, mode })) ?? {}
  }

  /** @param {Record<string, unknown>} settings */
  async applyFlagSettings(settings) {
    await this._control({ subtype: 'apply_flag_settings', settings })
  }

  /** @param {'localSettings' | 'userSettings'} source @param {Record<string, unknown>} settings */
  async updateSettings(source, settings) {
    await this._control({ subtype: 'update_settings', source, settings })
  }

  /** @param {{ skipBehaviors?: boolean }} [options] */
  async usage_EXPERIMENTAL_MAY_CHANGE_DO_NOT_RELY_ON_THIS_API_YET(options) {
    return this._control({ subtype: 'get_usage', ...(options?.skipBehaviors && { skip_behaviors: true }) })
  }

  /** @param {string} path @param {{ maxBytes?: number, encoding?: string }} [options] */
  async readFile(path, options) {
    try {
      return await this._control({ subtype: 'read_file', path, max_bytes: options?.maxBytes, encoding: options?.encoding })
    } catch {
      return null
    }
  }

  /** @param {{ holdOnCacheImpact?: boolean, addPlugins?: unknown[], refuseIfBusy?: boolean }} [options] */
  async reloadPlugins(options) {
    return this._control({
      subtype: 'reload_plugins',
      ...(options?.holdOnCacheImpact && { hold_on_cache_impact: true }),
      ...(options?.addPlugins && options.addPlugins.length > 0 && { add_plugins: options.addPlugins }),
      ...(options?.refuseIfBusy && { refuse_if_busy: true }),
    })
  }

  async reloadSkills() {
    return this._control({ subtype: 'reload_skills' })
  }

  async reloadOutputStyles() {
    return this._control({ subtype: 'reload_output_styles' })
  }

  /** @param {string} path @param {number} mtime */
  async seedReadState(path, mtime) {
    await this._control({ subtype: 'seed_read_state', path, mtime })
  }

  /** @param {string} serverName @param {string} uri */
  async readMcpResource(serverName, uri) {
    return this._control({ subtype: 'mcp_read_resource', serverName, uri })
  }

  /** @param {string} [toolUseId] */
  async backgroundTasks(toolUseId) {
    return (await this._control({ subtype: 'background_tasks', tool_use_id: toolUseId })).backgrounded ?? true
  }

  /** @param {string} messageUuid */
  async cancelAsyncMessage(messageUuid) {
    return (await this._control({ subtype: 'cancel_async_message', message_uuid: messageUuid })).cancelled
  }

  // The official Query's methods its sdk.d.ts does not declare (runtime only): the same control
  // request each, resolving with the same part of the CLI's answer (see lib/query-extra.js).

  /**
   * Adds user messages to a streaming-input query.
   * @param {AsyncIterable<import('../types/messages').SDKUserMessage>} stream
   */
  async streamInput(stream) {
    if (this._ready) await this._ready
    for await (const message of stream) {
      if (this._finished) return
      this._session.sendUserMessage(JSON.stringify(this._verbatim ? { ...message, client_composed: true } : message))
    }
  }
}

/**
 * The one internal interface to a Query for the modules that work with it from outside
 * (lib/session-store.js, lib/prewarm.js, lib/mcp-delivery.js, lib/query-extra.js): none of them
 * reads or writes its fields or calls its private methods. A port holds nothing but its query.
 */
class QueryPort {
  #q
  /** @param {Query} q */
  constructor(q) {
    this.#q = q
  }

  /**
   * Starts the session (a query whose start waited for its session store).
   * @param {Prompt | symbol | undefined} prompt
   * @param {QueryOptions} options
   */
  begin(prompt, options) {
    this.#q._begin(prompt, options)
  }

  /**
   * Ends a query that could not start: its first next() throws `error`.
   * @param {unknown} error
   */
  failStart(error) {
    this.#q._error = error
    this.#q._finished = true
  }

  /** The error the query failed to start with (its constructor returned), if any. */
  get startError() {
    return this.#q._error
  }

  /**
   * Ends the running session with `error`, which the iterator then throws (not the exit it causes).
   * @param {unknown} error
   */
  fail(error) {
    this.#q._fail(error)
  }

  /**
   * Runs `cleanup` once the query has let go of what it holds: then, or now if it already has.
   * @param {() => void} cleanup
   */
  onRelease(cleanup) {
    if (this.#q._released) cleanup()
    else this.#q._storeCleanup = cleanup
  }

  /** Settles when the CLI process has exited (at once when none was started). */
  sessionEnded() {
    const session = this.#q._session
    return session ? session.ended() : Promise.resolve()
  }

  /** Whether the stream has ended. */
  get finished() {
    return this.#q._finished
  }

  /** Settles when the stream has ended. */
  get ended() {
    return this.#q._ended
  }

  /** Reads the next batch ahead, in turn with next() calls, without consuming it. */
  readAhead() {
    return this.#q._prefetch()
  }

  /**
   * Shows `observer` each system frame as it is read (ahead or not).
   * @param {(frame: EngineMessage) => void} observer
   */
  observeFrames(observer) {
    this.#q._frameObserver = observer
  }

  /** The query's initialize answer (or its replacement). */
  initializationResult() {
    return this.#q.initializationResult()
  }

  /**
   * Makes initializationResult() answer with `result` from now on.
   * @param {Promise<any>} result the answer's JSON, as parsed
   */
  overrideInit(result) {
    this.#q._initOverride = result
  }

  /**
   * Sends a control request; resolves with the CLI's answer body. With `signal`: rejected and
   * withdrawn from the CLI when it fires (see Query._controlWithSignal).
   * @param {ControlRequest} request
   * @param {AbortSignal} [signal]
   */
  control(request, signal) {
    return this.#q._controlWithSignal(request, signal)
  }

  /**
   * Gives a warm query (WARM prompt) its prompt.
   * @param {unknown} prompt checked by the query
   */
  attachPrompt(prompt) {
    this.#q._attachPrompt(prompt)
  }

  /** What the CLI's host requests are answered with: `{ uiHost, workSecretAnswerer }` (lib/host-requests.js). */
  get hostState() {
    return this.#q._hostState
  }

  /** Closes the CLI's input (nothing more will be sent), if it was started. */
  endInput() {
    this.#q._session?.endInput()
  }
}

/** @typedef {InstanceType<typeof QueryPort>} Port A QueryPort, as a type for the modules that take one. */

// The official Query's methods that its sdk.d.ts does not declare (lib/query-extra.js), by name
// and `length`. Each is on the prototype from the start, as the official's (not enumerable); the
// module loads on the first call of any of them, so importing the package does not compile it.
// __test__/query-undeclared-methods.test.mjs checks this list against the module's methods.
const UNDECLARED_METHODS = {
  getSettings: 0, getHooksListing: 0, getTaskOutput: 1, listPermissionRules: 0, setCwd: 2, setChromeBrowserHints: 1,
  setPromptSuggestionsPaused: 1, enableChannel: 1, mcpAuthenticate: 3, mcpClearAuth: 1, mcpSubmitOAuthCallbackUrl: 2,
  claudeAuthenticate: 2, claudeOAuthCallback: 2, claudeOAuthWaitForCompletion: 0, getMemoryDialog: 0, getSkillsDialog: 0,
  getStatus: 0, exportConversation: 0, getChromeDialog: 0, getChromeBrowsers: 0, selectChromeBrowser: 1, getSandboxDialog: 1,
  getPlan: 0, readCloudSessions: 2, logHostEvents: 2, dictate: 1, submitFeedback: 2, submitSurveyFeedback: 1, renameSession: 2,
  generateSessionTitle: 2, askSideQuestion: 2, enableRemoteControl: 3, claimSession: 1, isClosed: 0, setUiHost: 1,
  launchUltrareview: 2, messageRated: 1,
}
const undeclared = lazyModule(() => {
  const extra = require('./query-extra')
  extra.usePort((q) => new QueryPort(q))
  return extra.methods
})
for (const [name, length] of Object.entries(UNDECLARED_METHODS)) {
  Object.defineProperty(Query.prototype, name, { value: lazyFunction(name, length, undeclared), writable: true, configurable: true, enumerable: false })
}

const WARM = Symbol('warm query: the prompt comes later')
/** The request ids of control requests that can be withdrawn (see _controlWithSignal). */
let controlIds = 0

/** @type {TextDecoder | undefined} */
let utf8
/**
 * The messages of one batch from the engine: the text of a JSON array (Latin-1), or one message
 * too long for that as a Buffer of its UTF-8 JSON text. A message that cannot be made a value
 * here (memory) is reported with its size and skipped; the ones after it still arrive.
 * @param {string | Buffer} batch
 * @returns {EngineMessage[]}
 */
function parseBatch(batch) {
  // The text of a JSON array of messages, or of one message alone (an object).
  if (typeof batch === 'string') return batch.charCodeAt(0) === 123 /* { */ ? [JSON.parse(batch)] : JSON.parse(batch)
  try {
    utf8 ??= new TextDecoder()
    return [JSON.parse(utf8.decode(batch))]
  } catch (e) {
    process.emitWarning(`claude-agent-sdk-native: a message of ${batch.length} bytes from Claude Code could not be delivered (${e?.message ?? e}); the messages after it still are`)
    return []
  }
}

// `await using` support where the runtime has it (Symbol.asyncDispose: Node 20.4+, Bun); on
// older runtimes a computed key of `undefined` would add a method named "undefined".
const ASYNC_DISPOSE = Symbol.asyncDispose
if (ASYNC_DISPOSE) {
  /** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (Query.prototype))[ASYNC_DISPOSE] = /** @this {Query} */ async function () {
    await this.return(undefined)
  }
}

/**
 * `fn` run in `resource`'s async scope: what AsyncResource.bind makes, without its accessors.
 * @param {AsyncResource} resource
 * @param {(kind: string, requestId: string, payload: string) => unknown} fn
 * @returns {(kind: string, requestId: string, payload: string) => unknown}
 */
function inAsyncScope(resource, fn) {
  return (kind, requestId, payload) => resource.runInAsyncScope(fn, undefined, kind, requestId, payload)
}

/**
 * The query's host-request handler (lib/host-requests.js), loaded with the first host request:
 * most queries get none, and importing the package stays one module lighter. The callbacks are
 * read from `options` now, as makeHostRequests reads them.
 * @param {import('./types').QueryOptions} options
 * @param {import('./host-requests').HostState} state
 * @returns {(request: import('./host-requests').HostRequest, context: { signal: AbortSignal }) => Promise<unknown>}
 */
function lazyHostRequests(options, state) {
  const callbacks = { getOAuthToken: options.getOAuthToken, getHostAuthToken: options.getHostAuthToken }
  /** @type {ReturnType<typeof import('./host-requests').makeHostRequests> | undefined} */
  let handler
  return (request, context) => (handler ??= require('./host-requests').makeHostRequests(callbacks, state))(request, context)
}

/**
 * Ends a process the app started (spawnClaudeCodeProcess) as the official SDK does, whether or
 * not it honours the AbortSignal: stdin ends at once; a process still running 2 s later gets
 * SIGTERM, and SIGKILL 5 s after that.
 * @param {import('./types').SpawnedProcess} proc
 * @param {() => void} [onStop]
 */
function endHostProcess(proc, onStop = () => {}) {
  try { proc.stdin?.end() } catch {}
  const running = () => proc.exitCode === null && proc.signalCode == null
  if (!running()) return onStop()
  proc.once?.('exit', onStop)
  setTimeout(() => {
    if (!running()) return
    onStop()
    try { proc.kill('SIGTERM') } catch {}
    setTimeout(() => { if (proc.exitCode === null) try { proc.kill('SIGKILL') } catch {} }, 5000).unref()
  }, 2000).unref()
}

/** @param {QueryOptions | undefined} options */
function checkDialogKinds(options) {
  if (Array.isArray(options?.supportedDialogKinds) && options.supportedDialogKinds.length > 0 && typeof options.onUserDialog !== 'function') {
    throw new Error('supportedDialogKinds requires an onUserDialog callback -- declaring dialog kinds without a handler would park dialogs nothing can answer. Provide onUserDialog, or omit supportedDialogKinds.')
  }
}

/**
 * @param {unknown} prompt
 * @returns {asserts prompt is Prompt}
 */
function checkPrompt(prompt) {
  if (typeof prompt !== 'string' && !(prompt && typeof (/** @type {{ [Symbol.asyncIterator]?: unknown }} */ (prompt))[Symbol.asyncIterator] === 'function')) {
    throw new TypeError('query(): `prompt` must be a string or an AsyncIterable of SDKUserMessage')
  }
}

/**
 * Pre-warms the CLI (spawned and initialized) so the first query starts at once, as the
 * official `startup()`. Resolves when the CLI has answered `initialize`.
 * @param {{ options?: QueryOptions, initializeTimeoutMs?: number }} [params]
 */
async function startup({ options, initializeTimeoutMs } = {}) {
  /** @type {QueryOptions} */
  const opts = { ...(options ?? {}) }
  if (initializeTimeoutMs !== undefined) opts.initializeTimeoutMs = initializeTimeoutMs
  const q = new Query(WARM, opts)
  if (q._error) throw q._error
  try {
    await q.initializationResult()
  } catch (e) {
    q.close()
    throw e
  }
  let used = false
  return {
    /** @param {Prompt} prompt */
    query(prompt) {
      if (used) throw new Error('WarmQuery.query() can only be called once')
      used = true
      q._attachPrompt(prompt)
      return q
    },
    close() {
      if (!used) q.close()
    },
    ...(ASYNC_DISPOSE && { async [ASYNC_DISPOSE]() { if (!used) q.close() } }),
  }
}

/**
 * Starts a Claude Code session; same signature and behaviour as the official `query()`.
 * @param {{ prompt?: Prompt, options?: QueryOptions }} [params]
 */
function query({ prompt, options } = {}) {
  // Thrown at once, as the official SDK throws it (other option errors surface on iteration).
  checkDialogKinds(options)
  checkDeliveries(options)
  return new Query(prompt, options ?? {})
}

module.exports = { query, startup, Query, QueryPort, WARM }
