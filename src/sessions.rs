//! Session transcript functions: adapts the Rust SDK's `raw::sessions_call` to JavaScript. The work
//! (file I/O) runs on tokio's blocking pool, never on the JS thread; the result crosses as JSON
//! text, which lib/sessions.js parses: one string, or for messages asked for in pieces
//! (`pieces: true`: JSON arrays one per line) an array of strings, one per piece.

use napi::{Error, Result, Status};

/// Runs one session operation (`op`, JSON `args`). Resolves with JSON text (or its pieces);
/// rejects with an error whose message is the JSON `{ "message", "safe" }` of the failure.
#[napi(js_name = "sessionsCall", ts_return_type = "Promise<string | string[]>")]
pub async fn sessions_call(op: String, args: String) -> Result<Pieces> {
  let joined = tokio::task::spawn_blocking(move || claude_agent_sdk::raw::sessions_call(&op, &args).map(Pieces::cut)).await;
  match joined {
    Ok(Ok(text)) => Ok(text),
    Ok(Err(f)) => Err(Error::new(Status::GenericFailure, serde_json::json!({ "message": f.message, "safe": f.safe }).to_string())),
    Err(e) => Err(Error::new(Status::GenericFailure, serde_json::json!({ "message": format!("sessions: worker failed: {e}"), "safe": false }).to_string())),
  }
}

/// A result's JSON text and its pieces (the lines it was written in; one for any result but
/// messages asked for in pieces), each made a JS string of its own: a Latin-1 copy when it is
/// ASCII (a plain copy for V8, where UTF-8 text is decoded first), else from UTF-8. Small strings
/// are regular young-generation objects; one string of a megabyte or more was a large object,
/// freshly mapped pages on the JS thread each call.
pub struct Pieces {
  text: String,
  /// Each piece's end in `text` (its line feed, or the text's end) and whether it is ASCII.
  ends: Vec<(usize, bool)>,
}

impl Pieces {
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
  // SAFETY: `env` is live (this function's contract); the pointer and length describe `bytes`,
  // which outlives the call (V8 copies them); `out` is a valid place for the result. ASCII bytes
  // are the same characters read as Latin-1.
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
  unsafe fn to_napi_value(env: napi::sys::napi_env, val: Self) -> Result<napi::sys::napi_value> {
    let b = val.text.as_bytes();
    if let [(end, ascii)] = val.ends[..] {
      // SAFETY: napi-rs converts return values on the JS thread, in its live environment.
      return unsafe { js_string(env, &b[..end], ascii) };
    }
    let mut array = std::ptr::null_mut();
    // SAFETY: `env` is live (as above); `array` is a valid place for the result.
    if unsafe { napi::sys::napi_create_array_with_length(env, val.ends.len(), &mut array) } != napi::sys::Status::napi_ok {
      return Err(Error::new(Status::GenericFailure, "sessions: could not create the result array"));
    }
    let mut start = 0;
    for (n, &(end, ascii)) in val.ends.iter().enumerate() {
      // SAFETY: `env` is live (as above); `array` is the array just made and `s` a string of
      // this environment.
      unsafe {
        let s = js_string(env, &b[start..end], ascii)?;
        if napi::sys::napi_set_element(env, array, n as u32, s) != napi::sys::Status::napi_ok {
          return Err(Error::new(Status::GenericFailure, "sessions: could not fill the result array"));
        }
      }
      start = end + 1;
    }
    Ok(array)
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
