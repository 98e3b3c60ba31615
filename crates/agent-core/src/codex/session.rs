//! The loop of a Codex session: the one task that reads app-server's stdout, owns our requests
//! awaiting answers and Codex's requests running in the host, and decides how the session ends.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, value::RawValue, Value};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;

use crate::cli::child::{ChildProcess, ExitInfo};
use crate::cli::process;
use crate::codec::{LineReader, ReadBuffer, ReadLine};
use crate::codex::error::CodexError;
use crate::codex::tools::{self, ToolRoute};
use crate::codex::{CodexCallbacks, CodexSpec};
use crate::host::{CallKind, Host, HostCall, HostResult, Reply};
use crate::mcp::McpServerDef;
use crate::session::stderr::{spawn_stderr, StderrTail};
use crate::session::writer::{spawn_writer, StdinWriter};

type Answer = oneshot::Sender<Result<String, CodexError>>;

enum Command {
    Request {
        method: String,
        params: String,
        reply: Answer,
    },
    Notify {
        method: String,
        params: String,
    },
    Close,
}

/// What the session streams: Codex's notifications (params as JSON text), warnings about lines
/// that broke the protocol, and the end.
#[derive(Debug, Clone)]
pub enum CodexEvent {
    Notification {
        method: String,
        params: String,
    },
    /// A line from Codex that is not a JSON-RPC message (skipped; the session goes on).
    Warning(String),
    /// The session is over: `Ok` when it was closed, else why it ended.
    End(Result<(), CodexError>),
}

/// The session's events, in the order Codex wrote them.
pub struct CodexEvents {
    rx: mpsc::UnboundedReceiver<CodexEvent>,
}

impl CodexEvents {
    /// The next event; `None` after [`CodexEvent::End`].
    pub async fn recv(&mut self) -> Option<CodexEvent> {
        self.rx.recv().await
    }

    /// An event that is ready now, if any.
    pub fn try_recv(&mut self) -> Option<CodexEvent> {
        self.rx.try_recv().ok()
    }
}

/// The handle to a running session; cheap to clone. The session ends when [`close`] is called
/// or every handle is dropped.
///
/// [`close`]: CodexSession::close
#[derive(Clone)]
pub struct CodexSession {
    cmd: mpsc::UnboundedSender<Command>,
    pid: Option<u32>,
    init: watch::Receiver<Option<Result<String, CodexError>>>,
    servers: Arc<Vec<(String, Arc<McpServerDef>)>>,
}

pub struct CodexStarted {
    pub session: CodexSession,
    pub events: CodexEvents,
}

static NEXT_SESSION: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// Spawns `codex app-server`, writes `initialize` (with the experimental opt-in dynamic tools
/// need) and starts the loop. Must run inside a tokio runtime.
pub fn start(spec: CodexSpec, host: Arc<dyn Host>) -> Result<CodexStarted, CodexError> {
    let mut names = std::collections::HashSet::new();
    for (name, _) in &spec.servers {
        if !names.insert(name.clone()) {
            return Err(CodexError::InvalidOption(format!(
                "Two in-process MCP servers are named {name:?}"
            )));
        }
    }
    let spawned = process::spawn(&spec.launch).map_err(|e| match e {
        crate::Error::CliNotFound(_) => {
            CodexError::NotFound(format!("Codex executable not found at {}", spec.launch.program))
        }
        e => CodexError::Spawn(format!(
            "Failed to start Codex app-server ({}): {}",
            spec.launch.program,
            e.to_string().replace("Claude Code", "Codex")
        )),
    })?;
    let pid = spawned.child.id();
    let forward = if spec.forward_stderr { Some(host.clone()) } else { None };
    let (stderr_task, stderr_tail) = spawn_stderr(spawned.stderr, forward);
    let writer = spawn_writer(spawned.stdin, spawned.direct_stdin);
    let (cmd_tx, cmd_rx) = mpsc::unbounded_channel();
    let (events_tx, events_rx) = mpsc::unbounded_channel();
    let (init_tx, init_rx) = watch::channel(None);
    let (done_tx, done_rx) = mpsc::unbounded_channel();
    let servers = Arc::new(spec.servers);
    let session_id = NEXT_SESSION.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let init_params = json!({
      "clientInfo": { "name": spec.client_name, "title": null, "version": spec.client_version },
      "capabilities": { "experimentalApi": true },
    });
    let mut state = Loop {
        writer,
        host,
        servers: servers.clone(),
        callbacks: spec.callbacks,
        events: events_tx,
        done_tx,
        pending: HashMap::new(),
        calls: HashMap::new(),
        next_id: 0,
        session_id,
        init_id: 0,
        init_tx,
        closing: false,
    };
    state.init_id = state.send_request("initialize", &init_params.to_string(), None);
    let deadline = Instant::now() + spec.initialize_timeout;
    let child: Box<dyn ChildProcess> = Box::new(spawned.child);
    tokio::spawn(state.run(
        spawned.stdout,
        child,
        cmd_rx,
        done_rx,
        deadline,
        spec.initialize_timeout,
        stderr_task,
        stderr_tail,
    ));
    Ok(CodexStarted {
        session: CodexSession {
            cmd: cmd_tx,
            pid,
            init: init_rx,
            servers,
        },
        events: CodexEvents { rx: events_rx },
    })
}

impl CodexSession {
    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// `initialize`'s result (JSON text), once Codex answered it.
    pub async fn initialized(&self) -> Result<String, CodexError> {
        let mut init = self.init.clone();
        let outcome = match init.wait_for(Option::is_some).await {
            Ok(v) => v.clone().expect("waited for Some"),
            Err(_) => Err(CodexError::Closed("The Codex session has ended".into())),
        };
        outcome
    }

    /// Sends a request (`params` as JSON text) and waits for its result (JSON text). A JSON-RPC
    /// error answer is [`CodexError::Request`].
    pub async fn request(&self, method: &str, params: String) -> Result<String, CodexError> {
        self.initialized().await?;
        let (tx, rx) = oneshot::channel();
        self.cmd
            .send(Command::Request {
                method: method.to_string(),
                params,
                reply: tx,
            })
            .map_err(|_| CodexError::Closed(format!("Cannot send {method}: the Codex session has ended")))?;
        rx.await.unwrap_or_else(|_| {
            Err(CodexError::Closed(format!(
                "The Codex session ended before answering {method}"
            )))
        })
    }

    /// Sends a notification.
    pub fn notify(&self, method: &str, params: String) {
        let _ = self.cmd.send(Command::Notify {
            method: method.to_string(),
            params,
        });
    }

    /// Ends the session: Codex's input is closed and it is stopped gracefully (then SIGTERM, then
    /// SIGKILL); running calls are cancelled. The events end with `End(Ok)`.
    pub fn close(&self) {
        let _ = self.cmd.send(Command::Close);
    }

    /// The `dynamicTools` the in-process servers declare (one namespace each).
    pub fn dynamic_tools(&self) -> Vec<Value> {
        tools::dynamic_tools(&self.servers)
    }

    /// `thread/start` with these params (JSON object text) plus `dynamicTools` for the in-process
    /// servers (after any the params already hold). A Codex without dynamic tools is
    /// [`CodexError::TooOld`].
    pub async fn start_thread(&self, params: &str) -> Result<String, CodexError> {
        let mut p: Value = serde_json::from_str(params)
            .map_err(|e| CodexError::InvalidOption(format!("thread/start params are not JSON: {e}")))?;
        let Some(obj) = p.as_object_mut() else {
            return Err(CodexError::InvalidOption(
                "thread/start params must be an object".into(),
            ));
        };
        let mut tools = obj
            .get("dynamicTools")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        tools.extend(self.dynamic_tools());
        let declares = !tools.is_empty();
        if declares {
            obj.insert("dynamicTools".into(), Value::Array(tools));
        }
        match self.request("thread/start", p.to_string()).await {
      Err(CodexError::Request { message, .. }) if declares && (message.contains("dynamicTools") || message.contains("dynamic_tools") || message.contains("unknown field")) => {
        Err(CodexError::TooOld(format!("This Codex does not support dynamic tools (in-process MCP servers need them; install a newer @openai/codex): {message}")))
      }
      other => other,
    }
    }
}

/// One of Codex's requests running in the host.
struct Running {
    host_id: String,
    turn_id: Option<String>,
}

struct Loop {
    writer: Arc<StdinWriter>,
    host: Arc<dyn Host>,
    servers: Arc<Vec<(String, Arc<McpServerDef>)>>,
    callbacks: CodexCallbacks,
    events: mpsc::UnboundedSender<CodexEvent>,
    /// Ids (raw JSON) of Codex's requests the host answered.
    done_tx: mpsc::UnboundedSender<String>,
    pending: HashMap<u64, Answer>,
    calls: HashMap<String, Running>,
    next_id: u64,
    session_id: u64,
    init_id: u64,
    init_tx: watch::Sender<Option<Result<String, CodexError>>>,
    closing: bool,
}

#[derive(serde::Deserialize)]
struct Envelope<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    method: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow, default)]
    params: Option<&'a RawValue>,
    #[serde(borrow, default)]
    result: Option<&'a RawValue>,
    #[serde(default)]
    error: Option<RpcError>,
}

#[derive(serde::Deserialize)]
struct RpcError {
    #[serde(default)]
    code: i64,
    #[serde(default)]
    message: String,
}

enum Stop {
    Eof,
    Closed,
    InitTimeout,
}

impl Loop {
    fn send_request(&mut self, method: &str, params: &str, reply: Option<Answer>) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.writer.write_line(&format!(
            "{{\"id\":{id},\"method\":{},\"params\":{params}}}\n",
            quote(method)
        ));
        if let Some(reply) = reply {
            self.pending.insert(id, reply);
        }
        id
    }

    #[allow(clippy::too_many_arguments)]
    async fn run(
        mut self,
        stdout: Box<dyn tokio::io::AsyncRead + Send + Unpin>,
        mut child: Box<dyn ChildProcess>,
        mut cmd_rx: mpsc::UnboundedReceiver<Command>,
        mut done_rx: mpsc::UnboundedReceiver<String>,
        deadline: Instant,
        init_timeout: Duration,
        stderr_task: tokio::task::JoinHandle<()>,
        stderr_tail: StderrTail,
    ) {
        let mut reader = LineReader::new(ReadBuffer::new(stdout));
        let mut init_deadline = Some(deadline);
        let stop = loop {
            tokio::select! {
              biased;
              Some(id) = done_rx.recv() => { self.calls.remove(&id); }
              cmd = cmd_rx.recv() => match cmd {
                None | Some(Command::Close) => break Stop::Closed,
                Some(Command::Request { method, params, reply }) => { self.send_request(&method, &params, Some(reply)); }
                Some(Command::Notify { method, params }) => {
                  self.writer.write_line(&format!("{{\"method\":{},\"params\":{params}}}\n", quote(&method)));
                }
              },
              line = reader.next_line() => {
                let mut line = line;
                let mut batch = Vec::new();
                let stop = loop {
                  match line {
                    Ok(ReadLine::Line(l)) => {
                      if self.line(&l, &mut batch) {
                        init_deadline = None;
                      }
                    }
                    Ok(ReadLine::TooLong { len, .. }) => {
                      let _ = self.events.send(CodexEvent::Warning(format!("skipped a line of {len} bytes from Codex, longer than the limit")));
                    }
                    Ok(ReadLine::Eof) => break Some(Stop::Eof),
                    Err(e) => {
                      tracing::warn!(error = %e, "reading Codex's stdout failed");
                      break Some(Stop::Eof);
                    }
                  }
                  match reader.buffered_line() {
                    Some(next) => line = Ok(next),
                    None => break None,
                  }
                };
                // Everything one read brought reaches the host as one batch (parallel tool calls).
                if !batch.is_empty() {
                  self.host.invoke(batch);
                }
                if let Some(stop) = stop {
                  break stop;
                }
              }
              _ = sleep_until(init_deadline) => break Stop::InitTimeout,
            }
        };
        self.finish(stop, reader, &mut *child, init_timeout, stderr_task, stderr_tail)
            .await;
    }

    /// Handles one line; true when it answered `initialize`.
    fn line(&mut self, line: &str, batch: &mut Vec<(HostCall, Reply)>) -> bool {
        let env: Envelope = match serde_json::from_str(line) {
            Ok(e) => e,
            Err(e) => {
                let prefix: String = line.chars().take(200).collect();
                tracing::warn!(error = %e, len = line.len(), "skipped a line from Codex that is not JSON-RPC");
                let _ = self.events.send(CodexEvent::Warning(format!(
                    "skipped a line from Codex that is not JSON-RPC ({e}): {}",
                    crate::session::redact_keys(&prefix)
                )));
                return false;
            }
        };
        match (env.method, env.id) {
            (Some(method), Some(id)) => {
                self.server_request(
                    method.as_ref(),
                    id.get(),
                    env.params.map(RawValue::get).unwrap_or("{}"),
                    batch,
                );
                false
            }
            (Some(method), None) => {
                let params = env.params.map(RawValue::get).unwrap_or("{}");
                self.notification(method.as_ref(), params);
                let _ = self.events.send(CodexEvent::Notification {
                    method: method.into_owned(),
                    params: params.to_string(),
                });
                false
            }
            (None, Some(id)) => {
                let Ok(id) = id.get().parse::<u64>() else {
                    tracing::warn!(id = %id.get(), "an answer from Codex to a request we did not send (ignored)");
                    return false;
                };
                let outcome = match env.error {
                    Some(e) => Err(CodexError::Request {
                        code: e.code,
                        message: e.message,
                    }),
                    None => Ok(env.result.map(RawValue::get).unwrap_or("null").to_string()),
                };
                if id == self.init_id && self.init_tx.borrow().is_none() {
                    let outcome = outcome.map_err(|e| CodexError::Protocol(format!("Codex refused initialize: {e}")));
                    let ok = outcome.is_ok();
                    let _ = self.init_tx.send(Some(outcome));
                    if ok {
                        self.writer.write_line("{\"method\":\"initialized\"}\n");
                    }
                    return true;
                }
                if let Some(reply) = self.pending.remove(&id) {
                    let _ = reply.send(outcome);
                }
                false
            }
            (None, None) => {
                let _ = self.events.send(CodexEvent::Warning(
                    "skipped a JSON line from Codex with neither `method` nor `id`".into(),
                ));
                false
            }
        }
    }

    /// Notifications that concern calls in flight: Codex no longer waits for a request
    /// (`serverRequest/resolved`), or a turn ended interrupted (its calls are cancelled).
    fn notification(&mut self, method: &str, params: &str) {
        match method {
            "serverRequest/resolved" => {
                #[derive(serde::Deserialize)]
                struct Resolved<'a> {
                    #[serde(borrow, rename = "requestId")]
                    request_id: &'a RawValue,
                }
                if let Ok(r) = serde_json::from_str::<Resolved>(params) {
                    self.cancel(r.request_id.get().to_string());
                }
            }
            "turn/completed" => {
                let v: Value = serde_json::from_str(params).unwrap_or(Value::Null);
                if v["turn"]["status"] != "completed" {
                    let turn = v["turn"]["id"].as_str().unwrap_or("").to_string();
                    let ids: Vec<String> = self
                        .calls
                        .iter()
                        .filter(|(_, c)| c.turn_id.as_deref() == Some(turn.as_str()))
                        .map(|(id, _)| id.clone())
                        .collect();
                    for id in ids {
                        self.cancel(id);
                    }
                }
            }
            _ => {}
        }
    }

    fn cancel(&mut self, id: String) {
        if let Some(call) = self.calls.remove(&id) {
            self.host.cancel(&call.host_id);
        }
    }

    /// A request of Codex's: routed, and answered now or by the host later.
    fn server_request(&mut self, method: &str, id: &str, params: &str, batch: &mut Vec<(HostCall, Reply)>) {
        if self.calls.contains_key(id) {
            tracing::warn!(id, "a request from Codex with the id of one still running (ignored)");
            return;
        }
        let turn_id = || {
            serde_json::from_str::<Value>(params)
                .ok()
                .and_then(|v| v["turnId"].as_str().map(str::to_string))
        };
        let (kind, payload, convert): (CallKind, String, Convert) = match method {
            "item/tool/call" => match tools::route_tool_call(&self.servers, params, id) {
                ToolRoute::Answer(body) => return self.answer(id, &body),
                ToolRoute::Call { kind, payload } => (kind, payload, Convert::Tool),
            },
            m => match user_request(m, &self.callbacks) {
                UserRequest::Unknown => {
                    return self.writer_line(format!(
                        "{{\"id\":{id},\"error\":{{\"code\":-32601,\"message\":{}}}}}\n",
                        quote(&format!("Method not found: {m}"))
                    ));
                }
                UserRequest::Default => return self.answer(id, &default_answer(m, params)),
                UserRequest::Host => (
                    CallKind::CodexRequest,
                    format!("{{\"method\":{},\"params\":{params}}}", quote(m)),
                    Convert::User {
                        method: m.to_string(),
                        params: params.to_string(),
                    },
                ),
            },
        };
        let host_id = format!("codex-{}-{id}", self.session_id);
        self.calls.insert(
            id.to_string(),
            Running {
                host_id: host_id.clone(),
                turn_id: turn_id(),
            },
        );
        let writer = self.writer.clone();
        let done = self.done_tx.clone();
        let rpc_id = id.to_string();
        let reply = Reply::new(host_id.clone(), move |result: HostResult| {
            let body = match convert {
                Convert::Tool => tools::tool_response(result),
                Convert::User { method, params } => user_answer(&method, &params, result),
            };
            writer.write_line(&format!("{{\"id\":{rpc_id},\"result\":{body}}}\n"));
            let _ = done.send(rpc_id);
        });
        batch.push((
            HostCall {
                request_id: host_id,
                request_id_json: None,
                kind,
                payload,
            },
            reply,
        ));
    }

    fn answer(&self, id: &str, body: &str) {
        self.writer.write_line(&format!("{{\"id\":{id},\"result\":{body}}}\n"));
    }

    fn writer_line(&self, line: String) {
        self.writer.write_line(&line);
    }

    async fn finish(
        mut self,
        stop: Stop,
        reader: LineReader<ReadBuffer<Box<dyn tokio::io::AsyncRead + Send + Unpin>>>,
        child: &mut dyn ChildProcess,
        init_timeout: Duration,
        stderr_task: tokio::task::JoinHandle<()>,
        tail: StderrTail,
    ) {
        self.closing = matches!(stop, Stop::Closed);
        for (_, call) in self.calls.drain() {
            self.host.cancel(&call.host_id);
        }
        let outcome = match stop {
            Stop::Closed => {
                drop(reader);
                self.writer.close();
                let _ = self.events.send(CodexEvent::End(Ok(())));
                self.fail_pending(|| CodexError::Closed("The Codex session was closed".into()));
                self.host.release();
                process::terminate(child).await;
                child.end_leftovers();
                return;
            }
            Stop::InitTimeout => {
                drop(reader);
                child.signal(crate::cli::signal::SIGKILL);
                let _ = child.wait().await;
                Err(CodexError::InitializeTimeout(init_timeout.as_millis() as u64))
            }
            Stop::Eof => {
                drop(reader);
                self.writer.close();
                let (status, by_us) = match tokio::time::timeout(process::GRACE_AFTER_STDIN, child.wait()).await {
                    Ok(s) => (s, false),
                    Err(_) => process::terminate(child).await,
                };
                let _ = tokio::time::timeout(Duration::from_millis(200), stderr_task).await;
                exit_error(status, by_us, &tail)
            }
        };
        child.end_leftovers();
        let err = outcome
            .clone()
            .err()
            .unwrap_or_else(|| CodexError::Closed("Codex app-server ended".into()));
        if self.init_tx.borrow().is_none() {
            let _ = self.init_tx.send(Some(Err(err.clone())));
        }
        self.fail_pending(|| err.clone());
        let _ = self.events.send(CodexEvent::End(outcome));
        self.host.release();
    }

    fn fail_pending(&mut self, error: impl Fn() -> CodexError) {
        for (_, reply) in self.pending.drain() {
            let _ = reply.send(Err(error()));
        }
    }
}

fn exit_error(status: Option<ExitInfo>, by_us: bool, tail: &StderrTail) -> Result<(), CodexError> {
    let (code, signal) = match status {
        Some(s) => (s.code, s.signal),
        None => (None, None),
    };
    if by_us && signal.is_some() {
        return Err(CodexError::Exited {
            code: None,
            signal: signal.map(crate::error::signal_name),
            stderr_tail: tail.get(),
        });
    }
    Err(CodexError::Exited {
        code,
        signal: signal.map(crate::error::signal_name),
        stderr_tail: tail.get(),
    })
}

/// How an answer of the host becomes Codex's result.
enum Convert {
    Tool,
    User { method: String, params: String },
}

enum UserRequest {
    /// The host has a callback for it.
    Host,
    /// Answered with the safe default.
    Default,
    /// Not a request this client serves: JSON-RPC error -32601.
    Unknown,
}

fn user_request(method: &str, cb: &CodexCallbacks) -> UserRequest {
    let has = match method {
        "item/commandExecution/requestApproval" | "execCommandApproval" => cb.command_approval,
        "item/fileChange/requestApproval" | "applyPatchApproval" => cb.file_change_approval,
        "item/permissions/requestApproval" => cb.permissions_approval,
        "item/tool/requestUserInput" => cb.user_input,
        "mcpServer/elicitation/request" => cb.elicitation,
        _ => return UserRequest::Unknown,
    };
    if has {
        UserRequest::Host
    } else {
        UserRequest::Default
    }
}

/// The answer when the user gives none (no callback, or it failed): nothing is allowed.
fn default_answer(method: &str, _params: &str) -> String {
    match method {
        "item/commandExecution/requestApproval" | "item/fileChange/requestApproval" => {
            r#"{"decision":"decline"}"#.into()
        }
        "execCommandApproval" | "applyPatchApproval" => {
            r#"{"decision":{"denied":{"rejection":"denied by the SDK host"}}}"#.into()
        }
        "item/permissions/requestApproval" => r#"{"permissions":{},"scope":"turn"}"#.into(),
        "item/tool/requestUserInput" => r#"{"answers":{}}"#.into(),
        "mcpServer/elicitation/request" => r#"{"action":"decline","content":null,"_meta":null}"#.into(),
        _ => "{}".into(),
    }
}

/// The host's answer to one of Codex's requests for the user. It may be Codex's own result (it
/// carries `decision`, `permissions`, `answers` or `action`), or, for approvals, a permission
/// result as `canUseTool` gives it: `{"behavior":"allow"}` (with `"scope":"session"` to allow
/// for the session) or `{"behavior":"deny","message"?,"interrupt"?}`. Anything else, or a
/// failure, is the safe default.
pub(crate) fn user_answer(method: &str, params: &str, result: HostResult) -> String {
    let v: Value = match result.ok().and_then(|t| serde_json::from_str(&t).ok()) {
        Some(v) => v,
        None => return default_answer(method, params),
    };
    let Some(obj) = v.as_object() else {
        return default_answer(method, params);
    };
    if ["decision", "permissions", "answers", "action"]
        .iter()
        .any(|k| obj.contains_key(*k))
    {
        return v.to_string();
    }
    let allow = obj.get("behavior").and_then(Value::as_str) == Some("allow");
    let deny = obj.get("behavior").and_then(Value::as_str) == Some("deny");
    let session = obj.get("scope").and_then(Value::as_str) == Some("session");
    let interrupt = obj.get("interrupt").and_then(Value::as_bool) == Some(true);
    let message = obj
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("denied by the user");
    match method {
        "item/commandExecution/requestApproval" | "item/fileChange/requestApproval" => {
            let decision = if allow && session {
                "acceptForSession"
            } else if allow {
                "accept"
            } else if deny && interrupt {
                "cancel"
            } else {
                "decline"
            };
            json!({ "decision": decision }).to_string()
        }
        "execCommandApproval" | "applyPatchApproval" => {
            if allow {
                json!({ "decision": if session { "approved_for_session" } else { "approved" } }).to_string()
            } else if interrupt {
                json!({ "decision": "abort" }).to_string()
            } else {
                json!({ "decision": { "denied": { "rejection": message } } }).to_string()
            }
        }
        "item/permissions/requestApproval" if allow => {
            let requested: Value = serde_json::from_str(params).unwrap_or(Value::Null);
            let permissions = obj
                .get("permissions")
                .cloned()
                .unwrap_or_else(|| requested["permissions"].clone());
            json!({ "permissions": if permissions.is_object() { permissions } else { json!({}) }, "scope": if session { "session" } else { "turn" } }).to_string()
        }
        "mcpServer/elicitation/request" if deny => r#"{"action":"decline","content":null,"_meta":null}"#.into(),
        _ => default_answer(method, params),
    }
}

fn quote(s: &str) -> String {
    serde_json::to_string(s).expect("a string serializes")
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn approvals_take_codex_results_or_permission_results_and_default_to_decline() {
        let m = "item/commandExecution/requestApproval";
        assert_eq!(
            user_answer(m, "{}", Ok(r#"{"behavior":"allow"}"#.into())),
            r#"{"decision":"accept"}"#
        );
        assert_eq!(
            user_answer(m, "{}", Ok(r#"{"behavior":"allow","scope":"session"}"#.into())),
            r#"{"decision":"acceptForSession"}"#
        );
        assert_eq!(
            user_answer(m, "{}", Ok(r#"{"behavior":"deny","message":"no"}"#.into())),
            r#"{"decision":"decline"}"#
        );
        assert_eq!(
            user_answer(m, "{}", Ok(r#"{"behavior":"deny","interrupt":true}"#.into())),
            r#"{"decision":"cancel"}"#
        );
        assert_eq!(
            user_answer(m, "{}", Ok(r#"{"decision":"cancel"}"#.into())),
            r#"{"decision":"cancel"}"#
        );
        assert_eq!(user_answer(m, "{}", Err("threw".into())), r#"{"decision":"decline"}"#);
        assert_eq!(user_answer(m, "{}", Ok("42".into())), r#"{"decision":"decline"}"#);
        let p = "item/permissions/requestApproval";
        assert_eq!(
            user_answer(
                p,
                r#"{"permissions":{"network":{"enabled":true}}}"#,
                Ok(r#"{"behavior":"allow"}"#.into())
            ),
            r#"{"permissions":{"network":{"enabled":true}},"scope":"turn"}"#
        );
        assert_eq!(
            user_answer(p, "{}", Ok(r#"{"behavior":"deny"}"#.into())),
            r#"{"permissions":{},"scope":"turn"}"#
        );
        assert_eq!(
            user_answer(
                "execCommandApproval",
                "{}",
                Ok(r#"{"behavior":"deny","message":"no"}"#.into())
            ),
            r#"{"decision":{"denied":{"rejection":"no"}}}"#
        );
    }

    #[test]
    fn unknown_requests_are_not_user_requests() {
        assert!(matches!(
            user_request("account/chatgptAuthTokens/refresh", &CodexCallbacks::default()),
            UserRequest::Unknown
        ));
        assert!(matches!(
            user_request("item/tool/requestUserInput", &CodexCallbacks::default()),
            UserRequest::Default
        ));
        assert!(matches!(
            user_request(
                "item/tool/requestUserInput",
                &CodexCallbacks {
                    user_input: true,
                    ..Default::default()
                }
            ),
            UserRequest::Host
        ));
    }
}
