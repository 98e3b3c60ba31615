//! The TypeScript SDK's exported constants, with the same values (`tests/constants.rs` compares
//! each with the official package).

/// Every hook event, by its wire name (the `HOOK_EVENTS` the TypeScript SDK exports): what
/// [`HookEvent::Other`](crate::HookEvent::Other) can name beyond the named variants.
pub const HOOK_EVENTS: [&str; 34] = [
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "SessionStart",
    "SessionEnd",
    "Stop",
    "StopFailure",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "PreModelSwitch",
    "PostModelSwitch",
    "PermissionRequest",
    "PermissionDenied",
    "Setup",
    "TeammateIdle",
    "TaskCreated",
    "TaskCompleted",
    "Elicitation",
    "ElicitationResult",
    "ConfigChange",
    "WorktreeCreate",
    "WorktreeRemove",
    "InstructionsLoaded",
    "CwdChanged",
    "FileChanged",
    "DirectoryAdded",
    "MessageDisplay",
    "PreSkillShellCommand",
];

/// Why a session ended, as `SessionEnd` hooks are told (`EXIT_REASONS`).
pub const EXIT_REASONS: [&str; 5] = ["clear", "resume", "logout", "prompt_input_exit", "other"];

/// The names of Claude Code's built-in tools (`BUILTIN_TOOL_NAMES`).
pub const BUILTIN_TOOL_NAMES: [&str; 54] = [
    "Agent",
    "Artifact",
    "AskUserQuestion",
    "Bash",
    "ClaudeDesign",
    "CronCreate",
    "CronDelete",
    "CronList",
    "Edit",
    "EndConversation",
    "EnterPlanMode",
    "EnterWorktree",
    "ExitPlanMode",
    "ExitWorktree",
    "Glob",
    "Grep",
    "ListAgents",
    "ListMcpResourcesTool",
    "LSP",
    "Monitor",
    "NotebookEdit",
    "OfferChromeSetup",
    "PowerShell",
    "Projects",
    "propose_skills",
    "PushNotification",
    "Read",
    "ReadMcpResourceDirTool",
    "ReadMcpResourceTool",
    "ReadNotifications",
    "RemoteTrigger",
    "ReportFindings",
    "ScheduleWakeup",
    "SendFeedback",
    "SendMessage",
    "SendUserFile",
    "SendUserMessage",
    "SetGoal",
    "ShareOnboardingGuide",
    "ShowOnboardingRolePicker",
    "Skill",
    "SubagentHandback",
    "TaskCreate",
    "TaskGet",
    "TaskList",
    "TaskStop",
    "TaskUpdate",
    "TodoWrite",
    "ToolSearch",
    "WaitForMcpServers",
    "WebFetch",
    "WebSearch",
    "Workflow",
    "Write",
];

/// How the messages of a reached usage limit start (`USAGE_LIMIT_ERROR_PREFIXES`).
pub const USAGE_LIMIT_ERROR_PREFIXES: [&str; 12] = [
    "You've hit your",
    "You've reached your",
    "You're out of usage credits",
    "Your org is out of usage · add funds to continue",
    "Your org is out of usage · contact your admin",
    "Your seat type doesn't include usage credits",
    "Your seat type doesn't include usage",
    "Your usage allocation has been disabled by your admin",
    "Your group's usage limit is set to $0",
    "Fable 5 requires usage credits",
    "You're out of extra usage",
    "Your seat type doesn't include extra usage",
];

/// How the notices of a switch to usage credits start (`USAGE_TRANSITION_PREFIXES`).
pub const USAGE_TRANSITION_PREFIXES: [&str; 7] = [
    "You're now using usage credits",
    "You're now using your usage allocation",
    "Now using your usage allocation",
    "Now using usage credits",
    "Now using credits",
    "You're now using extra usage",
    "Now using extra usage",
];

/// How usage warnings start (`USAGE_WARNING_PREFIXES`).
pub const USAGE_WARNING_PREFIXES: [&str; 2] = ["You've used", "You're close to"];

/// How the messages of an organization policy limit start (`ORG_POLICY_LIMIT_PREFIXES`).
pub const ORG_POLICY_LIMIT_PREFIXES: [&str; 1] = ["This service is disabled for your org"];

/// Former tool names and the built-in tool each now names (`LEGACY_TOOL_NAME_ALIASES`).
pub const LEGACY_TOOL_NAME_ALIASES: [(&str, &str); 9] = [
    ("Task", "Agent"),
    ("KillShell", "TaskStop"),
    ("KillBash", "TaskStop"),
    ("ListPeers", "ListAgents"),
    ("Brief", "SendUserMessage"),
    ("ListMcpResources", "ListMcpResourcesTool"),
    ("ReadMcpResource", "ReadMcpResourceTool"),
    ("ReadMcpResourceDir", "ReadMcpResourceDirTool"),
    ("ProposeGoal", "SetGoal"),
];

/// Marks where a system prompt's dynamic part begins (`SYSTEM_PROMPT_DYNAMIC_BOUNDARY`).
pub const SYSTEM_PROMPT_DYNAMIC_BOUNDARY: &str = "__SYSTEM_PROMPT_DYNAMIC_BOUNDARY__";
