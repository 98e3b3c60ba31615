// Permissions: modes, rule updates, and the canUseTool callback.

/**
 * How tool calls are authorized: `'default'` asks (canUseTool) when no rule decides;
 * `'acceptEdits'` allows file edits; `'bypassPermissions'` allows everything (needs
 * `allowDangerouslySkipPermissions`); `'plan'` plans without running tools; `'dontAsk'` denies what
 * is not pre-approved instead of asking; `'auto'` lets a classifier decide.
 */
export type PermissionMode = 'default' | 'acceptEdits' | 'bypassPermissions' | 'plan' | 'dontAsk' | 'auto'

/** What a permission rule does. */
export type PermissionBehavior = 'allow' | 'deny' | 'ask'

/** A permission rule: a tool name, optionally narrowed (e.g. `{ toolName: 'Bash', ruleContent: 'npm test' }`). */
export type PermissionRuleValue = {
  toolName: string
  ruleContent?: string
}

/** Where a permission update is saved. */
export type PermissionUpdateDestination = 'userSettings' | 'projectSettings' | 'localSettings' | 'session' | 'cliArg'

/** A change to the permission rules, modes or directories, e.g. an "always allow" suggestion. */
export type PermissionUpdate =
  | {
      type: 'addRules'
      rules: PermissionRuleValue[]
      behavior: PermissionBehavior
      destination: PermissionUpdateDestination
    }
  | {
      type: 'replaceRules'
      rules: PermissionRuleValue[]
      behavior: PermissionBehavior
      destination: PermissionUpdateDestination
    }
  | {
      type: 'removeRules'
      rules: PermissionRuleValue[]
      behavior: PermissionBehavior
      destination: PermissionUpdateDestination
    }
  | {
      type: 'setMode'
      mode: PermissionMode
      destination: PermissionUpdateDestination
    }
  | {
      type: 'addDirectories'
      directories: string[]
      destination: PermissionUpdateDestination
    }
  | {
      type: 'removeDirectories'
      directories: string[]
      destination: PermissionUpdateDestination
    }

/** How the user answered a permission prompt, for telemetry. */
export type PermissionDecisionClassification = 'user_temporary' | 'user_permanent' | 'user_reject'

/** The answer of a `canUseTool` callback. */
export type PermissionResult =
  | {
      behavior: 'allow'
      /** The input the tool runs with instead of the requested one. */
      updatedInput?: Record<string, unknown>
      /** Rule updates to apply, typically the `suggestions` the callback was given. */
      updatedPermissions?: PermissionUpdate[]
      toolUseID?: string
      decisionClassification?: PermissionDecisionClassification
    }
  | {
      behavior: 'deny'
      /** Told to the model. */
      message: string
      /** Also stop the current turn. */
      interrupt?: boolean
      toolUseID?: string
      decisionClassification?: PermissionDecisionClassification
    }

/** The MCP server behind an `mcp__*` tool, and where its configuration came from. */
export type McpServerProvenance = {
  /** The server's configuration key (untrusted text unless `source` is `'sdk'`). */
  name: string
  /** `'sdk'` for an in-process server of this host; otherwise a config scope or `'plugin'`. */
  source: string
}

/**
 * Decides whether a tool may run. Called when no permission rule or mode decides. Resolve to
 * `null` only when the answer was already sent out of band; the tool then waits for it.
 */
export type CanUseTool = (
  toolName: string,
  input: Record<string, unknown>,
  options: {
    /** Aborted when the request is cancelled (e.g. the turn was interrupted). */
    signal: AbortSignal
    /** Rule updates that would stop this prompt from recurring ("always allow"). */
    suggestions?: PermissionUpdate[]
    /** The path that caused the request, e.g. outside the allowed directories. */
    blockedPath?: string
    /** For `mcp__*` tools, the server serving the tool. */
    mcpServer?: {
      name: string
      source: string
    }
    /** Why the request was made. */
    decisionReason?: string
    /** A full prompt sentence, e.g. "Claude wants to read foo.txt". */
    title?: string
    /** A short name for the action, e.g. "Read file". */
    displayName?: string
    /** A subtitle for the prompt. */
    description?: string
    /** The prompt should default to its decline option. */
    defaultToNo?: boolean
    /** The prompt should not offer "don't ask again". */
    suppressAlwaysAllowRule?: boolean
    /** The id of this tool call. */
    toolUseID: string
    /** Set when the call comes from a subagent. */
    agentID?: string
    /** The id of the control request, echoed by an answer sent out of band. */
    requestId: string
    /** Set when an `ask` rule forced this prompt. */
    matchedAskRule?: {
      source: string
      toolName: string
      ruleContent?: string
    }
  },
) => Promise<PermissionResult | null>
