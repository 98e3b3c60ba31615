'use strict'
// What the official SDK tells the app about the options it was given, worded and emitted as it
// does: the `mcpServersDelivery` deprecation (a `DeprecationWarning`, once per process), and the
// debug-log lines (written to stderr only while debug output is on, like the official SDK's
// debug log) for a `workspaceTrust` it sets aside.
const path = require('path')

const MCP_ARGV_DEPRECATED_CODE = 'CLAUDE_SDK_MCP_SERVERS_ARGV_DEPRECATED'
const MCP_ARGV_DEPRECATED = "This app starts its own Claude Code (pathToClaudeCodeExecutable or spawnClaudeCodeProcess) and sets no mcpServersDelivery, so its MCP servers go on Claude Code's command line, where other users of the machine can read their env and headers. That default is deprecated: a future SDK release sends them over stdin instead ('initialize'), which a Claude Code older than the one bundled with this SDK cannot read, so those sessions would then fail to start. Set mcpServersDelivery: 'initialize' once that Claude Code is at least the bundled version, or mcpServersDelivery: 'argv' to stay on the command line. Either setting stops this warning."

let mcpArgvWarned = false

/** Whether `extraArgs` / `executableArgs` give the CLI `--sdk-url` (such a launch keeps `--mcp-config`). */
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
 */
function warnMcpServersOnArgv(options, processServers) {
  if (mcpArgvWarned || options.mcpServersDelivery !== undefined) return
  if (Object.keys(processServers).length === 0 || hasSdkUrl(options)) return
  if (!options.pathToClaudeCodeExecutable && !options.spawnClaudeCodeProcess) return
  mcpArgvWarned = true
  process.emitWarning(MCP_ARGV_DEPRECATED, { type: 'DeprecationWarning', code: MCP_ARGV_DEPRECATED_CODE })
}

/** Whether debug output is on (`DEBUG_CLAUDE_AGENT_SDK`, or `options.debug`). */
function debugOn(options) {
  const env = process.env.DEBUG_CLAUDE_AGENT_SDK
  return options?.debug === true || (env !== undefined && env !== '' && env !== '0' && env !== 'false')
}

/** One line of the SDK's own debug output, on stderr while debug output is on. */
function debugLog(options, level, message) {
  if (!debugOn(options)) return
  try { process.stderr.write(`[claude-agent-sdk-native] ${level.toUpperCase()} ${message}\n`) } catch {}
}

/**
 * `workspaceTrust` as the official passes it on: as given, unless it says `accepted: true`
 * without an absolute `directory` (as it exists where Claude Code runs), which is dropped.
 */
function checkWorkspaceTrust(value, options) {
  const kept = value?.accepted === true && (typeof value.directory !== 'string' || !(path.posix.isAbsolute(value.directory) || path.win32.isAbsolute(value.directory))) ? undefined : value
  if (value !== undefined && kept === undefined) {
    debugLog(options, 'warn', 'workspaceTrust ignored: accepted requires an absolute directory, as it exists where Claude Code runs')
  }
  return kept
}

module.exports = { warnMcpServersOnArgv, checkWorkspaceTrust, debugLog, MCP_ARGV_DEPRECATED, MCP_ARGV_DEPRECATED_CODE }
