// Typings of claude-agent-sdk-native/browser: the official @anthropic-ai/claude-agent-sdk/browser
// surface (browser-sdk.d.ts of 0.3.332), with the shared types taken from this package's own.
import type {
  CanUseTool, CreateSdkMcpServerOptions, HookCallbackMatcher, HookEvent, McpSdkServerConfigWithInstance, McpServerConfig, OnElicitation, OnUserDialog,
  Query, SDKMessage, SDKUserMessage,
} from '../index.js'
export type {
  CanUseTool, ElicitationRequest, ElicitationResult, HookCallbackMatcher, HookEvent, McpSdkServerConfigWithInstance, McpServerConfig, OnElicitation,
  OnUserDialog, Query, SDKAssistantMessage, SDKMessage, SDKResultMessage, SDKSystemMessage, SDKUserMessage, UserDialogRequest, UserDialogResult,
} from '../index.js'
export { tool } from '../index.js'

/**
 * Creates an in-process MCP server holding `tools` (zod 4 raw shapes or schemas, or plain JSON
 * Schema). Put the result in `mcpServers`; its tools are called `mcp__<key>__<tool name>`.
 */
export declare function createSdkMcpServer(options: CreateSdkMcpServerOptions): McpSdkServerConfigWithInstance

export type OAuthCredential = {
  type: 'oauth'
  token: string
}
export type AuthMessage = {
  type: 'auth'
  credential: OAuthCredential
}
export type WebSocketOptions = {
  url: string
  headers?: Record<string, string>
  /** Sent as the first frame once the socket is open. */
  authMessage?: AuthMessage
}
export type SSEOptions = {
  /** SSE read endpoint, e.g. `…/v1/code/sessions/{id}/events/stream`. */
  streamUrl: string
  /** POST write endpoint, e.g. `…/v1/code/sessions/{id}/events`. */
  sendUrl: string
  /** The CCR session ID — required to build the request body that `sendUrl` expects. */
  sessionId: string
  /** Headers sent on both the SSE GET and every POST (`Authorization`, `anthropic-client-platform`). */
  headers?: Record<string, string>
  /**
   * Resume cursor for the first connect: the stream delivers only events whose `sequence_num` is
   * greater (e.g. `getSseLastSequenceNum()` of a query this one replaces). Omitted or 0 starts
   * from the beginning of the retained stream.
   */
  fromSequenceNum?: number
  /**
   * Called when the server reports (`catch_up_truncated`) that it could not replay every event
   * after the resume cursor: re-fetch the gap and reseed. Counted in `getSseDropCounts()` under
   * `catch_up_truncated`. Exceptions thrown by the handler are contained.
   */
  onCatchUpTruncated?: () => void
  /**
   * Called for each `delivery_update` frame: the worker's acknowledgement of one event this session
   * was sent, with the raw status string (`DELIVERY_STATUS_RECEIVED`, `…_PROCESSING`,
   * `…_PROCESSED`). Not durable. Malformed frames are counted under `malformed_delivery_update`;
   * handler exceptions are contained.
   */
  onDeliveryUpdate?: (update: { event_id: string; status: string; timestamp?: string }) => void
}
type BrowserQueryOptionsBase = {
  prompt: AsyncIterable<SDKUserMessage>
  abortController?: AbortController
  canUseTool?: CanUseTool
  hooks?: Partial<Record<HookEvent, HookCallbackMatcher[]>>
  mcpServers?: Record<string, McpServerConfig>
  jsonSchema?: Record<string, unknown>
  onElicitation?: OnElicitation
  onUserDialog?: OnUserDialog
  /** The remote CLI emits a `prompt_suggestion` message after each turn's result. */
  promptSuggestions?: boolean
  /**
   * Dialog kinds (`request_user_dialog` `dialog_kind` values) `onUserDialog` can render, declared
   * on `initialize`. A non-empty list without `onUserDialog` throws.
   */
  supportedDialogKinds?: string[]
}
/** Exactly one of `websocket` | `sse` must be provided. */
export type BrowserQueryOptions = BrowserQueryOptionsBase & ({
  websocket: WebSocketOptions
  sse?: never
} | {
  sse: SSEOptions
  websocket?: never
})

/** Create a Claude Code query in the browser over either SSE (preferred) or WebSocket. */
export declare function query(options: BrowserQueryOptions): Query

/** `true`: the SSE transport enforces the full predicate on peer-authored `user` frames. */
export declare const G4_TEXT_ENVELOPE_ARM_PORTED: boolean

/** Cumulative dropped-frame counts by category of an `sse` query; undefined for WebSocket. */
export declare function getSseDropCounts(query: Query): Readonly<Record<string, number>> | undefined

/**
 * Resume cursor of an `sse` query: the highest `sequence_num` of a durable message it has yielded
 * (or the `fromSequenceNum` seed). Undefined for WebSocket and before any sequence number is known.
 */
export declare function getSseLastSequenceNum(query: Query): number | undefined

/**
 * The envelope of the durable event that delivered `message` (looked up by object identity) on
 * the `sse` query `query`; undefined for anything else.
 */
export declare function getCcrEvent(query: Query, message: SDKMessage): {
  event_id: string
  sequence_num: number
  created_at?: string
  processing_at?: string
  source?: string
} | undefined

/** Closes the event stream of an `sse` query without ending it; false for WebSocket, closed or suspended. */
export declare function suspendSseStream(query: Query): boolean

/** Reopens the event stream `suspendSseStream()` closed; false unless suspended and still open. */
export declare function resumeSseStream(query: Query): boolean
