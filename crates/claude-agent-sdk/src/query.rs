//! [`query`]: one session with Claude Code, as a stream of messages plus its controls.

use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use futures::stream::{BoxStream, Stream, StreamExt};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::engine;
use crate::error::{Error, Result};
use crate::message::{Message, UserInput};
use crate::options::{McpServerConfig, Options, Plugin, ThinkingDisplay};
use crate::permission::PermissionMode;
use crate::server::McpServer;

/// What a query starts with: one text prompt, or a stream of user messages (streaming input,
/// for a conversation of several turns).
pub enum Prompt {
    /// One prompt; the query ends after its result.
    Text(String),
    /// User messages sent as they come; the query ends once the stream has ended and the CLI has
    /// answered everything.
    Stream(BoxStream<'static, UserInput>),
}

impl Prompt {
    /// Streaming input from any stream of user messages.
    pub fn stream<S: Stream<Item = UserInput> + Send + 'static>(messages: S) -> Self {
        Prompt::Stream(messages.boxed())
    }
}

impl std::fmt::Debug for Prompt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Prompt::Text(t) => f.debug_tuple("Text").field(t).finish(),
            Prompt::Stream(_) => f.write_str("Stream(..)"),
        }
    }
}

impl From<&str> for Prompt {
    fn from(text: &str) -> Self {
        Prompt::Text(text.to_string())
    }
}

impl From<String> for Prompt {
    fn from(text: String) -> Self {
        Prompt::Text(text)
    }
}

/// Starts Claude Code on a prompt. The returned [`Query`] is a [`Stream`] of the session's
/// messages and carries its controls ([`QueryControl`], through `Deref`). Must be called within
/// a tokio runtime; fails at once on a bad option or when no CLI can be found. Dropping the
/// query ends the CLI gracefully in the background (stdin closed, then SIGTERM, then SIGKILL).
///
/// ```no_run
/// use claude_agent_sdk::{query, Message, Options};
/// use futures::StreamExt;
///
/// # async fn run() -> Result<(), claude_agent_sdk::Error> {
/// let mut q = query("What is 2 + 2?", Options::builder().max_turns(1).build())?;
/// while let Some(message) = q.next().await {
///     if let Message::Result(r) = message? {
///         println!("{}", r.result.unwrap_or_default());
///     }
/// }
/// # Ok(())
/// # }
/// ```
pub fn query(prompt: impl Into<Prompt>, options: Options) -> Result<Query> {
    let verbatim = options.verbatim_prompts;
    // Process servers sent in `initialize`: as the official SDK, the prompt waits until the CLI
    // has confirmed it read them; a CLI too old to say ends the session with `CliTooOld`.
    let servers_in_initialize = options.core.mcp_servers_via_initialize();
    let (text, input) = match prompt.into() {
        // A verbatim or held text prompt goes as a user message (marked `client_composed` when
        // verbatim), then the input ends.
        Prompt::Text(t) if verbatim || servers_in_initialize => {
            (None, Some(futures::stream::iter([UserInput::text(t)]).boxed()))
        }
        Prompt::Text(t) => (Some(t), None),
        Prompt::Stream(s) => (None, Some(s)),
    };
    let (session, messages) = engine::start(text, options)?;
    Ok(attach(
        QueryControl { session, verbatim },
        messages,
        input,
        servers_in_initialize,
    ))
}

/// The query of a started session: its messages, with `input` (streaming input, or a text
/// prompt as one user message) forwarded by a task.
fn attach(
    control: QueryControl,
    messages: BoxStream<'static, Result<Message>>,
    input: Option<BoxStream<'static, UserInput>>,
    servers_in_initialize: bool,
) -> Query {
    let failure: Arc<Mutex<Option<Error>>> = Arc::default();
    // Streaming input: a task forwards the messages, then ends the input. It stops early when the
    // session is over; the query aborts it when dropped.
    let input_task = input.map(|mut input| {
    let control = control.clone();
    let failure = failure.clone();
    tokio::spawn(async move {
      if servers_in_initialize {
        let Ok(init) = control.initialization_result().await else { return };
        if !init.get("mcp_servers_applied").is_some_and(Value::is_boolean) {
          let version = init.get("claude_code_version").and_then(Value::as_str).map(|v| format!(" (version {v})")).unwrap_or_default();
          *failure.lock().unwrap_or_else(|p| p.into_inner()) = Some(Error::CliTooOld(format!(
            "This Claude Code{version} is too old to read MCP servers from the initialize request, so it started without them. \
             The session was ended and no prompt was sent. Use a newer Claude Code, or set mcp_servers_delivery(Delivery::Argv), \
             which puts the servers' env and headers on Claude Code's command line, where other users of the machine can read them."
          )));
          control.close();
          return;
        }
      }
      while let Some(message) = input.next().await {
        if control.send_message(message).is_err() {
          return;
        }
      }
      control.end_input();
    })
    .abort_handle()
  });
    // After the last message: the failure found before the prompt went, if any.
    let failed = futures::stream::once(async move { failure.lock().unwrap_or_else(|p| p.into_inner()).take() })
        .filter_map(|f| async move { f.map(Err) });
    Query {
        control,
        messages: messages.chain(failed).boxed(),
        input_task,
    }
}

/// Starts Claude Code before the prompt is known (the TypeScript SDK's `startup()`): the CLI is
/// spawned and initialized now, so that [`WarmQuery::query`] later sends its prompt to a CLI
/// that is already up. Resolves once the CLI has answered `initialize`; fails as
/// [`query`] fails on a bad option, or with the error that ended the CLI before it answered
/// (the initialize timeout is [`OptionsBuilder::initialize_timeout`](crate::OptionsBuilder::initialize_timeout)).
/// Dropping the warm query unused ends the CLI, as dropping a [`Query`] does.
///
/// ```no_run
/// use claude_agent_sdk::{startup, Options};
/// use futures::StreamExt;
///
/// # async fn run() -> Result<(), claude_agent_sdk::Error> {
/// let warm = startup(Options::builder().build()).await?;
/// // ... later, when the prompt is known:
/// let mut q = warm.query("Hello");
/// while let Some(message) = q.next().await {
///     println!("{:?}", message?);
/// }
/// # Ok(())
/// # }
/// ```
pub async fn startup(options: Options) -> Result<WarmQuery> {
    let verbatim = options.verbatim_prompts;
    let servers_in_initialize = options.core.mcp_servers_via_initialize();
    let (session, messages) = engine::start(None, options)?;
    let control = QueryControl { session, verbatim };
    if let Err(e) = control.initialization_result().await {
        control.close();
        return Err(e);
    }
    Ok(WarmQuery {
        control: Some(control),
        messages: Some(messages),
        servers_in_initialize,
    })
}

/// A started and initialized Claude Code waiting for its prompt ([`startup`]); its controls
/// ([`QueryControl`]) are usable meanwhile, through `Deref`.
pub struct WarmQuery {
    control: Option<QueryControl>,
    messages: Option<BoxStream<'static, Result<Message>>>,
    servers_in_initialize: bool,
}

impl WarmQuery {
    /// The query, with its prompt: a text prompt is sent as one user message and the input then
    /// ends (the query ends after its result); a stream is sent as it comes.
    pub fn query(mut self, prompt: impl Into<Prompt>) -> Query {
        let input = match prompt.into() {
            Prompt::Text(t) => futures::stream::iter([UserInput::text(t)]).boxed(),
            Prompt::Stream(s) => s,
        };
        let (control, messages) = (
            self.control.take().expect("a warm query's session"),
            self.messages.take().expect("a warm query's messages"),
        );
        attach(control, messages, Some(input), self.servers_in_initialize)
    }
}

impl std::ops::Deref for WarmQuery {
    type Target = QueryControl;

    fn deref(&self) -> &QueryControl {
        self.control.as_ref().expect("a warm query's session")
    }
}

impl std::fmt::Debug for WarmQuery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WarmQuery")
            .field("pid", &self.control.as_ref().and_then(|c| c.pid()))
            .finish_non_exhaustive()
    }
}

impl Drop for WarmQuery {
    fn drop(&mut self) {
        // Unused: the CLI ends, as when a query is dropped.
        if let Some(control) = self.control.take() {
            control.session.close();
        }
    }
}

/// A running query: a [`Stream`] of [`Message`]s, ending after the last one (or with the error
/// that ended the session), and, through `Deref`, its [`QueryControl`].
pub struct Query {
    control: QueryControl,
    messages: BoxStream<'static, Result<Message>>,
    input_task: Option<tokio::task::AbortHandle>,
}

impl std::fmt::Debug for Query {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Query")
            .field("pid", &self.control.pid())
            .finish_non_exhaustive()
    }
}

impl Query {
    /// A handle on the controls, for use from another task while this one reads the stream.
    /// It does not keep the session alive: once the query is dropped its requests fail with
    /// [`Error::SessionClosed`].
    pub fn control(&self) -> QueryControl {
        self.control.clone()
    }

    /// The messages of one turn: the next messages up to and including the turn's
    /// [`Result`](Message::Result) (or an error, or the end of the session), then `None`, with the
    /// query left open for the next turn. The Python SDK's `receive_response()`: with streaming
    /// input ([`Prompt::stream`] or [`send_message`](QueryControl::send_message)) call it once
    /// per message sent.
    ///
    /// ```no_run
    /// # async fn demo(mut q: claude_agent_sdk::Query) -> claude_agent_sdk::Result<()> {
    /// use claude_agent_sdk::{Message, UserInput};
    /// use futures::StreamExt;
    ///
    /// q.send_message(UserInput::text("What is 2 + 2?"))?;
    /// let mut turn = q.receive_response();
    /// while let Some(message) = turn.next().await {
    ///     if let Message::Result(r) = message? {
    ///         println!("{}", r.result.unwrap_or_default());
    ///     }
    /// }
    /// # Ok(()) }
    /// ```
    pub fn receive_response(&mut self) -> TurnResponse<'_> {
        TurnResponse {
            query: self,
            done: false,
        }
    }
}

/// The messages of one turn of a [`Query`], up to and including its result
/// ([`Query::receive_response`]).
#[derive(Debug)]
#[must_use = "streams do nothing unless polled"]
pub struct TurnResponse<'a> {
    query: &'a mut Query,
    done: bool,
}

impl Stream for TurnResponse<'_> {
    type Item = Result<Message>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.done {
            return Poll::Ready(None);
        }
        let next = self.query.poll_next_unpin(cx);
        if let Poll::Ready(item) = &next {
            self.done = matches!(item, None | Some(Err(_)) | Some(Ok(Message::Result(_))));
        }
        next
    }
}

impl Stream for Query {
    type Item = Result<Message>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.messages.poll_next_unpin(cx)
    }
}

impl std::ops::Deref for Query {
    type Target = QueryControl;

    fn deref(&self) -> &QueryControl {
        &self.control
    }
}

impl Drop for Query {
    fn drop(&mut self) {
        if let Some(task) = self.input_task.take() {
            task.abort();
        }
        self.control.session.close();
    }
}

/// The controls of a running query: control requests to the CLI and input. Cheap to clone.
#[derive(Clone)]
pub struct QueryControl {
    session: engine::Session,
    /// Every user message goes with `client_composed: true` ([`OptionsBuilder::verbatim_prompts`](crate::OptionsBuilder::verbatim_prompts)).
    verbatim: bool,
}

impl std::fmt::Debug for QueryControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QueryControl").field("pid", &self.pid()).finish()
    }
}

/// An MCP server's state ([`QueryControl::mcp_server_status`]).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[non_exhaustive]
pub struct McpServerStatus {
    /// Its name.
    pub name: String,
    /// `connected`, `failed`, `needs-auth`, `pending` or `disabled`.
    pub status: String,
    /// `{name, version}` the server announced.
    #[serde(default, rename = "serverInfo")]
    pub server_info: Option<Value>,
    /// Why it failed.
    #[serde(default)]
    pub error: Option<String>,
    /// Its tools (`{name, description?, annotations?}`).
    #[serde(default)]
    pub tools: Vec<Value>,
}

/// A slash command the session offers.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct SlashCommand {
    /// Its name, without the slash.
    pub name: String,
    /// What it does.
    #[serde(default)]
    pub description: String,
    /// A hint for its arguments.
    #[serde(default, rename = "argumentHint")]
    pub argument_hint: String,
}

/// A model the session can use.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct ModelInfo {
    /// What to pass to [`QueryControl::set_model`].
    pub value: String,
    /// Its display name.
    #[serde(default, rename = "displayName")]
    pub display_name: String,
    /// Its description.
    #[serde(default)]
    pub description: String,
}

/// An agent the session can run ([`QueryControl::supported_agents`]).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct AgentInfo {
    /// Its name (the `subagent_type` of the Agent tool).
    pub name: String,
    /// When to use it.
    #[serde(default)]
    pub description: String,
    /// Its model, when it names one.
    #[serde(default)]
    pub model: Option<String>,
}

/// The account the session runs under ([`QueryControl::account_info`]).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AccountInfo {
    /// The account's e-mail address.
    #[serde(default)]
    pub email: Option<String>,
    /// Its organization.
    #[serde(default)]
    pub organization: Option<String>,
    /// Its subscription.
    #[serde(default)]
    pub subscription_type: Option<String>,
    /// Where the OAuth token came from.
    #[serde(default)]
    pub token_source: Option<String>,
    /// Where the API key came from.
    #[serde(default)]
    pub api_key_source: Option<String>,
    /// `firstParty`, `bedrock`, `vertex`, ...
    #[serde(default)]
    pub api_provider: Option<String>,
}

/// What an interrupt left queued ([`QueryControl::interrupt_queued`]).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Default)]
#[non_exhaustive]
pub struct InterruptReceipt {
    /// Uuids of queued user messages that will still run.
    #[serde(default)]
    pub still_queued: Vec<String>,
    /// Uuids of queued user messages cancelled (with `cancel_queued`).
    #[serde(default)]
    pub cancelled: Option<Vec<String>>,
}

/// A file as the CLI reads it ([`QueryControl::read_file`]).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct FileContents {
    /// The contents (base64 when [`encoding`](Self::encoding) says so).
    pub contents: String,
    /// The absolute path read.
    pub abs_path: String,
    /// Cut at the size asked for.
    #[serde(default)]
    pub truncated: Option<bool>,
    /// `base64`, when the contents are.
    #[serde(default)]
    pub encoding: Option<String>,
    /// Invalid UTF-8 was replaced.
    #[serde(default)]
    pub lossy: Option<bool>,
}

/// Where [`QueryControl::update_settings`] writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SettingsFile {
    /// `.claude/settings.local.json` of the project.
    Local,
    /// `~/.claude/settings.json`.
    User,
}

/// A server for [`QueryControl::set_mcp_servers`]: in-process, or run by the CLI.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum McpServerSpec {
    /// Served from this process.
    InProcess(McpServer),
    /// Run (or connected to) by the CLI.
    External(McpServerConfig),
}

impl From<McpServer> for McpServerSpec {
    fn from(s: McpServer) -> Self {
        McpServerSpec::InProcess(s)
    }
}

impl From<McpServerConfig> for McpServerSpec {
    fn from(c: McpServerConfig) -> Self {
        McpServerSpec::External(c)
    }
}

/// What [`QueryControl::set_mcp_servers`] changed.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct McpSetServersResult {
    /// Servers added.
    #[serde(default)]
    pub added: Vec<String>,
    /// Servers removed.
    #[serde(default)]
    pub removed: Vec<String>,
    /// Servers that failed, with why.
    #[serde(default)]
    pub errors: std::collections::BTreeMap<String, String>,
}

fn typed<T: for<'de> Deserialize<'de>>(v: Value, what: &str) -> Result<T> {
    T::deserialize(v).map_err(|e| Error::Protocol(format!("Claude Code answered {what} unexpectedly: {e}")))
}

impl QueryControl {
    /// The CLI's process id.
    pub fn pid(&self) -> Option<u32> {
        self.session.pid()
    }

    /// Sends any control request (`{"subtype": ..., ...}`) and returns the CLI's answer: for the
    /// requests this type has no method for.
    pub async fn control_request(&self, request: Value) -> Result<Value> {
        self.session.control(request).await
    }

    /// Interrupts the current turn (its result follows with `subtype: "error_during_execution"`
    /// or the text so far).
    pub async fn interrupt(&self) -> Result<()> {
        self.session.control(json!({ "subtype": "interrupt" })).await.map(drop)
    }

    /// Changes the permission mode; returns the mode now in effect, which is not always the one
    /// asked for (record it, not the argument). `None` when the CLI's answer names no mode, or one
    /// outside [`PermissionMode`] (older CLIs answer with nothing). A refusal is an error.
    pub async fn set_permission_mode(&self, mode: PermissionMode) -> Result<Option<PermissionMode>> {
        let answer = self
            .session
            .control(json!({ "subtype": "set_permission_mode", "mode": mode.as_str() }))
            .await?;
        Ok(answer
            .get("mode")
            .and_then(Value::as_str)
            .and_then(PermissionMode::from_wire))
    }

    /// Tells the CLI that the user is drafting a prompt (typing), so it can hold back what would
    /// interrupt them (control subtype `prompt_draft_activity`).
    pub async fn note_prompt_draft_activity(&self) -> Result<()> {
        self.session
            .control(json!({ "subtype": "prompt_draft_activity" }))
            .await
            .map(drop)
    }

    /// Changes the model (`None`: back to the default). Returns the model the CLI says is in
    /// effect afterwards, which is worth checking: a model id the CLI does not know can leave the
    /// previous model in place without an error. `None` from a CLI whose answer does not say.
    pub async fn set_model(&self, model: Option<&str>) -> Result<Option<String>> {
        let mut request = json!({ "subtype": "set_model" });
        if let Some(m) = model {
            request["model"] = json!(m);
        }
        let answer = self.session.control(request).await?;
        Ok(answer.get("model").and_then(Value::as_str).map(str::to_string))
    }

    /// Changes the thinking budget (`None`: back to the default).
    pub async fn set_max_thinking_tokens(&self, tokens: Option<u64>) -> Result<()> {
        self.session
            .control(json!({ "subtype": "set_max_thinking_tokens", "max_thinking_tokens": tokens }))
            .await
            .map(drop)
    }

    /// The state of every MCP server of the session.
    pub async fn mcp_server_status(&self) -> Result<Vec<McpServerStatus>> {
        let answer = self.session.control(json!({ "subtype": "mcp_status" })).await?;
        typed(
            answer.get("mcpServers").cloned().unwrap_or_else(|| json!([])),
            "mcp_status",
        )
    }

    /// Replaces the MCP servers added to the session at run time with this set (servers given in
    /// the options stay). In-process servers are answered from this process from now on.
    pub async fn set_mcp_servers<K: Into<String>>(
        &self,
        servers: impl IntoIterator<Item = (K, McpServerSpec)>,
    ) -> Result<McpSetServersResult> {
        let mut sdk = Vec::new();
        let mut wire = serde_json::Map::new();
        for (key, spec) in servers {
            let key = key.into();
            let config = match spec {
                McpServerSpec::InProcess(server) => {
                    sdk.push((key.clone(), server));
                    json!({ "type": "sdk", "name": key })
                }
                McpServerSpec::External(config) => serde_json::to_value(config)
                    .map_err(|e| Error::InvalidOption(format!("Invalid MCP server config: {e}")))?,
            };
            if wire.insert(key.clone(), config).is_some() {
                return Err(Error::InvalidOption(format!("Two MCP servers are named {key:?}")));
            }
        }
        let answer = self.session.set_mcp_servers(sdk, wire).await?;
        typed(answer, "mcp_set_servers")
    }

    /// Reconnects an MCP server.
    pub async fn reconnect_mcp_server(&self, name: &str) -> Result<()> {
        self.session
            .control(json!({ "subtype": "mcp_reconnect", "serverName": name }))
            .await
            .map(drop)
    }

    /// Enables or disables an MCP server.
    pub async fn toggle_mcp_server(&self, name: &str, enabled: bool) -> Result<()> {
        self.session
            .control(json!({ "subtype": "mcp_toggle", "serverName": name, "enabled": enabled }))
            .await
            .map(drop)
    }

    /// Undoes file changes made since a user message (needs
    /// [`enable_file_checkpointing`](crate::OptionsBuilder::enable_file_checkpointing)); with
    /// `dry_run`, only says what would change.
    pub async fn rewind_files(&self, user_message_id: &str, dry_run: bool) -> Result<Value> {
        self.session
            .control(json!({ "subtype": "rewind_files", "user_message_id": user_message_id, "dry_run": dry_run }))
            .await
    }

    /// Stops a background task.
    pub async fn stop_task(&self, task_id: &str) -> Result<()> {
        self.session
            .control(json!({ "subtype": "stop_task", "task_id": task_id }))
            .await
            .map(drop)
    }

    /// How the context window is used.
    pub async fn context_usage(&self) -> Result<Value> {
        self.session.control(json!({ "subtype": "get_context_usage" })).await
    }

    /// The CLI's answer to `initialize` (commands, models, agents, account, output styles).
    pub async fn initialization_result(&self) -> Result<Value> {
        self.session.initialization_result().await
    }

    /// The slash commands the session offers.
    pub async fn supported_commands(&self) -> Result<Vec<SlashCommand>> {
        let init = self.initialization_result().await?;
        typed(
            init.get("commands").cloned().unwrap_or_else(|| json!([])),
            "initialize (commands)",
        )
    }

    /// The models the session can use.
    pub async fn supported_models(&self) -> Result<Vec<ModelInfo>> {
        let init = self.initialization_result().await?;
        typed(
            init.get("models").cloned().unwrap_or_else(|| json!([])),
            "initialize (models)",
        )
    }

    /// Interrupts the current turn, optionally cancelling queued user messages too; what stays
    /// queued (`None` from a CLI that does not say).
    pub async fn interrupt_queued(&self, cancel_queued: bool) -> Result<Option<InterruptReceipt>> {
        let mut request = json!({ "subtype": "interrupt" });
        if cancel_queued {
            request["cancel_queued"] = json!(true);
        }
        let answer = self.session.control(request).await?;
        if !answer.get("still_queued").is_some_and(Value::is_array) {
            return Ok(None);
        }
        typed(answer, "interrupt").map(Some)
    }

    /// Sets the thinking budget and how thinking shows (`None`: the default).
    pub async fn set_thinking(&self, tokens: Option<u64>, display: Option<ThinkingDisplay>) -> Result<()> {
        let mut request = json!({ "subtype": "set_max_thinking_tokens", "max_thinking_tokens": tokens });
        if let Some(display) = display {
            request["thinking_display"] = json!(display.as_str());
        }
        self.session.control(request).await.map(drop)
    }

    /// Overrides the permission mode for one MCP server's tools (`"default"`, `"auto"`, or `None`
    /// to clear); a warning from the CLI, if any.
    pub async fn set_mcp_permission_mode_override(&self, server: &str, mode: Option<&str>) -> Result<Option<String>> {
        let answer = self
            .session
            .control(json!({ "subtype": "set_mcp_permission_mode_override", "serverName": server, "mode": mode }))
            .await?;
        Ok(answer.get("warning").and_then(Value::as_str).map(str::to_string))
    }

    /// Applies settings on top of the session's, as if passed with `--settings` (a `null` value
    /// removes a key).
    pub async fn apply_flag_settings(&self, settings: Value) -> Result<()> {
        self.session
            .control(json!({ "subtype": "apply_flag_settings", "settings": settings }))
            .await
            .map(drop)
    }

    /// Writes settings to a settings file.
    pub async fn update_settings(&self, file: SettingsFile, settings: Value) -> Result<()> {
        let source = match file {
            SettingsFile::Local => "localSettings",
            SettingsFile::User => "userSettings",
        };
        self.session
            .control(json!({ "subtype": "update_settings", "source": source, "settings": settings }))
            .await
            .map(drop)
    }

    /// Sends `initialize` again: a fresh answer (commands, agents, models, ...).
    pub async fn reinitialize(&self) -> Result<Value> {
        self.session.reinitialize().await
    }

    /// The agents the session offers.
    pub async fn supported_agents(&self) -> Result<Vec<AgentInfo>> {
        let mut init = self.initialization_result().await?;
        typed(
            init.get_mut("agents").map(Value::take).unwrap_or(json!([])),
            "initialize's agents",
        )
    }

    /// The account the session runs under.
    pub async fn account_info(&self) -> Result<AccountInfo> {
        let mut init = self.initialization_result().await?;
        typed(
            init.get_mut("account").map(Value::take).unwrap_or(json!({})),
            "initialize's account",
        )
    }

    /// Reads a file as the CLI sees it (at most `max_bytes`, base64 when `base64`); `None` when the
    /// CLI cannot read it.
    pub async fn read_file(&self, path: &str, max_bytes: Option<u64>, base64: bool) -> Result<Option<FileContents>> {
        let mut request = json!({ "subtype": "read_file", "path": path });
        if let Some(max) = max_bytes {
            request["max_bytes"] = json!(max);
        }
        if base64 {
            request["encoding"] = json!("base64");
        }
        match self.session.control(request).await {
            Ok(answer) => typed(answer, "read_file").map(Some),
            Err(Error::Control(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Reloads plugins (adding these); the CLI's answer (commands, agents, plugins, MCP servers).
    pub async fn reload_plugins(&self, add: &[Plugin]) -> Result<Value> {
        let mut request = json!({ "subtype": "reload_plugins" });
        if !add.is_empty() {
            let plugins: Vec<Value> = add
                .iter()
                .map(|p| p.to_wire().map_err(Error::InvalidOption))
                .collect::<Result<_>>()?;
            request["add_plugins"] = json!(plugins);
        }
        self.session.control(request).await
    }

    /// Reloads skills; the CLI's answer (`{skills: [...]}`).
    pub async fn reload_skills(&self) -> Result<Value> {
        self.session.control(json!({ "subtype": "reload_skills" })).await
    }

    /// Reloads output styles; the CLI's answer.
    pub async fn reload_output_styles(&self) -> Result<Value> {
        self.session.control(json!({ "subtype": "reload_output_styles" })).await
    }

    /// Tells the CLI a file was read at this modification time (milliseconds since the epoch), so
    /// edits to it need no fresh read.
    pub async fn seed_read_state(&self, path: &str, mtime_ms: f64) -> Result<()> {
        self.session
            .control(json!({ "subtype": "seed_read_state", "path": path, "mtime": mtime_ms }))
            .await
            .map(drop)
    }

    /// Reads a resource of an MCP server; the CLI's answer (`{contents: [...]}`).
    pub async fn read_mcp_resource(&self, server: &str, uri: &str) -> Result<Value> {
        self.session
            .control(json!({ "subtype": "mcp_read_resource", "serverName": server, "uri": uri }))
            .await
    }

    /// Moves running foreground tasks (or the one of this tool use) to the background; whether
    /// anything was.
    pub async fn background_tasks(&self, tool_use_id: Option<&str>) -> Result<bool> {
        let mut request = json!({ "subtype": "background_tasks" });
        if let Some(id) = tool_use_id {
            request["tool_use_id"] = json!(id);
        }
        let answer = self.session.control(request).await?;
        Ok(answer.get("backgrounded").and_then(Value::as_bool).unwrap_or(true))
    }

    /// Withdraws a queued user message by its uuid; whether it was still queued.
    pub async fn cancel_async_message(&self, message_uuid: &str) -> Result<bool> {
        let answer = self
            .session
            .control(json!({ "subtype": "cancel_async_message", "message_uuid": message_uuid }))
            .await?;
        Ok(answer.get("cancelled").and_then(Value::as_bool).unwrap_or(false))
    }

    /// Sends a user message: streaming input, alongside the prompt stream. (With a text prompt the
    /// CLI's input closes after the result, and a message sent later is dropped.) Fails once the
    /// session is over.
    pub fn send_message(&self, message: UserInput) -> Result<()> {
        let message = if self.verbatim {
            message.client_composed(true)
        } else {
            message
        };
        self.session.send_user_message(message.to_json())
    }

    /// No more user messages: the session ends once the CLI has answered what it has.
    pub fn end_input(&self) {
        self.session.end_input()
    }

    /// Ends the session now: the stream ends cleanly, the CLI is stopped in the background.
    pub fn close(&self) {
        self.session.close()
    }

    /// Like [`close`](Self::close), but the stream ends with [`Error::Aborted`], after the
    /// messages the CLI wrote before the abort took effect: what it had written, and, when a tool
    /// call, permission prompt or hook of its was running here, what it writes as it stops (the
    /// interrupted tool result), waiting 500 ms at most. An abort before the stream's end is
    /// taken wins over however the session ended.
    pub fn abort(&self) {
        self.session.abort()
    }
}
