'use strict'
// Splits the official Options into what the native engine needs (plain data, as JSON) and what
// stays in JS (callbacks, live objects). Checking types and mapping to CLI flags is the
// engine's job; this only separates and resolves.
const { SdkMcpServer } = require('./mcp-server')

/** Options the engine takes as data (see agent_core::options::QueryOptions). */
const DATA_KEYS = [
  'pathToClaudeCodeExecutable', 'executable', 'executableArgs', 'cwd', 'model', 'fallbackModel',
  'allowedTools', 'disallowedTools', 'permissionMode', 'allowDangerouslySkipPermissions',
  'permissionPromptToolName', 'maxTurns', 'maxBudgetUsd', 'maxThinkingTokens', 'thinking', 'effort',
  'systemPrompt', 'includePartialMessages', 'continue', 'resume', 'resumeSessionAt', 'forkSession',
  'sessionId', 'persistSession', 'additionalDirectories', 'betas', 'debug', 'debugFile',
  'strictMcpConfig', 'settingSources', 'tools', 'settings', 'extraArgs', 'plugins', 'agents',
  'outputFormat', 'sandbox', 'enableFileCheckpointing', 'initializeTimeoutMs',
]

function isSdkServer(config) {
  return config && typeof config === 'object' && config.type === 'sdk' && config.instance !== undefined
}

/**
 * @returns {{ data: object, sdkServers: Map<string, SdkMcpServer>, hookCallbacks: Map<string, Function> }}
 */
function splitOptions(options) {
  const data = {}
  for (const key of DATA_KEYS) {
    const value = options[key]
    if (value !== undefined && value !== null) data[key] = value
  }
  // The official SDK hands the child `options.env` as the whole environment, or else its own.
  data.env = { ...(options.env ?? process.env) }
  data.canUseTool = typeof options.canUseTool === 'function'

  const sdkServers = new Map()
  if (options.mcpServers) {
    const processServers = {}
    for (const [name, config] of Object.entries(options.mcpServers)) {
      if (isSdkServer(config)) {
        if (!(config.instance instanceof SdkMcpServer)) {
          throw new TypeError(`mcpServers.${name}: an in-process server must come from createSdkMcpServer() of claude-agent-sdk-native`)
        }
        sdkServers.set(name, config.instance)
      } else {
        processServers[name] = config
      }
    }
    if (Object.keys(processServers).length > 0) data.mcpServers = processServers
  }

  const hookCallbacks = new Map()
  if (options.hooks) {
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

module.exports = { splitOptions, DATA_KEYS }
