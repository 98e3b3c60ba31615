//! [`RedisSessionStore`]: a [`SessionStore`] on Redis 6.2+ (cargo feature `redis`), through the
//! [`redis`](::redis) crate on tokio (re-exported as [`redis`](self::redis)), over one
//! [`ConnectionManager`] it opens on first use (and reconnects).
//!
//! Its keys are the TypeScript package's (`claude-agent-sdk-native/stores/redis`), so a TypeScript
//! worker and a Rust worker share one Redis, each reading what the other wrote. Every id is
//! percent-encoded (no id holds `:`, `{` or `}`); the project's part is a hash tag, so one
//! project's keys share a Redis Cluster slot and one script can touch them all:
//!
//! | key | type | holds |
//! |---|---|---|
//! | `{prefix}{P}:e:S` | list | the main transcript, one JSON entry per item |
//! | `{prefix}{P}:e:S:X` | list | subpath X's transcript |
//! | `{prefix}{P}:u:S[:X]` | set | the uuids already in that list (a replayed entry is skipped) |
//! | `{prefix}{P}:k:S` | set | the session's subpaths |
//! | `{prefix}{P}:sessions` | zset | session id → mtime (ms, the server's clock) |
//! | `{prefix}{P}:summaries` | hash | session id → its summary's data (JSON) |
//!
//! An append is one Lua script, the TypeScript store's own: all of its entries, the indexes and
//! the summary, or nothing. The summary is folded here and written only if nobody changed it
//! meanwhile (the one this store object last wrote is assumed, and read only when that is wrong).
//!
//! ```no_run
//! use claude_agent_sdk::store::redis::RedisSessionStore;
//! # fn run() -> Result<(), claude_agent_sdk::store::StoreError> {
//! let client = claude_agent_sdk::store::redis::redis::Client::open("redis://cache.internal:6379/0")?;
//! let store = RedisSessionStore::new(client).with_prefix("claude");
//! # Ok(()) }
//! ```

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};
use std::time::Duration;

use ::redis::aio::{ConnectionManager, ConnectionManagerConfig};
use ::redis::{Client, Script};
use serde_json::Value;
use tokio::sync::OnceCell;

pub use ::redis;

use super::api::{SessionKey, SessionStore, SessionSummaryEntry, StoreError, StoreFuture, StoredSession};
use super::common::{
    check_key, check_project_key, check_session, delegate_session_store, encode_part, fold_text, invalid, parse_entry,
    serialize_entries, Invalid, KnownSummaries,
};

const NAME: &str = "RedisSessionStore";
/// Tries of an append whose summary someone else changed meanwhile.
const CAS_TRIES: usize = 50;
/// Summaries remembered per store object.
const SUMMARY_CACHE: usize = 10_000;

// The TypeScript store's scripts, the same files (lib/stores/redis-*.lua).
//
// KEYS: list, uuid set, index (zset of sessions | set of subpaths), summaries hash (main only)
// ARGV: 'main' | 'sub', member (session id | subpath), summary expected ('' = none), summary new,
//       then pairs of (uuid or '', entry)
const APPEND: &str = include_str!("../../../../lib/stores/redis-append.lua");
// A whole session, atomically: its lists and uuid sets (the subpaths' found in the script, each
// percent-encoded as encode_part() does), its subpath set, index entry and summary.
// KEYS: subpath set, main list, main uuid set, sessions zset, summaries hash
// ARGV: session id, subpath list key prefix, subpath uuid set key prefix
const DELETE_SESSION: &str = include_str!("../../../../lib/stores/redis-delete-session.lua");

static APPEND_SCRIPT: LazyLock<Script> = LazyLock::new(|| Script::new(APPEND));
static DELETE_SCRIPT: LazyLock<Script> = LazyLock::new(|| Script::new(DELETE_SESSION));

/// A [`SessionStore`] on Redis: see the [module](self) documentation.
pub struct RedisSessionStore {
    client: Client,
    config: ConnectionManagerConfig,
    connection: OnceCell<ConnectionManager>,
    prefix: String,
    known: Mutex<KnownSummaries>,
}

impl std::fmt::Debug for RedisSessionStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct(NAME)
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

/// A Redis error with the store's name.
fn explain(e: ::redis::RedisError) -> StoreError {
    Box::new(Invalid(format!("{NAME}: {e}")))
}

impl RedisSessionStore {
    /// A store on the server `client` points at (`redis::Client::open("redis://host:6379/0")`),
    /// with no key prefix. It connects on its first call (a call fails while the server cannot be
    /// reached, and the next one connects again), waits at most 5 s for a connection and 60 s
    /// for an answer; [`with_connection_config`](Self::with_connection_config) changes that.
    pub fn new(client: Client) -> Self {
        Self {
            client,
            config: ConnectionManagerConfig::new()
                .set_connection_timeout(Some(Duration::from_secs(5)))
                .set_response_timeout(Some(Duration::from_secs(60)))
                .set_number_of_retries(2),
            connection: OnceCell::new(),
            prefix: String::new(),
            known: Mutex::new(KnownSummaries::new(SUMMARY_CACHE)),
        }
    }

    /// The same store with its keys under `prefix` (as the TypeScript store's `prefix`: a
    /// non-empty prefix is followed by exactly one `:`).
    pub fn with_prefix(mut self, prefix: &str) -> Self {
        let trimmed = prefix.trim_end_matches(':');
        self.prefix = if prefix.is_empty() {
            String::new()
        } else {
            format!("{trimmed}:")
        };
        self
    }

    /// The same store connecting with `config` (timeouts, reconnection).
    pub fn with_connection_config(mut self, config: ConnectionManagerConfig) -> Self {
        self.config = config;
        self
    }

    async fn connection(&self) -> Result<ConnectionManager, StoreError> {
        let c = self
            .connection
            .get_or_try_init(|| self.client.get_connection_manager_with_config(self.config.clone()))
            .await
            .map_err(explain)?;
        Ok(c.clone())
    }

    fn project(&self, project_key: &str) -> String {
        format!("{}{{{}}}:", self.prefix, encode_part(project_key))
    }
    fn keyed(&self, kind: &str, key: &SessionKey) -> String {
        let sub = key
            .subpath
            .as_deref()
            .map(|s| format!(":{}", encode_part(s)))
            .unwrap_or_default();
        format!(
            "{}{kind}:{}{sub}",
            self.project(&key.project_key),
            encode_part(&key.session_id)
        )
    }
    fn subkeys_key(&self, key: &SessionKey) -> String {
        format!("{}k:{}", self.project(&key.project_key), encode_part(&key.session_id))
    }
    fn sessions_key(&self, project_key: &str) -> String {
        format!("{}sessions", self.project(project_key))
    }
    fn summaries_key(&self, project_key: &str) -> String {
        format!("{}summaries", self.project(project_key))
    }

    async fn append_entries(&self, key: &SessionKey, entries: &[Value]) -> Result<(), StoreError> {
        check_key(NAME, "append", key)?;
        let lines = serialize_entries(NAME, key, entries)?;
        if lines.is_empty() {
            return Ok(());
        }
        let mut conn = self.connection().await?;
        let run = |index: String, kind: &'static str, member: &str, expected: &str, next: &str| {
            let mut inv = APPEND_SCRIPT.prepare_invoke();
            inv.key(self.keyed("e", key))
                .key(self.keyed("u", key))
                .key(index)
                .key(self.summaries_key(&key.project_key))
                .arg(kind)
                .arg(member)
                .arg(expected)
                .arg(next);
            for (e, line) in entries.iter().zip(&lines) {
                // The TypeScript store's rule: any string uuid (an empty one is no uuid).
                inv.arg(e.get("uuid").and_then(Value::as_str).unwrap_or("")).arg(line);
            }
            inv
        };
        if let Some(sub) = &key.subpath {
            let inv = run(self.subkeys_key(key), "sub", sub, "", "");
            inv.invoke_async::<i64>(&mut conn).await.map_err(explain)?;
            return Ok(());
        }
        let summaries = self.summaries_key(&key.project_key);
        let mut cur = self.known.lock().unwrap_or_else(|p| p.into_inner()).get(key);
        for _ in 0..CAS_TRIES {
            // The summary this store last wrote is tried without reading it; a mismatch reads it.
            let expected = match cur.take() {
                Some(c) => c,
                None => ::redis::cmd("HGET")
                    .arg(&summaries)
                    .arg(&key.session_id)
                    .query_async::<Option<String>>(&mut conn)
                    .await
                    .map_err(explain)?
                    .unwrap_or_default(),
            };
            let next = fold_text(key, Some(&expected), entries)?;
            let inv = run(
                self.sessions_key(&key.project_key),
                "main",
                &key.session_id,
                &expected,
                &next,
            );
            let n: i64 = inv.invoke_async(&mut conn).await.map_err(explain)?;
            if n >= 0 {
                self.known.lock().unwrap_or_else(|p| p.into_inner()).remember(key, next);
                return Ok(());
            }
        }
        invalid(format!(
            "{NAME}.append(): the summary of session {:?} kept changing under {CAS_TRIES} tries (too many concurrent writers)",
            key.session_id
        ))
    }

    async fn load_entries(&self, key: &SessionKey) -> Result<Option<Vec<Value>>, StoreError> {
        check_key(NAME, "load", key)?;
        let mut conn = self.connection().await?;
        let texts: Vec<String> = ::redis::cmd("LRANGE")
            .arg(self.keyed("e", key))
            .arg(0)
            .arg(-1)
            .query_async(&mut conn)
            .await
            .map_err(explain)?;
        if texts.is_empty() {
            return Ok(None);
        }
        texts
            .iter()
            .enumerate()
            .map(|(i, t)| parse_entry(NAME, key, t, i))
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    async fn sessions(&self, project_key: &str) -> Result<Vec<StoredSession>, StoreError> {
        check_project_key(NAME, "listSessions", project_key)?;
        let mut conn = self.connection().await?;
        let flat: Vec<String> = ::redis::cmd("ZRANGE")
            .arg(self.sessions_key(project_key))
            .arg(0)
            .arg(-1)
            .arg("WITHSCORES")
            .query_async(&mut conn)
            .await
            .map_err(explain)?;
        pairs(flat)
    }

    async fn summaries(&self, project_key: &str) -> Result<Vec<SessionSummaryEntry>, StoreError> {
        check_project_key(NAME, "listSessionSummaries", project_key)?;
        let mut conn = self.connection().await?;
        let (flat, data): (Vec<String>, HashMap<String, String>) = ::redis::pipe()
            .atomic()
            .cmd("ZRANGE")
            .arg(self.sessions_key(project_key))
            .arg(0)
            .arg(-1)
            .arg("WITHSCORES")
            .cmd("HGETALL")
            .arg(self.summaries_key(project_key))
            .query_async(&mut conn)
            .await
            .map_err(explain)?;
        pairs(flat)?
            .into_iter()
            .map(|s| {
                let data = match data.get(&s.session_id) {
                    Some(text) => serde_json::from_str(text)?,
                    None => Default::default(),
                };
                Ok(SessionSummaryEntry {
                    session_id: s.session_id,
                    mtime: s.mtime,
                    data,
                })
            })
            .collect()
    }

    async fn remove(&self, key: &SessionKey) -> Result<(), StoreError> {
        check_key(NAME, "delete", key)?;
        let mut conn = self.connection().await?;
        if key.subpath.is_some() {
            ::redis::pipe()
                .atomic()
                .cmd("DEL")
                .arg(self.keyed("e", key))
                .arg(self.keyed("u", key))
                .ignore()
                .cmd("SREM")
                .arg(self.subkeys_key(key))
                .arg(key.subpath.as_deref())
                .ignore()
                .query_async::<()>(&mut conn)
                .await
                .map_err(explain)?;
            return Ok(());
        }
        self.known.lock().unwrap_or_else(|p| p.into_inner()).forget(key);
        let p = self.project(&key.project_key);
        let sid = encode_part(&key.session_id);
        DELETE_SCRIPT
            .key(self.subkeys_key(key))
            .key(self.keyed("e", key))
            .key(self.keyed("u", key))
            .key(self.sessions_key(&key.project_key))
            .key(self.summaries_key(&key.project_key))
            .arg(&key.session_id)
            .arg(format!("{p}e:{sid}:"))
            .arg(format!("{p}u:{sid}:"))
            .invoke_async::<i64>(&mut conn)
            .await
            .map_err(explain)?;
        Ok(())
    }

    async fn subkeys(&self, key: &SessionKey) -> Result<Vec<String>, StoreError> {
        check_session(NAME, "listSubkeys", key)?;
        let mut conn = self.connection().await?;
        ::redis::cmd("SMEMBERS")
            .arg(self.subkeys_key(key))
            .query_async(&mut conn)
            .await
            .map_err(explain)
    }
}

/// ZRANGE ... WITHSCORES's flat reply as sessions (scores are integer ms).
fn pairs(flat: Vec<String>) -> Result<Vec<StoredSession>, StoreError> {
    let mut out = Vec::with_capacity(flat.len() / 2);
    let mut it = flat.into_iter();
    while let (Some(session_id), Some(score)) = (it.next(), it.next()) {
        let Ok(mtime) = score.parse::<f64>() else {
            return invalid(format!(
                "{NAME}: session {session_id:?} has a score that is not a number: {score}"
            ));
        };
        out.push(StoredSession {
            session_id,
            mtime: mtime as i64,
        });
    }
    Ok(out)
}

delegate_session_store!(RedisSessionStore);
