//! What the engine asks of the program embedding it. The session never runs user code itself:
//! tool handlers, permission prompts and hooks live in the host (JavaScript, for the napi
//! binding) and are reached through [`Host`]. Payloads cross as JSON text so the binding can
//! hand them to `JSON.parse` instead of converting field by field.
//!
//! The host keeps no request state: the session loop owns every call in flight and builds the
//! control response from the host's outcome, which comes back through [`Replies`].

use tokio::sync::mpsc;

/// What the host is asked to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallKind {
  /// A `tools/call` on an in-process MCP server. Payload:
  /// `{"server":..,"tool":..,"id":<JSON-RPC id>,"arguments":{..}?,"meta":{..}|null}` (no
  /// `arguments` when the CLI sent none). Answer: `{"result": CallToolResult}`, or
  /// `{"error":{"code","message"}}` for a JSON-RPC error. A failed call becomes an `isError`
  /// result carrying the message.
  Tool,
  /// A `can_use_tool` request; payload is the request object as the CLI sent it. Answer: a
  /// PermissionResult (`{"behavior":"allow"|"deny",...}`); a failure denies with the message.
  CanUseTool,
  /// A `hook_callback` request; payload is the request object. Answer: the hook's output; a
  /// failure is an error response with the message.
  Hook,
}

impl CallKind {
  /// The name the host sees the call under.
  pub fn as_str(self) -> &'static str {
    match self {
      CallKind::Tool => "tool",
      CallKind::CanUseTool => "can_use_tool",
      CallKind::Hook => "hook_callback",
    }
  }
}

/// One call into user code. `request_id` is the CLI's id for the control request: it names the
/// call in [`Replies::send`] and [`Host::cancel`].
#[derive(Debug, Clone)]
pub struct HostCall {
  pub request_id: String,
  pub kind: CallKind,
  pub payload: String,
}

/// How a call ended: `Ok` with the answer as JSON text, or `Err` with the message of what the
/// user code threw.
pub type HostResult = Result<String, String>;

/// A call's outcome on its way back to the session loop.
#[derive(Debug)]
pub struct HostReply {
  pub request_id: String,
  pub result: HostResult,
}

/// The way back to the session loop, from any thread. Cheap to clone. An outcome for a call the
/// session no longer waits for (cancelled, or the session ended) is dropped.
#[derive(Clone)]
pub struct Replies(mpsc::UnboundedSender<HostReply>);

impl Replies {
  /// The sender, and the receiver the session loop owns.
  pub fn channel() -> (Self, mpsc::UnboundedReceiver<HostReply>) {
    let (tx, rx) = mpsc::unbounded_channel();
    (Self(tx), rx)
  }

  /// Answers the call `request_id`. False when the session is over.
  pub fn send(&self, request_id: String, result: HostResult) -> bool {
    self.0.send(HostReply { request_id, result }).is_ok()
  }
}

/// The program that runs user code for a session.
pub trait Host: Send + Sync + 'static {
  /// Runs user code for each call and answers each, now or later, from any thread, through
  /// `replies`. The calls of one burst (the CLI's parallel tool calls) come together. Must
  /// return without waiting for the user code. A host that cannot run a call answers it with
  /// an error: the CLI is never left waiting on silence.
  fn invoke(&self, calls: Vec<HostCall>, replies: &Replies);

  /// The CLI withdrew the request, or the session ended: fire the call's abort signal. Its
  /// answer, if one still comes, is dropped.
  fn cancel(&self, request_id: &str);

  /// A chunk of the CLI's stderr, for hosts that asked for it.
  fn stderr(&self, _chunk: &str) {}

  /// The session is over and will make no more calls: drop whatever keeps the host busy.
  fn release(&self) {}
}
