// Typings of the official SDK's remaining runtime exports: constants, settings and model helpers,
// prewarm() and its SpareProcess — structurally the same as the official declarations. And the
// declarations of the classes the official package exports at run time without declaring them
// (FileIndex, CommandMatcher, DirectConnectTransport, DirectConnectError, parseDirectConnectUrl).
import type { AgentDefinition, Options, SettingSource } from './options.js'
import type { PermissionMode } from './permissions.js'
import type { Query } from './query.js'
import type { SDKUserMessage } from './messages.js'
import type { Settings } from './settings.js'

export declare const HOOK_EVENTS: readonly ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'Notification', 'UserPromptSubmit', 'UserPromptExpansion', 'SessionStart', 'SessionEnd', 'Stop', 'StopFailure', 'SubagentStart', 'SubagentStop', 'PreCompact', 'PostCompact', 'PreModelSwitch', 'PostModelSwitch', 'PermissionRequest', 'PermissionDenied', 'Setup', 'TeammateIdle', 'TaskCreated', 'TaskCompleted', 'Elicitation', 'ElicitationResult', 'ConfigChange', 'WorktreeCreate', 'WorktreeRemove', 'InstructionsLoaded', 'CwdChanged', 'FileChanged', 'DirectoryAdded', 'MessageDisplay', 'PreSkillShellCommand']
export declare const EXIT_REASONS: readonly ['clear', 'resume', 'logout', 'prompt_input_exit', 'other']
export declare const BUILTIN_TOOL_NAMES: readonly ['Agent', 'Artifact', 'AskUserQuestion', 'Bash', 'ClaudeDesign', 'CronCreate', 'CronDelete', 'CronList', 'Edit', 'EndConversation', 'EnterPlanMode', 'EnterWorktree', 'ExitPlanMode', 'ExitWorktree', 'Glob', 'Grep', 'ListAgents', 'ListMcpResourcesTool', 'LSP', 'Monitor', 'NotebookEdit', 'OfferChromeSetup', 'PowerShell', 'Projects', 'propose_skills', 'PushNotification', 'Read', 'ReadMcpResourceDirTool', 'ReadMcpResourceTool', 'ReadNotifications', 'RemoteTrigger', 'ReportFindings', 'ScheduleWakeup', 'SendFeedback', 'SendMessage', 'SendUserFile', 'SendUserMessage', 'SetGoal', 'ShareOnboardingGuide', 'ShowOnboardingRolePicker', 'Skill', 'SubagentHandback', 'TaskCreate', 'TaskGet', 'TaskList', 'TaskStop', 'TaskUpdate', 'TodoWrite', 'ToolSearch', 'WaitForMcpServers', 'WebFetch', 'WebSearch', 'Workflow', 'Write']
export declare const LEGACY_TOOL_NAME_ALIASES: Readonly<Record<string, string>>
export declare const USAGE_LIMIT_ERROR_PREFIXES: readonly ["You've hit your", "You've reached your", "You're out of usage credits", 'Your org is out of usage · add funds to continue', 'Your org is out of usage · contact your admin', "Your seat type doesn't include usage credits", "Your seat type doesn't include usage", 'Your usage allocation has been disabled by your admin', "Your group's usage limit is set to $0", 'Fable 5 requires usage credits', "You're out of extra usage", "Your seat type doesn't include extra usage"]
export declare const USAGE_TRANSITION_PREFIXES: readonly ["You're now using usage credits", "You're now using your usage allocation", 'Now using your usage allocation', 'Now using usage credits', 'Now using credits', "You're now using extra usage", 'Now using extra usage']
export declare const USAGE_WARNING_PREFIXES: readonly ["You've used", "You're close to"]
export declare const ORG_POLICY_LIMIT_PREFIXES: readonly ['This service is disabled for your org']
export declare const SYSTEM_PROMPT_DYNAMIC_BOUNDARY = '__SYSTEM_PROMPT_DYNAMIC_BOUNDARY__'

// --- settings ------------------------------------------------------------------------------------

/** Which policy sub-source supplied a managed value. */
export type PolicySettingsOrigin = 'helper' | 'remote' | 'plist' | 'hklm' | 'file' | 'parent' | 'hkcu'

/** Source that contributed an effective setting value (`'managed'`: the policy tier; `'flag'`: `--settings`). */
export type ResolvedSettingSource = SettingSource | 'managed' | 'flag'

/** Per-key provenance entry. */
export type ProvenanceEntry = {
  source: ResolvedSettingSource
  /** Absolute path to the settings file, for filesystem-backed sources. */
  path?: string
  /** Which policy sub-source supplied the value, when `source === 'managed'`. */
  policyOrigin?: PolicySettingsOrigin
}

/** Result of {@link resolveSettings}. */
export type ResolvedSettings = {
  /** Merged settings after applying all enabled sources in precedence order. */
  effective: Settings
  /** For each top-level key in `effective`, which source supplied the value. */
  provenance: Partial<Record<keyof Settings, ProvenanceEntry>>
  /** Per-source raw settings, low→high precedence. */
  sources: Array<{
    source: ResolvedSettingSource
    settings: Settings
    path?: string
    policyOrigin?: PolicySettingsOrigin
  }>
  /** What became of this machine's own policy sources: `false`, or the kinds that did not load. */
  machinePolicy?: {
    didNotLoad: false | Array<'profile' | 'registry' | 'file'>
    /**
     * There, and `true`, from the first time in this process that a re-read of the registry
     * policy found other settings than those in force although `registryPolicyFingerprint` had
     * answered the same around the read before. It stays for the rest of the process.
     */
    registryPolicyDifferedFromFingerprint?: true
  }
}

/** Options for {@link resolveSettings}. */
export type ResolveSettingsOptions = {
  /** Directory to resolve project/local settings relative to (default: the process's cwd). */
  cwd?: string
  /** Which filesystem settings sources to load (default: all). */
  settingSources?: SettingSource[]
  /** Restrictive policy-tier settings, as `Options.managedSettings`. */
  managedSettings?: Settings
  /** Server-managed settings payload (the `'remote'` policy sub-source). */
  serverManagedSettings?: Settings
  /**
   * On native Windows, spares re-reads of the registry policy (each starts reg.exe twice): for the
   * `Settings` value of `SOFTWARE\Policies\ClaudeCode` in each hive, `null` where it is not
   * there, else a text that changes whenever its type or text changes; `undefined` where either
   * cannot be told. Called synchronously; a throw or an ill-shaped answer counts as `undefined`.
   * Pass it on every call.
   * @alpha
   */
  registryPolicyFingerprint?: () => {
    hklm: string | null
    hkcu: string | null
  } | undefined
}

/** The settings cascade the CLI reads (user, project, local, managed), merged, with provenance. */
export declare function resolveSettings(_opts?: ResolveSettingsOptions): Promise<ResolvedSettings>

/** `effective` without an escalating `permissions.defaultMode` that a repository's own files set. */
export declare function filterEscalatingDefaultMode(_resolved: ResolvedSettings): Settings

/** What {@link matchDeniedModels} answers. */
export type DeniedModelsMatch = {
  /** For each model asked about, in order: whether an entry blocks it. */
  denied: boolean[]
  /** Notes on entries: why one was ignored, or what one blocks where that may surprise. */
  warnings: string[]
}

/** Which of `models` a `deniedModels` list blocks, with notes on its entries. */
export declare function matchDeniedModels(_models: readonly string[], _deniedModels: readonly string[] | undefined): Promise<DeniedModelsMatch>

// --- prewarm -------------------------------------------------------------------------------------

/** What a claim of a {@link SpareProcess} sets: the per-session part of the options. */
export type ClaimOptions = {
  /** The session's working directory (required). */
  cwd: string
  /** Per-session environment additions the CLI accepts at claim time. */
  env?: Record<string, string>
  /** As `--add-dir`; relative entries resolve against `cwd`. */
  additionalDirectories?: string[]
  model?: string
  /** As `Options.permissionMode`, part of the claim itself (a mode the process cannot take refuses it). */
  permissionMode?: PermissionMode
  maxThinkingTokens?: number | null
  /** Flag-tier settings overlay, applied as `applyFlagSettings` does (hook settings are refused). */
  settings?: Parameters<Query['applyFlagSettings']>[0]
  appendSystemPrompt?: string
  title?: string
  agents?: Record<string, AgentDefinition>
}

/** A parked, fully started Claude Code process that is not yet any session (see {@link prewarm}). */
export interface SpareProcess extends AsyncDisposable {
  /** Binds the spare to a session and sends its first message; returns the Query. Once only. */
  claim(params: {
    prompt: string | AsyncIterable<SDKUserMessage>
    options: ClaimOptions
  }): Query
  /** Settles once the process has answered the claim (rejects with the reason when refused). */
  readonly claimed: Promise<{
    cwd: string
    sessionId: string
    parkedMs?: number
    sdkMcpSettled: boolean
  }>
  /** Settles when the spare's process exits, claimed or not. */
  readonly exited: Promise<void>
  /** Terminates the process: before a claim this discards the spare (and rejects `claimed`). */
  close(): void
}

/** Starts a Claude Code process as a parked spare, to be claimed later by a session. */
export declare function prewarm(_params?: {
  options?: Options
  /** The most time, in milliseconds, to wait for the spare process to initialize. Defaults to 60000. */
  initializeTimeoutMs?: number
}): Promise<SpareProcess>

// --- exported at run time by the official package, undeclared there ------------------------------

/** Fuzzy search over file paths (an "@" file picker). */
export declare class FileIndex {
  loadFromFileList(paths: readonly string[]): void
  loadFromFileListAsync(paths: readonly string[]): { queryable: Promise<void>; done: Promise<boolean> }
  search(query: string, limit: number): Array<{ path: string; score: number; positions: number[] }>
}

/** A slash command as CommandMatcher ranks it. */
export type CommandMatcherCandidate = { name: string; displayName: string; aliases?: string[]; description?: string }

/** Ranks slash commands for a typed query. */
export declare class CommandMatcher<C extends CommandMatcherCandidate = CommandMatcherCandidate> {
  constructor(candidates: readonly C[])
  search(query: string, options?: { getScoreBoost?: (candidate: C) => number; filter?: (candidate: C) => boolean }): C[]
}

/** An error of {@link DirectConnectTransport}; `code` names the failure. */
export declare class DirectConnectError extends Error {
  code: string | undefined
  constructor(message: string, code?: string)
}

/** Connection options of a {@link DirectConnectTransport}. */
export type DirectConnectOptions = {
  serverUrl: string
  authToken?: string
  cwd?: string
  sessionKey?: string
  permissionMode?: PermissionMode
  abortController?: AbortController
  deleteSessionOnClose?: boolean
}

/** A transport to a Claude Code server: a session over HTTP, its messages over a WebSocket. */
export declare class DirectConnectTransport {
  constructor(options: DirectConnectOptions)
  readonly ready: Promise<void>
  getSessionId(): string | undefined
  getWorkDir(): string | undefined
  write(data: string): Promise<void>
  isReady(): boolean
  endInput(): void
  close(): void
  readMessages(): AsyncGenerator<unknown, void, unknown>
}

/** `cc://host:port/token`, `host:port` or an http(s) URL as a server URL and token. */
export declare function parseDirectConnectUrl(url: string): { serverUrl: string; authToken: string | undefined }
