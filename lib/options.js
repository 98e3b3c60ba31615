// @ts-check
'use strict'
// Splits the official Options into what the native engine needs (plain data, as JSON) and what
// stays in JS (callbacks, live objects). Checking types and mapping to CLI flags is the
// engine's job; this only separates and resolves.
const { SdkMcpServer } = require('./mcp-server')
const { knownKeys, dataKeys, NOT_IMPLEMENTED } = require('./option-keys')
const { warnMcpServersOnArgv, warnCanUseToolShadowed, agentsForCli, checkWorkspaceTrust } = require('./notices')

const INHERIT_NEVER = new Set(['CLAUDE_CODE_QUESTION_EXTENDED', 'CLAUDE_CODE_QUESTION_OPTIONAL_DESCRIPTIONS', 'CLAUDE_CODE_AGENT_PROGRESS_SUMMARIES'])
const FUNCTION_KEYS = ['canUseTool', 'stderr', 'spawnClaudeCodeProcess', 'onElicitation', 'onUserDialog', 'getOAuthToken', 'getHostAuthToken', 'hostSpawn']
/** @type {Set<string>} */
const warned = new Set()
/** @type {Set<string>} */
const warnedUnknown = new Set()

/**
 * Unknown keys and ill-typed callbacks fail before anything is spawned.
 * @param {unknown} options
 * @returns {asserts options is import('./types').QueryOptions}
 */
function checkOptions(options) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError('query(): `options` must be an object')
  }
  const known = knownKeys()
  const byKey = /** @type {Record<string, unknown>} */ (options)
  const opts = /** @type {import('./types').QueryOptions} */ (options)
  for (const key of Object.keys(options)) {
    if (!known.has(key)) {
      // The official SDK ignores keys it does not know, and real apps pass legacy ones
      // (`appendSystemPrompt`, ...): ignored too, with one warning per key.
      if (!warnedUnknown.has(key)) {
        warnedUnknown.add(key)
        process.emitWarning(`Unknown option \`${key}\` (not an option of @anthropic-ai/claude-agent-sdk 0.3.x); it is ignored`, { code: 'CLAUDE_AGENT_SDK_NATIVE_UNKNOWN_OPTION' })
      }
      continue
    }
    if (NOT_IMPLEMENTED.has(key) && byKey[key] !== undefined && !warned.has(key)) {
      warned.add(key)
      process.emitWarning(`claude-agent-sdk-native does not implement the option \`${key}\` yet; it is ignored`, { code: 'CLAUDE_AGENT_SDK_NATIVE_OPTION_IGNORED' })
    }
  }
  for (const key of FUNCTION_KEYS) {
    if (byKey[key] !== undefined && typeof byKey[key] !== 'function') throw new TypeError(`Invalid option \`${key}\`: expected a function`)
  }
  if (Array.isArray(opts.supportedDialogKinds) && opts.supportedDialogKinds.length > 0 && typeof opts.onUserDialog !== 'function') {
    throw new Error('supportedDialogKinds requires an onUserDialog callback -- declaring dialog kinds without a handler would park dialogs nothing can answer. Provide onUserDialog, or omit supportedDialogKinds.')
  }
  const ac = opts.abortController
  if (ac !== undefined && !(ac && ac.signal && typeof ac.signal.addEventListener === 'function')) {
    throw new TypeError('Invalid option `abortController`: expected an AbortController')
  }
  if (opts.env !== undefined && (opts.env === null || typeof opts.env !== 'object')) {
    throw new TypeError('Invalid option `env`: expected an object of strings')
  }
  if (opts.mcpServers !== undefined && (opts.mcpServers === null || typeof opts.mcpServers !== 'object')) {
    throw new TypeError('Invalid option `mcpServers`: expected an object of server configs')
  }
  if (opts.hooks !== undefined && (opts.hooks === null || typeof opts.hooks !== 'object')) {
    throw new TypeError('Invalid option `hooks`: expected an object of hook matchers by event')
  }
}

/**
 * @param {unknown} config an mcpServers entry
 * @returns {config is { type: 'sdk', name?: unknown, instance: any }}
 */
function isSdkServer(config) {
  if (config === null || typeof config !== 'object') return false
  const c = /** @type {{ type?: unknown, instance?: unknown }} */ (config)
  return c.type === 'sdk' && c.instance !== undefined
}

/**
 * @param {unknown} options
 * @returns {{ data: import('./types').EngineOptionData, sdkServers: Map<string, InstanceType<typeof import('./mcp-server').SdkMcpServer>>, hookCallbacks: Map<string, Function> }}
 */
function splitOptions(options) {
  checkOptions(options)
  /** @type {import('./types').EngineOptionData} */
  const data = {}
  const byKey = /** @type {Record<string, unknown>} */ (options)
  for (const key of dataKeys()) {
    const value = byKey[key]
    if (value !== undefined && value !== null) data[key] = value
  }
  // The official SDK hands the child `options.env` as the whole environment, or else its own.
  // `workload` goes to the CLI as `--workload`, after (and over) the app's extraArgs.
  if (options.workload) data.extraArgs = { ...(data.extraArgs ?? {}), workload: options.workload }
  data.env = { ...(options.env ?? process.env) }
  if (options.env === undefined) {
    // Switches only toolConfig may turn on are not inherited from this process's environment.
    for (const k of Object.keys(data.env)) {
      if (INHERIT_NEVER.has(k.toUpperCase())) delete data.env[k]
    }
  }
  data.canUseTool = typeof options.canUseTool === 'function'
  data.onElicitation = typeof options.onElicitation === 'function'
  data.onUserDialog = typeof options.onUserDialog === 'function'
  data.tokenCallbacks = typeof options.getOAuthToken === 'function' || typeof options.getHostAuthToken === 'function'
  // A session store: the engine mirrors the CLI's transcript writes to its append().
  data.sessionStore = Boolean(options.sessionStore)

  const { sdk: sdkServers, processServers } = splitServers(options.mcpServers)
  if (Object.keys(processServers).length > 0) data.mcpServers = processServers
  // The official SDK's notices, in its order.
  warnCanUseToolShadowed(options)
  if (data.agents !== undefined) data.agents = agentsForCli(data.agents)
  warnMcpServersOnArgv(options, processServers)
  const workspaceTrust = checkWorkspaceTrust(options.workspaceTrust, options)
  if (workspaceTrust !== undefined && workspaceTrust !== null) data.workspaceTrust = workspaceTrust

  /** @type {Map<string, Function>} */
  const hookCallbacks = new Map()
  if (options.hooks) {
    /** @type {NonNullable<import('./types').EngineOptionData['hooks']>} */
    const wire = {}
    for (const [event, matchers] of Object.entries(options.hooks)) {
      if (!Array.isArray(matchers) || matchers.length === 0) continue
      wire[event] = matchers.map((m) => {
        const ids = (m.hooks ?? []).map((fn) => {
          if (typeof fn !== 'function') throw new TypeError(`hooks.${event}: every entry of \`hooks\` must be a function`)
          const id = `hook_${hookCallbacks.size}`
          hookCallbacks.set(id, fn)
          return id
        })
        return { matcher: m.matcher, hookCallbackIds: ids, timeout: m.timeout }
      })
    }
    data.hooks = wire
  }
  return { data, sdkServers, hookCallbacks }
}

/**
 * Splits a `setMcpServers()` argument like `options.mcpServers`.
 * @param {Record<string, unknown> | null | undefined} servers
 */
function splitServers(servers) {
  // Servers by name: SdkMcpServer, or ForeignServer (which lib/codex/thread.js tells apart).
  const sdk = new Map()
  /** @type {Record<string, unknown>} */
  const processServers = {}
  for (const [name, config] of Object.entries(servers ?? {})) {
    if (isSdkServer(config)) {
      const instance = config.instance
      if (instance instanceof SdkMcpServer) {
        sdk.set(name, instance)
      } else if (instance && typeof instance.connect === 'function') {
        // Any other MCP server object (an McpServer or Server of @modelcontextprotocol/sdk, a
        // server of another copy of this package): connected to the query through a transport.
        const { ForeignServer } = require('./mcp-connect')
        sdk.set(name, new ForeignServer(instance, typeof config.name === 'string' && config.name ? config.name : name))
      } else {
        throw new TypeError(`mcpServers.${name}: \`instance\` must be an MCP server (an McpServer or Server of @modelcontextprotocol/sdk, or a createSdkMcpServer() server); it has no connect() method`)
      }
    } else {
      processServers[name] = config
    }
  }
  return { sdk, processServers }
}

module.exports = { splitOptions, splitServers }
