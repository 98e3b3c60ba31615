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
//! # Ok(())
//! # }
//! ```

use std::path::PathBuf;

use serde::de::DeserializeOwned;
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
  /// With sessions started by programs (SDK entrypoints) too (default: no).
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

pub(crate) fn dir_arg(dir: &Option<PathBuf>) -> Result<Value> {
  match dir {
    None => Ok(Value::Null),
    Some(d) => d.to_str().filter(|s| !s.is_empty()).map(|s| json!(s)).ok_or_else(|| Error::InvalidOption(format!("Invalid `dir` {d:?}: not UTF-8"))),
  }
}

/// `CLAUDE_CODE_PROJECT_DIR_NAME` where the CLI uses it: with `CLAUDE_CONFIG_DIR` set, a name of
/// 1-64 `[A-Za-z0-9_-]` that is not a Windows device name (every project's sessions then live in
/// that one folder).
pub(crate) fn dir_name_override() -> Option<String> {
  std::env::var_os("CLAUDE_CONFIG_DIR").filter(|d| !d.is_empty())?;
  let name = std::env::var("CLAUDE_CODE_PROJECT_DIR_NAME").ok()?;
  let valid = (1..=64).contains(&name.len()) && name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-');
  let lower = name.to_ascii_lowercase();
  let device = matches!(lower.as_str(), "con" | "prn" | "aux" | "nul")
    || (lower.len() == 4 && (lower.starts_with("com") || lower.starts_with("lpt")) && lower.as_bytes()[3].is_ascii_digit());
  (valid && !device).then_some(name)
}

/// Runs one engine operation on the blocking pool; its JSON answer.
pub(crate) async fn call<T: DeserializeOwned + Send + 'static>(op: &'static str, mut args: Map<String, Value>) -> Result<T> {
  args.retain(|_, v| !v.is_null());
  if let Some(name) = dir_name_override() {
    args.insert("projectDirName".into(), json!(name));
  }
  let args = Value::Object(args).to_string();
  let runtime = tokio::runtime::Handle::try_current().map_err(|_| Error::NoRuntime)?;
  let text = runtime
    .spawn_blocking(move || raw::sessions_call(op, &args))
    .await
    .map_err(|e| Error::Sessions(format!("the session operation {op} failed: {e}")))?
    .map_err(|f| Error::Sessions(f.message))?;
  // A lone surrogate escape (JSON.parse takes one, a Rust string cannot hold it) reads as U+FFFD.
  serde_json::from_str(&agent_core::sessions::surrogate::lossy(&text)).map_err(|e| Error::Protocol(format!("the session operation {op} answered unexpectedly: {e}")))
}

fn args(pairs: Vec<(&str, Value)>) -> Map<String, Value> {
  pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

/// Sessions, newest first: every project's, or one project's ([`ListSessions::dir`]).
pub async fn list_sessions(options: ListSessions) -> Result<Vec<SessionInfo>> {
  call(
    "list",
    args(vec![
      ("dir", dir_arg(&options.dir)?),
      ("limit", json!(options.limit)),
      ("offset", json!(options.offset)),
      ("includeWorktrees", json!(options.include_worktrees)),
      ("includeProgrammatic", json!(options.include_programmatic)),
    ]),
  )
  .await
}

/// One session's listing entry; `None` when there is no such session.
pub async fn get_session_info(session_id: &str, dir: Option<PathBuf>) -> Result<Option<SessionInfo>> {
  if !raw::is_session_id(session_id) {
    return Ok(None);
  }
  call("info", args(vec![("sessionId", json!(session_id)), ("dir", dir_arg(&dir)?)])).await
}

/// A session's conversation, oldest first (the chain that leads to its last message).
pub async fn get_session_messages(session_id: &str, options: SessionMessages) -> Result<Vec<SessionMessage>> {
  if !raw::is_session_id(session_id) {
    return Ok(vec![]);
  }
  call(
    "messages",
    args(vec![
      ("sessionId", json!(session_id)),
      ("dir", dir_arg(&options.dir)?),
      ("limit", json!(options.limit)),
      ("offset", json!(options.offset)),
      ("includeSystemMessages", json!(options.include_system_messages)),
    ]),
  )
  .await
}

/// The ids of the subagents a session ran.
pub async fn list_subagents(session_id: &str, dir: Option<PathBuf>) -> Result<Vec<String>> {
  if !raw::is_session_id(session_id) {
    return Ok(vec![]);
  }
  call("subagents", args(vec![("sessionId", json!(session_id)), ("dir", dir_arg(&dir)?)])).await
}

/// A subagent's conversation ([`SessionMessages::include_system_messages`] does not apply).
pub async fn get_subagent_messages(session_id: &str, agent_id: &str, options: SessionMessages) -> Result<Vec<SessionMessage>> {
  if !raw::is_session_id(session_id) || agent_id.is_empty() {
    return Ok(vec![]);
  }
  call(
    "subagentMessages",
    args(vec![
      ("sessionId", json!(session_id)),
      ("agentId", json!(agent_id)),
      ("dir", dir_arg(&options.dir)?),
      ("limit", json!(options.limit)),
      ("offset", json!(options.offset)),
    ]),
  )
  .await
}

async fn append(session_id: &str, dir: Option<PathBuf>, entry: Value) -> Result<()> {
  let line = format!("{entry}\n");
  call::<Value>("append", args(vec![("sessionId", json!(session_id)), ("dir", dir_arg(&dir)?), ("line", json!(line))])).await.map(drop)
}

/// Gives a session a title (trimmed; it must not be empty).
pub async fn rename_session(session_id: &str, title: &str, dir: Option<PathBuf>) -> Result<()> {
  check_id(session_id)?;
  let title = title.trim();
  if title.is_empty() {
    return Err(Error::InvalidOption("title must be non-empty".into()));
  }
  append(session_id, dir, json!({ "type": "custom-title", "customTitle": title, "sessionId": session_id })).await
}

/// Tags a session (`None` clears the tag). Invisible and format characters are removed, as the
/// TypeScript SDK removes them; what is left must not be empty.
pub async fn tag_session(session_id: &str, tag: Option<&str>, dir: Option<PathBuf>) -> Result<()> {
  check_id(session_id)?;
  let tag = clean_tag(tag)?;
  append(session_id, dir, json!({ "type": "tag", "tag": tag, "sessionId": session_id })).await
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
  matches!(c.general_category(), GeneralCategory::Format | GeneralCategory::PrivateUse | GeneralCategory::Unassigned)
    || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}' | '\u{E000}'..='\u{F8FF}')
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
  Err(Error::InvalidOption(format!("Unicode sanitization reached maximum iterations (10) for input: {head}")))
}

/// Archives a session (listings then mark it `archived`).
pub async fn archive_session(session_id: &str, dir: Option<PathBuf>) -> Result<()> {
  set_archived(session_id, true, dir).await
}

/// Undoes [`archive_session`].
pub async fn unarchive_session(session_id: &str, dir: Option<PathBuf>) -> Result<()> {
  set_archived(session_id, false, dir).await
}

async fn set_archived(session_id: &str, archived: bool, dir: Option<PathBuf>) -> Result<()> {
  check_id(session_id)?;
  call::<Value>("archive", args(vec![("sessionId", json!(session_id)), ("dir", dir_arg(&dir)?), ("archived", json!(archived))])).await.map(drop)
}

/// Deletes a session's transcript and its subagents' folder.
pub async fn delete_session(session_id: &str, dir: Option<PathBuf>) -> Result<()> {
  check_id(session_id)?;
  call::<Value>("delete", args(vec![("sessionId", json!(session_id)), ("dir", dir_arg(&dir)?)])).await.map(drop)
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Forked {
  session_id: String,
}

/// Copies a session (up to a message, if given) into a new one, with new uuids; the new
/// session's id, resumable with [`OptionsBuilder::resume`](crate::OptionsBuilder::resume).
pub async fn fork_session(session_id: &str, options: ForkSession) -> Result<String> {
  check_id(session_id)?;
  let title = options.title.as_deref().map(str::trim).filter(|t| !t.is_empty());
  let forked: Forked = call(
    "fork",
    args(vec![
      ("sessionId", json!(session_id)),
      ("dir", dir_arg(&options.dir)?),
      ("upToMessageId", json!(options.up_to_message_id)),
      ("title", json!(title)),
    ]),
  )
  .await?;
  Ok(forked.session_id)
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
