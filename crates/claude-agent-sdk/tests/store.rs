//! Session stores against the mock CLI: the transcript mirrored to a `SessionStore` in the
//! TypeScript SDK's batches (all of a turn before its result is seen, the rest at the end), a
//! failing store reported as `mirror_error` ahead of the result with the session unaffected,
//! and a session resumed from the store alone.

mod support;

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use claude_agent_sdk::store::{resume_from_store, StoreFuture};
use claude_agent_sdk::{query, InMemorySessionStore, Message, Options, OptionsBuilder, SessionKey, SessionStore};
use futures::{FutureExt, StreamExt};
use serde_json::{json, Value};

const SID: &str = "11111111-2222-4333-8444-555555555555";

/// Whether `folder` is named as the private config folders of resumed sessions are.
fn is_resume_folder(folder: &Path) -> bool {
    folder
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("claude-resume-"))
}

/// Polls `done` every 20 ms, at most `tries` times, until it holds (the caller asserts after).
async fn wait_until(tries: usize, mut done: impl FnMut() -> bool) {
    for _ in 0..tries {
        if done() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// A turn that mirrors its writes (under `--session-mirror`): frames before the result, one for
/// a subagent's file, one after the result.
const MIRROR: &str = r#"
import path from 'node:path'
export default async function (cli) {
  await cli.initialize()
  const on = cli.argv.includes('--session-mirror')
  const dir = path.join(process.env.CLAUDE_CONFIG_DIR, 'projects', 'proj')
  const mirror = (entries, file = path.join(dir, 'SID.jsonl')) => on && cli.send({ type: 'transcript_mirror', filePath: file, entries })
  await cli.nextUserMessage()
  cli.sessionState('running')
  cli.systemInit({ session_id: 'SID' })
  mirror([{ type: 'user', uuid: 'u1' }])
  cli.assistantText('answer', { session_id: 'SID' })
  mirror([{ type: 'assistant', uuid: 'a1' }])
  mirror([{ type: 'assistant', uuid: 'sub1' }], path.join(dir, 'SID', 'subagents', 'agent-x.jsonl'))
  mirror([{ type: 'system', uuid: 's1' }])
  cli.result({ session_id: 'SID' })
  mirror([{ type: 'summary', uuid: 'after1' }])
  cli.sessionState('idle')
}
"#;

/// Answers with what it finds in its config folder: the resumed session's transcript.
const RESUMED: &str = r#"
import fs from 'node:fs'
import path from 'node:path'
export default async function (cli) {
  await cli.initialize()
  await cli.nextUserMessage()
  const id = cli.flag('resume')
  const projects = path.join(process.env.CLAUDE_CONFIG_DIR, 'projects')
  const read = (...p) => { try { return fs.readFileSync(path.join(projects, ...p), 'utf8') } catch { return null } }
  const found = fs.readdirSync(projects).map((key) => ({ key, main: read(key, id + '.jsonl'), sub: read(key, id, 'subagents', 'agent-x.jsonl') }))
  cli.systemInit({ session_id: id })
  cli.assistantText(JSON.stringify({ id, found, config: process.env.CLAUDE_CONFIG_DIR }))
  cli.result()
}
"#;

/// A store that records each append (its key and entry uuids) and fails the first `fail` ones.
struct Recording {
    inner: InMemorySessionStore,
    calls: Mutex<Vec<(Option<String>, Vec<String>)>>,
    fail: Mutex<VecDeque<bool>>,
}

impl Recording {
    fn new(fail: &[bool]) -> Arc<Self> {
        Arc::new(Self {
            inner: InMemorySessionStore::new(),
            calls: Mutex::default(),
            fail: Mutex::new(fail.iter().copied().collect()),
        })
    }
    fn calls(&self) -> Vec<(Option<String>, Vec<String>)> {
        self.calls.lock().unwrap().clone()
    }
}

impl SessionStore for Recording {
    fn append<'a>(&'a self, key: &'a SessionKey, entries: &'a [Value]) -> StoreFuture<'a, ()> {
        let uuids = entries
            .iter()
            .map(|e| e["uuid"].as_str().unwrap_or("").to_string())
            .collect();
        let n = {
            let mut calls = self.calls.lock().unwrap();
            calls.push((key.subpath.clone(), uuids));
            calls.len()
        };
        if self.fail.lock().unwrap().pop_front().unwrap_or(false) {
            return futures::future::ready(Err(format!("store down ({n})").into())).boxed();
        }
        self.inner.append(key, entries)
    }
    fn load<'a>(&'a self, key: &'a SessionKey) -> StoreFuture<'a, Option<Vec<Value>>> {
        self.inner.load(key)
    }
}

fn mock(tag: &str, source: &str) -> Option<OptionsBuilder> {
    let (cli, scenario) = support::mock_cli_with(tag, &source.replace("SID", SID))?;
    let config = tempdir(tag);
    Some(
        Options::builder()
            .cli_path(cli)
            .env("MOCK_CLI_SCENARIO", scenario.to_str().unwrap())
            .env("CLAUDE_CONFIG_DIR", config.to_str().unwrap()),
    )
}

fn tempdir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "claude-agent-sdk-store-{tag}-{}",
        claude_agent_sdk::raw::new_uuid()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The kinds of messages seen (`system/init`, `result`, ...), and how many appends had been
/// made when the result came.
async fn run(options: Options, store: &Recording) -> (Vec<String>, Vec<Message>, usize) {
    let mut q = query("hi", options).unwrap();
    let (mut kinds, mut messages, mut at_result) = (vec![], vec![], 0);
    while let Some(m) = q.next().await {
        let m = m.expect("no error");
        kinds.push(match &m {
            Message::System(s) => format!("system/{}", s.subtype),
            Message::Result(_) => {
                at_result = store.calls().len();
                "result".into()
            }
            Message::Assistant(_) => "assistant".into(),
            Message::Other(v) => v["type"].as_str().unwrap_or("?").to_string(),
            _ => "other".into(),
        });
        messages.push(m);
    }
    (kinds, messages, at_result)
}

#[tokio::test(flavor = "multi_thread")]
async fn the_transcript_goes_to_the_store_in_batches_before_each_result() {
    let Some(options) = mock("mirror", MIRROR) else { return };
    let store = Recording::new(&[]);
    let (kinds, _, at_result) = run(options.session_store(store.clone()).build(), &store).await;
    assert_eq!(
        kinds,
        ["system/init", "assistant", "result"],
        "no transcript_mirror frame reaches the stream"
    );
    let ids = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        store.calls(),
        vec![
            (None, ids(&["u1", "a1", "s1"])),
            (Some("subagents/agent-x".into()), ids(&["sub1"])),
            (None, ids(&["after1"]))
        ],
        "one append per file, in the order first written; what came after the result at the end"
    );
    assert_eq!(
        at_result, 2,
        "the turn's entries were in the store before its result was seen"
    );
    let key = SessionKey::new("proj", SID);
    assert_eq!(store.inner.entries(&key).len(), 4);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_failing_store_is_tried_three_times_then_reported_ahead_of_the_result() {
    let Some(options) = mock("mirror-fail", MIRROR) else {
        return;
    };
    let store = Recording::new(&[true, true, true]);
    let (kinds, messages, _) = run(options.session_store(store.clone()).build(), &store).await;
    assert_eq!(
        kinds,
        ["system/init", "assistant", "system/mirror_error", "result"],
        "the session goes on"
    );
    let Message::System(e) = &messages[2] else {
        unreachable!()
    };
    assert_eq!(e.raw["error"], "store down (3)");
    assert_eq!(e.raw["key"], json!({ "projectKey": "proj", "sessionId": SID }));
    assert_eq!(e.session_id.as_deref(), Some(SID));
    let calls = store.calls();
    assert_eq!(
        calls.len(),
        5,
        "3 tries of the first file, then the subagent's, then the last batch"
    );
    assert_eq!(calls[0], calls[2], "the same batch again");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_session_is_resumed_from_the_store_alone() {
    let Some(options) = mock("resume", RESUMED) else { return };
    let cwd = tempdir("cwd");
    let store = Arc::new(InMemorySessionStore::new());
    let project = claude_agent_sdk::store::project_key(&cwd, None);
    let key = SessionKey::new(project.clone(), SID);
    let entries = [
        json!({ "type": "user", "uuid": "u1", "sessionId": SID, "message": { "content": "é" } }),
        json!({ "type": "assistant", "uuid": "a1" }),
    ];
    store.append(&key, &entries).await.unwrap();
    let sub = SessionKey {
        subpath: Some("subagents/agent-x".into()),
        ..key.clone()
    };
    store
        .append(
            &sub,
            &[
                json!({ "type": "user", "uuid": "s1" }),
                json!({ "type": "agent_metadata", "agentType": "helper" }),
            ],
        )
        .await
        .unwrap();

    let options = options.cwd(&cwd).session_store(store.clone());
    // Without the loading step, a store resume is refused rather than resumed from elsewhere.
    let Err(refused) = query("again", options.clone().resume(SID).build()) else {
        panic!("a store resume without resume_from_store must be refused")
    };
    assert!(refused.to_string().contains("resume_from_store"), "{refused}");

    let prepared = resume_from_store(options.clone().resume(SID).build()).await.unwrap();
    let mut q = query("again", prepared).unwrap();
    let mut text = None;
    while let Some(m) = q.next().await {
        if let Message::Result(r) = m.unwrap() {
            text = r.result;
        }
    }
    let seen: Value = serde_json::from_str(&text.expect("a result")).unwrap();
    assert_eq!(seen["id"], SID);
    let found = &seen["found"][0];
    assert_eq!(found["key"], project.as_str());
    let lines: Vec<Value> = found["main"]
        .as_str()
        .expect("the transcript")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines, entries);
    assert_eq!(
        found["sub"].as_str().map(str::trim),
        Some(r#"{"type":"user","uuid":"s1"}"#),
        "subagents too, without their metadata line"
    );
    // The private folder goes when the query is over.
    let folder = PathBuf::from(seen["config"].as_str().unwrap());
    assert!(
        folder.starts_with(std::env::temp_dir()) && is_resume_folder(&folder),
        "{folder:?}"
    );
    drop(q);
    wait_until(500, || !folder.exists()).await;
    assert!(!folder.exists(), "{folder:?} removed");

    // `continue_conversation` takes the store's newest session of the project.
    let prepared = resume_from_store(options.continue_conversation(true).build())
        .await
        .unwrap();
    let mut q = query("and again", prepared).unwrap();
    let mut resumed = None;
    while let Some(m) = q.next().await {
        if let Message::Result(r) = m.unwrap() {
            resumed = r.result;
        }
    }
    assert_eq!(serde_json::from_str::<Value>(&resumed.unwrap()).unwrap()["id"], SID);
}

/// Stops slowly: once its input closes (or it is told to stop), it waits, then says whether its
/// config folder is still there, then exits.
const LINGER: &str = r#"
import fs from 'node:fs'
export default async function (cli) {
  const root = process.env.CLAUDE_CONFIG_DIR
  let stopping = false
  const stop = async () => {
    if (stopping) return
    stopping = true
    await cli.sleep(400)
    cli.log({ root, later: fs.existsSync(root) })
    await cli.exit(0)
  }
  cli.onSignal('SIGTERM', stop)
  await cli.initialize()
  await cli.nextUserMessage()
  cli.assistantText(root)
  cli.result()
  await cli.waitStdinClosed()
  await stop()
}
"#;

#[tokio::test(flavor = "multi_thread")]
async fn a_resumed_query_dropped_early_keeps_its_folder_until_the_cli_has_exited() {
    let Some(options) = mock("linger", LINGER) else { return };
    let log = tempdir("linger-log").join("log.jsonl");
    let cwd = tempdir("linger-cwd");
    let store = Arc::new(InMemorySessionStore::new());
    let key = SessionKey::new(claude_agent_sdk::store::project_key(&cwd, None), SID);
    store
        .append(
            &key,
            &[json!({ "type": "user", "uuid": "u1", "sessionId": SID, "message": { "content": "hi" } })],
        )
        .await
        .unwrap();
    let options = options
        .env("MOCK_CLI_LOG", log.to_str().unwrap())
        .cwd(&cwd)
        .session_store(store)
        .resume(SID)
        .build();
    let mut q = query("again", resume_from_store(options).await.unwrap()).unwrap();
    let mut folder = None;
    while let Some(m) = q.next().await {
        if let Message::Assistant(a) = m.unwrap() {
            folder = Some(PathBuf::from(a.text()));
            break;
        }
    }
    let folder = folder.expect("the CLI named its config folder");
    assert!(is_resume_folder(&folder), "{folder:?}");
    drop(q); // as a `break` leaves a query: the CLI is stopped in the background
    let records = || -> Vec<Value> {
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect()
    };
    wait_until(500, || records().iter().any(|r| r["kind"] == "exit")).await;
    let seen = records()
        .into_iter()
        .find(|r| r["kind"] == "scenario")
        .expect("the CLI reported");
    assert_eq!(
        seen["data"]["later"], true,
        "the folder stayed while the CLI was stopping"
    );
    wait_until(250, || !folder.exists()).await;
    assert!(!folder.exists(), "{folder:?} removed once the CLI exited");
}

/// A store whose `load` never answers.
struct Stuck;

impl SessionStore for Stuck {
    fn append<'a>(&'a self, _: &'a SessionKey, _: &'a [Value]) -> StoreFuture<'a, ()> {
        futures::future::ready(Ok(())).boxed()
    }
    fn load<'a>(&'a self, _: &'a SessionKey) -> StoreFuture<'a, Option<Vec<Value>>> {
        futures::future::pending().boxed()
    }
}

#[tokio::test]
async fn a_resume_gives_up_on_a_store_after_the_load_timeout() {
    let options = Options::builder()
        .session_store(Arc::new(Stuck))
        .resume(SID)
        .load_timeout(std::time::Duration::from_millis(50))
        .build();
    let started = std::time::Instant::now();
    let e = resume_from_store(options).await.unwrap_err();
    // The TypeScript SDK's wording, with the limit given (`loadTimeoutMs`).
    assert_eq!(
        e.to_string(),
        format!("SessionStore.load() timed out after 50ms for session {SID}")
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}
