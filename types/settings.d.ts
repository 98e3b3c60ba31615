// Claude Code settings (settings.json), as `options.settings` / `options.managedSettings` take
// them and `Query.applyFlagSettings()` changes them. Unknown keys are allowed.

import type { SandboxNetworkConfig } from './options.js'

type StringMap = {
  [k: string]: string
}

type UnknownMap = {
  [k: string]: unknown
}

/** A hook command of settings.json. */
type SettingsHookCommand =
  | {
      type: 'command'
      command: string
      args?: string[]
      if?: string
      shell?: 'bash' | 'powershell'
      timeout?: number
      onFailure?: 'continue' | 'block'
      statusMessage?: string
      once?: boolean
      async?: boolean
      asyncRewake?: boolean
    }
  | {
      type: 'prompt'
      prompt: string
      if?: string
      timeout?: number
      model?: string
      continueOnBlock?: boolean
      statusMessage?: string
      once?: boolean
    }
  | {
      type: 'agent'
      prompt: string
      if?: string
      timeout?: number
      model?: string
      statusMessage?: string
      once?: boolean
    }
  | {
      type: 'http'
      url: string
      if?: string
      timeout?: number
      onFailure?: 'continue' | 'block'
      headers?: StringMap
      allowedEnvVars?: string[]
      statusMessage?: string
      once?: boolean
    }
  | {
      type: 'mcp_tool'
      server: string
      tool: string
      input?: UnknownMap
      if?: string
      timeout?: number
      onFailure?: 'continue' | 'block'
      statusMessage?: string
      once?: boolean
    }

/** Where a plugin of an inline (`source: 'settings'`) marketplace comes from. */
type SettingsPluginSource =
  | string
  | {
      source: 'npm'
      package: string
      version?: string
      registry?: string
    }
  | {
      source: 'url'
      url: string
      ref?: string
      sha?: string
    }
  | {
      source: 'github'
      repo: string
      ref?: string
      sha?: string
    }
  | {
      source: 'git-subdir'
      url: string
      path: string
      ref?: string
      sha?: string
    }
  | {
      source: 'archive'
      url: string
      sha256?: string
    }
  | {
      source: 'command'
      command: string
      timeout?: number
      mode?: 'copy' | 'link'
    }
  | {
      source: 'unsupported'
      error?: string
    }

/** Where a plugin marketplace comes from. */
type SettingsMarketplaceSource =
  | {
      source: 'url'
      url: string
      headers?: StringMap
      headersHelper?: string
    }
  | {
      source: 'github'
      repo: string
      ref?: string
      path?: string
      sparsePaths?: string[]
      skipLfs?: boolean
    }
  | {
      source: 'git'
      url: string
      ref?: string
      path?: string
      sparsePaths?: string[]
      skipLfs?: boolean
    }
  | {
      source: 'npm'
      package: string
      version?: string
      registry?: string
    }
  | {
      source: 'file'
      path: string
    }
  | {
      source: 'directory'
      path: string
    }
  | {
      source: 'skills-dir'
    }
  | {
      source: 'hostPattern'
      hostPattern: string
    }
  | {
      source: 'pathPattern'
      pathPattern: string
    }
  | {
      source: 'settings'
      name: string
      plugins: {
        name: string
        source: SettingsPluginSource
        description?: string
        version?: string
        strict?: boolean
        engines?: UnknownMap
        headers?: StringMap
        headersHelper?: string
      }[]
      owner?: {
        name: string
        email?: string
        url?: string
      }
    }

/** A marketplace entry of `extraKnownMarketplaces` / `additionalMarketplaces`. */
type SettingsMarketplace = {
  source: SettingsMarketplaceSource
  installLocation?: string
  autoUpdate?: boolean
  pluginDigests?: {
    [k: string]: string[]
  }
}

/** An MCP server matcher of `allowedMcpServers` / `deniedMcpServers`. */
type SettingsMcpServerMatcher = {
  serverName?: string
  serverCommand?: [string, ...string[]]
  serverUrl?: string
}

type SettingsPluginOptionValue = string | number | boolean | string[]

/** Claude Code settings. */
export interface Settings {
  $schema?: string
  apiKeyHelper?: string
  proxyAuthHelper?: string
  awsCredentialExport?: string
  awsAuthRefresh?: string
  gcpAuthRefresh?: string
  processWrapper?: string
  policyHelper?: {
    path: string
    timeoutMs?: number
    refreshIntervalMs?: 0 | number
  }
  fileSuggestion?: {
    type: 'command'
    command: string
  }
  respectGitignore?: boolean
  cleanupPeriodDays?: number
  desktopSessionCleanupPeriodDays?: number
  syncClaudeAiSkills?: boolean
  syncClaudeAiPlugins?: boolean
  skillListingMaxDescChars?: number
  skillListingBudgetFraction?: number
  wslInheritsWindowsSettings?: boolean
  /** Environment variables of the session. */
  env?: StringMap
  attribution?: boolean | {
    commit?: string
    pr?: string
    sessionUrl?: boolean
    [k: string]: unknown
  }
  attributionProject?: string
  attributionProjectPolicy?: {
    default?: string
  }
  includeCoAuthoredBy?: boolean
  includeGitInstructions?: boolean
  /** Permission rules and defaults. */
  permissions?: {
    allow?: string[]
    deny?: string[]
    ask?: string[]
    defaultMode?: 'acceptEdits' | 'auto' | 'bypassPermissions' | 'default' | 'dontAsk' | 'plan'
    disableBypassPermissionsMode?: 'disable'
    blockReadsOutsideWorkingDirectories?: boolean
    blockWritesOutsideWorkingDirectories?: boolean
    blockReadsExemptPaths?: string[]
    workingDirectoriesAsGiven?: string[]
    workingDirectoriesExclude?: string[]
    disableAutoMode?: 'disable'
    denyInsteadOfPrompting?: boolean
    additionalDirectories?: string[]
    [k: string]: unknown
  }
  model?: string
  fallbackModel?: string[]
  availableModels?: string[]
  enforceAvailableModels?: boolean
  availableModelsMatch?: 'prefix' | 'exact'
  deniedModels?: string[]
  modelOverrides?: StringMap
  modelPicker?: {
    options: {
      model: string
      label?: string
      description?: string
      behavesAs?: string
    }[]
    replaceBuiltInOptions?: boolean
  }
  modelPricing?: {
    multiplier?: number
    overrides?: {
      [k: string]: {
        input: number
        output: number
        cacheRead: number
        cacheWrite: number
      }
    }
  }
  enableAllProjectMcpServers?: boolean
  enabledMcpjsonServers?: string[]
  disabledMcpjsonServers?: string[]
  disableClaudeAiConnectors?: boolean
  skillOverrides?: {
    [k: string]: 'on' | 'name-only' | 'user-invocable-only' | 'off'
  }
  disableBundledSkills?: boolean
  managedMcpServers?: {
    [k: string]: UnknownMap
  }
  allowedMcpServers?: SettingsMcpServerMatcher[]
  deniedMcpServers?: SettingsMcpServerMatcher[]
  /** Shell/prompt/agent/HTTP/MCP-tool hooks, by event. */
  hooks?: {
    [k: string]: {
      matcher?: string
      hooks: SettingsHookCommand[]
    }[]
  }
  worktree?: {
    symlinkDirectories?: string[]
    sparsePaths?: string[]
    baseRef?: 'fresh' | 'head'
    bgIsolation?: 'worktree' | 'none'
    location?: string
  }
  disableAllHooks?: boolean
  disableReplyCheck?: boolean
  disableAgentView?: boolean
  disableRemoteControl?: boolean
  disableWorkflows?: boolean
  disableArtifact?: boolean
  enableArtifact?: boolean
  enableWorkflows?: boolean
  workflowSizeGuideline?: 'unrestricted' | 'small' | 'medium' | 'large'
  workflowKeywordTriggerEnabled?: boolean
  disableSkillShellExecution?: boolean
  disableWindowsBashCommandSplit?: boolean
  defaultShell?: 'bash' | 'powershell'
  bashEditDiffEnabled?: boolean
  bashOutputMaxChars?: number
  taskOutputMaxChars?: number
  respondToBashCommands?: boolean
  allowManagedHooksOnly?: boolean
  allowedHttpHookUrls?: string[]
  httpHookAllowedEnvVars?: string[]
  allowManagedPermissionRulesOnly?: boolean
  allowManagedMcpServersOnly?: boolean
  desktopMcpServersListScope?: string
  allowAllClaudeAiMcps?: boolean
  allowClaudeInChromeWithManagedMcp?: boolean
  strictPluginOnlyCustomization?: boolean | ('skills' | 'agents' | 'hooks' | 'mcp')[]
  statusLine?: {
    type: 'command'
    command: string
    padding?: number
    refreshInterval?: number
    hideVimModeIndicator?: boolean
  }
  prUrlTemplate?: string
  footerLinksRegexes?: ({
    type: 'regex'
    pattern: string
    url: string
    label?: string
    [k: string]: unknown
  } | {
    type: string
    [k: string]: unknown
  })[]
  subagentStatusLine?: {
    type: 'command'
    command: string
  }
  enabledPlugins?: {
    [k: string]: string[] | boolean | UnknownMap
  }
  prependPlugins?: string[]
  appendPlugins?: string[]
  extraKnownMarketplaces?: {
    [k: string]: SettingsMarketplace
  }
  additionalMarketplaces?: {
    [k: string]: SettingsMarketplace
  }
  strictKnownMarketplaces?: SettingsMarketplaceSource[]
  allowedMarketplaces?: SettingsMarketplaceSource[]
  blockedMarketplaces?: SettingsMarketplaceSource[]
  disableCommandPluginSources?: boolean
  disableSideloadFlags?: boolean
  pluginSuggestionMarketplaces?: string[]
  forceLoginMethod?: 'claudeai' | 'console' | 'gateway'
  forceLoginGatewayUrl?: string
  gatewayInternalNetworks?: string[]
  parentSettingsBehavior?: 'first-wins' | 'merge'
  managedSourcesBehavior?: 'first-wins' | 'merge'
  forceLoginOrgUUID?: string | string[]
  allowNestedModelAccessUnderForceLogin?: boolean
  allowedProviders?: ('anthropic' | 'customEndpoint' | 'bedrock' | 'vertex' | 'foundry' | 'anthropicAws' | 'mantle' | 'gateway')[]
  forceRemoteSettingsRefresh?: boolean
  otelHeadersHelper?: string
  outputStyle?: string
  viewMode?: 'default' | 'verbose' | 'focus'
  language?: string
  skipWebFetchPreflight?: boolean
  sandbox?: {
    enabled?: boolean
    failIfUnavailable?: boolean
    autoAllowBashIfSandboxed?: boolean
    allowUnsandboxedCommands?: boolean
    network?: SandboxNetworkConfig
    filesystem?: {
      allowWrite?: string[]
      denyWrite?: string[]
      denyRead?: string[]
      allowRead?: string[]
      allowManagedReadPathsOnly?: boolean
      disabled?: boolean
    }
    credentials?: {
      files?: {
        path: string
        mode: 'deny' | 'mask'
        extract?: string
        onExtractNoMatch?: 'warn' | 'deny' | 'error'
        decode?: 'jwt'
        maskClaims?: string[]
        maskDuplicates?: boolean
        injectHosts?: string[]
      }[]
      envVars?: {
        name: string
        mode: 'deny' | 'mask'
        extract?: string
        onExtractNoMatch?: 'warn' | 'deny' | 'error'
        decode?: 'jwt'
        maskClaims?: string[]
        injectHosts?: string[]
      }[]
      allowPlaintextInject?: boolean
      awsPairs?: {
        accessKeyIdVar: string
        secretAccessKeyVar: string
        sessionTokenVar?: string
      }[]
      sigv4?: {
        streaming?: 'deny' | 'passthrough'
        presigned?: 'deny' | 'passthrough'
        sigv4a?: 'deny' | 'passthrough'
      }
    }
    ignoreViolations?: {
      [k: string]: string[]
    }
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
    [k: string]: unknown
  }
  feedbackSurveyRate?: number
  feedbackDrafts?: 'notify' | 'quiet' | 'off'
  spinnerTipsEnabled?: boolean
  spinnerVerbs?: {
    mode: 'append' | 'replace'
    verbs: string[]
  }
  spinnerTipsOverride?: {
    excludeDefault?: boolean
    tips?: (string | UnknownMap)[]
    tipsFile?: string
    label?: string
    [k: string]: unknown
  }
  syntaxHighlightingDisabled?: boolean
  maxProseWidth?: number
  spellcheck?: {
    enabled?: boolean
    checker?: string
    language?: string
    color?: string
    [k: string]: unknown
  }
  terminalTitleFromRename?: boolean
  promptCacheTtl?: '5m' | '1h'
  subagentPromptCacheTtl?: '5m' | '1h'
  alwaysThinkingEnabled?: boolean
  effortLevel?: 'low' | 'medium' | 'high' | 'xhigh'
  maxEffortLevel?: 'low' | 'medium' | 'high' | 'xhigh' | 'max'
  modelSettings?: {
    [k: string]: {
      effortLevel?: 'low' | 'medium' | 'high' | 'xhigh'
      maxEffortLevel?: 'low' | 'medium' | 'high' | 'xhigh' | 'max'
      autoCompactWindow?: 'auto' | number
      [k: string]: unknown
    }
  }
  ultracode?: boolean
  autoCompactWindow?: number
  advisorModel?: string
  fastMode?: boolean
  fastModePerSessionOptIn?: boolean
  promptSuggestionEnabled?: boolean
  emojiCompletionEnabled?: boolean
  showClearContextOnPlanAccept?: boolean
  askUserQuestionTimeout?: '60s' | '5m' | '10m' | 'never'
  dialogExpiry?: '60s' | '5m' | '10m' | 'never'
  agent?: string
  companyAnnouncements?: string[]
  pluginConfigs?: {
    [k: string]: {
      mcpServers?: {
        [k: string]: {
          [k: string]: SettingsPluginOptionValue
        }
      }
      options?: {
        [k: string]: SettingsPluginOptionValue
      }
    } | UnknownMap
  }
  remote?: {
    defaultEnvironmentId?: string
  }
  autoUpdatesChannel?: 'latest' | 'stable' | 'rc'
  minimumVersion?: string
  requiredMinimumVersion?: string
  requiredMaximumVersion?: string
  /** Anthropic-run mirror from which native installs download Claude Code releases (claude install, claude update, and auto-updates), instead of https://downloads.claude.ai. Must be exactly https://claude.fedstart.com/claude-downloads (Claude for Government). Any other value stops installs and updates with an error. Only read from managed (policy) settings. */
  downloadsMirrorUrl?: string
  plansDirectory?: string
  tui?: 'default' | 'fullscreen'
  voice?: {
    enabled?: boolean
    mode?: 'hold' | 'tap'
    autoSubmit?: boolean
  }
  channelsEnabled?: boolean
  allowedChannelPlugins?: {
    marketplace: string
    plugin: string
  }[]
  prefersReducedMotion?: boolean
  timeFormat?: ('auto' | '12-hour' | '24-hour' | '24-hour-utc') | string
  timeZone?: string
  autoMemoryEnabled?: boolean
  autoMemoryDirectory?: string
  autoDreamEnabled?: boolean
  showThinkingSummaries?: boolean
  skipDangerousModePermissionPrompt?: boolean
  disableAutoMode?: 'disable'
  sshConfigs?: {
    id: string
    name: string
    sshHost: string
    sshPort?: number
    sshIdentityFile?: string
    startDirectory?: string
  }[]
  sshHostCommands?: unknown[]
  claudeMd?: string
  claudeMdExcludes?: string[]
  pluginTrustMessage?: string
  theme?: ('auto' | 'dark' | 'light' | 'light-daltonized' | 'dark-daltonized' | 'light-ansi' | 'dark-ansi') | string
  editorMode?: 'normal' | 'vim'
  keybindingFlavor?: 'classic' | 'readline'
  vimInsertModeRemaps?: UnknownMap
  verbose?: boolean
  preferredNotifChannel?: 'auto' | 'iterm2' | 'terminal_bell' | 'iterm2_with_bell' | 'kitty' | 'ghostty' | 'notifications_disabled'
  autoCompactEnabled?: boolean
  precomputeCompactionEnabled?: boolean
  idleCompaction?: boolean
  switchModelsOnFlag?: boolean
  autoContinueAtUsageLimit?: boolean
  autoScrollEnabled?: boolean
  wheelScrollAccelerationEnabled?: boolean
  fileCheckpointingEnabled?: boolean
  showTurnDuration?: boolean
  showMessageTimestamps?: boolean
  terminalProgressBarEnabled?: boolean
  todoFeatureEnabled?: boolean
  teammateMode?: 'auto' | 'tmux' | 'iterm2' | 'in-process'
  remoteControlAtStartup?: boolean
  isolatePeerMachines?: boolean
  daemonColdStart?: 'transient' | 'ask'
  crossSessionInbound?: 'accept' | 'hold' | 'refuse'
  autoUploadSessions?: boolean
  inputNeededNotifEnabled?: boolean
  agentPushNotifEnabled?: boolean
  skipAutoPermissionPrompt?: boolean
  useAutoModeDuringPlan?: boolean
  autoMode?: {
    allow?: string[]
    soft_deny?: string[]
    hard_deny?: string[]
    environment?: string[]
    classifyAllShell?: boolean
  }
  disableDeepLinkRegistration?: 'disable'
  voiceEnabled?: boolean
  defaultView?: 'chat' | 'transcript'
  [k: string]: unknown
}

/** A scope of configuration. */
export type ConfigScope = 'local' | 'user' | 'project'

/** A settings file that could not be parsed. */
export type SDKSettingsParseError = {
  file?: string
  path: string
  message: string
}
