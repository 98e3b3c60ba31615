//! [`query`]: one session with Claude Code, as a stream of messages plus its controls.

use std::pin::Pin;
use std::task::{Context, Poll};

use futures::stream::{BoxStream, Stream, StreamExt};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::engine;
use crate::error::{Error, Result};
use crate::message::{Message, UserInput};
use crate::options::{McpServerConfig, Options};
use crate::server::McpServer;
use crate::permission::PermissionMode;

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
  let (text, input) = match prompt.into() {
    Prompt::Text(t) => (Some(t), None),
    Prompt::Stream(s) => (None, Some(s)),
  };
  let (session, messages) = engine::start(text, options)?;
  let control = QueryControl { session };
  // Streaming input: a task forwards the messages, then ends the input. It stops early when the
  // session is over; the query aborts it when dropped.
  let input_task = input.map(|mut input| {
    let control = control.clone();
    tokio::spawn(async move {
      while let Some(message) = input.next().await {
        if control.send_message(message).is_err() {
          return;
        }
      }
      control.end_input();
    })
    .abort_handle()
  });
  Ok(Query { control, messages, input_task })
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
    f.debug_struct("Query").field("pid", &self.control.pid()).finish_non_exhaustive()
  }
}

impl Query {
  /// A handle on the controls, for use from another task while this one reads the stream.
  /// It does not keep the session alive: once the query is dropped its requests fail with
  /// [`Error::SessionClosed`].
  pub fn control(&self) -> QueryControl {
    self.control.clone()
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

  /// Changes the permission mode.
  pub async fn set_permission_mode(&self, mode: PermissionMode) -> Result<()> {
    self.session.control(json!({ "subtype": "set_permission_mode", "mode": mode.as_str() })).await.map(drop)
  }

  /// Changes the model (`None`: back to the default).
  pub async fn set_model(&self, model: Option<&str>) -> Result<()> {
    let mut request = json!({ "subtype": "set_model" });
    if let Some(m) = model {
      request["model"] = json!(m);
    }
    self.session.control(request).await.map(drop)
  }

  /// Changes the thinking budget (`None`: back to the default).
  pub async fn set_max_thinking_tokens(&self, tokens: Option<u64>) -> Result<()> {
    self.session.control(json!({ "subtype": "set_max_thinking_tokens", "max_thinking_tokens": tokens })).await.map(drop)
  }

  /// The state of every MCP server of the session.
  pub async fn mcp_server_status(&self) -> Result<Vec<McpServerStatus>> {
    let answer = self.session.control(json!({ "subtype": "mcp_status" })).await?;
    typed(answer.get("mcpServers").cloned().unwrap_or_else(|| json!([])), "mcp_status")
  }

  /// Replaces the MCP servers added to the session at run time with this set (servers given in
  /// the options stay). In-process servers are answered from this process from now on.
  pub async fn set_mcp_servers<K: Into<String>>(&self, servers: impl IntoIterator<Item = (K, McpServerSpec)>) -> Result<McpSetServersResult> {
    let mut sdk = Vec::new();
    let mut wire = serde_json::Map::new();
    for (key, spec) in servers {
      let key = key.into();
      let config = match spec {
        McpServerSpec::InProcess(server) => {
          sdk.push((key.clone(), server));
          json!({ "type": "sdk", "name": key })
        }
        McpServerSpec::External(config) => serde_json::to_value(config).map_err(|e| Error::InvalidOption(format!("Invalid MCP server config: {e}")))?,
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
    self.session.control(json!({ "subtype": "mcp_reconnect", "serverName": name })).await.map(drop)
  }

  /// Enables or disables an MCP server.
  pub async fn toggle_mcp_server(&self, name: &str, enabled: bool) -> Result<()> {
    self.session.control(json!({ "subtype": "mcp_toggle", "serverName": name, "enabled": enabled })).await.map(drop)
  }

  /// Undoes file changes made since a user message (needs
  /// [`enable_file_checkpointing`](crate::OptionsBuilder::enable_file_checkpointing)); with
  /// `dry_run`, only says what would change.
  pub async fn rewind_files(&self, user_message_id: &str, dry_run: bool) -> Result<Value> {
    self.session.control(json!({ "subtype": "rewind_files", "user_message_id": user_message_id, "dry_run": dry_run })).await
  }

  /// Stops a background task.
  pub async fn stop_task(&self, task_id: &str) -> Result<()> {
    self.session.control(json!({ "subtype": "stop_task", "task_id": task_id })).await.map(drop)
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
    typed(init.get("commands").cloned().unwrap_or_else(|| json!([])), "initialize (commands)")
  }

  /// The models the session can use.
  pub async fn supported_models(&self) -> Result<Vec<ModelInfo>> {
    let init = self.initialization_result().await?;
    typed(init.get("models").cloned().unwrap_or_else(|| json!([])), "initialize (models)")
  }

  /// Sends a user message: streaming input, alongside the prompt stream. (With a text prompt the
  /// CLI's input closes after the result, and a message sent later is dropped.) Fails once the
  /// session is over.
  pub fn send_message(&self, message: UserInput) -> Result<()> {
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
