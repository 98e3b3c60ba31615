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

/**
 * The in-process MCP server behind a `createSdkMcpServer()` config. It lives in this process and
 * serves every query it is given to. Only `createSdkMcpServer()` of claude-agent-sdk-native makes
 * one (an MCP SDK `McpServer` is not accepted).
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
    annotations?: ToolAnnotations
    _meta?: Record<string, unknown>
  }>
}

// A type only: the class is not exported at runtime (use the config's `instance`).
export type { SdkMcpServer }

/** What `createSdkMcpServer()` returns: put it in `options.mcpServers`. Not serializable. */
export type McpSdkServerConfigWithInstance = McpSdkServerConfig & {
  instance: SdkMcpServer
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
