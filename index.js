'use strict'
// claude-agent-sdk-native: the public API, mirroring @anthropic-ai/claude-agent-sdk.
// Kept to plain requires of small modules: importing the package must be cheap (zod and the
// native engine load on first use).
const { query, startup } = require('./lib/query')
const { tool } = require('./lib/tool')
const { createSdkMcpServer } = require('./lib/mcp-server')
const { AbortError } = require('./lib/errors')

module.exports = { query, startup, tool, createSdkMcpServer, AbortError }
