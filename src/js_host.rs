//! The engine's [`Host`] for JavaScript: one ThreadsafeFunction per session, the `dispatch`
//! function of `lib/dispatch.js`, called as `dispatch(kind, requestId, payloadJson)` without
//! waiting for a result. A burst of calls crosses as one `dispatch('calls', '', [[kind, id,
//! payload], ...])`; JS answers each later through `NativeSession.reply()`, which hands the
//! outcome to the session loop. Events (`cancel`, `stderr`, host-process I/O) need no answer.
//! This host keeps no request state: the session loop owns it.

use std::sync::{Arc, Mutex};

use agent_core::host::{Host, HostCall, Replies};
use napi::bindgen_prelude::FnArgs;
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode, UnknownReturnValue};
use napi::Status;

/// `CalleeHandled = false`: JS gets `(kind, id, payload)`, not the Node-style `(err, ...)`.
pub type DispatchFn = ThreadsafeFunction<
  FnArgs<(String, String, String)>,
  UnknownReturnValue,
  FnArgs<(String, String, String)>,
  Status,
  false,
>;

pub struct JsHost {
  /// The query has a `stderr` option: the CLI's stderr and our diagnostics go there.
  forward_stderr: bool,
  /// Taken out when the session ends: a live ThreadsafeFunction keeps the event loop alive, and
  /// a finished session must not keep the process running.
  dispatch: Mutex<Option<Arc<DispatchFn>>>,
}

impl JsHost {
  pub fn new(dispatch: DispatchFn, forward_stderr: bool) -> Self {
    Self { forward_stderr, dispatch: Mutex::new(Some(Arc::new(dispatch))) }
  }

  pub fn forwards_stderr(&self) -> bool {
    self.forward_stderr
  }

  /// A diagnostics line for the query's `stderr` option; false once the query is over.
  pub fn stderr_line(&self, line: &str) -> bool {
    self.notify("stderr", "", line.to_string())
  }

  /// Calls dispatch without expecting an answer. False when the session is over.
  pub fn notify(&self, kind: &str, id: &str, payload: String) -> bool {
    let dispatch = self.dispatch.lock().unwrap_or_else(|p| p.into_inner()).clone();
    match dispatch {
      Some(f) => f.call((kind.to_string(), id.to_string(), payload).into(), ThreadsafeFunctionCallMode::NonBlocking) == Status::Ok,
      None => false,
    }
  }
}

/// `[[kind, id, payload], ...]`: payloads are JSON already and are spliced in as they are.
fn calls_json(calls: &[HostCall]) -> String {
  let mut out = String::with_capacity(calls.iter().map(|c| c.payload.len() + c.request_id.len() + 24).sum::<usize>() + 2);
  out.push('[');
  for (i, call) in calls.iter().enumerate() {
    if i > 0 {
      out.push(',');
    }
    out.push_str("[\"");
    out.push_str(call.kind.as_str());
    out.push_str("\",");
    out.push_str(&serde_json::to_string(&call.request_id).expect("a string serializes"));
    out.push(',');
    out.push_str(&call.payload);
    out.push(']');
  }
  out.push(']');
  out
}

impl Host for JsHost {
  fn invoke(&self, calls: Vec<HostCall>, replies: &Replies) {
    if !self.notify("calls", "", calls_json(&calls)) {
      for call in calls {
        replies.send(call.request_id, Err("The query has ended".to_string()));
      }
    }
  }

  fn cancel(&self, request_id: &str) {
    self.notify("cancel", request_id, String::new());
  }

  fn stderr(&self, chunk: &str) {
    self.notify("stderr", "", chunk.to_string());
  }

  fn release(&self) {
    self.dispatch.lock().unwrap_or_else(|p| p.into_inner()).take();
  }
}
