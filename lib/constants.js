// @ts-check
'use strict'
// The official SDK's exported constants, with the same values (a test compares each with the
// official package, so a version bump that changes one shows at once).

const HOOK_EVENTS = [
  'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'Notification', 'UserPromptSubmit',
  'UserPromptExpansion', 'SessionStart', 'SessionEnd', 'Stop', 'StopFailure', 'SubagentStart', 'SubagentStop',
  'PreCompact', 'PostCompact', 'PreModelSwitch', 'PostModelSwitch', 'PermissionRequest', 'PermissionDenied',
  'Setup', 'TeammateIdle', 'TaskCreated', 'TaskCompleted', 'Elicitation', 'ElicitationResult', 'ConfigChange',
  'WorktreeCreate', 'WorktreeRemove', 'InstructionsLoaded', 'CwdChanged', 'FileChanged', 'DirectoryAdded',
  'MessageDisplay',
  'PreSkillShellCommand',
]

const EXIT_REASONS = ['clear', 'resume', 'logout', 'prompt_input_exit', 'other']

const BUILTIN_TOOL_NAMES = [
  'Agent', 'Artifact', 'AskUserQuestion', 'Bash', 'ClaudeDesign', 'CronCreate', 'CronDelete', 'CronList', 'Edit',
  'EndConversation', 'EnterPlanMode', 'EnterWorktree', 'ExitPlanMode', 'ExitWorktree', 'Glob', 'Grep', 'ListAgents',
  'ListMcpResourcesTool', 'LSP', 'Monitor', 'NotebookEdit', 'OfferChromeSetup', 'PowerShell', 'Projects',
  'propose_skills', 'PushNotification', 'Read', 'ReadMcpResourceDirTool', 'ReadMcpResourceTool',
  'ReadNotifications', 'RemoteTrigger', 'ReportFindings', 'ScheduleWakeup', 'SendFeedback', 'SendMessage',
  'SendUserFile', 'SendUserMessage', 'SetGoal', 'ShareOnboardingGuide', 'ShowOnboardingRolePicker', 'Skill',
  'SubagentHandback', 'TaskCreate', 'TaskGet', 'TaskList', 'TaskStop', 'TaskUpdate', 'TodoWrite', 'ToolSearch',
  'WaitForMcpServers', 'WebFetch', 'WebSearch', 'Workflow', 'Write',
]

const LEGACY_TOOL_NAME_ALIASES = {
  Task: 'Agent',
  KillShell: 'TaskStop',
  KillBash: 'TaskStop',
  ListPeers: 'ListAgents',
  Brief: 'SendUserMessage',
  ListMcpResources: 'ListMcpResourcesTool',
  ReadMcpResource: 'ReadMcpResourceTool',
  ReadMcpResourceDir: 'ReadMcpResourceDirTool',
  ProposeGoal: 'SetGoal',
}

const USAGE_LIMIT_ERROR_PREFIXES = [
  "You've hit your", "You've reached your", "You're out of usage credits",
  'Your org is out of usage · add funds to continue', 'Your org is out of usage · contact your admin',
  "Your seat type doesn't include usage credits", "Your seat type doesn't include usage",
  'Your usage allocation has been disabled by your admin', "Your group's usage limit is set to $0",
  'Fable 5 requires usage credits', "You're out of extra usage", "Your seat type doesn't include extra usage",
]

const USAGE_TRANSITION_PREFIXES = [
  "You're now using usage credits", "You're now using your usage allocation", 'Now using your usage allocation',
  'Now using usage credits', 'Now using credits', "You're now using extra usage", 'Now using extra usage',
]

const USAGE_WARNING_PREFIXES = ["You've used", "You're close to"]

const ORG_POLICY_LIMIT_PREFIXES = ['This service is disabled for your org']

const SYSTEM_PROMPT_DYNAMIC_BOUNDARY = '__SYSTEM_PROMPT_DYNAMIC_BOUNDARY__'

module.exports = {
  HOOK_EVENTS,
  EXIT_REASONS,
  BUILTIN_TOOL_NAMES,
  LEGACY_TOOL_NAME_ALIASES,
  USAGE_LIMIT_ERROR_PREFIXES,
  USAGE_TRANSITION_PREFIXES,
  USAGE_WARNING_PREFIXES,
  ORG_POLICY_LIMIT_PREFIXES,
  SYSTEM_PROMPT_DYNAMIC_BOUNDARY,
}
