// @ts-check
// In-process MCP servers of a query: each server object is attached with
// `instance.connect(transport)` to a transport of ours, as the official SDK does, so a server
// from createSdkMcpServer() and any MCP SDK server object work alike. The remote session's
// `mcp_message` requests go into the transport; the server's answer to a request becomes the
// control response, and whatever else it sends (notifications, its own requests) goes to the
// session as an `mcp_message` control request of ours.

const SERVER_NOT_FOUND = 'SDK MCP server not found'

/** The transport handed to `instance.connect()`. */
class InProcessTransport {
  #send
  #closed = false
  constructor(send) {
    this.#send = send
  }
  async start() {}
  async send(message) {
    if (this.#closed) throw new Error('Transport is closed')
    this.#send(message)
  }
  async close() {
    if (this.#closed) return
    this.#closed = true
    const transport = /** @type {{ onclose?: () => void }} */ (this) // onclose: set by the server it is connected to
    transport.onclose?.()
  }
}

/** The per-server settings the official sends in `sdkMcpServerConfigs` (well-formed ones only). */
function settingsOf(config) {
  const settings = {}
  if (typeof config.timeout === 'number' && Number.isInteger(config.timeout) && config.timeout > 0) settings.timeout = config.timeout
  if (config.disableAutoBackground === true) settings.disableAutoBackground = true
  if (Array.isArray(config.tools)) {
    settings.tools = config.tools.flatMap((t) => {
      if (typeof t !== 'object' || t === null || typeof t.name !== 'string') return []
      const policy = t.permission_policy
      if (policy === undefined) return [{ name: t.name }]
      return [{ name: t.name, permission_policy: ['always_allow', 'always_ask', 'always_deny'].includes(policy) ? policy : 'always_ask' }]
    })
  }
  if (typeof config.connectorId === 'string' && config.connectorId !== '') settings.connectorId = config.connectorId
  return settings
}

export class McpRouter {
  #servers = new Map()
  #pending = new Map()
  #write

  /** @param {(frame: object) => Promise<void>} write sends a frame to the session */
  constructor(write) {
    this.#write = write
  }

  get size() {
    return this.#servers.size
  }

  names() {
    return [...this.#servers.keys()]
  }

  has(name) {
    return this.#servers.has(name)
  }

  settingsOf(name) {
    return this.#servers.get(name)?.settings
  }

  /** `sdkMcpServerConfigs` of initialize: the servers that have settings, or undefined. */
  configs() {
    const entries = [...this.#servers].flatMap(([name, { settings }]) => (Object.keys(settings).length > 0 ? [[name, settings]] : []))
    return entries.length > 0 ? Object.fromEntries(entries) : undefined
  }

  connect(name, config) {
    const transport = new InProcessTransport((message) => this.#fromServer(name, message))
    let connecting
    try {
      connecting = Promise.resolve(config.instance.connect(transport))
    } catch (err) {
      connecting = Promise.reject(err)
    }
    const connection = connecting.catch((err) => {
        if (this.#servers.get(name)?.transport === transport) this.#servers.delete(name)
        console.error(`[Query.connectSdkMcpServer] Failed to connect MCP server '${name}': ${err}`)
      })
    this.#servers.set(name, { transport, settings: settingsOf(config), connection })
  }

  async disconnect(name) {
    const entry = this.#servers.get(name)
    if (!entry) return
    await entry.transport.close()
    if (this.#servers.get(name) === entry) this.#servers.delete(name)
  }

  /** Answers an `mcp_message` control request: `{mcp_response}`. */
  async handle(serverName, message) {
    const entry = this.#servers.get(serverName)
    if (!entry) throw new Error(`${SERVER_NOT_FOUND}: ${serverName}`)
    const transport = entry.transport
    const isRequest = 'method' in message && 'id' in message && message.id !== null
    if (!isRequest) {
      transport.onmessage?.(message)
      return { mcp_response: { jsonrpc: '2.0', result: {}, id: 0 } }
    }
    await entry.connection
    const key = `${serverName}:${message.id}`
    const response = await new Promise((resolve, reject) => {
      this.#pending.set(key, { resolve, reject })
      if (!transport.onmessage) {
        this.#pending.delete(key)
        reject(new Error('No message handler registered'))
        return
      }
      transport.onmessage(message)
    })
    return { mcp_response: response }
  }

  #fromServer(name, message) {
    if ('id' in message && message.id !== null && message.id !== undefined) {
      const key = `${name}:${message.id}`
      const waiter = this.#pending.get(key)
      if (waiter) {
        this.#pending.delete(key)
        waiter.resolve(message)
        return
      }
    }
    const frame = { type: 'control_request', request_id: crypto.randomUUID(), request: { subtype: 'mcp_message', server_name: name, message } }
    this.#write(frame).catch((err) => console.error(`[Query.sendMcpServerMessageToCli] Transport write failed: ${err}`))
  }

  closeAll(err) {
    for (const { reject } of this.#pending.values()) reject(err)
    this.#pending.clear()
    for (const { transport } of this.#servers.values()) transport.close().catch(() => {})
    this.#servers.clear()
  }
}
