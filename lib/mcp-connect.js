// @ts-check
'use strict'
// MCP servers and transports, both ways:
// - TransportConnection: one of our servers served over any MCP transport
//   (instance.connect(transport)), routed by the same native engine a query uses.
// - ForeignServer: any other MCP server object in a query's mcpServers (an McpServer or Server of
//   @modelcontextprotocol/sdk, or a server of another copy of this package), connected with
//   `instance.connect(transport)` to a transport this query feeds, as the official SDK does.
const { loadNative } = require('./native')
const { runMcpCall, errorText } = require('./mcp-calls')
const { PendingRequests } = require('./mcp-link')

/** A call in flight with a lazily made AbortSignal (as dispatch's RunningCall). */
class Running {
  constructor() {
    this.controller = new AbortController()
  }

  get signal() {
    return this.controller.signal
  }

  abort() {
    this.controller.abort()
  }
}

class TransportConnection {
  constructor(server, transport) {
    if (!transport || typeof transport.send !== 'function') throw new TypeError('connect(): expected an MCP transport (with send(), onmessage, start())')
    this.server = server
    this.transport = transport
    this.running = new Map()
    this.pending = new PendingRequests()
    this.closed = false
  }

  async start() {
    const t = this.transport
    t.onmessage = (message) => this.receive(message)
    const previousClose = t.onclose
    t.onclose = () => {
      this.closed = true
      this.server._connections.delete(this)
      for (const r of this.running.values()) r.abort()
      this.pending.rejectAll(new Error('The transport was closed'))
      previousClose?.()
    }
    await t.start?.()
  }

  send(message) {
    if (this.closed) return
    Promise.resolve(this.transport.send(message)).catch(() => {})
  }

  request(message, options) {
    return this.pending.request((m) => this.send(m), message, options)
  }

  receive(message) {
    if (!message || typeof message !== 'object') return
    let action
    try {
      action = JSON.parse(this.server.native().handle(this.server.name, JSON.stringify(message)))
    } catch (e) {
      if ('id' in message && 'method' in message) this.send({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: errorText(e) } })
      return
    }
    if (action.reply !== undefined) {
      // Notifications get no answer over a real transport.
      if ('id' in message && 'method' in message) this.send(action.reply)
    } else if (action.cancel !== undefined) {
      this.running.get(JSON.stringify(action.cancel))?.abort()
    } else if (action.notify !== undefined) {
      const m = action.notify.message
      if (!('method' in m)) this.pending.settle(m)
    } else if (action.call !== undefined) {
      const key = JSON.stringify(message.id)
      const running = new Running()
      this.running.set(key, running)
      runMcpCall(this.server, action.call, running, this)
        .then((text) => {
          const a = JSON.parse(text)
          if (!running.signal.aborted) this.send({ jsonrpc: '2.0', id: message.id, ...(a.error ? { error: a.error } : { result: a.result }) })
        }, (e) => this.send({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: errorText(e) } }))
        .finally(() => this.running.delete(key))
    }
  }

  async close() {
    if (this.closed) return
    this.closed = true
    await this.transport.close?.()
  }
}

/** The transport a foreign server is connected to, for one query (the official SDK's SdkControlServerTransport). */
class QueryTransport {
  constructor(onSend) {
    this.onSend = onSend
    this.closed = false
    this.onmessage = undefined
    this.onclose = undefined
    this.onerror = undefined
  }

  async start() {}

  async send(message) {
    if (this.closed) throw new Error('Transport is closed')
    this.onSend(message)
  }

  async close() {
    if (this.closed) return
    this.closed = true
    this.onclose?.()
  }
}

class ForeignServer {
  constructor(instance, name) {
    this.instance = instance
    this.name = name
    this._native = undefined
    this.transport = undefined
    this.link = undefined
    this.servedAs = undefined
    this.calls = new Map()
    this.connected = false
  }

  native() {
    if (!this._native) this._native = loadNative().NativeMcpServer.forwarding(this.name)
    return this._native
  }

  /** Connects the server object to this query's session. */
  connectTo(link, servedAs) {
    this.link = link
    this.servedAs = servedAs
    this.connected = true
    this.transport = new QueryTransport((message) => this.fromServer(message))
    let connecting
    try {
      connecting = Promise.resolve(this.instance.connect(this.transport))
    } catch (e) {
      connecting = Promise.reject(e)
    }
    connecting.catch((e) => {
      process.emitWarning(`claude-agent-sdk-native: failed to connect the MCP server ${JSON.stringify(servedAs)}: ${errorText(e)}`, { code: 'CLAUDE_AGENT_SDK_NATIVE_MCP_CONNECT' })
    })
  }

  /** A message the server sent: the answer to a forwarded request, or its own message to the CLI. */
  fromServer(message) {
    if (message && typeof message === 'object' && 'id' in message && !('method' in message)) {
      const call = this.calls.get(JSON.stringify(message.id))
      if (call) {
        call(message)
        return
      }
    }
    this.link?.send(this.servedAs, message)
  }

  /** A notification (or a response to the server's own request) from the CLI. */
  deliver(message) {
    this.transport?.onmessage?.(message)
  }

  /** A request from the CLI: resolves with `{"result"}` / `{"error"}` JSON text once the server answers. */
  forward(message, running) {
    const transport = this.transport
    if (!transport || transport.closed || typeof transport.onmessage !== 'function') {
      return Promise.resolve(JSON.stringify({ error: { code: -32603, message: `MCP server ${this.servedAs} is not connected` } }))
    }
    const key = JSON.stringify(message.id)
    return new Promise((resolve) => {
      const onAbort = () => {
        this.calls.delete(key)
        transport.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: message.id, reason: 'The request was cancelled' } })
        resolve(JSON.stringify({ error: { code: -32800, message: 'Request cancelled' } }))
      }
      this.calls.set(key, (response) => {
        this.calls.delete(key)
        running.signal.removeEventListener('abort', onAbort)
        resolve(JSON.stringify(response.error ? { error: response.error } : { result: response.result ?? {} }))
      })
      running.signal.addEventListener('abort', onAbort, { once: true })
      try {
        transport.onmessage(message)
      } catch (e) {
        this.calls.delete(key)
        resolve(JSON.stringify({ error: { code: -32603, message: errorText(e) } }))
      }
    })
  }

  /** The query ended: close the transport (the server may then be connected elsewhere). */
  disconnect(link) {
    if (link !== this.link) return
    const t = this.transport
    this.transport = undefined
    this.link = undefined
    t?.close().catch(() => {})
  }
}

module.exports = { TransportConnection, ForeignServer, QueryTransport }
