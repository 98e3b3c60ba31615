//! The session-store conformance runner (cargo feature `testing`): the behaviour the SDK relies
//! on from a [`SessionStore`], as contracts to run against your own store from your own tests.
//! The same contracts as the TypeScript package's `runSessionStoreConformance`
//! (`claude-agent-sdk-native/testing`): the 13 of the official repository's
//! `examples/session-stores/shared/conformance.ts` (same names) first, then hostile ids, unicode,
//! empty and huge entries, many appends, concurrent appends to one session, summaries, mtimes,
//! result shapes, uuid idempotency (opt-in) and an unreachable backend (opt-in).
//!
//! `make_store` must give a fresh, empty, isolated store on every call (a new table, key prefix
//! or bucket prefix). A contract that needs an optional method the store does not have (its
//! method returns `None`) is [`Outcome::NotApplicable`].
//!
//! ```no_run
//! use claude_agent_sdk::store::conformance::{run_session_store_conformance, ConformanceOptions};
//! use claude_agent_sdk::store::InMemorySessionStore;
//!
//! #[tokio::test]
//! async fn my_store_conforms() {
//!     run_session_store_conformance(|| async { InMemorySessionStore::new() }, ConformanceOptions::new())
//!         .await
//!         .assert_passed();
//! }
//! ```
//!
//! One test per contract: loop over [`contracts`] in your own harness and call [`run_contract`].

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use futures::future::{join_all, BoxFuture};
use futures::FutureExt;
use serde_json::{json, Value};

use super::api::{SessionKey, SessionStore};
use super::fold::fold_session_summary;

/// Makes a fresh store (boxed: what [`ConformanceOptions::unreachable`] keeps).
pub type MakeStore = Arc<dyn Fn() -> BoxFuture<'static, Arc<dyn SessionStore>> + Send + Sync>;

/// What the runner may expect of the store beyond the interface.
#[derive(Clone)]
pub struct ConformanceOptions {
    idempotent: bool,
    unreachable: Option<MakeStore>,
    timeout: Duration,
}

impl Default for ConformanceOptions {
    fn default() -> Self {
        Self {
            idempotent: false,
            unreachable: None,
            timeout: Duration::from_secs(60),
        }
    }
}

impl std::fmt::Debug for ConformanceOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConformanceOptions")
            .field("idempotent", &self.idempotent)
            .field("unreachable", &self.unreachable.is_some())
            .field("timeout", &self.timeout)
            .finish()
    }
}

impl ConformanceOptions {
    /// No opt-in contracts, 60 s per contract.
    pub fn new() -> Self {
        Self::default()
    }

    /// The store drops an entry whose `uuid` it already holds under the same key (a replayed
    /// append): checks that, and that entries without a uuid are kept every time.
    pub fn idempotent(mut self, yes: bool) -> Self {
        self.idempotent = yes;
        self
    }

    /// Makes a store whose backend cannot be reached: checks that every call fails (none
    /// succeeds with empty data).
    pub fn unreachable<F, Fut, S>(mut self, make: F) -> Self
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = S> + Send + 'static,
        S: SessionStore,
    {
        self.unreachable = Some(boxed(make));
        self
    }

    /// The time one contract may take (default 60 s); past it, it fails.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }
}

fn boxed<F, Fut, S>(make: F) -> MakeStore
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future<Output = S> + Send + 'static,
    S: SessionStore,
{
    Arc::new(move || {
        let fut = make();
        async move { Arc::new(fut.await) as Arc<dyn SessionStore> }.boxed()
    })
}

/// One contract: its name and the optional method (or option) it needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Contract {
    /// What it checks (the official contracts' names for the first 13).
    pub name: &'static str,
    /// `list_sessions`, `list_session_summaries`, `list_subkeys`, `delete`, `idempotent` or
    /// `unreachable`; `None` for contracts every store must meet.
    pub requires: Option<&'static str>,
}

/// How a contract went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Met.
    Passed,
    /// Broken: what was wrong.
    Failed(String),
    /// Not run: the store lacks the optional method, or the option is not set (named here).
    NotApplicable(&'static str),
}

/// A contract's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContractResult {
    /// The contract's name.
    pub name: &'static str,
    /// How it went.
    pub outcome: Outcome,
}

/// Every contract's outcome, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConformanceReport {
    /// One per contract.
    pub results: Vec<ContractResult>,
}

impl ConformanceReport {
    /// The contracts the store broke.
    pub fn failures(&self) -> Vec<&ContractResult> {
        self.results
            .iter()
            .filter(|r| matches!(r.outcome, Outcome::Failed(_)))
            .collect()
    }

    /// Whether no contract failed.
    pub fn passed(&self) -> bool {
        self.failures().is_empty()
    }

    /// Panics with every broken contract and what was wrong, when one failed.
    #[track_caller]
    pub fn assert_passed(&self) {
        if !self.passed() {
            panic!("{self}");
        }
    }
}

impl std::fmt::Display for ConformanceReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let count = |p: fn(&Outcome) -> bool| self.results.iter().filter(|r| p(&r.outcome)).count();
        writeln!(
            f,
            "session store conformance: {} passed, {} failed, {} not applicable",
            count(|o| *o == Outcome::Passed),
            count(|o| matches!(o, Outcome::Failed(_))),
            count(|o| matches!(o, Outcome::NotApplicable(_)))
        )?;
        for r in &self.results {
            match &r.outcome {
                Outcome::Passed => writeln!(f, "  ok    {}", r.name)?,
                Outcome::Failed(why) => writeln!(f, "  FAIL  {}: {why}", r.name)?,
                Outcome::NotApplicable(what) => writeln!(f, "  n/a   {} (needs {what})", r.name)?,
            }
        }
        Ok(())
    }
}

/// Every contract, in the order they run (the official 13 first).
pub fn contracts() -> Vec<Contract> {
    CONTRACTS
        .iter()
        .map(|(name, requires, _)| Contract {
            name,
            requires: *requires,
        })
        .collect()
}

/// Runs every contract against fresh stores from `make_store`, one after the other.
pub async fn run_session_store_conformance<F, Fut, S>(make_store: F, options: ConformanceOptions) -> ConformanceReport
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future<Output = S> + Send + 'static,
    S: SessionStore,
{
    let make = boxed(make_store);
    let mut results = Vec::new();
    for (name, requires, body) in CONTRACTS {
        let outcome = run_one(&make, &options, *requires, *body).await;
        results.push(ContractResult { name, outcome });
    }
    ConformanceReport { results }
}

/// Runs the contract named `name` (one of [`contracts`]).
///
/// # Panics
/// When no contract has that name.
pub async fn run_contract<F, Fut, S>(name: &str, make_store: F, options: ConformanceOptions) -> Outcome
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future<Output = S> + Send + 'static,
    S: SessionStore,
{
    let Some((_, requires, body)) = CONTRACTS.iter().find(|(n, _, _)| *n == name) else {
        panic!("no session store contract is named {name:?}");
    };
    run_one(&boxed(make_store), &options, *requires, *body).await
}

async fn run_one(
    make: &MakeStore,
    options: &ConformanceOptions,
    requires: Option<&'static str>,
    body: Body,
) -> Outcome {
    let ctx = Ctx {
        make: make.clone(),
        options: options.clone(),
    };
    match requires {
        Some("idempotent") if !options.idempotent => return Outcome::NotApplicable("idempotent"),
        Some("unreachable") if options.unreachable.is_none() => return Outcome::NotApplicable("unreachable"),
        Some(method @ ("list_sessions" | "list_session_summaries" | "list_subkeys" | "delete")) => {
            let store = make().await;
            if !has(&*store, method) {
                return Outcome::NotApplicable(method);
            }
        }
        _ => {}
    }
    let run = AssertUnwindSafe(body(ctx)).catch_unwind();
    match tokio::time::timeout(options.timeout, run).await {
        Err(_) => Outcome::Failed(format!("did not finish within {:?}", options.timeout)),
        Ok(Err(panic)) => {
            let text = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a panic".into());
            Outcome::Failed(format!("panicked: {text}"))
        }
        Ok(Ok(Err(why))) => Outcome::Failed(why),
        Ok(Ok(Ok(()))) => Outcome::Passed,
    }
}

/// Whether the store has an optional method (asked with a key no contract uses).
fn has(store: &dyn SessionStore, method: &str) -> bool {
    let probe = SessionKey::new("__conformance_probe__", "__probe__");
    match method {
        "list_sessions" => store.list_sessions(&probe.project_key).is_some(),
        "list_session_summaries" => store.list_session_summaries(&probe.project_key).is_some(),
        "list_subkeys" => store.list_subkeys(&probe).is_some(),
        "delete" => store.delete(&probe).is_some(),
        _ => true,
    }
}

type Check = Result<(), String>;
type Body = fn(Ctx) -> BoxFuture<'static, Check>;

#[derive(Clone)]
struct Ctx {
    make: MakeStore,
    options: ConformanceOptions,
}

impl Ctx {
    async fn store(&self) -> Arc<dyn SessionStore> {
        (self.make)().await
    }
}

macro_rules! ensure {
    ($cond:expr, $($fmt:tt)+) => {
        if !$cond {
            return Err(format!($($fmt)+));
        }
    };
}

fn key(p: &str, s: &str) -> SessionKey {
    SessionKey::new(p, s)
}

fn sub(p: &str, s: &str, subpath: &str) -> SessionKey {
    SessionKey {
        subpath: Some(subpath.into()),
        ..SessionKey::new(p, s)
    }
}

fn main_key() -> SessionKey {
    key("proj", "sess")
}

fn e(kind: &str) -> Value {
    json!({ "type": kind })
}

fn ej(kind: &str, extra: Value) -> Value {
    let mut v = extra;
    v.as_object_mut()
        .expect("an object")
        .insert("type".into(), Value::String(kind.into()));
    v
}

async fn append(store: &dyn SessionStore, key: &SessionKey, entries: &[Value]) -> Check {
    store
        .append(key, entries)
        .await
        .map_err(|e| format!("append({key:?}) failed: {e}"))
}

async fn load(store: &dyn SessionStore, key: &SessionKey) -> Result<Option<Vec<Value>>, String> {
    store.load(key).await.map_err(|e| format!("load({key:?}) failed: {e}"))
}

async fn expect(store: &dyn SessionStore, key: &SessionKey, expected: &[Value]) -> Check {
    let got = load(store, key).await?;
    let Some(got) = got else {
        return Err(format!("load({key:?}): expected {} entries, got None", expected.len()));
    };
    ensure!(
        got.len() == expected.len(),
        "load({key:?}): expected {} entries, got {}",
        expected.len(),
        got.len()
    );
    for (i, (g, x)) in got.iter().zip(expected).enumerate() {
        ensure!(
            g == x,
            "load({key:?}): entry {i} is {}, expected {}",
            short(g),
            short(x)
        );
    }
    Ok(())
}

async fn expect_none(store: &dyn SessionStore, key: &SessionKey) -> Check {
    let got = load(store, key).await?;
    ensure!(
        got.is_none(),
        "load({key:?}): expected None, got {} entries",
        got.map_or(0, |g| g.len())
    );
    Ok(())
}

fn short(v: &Value) -> String {
    let t = v.to_string();
    if t.len() > 200 {
        format!("{}… ({} bytes)", t.chars().take(200).collect::<String>(), t.len())
    } else {
        t
    }
}

async fn session_ids(store: &dyn SessionStore, project: &str) -> Result<Vec<String>, String> {
    let fut = store
        .list_sessions(project)
        .ok_or("list_sessions() returned None after first returning Some")?;
    let mut ids: Vec<String> = fut
        .await
        .map_err(|e| format!("list_sessions({project:?}) failed: {e}"))?
        .into_iter()
        .map(|s| s.session_id)
        .collect();
    ids.sort();
    Ok(ids)
}

async fn subkeys(store: &dyn SessionStore, k: &SessionKey) -> Result<Vec<String>, String> {
    let fut = store.list_subkeys(k).ok_or("list_subkeys() returned None")?;
    let mut subs = fut.await.map_err(|e| format!("list_subkeys({k:?}) failed: {e}"))?;
    subs.sort();
    Ok(subs)
}

async fn delete(store: &dyn SessionStore, k: &SessionKey) -> Check {
    let fut = store.delete(k).ok_or("delete() returned None")?;
    fut.await.map_err(|e| format!("delete({k:?}) failed: {e}"))
}

/// Hostile ids: separators, traversal, glob and SQL characters, hash tags, escapes, unicode.
const HOSTILE: [&str; 23] = [
    "a/b",
    "..",
    "../x",
    ".",
    "a:b",
    "a",
    "x%2Fy",
    "*",
    "?",
    "[a]",
    "{tag}",
    "';DROP TABLE x;--",
    "\"q\"",
    "sp ace",
    "new\nline",
    "tab\t",
    "\\",
    "ü-日本-🙂",
    "__sessions",
    "__subkeys",
    "summary.json",
    "part-0000000000001-abcdef.jsonl",
    "%",
];

const CONTRACTS: &[(&str, Option<&str>, Body)] = &[
    ("append then load returns same entries in same order", None, |c| {
        async move {
            let store = c.store().await;
            let entries = [
                ej("a", json!({"n": 1, "nested": {"x": [1, 2]}})),
                ej("b", json!({"n": 2})),
            ];
            append(&*store, &main_key(), &entries).await?;
            expect(&*store, &main_key(), &entries).await
        }
        .boxed()
    }),
    ("load unknown key returns null", None, |c| {
        async move {
            let store = c.store().await;
            expect_none(&*store, &main_key()).await?;
            expect_none(&*store, &sub("proj", "sess", "subagents/a")).await
        }
        .boxed()
    }),
    ("multiple append calls preserve call order", None, |c| {
        async move {
            let store = c.store().await;
            append(&*store, &main_key(), &[e("a")]).await?;
            append(&*store, &main_key(), &[e("b"), e("c")]).await?;
            append(&*store, &main_key(), &[e("d")]).await?;
            expect(&*store, &main_key(), &[e("a"), e("b"), e("c"), e("d")]).await
        }
        .boxed()
    }),
    ("append([]) is a no-op", None, |c| {
        async move {
            let store = c.store().await;
            append(&*store, &main_key(), &[]).await?;
            expect_none(&*store, &main_key()).await?;
            append(&*store, &main_key(), &[e("a")]).await?;
            append(&*store, &main_key(), &[]).await?;
            expect(&*store, &main_key(), &[e("a")]).await
        }
        .boxed()
    }),
    ("subpath keys are stored independently of main", None, |c| {
        async move {
            let store = c.store().await;
            append(&*store, &main_key(), &[e("main")]).await?;
            append(&*store, &sub("proj", "sess", "subagents/x"), &[e("sub")]).await?;
            expect(&*store, &main_key(), &[e("main")]).await?;
            expect(&*store, &sub("proj", "sess", "subagents/x"), &[e("sub")]).await
        }
        .boxed()
    }),
    ("projectKey isolation", None, |c| {
        async move {
            let store = c.store().await;
            append(&*store, &key("A", "s"), &[e("a")]).await?;
            append(&*store, &key("B", "s"), &[e("b")]).await?;
            expect(&*store, &key("A", "s"), &[e("a")]).await?;
            expect(&*store, &key("B", "s"), &[e("b")]).await
        }
        .boxed()
    }),
    (
        "listSessions returns sessionIds for project",
        Some("list_sessions"),
        |c| {
            async move {
                let store = c.store().await;
                append(&*store, &key("P", "s1"), &[e("a")]).await?;
                append(&*store, &key("P", "s2"), &[e("b")]).await?;
                append(&*store, &key("Q", "s3"), &[e("c")]).await?;
                let ids = session_ids(&*store, "P").await?;
                ensure!(
                    ids == ["s1", "s2"],
                    "list_sessions(\"P\") is {ids:?}, expected [\"s1\", \"s2\"]"
                );
                let listed = store
                    .list_sessions("P")
                    .ok_or("list_sessions() returned None")?
                    .await
                    .map_err(|e| e.to_string())?;
                ensure!(
                    listed.iter().all(|s| s.mtime > 1_000_000_000_000),
                    "mtimes are epoch ms: {listed:?}"
                );
                ensure!(
                    session_ids(&*store, "never-seen").await?.is_empty(),
                    "an unknown project lists sessions"
                );
                Ok(())
            }
            .boxed()
        },
    ),
    ("listSessions excludes subagent subpaths", Some("list_sessions"), |c| {
        async move {
            let store = c.store().await;
            append(&*store, &sub("P", "s1", "subagents/x"), &[e("sub")]).await?;
            let ids = session_ids(&*store, "P").await?;
            ensure!(
                !ids.iter().any(|s| s == "s1"),
                "a session with only a subpath is listed: {ids:?}"
            );
            Ok(())
        }
        .boxed()
    }),
    ("delete main then load returns null", Some("delete"), |c| {
        async move {
            let store = c.store().await;
            append(&*store, &main_key(), &[e("a")]).await?;
            delete(&*store, &main_key()).await?;
            expect_none(&*store, &main_key()).await?;
            delete(&*store, &key("x", "never")).await
        }
        .boxed()
    }),
    ("delete main cascades to subkeys", Some("delete"), |c| {
        async move {
            let store = c.store().await;
            append(&*store, &main_key(), &[e("main")]).await?;
            append(&*store, &sub("proj", "sess", "subagents/a"), &[e("sa")]).await?;
            append(&*store, &sub("proj", "sess", "subagents/b"), &[e("sb")]).await?;
            append(&*store, &key("proj", "other"), &[e("o")]).await?;
            append(&*store, &key("proj2", "sess"), &[e("p2")]).await?;
            delete(&*store, &main_key()).await?;
            expect_none(&*store, &main_key()).await?;
            expect_none(&*store, &sub("proj", "sess", "subagents/a")).await?;
            expect_none(&*store, &sub("proj", "sess", "subagents/b")).await?;
            expect(&*store, &key("proj", "other"), &[e("o")]).await?;
            expect(&*store, &key("proj2", "sess"), &[e("p2")]).await?;
            if store.list_subkeys(&main_key()).is_some() {
                let subs = subkeys(&*store, &main_key()).await?;
                ensure!(subs.is_empty(), "list_subkeys after deleting the session: {subs:?}");
            }
            Ok(())
        }
        .boxed()
    }),
    ("delete with subpath removes only that subkey", Some("delete"), |c| {
        async move {
            let store = c.store().await;
            append(&*store, &main_key(), &[e("main")]).await?;
            append(&*store, &sub("proj", "sess", "subagents/a"), &[e("sa")]).await?;
            append(&*store, &sub("proj", "sess", "subagents/b"), &[e("sb")]).await?;
            delete(&*store, &sub("proj", "sess", "subagents/a")).await?;
            expect(&*store, &main_key(), &[e("main")]).await?;
            expect_none(&*store, &sub("proj", "sess", "subagents/a")).await?;
            expect(&*store, &sub("proj", "sess", "subagents/b"), &[e("sb")]).await
        }
        .boxed()
    }),
    (
        "listSubkeys returns subpaths for the session",
        Some("list_subkeys"),
        |c| {
            async move {
                let store = c.store().await;
                append(&*store, &sub("proj", "sess", "subagents/a"), &[e("sa")]).await?;
                append(&*store, &sub("proj", "sess", "subagents/b"), &[e("sb")]).await?;
                append(&*store, &sub("proj", "other", "subagents/c"), &[e("sc")]).await?;
                let subs = subkeys(&*store, &main_key()).await?;
                ensure!(subs == ["subagents/a", "subagents/b"], "list_subkeys is {subs:?}");
                Ok(())
            }
            .boxed()
        },
    ),
    ("listSubkeys excludes main transcript", Some("list_subkeys"), |c| {
        async move {
            let store = c.store().await;
            append(&*store, &main_key(), &[e("main")]).await?;
            let subs = subkeys(&*store, &main_key()).await?;
            ensure!(subs.is_empty(), "list_subkeys lists the main transcript: {subs:?}");
            let never = subkeys(&*store, &key("x", "never")).await?;
            ensure!(never.is_empty(), "list_subkeys of an unknown session: {never:?}");
            Ok(())
        }
        .boxed()
    }),
    // --- beyond the official 13 ---------------------------------------------------------------
    (
        "hostile ids: each project, session and subpath is its own, read back exactly",
        None,
        |c| {
            async move {
                let store = c.store().await;
                let long = "a".repeat(200);
                let mut hostile: Vec<&str> = HOSTILE.to_vec();
                hostile.push(&long);
                let mut keys = Vec::new();
                for id in &hostile {
                    keys.push(key(id, "s"));
                    keys.push(key("p", id));
                    keys.push(sub("p", "s", id));
                }
                // Neighbours a naive join would merge: 'a:b' vs 'a' + subpath 'b', 'x/y'+'z' vs 'x'+'y/z'.
                keys.extend([key("x/y", "z"), key("x", "y/z"), sub("p", "a", "b"), key("p:a", "b")]);
                let entry = |i: usize| ej("k", json!({ "i": i }));
                let appends = keys.iter().enumerate().map(|(i, k)| {
                    let store = store.clone();
                    async move { append(&*store, k, &[entry(i)]).await }
                });
                join_all(appends).await.into_iter().collect::<Result<Vec<_>, _>>()?;
                for (i, k) in keys.iter().enumerate() {
                    expect(&*store, k, &[entry(i)]).await?;
                }
                if store.list_sessions("p").is_some() {
                    let mut want: Vec<String> = hostile.iter().map(|s| s.to_string()).collect();
                    want.sort();
                    let got = session_ids(&*store, "p").await?;
                    ensure!(
                        got == want,
                        "list_sessions(\"p\") gives each hostile session id exactly: got {got:?}"
                    );
                    let xy = session_ids(&*store, "x/y").await?;
                    ensure!(xy == ["z"], "list_sessions(\"x/y\") is {xy:?}");
                }
                if store.list_subkeys(&key("p", "s")).is_some() {
                    let mut want: Vec<String> = hostile.iter().map(|s| s.to_string()).collect();
                    want.sort();
                    let got = subkeys(&*store, &key("p", "s")).await?;
                    ensure!(
                        got == want,
                        "list_subkeys(p/s) gives each hostile subpath exactly: got {got:?}"
                    );
                }
                if store.delete(&key("__conformance_probe__", "__probe__")).is_some() {
                    delete(&*store, &key("p", "..")).await?;
                    expect_none(&*store, &key("p", "..")).await?;
                    for (i, k) in keys.iter().enumerate() {
                        if k.project_key == "p" && k.session_id == ".." {
                            continue;
                        }
                        expect(&*store, k, &[entry(i)])
                            .await
                            .map_err(|e| format!("after deleting session \"..\": {e}"))?;
                    }
                }
                Ok(())
            }
            .boxed()
        },
    ),
    ("unicode and escapes round-trip", None, |c| {
        async move {
            let store = c.store().await;
            let text = "emoji 🙂🏳️‍🌈, CJK 日本語, RTL עברית, combining é, NUL \u{0}, line sep \u{2028}\u{2029}, controls \u{1}\u{1f}, quote \" backslash \\ ";
            let mut fields = serde_json::Map::new();
            fields.insert("message".into(), json!({"role": "user", "content": text}));
            fields.insert(text.into(), json!(text));
            fields.insert("n".into(), json!([0, -1.5, 1e300, null, true, false, u64::MAX, i64::MIN]));
            let entries = [ej("user", Value::Object(fields))];
            append(&*store, &main_key(), &entries).await?;
            expect(&*store, &main_key(), &entries).await
        }
        .boxed()
    }),
    ("minimal entries, a 1 MiB entry and a 2,000-entry batch", None, |c| {
        async move {
            let store = c.store().await;
            let big = ej(
                "assistant",
                json!({"message": {"content": [{"type": "text", "text": "x".repeat(1 << 20)}]}}),
            );
            append(&*store, &main_key(), &[e("t"), e("t"), big.clone()]).await?;
            let many: Vec<Value> = (0..2000)
                .map(|i| ej("e", json!({"i": i, "uuid": format!("u-{i}")})))
                .collect();
            append(&*store, &main_key(), &many).await?;
            let mut all = vec![e("t"), e("t"), big];
            all.extend(many);
            expect(&*store, &main_key(), &all).await
        }
        .boxed()
    }),
    (
        "100 appends in a row keep their order (same millisecond or not)",
        None,
        |c| {
            async move {
                let store = c.store().await;
                for i in 0..100 {
                    append(&*store, &main_key(), &[ej("e", json!({"i": i}))]).await?;
                }
                let want: Vec<Value> = (0..100).map(|i| ej("e", json!({"i": i}))).collect();
                expect(&*store, &main_key(), &want).await
            }
            .boxed()
        },
    ),
    (
        "concurrent appends to one session: every entry once, each batch in its order",
        None,
        |c| {
            async move {
                let store = c.store().await;
                let batches: Vec<Vec<Value>> = (0..16)
                    .map(|b| {
                        (0..5)
                            .map(|i| ej("e", json!({"b": b, "i": i, "uuid": format!("b{b}-i{i}")})))
                            .collect()
                    })
                    .collect();
                let k = main_key();
                join_all(batches.iter().map(|batch| append(&*store, &k, batch)))
                    .await
                    .into_iter()
                    .collect::<Result<Vec<_>, _>>()?;
                let got = load(&*store, &k).await?.ok_or("load() gave None after 16 appends")?;
                ensure!(got.len() == 80, "80 entries, got {}", got.len());
                for b in 0..16 {
                    let order: Vec<i64> = got
                        .iter()
                        .filter(|e| e["b"] == b)
                        .filter_map(|e| e["i"].as_i64())
                        .collect();
                    ensure!(order == [0, 1, 2, 3, 4], "batch {b} once, in order: got {order:?}");
                }
                Ok(())
            }
            .boxed()
        },
    ),
    ("concurrent appends to many sessions stay apart", None, |c| {
        async move {
            let store = c.store().await;
            let keys: Vec<SessionKey> = (0..12).map(|i| key("proj", &format!("c{i}"))).collect();
            let pair = |i: usize| [ej("e", json!({"i": i})), ej("e", json!({"i": i, "second": true}))];
            join_all(keys.iter().enumerate().map(|(i, k)| {
                let store = store.clone();
                async move { append(&*store, k, &pair(i)).await }
            }))
            .await
            .into_iter()
            .collect::<Result<Vec<_>, _>>()?;
            for (i, k) in keys.iter().enumerate() {
                expect(&*store, k, &pair(i)).await?;
            }
            Ok(())
        }
        .boxed()
    }),
    (
        "mtime is integer epoch ms and moves forward on append",
        Some("list_sessions"),
        |c| {
            async move {
                let store = c.store().await;
                let mtime = |store: Arc<dyn SessionStore>| async move {
                    let list = store
                        .list_sessions("proj")
                        .ok_or("list_sessions() returned None")?
                        .await
                        .map_err(|e| e.to_string())?;
                    list.first()
                        .map(|s| s.mtime)
                        .ok_or_else(|| "list_sessions(\"proj\") is empty after an append".to_string())
                };
                append(&*store, &main_key(), &[e("a")]).await?;
                let first = mtime(store.clone()).await?;
                ensure!(first > 1_000_000_000_000, "epoch ms: {first}");
                tokio::time::sleep(Duration::from_millis(5)).await;
                append(&*store, &main_key(), &[e("b")]).await?;
                let second = mtime(store.clone()).await?;
                ensure!(second > first, "mtime {second} after {first}");
                Ok(())
            }
            .boxed()
        },
    ),
    (
        "listSessionSummaries folds what was appended (main transcripts only)",
        Some("list_session_summaries"),
        |c| {
            async move {
            let store = c.store().await;
            let a = key("S", "one");
            let batch1 = [ej("user", json!({"uuid": "u1", "timestamp": "2026-01-02T03:04:05.000Z", "cwd": "/w", "message": {"role": "user", "content": "first prompt"}}))];
            let batch2 = [ej("custom-title", json!({"customTitle": "My title"})), ej("tag", json!({"tag": "blue"}))];
            append(&*store, &a, &batch1).await?;
            append(&*store, &a, &batch2).await?;
            append(&*store, &sub("S", "one", "subagents/x"), &[ej("user", json!({"message": {"role": "user", "content": "sub prompt"}}))]).await?;
            append(&*store, &key("S", "two"), &[e("x")]).await?;
            append(&*store, &key("T", "three"), &[e("x")]).await?;
            let summaries = |p: &'static str| {
                let store = store.clone();
                async move { store.list_session_summaries(p).ok_or("list_session_summaries() returned None")?.await.map_err(|e| format!("list_session_summaries({p:?}) failed: {e}")) }
            };
            let list = summaries("S").await?;
            let mut ids: Vec<&str> = list.iter().map(|s| s.session_id.as_str()).collect();
            ids.sort();
            ensure!(ids == ["one", "two"], "summaries of project S: {ids:?}");
            let one = list.iter().find(|s| s.session_id == "one").expect("listed");
            let expected = fold_session_summary(Some(&fold_session_summary(None, &a, &batch1, None)), &a, &batch2, None);
            ensure!(one.data == expected.data, "summary data {:?}, expected {:?}", one.data, expected.data);
            ensure!(one.mtime > 1_000_000_000_000, "summary mtime is epoch ms: {}", one.mtime);
            if let Some(listed) = store.list_sessions("S") {
                let listed = listed.await.map_err(|e| e.to_string())?;
                let m = listed.iter().find(|s| s.session_id == "one").map(|s| s.mtime);
                ensure!(m == Some(one.mtime), "the same mtime as list_sessions: {m:?} vs {}", one.mtime);
            }
            if store.delete(&key("__conformance_probe__", "__probe__")).is_some() {
                delete(&*store, &a).await?;
                let after: Vec<String> = summaries("S").await?.into_iter().map(|s| s.session_id).collect();
                ensure!(after == ["two"], "summaries after deleting \"one\": {after:?}");
            }
            ensure!(summaries("never-seen").await?.is_empty(), "an unknown project has summaries");
            Ok(())
        }
        .boxed()
        },
    ),
    (
        "concurrent appends fold every batch into the summary",
        Some("list_session_summaries"),
        |c| {
            async move {
                let store = c.store().await;
                let batches: Vec<[Value; 2]> = (0..10)
                    .map(|i| {
                        [
                            ej("user", json!({"message": {"role": "user", "content": format!("p{i}")}})),
                            ej(&format!("t{i}"), json!({"gitBranch": "main"})),
                        ]
                    })
                    .collect();
                let k = main_key();
                join_all(batches.iter().map(|b| append(&*store, &k, b)))
                    .await
                    .into_iter()
                    .collect::<Result<Vec<_>, _>>()?;
                let list = store
                    .list_session_summaries("proj")
                    .ok_or("list_session_summaries() returned None")?
                    .await
                    .map_err(|e| e.to_string())?;
                let s = list.first().ok_or("no summary after 10 appends")?;
                ensure!(
                    s.data.get("gitBranch") == Some(&json!("main")),
                    "gitBranch folded: {:?}",
                    s.data
                );
                let first = s.data.get("firstPrompt").and_then(Value::as_str).unwrap_or("");
                ensure!(
                    first.len() == 2 && first.starts_with('p'),
                    "firstPrompt is one batch's prompt: {first:?}"
                );
                Ok(())
            }
            .boxed()
        },
    ),
    ("results have the documented shapes", None, |c| {
        async move {
            let store = c.store().await;
            append(&*store, &main_key(), &[e("a")]).await?;
            append(&*store, &sub("proj", "sess", "subagents/a"), &[e("b")]).await?;
            let loaded = load(&*store, &main_key()).await?.ok_or("load() gave None")?;
            ensure!(
                loaded.iter().all(|e| e.get("type").is_some_and(Value::is_string)),
                "entries are objects with a string type: {loaded:?}"
            );
            if let Some(list) = store.list_sessions("proj") {
                let list = list.await.map_err(|e| e.to_string())?;
                ensure!(
                    list.len() == 1 && list[0].session_id == "sess" && list[0].mtime > 0,
                    "list_sessions(\"proj\"): {list:?}"
                );
            }
            Ok(())
        }
        .boxed()
    }),
    (
        "a replayed entry (same uuid) is stored once; entries without uuid are not deduplicated",
        Some("idempotent"),
        |c| {
            async move {
                let store = c.store().await;
                let batch = [
                    ej("user", json!({"uuid": "u1"})),
                    ej("custom-title", json!({"customTitle": "t"})),
                    ej("assistant", json!({"uuid": "a1"})),
                ];
                append(&*store, &main_key(), &batch).await?;
                append(&*store, &main_key(), &batch).await?;
                append(&*store, &main_key(), &[ej("assistant", json!({"uuid": "a2"}))]).await?;
                let mut want = batch.to_vec();
                want.push(ej("custom-title", json!({"customTitle": "t"})));
                want.push(ej("assistant", json!({"uuid": "a2"})));
                expect(&*store, &main_key(), &want).await?;
                // The same uuid in another subpath is another entry.
                let s = sub("proj", "sess", "subagents/a");
                append(&*store, &s, &[ej("user", json!({"uuid": "u1"}))]).await?;
                expect(&*store, &s, &[ej("user", json!({"uuid": "u1"}))]).await
            }
            .boxed()
        },
    ),
    (
        "an unreachable backend rejects every call (never resolves with empty data)",
        Some("unreachable"),
        |c| {
            async move {
                let make = c.options.unreachable.clone().expect("checked before");
                let store = make().await;
                let k = main_key();
                ensure!(store.append(&k, &[e("a")]).await.is_err(), "append() succeeded");
                ensure!(store.load(&k).await.is_err(), "load() succeeded");
                if let Some(f) = store.list_sessions("proj") {
                    ensure!(f.await.is_err(), "list_sessions() succeeded");
                }
                if let Some(f) = store.list_session_summaries("proj") {
                    ensure!(f.await.is_err(), "list_session_summaries() succeeded");
                }
                if let Some(f) = store.list_subkeys(&k) {
                    ensure!(f.await.is_err(), "list_subkeys() succeeded");
                }
                if let Some(f) = store.delete(&k) {
                    ensure!(f.await.is_err(), "delete() succeeded");
                }
                Ok(())
            }
            .boxed()
        },
    ),
];
