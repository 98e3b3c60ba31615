//! Session transcripts on disk, read and written without the CLI: the engine side of
//! `listSessions`, `getSessionInfo`, `getSessionMessages`, `listSubagents`,
//! `getSubagentMessages`, `renameSession`, `tagSession`, `archiveSession`, `deleteSession`,
//! `forkSession` and the local half of `importSessionToStore`.
//!
//! - [`paths`]: config dir, projects folder, project folder names, UUID checks, git worktrees
//!   ([`gitmeta`]: the worktree list read from git's files where that is git's answer for sure;
//!   [`worktree_list`]: else the `git worktree list` child, as the official starts it).
//! - [`scan`]: field search in head/tail text (no JSON tree per line).
//! - [`info`]: one session's metadata from its first and last 64 KiB.
//! - [`list`]: which transcripts a listing holds, in which order; finding one session.
//! - [`transcript`]: transcript lines parsed to the few fields the chain needs.
//! - [`shared`]: work shared with a helper thread, in parts claimed from both ends.
//! - [`chain`]: the conversation chain (compaction, leaf, split assistant messages).
//! - [`messages`]: the `SessionMessage` output of a chain, subagents.
//! - [`mutate`], [`fork`], [`write`]: crash-safe changes.
//! - [`materialize`]: a stored session written out for the CLI to resume ([`keychain`]: the
//!   macOS login keychain as its credentials' source).
//!
//! The functions below are the entry points the bindings use: typed arguments in, typed results
//! out (the messages as the JSON text of their array, written directly from the transcript's
//! text). Each takes the [`Context`] it looks in (config folder, folder-name override, file-time
//! rounding). They do blocking file I/O: call them off any event loop thread.

pub mod chain;
pub mod cut;
pub mod dataflow;
mod deep;
pub(crate) mod fence;
pub mod fork;
#[cfg(unix)]
pub(crate) mod gitmeta;
pub mod hidden;
pub mod info;
mod jstring;
pub mod keychain;
pub mod list;
pub mod materialize;
pub mod messages;
pub mod mutate;
pub mod paths;
pub mod precompact;
pub mod queued;
pub mod scan;
pub mod shared;
pub mod skim;
pub mod surrogate;
pub mod transcript;
pub mod voice;
pub(crate) mod worktree_list;
pub mod write;

use std::path::Path;

pub use info::SessionInfo;
pub use list::ListOptions;
pub use materialize::{Request as MaterializeRequest, Subagent as MaterializeSubagent};
pub use messages::Page;
pub use mutate::Failure;
pub use paths::Context;

/// The processors this process may run on, looked up once (on Linux the lookup reads the
/// cgroup's quota files: a few system calls each time).
pub(crate) fn cpus() -> usize {
    static CPUS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CPUS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Lines of a file that parse as JSON (for importing into a store).
fn json_lines(path: &Path) -> Vec<String> {
    let Ok(bytes) = fence::read(path) else {
        return Vec::new();
    };
    let text = String::from_utf8_lossy(&bytes);
    text.split('\n')
        .map(str::trim)
        .filter(|l| !l.is_empty() && serde_json::from_str::<serde::de::IgnoredAny>(l).is_ok())
        .map(str::to_string)
        .collect()
}

/// Whether the official's `CLAUDE_CODE_DISABLE_PRECOMPACT_SKIP` (`1`, `true`, `yes` or `on`)
/// is unset in this process's environment: then a transcript over 5 MiB is read from its last
/// compaction boundary ([`messages`]' `precompact_skip`).
pub fn precompact_skip_from_env() -> bool {
    !std::env::var("CLAUDE_CODE_DISABLE_PRECOMPACT_SKIP")
        .is_ok_and(|v| matches!(v.trim().to_lowercase().as_str(), "1" | "true" | "yes" | "on"))
}

/// The sessions a listing holds, newest first (`listSessions`). An entry whose
/// [`SessionInfo::masked`] is set holds lone surrogates masked ([`surrogate`]).
pub fn list(cx: &Context, options: &ListOptions) -> Vec<SessionInfo> {
    list::list_sessions(cx, options)
}

/// One session's listing entry (`getSessionInfo`); `None` for a bad id or no such session.
pub fn info(cx: &Context, session_id: &str, dir: Option<&str>) -> Option<SessionInfo> {
    list::session_info(cx, session_id, dir)
}

/// A stored session's listing entry from its JSONL `text`, `mtime_ms` its last change.
pub fn info_from_text(session_id: &str, text: &str, mtime_ms: i64) -> Option<SessionInfo> {
    let b = text.as_bytes();
    let ht = info::HeadTail {
        head: String::from_utf8_lossy(&b[..b.len().min(info::WINDOW)]).into_owned(),
        tail: String::from_utf8_lossy(&b[b.len().saturating_sub(info::WINDOW)..]).into_owned(),
        mtime_ms,
        size: b.len() as u64,
    };
    info::build(session_id, &ht, None, None, None)
}

/// A session's conversation (`getSessionMessages`), as the JSON text of the messages' array
/// (arrays one per line with [`Page::pieces`]); `[]` for a bad id or no such session.
/// `precompact_skip`: read a transcript over 5 MiB from its last compaction boundary
/// ([`precompact_skip_from_env`]).
pub fn messages(
    cx: &Context,
    session_id: &str,
    dir: Option<&str>,
    include_system: bool,
    page: &Page,
    precompact_skip: bool,
) -> String {
    messages::session_messages(cx, session_id, dir, include_system, page, precompact_skip)
}

/// The conversation of a stored session's JSONL `text`, as [`messages`] gives it.
pub fn messages_from_text(text: &str, include_system: bool, page: &Page) -> String {
    messages::conversation_json(text, include_system, page)
}

/// The ids of a session's subagents (`listSubagents`).
pub fn subagents(cx: &Context, session_id: &str, dir: Option<&str>) -> Vec<String> {
    messages::list_subagents(cx, session_id, dir)
}

/// A subagent's conversation (`getSubagentMessages`), as [`messages`] gives it.
pub fn subagent_messages(cx: &Context, session_id: &str, agent_id: &str, dir: Option<&str>, page: &Page) -> String {
    messages::subagent_messages(cx, session_id, agent_id, dir, page)
}

/// The conversation of a stored subagent's JSONL `text`, attributed to the tool use that ran it
/// and its parent agent.
pub fn subagent_messages_from_text(
    text: &str,
    tool_use_id: Option<&str>,
    parent_agent_id: Option<&str>,
    page: &Page,
) -> String {
    messages::subagent_json(text, tool_use_id, parent_agent_id, page)
}

/// Appends one JSONL `line` (ended by the caller) to a session's transcript (`renameSession`,
/// `tagSession`).
pub fn append(cx: &Context, session_id: &str, dir: Option<&str>, line: &str) -> Result<(), Failure> {
    mutate::append_line(cx, session_id, dir, line)
}

/// Marks a session archived or not (`archiveSession`, `unarchiveSession`).
pub fn set_archived(cx: &Context, session_id: &str, dir: Option<&str>, archived: bool) -> Result<(), Failure> {
    mutate::set_archived(cx, session_id, dir, archived)
}

/// Deletes a session's transcript and folder (`deleteSession`).
pub fn delete(cx: &Context, session_id: &str, dir: Option<&str>) -> Result<(), Failure> {
    mutate::delete(cx, session_id, dir)
}

/// Forks a local session into a new transcript beside it (`forkSession`); the new id.
pub fn fork(
    cx: &Context,
    session_id: &str,
    dir: Option<&str>,
    up_to_message_id: Option<&str>,
    title: Option<&str>,
) -> Result<String, Failure> {
    fork::fork(cx, session_id, dir, up_to_message_id, title)
}

/// A fork of a stored session: its id and entries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Forked {
    /// The new session's id.
    pub session_id: String,
    /// Its entries, one JSON text each.
    pub entries: Vec<String>,
}

/// Forks a stored session from its JSONL `text` (`forkSession` with a store).
pub fn fork_text(
    session_id: &str,
    text: &str,
    up_to_message_id: Option<&str>,
    title: Option<&str>,
) -> Result<Forked, Failure> {
    let (session_id, text) = fork::build(session_id, text, up_to_message_id, title, fork::TitleFrom::Entries)?;
    Ok(Forked {
        session_id,
        entries: text.lines().map(str::to_string).collect(),
    })
}

/// Writes a stored session out for the CLI to resume ([`materialize`]).
pub fn materialize(request: &MaterializeRequest) -> Result<(), Failure> {
    materialize::materialize(request)
}

/// A local session's entries, for `importSessionToStore`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Export {
    /// The transcript's lines that are JSON.
    pub main: Vec<String>,
    /// The subagents' transcripts, when asked for.
    pub subagents: Vec<ExportedAgent>,
}

/// A subagent's transcript in an [`Export`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportedAgent {
    /// Where it is under the session's folder (`subagents/agent-<id>`, no `.jsonl`).
    pub subpath: String,
    /// Its lines that are JSON.
    pub entries: Vec<String>,
    /// Its `.meta.json` text, when that is JSON.
    pub meta: Option<String>,
}

/// A local session's transcript and (with `include_subagents`) its subagents' transcripts with
/// their metadata; `None` for a bad id or no such session.
pub fn export(cx: &Context, session_id: &str, dir: Option<&str>, include_subagents: bool) -> Option<Export> {
    let loc = mutate::locate(cx, session_id, dir)?;
    let mut out = Export {
        main: json_lines(&loc.path),
        subagents: Vec::new(),
    };
    if include_subagents {
        let base = loc.path.with_extension("");
        for (_, file) in messages::agent_files(&base.join("subagents")) {
            let rel = file
                .strip_prefix(&base)
                .map(|p| p.to_string_lossy().replace('\\', "/"))
                .unwrap_or_default();
            let subpath = rel.strip_suffix(".jsonl").unwrap_or(&rel).to_string();
            let meta = fence::read(&file.with_extension("meta.json"))
                .ok()
                .and_then(|b| String::from_utf8(b).ok())
                .filter(|t| serde_json::from_str::<serde::de::IgnoredAny>(t).is_ok());
            out.subagents.push(ExportedAgent {
                subpath,
                entries: json_lines(&file),
                meta,
            });
        }
    }
    Some(out)
}
