//! The official's reading of a transcript over 5 MiB (its `AF`): everything before the last
//! compaction boundary without a preserved segment is skipped, and the last
//! `attribution-snapshot` line after it is moved to the end. The file is read in 1 MiB chunks
//! and a boundary is recognised differently inside a chunk (the `"compact_boundary"` marker in
//! the line's first 256 bytes) and across a chunk edge (the line starts with
//! `{"type":"system"`); this follows the same chunks so it finds the same boundaries.
//!
//! The official reads the whole file forward. Which lines it takes for boundaries depends only
//! on each line and where it lies against the chunk edges, so here the last 2 MiB are read
//! first ([`read`]): when the last boundary is there, the part before it is not read at all. [`skip`], the forward reading as the official does it, is kept as the reference the
//! backward reading is tested against.

use std::mem::MaybeUninit;
use std::ops::Range;

use serde_json::Value;

/// Transcripts larger than this are read from their last boundary (official `bF`).
pub(crate) const FROM: usize = 5 << 20;
/// The official's read size (`EF`).
const CHUNK: usize = 1 << 20;
const SNAPSHOT: &[u8] = br#"{"type":"attribution-snapshot""#;
const SYSTEM: &[u8] = br#"{"type":"system""#;
const MARKER: &[u8] = br#""compact_boundary""#;
/// The marker counts only this far into a line (official `QDe`).
const MARKER_WITHIN: usize = 256;

/// Whether a line is a compaction boundary without a preserved segment (official `CF`).
fn resets(line: &[u8]) -> bool {
    // Lone surrogate escapes (which `JSON.parse` takes) masked as characters serde takes.
    let Ok(Value::Object(o)) = serde_json::from_str::<Value>(&super::surrogate::mask(&String::from_utf8_lossy(line)))
    else {
        return false;
    };
    if o.get("type").and_then(Value::as_str) != Some("system")
        || o.get("subtype").and_then(Value::as_str) != Some("compact_boundary")
    {
        return false;
    }
    let meta = o.get("compactMetadata");
    let truthy = |k: &str| match meta.and_then(|m| m.as_object()).and_then(|m| m.get(k)) {
        None | Some(Value::Null) | Some(Value::Bool(false)) => false,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Number(n)) => n.as_f64().is_none_or(|f| f != 0.0 && !f.is_nan()),
        Some(_) => true,
    };
    !(truthy("preservedSegment") || truthy("preservedMessages"))
}

#[cfg(test)]
fn find(hay: &[u8], needle: &[u8], from: usize, to: usize) -> Option<usize> {
    if from > to {
        return None;
    }
    memchr::memmem::find(&hay[from..to], needle).map(|n| n + from)
}

/// The forward reading (tests): what is kept, as ranges of the file's bytes.
#[cfg(test)]
#[derive(Default)]
struct State {
    out: Vec<(usize, usize)>,
    last_snapshot: Option<(usize, usize)>,
    /// The unfinished last line of the previous chunk: it starts here and runs to the chunk's end.
    carry: Option<usize>,
    /// A snapshot line that began in the previous chunk.
    straddle: Option<(usize, usize)>,
}

#[cfg(test)]
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

/// Keeps of a transcript over [`FROM`] what the official reads of it, in place, reading it
/// forward in `chunk`-byte chunks as the official does.
#[cfg(test)]
fn skip(buf: &mut Vec<u8>, chunk: usize) {
    // With no boundary and no snapshot line everything is kept as it is.
    if memchr::memmem::find(buf, MARKER).is_none() && memchr::memmem::find(buf, SNAPSHOT).is_none() {
        return;
    }
    let b: &[u8] = buf;
    let mut st = State::default();
    let mut cs = 0;
    while cs < b.len() {
        let ce = (cs + chunk).min(b.len());
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
        if buf.last().is_some_and(|&c| c != b'\n') {
            buf.push(b'\n');
        }
        buf.extend_from_slice(&snap);
    }
}

/// Whether the line `[s, l)` (its line feed at `l`) is one the official resets its reading at,
/// reading in `chunk`-byte chunks: a plain boundary, recognised by the marker in its first 256
/// bytes when the official reads it within one chunk, and by its start `{"type":"system"` when
/// it reaches past a chunk edge (unless it starts less than 30 bytes before that edge and ends
/// within the next chunk: the official then reads it joined to that chunk).
fn resets_at(line: &[u8], s: usize, l: usize, chunk: usize) -> bool {
    if line.starts_with(SNAPSHOT) {
        return false;
    }
    let edge = (s / chunk + 1) * chunk;
    let across = l >= edge && !(edge - s < SNAPSHOT.len() && l < edge + chunk);
    if across {
        line.starts_with(SYSTEM) && resets(line)
    } else {
        memchr::memmem::find(&line[..line.len().min(MARKER_WITHIN + MARKER.len() - 1)], MARKER)
            .is_some_and(|r| r < MARKER_WITHIN)
            && resets(line)
    }
}

/// Reads a transcript of `size` bytes as the official reads one over [`FROM`], into `out`,
/// from its end backward: `read_at(offset, buf)` fills `buf` with the bytes at `offset` (an
/// `UnexpectedEof` error when the file has fewer). The last 2 MiB are read first; while the last
/// plain boundary is not among the whole lines read, as much again before them (each byte is
/// read once, into its place: 2, 4, 8, 16 MiB from the end…). Returns the text read, held in
/// `out`'s capacity; when the file turns out shorter than `size` (rewritten meanwhile), it is
/// read again at the size `size_now()` gives.
///
/// The bytes go into `out`'s spare capacity, which is never zero-filled: `read_at` writes into
/// memory that may be uninitialised (a buffer taken afresh from the allocator's heap would
/// otherwise be zero-filled whole first — 27 MB on the real CLI's transcript, 5–6 % of a call —
/// though only the part after the boundary is read). `out`'s length stays 0.
pub fn read(
    size: usize,
    out: &mut Vec<u8>,
    size_now: impl FnOnce() -> std::io::Result<usize>,
    mut read_at: impl FnMut(usize, &mut [MaybeUninit<u8>]) -> std::io::Result<()>,
) -> std::io::Result<&[u8]> {
    let kept = match kept(size, 2 * CHUNK, CHUNK, out, &mut read_at) {
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => kept(size_now()?, 2 * CHUNK, CHUNK, out, read_at)?,
        r => r?,
    };
    // SAFETY: `kept` returns a range of `out`'s spare capacity whose every byte it wrote.
    Ok(unsafe { written(out, kept) })
}

/// `out`'s spare capacity in `r`, as bytes.
///
/// # Safety
/// Every byte of `r` was written since `out` last changed.
unsafe fn written(out: &mut Vec<u8>, r: Range<usize>) -> &[u8] {
    // SAFETY: the caller's promise: these bytes are initialised.
    unsafe { out.spare_capacity_mut()[r].assume_init_ref() }
}

/// File bytes `[base, base + bytes.len())`, indexed by their file offsets.
struct At<'a> {
    bytes: &'a [u8],
    base: usize,
}

impl std::ops::Index<Range<usize>> for At<'_> {
    type Output = [u8];
    fn index(&self, r: Range<usize>) -> &[u8] {
        &self.bytes[r.start - self.base..r.end - self.base]
    }
}

impl std::ops::Index<std::ops::RangeFrom<usize>> for At<'_> {
    type Output = [u8];
    fn index(&self, r: std::ops::RangeFrom<usize>) -> &[u8] {
        &self.bytes[r.start - self.base..]
    }
}

/// A searcher for `needle`, built once.
fn finder(
    cell: &'static std::sync::OnceLock<memchr::memmem::Finder<'static>>,
    needle: &'static [u8],
) -> &'static memchr::memmem::Finder<'static> {
    cell.get_or_init(|| memchr::memmem::Finder::new(needle))
}

/// [`read`] in chunks of `chunk` bytes, its first read `first` bytes: the range of `out`'s spare
/// capacity it wrote the text into (every byte of it).
fn kept(
    size: usize,
    first: usize,
    chunk: usize,
    out: &mut Vec<u8>,
    mut read_at: impl FnMut(usize, &mut [MaybeUninit<u8>]) -> std::io::Result<()>,
) -> std::io::Result<Range<usize>> {
    static MARKERS: std::sync::OnceLock<memchr::memmem::Finder<'static>> = std::sync::OnceLock::new();
    let markers = finder(&MARKERS, MARKER);
    // One byte beyond the file: a line feed may be added before the snapshot line moved last.
    out.clear();
    if out.capacity() < size + 1 {
        *out = Vec::with_capacity(size + 1);
    }
    let spare = &mut out.spare_capacity_mut()[..size + 1];
    // `spare[start..size]` holds the file's bytes from `start` to the end (indexes are file
    // offsets), viewed as `out` below.
    let mut start = size.saturating_sub(first);
    read_at(start, &mut spare[start..size])?;
    // Lines starting at or after this were looked at (none yet).
    let mut checked = size;
    // The starts of the lines looked at, each window's in order (the windows from the end back).
    let mut starts: Vec<usize> = Vec::new();
    let found = loop {
        let out = At {
            // SAFETY: `read_at` wrote `spare[start..size]` (every read from `start` on returned Ok).
            bytes: unsafe { spare[start..size].assume_init_ref() },
            base: start,
        };
        // The first whole line read.
        let first_line = if start == 0 {
            Some(0)
        } else {
            memchr::memchr(b'\n', &out[start..]).map(|n| start + n + 1)
        };
        if let Some(from) = first_line.filter(|&f| f < checked) {
            let mut last: Option<usize> = None;
            // The line holding offset `at`: its start and its line feed (`None`: the last line, unfinished).
            let line_at = |at: usize| -> (usize, Option<usize>) {
                let s = memchr::memrchr(b'\n', &out[start..at]).map_or(start, |n| start + n + 1);
                (s, memchr::memchr(b'\n', &out[at..]).map(|n| at + n))
            };
            let consider = |s: usize, l: Option<usize>, last: &mut Option<usize>| {
                if let Some(l) = l {
                    if s >= from && s < checked && last.is_none_or(|x| s > x) && resets_at(&out[s..l], s, l, chunk) {
                        *last = Some(s);
                    }
                }
            };
            // Each line's first bytes, where the marker counts: a line feed search, then a short
            // one per line (a search of the whole text for the marker stopped at every candidate
            // its rare-byte heuristic picked in the JSON: 10 % of a call on the real CLI's
            // transcript). The starts are kept for the snapshot lines below. (`checked` is a line
            // start: the lines starting before it end before it.)
            let mut s = from;
            while s < checked {
                starts.push(s);
                let Some(l) = memchr::memchr(b'\n', &out[s..checked]).map(|n| s + n) else {
                    break;
                };
                if markers
                    .find(&out[s..l.min(s + MARKER_WITHIN + MARKER.len() - 1)])
                    .is_some()
                {
                    consider(s, Some(l), &mut last);
                }
                s = l + 1;
            }
            let mut edge = (from / chunk + 1) * chunk;
            while edge < checked {
                let (s, l) = line_at(edge);
                if s < edge {
                    consider(s, l, &mut last);
                }
                edge += chunk;
            }
            if last.is_some() {
                break last;
            }
            checked = from;
        }
        if start == 0 {
            break None;
        }
        // Not in what was read: as much again before it, read into its place in front (the lines
        // from `checked` on were looked at already), so a boundary in the second half of a long
        // transcript spares reading most of the first.
        let next = start.saturating_sub(size - start);
        read_at(next, &mut spare[next..start])?;
        start = next;
    };
    // Keep from the boundary (or the start), without snapshot lines but the last, which goes last.
    let keep_from = found.unwrap_or(start);
    // SAFETY: `read_at` wrote `spare[start..size]`, and `keep_from >= start`.
    let out = unsafe { spare[keep_from..size].assume_init_mut() };
    // Indexes below are file offsets less `keep_from`.
    let at = |s: usize| s - keep_from;
    let mut snapshot: Option<(usize, usize)> = None;
    let mut len = keep_from;
    let mut run = keep_from;
    // The snapshot lines: only a line's start is compared (a search for the text itself stops at
    // every `{"type":"` of the transcript's content blocks), among the starts noted above (every
    // line from `keep_from` on: it is a line start in the last window looked at).
    starts.sort_unstable();
    let found_at: Vec<usize> = starts
        .into_iter()
        .filter(|&s| s >= keep_from && out[at(s)..].starts_with(SNAPSHOT))
        .collect();
    for s in found_at {
        if s < run {
            continue;
        }
        let end = memchr::memchr(b'\n', &out[at(s)..]).map_or(size, |n| s + n + 1);
        out.copy_within(at(run)..at(s), at(len));
        len += s - run;
        run = end;
        snapshot = Some((s, end));
    }
    let snap = snapshot.map(|(a, z)| out[at(a)..at(z)].to_vec());
    out.copy_within(at(run)..at(size), at(len));
    len += size - run;
    if let Some(snap) = snap {
        if len > keep_from && out[at(len) - 1] != b'\n' {
            spare[len].write(b'\n');
            len += 1;
        }
        spare[len..len + snap.len()].write_copy_of_slice(&snap);
        len += snap.len();
    }
    // Written: `spare[keep_from..size]` by the reads, and any byte past them just now.
    Ok(keep_from..len)
}

/// Makes `buf` `size` bytes long for a read to overwrite. A buffer that must grow is allocated
/// anew, zeroed by the allocator (fresh pages from the kernel for a large one: nothing written,
/// and the pages a read does not reach are never touched) instead of grown and then filled with
/// zeros byte by byte; one long enough keeps its bytes (the read overwrites them).
pub(crate) fn size_buffer(buf: &mut Vec<u8>, size: usize) {
    if buf.capacity() < size {
        *buf = vec![0; size];
    } else {
        buf.truncate(size);
        buf.resize(size, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`kept`] of `text`, as the bytes it kept.
    fn read_text<'b>(text: &str, first: usize, chunk: usize, out: &'b mut Vec<u8>) -> &'b [u8] {
        let r = kept(text.len(), first, chunk, out, |at, out| {
            out.write_copy_of_slice(&text.as_bytes()[at..at + out.len()]);
            Ok(())
        })
        .unwrap();
        // SAFETY: `kept` wrote every byte of the range it returned.
        unsafe { written(out, r) }
    }

    fn run(text: &str) -> String {
        let mut b = text.as_bytes().to_vec();
        skip(&mut b, CHUNK);
        let mut r = Vec::new();
        assert_eq!(read_text(text, 16, CHUNK, &mut r), &b[..]);
        String::from_utf8(b).unwrap()
    }

    /// Random transcripts of boundaries (plain, preserved, marker late in the line, not starting
    /// with {"type":"system"), snapshots and padding, read forward in small chunks and backward:
    /// the same bytes are kept.
    #[test]
    fn backward_reading_keeps_what_forward_reading_keeps() {
        let mut seed = 0x9e3779b97f4a7c15u64;
        let mut rand = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let kinds = [
            r#"{"type":"system","subtype":"compact_boundary","uuid":"x"}"#.to_string(),
            r#"{"parentUuid":null,"type":"system","subtype":"compact_boundary","uuid":"y"}"#.to_string(),
            r#"{"type":"system","subtype":"compact_boundary","compactMetadata":{"preservedMessages":{"uuids":[]}}}"#
                .to_string(),
            format!(
                r#"{{"type":"system","pad":"{}","subtype":"compact_boundary"}}"#,
                "p".repeat(250)
            ),
            r#"{"type":"attribution-snapshot","n":1}"#.to_string(),
            r#"{"type":"attribution-snapshot","n":2,"x":"compact_boundary"}"#.to_string(),
            r#"{"type":"user","text":"plain"}"#.to_string(),
            r#"{"type":"system","subtype":"informational"}"#.to_string(),
            "not json \"compact_boundary\"".to_string(),
        ];
        let mut changed = 0;
        for round in 0..3000 {
            let mut text = String::new();
            for _ in 0..rand(14) {
                let k = &kinds[rand(kinds.len())];
                if rand(3) == 0 {
                    text.push_str(&format!(r#"{{"type":"user","pad":"{}"}}"#, "z".repeat(rand(90))));
                    text.push('\n');
                }
                text.push_str(k);
                text.push('\n');
            }
            if rand(2) == 0 {
                text.push_str(&kinds[rand(kinds.len())]);
            }
            let chunk = [16, 31, 64, 100, 1 << 20][rand(5)];
            let mut forward = text.as_bytes().to_vec();
            skip(&mut forward, chunk);
            changed += usize::from(forward != text.as_bytes());
            for first in [1, 7, 13, 29, 64, 200] {
                // A buffer holding stale bytes (as a kept one does).
                let mut backward = vec![b'#'; rand(2 * text.len() + 1)];
                let read = read_text(&text, first, chunk, &mut backward);
                assert_eq!(
                    String::from_utf8_lossy(read),
                    String::from_utf8_lossy(&forward),
                    "round {round}, chunk {chunk}, first {first}:\n{text}"
                );
            }
        }
        assert!(
            changed > 1500,
            "most transcripts had something skipped or moved ({changed})"
        );
    }

    #[test]
    fn from_the_last_plain_boundary_with_the_last_snapshot_at_the_end() {
        let boundary = r#"{"type":"system","subtype":"compact_boundary","uuid":"b"}"#;
        let kept = r#"{"type":"system","subtype":"compact_boundary","compactMetadata":{"preservedSegment":{}}}"#;
        let snap = r#"{"type":"attribution-snapshot","n":1}"#;
        let text = format!("{{\"a\":1}}\n{snap}\n{boundary}\n{{\"b\":2}}\n{kept}\n{snap}\n{{\"c\":3}}");
        assert_eq!(
            run(&text),
            format!("{boundary}\n{{\"b\":2}}\n{kept}\n{{\"c\":3}}\n{snap}\n")
        );
        assert_eq!(run("{\"a\":1}\n{\"b\":2}\n"), "{\"a\":1}\n{\"b\":2}\n");
    }
}
