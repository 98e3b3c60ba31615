//! Session stores: a query's transcript mirrored to storage of your own
//! ([`OptionsBuilder::session_store`](crate::OptionsBuilder::session_store)), and a stored session
//! resumed without its local transcript ([`resume_from_store`]). The TypeScript SDK's
//! `SessionStore` interface, as a trait.
//!
//! While the query runs, the CLI still writes its transcript under its config folder, and reports
//! each write; the session sends those entries to [`SessionStore::append`] in batches, as the
//! TypeScript SDK does: when more than 500 entries or 1 MiB wait, before each
//! [`Message::Result`](crate::Message::Result) reaches you, and at the end (or every write at
//! once with [`SessionStoreFlush::Eager`]). A failed append is tried again after 200 ms and after
//! 800 ms; one that takes over 60 s is not tried again. When the last try fails the batch is
//! dropped and a `mirror_error` system message appears in the stream; the session goes on.
//!
//! The [`sessions`](crate::sessions) functions have store variants here, reading and changing
//! the sessions a store holds as the TypeScript SDK's `{ sessionStore }` options do:
//! [`list_sessions`], [`get_session_info`], [`get_session_messages`], [`list_subagents`],
//! [`get_subagent_messages`], [`rename_session`], [`tag_session`], [`delete_session`] and
//! [`fork_session`]. (Archiving has none: the archived mark is not a transcript entry, and the
//! TypeScript SDK refuses it with a store.) [`import_session_to_store`] copies a local session
//! into a store; [`fold_session_summary`] keeps the per-session summary that lets
//! [`list_sessions`] list a store without loading every session.
//!
//! ```no_run
//! use std::sync::Arc;
//! use claude_agent_sdk::{query, store::{InMemorySessionStore, SessionKey}, Options};
//! use futures::StreamExt;
//!
//! # async fn run() -> Result<(), claude_agent_sdk::Error> {
//! let store = Arc::new(InMemorySessionStore::new());
//! let mut q = query("Hello", Options::builder().session_store(store.clone()).build())?;
//! let mut session_id = None;
//! while let Some(m) = q.next().await {
//!     if let claude_agent_sdk::Message::Result(r) = m? {
//!         session_id = r.session_id.clone();
//!     }
//! }
//! let session_id = session_id.expect("a session id");
//! // Later, anywhere the store is reachable: resume from the store alone.
//! let options = Options::builder().session_store(store.clone()).resume(session_id).build();
//! let options = claude_agent_sdk::store::resume_from_store(options).await?;
//! let mut q = query("And then?", options)?;
//! # while let Some(_) = q.next().await {}
//! # Ok(()) }
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::future::BoxFuture;
use futures::FutureExt;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{Error, Result};
use crate::options::Options;
use crate::raw;

pub use crate::stored::{
  delete_session, fork_session, fold_session_summary, get_session_info, get_session_messages, get_subagent_messages, import_session_to_store,
  list_sessions, list_subagents, rename_session, tag_session, ImportSession, IMPORT_BATCH,
};

/// Where a transcript is kept: its project, its session, and for a subagent's transcript the
/// rest of its path (`subagents/agent-<id>`). The TypeScript SDK's `SessionKey`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionKey {
  /// The project: the CLI's folder name for the working directory (its real path with every
  /// character but letters and digits made `-`).
  pub project_key: String,
  /// The session id.
  pub session_id: String,
  /// `None` for the main transcript; a subagent's path otherwise (never empty).
  #[serde(default, skip_serializing_if = "Option::is_none")]
  pub subpath: Option<String>,
}

impl SessionKey {
  /// The key of a session's main transcript.
  pub fn new(project_key: impl Into<String>, session_id: impl Into<String>) -> Self {
    Self { project_key: project_key.into(), session_id: session_id.into(), subpath: None }
  }
}

/// A session a store lists, with when it last changed (milliseconds since the epoch).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredSession {
  /// The session id.
  pub session_id: String,
  /// When it was last written, in integer milliseconds since the epoch.
  pub mtime: i64,
}

/// A session's incrementally kept summary (the TypeScript SDK's `SessionSummaryEntry`, which
/// its stores keep with `foldSessionSummary` inside `append`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionSummaryEntry {
  /// The session id.
  pub session_id: String,
  /// When the summary was written, on the same clock as [`StoredSession::mtime`].
  pub mtime: i64,
  /// The SDK's own state: keep it as it is, do not interpret it.
  pub data: serde_json::Map<String, Value>,
}

/// What a store method failed with: any error, shown by its `Display` (in a `mirror_error`
/// message, or in the error a resume ends with).
pub type StoreError = Box<dyn std::error::Error + Send + Sync>;

/// The future a store method returns.
pub type StoreFuture<'a, T> = BoxFuture<'a, std::result::Result<T, StoreError>>;

/// Storage for session transcripts (the TypeScript SDK's `SessionStore`). Entries are the JSON
/// objects the CLI writes, one per transcript line (each with a `type`, most with a `uuid`).
///
/// [`append`](Self::append) and [`load`](Self::load) are required; the rest are optional, as in
/// the TypeScript interface: a store that cannot do one returns `None` from it.
pub trait SessionStore: Send + Sync + 'static {
  /// Keeps a batch of entries, after what was appended before under the same key. Called after
  /// the CLI's own write succeeded. Entries with a `uuid` may come again when a failed append is
  /// retried: treat the `uuid` as an idempotency key where you can.
  fn append<'a>(&'a self, key: &'a SessionKey, entries: &'a [Value]) -> StoreFuture<'a, ()>;

  /// Every entry appended under `key`, in order; `None` for a key never written.
  fn load<'a>(&'a self, key: &'a SessionKey) -> StoreFuture<'a, Option<Vec<Value>>>;

  /// The sessions of a project (any order). Needed to continue the newest session
  /// ([`OptionsBuilder::continue_conversation`](crate::OptionsBuilder::continue_conversation))
  /// from the store.
  fn list_sessions<'a>(&'a self, _project_key: &'a str) -> Option<StoreFuture<'a, Vec<StoredSession>>> {
    None
  }

  /// The summaries of a project's sessions in one call, for stores that keep them (the
  /// TypeScript SDK's listings read them instead of loading each session).
  fn list_session_summaries<'a>(&'a self, _project_key: &'a str) -> Option<StoreFuture<'a, Vec<SessionSummaryEntry>>> {
    None
  }

  /// The subpaths stored under a session (its subagents' transcripts): a resume brings them
  /// back too. `key.subpath` is `None`.
  fn list_subkeys<'a>(&'a self, _key: &'a SessionKey) -> Option<StoreFuture<'a, Vec<String>>> {
    None
  }

  /// Removes a session (with a `None` subpath, its subagents too).
  fn delete<'a>(&'a self, _key: &'a SessionKey) -> Option<StoreFuture<'a, ()>> {
    None
  }
}

/// How eagerly a query's transcript goes to its store.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum SessionStoreFlush {
  /// In batches (the default): see the [module](self) documentation.
  #[default]
  Batched,
  /// Every transcript write as it comes.
  Eager,
}

impl SessionStoreFlush {
  /// The wire name (`batched`, `eager`).
  pub fn as_str(self) -> &'static str {
    match self {
      SessionStoreFlush::Batched => "batched",
      SessionStoreFlush::Eager => "eager",
    }
  }
}

/// A [`SessionStore`] in memory, as the TypeScript SDK's `InMemorySessionStore`: for tests, and
/// as a model for your own. It keeps each session's summary with [`fold_session_summary`] as it
/// appends, and lists them ([`SessionStore::list_session_summaries`]).
#[derive(Debug, Default)]
pub struct InMemorySessionStore {
  inner: Mutex<Memory>,
}

#[derive(Debug, Default)]
struct Memory {
  entries: BTreeMap<String, Vec<Value>>,
  mtimes: BTreeMap<String, i64>,
  summaries: BTreeMap<String, SessionSummaryEntry>,
  last_mtime: i64,
}

fn key_string(key: &SessionKey) -> String {
  match &key.subpath {
    Some(sub) if !sub.is_empty() => format!("{}/{}/{}", key.project_key, key.session_id, sub),
    _ => format!("{}/{}", key.project_key, key.session_id),
  }
}

impl InMemorySessionStore {
  /// An empty store.
  pub fn new() -> Self {
    Self::default()
  }

  fn memory(&self) -> std::sync::MutexGuard<'_, Memory> {
    self.inner.lock().unwrap_or_else(|p| p.into_inner())
  }

  /// The entries under `key` (empty when none).
  pub fn entries(&self, key: &SessionKey) -> Vec<Value> {
    self.memory().entries.get(&key_string(key)).cloned().unwrap_or_default()
  }

  /// How many main transcripts it holds.
  pub fn len(&self) -> usize {
    self.memory().entries.keys().filter(|k| k.split('/').count() == 2).count()
  }

  /// Whether it holds no main transcript.
  pub fn is_empty(&self) -> bool {
    self.len() == 0
  }

  /// Forgets everything.
  pub fn clear(&self) {
    let mut m = self.memory();
    m.entries.clear();
    m.mtimes.clear();
    m.summaries.clear();
  }
}

impl SessionStore for InMemorySessionStore {
  fn append<'a>(&'a self, key: &'a SessionKey, entries: &'a [Value]) -> StoreFuture<'a, ()> {
    let mut m = self.memory();
    let k = key_string(key);
    m.entries.entry(k.clone()).or_default().extend(entries.iter().cloned());
    // Each append a later mtime than the one before, as the TypeScript store keeps them.
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64);
    let mtime = now.max(m.last_mtime + 1);
    m.last_mtime = mtime;
    m.mtimes.insert(k, mtime);
    if key.subpath.is_none() {
      let s = key_string(key);
      let folded = fold_session_summary(m.summaries.get(&s), key, entries, Some(mtime));
      m.summaries.insert(s, folded);
    }
    futures::future::ready(Ok(())).boxed()
  }

  fn load<'a>(&'a self, key: &'a SessionKey) -> StoreFuture<'a, Option<Vec<Value>>> {
    let found = self.memory().entries.get(&key_string(key)).cloned();
    futures::future::ready(Ok(found)).boxed()
  }

  fn list_sessions<'a>(&'a self, project_key: &'a str) -> Option<StoreFuture<'a, Vec<StoredSession>>> {
    let m = self.memory();
    let prefix = format!("{project_key}/");
    let list = m
      .entries
      .keys()
      .filter_map(|k| k.strip_prefix(&prefix).filter(|rest| !rest.contains('/')).map(|id| (k, id)))
      .map(|(k, id)| StoredSession { session_id: id.to_string(), mtime: m.mtimes.get(k).copied().unwrap_or(0) })
      .collect();
    Some(futures::future::ready(Ok(list)).boxed())
  }

  fn list_session_summaries<'a>(&'a self, project_key: &'a str) -> Option<StoreFuture<'a, Vec<SessionSummaryEntry>>> {
    let prefix = format!("{project_key}/");
    let list = self.memory().summaries.iter().filter(|(k, _)| k.starts_with(&prefix)).map(|(_, v)| v.clone()).collect();
    Some(futures::future::ready(Ok(list)).boxed())
  }

  fn list_subkeys<'a>(&'a self, key: &'a SessionKey) -> Option<StoreFuture<'a, Vec<String>>> {
    let prefix = format!("{}/{}/", key.project_key, key.session_id);
    let subs = self.memory().entries.keys().filter_map(|k| k.strip_prefix(&prefix).map(str::to_string)).collect();
    Some(futures::future::ready(Ok(subs)).boxed())
  }

  fn delete<'a>(&'a self, key: &'a SessionKey) -> Option<StoreFuture<'a, ()>> {
    let mut m = self.memory();
    let k = key_string(key);
    m.entries.remove(&k);
    m.mtimes.remove(&k);
    if key.subpath.is_none() {
      m.summaries.remove(&k);
      let prefix = format!("{k}/");
      m.entries.retain(|k, _| !k.starts_with(&prefix));
      m.mtimes.retain(|k, _| !k.starts_with(&prefix));
    }
    Some(futures::future::ready(Ok(())).boxed())
  }
}

/// The engine's `store_append` call, run against the user's store: `{"key":..,"entries":[..]}`.
pub(crate) fn append_call(store: Arc<dyn SessionStore>, payload: &str) -> BoxFuture<'static, std::result::Result<String, String>> {
  #[derive(Deserialize)]
  struct Append {
    key: SessionKey,
    entries: Vec<Value>,
  }
  let call: Append = match serde_json::from_str(payload) {
    Ok(c) => c,
    Err(e) => return futures::future::ready(Err(format!("Malformed store append: {e}"))).boxed(),
  };
  async move { store.append(&call.key, &call.entries).await.map(|()| "null".to_string()).map_err(|e| e.to_string()) }.boxed()
}

/// A resumed session's private config folder, removed once the CLI that uses it has exited
/// ([`remove`](Self::remove)), or when dropped.
#[derive(Debug)]
pub(crate) struct ResumeDir(pub PathBuf);

impl ResumeDir {
  /// Removes the folder once nothing else holds it (options cloned before the query keep it),
  /// as the TypeScript SDK does: up to 5 tries, 100, 200, 300 and 400 ms apart, while the
  /// system says the folder is busy or in use (`EBUSY`, `EMFILE`, `ENFILE`, `ENOTEMPTY`,
  /// `EPERM`).
  pub(crate) async fn remove(dir: Arc<ResumeDir>) {
    let Ok(dir) = Arc::try_unwrap(dir) else { return };
    for attempt in 1..=5u64 {
      let path = dir.0.clone();
      match tokio::task::spawn_blocking(move || std::fs::remove_dir_all(path)).await {
        Ok(Err(e)) if attempt < 5 && busy(&e) => tokio::time::sleep(Duration::from_millis(attempt * 100)).await,
        _ => break,
      }
    }
    // Dropped now: a last try, which finds nothing left to remove when the above succeeded.
  }
}

/// The errors the TypeScript SDK tries a removal again on.
fn busy(e: &std::io::Error) -> bool {
  use std::io::ErrorKind;
  #[cfg(unix)]
  const FILE_TABLE: [i32; 2] = [24, 23]; // EMFILE, ENFILE
  #[cfg(not(unix))]
  const FILE_TABLE: [i32; 0] = [];
  matches!(e.kind(), ErrorKind::ResourceBusy | ErrorKind::DirectoryNotEmpty | ErrorKind::PermissionDenied)
    || e.raw_os_error().is_some_and(|c| FILE_TABLE.contains(&c))
}

impl Drop for ResumeDir {
  fn drop(&mut self) {
    let _ = std::fs::remove_dir_all(&self.0);
  }
}

/// How long each store call of a resume may take unless
/// [`load_timeout`](crate::OptionsBuilder::load_timeout) says otherwise (the TypeScript SDK's
/// `loadTimeoutMs` default).
pub const LOAD_TIMEOUT: Duration = Duration::from_secs(60);

/// A store call of a resume, given `limit` to answer: `call` names it, `about` says for what
/// (the TypeScript SDK's wording: `SessionStore.load() timed out after 60000ms for session ...`).
async fn timed<T>(limit: Duration, call: &str, about: String, f: StoreFuture<'_, T>) -> Result<T> {
  match tokio::time::timeout(limit, f).await {
    Ok(Ok(v)) => Ok(v),
    Ok(Err(e)) => Err(Error::Sessions(format!("{call}{about} failed: {e}"))),
    Err(_) => Err(Error::Sessions(format!("{call} timed out after {}ms{about}", limit.as_millis()))),
  }
}

/// Prepares `options` to resume from their [`session_store`](crate::OptionsBuilder::session_store)
/// alone: the session named by [`resume`](crate::OptionsBuilder::resume) (or, with
/// [`continue_conversation`](crate::OptionsBuilder::continue_conversation), the store's newest
/// session of the working directory's project) is loaded, with its subagents' transcripts, and
/// written into a fresh private config folder, with the credentials and settings the CLI needs
/// copied from the usual one, as the TypeScript SDK does before it starts the CLI. The options
/// returned point the CLI there (`CLAUDE_CONFIG_DIR`) and resume that session; the folder is
/// removed when the query is over. Options without a store, or without anything to resume in
/// it, come back as they were.
///
/// (The TypeScript `query()` does this itself; in Rust [`query`](crate::query) starts the CLI at
/// once, so the loading, which is asynchronous, comes first.)
pub async fn resume_from_store(mut options: Options) -> Result<Options> {
  let Some(store) = options.session_store.clone() else { return Ok(options) };
  options.resume_prepared = true;
  let limit = options.load_timeout.unwrap_or(LOAD_TIMEOUT);
  let d = &options.data;
  if d.resume.is_none() && !d.continue_conversation {
    return Ok(options);
  }
  let cwd = match &d.cwd {
    Some(c) => c.clone(),
    None => std::env::current_dir().map_err(|e| Error::InvalidOption(format!("Invalid option `cwd`: {e}")))?,
  };
  let env_var = |name: &str| -> Option<String> {
    match d.env.get(name) {
      Some(v) => v.clone(),
      None if d.inherit_env != Some(false) => std::env::var(name).ok(),
      None => None,
    }
  };
  let project_key = project_key(&cwd, env_var("CLAUDE_CONFIG_DIR").is_some().then(|| env_var("CLAUDE_CODE_PROJECT_DIR_NAME")).flatten());
  let session_id = match &d.resume {
    Some(id) => Some(id.clone()),
    None => {
      let Some(list) = store.list_sessions(&project_key) else {
        return Err(Error::InvalidOption("Options.continue with sessionStore requires store.listSessions to be implemented".into()));
      };
      let list = timed(limit, "SessionStore.listSessions()", String::new(), list).await?;
      // The newest; of equal ones the first listed (a stable sort, as the TypeScript SDK's).
      list.into_iter().min_by_key(|s| std::cmp::Reverse(s.mtime)).map(|s| s.session_id)
    }
  };
  let Some(session_id) = session_id.filter(|id| raw::is_session_id(id)) else { return Ok(options) };
  let key = SessionKey::new(project_key.clone(), session_id.clone());
  let entries = timed(limit, "SessionStore.load()", format!(" for session {session_id}"), store.load(&key)).await?.unwrap_or_default();
  if entries.is_empty() {
    return Ok(options);
  }
  let mut subagents = Vec::new();
  if let Some(subkeys) = store.list_subkeys(&key) {
    for sub in timed(limit, "SessionStore.listSubkeys()", format!(" for session {session_id}"), subkeys).await? {
      // A subpath must stay inside the session's folder (the engine checks it again).
      if sub.is_empty() || Path::new(&sub).is_absolute() || sub.split(['/', '\\']).any(|p| p == "..") {
        continue;
      }
      let sub_key = SessionKey { subpath: Some(sub.clone()), ..key.clone() };
      let sub_entries = timed(limit, "SessionStore.load()", format!(" for session {session_id} subpath {sub}"), store.load(&sub_key)).await?.unwrap_or_default();
      if sub_entries.is_empty() {
        continue;
      }
      let (meta, rest): (Vec<&Value>, Vec<&Value>) = sub_entries.iter().partition(|e| e.get("type").and_then(Value::as_str) == Some("agent_metadata"));
      let meta = meta.last().map(|m| {
        let mut m = (*m).clone();
        if let Some(o) = m.as_object_mut() {
          o.remove("type");
        }
        m.to_string()
      });
      subagents.push(serde_json::json!({ "subpath": sub, "text": jsonl(rest.into_iter()), "meta": meta }));
    }
  }
  let config_from = env_var("CLAUDE_CONFIG_DIR").map(PathBuf::from).unwrap_or_else(|| home().join(".claude"));
  let global_from = env_var("CLAUDE_CONFIG_DIR").map(PathBuf::from).unwrap_or_else(home);
  let dir = std::env::temp_dir().join(format!("claude-resume-{}", raw::new_uuid()));
  let credential_env: std::collections::HashMap<&str, String> = ["CLAUDE_CONFIG_DIR", "ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN"].into_iter().filter_map(|k| env_var(k).map(|v| (k, v))).collect();
  let request = serde_json::json!({
    "dir": dir,
    "projectKey": project_key,
    "sessionId": session_id,
    "text": jsonl(entries.iter()),
    "subagents": subagents,
    "configFrom": config_from,
    "globalFrom": global_from,
    // On macOS the credentials come from the login keychain when the CLI's environment names
    // no other source (agent-core's sessions/keychain.rs), as the official takes them.
    "keychain": cfg!(target_os = "macos"),
    "optionsEnv": credential_env,
  })
  .to_string();
  tokio::task::spawn_blocking(move || raw::sessions_call("materialize", &request))
    .await
    .map_err(|e| Error::Sessions(format!("writing the stored session failed: {e}")))?
    .map_err(|f| Error::Sessions(f.message))?;
  options.resume_dir = Some(Arc::new(ResumeDir(dir.clone())));
  let dir = dir.to_str().ok_or_else(|| Error::Sessions(format!("the resume folder {dir:?} is not valid UTF-8")))?.to_string();
  options.data.env.insert("CLAUDE_CONFIG_DIR".into(), Some(dir));
  options.data.resume = Some(session_id);
  options.data.continue_conversation = false;
  Ok(options)
}

/// One JSON text per line, each line ended.
fn jsonl<'a>(entries: impl Iterator<Item = &'a Value>) -> String {
  let mut out = String::new();
  for e in entries {
    out.push_str(&e.to_string());
    out.push('\n');
  }
  out
}

fn home() -> PathBuf {
  PathBuf::from(std::env::var_os("HOME").or_else(|| std::env::var_os("USERPROFILE")).unwrap_or_default())
}

/// The store's project key of a working directory, as the CLI names its project folder (the
/// real path sanitized; `CLAUDE_CODE_PROJECT_DIR_NAME` when the CLI would take it).
pub fn project_key(cwd: &Path, dir_name: Option<String>) -> String {
  if let Some(name) = dir_name.filter(|n| raw::is_project_dir_name(n)) {
    return name;
  }
  let real = std::fs::canonicalize(cwd).unwrap_or_else(|_| cwd.to_path_buf());
  raw::project_folder_name(&real.to_string_lossy())
}

#[cfg(test)]
mod tests {
  use super::*;

  #[tokio::test]
  async fn in_memory_store_behaves_as_the_typescript_one() {
    let s = InMemorySessionStore::new();
    let k = SessionKey::new("p", "s1");
    let sub = SessionKey { subpath: Some("subagents/agent-a".into()), ..k.clone() };
    assert_eq!(s.load(&k).await.unwrap(), None);
    s.append(&k, &[serde_json::json!({"type":"user"})]).await.unwrap();
    s.append(&k, &[serde_json::json!({"type":"assistant"})]).await.unwrap();
    s.append(&sub, &[serde_json::json!({"type":"user"})]).await.unwrap();
    s.append(&SessionKey::new("p", "s2"), &[serde_json::json!({"type":"user"})]).await.unwrap();
    assert_eq!(s.load(&k).await.unwrap().unwrap().len(), 2);
    assert_eq!(s.len(), 2);
    let mut listed = s.list_sessions("p").unwrap().await.unwrap();
    listed.sort_by_key(|x| x.mtime);
    assert_eq!(listed.iter().map(|x| x.session_id.as_str()).collect::<Vec<_>>(), ["s1", "s2"]);
    assert!(listed[0].mtime < listed[1].mtime, "every append a later mtime");
    assert_eq!(s.list_subkeys(&k).unwrap().await.unwrap(), ["subagents/agent-a"]);
    s.delete(&k).unwrap().await.unwrap();
    assert_eq!(s.load(&sub).await.unwrap(), None, "a session's subagents go with it");
    assert_eq!(s.len(), 1);
    s.clear();
    assert!(s.is_empty());
  }
}
