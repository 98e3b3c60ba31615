// @ts-check
'use strict'
// A query's session as the in-process MCP servers see it: how a server's own messages reach the
// CLI (notifications such as list_changed, progress, logging; requests such as
// elicitation/create, whose answers come back as mcp_message requests), and the connections of
// foreign servers (any MCP server object, fed through a transport).

const DEFAULT_REQUEST_TIMEOUT_MS = 60000 // the MCP SDK's DEFAULT_REQUEST_TIMEOUT_MSEC

/**
 * A JSON-RPC message of MCP (a request, a notification or a response).
 * @typedef {{ jsonrpc?: '2.0', id?: string | number, method?: string, params?: unknown, result?: unknown, error?: { code: number, message: string, data?: unknown } }} JsonRpcMessage
 * @typedef {(message: JsonRpcMessage) => void} Send writes one message to the CLI
 * @typedef {{ signal?: AbortSignal, timeout?: number }} RequestOptions
 */

class McpError extends Error {
  /** @param {number} code @param {string} message @param {unknown} [data] */
  constructor(code, message, data) {
    super(`MCP error ${code}: ${message}`)
    this.name = 'McpError'
    this.code = code
    this.data = data
  }
}

/**
 * Requests a server sent to the CLI, waiting for their answers. `send(message)` writes one
 * JSON-RPC message; ids are ours (`sdk-native-N`), unique in this process.
 */
let nextRequestId = 1
class PendingRequests {
  constructor() {
    /** @type {Map<string | number | undefined, { resolve: (result: unknown) => void, reject: (error: unknown) => void }>} */
    this.map = new Map()
  }

  /**
   * @param {Send} send
   * @param {JsonRpcMessage} message the request, without its id
   * @param {RequestOptions} [options]
   * @returns {Promise<unknown>} the response's result
   */
  request(send, message, options = {}) {
    const id = `sdk-native-${nextRequestId++}`
    return new Promise((resolve, reject) => {
      const { signal } = options
      if (signal?.aborted) return reject(signal.reason ?? new Error('The request was aborted'))
      const timeoutMs = typeof options.timeout === 'number' ? options.timeout : DEFAULT_REQUEST_TIMEOUT_MS
      const done = () => {
        this.map.delete(id)
        clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
      }
      /** @param {unknown} reason */
      const cancel = (reason) => {
        try { send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: String(reason) } }) } catch {}
      }
      const onAbort = () => {
        done()
        cancel(signal?.reason ?? 'aborted')
        reject(signal?.reason ?? new Error('The request was aborted'))
      }
      const timer = setTimeout(() => {
        done()
        cancel('timeout')
        reject(new McpError(-32001, 'Request timed out', { timeout: timeoutMs }))
      }, timeoutMs)
      timer.unref?.()
      signal?.addEventListener('abort', onAbort, { once: true })
      this.map.set(id, {
        resolve: (r) => { done(); resolve(r) },
        reject: (e) => { done(); reject(e) },
      })
      try {
        send({ ...message, jsonrpc: '2.0', id })
      } catch (e) {
        done()
        reject(e)
      }
    })
  }

  /**
   * A JSON-RPC response: settles its request; false when it is not one of ours.
   * @param {JsonRpcMessage} message
   */
  settle(message) {
    const p = this.map.get(message.id)
    if (!p) return false
    if (message.error) p.reject(new McpError(message.error.code, message.error.message, message.error.data))
    else p.resolve(message.result)
    return true
  }

  /** @param {unknown} error */
  rejectAll(error) {
    for (const p of [...this.map.values()]) p.reject(error)
  }
}

/** One query's session, for the servers it uses. */
class McpLink {
  /** @param {Map<string, any>} sdkServers the query's in-process servers by name (SdkMcpServer or ForeignServer) */
  constructor(sdkServers) {
    this.sdkServers = sdkServers
    /** @type {WeakRef<import('./types').EngineSession> | undefined} */
    this.sessionRef = undefined
    this.pending = new PendingRequests()
    /** @type {Map<string, { send: Send, request: (message: JsonRpcMessage, options?: RequestOptions) => Promise<unknown> }>} */
    this.channels = new Map()
    this.closed = false
    /** @type {Set<any> | undefined} the native servers subscribed to this link */
    this._subscribed = undefined
    /** @type {Set<any> | undefined} the foreign servers connected through it */
    this._foreign = undefined
  }

  /**
   * The session is there: subscribe native servers to run-time changes, connect foreign ones.
   * @param {import('./types').EngineSession} session
   */
  attach(session) {
    this.sessionRef = new WeakRef(session)
    this.serversChanged()
  }

  /** Called after attach() and whenever the set of servers changes (setMcpServers()). */
  serversChanged() {
    if (this.closed) return
    for (const s of this._subscribed ?? []) s._unsubscribe?.(this)
    this._subscribed = new Set()
    const current = new Set(this.sdkServers.values())
    // Foreign servers dropped by setMcpServers() are disconnected (their transport closed).
    for (const f of this._foreign ?? []) if (!current.has(f)) f.disconnect(this)
    this._foreign = new Set()
    for (const [name, server] of this.sdkServers) {
      if (typeof server._subscribe === 'function') {
        server._subscribe(this, name)
        this._subscribed.add(server)
      }
      if (typeof server.connectTo === 'function') {
        if (!server.connected) server.connectTo(this, name)
        this._foreign.add(server)
      }
    }
  }

  /**
   * Writes one message of the server known as `name` to the CLI.
   * @param {string} name
   * @param {JsonRpcMessage} message
   */
  send(name, message) {
    if (this.closed) return
    const session = this.sessionRef?.deref()
    if (!session) return
    try {
      session.sendMcpMessage(name, JSON.stringify(message))
    } catch {
      // The session has ended: there is no one left to tell.
    }
  }

  /**
   * `{send, request}` for the server known as `name`.
   * @param {string} name
   */
  channel(name) {
    let c = this.channels.get(name)
    if (!c) {
      /** @type {Send} */
      const send = (m) => this.send(name, m)
      c = { send, request: (message, options) => this.pending.request(send, message, options) }
      this.channels.set(name, c)
    }
    return c
  }

  /**
   * A message the engine passed on without answering it (a response, or a notification for a foreign server).
   * @param {{ server: string, message: JsonRpcMessage }} routed
   */
  message({ server, message }) {
    if (!message || typeof message !== 'object') return
    const isResponse = !('method' in message) && 'id' in message
    if (isResponse && this.pending.settle(message)) return
    this.sdkServers.get(server)?.deliver?.(message)
  }

  close() {
    if (this.closed) return
    this.closed = true
    for (const s of this._subscribed ?? []) s._unsubscribe?.(this)
    for (const server of this.sdkServers.values()) server.disconnect?.(this)
    this.pending.rejectAll(new Error('The query has ended'))
  }
}

module.exports = { McpLink, PendingRequests, McpError }
