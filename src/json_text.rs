//! JSON text handed to JavaScript as a one-byte (Latin-1) V8 string: the engine encodes each
//! message that way as it reads it (`agent_core::codec::push_latin1_json`), so V8 gets a compact
//! string it parses fast, with no UTF-8 decoding and no two-byte copy.

use napi::{Error, Result, Status};

pub struct JsonArrayText(Vec<u8>);

impl JsonArrayText {
  /// Latin-1 JSON lines joined into the text of one JSON array. A batch of one message that is
  /// an object (`{` first, as every CLI message) is that message's text as it is; JS tells it
  /// from an array by its first character. A large message then costs no copy on the JS thread
  /// before V8's own (measured on `stream_1m`: the join was a 1 MB allocation, page faults and
  /// copy per message).
  pub fn join(lines: Vec<Vec<u8>>) -> Self {
    if lines.len() == 1 && lines[0].first() == Some(&b'{') {
      return Self(lines.into_iter().next().expect("one line"));
    }
    let total: usize = lines.iter().map(|l| l.len() + 1).sum::<usize>() + 1;
    let mut out = Vec::with_capacity(total);
    out.push(b'[');
    for (i, line) in lines.iter().enumerate() {
      if i > 0 {
        out.push(b',');
      }
      out.extend_from_slice(line);
    }
    out.push(b']');
    Self(out)
  }
}

impl napi::bindgen_prelude::ToNapiValue for JsonArrayText {
  unsafe fn to_napi_value(env: napi::sys::napi_env, val: Self) -> Result<napi::sys::napi_value> {
    let mut out = std::ptr::null_mut();
    // SAFETY: `env` is the live environment napi-rs converts this return value in (the JS
    // thread); the pointer and length describe `val.0`, which outlives the call (V8 copies the
    // bytes); `out` is a valid place for the result. napi-rs has no safe constructor for a
    // Latin-1 string from raw bytes in a `ToNapiValue`.
    let status = napi::sys::napi_create_string_latin1(env, val.0.as_ptr().cast(), val.0.len() as isize, &mut out);
    if status != napi::sys::Status::napi_ok {
      return Err(Error::new(Status::GenericFailure, "could not create the batch string"));
    }
    Ok(out)
  }
}

impl napi::bindgen_prelude::TypeName for JsonArrayText {
  fn type_name() -> &'static str {
    "string"
  }

  fn value_type() -> napi::ValueType {
    napi::ValueType::String
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn batches_join_into_one_json_array() {
    let lines = vec![agent_core::codec::latin1_json(r#"{"a":"é🌍"}"#), br#"{"b":1}"#.to_vec()];
    let text: String = JsonArrayText::join(lines).0.iter().map(|&b| b as char).collect();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v, serde_json::json!([{"a":"é🌍"}, {"b":1}]));
    let one: String = JsonArrayText::join(vec![br#"{"b":1}"#.to_vec()]).0.iter().map(|&b| b as char).collect();
    assert_eq!(one, r#"{"b":1}"#, "one message crosses as itself");
    let odd: String = JsonArrayText::join(vec![br#"["x"]"#.to_vec()]).0.iter().map(|&b| b as char).collect();
    assert_eq!(odd, r#"[["x"]]"#, "a line that is not an object is still wrapped");
  }
}
