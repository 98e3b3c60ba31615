//! The Rust SDK's raw [`Host`] for JavaScript: one ThreadsafeFunction per session, the `dispatch`
//! function of `lib/dispatch.js`, called as `dispatch(kind, requestId, payloadJson)` without
//! waiting for a result. A burst of calls crosses as one `dispatch('calls', '', [[kind, id,
//! payload], ...])`; JS answers each later through `NativeSession.reply()`, on its own thread,
//! and the answer is written to the CLI right there. Events (`cancel`, `stderr`, host-process
//! I/O) need no answer. This host holds only each call's [`Reply`], by the id JS knows it by;
//! the session loop owns everything else about the call.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use claude_agent_sdk::raw::{Call, CallResult, Host, Reply};
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
  /// The replies of the calls JS has not answered yet, by the CLI's request id.
  replies: Mutex<HashMap<String, Reply>>,
}

impl JsHost {
  pub fn new(dispatch: DispatchFn, forward_stderr: bool) -> Self {
    Self { forward_stderr, dispatch: Mutex::new(Some(Arc::new(dispatch))), replies: Mutex::default() }
  }

  /// JS's answer to a call (on the JS thread, where it is written to the CLI).
  pub fn reply(&self, request_id: &str, result: CallResult) {
    let reply = self.replies.lock().unwrap_or_else(|p| p.into_inner()).remove(request_id);
    if let Some(reply) = reply {
      reply.send(result);
    }
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
fn calls_json(calls: &[&Call]) -> String {
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
  fn invoke(&self, calls: Vec<(Call, Reply)>) {
    let text = calls_json(&calls.iter().map(|(call, _)| call).collect::<Vec<_>>());
    // The replies are in place before JS can answer (it answers on its thread, after this).
    let replaced: Vec<Reply> = {
      let mut replies = self.replies.lock().unwrap_or_else(|p| p.into_inner());
      calls.into_iter().filter_map(|(call, reply)| replies.insert(call.request_id, reply)).collect()
    };
    // A second call under an id still in flight replaces the first, answered with an error.
    drop(replaced);
    if !self.notify("calls", "", text) {
      // JS can no longer be reached: the replies answer with an error as they drop.
      let unanswered: Vec<Reply> = self.replies.lock().unwrap_or_else(|p| p.into_inner()).drain().map(|(_, r)| r).collect();
      drop(unanswered);
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
    let unanswered: Vec<Reply> = self.replies.lock().unwrap_or_else(|p| p.into_inner()).drain().map(|(_, r)| r).collect();
    drop(unanswered);
  }
}
