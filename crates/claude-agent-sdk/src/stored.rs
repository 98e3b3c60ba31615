//! The session functions against a [`SessionStore`] instead of the local transcripts (the
//! TypeScript SDK's `{ sessionStore }` variants), copying a local session into a store
//! ([`import_session_to_store`]), and the summary a store keeps per session
//! ([`fold_session_summary`]). Re-exported from [`store`](crate::store).
//!
//! Reading a stored session runs the same engine code as reading a local one (the transcript's
//! JSONL text is built from the store's entries); the results match the TypeScript SDK's on the
//! same entries, field for field.

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use crate::error::{Error, Result};
use crate::raw;
use crate::sessions::{self, ForkSession, ListSessions, SessionInfo, SessionMessage, SessionMessages};
use crate::store::api::{SessionKey, SessionStore, SessionSummaryEntry, StoredSession};

/// Entries per [`SessionStore::append`] call when importing (the TypeScript SDK's default).
pub const IMPORT_BATCH: usize = 500;
/// An import's batch also ends once its lines reach this many UTF-16 code units (1 MiB), as the
/// TypeScript SDK counts them.
const IMPORT_BATCH_CHARS: usize = 1 << 20;

/// How [`import_session_to_store`] imports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportSession {
    /// The project folder to find the session in (default: every project's); also the project
    /// whose [`project_key`](crate::store::project_key) the entries are stored under (default:
    /// the current directory's).
    pub dir: Option<PathBuf>,
    /// The subagents' transcripts too, each under its own subpath, with its metadata as a last
    /// `agent_metadata` entry (default: yes).
    pub include_subagents: bool,
    /// At most this many entries per [`SessionStore::append`] call (default and `0`:
    /// [`IMPORT_BATCH`]). A batch also ends at 1 MiB of JSON text.
    pub batch_size: usize,
}

impl Default for ImportSession {
    fn default() -> Self {
        Self {
            dir: None,
            include_subagents: true,
            batch_size: IMPORT_BATCH,
        }
    }
}

fn store_error(what: &str, e: crate::store::api::StoreError) -> Error {
    Error::Sessions(format!("{what} failed: {e}"))
}

/// The store's project key for `dir` (the current directory when `None`), as the TypeScript SDK
/// derives it: the real path's folder name, or `CLAUDE_CODE_PROJECT_DIR_NAME` where the CLI
/// takes it.
fn key_of(dir: &Option<PathBuf>) -> Result<(String, PathBuf)> {
    let cwd = resolved(dir)?;
    let key = crate::store::api::project_key(&cwd, sessions::dir_name_override());
    Ok((key, cwd))
}

/// `dir` (or the current directory) made absolute, its real path where it exists.
fn resolved(dir: &Option<PathBuf>) -> Result<PathBuf> {
    let here = std::env::current_dir()
        .map_err(|e| Error::InvalidOption(format!("Invalid `dir`: the current directory cannot be read: {e}")))?;
    let p = match dir.as_deref().filter(|d| !d.as_os_str().is_empty()) {
        Some(d) => here.join(d),
        None => here,
    };
    Ok(std::fs::canonicalize(&p).unwrap_or_else(|_| normalize(&p)))
}

/// `.` and `..` resolved lexically (`path.resolve` of a path that does not exist).
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            c => out.push(c.as_os_str()),
        }
    }
    out
}

fn to_jsonl(entries: &[Value]) -> String {
    let mut out = String::new();
    for e in entries {
        out.push_str(&e.to_string());
        out.push('\n');
    }
    out
}

/// A stored session's entries as JSONL text; `None` when the store has none.
async fn load_text(store: &dyn SessionStore, key: &SessionKey) -> Result<Option<String>> {
    let entries = store
        .load(key)
        .await
        .map_err(|e| store_error(&format!("SessionStore.load() for session {}", key.session_id), e))?;
    Ok(entries.filter(|e| !e.is_empty()).map(|e| to_jsonl(&e)))
}

/// A session's listing entry from its JSONL text (`mtime`: its last change).
async fn info_from_text(session_id: &str, text: String, mtime: i64) -> Result<Option<SessionInfo>> {
    let id = session_id.to_string();
    Ok(sessions::blocking("infoFromText", move || {
        Ok(raw::sessions::info_from_text(&id, &text, mtime))
    })
    .await?
    .map(SessionInfo::from))
}

/// `limit` and `offset` as the engine takes them.
fn page_of(options: &SessionMessages) -> raw::sessions::Page {
    let n = |v: Option<usize>| v.map(|v| i64::try_from(v).unwrap_or(i64::MAX));
    raw::sessions::Page {
        limit: n(options.limit),
        offset: n(options.offset),
        pieces: false,
    }
}

/// The `timestamp` of the text's last line, else now (milliseconds since the epoch).
fn last_timestamp(text: &str) -> i64 {
    let t = text.trim_end();
    let line = &t[t.rfind('\n').map_or(0, |i| i + 1)..];
    serde_json::from_str::<Value>(line)
        .ok()
        .and_then(|v| {
            v.get("timestamp")
                .and_then(Value::as_str)
                .and_then(agent_core::sessions::info::parse_iso_ms)
        })
        .unwrap_or_else(now_ms)
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// One page of `list`, as the TypeScript SDK pages (a `limit` of 0 means none).
fn page<T>(mut list: Vec<T>, limit: Option<usize>, offset: usize) -> Vec<T> {
    let start = offset.min(list.len());
    list.drain(..start);
    if let Some(limit) = limit.filter(|l| *l > 0) {
        list.truncate(limit);
    }
    list
}

/// One session's listing entry as a store answers it: `None` for a session the store does not
/// hold or that has nothing to show; an entry with an empty summary when loading it failed.
struct Row {
    session_id: String,
    mtime: i64,
    /// `None`: still to be loaded; `Some(None)`: nothing to show.
    info: Option<Option<SessionInfo>>,
}

fn string(d: &Map<String, Value>, k: &str) -> Option<String> {
    d.get(k)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// A listing entry from a store's summary (`None` for a sidechain or a session with nothing to
/// show), as the TypeScript SDK reads its own summaries.
fn info_from_summary(s: &SessionSummaryEntry, cwd: &str) -> Option<SessionInfo> {
    let d = &s.data;
    if d.get("isSidechain") == Some(&Value::Bool(true)) {
        return None;
    }
    let first_prompt = string(
        d,
        if d.get("firstPromptLocked") == Some(&Value::Bool(true)) {
            "firstPrompt"
        } else {
            "commandFallback"
        },
    );
    let custom_title = string(d, "customTitle").or_else(|| string(d, "aiTitle"));
    let summary = custom_title
        .clone()
        .or_else(|| string(d, "lastPrompt"))
        .or_else(|| string(d, "summaryHint"))
        .or_else(|| first_prompt.clone())?;
    Some(SessionInfo {
        session_id: s.session_id.clone(),
        summary,
        last_modified: s.mtime,
        file_size: None,
        custom_title,
        first_prompt,
        git_branch: string(d, "gitBranch"),
        cwd: string(d, "cwd").or_else(|| Some(cwd.to_string()).filter(|c| !c.is_empty())),
        tag: string(d, "tag"),
        created_at: d
            .get("createdAt")
            .and_then(|v| v.as_i64().or_else(|| v.as_f64().map(|f| f as i64))),
        archived: None,
    })
}

/// Loads each row's session and reads its listing entry, all at once; a load that fails gives
/// an entry with an empty summary, as the TypeScript SDK's does.
async fn infos_from_loads(
    store: &dyn SessionStore,
    rows: &[(String, i64)],
    project_key: &str,
    cwd: &str,
) -> Vec<SessionInfo> {
    let loads = rows.iter().map(|(id, mtime)| async move {
        let key = SessionKey::new(project_key, id.clone());
        let text = load_text(store, &key).await?;
        let Some(text) = text else { return Ok(None) };
        let Some(mut info) = info_from_text(id, text, *mtime).await? else {
            return Ok(None);
        };
        if info.cwd.is_none() && !cwd.is_empty() {
            info.cwd = Some(cwd.to_string());
        }
        info.last_modified = *mtime;
        Ok::<_, Error>(Some(info))
    });
    let settled = futures::future::join_all(loads).await;
    settled
        .into_iter()
        .zip(rows)
        .filter_map(|(r, (id, mtime))| match r {
            Ok(info) => info,
            Err(_) => Some(SessionInfo {
                session_id: id.clone(),
                summary: String::new(),
                last_modified: *mtime,
                file_size: None,
                custom_title: None,
                first_prompt: None,
                git_branch: None,
                cwd: None,
                tag: None,
                created_at: None,
                archived: None,
            }),
        })
        .collect()
}

/// The store's sessions of a project ([`ListSessions::dir`], else the current directory's),
/// newest first; [`ListSessions::limit`] and [`ListSessions::offset`] page them (the worktree and
/// programmatic filters apply to local transcripts only). With
/// [`list_session_summaries`](SessionStore::list_session_summaries) the entries come from the
/// summaries, and only sessions whose summary is missing or older than
/// [`list_sessions`](SessionStore::list_sessions) says are loaded; otherwise each session of the
/// page is loaded. A store with neither is an error.
pub async fn list_sessions(store: &dyn SessionStore, options: ListSessions) -> Result<Vec<SessionInfo>> {
    let (key, cwd) = key_of(&options.dir)?;
    let cwd = cwd.to_string_lossy().into_owned();
    let offset = options.offset.unwrap_or(0);
    if let Some(summaries) = store.list_session_summaries(&key) {
        let summaries = summaries
            .await
            .map_err(|e| store_error("SessionStore.listSessionSummaries()", e))?;
        let listed: Option<Vec<StoredSession>> = match store.list_sessions(&key) {
            Some(l) => Some(l.await.map_err(|e| store_error("SessionStore.listSessions()", e))?),
            None => None,
        };
        // By id, the last listing of an id winning, in the order ids were first listed (a JS Map).
        let listed: Option<Vec<(String, i64)>> = listed.map(|l| {
            let mut out: Vec<(String, i64)> = Vec::with_capacity(l.len());
            for s in l {
                match out.iter_mut().find(|(id, _)| *id == s.session_id) {
                    Some(row) => row.1 = s.mtime,
                    None => out.push((s.session_id, s.mtime)),
                }
            }
            out
        });
        let listed_mtime = |id: &str| {
            listed
                .as_ref()
                .and_then(|l| l.iter().find(|(i, _)| i == id).map(|(_, m)| *m))
        };
        let mut rows = Vec::new();
        for s in &summaries {
            let l = listed_mtime(&s.session_id);
            if listed.is_some() && l.is_none() {
                continue;
            }
            let stale = l.is_some_and(|m| s.mtime < m);
            rows.push(Row {
                session_id: s.session_id.clone(),
                mtime: if stale { l.unwrap_or(s.mtime) } else { s.mtime },
                info: if stale { None } else { Some(info_from_summary(s, &cwd)) },
            });
        }
        if let Some(listed) = &listed {
            for (id, mtime) in listed {
                if !summaries.iter().any(|s| &s.session_id == id) {
                    rows.push(Row {
                        session_id: id.clone(),
                        mtime: *mtime,
                        info: None,
                    });
                }
            }
        }
        rows.sort_by_key(|r| std::cmp::Reverse(r.mtime));
        let mut rows = page(rows, options.limit, offset);
        let missing: Vec<(String, i64)> = rows
            .iter()
            .filter(|r| r.info.is_none())
            .map(|r| (r.session_id.clone(), r.mtime))
            .collect();
        if !missing.is_empty() {
            let mut found = infos_from_loads(store, &missing, &key, &cwd).await;
            for r in rows.iter_mut().filter(|r| r.info.is_none()) {
                let at = found.iter().position(|i| i.session_id == r.session_id);
                r.info = Some(at.map(|i| found.swap_remove(i)));
            }
        }
        return Ok(rows.into_iter().filter_map(|r| r.info.flatten()).collect());
    }
    let Some(list) = store.list_sessions(&key) else {
        return Err(Error::Sessions("sessionStore.listSessions is not implemented -- cannot list sessions. Provide a store with a listSessions() method.".into()));
    };
    let mut rows: Vec<(String, i64)> = list
        .await
        .map_err(|e| store_error("SessionStore.listSessions()", e))?
        .into_iter()
        .map(|s| (s.session_id, s.mtime))
        .collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.1));
    let rows = page(rows, options.limit, offset);
    Ok(infos_from_loads(store, &rows, &key, &cwd).await)
}

/// A stored session's listing entry (its last change: the last entry's `timestamp`); `None`
/// when the store does not hold it or it has nothing to show.
pub async fn get_session_info(
    store: &dyn SessionStore,
    session_id: &str,
    dir: Option<PathBuf>,
) -> Result<Option<SessionInfo>> {
    if !raw::is_session_id(session_id) {
        return Ok(None);
    }
    let (key, _) = key_of(&dir)?;
    let Some(text) = load_text(store, &SessionKey::new(key, session_id)).await? else {
        return Ok(None);
    };
    let mtime = last_timestamp(&text);
    info_from_text(session_id, text, mtime).await
}

/// A stored session's conversation, as [`sessions::get_session_messages`] reads a local one.
pub async fn get_session_messages(
    store: &dyn SessionStore,
    session_id: &str,
    options: SessionMessages,
) -> Result<Vec<SessionMessage>> {
    if !raw::is_session_id(session_id) {
        return Ok(vec![]);
    }
    let (key, _) = key_of(&options.dir)?;
    let Some(text) = load_text(store, &SessionKey::new(key, session_id)).await? else {
        return Ok(vec![]);
    };
    let (p, system) = (page_of(&options), options.include_system_messages);
    let out = sessions::blocking("messagesFromText", move || {
        Ok(raw::sessions::messages_from_text(&text, system, &p))
    })
    .await?;
    sessions::parse_messages("messagesFromText", &out)
}

/// The ids of a stored session's subagents (from the subpaths
/// [`list_subkeys`](SessionStore::list_subkeys) gives, `subagents/.../agent-<id>`). A store
/// without `list_subkeys` is an error.
pub async fn list_subagents(store: &dyn SessionStore, session_id: &str, dir: Option<PathBuf>) -> Result<Vec<String>> {
    if !raw::is_session_id(session_id) {
        return Ok(vec![]);
    }
    let (key, _) = key_of(&dir)?;
    let main = SessionKey::new(key, session_id);
    let Some(subkeys) = store.list_subkeys(&main) else {
        return Err(Error::Sessions("sessionStore.listSubkeys is not implemented -- cannot list subagents. Provide a store with a listSubkeys() method.".into()));
    };
    let subkeys = subkeys
        .await
        .map_err(|e| store_error("SessionStore.listSubkeys()", e))?;
    let mut ids: Vec<String> = Vec::new();
    for k in &subkeys {
        if !k.starts_with("subagents/") {
            continue;
        }
        let last = k.rsplit('/').next().unwrap_or("");
        if let Some(id) = last.strip_prefix("agent-") {
            if !ids.iter().any(|i| i == id) {
                ids.push(id.to_string());
            }
        }
    }
    Ok(ids)
}

/// A stored subagent's conversation ([`SessionMessages::include_system_messages`] does not
/// apply): the subpath [`list_subkeys`](SessionStore::list_subkeys) names for it (else
/// `subagents/agent-<id>`), its `agent_metadata` entry saying which tool use started it.
pub async fn get_subagent_messages(
    store: &dyn SessionStore,
    session_id: &str,
    agent_id: &str,
    options: SessionMessages,
) -> Result<Vec<SessionMessage>> {
    if !raw::is_session_id(session_id) || agent_id.is_empty() {
        return Ok(vec![]);
    }
    let (key, _) = key_of(&options.dir)?;
    let main = SessionKey::new(key, session_id);
    let wanted = format!("agent-{agent_id}");
    let subpath = match store.list_subkeys(&main) {
        Some(subkeys) => {
            let subkeys = subkeys
                .await
                .map_err(|e| store_error("SessionStore.listSubkeys()", e))?;
            match subkeys
                .into_iter()
                .find(|k| k.starts_with("subagents/") && k.rsplit('/').next() == Some(wanted.as_str()))
            {
                Some(k) => k,
                None => return Ok(vec![]),
            }
        }
        None => format!("subagents/{wanted}"),
    };
    let sub = SessionKey {
        subpath: Some(subpath),
        ..main
    };
    let entries = store
        .load(&sub)
        .await
        .map_err(|e| store_error(&format!("SessionStore.load() for session {session_id}"), e))?
        .unwrap_or_default();
    let is_meta = |e: &Value| e.get("type").and_then(Value::as_str) == Some("agent_metadata");
    let meta = entries.iter().rev().find(|e| is_meta(e)).cloned();
    let rest: Vec<Value> = entries.into_iter().filter(|e| !is_meta(e)).collect();
    if rest.is_empty() {
        return Ok(vec![]);
    }
    let field = |k: &str| {
        meta.as_ref()
            .and_then(|m| m.get(k))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let (text, tool_use_id, parent, p) = (
        to_jsonl(&rest),
        field("toolUseId"),
        field("parentAgentId"),
        page_of(&options),
    );
    let out = sessions::blocking("subagentMessagesFromText", move || {
        Ok(raw::sessions::subagent_messages_from_text(
            &text,
            tool_use_id.as_deref(),
            parent.as_deref(),
            &p,
        ))
    })
    .await?;
    sessions::parse_messages("subagentMessagesFromText", &out)
}

/// Appends a `custom-title` or `tag` entry (`kind`, with `field: value`) to a stored session, as
/// the TypeScript SDK appends them to a store.
async fn append_marker(
    store: &dyn SessionStore,
    session_id: &str,
    dir: &Option<PathBuf>,
    kind: &str,
    field: &str,
    value: Value,
) -> Result<()> {
    let (key, _) = key_of(dir)?;
    let mut f = Map::new();
    f.insert("type".into(), json!(kind));
    f.insert(field.into(), value);
    f.insert("sessionId".into(), json!(session_id));
    f.insert("uuid".into(), json!(raw::new_uuid()));
    f.insert("timestamp".into(), json!(agent_core::sessions::write::now_iso()));
    store
        .append(&SessionKey::new(key, session_id), &[Value::Object(f)])
        .await
        .map_err(|e| store_error("SessionStore.append()", e))
}

/// Gives a stored session a title (trimmed; it must not be empty): one `custom-title` entry
/// appended.
pub async fn rename_session(
    store: &dyn SessionStore,
    session_id: &str,
    title: &str,
    dir: Option<PathBuf>,
) -> Result<()> {
    sessions::check_id(session_id)?;
    let title = title.trim();
    if title.is_empty() {
        return Err(Error::InvalidOption("title must be non-empty".into()));
    }
    append_marker(store, session_id, &dir, "custom-title", "customTitle", json!(title)).await
}

/// Tags a stored session (`None` clears the tag), with the characters
/// [`sessions::tag_session`] removes removed: one `tag` entry appended.
pub async fn tag_session(
    store: &dyn SessionStore,
    session_id: &str,
    tag: Option<&str>,
    dir: Option<PathBuf>,
) -> Result<()> {
    sessions::check_id(session_id)?;
    let tag = sessions::clean_tag(tag)?;
    append_marker(store, session_id, &dir, "tag", "tag", json!(tag)).await
}

/// Deletes a stored session with [`delete`](SessionStore::delete); nothing when the store has
/// no `delete` (an append-only store), as in the TypeScript SDK.
pub async fn delete_session(store: &dyn SessionStore, session_id: &str, dir: Option<PathBuf>) -> Result<()> {
    sessions::check_id(session_id)?;
    let (key, _) = key_of(&dir)?;
    match store.delete(&SessionKey::new(key, session_id)) {
        Some(f) => f.await.map_err(|e| store_error("SessionStore.delete()", e)),
        None => Ok(()),
    }
}

/// Forks a stored session as [`sessions::fork_session`] forks a local one, the fork appended to
/// the store in one call; its id.
pub async fn fork_session(store: &dyn SessionStore, session_id: &str, options: ForkSession) -> Result<String> {
    sessions::check_id(session_id)?;
    let (key, _) = key_of(&options.dir)?;
    let entries = store
        .load(&SessionKey::new(key.clone(), session_id))
        .await
        .map_err(|e| store_error(&format!("SessionStore.load() for session {session_id}"), e))?;
    let Some(entries) = entries.filter(|e| !e.is_empty()) else {
        return Err(Error::Sessions(format!("Session {session_id} not found")));
    };
    let title = options
        .title
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string);
    let (id, text, up_to) = (session_id.to_string(), to_jsonl(&entries), options.up_to_message_id);
    let forked = sessions::blocking("forkText", move || {
        raw::sessions::fork_text(&id, &text, up_to.as_deref(), title.as_deref())
    })
    .await?;
    let entries = forked
        .entries
        .iter()
        .map(|e| serde_json::from_str(e))
        .collect::<serde_json::Result<Vec<Value>>>()
        .map_err(|e| Error::Protocol(format!("a forked entry is not JSON: {e}")))?;
    store
        .append(&SessionKey::new(key, forked.session_id.clone()), &entries)
        .await
        .map_err(|e| store_error("SessionStore.append()", e))?;
    Ok(forked.session_id)
}

/// Appends `entries` in batches of at most `batch` entries and 1 MiB of text (each entry's
/// length as its line in the transcript has it, in UTF-16 code units, as the TypeScript SDK
/// counts).
async fn append_batched(store: &dyn SessionStore, key: &SessionKey, entries: Vec<String>, batch: usize) -> Result<()> {
    let mut pending: Vec<Value> = Vec::new();
    let mut chars = 0usize;
    for line in entries {
        chars += line.encode_utf16().count();
        pending.push(
            serde_json::from_str(&line)
                .map_err(|e| Error::Protocol(format!("an exported transcript entry is not JSON: {e}")))?,
        );
        if pending.len() >= batch || chars >= IMPORT_BATCH_CHARS {
            store
                .append(key, &pending)
                .await
                .map_err(|e| store_error("SessionStore.append()", e))?;
            pending.clear();
            chars = 0;
        }
    }
    if !pending.is_empty() {
        store
            .append(key, &pending)
            .await
            .map_err(|e| store_error("SessionStore.append()", e))?;
    }
    Ok(())
}

/// Copies a local session (its transcript's entries, line by line; lines that are not JSON are
/// left out) into `store`, under the project key of [`ImportSession::dir`], in batches of
/// [`ImportSession::batch_size`] entries; then, unless told not to, each subagent's transcript
/// under its subpath (`subagents/agent-<id>`), followed by its metadata as an `agent_metadata`
/// entry. The TypeScript SDK's `importSessionToStore`: a store that treats `uuid` as an
/// idempotency key can take the same session again.
pub async fn import_session_to_store(session_id: &str, store: &dyn SessionStore, options: ImportSession) -> Result<()> {
    sessions::check_id(session_id)?;
    let exported = sessions::ConfigDir::from_env()
        .export(session_id, &options.dir, options.include_subagents)
        .await?;
    let Some(exported) = exported else {
        return Err(Error::Sessions(format!("Session {session_id} not found")));
    };
    let (key, _) = key_of(&options.dir)?;
    let batch = if options.batch_size > 0 {
        options.batch_size
    } else {
        IMPORT_BATCH
    };
    let main = SessionKey::new(key, session_id);
    append_batched(store, &main, exported.main, batch).await?;
    if !options.include_subagents {
        return Ok(());
    }
    for sub in exported.subagents {
        let key = SessionKey {
            subpath: Some(sub.subpath),
            ..main.clone()
        };
        append_batched(store, &key, sub.entries, batch).await?;
        // Metadata that is a JSON object (the engine passes on only what parses).
        if let Some(meta) = sub
            .meta
            .and_then(|m| serde_json::from_str::<Map<String, Value>>(&m).ok())
        {
            let mut entry = Map::new();
            entry.insert("type".into(), json!("agent_metadata"));
            entry.extend(meta);
            store
                .append(&key, &[Value::Object(entry)])
                .await
                .map_err(|e| store_error("SessionStore.append()", e))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_as_the_typescript_sdk() {
        let v = || (0..5).collect::<Vec<_>>();
        assert_eq!(page(v(), Some(2), 1), [1, 2]);
        assert_eq!(page(v(), Some(0), 3), [3, 4], "a limit of 0 is none");
        assert_eq!(page(v(), None, 9), Vec::<i32>::new());
    }
}
