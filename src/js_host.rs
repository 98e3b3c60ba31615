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

/// PROTOTYPE (A/B of the wake path): events queued here, JS woken by one byte on a socket pair.
pub struct SocketWake {
  tx: Mutex<Option<std::os::unix::net::UnixStream>>,
  queue: Mutex<Vec<(String, String, String)>>,
}

pub struct JsHost {
  pub wake: Option<SocketWake>,
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
    Self { wake: None, forward_stderr, dispatch: Mutex::new(Some(Arc::new(dispatch))), replies: Mutex::default() }
  }

  /// PROTOTYPE: switches this host to the socket wake; returns the read end's fd.
  pub fn with_socket_wake(mut self) -> (Self, i32) {
    use std::os::fd::IntoRawFd;
    let (tx, rx) = std::os::unix::net::UnixStream::pair().expect("socketpair");
    tx.set_nonblocking(true).unwrap();
    rx.set_nonblocking(true).unwrap();
    self.wake = Some(SocketWake { tx: Mutex::new(Some(tx)), queue: Mutex::default() });
    (self, rx.into_raw_fd())
  }

  /// PROTOTYPE: everything queued, as `[[kind, id, payload], ...]` (a `calls` payload spliced raw).
  pub fn take_queued(&self) -> Option<String> {
    let w = self.wake.as_ref()?;
    let q = std::mem::take(&mut *w.queue.lock().unwrap_or_else(|p| p.into_inner()));
    if q.is_empty() {
      return None;
    }
    let mut out = String::from("[");
    for (i, (k, id, p)) in q.iter().enumerate() {
      if i > 0 {
        out.push(',');
      }
      out.push_str("[\"");
      out.push_str(k);
      out.push_str("\",");
      out.push_str(&serde_json::to_string(id).unwrap());
      out.push(',');
      if k == "calls" {
        out.push_str(p);
      } else {
        out.push_str(&serde_json::to_string(p).unwrap());
      }
      out.push(']');
    }
    out.push(']');
    Some(out)
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
    if let Some(w) = &self.wake {
      use std::io::Write;
      let tx = w.tx.lock().unwrap_or_else(|p| p.into_inner());
      let Some(mut tx) = tx.as_ref() else { return false };
      let was_empty = {
        let mut q = w.queue.lock().unwrap_or_else(|p| p.into_inner());
        let e = q.is_empty();
        q.push((kind.to_string(), id.to_string(), payload));
        e
      };
      if was_empty {
        let _ = tx.write(b"w");
      }
      return true;
    }
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
    if let Some(w) = &self.wake {
      if let Some(tx) = w.tx.lock().unwrap_or_else(|p| p.into_inner()).take() {
        let _ = tx.shutdown(std::net::Shutdown::Both);
      }
    }
    self.dispatch.lock().unwrap_or_else(|p| p.into_inner()).take();
    let unanswered: Vec<Reply> = self.replies.lock().unwrap_or_else(|p| p.into_inner()).drain().map(|(_, r)| r).collect();
    drop(unanswered);
  }
}
