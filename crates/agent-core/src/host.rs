//! The boundary between the engine and the program embedding it. The session never runs user
//! code itself: tool handlers, permission prompts and hooks live in the host (JavaScript, for the
//! napi binding) and are reached through this trait. Payloads cross as JSON text so the binding
//! can hand them to `JSON.parse` instead of converting field by field.

use std::sync::Arc;

use crate::session::{ExternalReader, Inflight, StdinWriter};

/// What the host is asked to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallKind {
  /// A `tools/call` on an in-process MCP server. Payload:
  /// `{"server":..,"tool":..,"id":<JSON-RPC id>,"arguments":{..}?,"meta":{..}|null}` (no
  /// `arguments` when the CLI sent none). Answer: `{"result":
  /// CallToolResult}`, or `{"error":{"code","message"}}` for a JSON-RPC error. A rejected call
  /// becomes an `isError` result carrying the message.
  Tool,
  /// A `can_use_tool` request; payload is the request object as the CLI sent it. Answer: a
  /// PermissionResult (`{"behavior":"allow"|"deny",...}`).
  CanUseTool,
  /// A `hook_callback` request; payload is the request object. Answer: the hook's output.
  Hook,
  /// An `elicitation` request (an MCP server asks the user for input); payload is the request
  /// object. Answer: an ElicitResult (`{"action":"accept"|"decline"|"cancel",...}`), or `null`
  /// for none (answered as a cancel).
  Elicitation,
  /// A `request_user_dialog` request; payload is the request object. Answer: the dialog's
  /// result, or `null` for none (answered with an error).
  UserDialog,
}

impl CallKind {
  pub fn as_str(self) -> &'static str {
    match self {
      CallKind::Tool => "tool",
      CallKind::CanUseTool => "can_use_tool",
      CallKind::Hook => "hook_callback",
      CallKind::Elicitation => "elicitation",
      CallKind::UserDialog => "request_user_dialog",
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

/// How a call is answered: once, from any thread, with the outcome. The answer is turned into
/// the control response and written to the CLI right there (a direct pipe write when it can), so
/// a host answering on its own thread costs no hop to another one. A `Reply` dropped unanswered
/// answers with an error: the CLI is never left waiting on silence.
/// Builds the control-response line for a call from its outcome.
pub(crate) type AnswerFn = Box<dyn FnOnce(&str, HostResult) -> String + Send>;

pub struct Reply {
  request_id: String,
  answer: Option<AnswerFn>,
  writer: Arc<StdinWriter>,
  inflight: Arc<Inflight>,
}

impl Reply {
  pub(crate) fn new(
    request_id: String,
    answer: AnswerFn,
    writer: Arc<StdinWriter>,
    inflight: Arc<Inflight>,
  ) -> Self {
    Self { request_id, answer: Some(answer), writer, inflight }
  }

  pub fn request_id(&self) -> &str {
    &self.request_id
  }

  pub fn send(mut self, result: HostResult) {
    self.finish(result);
  }

  fn finish(&mut self, result: HostResult) {
    if let Some(answer) = self.answer.take() {
      let line = answer(&self.request_id, result);
      self.writer.write_line(&line);
      // After the write: stdin may close once the last call is out of the set.
      self.inflight.finish(&self.request_id);
    }
  }
}

impl Drop for Reply {
  fn drop(&mut self) {
    self.finish(Err("The SDK host ended the call without answering it".to_string()));
  }
}

pub trait Host: Send + Sync + 'static {
  /// Runs user code and answers through `reply`, now or later, from any thread. Many calls may
  /// be in flight at once; this must return without waiting for the user code.
  fn invoke(&self, call: HostCall, reply: Reply);

  /// The CLI withdrew the request, or the session ended: fire the call's abort signal. The
  /// call's future may still complete; its answer is then dropped or sent, as the session sees fit.
  fn cancel(&self, request_id: &str);

  /// A chunk of the CLI's stderr, for hosts that asked for it.
  fn stderr(&self, _chunk: &str) {}

  /// The session is over and will make no more calls: drop whatever keeps the host busy.
  fn release(&self) {}

  /// The session's [`ExternalReader`] paused because the consumer was behind, and may read
  /// again: the host should call its `read_ready()` from the host's thread. Called from the
  /// engine's thread; only sessions started with an external reader call it.
  ///
  /// [`ExternalReader`]: crate::session::ExternalReader
  fn wake_reader(&self) {}

  /// The reader the host handed to the engine's thread (`ReadState::Streaming`) comes back: the
  /// CLI is quiet again. The host should poll its fd again, from its own thread. A host that
  /// cannot returns it, and the engine's thread reads to the end.
  fn adopt_reader(&self, reader: ExternalReader) -> Option<ExternalReader> {
    Some(reader)
  }
}
