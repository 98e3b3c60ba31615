// @ts-check
import { createRequire } from 'node:module'

// Loaded with require(), not `import`: an ESM import of CommonJS first runs Node's export lexer
// over it, which the default export alone does not need.
const api = createRequire(import.meta.url)('./index.js')

export const { query, startup, tool, createSdkMcpServer, AbortError } = api
export const {
  HOOK_EVENTS, EXIT_REASONS, BUILTIN_TOOL_NAMES, LEGACY_TOOL_NAME_ALIASES, USAGE_LIMIT_ERROR_PREFIXES,
  USAGE_TRANSITION_PREFIXES, USAGE_WARNING_PREFIXES, ORG_POLICY_LIMIT_PREFIXES, SYSTEM_PROMPT_DYNAMIC_BOUNDARY,
} = api
export const { prewarm } = api
export const { resolveSettings, filterEscalatingDefaultMode, matchDeniedModels } = api
export const { DirectConnectTransport, DirectConnectError, parseDirectConnectUrl } = api
export const { FileIndex, CommandMatcher } = api
export const {
  listSessions, getSessionInfo, getSessionMessages, listSubagents, getSubagentMessages, renameSession, tagSession,
  archiveSession, unarchiveSession, deleteSession, forkSession, importSessionToStore, InMemorySessionStore, foldSessionSummary,
} = api
export default api
