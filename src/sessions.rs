//! Session transcript functions: adapts the Rust SDK's `raw::sessions_call` to JavaScript. The work
//! (file I/O) runs on tokio's blocking pool, never on the JS thread; the result crosses as one
//! JSON text, which lib/sessions.js parses.

use napi::{Error, Result, Status};

/// Runs one session operation (`op`, JSON `args`). Resolves with JSON text; rejects with an
/// error whose message is the JSON `{ "message", "safe" }` of the failure.
#[napi(js_name = "sessionsCall")]
pub async fn sessions_call(op: String, args: String) -> Result<String> {
  let joined = tokio::task::spawn_blocking(move || claude_agent_sdk::raw::sessions_call(&op, &args)).await;
  match joined {
    Ok(Ok(text)) => Ok(text),
    Ok(Err(f)) => Err(Error::new(Status::GenericFailure, serde_json::json!({ "message": f.message, "safe": f.safe }).to_string())),
    Err(e) => Err(Error::new(Status::GenericFailure, serde_json::json!({ "message": format!("sessions: worker failed: {e}"), "safe": false }).to_string())),
  }
}
