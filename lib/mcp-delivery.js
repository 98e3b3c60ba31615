// @ts-check
'use strict'
// What travels in the `initialize` request instead of on the command line, as the official SDK
// runs it (the *Delivery options set to 'initialize'): managed settings, settings, disallowed
// tools and process MCP servers. The prompt waits for the CLI's answer, which must confirm each
// (`managed_settings_applied`, `settings_applied`, `disallowed_tools_applied`); when one is not
// confirmed the session is ended with the official error and no prompt is sent. For MCP servers,
// a CLI that does not say whether it took them (`mcp_servers_applied`, Claude Code 2.1.261 and
// later) is too old to read them (ended the same way); one that says it did not load them gets
// the official warning.
const { hasSdkUrl } = require('./notices')

const NOT_APPLIED = 'Claude Code reported that it did not load the MCP servers sent in the initialize request, so this session may be running without them. A cloud session never starts them; otherwise check that no wrapper removes --await-initialize from the launch.'

/** @param {unknown} version the CLI's, from its initialize answer */
function tooOld(version) {
  const v = typeof version === 'string' ? ` (version ${version})` : ''
  return `This Claude Code${v} is too old to read MCP servers from the initialize request, so it started without them. The session was ended and no further prompt was sent. Use the Claude Code bundled with this SDK, update the one you start (pathToClaudeCodeExecutable or spawnClaudeCodeProcess) to at least the bundled version, or set mcpServersDelivery: 'argv', which puts the servers' env and headers on Claude Code's command line, where other users of the machine can read them.`
}

/**
 * Whether process servers go in `initialize` (never for a `--sdk-url` launch), as the engine sends them.
 * @param {import('./types').QueryOptions} options
 * @param {import('./types').EngineOptionData} data
 */
function serversInInitialize(options, data) {
  return options.mcpServersDelivery === 'initialize' && data.mcpServers !== undefined && !hasSdkUrl(options)
}

const DELIVERIES = ['pluginDelivery', 'managedSettingsDelivery', 'settingsDelivery', 'disallowedToolsDelivery', 'mcpServersDelivery']

/**
 * A delivery option other than 'argv' or 'initialize' is refused at once, as the official refuses it.
 * @param {Record<string, unknown> | null | undefined} options
 */
function checkDeliveries(options) {
  for (const key of DELIVERIES) {
    const value = options?.[key]
    if (value !== undefined && value !== 'argv' && value !== 'initialize') throw new Error(`Invalid ${key}. Expected 'argv' or 'initialize'.`)
  }
}

const MANAGED_NOT_APPLIED = "Claude Code did not confirm the managed settings sent with managedSettingsDelivery 'initialize', so the session was ended and no further prompt was sent. For a cloud session, use 'argv', because it does not read this delivery. Otherwise check that no wrapper changes the launch flags or the initialize request."

/** @param {string[]} names */
function notConfirmed(names) {
  return `Claude Code did not confirm the ${names.join(' and ')} sent in the initialize request, so the session was ended and no further prompt was sent. For a cloud session, set settingsDelivery and disallowedToolsDelivery to 'argv', because a cloud session does not read them from that request. Otherwise update Claude Code if it is older than this Agent SDK, and check that no wrapper changes the launch flags or the initialize request.`
}

/**
 * Which launch fields go in `initialize` (as the engine decides them; see crates/agent-core/src/options.rs).
 * @param {import('./types').QueryOptions} options
 * @param {import('./types').EngineOptionData} data
 */
function launchFields(options, data) {
  const settings = options.settings
  const settingsObject = settings === undefined || (typeof settings === 'object' && settings !== null && !Array.isArray(settings)) ||
    (typeof settings === 'string' && /^\{.*\}$/s.test(settings.trim()))
  return {
    managedSettings: options.managedSettingsDelivery === 'initialize' && Boolean(options.managedSettings),
    settings: options.settingsDelivery === 'initialize' && (settings !== undefined || options.sandbox !== undefined) && settingsObject,
    disallowedTools: options.disallowedToolsDelivery === 'initialize' && Array.isArray(options.disallowedTools) && options.disallowedTools.length > 0,
    mcpServers: serversInInitialize(options, data),
  }
}

/**
 * Whether the prompt waits for the CLI to confirm what `initialize` carried.
 * @param {import('./types').QueryOptions} options
 * @param {import('./types').EngineOptionData} data
 */
function holdsPrompt(options, data) {
  return Object.values(launchFields(options, data)).some(Boolean)
}

/**
 * Runs `next` once the CLI's initialize answer has confirmed what it carried; else ends the query.
 * @param {import('./query').Port} query the query's port
 * @param {import('./types').QueryOptions} options
 * @param {import('./types').EngineOptionData} data
 * @param {() => void} next
 */
function afterLaunchFieldsApplied(query, options, data, next) {
  const sent = launchFields(options, data)
  query.initializationResult().then((init) => {
    if (sent.managedSettings && init?.managed_settings_applied !== true) return query.fail(new Error(MANAGED_NOT_APPLIED))
    const missing = [...(sent.settings && init?.settings_applied !== true ? ['settings'] : []), ...(sent.disallowedTools && init?.disallowed_tools_applied !== true ? ['disallowedTools'] : [])]
    if (missing.length > 0) return query.fail(new Error(notConfirmed(missing)))
    if (!sent.mcpServers) return next()
    const applied = init?.mcp_servers_applied
    if (typeof applied !== 'boolean') {
      query.fail(new Error(tooOld(init?.claude_code_version)))
      return
    }
    if (!applied) process.emitWarning(NOT_APPLIED, { code: 'CLAUDE_SDK_MCP_SERVERS_NOT_APPLIED' })
    next()
  }, () => {})
}

module.exports = { serversInInitialize, holdsPrompt, afterLaunchFieldsApplied, checkDeliveries }
