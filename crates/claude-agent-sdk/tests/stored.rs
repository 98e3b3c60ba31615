//! The store variants of the session functions, `import_session_to_store` and
//! `fold_session_summary`, side by side with the official TypeScript SDK's `{ sessionStore }`
//! functions, `importSessionToStore` and `foldSessionSummary` (the repository's devDependency,
//! run by `support/official-store.mjs`) on a generated corpus: each side imports the same local
//! sessions into a store of the same deterministic kind (a counter for its clock, summaries
//! folded by its own SDK), then lists, reads, renames, tags, forks and deletes through it. The
//! appends (key and batch size), the summaries, and every answer must be the same.
//! One test, in its own process: it sets `CLAUDE_CONFIG_DIR`.

mod support;

use std::sync::{Arc, Mutex};

use claude_agent_sdk::sessions::{ForkSession, ListSessions, SessionMessage, SessionMessages};
use claude_agent_sdk::store::{
    self, ImportSession, SessionKey, SessionStore, SessionSummaryEntry, StoreFuture, StoredSession,
};
use futures::FutureExt;
use serde_json::{json, Value};
use support::{info_json, message_json, norm};

fn node(args: &[&str]) -> Value {
    let out = support::official_script("official-store.mjs", args);
    serde_json::from_slice(&out).expect("JSON")
}

/// A map that keeps its keys in insertion order, as a JavaScript `Map`.
struct Ordered<T>(Vec<(String, T)>);

impl<T> Default for Ordered<T> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<T> Ordered<T> {
    fn get(&self, k: &str) -> Option<&T> {
        self.0.iter().find(|(x, _)| x == k).map(|(_, v)| v)
    }
    fn set(&mut self, k: String, v: T) {
        match self.0.iter_mut().find(|(x, _)| *x == k) {
            Some(slot) => slot.1 = v,
            None => self.0.push((k, v)),
        }
    }
    fn retain(&mut self, keep: impl Fn(&str) -> bool) {
        self.0.retain(|(k, _)| keep(k));
    }
}

#[derive(Default)]
struct Inner {
    entries: Ordered<Vec<Value>>,
    mtimes: Ordered<i64>,
    summaries: Ordered<SessionSummaryEntry>,
    tick: i64,
    calls: Vec<Value>,
}

/// The twin of official-store.mjs's `CountingStore`.
#[derive(Default)]
struct Counting(Mutex<Inner>);

fn k(key: &SessionKey) -> String {
    match &key.subpath {
        Some(s) => format!("{}/{}/{}", key.project_key, key.session_id, s),
        None => format!("{}/{}", key.project_key, key.session_id),
    }
}

impl SessionStore for Counting {
    fn append<'a>(&'a self, key: &'a SessionKey, entries: &'a [Value]) -> StoreFuture<'a, ()> {
        let mut m = self.0.lock().unwrap();
        m.calls.push(json!([key.session_id, key.subpath, entries.len()]));
        let id = k(key);
        let mut all = m.entries.get(&id).cloned().unwrap_or_default();
        all.extend(entries.iter().cloned());
        m.entries.set(id.clone(), all);
        m.tick = if m.tick == 0 { 1001 } else { m.tick + 1 };
        let tick = m.tick;
        m.mtimes.set(id.clone(), tick);
        if key.subpath.is_none() {
            let folded = store::fold_session_summary(m.summaries.get(&id), key, entries, Some(tick));
            m.summaries.set(id, folded);
        }
        futures::future::ready(Ok(())).boxed()
    }
    fn load<'a>(&'a self, key: &'a SessionKey) -> StoreFuture<'a, Option<Vec<Value>>> {
        futures::future::ready(Ok(self.0.lock().unwrap().entries.get(&k(key)).cloned())).boxed()
    }
    fn list_sessions<'a>(&'a self, project_key: &'a str) -> Option<StoreFuture<'a, Vec<StoredSession>>> {
        let m = self.0.lock().unwrap();
        let prefix = format!("{project_key}/");
        let list = m
            .entries
            .0
            .iter()
            .filter_map(|(key, _)| {
                key.strip_prefix(&prefix)
                    .filter(|rest| !rest.contains('/'))
                    .map(|id| (key, id))
            })
            .map(|(key, id)| StoredSession {
                session_id: id.to_string(),
                mtime: *m.mtimes.get(key).unwrap(),
            })
            .collect();
        Some(futures::future::ready(Ok(list)).boxed())
    }
    fn list_session_summaries<'a>(&'a self, project_key: &'a str) -> Option<StoreFuture<'a, Vec<SessionSummaryEntry>>> {
        let prefix = format!("{project_key}/");
        let list = self
            .0
            .lock()
            .unwrap()
            .summaries
            .0
            .iter()
            .filter(|(k, _)| k.starts_with(&prefix))
            .map(|(_, v)| v.clone())
            .collect();
        Some(futures::future::ready(Ok(list)).boxed())
    }
    fn list_subkeys<'a>(&'a self, key: &'a SessionKey) -> Option<StoreFuture<'a, Vec<String>>> {
        let prefix = format!("{}/{}/", key.project_key, key.session_id);
        let list = self
            .0
            .lock()
            .unwrap()
            .entries
            .0
            .iter()
            .filter_map(|(k, _)| k.strip_prefix(&prefix).map(str::to_string))
            .collect();
        Some(futures::future::ready(Ok(list)).boxed())
    }
    fn delete<'a>(&'a self, key: &'a SessionKey) -> Option<StoreFuture<'a, ()>> {
        let mut m = self.0.lock().unwrap();
        let id = k(key);
        let whole = key.subpath.is_none();
        let gone = |x: &str| x == id || (whole && x.starts_with(&format!("{id}/")));
        m.entries.retain(|x| !gone(x));
        m.mtimes.retain(|x| !gone(x));
        m.summaries.retain(|x| !gone(x));
        Some(futures::future::ready(Ok(())).boxed())
    }
}

/// The same store with only `append`, `load` and `list_sessions` (official-store.mjs's `plain`).
struct Plain(Arc<Counting>);

impl SessionStore for Plain {
    fn append<'a>(&'a self, key: &'a SessionKey, entries: &'a [Value]) -> StoreFuture<'a, ()> {
        self.0.append(key, entries)
    }
    fn load<'a>(&'a self, key: &'a SessionKey) -> StoreFuture<'a, Option<Vec<Value>>> {
        self.0.load(key)
    }
    fn list_sessions<'a>(&'a self, project_key: &'a str) -> Option<StoreFuture<'a, Vec<StoredSession>>> {
        self.0.list_sessions(project_key)
    }
}

/// Only what every store has.
struct Bare;

impl SessionStore for Bare {
    fn append<'a>(&'a self, _: &'a SessionKey, _: &'a [Value]) -> StoreFuture<'a, ()> {
        futures::future::ready(Ok(())).boxed()
    }
    fn load<'a>(&'a self, _: &'a SessionKey) -> StoreFuture<'a, Option<Vec<Value>>> {
        futures::future::ready(Ok(None)).boxed()
    }
}

fn summary_json(s: &SessionSummaryEntry) -> Value {
    json!({ "sessionId": s.session_id, "mtime": s.mtime, "data": s.data })
}

fn error<T>(r: Result<T, claude_agent_sdk::Error>) -> Value {
    match r {
        Ok(_) => Value::Null,
        Err(e) => json!(e.to_string()),
    }
}

async fn ours(ids: &[String], big: &str, project_key: &str) -> Value {
    let counting = Arc::new(Counting::default());
    let s: &dyn SessionStore = &*counting;
    let plain = Plain(counting.clone());
    let mut out = json!({ "imported": [], "sessions": {} });
    for id in ids {
        let r = store::import_session_to_store(
            id,
            s,
            ImportSession {
                batch_size: 7,
                ..Default::default()
            },
        )
        .await;
        out["imported"].as_array_mut().unwrap().push(error(r));
    }
    out["importedBig"] = error(
        store::import_session_to_store(
            big,
            s,
            ImportSession {
                include_subagents: false,
                ..Default::default()
            },
        )
        .await,
    );
    out["calls"] = Value::Array(counting.0.lock().unwrap().calls.clone());
    let infos = |v: Vec<claude_agent_sdk::sessions::SessionInfo>| Value::Array(v.iter().map(info_json).collect());
    let msgs = |v: Vec<SessionMessage>| Value::Array(v.iter().map(message_json).collect());
    out["list"] = infos(store::list_sessions(s, ListSessions::default()).await.unwrap());
    out["listPage"] = infos(
        store::list_sessions(
            s,
            ListSessions {
                limit: Some(3),
                offset: Some(2),
                ..Default::default()
            },
        )
        .await
        .unwrap(),
    );
    out["listPlain"] = infos(store::list_sessions(&plain, ListSessions::default()).await.unwrap());
    out["listPlainPage"] = infos(
        store::list_sessions(
            &plain,
            ListSessions {
                limit: Some(4),
                offset: Some(1),
                ..Default::default()
            },
        )
        .await
        .unwrap(),
    );
    out["summaries"] = Value::Array(
        s.list_session_summaries(project_key)
            .unwrap()
            .await
            .unwrap()
            .iter()
            .map(summary_json)
            .collect(),
    );
    for id in ids {
        let agents = store::list_subagents(s, id, None).await.unwrap();
        let (mut agent_messages, mut agent_plain) = (vec![], vec![]);
        for a in &agents {
            agent_messages.push(msgs(
                store::get_subagent_messages(s, id, a, SessionMessages::default())
                    .await
                    .unwrap(),
            ));
            agent_plain.push(msgs(
                store::get_subagent_messages(
                    &plain,
                    id,
                    a,
                    SessionMessages {
                        limit: Some(2),
                        ..Default::default()
                    },
                )
                .await
                .unwrap(),
            ));
        }
        let key = SessionKey::new(project_key, id.clone());
        let entries = s.load(&key).await.unwrap().unwrap_or_default();
        out["sessions"][id] = json!({
          "info": store::get_session_info(s, id, None).await.unwrap().as_ref().map(info_json),
          "messages": msgs(store::get_session_messages(s, id, SessionMessages::default()).await.unwrap()),
          "system": msgs(store::get_session_messages(s, id, SessionMessages { include_system_messages: true, limit: Some(5), offset: Some(1), ..Default::default() }).await.unwrap()),
          "agents": agents,
          "agentMessages": agent_messages,
          "agentPlain": agent_plain,
          "folded": summary_json(&store::fold_session_summary(None, &key, &entries, Some(1))),
        });
    }
    store::rename_session(s, &ids[0], "  Stored title ", None)
        .await
        .unwrap();
    store::tag_session(s, &ids[1], Some("ｔａｇ\u{200B} two"), None)
        .await
        .unwrap();
    store::tag_session(s, &ids[2], Some("gone"), None).await.unwrap();
    store::tag_session(s, &ids[2], None, None).await.unwrap();
    let fork = store::fork_session(
        s,
        &ids[3],
        ForkSession {
            title: Some("Forked".into()),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    out["forkMessages"] = store::get_session_messages(s, &fork, SessionMessages::default())
        .await
        .unwrap()
        .iter()
        .map(|m| json!([m.kind, m.message.get("content")]))
        .collect();
    store::delete_session(s, &ids[4], None).await.unwrap();
    store::delete_session(&plain, &ids[5], None).await.unwrap();
    out["fork"] = json!(fork);
    out["after"] = infos(store::list_sessions(s, ListSessions::default()).await.unwrap());
    out["afterPlain"] = infos(store::list_sessions(&plain, ListSessions::default()).await.unwrap());
    let missing = "00000000-0000-4000-8000-000000000000";
    out["errors"] = json!({
      "listNone": error(store::list_sessions(&Bare, ListSessions::default()).await),
      "subagentsNone": error(store::list_subagents(&plain, &ids[0], None).await),
      "forkMissing": error(store::fork_session(s, missing, ForkSession::default()).await),
      "importMissing": error(store::import_session_to_store(missing, s, ImportSession::default()).await),
      "importBad": error(store::import_session_to_store("../x", s, ImportSession::default()).await),
      "renameEmpty": error(store::rename_session(s, &ids[0], "  ", None).await),
      "infoBad": store::get_session_info(s, "../x", None).await.unwrap().as_ref().map(info_json),
      "messagesUnknown": msgs(store::get_session_messages(s, missing, SessionMessages::default()).await.unwrap()),
    });
    out
}

/// Both sides' answers normalized alike: absent and null fields, the fork's id, and what the
/// clock decides (the fork's `createdAt`, a last change that is "now").
fn normalize(mut v: Value) -> Value {
    let fork = v["fork"].as_str().unwrap_or("").to_string();
    for key in ["list", "listPage", "listPlain", "listPlainPage", "after", "afterPlain"] {
        v[key] = norm(v[key].take());
        for s in v[key].as_array_mut().unwrap() {
            if s["sessionId"] == fork.as_str() {
                s["sessionId"] = json!("FORK");
                s.as_object_mut().unwrap().remove("createdAt");
            }
        }
    }
    v["fork"] = json!("FORK");
    for one in v["sessions"].as_object_mut().unwrap().values_mut() {
        one["info"] = norm(one["info"].take());
        // A session whose last entry has no timestamp was last changed "now", on each side's clock.
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64;
        if one["info"]["lastModified"]
            .as_i64()
            .is_some_and(|t| (now - t).abs() < 600_000)
        {
            one["info"]["lastModified"] = json!("now");
        }
        for key in ["messages", "system"] {
            one[key] = norm(one[key].take());
        }
        for key in ["agentMessages", "agentPlain"] {
            for m in one[key].as_array_mut().unwrap() {
                *m = norm(m.take());
            }
        }
    }
    v
}

#[test]
fn store_session_functions_match_the_official_sdk() {
    if !support::have_node() {
        return;
    }
    let base = std::env::temp_dir().join(format!("claude-agent-sdk-stored-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let config = base.join("config");
    let built = node(&["build", config.to_str().unwrap(), base.join("work").to_str().unwrap()]);
    let ids: Vec<String> = serde_json::from_value(built["ids"].clone()).unwrap();
    let big = built["big"].as_str().unwrap().to_string();
    let project_key = store::project_key(&std::env::current_dir().unwrap(), None);
    let plan = json!({ "ids": ids, "big": big, "batchSize": 7, "projectKey": project_key });
    let theirs = normalize(node(&["run", config.to_str().unwrap(), &plan.to_string()]));
    std::env::set_var("CLAUDE_CONFIG_DIR", &config);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let mine = normalize(rt.block_on(ours(&ids, &big, &project_key)));

    // The corpus exercises what it should: batches cut by count and by size, subagents, a
    // summary-less store, sessions with nothing to show.
    let calls = mine["calls"].as_array().unwrap();
    assert!(
        calls.iter().any(|c| c[2] == 7) && calls.iter().any(|c| c[1].is_string()),
        "{calls:?}"
    );
    let big_calls: Vec<&Value> = calls.iter().filter(|c| c[0] == big.as_str()).collect();
    assert!(
        big_calls.len() >= 2 && big_calls[0][2].as_u64().unwrap() < 500,
        "the 1 MiB cut: {big_calls:?}"
    );
    assert!(mine["list"].as_array().unwrap().len() >= 10, "{}", mine["list"]);

    for key in ["imported", "importedBig", "calls", "summaries"] {
        assert_eq!(mine[key], theirs[key], "{key}");
    }
    for id in &ids {
        for key in [
            "info",
            "messages",
            "system",
            "agents",
            "agentMessages",
            "agentPlain",
            "folded",
        ] {
            assert_eq!(
                mine["sessions"][id][key], theirs["sessions"][id][key],
                "session {id}: {key}"
            );
        }
    }
    for key in [
        "list",
        "listPage",
        "listPlain",
        "listPlainPage",
        "forkMessages",
        "after",
        "afterPlain",
        "errors",
    ] {
        assert_eq!(mine[key], theirs[key], "{key}");
    }
    assert_eq!(mine, theirs);
    let _ = std::fs::remove_dir_all(&base);
}
