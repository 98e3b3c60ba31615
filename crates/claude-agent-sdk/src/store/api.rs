//! The `SessionStore` trait, its keys and entries, and the in-memory store: what the rest of
//! the crate builds on (the public paths are [`crate::store`]'s).

use std::path::Path;
use std::sync::Arc;

use futures::future::BoxFuture;
use futures::FutureExt;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::raw;

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
        Self {
            project_key: project_key.into(),
            session_id: session_id.into(),
            subpath: None,
        }
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
    fn list_session_summaries<'a>(
        &'a self,
        _project_key: &'a str,
    ) -> Option<StoreFuture<'a, Vec<SessionSummaryEntry>>> {
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
    /// In batches (the default): see the [module](crate::store) documentation.
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

/// The engine's `store_append` call, run against the user's store: `{"key":..,"entries":[..]}`.
pub(crate) fn append_call(
    store: Arc<dyn SessionStore>,
    payload: &str,
) -> BoxFuture<'static, std::result::Result<String, String>> {
    #[derive(Deserialize)]
    struct Append {
        key: SessionKey,
        entries: Vec<Value>,
    }
    let call: Append = match serde_json::from_str(payload) {
        Ok(c) => c,
        Err(e) => return futures::future::ready(Err(format!("Malformed store append: {e}"))).boxed(),
    };
    async move {
        store
            .append(&call.key, &call.entries)
            .await
            .map(|()| "null".to_string())
            .map_err(|e| e.to_string())
    }
    .boxed()
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
