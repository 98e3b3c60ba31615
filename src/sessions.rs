//! Session transcript functions: adapts the Rust SDK's `raw::sessions_call` to JavaScript. The work
//! (file I/O) runs on tokio's blocking pool, never on the JS thread; the result crosses as JSON
//! text, which lib/sessions.js parses: one string, or, for messages asked for in pieces
//! (`pieces: true`: JSON arrays one per line), a handle JS takes the pieces from one at a time
//! (`sessionsPiece`).

use napi::bindgen_prelude::External;
use napi::{Env, Error, Result, Status};

/// Runs one session operation (`op`, JSON `args`). Resolves with JSON text, or the handle of its
/// pieces; rejects with an error whose message is the JSON `{ "message", "safe" }` of the
/// failure.
#[napi(js_name = "sessionsCall", ts_return_type = "Promise<string | object>")]
pub async fn sessions_call(op: String, args: String) -> Result<Pieces> {
  // Only the messages' text is cut: a line feed there can only be a piece's end (the messages
  // are written from single lines); another result may hold one (a pretty-printed subagent
  // `meta.json` is copied into `exportEntries` as it is).
  let messages = matches!(op.as_str(), "messages" | "messagesFromText" | "subagentMessages" | "subagentMessagesFromText");
  let joined = tokio::task::spawn_blocking(move || claude_agent_sdk::raw::sessions_call(&op, &args).map(|text| if messages { Pieces::cut(text) } else { Pieces::whole(text) })).await;
  match joined {
    Ok(Ok(text)) => Ok(text),
    Ok(Err(f)) => Err(Error::new(Status::GenericFailure, serde_json::json!({ "message": f.message, "safe": f.safe }).to_string())),
    Err(e) => Err(Error::new(Status::GenericFailure, serde_json::json!({ "message": format!("sessions: worker failed: {e}"), "safe": false }).to_string())),
  }
}

/// Piece `index` of a result handed over in pieces, as a JS string; `null` past the last.
/// Taking the last frees the text. Each piece's string is made only when JS parses it, so one
/// lives at a time: all of them made at once were a megabyte and more of young-generation
/// strings alive through the collections the parse itself sets off (copied, then promoted).
#[napi(js_name = "sessionsPiece", ts_return_type = "string | null")]
pub fn sessions_piece(env: Env, pieces: &mut External<Pieces>, index: u32) -> Result<Option<Made>> {
  let index = index as usize;
  let Some(&(end, ascii)) = pieces.ends.get(index) else { return Ok(None) };
  let start = if index == 0 { 0 } else { pieces.ends[index - 1].0 + 1 };
  // SAFETY: a napi function runs on the JS thread, in `env`, which is live for the call.
  let made = unsafe { js_string(env.raw(), &pieces.text.as_bytes()[start..end], ascii)? };
  if index + 1 == pieces.ends.len() {
    pieces.text = String::new();
    pieces.ends = Vec::new();
  }
  Ok(Some(Made(made)))
}

/// A JS value made in the current call, returned as it is.
pub struct Made(napi::sys::napi_value);

impl napi::bindgen_prelude::ToNapiValue for Made {
  // SAFETY: napi-rs calls this on the JS thread, in the call that made the value (in `env`),
  // which is where the value is valid; nothing unsafe happens in the body.
  unsafe fn to_napi_value(_env: napi::sys::napi_env, val: Self) -> Result<napi::sys::napi_value> {
    Ok(val.0)
  }
}

impl napi::bindgen_prelude::TypeName for Made {
  fn type_name() -> &'static str {
    "string"
  }

  fn value_type() -> napi::ValueType {
    napi::ValueType::String
  }
}

/// A result's JSON text and its pieces (the lines it was written in; one for any result but
/// messages asked for in pieces). Each piece becomes a JS string of its own: a Latin-1 copy when
/// it is ASCII (a plain copy for V8, where UTF-8 text is decoded first), else from UTF-8. A
/// piece is a small young-generation string; one string of the whole (a megabyte or more) was a
/// V8 large object, freshly mapped pages on the JS thread each call.
pub struct Pieces {
  text: String,
  /// Each piece's end in `text` (its line feed, or the text's end) and whether it is ASCII.
  ends: Vec<(usize, bool)>,
}

impl Pieces {
  /// `text` as one piece.
  fn whole(text: String) -> Pieces {
    let ascii = text.is_ascii();
    Pieces { ends: vec![(text.len(), ascii)], text }
  }

  /// Cuts `text` at its line feeds (on the blocking pool, off the JS thread).
  fn cut(text: String) -> Pieces {
    let mut ends = Vec::new();
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', text.as_bytes()).chain(std::iter::once(text.len())) {
      ends.push((end, text.as_bytes()[start..end].is_ascii()));
      start = end + 1;
    }
    Pieces { text, ends }
  }
}

/// One JS string from `bytes` (Latin-1 when `ascii`, else UTF-8).
///
/// SAFETY: `env` is the live environment of the JS thread this runs on.
unsafe fn js_string(env: napi::sys::napi_env, bytes: &[u8], ascii: bool) -> Result<napi::sys::napi_value> {
  let mut out = std::ptr::null_mut();
  // The pointer and length describe `bytes`, which outlives the call (V8 copies them); `out` is
  // a valid place for the result. ASCII bytes are the same characters read as Latin-1.
  // SAFETY: `env` is live (this function's contract), and the arguments are as above.
  let status = unsafe {
    if ascii {
      napi::sys::napi_create_string_latin1(env, bytes.as_ptr().cast(), bytes.len() as isize, &mut out)
    } else {
      napi::sys::napi_create_string_utf8(env, bytes.as_ptr().cast(), bytes.len() as isize, &mut out)
    }
  };
  if status != napi::sys::Status::napi_ok {
    return Err(Error::new(Status::GenericFailure, "sessions: could not create the result string"));
  }
  Ok(out)
}

impl napi::bindgen_prelude::ToNapiValue for Pieces {
  // SAFETY: napi-rs calls this on the JS thread with its live environment `env`, which is what
  // the unsafe calls in the body need.
  unsafe fn to_napi_value(env: napi::sys::napi_env, val: Self) -> Result<napi::sys::napi_value> {
    if let [(end, ascii)] = val.ends[..] {
      // SAFETY: napi-rs converts return values on the JS thread, in its live environment.
      return unsafe { js_string(env, &val.text.as_bytes()[..end], ascii) };
    }
    // SAFETY: as above.
    unsafe { External::to_napi_value(env, External::new(val)) }
  }
}

impl napi::bindgen_prelude::TypeName for Pieces {
  fn type_name() -> &'static str {
    "string"
  }

  fn value_type() -> napi::ValueType {
    napi::ValueType::String
  }
}
