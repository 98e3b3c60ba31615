//! [`PostgresSessionStore`]: a [`SessionStore`] on PostgreSQL (cargo feature `postgres`), through
//! [`tokio_postgres`] pooled by [`deadpool_postgres`] (both re-exported here, so your pool is
//! built with the versions this store takes).
//!
//! Its tables are the TypeScript package's (`claude-agent-sdk-native/stores/postgres`), so a
//! TypeScript worker and a Rust worker share one database, each reading what the other wrote:
//!
//! - `claude_session_entries` (or your `table_name`): one row per entry, ordered by a `BIGSERIAL`
//!   id, the entry as `json` (its text as written), and its `uuid`; a unique index on
//!   (project, session, subpath, uuid) makes a replayed entry (a retried append, an import run
//!   twice) a no-op. The table of the official repository's reference adapter is read as is.
//! - `<table>_summaries`: per session, its mtime and its summary
//!   ([`fold_session_summary`](super::fold_session_summary)'s data), which
//!   [`list_sessions`](SessionStore::list_sessions) and
//!   [`list_session_summaries`](SessionStore::list_session_summaries) read.
//!
//! An append is all of its entries and the session's summary, or nothing: one statement when the
//! summary is the one this store object last wrote (one writer per session, the usual case),
//! else a transaction that folds it under the summary row's lock (concurrent appends to one
//! session queue there). Ids are bound parameters, never part of the SQL text.
//!
//! ```no_run
//! use claude_agent_sdk::store::postgres::PostgresSessionStore;
//! # async fn run() -> Result<(), claude_agent_sdk::store::StoreError> {
//! let pool = PostgresSessionStore::pool("postgresql://app@db.internal/app", 16)?;
//! let store = PostgresSessionStore::new(pool);
//! store.ensure_schema().await?; // once at startup; safe from many workers at once
//! # Ok(()) }
//! ```

use std::sync::Mutex;

pub use deadpool_postgres;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use serde_json::Value;
pub use tokio_postgres;

use super::api::{SessionKey, SessionStore, SessionSummaryEntry, StoreError, StoreFuture, StoredSession};
use super::common::{
    check_key, check_project_key, check_session, delegate_session_store, fold_text, invalid, parse_entry,
    serialize_entries, uuid_of, Invalid, KnownSummaries,
};

const NAME: &str = "PostgresSessionStore";
/// Summaries a store object remembers having written (to skip reading them back).
const SUMMARY_CACHE: usize = 10_000;

/// A [`SessionStore`] on PostgreSQL: see the [module](self) documentation.
pub struct PostgresSessionStore {
    pool: Pool,
    table: String,
    summaries: String,
    known: Mutex<KnownSummaries>,
}

impl std::fmt::Debug for PostgresSessionStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct(NAME).field("table", &self.table).finish_non_exhaustive()
    }
}

/// The entries' rows as one INSERT of two arrays, in order (ids follow the arrays' order).
fn insert_rows(table: &str, condition: &str) -> String {
    format!(
        "INSERT INTO {table} (project_key, session_id, subpath, uuid, entry) \
         SELECT $1::text, $2::text, $3::text, x.u, x.e::json \
         FROM unnest($4::text[], $5::text[]) WITH ORDINALITY AS x(u, e, n) {condition} ORDER BY x.n \
         ON CONFLICT (project_key, session_id, (COALESCE(subpath, '')), uuid) WHERE uuid IS NOT NULL DO NOTHING"
    )
}

/// The tables and indexes, as the TypeScript store creates them (the one file both read);
/// `{entries}` and `{summaries}` stand for the tables' names.
const SCHEMA: &str = include_str!("../../../../lib/stores/postgres-schema.sql");

/// The new mtime: the server's clock in ms, after the previous one.
const NEXT_MTIME: &str = "GREATEST(mtime + 1, (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT)";

impl PostgresSessionStore {
    /// A store on `pool`, in the table `claude_session_entries` (and
    /// `claude_session_entries_summaries`). Call [`ensure_schema`](Self::ensure_schema) once.
    pub fn new(pool: Pool) -> Self {
        Self {
            pool,
            table: "claude_session_entries".into(),
            summaries: "claude_session_entries_summaries".into(),
            known: Mutex::new(KnownSummaries::new(SUMMARY_CACHE)),
        }
    }

    /// The same store in the table `name` (letters, digits and `_`, not starting with a digit,
    /// at most 40 characters; case-folded as PostgreSQL does).
    pub fn with_table_name(mut self, name: &str) -> Result<Self, StoreError> {
        let ok = !name.is_empty()
            && name.len() <= 40
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            && !name.as_bytes()[0].is_ascii_digit();
        if !ok {
            return invalid(format!(
                "{NAME}: invalid table name {name:?} (letters, digits and _, not starting with a digit, at most 40 characters)"
            ));
        }
        self.table = name.to_ascii_lowercase();
        self.summaries = format!("{}_summaries", self.table);
        Ok(self)
    }

    /// A pool of at most `max_size` connections to `url` (`postgresql://user:pass@host:port/db`,
    /// or key=value pairs), without TLS. For TLS, build a [`deadpool_postgres::Manager`] with
    /// your connector.
    pub fn pool(url: &str, max_size: usize) -> Result<Pool, StoreError> {
        let config: tokio_postgres::Config = url.parse()?;
        let manager = Manager::from_config(
            config,
            tokio_postgres::NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        Ok(Pool::builder(manager).max_size(max_size).build()?)
    }

    /// The table of entries (its summaries are in `<table>_summaries`).
    pub fn table_name(&self) -> &str {
        &self.table
    }

    /// A database error with its message and SQLSTATE; a missing table with what to do about it.
    fn explain(&self, e: tokio_postgres::Error) -> StoreError {
        let Some(db) = e.as_db_error() else {
            let mut message = format!("{NAME}: {e}");
            let mut source = std::error::Error::source(&e);
            while let Some(s) = source {
                message.push_str(&format!(": {s}"));
                source = s.source();
            }
            return Box::new(Invalid(message));
        };
        if db.code() == &tokio_postgres::error::SqlState::UNDEFINED_TABLE {
            return Box::new(Invalid(format!(
                "{NAME}: the table {} does not exist: call ensure_schema() once at startup ({})",
                self.table,
                db.message()
            )));
        }
        Box::new(Invalid(format!("{NAME}: {} ({})", db.message(), db.code().code())))
    }

    async fn client(&self) -> Result<deadpool_postgres::Object, StoreError> {
        self.pool.get().await.map_err(|e| match e {
            deadpool_postgres::PoolError::Backend(e) => self.explain(e),
            e => Box::new(Invalid(format!("{NAME}: no connection from the pool: {e}"))) as StoreError,
        })
    }

    /// Creates the tables and indexes if absent. Idempotent, and safe to call from many
    /// processes at once (serialized by an advisory lock, the same one the TypeScript store
    /// takes). Sessions in a table the reference adapter wrote get their summary rows here.
    pub async fn ensure_schema(&self) -> Result<(), StoreError> {
        let (t, s) = (&self.table, &self.summaries);
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(|e| self.explain(e))?;
        let run = async {
            tx.execute(
                "SELECT pg_advisory_xact_lock(hashtext($1::text))",
                &[&format!("claude-agent-sdk-native:{t}")],
            )
            .await?;
            let row = tx
                .query_one(
                    "SELECT to_regclass($1::text) IS NOT NULL, to_regclass($2::text) IS NOT NULL",
                    &[t, s],
                )
                .await?;
            let (had_entries, had_summaries): (bool, bool) = (row.get(0), row.get(1));
            tx.batch_execute(&SCHEMA.replace("{entries}", t).replace("{summaries}", s))
                .await?;
            if had_entries && !had_summaries {
                tx.execute(
                    &format!(
                        "INSERT INTO {s} (project_key, session_id, mtime, data)
                         SELECT project_key, session_id, (EXTRACT(EPOCH FROM MAX(created_at)) * 1000)::BIGINT, '{{}}' FROM {t}
                         WHERE subpath IS NULL GROUP BY project_key, session_id ON CONFLICT DO NOTHING"
                    ),
                    &[],
                )
                .await?;
            }
            Ok::<_, tokio_postgres::Error>(())
        };
        run.await.map_err(|e| self.explain(e))?;
        tx.commit().await.map_err(|e| self.explain(e))
    }

    async fn append_entries(&self, key: &SessionKey, entries: &[Value]) -> Result<(), StoreError> {
        check_key(NAME, "append", key)?;
        let lines = serialize_entries(NAME, key, entries)?;
        if lines.is_empty() {
            return Ok(());
        }
        let uuids: Vec<Option<&str>> = entries.iter().map(uuid_of).collect();
        let sub = key.subpath.as_deref();
        let mut client = self.client().await?;
        if sub.is_some() {
            // A subpath: one statement (atomic by itself).
            client
                .execute(
                    &insert_rows(&self.table, ""),
                    &[&key.project_key, &key.session_id, &sub, &uuids, &lines],
                )
                .await
                .map_err(|e| self.explain(e))?;
            return Ok(());
        }
        let s = &self.summaries;
        let known = self.known.lock().unwrap_or_else(|p| p.into_inner()).get(key);
        if let Some(known) = known {
            // One statement: the entries and the summary, provided the summary is still the one
            // this store wrote (else another writer appended meanwhile: the transaction reads it).
            let folded = fold_text(key, Some(&known), entries)?;
            let row = client
                .query_one(
                    &format!(
                        "WITH up AS (UPDATE {s} SET mtime = {NEXT_MTIME}, data = $6::text::json
                           WHERE project_key = $1 AND session_id = $2 AND data::text = $7::text RETURNING 1),
                         ins AS ({})
                         SELECT count(*)::int FROM up",
                        insert_rows(&self.table, "WHERE EXISTS (SELECT 1 FROM up)")
                    ),
                    &[&key.project_key, &key.session_id, &sub, &uuids, &lines, &folded, &known],
                )
                .await
                .map_err(|e| self.explain(e))?;
            if row.get::<_, i32>(0) == 1 {
                self.remember(key, folded);
                return Ok(());
            }
        }
        let tx = client.transaction().await.map_err(|e| self.explain(e))?;
        let folded = async {
            tx.execute(
                &insert_rows(&self.table, ""),
                &[&key.project_key, &key.session_id, &sub, &uuids, &lines],
            )
            .await?;
            // The session's summary, folded under the row's lock (concurrent appends queue here).
            tx.execute(
                &format!("INSERT INTO {s} (project_key, session_id, mtime, data) VALUES ($1, $2, 0, '{{}}') ON CONFLICT DO NOTHING"),
                &[&key.project_key, &key.session_id],
            )
            .await?;
            let row = tx
                .query_one(
                    &format!("SELECT data::text FROM {s} WHERE project_key = $1 AND session_id = $2 FOR UPDATE"),
                    &[&key.project_key, &key.session_id],
                )
                .await?;
            Ok::<_, tokio_postgres::Error>(row.get::<_, String>(0))
        }
        .await
        .map_err(|e| self.explain(e))?;
        let folded = fold_text(key, Some(&folded), entries)?;
        tx.execute(
            &format!(
                "UPDATE {s} SET mtime = {NEXT_MTIME}, data = $3::text::json WHERE project_key = $1 AND session_id = $2"
            ),
            &[&key.project_key, &key.session_id, &folded],
        )
        .await
        .map_err(|e| self.explain(e))?;
        tx.commit().await.map_err(|e| self.explain(e))?;
        self.remember(key, folded);
        Ok(())
    }

    fn remember(&self, key: &SessionKey, text: String) {
        self.known.lock().unwrap_or_else(|p| p.into_inner()).remember(key, text);
    }

    fn forget(&self, key: &SessionKey) {
        self.known.lock().unwrap_or_else(|p| p.into_inner()).forget(key);
    }

    async fn load_entries(&self, key: &SessionKey) -> Result<Option<Vec<Value>>, StoreError> {
        check_key(NAME, "load", key)?;
        let client = self.client().await?;
        let t = &self.table;
        let rows = match &key.subpath {
            None => {
                client
                    .query(
                        &format!("SELECT entry::text FROM {t} WHERE project_key = $1 AND session_id = $2 AND subpath IS NULL ORDER BY id"),
                        &[&key.project_key, &key.session_id],
                    )
                    .await
            }
            Some(sub) => {
                client
                    .query(
                        &format!("SELECT entry::text FROM {t} WHERE project_key = $1 AND session_id = $2 AND subpath = $3 ORDER BY id"),
                        &[&key.project_key, &key.session_id, sub],
                    )
                    .await
            }
        }
        .map_err(|e| self.explain(e))?;
        if rows.is_empty() {
            return Ok(None);
        }
        rows.iter()
            .enumerate()
            .map(|(i, r)| parse_entry(NAME, key, r.get(0), i))
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    async fn sessions(&self, project_key: &str) -> Result<Vec<StoredSession>, StoreError> {
        check_project_key(NAME, "listSessions", project_key)?;
        let rows = self
            .client()
            .await?
            .query(
                &format!(
                    "SELECT session_id, mtime FROM {} WHERE project_key = $1",
                    self.summaries
                ),
                &[&project_key],
            )
            .await
            .map_err(|e| self.explain(e))?;
        Ok(rows
            .iter()
            .map(|r| StoredSession {
                session_id: r.get(0),
                mtime: r.get(1),
            })
            .collect())
    }

    async fn summaries(&self, project_key: &str) -> Result<Vec<SessionSummaryEntry>, StoreError> {
        check_project_key(NAME, "listSessionSummaries", project_key)?;
        let rows = self
            .client()
            .await?
            .query(
                &format!(
                    "SELECT session_id, mtime, data::text FROM {} WHERE project_key = $1",
                    self.summaries
                ),
                &[&project_key],
            )
            .await
            .map_err(|e| self.explain(e))?;
        rows.iter()
            .map(|r| {
                Ok(SessionSummaryEntry {
                    session_id: r.get(0),
                    mtime: r.get(1),
                    data: serde_json::from_str(r.get::<_, &str>(2))?,
                })
            })
            .collect()
    }

    async fn remove(&self, key: &SessionKey) -> Result<(), StoreError> {
        check_key(NAME, "delete", key)?;
        let t = &self.table;
        let mut client = self.client().await?;
        if let Some(sub) = &key.subpath {
            client
                .execute(
                    &format!("DELETE FROM {t} WHERE project_key = $1 AND session_id = $2 AND subpath = $3"),
                    &[&key.project_key, &key.session_id, sub],
                )
                .await
                .map_err(|e| self.explain(e))?;
            return Ok(());
        }
        // The whole session: its transcript, every subpath and its summary, at once.
        self.forget(key);
        let tx = client.transaction().await.map_err(|e| self.explain(e))?;
        for table in [t, &self.summaries] {
            tx.execute(
                &format!("DELETE FROM {table} WHERE project_key = $1 AND session_id = $2"),
                &[&key.project_key, &key.session_id],
            )
            .await
            .map_err(|e| self.explain(e))?;
        }
        tx.commit().await.map_err(|e| self.explain(e))
    }

    async fn subkeys(&self, key: &SessionKey) -> Result<Vec<String>, StoreError> {
        check_session(NAME, "listSubkeys", key)?;
        let rows = self
            .client()
            .await?
            .query(
                &format!(
                    "SELECT DISTINCT subpath FROM {} WHERE project_key = $1 AND session_id = $2 AND subpath IS NOT NULL",
                    self.table
                ),
                &[&key.project_key, &key.session_id],
            )
            .await
            .map_err(|e| self.explain(e))?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }
}

delegate_session_store!(PostgresSessionStore);
