//! Session transcript functions: adapts the Rust SDK's `raw::sessions_call` to JavaScript. The work
//! (file I/O) runs on tokio's blocking pool, never on the JS thread; the result crosses as one
//! JSON text, which lib/sessions.js parses. The text crosses as a one-byte string (Latin-1,
//! external from 128 KiB on, see `json_text`): a large result (a long conversation is megabytes)
//! is then neither copied nor UTF-8-decoded on the JS thread before `JSON.parse`.

use napi::{Error, Result, Status};

use crate::json_text::JsonArrayText;

/// One session operation, run on libuv's thread pool (one hand-off each way between the JS
/// thread and the worker: tokio's blocking pool behind an async function took two, each a
/// thread wake-up that a loaded machine makes slow).
pub struct SessionsTask {
  op: String,
  args: String,
}

impl napi::Task for SessionsTask {
  type Output = Vec<u8>;
  type JsValue = JsonArrayText;

  fn compute(&mut self) -> Result<Vec<u8>> {
    claude_agent_sdk::raw::sessions_call_latin1(&self.op, &self.args).map_err(|f| Error::new(Status::GenericFailure, serde_json::json!({ "message": f.message, "safe": f.safe }).to_string()))
  }

  fn resolve(&mut self, _env: napi::Env, output: Vec<u8>) -> Result<JsonArrayText> {
    Ok(JsonArrayText::latin1(output))
  }
}

/// Runs one session operation (`op`, JSON `args`). Resolves with JSON text; rejects with an
/// error whose message is the JSON `{ "message", "safe" }` of the failure.
#[napi(js_name = "sessionsCall", ts_return_type = "Promise<string>")]
pub fn sessions_call(op: String, args: String) -> napi::bindgen_prelude::AsyncTask<SessionsTask> {
  napi::bindgen_prelude::AsyncTask::new(SessionsTask { op, args })
}
