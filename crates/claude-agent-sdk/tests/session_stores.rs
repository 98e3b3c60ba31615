//! The session stores on real servers, and the conformance runner itself (`--features testing`,
//! plus `postgres` and `redis` for those stores): the in-memory store passes the runner, stores
//! that each break one promise fail it, and `PostgresSessionStore` / `RedisSessionStore` pass it
//! against the servers named by `SESSION_STORE_POSTGRES_URL` / `SESSION_STORE_REDIS_URL`
//! (`__test__/session-stores-rust.test.mjs` starts them and runs this file). Without a URL those
//! tests skip, and fail under `CLAUDE_AGENT_SDK_REQUIRE_E2E=1`.
//!
//! Interop with the TypeScript stores: when `CASN_INTEROP_PG_TABLE` / `CASN_INTEROP_REDIS_PREFIX`
//! are set (by the node test), the session the TypeScript store wrote there (`from-js`, entries
//! in `CASN_INTEROP_ENTRIES`) is loaded and extended here, and a session `from-rust` is written
//! for the TypeScript store to read back.

use std::sync::atomic::{AtomicUsize, Ordering};

use claude_agent_sdk::store::conformance::{
    contracts, run_contract, run_session_store_conformance, ConformanceOptions, Outcome,
};
use claude_agent_sdk::store::{
    InMemorySessionStore, SessionKey, SessionStore, SessionSummaryEntry, StoreFuture, StoredSession,
};
use futures::FutureExt;
use serde_json::{json, Value};

/// A name no other run uses (pid and time).
#[cfg(any(feature = "postgres", feature = "redis"))]
fn run_id() -> String {
    static RUN: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    RUN.get_or_init(|| {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_micros();
        format!("{:x}{:x}", std::process::id(), t % 0xffff_ffff)
    })
    .clone()
}

/// The server URL in `var`, or None (a skip; a failure under CLAUDE_AGENT_SDK_REQUIRE_E2E=1).
#[allow(dead_code)]
fn server(var: &str) -> Option<String> {
    setting(
        var,
        "this test needs a real server (npm test starts one: __test__/session-stores-rust.test.mjs)",
    )
}

/// The value of `var`, or None (a skip; a failure naming `why` under
/// CLAUDE_AGENT_SDK_REQUIRE_E2E=1).
#[allow(dead_code)]
fn setting(var: &str, why: &str) -> Option<String> {
    match std::env::var(var) {
        Ok(value) if !value.is_empty() => Some(value),
        _ => {
            assert!(
                std::env::var("CLAUDE_AGENT_SDK_REQUIRE_E2E").as_deref() != Ok("1"),
                "{var} is not set: {why}"
            );
            eprintln!("skipped: {var} is not set");
            None
        }
    }
}

#[tokio::test]
async fn the_in_memory_store_passes_every_contract() {
    let report = run_session_store_conformance(
        || async { InMemorySessionStore::new() },
        ConformanceOptions::new().idempotent(false),
    )
    .await;
    report.assert_passed();
    assert_eq!(report.results.len(), contracts().len());
    let official = [
        "append then load returns same entries in same order",
        "load unknown key returns null",
        "multiple append calls preserve call order",
        "append([]) is a no-op",
        "subpath keys are stored independently of main",
        "projectKey isolation",
        "listSessions returns sessionIds for project",
        "listSessions excludes subagent subpaths",
        "delete main then load returns null",
        "delete main cascades to subkeys",
        "delete with subpath removes only that subkey",
        "listSubkeys returns subpaths for the session",
        "listSubkeys excludes main transcript",
    ];
    let names: Vec<&str> = contracts().iter().map(|c| c.name).collect();
    assert_eq!(&names[..13], official, "the official 13 first, by name");
    assert_eq!(names.len(), 25);
    let applicable = report.results.iter().filter(|r| r.outcome == Outcome::Passed).count();
    assert_eq!(applicable, 23, "all but the two opt-in contracts ran:\n{report}");
}

/// How a broken store breaks.
#[derive(Clone, Copy, Debug)]
enum Fault {
    ReversedLoad,
    EmptyForUnknown,
    SubpathsShareMain,
    JoinedKeys,
    DeleteLeavesSubpaths,
    ListsEveryProject,
    LosesConcurrentAppends,
    DropsLargeBatches,
    OutageLooksEmpty,
}

/// The in-memory store, broken one way.
struct Broken {
    inner: InMemorySessionStore,
    fault: Fault,
    busy: AtomicUsize,
}

impl Broken {
    fn new(fault: Fault) -> Self {
        Self {
            inner: InMemorySessionStore::new(),
            fault,
            busy: AtomicUsize::new(0),
        }
    }
    fn rekey(&self, key: &SessionKey) -> SessionKey {
        match self.fault {
            Fault::SubpathsShareMain => SessionKey::new(&key.project_key, &key.session_id),
            // Keys joined with '/' unescaped: 'x/y' + 'z' is 'x' + 'y/z'.
            Fault::JoinedKeys => {
                let joined = [
                    Some(key.project_key.as_str()),
                    Some(&key.session_id),
                    key.subpath.as_deref(),
                ]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join("/");
                SessionKey::new("all", joined)
            }
            _ => key.clone(),
        }
    }
}

impl SessionStore for Broken {
    fn append<'a>(&'a self, key: &'a SessionKey, entries: &'a [Value]) -> StoreFuture<'a, ()> {
        async move {
            match self.fault {
                Fault::OutageLooksEmpty => return Ok(()),
                Fault::DropsLargeBatches if entries.len() > 1000 => return Ok(()),
                Fault::LosesConcurrentAppends => {
                    if self.busy.fetch_add(1, Ordering::SeqCst) > 0 {
                        self.busy.fetch_sub(1, Ordering::SeqCst);
                        return Ok(());
                    }
                    tokio::task::yield_now().await;
                    let r = self.inner.append(key, entries).await;
                    self.busy.fetch_sub(1, Ordering::SeqCst);
                    return r;
                }
                _ => {}
            }
            self.inner.append(&self.rekey(key), entries).await
        }
        .boxed()
    }
    fn load<'a>(&'a self, key: &'a SessionKey) -> StoreFuture<'a, Option<Vec<Value>>> {
        async move {
            if let Fault::OutageLooksEmpty = self.fault {
                return Ok(None);
            }
            let got = self.inner.load(&self.rekey(key)).await?;
            Ok(match self.fault {
                Fault::ReversedLoad => got.map(|mut g| {
                    g.reverse();
                    g
                }),
                Fault::EmptyForUnknown => Some(got.unwrap_or_default()),
                _ => got,
            })
        }
        .boxed()
    }
    fn list_sessions<'a>(&'a self, project_key: &'a str) -> Option<StoreFuture<'a, Vec<StoredSession>>> {
        match self.fault {
            Fault::OutageLooksEmpty => Some(async { Ok(vec![]) }.boxed()),
            Fault::ListsEveryProject => Some(
                async move {
                    let mut all = vec![];
                    for p in ["proj", "P", "Q", project_key] {
                        all.extend(self.inner.list_sessions(p).unwrap().await?);
                    }
                    Ok(all)
                }
                .boxed(),
            ),
            _ => self.inner.list_sessions(project_key),
        }
    }
    fn list_session_summaries<'a>(&'a self, project_key: &'a str) -> Option<StoreFuture<'a, Vec<SessionSummaryEntry>>> {
        self.inner.list_session_summaries(project_key)
    }
    fn list_subkeys<'a>(&'a self, key: &'a SessionKey) -> Option<StoreFuture<'a, Vec<String>>> {
        self.inner.list_subkeys(key)
    }
    fn delete<'a>(&'a self, key: &'a SessionKey) -> Option<StoreFuture<'a, ()>> {
        match self.fault {
            Fault::DeleteLeavesSubpaths if key.subpath.is_none() => {
                // Removes the session and its subpaths, then puts the subpaths back.
                let subs: Vec<(String, Vec<Value>)> =
                    futures::executor::block_on(self.inner.list_subkeys(key).unwrap())
                        .unwrap()
                        .into_iter()
                        .map(|s| {
                            let k = SessionKey {
                                subpath: Some(s.clone()),
                                ..key.clone()
                            };
                            (s, self.inner.entries(&k))
                        })
                        .collect();
                let done = self.inner.delete(key);
                Some(
                    async move {
                        if let Some(d) = done {
                            d.await?;
                        }
                        for (s, entries) in subs {
                            let k = SessionKey {
                                subpath: Some(s),
                                ..key.clone()
                            };
                            self.inner.append(&k, &entries).await?;
                        }
                        Ok(())
                    }
                    .boxed(),
                )
            }
            _ => self.inner.delete(key),
        }
    }
}

#[tokio::test]
async fn stores_that_break_a_promise_fail_the_runner_naming_the_contract() {
    let cases = [
        (Fault::ReversedLoad, "multiple append calls preserve call order"),
        (Fault::EmptyForUnknown, "load unknown key returns null"),
        (
            Fault::SubpathsShareMain,
            "subpath keys are stored independently of main",
        ),
        (
            Fault::JoinedKeys,
            "hostile ids: each project, session and subpath is its own, read back exactly",
        ),
        (Fault::DeleteLeavesSubpaths, "delete main cascades to subkeys"),
        (Fault::ListsEveryProject, "listSessions returns sessionIds for project"),
        (
            Fault::LosesConcurrentAppends,
            "concurrent appends to one session: every entry once, each batch in its order",
        ),
        (
            Fault::DropsLargeBatches,
            "minimal entries, a 1 MiB entry and a 2,000-entry batch",
        ),
        (
            Fault::OutageLooksEmpty,
            "an unreachable backend rejects every call (never resolves with empty data)",
        ),
    ];
    for (fault, contract) in cases {
        let options = ConformanceOptions::new().unreachable(move || async move { Broken::new(fault) });
        let report = run_session_store_conformance(move || async move { Broken::new(fault) }, options.clone()).await;
        assert!(!report.passed(), "{fault:?}: no contract failed\n{report}");
        let failed: Vec<&str> = report.failures().iter().map(|r| r.name).collect();
        assert!(
            failed.contains(&contract),
            "{fault:?} fails {contract:?}; failed: {failed:?}"
        );
        assert!(
            matches!(
                run_contract(contract, move || async move { Broken::new(fault) }, options).await,
                Outcome::Failed(_)
            ),
            "run_contract({contract:?}) fails too"
        );
        let text = report.to_string();
        assert!(
            text.contains(&format!("FAIL  {contract}: ")),
            "the report names the contract: {text}"
        );
    }
}

#[tokio::test]
async fn a_contract_that_hangs_or_panics_fails_instead_of_stopping_the_run() {
    struct Hangs;
    impl SessionStore for Hangs {
        fn append<'a>(&'a self, _: &'a SessionKey, _: &'a [Value]) -> StoreFuture<'a, ()> {
            futures::future::pending().boxed()
        }
        fn load<'a>(&'a self, _: &'a SessionKey) -> StoreFuture<'a, Option<Vec<Value>>> {
            panic!("load exploded")
        }
    }
    let options = ConformanceOptions::new().timeout(std::time::Duration::from_millis(50));
    let out = run_contract(
        "append then load returns same entries in same order",
        || async { Hangs },
        options.clone(),
    )
    .await;
    assert!(
        matches!(&out, Outcome::Failed(w) if w.contains("did not finish")),
        "{out:?}"
    );
    let out = run_contract("load unknown key returns null", || async { Hangs }, options.clone()).await;
    assert!(
        matches!(&out, Outcome::Failed(w) if w.contains("load exploded")),
        "{out:?}"
    );
    let out = run_contract(
        "listSessions returns sessionIds for project",
        || async { Hangs },
        options,
    )
    .await;
    assert_eq!(out, Outcome::NotApplicable("list_sessions"));
    let report =
        run_session_store_conformance(|| async { InMemorySessionStore::new() }, ConformanceOptions::new()).await;
    let broken = claude_agent_sdk::store::conformance::ConformanceReport {
        results: vec![claude_agent_sdk::store::conformance::ContractResult {
            name: "x",
            outcome: Outcome::Failed("why".into()),
        }],
    };
    assert!(report.passed() && !broken.passed());
    assert!(
        std::panic::catch_unwind(|| broken.assert_passed()).is_err(),
        "assert_passed panics on a failure"
    );
}

const SID: &str = "11111111-2222-4333-8444-555555555555";

/// A folder of its own under the temp folder.
fn tempdir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("casn-stores-{tag}-{}", claude_agent_sdk::raw::new_uuid()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Whether any resume folder holds a transcript of `session_id`.
fn materialized(session_id: &str) -> bool {
    let Ok(dirs) = std::fs::read_dir(std::env::temp_dir()) else {
        return false;
    };
    dirs.flatten()
        .filter(|d| d.file_name().to_string_lossy().starts_with("claude-resume-"))
        .any(|d| {
            let projects = d.path().join("projects");
            std::fs::read_dir(projects)
                .into_iter()
                .flatten()
                .flatten()
                .any(|p| p.path().join(format!("{session_id}.jsonl")).exists())
        })
}

/// Resumes `SID` of the project of `cwd` from `store`: the error (a resume must fail here).
async fn resume_error(store: std::sync::Arc<dyn SessionStore>, cwd: &std::path::Path) -> String {
    let options = claude_agent_sdk::Options::builder()
        .session_store(store)
        .resume(SID)
        .cwd(cwd)
        .build();
    let e = claude_agent_sdk::store::resume_from_store(options)
        .await
        .expect_err("the resume fails");
    e.to_string()
}

#[tokio::test]
async fn a_resume_from_a_store_holding_a_corrupt_entry_names_it_and_writes_nothing() {
    let cwd = tempdir("corrupt");
    let project = claude_agent_sdk::store::project_key(&cwd, None);
    // The main transcript: its second entry has no type.
    let store = std::sync::Arc::new(InMemorySessionStore::new());
    let key = SessionKey::new(&project, SID);
    store
        .append(
            &key,
            &[
                json!({"type":"user","uuid":"u1","message":{"content":"hi"}}),
                json!({"uuid":"u2","no":"type"}),
            ],
        )
        .await
        .unwrap();
    let e = resume_error(store, &cwd).await;
    assert_eq!(
        e,
        format!(
            r#"SessionStore.load() for session {SID}: corrupt entry 1 (not an object with a string "type"): {{"uuid":"u2","no":"type"}}"#
        )
    );
    // A subagent's transcript: a number where an entry should be.
    let store = std::sync::Arc::new(InMemorySessionStore::new());
    store
        .append(&key, &[json!({"type":"user","uuid":"u1","message":{"content":"hi"}})])
        .await
        .unwrap();
    let sub = SessionKey {
        subpath: Some("subagents/agent-x".into()),
        ..key.clone()
    };
    store.append(&sub, &[json!({"type":"user"}), json!(42)]).await.unwrap();
    let e = resume_error(store, &cwd).await;
    assert!(
        e.contains(&format!("for session {SID} subpath subagents/agent-x: corrupt entry 1")),
        "{e}"
    );
    assert!(!materialized(SID), "nothing written for the session");
    std::fs::remove_dir_all(&cwd).ok();
}

/// A TCP proxy in front of `target` that can be taken down (every connection cut, new ones
/// refused) and brought up again on the same port: a database that goes away and comes back.
#[allow(dead_code)]
struct Proxy {
    port: u16,
    target: String,
    task: std::sync::Mutex<Option<tokio::task::JoinHandle<()>>>,
}

#[allow(dead_code)]
impl Proxy {
    async fn start(target: &str) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let p = Self {
            port,
            target: target.to_string(),
            task: Default::default(),
        };
        p.serve(listener);
        p
    }
    fn serve(&self, listener: tokio::net::TcpListener) {
        let target = self.target.clone();
        let task = tokio::spawn(async move {
            let mut links = tokio::task::JoinSet::new();
            while let Ok((mut client, _)) = listener.accept().await {
                let target = target.clone();
                links.spawn(async move {
                    if let Ok(mut upstream) = tokio::net::TcpStream::connect(&target).await {
                        let _ = tokio::io::copy_bidirectional(&mut client, &mut upstream).await;
                    }
                });
            }
        });
        *self.task.lock().unwrap() = Some(task);
    }
    /// Cuts every connection and refuses new ones (the JoinSet of links goes with the task).
    async fn down(&self) {
        if let Some(t) = self.task.lock().unwrap().take() {
            t.abort();
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    async fn up(&self) {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", self.port)).await.unwrap();
        self.serve(listener);
    }
}

/// A store whose server goes away and comes back: appends fail while it is away (an error, not
/// a silent success), succeed again once it is back without a new store, and every acknowledged
/// entry is there once.
#[allow(dead_code)]
async fn survives_an_outage(store: &dyn SessionStore, proxy: &Proxy) {
    let key = SessionKey::new("outage", "s");
    let entry = |i: usize| json!({"type":"user","uuid":format!("o-{i}"),"i":i});
    let mut acknowledged = vec![];
    store.append(&key, &[entry(0)]).await.expect("before the outage");
    acknowledged.push(0);
    proxy.down().await;
    assert!(
        store.append(&key, &[entry(1)]).await.is_err(),
        "an append while the server is away fails"
    );
    assert!(store.load(&key).await.is_err(), "a load while the server is away fails");
    proxy.up().await;
    // The mirror tries a failed append again (200 ms, 800 ms later): here, until it lands.
    let mut landed = false;
    for _ in 0..50 {
        if store.append(&key, &[entry(1), entry(2)]).await.is_ok() {
            landed = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    assert!(landed, "appends succeed again once the server is back");
    acknowledged.extend([1, 2]);
    store
        .append(&key, &[entry(2), entry(3)])
        .await
        .expect("a replay after the outage");
    acknowledged.push(3);
    let stored: Vec<usize> = store
        .load(&key)
        .await
        .unwrap()
        .unwrap()
        .iter()
        .map(|e| e["i"].as_u64().unwrap() as usize)
        .collect();
    assert_eq!(stored, acknowledged, "every acknowledged entry, once, in order");
}

/// The entries the TypeScript store wrote in the shared database (`CASN_INTEROP_ENTRIES`).
#[allow(dead_code)]
fn interop_entries() -> Vec<Value> {
    serde_json::from_str(&std::env::var("CASN_INTEROP_ENTRIES").expect("CASN_INTEROP_ENTRIES")).expect("JSON entries")
}

/// The interop check shared by both stores: reads and extends what TypeScript wrote, writes
/// `from-rust` for TypeScript to read.
#[allow(dead_code)]
async fn interop(store: &dyn SessionStore) {
    let entries = interop_entries();
    let from_js = SessionKey::new("interop/project", "from-js");
    assert_eq!(
        store.load(&from_js).await.unwrap().as_deref(),
        Some(&entries[..]),
        "the TypeScript store's session, loaded here"
    );
    let sub = SessionKey {
        subpath: Some("subagents/agent-js".into()),
        ..from_js.clone()
    };
    assert_eq!(
        store.load(&sub).await.unwrap(),
        Some(vec![json!({"type":"user","uuid":"js-sub-1"})])
    );
    assert_eq!(
        store.list_subkeys(&from_js).unwrap().await.unwrap(),
        ["subagents/agent-js"]
    );
    let summaries = store.list_session_summaries("interop/project").unwrap().await.unwrap();
    let js = summaries
        .iter()
        .find(|s| s.session_id == "from-js")
        .expect("from-js listed");
    let ours = claude_agent_sdk::store::fold_session_summary(None, &from_js, &entries, None);
    assert_eq!(
        js.data, ours.data,
        "the TypeScript store's summary is the one this crate folds"
    );
    // Extend it (the summary this store has not seen: read, folded, written under its check),
    // with one replayed entry that must be dropped.
    let more = [
        entries[0].clone(),
        json!({"type":"custom-title","customTitle":"renamed in Rust"}),
    ];
    store.append(&from_js, &more).await.unwrap();
    let from_rust = SessionKey::new("interop/project", "from-rust");
    store.append(&from_rust, &entries).await.unwrap();
    store
        .append(
            &SessionKey {
                subpath: Some("subagents/agent-rs".into()),
                ..from_rust.clone()
            },
            &[json!({"type":"user","uuid":"rs-sub-1"})],
        )
        .await
        .unwrap();
}

#[cfg(feature = "postgres")]
mod postgres {
    use super::*;
    use claude_agent_sdk::store::postgres::PostgresSessionStore;

    static TABLES: AtomicUsize = AtomicUsize::new(0);

    fn pool(url: &str) -> claude_agent_sdk::store::postgres::deadpool_postgres::Pool {
        PostgresSessionStore::pool(url, 8).expect("a pool")
    }

    /// A store in a table of its own, named after the test (`tag`) that drops them after.
    async fn fresh(
        pool: claude_agent_sdk::store::postgres::deadpool_postgres::Pool,
        tag: &str,
    ) -> PostgresSessionStore {
        let n = TABLES.fetch_add(1, Ordering::SeqCst);
        let store = PostgresSessionStore::new(pool)
            .with_table_name(&format!("rs_{}_{tag}_{n}", run_id()))
            .unwrap();
        store.ensure_schema().await.expect("ensure_schema");
        store
    }

    async fn drop_tables(pool: &claude_agent_sdk::store::postgres::deadpool_postgres::Pool, tag: &str) {
        let client = pool.get().await.unwrap();
        let rows = client
            .query(
                "SELECT tablename FROM pg_tables WHERE tablename LIKE $1",
                &[&format!("rs\\_{}\\_{tag}\\_%", run_id())],
            )
            .await
            .unwrap();
        for r in rows {
            let t: String = r.get(0);
            client
                .batch_execute(&format!("DROP TABLE IF EXISTS {t}"))
                .await
                .unwrap();
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn passes_the_conformance_runner() {
        let Some(url) = server("SESSION_STORE_POSTGRES_URL") else {
            return;
        };
        let p = pool(&url);
        let make = {
            let p = p.clone();
            move || fresh(p.clone(), "c")
        };
        let unreachable = || async {
            PostgresSessionStore::new(
                PostgresSessionStore::pool("postgresql://postgres@127.0.0.1:1/postgres?connect_timeout=2", 1).unwrap(),
            )
        };
        let report = run_session_store_conformance(
            make,
            ConformanceOptions::new().idempotent(true).unreachable(unreachable),
        )
        .await;
        drop_tables(&p, "c").await;
        report.assert_passed();
        assert!(
            report.results.iter().all(|r| r.outcome == Outcome::Passed),
            "every contract ran:\n{report}"
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn keeps_its_promises() {
        let Some(url) = server("SESSION_STORE_POSTGRES_URL") else {
            return;
        };
        let p = pool(&url);
        // Bad table names.
        for bad in ["x; DROP TABLE y", "", "1abc", &"a".repeat(41)] {
            let e = PostgresSessionStore::new(p.clone()).with_table_name(bad).unwrap_err();
            assert!(e.to_string().contains("invalid table name"), "{e}");
        }
        // Used before ensure_schema: says so.
        let missing = PostgresSessionStore::new(p.clone())
            .with_table_name(&format!("rs_{}_missing", run_id()))
            .unwrap();
        let e = missing
            .append(&SessionKey::new("p", "s"), &[json!({"type":"a"})])
            .await
            .unwrap_err();
        assert!(e.to_string().contains("call ensure_schema() once at startup"), "{e}");
        // Bad keys and entries named.
        let store = fresh(p.clone(), "k").await;
        let e = store.append(&SessionKey::new("p", ""), &[]).await.unwrap_err();
        assert!(
            e.to_string().contains("key.sessionId must be a non-empty string"),
            "{e}"
        );
        let e = store
            .append(&SessionKey::new("p", "s"), &[json!({"no":"type"})])
            .await
            .unwrap_err();
        assert!(
            e.to_string()
                .contains(r#"entry 0 for session "s" (project "p") must be an object with a string "type""#),
            "{e}"
        );
        // ensure_schema is idempotent, also from many callers at once.
        let table = store.table_name().to_string();
        let many: Vec<PostgresSessionStore> = (0..6)
            .map(|_| PostgresSessionStore::new(p.clone()).with_table_name(&table).unwrap())
            .collect();
        for r in futures::future::join_all(many.iter().map(|s| s.ensure_schema())).await {
            r.unwrap();
        }
        // All or nothing: a failure at the 2,401st row leaves none of the batch.
        let client = p.get().await.unwrap();
        client
            .batch_execute(&format!(
                "CREATE FUNCTION {table}_poison() RETURNS trigger AS $$ BEGIN IF NEW.entry::jsonb->>'type' = 'poison' THEN RAISE EXCEPTION 'poisoned entry'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql;
                 CREATE TRIGGER poison BEFORE INSERT ON {table} FOR EACH ROW EXECUTE FUNCTION {table}_poison();"
            ))
            .await
            .unwrap();
        let key = SessionKey::new("p", "s");
        store.append(&key, &[json!({"type":"before"})]).await.unwrap();
        let batch: Vec<Value> = (0..2500)
            .map(|i| json!({"type": if i == 2400 { "poison" } else { "e" }, "i": i}))
            .collect();
        let e = store.append(&key, &batch).await.unwrap_err();
        assert!(e.to_string().contains("poisoned entry"), "{e}");
        assert_eq!(store.load(&key).await.unwrap(), Some(vec![json!({"type":"before"})]));
        // A store object that has not written the session takes the transaction path.
        let other = PostgresSessionStore::new(p.clone()).with_table_name(&table).unwrap();
        assert!(other.append(&key, &batch).await.is_err());
        assert_eq!(store.load(&key).await.unwrap(), Some(vec![json!({"type":"before"})]));
        // A corrupt row: an error naming the session and the entry.
        client
            .execute(
                &format!("INSERT INTO {table} (project_key, session_id, entry) VALUES ('p', 's', '[1,2]')"),
                &[],
            )
            .await
            .unwrap();
        let e = store.load(&key).await.unwrap_err();
        assert!(
            e.to_string().contains(r#"PostgresSessionStore.load(): corrupt entry 1 of session "s" (project "p"): not an object with a string "type""#),
            "{e}"
        );
        drop_tables(&p, "k").await;
        client
            .batch_execute(&format!("DROP FUNCTION IF EXISTS {table}_poison()"))
            .await
            .unwrap();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn recovers_from_an_outage_and_names_a_corrupt_entry_on_resume() {
        let Some(url) = server("SESSION_STORE_POSTGRES_URL") else {
            return;
        };
        let config: claude_agent_sdk::store::postgres::tokio_postgres::Config = url.parse().unwrap();
        let port = match config.get_ports() {
            [p, ..] => *p,
            _ => 5432,
        };
        let host = match config.get_hosts() {
            [claude_agent_sdk::store::postgres::tokio_postgres::config::Host::Tcp(h), ..] => h.clone(),
            _ => "127.0.0.1".into(),
        };
        let proxy = Proxy::start(&format!("{host}:{port}")).await;
        // The same database through the proxy (Config::host adds a host: a new Config, not a clone).
        let mut through = claude_agent_sdk::store::postgres::tokio_postgres::Config::new();
        through
            .host("127.0.0.1")
            .port(proxy.port)
            .connect_timeout(std::time::Duration::from_secs(2));
        if let Some(user) = config.get_user() {
            through.user(user);
        }
        if let Some(db) = config.get_dbname() {
            through.dbname(db);
        }
        if let Some(password) = config.get_password() {
            through.password(password);
        }
        let manager = claude_agent_sdk::store::postgres::deadpool_postgres::Manager::from_config(
            through,
            claude_agent_sdk::store::postgres::tokio_postgres::NoTls,
            claude_agent_sdk::store::postgres::deadpool_postgres::ManagerConfig {
                recycling_method: claude_agent_sdk::store::postgres::deadpool_postgres::RecyclingMethod::Verified,
            },
        );
        let flaky_pool = claude_agent_sdk::store::postgres::deadpool_postgres::Pool::builder(manager)
            .max_size(2)
            .build()
            .unwrap();
        let store = fresh(pool(&url), "o").await;
        let flaky = PostgresSessionStore::new(flaky_pool)
            .with_table_name(store.table_name())
            .unwrap();
        survives_an_outage(&flaky, &proxy).await;
        // A corrupt row: the resume fails naming the session and the entry, and writes nothing.
        let cwd = tempdir("pg-corrupt");
        let key = SessionKey::new(claude_agent_sdk::store::project_key(&cwd, None), SID);
        store
            .append(
                &key,
                &[
                    json!({"type":"user","uuid":"u1","message":{"content":"hi"}}),
                    json!({"type":"assistant","uuid":"a1"}),
                ],
            )
            .await
            .unwrap();
        let client = pool(&url).get().await.unwrap();
        client
            .execute(
                &format!(
                    "UPDATE {} SET entry = '\"not an entry\"' WHERE uuid = 'a1'",
                    store.table_name()
                ),
                &[],
            )
            .await
            .unwrap();
        let e = resume_error(std::sync::Arc::new(store), &cwd).await;
        assert!(e.contains(&format!("SessionStore.load() for session {SID} failed: PostgresSessionStore.load(): corrupt entry 1 of session \"{SID}\"")), "{e}");
        assert!(!materialized(SID), "nothing written for the session");
        drop(client);
        drop_tables(&pool(&url), "o").await;
        std::fs::remove_dir_all(&cwd).ok();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn shares_a_database_with_the_typescript_store() {
        let Some(url) = server("SESSION_STORE_POSTGRES_URL") else {
            return;
        };
        let Some(table) = setting(
            "CASN_INTEROP_PG_TABLE",
            "the node test sets it (__test__/session-stores-rust.test.mjs)",
        ) else {
            return;
        };
        let store = PostgresSessionStore::new(pool(&url)).with_table_name(&table).unwrap();
        store.ensure_schema().await.unwrap();
        interop(&store).await;
    }
}

#[cfg(feature = "redis")]
mod redis {
    use super::*;
    use claude_agent_sdk::store::redis::redis::aio::ConnectionManagerConfig;
    use claude_agent_sdk::store::redis::redis::Client;
    use claude_agent_sdk::store::redis::RedisSessionStore;

    static PREFIXES: AtomicUsize = AtomicUsize::new(0);

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn passes_the_conformance_runner() {
        let Some(url) = server("SESSION_STORE_REDIS_URL") else {
            return;
        };
        let client = Client::open(url.as_str()).unwrap();
        let make = move || {
            let client = client.clone();
            async move {
                let n = PREFIXES.fetch_add(1, Ordering::SeqCst);
                RedisSessionStore::new(client).with_prefix(&format!("test-rs-{}-{n}", run_id()))
            }
        };
        let unreachable = || async {
            RedisSessionStore::new(Client::open("redis://127.0.0.1:1/0").unwrap()).with_connection_config(
                ConnectionManagerConfig::new()
                    .set_connection_timeout(Some(std::time::Duration::from_secs(2)))
                    .set_number_of_retries(0),
            )
        };
        let report = run_session_store_conformance(
            make,
            ConformanceOptions::new().idempotent(true).unreachable(unreachable),
        )
        .await;
        cleanup(&url, &format!("test-rs-{}-*", run_id())).await;
        report.assert_passed();
        assert!(
            report.results.iter().all(|r| r.outcome == Outcome::Passed),
            "every contract ran:\n{report}"
        );
    }

    async fn cleanup(url: &str, pattern: &str) {
        let mut c = Client::open(url)
            .unwrap()
            .get_multiplexed_async_connection()
            .await
            .unwrap();
        let keys: Vec<String> = claude_agent_sdk::store::redis::redis::cmd("KEYS")
            .arg(pattern)
            .query_async(&mut c)
            .await
            .unwrap();
        for chunk in keys.chunks(500) {
            let _: () = claude_agent_sdk::store::redis::redis::cmd("DEL")
                .arg(chunk)
                .query_async(&mut c)
                .await
                .unwrap();
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn keys_are_the_typescript_stores_and_corrupt_items_are_named() {
        let Some(url) = server("SESSION_STORE_REDIS_URL") else {
            return;
        };
        let prefix = format!("test-rs-{}-keys", run_id());
        let store = RedisSessionStore::new(Client::open(url.as_str()).unwrap()).with_prefix(&format!("{prefix}:::"));
        let key = SessionKey::new("{evil}:x", "a:b");
        store
            .append(
                &SessionKey {
                    subpath: Some("c/d".into()),
                    ..key.clone()
                },
                &[json!({"type":"e"})],
            )
            .await
            .unwrap();
        store
            .append(&key, &[json!({"type":"ok"}), json!({"type":"ok2"})])
            .await
            .unwrap();
        let mut c = Client::open(url.as_str())
            .unwrap()
            .get_multiplexed_async_connection()
            .await
            .unwrap();
        let mut keys: Vec<String> = claude_agent_sdk::store::redis::redis::cmd("KEYS")
            .arg(format!("{prefix}:*"))
            .query_async(&mut c)
            .await
            .unwrap();
        keys.sort();
        let p = format!("{prefix}:{{%7Bevil%7D%3Ax}}:");
        assert_eq!(
            keys,
            [
                format!("{p}e:a%3Ab"),
                format!("{p}e:a%3Ab:c%2Fd"),
                format!("{p}k:a%3Ab"),
                format!("{p}sessions"),
                format!("{p}summaries"),
            ],
            "one hash slot per project, no raw id, the TypeScript store's layout"
        );
        let _: () = claude_agent_sdk::store::redis::redis::cmd("RPUSH")
            .arg(format!("{p}e:a%3Ab"))
            .arg("{not json")
            .query_async(&mut c)
            .await
            .unwrap();
        let e = store.load(&key).await.unwrap_err();
        assert!(
            e.to_string().contains(
                r#"RedisSessionStore.load(): corrupt entry 2 of session "a:b" (project "{evil}:x"): not JSON"#
            ),
            "{e}"
        );
        cleanup(&url, &format!("{prefix}:*")).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn recovers_from_an_outage() {
        let Some(url) = server("SESSION_STORE_REDIS_URL") else {
            return;
        };
        let info = Client::open(url.as_str()).unwrap().get_connection_info().clone();
        let target = match info.addr() {
            claude_agent_sdk::store::redis::redis::ConnectionAddr::Tcp(h, p) => format!("{h}:{p}"),
            other => panic!("a TCP server, not {other:?}"),
        };
        let proxy = Proxy::start(&target).await;
        let db = info.redis_settings().db();
        let client = Client::open(format!("redis://127.0.0.1:{}/{db}", proxy.port)).unwrap();
        let prefix = format!("test-rs-{}-outage", run_id());
        let store = RedisSessionStore::new(client)
            .with_prefix(&prefix)
            .with_connection_config(
                ConnectionManagerConfig::new()
                    .set_connection_timeout(Some(std::time::Duration::from_secs(2)))
                    .set_response_timeout(Some(std::time::Duration::from_secs(5)))
                    .set_number_of_retries(1),
            );
        survives_an_outage(&store, &proxy).await;
        cleanup(&url, &format!("{prefix}:*")).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn shares_a_database_with_the_typescript_store() {
        let Some(url) = server("SESSION_STORE_REDIS_URL") else {
            return;
        };
        let Some(prefix) = setting(
            "CASN_INTEROP_REDIS_PREFIX",
            "the node test sets it (__test__/session-stores-rust.test.mjs)",
        ) else {
            return;
        };
        let store = RedisSessionStore::new(Client::open(url.as_str()).unwrap()).with_prefix(&prefix);
        interop(&store).await;
    }
}
