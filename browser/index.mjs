// @ts-check
// claude-agent-sdk-native/browser: query() for a browser or any runtime with WebSocket and fetch,
// talking to a remote Claude Code session over WebSocket or SSE + POST, with in-process MCP
// servers, canUseTool, hooks, elicitation and user dialogs — the official ./browser entry.
// Pure ESM, no Node built-ins.
import { WebSocketTransport } from './ws-transport.mjs'
import { SSETransport } from './sse-transport.mjs'
import { Query } from './session.mjs'
import { checkQueryOptions, checkDialogKinds, checkInitializeSendable } from './options.mjs'

export { createSdkMcpServer, tool } from './mcp-server.mjs'
export { FileIndex } from './file-index.mjs'
export { CommandMatcher } from './command-matcher.mjs'
/** The zod 4 namespace, as the official entry exports its bundled copy (ours is the app's own 'zod/v4'). */
export * as z from 'zod/v4'

/** The SSE transport enforces the full peer-frame text-envelope guard on `user` frames. */
export const G4_TEXT_ENVELOPE_ARM_PORTED = true

const sseOf = new WeakMap()

export function getSseDropCounts(query) {
  return sseOf.get(query)?.getDropCounts()
}

export function getSseLastSequenceNum(query) {
  return sseOf.get(query)?.getLastSequenceNum()
}

export function getCcrEvent(query, message) {
  return sseOf.get(query)?.getCcrEvent(message)
}

export function suspendSseStream(query) {
  return sseOf.get(query)?.suspend() ?? false
}

export function resumeSseStream(query) {
  return sseOf.get(query)?.resume() ?? false
}

export function query(options) {
  checkQueryOptions(options)
  checkDialogKinds(options)
  const initConfig = options.promptSuggestions !== undefined || options.supportedDialogKinds !== undefined
    ? { promptSuggestions: options.promptSuggestions, supportedDialogKinds: options.supportedDialogKinds }
    : undefined
  checkInitializeSendable({ hooks: options.hooks, jsonSchema: options.jsonSchema, initConfig })
  const abortController = options.abortController || new AbortController()
  const servers = new Map()
  for (const [name, config] of Object.entries(options.mcpServers ?? {})) {
    if (config?.type === 'sdk' && config.instance) servers.set(name, config)
    else throw new Error('Browser SDK only supports SDK MCP servers for now')
  }
  const transport = options.sse
    ? new SSETransport({
        streamUrl: options.sse.streamUrl,
        sendUrl: options.sse.sendUrl,
        sessionId: options.sse.sessionId,
        headers: options.sse.headers,
        fetchStream: options.sse.fetchStream,
        fromSequenceNum: options.sse.fromSequenceNum,
        onCatchUpTruncated: options.sse.onCatchUpTruncated,
        onDeliveryUpdate: options.sse.onDeliveryUpdate,
        abortController,
      })
    : new WebSocketTransport({ url: options.websocket.url, headers: options.websocket.headers, authMessage: options.websocket.authMessage, abortController })
  const q = new Query({
    transport,
    canUseTool: options.canUseTool,
    hooks: options.hooks,
    abortController,
    mcpServers: servers,
    jsonSchema: options.jsonSchema,
    initConfig,
    onElicitation: options.onElicitation,
    onUserDialog: options.onUserDialog,
  })
  if (transport instanceof SSETransport) sseOf.set(q, transport)
  q.streamInput(options.prompt).catch((err) => abortController.abort(err))
  return q
}
