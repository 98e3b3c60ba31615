//! JSON text handed to JavaScript as a one-byte (Latin-1) V8 string. Characters up to U+00FF
//! are Latin-1 bytes as they are; the others become `\uXXXX` escapes, which mean the same inside
//! JSON strings (the only place non-ASCII can occur in a line the session has validated). V8
//! then gets a compact string it parses fast, with no UTF-8 decoding and no two-byte copy.

use napi::{Error, Result, Status};

pub struct JsonArrayText(Vec<u8>);

impl JsonArrayText {
  /// A batch of JSON lines joined into the text of one JSON array.
  pub fn join(lines: &[String]) -> Self {
    let total: usize = lines.iter().map(|l| l.len() + 1).sum::<usize>() + 1;
    let mut out = Vec::with_capacity(total);
    out.push(b'[');
    for (i, line) in lines.iter().enumerate() {
      if i > 0 {
        out.push(b',');
      }
      push_latin1(line, &mut out);
    }
    out.push(b']');
    Self(out)
  }

  /// A single JSON value (not wrapped in an array), made Latin-1 the same way.
  pub fn single(text: &str) -> Self {
    let mut out = Vec::with_capacity(text.len());
    push_latin1(text, &mut out);
    Self(out)
  }
}

/// Appends `text` as Latin-1: ASCII runs are copied whole (found a word at a time), and only
/// the characters after them are looked at one by one.
fn push_latin1(text: &str, out: &mut Vec<u8>) {
  const HEX: &[u8; 16] = b"0123456789abcdef";
  let bytes = text.as_bytes();
  let mut copied = 0;
  let mut at = 0;
  while let Some(offset) = first_non_ascii(&bytes[at..]) {
    at += offset;
    out.extend_from_slice(&bytes[copied..at]);
    let c = text[at..].chars().next().expect("at is a char boundary");
    if (c as u32) < 0x100 {
      out.push(c as u32 as u8);
    } else {
      let mut units = [0u16; 2];
      for &unit in c.encode_utf16(&mut units).iter() {
        let u = unit as usize;
        out.extend_from_slice(&[b'\\', b'u', HEX[u >> 12], HEX[(u >> 8) & 15], HEX[(u >> 4) & 15], HEX[u & 15]]);
      }
    }
    at += c.len_utf8();
    copied = at;
  }
  out.extend_from_slice(&bytes[copied..]);
}

fn first_non_ascii(bytes: &[u8]) -> Option<usize> {
  const CHUNK: usize = 32;
  let mut start = 0;
  // `is_ascii` on a slice checks a word at a time.
  while start + CHUNK <= bytes.len() && bytes[start..start + CHUNK].is_ascii() {
    start += CHUNK;
  }
  bytes[start..].iter().position(|b| !b.is_ascii()).map(|p| start + p)
}

impl napi::bindgen_prelude::ToNapiValue for JsonArrayText {
  unsafe fn to_napi_value(env: napi::sys::napi_env, val: Self) -> Result<napi::sys::napi_value> {
    let mut out = std::ptr::null_mut();
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

  fn latin1_to_string(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| b as char).collect()
  }

  #[test]
  fn batches_join_into_one_latin1_json_array_meaning_the_same() {
    let lines = vec![r#"{"a":"é🌍 — naïve"}"#.to_string(), r#"{"b":1}"#.into(), format!(r#"{{"c":"{}ü"}}"#, "x".repeat(70))];
    let text = JsonArrayText::join(&lines);
    // As V8 reads it: each byte one character.
    let v: serde_json::Value = serde_json::from_str(&latin1_to_string(&text.0)).unwrap();
    assert_eq!(v, serde_json::json!([{"a":"é🌍 — naïve"}, {"b":1}, {"c": format!("{}ü", "x".repeat(70))}]));
    assert!(text.0.contains(&0xe9), "é stays one Latin-1 byte");
    assert!(latin1_to_string(&text.0).contains(r"\ud83c\udf0d"), "a character above U+FFFF becomes a surrogate pair");
  }

  #[test]
  fn finds_non_ascii_at_every_position() {
    for len in [0, 1, 31, 32, 33, 64, 100] {
      for at in 0..=len {
        let mut s = "a".repeat(len);
        if at < len {
          s.replace_range(at..at + 1, "—");
        }
        let out = JsonArrayText::single(&s).0;
        let expect = s.replace('—', r"\u2014");
        assert_eq!(latin1_to_string(&out), expect, "len {len} at {at}");
      }
    }
  }
}
