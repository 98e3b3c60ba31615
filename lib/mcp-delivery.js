'use strict'
// `mcpServersDelivery: 'initialize'` as the official SDK runs it: the process MCP servers travel
// in the `initialize` request, and the prompt waits for the CLI's answer. A CLI that does not say
// whether it took them (`mcp_servers_applied`, Claude Code 2.1.261 and later) is too old to read
// them: the session is ended with the official error and no prompt is sent. One that says it did
// not load them gets the official warning.
const { hasSdkUrl } = require('./notices')

const NOT_APPLIED = 'Claude Code reported that it did not load the MCP servers sent in the initialize request, so this session may be running without them. A cloud session never starts them; otherwise check that no wrapper removes --await-initialize from the launch.'

function tooOld(version) {
  const v = typeof version === 'string' ? ` (version ${version})` : ''
  return `This Claude Code${v} is too old to read MCP servers from the initialize request, so it started without them. The session was ended and no further prompt was sent. Use the Claude Code bundled with this SDK, update the one you start (pathToClaudeCodeExecutable or spawnClaudeCodeProcess) to at least the bundled version, or set mcpServersDelivery: 'argv', which puts the servers' env and headers on Claude Code's command line, where other users of the machine can read them.`
}

/** Whether process servers go in `initialize` (never for a `--sdk-url` launch), as the engine sends them. */
function serversInInitialize(options, data) {
  return options.mcpServersDelivery === 'initialize' && data.mcpServers !== undefined && !hasSdkUrl(options)
}

/** Runs `next` once the CLI's initialize answer has confirmed the servers; else ends the query. */
function afterServersApplied(query, next) {
  query.initializationResult().then((init) => {
    const applied = init?.mcp_servers_applied
    if (typeof applied !== 'boolean') {
      query._fail(new Error(tooOld(init?.claude_code_version)))
      return
    }
    if (!applied) process.emitWarning(NOT_APPLIED, { code: 'CLAUDE_SDK_MCP_SERVERS_NOT_APPLIED' })
    next()
  }, () => {})
}

module.exports = { serversInInitialize, afterServersApplied }
