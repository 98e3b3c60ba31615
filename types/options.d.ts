// The options of query().
import type { Readable, Writable } from 'stream'
import type { ElicitResult } from './mcp.js'
import type { CanUseTool, PermissionMode } from './permissions.js'
import type { HookCallbackMatcher, HookEvent } from './hooks.js'
import type { McpServerConfig, McpServerConfigForProcessTransport } from './mcp-servers.js'
import type { Settings } from './settings.js'

// --- agents -------------------------------------------------------------------------------------

/** An MCP server of a subagent: the name of a server of the session, or inline configurations. */
export type AgentMcpServerSpec = string | Record<string, McpServerConfigForProcessTransport>

/** A custom subagent, run through the Agent tool (`options.agents`). */
export type AgentDefinition = {
  /** When the model should use this agent. */
  description: string
  /** The tools it may use; all of the parent's when omitted. */
  tools?: string[]
  disallowedTools?: string[]
  /** Its system prompt. */
  prompt: string
  /** A model alias or id; `'inherit'` uses the parent's model. */
  model?: string
  mcpServers?: AgentMcpServerSpec[]
  criticalSystemReminder_EXPERIMENTAL?: string
  /** Skills preloaded into its context. */
  skills?: string[]
  initialPrompt?: string
  maxTurns?: number
  autoCompactWindow?: number
  background?: boolean
  omitClaudeMd?: boolean
  memory?: 'user' | 'project' | 'local'
  effort?: ('low' | 'medium' | 'high' | 'xhigh' | 'max') | number
  permissionMode?: PermissionMode
  observer?: string
  observerMessage?: string
}

// --- model behaviour ----------------------------------------------------------------------------

/** How hard the model thinks. */
export type EffortLevel = 'low' | 'medium' | 'high' | 'xhigh' | 'max'

/** The model decides when and how much to think. */
export type ThinkingAdaptive = {
  type: 'adaptive'
  display?: 'summarized' | 'omitted'
}

/** Extended thinking with a token budget. */
export type ThinkingEnabled = {
  type: 'enabled'
  budgetTokens?: number
  display?: 'summarized' | 'omitted'
}

export type ThinkingDisabled = {
  type: 'disabled'
}

export type ThinkingConfig = ThinkingAdaptive | ThinkingEnabled | ThinkingDisabled

export type OutputFormatType = 'json_schema'

export type BaseOutputFormat = {
  type: OutputFormatType
}

/** Structured output: the final result must match this JSON Schema (see `structured_output`). */
export type JsonSchemaOutputFormat = {
  type: 'json_schema'
  schema: Record<string, unknown>
}

export type OutputFormat = JsonSchemaOutputFormat

/** API beta features. */
export type SdkBeta = 'context-1m-2025-08-07'

/** Per-tool configuration of built-in tools. */
export type ToolConfig = {
  askUserQuestion?: {
    previewFormat?: 'markdown' | 'html'
  }
}

// --- plugins, settings --------------------------------------------------------------------------

/** A plugin loaded from a local directory. */
export type SdkPluginConfig = {
  type: 'local'
  path: string
  skipMcpDiscovery?: boolean
}

/** Which settings files are read: `~/.claude` (user), `.claude/` (project), `.claude/settings.local.json` (local). */
export type SettingSource = 'user' | 'project' | 'local'

// --- sandbox ------------------------------------------------------------------------------------

export type SandboxNetworkConfig = {
  allowedDomains?: string[]
  deniedDomains?: string[]
  strictAllowlist?: boolean
  allowManagedDomainsOnly?: boolean
  allowUnixSockets?: string[]
  allowAllUnixSockets?: boolean
  allowLocalBinding?: boolean
  allowMachLookup?: string[]
  httpProxyPort?: number
  socksProxyPort?: number
  tlsTerminate?: {
    caCertPath?: string
    caKeyPath?: string
  }
}

export type SandboxFilesystemConfig = {
  allowWrite?: string[]
  denyWrite?: string[]
  denyRead?: string[]
  allowRead?: string[]
  allowManagedReadPathsOnly?: boolean
  disabled?: boolean
}

type SandboxCredentialRuleCommon = {
  mode: 'deny' | 'mask'
  extract?: string
  onExtractNoMatch?: 'deny' | 'error' | 'warn'
  decode?: 'jwt'
  maskClaims?: string[]
}

type SandboxPassthrough = 'deny' | 'passthrough'

export type SandboxCredentialsConfig = {
  files?: (SandboxCredentialRuleCommon & {
    path: string
    maskDuplicates?: boolean
    injectHosts?: string[]
  })[]
  envVars?: (SandboxCredentialRuleCommon & {
    name: string
    injectHosts?: string[]
  })[]
  allowPlaintextInject?: boolean
  awsPairs?: {
    accessKeyIdVar: string
    secretAccessKeyVar: string
    sessionTokenVar?: string
  }[]
  sigv4?: {
    streaming?: SandboxPassthrough
    presigned?: SandboxPassthrough
    sigv4a?: SandboxPassthrough
  }
}

/** Sandboxing of Bash commands (`options.sandbox`). */
export type SandboxSettings = {
  enabled?: boolean
  failIfUnavailable?: boolean
  autoAllowBashIfSandboxed?: boolean
  allowUnsandboxedCommands?: boolean
  network?: SandboxNetworkConfig
  filesystem?: SandboxFilesystemConfig
  credentials?: SandboxCredentialsConfig
  ignoreViolations?: Record<string, string[]>
  enableWeakerNestedSandbox?: boolean
  allowNestedUserNamespaces?: boolean
  enableWeakerNetworkIsolation?: boolean
  allowAppleEvents?: boolean
  excludedCommands?: string[]
  ripgrep?: {
    command: string
    args?: string[]
  }
  bwrapPath?: string
  socatPath?: string
  [key: string]: unknown
}

export type SandboxIgnoreViolations = NonNullable<SandboxSettings['ignoreViolations']>

// --- elicitation and dialogs --------------------------------------------------------------------

/** An MCP server asks the user for input. */
export type ElicitationRequest = {
  serverName: string
  message: string
  mode?: 'form' | 'url'
  url?: string
  elicitationId?: string
  requestedSchema?: Record<string, unknown>
  title?: string
  displayName?: string
  description?: string
}

export type ElicitationResult = ElicitResult

/** Answers MCP elicitations; resolve to `null` when answered out of band. */
export type OnElicitation = (
  request: ElicitationRequest,
  options: {
    signal: AbortSignal
    requestId: string
  },
) => Promise<ElicitationResult | null>

export type UserDialogRequest = {
  dialogKind: string
  payload: Record<string, unknown>
  toolUseID?: string
}

export type UserDialogResult =
  | {
      behavior: 'completed'
      result: unknown
    }
  | {
      behavior: 'cancelled'
    }

export type OnUserDialog = (
  request: UserDialogRequest,
  options: {
    signal: AbortSignal
    requestId: string
  },
) => Promise<UserDialogResult | null>

// --- session storage ----------------------------------------------------------------------------

export type SessionKey = {
  projectKey: string
  sessionId: string
  subpath?: string
}

/** One transcript entry. */
export type SessionStoreEntry = {
  type: string
  uuid?: string
  timestamp?: string
  [k: string]: unknown
}

export type SessionSummaryEntry = {
  sessionId: string
  mtime: number
  data: Record<string, unknown>
}

/** Where transcripts are kept instead of (or besides) local files (`options.sessionStore`). */
export type SessionStore = {
  append(key: SessionKey, entries: SessionStoreEntry[]): Promise<void>
  load(key: SessionKey): Promise<SessionStoreEntry[] | null>
  listSessions?(projectKey: string): Promise<Array<{
    sessionId: string
    mtime: number
  }>>
  listSessionSummaries?(projectKey: string): Promise<SessionSummaryEntry[]>
  delete?(key: SessionKey): Promise<void>
  listSubkeys?(key: {
    projectKey: string
    sessionId: string
  }): Promise<string[]>
}

export type SessionStoreFlush = 'batched' | 'eager'

/**
 * Ours (not in the official SDK): bounds on the Claude Code process **and everything it starts**,
 * together. Past one, the whole tree is stopped and the query ends with an `Error` whose `code`
 * is `'RESOURCE_LIMIT'` (its message names the limit and the figure reached), after every
 * message before it. Each must be a positive number.
 */
export type ResourceLimits = {
  /** Memory (resident; a cgroup's charge where one is used), in megabytes (MiB). */
  maxMemoryMb?: number
  /** CPU time, user and system, in seconds. */
  maxCpuSeconds?: number
}

// --- custom process spawning --------------------------------------------------------------------

/** What `spawnClaudeCodeProcess` is asked to start. */
export interface SpawnOptions {
  command: string
  args: string[]
  cwd?: string
  env: {
    [envVar: string]: string | undefined
  }
  signal: AbortSignal
}

/** A process started by `spawnClaudeCodeProcess` (a `ChildProcess` fits). */
export interface SpawnedProcess {
  stdin: Writable
  stdout: Readable
  readonly killed: boolean
  readonly exitCode: number | null
  readonly signalCode?: NodeJS.Signals | null
  kill(signal: NodeJS.Signals): boolean
  on(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): void
  on(event: 'error', listener: (error: Error) => void): void
  once(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): void
  once(event: 'error', listener: (error: Error) => void): void
  off(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): void
  off(event: 'error', listener: (error: Error) => void): void
}

// --- Options ------------------------------------------------------------------------------------

/** The options of `query()`. Every field is optional. */
export type Options = {
  /** Aborting it stops the query and its Claude Code process. */
  abortController?: AbortController
  /** More directories Claude may access (besides `cwd`). */
  additionalDirectories?: string[]
  projectConfigRoot?: string
  /** Run the session as this agent (a key of `agents` or a configured agent). */
  agent?: string
  /** Custom subagents, by name. */
  agents?: Record<string, AgentDefinition>
  /** Tools allowed without asking (permission rules, e.g. `'Read'`, `'Bash(npm test)'`, `'mcp__server__tool'`). */
  allowedTools?: string[]
  /** Asked when a tool call needs permission. */
  canUseTool?: CanUseTool
  /** Continue the most recent conversation in `cwd`. */
  continue?: boolean
  /** The working directory (default: `process.cwd()`). */
  cwd?: string
  /** Tools denied without asking (permission rules). */
  disallowedTools?: string[]
  toolAliases?: Record<string, string>
  /** The built-in tools available: a list of names, or the full Claude Code set. */
  tools?: string[] | {
    type: 'preset'
    preset: 'claude_code'
  }
  /** The environment of the Claude Code process (default: `process.env`). */
  env?: {
    [envVar: string]: string | undefined
  }
  /** The JavaScript runtime for a JavaScript CLI. */
  executable?: 'bun' | 'deno' | 'node'
  executableArgs?: string[]
  /** Extra CLI flags: `{ flag: value }`, `null` for a flag without value. */
  extraArgs?: Record<string, string | null>
  /** The model to use when the main one is unavailable. */
  fallbackModel?: string
  /** Track file changes so that `rewindFiles()` can undo them. */
  enableFileCheckpointing?: boolean
  toolConfig?: ToolConfig
  /** With `resume`: continue in a new session id instead of appending to the resumed one. */
  forkSession?: boolean
  betas?: SdkBeta[]
  /** Hook callbacks, by event. */
  hooks?: Partial<Record<HookEvent, HookCallbackMatcher[]>>
  onElicitation?: OnElicitation
  onUserDialog?: OnUserDialog
  supportedDialogKinds?: string[]
  perTaskStopAffordance?: boolean
  /** Save the session to disk so that it can be resumed. */
  persistSession?: boolean
  sessionStore?: SessionStore
  sessionStoreFlush?: SessionStoreFlush
  loadTimeoutMs?: number
  /** Also yield hook lifecycle messages. */
  includeHookEvents?: boolean
  /** Also yield streaming events (`SDKPartialAssistantMessage`). */
  includePartialMessages?: boolean
  forwardSubagentText?: boolean
  verbatimPrompts?: boolean
  /** Thinking behaviour. */
  thinking?: ThinkingConfig
  effort?: EffortLevel
  /** Prefer `thinking`. */
  maxThinkingTokens?: number
  /** The most agentic turns before the run ends with `error_max_turns`. */
  maxTurns?: number
  /** The most to spend before the run ends with `error_max_budget_usd`. */
  maxBudgetUsd?: number
  taskBudget?: {
    total: number
  }
  /** MCP servers, by name: stdio, SSE, HTTP, or in-process (`createSdkMcpServer()`). */
  mcpServers?: Record<string, McpServerConfig>
  mcpServersDelivery?: 'argv' | 'initialize'
  /** The model (alias or id). */
  model?: string
  /** Structured output for the final result. */
  outputFormat?: OutputFormat
  /** The Claude Code executable to run. */
  pathToClaudeCodeExecutable?: string
  permissionMode?: PermissionMode
  planModeInstructions?: string
  /** Required with `permissionMode: 'bypassPermissions'`. */
  allowDangerouslySkipPermissions?: boolean
  /** An MCP tool that answers permission prompts. */
  permissionPromptToolName?: string
  permissionPrompts?: 'host' | 'none'
  plugins?: SdkPluginConfig[]
  pluginDelivery?: 'argv' | 'initialize'
  promptSuggestions?: boolean
  agentProgressSummaries?: boolean
  /** Resume the session with this id. */
  resume?: string
  /** Use this id for the new session. */
  sessionId?: string
  /** With `resume`: resume at this message uuid. */
  resumeSessionAt?: string
  resumeDropsTurn?: string
  sandbox?: SandboxSettings
  /** Settings at flag level: a path to a settings file, or the settings. */
  settings?: string | Settings
  managedSettings?: Settings
  /** Which settings files to read. */
  settingSources?: SettingSource[]
  skills?: string[] | 'all'
  debug?: boolean
  debugFile?: string
  /** Receives the Claude Code process's stderr. */
  stderr?: (data: string) => void
  /** Use only `mcpServers`, ignoring other MCP configuration. */
  strictMcpConfig?: boolean
  /**
   * The system prompt: a string (or parts) replaces Claude Code's; the preset keeps Claude Code's,
   * optionally with `append`.
   */
  systemPrompt?: string | string[] | {
    type: 'custom'
    prompt: string | string[]
    snapshot?: boolean
  } | {
    type: 'preset'
    preset: 'claude_code'
    append?: string
    excludeDynamicSections?: boolean
    snapshot?: boolean
  }
  title?: string
  /** Starts the Claude Code process yourself (e.g. in a container or VM). */
  spawnClaudeCodeProcess?: (options: SpawnOptions) => SpawnedProcess
  /** Ours: bounds on the memory and CPU time of Claude Code and what it starts. */
  resourceLimits?: ResourceLimits
}
