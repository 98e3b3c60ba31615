//! [`fold_session_summary`]: the per-session summary a store keeps, folded from each batch of
//! appended entries as the TypeScript SDK folds it.

use serde_json::{json, Map, Value};

use super::api::{SessionKey, SessionSummaryEntry};

/// Fields taken from any entry that has them as strings, the last one winning, and the summary
/// field each goes to.
const LAST_WINS: [(&str, &str); 5] = [
    ("customTitle", "customTitle"),
    ("aiTitle", "aiTitle"),
    ("lastPrompt", "lastPrompt"),
    ("summary", "summaryHint"),
    ("gitBranch", "gitBranch"),
];

/// Folds appended entries into a session's summary, as a store keeps it inside
/// [`append`](crate::store::SessionStore::append) so that [`list_sessions`](crate::store::list_sessions) needs no load per session (the
/// TypeScript SDK's `foldSessionSummary`, with the same `data`). `prev` is the summary so far
/// (`None` for the session's first append); the result carries `mtime` (else `prev`'s, else 0):
/// stamp it with the time the store wrote, on the clock its
/// [`list_sessions`](crate::store::SessionStore::list_sessions) reports. The fold is pure; a store whose appends
/// can race for one session serializes its read-fold-write.
///
/// Whether it is a sidechain, when it started, its directory and its first prompt are set once;
/// its titles, last prompt, summary, branch and tag change with every entry that has them.
pub fn fold_session_summary(
    prev: Option<&SessionSummaryEntry>,
    key: &SessionKey,
    entries: &[Value],
    mtime: Option<i64>,
) -> SessionSummaryEntry {
    let mtime = mtime.or(prev.map(|p| p.mtime)).unwrap_or(0);
    let mut summary = match prev {
        Some(p) => SessionSummaryEntry {
            session_id: p.session_id.clone(),
            mtime,
            data: p.data.clone(),
        },
        None => SessionSummaryEntry {
            session_id: key.session_id.clone(),
            mtime,
            data: Map::new(),
        },
    };
    let data = &mut summary.data;
    let no_fields = Map::new();
    for e in entries {
        // Entries are objects; anything else has none of the fields (and is not a sidechain).
        let o = e.as_object().unwrap_or(&no_fields);
        let str_of = |k: &str| o.get(k).and_then(Value::as_str);
        if !data.contains_key("isSidechain") {
            data.insert(
                "isSidechain".into(),
                json!(o.get("isSidechain") == Some(&Value::Bool(true))),
            );
        }
        if !data.contains_key("createdAt") {
            if let Some(t) = str_of("timestamp").and_then(agent_core::sessions::info::parse_iso_ms) {
                data.insert("createdAt".into(), json!(t));
            }
        }
        if !data.contains_key("cwd") {
            if let Some(c) = str_of("cwd").filter(|c| !c.is_empty()) {
                data.insert("cwd".into(), json!(c));
            }
        }
        fold_prompt(data, e);
        for (from, to) in LAST_WINS {
            if let Some(v) = str_of(from) {
                data.insert(to.into(), json!(v));
            }
        }
        if str_of("type") == Some("tag") {
            match str_of("tag").filter(|t| !t.is_empty()) {
                Some(t) => {
                    data.insert("tag".into(), json!(t));
                }
                None => {
                    data.shift_remove("tag");
                }
            }
        }
        if str_of("type") == Some("relocated") {
            if let Some(c) = str_of("relocatedCwd").filter(|c| !c.is_empty()) {
                data.insert("cwd".into(), json!(c));
            }
        }
    }
    summary
}

/// The first prompt, once one is seen (a slash command's name kept meanwhile as the fallback).
fn fold_prompt(data: &mut Map<String, Value>, entry: &Value) {
    if data.get("firstPromptLocked").is_some_and(truthy) {
        return;
    }
    let had = data
        .get("commandFallback")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_string);
    let mut fallback = had.clone();
    let prompt = agent_core::sessions::scan::prompt_of(entry, &mut fallback);
    if let (Some(f), None) = (fallback.filter(|f| !f.is_empty()), had) {
        data.insert("commandFallback".into(), json!(f));
    }
    if let Some(p) = prompt {
        data.insert("firstPrompt".into(), json!(p));
        data.insert("firstPromptLocked".into(), json!(true));
    }
}

/// JavaScript's truthiness of a JSON value.
fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Value::String(s) => !s.is_empty(),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds() {
        let key = SessionKey::new("p", "s");
        let e = [
            json!({"type":"user","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/a","message":{"content":"<command-name>/init</command-name>"}}),
            json!({"type":"user","cwd":"/b","message":{"content":"hello"},"gitBranch":"main"}),
            json!({"type":"tag","tag":"t"}),
            json!({"type":"custom-title","customTitle":"T"}),
        ];
        let s = fold_session_summary(None, &key, &e, Some(5));
        assert_eq!(
            Value::Object(s.data.clone()),
            json!({"isSidechain":false,"createdAt":1767225600000i64,"cwd":"/a","commandFallback":"/init","firstPrompt":"hello","firstPromptLocked":true,"gitBranch":"main","tag":"t","customTitle":"T"})
        );
        let s = fold_session_summary(Some(&s), &key, &[json!({"type":"tag","tag":""})], None);
        assert_eq!(s.mtime, 5);
        assert!(!s.data.contains_key("tag"));
    }
}
