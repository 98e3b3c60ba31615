//! How a host runs the user code a session calls: the [`Host`] trait, the [`Call`]s it is given
//! and the [`Reply`] each is answered through.

use std::sync::Arc;

use agent_core::host as core;

/// What kind of user code a [`Call`] asks for. Payloads and answers are JSON text; the shapes are
/// the ones the TypeScript SDK's callbacks take and return.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CallKind {
  /// A `tools/call` (or `resources/read`, `prompts/get`, or any request for a forwarding server)
  /// on an in-process MCP server. Payload: `{"server","tool","id","arguments"?,"meta"}`.
  /// Answer: `{"result": CallToolResult}` or `{"error": {"code","message"}}`; a failure becomes
  /// an `isError` result carrying the message.
  Tool,
  /// A `can_use_tool` request, as the CLI sent it. Answer: a PermissionResult
  /// (`{"behavior":"allow"|"deny",...}`); a failure denies with the message.
  CanUseTool,
  /// A `hook_callback` request, as the CLI sent it. Answer: the hook's output; a failure is an
  /// error response with the message.
  Hook,
  /// An `elicitation` request (an MCP server asks the user for input). Answer: an ElicitResult
  /// (`{"action":"accept"|"decline"|"cancel","content"?}`), or `null` (answered as a cancel).
  Elicitation,
  /// A `request_user_dialog` request. Answer: the dialog's result, or `null` (answered with an
  /// error).
  UserDialog,
  /// The session store's `append` (the query has `sessionStore`): payload
  /// `{"key":{"projectKey","sessionId","subpath"?},"entries":[..]}`, the transcript entries the
  /// CLI wrote, in order. The answer is ignored; a failure is tried again (3 tries in all, 200
  /// and 800 ms apart), then reported in the stream as a `mirror_error` system message. The
  /// session waits for these calls before it hands a `result` to the consumer.
  StoreAppend,
  /// A request an optional host handler answers (`oauth_token_refresh`,
  /// `host_auth_token_refresh`, `remote_control_work_secret`, `ui_*`), as the CLI sent it.
  /// Answer: `{"response": BODY}` (none: a success without a body) or
  /// `{"error": MESSAGE, "error_code"?: CODE}`.
  HostRequest,
  /// A Codex app-server request for the user ([`crate::raw::codex`]): payload
  /// `{"method","params"}` as Codex sent them (`item/commandExecution/requestApproval`,
  /// `item/fileChange/requestApproval`, `item/permissions/requestApproval`,
  /// `item/tool/requestUserInput`, `mcpServer/elicitation/request`). Answer: the JSON-RPC
  /// result Codex expects; a failure answers with the method's safe default (a decline).
  CodexRequest,
}

impl CallKind {
  /// The name the JavaScript host knows the call under (`tool`, `can_use_tool`,
  /// `hook_callback`, `elicitation`, `request_user_dialog`, `store_append`).
  pub fn as_str(self) -> &'static str {
    core::CallKind::from(self).as_str()
  }
}

impl From<core::CallKind> for CallKind {
  fn from(k: core::CallKind) -> Self {
    match k {
      core::CallKind::Tool => CallKind::Tool,
      core::CallKind::CanUseTool => CallKind::CanUseTool,
      core::CallKind::Hook => CallKind::Hook,
      core::CallKind::Elicitation => CallKind::Elicitation,
      core::CallKind::UserDialog => CallKind::UserDialog,
      core::CallKind::StoreAppend => CallKind::StoreAppend,
      core::CallKind::HostRequest => CallKind::HostRequest,
      core::CallKind::CodexRequest => CallKind::CodexRequest,
    }
  }
}

impl From<CallKind> for core::CallKind {
  fn from(k: CallKind) -> Self {
    match k {
      CallKind::Tool => core::CallKind::Tool,
      CallKind::CanUseTool => core::CallKind::CanUseTool,
      CallKind::Hook => core::CallKind::Hook,
      CallKind::Elicitation => core::CallKind::Elicitation,
      CallKind::UserDialog => core::CallKind::UserDialog,
      CallKind::StoreAppend => core::CallKind::StoreAppend,
      CallKind::HostRequest => core::CallKind::HostRequest,
      CallKind::CodexRequest => core::CallKind::CodexRequest,
    }
  }
}

/// One call into user code.
#[derive(Debug, Clone)]
pub struct Call {
  /// The CLI's id for the control request: names the call in [`Host::cancel`].
  pub request_id: String,
  /// What to run.
  pub kind: CallKind,
  /// Its input as JSON text (see [`CallKind`]).
  pub payload: String,
}

/// How a call ended: `Ok` with the answer as JSON text, or `Err` with the message of the user
/// code's failure.
pub type CallResult = std::result::Result<String, String>;

/// How a [`Call`] is answered: once, from any thread. The answer is written to the CLI on the
/// thread that sends it (no wake-up of another thread on the way); the session learns that the
/// call finished. A `Reply` dropped unanswered answers with an error, so the CLI is never left
/// waiting.
#[derive(Debug)]
pub struct Reply(core::Reply);

impl Reply {
  /// The id of the call this answers.
  pub fn request_id(&self) -> &str {
    self.0.request_id()
  }

  /// Answers the call.
  pub fn send(self, result: CallResult) {
    self.0.send(result)
  }
}

/// From now on, the answers [`Reply::send`] writes on this thread wait, and leave together at
/// [`release_answers`]: one write per session for all of them. For a host that answers many calls
/// in one go (a JavaScript host answers every call that settled in one microtask checkpoint);
/// a session that closes its input meanwhile still writes them first.
pub fn hold_answers() {
  agent_core::session::hold_lines()
}

/// Writes the answers held on this thread since [`hold_answers`], and stops holding.
pub fn release_answers() {
  agent_core::session::release_lines()
}

/// The program that runs user code for a session: a language binding, or the Rust callbacks of
/// [`query`](crate::query). Every method is called from the session's task and must return
/// without waiting for user code.
pub trait Host: Send + Sync + 'static {
  /// Runs user code for each call and answers each through its [`Reply`], now or later, from
  /// any thread. The calls of one burst (the CLI's parallel tool calls) come together.
  fn invoke(&self, calls: Vec<(Call, Reply)>);

  /// The CLI withdrew the request, or the session ended: abort the call. An answer that still
  /// comes is still written.
  fn cancel(&self, request_id: &str);

  /// A chunk of the CLI's stderr (only when the session was started with
  /// [`SessionSpec::forward_stderr`](super::SessionSpec::forward_stderr)).
  fn stderr(&self, _chunk: &str) {}

  /// The session is over and will make no more calls: drop whatever keeps the host busy
  /// (replies still held answer with an error as they drop).
  fn release(&self) {}
}

/// A [`Host`] as the engine sees it.
pub(super) struct EngineHost(pub(super) Arc<dyn Host>);

impl core::Host for EngineHost {
  fn invoke(&self, calls: Vec<(core::HostCall, core::Reply)>) {
    let calls = calls
      .into_iter()
      .map(|(c, r)| (Call { request_id: c.request_id, kind: c.kind.into(), payload: c.payload }, Reply(r)))
      .collect();
    self.0.invoke(calls)
  }

  fn cancel(&self, request_id: &str) {
    self.0.cancel(request_id)
  }

  fn stderr(&self, chunk: &str) {
    self.0.stderr(chunk)
  }

  fn release(&self) {
    self.0.release()
  }
}
