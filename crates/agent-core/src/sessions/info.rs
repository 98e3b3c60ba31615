//! One session's metadata from the first and last 64 KiB of its transcript (official `xa`,
//! `Na`, `tj`): title, first prompt, branch, cwd, tag, creation time, archive state.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use super::paths::{fold, project_key, read_dir_sorted, sanitize, Context, MAX_KEY, WINDOWS};
use super::scan::{self, has, Mode};

pub const WINDOW: usize = 64 * 1024;

/// The first and last 64 KiB of a transcript (the same text when it is smaller).
pub(crate) struct HeadTail {
    pub head: String,
    pub tail: String,
    pub mtime_ms: i64,
    pub size: u64,
}

/// Up to `n` bytes at `offset`, in as few reads as the file gives them (positioned reads: no
/// seek, and no growing chunks as `read_to_end` would use).
fn read_window(f: &File, offset: u64, n: usize) -> std::io::Result<Vec<u8>> {
    let mut v = vec![0u8; n];
    let mut got = 0;
    while got < n {
        match read_at(f, &mut v[got..], offset + got as u64) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
    v.truncate(got);
    Ok(v)
}

#[cfg(unix)]
fn read_at(f: &File, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(f, buf, offset)
}

#[cfg(windows)]
fn read_at(f: &File, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(f, buf, offset)
}

/// Bytes as text the way `Buffer#toString('utf8')` decodes them (invalid sequences become
/// U+FFFD). Valid text, the common case, is taken as it is, without a copy.
pub fn decode(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => {
            let err = e.utf8_error();
            let bytes = e.into_bytes();
            if err.error_len().is_none() {
                // Only the last character was cut by the window: one replacement character.
                let mut s = String::with_capacity(err.valid_up_to() + 3);
                // The prefix was just validated.
                s.push_str(std::str::from_utf8(&bytes[..err.valid_up_to()]).unwrap_or_default());
                s.push('\u{FFFD}');
                s
            } else {
                String::from_utf8_lossy(&bytes).into_owned()
            }
        }
    }
}

/// A transcript to read: no link out of the projects tree and no FIFO ([`super::fence`]).
fn open_regular(path: &Path) -> Option<File> {
    super::fence::open_read(path).ok()
}

/// A small file beside a transcript (a sidecar title, an archive mark), read inside the fence.
fn read_small(path: &Path, max: u64) -> Option<Vec<u8>> {
    let f = open_regular(path)?;
    let mut out = Vec::new();
    f.take(max + 1).read_to_end(&mut out).ok()?;
    (out.len() as u64 <= max).then_some(out)
}

/// The modification time in milliseconds, as the host's `stats.mtime` has it (`floor`: see
/// [`Context::floor_mtime`]).
pub fn mtime_ms(meta: &std::fs::Metadata, floor: bool) -> i64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| super::paths::host_ms(d, floor))
        .unwrap_or(0)
}

/// Reads the head and tail of a regular, non-empty file; `None` otherwise (`floor`: how its
/// time is rounded, [`Context::floor_mtime`]).
pub(crate) fn read_head_tail(path: &Path, floor: bool) -> Option<HeadTail> {
    let f = open_regular(path)?;
    let meta = f.metadata().ok()?;
    if !meta.is_file() {
        return None;
    }
    let head = read_window(&f, 0, WINDOW).ok()?;
    if head.is_empty() {
        return None;
    }
    let size = meta.len();
    let tail = if size > WINDOW as u64 {
        Some(read_window(&f, size - WINDOW as u64, WINDOW).ok()?)
    } else {
        None
    };
    let head = decode(head);
    let tail = match tail {
        Some(t) => decode(t),
        None => head.clone(),
    };
    Some(HeadTail {
        head,
        tail,
        mtime_ms: mtime_ms(&meta, floor),
        size,
    })
}

/// Session metadata, in the official field order (absent fields are left out).
#[derive(Serialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct SessionInfo {
    pub session_id: String,
    pub summary: String,
    pub last_modified: i64,
    pub file_size: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub custom_title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_prompt: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub git_branch: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub archived: Option<bool>,
    /// Read from text whose lone surrogates were masked (see [`super::surrogate`]): its JSON
    /// text is to go through [`super::surrogate::unmask`].
    #[serde(skip)]
    pub masked: bool,
}

fn non_empty(s: Option<String>) -> Option<String> {
    s.filter(|s| !s.is_empty())
}

/// `Date.parse` for the ISO 8601 timestamps transcripts carry (`YYYY-MM-DDTHH:MM:SS(.fff)?(Z|±HH:MM)`).
pub fn parse_iso_ms(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() < 19
        || b[4] != b'-'
        || b[7] != b'-'
        || (b[10] != b'T' && b[10] != b't')
        || b[13] != b':'
        || b[16] != b':'
    {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> { s.get(r)?.parse::<i64>().ok() };
    let (y, mo, d, h, mi, se) = (
        num(0..4)?,
        num(5..7)?,
        num(8..10)?,
        num(11..13)?,
        num(14..16)?,
        num(17..19)?,
    );
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 24 || mi > 59 || se > 59 {
        return None;
    }
    let mut i = 19;
    let mut ms = 0i64;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return None;
        }
        let frac = &s[start..i.min(start + 3)];
        ms = frac.parse::<i64>().ok()? * 10i64.pow(3 - frac.len() as u32);
    }
    let offset_min = match &s[i..] {
        "Z" | "z" => 0,
        "" => return None, // local time: not written by the CLI
        rest if rest.len() == 6 && (rest.starts_with('+') || rest.starts_with('-')) && rest.as_bytes()[3] == b':' => {
            let oh: i64 = rest[1..3].parse().ok()?;
            let om: i64 = rest[4..6].parse().ok()?;
            let v = oh * 60 + om;
            if rest.starts_with('-') {
                -v
            } else {
                v
            }
        }
        _ => return None,
    };
    // Days from civil (Howard Hinnant).
    let (yy, mm) = if mo <= 2 { (y - 1, mo + 9) } else { (y, mo - 3) };
    let era = yy.div_euclid(400);
    let yoe = yy - era * 400;
    let doy = (153 * mm + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146097 + doe - 719468;
    Some(((days * 24 + h) * 60 + mi - offset_min) * 60_000 + se * 1000 + ms)
}

/// `<dir>/<sessionId>/custom-title.json`, a title kept beside the transcript.
pub(crate) fn sidecar_title(transcript: &Path, session_id: &str) -> Option<String> {
    let file = transcript.parent()?.join(session_id).join("custom-title.json");
    let v: Value = serde_json::from_slice(&read_small(&file, 1 << 20)?).ok()?;
    let t = v.get("customTitle")?.as_str()?;
    let cleaned: String = t
    .trim()
    .chars()
    .map(|c| if c.is_control() || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{FEFF}' | '\u{2028}' | '\u{2029}') { ' ' } else { c })
    .collect();
    let cleaned: String = cleaned.chars().filter(|c| !c.is_control()).take(200).collect();
    let cleaned = cleaned.trim().to_string();
    if cleaned.is_empty() {
        None
    } else {
        Some(cleaned)
    }
}

/// The archive mark: `(archived, at)` from `<dir>/<sessionId>/archived.json`.
pub(crate) fn archive_mark(transcript: &Path, session_id: &str) -> Option<(bool, i64)> {
    let file = transcript.parent()?.join(session_id).join("archived.json");
    let v: Value = serde_json::from_slice(&read_small(&file, 4096)?).ok()?;
    let archived = v.get("archived")?.as_bool()?;
    let at = parse_iso_ms(v.get("at")?.as_str()?)?;
    Some((archived, at))
}

/// A user prompt written after `at` (a new turn un-archives a session).
fn prompt_after(text: &str, at: i64) -> bool {
    text.split('\n').any(|line| {
        if !(has(line, "\"user\"") || has(line, "\"queued_command\"")) || has(line, "\"tool_result\"") {
            return false;
        }
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            return false;
        };
        human_prompt_time(&v).is_some_and(|t| t > at)
    })
}

fn human_prompt_time(v: &Value) -> Option<i64> {
    let o = v.as_object()?;
    let flag_set = |k: &str| o.get(k).is_some_and(|x| x != &Value::Bool(false));
    let (content, origin) = match o.get("type")?.as_str()? {
        "user" => {
            for k in [
                "isCompactSummary",
                "isSidechain",
                "isVirtual",
                "isVisibleInTranscriptOnly",
                "isMeta",
                "textNotTyped",
                "handedOff",
                "queueSkipAttachments",
            ] {
                if flag_set(k) {
                    return None;
                }
            }
            (o.get("message")?.get("content")?.clone(), o.get("origin"))
        }
        "attachment" => {
            if flag_set("isSidechain") {
                return None;
            }
            let a = o.get("attachment")?;
            if a.get("type")?.as_str()? != "queued_command" {
                return None;
            }
            (a.get("prompt")?.clone(), a.get("origin"))
        }
        _ => return None,
    };
    let ts = parse_iso_ms(o.get("timestamp")?.as_str()?)?;
    if let Some(orig) = origin {
        if orig.get("kind").and_then(Value::as_str) != Some("human") {
            return None;
        }
    }
    let blocks: Vec<Value> = match &content {
        Value::String(s) => vec![serde_json::json!({"type": "text", "text": s})],
        Value::Array(a) => a.clone(),
        _ => Vec::new(),
    };
    if blocks
        .iter()
        .any(|b| b.get("type").and_then(Value::as_str) == Some("tool_result"))
    {
        return None;
    }
    let texts: Vec<String> = blocks
        .iter()
        .map(|b| {
            b.get("text")
                .and_then(Value::as_str)
                .map(|t| t.trim_start().to_string())
                .unwrap_or_default()
        })
        .collect();
    let media = blocks
        .iter()
        .any(|b| matches!(b.get("type").and_then(Value::as_str), Some("image" | "document")));
    let prompt_like = if origin.is_some() {
        texts.iter().any(|t| !t.is_empty()) && !texts.iter().any(|t| t.starts_with("<command-name>"))
    } else {
        let probe = serde_json::json!({"type": "user", "message": {"content": content}});
        scan::prompt_of(&probe, &mut None).is_some() || texts.iter().any(|t| t.starts_with("<command-message>"))
    };
    if prompt_like || media {
        Some(ts)
    } else {
        None
    }
}

fn archived_state(mark: Option<(bool, i64)>, ht: &HeadTail) -> Option<bool> {
    let (archived, at) = mark?;
    if !archived {
        return Some(false);
    }
    Some(!(prompt_after(&ht.tail, at) || (ht.head != ht.tail && prompt_after(&ht.head, at))))
}

/// Builds the metadata (official `Na`); `None` for a sidechain or a session with nothing to show.
pub(crate) fn build(
    session_id: &str,
    ht: &HeadTail,
    project_path: Option<&str>,
    sidecar: Option<String>,
    mark: Option<(bool, i64)>,
) -> Option<SessionInfo> {
    if super::surrogate::has_lone(&ht.head) || (ht.tail != ht.head && super::surrogate::has_lone(&ht.tail)) {
        // Lone surrogate escapes (which `JSON.parse` takes): read with them masked as characters
        // Rust holds; the caller writes them back into the JSON text.
        let masked = HeadTail {
            head: super::surrogate::mask(&ht.head),
            tail: super::surrogate::mask(&ht.tail),
            mtime_ms: ht.mtime_ms,
            size: ht.size,
        };
        return build_from(session_id, &masked, project_path, sidecar, mark).map(|i| SessionInfo { masked: true, ..i });
    }
    build_from(session_id, ht, project_path, sidecar, mark)
}

fn build_from(
    session_id: &str,
    ht: &HeadTail,
    project_path: Option<&str>,
    sidecar: Option<String>,
    mark: Option<(bool, i64)>,
) -> Option<SessionInfo> {
    let first_line = ht.head.split('\n').next().unwrap_or("");
    if has(first_line, "\"isSidechain\":true") || has(first_line, "\"isSidechain\": true") {
        return None;
    }
    let title = non_empty(scan::titled(&ht.tail, "custom-title"))
        .or_else(|| non_empty(sidecar))
        .or_else(|| non_empty(scan::titled(&ht.head, "custom-title")))
        .or_else(|| non_empty(scan::titled(&ht.tail, "ai-title")))
        .or_else(|| non_empty(scan::titled(&ht.head, "ai-title")));
    let first_prompt = non_empty(Some(scan::first_prompt(&ht.head)));
    let created_at = scan::first_string(&ht.head, "timestamp").and_then(|t| parse_iso_ms(&t));
    let summary = title
        .clone()
        .or_else(|| non_empty(scan::last_entry_field(&ht.tail, "lastPrompt", None, Mode::Plain)))
        .or_else(|| non_empty(scan::last_entry_field(&ht.tail, "summary", None, Mode::Plain)))
        .or_else(|| first_prompt.clone())
        .or_else(|| non_empty(Some(scan::attachment_prompt(&ht.head).to_string())))?;
    let git_branch = non_empty(scan::last_string(&ht.tail, "gitBranch"))
        .or_else(|| non_empty(scan::first_string(&ht.head, "gitBranch")));
    let cwd = non_empty(scan::last_entry_field(
        &ht.tail,
        "relocatedCwd",
        Some("relocated"),
        Mode::Plain,
    ))
    .or_else(|| non_empty(scan::first_string(&ht.head, "cwd")))
    .or_else(|| non_empty(project_path.map(str::to_string)));
    let tag = non_empty(scan::titled(&ht.tail, "tag"));
    Some(SessionInfo {
        session_id: session_id.to_string(),
        summary,
        last_modified: ht.mtime_ms,
        file_size: ht.size,
        custom_title: title,
        first_prompt,
        git_branch,
        cwd,
        tag,
        created_at,
        archived: archived_state(mark, ht),
        masked: false,
    })
}

/// The metadata of one transcript file, with the sidecar title and archive mark beside it.
pub(crate) fn describe(
    path: &Path,
    session_id: &str,
    ht: &HeadTail,
    project_path: Option<&str>,
) -> Option<SessionInfo> {
    let sidecar = if scan::titled(&ht.tail, "custom-title").is_none() {
        sidecar_title(path, session_id)
    } else {
        None
    };
    build(session_id, ht, project_path, sidecar, archive_mark(path, session_id))
}

/// The id of the session this one continued in, when its last real entry is a `continued-in`
/// marker (official `JB`).
pub(crate) fn continued_in(tail: &str) -> Option<String> {
    const MARK: &str = "\"type\":\"continued-in\"";
    if !has(tail, MARK) {
        return None;
    }
    for line in tail.rsplit('\n') {
        let is_mark = has(line, MARK);
        let is_msg = has(line, "\"type\":\"user\"") || has(line, "\"type\":\"assistant\"");
        if !(is_mark || is_msg) {
            continue;
        }
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if is_mark && v.get("type").and_then(Value::as_str) == Some("continued-in") {
            if let Some(id) = v.get("continuedInSessionId").and_then(Value::as_str) {
                return super::paths::is_uuid(id).then(|| id.to_string());
            }
        }
        if is_msg && finished_message(&v) {
            return None;
        }
    }
    None
}

fn finished_message(v: &Value) -> bool {
    if v.get("type").and_then(Value::as_str) == Some("assistant") {
        let err = v.get("isApiErrorMessage");
        let err_ok = err.is_none_or(|e| e.is_boolean());
        let msg = v.get("message");
        let msg_ok = msg.is_none_or(|m| m.is_object());
        if err_ok && msg_ok {
            return err != Some(&Value::Bool(true))
                && msg.and_then(|m| m.get("stop_reason")).is_some_and(Value::is_string);
        }
    }
    v.is_object() && scan::prompt_of(v, &mut None).is_some()
}

/// Whether the continuation's transcript exists and holds messages.
pub(crate) fn continuation_exists(transcript: &Path, id: &str) -> bool {
    let Some(dir) = transcript.parent() else { return false };
    let path = dir.join(format!("{id}.jsonl"));
    let Some(ht) = read_head_tail(&path, false) else {
        return false;
    };
    const KEY: &str = "\"parentUuid\":";
    if has(&ht.head, KEY) || has(&ht.tail, KEY) {
        return true;
    }
    if ht.size <= WINDOW as u64 {
        return false;
    }
    let Some(mut f) = open_regular(&path) else { return false };
    let mut buf = vec![0u8; 1 << 20];
    let mut carry: Vec<u8> = Vec::new();
    let mut read = 0usize;
    while read < 16 << 20 {
        let Ok(n) = f.read(&mut buf) else { return false };
        if n == 0 {
            return false;
        }
        carry.extend_from_slice(&buf[..n]);
        if memchr::memmem::find(&carry, KEY.as_bytes()).is_some() {
            return true;
        }
        let keep = carry.len().saturating_sub(KEY.len());
        carry.drain(..keep);
        read += n;
    }
    true
}

/// Whether a project folder holds a session that ran in the project path whose sanitized form
/// is `wanted` (used for folders whose names were cut at 200 characters; official `ac`). The
/// session's cwd is compared as written, without case on Windows.
pub(crate) fn folder_has_cwd(dir: &Path, wanted: &str, windows: bool) -> bool {
    for ent in super::paths::read_dir_sorted(dir) {
        let name = ent.file_name();
        if !name.to_string_lossy().ends_with(".jsonl") || !ent.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        let Some(ht) = read_head_tail(&ent.path(), false) else {
            continue;
        };
        let cwd = scan::last_entry_field(&ht.tail, "relocatedCwd", Some("relocated"), Mode::Plain)
            .or_else(|| scan::first_line_field(&ht.head, "cwd"));
        if let Some(c) = cwd {
            if super::paths::fold(&super::paths::sanitize(&c), windows) == super::paths::fold(wanted, windows) {
                return true;
            }
        }
    }
    false
}

/// The project folders a project path maps to (official `_r`): its folder; with a folder-name
/// override, also the folder its own name would give; for paths whose name was cut at 200
/// characters, folders with the same prefix whose sessions ran in that path. On Windows names
/// are compared without case.
pub(crate) fn project_dirs_for(cx: &Context, path: &str, projects: &Path) -> Vec<PathBuf> {
    project_dirs_with(cx, path, projects, WINDOWS)
}

pub fn project_dirs_with(cx: &Context, path: &str, projects: &Path, windows: bool) -> Vec<PathBuf> {
    let key = project_key(path);
    let name = cx.folder_name(path);
    let exact = projects.join(&name);
    let mut out = Vec::new();
    if exact.is_dir() {
        out.push(exact.clone());
    }
    if name != key {
        let own = projects.join(&key);
        if own.is_dir() {
            out.push(own);
        }
        return out;
    }
    if key.len() <= MAX_KEY {
        return out;
    }
    let prefix = fold(&format!("{}-", &key[..MAX_KEY]), windows);
    let exact_folded = fold(&exact.to_string_lossy(), windows);
    let wanted = sanitize(path);
    for ent in read_dir_sorted(projects) {
        let name = ent.file_name().to_string_lossy().into_owned();
        let p = ent.path();
        if !fold(&name, windows).starts_with(&prefix)
            || !p.is_dir()
            || fold(&p.to_string_lossy(), windows) == exact_folded
        {
            continue;
        }
        if folder_has_cwd(&p, &wanted, windows) {
            out.push(p);
        }
    }
    out
}

/// The folder a session ran in, as the listing reads it: the last relocation, else the first
/// `cwd` of the head.
pub(crate) fn session_cwd(ht: &HeadTail) -> Option<String> {
    scan::last_entry_field(&ht.tail, "relocatedCwd", Some("relocated"), Mode::Plain)
        .or_else(|| scan::first_line_field(&ht.head, "cwd"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_folder_names_match_without_case_on_windows() {
        let base = std::env::temp_dir().join(format!("paths-case-{}", std::process::id()));
        let long = format!("/{}", "Ab".repeat(120));
        let key = super::super::paths::project_key(&long);
        let other = base.join(format!("{}-zz", key[..super::super::paths::MAX_KEY].to_lowercase()));
        std::fs::create_dir_all(&other).unwrap();
        let line = format!(
            "{{\"type\":\"user\",\"cwd\":{}}}\n",
            serde_json::Value::String(long.to_uppercase())
        );
        std::fs::write(other.join("0a1b2c3d-0000-4000-8000-00000000000a.jsonl"), line).unwrap();
        let cx = Context::default();
        assert_eq!(project_dirs_with(&cx, &long, &base, true), vec![other.clone()]);
        assert!(project_dirs_with(&cx, &long, &base, false).is_empty());
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn iso() {
        assert_eq!(parse_iso_ms("1970-01-01T00:00:00.000Z"), Some(0));
        assert_eq!(parse_iso_ms("2026-01-02T03:04:05.678Z"), Some(1767323045678));
        assert_eq!(parse_iso_ms("2026-01-02T04:04:05.678+01:00"), Some(1767323045678));
        assert_eq!(parse_iso_ms("nope"), None);
    }
}
