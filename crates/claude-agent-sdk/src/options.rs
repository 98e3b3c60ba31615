//! What a query runs with: [`Options`], built with [`OptionsBuilder`].

use std::collections::BTreeMap;
use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use crate::dialog::{
    elicitation_fn, user_dialog_fn, ElicitationFn, ElicitationRequest, ElicitationResult, UserDialogFn,
    UserDialogRequest,
};
use crate::hooks::{HookEvent, HookMatcher};
use crate::permission::{can_use_tool_fn, CanUseToolFn, PermissionContext, PermissionMode, PermissionResult};
use crate::server::McpServer;
use crate::store::api::{SessionStore, SessionStoreFlush};
use crate::store::folder::ResumeDir;

/// Where the CLI loads settings from. With none given, the CLI loads none (SDK isolation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SettingSource {
    /// `~/.claude/settings.json`.
    User,
    /// `.claude/settings.json` of the project.
    Project,
    /// `.claude/settings.local.json` of the project.
    Local,
}

impl SettingSource {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            SettingSource::User => "user",
            SettingSource::Project => "project",
            SettingSource::Local => "local",
        }
    }
}

/// How hard the model thinks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Effort {
    /// Fastest.
    Low,
    /// Balanced.
    Medium,
    /// Thorough.
    High,
    /// More thorough.
    Xhigh,
    /// As much as the model can.
    Max,
}

impl Effort {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Effort::Low => "low",
            Effort::Medium => "medium",
            Effort::High => "high",
            Effort::Xhigh => "xhigh",
            Effort::Max => "max",
        }
    }
}

/// Extended thinking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Thinking {
    /// The model decides how much to think.
    Adaptive,
    /// Think with at most this many tokens.
    Budget(u64),
    /// No extended thinking.
    Disabled,
}

/// How thinking is shown in the messages ([`OptionsBuilder::thinking_display`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ThinkingDisplay {
    /// Summarized thinking.
    Summarized,
    /// No thinking text.
    Omitted,
}

impl ThinkingDisplay {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            ThinkingDisplay::Summarized => "summarized",
            ThinkingDisplay::Omitted => "omitted",
        }
    }
}

/// Who answers permission prompts ([`OptionsBuilder::permission_prompts`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PermissionPrompts {
    /// This process, through [`can_use_tool`](OptionsBuilder::can_use_tool) or
    /// [`permission_prompt_tool_name`](OptionsBuilder::permission_prompt_tool_name) (the default).
    Host,
    /// Nobody: modes, rules and hooks still decide; anything that would prompt is denied at once.
    None,
}

impl PermissionPrompts {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            PermissionPrompts::Host => "host",
            PermissionPrompts::None => "none",
        }
    }
}

/// How a list reaches the CLI: on its command line, or in the `initialize` request
/// ([`OptionsBuilder::mcp_servers_delivery`], [`OptionsBuilder::plugin_delivery`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Delivery {
    /// On the command line (the default).
    Argv,
    /// In `initialize`, over stdin (the CLI is started with `--await-initialize`; needs a recent
    /// Claude Code).
    Initialize,
}

impl Delivery {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Delivery::Argv => "argv",
            Delivery::Initialize => "initialize",
        }
    }
}

/// The format of `AskUserQuestion` option previews ([`OptionsBuilder::ask_user_question_preview_format`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PreviewFormat {
    /// Markdown or ASCII (the CLI's default).
    Markdown,
    /// Self-contained HTML fragments.
    Html,
}

impl PreviewFormat {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            PreviewFormat::Markdown => "markdown",
            PreviewFormat::Html => "html",
        }
    }
}

/// Which skills the main session loads ([`OptionsBuilder::skills`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Skills {
    /// Every skill found, and the `Skill` tool allowed.
    All,
    /// Only these (a canonical name such as `my-plugin:my-skill`, or a `:name` suffix of one),
    /// each allowed as `Skill(name)`.
    Only(Vec<String>),
}

/// A local plugin directory ([`OptionsBuilder::plugin`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plugin {
    /// The plugin's directory.
    pub path: PathBuf,
    /// Load its skills, hooks, agents and commands but not its MCP servers (when this process
    /// owns the plugin's MCP connections).
    pub skip_mcp_discovery: bool,
}

impl Plugin {
    /// The plugin in this directory.
    pub fn local(path: impl Into<PathBuf>) -> Self {
        Plugin {
            path: path.into(),
            skip_mcp_discovery: false,
        }
    }

    /// Leave its MCP servers out.
    pub fn skip_mcp_discovery(mut self, skip: bool) -> Self {
        self.skip_mcp_discovery = skip;
        self
    }
}

/// A folder the user has trusted ([`OptionsBuilder::workspace_trust`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkspaceTrust {
    /// The absolute directory, as it exists where Claude Code runs.
    pub directory: PathBuf,
}

/// The system prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SystemPrompt {
    /// This prompt instead of Claude Code's.
    Custom(String),
    /// Claude Code's own prompt, with this text appended (if any).
    ClaudeCode {
        /// Appended to the preset.
        append: Option<String>,
    },
}

/// The built-in tools the model is offered.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Tools {
    /// Claude Code's default set.
    ClaudeCodePreset,
    /// Only these (an empty list: no built-in tool).
    List(Vec<String>),
}

/// An MCP server the CLI runs itself (a process, or a remote server).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
#[non_exhaustive]
pub enum McpServerConfig {
    /// A process speaking MCP on stdio.
    Stdio {
        /// The program.
        command: String,
        /// Its arguments.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        args: Vec<String>,
        /// Extra environment variables.
        #[serde(skip_serializing_if = "BTreeMap::is_empty")]
        env: BTreeMap<String, String>,
    },
    /// A server reached over Server-Sent Events.
    Sse {
        /// Its URL.
        url: String,
        /// HTTP headers to send.
        #[serde(skip_serializing_if = "BTreeMap::is_empty")]
        headers: BTreeMap<String, String>,
    },
    /// A server reached over streamable HTTP.
    Http {
        /// Its URL.
        url: String,
        /// HTTP headers to send.
        #[serde(skip_serializing_if = "BTreeMap::is_empty")]
        headers: BTreeMap<String, String>,
    },
}

/// A callback receiving the CLI's stderr, a chunk at a time.
pub(crate) type StderrFn = Arc<dyn Fn(&str) + Send + Sync>;

/// What a query runs with. Build with [`Options::builder`]; `Options::default()` runs the CLI
/// with its defaults. Cheap to clone (callbacks and servers are shared).
#[derive(Clone, Default)]
pub struct Options {
    pub(crate) data: OptionsData,
    pub(crate) sdk_servers: Vec<(String, McpServer)>,
    pub(crate) can_use_tool: Option<CanUseToolFn>,
    pub(crate) hooks: Vec<(HookEvent, HookMatcher)>,
    pub(crate) stderr: Option<StderrFn>,
    pub(crate) on_elicitation: Option<ElicitationFn>,
    /// The dialog kinds declared, and their callback.
    pub(crate) on_user_dialog: Option<(Vec<String>, UserDialogFn)>,
    pub(crate) session_store: Option<Arc<dyn SessionStore>>,
    /// Set by [`resume_from_store`](crate::store::resume_from_store): the stored session was
    /// looked for (and, when found, written into this folder, removed after the query).
    pub(crate) resume_prepared: bool,
    pub(crate) resume_dir: Option<Arc<ResumeDir>>,
    /// How long each store call of [`resume_from_store`](crate::store::resume_from_store) may take.
    pub(crate) load_timeout: Option<std::time::Duration>,
    /// Starts the CLI instead of the SDK.
    pub(crate) spawn: Option<crate::spawn::SpawnFn>,
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("data", &self.data)
            .field("sdk_servers", &self.sdk_servers)
            .field("can_use_tool", &self.can_use_tool.is_some())
            .field("hooks", &self.hooks)
            .field("on_elicitation", &self.on_elicitation.is_some())
            .field(
                "user_dialog_kinds",
                &self.on_user_dialog.as_ref().map(|(kinds, _)| kinds),
            )
            .field("session_store", &self.session_store.is_some())
            .field("spawn_claude_code_process", &self.spawn.is_some())
            .finish()
    }
}

/// The plain-data options (everything but callbacks and in-process servers).
#[derive(Debug, Clone, Default)]
pub(crate) struct OptionsData {
    pub cli_path: Option<PathBuf>,
    pub executable: Option<String>,
    pub executable_args: Vec<String>,
    pub cwd: Option<PathBuf>,
    pub inherit_env: Option<bool>,
    pub env: BTreeMap<String, Option<String>>,
    pub model: Option<String>,
    pub fallback_model: Option<String>,
    pub allowed_tools: Vec<String>,
    pub disallowed_tools: Vec<String>,
    pub tools: Option<Tools>,
    pub permission_mode: Option<PermissionMode>,
    pub allow_dangerously_skip_permissions: bool,
    pub permission_prompt_tool_name: Option<String>,
    pub max_turns: Option<u64>,
    pub max_budget_usd: Option<f64>,
    pub resource_limits: Option<crate::limits::ResourceLimits>,
    pub thinking: Option<Thinking>,
    pub effort: Option<Effort>,
    pub system_prompt: Option<SystemPrompt>,
    pub include_partial_messages: bool,
    pub continue_conversation: bool,
    pub resume: Option<String>,
    pub resume_session_at: Option<String>,
    pub fork_session: bool,
    pub session_id: Option<String>,
    pub persist_session: Option<bool>,
    pub additional_directories: Vec<PathBuf>,
    pub setting_sources: Option<Vec<SettingSource>>,
    pub mcp_servers: BTreeMap<String, McpServerConfig>,
    pub strict_mcp_config: bool,
    pub settings: Option<Value>,
    pub extra_args: BTreeMap<String, Option<String>>,
    pub plugins: Vec<Plugin>,
    pub agents: Option<Value>,
    pub output_schema: Option<Value>,
    pub sandbox: Option<Value>,
    pub enable_file_checkpointing: bool,
    pub agent: Option<String>,
    pub include_hook_events: bool,
    pub debug: bool,
    pub debug_file: Option<PathBuf>,
    pub initialize_timeout: Option<Duration>,
    pub title: Option<String>,
    pub thinking_display: Option<ThinkingDisplay>,
    pub max_thinking_tokens: Option<u64>,
    pub betas: Vec<String>,
    pub task_budget: Option<u64>,
    pub tool_aliases: BTreeMap<String, String>,
    pub preview_format: Option<PreviewFormat>,
    pub project_config_root: Option<PathBuf>,
    pub permission_prompts: Option<PermissionPrompts>,
    pub plan_mode_instructions: Option<String>,
    pub prompt_suggestions: Option<bool>,
    pub agent_progress_summaries: Option<bool>,
    pub forward_subagent_text: Option<bool>,
    pub per_task_stop_affordance: Option<bool>,
    pub allowed_control_requests: Option<Vec<String>>,
    pub verbatim_prompts: bool,
    pub workspace_trust: Option<WorkspaceTrust>,
    pub mcp_servers_delivery: Option<Delivery>,
    pub plugin_delivery: Option<Delivery>,
    pub resume_drops_turn: Option<String>,
    pub managed_settings: Option<Value>,
    pub skills: Option<Skills>,
    pub session_store_flush: Option<SessionStoreFlush>,
}

impl Options {
    /// Starts building options.
    pub fn builder() -> OptionsBuilder {
        OptionsBuilder::default()
    }
}

/// Builds [`Options`]. Every setting is optional; the CLI's defaults apply to what is not set.
///
/// ```
/// use claude_agent_sdk::{Options, PermissionMode, SettingSource};
///
/// let options = Options::builder()
///     .model("claude-sonnet-4-5")
///     .max_turns(3)
///     .permission_mode(PermissionMode::AcceptEdits)
///     .setting_sources([SettingSource::Project])
///     .allowed_tools(["Read", "Grep"])
///     .env("MY_TOKEN", "secret") // on top of this process's environment
///     .build();
/// # let _ = options;
/// ```
#[derive(Debug, Clone, Default)]
pub struct OptionsBuilder {
    o: Options,
}

fn strings<I: IntoIterator<Item = S>, S: Into<String>>(items: I) -> Vec<String> {
    items.into_iter().map(Into::into).collect()
}

impl OptionsBuilder {
    /// The finished options.
    pub fn build(self) -> Options {
        self.o
    }

    /// The Claude Code executable to run (default: the native binary of the npm package
    /// `@anthropic-ai/claude-code` found from the working directory up, then `claude` on `PATH`).
    /// A `.js`/`.mjs` file runs through [`executable`](Self::executable) (default `node`).
    pub fn cli_path(mut self, path: impl Into<PathBuf>) -> Self {
        self.o.data.cli_path = Some(path.into());
        self
    }

    /// The runtime for a JavaScript CLI (`node`, `bun`).
    pub fn executable(mut self, runtime: impl Into<String>) -> Self {
        self.o.data.executable = Some(runtime.into());
        self
    }

    /// Arguments for the runtime (or the executable) before the CLI's own.
    pub fn executable_args<I: IntoIterator<Item = S>, S: Into<String>>(mut self, args: I) -> Self {
        self.o.data.executable_args = strings(args);
        self
    }

    /// The CLI's working directory (default: this process's).
    pub fn cwd(mut self, dir: impl Into<PathBuf>) -> Self {
        self.o.data.cwd = Some(dir.into());
        self
    }

    /// Sets a variable for the CLI, on top of the environment it starts from (this process's,
    /// unless [`inherit_env(false)`](Self::inherit_env)).
    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.o.data.env.insert(key.into(), Some(value.into()));
        self
    }

    /// Sets several variables (see [`env`](Self::env)).
    pub fn envs<I: IntoIterator<Item = (K, V)>, K: Into<String>, V: Into<String>>(mut self, vars: I) -> Self {
        for (k, v) in vars {
            self = self.env(k, v);
        }
        self
    }

    /// Removes a variable from the CLI's environment.
    pub fn env_remove(mut self, key: impl Into<String>) -> Self {
        self.o.data.env.insert(key.into(), None);
        self
    }

    /// Whether the CLI starts from this process's environment (default `true`); with `false` it
    /// gets only what [`env`](Self::env) sets (plus the SDK's own variables).
    pub fn inherit_env(mut self, inherit: bool) -> Self {
        self.o.data.inherit_env = Some(inherit);
        self
    }

    /// The model (`claude-sonnet-4-5`, an alias such as `sonnet`, ...).
    pub fn model(mut self, model: impl Into<String>) -> Self {
        self.o.data.model = Some(model.into());
        self
    }

    /// The model to fall back to when the main one is overloaded.
    pub fn fallback_model(mut self, model: impl Into<String>) -> Self {
        self.o.data.fallback_model = Some(model.into());
        self
    }

    /// Tools that run without a permission prompt (`"Read"`, `"Bash(npm test)"`,
    /// `"mcp__demo__greet"`).
    pub fn allowed_tools<I: IntoIterator<Item = S>, S: Into<String>>(mut self, tools: I) -> Self {
        self.o.data.allowed_tools = strings(tools);
        self
    }

    /// Tools the model may not use.
    pub fn disallowed_tools<I: IntoIterator<Item = S>, S: Into<String>>(mut self, tools: I) -> Self {
        self.o.data.disallowed_tools = strings(tools);
        self
    }

    /// The built-in tools offered to the model.
    pub fn tools(mut self, tools: Tools) -> Self {
        self.o.data.tools = Some(tools);
        self
    }

    /// The permission mode.
    pub fn permission_mode(mut self, mode: PermissionMode) -> Self {
        self.o.data.permission_mode = Some(mode);
        self
    }

    /// Allows [`PermissionMode::BypassPermissions`] (now or later in the session).
    pub fn allow_dangerously_skip_permissions(mut self, allow: bool) -> Self {
        self.o.data.allow_dangerously_skip_permissions = allow;
        self
    }

    /// An MCP tool that answers permission prompts (instead of [`can_use_tool`](Self::can_use_tool)).
    pub fn permission_prompt_tool_name(mut self, name: impl Into<String>) -> Self {
        self.o.data.permission_prompt_tool_name = Some(name.into());
        self
    }

    /// At most this many model turns.
    pub fn max_turns(mut self, turns: u64) -> Self {
        self.o.data.max_turns = Some(turns);
        self
    }

    /// Stop once the session has cost this much.
    pub fn max_budget_usd(mut self, usd: f64) -> Self {
        self.o.data.max_budget_usd = Some(usd);
        self
    }

    /// Bounds on the memory and CPU time of the CLI and everything it starts; past one, the
    /// query ends with [`Error::ResourceLimit`](crate::Error::ResourceLimit).
    pub fn resource_limits(mut self, limits: crate::ResourceLimits) -> Self {
        self.o.data.resource_limits = Some(limits);
        self
    }

    /// Extended thinking.
    pub fn thinking(mut self, thinking: Thinking) -> Self {
        self.o.data.thinking = Some(thinking);
        self
    }

    /// The effort level.
    pub fn effort(mut self, effort: Effort) -> Self {
        self.o.data.effort = Some(effort);
        self
    }

    /// The system prompt (default: an empty custom prompt, as the official SDKs send).
    pub fn system_prompt(mut self, prompt: SystemPrompt) -> Self {
        self.o.data.system_prompt = Some(prompt);
        self
    }

    /// Also yield [`Message::StreamEvent`](crate::Message::StreamEvent)s: the response as it is
    /// generated.
    pub fn include_partial_messages(mut self, include: bool) -> Self {
        self.o.data.include_partial_messages = include;
        self
    }

    /// Continue the most recent session of the working directory.
    pub fn continue_conversation(mut self, cont: bool) -> Self {
        self.o.data.continue_conversation = cont;
        self
    }

    /// Resume this session.
    pub fn resume(mut self, session_id: impl Into<String>) -> Self {
        self.o.data.resume = Some(session_id.into());
        self
    }

    /// When resuming, resume at this message.
    pub fn resume_session_at(mut self, message_uuid: impl Into<String>) -> Self {
        self.o.data.resume_session_at = Some(message_uuid.into());
        self
    }

    /// When resuming, continue in a new session (a fork) instead of the old one.
    pub fn fork_session(mut self, fork: bool) -> Self {
        self.o.data.fork_session = fork;
        self
    }

    /// The new session's id (a UUID).
    pub fn session_id(mut self, id: impl Into<String>) -> Self {
        self.o.data.session_id = Some(id.into());
        self
    }

    /// Whether the session is saved to disk (default `true`).
    pub fn persist_session(mut self, persist: bool) -> Self {
        self.o.data.persist_session = Some(persist);
        self
    }

    /// More directories the tools may work in.
    pub fn add_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.o.data.additional_directories.push(dir.into());
        self
    }

    /// Where settings are loaded from (default: nowhere).
    pub fn setting_sources<I: IntoIterator<Item = SettingSource>>(mut self, sources: I) -> Self {
        self.o.data.setting_sources = Some(sources.into_iter().collect());
        self
    }

    /// An MCP server run in this process, under `key` (its tools become `mcp__<key>__<tool>`).
    pub fn mcp_server(mut self, key: impl Into<String>, server: McpServer) -> Self {
        self.o.sdk_servers.push((key.into(), server));
        self
    }

    /// An MCP server the CLI runs or connects to, under `key`.
    pub fn external_mcp_server(mut self, key: impl Into<String>, config: McpServerConfig) -> Self {
        self.o.data.mcp_servers.insert(key.into(), config);
        self
    }

    /// Use only the MCP servers given here, none from settings.
    pub fn strict_mcp_config(mut self, strict: bool) -> Self {
        self.o.data.strict_mcp_config = strict;
        self
    }

    /// Settings: a settings object, or a settings file path as a JSON string.
    pub fn settings(mut self, settings: Value) -> Self {
        self.o.data.settings = Some(settings);
        self
    }

    /// A CLI flag without a value (`--name`) or with one (`--name value`).
    pub fn extra_arg(mut self, name: impl Into<String>, value: Option<String>) -> Self {
        self.o.data.extra_args.insert(name.into(), value);
        self
    }

    /// A local plugin directory.
    pub fn plugin_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.o.data.plugins.push(Plugin::local(dir));
        self
    }

    /// Loads a plugin, with its settings ([`Plugin`]).
    pub fn plugin(mut self, plugin: Plugin) -> Self {
        self.o.data.plugins.push(plugin);
        self
    }

    /// Subagent definitions: `{"name": {"description", "prompt", "tools"?, "model"?}}`.
    pub fn agents(mut self, agents: Value) -> Self {
        self.o.data.agents = Some(agents);
        self
    }

    /// The agent the main thread runs as (one of [`agents`](Self::agents)).
    pub fn agent(mut self, name: impl Into<String>) -> Self {
        self.o.data.agent = Some(name.into());
        self
    }

    /// Structured output: the final result must match this JSON Schema; it arrives as
    /// [`ResultMessage::structured_output`](crate::ResultMessage::structured_output).
    pub fn output_schema(mut self, schema: Value) -> Self {
        self.o.data.output_schema = Some(schema);
        self
    }

    /// Structured output matching a Rust type (its schema from `schemars`).
    pub fn output_type<T: JsonSchema>(self) -> Self {
        self.output_schema(crate::tool::input_schema::<T>())
    }

    /// Sandbox settings for the CLI's commands.
    pub fn sandbox(mut self, sandbox: Value) -> Self {
        self.o.data.sandbox = Some(sandbox);
        self
    }

    /// Track file changes so [`QueryControl::rewind_files`](crate::QueryControl::rewind_files)
    /// can undo them.
    pub fn enable_file_checkpointing(mut self, enable: bool) -> Self {
        self.o.data.enable_file_checkpointing = enable;
        self
    }

    /// Also yield hook lifecycle events as system messages.
    pub fn include_hook_events(mut self, include: bool) -> Self {
        self.o.data.include_hook_events = include;
        self
    }

    /// The CLI's debug mode.
    pub fn debug(mut self, debug: bool) -> Self {
        self.o.data.debug = debug;
        self
    }

    /// Write the CLI's debug log to this file.
    pub fn debug_file(mut self, path: impl Into<PathBuf>) -> Self {
        self.o.data.debug_file = Some(path.into());
        self
    }

    /// How long the CLI has to answer `initialize` (default 60 s).
    pub fn initialize_timeout(mut self, timeout: Duration) -> Self {
        self.o.data.initialize_timeout = Some(timeout);
        self
    }

    /// The session's title.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.o.data.title = Some(title.into());
        self
    }

    /// Answers permission prompts: called with the tool's name, its input and the prompt's
    /// context, for every tool use no rule allows or denies.
    ///
    /// ```
    /// use claude_agent_sdk::{Options, PermissionResult};
    ///
    /// let options = Options::builder()
    ///     .can_use_tool(|tool, input, _ctx| async move {
    ///         if tool == "Bash" && input["command"].as_str().is_some_and(|c| c.contains("rm ")) {
    ///             PermissionResult::deny("No deleting")
    ///         } else {
    ///             PermissionResult::allow()
    ///         }
    ///     })
    ///     .build();
    /// # let _ = options;
    /// ```
    pub fn can_use_tool<F, Fut>(mut self, f: F) -> Self
    where
        F: Fn(String, Value, PermissionContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = PermissionResult> + Send + 'static,
    {
        self.o.can_use_tool = Some(can_use_tool_fn(f));
        self
    }

    /// Hooks for an event.
    pub fn hook(mut self, event: HookEvent, matcher: HookMatcher) -> Self {
        self.o.hooks.push((event, matcher));
        self
    }

    /// Answers MCP elicitations: an MCP server asks the user for input. Without this callback
    /// every elicitation is declined.
    ///
    /// ```
    /// use claude_agent_sdk::{ElicitationResult, Options};
    /// use serde_json::json;
    ///
    /// let options = Options::builder()
    ///     .on_elicitation(|request| async move {
    ///         if request.server_name == "tickets" {
    ///             ElicitationResult::accept(json!({ "priority": "high" }))
    ///         } else {
    ///             ElicitationResult::Decline
    ///         }
    ///     })
    ///     .build();
    /// # let _ = options;
    /// ```
    pub fn on_elicitation<F, Fut>(mut self, f: F) -> Self
    where
        F: Fn(ElicitationRequest) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ElicitationResult> + Send + 'static,
    {
        self.o.on_elicitation = Some(elicitation_fn(f));
        self
    }

    /// Answers the CLI's user dialogs of the given kinds (sent to the CLI as the kinds this SDK
    /// supports): the callback returns the dialog's result, or `None` to refuse it.
    pub fn on_user_dialog<I, S, F, Fut>(mut self, kinds: I, f: F) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
        F: Fn(UserDialogRequest) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Option<Value>> + Send + 'static,
    {
        self.o.on_user_dialog = Some((strings(kinds), user_dialog_fn(f)));
        self
    }

    /// How thinking shows in assistant messages.
    pub fn thinking_display(mut self, display: ThinkingDisplay) -> Self {
        self.o.data.thinking_display = Some(display);
        self
    }

    /// The most tokens the model may think with (0: no thinking).
    #[deprecated(note = "use `thinking` (Thinking::Budget, Thinking::Adaptive or Thinking::Disabled)")]
    pub fn max_thinking_tokens(mut self, tokens: u64) -> Self {
        self.o.data.max_thinking_tokens = Some(tokens);
        self
    }

    /// Anthropic API beta features to enable (e.g. `context-1m-2025-08-07`).
    pub fn betas<I: IntoIterator<Item = S>, S: Into<String>>(mut self, betas: I) -> Self {
        self.o.data.betas = strings(betas);
        self
    }

    /// An API-side task budget in tokens: the model is told what remains, to pace its work.
    pub fn task_budget(mut self, total_tokens: u64) -> Self {
        self.o.data.task_budget = Some(total_tokens);
        self
    }

    /// A tool-name alias: a `tool_use` of `from` runs `to` (one hop; e.g. `Bash` to
    /// `mcp__workspace__bash`).
    pub fn tool_alias(mut self, from: impl Into<String>, to: impl Into<String>) -> Self {
        self.o.data.tool_aliases.insert(from.into(), to.into());
        self
    }

    /// The format the model writes `AskUserQuestion` option previews in.
    pub fn ask_user_question_preview_format(mut self, format: PreviewFormat) -> Self {
        self.o.data.preview_format = Some(format);
        self
    }

    /// The trusted checkout the working directory is a worktree of: project settings, `.mcp.json`
    /// and the `.claude` trees come from there. An absolute path.
    pub fn project_config_root(mut self, dir: impl Into<PathBuf>) -> Self {
        self.o.data.project_config_root = Some(dir.into());
        self
    }

    /// Who answers permission prompts.
    pub fn permission_prompts(mut self, who: PermissionPrompts) -> Self {
        self.o.data.permission_prompts = Some(who);
        self
    }

    /// The workflow body of plan mode's system reminder, instead of the default.
    pub fn plan_mode_instructions(mut self, text: impl Into<String>) -> Self {
        self.o.data.plan_mode_instructions = Some(text.into());
        self
    }

    /// Prompt suggestions after each turn (`prompt_suggestion` messages).
    pub fn prompt_suggestions(mut self, on: bool) -> Self {
        self.o.data.prompt_suggestions = Some(on);
        self
    }

    /// Progress summaries of running subagents.
    pub fn agent_progress_summaries(mut self, on: bool) -> Self {
        self.o.data.agent_progress_summaries = Some(on);
        self
    }

    /// Forward subagents' whole conversation (text and thinking too), not only their tool blocks.
    pub fn forward_subagent_text(mut self, on: bool) -> Self {
        self.o.data.forward_subagent_text = Some(on);
        self
    }

    /// Declares that this app can stop single background tasks
    /// ([`QueryControl::stop_task`](crate::QueryControl::stop_task)), so an interrupt spares them.
    pub fn per_task_stop_affordance(mut self, on: bool) -> Self {
        self.o.data.per_task_stop_affordance = Some(on);
        self
    }

    /// Serves only these control requests from the CLI (subtypes such as `can_use_tool`,
    /// `hook_callback`, `mcp_message`); any other is answered with the error "Control request not
    /// allowed by this host". Unset: all are served.
    pub fn allowed_control_requests<S: Into<String>>(mut self, subtypes: impl IntoIterator<Item = S>) -> Self {
        self.o.data.allowed_control_requests = Some(subtypes.into_iter().map(Into::into).collect());
        self
    }

    /// Send every user message (the text prompt too) as written: no `@path` expansion, no slash
    /// commands (`client_composed: true`). Needs Claude Code 2.1.248 or later.
    pub fn verbatim_prompts(mut self, on: bool) -> Self {
        self.o.data.verbatim_prompts = on;
        self
    }

    /// Records this folder as trusted by the user (it must be an absolute path).
    pub fn workspace_trust(mut self, directory: impl Into<PathBuf>) -> Self {
        self.o.data.workspace_trust = Some(WorkspaceTrust {
            directory: directory.into(),
        });
        self
    }

    /// How [`external_mcp_server`](Self::external_mcp_server)s reach the CLI.
    pub fn mcp_servers_delivery(mut self, delivery: Delivery) -> Self {
        self.o.data.mcp_servers_delivery = Some(delivery);
        self
    }

    /// How [`plugin`](Self::plugin)s reach the CLI.
    pub fn plugin_delivery(mut self, delivery: Delivery) -> Self {
        self.o.data.plugin_delivery = Some(delivery);
        self
    }

    /// With [`resume_session_at`](Self::resume_session_at): the uuid of the turn the caller
    /// expects to drop; the CLI refuses the fork if the transcript disagrees.
    pub fn resume_drops_turn(mut self, uuid: impl Into<String>) -> Self {
        self.o.data.resume_drops_turn = Some(uuid.into());
        self
    }

    /// Restrictive policy-tier settings (only restrictive keys apply, such as `permissions.deny`
    /// or the `allowManaged*Only` locks).
    pub fn managed_settings(mut self, settings: Value) -> Self {
        self.o.data.managed_settings = Some(settings);
        self
    }

    /// Which skills the main session loads.
    pub fn skills(mut self, skills: Skills) -> Self {
        self.o.data.skills = Some(skills);
        self
    }

    /// Mirrors the session's transcript to `store` (the TypeScript SDK's `sessionStore`): the
    /// entries the CLI writes reach [`SessionStore::append`] in batches, all of a turn's before
    /// its result reaches you (see [`crate::store`]). The CLI still writes its local transcript
    /// (so [`persist_session(false)`](Self::persist_session) and
    /// [`enable_file_checkpointing`](Self::enable_file_checkpointing) cannot be combined with a
    /// store). To resume from the store alone, pass the options through
    /// [`resume_from_store`](crate::store::resume_from_store) first.
    pub fn session_store(mut self, store: Arc<dyn SessionStore>) -> Self {
        self.o.session_store = Some(store);
        self
    }

    /// How eagerly the transcript goes to the [`session_store`](Self::session_store) (default:
    /// in batches).
    pub fn session_store_flush(mut self, flush: SessionStoreFlush) -> Self {
        self.o.data.session_store_flush = Some(flush);
        self
    }

    /// How long each call [`resume_from_store`](crate::store::resume_from_store) makes to the
    /// [`session_store`](Self::session_store) (`load`, `list_sessions`, `list_subkeys`) may take
    /// before the resume fails (the TypeScript SDK's `loadTimeoutMs`; default
    /// [`LOAD_TIMEOUT`](crate::store::LOAD_TIMEOUT), 60 s).
    pub fn load_timeout(mut self, limit: std::time::Duration) -> Self {
        self.o.load_timeout = Some(limit);
        self
    }

    /// Starts the CLI yourself (the TypeScript SDK's `spawnClaudeCodeProcess`): `f` gets the
    /// command line the SDK would run and returns the process it started, in a container or on
    /// another machine, say (see [`crate::spawn`]). An error from `f` fails [`query`](crate::query)
    /// with [`Error::Spawn`](crate::Error::Spawn).
    pub fn spawn_claude_code_process<F>(mut self, f: F) -> Self
    where
        F: Fn(crate::spawn::SpawnOptions) -> std::io::Result<crate::spawn::SpawnedProcess> + Send + Sync + 'static,
    {
        self.o.spawn = Some(Arc::new(f));
        self
    }

    /// Receives the CLI's stderr, a chunk at a time.
    pub fn stderr<F: Fn(&str) + Send + Sync + 'static>(mut self, f: F) -> Self {
        self.o.stderr = Some(Arc::new(f));
        self
    }
}
