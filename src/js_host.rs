//! The engine's [`Host`] for JavaScript: one ThreadsafeFunction per session, the `dispatch`
//! function of `lib/query.js`, called as `dispatch(kind, requestId, payloadJson)`. For calls
//! it returns a Promise of the answer's JSON text; for notifications (`cancel`, `stderr`) its
//! result is ignored.

use std::sync::{Arc, Mutex};

use agent_core::host::{BoxFuture, Host, HostCall, HostResult};
use napi::bindgen_prelude::{FnArgs, Promise};
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi::Status;

/// `CalleeHandled = false`: JS gets `(kind, id, payload)`, not the Node-style `(err, ...)`.
pub type DispatchFn =
  ThreadsafeFunction<FnArgs<(String, String, String)>, Promise<String>, FnArgs<(String, String, String)>, Status, false>;

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

  fn get(&self) -> Option<Arc<DispatchFn>> {
    self.dispatch.lock().unwrap_or_else(|p| p.into_inner()).clone()
  }

  /// A call whose result JS does not return (events: cancel, stderr, host-process I/O).
  /// Returns false when the session is over and nothing was sent.
  pub fn notify(&self, kind: &str, id: &str, payload: String) -> bool {
    match self.get() {
      Some(f) => {
        f.call((kind.to_string(), id.to_string(), payload).into(), ThreadsafeFunctionCallMode::NonBlocking);
        true
      }
      None => false,
    }
  }
}

impl Host for JsHost {
  fn invoke(&self, call: HostCall) -> BoxFuture<HostResult> {
    let f = self.get();
    Box::pin(async move {
      let Some(f) = f else {
        return Err("The query has ended".to_string());
      };
      // `call_async_catch`: a synchronous throw in JS must come back as an error, not take the
      // process down (plain `call_async` makes it a fatal exception).
      let promise = f
        .call_async_catch((call.kind.as_str().to_string(), call.request_id, call.payload).into())
        .await
        .map_err(|e| e.reason.clone())?;
      drop(f);
      promise.await.map_err(|e| e.reason.clone())
    })
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
