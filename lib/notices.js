// @ts-check
'use strict'
// What the official SDK tells the app about the options it was given, worded and emitted as it
// does: the `mcpServersDelivery` deprecation (a `DeprecationWarning`, once per process), a
// `canUseTool` that permission settings shadow, an in-process server in an agent, and the
// debug-log lines (written to stderr only while debug output is on, like the official SDK's
// debug log) for a `workspaceTrust` it sets aside.
const path = require('path')

const MCP_ARGV_DEPRECATED_CODE = 'CLAUDE_SDK_MCP_SERVERS_ARGV_DEPRECATED'
const MCP_ARGV_DEPRECATED = "This app starts its own Claude Code (pathToClaudeCodeExecutable or spawnClaudeCodeProcess) and sets no mcpServersDelivery, so its MCP servers go on Claude Code's command line, where other users of the machine can read their env and headers. That default is deprecated: a future SDK release sends them over stdin instead ('initialize'), which a Claude Code older than the one bundled with this SDK cannot read, so those sessions would then fail to start. Set mcpServersDelivery: 'initialize' once that Claude Code is at least the bundled version, or mcpServersDelivery: 'argv' to stay on the command line. Either setting stops this warning."

let mcpArgvWarned = false

/**
 * Whether `extraArgs` / `executableArgs` give the CLI `--sdk-url` (such a launch keeps `--mcp-config`).
 * @param {import('./types').QueryOptions} options
 */
function hasSdkUrl(options) {
  const extra = options.extraArgs
  const args = Array.isArray(options.executableArgs) ? options.executableArgs : []
  return (extra != null && typeof extra === 'object' && (extra['sdk-url'] !== undefined || Object.keys(extra).some((k) => k.startsWith('sdk-url=')))) ||
    args.some((a) => typeof a === 'string' && /^--sdk-url(=|$)/.test(a))
}

/**
 * The official deprecation of MCP servers on the command line: warned once per process when an
 * app that starts its own Claude Code (`pathToClaudeCodeExecutable` or `spawnClaudeCodeProcess`)
 * passes servers the CLI runs (stdio, SSE, HTTP) and leaves `mcpServersDelivery` unset.
 * @param {import('./types').QueryOptions} options
 * @param {Record<string, unknown>} processServers
 */
function warnMcpServersOnArgv(options, processServers) {
  if (mcpArgvWarned || options.mcpServersDelivery !== undefined) return
  if (Object.keys(processServers).length === 0 || hasSdkUrl(options)) return
  if (!options.pathToClaudeCodeExecutable && !options.spawnClaudeCodeProcess) return
  mcpArgvWarned = true
  process.emitWarning(MCP_ARGV_DEPRECATED, { type: 'DeprecationWarning', code: MCP_ARGV_DEPRECATED_CODE })
}

/**
 * Whether debug output is on (`DEBUG_CLAUDE_AGENT_SDK`, or `options.debug`).
 * @param {import('./types').QueryOptions | undefined} options
 */
function debugOn(options) {
  const env = process.env.DEBUG_CLAUDE_AGENT_SDK
  return options?.debug === true || (env !== undefined && env !== '' && env !== '0' && env !== 'false')
}

/**
 * One line of the SDK's own debug output, on stderr while debug output is on.
 * @param {import('./types').QueryOptions | undefined} options
 * @param {'debug' | 'info' | 'warn' | 'error'} level
 * @param {string} message
 */
function debugLog(options, level, message) {
  if (!debugOn(options)) return
  try { process.stderr.write(`[claude-agent-sdk-native] ${level.toUpperCase()} ${message}\n`) } catch {}
}

/**
 * `workspaceTrust` as the official passes it on: as given, unless it says `accepted: true`
 * without an absolute `directory` (as it exists where Claude Code runs), which is dropped.
 * @template T
 * @param {T} value the app's `workspaceTrust` (the official does not type it)
 * @param {import('./types').QueryOptions | undefined} options
 * @returns {T | undefined}
 */
function checkWorkspaceTrust(value, options) {
  const trust = /** @type {{ accepted?: unknown, directory?: unknown } | null | undefined} */ (value)
  const kept = trust?.accepted === true && (typeof trust.directory !== 'string' || !(path.posix.isAbsolute(trust.directory) || path.win32.isAbsolute(trust.directory))) ? undefined : value
  if (value !== undefined && kept === undefined) {
    debugLog(options, 'warn', 'workspaceTrust ignored: accepted requires an absolute directory, as it exists where Claude Code runs')
  }
  return kept
}

/**
 * Agents as the CLI gets them: an in-process (`createSdkMcpServer()`) server in an agent's
 * `mcpServers` works only at the top level, so it goes as `{ type: 'sdk', name }` (its instance
 * left here) and the app is warned, as the official SDK does it.
 * @param {unknown} agents the `agents` option
 */
function agentsForCli(agents) {
  if (agents === null || typeof agents !== 'object') return agents
  /** @type {Array<[string, unknown]>} */
  const changed = []
  /** @type {Array<{ agentName: string, serverName: string }>} */
  const ignored = []
  for (const [agentName, agent] of Object.entries(agents)) {
    if (!Array.isArray(agent?.mcpServers)) continue
    const before = ignored.length
    const mcpServers = agent.mcpServers.map(/** @param {unknown} entry */ (entry) => {
      if (typeof entry !== 'object' || entry === null) return entry
      return Object.fromEntries(Object.entries(entry).map(([serverName, config]) => {
        if (config?.type !== 'sdk' || !('instance' in config)) return [serverName, config]
        ignored.push({ agentName, serverName })
        return [serverName, { type: 'sdk', name: config.name ?? serverName }]
      }))
    })
    if (ignored.length > before) changed.push([agentName, { ...agent, mcpServers }])
  }
  for (const { agentName, serverName } of ignored) {
    process.emitWarning(`Agent "${agentName}": MCP server "${serverName}" in its mcpServers was ignored, because a createSdkMcpServer() server works only in the top-level mcpServers option. Move it there and, if the agent has a tools list, add mcp__${serverName} to it. This will be an error in a later release.`, { code: 'CLAUDE_SDK_AGENT_IN_PROCESS_SERVER' })
  }
  return changed.length > 0 ? { ...agents, ...Object.fromEntries(changed) } : agents
}

/**
 * The official warning that `canUseTool` will not be asked: under `bypassPermissions`, or for the
 * tools that bare `allowedTools` entries approve outright. Emitted for each query.
 * @param {import('./types').QueryOptions} options
 */
function warnCanUseToolShadowed(options) {
  if (typeof options.canUseTool !== 'function') return
  const mode = options.permissionMode ?? 'default'
  let message
  if (mode === 'bypassPermissions') {
    message = "canUseTool will not be invoked: permissionMode 'bypassPermissions' auto-approves every tool call (except explicit deny rules) before the callback is consulted. To gate every tool call, use a PreToolUse hook instead."
  } else {
    const bare = (Array.isArray(options.allowedTools) ? options.allowedTools : []).filter((t) => typeof t === 'string' && t.length > 0 && !t.includes('('))
    if (bare.length === 0) return
    message = `canUseTool will not be invoked for: ${bare.join(', ')}. Bare allowedTools entries auto-approve the whole tool before the callback is consulted. To gate every tool call, use a PreToolUse hook; or remove the bare names from allowedTools so they fall through to canUseTool. Allow rules from settings files can also shadow the callback but are not visible here.`
  }
  process.emitWarning(message, { code: 'CLAUDE_SDK_CAN_USE_TOOL_SHADOWED' })
}

module.exports = { warnMcpServersOnArgv, warnCanUseToolShadowed, agentsForCli, checkWorkspaceTrust, debugLog, hasSdkUrl, MCP_ARGV_DEPRECATED, MCP_ARGV_DEPRECATED_CODE }
