// @ts-check
// createSdkMcpServer() and tool() of the browser entry: an in-process MCP server with the
// official's config shape ({type: 'sdk', name, instance}). `instance.connect(transport)` is how
// a query attaches it (as it attaches any MCP SDK server object); the server answers
// initialize, ping, tools/list and tools/call, and "Method not found" for anything else.
import { compileInputSchema } from './schema.mjs'

const LATEST_PROTOCOL_VERSION = '2025-11-25'
const SUPPORTED_PROTOCOL_VERSIONS = [LATEST_PROTOCOL_VERSION, '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07']

/** The official tool(): a definition createSdkMcpServer() takes. */
export function tool(name, description, inputSchema, handler, extras) {
  const meta = {}
  if (extras?.searchHint) meta['anthropic/searchHint'] = extras.searchHint
  if (extras?.alwaysLoad) meta['anthropic/alwaysLoad'] = true
  return { name, description, inputSchema, handler, annotations: extras?.annotations, _meta: Object.keys(meta).length > 0 ? meta : undefined }
}

function errorText(err) {
  if (err instanceof Error) return err.message
  try {
    return String(err)
  } catch {
    return Object.prototype.toString.call(err)
  }
}

class BrowserMcpServer {
  #name
  #version
  #instructions
  #alwaysLoad
  #tools = new Map()
  #transports = new Set()

  constructor(config) {
    this.#name = config.name
    this.#version = config.version ?? '1.0.0'
    this.#instructions = config.instructions
    this.#alwaysLoad = config.alwaysLoad === true
    for (const def of config.tools ?? []) {
      if (this.#tools.has(def.name)) throw new Error(`Tool ${def.name} is already registered`)
      this.#tools.set(def.name, { def, schema: compileInputSchema(def.name, def.inputSchema) })
    }
    this.hasTools = config.tools !== undefined
  }

  isConnected() {
    return this.#transports.size > 0
  }

  async connect(transport) {
    this.#transports.add(transport)
    const inFlight = new Map()
    transport.onclose = () => {
      this.#transports.delete(transport)
      for (const c of inFlight.values()) c.abort()
    }
    transport.onmessage = (message) => {
      if (message === null || typeof message !== 'object' || typeof message.method !== 'string') return
      if (message.id === undefined || message.id === null) {
        // notifications/cancelled aborts the handler's signal; its answer is then never sent.
        if (message.method === 'notifications/cancelled') inFlight.get(message.params?.requestId)?.abort(message.params?.reason)
        return
      }
      const controller = new AbortController()
      inFlight.set(message.id, controller)
      const sendNotification = async (notification) => {
        if (!controller.signal.aborted) await transport.send({ ...notification, jsonrpc: '2.0' })
      }
      // As the MCP SDK's Protocol: {result, jsonrpc, id}, or {jsonrpc, id, error}.
      this.#handle(message, { signal: controller.signal, requestId: message.id, _meta: message.params?._meta, sendNotification })
        .then(
          (result) => !controller.signal.aborted && transport.send({ result, jsonrpc: '2.0', id: message.id }),
          (err) => !controller.signal.aborted && transport.send({
            jsonrpc: '2.0',
            id: message.id,
            error: { code: Number.isSafeInteger(err?.code) ? err.code : -32603, message: err?.message ?? 'Internal error' },
          }),
        )
        .catch(() => {})
        .finally(() => {
          if (inFlight.get(message.id) === controller) inFlight.delete(message.id)
        })
    }
    await transport.start?.()
  }

  async close() {
    for (const t of [...this.#transports]) await t.close?.()
  }

  listTools() {
    const tools = []
    for (const { def, schema } of this.#tools.values()) {
      const entry = { name: def.name, description: def.description, inputSchema: schema.jsonSchema }
      if (def.annotations !== undefined) entry.annotations = def.annotations
      entry.execution = { taskSupport: 'forbidden' }
      const meta = this.#alwaysLoad ? { 'anthropic/alwaysLoad': true, ...def._meta } : def._meta
      if (meta !== undefined) entry._meta = meta
      tools.push(entry)
    }
    return tools
  }

  async #handle(message, extra) {
    const params = message.params ?? {}
    switch (message.method) {
      case 'initialize': {
        const requested = params.protocolVersion
        return {
          protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION,
          capabilities: this.hasTools ? { tools: { listChanged: true } } : {},
          serverInfo: { name: this.#name, version: this.#version },
          ...(this.#instructions !== undefined && { instructions: this.#instructions }),
        }
      }
      case 'ping':
        return {}
      case 'tools/list':
        if (!this.hasTools) break
        return { tools: this.listTools() }
      case 'tools/call': {
        if (!this.hasTools) break
        const entry = this.#tools.get(params.name)
        if (!entry) return { content: [{ type: 'text', text: `MCP error -32602: Tool ${params.name} not found` }], isError: true }
        const checked = await entry.schema.validate(params.arguments)
        if (!checked.ok) return { content: [{ type: 'text', text: checked.message }], isError: true }
        try {
          const result = entry.schema.passArgs ? await entry.def.handler(checked.value, extra) : await entry.def.handler(extra)
          return result
        } catch (err) {
          return { content: [{ type: 'text', text: errorText(err) }], isError: true }
        }
      }
    }
    const err = /** @type {Error & { code?: number }} */ (new Error('Method not found'))
    err.code = -32601
    throw err
  }
}

/** The official createSdkMcpServer(): `{type: 'sdk', name, instance}` for `mcpServers`. */
export function createSdkMcpServer(config) {
  const instance = new BrowserMcpServer(config)
  const timeout = typeof config.timeout === 'number' && Number.isInteger(config.timeout) && config.timeout > 0 ? config.timeout : undefined
  return { type: 'sdk', name: config.name, instance, ...(timeout !== undefined && { timeout }) }
}
