//! [`ScriptedModel`]: the scripted Messages API served over HTTP on 127.0.0.1.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::io;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use futures::StreamExt;
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::{BodyExt, Full, StreamBody};
use hyper::body::{Frame, Incoming};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};
use tokio::task::AbortHandle;

use super::request::{is_agent_turn, RecordedRequest, RequestKind};
use super::sse;
use super::turn::{ApiError, Turn};
use crate::{Options, OptionsBuilder};

type Body = UnsyncBoxBody<Bytes, Infallible>;
type TurnFn = dyn Fn(&RecordedRequest, TurnInfo) -> Turn + Send + Sync;

/// Where a request stands in the script, for a turn computed from the request
/// ([`ScriptedModelBuilder::turn_with`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct TurnInfo {
    /// The agent turn's 0-based index (`None` for a side query).
    pub index: Option<usize>,
    /// The script is used up and the fallback answers.
    pub fallback: bool,
}

/// A scripted answer: fixed, or computed from the request.
#[derive(Clone)]
enum Entry {
    Fixed(Turn),
    Computed(Arc<TurnFn>),
}

impl Entry {
    fn turn(&self, request: &RecordedRequest, info: TurnInfo) -> Result<Turn, String> {
        match self {
            Entry::Fixed(t) => Ok(t.clone()),
            Entry::Computed(f) => catch_unwind(AssertUnwindSafe(|| f(request, info))).map_err(|p| {
                p.downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| p.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".into())
            }),
        }
    }
}

/// Configures a [`ScriptedModel`]: the turns it answers, in order, and how.
pub struct ScriptedModelBuilder {
    script: VecDeque<Entry>,
    fallback: Entry,
    side_query: Entry,
    delay: Duration,
    chunk_delay: Duration,
    chunk_size: usize,
}

impl Default for ScriptedModelBuilder {
    fn default() -> Self {
        ScriptedModelBuilder {
            script: VecDeque::new(),
            fallback: Entry::Fixed(Turn::text("done")),
            side_query: Entry::Fixed(Turn::text("ok")),
            delay: Duration::ZERO,
            chunk_delay: Duration::ZERO,
            chunk_size: 0,
        }
    }
}

impl ScriptedModelBuilder {
    /// The next agent turn's answer.
    pub fn turn(mut self, turn: impl Into<Turn>) -> Self {
        self.script.push_back(Entry::Fixed(turn.into()));
        self
    }

    /// The next agent turn's answer, computed from its request (e.g. to echo the tool result
    /// the model was sent). A panic in `f` breaks the script: it is kept in
    /// [`ScriptedModel::errors`], and that request and every later `/v1/messages` request are
    /// answered with an HTTP 400 naming it, so the session ends with it as an error result.
    pub fn turn_with(mut self, f: impl Fn(&RecordedRequest, TurnInfo) -> Turn + Send + Sync + 'static) -> Self {
        self.script.push_back(Entry::Computed(Arc::new(f)));
        self
    }

    /// The answer once the script is used up (default: the text `done`).
    pub fn fallback(mut self, turn: impl Into<Turn>) -> Self {
        self.fallback = Entry::Fixed(turn.into());
        self
    }

    /// The answer to side queries (default: the text `ok`).
    pub fn side_query(mut self, turn: impl Into<Turn>) -> Self {
        self.side_query = Entry::Fixed(turn.into());
        self
    }

    /// Waits this long before answering each `/v1/messages` request (default: none).
    pub fn delay(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }

    /// Waits this long between the SSE events of a streamed answer (default: none).
    pub fn chunk_delay(mut self, delay: Duration) -> Self {
        self.chunk_delay = delay;
        self
    }

    /// Splits text and tool-input JSON into deltas of this many characters (default: one
    /// delta per block).
    pub fn chunk_size(mut self, chars: usize) -> Self {
        self.chunk_size = chars;
        self
    }

    /// Starts serving on a free port of 127.0.0.1, on the current tokio runtime (an error
    /// outside one). The server stops, and the temporary directories it made are removed,
    /// when the [`ScriptedModel`] is dropped.
    pub fn start(self) -> io::Result<ScriptedModel> {
        let runtime = tokio::runtime::Handle::try_current().map_err(|_| {
            io::Error::other("claude_agent_sdk::testing::ScriptedModel must be started within a tokio runtime")
        })?;
        let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
        listener.set_nonblocking(true)?;
        let port = listener.local_addr()?.port();
        let listener = {
            let _entered = runtime.enter();
            tokio::net::TcpListener::from_std(listener)?
        };
        let state = Arc::new(State {
            script: Mutex::new(self.script),
            fallback: self.fallback,
            side_query: self.side_query,
            delay: self.delay,
            chunk_delay: self.chunk_delay,
            chunk_size: self.chunk_size,
            requests: Mutex::new(Vec::new()),
            errors: Mutex::new(Vec::new()),
            broken: Mutex::new(None),
            turns: AtomicUsize::new(0),
            ids: AtomicUsize::new(0),
            tag: format!("{:x}{port:x}", std::process::id()),
        });
        let tasks = Arc::new(Mutex::new(Vec::<AbortHandle>::new()));
        let accept = {
            let (state, tasks) = (state.clone(), tasks.clone());
            runtime.spawn(async move {
                while let Ok((stream, _)) = listener.accept().await {
                    let state = state.clone();
                    let service = hyper::service::service_fn(move |req| answer(state.clone(), req));
                    let conn = tokio::spawn(async move {
                        let _ = hyper::server::conn::http1::Builder::new()
                            .serve_connection(TokioIo::new(stream), service)
                            .await;
                    });
                    let mut tasks = tasks.lock().unwrap();
                    tasks.retain(|t| !t.is_finished());
                    tasks.push(conn.abort_handle());
                }
            })
        };
        tasks.lock().unwrap().push(accept.abort_handle());
        Ok(ScriptedModel {
            url: format!("http://127.0.0.1:{port}"),
            state,
            tasks,
            temp_dirs: Mutex::new(Vec::new()),
        })
    }
}

struct State {
    script: Mutex<VecDeque<Entry>>,
    fallback: Entry,
    side_query: Entry,
    delay: Duration,
    chunk_delay: Duration,
    chunk_size: usize,
    requests: Mutex<Vec<RecordedRequest>>,
    errors: Mutex<Vec<String>>,
    /// Set by a turn function's panic: the script is broken, every answer is this 400.
    broken: Mutex<Option<String>>,
    turns: AtomicUsize,
    ids: AtomicUsize,
    tag: String,
}

impl State {
    fn id(&self, prefix: &str) -> String {
        format!(
            "{prefix}_scripted_{}_{}",
            self.tag,
            self.ids.fetch_add(1, Ordering::Relaxed) + 1
        )
    }
}

/// A scripted, local fake of the Anthropic Messages API for running the real Claude Code CLI
/// offline: point the CLI at it ([`options`](Self::options) or [`env`](Self::env)) and each
/// agent turn the CLI asks for is answered with the script's next [`Turn`], streamed as the API
/// streams it. Every request is recorded ([`requests`](Self::requests)) so a test can check
/// what the model was shown.
///
/// ```no_run
/// # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
/// use claude_agent_sdk::testing::{collect, ScriptedModel, Turn};
/// use claude_agent_sdk::query;
///
/// let model = ScriptedModel::builder().turn(Turn::text("Hi!")).start()?;
/// let options = model.options().cli_path("node_modules/@anthropic-ai/claude-code/bin/claude.exe").build();
/// let messages = collect(query("Say hi", options)?).await?;
/// assert_eq!(model.requests()[0].last_user_text(), "Say hi");
/// # Ok(()) }
/// ```
pub struct ScriptedModel {
    url: String,
    state: Arc<State>,
    tasks: Arc<Mutex<Vec<AbortHandle>>>,
    temp_dirs: Mutex<Vec<PathBuf>>,
}

impl std::fmt::Debug for ScriptedModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScriptedModel")
            .field("url", &self.url)
            .field("turns", &self.turn_count())
            .finish_non_exhaustive()
    }
}

impl ScriptedModel {
    /// A model to script.
    pub fn builder() -> ScriptedModelBuilder {
        ScriptedModelBuilder::default()
    }

    /// Starts a model answering `turns` in order (then `done`).
    pub fn start(turns: impl IntoIterator<Item = Turn>) -> io::Result<Self> {
        turns
            .into_iter()
            .fold(ScriptedModel::builder(), ScriptedModelBuilder::turn)
            .start()
    }

    /// The base URL (`http://127.0.0.1:<port>`), the CLI's `ANTHROPIC_BASE_URL`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Options for a CLI talking to this model only: this process's environment without
    /// `ANTHROPIC_*`, `CLAUDE_*`, `CLAUDECODE`, `NODE_OPTIONS` and `DEBUG`, plus
    /// [`env`](Self::env)'s variables (a fresh `HOME` and `CLAUDE_CONFIG_DIR`), with a fresh
    /// temporary working directory. The CLI is found as usual (`@anthropic-ai/claude-code`
    /// under a `node_modules` from this process's working directory up, then `claude` on
    /// `PATH`) unless [`cli_path`](crate::OptionsBuilder::cli_path) says where.
    pub fn options(&self) -> OptionsBuilder {
        Options::builder()
            .inherit_env(false)
            .envs(self.env())
            .cwd(self.temp_dir())
    }

    /// The environment for a CLI talking to this model: the inherited variables that cannot
    /// leak a real configuration, `ANTHROPIC_BASE_URL`, `ANTHROPIC_API_KEY=sk-test`,
    /// `DISABLE_TELEMETRY=1`, `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1`,
    /// `ENABLE_TOOL_SEARCH=false`, and a fresh temporary `HOME` whose `.claude` is
    /// `CLAUDE_CONFIG_DIR` (one per call, removed when the model is dropped).
    pub fn env(&self) -> Vec<(String, String)> {
        let home = self.temp_dir();
        let config = home.join(".claude");
        let _ = std::fs::create_dir_all(&config);
        let home = home.display().to_string();
        let ours = [
            ("ANTHROPIC_BASE_URL", self.url.clone()),
            ("ANTHROPIC_API_KEY", "sk-test".into()),
            ("DISABLE_TELEMETRY", "1".into()),
            ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1".into()),
            ("ENABLE_TOOL_SEARCH", "false".into()),
            ("HOME", home.clone()),
            ("USERPROFILE", home),
            ("CLAUDE_CONFIG_DIR", config.display().to_string()),
        ];
        let mut env: Vec<(String, String)> = std::env::vars()
            .filter(|(k, _)| !leaky(k) && !ours.iter().any(|(o, _)| o == k))
            .collect();
        env.extend(ours.map(|(k, v)| (k.to_string(), v)));
        env
    }

    /// A fresh temporary directory (canonical path), removed when the model is dropped.
    pub fn temp_dir(&self) -> PathBuf {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let base = std::env::temp_dir()
            .canonicalize()
            .unwrap_or_else(|_| std::env::temp_dir());
        loop {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let dir = base.join(format!("scripted-model-{}-{n}", self.state.tag));
            match std::fs::create_dir(&dir) {
                Ok(()) => {
                    self.temp_dirs.lock().unwrap().push(dir.clone());
                    return dir;
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => panic!("cannot create a temporary directory in {}: {e}", base.display()),
            }
        }
    }

    /// The agent-turn requests received so far, in order: what the model was shown each turn.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.all_requests()
            .into_iter()
            .filter(|r| r.kind == RequestKind::Turn)
            .collect()
    }

    /// Every HTTP request received so far (probes, side queries, token counts too).
    pub fn all_requests(&self) -> Vec<RecordedRequest> {
        self.state.requests.lock().unwrap().clone()
    }

    /// The agent turns answered so far.
    pub fn turn_count(&self) -> usize {
        self.state.turns.load(Ordering::SeqCst)
    }

    /// The scripted turns not used yet.
    pub fn remaining_turns(&self) -> usize {
        self.state.script.lock().unwrap().len()
    }

    /// Appends a turn to the script.
    pub fn add_turn(&self, turn: impl Into<Turn>) {
        self.state.script.lock().unwrap().push_back(Entry::Fixed(turn.into()));
    }

    /// What went wrong in the script so far (turn functions that panicked), each naming the turn.
    pub fn errors(&self) -> Vec<String> {
        self.state.errors.lock().unwrap().clone()
    }
}

impl Drop for ScriptedModel {
    fn drop(&mut self) {
        for task in self.tasks.lock().unwrap().drain(..) {
            task.abort();
        }
        for dir in self.temp_dirs.lock().unwrap().drain(..) {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// Inherited variables that would leak a real configuration into the CLI.
fn leaky(name: &str) -> bool {
    let n = name.to_ascii_uppercase();
    n.starts_with("ANTHROPIC_")
        || n.starts_with("CLAUDE_")
        || n == "CLAUDECODE"
        || n == "NODE_OPTIONS"
        || n.starts_with("AWS_BEARER_TOKEN_BEDROCK")
        || n == "DEBUG"
}

fn json_response(status: u16, body: &Value) -> Response<Body> {
    Response::builder()
        .status(StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR))
        .header("content-type", "application/json")
        .header("request-id", "req_scripted")
        .body(Full::new(Bytes::from(body.to_string())).boxed_unsync())
        .expect("a valid response")
}

fn error_response(error: &ApiError) -> Response<Body> {
    json_response(error.status, &error.body())
}

/// Answers one HTTP request.
async fn answer(state: Arc<State>, req: Request<Incoming>) -> Result<Response<Body>, Infallible> {
    let method = req.method().clone();
    let url = req
        .uri()
        .path_and_query()
        .map(|p| p.as_str().to_string())
        .unwrap_or_else(|| "/".into());
    let path = req.uri().path().trim_end_matches('/').to_string();
    let headers: Vec<(String, String)> = req
        .headers()
        .iter()
        .map(|(k, v)| {
            (
                k.as_str().to_string(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    let encoding = req
        .headers()
        .get("content-encoding")
        .map(|v| String::from_utf8_lossy(v.as_bytes()).to_ascii_lowercase());
    let raw = match req.into_body().collect().await {
        Ok(b) => b.to_bytes(),
        Err(e) => return Ok(error_response(&ApiError::invalid_request(format!("body: {e}")))),
    };
    let body = if raw.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&raw).unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&raw).into_owned()))
    };
    let kind = match (&method, path.as_str()) {
        (&Method::POST, "/v1/messages") if is_agent_turn(&body) => RequestKind::Turn,
        (&Method::POST, "/v1/messages") => RequestKind::Side,
        (&Method::POST, "/v1/messages/count_tokens") => RequestKind::CountTokens,
        (&Method::HEAD | &Method::GET, "" | "/v1") => RequestKind::Probe,
        _ => RequestKind::Other,
    };
    let request = RecordedRequest {
        method: method.to_string(),
        url,
        headers,
        body,
        kind,
    };
    state.requests.lock().unwrap().push(request.clone());
    if let Some(enc) = encoding.filter(|e| e != "identity") {
        return Ok(error_response(&ApiError::invalid_request(format!(
            "scripted model: request bodies in content-encoding {enc} are not supported"
        ))));
    }
    Ok(match kind {
        RequestKind::Turn | RequestKind::Side => messages(&state, &request).await,
        RequestKind::CountTokens => json_response(200, &json!({ "input_tokens": raw.len().div_ceil(4).max(1) })),
        RequestKind::Probe => json_response(200, &json!({})),
        RequestKind::Other => json_response(
            404,
            &ApiError::new(
                404,
                "not_found_error",
                format!("scripted model: no route for {method} {}", request.url),
            )
            .body(),
        ),
    })
}

/// Answers `POST /v1/messages`: the next scripted turn, or the side-query answer.
async fn messages(state: &State, request: &RecordedRequest) -> Response<Body> {
    if !request.body["messages"].is_array() {
        return error_response(&ApiError::invalid_request("messages: field required"));
    }
    if let Some(broken) = state.broken.lock().unwrap().clone() {
        return error_response(&ApiError::invalid_request(broken));
    }
    let (entry, info) = if request.kind == RequestKind::Turn {
        let index = state.turns.fetch_add(1, Ordering::SeqCst);
        let next = state.script.lock().unwrap().pop_front();
        let fallback = next.is_none();
        (
            next.unwrap_or_else(|| state.fallback.clone()),
            TurnInfo {
                index: Some(index),
                fallback,
            },
        )
    } else {
        (
            state.side_query.clone(),
            TurnInfo {
                index: None,
                fallback: false,
            },
        )
    };
    let turn = match entry.turn(request, info) {
        Ok(t) => t,
        Err(panic) => {
            let which = info.index.map_or("the side query".to_string(), |i| format!("turn {i}"));
            let message = format!("scripted model: {which} panicked: {panic}");
            state.errors.lock().unwrap().push(message.clone());
            *state.broken.lock().unwrap() = Some(message.clone());
            return error_response(&ApiError::invalid_request(message));
        }
    };
    let delay = turn.delay.unwrap_or(state.delay);
    if !delay.is_zero() {
        tokio::time::sleep(delay).await;
    }
    if let Some(e) = &turn.error {
        return error_response(e);
    }
    let response = sse::Response::new(&turn, state.id("msg"), request.model(), || state.id("toolu"));
    if request.body["stream"] != json!(true) {
        return json_response(200, &response.message());
    }
    let pause = state.chunk_delay;
    let frames = futures::stream::iter(response.events(state.chunk_size).into_iter().enumerate()).then(
        move |(i, event)| async move {
            if i > 0 && !pause.is_zero() {
                tokio::time::sleep(pause).await;
            }
            Ok::<_, Infallible>(Frame::data(Bytes::from(event)))
        },
    );
    Response::builder()
        .status(200)
        .header("content-type", "text/event-stream; charset=utf-8")
        .header("cache-control", "no-cache")
        .header("request-id", "req_scripted")
        .body(BodyExt::boxed_unsync(StreamBody::new(frames)))
        .expect("a valid response")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One HTTP/1.1 request over a plain TCP stream; the response as text.
    async fn http(url: &str, request: String) -> String {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut s = tokio::net::TcpStream::connect(url.trim_start_matches("http://"))
            .await
            .unwrap();
        s.write_all(request.as_bytes()).await.unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).await.unwrap();
        out
    }

    fn post(path: &str, body: &Value) -> String {
        let body = body.to_string();
        format!(
            "POST {path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
    }

    #[tokio::test]
    async fn turns_in_order_side_queries_apart_and_everything_recorded() {
        let model = ScriptedModel::builder()
            .turn(Turn::text("first"))
            .turn_with(|r, info| Turn::text(format!("#{:?} saw {}", info.index, r.last_user_text())))
            .start()
            .unwrap();
        let turn = json!({ "model": "m", "tools": [], "messages": [{ "role": "user", "content": "hello" }] });
        let side = json!({ "model": "m", "messages": [{ "role": "user", "content": "title?" }] });
        let a = http(model.url(), post("/v1/messages?beta=true", &turn)).await;
        assert!(a.contains("\"first\"") && a.starts_with("HTTP/1.1 200"), "{a}");
        let s = http(model.url(), post("/v1/messages", &side)).await;
        assert!(s.contains("\"ok\""), "{s}");
        let mut streamed = turn.clone();
        streamed["stream"] = json!(true);
        let b = http(model.url(), post("/v1/messages", &streamed)).await;
        assert!(
            b.contains("text/event-stream") && b.contains("event: message_stop"),
            "{b}"
        );
        assert!(b.contains("#Some(1) saw hello"), "{b}");
        let c = http(model.url(), post("/v1/messages", &turn)).await;
        assert!(c.contains("\"done\""), "the fallback: {c}");
        let probe = http(
            model.url(),
            "HEAD / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n".into(),
        )
        .await;
        assert!(probe.starts_with("HTTP/1.1 200"), "{probe}");
        let missing = http(model.url(), post("/v2/nothing", &json!({}))).await;
        assert!(
            missing.starts_with("HTTP/1.1 404") && missing.contains("not_found_error"),
            "{missing}"
        );

        assert_eq!(model.turn_count(), 3);
        assert_eq!(model.remaining_turns(), 0);
        let kinds: Vec<_> = model.all_requests().iter().map(|r| r.kind).collect();
        use RequestKind as K;
        assert_eq!(kinds, [K::Turn, K::Side, K::Turn, K::Turn, K::Probe, K::Other]);
        assert_eq!(model.requests()[0].url, "/v1/messages?beta=true");
        assert_eq!(model.requests()[0].header("content-type"), Some("application/json"));
    }

    #[tokio::test]
    async fn a_panicking_turn_function_is_a_400_and_an_error_a_status() {
        let model = ScriptedModel::builder()
            .turn_with(|_, _| panic!("no such fixture"))
            .turn(Turn::error(ApiError::overloaded()))
            .start()
            .unwrap();
        let turn = json!({ "tools": [], "messages": [] });
        let a = http(model.url(), post("/v1/messages", &turn)).await;
        assert!(
            a.starts_with("HTTP/1.1 400") && a.contains("turn 0 panicked: no such fixture"),
            "{a}"
        );
        assert_eq!(model.errors(), ["scripted model: turn 0 panicked: no such fixture"]);
        let again = http(model.url(), post("/v1/messages", &turn)).await;
        assert!(again.contains("turn 0 panicked"), "the script stays broken: {again}");
        assert_eq!(model.remaining_turns(), 1);
        let c = http(model.url(), post("/v1/messages", &json!({ "tools": [] }))).await;
        assert!(
            c.starts_with("HTTP/1.1 400") && c.contains("messages: field required"),
            "{c}"
        );
        let other = ScriptedModel::start([Turn::error(ApiError::overloaded())]).unwrap();
        let b = http(other.url(), post("/v1/messages", &turn)).await;
        assert!(b.starts_with("HTTP/1.1 529") && b.contains("overloaded_error"), "{b}");
    }

    #[tokio::test]
    async fn env_points_at_the_model_and_drops_leaky_variables_and_drop_cleans_up() {
        let model = ScriptedModel::start([]).unwrap();
        let env = model.env();
        let get = |k: &str| env.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        assert_eq!(get("ANTHROPIC_BASE_URL").as_deref(), Some(model.url()));
        assert_eq!(env.iter().filter(|(k, _)| k == "ANTHROPIC_BASE_URL").count(), 1);
        let config = PathBuf::from(get("CLAUDE_CONFIG_DIR").unwrap());
        assert!(config.is_dir() && config.starts_with(get("HOME").unwrap()));
        assert!(leaky("claude_code_x") && leaky("NODE_OPTIONS") && !leaky("PATH"));
        drop(model);
        assert!(!config.exists());
    }

    #[test]
    fn starting_outside_a_runtime_says_so() {
        let e = ScriptedModel::start([]).unwrap_err();
        assert!(e.to_string().contains("within a tokio runtime"), "{e}");
    }
}
