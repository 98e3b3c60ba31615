//! Past sessions, read and changed on disk without starting Claude Code: the CLI's JSONL
//! transcripts under `~/.claude/projects` (or `$CLAUDE_CONFIG_DIR/projects`), with the same
//! results as the TypeScript SDK's session functions (`listSessions`, `getSessionMessages`,
//! `renameSession`, `forkSession`, ...). Each function runs its file I/O on tokio's blocking
//! pool, so it must be called within a tokio runtime.
//!
//! ```no_run
//! use claude_agent_sdk::sessions::{self, ListSessions};
//!
//! # async fn run() -> Result<(), claude_agent_sdk::Error> {
//! for s in sessions::list_sessions(ListSessions { limit: Some(10), ..Default::default() }).await? {
//!     println!("{} {}", s.session_id, s.summary);
//! }
//! let other = sessions::ConfigDir::new("/srv/claude-config");
//! let theirs = other.list_sessions(ListSessions::default()).await?;
//! # Ok(())
//! # }
//! ```

use std::path::PathBuf;

use serde::Deserialize;
use serde_json::{json, Map, Value};
use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

use crate::error::{Error, Result};
use crate::raw;

/// A session as a listing shows it (`SDKSessionInfo`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SessionInfo {
    /// Its id (a UUID).
    pub session_id: String,
    /// What to show for it: its title, summary or first prompt.
    pub summary: String,
    /// When the transcript last changed, in milliseconds since the epoch.
    pub last_modified: i64,
    /// The transcript's size in bytes.
    #[serde(default)]
    pub file_size: Option<u64>,
    /// The title the user gave it.
    #[serde(default)]
    pub custom_title: Option<String>,
    /// Its first prompt.
    #[serde(default)]
    pub first_prompt: Option<String>,
    /// The git branch it ran on.
    #[serde(default)]
    pub git_branch: Option<String>,
    /// The directory it ran in.
    #[serde(default)]
    pub cwd: Option<String>,
    /// Its tag.
    #[serde(default)]
    pub tag: Option<String>,
    /// When it started, in milliseconds since the epoch.
    #[serde(default)]
    pub created_at: Option<i64>,
    /// Whether it is archived.
    #[serde(default)]
    pub archived: Option<bool>,
}

/// One message of a session's conversation (`SessionMessage`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[non_exhaustive]
pub struct SessionMessage {
    /// `user`, `assistant` or `system`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Its uuid (what [`ForkSession::up_to_message_id`] and `resume_session_at` take).
    pub uuid: String,
    /// The session it belongs to.
    pub session_id: String,
    /// The Messages API message (`{role, content}`), or the system entry.
    #[serde(default)]
    pub message: Value,
    /// The tool use of the subagent it came from, if any.
    #[serde(default)]
    pub parent_tool_use_id: Option<String>,
    /// The subagent it came from, if any.
    #[serde(default)]
    pub parent_agent_id: Option<String>,
    /// When it was written (ISO 8601).
    #[serde(default)]
    pub timestamp: Option<String>,
    /// The other fields the TypeScript SDK returns for this entry (`isCompactSummary`, `is_meta`,
    /// `subtype`, ...).
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// What [`list_sessions`] lists.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListSessions {
    /// Only this project's sessions (and, unless [`include_worktrees`](Self::include_worktrees)
    /// is `Some(false)`, its git worktrees'); all projects' when `None`.
    pub dir: Option<PathBuf>,
    /// At most this many, newest first.
    pub limit: Option<usize>,
    /// Skip this many first.
    pub offset: Option<usize>,
    /// With the project's git worktrees (default: yes).
    pub include_worktrees: Option<bool>,
    /// With sessions started by programs too (`None`: yes, as in the TypeScript SDK).
    /// `Some(false)` leaves out the sessions whose transcript's `entrypoint` is an SDK's
    /// (`sdk-ts`, `sdk-py`, `sdk-cli`, and this SDK's `sdk-rust`) and daemon sessions
    /// (`sessionKind` `daemon` or `daemon-worker`), keeping the ones a person ran in a terminal
    /// or an IDE (what `/resume` lists).
    pub include_programmatic: Option<bool>,
}

/// Which messages [`get_session_messages`] returns.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionMessages {
    /// The project folder to look in (default: every project's).
    pub dir: Option<PathBuf>,
    /// At most this many.
    pub limit: Option<usize>,
    /// Skip this many first.
    pub offset: Option<usize>,
    /// With system messages (compaction boundaries, ...).
    pub include_system_messages: bool,
}

/// How [`fork_session`] forks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ForkSession {
    /// The project folder to look in (default: every project's).
    pub dir: Option<PathBuf>,
    /// The last message to keep (default: all of them).
    pub up_to_message_id: Option<String>,
    /// The fork's title (default: the original's, marked as a fork).
    pub title: Option<String>,
}

pub(crate) fn check_id(session_id: &str) -> Result<()> {
    if raw::is_session_id(session_id) {
        Ok(())
    } else {
        Err(Error::Sessions(format!("Invalid sessionId: {session_id}")))
    }
}

/// `dir` as the engine takes it: `None` when absent or empty; an error when not UTF-8.
pub(crate) fn dir_arg(dir: &Option<PathBuf>) -> Result<Option<String>> {
    match dir {
        None => Ok(None),
        Some(d) => d
            .to_str()
            .map(|s| Some(s.to_string()).filter(|s| !s.is_empty()))
            .ok_or_else(|| Error::InvalidOption(format!("Invalid `dir` {d:?}: not UTF-8"))),
    }
}

/// `CLAUDE_CODE_PROJECT_DIR_NAME` where the CLI uses it: with `CLAUDE_CONFIG_DIR` set, a name of
/// 1-64 `[A-Za-z0-9_-]` that is not a Windows device name (every project's sessions then live in
/// that one folder).
pub(crate) fn dir_name_override() -> Option<String> {
    raw::sessions::Context::from_env().dir_name
}

/// Runs engine work on the blocking pool.
pub(crate) async fn blocking<T: Send + 'static>(
    what: &'static str,
    work: impl FnOnce() -> std::result::Result<T, raw::SessionsFailure> + Send + 'static,
) -> Result<T> {
    let runtime = tokio::runtime::Handle::try_current().map_err(|_| Error::NoRuntime)?;
    runtime
        .spawn_blocking(work)
        .await
        .map_err(|e| Error::Sessions(format!("the session operation {what} failed: {e}")))?
        .map_err(|f| Error::Sessions(f.message))
}

/// The engine's messages (the JSON text of their array) as [`SessionMessage`]s. A lone
/// surrogate escape (`JSON.parse` takes one, a Rust string cannot hold it) reads as U+FFFD.
pub(crate) fn parse_messages(what: &str, text: &str) -> Result<Vec<SessionMessage>> {
    serde_json::from_str(&agent_core::sessions::surrogate::lossy(text))
        .map_err(|e| Error::Protocol(format!("the session operation {what} answered unexpectedly: {e}")))
}

impl From<raw::sessions::SessionInfo> for SessionInfo {
    fn from(i: raw::sessions::SessionInfo) -> Self {
        // Read from text whose lone surrogates were masked: those stand as U+FFFD.
        let s = |v: String| {
            if i.masked {
                agent_core::sessions::surrogate::unmask_lossy(v)
            } else {
                v
            }
        };
        let o = |v: Option<String>| v.map(s);
        SessionInfo {
            session_id: s(i.session_id),
            summary: s(i.summary),
            last_modified: i.last_modified,
            file_size: Some(i.file_size),
            custom_title: o(i.custom_title),
            first_prompt: o(i.first_prompt),
            git_branch: o(i.git_branch),
            cwd: o(i.cwd),
            tag: o(i.tag),
            created_at: i.created_at,
            archived: i.archived,
        }
    }
}

fn page(limit: Option<usize>, offset: Option<usize>) -> raw::sessions::Page {
    let n = |v: Option<usize>| v.map(|v| i64::try_from(v).unwrap_or(i64::MAX));
    raw::sessions::Page {
        limit: n(limit),
        offset: n(offset),
        pieces: false,
    }
}

/// A Claude Code config folder whose sessions the functions of this module read and change:
/// the free functions use [`ConfigDir::from_env`]; make one with [`ConfigDir::new`] to work on
/// another folder without setting `CLAUDE_CONFIG_DIR` (which, in edition 2024, takes `unsafe`
/// and affects the whole process).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConfigDir(raw::sessions::Context);

impl ConfigDir {
    /// This process's: `$CLAUDE_CONFIG_DIR` (read at each call), else `~/.claude`; with
    /// `$CLAUDE_CODE_PROJECT_DIR_NAME` where the CLI takes it (`CLAUDE_CONFIG_DIR` set, a valid
    /// name).
    pub fn from_env() -> Self {
        ConfigDir(raw::sessions::Context::from_env())
    }

    /// `path` as the config folder (the transcripts are in its `projects/`).
    pub fn new(path: impl Into<PathBuf>) -> Self {
        ConfigDir(raw::sessions::Context {
            config_dir: Some(path.into()),
            ..Default::default()
        })
    }

    /// Every project's sessions in the one folder `projects/<name>`, as the CLI keeps them when
    /// `CLAUDE_CODE_PROJECT_DIR_NAME` is set beside `CLAUDE_CONFIG_DIR`. A name the CLI would not
    /// take (1-64 of `[A-Za-z0-9_-]`, not a Windows device name) is ignored, as the CLI ignores it.
    pub fn project_dir_name(mut self, name: impl Into<String>) -> Self {
        self.0.dir_name = Some(name.into());
        self
    }

    /// The folder looked in (resolved now, from the environment when it was not named).
    pub fn path(&self) -> PathBuf {
        self.0.config_dir()
    }

    /// Sessions, newest first: every project's, or one project's ([`ListSessions::dir`]).
    pub async fn list_sessions(&self, options: ListSessions) -> Result<Vec<SessionInfo>> {
        let cx = self.0.clone();
        let n = |v: Option<usize>| v.map(|v| i64::try_from(v).unwrap_or(i64::MAX));
        let o = raw::sessions::ListOptions {
            dir: dir_arg(&options.dir)?,
            limit: n(options.limit),
            offset: n(options.offset),
            include_worktrees: options.include_worktrees,
            include_programmatic: options.include_programmatic,
        };
        let list = blocking("list", move || Ok(raw::sessions::list(&cx, &o))).await?;
        Ok(list.into_iter().map(SessionInfo::from).collect())
    }

    /// One session's listing entry; `None` when there is no such session.
    pub async fn get_session_info(&self, session_id: &str, dir: Option<PathBuf>) -> Result<Option<SessionInfo>> {
        if !raw::is_session_id(session_id) {
            return Ok(None);
        }
        let (cx, id, dir) = (self.0.clone(), session_id.to_string(), dir_arg(&dir)?);
        Ok(
            blocking("info", move || Ok(raw::sessions::info(&cx, &id, dir.as_deref())))
                .await?
                .map(SessionInfo::from),
        )
    }

    /// A session's conversation, oldest first (the chain that leads to its last message).
    pub async fn get_session_messages(
        &self,
        session_id: &str,
        options: SessionMessages,
    ) -> Result<Vec<SessionMessage>> {
        if !raw::is_session_id(session_id) {
            return Ok(vec![]);
        }
        let (cx, id, dir) = (self.0.clone(), session_id.to_string(), dir_arg(&options.dir)?);
        let p = page(options.limit, options.offset);
        let skip = raw::sessions::precompact_skip_from_env();
        let text = blocking("messages", move || {
            Ok(raw::sessions::messages(
                &cx,
                &id,
                dir.as_deref(),
                options.include_system_messages,
                &p,
                skip,
            ))
        })
        .await?;
        parse_messages("messages", &text)
    }

    /// The ids of the subagents a session ran.
    pub async fn list_subagents(&self, session_id: &str, dir: Option<PathBuf>) -> Result<Vec<String>> {
        if !raw::is_session_id(session_id) {
            return Ok(vec![]);
        }
        let (cx, id, dir) = (self.0.clone(), session_id.to_string(), dir_arg(&dir)?);
        blocking("subagents", move || {
            Ok(raw::sessions::subagents(&cx, &id, dir.as_deref()))
        })
        .await
    }

    /// A subagent's conversation ([`SessionMessages::include_system_messages`] does not apply).
    pub async fn get_subagent_messages(
        &self,
        session_id: &str,
        agent_id: &str,
        options: SessionMessages,
    ) -> Result<Vec<SessionMessage>> {
        if !raw::is_session_id(session_id) || agent_id.is_empty() {
            return Ok(vec![]);
        }
        let (cx, id, agent, dir) = (
            self.0.clone(),
            session_id.to_string(),
            agent_id.to_string(),
            dir_arg(&options.dir)?,
        );
        let p = page(options.limit, options.offset);
        let text = blocking("subagentMessages", move || {
            Ok(raw::sessions::subagent_messages(&cx, &id, &agent, dir.as_deref(), &p))
        })
        .await?;
        parse_messages("subagentMessages", &text)
    }

    async fn append(&self, session_id: &str, dir: Option<PathBuf>, entry: Value) -> Result<()> {
        let line = format!("{entry}\n");
        let (cx, id, dir) = (self.0.clone(), session_id.to_string(), dir_arg(&dir)?);
        blocking("append", move || raw::sessions::append(&cx, &id, dir.as_deref(), &line)).await
    }

    /// Gives a session a title (trimmed; it must not be empty).
    pub async fn rename_session(&self, session_id: &str, title: &str, dir: Option<PathBuf>) -> Result<()> {
        check_id(session_id)?;
        let title = title.trim();
        if title.is_empty() {
            return Err(Error::InvalidOption("title must be non-empty".into()));
        }
        self.append(
            session_id,
            dir,
            json!({ "type": "custom-title", "customTitle": title, "sessionId": session_id }),
        )
        .await
    }

    /// Tags a session (`None` clears the tag). Invisible and format characters are removed, as
    /// the TypeScript SDK removes them; what is left must not be empty.
    pub async fn tag_session(&self, session_id: &str, tag: Option<&str>, dir: Option<PathBuf>) -> Result<()> {
        check_id(session_id)?;
        let tag = clean_tag(tag)?;
        self.append(
            session_id,
            dir,
            json!({ "type": "tag", "tag": tag, "sessionId": session_id }),
        )
        .await
    }

    /// Archives a session (listings then mark it `archived`).
    pub async fn archive_session(&self, session_id: &str, dir: Option<PathBuf>) -> Result<()> {
        self.set_archived(session_id, true, dir).await
    }

    /// Undoes [`archive_session`](Self::archive_session).
    pub async fn unarchive_session(&self, session_id: &str, dir: Option<PathBuf>) -> Result<()> {
        self.set_archived(session_id, false, dir).await
    }

    async fn set_archived(&self, session_id: &str, archived: bool, dir: Option<PathBuf>) -> Result<()> {
        check_id(session_id)?;
        let (cx, id, dir) = (self.0.clone(), session_id.to_string(), dir_arg(&dir)?);
        blocking("archive", move || {
            raw::sessions::set_archived(&cx, &id, dir.as_deref(), archived)
        })
        .await
    }

    /// Deletes a session's transcript and its subagents' folder.
    pub async fn delete_session(&self, session_id: &str, dir: Option<PathBuf>) -> Result<()> {
        check_id(session_id)?;
        let (cx, id, dir) = (self.0.clone(), session_id.to_string(), dir_arg(&dir)?);
        blocking("delete", move || raw::sessions::delete(&cx, &id, dir.as_deref())).await
    }

    /// Copies a session (up to a message, if given) into a new one, with new uuids; the new
    /// session's id, resumable with [`OptionsBuilder::resume`](crate::OptionsBuilder::resume).
    pub async fn fork_session(&self, session_id: &str, options: ForkSession) -> Result<String> {
        check_id(session_id)?;
        let title = options
            .title
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_string);
        let (cx, id, dir, up_to) = (
            self.0.clone(),
            session_id.to_string(),
            dir_arg(&options.dir)?,
            options.up_to_message_id,
        );
        blocking("fork", move || {
            raw::sessions::fork(&cx, &id, dir.as_deref(), up_to.as_deref(), title.as_deref())
        })
        .await
    }

    /// A local session's entries ([`crate::store::import_session_to_store`]).
    pub(crate) async fn export(
        &self,
        session_id: &str,
        dir: &Option<PathBuf>,
        include_subagents: bool,
    ) -> Result<Option<raw::sessions::Export>> {
        let (cx, id, dir) = (self.0.clone(), session_id.to_string(), dir_arg(dir)?);
        blocking("exportEntries", move || {
            Ok(raw::sessions::export(&cx, &id, dir.as_deref(), include_subagents))
        })
        .await
    }
}

/// Sessions, newest first: every project's, or one project's ([`ListSessions::dir`]).
pub async fn list_sessions(options: ListSessions) -> Result<Vec<SessionInfo>> {
    ConfigDir::from_env().list_sessions(options).await
}

/// One session's listing entry; `None` when there is no such session.
pub async fn get_session_info(session_id: &str, dir: Option<PathBuf>) -> Result<Option<SessionInfo>> {
    ConfigDir::from_env().get_session_info(session_id, dir).await
}

/// A session's conversation, oldest first (the chain that leads to its last message).
pub async fn get_session_messages(session_id: &str, options: SessionMessages) -> Result<Vec<SessionMessage>> {
    ConfigDir::from_env().get_session_messages(session_id, options).await
}

/// The ids of the subagents a session ran.
pub async fn list_subagents(session_id: &str, dir: Option<PathBuf>) -> Result<Vec<String>> {
    ConfigDir::from_env().list_subagents(session_id, dir).await
}

/// A subagent's conversation ([`SessionMessages::include_system_messages`] does not apply).
pub async fn get_subagent_messages(
    session_id: &str,
    agent_id: &str,
    options: SessionMessages,
) -> Result<Vec<SessionMessage>> {
    ConfigDir::from_env()
        .get_subagent_messages(session_id, agent_id, options)
        .await
}

/// Gives a session a title (trimmed; it must not be empty).
pub async fn rename_session(session_id: &str, title: &str, dir: Option<PathBuf>) -> Result<()> {
    ConfigDir::from_env().rename_session(session_id, title, dir).await
}

/// Tags a session (`None` clears the tag). Invisible and format characters are removed, as the
/// TypeScript SDK removes them; what is left must not be empty.
pub async fn tag_session(session_id: &str, tag: Option<&str>, dir: Option<PathBuf>) -> Result<()> {
    ConfigDir::from_env().tag_session(session_id, tag, dir).await
}

/// The tag as it is written: sanitized and trimmed; empty to clear (`None`).
pub(crate) fn clean_tag(tag: Option<&str>) -> Result<String> {
    match tag {
        None => Ok(String::new()),
        Some(t) => {
            let t = sanitize_tag(t)?;
            let t = t.trim();
            if t.is_empty() {
                return Err(Error::InvalidOption("tag must be non-empty (use None to clear)".into()));
            }
            Ok(t.to_string())
        }
    }
}

/// Whether a character is one a tag may not carry: format, private-use and unassigned code
/// points, zero-width and bidirectional controls, the byte-order mark.
fn invisible(c: char) -> bool {
    matches!(
        c.general_category(),
        GeneralCategory::Format | GeneralCategory::PrivateUse | GeneralCategory::Unassigned
    ) || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}' | '\u{E000}'..='\u{F8FF}')
}

/// NFKC, then the invisible characters removed, until stable (at most 10 rounds).
fn sanitize_tag(s: &str) -> Result<String> {
    if s.is_ascii() {
        return Ok(s.to_string());
    }
    let mut cur = s.to_string();
    for _ in 0..10 {
        let next: String = cur.nfkc().filter(|c| !invisible(*c)).collect();
        if next == cur {
            return Ok(cur);
        }
        cur = next;
    }
    let head: String = s.chars().take(100).collect();
    Err(Error::InvalidOption(format!(
        "Unicode sanitization reached maximum iterations (10) for input: {head}"
    )))
}

/// Archives a session (listings then mark it `archived`).
pub async fn archive_session(session_id: &str, dir: Option<PathBuf>) -> Result<()> {
    ConfigDir::from_env().archive_session(session_id, dir).await
}

/// Undoes [`archive_session`].
pub async fn unarchive_session(session_id: &str, dir: Option<PathBuf>) -> Result<()> {
    ConfigDir::from_env().unarchive_session(session_id, dir).await
}

/// Deletes a session's transcript and its subagents' folder.
pub async fn delete_session(session_id: &str, dir: Option<PathBuf>) -> Result<()> {
    ConfigDir::from_env().delete_session(session_id, dir).await
}

/// Copies a session (up to a message, if given) into a new one, with new uuids; the new
/// session's id, resumable with [`OptionsBuilder::resume`](crate::OptionsBuilder::resume).
pub async fn fork_session(session_id: &str, options: ForkSession) -> Result<String> {
    ConfigDir::from_env().fork_session(session_id, options).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags() {
        assert_eq!(sanitize_tag("plain").unwrap(), "plain");
        // Full-width letters fold (NFKC); zero-width, bidi and private-use characters go.
        assert_eq!(sanitize_tag("ｔａｇ\u{200B}\u{202E}x\u{E000}\u{FEFF}").unwrap(), "tagx");
        assert_eq!(sanitize_tag("\u{2066}\u{2069}").unwrap(), "");
    }
}
