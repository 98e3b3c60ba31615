//! Hooks run by Rust code at points of the agent loop ([`OptionsBuilder::hook`]).
//!
//! [`OptionsBuilder::hook`]: crate::OptionsBuilder::hook

use std::future::Future;
use std::sync::Arc;

use futures::future::BoxFuture;
use futures::FutureExt;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// When a hook runs.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum HookEvent {
    /// Before a tool runs (can block it or change its input).
    PreToolUse,
    /// After a tool ran.
    PostToolUse,
    /// After a tool failed.
    PostToolUseFailure,
    /// When the user submits a prompt.
    UserPromptSubmit,
    /// When the agent would stop (can make it go on).
    Stop,
    /// When a subagent starts.
    SubagentStart,
    /// When a subagent would stop.
    SubagentStop,
    /// Before the conversation is compacted.
    PreCompact,
    /// When the session starts.
    SessionStart,
    /// When the session ends.
    SessionEnd,
    /// When the CLI shows a notification.
    Notification,
    /// When a permission prompt is about to be shown.
    PermissionRequest,
    /// Any other event, by its wire name (e.g. `"PostToolBatch"`).
    Other(String),
}

impl HookEvent {
    /// The wire name (`PreToolUse`, ...).
    pub fn as_str(&self) -> &str {
        match self {
            HookEvent::PreToolUse => "PreToolUse",
            HookEvent::PostToolUse => "PostToolUse",
            HookEvent::PostToolUseFailure => "PostToolUseFailure",
            HookEvent::UserPromptSubmit => "UserPromptSubmit",
            HookEvent::Stop => "Stop",
            HookEvent::SubagentStart => "SubagentStart",
            HookEvent::SubagentStop => "SubagentStop",
            HookEvent::PreCompact => "PreCompact",
            HookEvent::SessionStart => "SessionStart",
            HookEvent::SessionEnd => "SessionEnd",
            HookEvent::Notification => "Notification",
            HookEvent::PermissionRequest => "PermissionRequest",
            HookEvent::Other(name) => name,
        }
    }
}

/// What a hook is called with.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[non_exhaustive]
pub struct HookInput {
    /// The event (`PreToolUse`, ...).
    #[serde(default)]
    pub hook_event_name: String,
    /// The session's id.
    #[serde(default)]
    pub session_id: String,
    /// The transcript's path.
    #[serde(default)]
    pub transcript_path: String,
    /// The working directory.
    #[serde(default)]
    pub cwd: String,
    /// The tool, for tool events.
    #[serde(default)]
    pub tool_name: Option<String>,
    /// The tool's input, for tool events.
    #[serde(default)]
    pub tool_input: Option<Value>,
    /// The tool's result, for `PostToolUse`.
    #[serde(default)]
    pub tool_response: Option<Value>,
    /// The prompt, for `UserPromptSubmit`.
    #[serde(default)]
    pub prompt: Option<String>,
    /// The input as the CLI sent it (every event-specific field).
    #[serde(skip)]
    pub raw: Value,
}

/// What a hook answers. The default lets everything go on unchanged.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[non_exhaustive]
pub struct HookOutput {
    /// `Some(false)` stops the agent after this hook.
    #[serde(rename = "continue", skip_serializing_if = "Option::is_none")]
    pub continue_: Option<bool>,
    /// Keep the hook's output out of the transcript.
    #[serde(rename = "suppressOutput", skip_serializing_if = "Option::is_none")]
    pub suppress_output: Option<bool>,
    /// Shown when `continue_` is false.
    #[serde(rename = "stopReason", skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// `approve` or `block`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<String>,
    /// A message shown to the user.
    #[serde(rename = "systemMessage", skip_serializing_if = "Option::is_none")]
    pub system_message: Option<String>,
    /// Why, for `decision`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The event's own output (`{"hookEventName": "PreToolUse", "permissionDecision": "deny",
    /// ...}`).
    #[serde(rename = "hookSpecificOutput", skip_serializing_if = "Option::is_none")]
    pub hook_specific_output: Option<Value>,
}

impl HookOutput {
    /// Go on unchanged.
    pub fn proceed() -> Self {
        Self::default()
    }

    /// For `PreToolUse`: deny the tool call, telling the model why.
    pub fn deny_tool(reason: impl Into<String>) -> Self {
        Self {
            hook_specific_output: Some(serde_json::json!({
              "hookEventName": "PreToolUse",
              "permissionDecision": "deny",
              "permissionDecisionReason": reason.into(),
            })),
            ..Self::default()
        }
    }

    /// For `UserPromptSubmit`, `SessionStart`, `PostToolUse`: context added for the model.
    pub fn additional_context(event: &HookEvent, context: impl Into<String>) -> Self {
        Self {
            hook_specific_output: Some(
                serde_json::json!({ "hookEventName": event.as_str(), "additionalContext": context.into() }),
            ),
            ..Self::default()
        }
    }

    /// Stop the agent, with a reason.
    pub fn stop(reason: impl Into<String>) -> Self {
        Self {
            continue_: Some(false),
            stop_reason: Some(reason.into()),
            ..Self::default()
        }
    }
}

/// A hook callback, type-erased: called with the input and the tool call's id (for tool events).
pub(crate) type HookFn = Arc<dyn Fn(HookInput, Option<String>) -> BoxFuture<'static, HookOutput> + Send + Sync>;

/// Hooks for one event, for the tools `matcher` names (all when `None`).
#[derive(Clone)]
pub struct HookMatcher {
    pub(crate) matcher: Option<String>,
    pub(crate) hooks: Vec<HookFn>,
    pub(crate) timeout_secs: Option<u64>,
}

impl std::fmt::Debug for HookMatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HookMatcher")
            .field("matcher", &self.matcher)
            .field("hooks", &self.hooks.len())
            .finish()
    }
}

impl HookMatcher {
    /// Hooks for every tool (or for events that have no tool).
    pub fn all() -> Self {
        Self {
            matcher: None,
            hooks: Vec::new(),
            timeout_secs: None,
        }
    }

    /// Hooks for the tools this pattern matches (`"Bash"`, `"Write|Edit"`, `"mcp__demo__.*"`).
    pub fn matching(pattern: impl Into<String>) -> Self {
        Self {
            matcher: Some(pattern.into()),
            ..Self::all()
        }
    }

    /// How long the CLI waits for these hooks, in seconds.
    pub fn timeout_secs(mut self, secs: u64) -> Self {
        self.timeout_secs = Some(secs);
        self
    }

    /// Adds an async hook: `|input, tool_use_id| async move { HookOutput::proceed() }`.
    pub fn hook<F, Fut>(mut self, f: F) -> Self
    where
        F: Fn(HookInput, Option<String>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = HookOutput> + Send + 'static,
    {
        self.hooks.push(Arc::new(move |input, id| f(input, id).boxed()));
        self
    }
}
