'use strict'
// claude-agent-sdk-native: the public API, mirroring @anthropic-ai/claude-agent-sdk.
// Kept to plain requires of small modules: importing the package must be cheap (zod and the
// native engine load on first use).
const { query, startup } = require('./lib/query')
const { tool } = require('./lib/tool')
const { createSdkMcpServer } = require('./lib/mcp-server')
const { AbortError } = require('./lib/errors')
const constants = require('./lib/constants')
const { prewarm } = require('./lib/prewarm')
const { resolveSettings, filterEscalatingDefaultMode } = require('./lib/settings')
const { matchDeniedModels } = require('./lib/denied-models')
const { DirectConnectTransport, DirectConnectError, parseDirectConnectUrl } = require('./lib/direct-connect')
const { FileIndex } = require('./lib/file-index')
const { CommandMatcher } = require('./lib/command-matcher')
const sessions = require('./lib/sessions')

module.exports = {
  query, startup, tool, createSdkMcpServer, AbortError,
  ...constants,
  prewarm,
  resolveSettings, filterEscalatingDefaultMode, matchDeniedModels,
  DirectConnectTransport, DirectConnectError, parseDirectConnectUrl,
  FileIndex, CommandMatcher,
}
// Session functions (lib/sessions.js): transcripts read and written by the engine.
for (const name of ['listSessions', 'getSessionInfo', 'getSessionMessages', 'listSubagents', 'getSubagentMessages', 'renameSession', 'tagSession', 'archiveSession', 'unarchiveSession', 'deleteSession', 'forkSession', 'importSessionToStore', 'InMemorySessionStore', 'foldSessionSummary']) module.exports[name] = sessions[name]
