//! The engine's [`Host`] for JavaScript: one ThreadsafeFunction per session, the `dispatch`
//! function of `lib/dispatch.js`, called as `dispatch(kind, requestId, payloadJson)` without
//! waiting for a result. JS answers a call later through `NativeSession.reply()`, on its own
//! thread, and the answer is written to the CLI right there. Events (`cancel`, `stderr`,
//! host-process I/O) need no answer.

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use agent_core::host::{CallKind, Host, HostCall, HostResult, Reply};
#[cfg(unix)]
use agent_core::session::ExternalReader;
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

thread_local! {
  /// The session's stdout is being read on this (the JS) thread: calls queue for the one direct
  /// `dispatch('calls')` that follows the read (see `stdout_poll.rs`), not through the TSFN.
  static READING_ON_JS_THREAD: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` (a read of stdout on the JS thread) with calls queued for a direct dispatch.
pub fn on_js_thread<R>(f: impl FnOnce() -> R) -> R {
  let outer = READING_ON_JS_THREAD.replace(true);
  let r = f();
  READING_ON_JS_THREAD.set(outer);
  r
}

pub struct JsHost {
  /// The query has a `stderr` option: the CLI's stderr and our diagnostics go there.
  forward_stderr: bool,
  /// Taken out when the session ends: a live ThreadsafeFunction keeps the event loop alive, and
  /// a finished session must not keep the process running.
  dispatch: Mutex<Option<Arc<DispatchFn>>>,
  /// Calls JS has not answered yet, by the CLI's request id.
  replies: Mutex<HashMap<String, Reply>>,
  /// Calls not yet taken by JS, as `[kind,id,payload]` JSON entries: tool calls, and every
  /// call while stdout is read on the JS thread. A burst of them (the
  /// CLI's parallel tool calls) reaches JS as one wake-up and one `JSON.parse`.
  inbox: Mutex<Vec<String>>,
  /// The stdout reader, back from the engine's thread, until the JS thread takes it
  /// (`take_reader`, announced as dispatch('read')).
  #[cfg(unix)]
  returned_reader: Mutex<Option<ExternalReader>>,
}

impl JsHost {
  pub fn new(dispatch: DispatchFn, forward_stderr: bool) -> Self {
    Self {
      forward_stderr,
      dispatch: Mutex::new(Some(Arc::new(dispatch))),
      replies: Mutex::new(HashMap::new()),
      inbox: Mutex::new(Vec::new()),
      #[cfg(unix)]
      returned_reader: Mutex::new(None),
    }
  }

  fn get(&self) -> Option<Arc<DispatchFn>> {
    self.dispatch.lock().unwrap_or_else(|p| p.into_inner()).clone()
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
    match self.get() {
      Some(f) => f.call((kind.to_string(), id.to_string(), payload).into(), ThreadsafeFunctionCallMode::NonBlocking) == Status::Ok,
      None => false,
    }
  }

  /// Answers a call JS can no longer be reached for.
  fn fail(&self, request_id: &str) {
    let reply = self.replies.lock().unwrap_or_else(|p| p.into_inner()).remove(request_id);
    if let Some(reply) = reply {
      reply.send(Err("The query has ended".to_string()));
    }
  }

  /// The stdout reader the engine's thread gave back, if it did.
  #[cfg(unix)]
  pub fn take_reader(&self) -> Option<ExternalReader> {
    self.returned_reader.lock().unwrap_or_else(|p| p.into_inner()).take()
  }

  /// Calls are queued for JS.
  pub fn has_calls(&self) -> bool {
    !self.inbox.lock().unwrap_or_else(|p| p.into_inner()).is_empty()
  }

  /// Calls waiting for JS, as the text of one JSON array (`[]` when none).
  pub fn take_calls(&self) -> String {
    let calls = std::mem::take(&mut *self.inbox.lock().unwrap_or_else(|p| p.into_inner()));
    format!("[{}]", calls.join(","))
  }

  /// JS's answer to a call (on the JS thread).
  pub fn reply(&self, request_id: &str, result: HostResult) {
    let reply = self.replies.lock().unwrap_or_else(|p| p.into_inner()).remove(request_id);
    if let Some(reply) = reply {
      reply.send(result);
    }
  }
}

impl Host for JsHost {
  fn invoke(&self, call: HostCall, reply: Reply) {
    // A second call under an id still in flight replaces the first, which is answered with an
    // error as it is dropped (outside the lock).
    let replaced = self.replies.lock().unwrap_or_else(|p| p.into_inner()).insert(call.request_id.clone(), reply);
    drop(replaced);
    let direct = READING_ON_JS_THREAD.get();
    if call.kind != CallKind::Tool && !direct {
      // Permission prompts and hooks come one at a time: straight to JS, no inbox round trip.
      if !self.notify(call.kind.as_str(), &call.request_id, call.payload) {
        self.fail(&call.request_id);
      }
      return;
    }
    let entry = format!(
      "[\"{}\",{},{}]",
      call.kind.as_str(),
      serde_json::to_string(&call.request_id).expect("a string serializes"),
      call.payload
    );
    let first = {
      let mut inbox = self.inbox.lock().unwrap_or_else(|p| p.into_inner());
      inbox.push(entry);
      inbox.len() == 1
    };
    // Only the first call of a burst wakes JS; it takes every call queued by then. Read on the
    // JS thread, the reader hands them over itself once it has read what is there.
    if first && !direct && !self.notify("calls", "", String::new()) {
      self.inbox.lock().unwrap_or_else(|p| p.into_inner()).clear();
      self.fail(&call.request_id);
    }
  }

  fn cancel(&self, request_id: &str) {
    self.notify("cancel", request_id, String::new());
  }

  fn stderr(&self, chunk: &str) {
    self.notify("stderr", "", chunk.to_string());
  }

  fn wake_reader(&self) {
    self.notify("read", "", String::new());
  }

  #[cfg(unix)]
  fn adopt_reader(&self, reader: ExternalReader) -> Option<ExternalReader> {
    *self.returned_reader.lock().unwrap_or_else(|p| p.into_inner()) = Some(reader);
    if self.notify("read", "", String::new()) {
      None
    } else {
      // The session is over for JS: the engine's thread reads to the end.
      self.take_reader()
    }
  }

  fn release(&self) {
    self.dispatch.lock().unwrap_or_else(|p| p.into_inner()).take();
    let unanswered: Vec<Reply> = self.replies.lock().unwrap_or_else(|p| p.into_inner()).drain().map(|(_, r)| r).collect();
    drop(unanswered);
  }
}
