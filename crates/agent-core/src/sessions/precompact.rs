//! The official's reading of a transcript over 5 MiB (its `AF`): everything before the last
//! compaction boundary without a preserved segment is skipped, and the last
//! `attribution-snapshot` line after it is moved to the end. The file is read in 1 MiB chunks
//! and a boundary is recognised differently inside a chunk (the `"compact_boundary"` marker in
//! the line's first 256 bytes) and across a chunk edge (the line starts with
//! `{"type":"system"`); this follows the same chunks so it finds the same boundaries.

use serde_json::Value;

/// Transcripts larger than this are read from their last boundary (official `bF`).
pub const FROM: usize = 5 << 20;
/// The official's read size (`EF`).
const CHUNK: usize = 1 << 20;
const SNAPSHOT: &[u8] = br#"{"type":"attribution-snapshot""#;
const SYSTEM: &[u8] = br#"{"type":"system""#;
const MARKER: &[u8] = br#""compact_boundary""#;
/// The marker counts only this far into a line (official `QDe`).
const MARKER_WITHIN: usize = 256;

/// Whether a line is a compaction boundary without a preserved segment (official `CF`).
fn resets(line: &[u8]) -> bool {
  let Ok(Value::Object(o)) = serde_json::from_str::<Value>(&String::from_utf8_lossy(line)) else { return false };
  if o.get("type").and_then(Value::as_str) != Some("system") || o.get("subtype").and_then(Value::as_str) != Some("compact_boundary") {
    return false;
  }
  let meta = o.get("compactMetadata");
  let truthy = |k: &str| match meta.and_then(|m| m.as_object()).and_then(|m| m.get(k)) {
    None | Some(Value::Null) | Some(Value::Bool(false)) => false,
    Some(Value::String(s)) => !s.is_empty(),
    Some(Value::Number(n)) => n.as_f64().map_or(true, |f| f != 0.0 && !f.is_nan()),
    Some(_) => true,
  };
  !(truthy("preservedSegment") || truthy("preservedMessages"))
}

fn find(hay: &[u8], needle: &[u8], from: usize, to: usize) -> Option<usize> {
  if from > to {
    return None;
  }
  memchr::memmem::find(&hay[from..to], needle).map(|n| n + from)
}

/// What is kept, as ranges of the file's bytes (the official copies them into a new buffer;
/// here they are moved down in place).
#[derive(Default)]
struct State {
  out: Vec<(usize, usize)>,
  last_snapshot: Option<(usize, usize)>,
  /// The unfinished last line of the previous chunk: it starts here and runs to the chunk's end.
  carry: Option<usize>,
  /// A snapshot line that began in the previous chunk.
  straddle: Option<(usize, usize)>,
}

impl State {
  fn keep(&mut self, a: usize, b: usize) {
    if a >= b {
      return;
    }
    match self.out.last_mut() {
      Some(last) if last.1 == a => last.1 = b,
      _ => self.out.push((a, b)),
    }
  }

  /// Finishes the line carried into the chunk `[cs, ce)` (official `oF`); returns where the
  /// chunk's own lines start, or `None` when the carry is to be read with the chunk.
  fn finish_carry(&mut self, b: &[u8], cs: usize, ce: usize) -> Option<usize> {
    self.straddle = None;
    let carry = self.carry?;
    let nl = memchr::memchr(b'\n', &b[cs..ce])? + cs;
    let start = nl + 1;
    let text = &b[carry..cs];
    if text.starts_with(SNAPSHOT) {
      self.straddle = Some((carry, start));
      self.last_snapshot = None;
    } else if text.len() < SNAPSHOT.len() {
      return None;
    } else {
      if text.starts_with(SYSTEM) && resets(&b[carry..nl]) {
        self.out.clear();
        self.last_snapshot = None;
      }
      self.keep(carry, start);
    }
    self.carry = None;
    Some(start)
  }

  /// The complete lines of `[ps, pe)` (official `sF`, `iF`, `aF`).
  fn lines(&mut self, b: &[u8], ps: usize, pe: usize) {
    let mut marker = find(b, MARKER, ps, pe);
    let (mut pending, mut s) = (ps, ps);
    let mut snapshot: Option<(usize, usize)> = None;
    let mut nl = memchr::memchr(b'\n', &b[ps..pe]).map(|n| n + ps);
    while let Some(l) = nl {
      let c = l + 1;
      if let Some(r) = marker {
        if r < s {
          marker = find(b, MARKER, s, pe);
        }
      }
      if b[s..c].starts_with(SNAPSHOT) {
        self.keep(pending, s);
        snapshot = Some((s, c));
        pending = c;
      } else if let Some(r) = marker.filter(|&r| r >= s && r < (s + MARKER_WITHIN).min(c)) {
        if resets(&b[s..l]) {
          self.out.clear();
          self.last_snapshot = None;
          snapshot = None;
          self.straddle = None;
          pending = s;
        }
        marker = find(b, MARKER, r + MARKER.len(), pe);
      }
      s = c;
      nl = memchr::memchr(b'\n', &b[s..pe]).map(|n| n + s);
    }
    self.keep(pending, s);
    if snapshot.is_some() {
      self.last_snapshot = snapshot;
    } else if self.straddle.is_some() {
      self.last_snapshot = self.straddle;
    }
    self.carry = (s < pe).then_some(s);
  }
}

/// Keeps of a transcript over [`FROM`] what the official reads of it, in place.
pub fn skip(buf: &mut Vec<u8>) {
  // With no boundary and no snapshot line everything is kept as it is.
  if memchr::memmem::find(buf, MARKER).is_none() && memchr::memmem::find(buf, SNAPSHOT).is_none() {
    return;
  }
  let b: &[u8] = buf;
  let mut st = State::default();
  let mut cs = 0;
  while cs < b.len() {
    let ce = (cs + CHUNK).min(b.len());
    let ps = match st.finish_carry(b, cs, ce) {
      Some(start) => start,
      None => st.carry.unwrap_or(cs),
    };
    st.lines(b, ps, ce);
    cs = ce;
  }
  if let Some(c) = st.carry {
    if b[c..].starts_with(SNAPSHOT) {
      st.last_snapshot = Some((c, b.len()));
    } else {
      st.keep(c, b.len());
    }
  }
  let snapshot = st.last_snapshot.map(|(a, z)| b[a..z].to_vec());
  if st.out == [(0, buf.len())] && snapshot.is_none() {
    return;
  }
  let mut len = 0;
  for (a, z) in st.out {
    buf.copy_within(a..z, len);
    len += z - a;
  }
  buf.truncate(len);
  if let Some(snap) = snapshot {
    if buf.last().map_or(false, |&c| c != b'\n') {
      buf.push(b'\n');
    }
    buf.extend_from_slice(&snap);
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  fn run(text: &str) -> String {
    let mut b = text.as_bytes().to_vec();
    skip(&mut b);
    String::from_utf8(b).unwrap()
  }

  #[test]
  fn from_the_last_plain_boundary_with_the_last_snapshot_at_the_end() {
    let boundary = r#"{"type":"system","subtype":"compact_boundary","uuid":"b"}"#;
    let kept = r#"{"type":"system","subtype":"compact_boundary","compactMetadata":{"preservedSegment":{}}}"#;
    let snap = r#"{"type":"attribution-snapshot","n":1}"#;
    let text = format!("{{\"a\":1}}\n{snap}\n{boundary}\n{{\"b\":2}}\n{kept}\n{snap}\n{{\"c\":3}}");
    assert_eq!(run(&text), format!("{boundary}\n{{\"b\":2}}\n{kept}\n{{\"c\":3}}\n{snap}\n"));
    assert_eq!(run("{\"a\":1}\n{\"b\":2}\n"), "{\"a\":1}\n{\"b\":2}\n");
  }
}
