// @ts-check
'use strict'
// claude-agent-sdk-native/core: the names of the official package's `core` entry (the root's
// functions and constants without the session-store, search and DirectConnect helpers).
const api = require('./index.js')

const CORE_NAMES = [
  'AbortError', 'archiveSession', 'BUILTIN_TOOL_NAMES', 'createSdkMcpServer', 'deleteSession', 'EXIT_REASONS',
  'filterEscalatingDefaultMode', 'getSessionInfo', 'HOOK_EVENTS', 'LEGACY_TOOL_NAME_ALIASES', 'matchDeniedModels',
  'ORG_POLICY_LIMIT_PREFIXES', 'prewarm', 'query', 'renameSession', 'resolveSettings', 'startup',
  'SYSTEM_PROMPT_DYNAMIC_BOUNDARY', 'tagSession', 'tool', 'unarchiveSession', 'USAGE_LIMIT_ERROR_PREFIXES',
  'USAGE_TRANSITION_PREFIXES', 'USAGE_WARNING_PREFIXES',
]

// Only the names the root exports (each is one of the root's own objects).
const byName = /** @type {Record<string, unknown>} */ (api)
module.exports = Object.fromEntries(CORE_NAMES.filter((name) => name in api).map((name) => [name, byName[name]]))
