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

fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
  if from > hay.len() {
    return None;
  }
  memchr::memmem::find(&hay[from..], needle).map(|n| n + from)
}

#[derive(Default)]
struct State {
  out: Vec<u8>,
  last_snapshot: Option<Vec<u8>>,
  carry: Vec<u8>,
  /// A snapshot line that began in the previous chunk: its length there and here.
  straddle: Option<(usize, usize)>,
  /// The carry as it was before this chunk (a straddling snapshot's first part).
  carry_before: Vec<u8>,
}

impl State {
  /// Finishes the line carried from the previous chunk (official `oF`); returns where this
  /// chunk's own lines start, or 0 when the carry is to be joined to the chunk.
  fn finish_carry(&mut self, chunk: &[u8]) -> usize {
    self.straddle = None;
    if self.carry.is_empty() {
      return 0;
    }
    let Some(nl) = memchr::memchr(b'\n', chunk) else { return 0 };
    let start = nl + 1;
    if self.carry.starts_with(SNAPSHOT) {
      self.straddle = Some((self.carry.len(), start));
      self.last_snapshot = None;
    } else if self.carry.len() < SNAPSHOT.len() {
      return 0;
    } else {
      if self.carry.starts_with(SYSTEM) {
        let mut line = self.carry.clone();
        line.extend_from_slice(&chunk[..nl]);
        if resets(&line) {
          self.out.clear();
          self.last_snapshot = None;
        }
      }
      self.out.extend_from_slice(&self.carry);
      self.out.extend_from_slice(&chunk[..start]);
    }
    self.carry.clear();
    start
  }

  /// The complete lines of `p` (official `sF`, `iF`, `aF`).
  fn lines(&mut self, p: &[u8], chunk: &[u8]) {
    let mut marker = find(p, MARKER, 0);
    let (mut pending, mut s) = (0usize, 0usize);
    let mut snapshot: Option<(usize, usize)> = None;
    let mut nl = memchr::memchr(b'\n', p);
    while let Some(l) = nl {
      let c = l + 1;
      if let Some(r) = marker {
        if r < s {
          marker = find(p, MARKER, s);
        }
      }
      if p[s..c].starts_with(SNAPSHOT) {
        self.out.extend_from_slice(&p[pending..s]);
        snapshot = Some((s, c));
        pending = c;
      } else if let Some(r) = marker.filter(|&r| r >= s && r < (s + MARKER_WITHIN).min(c)) {
        if resets(&p[s..l]) {
          self.out.clear();
          self.last_snapshot = None;
          snapshot = None;
          self.straddle = None;
          pending = s;
        }
        marker = find(p, MARKER, r + MARKER.len());
      }
      s = c;
      nl = memchr::memchr(b'\n', &p[s..]).map(|n| n + s);
    }
    self.out.extend_from_slice(&p[pending..s]);
    if let Some((a, b)) = snapshot {
      self.last_snapshot = Some(p[a..b].to_vec());
    } else if let Some((carried, here)) = self.straddle {
      let mut snap = self.carry_before[..carried].to_vec();
      snap.extend_from_slice(&chunk[..here]);
      self.last_snapshot = Some(snap);
    }
    self.carry = p[s..].to_vec();
  }
}

/// The bytes the official reads of a transcript over [`FROM`].
pub fn skip(bytes: &[u8]) -> Vec<u8> {
  let mut st = State::default();
  let mut at = 0;
  while at < bytes.len() {
    let chunk = &bytes[at..(at + CHUNK).min(bytes.len())];
    at += chunk.len();
    let carried = st.carry.clone();
    let start = st.finish_carry(chunk);
    let joined;
    let p: &[u8] = if !st.carry.is_empty() {
      let mut j = st.carry.clone();
      j.extend_from_slice(&chunk[start..]);
      joined = j;
      &joined
    } else {
      &chunk[start..]
    };
    st.carry_before = carried;
    st.lines(p, chunk);
  }
  if !st.carry.is_empty() {
    if st.carry.starts_with(SNAPSHOT) {
      st.last_snapshot = Some(std::mem::take(&mut st.carry));
    } else {
      let c = std::mem::take(&mut st.carry);
      st.out.extend_from_slice(&c);
    }
  }
  if let Some(snap) = st.last_snapshot.take() {
    if st.out.last().map_or(false, |&b| b != b'\n') {
      st.out.push(b'\n');
    }
    st.out.extend_from_slice(&snap);
  }
  st.out
}
