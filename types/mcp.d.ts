// Model Context Protocol shapes used by in-process tools and elicitation: the output types of the
// schemas of @modelcontextprotocol/sdk (types.js) that the official SDK's declarations name,
// written out so that apps need not install the MCP SDK. They follow @modelcontextprotocol/sdk
// 1.32 (MIT): a `loose` schema object allows unknown keys, hence the `[key: string]: unknown`.

/** `_meta` of an MCP result. */
type McpResultMeta = {
  progressToken?: string | number
  'io.modelcontextprotocol/related-task'?: {
    taskId: string
  }
  [key: string]: unknown
}

/** Hints on how a piece of content is meant to be used. */
type McpContentAnnotations = {
  audience?: ('user' | 'assistant')[]
  priority?: number
  /** An ISO 8601 date-time. */
  lastModified?: string
}

/** A content block of a tool result: text, image, audio, a link to a resource, or an embedded resource. */
export type CallToolResultContent =
  | {
      type: 'text'
      text: string
      annotations?: McpContentAnnotations
      _meta?: Record<string, unknown>
    }
  | {
      type: 'image'
      /** Base64-encoded image data. */
      data: string
      mimeType: string
      annotations?: McpContentAnnotations
      _meta?: Record<string, unknown>
    }
  | {
      type: 'audio'
      /** Base64-encoded audio data. */
      data: string
      mimeType: string
      annotations?: McpContentAnnotations
      _meta?: Record<string, unknown>
    }
  | {
      uri: string
      description?: string
      mimeType?: string
      size?: number
      annotations?: McpContentAnnotations
      _meta?: { [key: string]: unknown }
      icons?: {
        src: string
        mimeType?: string
        sizes?: string[]
        theme?: 'light' | 'dark'
      }[]
      name: string
      title?: string
      type: 'resource_link'
    }
  | {
      type: 'resource'
      resource:
        | {
            uri: string
            mimeType?: string
            _meta?: Record<string, unknown>
            text: string
          }
        | {
            uri: string
            mimeType?: string
            _meta?: Record<string, unknown>
            /** Base64-encoded binary data. */
            blob: string
          }
      annotations?: McpContentAnnotations
      _meta?: Record<string, unknown>
    }

/** What an in-process tool's handler resolves to (MCP `CallToolResult`). */
export type CallToolResult = {
  _meta?: McpResultMeta
  content: CallToolResultContent[]
  /** A JSON object matching the tool's output schema, if it has one. */
  structuredContent?: Record<string, unknown>
  /** Set when the tool failed: the content then describes the error to the model. */
  isError?: boolean
  [key: string]: unknown
}

/** Hints about a tool's behaviour (MCP `ToolAnnotations`); clients treat them as untrusted. */
export type ToolAnnotations = {
  title?: string
  readOnlyHint?: boolean
  destructiveHint?: boolean
  idempotentHint?: boolean
  openWorldHint?: boolean
}

/** The answer to an MCP elicitation (MCP `ElicitResult`). */
export type ElicitResult = {
  _meta?: McpResultMeta
  action: 'cancel' | 'accept' | 'decline'
  /** The submitted form values, with `action: 'accept'`. */
  content?: Record<string, string | number | boolean | string[]>
  [key: string]: unknown
}

/** The params of an MCP request or notification: open, with an optional `_meta`. */
type McpMessageParams = {
  _meta?: McpResultMeta
  [key: string]: unknown
}

/**
 * One JSON-RPC 2.0 message of MCP (`JSONRPCMessage`): a request, a notification, a result or an
 * error, in that order.
 */
export type JSONRPCMessage =
  | { method: string; params?: McpMessageParams; jsonrpc: '2.0'; id: string | number }
  | { method: string; params?: McpMessageParams; jsonrpc: '2.0' }
  | { jsonrpc: '2.0'; id: string | number; result: { _meta?: McpResultMeta; [key: string]: unknown } }
  | { jsonrpc: '2.0'; id?: string | number; error: { code: number; message: string; data?: unknown } }
