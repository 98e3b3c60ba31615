//! What the database stores ([`super::postgres`], [`super::redis`]) check and encode the same
//! way, as the TypeScript adapters' `lib/stores/common.js` does (so that a TypeScript worker and a
//! Rust worker share one database): the key and entries a caller passes, one key component as
//! text without separators, and one stored entry read back.

use serde_json::{Map, Value};

use super::api::{SessionKey, SessionSummaryEntry, StoreError};
use super::fold::fold_session_summary;

/// A store's error: a message naming the store, the method and what was wrong.
#[derive(Debug)]
pub(crate) struct Invalid(pub(crate) String);

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Invalid {}

/// `Err(Invalid(message))` as a [`StoreError`].
pub(crate) fn invalid<T>(message: String) -> Result<T, StoreError> {
    Err(Box::new(Invalid(message)))
}

/// A key's description for error messages: `session "S" (project "P", subpath "X")`.
pub(crate) fn describe_key(key: &SessionKey) -> String {
    let q = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let sub = key
        .subpath
        .as_deref()
        .map(|s| format!(", subpath {}", q(s)))
        .unwrap_or_default();
    format!("session {} (project {}{sub})", q(&key.session_id), q(&key.project_key))
}

/// An error naming the method and the field when `key` has an empty id or subpath.
pub(crate) fn check_key(store: &str, method: &str, key: &SessionKey) -> Result<(), StoreError> {
    for (field, value) in [("projectKey", &key.project_key), ("sessionId", &key.session_id)] {
        if value.is_empty() {
            return invalid(format!("{store}.{method}(): key.{field} must be a non-empty string"));
        }
    }
    if key.subpath.as_deref() == Some("") {
        return invalid(format!(
            "{store}.{method}(): key.subpath must be a non-empty string or None"
        ));
    }
    Ok(())
}

/// [`check_key`] of a session's main transcript (a subpath in `key` is not looked at).
pub(crate) fn check_session(store: &str, method: &str, key: &SessionKey) -> Result<(), StoreError> {
    check_key(store, method, &SessionKey::new(&key.project_key, &key.session_id))
}

/// An error when `project_key` is empty.
pub(crate) fn check_project_key(store: &str, method: &str, project_key: &str) -> Result<(), StoreError> {
    if project_key.is_empty() {
        return invalid(format!("{store}.{method}(): projectKey must be a non-empty string"));
    }
    Ok(())
}

/// The entries of an append as JSON text, checked: objects with a string `type` (anything else
/// would be stored as something `load` cannot give back as an entry).
pub(crate) fn serialize_entries(store: &str, key: &SessionKey, entries: &[Value]) -> Result<Vec<String>, StoreError> {
    entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            if !e.get("type").is_some_and(Value::is_string) {
                return invalid(format!(
                    "{store}.append(): entry {i} for {} must be an object with a string \"type\"",
                    describe_key(key)
                ));
            }
            Ok(serde_json::to_string(e)?)
        })
        .collect()
}

/// The `uuid` of an entry when it has a non-empty one (a replay of it is dropped).
pub(crate) fn uuid_of(entry: &Value) -> Option<&str> {
    entry.get("uuid").and_then(Value::as_str).filter(|u| !u.is_empty())
}

/// An entry read back: parsed, or an error naming the session and the entry's position.
pub(crate) fn parse_entry(store: &str, key: &SessionKey, text: &str, index: usize) -> Result<Value, StoreError> {
    let head: String = text.chars().take(80).collect();
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            return invalid(format!(
                "{store}.load(): corrupt entry {index} of {}: not JSON ({e}): {head}",
                describe_key(key)
            ))
        }
    };
    if !value.get("type").is_some_and(Value::is_string) {
        return invalid(format!(
            "{store}.load(): corrupt entry {index} of {}: not an object with a string \"type\": {head}",
            describe_key(key)
        ));
    }
    Ok(value)
}

/// One key component as text without separators: every UTF-8 byte but ASCII letters, digits,
/// `-` and `_` percent-encoded (upper-case hex), as the TypeScript adapters' `encodePart` (so no
/// component is `.` or `..`, holds `/`, `:`, `{` or `}`, or is empty).
#[cfg(feature = "redis")]
pub(crate) fn encode_part(value: &str) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || b == b'-' || b == b'_' {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// The summary `prev_text` (as stored) folded with `entries`, as JSON text.
pub(crate) fn fold_text(key: &SessionKey, prev_text: Option<&str>, entries: &[Value]) -> Result<String, StoreError> {
    let prev = match prev_text.filter(|t| !t.is_empty()) {
        Some(t) => {
            let data: Map<String, Value> = serde_json::from_str(t)?;
            (!data.is_empty()).then(|| SessionSummaryEntry {
                session_id: key.session_id.clone(),
                mtime: 0,
                data,
            })
        }
        None => None,
    };
    Ok(serde_json::to_string(
        &fold_session_summary(prev.as_ref(), key, entries, None).data,
    )?)
}

/// The [`SessionStore`](super::api::SessionStore) impl of a database store: each method the
/// store's own async fn of the same job (`append_entries`, `load_entries`, `sessions`,
/// `summaries`, `subkeys`, `remove`).
macro_rules! delegate_session_store {
    ($store:ty) => {
        impl SessionStore for $store {
            fn append<'a>(&'a self, key: &'a SessionKey, entries: &'a [Value]) -> StoreFuture<'a, ()> {
                Box::pin(self.append_entries(key, entries))
            }
            fn load<'a>(&'a self, key: &'a SessionKey) -> StoreFuture<'a, Option<Vec<Value>>> {
                Box::pin(self.load_entries(key))
            }
            fn list_sessions<'a>(&'a self, project_key: &'a str) -> Option<StoreFuture<'a, Vec<StoredSession>>> {
                Some(Box::pin(self.sessions(project_key)))
            }
            fn list_session_summaries<'a>(
                &'a self,
                project_key: &'a str,
            ) -> Option<StoreFuture<'a, Vec<SessionSummaryEntry>>> {
                Some(Box::pin(self.summaries(project_key)))
            }
            fn list_subkeys<'a>(&'a self, key: &'a SessionKey) -> Option<StoreFuture<'a, Vec<String>>> {
                Some(Box::pin(self.subkeys(key)))
            }
            fn delete<'a>(&'a self, key: &'a SessionKey) -> Option<StoreFuture<'a, ()>> {
                Some(Box::pin(self.remove(key)))
            }
        }
    };
}
pub(crate) use delegate_session_store;

/// Summaries a store remembers having written (per store object), so that the next append of
/// the same session needs no read of it: the newest `capacity`, by insertion.
pub(crate) struct KnownSummaries {
    map: std::collections::HashMap<(String, String), String>,
    order: std::collections::VecDeque<(String, String)>,
    capacity: usize,
}

impl KnownSummaries {
    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            map: Default::default(),
            order: Default::default(),
            capacity,
        }
    }

    pub(crate) fn get(&self, key: &SessionKey) -> Option<String> {
        self.map
            .get(&(key.project_key.clone(), key.session_id.clone()))
            .cloned()
    }

    pub(crate) fn forget(&mut self, key: &SessionKey) {
        self.map.remove(&(key.project_key.clone(), key.session_id.clone()));
    }

    pub(crate) fn remember(&mut self, key: &SessionKey, text: String) {
        let id = (key.project_key.clone(), key.session_id.clone());
        if self.map.insert(id.clone(), text).is_none() {
            self.order.push_back(id);
        }
        while self.map.len() > self.capacity {
            match self.order.pop_front() {
                Some(old) => {
                    self.map.remove(&old);
                }
                None => break,
            }
        }
        // Entries forgotten meanwhile leave stale ids in `order`: drop them when it grows.
        if self.order.len() > self.capacity * 2 {
            let map = &self.map;
            self.order.retain(|id| map.contains_key(id));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "redis")]
    #[test]
    fn encodes_as_the_typescript_adapters() {
        // encodeURIComponent, plus . ! ' ( ) * ~
        assert_eq!(encode_part("a.b/c:d{e}~ü-_*"), "a%2Eb%2Fc%3Ad%7Be%7D%7E%C3%BC-_%2A");
    }

    #[test]
    fn entries_are_checked_and_corrupt_ones_named() {
        let key = SessionKey::new("p", "s");
        let bad = serialize_entries("S", &key, &[serde_json::json!({"no":"type"})]).unwrap_err();
        assert_eq!(
            bad.to_string(),
            r#"S.append(): entry 0 for session "s" (project "p") must be an object with a string "type""#
        );
        let e = parse_entry("S", &key, "[1,2]", 3).unwrap_err().to_string();
        assert!(
            e.starts_with(r#"S.load(): corrupt entry 3 of session "s" (project "p"): not an object"#),
            "{e}"
        );
    }

    #[test]
    fn known_summaries_are_bounded() {
        let mut k = KnownSummaries::new(2);
        for i in 0..5 {
            k.remember(&SessionKey::new("p", i.to_string()), i.to_string());
        }
        assert_eq!(k.get(&SessionKey::new("p", "4")).as_deref(), Some("4"));
        assert_eq!(k.get(&SessionKey::new("p", "0")), None);
        assert_eq!(k.map.len(), 2);
    }
}
