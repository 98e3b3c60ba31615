'use strict'
// claude-agent-sdk-native: the public API, mirroring @anthropic-ai/claude-agent-sdk.
// Kept to plain requires of small modules: importing the package must be cheap (zod and the
// native engine load on first use, and so does every export query() does not need: lib/lazy.js).
const { query, startup } = require('./lib/query')
const { tool } = require('./lib/tool')
const { createSdkMcpServer } = require('./lib/mcp-server')
const { AbortError } = require('./lib/errors')
const constants = require('./lib/constants')
const { lazyModule, lazyFunction, lazyClass } = require('./lib/lazy')

const settings = lazyModule(() => require('./lib/settings'))
const directConnect = lazyModule(() => require('./lib/direct-connect'))
const sessions = lazyModule(() => require('./lib/sessions'))

module.exports = {
  query, startup, tool, createSdkMcpServer, AbortError,
  ...constants,
  prewarm: lazyFunction('prewarm', 0, lazyModule(() => require('./lib/prewarm'))),
  resolveSettings: lazyFunction('resolveSettings', 0, settings),
  filterEscalatingDefaultMode: lazyFunction('filterEscalatingDefaultMode', 1, settings),
  matchDeniedModels: lazyFunction('matchDeniedModels', 2, lazyModule(() => require('./lib/denied-models'))),
  DirectConnectTransport: lazyClass('DirectConnectTransport', directConnect),
  DirectConnectError: lazyClass('DirectConnectError', directConnect),
  parseDirectConnectUrl: lazyFunction('parseDirectConnectUrl', 1, directConnect),
  FileIndex: lazyClass('FileIndex', lazyModule(() => require('./lib/file-index'))),
  CommandMatcher: lazyClass('CommandMatcher', lazyModule(() => require('./lib/command-matcher'))),
}
// Session functions (lib/sessions.js): transcripts read and written by the engine.
for (const [name, length] of [
  ['listSessions', 1], ['getSessionInfo', 2], ['getSessionMessages', 2], ['listSubagents', 2], ['getSubagentMessages', 3],
  ['renameSession', 3], ['tagSession', 3], ['archiveSession', 2], ['unarchiveSession', 2], ['deleteSession', 2],
  ['forkSession', 2], ['importSessionToStore', 3], ['foldSessionSummary', 4],
]) module.exports[name] = lazyFunction(name, length, sessions)
module.exports.InMemorySessionStore = lazyClass('InMemorySessionStore', sessions)
