// MCP servers: their configurations, their status, and in-process (SDK) servers and tools.
import type { ZodRawShape } from 'zod/v3'
import type { ZodRawShape as ZodRawShapeV4 } from 'zod/v4'
import type { CallToolResult, ToolAnnotations } from './mcp.js'

/** Per-tool permission policy for a server's tools. */
export type McpServerToolPolicy = {
  name: string
  permission_policy?: 'always_allow' | 'always_ask' | 'always_deny'
  org_max_permission?: 'allow' | 'ask' | 'blocked'
}

/** A server run as a child process, spoken to over stdio. */
export type McpStdioServerConfig = {
  type?: 'stdio'
  command: string
  args?: string[]
  env?: Record<string, string>
  /** Tool-call timeout in milliseconds (values below 1000 are ignored). */
  timeout?: number
  /** Never defer this server's tools behind tool search. */
  alwaysLoad?: boolean
}

/** A remote server reached over Server-Sent Events. */
export type McpSSEServerConfig = {
  type: 'sse'
  url: string
  headers?: Record<string, string>
  tools?: McpServerToolPolicy[]
  timeout?: number
  alwaysLoad?: boolean
}

/** A remote server reached over streamable HTTP. */
export type McpHttpServerConfig = {
  type: 'http'
  url: string
  headers?: Record<string, string>
  tools?: McpServerToolPolicy[]
  timeout?: number
  alwaysLoad?: boolean
}

/** An in-process server, as the CLI sees it (without the live instance). */
export type McpSdkServerConfig = {
  type: 'sdk'
  name: string
  timeout?: number
  tools?: McpServerToolPolicy[]
}

/** A claude.ai connector proxied by the CLI. */
export type McpClaudeAIProxyServerConfig = {
  type: 'claudeai-proxy'
  url: string
  id: string
  timeout?: number
}

/** The `extra` argument of a handler (the MCP SDK's RequestHandlerExtra, in the parts this package fills). */
export type SdkMcpRequestExtra = {
  /** Fires when the CLI cancels the request or the query ends. */
  signal: AbortSignal
  /** The JSON-RPC id of the request. */
  requestId: string | number
  _meta?: { progressToken?: string | number; [key: string]: unknown }
  sessionId?: string
  authInfo?: unknown
  /** Sends a notification to the CLI (`notifications/progress` gets the call's progressToken). */
  sendNotification(notification: { method: string; params?: Record<string, unknown> }): Promise<void>
  /** Sends a request to the CLI (e.g. `elicitation/create`) and resolves with its result. */
  sendRequest(request: { method: string; params?: Record<string, unknown> }, resultSchema?: unknown, options?: { timeout?: number; signal?: AbortSignal }): Promise<any>
}

/** A tool, resource, resource template or prompt registered on a server at run time. */
export type SdkMcpRegistration = {
  readonly enabled: boolean
  enable(): void
  disable(): void
  /** Changes it; `{ name: null }` (a resource: `{ uri: null }`) removes it. */
  update(updates: Record<string, unknown>): void
  remove(): void
}

type SdkMcpSchema = AnyZodRawShape | ToolInputJsonSchema | { _def: unknown } | { _zod: unknown }
type SdkMcpArgs<S> = S extends AnyZodRawShape ? InferShape<S> : Record<string, unknown>
type SdkMcpResourceTemplate = { uriTemplate: unknown; listCallback?: ((extra: any) => unknown) | undefined }
type SdkMcpResourceMetadata = { title?: string; description?: string; mimeType?: string; [key: string]: unknown }
type SdkMcpReadResult = { contents: Array<{ uri: string; text?: string; blob?: string; mimeType?: string; [key: string]: unknown }>; [key: string]: unknown }
type SdkMcpPromptResult = { messages: Array<{ role: 'user' | 'assistant'; content: unknown }>; description?: string; [key: string]: unknown }

/**
 * The in-process MCP server behind a `createSdkMcpServer()` config. It lives in this process and
 * serves every query it is given to, and offers the McpServer API of @modelcontextprotocol/sdk:
 * what is registered, changed or removed while queries use it reaches them at once.
 */
declare class SdkMcpServer {
  private constructor()
  private _native
  /** The server name given to `createSdkMcpServer()`. */
  readonly name: string
  readonly version: string
  readonly instructions: string | undefined
  readonly alwaysLoad: boolean
  /** The tools/list entries of the server, as listed to the model. */
  listTools(): Array<{
    name: string
    title?: string
    description: string
    inputSchema: Record<string, unknown>
    outputSchema?: Record<string, unknown>
    annotations?: ToolAnnotations
    _meta?: Record<string, unknown>
  }>
  registerTool<In extends SdkMcpSchema = {}>(
    name: string,
    config: { title?: string; description?: string; inputSchema?: In; outputSchema?: SdkMcpSchema; annotations?: ToolAnnotations; _meta?: Record<string, unknown> },
    handler: (args: SdkMcpArgs<In>, extra: SdkMcpRequestExtra) => CallToolResult | Promise<CallToolResult>,
  ): SdkMcpRegistration
  tool(name: string, handler: (extra: SdkMcpRequestExtra) => CallToolResult | Promise<CallToolResult>): SdkMcpRegistration
  tool(name: string, description: string, handler: (extra: SdkMcpRequestExtra) => CallToolResult | Promise<CallToolResult>): SdkMcpRegistration
  tool<In extends AnyZodRawShape>(name: string, paramsSchema: In, handler: (args: InferShape<In>, extra: SdkMcpRequestExtra) => CallToolResult | Promise<CallToolResult>): SdkMcpRegistration
  tool<In extends AnyZodRawShape>(name: string, description: string, paramsSchema: In, handler: (args: InferShape<In>, extra: SdkMcpRequestExtra) => CallToolResult | Promise<CallToolResult>): SdkMcpRegistration
  tool<In extends AnyZodRawShape>(name: string, description: string, paramsSchema: In, annotations: ToolAnnotations, handler: (args: InferShape<In>, extra: SdkMcpRequestExtra) => CallToolResult | Promise<CallToolResult>): SdkMcpRegistration
  resource(name: string, uri: string, readCallback: (uri: URL, extra: SdkMcpRequestExtra) => SdkMcpReadResult | Promise<SdkMcpReadResult>): SdkMcpRegistration
  resource(name: string, uri: string, metadata: SdkMcpResourceMetadata, readCallback: (uri: URL, extra: SdkMcpRequestExtra) => SdkMcpReadResult | Promise<SdkMcpReadResult>): SdkMcpRegistration
  resource(name: string, template: SdkMcpResourceTemplate, readCallback: (uri: URL, variables: Record<string, string | string[]>, extra: SdkMcpRequestExtra) => SdkMcpReadResult | Promise<SdkMcpReadResult>): SdkMcpRegistration
  resource(name: string, template: SdkMcpResourceTemplate, metadata: SdkMcpResourceMetadata, readCallback: (uri: URL, variables: Record<string, string | string[]>, extra: SdkMcpRequestExtra) => SdkMcpReadResult | Promise<SdkMcpReadResult>): SdkMcpRegistration
  registerResource(name: string, uri: string, config: SdkMcpResourceMetadata, readCallback: (uri: URL, extra: SdkMcpRequestExtra) => SdkMcpReadResult | Promise<SdkMcpReadResult>): SdkMcpRegistration
  registerResource(name: string, template: SdkMcpResourceTemplate, config: SdkMcpResourceMetadata, readCallback: (uri: URL, variables: Record<string, string | string[]>, extra: SdkMcpRequestExtra) => SdkMcpReadResult | Promise<SdkMcpReadResult>): SdkMcpRegistration
  prompt(name: string, callback: (extra: SdkMcpRequestExtra) => SdkMcpPromptResult | Promise<SdkMcpPromptResult>): SdkMcpRegistration
  prompt(name: string, description: string, callback: (extra: SdkMcpRequestExtra) => SdkMcpPromptResult | Promise<SdkMcpPromptResult>): SdkMcpRegistration
  prompt<Args extends AnyZodRawShape>(name: string, argsSchema: Args, callback: (args: InferShape<Args>, extra: SdkMcpRequestExtra) => SdkMcpPromptResult | Promise<SdkMcpPromptResult>): SdkMcpRegistration
  prompt<Args extends AnyZodRawShape>(name: string, description: string, argsSchema: Args, callback: (args: InferShape<Args>, extra: SdkMcpRequestExtra) => SdkMcpPromptResult | Promise<SdkMcpPromptResult>): SdkMcpRegistration
  registerPrompt<Args extends AnyZodRawShape | ToolInputJsonSchema = {}>(
    name: string,
    config: { title?: string; description?: string; argsSchema?: Args },
    callback: (args: SdkMcpArgs<Args>, extra: SdkMcpRequestExtra) => SdkMcpPromptResult | Promise<SdkMcpPromptResult>,
  ): SdkMcpRegistration
  /** Serves this server over any MCP transport as well (as McpServer.connect). */
  connect(transport: { start(): Promise<void>; send(message: unknown): Promise<void>; close(): Promise<void>; onmessage?: (message: any) => void; onclose?: () => void }): Promise<void>
  /** Closes the transports given to connect(). */
  close(): Promise<void>
  /** True while a query uses the server or a transport is connected. */
  isConnected(): boolean
  sendToolListChanged(): void
  sendResourceListChanged(): void
  sendPromptListChanged(): void
  /** Asks the user through the CLI (MCP `elicitation/create`), from the one session using the server. */
  elicitInput(params: { message: string; requestedSchema?: Record<string, unknown>; mode?: 'form' | 'url'; [key: string]: unknown }, options?: { timeout?: number; signal?: AbortSignal }): Promise<{ action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }>
  sendLoggingMessage(params: { level: string; data: unknown; logger?: string }): Promise<void>
}

// A type only: the class is not exported at runtime (use the config's `instance`).
export type { SdkMcpServer }

/**
 * Any MCP server object (`McpServer` or `Server` of @modelcontextprotocol/sdk, or a server of
 * another copy of this package): connected to each query through a transport, as the official
 * SDK does.
 */
export type McpServerObject = {
  connect(transport: any): Promise<void>
}

/** What `createSdkMcpServer()` returns: put it in `options.mcpServers`. Not serializable. */
export type McpSdkServerConfigWithInstance = McpSdkServerConfig & {
  instance: SdkMcpServer | McpServerObject
}

/** An entry of `options.mcpServers`. */
export type McpServerConfig = McpStdioServerConfig | McpSSEServerConfig | McpHttpServerConfig | McpSdkServerConfigWithInstance

/** A server configuration as it travels to the CLI. */
export type McpServerConfigForProcessTransport = McpStdioServerConfig | McpSSEServerConfig | McpHttpServerConfig | McpSdkServerConfig

export type McpServerStatusConfig = McpServerConfigForProcessTransport | McpClaudeAIProxyServerConfig

/** The state of one MCP server (`mcpServerStatus()`). */
export type McpServerStatus = {
  name: string
  status: 'connected' | 'failed' | 'needs-auth' | 'pending' | 'disabled'
  serverInfo?: {
    name: string
    version: string
  }
  error?: string
  config?: McpServerStatusConfig
  scope?: string
  source?: string
  tools?: {
    name: string
    description?: string
    annotations?: {
      readOnly?: boolean
      destructive?: boolean
      openWorld?: boolean
    }
    _meta?: Record<string, unknown>
  }[]
}

/** What `setMcpServers()` changed. */
export type McpSetServersResult = {
  added: string[]
  removed: string[]
  errors: Record<string, string>
}

// --- in-process tools ---------------------------------------------------------------------------

/** A Zod raw shape (the argument of `z.object()`), of Zod 3 or Zod 4. */
export type AnyZodRawShape = ZodRawShape | ZodRawShapeV4

/** The handler's argument type for a Zod raw shape. */
export type InferShape<T extends AnyZodRawShape> = {
  [K in keyof T]: T[K] extends {
    _output: infer O
  } ? O : never
} & {}

/** An in-process tool, as `tool()` returns it. Not serializable (it holds the handler). */
export type SdkMcpToolDefinition<Schema extends AnyZodRawShape = AnyZodRawShape> = {
  name: string
  description: string
  inputSchema: Schema
  annotations?: ToolAnnotations
  _meta?: Record<string, unknown>
  handler: (args: InferShape<Schema>, extra: unknown) => Promise<CallToolResult>
}

/**
 * A plain JSON Schema for a tool's input (an extension of claude-agent-sdk-native; the official
 * SDK takes Zod shapes only). It must describe an object. Arguments are validated against it
 * before the handler runs.
 */
export type ToolInputJsonSchema = {
  type: 'object'
  properties?: { [property: string]: unknown }
  required?: readonly string[]
  additionalProperties?: boolean | { [key: string]: unknown }
  $schema?: string
  [keyword: string]: unknown
}

/** An in-process tool whose input is a plain JSON Schema (see `ToolInputJsonSchema`). */
export type SdkMcpJsonSchemaToolDefinition = {
  name: string
  description: string
  inputSchema: ToolInputJsonSchema
  annotations?: ToolAnnotations
  _meta?: Record<string, unknown>
  handler: (args: Record<string, unknown>, extra: unknown) => Promise<CallToolResult>
}

/** Options of `createSdkMcpServer()`. */
export type CreateSdkMcpServerOptions = {
  /** The server name: tools are called `mcp__<key in mcpServers>__<tool name>`. */
  name: string
  version?: string
  /** Instructions about the server, shown to the model. */
  instructions?: string
  tools?: Array<SdkMcpToolDefinition<any> | SdkMcpJsonSchemaToolDefinition>
  /** Never defer this server's tools behind tool search. */
  alwaysLoad?: boolean
  /** Tool-call timeout in milliseconds (values below 1000 are ignored). */
  timeout?: number
}
