// Hooks: the events, what each callback receives, and what it may return.
import type { McpServerProvenance, PermissionUpdate } from './permissions.js'
import type { SDKAssistantMessageError } from './messages.js'

/** Every hook event, as used as a key of `options.hooks`. */
export type HookEvent =
  | 'PreToolUse'
  | 'PostToolUse'
  | 'PostToolUseFailure'
  | 'PostToolBatch'
  | 'Notification'
  | 'UserPromptSubmit'
  | 'UserPromptExpansion'
  | 'SessionStart'
  | 'SessionEnd'
  | 'Stop'
  | 'StopFailure'
  | 'SubagentStart'
  | 'SubagentStop'
  | 'PreCompact'
  | 'PostCompact'
  | 'PreModelSwitch'
  | 'PostModelSwitch'
  | 'PermissionRequest'
  | 'PermissionDenied'
  | 'Setup'
  | 'TeammateIdle'
  | 'TaskCreated'
  | 'TaskCompleted'
  | 'Elicitation'
  | 'ElicitationResult'
  | 'ConfigChange'
  | 'WorktreeCreate'
  | 'WorktreeRemove'
  | 'InstructionsLoaded'
  | 'CwdChanged'
  | 'FileChanged'
  | 'DirectoryAdded'
  | 'MessageDisplay'
  | 'PreSkillShellCommand'

// --- inputs -------------------------------------------------------------------------------------

/** Fields every hook input has. */
export type BaseHookInput = {
  session_id: string
  transcript_path: string
  cwd: string
  /** Correlates the events that follow one user prompt. */
  prompt_id?: string
  permission_mode?: string
  /** Set only when the hook fires inside a subagent. */
  agent_id?: string
  /** The agent type, inside a subagent or in a session started with an agent. */
  agent_type?: string
  /** The reasoning effort of the current turn, on models that support it. */
  effort?: {
    level: string
  }
}

export type PreToolUseHookInput = BaseHookInput & {
  hook_event_name: 'PreToolUse'
  tool_name: string
  tool_input: unknown
  tool_use_id: string
  mcp_server?: McpServerProvenance
}

export type PostToolUseHookInput = BaseHookInput & {
  hook_event_name: 'PostToolUse'
  tool_name: string
  tool_input: unknown
  tool_response: unknown
  tool_use_id: string
  duration_ms?: number
  mcp_server?: McpServerProvenance
}

export type PostToolUseFailureHookInput = BaseHookInput & {
  hook_event_name: 'PostToolUseFailure'
  tool_name: string
  tool_input: unknown
  tool_use_id: string
  error: string
  is_interrupt?: boolean
  duration_ms?: number
  mcp_server?: McpServerProvenance
}

/** One tool call of a batch (PostToolBatch). */
export type PostToolBatchToolCall = {
  tool_name: string
  tool_input: unknown
  tool_use_id: string
  tool_response?: unknown
}

export type PostToolBatchHookInput = BaseHookInput & {
  hook_event_name: 'PostToolBatch'
  tool_calls: PostToolBatchToolCall[]
}

export type PermissionDeniedHookInput = BaseHookInput & {
  hook_event_name: 'PermissionDenied'
  tool_name: string
  tool_input: unknown
  tool_use_id: string
  reason: string
  mcp_server?: McpServerProvenance
}

export type NotificationHookInput = BaseHookInput & {
  hook_event_name: 'Notification'
  message: string
  title?: string
  notification_type: string
}

export type UserPromptSubmitHookInput = BaseHookInput & {
  hook_event_name: 'UserPromptSubmit'
  prompt: string
  source?: 'user' | 'sdk' | 'system' | 'loop_wakeup' | 'schedule_wakeup' | 'poll_event'
  session_title?: string
}

export type UserPromptExpansionHookInput = BaseHookInput & {
  hook_event_name: 'UserPromptExpansion'
  expansion_type: 'slash_command' | 'mcp_prompt'
  command_name: string
  command_args: string
  command_source?: string
  prompt: string
}

export type SessionStartHookInput = BaseHookInput & {
  hook_event_name: 'SessionStart'
  source: 'startup' | 'resume' | 'clear' | 'compact' | 'fork'
  agent_type?: string
  model?: string
  session_title?: string
  seconds_since_last_response?: number
  context_tokens?: number
  prompt_cache_likely_expired?: boolean
  estimated_cache_write_usd?: number
}

/** Why a session ended. */
export type ExitReason = 'clear' | 'resume' | 'logout' | 'prompt_input_exit' | 'other'

export type SessionEndHookInput = BaseHookInput & {
  hook_event_name: 'SessionEnd'
  reason: ExitReason
}

/** A background task still running when the agent stops. */
export type BackgroundTaskSummary = {
  id: string
  /** e.g. `'shell'`, `'subagent'`, `'monitor'`, `'workflow'`. */
  type: string
  status: string
  description: string
  /** Shell tasks: the command line. */
  command?: string
  /** Subagent tasks: the agent type. */
  agent_type?: string
  /** MCP tasks: the server. */
  server?: string
  /** MCP tasks: the tool. */
  tool?: string
  /** Workflow tasks: the workflow. */
  name?: string
}

/** A scheduled (cron) prompt of the session. */
export type SessionCronSummary = {
  id: string
  schedule: string
  recurring: boolean
  prompt: string
}

export type StopHookInput = BaseHookInput & {
  hook_event_name: 'Stop'
  /** True when the agent is already continuing because of a Stop hook. */
  stop_hook_active: boolean
  last_assistant_message?: string
  background_tasks?: BackgroundTaskSummary[]
  session_crons?: SessionCronSummary[]
}

export type StopFailureHookInput = BaseHookInput & {
  hook_event_name: 'StopFailure'
  error: SDKAssistantMessageError
  error_details?: string
  last_assistant_message?: string
}

export type SubagentStartHookInput = BaseHookInput & {
  hook_event_name: 'SubagentStart'
  agent_id: string
  agent_type: string
}

export type SubagentStopHookInput = BaseHookInput & {
  hook_event_name: 'SubagentStop'
  stop_hook_active: boolean
  agent_id: string
  agent_transcript_path: string
  agent_type: string
  last_assistant_message?: string
  background_tasks?: BackgroundTaskSummary[]
  session_crons?: SessionCronSummary[]
}

export type PreCompactHookInput = BaseHookInput & {
  hook_event_name: 'PreCompact'
  trigger: 'manual' | 'auto'
  custom_instructions: string | null
}

export type PostCompactHookInput = BaseHookInput & {
  hook_event_name: 'PostCompact'
  trigger: 'manual' | 'auto'
  compact_summary: string
}

export type PreModelSwitchHookInput = BaseHookInput & {
  hook_event_name: 'PreModelSwitch'
} & {
  from_model: string
  to_model: string
  requested_model: string | null
  source: 'command' | 'picker' | 'sdk'
  context_tokens: number
  prompt_cache_warm: boolean
  cache_ttl: '5m' | '1h'
  estimated_cache_write_usd: number
  pricing: 'configured' | 'catalog' | 'default'
}

export type PostModelSwitchHookInput = BaseHookInput & {
  hook_event_name: 'PostModelSwitch'
} & {
  from_model: string
  to_model: string
  requested_model: string | null
  source: 'command' | 'picker' | 'sdk' | 'auto' | 'resume'
  context_tokens: number
  prompt_cache_warm: boolean
  cache_ttl: '5m' | '1h'
  estimated_cache_write_usd: number
  pricing: 'configured' | 'catalog' | 'default'
}

export type PermissionRequestHookInput = BaseHookInput & {
  hook_event_name: 'PermissionRequest'
  tool_name: string
  tool_input: unknown
  permission_suggestions?: PermissionUpdate[]
  mcp_server?: McpServerProvenance
}

export type SetupHookInput = BaseHookInput & {
  hook_event_name: 'Setup'
  trigger: 'init' | 'maintenance'
}

export type TeammateIdleHookInput = BaseHookInput & {
  hook_event_name: 'TeammateIdle'
  teammate_name: string
  team_name: string
}

export type TaskCreatedHookInput = BaseHookInput & {
  hook_event_name: 'TaskCreated'
  task_id: string
  task_subject: string
  task_description?: string
  teammate_name?: string
  team_name?: string
}

export type TaskCompletedHookInput = BaseHookInput & {
  hook_event_name: 'TaskCompleted'
  task_id: string
  task_subject: string
  task_description?: string
  teammate_name?: string
  team_name?: string
}

export type ElicitationHookInput = BaseHookInput & {
  hook_event_name: 'Elicitation'
  mcp_server_name: string
  message: string
  mode?: 'form' | 'url'
  url?: string
  elicitation_id?: string
  requested_schema?: Record<string, unknown>
}

export type ElicitationResultHookInput = BaseHookInput & {
  hook_event_name: 'ElicitationResult'
  mcp_server_name: string
  elicitation_id?: string
  mode?: 'form' | 'url'
  action: 'accept' | 'decline' | 'cancel'
  content?: Record<string, unknown>
}

export type ConfigChangeHookInput = BaseHookInput & {
  hook_event_name: 'ConfigChange'
  source: 'user_settings' | 'project_settings' | 'local_settings' | 'policy_settings' | 'skills'
  file_path?: string
}

export type InstructionsLoadedHookInput = BaseHookInput & {
  hook_event_name: 'InstructionsLoaded'
  file_path: string
  memory_type: 'User' | 'Project' | 'Local' | 'Managed'
  load_reason: 'session_start' | 'nested_traversal' | 'path_glob_match' | 'include' | 'compact'
  globs?: string[]
  trigger_file_path?: string
  parent_file_path?: string
}

export type WorktreeCreateHookInput = BaseHookInput & {
  hook_event_name: 'WorktreeCreate'
  name: string
}

export type WorktreeRemoveHookInput = BaseHookInput & {
  hook_event_name: 'WorktreeRemove'
  worktree_path: string
}

export type CwdChangedHookInput = BaseHookInput & {
  hook_event_name: 'CwdChanged'
  old_cwd: string
  new_cwd: string
}

export type FileChangedHookInput = BaseHookInput & {
  hook_event_name: 'FileChanged'
  file_path: string
  event: 'change' | 'add' | 'unlink'
}

export type DirectoryAddedHookInput = BaseHookInput & {
  hook_event_name: 'DirectoryAdded'
  directory: string
  source: 'slash_command' | 'register_repo_root'
}

export type MessageDisplayHookInput = BaseHookInput & {
  hook_event_name: 'MessageDisplay'
  turn_id: string
  message_id: string
  index: number
  final: boolean
  delta: string
}

export type PreSkillShellCommandHookInput = BaseHookInput & {
  hook_event_name: 'PreSkillShellCommand'
  /** The shell tool that runs the command: Bash or PowerShell */
  tool_name: string
  tool_input: {
    /** The command as it would run, with arguments filled in */
    command: string
  }
  /** Identifies this command. It names no tool call in the transcript. */
  tool_use_id: string
  /** The skill or command whose text holds the shell command */
  command_name: string
  command_source?: string
  /** Who started the load. user: typed, or sent by an SDK host. claude: the Skill tool, or a turn that Claude scheduled. other: anything else, such as a subagent's preload or a channel message, or not known. */
  invoked_by: 'user' | 'claude' | 'other'
}

/** What a hook callback receives; narrow on `hook_event_name`. */
export type HookInput =
  | PreToolUseHookInput
  | PostToolUseHookInput
  | PostToolUseFailureHookInput
  | PostToolBatchHookInput
  | PermissionDeniedHookInput
  | NotificationHookInput
  | UserPromptSubmitHookInput
  | UserPromptExpansionHookInput
  | SessionStartHookInput
  | SessionEndHookInput
  | StopHookInput
  | StopFailureHookInput
  | SubagentStartHookInput
  | SubagentStopHookInput
  | PreCompactHookInput
  | PostCompactHookInput
  | PreModelSwitchHookInput
  | PostModelSwitchHookInput
  | PermissionRequestHookInput
  | SetupHookInput
  | TeammateIdleHookInput
  | TaskCreatedHookInput
  | TaskCompletedHookInput
  | ElicitationHookInput
  | ElicitationResultHookInput
  | ConfigChangeHookInput
  | InstructionsLoadedHookInput
  | WorktreeCreateHookInput
  | WorktreeRemoveHookInput
  | CwdChangedHookInput
  | FileChangedHookInput
  | DirectoryAddedHookInput
  | MessageDisplayHookInput
  | PreSkillShellCommandHookInput

// --- outputs ------------------------------------------------------------------------------------

/** A hook's decision on a permission: `'defer'` leaves it to the normal flow. */
export type HookPermissionDecision = 'allow' | 'deny' | 'ask' | 'defer'

export type PreToolUseHookSpecificOutput = {
  hookEventName: 'PreToolUse'
  permissionDecision?: HookPermissionDecision
  permissionDecisionReason?: string
  /** The input the tool runs with instead. */
  updatedInput?: Record<string, unknown>
  additionalContext?: string
}

export type UserPromptSubmitHookSpecificOutput = {
  hookEventName: 'UserPromptSubmit'
  additionalContext?: string
  sessionTitle?: string
  suppressOriginalPrompt?: boolean
}

export type UserPromptExpansionHookSpecificOutput = {
  hookEventName: 'UserPromptExpansion'
  additionalContext?: string
  suppressOriginalPrompt?: boolean
}

export type SessionStartHookSpecificOutput = {
  hookEventName: 'SessionStart'
  additionalContext?: string
  initialUserMessage?: string
  sessionTitle?: string
  watchPaths?: string[]
  reloadSkills?: boolean
}

export type SetupHookSpecificOutput = {
  hookEventName: 'Setup'
  additionalContext?: string
}

export type PreModelSwitchHookSpecificOutput = {
  hookEventName: 'PreModelSwitch'
  permissionDecision?: 'allow' | 'deny' | 'ask'
  permissionDecisionReason?: string
}

export type PostModelSwitchHookSpecificOutput = {
  hookEventName: 'PostModelSwitch'
  additionalContext?: string
}

export type SubagentStartHookSpecificOutput = {
  hookEventName: 'SubagentStart'
  additionalContext?: string
}

export type PostToolUseHookSpecificOutput = {
  hookEventName: 'PostToolUse'
  additionalContext?: string
  classifierContext?: string
  /** Replaces the tool's output as the model sees it. */
  updatedToolOutput?: unknown
  updatedMCPToolOutput?: unknown
}

export type PostToolUseFailureHookSpecificOutput = {
  hookEventName: 'PostToolUseFailure'
  additionalContext?: string
}

export type PostToolBatchHookSpecificOutput = {
  hookEventName: 'PostToolBatch'
  additionalContext?: string
}

export type StopHookSpecificOutput = {
  hookEventName: 'Stop'
  additionalContext?: string
}

export type SubagentStopHookSpecificOutput = {
  hookEventName: 'SubagentStop'
  additionalContext?: string
}

export type PermissionDeniedHookSpecificOutput = {
  hookEventName: 'PermissionDenied'
  /** Let the model retry the denied call. */
  retry?: boolean
}

export type NotificationHookSpecificOutput = {
  hookEventName: 'Notification'
  additionalContext?: string
}

export type PermissionRequestHookSpecificOutput = {
  hookEventName: 'PermissionRequest'
  decision:
    | {
        behavior: 'allow'
        updatedInput?: Record<string, unknown>
        updatedPermissions?: PermissionUpdate[]
      }
    | {
        behavior: 'deny'
        message?: string
        interrupt?: boolean
      }
}

export type ElicitationHookSpecificOutput = {
  hookEventName: 'Elicitation'
  action?: 'accept' | 'decline' | 'cancel'
  content?: Record<string, unknown>
}

export type ElicitationResultHookSpecificOutput = {
  hookEventName: 'ElicitationResult'
  action?: 'accept' | 'decline' | 'cancel'
  content?: Record<string, unknown>
}

export type CwdChangedHookSpecificOutput = {
  hookEventName: 'CwdChanged'
  watchPaths?: string[]
}

export type FileChangedHookSpecificOutput = {
  hookEventName: 'FileChanged'
  watchPaths?: string[]
}

export type WorktreeCreateHookSpecificOutput = {
  hookEventName: 'WorktreeCreate'
  worktreePath: string
}

export type MessageDisplayHookSpecificOutput = {
  hookEventName: 'MessageDisplay'
  displayContent?: string
}

export type PreSkillShellCommandHookSpecificOutput = {
  hookEventName: 'PreSkillShellCommand'
  /** allow adds nothing: the command runs unless a hook refuses it. deny, ask and defer all keep it from running. */
  permissionDecision?: HookPermissionDecision
  permissionDecisionReason?: string
  /** Never applied. Any value keeps the command from running. */
  updatedInput?: Record<string, unknown>
}

/** A hook's answer, given when the callback resolves. */
export type SyncHookJSONOutput = {
  /** `false` stops the agent after this hook (default `true`). */
  continue?: boolean
  /** Keep the hook's output out of the transcript. */
  suppressOutput?: boolean
  /** Shown when `continue` is false. */
  stopReason?: string
  decision?: 'approve' | 'block'
  /** A message shown to the user. */
  systemMessage?: string
  terminalSequence?: string
  /** Why, for `decision`. */
  reason?: string
  hookSpecificOutput?:
    | PreToolUseHookSpecificOutput
    | UserPromptSubmitHookSpecificOutput
    | UserPromptExpansionHookSpecificOutput
    | SessionStartHookSpecificOutput
    | SetupHookSpecificOutput
    | PreModelSwitchHookSpecificOutput
    | PostModelSwitchHookSpecificOutput
    | SubagentStartHookSpecificOutput
    | PostToolUseHookSpecificOutput
    | PostToolUseFailureHookSpecificOutput
    | PostToolBatchHookSpecificOutput
    | StopHookSpecificOutput
    | SubagentStopHookSpecificOutput
    | PermissionDeniedHookSpecificOutput
    | NotificationHookSpecificOutput
    | PermissionRequestHookSpecificOutput
    | ElicitationHookSpecificOutput
    | ElicitationResultHookSpecificOutput
    | CwdChangedHookSpecificOutput
    | FileChangedHookSpecificOutput
    | WorktreeCreateHookSpecificOutput
    | MessageDisplayHookSpecificOutput
    | PreSkillShellCommandHookSpecificOutput
}

/** Answer that the hook runs in the background; the agent does not wait for it. */
export type AsyncHookJSONOutput = {
  async: true
  asyncTimeout?: number
}

export type HookJSONOutput = AsyncHookJSONOutput | SyncHookJSONOutput

/** A hook callback. `toolUseID` is set for tool events. */
export type HookCallback = (
  input: HookInput,
  toolUseID: string | undefined,
  options: {
    signal: AbortSignal
  },
) => Promise<HookJSONOutput>

/** Hook callbacks for one event, optionally limited by `matcher` (e.g. a tool name pattern). */
export interface HookCallbackMatcher {
  matcher?: string
  hooks: HookCallback[]
  /** Timeout in seconds for these hooks. */
  timeout?: number
  /** What a failing hook does: `'continue'` (default) warns; `'block'` blocks the guarded action. */
  onFailure?: 'continue' | 'block'
}
