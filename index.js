// @ts-check
'use strict'
// claude-agent-sdk-native: the public API, mirroring @anthropic-ai/claude-agent-sdk.
// Kept to plain requires of small modules: importing the package must be cheap (zod and the
// native engine load on first use, and so does every export query() does not need: lib/lazy.js).
// Every export is one `exports.name = …` line: the form both Node's CommonJS export lexer (the
// names an ESM import of this file sees) and TypeScript's CommonJS checker read.
const { query, startup } = require('./lib/query')
const { tool } = require('./lib/tool')
const { createSdkMcpServer } = require('./lib/mcp-server')
const { AbortError } = require('./lib/errors')
const constants = require('./lib/constants')
const { lazyModule, lazyFunction, lazyClass } = require('./lib/lazy')

const settings = lazyModule(() => require('./lib/settings'))
const directConnect = lazyModule(() => require('./lib/direct-connect'))
const sessions = lazyModule(() => require('./lib/sessions'))

exports.query = query
exports.startup = startup
exports.tool = tool
exports.createSdkMcpServer = createSdkMcpServer
exports.AbortError = AbortError
exports.HOOK_EVENTS = constants.HOOK_EVENTS
exports.EXIT_REASONS = constants.EXIT_REASONS
exports.BUILTIN_TOOL_NAMES = constants.BUILTIN_TOOL_NAMES
exports.LEGACY_TOOL_NAME_ALIASES = constants.LEGACY_TOOL_NAME_ALIASES
exports.USAGE_LIMIT_ERROR_PREFIXES = constants.USAGE_LIMIT_ERROR_PREFIXES
exports.USAGE_TRANSITION_PREFIXES = constants.USAGE_TRANSITION_PREFIXES
exports.USAGE_WARNING_PREFIXES = constants.USAGE_WARNING_PREFIXES
exports.ORG_POLICY_LIMIT_PREFIXES = constants.ORG_POLICY_LIMIT_PREFIXES
exports.SYSTEM_PROMPT_DYNAMIC_BOUNDARY = constants.SYSTEM_PROMPT_DYNAMIC_BOUNDARY
exports.prewarm = lazyFunction('prewarm', 0, lazyModule(() => require('./lib/prewarm')))
exports.resolveSettings = lazyFunction('resolveSettings', 0, settings)
exports.filterEscalatingDefaultMode = lazyFunction('filterEscalatingDefaultMode', 1, settings)
exports.matchDeniedModels = lazyFunction('matchDeniedModels', 2, lazyModule(() => require('./lib/denied-models')))
exports.DirectConnectTransport = lazyClass('DirectConnectTransport', directConnect)
exports.DirectConnectError = lazyClass('DirectConnectError', directConnect)
exports.parseDirectConnectUrl = lazyFunction('parseDirectConnectUrl', 1, directConnect)
exports.FileIndex = lazyClass('FileIndex', lazyModule(() => require('./lib/file-index')))
exports.CommandMatcher = lazyClass('CommandMatcher', lazyModule(() => require('./lib/command-matcher')))
// Session functions (lib/sessions.js): transcripts read and written by the engine.
exports.listSessions = lazyFunction('listSessions', 1, sessions)
exports.getSessionInfo = lazyFunction('getSessionInfo', 2, sessions)
exports.getSessionMessages = lazyFunction('getSessionMessages', 2, sessions)
exports.listSubagents = lazyFunction('listSubagents', 2, sessions)
exports.getSubagentMessages = lazyFunction('getSubagentMessages', 3, sessions)
exports.renameSession = lazyFunction('renameSession', 3, sessions)
exports.tagSession = lazyFunction('tagSession', 3, sessions)
exports.archiveSession = lazyFunction('archiveSession', 2, sessions)
exports.unarchiveSession = lazyFunction('unarchiveSession', 2, sessions)
exports.deleteSession = lazyFunction('deleteSession', 2, sessions)
exports.forkSession = lazyFunction('forkSession', 2, sessions)
exports.importSessionToStore = lazyFunction('importSessionToStore', 3, sessions)
exports.foldSessionSummary = lazyFunction('foldSessionSummary', 4, sessions)
exports.InMemorySessionStore = lazyClass('InMemorySessionStore', sessions)
