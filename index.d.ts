// Public typings of claude-agent-sdk-native: the API of @anthropic-ai/claude-agent-sdk 0.3.x that
// this package implements — query(), startup(), tool(), createSdkMcpServer(), AbortError — and every type
// they use, structurally the same as the official declarations, so that code written against
// either package type-checks against the other. Neither @anthropic-ai/sdk nor
// @modelcontextprotocol/sdk is needed: the shapes used from them are inlined (types/anthropic.d.ts,
// types/mcp.d.ts). Zod types come from `zod` (an optional peer dependency).
import type { Options } from './types/options.js'
import type { Query, WarmQuery } from './types/query.js'
import type { SDKUserMessage } from './types/messages.js'
import type {
  AnyZodRawShape,
  CreateSdkMcpServerOptions,
  InferShape,
  McpSdkServerConfigWithInstance,
  SdkMcpServer,
  SdkMcpJsonSchemaToolDefinition,
  SdkMcpToolDefinition,
  ToolInputJsonSchema,
} from './types/mcp-servers.js'
import type { CallToolResult, ToolAnnotations } from './types/mcp.js'

export * from './types/messages.js'
export * from './types/permissions.js'
export * from './types/hooks.js'
export * from './types/mcp-servers.js'
export * from './types/options.js'
export * from './types/query.js'
export * from './types/settings.js'
export * from './types/surface.js'
export * from './types/sessions.js'
export * from './types/control.js'
export type { CallToolResult, CallToolResultContent, ToolAnnotations, ElicitResult } from './types/mcp.js'

/** Thrown (from the Query's iteration) when the query is aborted through `options.abortController`. */
export declare class AbortError extends Error {}

/**
 * Starts a Claude Code session. `prompt` is a string (one turn) or an async iterable of user
 * messages (streaming input: more turns, and the control methods of Query). Iterate the returned
 * Query for the session's messages; the last one of a run is a `result`.
 */
export declare function query(params: {
  prompt: string | AsyncIterable<SDKUserMessage>
  options?: Options
}): Query

/**
 * Starts a Claude Code process ahead of time and waits for it to be initialized, so that the first
 * prompt is answered without the start-up delay: `(await startup({ options })).query(prompt)`.
 * Rejects when the process fails to start or is not initialized within `initializeTimeoutMs`
 * (default 60 000).
 */
export declare function startup(params?: {
  options?: Options
  initializeTimeoutMs?: number
}): Promise<WarmQuery>

/** Extra metadata of a tool. */
type ToolExtras = {
  annotations?: ToolAnnotations
  /** Words that help tool search find the tool. */
  searchHint?: string
  /** Never defer the tool behind tool search. */
  alwaysLoad?: boolean
}

/** The handler's `args` for an input schema: inferred from a Zod shape, a plain object for a JSON Schema. */
export type ToolHandlerArgs<Schema extends AnyZodRawShape | ToolInputJsonSchema> = Schema extends AnyZodRawShape ? InferShape<Schema> : Record<string, unknown>

/**
 * Defines an in-process MCP tool for `createSdkMcpServer()`. `inputSchema` is a Zod raw shape
 * (Zod 3 or Zod 4), as with the official SDK: the handler's `args` are typed from it. As an
 * extension, it may also be a plain JSON Schema object (`{ type: 'object', properties, required }`):
 * `args` are then a `Record<string, unknown>`. Either way they are validated before the handler runs.
 *
 * (One signature rather than two overloads, so that a mistake in a Zod tool's handler is reported
 * against the Zod signature.)
 */
export declare function tool<Schema extends AnyZodRawShape | ToolInputJsonSchema>(
  name: string,
  description: string,
  inputSchema: Schema,
  handler: (args: ToolHandlerArgs<Schema>, extra: unknown) => Promise<CallToolResult>,
  extras?: ToolExtras,
): Schema extends AnyZodRawShape ? SdkMcpToolDefinition<Schema> : SdkMcpJsonSchemaToolDefinition

/**
 * Creates an in-process MCP server holding `tools`. Put the result in `options.mcpServers`; its
 * tools are then called `mcp__<key>__<tool name>`. One server may serve many queries at once.
 */
export declare function createSdkMcpServer(options: CreateSdkMcpServerOptions): McpSdkServerConfigWithInstance & { instance: SdkMcpServer }
