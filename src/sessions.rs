//! Session transcript functions: adapts the Rust SDK's `raw::sessions_call` to JavaScript. The work
//! (file I/O) runs on tokio's blocking pool, never on the JS thread; the result crosses as one
//! JSON text, which lib/sessions.js parses. The text crosses as a one-byte string (Latin-1,
//! external from 128 KiB on, see `json_text`): a large result (a long conversation is megabytes)
//! is then neither copied nor UTF-8-decoded on the JS thread before `JSON.parse`.

use napi::{Error, Result, Status};

use crate::json_text::JsonArrayText;

/// Runs one session operation (`op`, JSON `args`). Resolves with JSON text; rejects with an
/// error whose message is the JSON `{ "message", "safe" }` of the failure.
#[napi(js_name = "sessionsCall")]
pub async fn sessions_call(op: String, args: String) -> Result<JsonArrayText> {
  let joined = tokio::task::spawn_blocking(move || claude_agent_sdk::raw::sessions_call_latin1(&op, &args)).await;
  match joined {
    Ok(Ok(text)) => Ok(JsonArrayText::latin1(text)),
    Ok(Err(f)) => Err(Error::new(Status::GenericFailure, serde_json::json!({ "message": f.message, "safe": f.safe }).to_string())),
    Err(e) => Err(Error::new(Status::GenericFailure, serde_json::json!({ "message": format!("sessions: worker failed: {e}"), "safe": false }).to_string())),
  }
}
