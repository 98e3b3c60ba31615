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
//! Stores on real databases, behind cargo features: `postgres::PostgresSessionStore` (feature
//! `postgres`) and `redis::RedisSessionStore` (feature `redis`), with the TypeScript package's
//! tables and keys, so TypeScript and Rust workers share one database. `conformance` (feature
//! `testing`) checks any store against the contracts the SDK relies on.
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

pub(crate) mod api;
#[cfg(any(feature = "postgres", feature = "redis"))]
mod common;
#[cfg(feature = "testing")]
pub mod conformance;
mod fold;
pub(crate) mod folder;
mod memory;
#[cfg(feature = "postgres")]
pub mod postgres;
#[cfg(feature = "redis")]
pub mod redis;
mod resume;

pub use crate::stored::{
    delete_session, fork_session, get_session_info, get_session_messages, get_subagent_messages,
    import_session_to_store, list_sessions, list_subagents, rename_session, tag_session, ImportSession, IMPORT_BATCH,
};
pub use api::{
    project_key, SessionKey, SessionStore, SessionStoreFlush, SessionSummaryEntry, StoreError, StoreFuture,
    StoredSession,
};
pub use fold::fold_session_summary;
pub use memory::InMemorySessionStore;
pub use resume::{resume_from_store, LOAD_TIMEOUT};
