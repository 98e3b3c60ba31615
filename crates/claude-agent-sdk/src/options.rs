//! What a query runs with: [`Options`], built with [`OptionsBuilder`].

use std::collections::BTreeMap;
use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use agent_core::options::{self as core, QueryOptions, TaskBudget};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{json, Value};

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

    /// The plugin as the CLI takes it (`{"type": "local", "path", "skipMcpDiscovery"?}`).
    pub(crate) fn to_wire(&self) -> std::result::Result<Value, String> {
        let path = self
            .path
            .to_str()
            .ok_or_else(|| format!("Invalid plugin path {:?}: not UTF-8", self.path))?;
        let mut plugin = json!({ "type": "local", "path": path });
        if self.skip_mcp_discovery {
            plugin["skipMcpDiscovery"] = json!(true);
        }
        Ok(plugin)
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
    /// The engine's options, filled by the builder as the TypeScript SDK's `Options` carry them.
    pub(crate) core: QueryOptions,
    /// Send every user message as written (`client_composed`); read by the query, not the engine.
    pub(crate) verbatim_prompts: bool,
    /// A `thinking_display` given before `thinking` (applied when `thinking` comes; an error at
    /// the start without it).
    pub(crate) thinking_display: Option<ThinkingDisplay>,
    /// The first value a builder method could not take (builder methods cannot fail): reported
    /// by `query()` as [`Error::InvalidOption`](crate::Error::InvalidOption).
    pub(crate) invalid: Option<String>,
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
            .field("core", &self.core)
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

/// An absolute path as text, or the error naming the builder method.
fn absolute(path: &std::path::Path, what: &str) -> std::result::Result<String, String> {
    let text = path
        .to_str()
        .ok_or_else(|| format!("Invalid option `{what}`: {path:?} is not valid UTF-8"))?;
    if !path.is_absolute() {
        return Err(format!("Invalid option `{what}`: {text:?} is not an absolute path"));
    }
    Ok(text.to_string())
}

impl From<Delivery> for core::Delivery {
    fn from(d: Delivery) -> Self {
        match d {
            Delivery::Argv => core::Delivery::Argv,
            Delivery::Initialize => core::Delivery::Initialize,
        }
    }
}

impl OptionsBuilder {
    /// Keeps the first value a builder method could not take, for `query()` to report.
    fn invalid(&mut self, message: String) {
        self.o.invalid.get_or_insert(message);
    }

    /// The finished options.
    pub fn build(self) -> Options {
        self.o
    }

    /// The Claude Code executable to run (default: the native binary of the npm package
    /// `@anthropic-ai/claude-code` found from the working directory up, then `claude` on `PATH`).
    /// A `.js`/`.mjs` file runs through [`executable`](Self::executable) (default `node`).
    pub fn cli_path(mut self, path: impl Into<PathBuf>) -> Self {
        self.o.core.path_to_claude_code_executable = Some(path.into());
        self
    }

    /// The runtime for a JavaScript CLI (`node`, `bun`).
    pub fn executable(mut self, runtime: impl Into<String>) -> Self {
        self.o.core.executable = Some(runtime.into());
        self
    }

    /// Arguments for the runtime (or the executable) before the CLI's own.
    pub fn executable_args<I: IntoIterator<Item = S>, S: Into<String>>(mut self, args: I) -> Self {
        self.o.core.executable_args = strings(args);
        self
    }

    /// The CLI's working directory (default: this process's).
    pub fn cwd(mut self, dir: impl Into<PathBuf>) -> Self {
        self.o.core.cwd = Some(dir.into());
        self
    }

    /// Sets a variable for the CLI, on top of the environment it starts from (this process's,
    /// unless [`inherit_env(false)`](Self::inherit_env)).
    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.o
            .core
            .env
            .get_or_insert_default()
            .insert(key.into(), Value::String(value.into()));
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
        self.o.core.env.get_or_insert_default().insert(key.into(), Value::Null);
        self
    }

    /// Whether the CLI starts from this process's environment (default `true`); with `false` it
    /// gets only what [`env`](Self::env) sets (plus the SDK's own variables).
    pub fn inherit_env(mut self, inherit: bool) -> Self {
        self.o.core.env_is_whole = !inherit;
        if !inherit {
            self.o.core.env.get_or_insert_default();
        }
        self
    }

    /// The model (`claude-sonnet-4-5`, an alias such as `sonnet`, ...).
    pub fn model(mut self, model: impl Into<String>) -> Self {
        self.o.core.model = Some(model.into());
        self
    }

    /// The model to fall back to when the main one is overloaded.
    pub fn fallback_model(mut self, model: impl Into<String>) -> Self {
        self.o.core.fallback_model = Some(model.into());
        self
    }

    /// Tools that run without a permission prompt (`"Read"`, `"Bash(npm test)"`,
    /// `"mcp__demo__greet"`).
    pub fn allowed_tools<I: IntoIterator<Item = S>, S: Into<String>>(mut self, tools: I) -> Self {
        self.o.core.allowed_tools = strings(tools);
        self
    }

    /// Tools the model may not use.
    pub fn disallowed_tools<I: IntoIterator<Item = S>, S: Into<String>>(mut self, tools: I) -> Self {
        self.o.core.disallowed_tools = strings(tools);
        self
    }

    /// The built-in tools offered to the model.
    pub fn tools(mut self, tools: Tools) -> Self {
        self.o.core.tools = Some(match tools {
            Tools::ClaudeCodePreset => core::Tools::Default,
            Tools::List(names) => core::Tools::List(names),
        });
        self
    }

    /// The permission mode.
    pub fn permission_mode(mut self, mode: PermissionMode) -> Self {
        self.o.core.permission_mode = Some(mode.as_str().into());
        self
    }

    /// Allows [`PermissionMode::BypassPermissions`] (now or later in the session).
    pub fn allow_dangerously_skip_permissions(mut self, allow: bool) -> Self {
        self.o.core.allow_dangerously_skip_permissions = Some(allow);
        self
    }

    /// An MCP tool that answers permission prompts (instead of [`can_use_tool`](Self::can_use_tool)).
    pub fn permission_prompt_tool_name(mut self, name: impl Into<String>) -> Self {
        self.o.core.permission_prompt_tool_name = Some(name.into());
        self
    }

    /// At most this many model turns.
    pub fn max_turns(mut self, turns: u64) -> Self {
        self.o.core.max_turns = Some(turns);
        self
    }

    /// Stop once the session has cost this much.
    pub fn max_budget_usd(mut self, usd: f64) -> Self {
        self.o.core.max_budget_usd = Some(usd);
        self
    }

    /// Bounds on the memory and CPU time of the CLI and everything it starts; past one, the
    /// query ends with [`Error::ResourceLimit`](crate::Error::ResourceLimit).
    pub fn resource_limits(mut self, limits: crate::ResourceLimits) -> Self {
        match limits.to_core() {
            Ok(l) => self.o.core.resource_limits = Some(l),
            Err(e) => self.invalid(e.to_string()),
        }
        self
    }

    /// Extended thinking.
    pub fn thinking(mut self, thinking: Thinking) -> Self {
        let (kind, budget_tokens) = match thinking {
            Thinking::Adaptive => (core::ThinkingKind::Adaptive, None),
            Thinking::Budget(n) => (core::ThinkingKind::Enabled, Some(n)),
            Thinking::Disabled => (core::ThinkingKind::Disabled, None),
        };
        let display = self.o.core.thinking.take().and_then(|t| t.display);
        let display = display.or(self.o.thinking_display.take().map(|d| d.as_str().into()));
        self.o.core.thinking = Some(core::Thinking {
            kind,
            budget_tokens,
            display,
        });
        self
    }

    /// The effort level.
    pub fn effort(mut self, effort: Effort) -> Self {
        self.o.core.effort = Some(effort.as_str().into());
        self
    }

    /// The system prompt (default: an empty custom prompt, as the official SDKs send).
    pub fn system_prompt(mut self, prompt: SystemPrompt) -> Self {
        self.o.core.system_prompt = Some(match prompt {
            SystemPrompt::Custom(s) => json!(s),
            SystemPrompt::ClaudeCode { append } => {
                json!({ "type": "preset", "preset": "claude_code", "append": append })
            }
        });
        self
    }

    /// Also yield [`Message::StreamEvent`](crate::Message::StreamEvent)s: the response as it is
    /// generated.
    pub fn include_partial_messages(mut self, include: bool) -> Self {
        self.o.core.include_partial_messages = Some(include);
        self
    }

    /// Continue the most recent session of the working directory.
    pub fn continue_conversation(mut self, cont: bool) -> Self {
        self.o.core.continue_conversation = Some(cont);
        self
    }

    /// Resume this session.
    pub fn resume(mut self, session_id: impl Into<String>) -> Self {
        self.o.core.resume = Some(session_id.into());
        self
    }

    /// When resuming, resume at this message.
    pub fn resume_session_at(mut self, message_uuid: impl Into<String>) -> Self {
        self.o.core.resume_session_at = Some(message_uuid.into());
        self
    }

    /// When resuming, continue in a new session (a fork) instead of the old one.
    pub fn fork_session(mut self, fork: bool) -> Self {
        self.o.core.fork_session = Some(fork);
        self
    }

    /// The new session's id (a UUID).
    pub fn session_id(mut self, id: impl Into<String>) -> Self {
        self.o.core.session_id = Some(id.into());
        self
    }

    /// Whether the session is saved to disk (default `true`).
    pub fn persist_session(mut self, persist: bool) -> Self {
        self.o.core.persist_session = Some(persist);
        self
    }

    /// More directories the tools may work in.
    pub fn add_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.o.core.additional_directories.push(dir.into());
        self
    }

    /// Where settings are loaded from (default: nowhere).
    pub fn setting_sources<I: IntoIterator<Item = SettingSource>>(mut self, sources: I) -> Self {
        self.o.core.setting_sources = Some(sources.into_iter().map(|s| s.as_str().into()).collect());
        self
    }

    /// An MCP server run in this process, under `key` (its tools become `mcp__<key>__<tool>`).
    pub fn mcp_server(mut self, key: impl Into<String>, server: McpServer) -> Self {
        self.o.sdk_servers.push((key.into(), server));
        self
    }

    /// An MCP server the CLI runs or connects to, under `key`.
    pub fn external_mcp_server(mut self, key: impl Into<String>, config: McpServerConfig) -> Self {
        // A derived `Serialize` of strings and string maps: cannot fail.
        let config = serde_json::to_value(config).unwrap_or_default();
        self.o
            .core
            .mcp_servers
            .get_or_insert_default()
            .insert(key.into(), config);
        self
    }

    /// Use only the MCP servers given here, none from settings.
    pub fn strict_mcp_config(mut self, strict: bool) -> Self {
        self.o.core.strict_mcp_config = Some(strict);
        self
    }

    /// Settings: a settings object, or a settings file path as a JSON string.
    pub fn settings(mut self, settings: Value) -> Self {
        self.o.core.settings = Some(settings);
        self
    }

    /// A CLI flag without a value (`--name`) or with one (`--name value`).
    pub fn extra_arg(mut self, name: impl Into<String>, value: Option<String>) -> Self {
        let value = value.map_or(Value::Null, Value::String);
        self.o
            .core
            .extra_args
            .get_or_insert_default()
            .insert(name.into(), value);
        self
    }

    /// A local plugin directory.
    pub fn plugin_dir(self, dir: impl Into<PathBuf>) -> Self {
        self.plugin(Plugin::local(dir))
    }

    /// Loads a plugin, with its settings ([`Plugin`]).
    pub fn plugin(mut self, plugin: Plugin) -> Self {
        match plugin.to_wire() {
            Ok(plugin) => self.o.core.plugins.get_or_insert_default().push(plugin),
            Err(e) => self.invalid(e),
        }
        self
    }

    /// Subagent definitions: `{"name": {"description", "prompt", "tools"?, "model"?}}`.
    pub fn agents(mut self, agents: Value) -> Self {
        self.o.core.agents = Some(agents);
        self
    }

    /// The agent the main thread runs as (one of [`agents`](Self::agents)).
    pub fn agent(mut self, name: impl Into<String>) -> Self {
        self.o.core.agent = Some(name.into());
        self
    }

    /// Structured output: the final result must match this JSON Schema; it arrives as
    /// [`ResultMessage::structured_output`](crate::ResultMessage::structured_output).
    pub fn output_schema(mut self, schema: Value) -> Self {
        self.o.core.output_format = Some(json!({ "type": "json_schema", "schema": schema }));
        self
    }

    /// Structured output matching a Rust type (its schema from `schemars`).
    pub fn output_type<T: JsonSchema>(self) -> Self {
        self.output_schema(crate::tool::input_schema::<T>())
    }

    /// Sandbox settings for the CLI's commands.
    pub fn sandbox(mut self, sandbox: Value) -> Self {
        self.o.core.sandbox = Some(sandbox);
        self
    }

    /// Track file changes so [`QueryControl::rewind_files`](crate::QueryControl::rewind_files)
    /// can undo them.
    pub fn enable_file_checkpointing(mut self, enable: bool) -> Self {
        self.o.core.enable_file_checkpointing = Some(enable);
        self
    }

    /// Also yield hook lifecycle events as system messages.
    pub fn include_hook_events(mut self, include: bool) -> Self {
        self.o.core.include_hook_events = Some(include);
        self
    }

    /// The CLI's debug mode.
    pub fn debug(mut self, debug: bool) -> Self {
        self.o.core.debug = Some(debug);
        self
    }

    /// Write the CLI's debug log to this file.
    pub fn debug_file(mut self, path: impl Into<PathBuf>) -> Self {
        self.o.core.debug_file = Some(path.into());
        self
    }

    /// How long the CLI has to answer `initialize` (default 60 s).
    pub fn initialize_timeout(mut self, timeout: Duration) -> Self {
        self.o.core.initialize_timeout_ms = Some(timeout.as_millis() as u64);
        self
    }

    /// The session's title.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.o.core.title = Some(title.into());
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
        self.o.core.can_use_tool = true;
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
        self.o.core.on_elicitation = true;
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
        let kinds = strings(kinds);
        self.o.core.supported_dialog_kinds = Some(kinds.clone()).filter(|k| !k.is_empty());
        self.o.core.on_user_dialog = true;
        self.o.on_user_dialog = Some((kinds, user_dialog_fn(f)));
        self
    }

    /// How thinking shows in assistant messages.
    pub fn thinking_display(mut self, display: ThinkingDisplay) -> Self {
        match &mut self.o.core.thinking {
            Some(thinking) => thinking.display = Some(display.as_str().into()),
            None => self.o.thinking_display = Some(display),
        }
        self
    }

    /// The most tokens the model may think with (0: no thinking).
    #[deprecated(note = "use `thinking` (Thinking::Budget, Thinking::Adaptive or Thinking::Disabled)")]
    pub fn max_thinking_tokens(mut self, tokens: u64) -> Self {
        self.o.core.max_thinking_tokens = Some(tokens);
        self
    }

    /// Anthropic API beta features to enable (e.g. `context-1m-2025-08-07`).
    pub fn betas<I: IntoIterator<Item = S>, S: Into<String>>(mut self, betas: I) -> Self {
        self.o.core.betas = strings(betas);
        self
    }

    /// An API-side task budget in tokens: the model is told what remains, to pace its work.
    pub fn task_budget(mut self, total_tokens: u64) -> Self {
        self.o.core.task_budget = Some(TaskBudget {
            total: Some(total_tokens.into()),
        });
        self
    }

    /// A tool-name alias: a `tool_use` of `from` runs `to` (one hop; e.g. `Bash` to
    /// `mcp__workspace__bash`).
    pub fn tool_alias(mut self, from: impl Into<String>, to: impl Into<String>) -> Self {
        let aliases = self.o.core.tool_aliases.get_or_insert_with(|| json!({}));
        if let Value::Object(aliases) = aliases {
            aliases.insert(from.into(), Value::String(to.into()));
        }
        self
    }

    /// The format the model writes `AskUserQuestion` option previews in.
    pub fn ask_user_question_preview_format(mut self, format: PreviewFormat) -> Self {
        self.o.core.tool_config = Some(json!({ "askUserQuestion": { "previewFormat": format.as_str() } }));
        self
    }

    /// The trusted checkout the working directory is a worktree of: project settings, `.mcp.json`
    /// and the `.claude` trees come from there. An absolute path.
    pub fn project_config_root(mut self, dir: impl Into<PathBuf>) -> Self {
        let dir = dir.into();
        if let Err(e) = absolute(&dir, "project_config_root") {
            self.invalid(e);
        }
        self.o.core.project_config_root = Some(dir);
        self
    }

    /// Who answers permission prompts.
    pub fn permission_prompts(mut self, who: PermissionPrompts) -> Self {
        self.o.core.permission_prompts = Some(who.as_str().into());
        self
    }

    /// The workflow body of plan mode's system reminder, instead of the default.
    pub fn plan_mode_instructions(mut self, text: impl Into<String>) -> Self {
        self.o.core.plan_mode_instructions = Some(text.into());
        self
    }

    /// Prompt suggestions after each turn (`prompt_suggestion` messages).
    pub fn prompt_suggestions(mut self, on: bool) -> Self {
        self.o.core.prompt_suggestions = Some(on);
        self
    }

    /// Progress summaries of running subagents.
    pub fn agent_progress_summaries(mut self, on: bool) -> Self {
        self.o.core.agent_progress_summaries = Some(on);
        self
    }

    /// Forward subagents' whole conversation (text and thinking too), not only their tool blocks.
    pub fn forward_subagent_text(mut self, on: bool) -> Self {
        self.o.core.forward_subagent_text = Some(on);
        self
    }

    /// Declares that this app can stop single background tasks
    /// ([`QueryControl::stop_task`](crate::QueryControl::stop_task)), so an interrupt spares them.
    pub fn per_task_stop_affordance(mut self, on: bool) -> Self {
        self.o.core.per_task_stop_affordance = Some(on);
        self
    }

    /// Serves only these control requests from the CLI (subtypes such as `can_use_tool`,
    /// `hook_callback`, `mcp_message`); any other is answered with the error "Control request not
    /// allowed by this host". Unset: all are served.
    pub fn allowed_control_requests<S: Into<String>>(mut self, subtypes: impl IntoIterator<Item = S>) -> Self {
        self.o.core.allowed_control_requests = Some(subtypes.into_iter().map(Into::into).collect());
        self
    }

    /// Send every user message (the text prompt too) as written: no `@path` expansion, no slash
    /// commands (`client_composed: true`). Needs Claude Code 2.1.248 or later.
    pub fn verbatim_prompts(mut self, on: bool) -> Self {
        self.o.verbatim_prompts = on;
        self
    }

    /// Records this folder as trusted by the user (it must be an absolute path).
    pub fn workspace_trust(mut self, directory: impl Into<PathBuf>) -> Self {
        let directory = directory.into();
        match absolute(&directory, "workspace_trust") {
            Ok(dir) => self.o.core.workspace_trust = Some(json!({ "accepted": true, "directory": dir })),
            Err(e) => self.invalid(e),
        }
        self
    }

    /// How [`external_mcp_server`](Self::external_mcp_server)s reach the CLI.
    pub fn mcp_servers_delivery(mut self, delivery: Delivery) -> Self {
        self.o.core.mcp_servers_delivery = Some(delivery.into());
        self
    }

    /// How [`plugin`](Self::plugin)s reach the CLI.
    pub fn plugin_delivery(mut self, delivery: Delivery) -> Self {
        self.o.core.plugin_delivery = Some(delivery.into());
        self
    }

    /// With [`resume_session_at`](Self::resume_session_at): the uuid of the turn the caller
    /// expects to drop; the CLI refuses the fork if the transcript disagrees.
    pub fn resume_drops_turn(mut self, uuid: impl Into<String>) -> Self {
        self.o.core.resume_drops_turn = Some(uuid.into());
        self
    }

    /// Restrictive policy-tier settings (only restrictive keys apply, such as `permissions.deny`
    /// or the `allowManaged*Only` locks).
    pub fn managed_settings(mut self, settings: Value) -> Self {
        self.o.core.managed_settings = Some(settings);
        self
    }

    /// Which skills the main session loads.
    pub fn skills(mut self, skills: Skills) -> Self {
        self.o.core.skills = Some(match skills {
            Skills::All => core::Skills::All,
            Skills::Only(names) => core::Skills::Only(names.into_iter().map(Value::String).collect()),
        });
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
        self.o.core.session_store = true;
        self
    }

    /// How eagerly the transcript goes to the [`session_store`](Self::session_store) (default:
    /// in batches).
    pub fn session_store_flush(mut self, flush: SessionStoreFlush) -> Self {
        self.o.core.session_store_flush = Some(flush.as_str().into());
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
