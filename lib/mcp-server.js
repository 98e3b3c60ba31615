// @ts-check
'use strict'
// createSdkMcpServer(): the tools, resources and prompts live here, in JS, with the McpServer
// API of @modelcontextprotocol/sdk (tool/registerTool, resource/registerResource,
// prompt/registerPrompt, handles with enable/disable/update/remove, connect/close). Their
// listings (names, JSON Schemas) are computed on each change and handed to the native engine,
// which answers the CLI's MCP handshake and lists itself and only calls back into JS for the
// requests that run user code (tools/call, resources/read, prompts/get). A change made while
// queries use the server is announced to each of them (notifications/*/list_changed).
const { loadNative } = require('./native')
const { compileInputSchema, UNCONVERTIBLE_WARNING_CODE } = require('./schema')
const { isRawShape, isZodSchema } = require('./schema/detect')
const { inputValidationMessage } = require('./schema/messages')

const LIST_CHANGED = {
  tools: 'notifications/tools/list_changed',
  resources: 'notifications/resources/list_changed',
  prompts: 'notifications/prompts/list_changed',
}

/**
 * A schema used for something other than a tool's input (an outputSchema, a prompt's
 * arguments): compiled as an input schema, its validation failure reported as the bare detail.
 */
function compilePart(label, schema) {
  const compiled = compileInputSchema(label, schema)
  if (compiled.kind === 'zod4') require('./schema/zod-loader').preloadZod4(schema)
  const prefix = inputValidationMessage(label, '')
  return {
    compiled,
    get jsonSchema() { return compiled.jsonSchema },
    async validate(value) {
      const r = await compiled.validate(value)
      if (r.ok) return r
      return { ok: false, message: r.message, detail: r.message.startsWith(prefix) ? r.message.slice(prefix.length) : r.message }
    },
  }
}

/** A URI template (RFC 6570, the simple `{var}` / `{+var}` forms) matched the MCP SDK's way. */
function templateMatcher(template) {
  if (template && typeof template.match === 'function') return (uri) => template.match(uri)
  const text = String(template)
  const names = []
  const pattern = text.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{([+#]?)([^}]+)\\?\}/g, (_, op, name) => {
    names.push(name)
    return op ? '(.+)' : '([^/]+)'
  })
  const re = new RegExp(`^${pattern.replace(/\\\{|\\\}/g, '')}$`)
  return (uri) => {
    const m = re.exec(uri)
    if (!m) return null
    const out = {}
    names.forEach((n, i) => { out[n] = decodeURIComponent(m[i + 1]) })
    return out
  }
}

/** A prompt's `arguments` for prompts/list, from its argument schema (zod raw shape or JSON Schema). */
function promptArguments(argsSchema) {
  if (!argsSchema) return undefined
  if (isRawShape(argsSchema)) {
    return Object.entries(argsSchema).map(([name, field]) => ({
      name,
      description: field?.description,
      required: !(typeof field?.isOptional === 'function' && field.isOptional()),
    }))
  }
  if (typeof argsSchema === 'object' && argsSchema.properties) {
    const required = new Set(argsSchema.required ?? [])
    return Object.entries(argsSchema.properties).map(([name, p]) => ({ name, description: p?.description, required: required.has(name) }))
  }
  return undefined
}

function checkName(what, name) {
  if (typeof name !== 'string' || name === '') throw new TypeError(`${what}: the name must be a non-empty string`)
}

function checkCallback(what, name, cb) {
  if (typeof cb !== 'function') throw new TypeError(`${what}(${JSON.stringify(name)}): the callback must be a function`)
}

/** The `instance` of an in-process server config. One instance may serve many queries at once. */
class SdkMcpServer {
  constructor(options) {
    if (!options || typeof options.name !== 'string' || options.name === '') {
      throw new TypeError('createSdkMcpServer: `name` must be a non-empty string')
    }
    this.name = options.name
    this.version = options.version ?? '1.0.0'
    this.instructions = options.instructions
    this.alwaysLoad = Boolean(options.alwaysLoad)
    /** @type {Map<string, {definition: any, schema: import('./schema/index').CompiledInputSchema, output?: ReturnType<typeof compilePart>, enabled: boolean}>} */
    this.tools = new Map()
    /** Static resources by URI. */
    this.resources = new Map()
    /** Resource templates by name. */
    this.resourceTemplates = new Map()
    this.prompts = new Map()
    this._capabilities = { resources: false, prompts: false }
    /** Sessions using this server: link → the names it is served under there. */
    this._links = new Map()
    /** Transports given to connect(). */
    this._connections = new Set()
    this._building = true
    for (const [i, definition] of (options.tools ?? []).entries()) {
      if (!definition || typeof definition.name !== 'string' || definition.name === '') {
        throw new TypeError(`createSdkMcpServer(${JSON.stringify(this.name)}): tools[${i}] has no name`)
      }
      if (typeof definition.handler !== 'function') {
        throw new TypeError(`createSdkMcpServer(${JSON.stringify(this.name)}): tool ${JSON.stringify(definition.name)} has no handler function`)
      }
      if (this.tools.has(definition.name)) {
        throw new TypeError(`createSdkMcpServer(${JSON.stringify(this.name)}): the tool ${JSON.stringify(definition.name)} is defined twice`)
      }
      this._addTool(definition)
    }
    this._building = false
    this._native = undefined
    // Warm up off the query's critical path: once zod is loaded (as ESM), or on the next turn
    // of the event loop, compute the manifest and load the engine, so the first query() starts
    // at once. A failure here is left for query() to report.
    const warm = () => { try { this.native() } catch {} }
    const loading = require('./schema/zod-loader').pendingPreload()
    if (loading) {
      // The engine loads while zod's modules are read (the main thread waits for those reads).
      setImmediate(() => { try { loadNative() } catch {} })
      loading.then(warm)
    } else {
      setImmediate(warm)
    }
  }

  // ---- tools ----

  _addTool(definition) {
    const schema = compileInputSchema(definition.name, definition.inputSchema)
    // zod itself is loaded ahead only when the listing needs it; else on a call zod must check.
    if (schema.kind === 'zod4' && !schema.convertsWithoutZod?.()) require('./schema/zod-loader').preloadZod4(definition.inputSchema)
    const output = definition.outputSchema ? compilePart(definition.name, definition.outputSchema) : undefined
    const entry = { definition, schema, output, enabled: true }
    this.tools.set(definition.name, entry)
    return entry
  }

  /**
   * McpServer.registerTool(name, {title, description, inputSchema, outputSchema, annotations,
   * _meta}, handler) → a handle with enable(), disable(), update(), remove().
   */
  registerTool(name, config, handler) {
    checkName('registerTool', name)
    checkCallback('registerTool', name, handler)
    if (this.tools.has(name)) throw new Error(`Tool ${name} is already registered`)
    const c = config ?? {}
    this._addTool({ name, title: c.title, description: c.description, inputSchema: c.inputSchema, outputSchema: c.outputSchema, annotations: c.annotations, _meta: c._meta, handler })
    this._changed('tools')
    return this._toolHandle(name)
  }

  /**
   * McpServer.tool(name, description?, paramsSchemaOrAnnotations?, annotations?, handler), the
   * older overloads.
   */
  tool(name, ...rest) {
    checkName('tool', name)
    if (this.tools.has(name)) throw new Error(`Tool ${name} is already registered`)
    let description
    let inputSchema
    let annotations
    if (typeof rest[0] === 'string') description = rest.shift()
    if (rest.length > 1) {
      const first = rest[0]
      if (isRawShape(first) || (first && typeof first === 'object' && isZodSchema(first))) {
        inputSchema = rest.shift()
        if (rest.length > 1 && rest[0] && typeof rest[0] === 'object' && !isRawShape(rest[0])) annotations = rest.shift()
      } else if (first && typeof first === 'object') {
        annotations = rest.shift()
      }
    }
    const handler = rest[0]
    checkCallback('tool', name, handler)
    this._addTool({ name, description, inputSchema, annotations, handler })
    this._changed('tools')
    return this._toolHandle(name)
  }

  _toolHandle(name) {
    const server = this
    let current = name
    const entry = () => server.tools.get(current)
    return {
      get enabled() { return entry()?.enabled ?? false },
      get title() { return entry()?.definition.title },
      get description() { return entry()?.definition.description },
      get handler() { return entry()?.definition.handler },
      enable() { this.update({ enabled: true }) },
      disable() { this.update({ enabled: false }) },
      remove() { this.update({ name: null }) },
      update(updates) {
        const e = entry()
        if (!e) return
        if (updates.name === null) {
          server.tools.delete(current)
          server._changed('tools')
          return
        }
        const d = { ...e.definition }
        for (const k of ['title', 'description', 'annotations', '_meta', 'inputSchema', 'outputSchema']) {
          if (k in updates) d[k] = updates[k]
        }
        if (updates.paramsSchema !== undefined) d.inputSchema = updates.paramsSchema
        if (updates.callback !== undefined) d.handler = updates.callback
        if (updates.handler !== undefined) d.handler = updates.handler
        let enabled = e.enabled
        if (updates.enabled !== undefined) enabled = Boolean(updates.enabled)
        if (typeof updates.name === 'string' && updates.name !== current) {
          if (server.tools.has(updates.name)) throw new Error(`Tool ${updates.name} is already registered`)
          server.tools.delete(current)
          current = updates.name
          d.name = current
        }
        const next = server._addTool(d)
        next.enabled = enabled
        server._changed('tools')
      },
    }
  }

  // ---- resources ----

  /** McpServer.resource(name, uriOrTemplate, metadata?, readCallback). */
  resource(name, uriOrTemplate, ...rest) {
    let metadata
    if (typeof rest[0] === 'object') metadata = rest.shift()
    return this._addResource(name, uriOrTemplate, metadata, rest[0], 'resource')
  }

  /** McpServer.registerResource(name, uriOrTemplate, config, readCallback). */
  registerResource(name, uriOrTemplate, config, readCallback) {
    return this._addResource(name, uriOrTemplate, config, readCallback, 'registerResource')
  }

  _addResource(name, uriOrTemplate, metadata, readCallback, what) {
    checkName(what, name)
    checkCallback(what, name, readCallback)
    const meta = metadata ? { ...metadata } : undefined
    const title = meta?.title
    if (meta) delete meta.title
    if (typeof uriOrTemplate === 'string') {
      if (this.resources.has(uriOrTemplate)) throw new Error(`Resource ${uriOrTemplate} is already registered`)
      const entry = { name, title, metadata: meta, readCallback, enabled: true }
      this.resources.set(uriOrTemplate, entry)
      this._capabilities.resources = true
      this._changed('resources')
      return this._resourceHandle(uriOrTemplate)
    }
    if (!uriOrTemplate || uriOrTemplate.uriTemplate === undefined) {
      throw new TypeError(`${what}(${JSON.stringify(name)}): expected a URI string or a ResourceTemplate`)
    }
    if (this.resourceTemplates.has(name)) throw new Error(`Resource template ${name} is already registered`)
    const entry = { name, title, metadata: meta, readCallback, resourceTemplate: uriOrTemplate, match: templateMatcher(uriOrTemplate.uriTemplate), enabled: true }
    this.resourceTemplates.set(name, entry)
    this._capabilities.resources = true
    this._changed('resources')
    return this._templateHandle(name)
  }

  _resourceHandle(uri) {
    const server = this
    let current = uri
    return {
      get enabled() { return server.resources.get(current)?.enabled ?? false },
      get name() { return server.resources.get(current)?.name },
      enable() { this.update({ enabled: true }) },
      disable() { this.update({ enabled: false }) },
      remove() { this.update({ uri: null }) },
      update(updates) {
        const e = server.resources.get(current)
        if (!e) return
        if (updates.uri === null) {
          server.resources.delete(current)
        } else {
          if (typeof updates.uri === 'string' && updates.uri !== current) {
            server.resources.delete(current)
            current = updates.uri
            server.resources.set(current, e)
          }
          if (updates.name !== undefined) e.name = updates.name
          if (updates.title !== undefined) e.title = updates.title
          if (updates.metadata !== undefined) e.metadata = updates.metadata
          if (updates.callback !== undefined) e.readCallback = updates.callback
          if (updates.enabled !== undefined) e.enabled = Boolean(updates.enabled)
        }
        server._changed('resources')
      },
    }
  }

  _templateHandle(name) {
    const server = this
    let current = name
    return {
      get enabled() { return server.resourceTemplates.get(current)?.enabled ?? false },
      enable() { this.update({ enabled: true }) },
      disable() { this.update({ enabled: false }) },
      remove() { this.update({ name: null }) },
      update(updates) {
        const e = server.resourceTemplates.get(current)
        if (!e) return
        if (updates.name === null) {
          server.resourceTemplates.delete(current)
        } else {
          if (typeof updates.name === 'string' && updates.name !== current) {
            server.resourceTemplates.delete(current)
            current = updates.name
            e.name = current
            server.resourceTemplates.set(current, e)
          }
          if (updates.template !== undefined) {
            e.resourceTemplate = updates.template
            e.match = templateMatcher(updates.template.uriTemplate)
          }
          if (updates.title !== undefined) e.title = updates.title
          if (updates.metadata !== undefined) e.metadata = updates.metadata
          if (updates.callback !== undefined) e.readCallback = updates.callback
          if (updates.enabled !== undefined) e.enabled = Boolean(updates.enabled)
        }
        server._changed('resources')
      },
    }
  }

  /** The resource (or template, with its variables) a URI names, as resources/read finds it. */
  _findResource(uri) {
    const entry = this.resources.get(uri)
    if (entry) return entry.enabled ? { entry } : undefined
    for (const t of this.resourceTemplates.values()) {
      if (!t.enabled) continue
      const variables = t.match(uri)
      if (variables) return { entry: t, variables }
    }
    return undefined
  }

  /** resources/list when a template lists resources (runs its list callback). */
  async _listResources(extra) {
    const out = this._staticResources()
    for (const t of this.resourceTemplates.values()) {
      const list = t.enabled ? t.resourceTemplate.listCallback : undefined
      if (typeof list !== 'function') continue
      const result = await list(extra)
      for (const r of result?.resources ?? []) out.push({ ...t.metadata, ...r })
    }
    return { resources: out }
  }

  _staticResources() {
    const out = []
    for (const [uri, r] of this.resources) {
      if (!r.enabled) continue
      out.push({ uri, name: r.name, ...(r.title !== undefined && { title: r.title }), ...r.metadata })
    }
    return out
  }

  // ---- prompts ----

  /** McpServer.prompt(name, description?, argsSchema?, callback). */
  prompt(name, ...rest) {
    let description
    if (typeof rest[0] === 'string') description = rest.shift()
    let argsSchema
    if (rest.length > 1) argsSchema = rest.shift()
    return this._addPrompt(name, { description, argsSchema }, rest[0], 'prompt')
  }

  /** McpServer.registerPrompt(name, {title, description, argsSchema}, callback). */
  registerPrompt(name, config, callback) {
    return this._addPrompt(name, config ?? {}, callback, 'registerPrompt')
  }

  _addPrompt(name, config, callback, what) {
    checkName(what, name)
    checkCallback(what, name, callback)
    if (this.prompts.has(name)) throw new Error(`Prompt ${name} is already registered`)
    this._setPrompt(name, { title: config.title, description: config.description, argsSchema: config.argsSchema, callback, enabled: true })
    this._capabilities.prompts = true
    this._changed('prompts')
    return this._promptHandle(name)
  }

  _setPrompt(name, p) {
    p.args = p.argsSchema ? compilePart(name, p.argsSchema) : undefined
    this.prompts.set(name, p)
  }

  _promptHandle(name) {
    const server = this
    let current = name
    return {
      get enabled() { return server.prompts.get(current)?.enabled ?? false },
      enable() { this.update({ enabled: true }) },
      disable() { this.update({ enabled: false }) },
      remove() { this.update({ name: null }) },
      update(updates) {
        const e = server.prompts.get(current)
        if (!e) return
        if (updates.name === null) {
          server.prompts.delete(current)
        } else {
          const p = { ...e }
          if (typeof updates.name === 'string' && updates.name !== current) {
            server.prompts.delete(current)
            current = updates.name
          }
          for (const k of ['title', 'description', 'argsSchema', 'callback']) if (k in updates) p[k] = updates[k]
          if (updates.enabled !== undefined) p.enabled = Boolean(updates.enabled)
          server._setPrompt(current, p)
        }
        server._changed('prompts')
      },
    }
  }

  // ---- listings and the native twin ----

  /** The tools/list entries, in the shape and key order the official server lists them. */
  listTools() {
    const out = []
    for (const { definition, schema, output, enabled } of this.tools.values()) {
      if (!enabled) continue
      if (schema.jsonSchema === undefined) {
        // As the official server: a tool whose schema has no JSON Schema form is left out, once
        // said; the server's other tools are unaffected.
        const warning = schema.conversionWarning(this.name)
        if (warning && !this._warned) process.emitWarning(warning, { code: UNCONVERTIBLE_WARNING_CODE })
        continue
      }
      const entry = { name: definition.name }
      if (definition.title !== undefined) entry.title = definition.title
      entry.description = definition.description
      entry.inputSchema = schema.jsonSchema
      if (definition.annotations !== undefined) entry.annotations = definition.annotations
      entry.execution = { taskSupport: 'forbidden' }
      const meta = this.alwaysLoad ? { 'anthropic/alwaysLoad': true, ...definition._meta } : definition._meta
      if (meta !== undefined) entry._meta = meta
      if (output && output.jsonSchema !== undefined) entry.outputSchema = output.jsonSchema
      out.push(entry)
    }
    this._warned = true
    return out
  }

  _spec() {
    const templates = [...this.resourceTemplates.values()].filter((t) => t.enabled)
    return JSON.stringify({
      name: this.name,
      version: this.version,
      instructions: this.instructions,
      tools: this.listTools(),
      // Tools with a plain JSON Schema (given, or a zod schema's twin): the engine checks their
      // arguments before they cross to JS.
      argsChecks: Object.fromEntries([...this.tools].filter(([, t]) => t.enabled && t.schema.argsCheck !== undefined).map(([name, t]) => [name, t.schema.argsCheck])),
      resources: this._staticResources(),
      resourceTemplates: templates.map((t) => ({ name: t.name, uriTemplate: String(t.resourceTemplate.uriTemplate), ...(t.title !== undefined && { title: t.title }), ...t.metadata })),
      resourcesListInHost: templates.some((t) => typeof t.resourceTemplate.listCallback === 'function'),
      prompts: [...this.prompts].filter(([, p]) => p.enabled).map(([name, p]) => ({
        name,
        ...(p.title !== undefined && { title: p.title }),
        ...(p.description !== undefined && { description: p.description }),
        ...(p.argsSchema && { arguments: promptArguments(p.argsSchema) }),
      })),
      capabilities: this._capabilities,
    })
  }

  /** The native twin, built on first use (so defining servers costs nothing native). */
  native() {
    if (!this._native) {
      const { NativeMcpServer } = loadNative()
      this._native = new NativeMcpServer(this._spec())
    }
    return this._native
  }

  /** Something was registered, changed or removed: new listings, and every user told. */
  _changed(kind) {
    if (this._building) return
    if (this._native) this._native.update(this._spec())
    this._notify(LIST_CHANGED[kind])
  }

  _notify(method) {
    const message = { jsonrpc: '2.0', method }
    for (const [link, names] of this._links) {
      for (const name of names) link.send(name, message)
    }
    for (const c of this._connections) c.send(message)
  }

  /** A query's session starts (or stops) using this server under `name`. */
  _subscribe(link, name) {
    let names = this._links.get(link)
    if (!names) this._links.set(link, (names = new Set()))
    names.add(name)
  }

  _unsubscribe(link) {
    this._links.delete(link)
  }

  sendToolListChanged() {
    this._notify(LIST_CHANGED.tools)
  }

  sendResourceListChanged() {
    this._notify(LIST_CHANGED.resources)
  }

  sendPromptListChanged() {
    this._notify(LIST_CHANGED.prompts)
  }

  /** True while a query uses this server or a transport is connected to it. */
  isConnected() {
    return this._links.size > 0 || this._connections.size > 0
  }

  /**
   * Serves this server over any MCP transport (as McpServer.connect): the official SDK's query()
   * and another copy of this package connect servers this way.
   */
  async connect(transport) {
    const { TransportConnection } = require('./mcp-connect')
    const connection = new TransportConnection(this, transport)
    this._connections.add(connection)
    await connection.start()
  }

  /** Closes the transports given to connect(). Queries using the server are not affected. */
  async close() {
    const all = [...this._connections]
    this._connections.clear()
    await Promise.all(all.map((c) => c.close()))
  }

  /**
   * The only live user's channel. (No AsyncLocalStorage to find the call's own session: enabling
   * it would slow every promise of the app; handlers have extra.sendRequest for that.)
   */
  _channel() {
    const users = []
    for (const [link, names] of this._links) for (const name of names) users.push(link.channel(name))
    for (const c of this._connections) users.push(c)
    if (users.length === 1) return users[0]
    throw new Error(users.length === 0
      ? `MCP server ${this.name} is not connected to Claude Code`
      : `MCP server ${this.name} is used by several sessions: call this from inside a handler, or use extra.sendRequest`)
  }

  /** Server.elicitInput(): asks the user through the CLI (MCP elicitation/create). */
  async elicitInput(params, options) {
    return this._channel().request({ jsonrpc: '2.0', method: 'elicitation/create', params: { mode: 'form', ...params } }, options)
  }

  /** Server.sendLoggingMessage(): a notifications/message to the CLI. */
  async sendLoggingMessage(params) {
    this._channel().send({ jsonrpc: '2.0', method: 'notifications/message', params })
  }

  /** The low-level server API apps reach as `mcpServer.server` (elicitInput, sendLoggingMessage, request, notification). */
  get server() {
    const self = this
    return {
      elicitInput: (params, options) => self.elicitInput(params, options),
      sendLoggingMessage: (params) => self.sendLoggingMessage(params),
      request: async (request, resultSchema, options) => {
        const r = await self._channel().request({ jsonrpc: '2.0', ...request }, options)
        return resultSchema && typeof resultSchema.parse === 'function' ? resultSchema.parse(r) : r
      },
      notification: async (notification) => self._channel().send({ jsonrpc: '2.0', ...notification }),
    }
  }
}

/** Creates an in-process MCP server, usable in `options.mcpServers` as the official one. */
function createSdkMcpServer(options) {
  const instance = new SdkMcpServer(options)
  const config = { type: 'sdk', name: instance.name, instance }
  const timeout = options.timeout
  if (typeof timeout === 'number' && Number.isInteger(timeout) && timeout > 0) config.timeout = timeout
  return config
}

module.exports = { createSdkMcpServer, SdkMcpServer }
