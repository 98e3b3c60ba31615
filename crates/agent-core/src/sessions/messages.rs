//! `getSessionMessages`, `listSubagents` and `getSubagentMessages`: the conversation of a
//! transcript as `SessionMessage`s, written straight to JSON text.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::value::RawValue;

use super::chain;
use super::hidden;
use super::list;
use super::paths;
use super::transcript::{parse_entries_seen, parse_entries_utf8, Entry, Raw, Seen};

#[derive(Default, Clone, Debug)]
pub struct Page {
    pub limit: Option<i64>,
    pub offset: Option<i64>,
    /// Write the messages as pieces: JSON arrays of about [`PIECE`] bytes, one per line (a JSON
    /// text never holds a raw line feed), for a caller that parses each piece alone. A JS string
    /// of the whole array would be one V8 large object (fresh pages each call); pieces are small
    /// ones.
    pub pieces: bool,
}

/// The size a piece of the messages' JSON is cut at (after the message that reaches it): under
/// V8's largest regular heap object (128 KiB).
pub(crate) const PIECE: usize = 64 * 1024;

#[derive(Serialize)]
struct OutMessage<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    uuid: &'a str,
    session_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "json_text")]
    message: Option<&'a str>,
    parent_tool_use_id: Option<&'a str>,
    parent_agent_id: Option<&'a str>,
    #[serde(rename = "interruptedByShutdown", skip_serializing_if = "std::ops::Not::not")]
    interrupted_by_shutdown: bool,
    #[serde(rename = "toolDenialUnanswered", skip_serializing_if = "Option::is_none")]
    tool_denial_unanswered: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_result_meta: Option<[ResultMeta; 1]>,
    #[serde(rename = "isCompactSummary", skip_serializing_if = "std::ops::Not::not")]
    is_compact_summary: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    is_meta: bool,
    #[serde(rename = "isQueuedCommand", skip_serializing_if = "std::ops::Not::not")]
    is_queued_command: bool,
    #[serde(rename = "isCompletedLocalCommand", skip_serializing_if = "std::ops::Not::not")]
    is_completed_local_command: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    timestamp: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "json_text")]
    origin: Option<std::borrow::Cow<'a, str>>,
}

/// Serializes JSON text as the value it is (for comparing [`to_json`] with serde in tests).
fn json_text<S: serde::Serializer, T: AsRef<str>>(v: &Option<T>, s: S) -> Result<S::Ok, S::Error> {
    let raw = RawValue::from_string(v.as_ref().map_or("null", |t| t.as_ref()).to_string())
        .map_err(serde::ser::Error::custom)?;
    serde::Serialize::serialize(&raw, s)
}

/// A tool result the permission system answered instead of the tool (`tool_result_meta`).
#[derive(Serialize, Clone)]
struct ResultMeta {
    id: String,
    non_execution_kind: &'static str,
}

/// The denial kinds the official reports (`toolDenialKind`).
const DENIAL_KINDS: [&str; 7] = [
    "user-rejected",
    "permission-rule",
    "automode-blocked",
    "automode-unavailable",
    "automode-parsing-error",
    "interrupted",
    "cancelled",
];

fn raw_str(r: Option<Raw<'_>>) -> Option<String> {
    r.filter(|r| r.get().starts_with('"'))
        .and_then(|r| serde_json::from_str::<String>(r.get()).ok())
}

/// `tool_result_meta` of an entry with a known `toolDenialKind` whose content has exactly one
/// `tool_result` block, with a string `tool_use_id` (official `GT`).
fn result_meta(e: &Entry<'_>) -> Option<[ResultMeta; 1]> {
    let kind = raw_str(e.denial_kind)?;
    let kind = DENIAL_KINDS.iter().find(|k| **k == kind)?;
    let msg: serde_json::Value = serde_json::from_str(e.message?.get()).ok()?;
    let blocks = msg.get("content")?.as_array()?;
    let results: Vec<&serde_json::Value> = blocks
        .iter()
        .filter(|b| b.get("type").and_then(|t| t.as_str()) == Some("tool_result"))
        .collect();
    if results.len() != 1 {
        return None;
    }
    let id = results[0].get("tool_use_id")?.as_str()?;
    Some([ResultMeta {
        id: id.to_string(),
        non_execution_kind: kind,
    }])
}

/// An assistant entry that only closes a quiet turn: `closesQuietTurn` with one text block,
/// empty or "No response requested." (official `W$`). Left out of the conversation.
fn quiet_turn_closer(e: &Entry<'_>) -> bool {
    if e.kind() != "assistant" || !e.closes_quiet_turn {
        return false;
    }
    let Some(msg) = e
        .message
        .and_then(|m| serde_json::from_str::<serde_json::Value>(m.get()).ok())
    else {
        return false;
    };
    let Some(blocks) = msg.get("content").and_then(|c| c.as_array()) else {
        return false;
    };
    blocks.len() == 1
        && blocks[0].get("type").and_then(|t| t.as_str()) == Some("text")
        && matches!(
            blocks[0].get("text").and_then(|t| t.as_str()),
            Some("" | "No response requested.")
        )
}

/// The `origin` the official returns (its `xR`): a task notification keeps only its known
/// fields (`runId` only when it is a valid id, `taskKind` only "mcp-task"); a falsy origin is
/// left out; any other is copied as it is.
fn shaped_origin(text: &str) -> Option<std::borrow::Cow<'_, str>> {
    if matches!(text, "null" | "false" | "\"\"") {
        return None;
    }
    if !text.starts_with('{') {
        if text.starts_with(|c: char| c == '-' || c.is_ascii_digit())
            && serde_json::from_str::<f64>(text).is_ok_and(|n| n == 0.0)
        {
            return None;
        }
        return Some(std::borrow::Cow::Borrowed(text));
    }
    if !scan_has(text, "task-notification") {
        return Some(std::borrow::Cow::Borrowed(text));
    }
    let Ok(serde_json::Value::Object(o)) = serde_json::from_str::<serde_json::Value>(text) else {
        return Some(std::borrow::Cow::Borrowed(text));
    };
    if o.get("kind").and_then(|k| k.as_str()) != Some("task-notification") {
        return Some(std::borrow::Cow::Borrowed(text));
    }
    let mut out = serde_json::Map::new();
    out.insert("kind".into(), "task-notification".into());
    for k in ["subkind", "fireReason", "producer"] {
        if let Some(v) = o.get(k) {
            out.insert(k.into(), v.clone());
        }
    }
    if let Some(run) = o.get("runId").and_then(|r| r.as_str()).filter(|r| valid_tool_id(r)) {
        out.insert("runId".into(), run.into());
    }
    if o.get("taskKind").and_then(|t| t.as_str()) == Some("mcp-task") {
        out.insert("taskKind".into(), "mcp-task".into());
    }
    Some(std::borrow::Cow::Owned(serde_json::Value::Object(out).to_string()))
}

fn scan_has(hay: &str, needle: &str) -> bool {
    super::scan::has(hay, needle)
}

fn out_message<'a>(e: &'a Entry<'a>, parent_tool: Option<&'a str>, parent_agent: Option<&'a str>) -> OutMessage<'a> {
    OutMessage {
        kind: e.kind(),
        uuid: e.uuid(),
        session_id: e.session_id.as_deref(),
        message: e.message_text(),
        parent_tool_use_id: parent_tool,
        parent_agent_id: parent_agent,
        interrupted_by_shutdown: e.interrupted_by_shutdown,
        tool_denial_unanswered: (raw_str(e.denial_unanswered).as_deref() == Some("stream-closed"))
            .then_some("stream-closed"),
        tool_result_meta: if e.denial_kind.is_some() { result_meta(e) } else { None },
        is_compact_summary: e.compact_summary,
        is_meta: e.meta || e.compact_summary || e.transcript_only,
        is_queued_command: e.queued_command,
        is_completed_local_command: e.completed_local_command,
        timestamp: e.timestamp.as_deref(),
        origin: e.origin_text().and_then(shaped_origin),
    }
}

/// A JSON string: the text itself between quotes when nothing in it needs escaping (the
/// common case: ids, timestamps, types), else serde_json's escaping with every character outside
/// ASCII then written as a `\u` escape (see [`push_ascii`]).
fn push_str_json(out: &mut String, s: &str) {
    // No early exit, so the test compiles to vector compares.
    if !s.bytes().fold(false, |bad, b| {
        bad | (b < 0x20) | (b == b'"') | (b == b'\\') | (b >= 0x80)
    }) {
        out.push('"');
        out.push_str(s);
        out.push('"');
    } else {
        push_ascii(out, &serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into()));
    }
}

/// Appends JSON text with every character outside ASCII written as a `\u` escape (two, a
/// surrogate pair, above U+FFFF). In JSON text such characters stand only inside strings, so
/// every value reads the same; the output stays ASCII, and JS makes each piece a one-byte
/// string by a plain copy instead of decoding UTF-8 into a two-byte one (that decoding was 9 %
/// of a call's samples on the real CLI's transcripts, whose tool outputs hold typographic quotes
/// and symbols).
fn push_ascii(out: &mut String, text: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let b = text.as_bytes();
    // `last` is where the text not yet written starts (a character boundary): the ASCII up to
    // the next byte 0x80 or above, which starts a character, is copied whole.
    let mut last = 0;
    while let Some(at) = non_ascii(b, last) {
        out.push_str(&text[last..at]);
        let Some(c) = text[at..].chars().next() else { break };
        let mut units = [0u16; 2];
        for &u in c.encode_utf16(&mut units).iter() {
            let mut esc = *b"\\u0000";
            for (k, shift) in [12, 8, 4, 0].into_iter().enumerate() {
                esc[2 + k] = HEX[usize::from((u >> shift) & 0xf)];
            }
            // Six ASCII bytes.
            out.push_str(std::str::from_utf8(&esc).unwrap_or_default());
        }
        last = at + c.len_utf8();
    }
    out.push_str(&text[last..]);
}

/// The index of the first byte 0x80 or above in `b[from..]`, eight bytes at a time.
#[inline]
fn non_ascii(b: &[u8], from: usize) -> Option<usize> {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut i = from;
    while let Some(w) = b.get(i..i + 8) {
        let m = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]) & HIGH;
        if m != 0 {
            return Some(i + (m.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    b[i..].iter().position(|&c| c >= 0x80).map(|k| i + k)
}

fn push_opt_str(out: &mut String, key: &str, v: Option<&str>) {
    out.push_str(key);
    match v {
        Some(s) => push_str_json(out, s),
        None => out.push_str("null"),
    }
}

/// The messages as a JSON array, written directly (the same text `serde_json` gives for
/// `OutMessage`s, without its per-character escaping checks through the serializer).
fn to_json(list: &[OutMessage<'_>], pieces: bool) -> String {
    let size: usize = list
        .iter()
        .map(|m| 200 + m.message.map_or(0, str::len) + m.origin.as_ref().map_or(0, |r| r.len()))
        .sum();
    let mut out = String::with_capacity(size + 2 + if pieces { 3 * (size / PIECE + 1) } else { 0 });
    out.push('[');
    let mut piece = 0;
    for (n, m) in list.iter().enumerate() {
        if pieces && out.len() - piece >= PIECE {
            out.push_str("]\n[");
            piece = out.len() - 1;
        } else if n > 0 {
            out.push(',');
        }
        out.push_str("{\"type\":");
        push_str_json(&mut out, m.kind);
        out.push_str(",\"uuid\":");
        push_str_json(&mut out, m.uuid);
        push_opt_str(&mut out, ",\"session_id\":", m.session_id);
        if let Some(msg) = m.message {
            out.push_str(",\"message\":");
            push_ascii(&mut out, msg);
        }
        push_opt_str(&mut out, ",\"parent_tool_use_id\":", m.parent_tool_use_id);
        push_opt_str(&mut out, ",\"parent_agent_id\":", m.parent_agent_id);
        if m.interrupted_by_shutdown {
            out.push_str(",\"interruptedByShutdown\":true");
        }
        if let Some(u) = m.tool_denial_unanswered {
            out.push_str(",\"toolDenialUnanswered\":");
            push_str_json(&mut out, u);
        }
        if let Some(meta) = &m.tool_result_meta {
            out.push_str(",\"tool_result_meta\":");
            push_ascii(&mut out, &serde_json::to_string(meta).unwrap_or_else(|_| "[]".into()));
        }
        for (flag, key) in [
            (m.is_compact_summary, ",\"isCompactSummary\":true"),
            (m.is_meta, ",\"is_meta\":true"),
            (m.is_queued_command, ",\"isQueuedCommand\":true"),
            (m.is_completed_local_command, ",\"isCompletedLocalCommand\":true"),
        ] {
            if flag {
                out.push_str(key);
            }
        }
        if let Some(t) = m.timestamp {
            out.push_str(",\"timestamp\":");
            push_str_json(&mut out, t);
        }
        if let Some(o) = &m.origin {
            out.push_str(",\"origin\":");
            push_ascii(&mut out, o);
        }
        out.push('}');
    }
    out.push(']');
    out
}

fn page<T>(items: Vec<T>, p: &Page) -> Vec<T> {
    let offset = p.offset.unwrap_or(0).max(0) as usize;
    let take = match p.limit {
        Some(l) if l > 0 => l as usize,
        _ => usize::MAX,
    };
    items.into_iter().skip(offset).take(take).collect()
}

const MAIN_KINDS: [&str; 5] = ["user", "assistant", "progress", "system", "attachment"];

/// The messages of the main conversation of a transcript's text.
pub(crate) fn conversation_json(text: &str, include_system: bool, p: &Page) -> String {
    conversation_masked(text, include_system, p, false)
}

/// [`conversation_json`]; `masked`: `text` is already [`surrogate::mask`]ed.
///
/// [`surrogate::mask`]: super::surrogate::mask
fn conversation_masked(text: &str, include_system: bool, p: &Page, masked: bool) -> String {
    let (entries, seen) = parse_entries_seen(text, &MAIN_KINDS);
    if seen.lone && !masked {
        // Read with its lone surrogates standing as characters Rust holds, written back after.
        drop(entries);
        return super::surrogate::unmask(&conversation_masked(
            &super::surrogate::mask(text),
            include_system,
            p,
            true,
        ));
    }
    if seen.voice {
        // Voice-call records read as the entries they carry: the text is rewritten and read again.
        drop(entries);
        let text = super::voice::normalized(text).into_owned();
        let (entries, seen) = parse_entries_seen(&text, &MAIN_KINDS);
        let rows = host_rows(&text, &seen);
        return conversation_of(&rows, entries, seen, include_system, p);
    }
    conversation_of(&host_rows(text, &seen), entries, seen, include_system, p)
}

/// The messages of a transcript's bytes as read from its file: checked as UTF-8 by the line
/// scan as it reads them ([`parse_entries_utf8`]). Bytes that are not UTF-8 (read then with
/// replacement characters, as before),
/// and the rarer transcripts whose passes read the whole text (lone surrogates, voice-call
/// records, host rows), go the way of [`conversation_json`].
fn conversation_bytes(bytes: &[u8], include_system: bool, p: &Page) -> String {
    match parse_entries_utf8(bytes, &MAIN_KINDS) {
        Some((entries, seen)) if !(seen.lone || seen.voice || seen.host_row) => {
            conversation_of(&[], entries, seen, include_system, p)
        }
        Some(_) => match std::str::from_utf8(bytes) {
            Ok(text) => conversation_json(text, include_system, p),
            Err(_) => conversation_json(&String::from_utf8_lossy(bytes), include_system, p),
        },
        None => conversation_json(&String::from_utf8_lossy(bytes), include_system, p),
    }
}

/// The host's rows of a text whose scan saw one.
fn host_rows(text: &str, seen: &Seen<'_>) -> Vec<hidden::HostRow> {
    if seen.host_row {
        hidden::host_rows(text)
    } else {
        Vec::new()
    }
}

#[allow(clippy::nonminimal_bool)] // the official's conditions, one by one
fn conversation_of<'a>(
    rows: &[hidden::HostRow],
    mut entries: Vec<Entry<'a>>,
    seen: Seen<'a>,
    include_system: bool,
    p: &Page,
) -> String {
    let (list, leaf) = chain::walk_to_leaf(&mut entries);
    let all = entries.len();
    let list = super::queued::show(
        &seen.delivery,
        seen.queued,
        &mut entries,
        list,
        leaf,
        |entries, chain| {
            let chain = hidden::put_back_virtual(entries, chain, all);
            hidden::add_host_rows(entries, chain, rows, all)
        },
    );
    chain::mark_local_commands(&mut entries, &list);
    let kept: Vec<usize> = list
        .into_iter()
        .filter(|&i| {
            let e = &entries[i];
            let kind_ok = e.is_message() || (e.kind() == "system" && include_system);
            kind_ok
                && !quiet_turn_closer(e)
                && !(e.meta && !super::queued::kinds_keep_origin(e.origin_text()))
                && !e.sidechain
                && !e.has_team()
        })
        .collect();
    let kept = hidden::hide_calls(&mut entries, kept);
    let out: Vec<OutMessage<'_>> = page(kept, p)
        .into_iter()
        .map(|i| out_message(&entries[i], None, None))
        .collect();
    to_json(&out, p.pieces)
}

/// Reads a whole transcript (lossy UTF-8) and hands its text to `f`; `None` when it cannot be
/// read.
fn with_text<R>(path: &Path, f: impl FnOnce(&str) -> R) -> Option<R> {
    with_text_skipping(path, false, f)
}

/// Fills `out` with the bytes of `f` at `at` (`UnexpectedEof` when the file has fewer).
///
/// From [`PARALLEL_READ`] bytes on, on Unix with two processors or more, a helper thread reads
/// the second half while this one reads the first (positioned reads of the same file). A
/// cached transcript's read is the kernel's copy out of the page cache: the 6.3 MB bench
/// transcript took 0.7–0.9 ms on one thread and 0.5–0.65 ms on two, the thread's start
/// included.
fn read_exact_at(f: &std::fs::File, at: usize, out: &mut [u8]) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        halves(out, at, |buf, at| f.read_exact_at(buf, at as u64))
    }
    #[cfg(not(unix))]
    {
        use std::io::{Read, Seek};
        let mut f = f;
        f.seek(std::io::SeekFrom::Start(at as u64))?;
        f.read_exact(out)
    }
}

/// `read(buf, at)` of `out` at file offset `at`; from [`PARALLEL_READ`] bytes on, on two
/// processors or more, a helper thread reads the second half while this one reads the first.
#[cfg(unix)]
fn halves<T: Send>(
    out: &mut [T],
    at: usize,
    read: impl Fn(&mut [T], usize) -> std::io::Result<()> + Sync,
) -> std::io::Result<()> {
    if super::shared::worth_helping(out.len(), PARALLEL_READ) {
        let half = out.len() / 2;
        let (a, b) = out.split_at_mut(half);
        let both = std::thread::scope(|s| {
            let helper = std::thread::Builder::new()
                .spawn_scoped(s, || read(b, at + half))
                .ok()?;
            let first = read(a, at);
            let second = helper.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            Some(first.and(second))
        });
        // `None`: no thread could be started; read it all here.
        if let Some(r) = both {
            return r;
        }
    }
    read(out, at)
}

/// [`read_exact_at`] into memory that may be uninitialised (a buffer's spare capacity, which is
/// then not zero-filled first).
fn read_uninit_at(f: &std::fs::File, at: usize, out: &mut [std::mem::MaybeUninit<u8>]) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        halves(out, at, |buf, at| pread_exact(f, buf, at))
    }
    #[cfg(not(unix))]
    {
        let mut bytes = vec![0; out.len()];
        read_exact_at(f, at, &mut bytes)?;
        out.write_copy_of_slice(&bytes);
        Ok(())
    }
}

/// `pread` until `buf` is full (`UnexpectedEof` when the file ends first). No stable safe API
/// reads into uninitialised memory (`Read::read_buf` is unstable; `read_to_end` only appends).
#[cfg(unix)]
fn pread_exact(f: &std::fs::File, mut buf: &mut [std::mem::MaybeUninit<u8>], mut at: usize) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    while !buf.is_empty() {
        let Ok(offset) = libc::off_t::try_from(at) else {
            return Err(std::io::ErrorKind::InvalidInput.into());
        };
        // SAFETY: `buf` is an exclusive slice, valid for writes of `buf.len()` bytes
        // (`MaybeUninit<u8>` has the layout of `u8`); `pread` writes at most that many into it
        // and reads none of them; the descriptor is `f`'s, open for the whole call.
        let n = unsafe { libc::pread(f.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len(), offset) };
        match n {
            0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            n if n > 0 => {
                let n = n as usize;
                buf = &mut buf[n..];
                at += n;
            }
            _ => {
                let e = std::io::Error::last_os_error();
                if e.kind() != std::io::ErrorKind::Interrupted {
                    return Err(e);
                }
            }
        }
    }
    Ok(())
}

/// Reads from this size on are shared with a helper thread ([`read_exact_at`]).
const PARALLEL_READ: usize = 1 << 20;

/// The whole file into `buf`, whose length is set to `size` first (its bytes overwritten, not
/// zero-filled, when it held some already): one read of the expected size (shared with a
/// helper thread when large, see [`read_exact_at`]), then whatever the file has beyond it (a
/// transcript being appended to) or less (one rewritten meanwhile).
fn read_whole(mut f: &std::fs::File, size: usize, buf: &mut Vec<u8>) -> std::io::Result<()> {
    use std::io::{Read, Seek};
    super::precompact::size_buffer(buf, size);
    if size >= PARALLEL_READ {
        match read_exact_at(f, 0, buf) {
            Ok(()) => {
                // Positioned reads leave the file's offset where it was (at the start).
                f.seek(std::io::SeekFrom::Start(size as u64))?;
                f.read_to_end(buf)?;
                return Ok(());
            }
            // Shorter than it was a moment ago: read as it is now, below.
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                f.seek(std::io::SeekFrom::Start(0))?;
            }
            Err(e) => return Err(e),
        }
    }
    let mut n = 0;
    while n < size {
        match f.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    buf.truncate(n);
    if n == size {
        f.read_to_end(buf)?;
    }
    Ok(())
}

/// [`with_text`]; with `skip`, a transcript over [`precompact::FROM`] is read as the official
/// reads it (see [`with_bytes_skipping`]).
fn with_text_skipping<R>(path: &Path, skip: bool, f: impl FnOnce(&str) -> R) -> Option<R> {
    with_bytes_skipping(path, skip, |bytes| match std::str::from_utf8(bytes) {
        Ok(text) => f(text),
        Err(_) => f(&String::from_utf8_lossy(bytes)),
    })
}

/// A transcript's bytes (not checked as UTF-8) handed to `f`; with `skip`, a transcript over
/// [`precompact::FROM`] is read as the official reads it: from its last compaction boundary
/// without a preserved segment (its last 2 MiB read first: a boundary there spares reading the
/// part before it).
///
/// The bytes go into a buffer kept for the next call when it is at most [`KEEP_BUFFER`] long:
/// a fresh multi-megabyte buffer per call would be new pages from the kernel each time (the
/// allocator hands a freed buffer that size back to the system), and faulting them in cost more
/// than reading the file. One buffer is kept for the process: at most 8 MiB held between calls.
/// Its bytes are kept too (not cleared), so the next read overwrites them instead of
/// zero-filling the buffer first.
fn with_bytes_skipping<R>(path: &Path, skip: bool, f: impl FnOnce(&[u8]) -> R) -> Option<R> {
    /// The largest buffer kept between calls.
    const KEEP_BUFFER: usize = 8 << 20;
    static SPARE: std::sync::Mutex<Vec<u8>> = std::sync::Mutex::new(Vec::new());
    let mut buf = SPARE
        .try_lock()
        .map(|mut b| std::mem::take(&mut *b))
        .unwrap_or_default();
    let out = super::fence::open_read(path)
        .map_err(std::io::Error::from)
        .and_then(|file| {
            let size = file.metadata()?.len() as usize;
            if skip && size > super::precompact::FROM {
                // Shorter than it was a moment ago (rewritten meanwhile): read as it is now.
                let size_now = || Ok(file.metadata()?.len() as usize);
                let text = super::precompact::read(size, &mut buf, size_now, |at, out| read_uninit_at(&file, at, out))?;
                Ok(f(text))
            } else {
                read_whole(&file, size, &mut buf)?;
                Ok(f(&buf))
            }
        })
        .ok();
    if buf.capacity() <= KEEP_BUFFER {
        if let Ok(mut spare) = SPARE.try_lock() {
            if spare.capacity() < buf.capacity() {
                *spare = buf;
            }
        }
    }
    out
}

pub fn session_messages(
    cx: &paths::Context,
    session_id: &str,
    dir: Option<&str>,
    include_system: bool,
    p: &Page,
    precompact_skip: bool,
) -> String {
    if !paths::is_uuid(session_id) {
        return "[]".into();
    }
    let Some(loc) = list::locate(cx, session_id, dir) else {
        return "[]".into();
    };
    with_bytes_skipping(&loc.path, precompact_skip, |bytes| {
        conversation_bytes(bytes, include_system, p)
    })
    .unwrap_or_else(|| "[]".into())
}

/// `<project>/<sessionId>/subagents`, for a session found under `dir` or anywhere.
fn subagents_dir(cx: &paths::Context, session_id: &str, dir: Option<&str>) -> Option<PathBuf> {
    if !paths::is_uuid(session_id) {
        return None;
    }
    let loc = list::locate(cx, session_id, dir)?;
    Some(loc.path.with_extension("").join("subagents"))
}

/// `agent-<id>.jsonl` files under the subagents folder, recursively, in directory order.
pub(crate) fn agent_files(root: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    // A subagents folder that is a link out of the projects tree lists nothing (its files would
    // be refused when opened; their names are not listed either).
    if super::fence::dir_inside(root).is_err() {
        return out;
    }
    fn walk(dir: &Path, out: &mut Vec<(String, PathBuf)>) {
        for ent in paths::read_dir_sorted(dir) {
            let Ok(ft) = ent.file_type() else { continue };
            let name = ent.file_name().to_string_lossy().into_owned();
            if ft.is_file() && name.starts_with("agent-") && name.ends_with(".jsonl") && name.len() >= 12 {
                out.push((name[6..name.len() - 6].to_string(), ent.path()));
            } else if ft.is_dir() {
                walk(&ent.path(), out);
            }
        }
    }
    walk(root, &mut out);
    out
}

pub fn list_subagents(cx: &paths::Context, session_id: &str, dir: Option<&str>) -> Vec<String> {
    match subagents_dir(cx, session_id, dir) {
        Some(root) => agent_files(&root).into_iter().map(|(id, _)| id).collect(),
        None => Vec::new(),
    }
}

/// Ids the official keeps: `[A-Za-z0-9_.:-]{1,128}`.
fn valid_tool_id(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 128
        && s.bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b':' | b'-'))
}

pub fn subagent_messages(cx: &paths::Context, session_id: &str, agent_id: &str, dir: Option<&str>, p: &Page) -> String {
    if agent_id.is_empty() {
        return "[]".into();
    }
    let Some(root) = subagents_dir(cx, session_id, dir) else {
        return "[]".into();
    };
    let Some((_, file)) = agent_files(&root).into_iter().find(|(id, _)| id == agent_id) else {
        return "[]".into();
    };
    let meta: serde_json::Value = super::fence::read(&file.with_extension("meta.json"))
        .ok()
        .and_then(|t| serde_json::from_slice(&t).ok())
        .unwrap_or_default();
    let tool_use_id = meta.get("toolUseId").and_then(|v| v.as_str());
    let parent_agent = meta.get("parentAgentId").and_then(|v| v.as_str());
    with_text(&file, |text| subagent_json(text, tool_use_id, parent_agent, p)).unwrap_or_else(|| "[]".into())
}

/// The messages of a subagent transcript's text, attributed to the tool call that ran it.
pub(crate) fn subagent_json(text: &str, tool_use_id: Option<&str>, parent_agent: Option<&str>, p: &Page) -> String {
    subagent_masked(text, tool_use_id, parent_agent, p, false)
}

fn subagent_masked(
    text: &str,
    tool_use_id: Option<&str>,
    parent_agent: Option<&str>,
    p: &Page,
    masked: bool,
) -> String {
    const KINDS: [&str; 3] = ["user", "assistant", "attachment"];
    let (entries, seen) = parse_entries_seen(text, &KINDS);
    if seen.lone && !masked {
        drop(entries);
        return super::surrogate::unmask(&subagent_masked(
            &super::surrogate::mask(text),
            tool_use_id,
            parent_agent,
            p,
            true,
        ));
    }
    if seen.voice {
        drop(entries);
        let text = super::voice::normalized(text).into_owned();
        let (entries, seen) = parse_entries_seen(&text, &KINDS);
        return subagent_of(&text, entries, seen, tool_use_id, parent_agent, p);
    }
    subagent_of(text, entries, seen, tool_use_id, parent_agent, p)
}

fn subagent_of<'a>(
    text: &'a str,
    mut entries: Vec<Entry<'a>>,
    seen: Seen<'a>,
    tool_use_id: Option<&str>,
    parent_agent: Option<&str>,
    p: &Page,
) -> String {
    let tool_use_id = tool_use_id.filter(|s| valid_tool_id(s)).map(str::to_string);
    let parent_agent = parent_agent.filter(|s| valid_tool_id(s)).map(str::to_string);
    // The chain from the last message back.
    let Some(last) = entries.iter().rposition(|e| e.is_message()) else {
        return "[]".into();
    };
    let by_uuid: std::collections::HashMap<String, usize> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| (e.uuid().to_string(), i))
        .collect();
    let mut list = Vec::new();
    let mut walked = std::collections::HashSet::new();
    let mut cur = Some(last);
    while let Some(c) = cur {
        if !walked.insert(entries[c].uuid().to_string()) {
            break;
        }
        list.push(c);
        cur = entries[c]
            .parent()
            .filter(|p| !p.is_empty())
            .and_then(|p| by_uuid.get(p).copied());
    }
    list.reverse();
    let all = entries.len();
    let list = hidden::put_back_virtual(&entries, list, all);
    let rows = if seen.host_row {
        hidden::host_rows(text)
    } else {
        Vec::new()
    };
    let list = hidden::add_host_rows(&mut entries, list, &rows, all);
    let list = super::queued::show_subagent(seen.queued, &mut entries, list);
    chain::mark_local_commands(&mut entries, &list);
    let kept: Vec<usize> = list.into_iter().filter(|&i| entries[i].is_message()).collect();
    let kept = hidden::hide_calls(&mut entries, kept);
    let out: Vec<OutMessage<'_>> = page(kept, p)
        .into_iter()
        .map(|i| out_message(&entries[i], tool_use_id.as_deref(), parent_agent.as_deref()))
        .collect();
    to_json(&out, p.pieces)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A transcript over 5 MiB read from its last boundary through the file (reads into spare
    /// capacity, shared with a helper thread): the text the official keeps; a read past the
    /// file's end is `UnexpectedEof`; a size that was too large is read again at the file's size.
    #[test]
    fn backward_reading_of_a_file_into_spare_capacity() {
        let dir = std::env::temp_dir().join(format!("spare-read-{}", super::super::write::uuid_v4()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.jsonl");
        let pad = |tag: &str, n: usize| -> String {
            (0..n)
                .map(|i| {
                    format!(
                        "{{\"type\":\"user\",\"uuid\":\"{tag}{i}\",\"x\":\"{}\"}}\n",
                        "\u{e9}z".repeat(900)
                    )
                })
                .collect()
        };
        let boundary = "{\"type\":\"system\",\"subtype\":\"compact_boundary\",\"uuid\":\"b\"}\n";
        let snap = "{\"type\":\"attribution-snapshot\",\"n\":1}\n";
        let (before, after, last) = (pad("a", 2500), pad("b", 1200), pad("c", 3));
        let text = format!("{before}{boundary}{after}{snap}{last}");
        assert!(text.len() > super::super::precompact::FROM && after.len() > 2 * PARALLEL_READ);
        std::fs::write(&path, &text).unwrap();
        let kept = with_bytes_skipping(&path, true, |b| b.to_vec()).unwrap();
        assert_eq!(
            String::from_utf8(kept).unwrap(),
            format!("{boundary}{after}{last}{snap}")
        );
        // Twice (the buffer kept or not), the same.
        let again = with_bytes_skipping(&path, true, |b| b.to_vec()).unwrap();
        assert_eq!(again.len(), text.len() - before.len());

        let file = std::fs::File::open(&path).unwrap();
        let mut buf = vec![std::mem::MaybeUninit::new(b'#'); 3 * PARALLEL_READ];
        read_uninit_at(&file, 1000, &mut buf).unwrap();
        assert!(buf.iter().zip(&text.as_bytes()[1000..]).all(|(a, &b)| {
            // SAFETY: every byte was initialised (with '#') before the read.
            unsafe { a.assume_init() == b }
        }));
        let past = read_uninit_at(&file, text.len() - 10, &mut buf[..20]).unwrap_err();
        assert_eq!(past.kind(), std::io::ErrorKind::UnexpectedEof);

        let mut out = Vec::new();
        let read = super::super::precompact::read(
            text.len() + 4096,
            &mut out,
            || Ok(text.len()),
            |at, o| read_uninit_at(&file, at, o),
        )
        .unwrap();
        assert_eq!(read, format!("{boundary}{after}{last}{snap}").as_bytes());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn direct_json_matches_serde() {
        let text = "{\"type\":\"user\",\"uuid\":\"u1\",\"parentUuid\":null,\"sessionId\":\"s\\\"q\",\"timestamp\":\"t\\u0001\",\"isMeta\":true,\"origin\":{\"kind\":\"channel\"},\"message\":{\"role\":\"user\",\"content\":\"h\\u00e9\u{e9}\"}}\n{\"type\":\"assistant\",\"uuid\":\"u2\",\"parentUuid\":\"u1\",\"isCompactSummary\":true,\"message\":{\"id\":\"m\",\"content\":[]}}\n{\"type\":\"user\",\"uuid\":\"u3\",\"isQueuedCommand\":true,\"toolDenialKind\":\"user-rejected\",\"toolDenialUnanswered\":\"stream-closed\",\"message\":{\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t1\"}]}}\n";
        let entries = crate::sessions::transcript::parse_entries(text, &["user", "assistant"]);
        assert_eq!(entries.len(), 3);
        let list: Vec<OutMessage<'_>> = entries.iter().map(|e| out_message(e, Some("t\\x"), None)).collect();
        // serde's text, with what is not ASCII written as \u escapes.
        let mut expected = String::new();
        push_ascii(&mut expected, &serde_json::to_string(&list).unwrap());
        assert_eq!(to_json(&list, false), expected);
        assert!(expected.is_ascii() && expected.contains("h\\u00e9\\u00e9"));
    }

    /// [`push_ascii`] as it was written first (character by character): the reference.
    fn push_ascii_reference(out: &mut String, text: &str) {
        let mut units = [0u16; 2];
        for c in text.chars() {
            if c.is_ascii() {
                out.push(c);
                continue;
            }
            for &u in c.encode_utf16(&mut units).iter() {
                out.push_str(&format!("\\u{u:04x}"));
            }
        }
    }

    /// Characters of one to four bytes at every offset against the eight-byte steps, after and
    /// before ASCII runs of every length up to 20: the same text as the character-by-character
    /// writing.
    #[test]
    fn ascii_writing_is_the_reference() {
        let mut n = 0;
        for c in [
            "\u{7f}",
            "\u{80}",
            "\u{e9}",
            "\u{7ff}",
            "\u{800}",
            "\u{2014}",
            "\u{ffff}",
            "\u{10000}",
            "\u{1f600}",
            "\u{10ffff}",
        ] {
            for pad in 0..20 {
                for after in 0..20 {
                    for twice in [false, true] {
                        let text = format!(
                            "{}{c}{}{}",
                            "a".repeat(pad),
                            if twice { c } else { "" },
                            "z".repeat(after)
                        );
                        let (mut ours, mut reference) = (String::from("["), String::from("["));
                        push_ascii(&mut ours, &text);
                        push_ascii_reference(&mut reference, &text);
                        assert_eq!(ours, reference, "{text:?}");
                        assert!(ours.is_ascii());
                        n += 1;
                    }
                }
            }
        }
        assert_eq!(n, 10 * 20 * 20 * 2);
    }

    #[test]
    fn ascii_escapes_read_as_the_characters() {
        let mut out = String::new();
        push_ascii(&mut out, "{\"t\":\"a\u{e9}\u{2014}\u{1f600}\\ud800z\"}");
        assert_eq!(out, "{\"t\":\"a\\u00e9\\u2014\\ud83d\\ude00\\ud800z\"}");
        let v: serde_json::Value = serde_json::from_str(&crate::sessions::surrogate::mask(&out)).unwrap();
        assert!(v["t"].as_str().unwrap().starts_with("a\u{e9}\u{2014}\u{1f600}"));
        let mut plain = String::new();
        push_ascii(&mut plain, "{\"t\":1}");
        assert_eq!(plain, "{\"t\":1}");
    }

    #[test]
    fn pieces_are_arrays_that_join_into_the_whole() {
        let mut text = String::new();
        for n in 0..400 {
            text.push_str(&format!(
                "{{\"type\":\"user\",\"uuid\":\"u{n}\",\"message\":{{\"content\":\"{}\"}}}}\n",
                "x".repeat(n * 7 % 1000)
            ));
        }
        let entries = crate::sessions::transcript::parse_entries(&text, &["user"]);
        let list: Vec<OutMessage<'_>> = entries.iter().map(|e| out_message(e, None, None)).collect();
        let whole = to_json(&list, false);
        let pieces = to_json(&list, true);
        let parts: Vec<&str> = pieces.split('\n').collect();
        assert!(parts.len() > 2, "{} pieces", parts.len());
        let mut joined = Vec::new();
        for part in &parts {
            assert!(
                part.len() < PIECE + 2000,
                "a piece ends after the message that reaches the size"
            );
            joined.extend(serde_json::from_str::<Vec<serde_json::Value>>(part).unwrap());
        }
        assert_eq!(
            serde_json::Value::Array(joined),
            serde_json::from_str::<serde_json::Value>(&whole).unwrap()
        );
        assert_eq!(
            to_json(&list[..3], true),
            to_json(&list[..3], false),
            "a small list is one piece"
        );
    }
}
