// @ts-check
'use strict'
// A Codex thread: one long-lived `codex app-server` (owned by the Rust engine) per thread,
// started at its first run and kept between turns, instead of the official SDK's `codex exec`
// process per turn. Runs yield @openai/codex-sdk's ThreadEvents (mapped in the engine).
const path = require('path')
const { AsyncResource } = require('async_hooks')
const { loadNative } = require('../native')
const { makeDispatch } = require('../dispatch')
const { splitServers } = require('../options')
const { AbortError } = require('../errors')
const { processOverrides, processEnv, threadParams, turnInput } = require('./options')
const { callbackKinds, makeCodexRequest } = require('./callbacks')

const VERSION = require('../../package.json').version

/** Threads this process holds, by id: a resume of one of them goes to the app-server holding it. */
const held = new Map()

/**
 * A turn's abort: named `AbortError` with code `ABORT_ERR`, as the error Node's child_process
 * rejects with when the official SDK's signal kills its `codex exec` (and an `instanceof` our
 * AbortError).
 */
function turnAborted() {
  const err = /** @type {Error & { code?: string }} */ (new AbortError('The Codex turn was aborted'))
  err.name = 'AbortError'
  err.code = 'ABORT_ERR'
  return err
}

/** An Error from the engine's description of how a session ended. */
function endError(end) {
  const err = end.code === 'ABORTED' ? turnAborted() : new Error(end.message)
  for (const key of ['code', 'exitCode', 'signal', 'stderr']) if (end[key] != null) err[key] = end[key]
  return err
}

/** One app-server and the thread it serves; turns on it run one at a time. */
class Session {
  constructor(codexOptions, threadOptions) {
    const { sdk: servers } = splitServers(threadOptions.mcpServers)
    // Foreign MCP server objects (an McpServer of @modelcontextprotocol/sdk, ...) are connected
    // through a transport as for a query; their tools are listed from them before the thread starts.
    this._link = { send() {} }
    this._foreign = [...servers].filter(([, s]) => typeof s.connectTo === 'function')
    for (const [name, s] of this._foreign) if (!s.connected) s.connectTo(this._link, name)
    const { dispatch, abortAll, attach } = makeDispatch({
      sdkServers: servers,
      hookCallbacks: new Map(),
      codexRequest: makeCodexRequest(threadOptions),
      stderr: typeof threadOptions.stderr === 'function' ? threadOptions.stderr : undefined,
    })
    this._abortAll = abortAll
    const { startCodex } = loadNative()
    this.native = startCodex({
      codexPath: codexOptions.codexPathOverride,
      searchFrom: [path.join(__dirname, '..', '..'), process.cwd()],
      configOverrides: processOverrides(codexOptions),
      env: processEnv(codexOptions),
      cwd: threadOptions.workingDirectory,
      servers: [...servers].map(([name, s]) => ({ name, id: s.native().id })),
      callbacks: callbackKinds(threadOptions),
      forwardStderr: typeof threadOptions.stderr === 'function',
      clientVersion: VERSION,
    }, AsyncResource.bind(dispatch))
    attach(this.native)
    this.id = null
    this.ended = null
    this._queue = Promise.resolve()
  }

  /** Waits for the turns queued before; resolves with the function that lets the next one run. */
  async acquire() {
    const before = this._queue
    let release
    this._queue = new Promise((r) => (release = r))
    await before
    return release
  }

  async request(method, params) {
    return JSON.parse(await this.native.request(method, JSON.stringify(params)))
  }

  /** The next batch of engine events (an array), or null once the session is over. */
  async events() {
    if (this.ended) return null
    const text = await this.native.nextEvents()
    if (text === null) return null
    const batch = JSON.parse(text)
    for (const e of batch) if ('end' in e) this.ended = { error: e.end }
    return batch
  }

  /** The `dynamicTools` namespaces of the foreign servers: their `tools/list`, asked now. */
  async foreignTools() {
    const out = []
    const running = { signal: new AbortController().signal }
    for (const [name, s] of this._foreign) {
      const init = JSON.parse(await s.forward({ jsonrpc: '2.0', id: 'codex-initialize', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'claude-agent-sdk-native-codex', version: VERSION } } }, running))
      if (init.error) throw new Error(`mcpServers.${name}: the MCP server refused initialize: ${init.error.message}`)
      s.deliver({ jsonrpc: '2.0', method: 'notifications/initialized' })
      const listed = JSON.parse(await s.forward({ jsonrpc: '2.0', id: 'codex-tools-list', method: 'tools/list', params: {} }, running))
      if (listed.error) throw new Error(`mcpServers.${name}: tools/list failed: ${listed.error.message}`)
      const tools = (listed.result?.tools ?? []).map((t) => ({ type: 'function', name: t.name, description: t.description ?? '', inputSchema: t.inputSchema ?? { type: 'object' } }))
      out.push({ type: 'namespace', name, description: init.result?.instructions ?? `Tools of the MCP server ${JSON.stringify(name)}`, tools })
    }
    return out
  }

  close() {
    if (this.id) held.delete(this.id)
    this.native.close()
    this._abortAll()
    for (const [, s] of this._foreign) s.disconnect(this._link)
  }
}

class Thread {
  constructor(codexOptions, threadOptions, id) {
    this._codexOptions = codexOptions
    this._threadOptions = threadOptions
    this._id = id ?? null
    this._session = null
    this._params = threadParams(threadOptions)
    callbackKinds(threadOptions)
  }

  /** The thread's id: known after the first turn starts (or given to resumeThread). */
  get id() {
    return this._id
  }

  /** Starts (or resumes) the thread on its app-server, once. */
  async _open() {
    if (this._session && !this._session.ended) return this._session
    const holder = this._id ? held.get(this._id)?.deref() : undefined
    if (holder && !holder.ended) return (this._session = holder)
    const session = new Session(this._codexOptions, this._threadOptions)
    try {
      await session.native.initialized()
      if (this._id) {
        const { dynamicTools, ...params } = this._params
        await session.request('thread/resume', { threadId: this._id, ...params })
      } else {
        const dynamicTools = await session.foreignTools()
        const r = JSON.parse(await session.native.startThread(JSON.stringify(dynamicTools.length ? { ...this._params, dynamicTools } : this._params)))
        this._id = r.thread.id
      }
    } catch (err) {
      session.close()
      throw err
    }
    session.id = this._id
    held.set(this._id, new WeakRef(session))
    this._session = session
    return session
  }

  /** Provides the input to the agent and streams events as they are produced during the turn. */
  async runStreamed(input, turnOptions = {}) {
    return { events: this._events(input, turnOptions) }
  }

  /** Provides the input to the agent and returns the completed turn. */
  async run(input, turnOptions = {}) {
    const items = []
    let finalResponse = ''
    let usage = null
    /** @type {{ message: string } | null} */
    let failure = null
    for await (const event of this._events(input, turnOptions)) {
      if (event.type === 'item.completed') {
        if (event.item.type === 'agent_message') finalResponse = event.item.text
        items.push(event.item)
      } else if (event.type === 'turn.completed') {
        usage = event.usage
      } else if (event.type === 'turn.failed') {
        failure = event.error
        break
      }
    }
    if (failure) throw new Error(failure.message)
    return { items, finalResponse, usage }
  }

  async *_events(input, turnOptions = {}) {
    const params = { input: turnInput(input) }
    if (turnOptions.outputSchema !== undefined) {
      if (!turnOptions.outputSchema || typeof turnOptions.outputSchema !== 'object' || Array.isArray(turnOptions.outputSchema)) {
        throw new Error('outputSchema must be a plain JSON object')
      }
      params.outputSchema = turnOptions.outputSchema
    }
    const signal = turnOptions.signal
    if (signal?.aborted) throw turnAborted()
    const session = await this._open()
    // Turns on one thread run one after another.
    const release = await session.acquire()
    let turnId = null
    let done = false
    const onAbort = () => {
      if (turnId && !done) session.request('turn/interrupt', { threadId: this._id, turnId }).catch(() => {})
    }
    try {
      yield { type: 'thread.started', thread_id: this._id }
      if (signal?.aborted) throw turnAborted()
      signal?.addEventListener('abort', onAbort, { once: true })
      const r = await session.request('turn/start', { threadId: this._id, ...params })
      turnId = r.turn.id
      if (signal?.aborted) onAbort()
      while (!done) {
        const batch = await session.events()
        if (batch === null) throw endError({ code: 'CODEX_CLOSED', message: 'The Codex session has ended' })
        for (const e of batch) {
          if ('warning' in e) {
            process.emitWarning(`claude-agent-sdk-native/codex: ${e.warning}`)
            continue
          }
          if ('end' in e) {
            throw endError(e.end ?? { code: 'CODEX_CLOSED', message: 'The Codex session was closed during the turn' })
          }
          // Only this thread's: process-wide notices (a config warning at startup) are not
          // turn events, as `codex exec` does not report them either.
          const threadId = e.params?.threadId ?? e.params?.thread?.id
          if (threadId !== this._id) continue
          for (const ev of e.events) yield ev
          if (e.turnEnd && e.params?.turn?.id === turnId) {
            done = true
            if (e.turnEnd === 'interrupted') throw turnAborted()
            break
          }
        }
      }
    } finally {
      signal?.removeEventListener('abort', onAbort)
      // Left early (break, return, a throw in the consumer): the turn is interrupted.
      if (turnId && !done) {
        await session.request('turn/interrupt', { threadId: this._id, turnId }).catch(() => {})
        await drainTurn(session, this._id, turnId)
      }
      release()
    }
  }

  /** Ends the thread's app-server (the thread can be resumed later). Ours; the official has none. */
  close() {
    this._session?.close()
    this._session = null
  }

  [Symbol.asyncDispose]() {
    this.close()
    return Promise.resolve()
  }
}

/** Reads events until the interrupted turn ends (a bounded wait), so the next turn starts clean. */
async function drainTurn(session, threadId, turnId) {
  const deadline = Date.now() + 5000
  while (Date.now() < deadline) {
    const batch = await Promise.race([session.events(), new Promise((r) => setTimeout(() => r(undefined), deadline - Date.now()).unref?.())])
    if (!batch) return
    for (const e of batch) {
      if ('end' in e) return
      if (e.turnEnd && e.params?.turn?.id === turnId && (e.params?.threadId ?? threadId) === threadId) return
    }
  }
}

module.exports = { Thread }
