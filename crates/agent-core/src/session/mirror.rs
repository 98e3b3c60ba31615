//! The session store mirror (the `sessionStore` option): the CLI, started with
//! `--session-mirror`, reports each transcript write as a `transcript_mirror` frame
//! (`{"type":"transcript_mirror","filePath":..,"entries":[..]}`) on stdout. The loop takes those
//! frames out of the stream (they never reach the consumer) and hands them here; they are sent to
//! the host's store ([`CallKind::StoreAppend`]) in batches, by the official SDK's rules
//! (`TranscriptMirrorBatcher` in its `sdk.mjs`):
//!
//! - a batch goes when more than [`MAX_PENDING_ENTRIES`] entries or [`MAX_PENDING_BYTES`] of
//!   JSON wait (every frame at once with `sessionStoreFlush: 'eager'`), before each `result`
//!   reaches the consumer, and at the end of the session;
//! - batches go one after another; within one, the entries of each file go in one append, files
//!   in the order they were first written;
//! - a failed append is tried again after 200 ms, then after 800 ms (3 tries); one that does
//!   not settle in 60 s is not tried again (it may still land);
//! - after the last failure the batch is dropped and a `mirror_error` system message goes into
//!   the stream where the failure happened (before the `result` the flush was for). The session
//!   itself goes on.
//!
//! The official reads no further while the flush before a `result` runs; here the loop goes on
//! answering control requests, and holds back only what the consumer would see (and the frames
//! behind the `result`), so the order of messages and appends is the official's.
//!
//! One task (`worker`) makes the store calls; the loop owns the batching (`Mirror`) and learns
//! of failures and finished batches through `Event`s.

use std::collections::VecDeque;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;
use serde_json::value::RawValue;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use crate::host::{CallKind, Host, HostCall, Reply};

/// More entries than this waiting sends them (the official's `maxPendingEntries`).
pub(crate) const MAX_PENDING_ENTRIES: usize = 500;
/// More JSON than this waiting (in UTF-16 units, as `JSON.stringify(entries).length` counts)
/// sends it (the official's `maxPendingBytes`).
pub(crate) const MAX_PENDING_BYTES: usize = 1_048_576;
/// The waits before the second and third tries of a failed append.
pub(crate) const BACKOFF: [Duration; 2] = [Duration::from_millis(200), Duration::from_millis(800)];
/// How long one append may take; one that takes longer is reported, not tried again.
pub(crate) const APPEND_TIMEOUT: Duration = Duration::from_secs(60);

/// The store mirror of one session: where the CLI's transcripts are, and how eagerly to send.
#[derive(Debug, Clone)]
pub struct MirrorSpec {
    /// The CLI's `projects` folder (`$CLAUDE_CONFIG_DIR/projects` of its environment, else
    /// `~/.claude/projects`): a frame's file path under it names the store key.
    pub projects_dir: PathBuf,
    /// `sessionStoreFlush: 'eager'`: every frame is sent as it comes.
    pub eager: bool,
    pub max_entries: usize,
    pub max_bytes: usize,
    pub backoff: Vec<Duration>,
    pub append_timeout: Duration,
}

impl MirrorSpec {
    /// The official's rules, for a CLI whose transcripts are under `projects_dir`.
    pub fn new(projects_dir: PathBuf, eager: bool) -> Self {
        Self {
            projects_dir,
            eager,
            max_entries: MAX_PENDING_ENTRIES,
            max_bytes: MAX_PENDING_BYTES,
            backoff: BACKOFF.to_vec(),
            append_timeout: APPEND_TIMEOUT,
        }
    }

    /// The mirror a query's options ask for (`sessionStore` set), with the CLI's projects folder
    /// from the environment it is started with (`env`, as [`crate::cli::launch::child_env`]
    /// builds it).
    pub fn for_child(env: &[(String, String)], eager: bool) -> Self {
        let config = env
            .iter()
            .find(|(k, _)| k == "CLAUDE_CONFIG_DIR")
            .map(|(_, v)| PathBuf::from(v))
            .unwrap_or_else(|| {
                let home = std::env::var_os("HOME")
                    .or_else(|| std::env::var_os("USERPROFILE"))
                    .unwrap_or_default();
                PathBuf::from(home).join(".claude")
            });
        Self::new(config.join("projects"), eager)
    }
}

/// A store key (`SessionKey`): the project folder's name, the session id, and for a subagent's
/// transcript the rest of its path.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct StoreKey {
    pub project_key: String,
    pub session_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subpath: Option<String>,
}

/// The store key of a transcript path under `projects` (the official's rule: `<project>/<id>.jsonl`
/// is a session, `<project>/<id>/<sub...>/<name>.jsonl` one of its subagents), or `None` for a
/// file anywhere else.
pub(crate) fn key_for_path(file: &str, projects: &Path) -> Option<StoreKey> {
    let file = normalize(Path::new(file));
    let projects = normalize(projects);
    let rel = file.strip_prefix(&projects).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.len() < 2 {
        return None;
    }
    let strip = |s: &str| s.strip_suffix(".jsonl").unwrap_or(s).to_string();
    if parts.len() == 2 && parts[1].ends_with(".jsonl") {
        return Some(StoreKey {
            project_key: parts[0].clone(),
            session_id: strip(&parts[1]),
            subpath: None,
        });
    }
    if parts.len() >= 4 {
        let mut sub = parts[2..].to_vec();
        let last = sub.len() - 1;
        sub[last] = strip(&sub[last]);
        return Some(StoreKey {
            project_key: parts[0].clone(),
            session_id: parts[1].clone(),
            subpath: Some(sub.join("/")),
        });
    }
    None
}

/// A path with `.` and `..` resolved lexically, made absolute against the working directory
/// (as Node's `path.relative` resolves both of its arguments).
fn normalize(p: &Path) -> PathBuf {
    let abs = if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(p)
    };
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// One `transcript_mirror` frame's fields.
#[derive(Deserialize)]
struct Frame {
    #[serde(rename = "filePath")]
    file_path: Option<String>,
    entries: Option<Vec<Box<RawValue>>>,
}

/// Entries waiting, by the file they were written to.
type Batch = Vec<(String, Vec<Box<RawValue>>)>;

/// What the worker tells the loop.
#[derive(Debug)]
pub(crate) enum Event {
    /// A batch was dropped after its last try: the `mirror_error` message for the stream.
    Error(String),
    /// A batch is done (sent, or reported).
    Done,
}

/// The loop's side of the mirror: entries waiting, batches sent and not done, and the
/// consumer's messages held back while the flush before a `result` runs.
pub(crate) struct Mirror {
    spec: Arc<MirrorSpec>,
    pending: Batch,
    pending_entries: usize,
    pending_bytes: usize,
    jobs: Option<mpsc::UnboundedSender<Batch>>,
    events: mpsc::UnboundedReceiver<Event>,
    /// Batches handed to the worker and not done.
    outstanding: usize,
    /// While the flush before a `result` runs: that `result` first, then every line for the
    /// consumer (and every frame) read behind it, in order. Not bounded by the consumer's queue:
    /// it holds what the CLI writes between a `result` and the end of the store's calls, which is
    /// a few lines (the CLI waits for input after a result), for at most 60 s per file when a
    /// store hangs. (The official stops reading stdout meanwhile; reading on keeps control
    /// requests answered.)
    held: Option<VecDeque<String>>,
    worker: JoinHandle<()>,
}

impl Mirror {
    /// Starts the worker that calls the host's store.
    pub(crate) fn start(spec: MirrorSpec, host: Arc<dyn Host>) -> Self {
        let spec = Arc::new(spec);
        let (jobs, jobs_rx) = mpsc::unbounded_channel();
        let (events_tx, events) = mpsc::unbounded_channel();
        let worker = tokio::spawn(worker(spec.clone(), host, jobs_rx, events_tx));
        Self {
            spec,
            pending: Vec::new(),
            pending_entries: 0,
            pending_bytes: 0,
            jobs: Some(jobs),
            events,
            outstanding: 0,
            held: None,
            worker,
        }
    }

    /// Queues a frame's entries; sends what waits when it is over the bounds (or at once, eager).
    /// A frame without a file path or an entries array is skipped.
    pub(crate) fn enqueue(&mut self, line: &str) {
        let frame: Frame = match serde_json::from_str(line) {
            Ok(f) => f,
            Err(e) => {
                tracing::warn!(error = %e, "skipped a transcript_mirror frame that could not be read");
                return;
            }
        };
        let (Some(file), Some(entries)) = (frame.file_path, frame.entries) else {
            tracing::warn!("skipped a transcript_mirror frame without filePath or entries");
            return;
        };
        // `JSON.stringify(entries).length`: the array's text as the CLI wrote it, in UTF-16 units.
        let bytes = 2 + entries.len().saturating_sub(1) + entries.iter().map(|e| utf16_len(e.get())).sum::<usize>();
        self.pending_entries += entries.len();
        self.pending_bytes += bytes;
        self.pending.push((file, entries));
        if self.spec.eager || self.pending_entries > self.spec.max_entries || self.pending_bytes > self.spec.max_bytes {
            self.drain();
        }
    }

    /// Hands what waits to the worker as one batch.
    pub(crate) fn drain(&mut self) {
        self.pending_entries = 0;
        self.pending_bytes = 0;
        if self.pending.is_empty() {
            return;
        }
        let batch = std::mem::take(&mut self.pending);
        if let Some(jobs) = &self.jobs {
            if jobs.send(batch).is_ok() {
                self.outstanding += 1;
            }
        }
    }

    /// Whether a `result` must wait: entries wait, or a batch is not done.
    pub(crate) fn busy(&self) -> bool {
        !self.pending.is_empty() || self.outstanding > 0
    }

    /// Starts the flush before `result`, which is held until every batch is done.
    pub(crate) fn hold_result(&mut self, result: String) {
        self.drain();
        self.held = Some(VecDeque::from([result]));
    }

    pub(crate) fn holding(&self) -> bool {
        self.held.is_some()
    }

    /// A line read while the flush runs: held behind the `result`.
    pub(crate) fn hold(&mut self, line: String) {
        self.held.as_mut().expect("holding").push_back(line);
    }

    /// The worker's next event (pending forever once it is gone).
    pub(crate) async fn event(&mut self) -> Event {
        match self.events.recv().await {
            Some(e) => e,
            None => std::future::pending().await,
        }
    }

    /// Counts a finished batch; when the flush a `result` waits for is over, the held lines (the
    /// `result` first) to hand back to the loop.
    pub(crate) fn done(&mut self) -> Option<VecDeque<String>> {
        self.outstanding = self.outstanding.saturating_sub(1);
        if self.outstanding == 0 {
            self.held.take()
        } else {
            None
        }
    }

    /// Sends what waits and lets the worker finish on its own; resolves when it has (the host
    /// must stay reachable until then).
    pub(crate) fn close(mut self) -> JoinHandle<()> {
        self.drain();
        self.jobs = None;
        self.worker
    }
}

fn utf16_len(s: &str) -> usize {
    // ASCII is one unit a byte; only the rest needs counting by character.
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().map(char::len_utf16).sum()
    }
}

/// Sends each batch in turn, each file's entries in one append, with the tries and the timeout
/// of [`MirrorSpec`].
async fn worker(
    spec: Arc<MirrorSpec>,
    host: Arc<dyn Host>,
    mut jobs: mpsc::UnboundedReceiver<Batch>,
    events: mpsc::UnboundedSender<Event>,
) {
    while let Some(batch) = jobs.recv().await {
        let mut files: Vec<(String, Vec<Box<RawValue>>)> = Vec::new();
        for (file, entries) in batch {
            match files.iter_mut().find(|(f, _)| *f == file) {
                Some((_, all)) => all.extend(entries),
                None => files.push((file, entries)),
            }
        }
        for (file, entries) in files {
            if let Some(error) = send_with_retry(&spec, &*host, &file, &entries).await {
                let _ = events.send(Event::Error(error));
            }
        }
        let _ = events.send(Event::Done);
    }
}

/// One file's entries to the store; the `mirror_error` line if every try failed.
async fn send_with_retry(spec: &MirrorSpec, host: &dyn Host, file: &str, entries: &[Box<RawValue>]) -> Option<String> {
    let Some(key) = key_for_path(file, &spec.projects_dir) else {
        tracing::warn!(file, projects = %spec.projects_dir.display(), "dropping a transcript_mirror frame: its file is not under the CLI's projects folder (CLAUDE_CONFIG_DIR differs?)");
        return None;
    };
    let payload = format!(
        "{{\"key\":{},\"entries\":[{}]}}",
        serde_json::to_string(&key).expect("a key serializes"),
        entries.iter().map(|e| e.get()).collect::<Vec<_>>().join(",")
    );
    let timeout_message = format!(
        "SessionStore.append() timed out after {}ms for {file}",
        spec.append_timeout.as_millis()
    );
    let tries = spec.backoff.len() + 1;
    let mut failure = None;
    for attempt in 1..=tries {
        let (tx, rx) = oneshot::channel();
        let id = format!("store_{}", crate::protocol::outgoing::next_request_id());
        let reply = Reply::new(id.clone(), move |result| {
            let _ = tx.send(result);
        });
        host.invoke(vec![(
            HostCall {
                request_id: id,
                request_id_json: None,
                kind: CallKind::StoreAppend,
                payload: payload.clone(),
            },
            reply,
        )]);
        match tokio::time::timeout(spec.append_timeout, rx).await {
            Ok(Ok(Ok(_))) => {
                failure = None;
                break;
            }
            Ok(Ok(Err(message))) => failure = Some(message),
            Ok(Err(_)) => failure = Some("The SDK host ended the call without answering it".to_string()),
            Err(_) => {
                // A store that hangs is not asked again: the call may still land.
                failure = Some(timeout_message);
                break;
            }
        }
        match spec.backoff.get(attempt - 1) {
            Some(wait) => tokio::time::sleep(*wait).await,
            None => break,
        }
    }
    let message = failure?;
    tracing::error!(file, error = %message, "SessionStore.append() failed; the batch is dropped");
    Some(mirror_error(&key, &message))
}

/// The `mirror_error` system message, as the official builds it.
fn mirror_error(key: &StoreKey, message: &str) -> String {
    serde_json::json!({
      "type": "system",
      "subtype": "mirror_error",
      "error": message,
      "key": key,
      "uuid": crate::sessions::write::uuid_v4(),
      "session_id": key.session_id,
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn keys_follow_the_official_rule() {
        let projects = Path::new("/c/projects");
        let k = |f: &str| key_for_path(f, projects);
        assert_eq!(
            k("/c/projects/p/s1.jsonl"),
            Some(StoreKey {
                project_key: "p".into(),
                session_id: "s1".into(),
                subpath: None
            })
        );
        assert_eq!(
            k("/c/projects/p/s1/subagents/agent-a.jsonl"),
            Some(StoreKey {
                project_key: "p".into(),
                session_id: "s1".into(),
                subpath: Some("subagents/agent-a".into())
            })
        );
        assert_eq!(k("/c/projects/p/s1/x.jsonl"), None, "three parts name nothing");
        assert_eq!(k("/c/projects/p/s1.txt"), None);
        assert_eq!(k("/c/projects/p"), None);
        assert_eq!(k("/elsewhere/p/s1.jsonl"), None);
        assert_eq!(
            k("/c/projects/../projects/p/s1.jsonl").map(|k| k.session_id),
            Some("s1".into())
        );
        assert_eq!(k("/c/projects/p/../../x/s.jsonl"), None, "no escaping through ..");
    }

    /// A store that records each append and answers as told.
    #[derive(Default)]
    struct Store {
        calls: Mutex<Vec<(String, String)>>,
        /// How the n-th append answers: Ok, Err(message), or None (never).
        script: Mutex<VecDeque<Option<Result<(), String>>>>,
        held: Mutex<Vec<Reply>>,
    }

    impl Host for Store {
        fn invoke(&self, calls: Vec<(HostCall, Reply)>) {
            for (call, reply) in calls {
                assert_eq!(call.kind, CallKind::StoreAppend);
                let v: serde_json::Value = serde_json::from_str(&call.payload).unwrap();
                let types: Vec<&str> = v["entries"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|e| e["type"].as_str().unwrap())
                    .collect();
                self.calls
                    .lock()
                    .unwrap()
                    .push((v["key"]["sessionId"].as_str().unwrap().to_string(), types.join(",")));
                match self.script.lock().unwrap().pop_front().unwrap_or(Some(Ok(()))) {
                    Some(Ok(())) => reply.send(Ok("null".into())),
                    Some(Err(m)) => reply.send(Err(m)),
                    None => self.held.lock().unwrap().push(reply),
                }
            }
        }
        fn cancel(&self, _: &str) {}
    }

    fn frame(session: &str, types: &[&str]) -> String {
        let entries: Vec<_> = types
            .iter()
            .map(|t| serde_json::json!({ "type": t, "uuid": "u" }))
            .collect();
        serde_json::json!({ "type": "transcript_mirror", "filePath": format!("/c/projects/p/{session}.jsonl"), "entries": entries }).to_string()
    }

    fn mirror(store: &Arc<Store>, eager: bool) -> Mirror {
        let mut spec = MirrorSpec::new("/c/projects".into(), eager);
        spec.max_entries = 4;
        Mirror::start(spec, store.clone())
    }

    /// Waits for the worker's events until every batch is done; the errors it reported.
    async fn settle(m: &mut Mirror) -> Vec<serde_json::Value> {
        let mut errors = vec![];
        while m.outstanding > 0 {
            match m.event().await {
                Event::Error(line) => errors.push(serde_json::from_str(&line).unwrap()),
                Event::Done => {
                    m.done();
                }
            }
        }
        errors
    }

    #[tokio::test(start_paused = true)]
    async fn batches_wait_for_the_bounds_and_group_entries_by_file() {
        let store = Arc::new(Store::default());
        let mut m = mirror(&store, false);
        m.enqueue(&frame("a", &["user"]));
        m.enqueue(&frame("b", &["user"]));
        m.enqueue(&frame("a", &["assistant", "system"]));
        assert!(m.busy());
        tokio::time::sleep(Duration::from_secs(5)).await;
        assert!(
            store.calls.lock().unwrap().is_empty(),
            "no timer: below the bounds nothing goes until a flush"
        );
        m.enqueue(&frame("b", &["assistant"]));
        assert_eq!(m.outstanding, 1, "more than 4 entries: sent");
        m.enqueue(&frame("c", &["x"]));
        assert!(settle(&mut m).await.is_empty());
        assert_eq!(
            *store.calls.lock().unwrap(),
            vec![
                ("a".into(), "user,assistant,system".into()),
                ("b".into(), "user,assistant".into())
            ]
        );
        assert!(m.busy(), "c waits for the next flush");
        m.drain();
        settle(&mut m).await;
        assert_eq!(store.calls.lock().unwrap().last(), Some(&("c".into(), "x".into())));
        assert!(!m.busy());
    }

    #[tokio::test(start_paused = true)]
    async fn eager_sends_every_frame() {
        let store = Arc::new(Store::default());
        let mut m = mirror(&store, true);
        m.enqueue(&frame("a", &["user"]));
        m.enqueue(&frame("a", &["assistant"]));
        assert_eq!(m.outstanding, 2);
        settle(&mut m).await;
        assert_eq!(store.calls.lock().unwrap().len(), 2);
    }

    #[tokio::test(start_paused = true)]
    async fn a_failing_append_is_tried_three_times_with_back_off_then_reported() {
        let store = Arc::new(Store::default());
        store
            .script
            .lock()
            .unwrap()
            .extend([Some(Err("down 1".into())), Some(Err("down 2".into())), Some(Ok(()))]);
        let mut m = mirror(&store, false);
        m.enqueue(&frame("a", &["user"]));
        let start = tokio::time::Instant::now();
        m.drain();
        assert!(settle(&mut m).await.is_empty(), "the third try succeeded");
        assert_eq!(
            start.elapsed(),
            Duration::from_millis(1000),
            "200 ms, then 800 ms between the tries"
        );
        assert_eq!(store.calls.lock().unwrap().len(), 3);

        store.calls.lock().unwrap().clear();
        store.script.lock().unwrap().extend([
            Some(Err("down 1".into())),
            Some(Err("down 2".into())),
            Some(Err("down 3".into())),
        ]);
        m.enqueue(&frame("a", &["assistant"]));
        m.drain();
        let errors = settle(&mut m).await;
        assert_eq!(store.calls.lock().unwrap().len(), 3);
        assert_eq!(errors.len(), 1);
        let e = &errors[0];
        assert_eq!(
            (e["type"].as_str(), e["subtype"].as_str(), e["error"].as_str()),
            (Some("system"), Some("mirror_error"), Some("down 3"))
        );
        assert_eq!(e["key"], serde_json::json!({ "projectKey": "p", "sessionId": "a" }));
        assert_eq!(e["session_id"], "a");
        assert_eq!(e["uuid"].as_str().map(str::len), Some(36));
    }

    #[tokio::test(start_paused = true)]
    async fn a_store_that_hangs_is_not_asked_again() {
        let store = Arc::new(Store::default());
        store.script.lock().unwrap().push_back(None);
        let mut m = mirror(&store, false);
        m.enqueue(&frame("a", &["user"]));
        m.enqueue(&frame("b", &["user"]));
        let start = tokio::time::Instant::now();
        m.drain();
        let errors = settle(&mut m).await;
        assert_eq!(start.elapsed(), APPEND_TIMEOUT);
        assert_eq!(errors.len(), 1);
        assert_eq!(
            errors[0]["error"],
            "SessionStore.append() timed out after 60000ms for /c/projects/p/a.jsonl"
        );
        assert_eq!(
            *store.calls.lock().unwrap(),
            vec![("a".into(), "user".into()), ("b".into(), "user".into())],
            "once, then the next file"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn frames_outside_the_projects_folder_and_bad_frames_are_dropped() {
        let store = Arc::new(Store::default());
        let mut m = mirror(&store, false);
        m.enqueue(r#"{"type":"transcript_mirror","filePath":"/tmp/x/a.jsonl","entries":[{"type":"user"}]}"#);
        m.enqueue(r#"{"type":"transcript_mirror","entries":[{"type":"user"}]}"#);
        m.enqueue(r#"{"type":"transcript_mirror","filePath":"/c/projects/p/a.jsonl","entries":{}}"#);
        m.drain();
        assert!(settle(&mut m).await.is_empty());
        assert!(store.calls.lock().unwrap().is_empty());
    }

    #[tokio::test(start_paused = true)]
    async fn a_held_result_comes_back_when_every_batch_is_done() {
        let store = Arc::new(Store::default());
        let mut m = mirror(&store, false);
        m.enqueue(&frame("a", &["user", "assistant"]));
        assert!(m.busy());
        m.hold_result("RESULT".into());
        m.hold("AFTER".into());
        assert!(matches!(m.event().await, Event::Done));
        assert_eq!(
            m.done(),
            Some(VecDeque::from(["RESULT".to_string(), "AFTER".to_string()]))
        );
        assert!(!m.holding() && !m.busy());
        assert_eq!(store.calls.lock().unwrap().len(), 1);
    }

    /// A host whose store appends wait for the test to answer them.
    struct Gate(mpsc::UnboundedSender<Reply>);

    impl Host for Gate {
        fn invoke(&self, calls: Vec<(HostCall, Reply)>) {
            for (call, reply) in calls {
                assert_eq!(call.kind, CallKind::StoreAppend);
                let _ = self.0.send(reply);
            }
        }
        fn cancel(&self, _: &str) {}
    }

    fn kinds(lines: Vec<Vec<u8>>) -> Vec<String> {
        lines
            .iter()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_slice(l).unwrap();
                format!(
                    "{}{}",
                    v["type"].as_str().unwrap(),
                    v["subtype"].as_str().map(|s| format!("/{s}")).unwrap_or_default()
                )
            })
            .collect()
    }

    /// The session loop with a mirror: the `result` (and what follows it) waits until the store
    /// has answered for the turn's entries; a lost batch's `mirror_error` comes first; control
    /// traffic goes on meanwhile; frames never reach the consumer.
    #[tokio::test]
    async fn the_loop_holds_a_result_until_the_store_has_the_turn() {
        use crate::cli::custom::{host_process, HostProcessEvent};
        use crate::session::{start, SessionSpec};
        let (written_tx, mut written) = mpsc::unbounded_channel::<Vec<u8>>();
        let (process, feed) = host_process(Arc::new(move |e| {
            if let HostProcessEvent::Write(bytes) = e {
                let _ = written_tx.send(bytes);
            }
        }));
        let (gate_tx, mut appends) = mpsc::unbounded_channel();
        let mut spec = MirrorSpec::new("/c/projects".into(), false);
        spec.backoff = vec![]; // one try: a failure is reported at once
        let started = start(
            SessionSpec {
                mirror: Some(spec),
                ..SessionSpec::for_host(process)
            },
            Arc::new(Gate(gate_tx)),
        )
        .unwrap();
        let mut messages = started.messages;
        let init: serde_json::Value = serde_json::from_slice(written.recv().await.unwrap().trim_ascii()).unwrap();
        let line = |v: serde_json::Value| feed.stdout(format!("{v}\n").into_bytes());
        line(
            serde_json::json!({ "type": "control_response", "response": { "subtype": "success", "request_id": init["request_id"], "response": {} } }),
        );
        line(serde_json::json!({ "type": "assistant", "message": { "content": [] } }));
        feed.stdout(frame("a", &["user", "assistant"]).into_bytes());
        feed.stdout(b"\n".to_vec());
        line(serde_json::json!({ "type": "result", "subtype": "success" }));
        line(serde_json::json!({ "type": "system", "subtype": "after" }));
        // The append is asked for once the loop has read the result: nothing after the assistant
        // message has reached the consumer.
        let reply = tokio::time::timeout(Duration::from_secs(20), appends.recv())
            .await
            .expect("the result's flush asks the store")
            .unwrap();
        assert_eq!(
            kinds(messages.next_batch(16, 1 << 20).await.unwrap().unwrap()),
            ["assistant"]
        );
        assert!(
            messages.try_batch(16, 1 << 20).is_none(),
            "the result waits for the store"
        );
        // A control request is still answered while the result waits.
        line(
            serde_json::json!({ "type": "control_request", "request_id": "r1", "request": { "subtype": "mcp_message", "server_name": "nope", "message": { "jsonrpc": "2.0", "id": 1, "method": "ping" } } }),
        );
        let answer = String::from_utf8(written.recv().await.unwrap()).unwrap();
        assert!(answer.contains("\"r1\""), "{answer}");
        reply.send(Err("store down".into()));
        let mut seen = vec![];
        while seen.len() < 3 {
            seen.extend(kinds(messages.next_batch(16, 1 << 20).await.unwrap().unwrap()));
        }
        assert_eq!(seen, ["system/mirror_error", "result/success", "system/after"]);
        feed.exited(crate::cli::child::ExitInfo {
            code: Some(0),
            signal: None,
        });
        assert!(messages.next_batch(16, 1 << 20).await.is_none(), "the clean end");
    }

    #[test]
    fn sizes_count_as_javascript_does() {
        assert_eq!(utf16_len("abc"), 3);
        assert_eq!(utf16_len("é😀"), 3);
    }
}
