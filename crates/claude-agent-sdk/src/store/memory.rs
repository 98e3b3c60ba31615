//! [`InMemorySessionStore`]: the TypeScript SDK's in-memory store, for tests and examples.

use std::collections::BTreeMap;
use std::sync::Mutex;

use futures::FutureExt;
use serde_json::Value;

use super::api::{SessionKey, SessionStore, SessionSummaryEntry, StoreFuture, StoredSession};
use super::fold::fold_session_summary;

/// A [`SessionStore`] in memory, as the TypeScript SDK's `InMemorySessionStore`: for tests, and
/// as a model for your own. It keeps each session's summary with [`fold_session_summary`] as it
/// appends, and lists them ([`SessionStore::list_session_summaries`]).
#[derive(Debug, Default)]
pub struct InMemorySessionStore {
    inner: Mutex<Memory>,
}

/// A transcript's place: project, session, subpath (`None` for the main transcript). Kept apart,
/// so that no id can stand for another (`a/b` + `c` is not `a` + `b/c`).
type Slot = (String, String, Option<String>);

#[derive(Debug, Default)]
struct Memory {
    entries: BTreeMap<Slot, Vec<Value>>,
    mtimes: BTreeMap<Slot, i64>,
    summaries: BTreeMap<(String, String), SessionSummaryEntry>,
    last_mtime: i64,
}

fn slot(key: &SessionKey) -> Slot {
    (
        key.project_key.clone(),
        key.session_id.clone(),
        key.subpath.clone().filter(|s| !s.is_empty()),
    )
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
        self.memory().entries.get(&slot(key)).cloned().unwrap_or_default()
    }

    /// How many main transcripts it holds.
    pub fn len(&self) -> usize {
        self.memory().entries.keys().filter(|k| k.2.is_none()).count()
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
        if entries.is_empty() {
            return futures::future::ready(Ok(())).boxed();
        }
        let mut m = self.memory();
        let k = slot(key);
        m.entries.entry(k.clone()).or_default().extend(entries.iter().cloned());
        // Each append a later mtime than the one before, as the TypeScript store keeps them.
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        let mtime = now.max(m.last_mtime + 1);
        m.last_mtime = mtime;
        m.mtimes.insert(k, mtime);
        if key.subpath.is_none() {
            let s = (key.project_key.clone(), key.session_id.clone());
            let folded = fold_session_summary(m.summaries.get(&s), key, entries, Some(mtime));
            m.summaries.insert(s, folded);
        }
        futures::future::ready(Ok(())).boxed()
    }

    fn load<'a>(&'a self, key: &'a SessionKey) -> StoreFuture<'a, Option<Vec<Value>>> {
        let found = self.memory().entries.get(&slot(key)).cloned();
        futures::future::ready(Ok(found)).boxed()
    }

    fn list_sessions<'a>(&'a self, project_key: &'a str) -> Option<StoreFuture<'a, Vec<StoredSession>>> {
        let m = self.memory();
        let list = m
            .entries
            .keys()
            .filter(|(p, _, sub)| p == project_key && sub.is_none())
            .map(|k| StoredSession {
                session_id: k.1.clone(),
                mtime: m.mtimes.get(k).copied().unwrap_or(0),
            })
            .collect();
        Some(futures::future::ready(Ok(list)).boxed())
    }

    fn list_session_summaries<'a>(&'a self, project_key: &'a str) -> Option<StoreFuture<'a, Vec<SessionSummaryEntry>>> {
        let list = self
            .memory()
            .summaries
            .iter()
            .filter(|((p, _), _)| p == project_key)
            .map(|(_, v)| v.clone())
            .collect();
        Some(futures::future::ready(Ok(list)).boxed())
    }

    fn list_subkeys<'a>(&'a self, key: &'a SessionKey) -> Option<StoreFuture<'a, Vec<String>>> {
        let subs = self
            .memory()
            .entries
            .keys()
            .filter(|(p, s, _)| *p == key.project_key && *s == key.session_id)
            .filter_map(|k| k.2.clone())
            .collect();
        Some(futures::future::ready(Ok(subs)).boxed())
    }

    fn delete<'a>(&'a self, key: &'a SessionKey) -> Option<StoreFuture<'a, ()>> {
        let mut m = self.memory();
        let k = slot(key);
        m.entries.remove(&k);
        m.mtimes.remove(&k);
        if key.subpath.is_none() {
            m.summaries.remove(&(k.0.clone(), k.1.clone()));
            let same = |s: &Slot| s.0 == k.0 && s.1 == k.1;
            m.entries.retain(|s, _| !same(s));
            m.mtimes.retain(|s, _| !same(s));
        }
        Some(futures::future::ready(Ok(())).boxed())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn in_memory_store_behaves_as_the_typescript_one() {
        let s = InMemorySessionStore::new();
        let k = SessionKey::new("p", "s1");
        let sub = SessionKey {
            subpath: Some("subagents/agent-a".into()),
            ..k.clone()
        };
        assert_eq!(s.load(&k).await.unwrap(), None);
        s.append(&k, &[serde_json::json!({"type":"user"})]).await.unwrap();
        s.append(&k, &[serde_json::json!({"type":"assistant"})]).await.unwrap();
        s.append(&sub, &[serde_json::json!({"type":"user"})]).await.unwrap();
        s.append(&SessionKey::new("p", "s2"), &[serde_json::json!({"type":"user"})])
            .await
            .unwrap();
        assert_eq!(s.load(&k).await.unwrap().unwrap().len(), 2);
        assert_eq!(s.len(), 2);
        let mut listed = s.list_sessions("p").unwrap().await.unwrap();
        listed.sort_by_key(|x| x.mtime);
        assert_eq!(
            listed.iter().map(|x| x.session_id.as_str()).collect::<Vec<_>>(),
            ["s1", "s2"]
        );
        assert!(listed[0].mtime < listed[1].mtime, "every append a later mtime");
        assert_eq!(s.list_subkeys(&k).unwrap().await.unwrap(), ["subagents/agent-a"]);
        s.delete(&k).unwrap().await.unwrap();
        assert_eq!(s.load(&sub).await.unwrap(), None, "a session's subagents go with it");
        assert_eq!(s.len(), 1);
        s.clear();
        assert!(s.is_empty());
    }
}
