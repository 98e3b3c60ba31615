'use strict'
// createSdkMcpServer(): the tools live here, in JS; their listing (names, JSON Schemas) is
// computed once and handed to the native engine, which answers the CLI's MCP handshake and
// tools/list itself and only calls back into JS for tools/call.
const { loadNative } = require('./native')
const { compileInputSchema, UNCONVERTIBLE_WARNING_CODE } = require('./schema')

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
    /** @type {Map<string, {definition: object, schema: object}>} */
    this.tools = new Map()
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
      const schema = compileInputSchema(definition.name, definition.inputSchema)
      if (schema.kind === 'zod4') require('./schema/zod-loader').preloadZod4()
      this.tools.set(definition.name, { definition, schema })
    }
    this._native = undefined
    // Warm up off the query's critical path: once zod is loaded (as ESM), or on the next turn
    // of the event loop, compute the manifest and load the engine, so the first query() starts
    // at once. A failure here is left for query() to report.
    const warm = () => { try { this.native() } catch {} }
    const loading = require('./schema/zod-loader').pendingPreload()
    if (loading) loading.then(warm)
    else setImmediate(warm)
  }

  /** The tools/list entries, in the shape and key order the official server lists them. */
  listTools() {
    const out = []
    for (const { definition, schema } of this.tools.values()) {
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
      out.push(entry)
    }
    this._warned = true
    return out
  }

  /** The native twin, built on first use (so defining servers costs nothing native). */
  native() {
    if (!this._native) {
      const { NativeMcpServer } = loadNative()
      this._native = new NativeMcpServer(JSON.stringify({
        name: this.name,
        version: this.version,
        instructions: this.instructions,
        tools: this.listTools(),
        // Plain JSON Schema tools: the engine checks their arguments before they cross to JS.
        argsChecks: Object.fromEntries([...this.tools].filter(([, t]) => t.schema.kind === 'json').map(([name, t]) => [name, t.schema.jsonSchema])),
      }))
    }
    return this._native
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
