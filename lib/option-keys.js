// @ts-check
'use strict'
// Every key of the official Options type (sdk.d.ts of @anthropic-ai/claude-agent-sdk 0.3.332),
// An unknown key is ignored with a warning (as the official SDK ignores it); an official option we
// do not implement yet is only a warning too.

const OFFICIAL = [
  'abortController', 'additionalDirectories', 'projectConfigRoot', 'agent', 'agents', 'allowedTools',
  'canUseTool', 'continue', 'cwd', 'disallowedTools', 'toolAliases', 'tools', 'env', 'executable',
  'executableArgs', 'extraArgs', 'fallbackModel', 'enableFileCheckpointing', 'toolConfig', 'forkSession',
  'betas', 'hooks', 'onElicitation', 'onUserDialog', 'supportedDialogKinds', 'perTaskStopAffordance',
  'persistSession', 'sessionStore', 'sessionStoreFlush', 'loadTimeoutMs', 'includeHookEvents',
  'includePartialMessages', 'forwardSubagentText', 'verbatimPrompts', 'thinking', 'effort',
  'maxThinkingTokens', 'maxTurns', 'maxBudgetUsd', 'taskBudget', 'mcpServers', 'mcpServersDelivery',
  'model', 'outputFormat', 'pathToClaudeCodeExecutable', 'permissionMode', 'planModeInstructions',
  'allowDangerouslySkipPermissions', 'permissionPromptToolName', 'permissionPrompts', 'plugins',
  'pluginDelivery', 'promptSuggestions', 'agentProgressSummaries', 'resume', 'sessionId',
  'resumeSessionAt', 'resumeDropsTurn', 'sandbox', 'settings', 'managedSettings', 'settingSources',
  'skills', 'debug', 'debugFile', 'stderr', 'strictMcpConfig', 'systemPrompt', 'title',
  'spawnClaudeCodeProcess',
]

/**
 * Official options we do not act on yet: accepted (so apps keep compiling and running), warned.
 * @type {Set<string>}
 */
const NOT_IMPLEMENTED = new Set([
])

/** Options the official SDK reads though its Options type does not name them. */
const OFFICIAL_UNTYPED = [
  'workspaceTrust', 'allowedControlRequests', 'onProcessExit', 'onProcessSpawned', 'rapidFollowupPreempt',
  'forwardNestedSubagentToolCalls', 'offersBypassSwitchBack', 'keepsBypassHeld',
  'managedSettingsDelivery', 'settingsDelivery', 'disallowedToolsDelivery', 'getOAuthToken', 'getHostAuthToken',
  'workload', 'hostSpawn',
]

/** Options of ours that the official SDK does not have. */
const OURS = ['initializeTimeoutMs', 'resourceLimits']

const KNOWN = new Set([...OFFICIAL, ...OFFICIAL_UNTYPED, ...OURS])

module.exports = { KNOWN, NOT_IMPLEMENTED }
