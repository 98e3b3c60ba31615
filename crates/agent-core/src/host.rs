//! The boundary between the engine and the program embedding it. The session never runs user
//! code itself: tool handlers, permission prompts and hooks live in the host (JavaScript, for the
//! napi binding) and are reached through this trait. Payloads cross as JSON text so the binding
//! can hand them to `JSON.parse` instead of converting field by field.

use std::future::Future;
use std::pin::Pin;

pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// What the host is asked to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallKind {
  /// A `tools/call` on an in-process MCP server. Payload:
  /// `{"server":..,"tool":..,"arguments":{..},"meta":{..}|null}`. Answer: `{"result":
  /// CallToolResult}`, or `{"error":{"code","message"}}` for a JSON-RPC error. A rejected call
  /// becomes an `isError` result carrying the message.
  Tool,
  /// A `can_use_tool` request; payload is the request object as the CLI sent it. Answer: a
  /// PermissionResult (`{"behavior":"allow"|"deny",...}`).
  CanUseTool,
  /// A `hook_callback` request; payload is the request object. Answer: the hook's output.
  Hook,
}

impl CallKind {
  pub fn as_str(self) -> &'static str {
    match self {
      CallKind::Tool => "tool",
      CallKind::CanUseTool => "can_use_tool",
      CallKind::Hook => "hook_callback",
    }
  }
}

/// One call into user code. `request_id` is the CLI's id for the control request; it names the
/// call in [`Host::cancel`].
#[derive(Debug, Clone)]
pub struct HostCall {
  pub request_id: String,
  pub kind: CallKind,
  pub payload: String,
}

/// How the call ended: `Ok` with the answer as JSON text, or `Err` with the message of what the
/// user code threw.
pub type HostResult = Result<String, String>;

pub trait Host: Send + Sync + 'static {
  /// Runs user code. Many calls may be in flight at once; the future must not block a thread.
  fn invoke(&self, call: HostCall) -> BoxFuture<HostResult>;

  /// The CLI withdrew the request, or the session ended: fire the call's abort signal. The
  /// call's future may still complete; its answer is then dropped or sent, as the session sees fit.
  fn cancel(&self, request_id: &str);

  /// A chunk of the CLI's stderr, for hosts that asked for it.
  fn stderr(&self, _chunk: &str) {}

  /// The session is over and will make no more calls: drop whatever keeps the host busy.
  fn release(&self) {}
}
