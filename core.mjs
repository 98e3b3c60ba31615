// @ts-check
import core from './core.js'

export const {
  AbortError, archiveSession, BUILTIN_TOOL_NAMES, createSdkMcpServer, deleteSession, EXIT_REASONS,
  filterEscalatingDefaultMode, getSessionInfo, HOOK_EVENTS, LEGACY_TOOL_NAME_ALIASES, matchDeniedModels,
  ORG_POLICY_LIMIT_PREFIXES, prewarm, query, renameSession, resolveSettings, startup,
  SYSTEM_PROMPT_DYNAMIC_BOUNDARY, tagSession, tool, unarchiveSession, USAGE_LIMIT_ERROR_PREFIXES,
  USAGE_TRANSITION_PREFIXES, USAGE_WARNING_PREFIXES,
} = core
