// The messages a Query yields (SDKMessage) and the user messages a streaming prompt sends.
import type { BetaMessage, BetaRawMessageStreamEvent, BetaUsage, MessageParam } from './anthropic.js'
import type { PermissionMode } from './permissions.js'
import type { SlashCommand } from './query.js'

/** A UUID string, as `crypto.randomUUID()` returns (node's `crypto.UUID`). */
export type UUID = `${string}-${string}-${string}-${string}-${string}`

// --- conversation ------------------------------------------------------------------------------

/** Why an assistant message failed. */
export type SDKAssistantMessageError =
  | 'authentication_failed'
  | 'oauth_org_not_allowed'
  | 'account_on_hold'
  | 'verification_required'
  | 'billing_error'
  | 'rate_limit'
  | 'overloaded'
  | 'invalid_request'
  | 'model_not_found'
  | 'server_error'
  | 'unknown'
  | 'max_output_tokens'
  | 'cloud_credential_error'

/** A model response. */
export type SDKAssistantMessage = {
  type: 'assistant'
  /** The Messages API message: `content` holds text, thinking and tool_use blocks. */
  message: BetaMessage
  /** Set when the message belongs to a subagent: the id of the Agent tool call that started it. */
  parent_tool_use_id: string | null
  error?: SDKAssistantMessageError
  uuid: UUID
  session_id: string
  request_id?: string
  user_message_uuid?: string
  user_message_uuids?: string[]
  resume_reason?: string
  resumed_from_incomplete_thinking?: true
  supersedes?: UUID[]
  aborted?: true
  agent_id?: string
  subagent_type?: string
  task_description?: string
  timestamp?: string
  context_usage?: SDKContextUsage
  usage_report?: SDKUsageReport
}

/** Where a user message came from. */
export type SDKMessageOrigin =
  | {
      kind: 'human'
    }
  | {
      kind: 'channel'
      server: string
    }
  | {
      kind: 'peer'
      from: string
      fromMode?: 'bypass' | 'prompting'
      name?: string
      fromSession?: string
      senderTaskId?: string
      body?: string
      verifiedPeerPid?: number
    }
  | {
      kind: 'task-notification'
      subkind?: 'scheduled-trigger' | 'peer-send-message' | 'projects-relay' | 'session-inbox' | 'external-event'
      fireReason?: string
      runId?: string
    }
  | {
      kind: 'coordinator'
    }
  | {
      kind: 'unclassified'
    }
  | {
      kind: 'observer'
      from: string
      senderTaskId: string
    }
  | {
      kind: 'auto-continuation'
    }
  | {
      kind: 'observer-activity'
    }

/**
 * A user message: what a streaming prompt yields (`{ type: 'user', message: { role: 'user',
 * content }, parent_tool_use_id: null }`), and what the query yields for tool results.
 */
export type SDKUserMessage = {
  type: 'user'
  message: MessageParam
  parent_tool_use_id: string | null
  isSynthetic?: boolean
  /** The tool's own result object, for tool_result messages. */
  tool_use_result?: unknown
  /** When a message sent during a turn is handled. */
  priority?: 'now' | 'next' | 'later'
  origin?: SDKMessageOrigin
  shouldQuery?: boolean
  timestamp?: string
  client_composed?: true
  uuid?: UUID
  pasted_content?: MessageParam['content'][]
  inline_pastes?: string[]
  session_id?: string
  agent_id?: string
  subagent_type?: string
  task_description?: string
}

/** A user message of a resumed session, replayed. */
export type SDKUserMessageReplay = {
  type: 'user'
  message: MessageParam
  parent_tool_use_id: string | null
  isSynthetic?: boolean
  tool_use_result?: unknown
  priority?: 'now' | 'next' | 'later'
  origin?: SDKMessageOrigin
  shouldQuery?: boolean
  timestamp?: string
  client_composed?: true
  uuid: UUID
  session_id: string
  isReplay: true
  file_attachments?: unknown[]
}

/** A streaming event of a model response (with `includePartialMessages`). */
export type SDKPartialAssistantMessage = {
  type: 'stream_event'
  event: BetaRawMessageStreamEvent
  parent_tool_use_id: string | null
  uuid: UUID
  session_id: string
  ttft_ms?: number
  user_message_uuid?: string
  user_message_uuids?: string[]
  resume_reason?: string
}

// --- result -------------------------------------------------------------------------------------

/** `usage` of a result: the Messages API usage with every field present. */
export type NonNullableUsage = {
  [K in keyof BetaUsage]: K extends 'fallback_credit' ? BetaUsage[K] : NonNullable<BetaUsage[K]>
}

/** Token use and cost of one model over the session. */
export type ModelUsage = {
  inputTokens: number
  outputTokens: number
  thinkingTokens?: number
  cacheReadInputTokens: number
  cacheCreationInputTokens: number
  cacheCreationEphemeral5mInputTokens?: number
  cacheCreationEphemeral1hInputTokens?: number
  webSearchRequests: number
  costUSD: number
  contextWindow: number
  maxOutputTokens: number
  canonicalModel?: string
  provider?: string
  costBasis?: 'list' | 'managed' | 'unknown'
}

/** A tool call that was denied. */
export type SDKPermissionDenial = {
  tool_name: string
  tool_use_id: string
  tool_input: Record<string, unknown>
}

/** A tool call left for the host to run (the turn ended with it pending). */
export type SDKDeferredToolUse = {
  id: string
  name: string
  input: Record<string, unknown>
}

/** Why the agent loop ended. */
export type TerminalReason =
  | 'blocking_limit'
  | 'rapid_refill_breaker'
  | 'prompt_too_long'
  | 'image_error'
  | 'model_error'
  | 'api_error'
  | 'malformed_tool_use_exhausted'
  | 'aborted_streaming'
  | 'aborted_tools'
  | 'stop_hook_prevented'
  | 'hook_stopped'
  | 'tool_deferred'
  | 'max_turns'
  | 'background_requested'
  | 'completed'
  | 'budget_exhausted'
  | 'structured_output_retry_exhausted'
  | 'tool_deferred_unavailable'
  | 'turn_setup_failed'

export type FastModeState = 'off' | 'cooldown' | 'on'

export type FastModeDisabledReason =
  | 'free'
  | 'preference'
  | 'extra_usage_disabled'
  | 'network_error'
  | 'unknown'
  | 'not_first_party'
  | 'disabled_by_env'
  | 'model_not_allowed'
  | 'sdk_opt_in_required'
  | 'pending'

/** The final message of a successful run. */
export type SDKResultSuccess = {
  type: 'result'
  subtype: 'success'
  duration_ms: number
  duration_api_ms: number
  ttft_ms?: number
  ttft_stream_ms?: number
  time_to_request_ms?: number
  user_message_uuid?: string
  user_message_uuids?: string[]
  resume_reason?: string
  local_command?: string
  request_sent_wall_ms?: number
  first_content_frame_ms?: number
  first_stream_post_ms?: number
  first_stream_post_ack_ms?: number
  first_stream_post_queue_wait_ms?: number
  first_stream_post_queued_behind?: 'durable_post' | 'ephemeral_post' | 'retry_backoff' | 'hold' | 'none'
  first_stream_post_wall_ms?: number
  first_text_post_ms?: number
  first_text_post_queue_wait_ms?: number
  first_text_post_queued_behind?: 'durable_post' | 'ephemeral_post' | 'retry_backoff' | 'hold' | 'none'
  first_text_post_wall_ms?: number
  time_to_request_from_spawn_ms?: number
  warm_spare_claimed?: boolean
  time_origin_ms?: number
  is_error: boolean
  api_error_status?: number | null
  num_turns: number
  /** The final text of the agent. */
  result: string
  stop_reason: string | null
  total_cost_usd: number
  usage: NonNullableUsage
  modelUsage: Record<string, ModelUsage>
  permission_denials: SDKPermissionDenial[]
  queued_turn_count?: number
  /** With `outputFormat`: the validated JSON value. */
  structured_output?: unknown
  deferred_tool_use?: SDKDeferredToolUse
  terminal_reason?: TerminalReason
  result_index?: number
  credential_expires_at?: string
  fast_mode_state?: FastModeState
  fast_mode_disabled_reason?: FastModeDisabledReason
  origin?: SDKMessageOrigin
  uuid: UUID
  session_id: string
}

/** Why a session could not start. */
export type SDKStartupFailureReason =
  | 'org_pin_api_key_conflict'
  | 'provider_not_allowed'
  | 'org_verify_failed'
  | 'org_pin_mismatch'
  | 'managed_settings_invalid'
  | 'remote_settings_required_unavailable'
  | 'gateway_signin_required'
  | 'gateway_access_denied'
  | 'proxy_invalid'
  | 'temp_dir_unusable'
  | 'cwd_unavailable'
  | 'shell_tool_missing'
  | 'session_held_by_background'
  | 'worktree_resume_refused'
  | 'worktree_unverified'
  | 'cli_version_too_old'
  | 'bypass_root'
  | 'org_config_required_unavailable'
  | 'org_config_refused'
  | 'sandbox_required_unavailable'
  | 'initialize_not_first'
  | 'config_file_invalid'
  | 'managed_settings_not_delivered'
  | 'initialize_fields_not_delivered'
  | 'sideload_flags_disabled'

/** The final message of a run that failed or hit a limit. */
export type SDKResultError = {
  type: 'result'
  subtype: 'error_during_execution' | 'error_max_turns' | 'error_max_budget_usd' | 'error_max_structured_output_retries'
  duration_ms: number
  duration_api_ms: number
  is_error: boolean
  num_turns: number
  stop_reason: string | null
  total_cost_usd: number
  usage: NonNullableUsage
  modelUsage: Record<string, ModelUsage>
  permission_denials: SDKPermissionDenial[]
  queued_turn_count?: number
  errors: string[]
  startup_failure_reason?: SDKStartupFailureReason
  invalid_config_file?: {
    path: string
    is_global: boolean
    backup_searched: boolean
    backup_path?: string
  }
  user_message_uuid?: string
  user_message_uuids?: string[]
  resume_reason?: string
  terminal_reason?: TerminalReason
  result_index?: number
  credential_expires_at?: string
  fast_mode_state?: FastModeState
  fast_mode_disabled_reason?: FastModeDisabledReason
  origin?: SDKMessageOrigin
  uuid: UUID
  session_id: string
}

/** The last message of a run; narrow on `subtype`. */
export type SDKResultMessage = SDKResultSuccess | SDKResultError

// --- system -------------------------------------------------------------------------------------

/** Where the API key came from. */
export type ApiKeySource =
  | 'ANTHROPIC_API_KEY'
  | 'apiKeyHelper'
  | '/login managed key'
  | 'none'
  | 'user'
  | 'project'
  | 'org'
  | 'temporary'
  | 'oauth'

/** The first message of a session (`subtype: 'init'`): its tools, model, servers and settings. */
export type SDKSystemMessage = {
  type: 'system'
  subtype: 'init'
  agents?: string[]
  apiKeySource: ApiKeySource
  betas?: string[]
  claude_code_version: string
  cwd: string
  tools: string[]
  mcp_servers: {
    name: string
    status: string
    source?: string
  }[]
  model: string
  permissionMode: PermissionMode
  slash_commands: string[]
  terminal_slash_commands?: string[]
  output_style: string
  skills: string[]
  plugins: {
    name: string
    path: string
    version?: string
  }[]
  plugin_errors?: {
    plugin: string
    type: string
    message: string
    path?: string
    managed_lock?: {
      plugin_enabled: boolean
      name: string
      marketplace?: string
    }
  }[]
  fast_mode_state?: FastModeState
  fast_mode_disabled_reason?: FastModeDisabledReason
  effort?: ('low' | 'medium' | 'high' | 'xhigh' | 'max') | null
  view_mode?: 'focus' | 'default'
  capabilities?: string[]
  uuid: UUID
  session_id: string
}

/** The conversation was compacted. */
export type SDKCompactBoundaryMessage = {
  type: 'system'
  subtype: 'compact_boundary'
  compact_metadata: {
    trigger: 'manual' | 'auto'
    pre_tokens: number
    post_tokens?: number
    duration_ms?: number
    preserved_segment?: {
      head_uuid: UUID
      anchor_uuid: UUID
      tail_uuid: UUID
    }
    preserved_messages?: {
      anchor_uuid: UUID
      uuids: UUID[]
    }
  }
  uuid: UUID
  session_id: string
}

export type SDKStatus = 'compacting' | 'requesting' | null

export type SDKStatusMessage = {
  type: 'system'
  subtype: 'status'
  status: SDKStatus
  permissionMode?: PermissionMode
  compact_result?: 'success' | 'failed'
  compact_error?: string
  uuid: UUID
  session_id: string
}

/** An API request failed and will be retried. */
export type SDKAPIRetryMessage = {
  type: 'system'
  subtype: 'api_retry'
  attempt: number
  max_retries: number
  retry_delay_ms: number
  error_status: number | null
  error: SDKAssistantMessageError
  no_response?: {
    waited_ms: number
    retry_wait_ms: number
  }
  uuid: UUID
  session_id: string
}

export type SDKControlRequestProgressMessage = {
  type: 'system'
  subtype: 'control_request_progress'
  request_id: string
  status: 'started' | 'api_retry'
  attempt?: number
  max_retries?: number
  retry_delay_ms?: number
  error_status?: number | null
  uuid: UUID
  session_id: string
}

export type SDKModelRefusalFallbackMessage = {
  type: 'system'
  subtype: 'model_refusal_fallback'
  trigger: 'refusal'
  direction: 'retry' | 'revert' | 'sticky'
  scope?: 'session' | 'local'
  original_model: string
  fallback_model: string
  request_id: string | null
  api_refusal_category?: string | null
  api_refusal_explanation?: string | null
  retracted_message_uuids?: string[]
  refused_user_message_uuid?: string | null
  content: string
  uuid: UUID
  session_id: string
}

export type SDKModelRefusalNoFallbackMessage = {
  type: 'system'
  subtype: 'model_refusal_no_fallback'
  original_model: string
  request_id: string | null
  api_refusal_category?: string | null
  api_refusal_explanation?: string | null
  refused_user_message_uuid?: string | null
  content: string
  uuid: UUID
  session_id: string
}

export type SDKLocalCommandOutputMessage = {
  type: 'system'
  subtype: 'local_command_output'
  content: string
  uuid: UUID
  session_id: string
}

export type SDKHookStartedMessage = {
  type: 'system'
  subtype: 'hook_started'
  hook_id: string
  hook_name: string
  hook_event: string
  uuid: UUID
  session_id: string
}

export type SDKHookProgressMessage = {
  type: 'system'
  subtype: 'hook_progress'
  hook_id: string
  hook_name: string
  hook_event: string
  stdout: string
  stderr: string
  output: string
  uuid: UUID
  session_id: string
}

export type SDKHookResponseMessage = {
  type: 'system'
  subtype: 'hook_response'
  hook_id: string
  hook_name: string
  hook_event: string
  output: string
  stdout: string
  stderr: string
  exit_code?: number
  outcome: 'success' | 'error' | 'cancelled'
  uuid: UUID
  session_id: string
}

export type SDKPluginInstallMessage = {
  type: 'system'
  subtype: 'plugin_install'
  status: 'started' | 'installed' | 'failed' | 'completed'
  name?: string
  error?: string
  uuid: UUID
  session_id: string
}

/** A tool is still running. */
export type SDKToolProgressMessage = {
  type: 'tool_progress'
  tool_use_id: string
  tool_name: string
  parent_tool_use_id: string | null
  elapsed_time_seconds: number
  task_id?: string
  uuid: UUID
  session_id: string
  heartbeat?: boolean
  subagent_type?: string
  subagent_retry?: {
    agent_id: string
    attempt: number
    max_retries: number
    retry_delay_ms: number
    error_status: number | null
    error_category: string
  }
}

export type SDKAuthStatusMessage = {
  type: 'auth_status'
  isAuthenticating: boolean
  output: string[]
  error?: string
  uuid: UUID
  session_id: string
}

/** A link to an MCP resource produced by a task. */
export type SDKMcpResourceLink = {
  uri: string
  name: string
  title?: string
  description?: string
  mimeType?: string
  size?: number
  annotations?: Record<string, unknown>
}

/** A background task (subagent, shell, workflow…) ended. */
export type SDKTaskNotificationMessage = {
  type: 'system'
  subtype: 'task_notification'
  task_id: string
  run_id?: string
  tool_use_id?: string
  status: 'completed' | 'failed' | 'stopped'
  reason?: 'worker_restart'
  output_file: string
  summary: string
  usage?: {
    total_tokens: number
    tool_uses: number
    duration_ms: number
  }
  resource_links?: SDKMcpResourceLink[]
  skip_transcript?: boolean
  ambient?: boolean
  uuid: UUID
  session_id: string
}

/** A task started. */
export type SDKTaskStartedMessage = {
  type: 'system'
  subtype: 'task_started'
  task_id: string
  run_id?: string
  tool_use_id?: string
  description: string
  subagent_type?: string
  is_backgrounded?: boolean
  spawn_depth?: number
  parent_task_id?: string
  task_type?: string
  workflow_name?: string
  prompt?: string
  skip_transcript?: boolean
  ambient?: boolean
  uuid: UUID
  session_id: string
}

export type SDKTaskUpdatedMessage = {
  type: 'system'
  subtype: 'task_updated'
  task_id: string
  run_id?: string
  patch: {
    status?: 'pending' | 'running' | 'completed' | 'failed' | 'killed' | 'paused'
    description?: string
    end_time?: number
    total_paused_ms?: number
    error?: string
    is_backgrounded?: boolean
  }
  uuid: UUID
  session_id: string
}

export type SDKTaskProgressMessage = {
  type: 'system'
  subtype: 'task_progress'
  task_id: string
  run_id?: string
  tool_use_id?: string
  description: string
  subagent_type?: string
  usage: {
    total_tokens: number
    tool_uses: number
    duration_ms: number
  }
  last_tool_name?: string
  summary?: string
  uuid: UUID
  session_id: string
}

export type SDKBackgroundTasksChangedMessage = {
  type: 'system'
  subtype: 'background_tasks_changed'
  tasks: {
    task_id: string
    run_id?: string
    task_type: string
    subagent_type?: string
    description: string
    parent_task_id?: string
    ambient?: boolean
  }[]
  uuid: UUID
  session_id: string
}

export type SDKThinkingTokensMessage = {
  type: 'system'
  subtype: 'thinking_tokens'
  estimated_tokens: number
  estimated_tokens_delta: number
  user_message_uuid?: string
  uuid: UUID
  session_id: string
}

export type SDKSessionStateChangedMessage = {
  type: 'system'
  subtype: 'session_state_changed'
  state: 'idle' | 'running' | 'requires_action'
  uuid: UUID
  session_id: string
}

export type SDKWorkerShuttingDownMessage = {
  type: 'system'
  subtype: 'worker_shutting_down'
  reason: string
  uuid: UUID
  session_id: string
}

export type SDKCommandsChangedMessage = {
  type: 'system'
  subtype: 'commands_changed'
  commands: SlashCommand[]
  uuid: UUID
  session_id: string
}

export type SDKNotificationMessage = {
  type: 'system'
  subtype: 'notification'
  key: string
  text: string
  priority: 'low' | 'medium' | 'high' | 'immediate'
  color?: string
  timeout_ms?: number
  uuid: UUID
  session_id: string
}

export type SDKFilesPersistedEvent = {
  type: 'system'
  subtype: 'files_persisted'
  files: {
    filename: string
    file_id: string
  }[]
  failed: {
    filename: string
    error: string
  }[]
  processed_at: string
  uuid: UUID
  session_id: string
}

export type SDKToolUseSummaryMessage = {
  type: 'tool_use_summary'
  summary: string
  preceding_tool_use_ids: string[]
  uuid: UUID
  session_id: string
}

export type SDKMemoryRecallMessage = {
  type: 'system'
  subtype: 'memory_recall'
  mode: 'select' | 'synthesize'
  memories: {
    path: string
    scope: 'personal' | 'team' | 'organization'
    content?: string
  }[]
  uuid: UUID
  session_id: string
}

export type SDKRateLimitInfo = {
  status: 'allowed' | 'allowed_warning' | 'rejected'
  resetsAt?: number
  rateLimitType?: 'five_hour' | 'seven_day' | 'seven_day_opus' | 'seven_day_sonnet' | 'seven_day_overage_included' | 'overage'
  utilization?: number
  overageStatus?: 'allowed' | 'allowed_warning' | 'rejected'
  overageResetsAt?: number
  overageDisabledReason?:
    | 'overage_not_provisioned'
    | 'org_level_disabled'
    | 'org_level_disabled_until'
    | 'out_of_credits'
    | 'seat_tier_level_disabled'
    | 'member_level_disabled'
    | 'seat_tier_zero_credit_limit'
    | 'group_zero_credit_limit'
    | 'member_zero_credit_limit'
    | 'org_service_level_disabled'
    | 'no_limits_configured'
    | 'fetch_error'
    | 'unknown'
  isUsingOverage?: boolean
  overageInUse?: boolean
  overageEnabled?: boolean
  surpassedThreshold?: number
  limitScope?: 'service' | 'channel' | 'group_pool'
  errorCode?: 'credits_required'
  canUserPurchaseCredits?: boolean
  hasChargeableSavedPaymentMethod?: boolean
}

export type SDKRateLimitEvent = {
  type: 'rate_limit_event'
  rate_limit_info: SDKRateLimitInfo
  uuid: UUID
  session_id: string
}

export type SDKElicitationCompleteMessage = {
  type: 'system'
  subtype: 'elicitation_complete'
  mcp_server_name: string
  elicitation_id: string
  uuid: UUID
  session_id: string
}

export type SDKPermissionDeniedMessage = {
  type: 'system'
  subtype: 'permission_denied'
  tool_name: string
  tool_use_id: string
  agent_id?: string
  decision_reason_type?: string
  decision_reason?: string
  message: string
  uuid: UUID
  session_id: string
}

export type SDKPromptSuggestionMessage = {
  type: 'prompt_suggestion'
  suggestion: string
  uuid: UUID
  session_id: string
}

export type SDKMirrorErrorMessage = {
  type: 'system'
  subtype: 'mirror_error'
  error: string
  key: {
    projectKey: string
    sessionId: string
    subpath?: string
  }
  uuid: UUID
  session_id: string
}

export type SDKInformationalMessage = {
  type: 'system'
  subtype: 'informational'
  content: string
  level: 'info' | 'notice' | 'suggestion' | 'warning'
  tool_use_id?: string
  prevent_continuation?: boolean
  tag?: string
  uuid: UUID
  session_id: string
}

export type SDKConversationResetMessage = {
  type: 'conversation_reset'
  new_conversation_id: UUID
  uuid: UUID
  session_id: string
  trigger?: 'clear' | 'plan_mode_exit' | 'fresh_session' | 'onboarding'
  user_message_uuid?: string
  timestamp?: string
}

export type SDKSessionWritesLostMessage = {
  type: 'system'
  subtype: 'session_writes_lost'
  error_code: 'ENOSPC' | 'EDQUOT'
  lost: ('transcript' | 'global_config')[]
  transcript_session_ids?: string[]
  uuid: UUID
  session_id: string
}

// --- usage reports attached to assistant messages ------------------------------------------------

export type SDKContextUsageCategory = {
  name: string
  tokens: number
  kind: 'used' | 'free' | 'buffer' | 'deferred'
}

/** How the context window is used. */
export type SDKContextUsage = {
  model: string
  total_tokens: number
  raw_max_tokens: number
  percentage: number
  over_limit?: {
    tokens_over: number
    kind: 'hard_limit' | 'compaction_window'
  }
  categories: SDKContextUsageCategory[]
  mcp_tools: {
    name: string
    server_name: string
    tokens: number
  }[]
  memory_files: {
    path: string
    type: string
    tokens: number
  }[]
  agents: {
    agent_type: string
    source: string
    tokens: number
  }[]
  skills?: {
    name: string
    source: string
    plugin_name?: string
    tokens: number
  }[]
}

/** Cost and rate-limit state of the session. */
export type SDKUsageReport = {
  session: {
    total_cost_usd: number
    total_api_duration_ms: number
    total_duration_ms: number
    total_lines_added: number
    total_lines_removed: number
    model_usage: Record<string, ModelUsage>
  }
  rate_limits: {
    limits:
      | {
          kind: string
          group: string
          percent: number
          resets_at: string | null
          scope?: {
            model?: {
              display_name: string
            } | null
            surface?: {
              display_name: string
            } | null
          } | null
          severity: string
          is_active: boolean
        }[]
      | null
    extra_usage?: {
      is_enabled: boolean
      monthly_limit: number | null
      used_credits: number | null
      utilization: number | null
      currency?: string | null
    } | null
  } | null
}

// --- the union ----------------------------------------------------------------------------------

/** Everything a Query yields. Narrow on `type`, then on `subtype`. */
export type SDKMessage =
  | SDKAssistantMessage
  | SDKUserMessage
  | SDKUserMessageReplay
  | SDKResultMessage
  | SDKSystemMessage
  | SDKPartialAssistantMessage
  | SDKCompactBoundaryMessage
  | SDKStatusMessage
  | SDKAPIRetryMessage
  | SDKControlRequestProgressMessage
  | SDKModelRefusalFallbackMessage
  | SDKModelRefusalNoFallbackMessage
  | SDKLocalCommandOutputMessage
  | SDKHookStartedMessage
  | SDKHookProgressMessage
  | SDKHookResponseMessage
  | SDKPluginInstallMessage
  | SDKToolProgressMessage
  | SDKAuthStatusMessage
  | SDKTaskNotificationMessage
  | SDKTaskStartedMessage
  | SDKTaskUpdatedMessage
  | SDKTaskProgressMessage
  | SDKBackgroundTasksChangedMessage
  | SDKThinkingTokensMessage
  | SDKSessionStateChangedMessage
  | SDKWorkerShuttingDownMessage
  | SDKCommandsChangedMessage
  | SDKNotificationMessage
  | SDKFilesPersistedEvent
  | SDKToolUseSummaryMessage
  | SDKMemoryRecallMessage
  | SDKRateLimitEvent
  | SDKElicitationCompleteMessage
  | SDKPermissionDeniedMessage
  | SDKPromptSuggestionMessage
  | SDKMirrorErrorMessage
  | SDKInformationalMessage
  | SDKConversationResetMessage
  | SDKSessionWritesLostMessage

/** The session's goal (`/goal`) was met or is still pending; `value` is null once cleared. Not part of SDKMessage. */
export type SDKActiveGoalMessage = {
  type: 'active_goal'
  value: {
    condition: string
    iterations: number
    set_at: number
    tokens_at_start: number
    last_reason?: string
  } | null
  uuid: UUID
  session_id: string
}
