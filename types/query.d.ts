// The Query object query() returns, and what its control methods resolve to.
import type { SDKMessage, SDKUserMessage, ModelUsage, FastModeState, FastModeDisabledReason } from './messages.js'
import type { PermissionMode } from './permissions.js'
import type { McpServerConfig, McpServerStatus, McpSetServersResult } from './mcp-servers.js'
import type { EffortLevel, SdkPluginConfig } from './options.js'
import type { Settings } from './settings.js'

/** A slash command (or skill) the session offers. */
export type SlashCommand = {
  name: string
  description: string
  argumentHint: string
  aliases?: string[]
  builtin?: boolean
}

/** A model the session can use. */
export type ModelInfo = {
  /** The value to pass as `model`. */
  value: string
  resolvedModel?: string
  displayName: string
  description: string
  supportsEffort?: boolean
  supportedEffortLevels?: ('low' | 'medium' | 'high' | 'xhigh' | 'max')[]
  supportsAdaptiveThinking?: boolean
  supportsFastMode?: boolean
  supportsAutoMode?: boolean
}

/** A subagent the session can start. */
export type AgentInfo = {
  name: string
  description: string
  model?: string
}

/** The logged-in account. */
export type AccountInfo = {
  email?: string
  organization?: string
  subscriptionType?: string
  tokenSource?: string
  apiKeySource?: string
  apiProvider?: 'firstParty' | 'bedrock' | 'vertex' | 'foundry' | 'anthropicAws' | 'anthropicGoogleCloud' | 'mantle' | 'gateway'
}

/** What `rewindFiles()` did (or, with `dryRun`, would do). */
export type RewindFilesResult = {
  canRewind: boolean
  error?: string
  filesChanged?: string[]
  insertions?: number
  deletions?: number
  skippedLinks?: number
}

/** What `setPermissionMode()` resolves with. */
export type SDKControlSetPermissionModeResponse = {
  /** The permission mode now in effect, which can differ from the one asked for. `claude -p` names it; other hosts may answer with no payload. */
  mode?: PermissionMode
}

export type SDKControlInterruptResponse = {
  still_queued: string[]
  cancelled?: string[]
}

/** The session's answer to the SDK's `initialize` request. */
export type SDKControlInitializeResponse = {
  commands: SlashCommand[]
  agents: AgentInfo[]
  output_style: string
  available_output_styles: string[]
  models: ModelInfo[]
  account: AccountInfo
  hooks_applied?: boolean
  hook_on_failure_supported?: boolean
  plugins_applied?: boolean
  mcp_servers_applied?: boolean
  sdk_mcp_manifests_parked?: Record<string, 'parked' | 'already_connected' | 'protocol_version_mismatch' | 'malformed' | 'not_honoured'>
  claude_code_version?: string
  fast_mode_state?: FastModeState
  fast_mode_disabled_reason?: FastModeDisabledReason
}

type ContextCategoryKind = 'used' | 'free' | 'buffer' | 'deferred'

/** A breakdown of the context window (`getContextUsage()`). */
export type SDKControlGetContextUsageResponse = {
  categories: {
    id?:
      | 'system_prompt'
      | 'system_tools'
      | 'mcp_tools'
      | 'mcp_instructions'
      | 'mcp_tools_deferred'
      | 'system_tools_deferred'
      | 'custom_agents'
      | 'memory_files'
      | 'skills'
      | 'messages'
      | 'autocompact_buffer'
      | 'compact_buffer'
      | 'free_space'
    name: string
    tokens: number
    color: string
    isDeferred?: boolean
    kind: ContextCategoryKind
  }[]
  totalTokens: number
  maxTokens: number
  rawMaxTokens: number
  percentage: number
  gridRows: {
    color: string
    isFilled: boolean
    categoryName: string
    tokens: number
    percentage: number
    squareFullness: number
  }[][]
  model: string
  memoryFiles: {
    path: string
    type: string
    tokens: number
  }[]
  mcpTools: {
    name: string
    serverName: string
    tokens: number
    isLoaded?: boolean
  }[]
  mcpInstructions?: {
    serverName: string
    tokens: number
  }[]
  deferredBuiltinTools?: {
    name: string
    tokens: number
    isLoaded: boolean
  }[]
  systemTools?: {
    name: string
    tokens: number
  }[]
  systemPromptSections?: {
    name: string
    tokens: number
  }[]
  agents: {
    agentType: string
    source: string
    pluginId?: string
    path?: string
    tokens: number
  }[]
  slashCommands?: {
    totalCommands: number
    includedCommands: number
    tokens: number
  }
  skills?: {
    totalSkills: number
    includedSkills: number
    tokens: number
    skillFrontmatter: {
      name: string
      source: string
      pluginName?: string
      pluginId?: string
      path?: string
      tokens: number
    }[]
  }
  autoCompactThreshold?: number
  isAutoCompactEnabled: boolean
  messageBreakdown?: {
    toolCallTokens: number
    toolResultTokens: number
    attachmentTokens: number
    assistantMessageTokens: number
    userMessageTokens: number
    redirectedContextTokens: number
    unattributedTokens: number
    toolCallsByType: {
      name: string
      callTokens: number
      resultTokens: number
    }[]
    attachmentsByType: {
      name: string
      tokens: number
    }[]
  }
  apiUsage: {
    input_tokens: number
    output_tokens: number
    cache_creation_input_tokens: number
    cache_read_input_tokens: number
  } | null
}

type UsageWindow = {
  utilization: number | null
  resets_at: string | null
} | null

type UsageBehaviorsPeriod = {
  request_count: number
  session_count: number
  behaviors: {
    key:
      | 'cache_miss'
      | 'long_context'
      | 'subagent_heavy'
      | 'high_parallel'
      | 'cron'
      | 'max_effort'
      | 'workflow'
      | 'always_on_context'
      | 'large_tool_results'
    pct: number
    count: number
  }[]
  recommendations?: {
    key: string
    pct: number
    title: string
    detail?: string
  }[]
  fix?: {
    keys: string[]
    messages: string[]
  }
  agents: {
    name: string
    pct: number
  }[]
  skills: {
    name: string
    pct: number
  }[]
  plugins: {
    name: string
    pct: number
  }[]
  mcp_servers: {
    name: string
    pct: number
  }[]
}

/** Cost, rate limits and usage patterns (experimental). */
export type SDKControlGetUsageResponse = {
  session: {
    total_cost_usd: number
    total_api_duration_ms: number
    total_duration_ms: number
    total_lines_added: number
    total_lines_removed: number
    model_usage: Record<string, ModelUsage>
  }
  subscription_type: string | null
  rate_limits_available: boolean
  rate_limits: {
    five_hour?: UsageWindow
    seven_day?: UsageWindow
    seven_day_oauth_apps?: UsageWindow
    seven_day_opus?: UsageWindow
    seven_day_sonnet?: UsageWindow
    model_scoped?: {
      display_name: string
      utilization: number | null
      resets_at: string | null
    }[]
    extra_usage?: {
      is_enabled: boolean
      monthly_limit: number | null
      used_credits: number | null
      utilization: number | null
      currency?: string | null
    } | null
  } | null
  behaviors: {
    day: UsageBehaviorsPeriod
    week: UsageBehaviorsPeriod
  } | null
}

export type SDKControlReadFileResponse = {
  contents: string
  absPath: string
  truncated?: boolean
  encoding?: 'base64'
  lossy?: boolean
}

export type SDKControlReloadPluginsResponse = {
  commands: SlashCommand[]
  agents: AgentInfo[]
  plugins: {
    name: string
    path: string
    source?: string
    version?: string
  }[]
  mcpServers: McpServerStatus[]
  error_count: number
  held?: boolean
  cache_impact?: {
    mcp_servers_added: string[]
    mcp_servers_removed: string[]
    lsp_tool_change: ('adds' | 'may-add' | 'removes' | 'may-remove') | null
  }
}

export type SDKControlReloadSkillsResponse = {
  skills: SlashCommand[]
}

export type SDKControlReloadOutputStylesResponse = {
  available_output_styles: string[]
}

export type SDKControlMcpReadResourceResponse = {
  contents: {
    uri: string
    mimeType?: string
    text?: string
    blob?: string
    _meta?: Record<string, unknown>
  }[]
}

/**
 * A running query: an async generator of the session's messages, plus control methods. The
 * control methods need streaming input (an AsyncIterable prompt) to be useful after the first turn.
 */
export interface Query extends AsyncGenerator<SDKMessage, void> {
  /** Stops the current turn. */
  interrupt(): Promise<SDKControlInterruptResponse | undefined>
  /**
   * Changes the permission mode for the rest of the session. Resolves with the permission mode
   * now in effect, which is not always the mode asked for: record `mode`, not the argument.
   * Resolves to `undefined` where the answer names no mode, or one outside PermissionMode; the
   * argument is then only a best guess. Rejects where the mode is refused.
   */
  setPermissionMode(mode: PermissionMode): Promise<SDKControlSetPermissionModeResponse | undefined>
  setMcpPermissionModeOverride(serverName: string, mode: 'default' | 'auto' | null): Promise<{
    warning?: string
  }>
  /** Changes the model; no argument restores the default. */
  setModel(model?: string): Promise<void>
  /** Changes the thinking budget; `null` removes the limit. */
  setMaxThinkingTokens(maxThinkingTokens: number | null, thinkingDisplay?: 'summarized' | 'omitted' | 'highlights' | null): Promise<void>
  /** Applies settings at flag level for the rest of the session; `null` clears a key. */
  applyFlagSettings(settings: {
    [K in keyof Settings]?: K extends 'effortLevel' ? EffortLevel | null : Settings[K] | null
  }): Promise<void>
  updateSettings(source: 'localSettings' | 'userSettings', settings: Record<string, unknown>): Promise<void>
  /** The session's answer to `initialize`: commands, agents, models, account. */
  initializationResult(): Promise<SDKControlInitializeResponse>
  reinitialize(): Promise<SDKControlInitializeResponse>
  supportedCommands(): Promise<SlashCommand[]>
  supportedModels(): Promise<ModelInfo[]>
  supportedAgents(): Promise<AgentInfo[]>
  /** The state of every MCP server of the session. */
  mcpServerStatus(): Promise<McpServerStatus[]>
  getContextUsage(opts?: {
    detail?: 'summary' | 'full'
  }): Promise<SDKControlGetContextUsageResponse>
  usage_EXPERIMENTAL_MAY_CHANGE_DO_NOT_RELY_ON_THIS_API_YET(opts?: {
    skipBehaviors?: boolean
  }): Promise<SDKControlGetUsageResponse>
  readFile(path: string, options?: {
    maxBytes?: number
    encoding?: 'utf-8' | 'base64'
  }): Promise<SDKControlReadFileResponse | null>
  reloadPlugins(options?: {
    holdOnCacheImpact?: boolean
    addPlugins?: SdkPluginConfig[]
    refuseIfBusy?: boolean
  }): Promise<SDKControlReloadPluginsResponse>
  reloadSkills(): Promise<SDKControlReloadSkillsResponse>
  reloadOutputStyles(): Promise<SDKControlReloadOutputStylesResponse>
  accountInfo(): Promise<AccountInfo>
  /** Restores files to their state at a user message (needs `enableFileCheckpointing`). */
  rewindFiles(userMessageId: string, options?: {
    dryRun?: boolean
  }): Promise<RewindFilesResult>
  seedReadState(path: string, mtime: number): Promise<void>
  reconnectMcpServer(serverName: string): Promise<void>
  toggleMcpServer(serverName: string, enabled: boolean): Promise<void>
  readMcpResource(serverName: string, uri: string): Promise<SDKControlMcpReadResourceResponse>
  /** Replaces the dynamically added MCP servers. */
  setMcpServers(servers: Record<string, McpServerConfig>): Promise<McpSetServersResult>
  /** Sends more user messages (streaming input). */
  streamInput(stream: AsyncIterable<SDKUserMessage>): Promise<void>
  stopTask(taskId: string): Promise<void>
  backgroundTasks(toolUseId?: string): Promise<boolean>
  /** Ends the query and its Claude Code process. */
  close(): void
}

/**
 * A pre-warmed session from `startup()`: the Claude Code process is running and initialized, so
 * `query()` starts at once. Use it once, or `close()` it (or dispose of it) unused.
 */
export interface WarmQuery extends AsyncDisposable {
  /** Sends the prompt to the warm process; only once per WarmQuery. */
  query(prompt: string | AsyncIterable<SDKUserMessage>): Query
  /** Stops the warm process without using it. */
  close(): void
}
