//! OpenAI's Codex as a library, with the same in-process tools: a [`Thread`] is one long-lived
//! `codex app-server` process driven by the engine, and the [`McpServer`]s a Claude
//! [`query`](crate::query) serves are offered to Codex as namespaces of dynamic tools (a server
//! built once serves both agents). Turns yield the typed [`ThreadEvent`]s of `codex exec
//! --experimental-json` (what `@openai/codex-sdk` yields).
//!
//! ```no_run
//! use claude_agent_sdk::codex::{Codex, CodexOptions, ThreadEvent, ThreadOptions};
//! use claude_agent_sdk::{tool, McpServer};
//! use futures::StreamExt;
//! use schemars::JsonSchema;
//! use serde::Deserialize;
//!
//! #[derive(Deserialize, JsonSchema)]
//! struct Add {
//!     a: i64,
//!     b: i64,
//! }
//!
//! # async fn run() -> Result<(), claude_agent_sdk::codex::CodexError> {
//! let add = tool("add", "Adds", |x: Add| async move { (x.a + x.b).to_string() });
//! let calc = McpServer::builder("calc").tool(add).build().unwrap();
//! let codex = Codex::new(CodexOptions::default());
//! let thread = codex.start_thread(ThreadOptions::default().mcp_server("calc", calc)).await?;
//! let mut events = thread.run_streamed("Add 2 and 3").await?;
//! while let Some(event) = events.next().await {
//!     if let ThreadEvent::ItemCompleted { item } = event? {
//!         println!("{item:?}");
//!     }
//! }
//! # Ok(()) }
//! ```

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use futures::stream::BoxStream;
use futures::{FutureExt, StreamExt};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::engine::{codex_host, CodexRequestFn};
pub use crate::raw::codex::CodexError;
use crate::raw::codex::{
    self as raw_codex, CodexCallbacks, CodexEvent, CodexEvents, CodexSession, CodexSpec, EventMapper, TurnEnd,
};
use crate::raw::LaunchSpec;
use crate::server::McpServer;

/// Token usage: the thread's running total, as `codex exec` reports it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct Usage {
    pub input_tokens: i64,
    pub cached_input_tokens: i64,
    #[serde(default)]
    pub cache_write_input_tokens: i64,
    pub output_tokens: i64,
    #[serde(default)]
    pub reasoning_output_tokens: i64,
}

/// One item of a turn (`@openai/codex-sdk`'s `ThreadItem`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum ThreadItem {
    /// A message of the agent.
    AgentMessage { id: String, text: String },
    /// The agent's reasoning summary.
    Reasoning { id: String, text: String },
    /// A command the agent ran (or was refused: status `declined`).
    CommandExecution {
        id: String,
        command: String,
        aggregated_output: String,
        #[serde(default)]
        exit_code: Option<i64>,
        status: String,
    },
    /// Files the agent changed.
    FileChange {
        id: String,
        changes: Vec<Value>,
        status: String,
    },
    /// A call of an MCP tool — or of an in-process tool (`server` is its namespace).
    McpToolCall {
        id: String,
        server: String,
        tool: String,
        arguments: Value,
        status: String,
        #[serde(default)]
        result: Option<Value>,
        #[serde(default)]
        error: Option<Value>,
    },
    /// A web search.
    WebSearch { id: String, query: String },
    /// The agent's to-do list.
    TodoList { id: String, items: Vec<Value> },
    /// A non-fatal error.
    Error { id: String, message: String },
    /// An item this version does not know.
    #[serde(other)]
    Other,
}

/// An event of a turn (`@openai/codex-sdk`'s `ThreadEvent`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
#[allow(missing_docs)]
pub enum ThreadEvent {
    #[serde(rename = "thread.started")]
    ThreadStarted { thread_id: String },
    #[serde(rename = "turn.started")]
    TurnStarted,
    #[serde(rename = "turn.completed")]
    TurnCompleted { usage: Usage },
    #[serde(rename = "turn.failed")]
    TurnFailed { error: ThreadError },
    #[serde(rename = "item.started")]
    ItemStarted { item: ThreadItem },
    #[serde(rename = "item.updated")]
    ItemUpdated { item: ThreadItem },
    #[serde(rename = "item.completed")]
    ItemCompleted { item: ThreadItem },
    #[serde(rename = "error")]
    Error { message: String },
}

/// Why a turn failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreadError {
    /// The message.
    pub message: String,
}

/// A completed turn (`run()`'s result).
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    /// The items completed in the turn.
    pub items: Vec<ThreadItem>,
    /// The last agent message's text.
    pub final_response: String,
    /// The thread's token usage so far.
    pub usage: Option<Usage>,
}

/// How the Codex process runs (`@openai/codex-sdk`'s `CodexOptions`).
#[derive(Debug, Clone, Default)]
pub struct CodexOptions {
    /// The executable; else `@openai/codex`'s per-platform package under a `node_modules` from the
    /// working directory up, then `codex` on `PATH`.
    pub codex_path: Option<PathBuf>,
    /// `-c key=value` overrides (TOML values).
    pub config_overrides: Vec<String>,
    /// The whole environment; `None` inherits this process's.
    pub env: Option<Vec<(String, String)>>,
}

/// A request for approval: a command, a file change or permissions.
#[derive(Debug, Clone)]
pub struct ApprovalRequest {
    /// The app-server method (`item/commandExecution/requestApproval`, ...).
    pub method: String,
    /// The command, for a command approval.
    pub command: Option<String>,
    /// The request's params as Codex sent them.
    pub params: Value,
}

/// An approval's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Approval {
    /// Allow this once.
    Allow,
    /// Allow alike requests for the rest of the session.
    AllowForSession,
    /// Refuse (the model is told).
    Deny,
    /// Refuse and stop the turn.
    DenyAndInterrupt,
}

type ApprovalFn = Arc<dyn Fn(ApprovalRequest) -> BoxFuture<'static, Approval> + Send + Sync>;

/// A thread's settings (`@openai/codex-sdk`'s `ThreadOptions`, plus in-process servers and an
/// approval callback).
#[derive(Clone, Default)]
pub struct ThreadOptions {
    model: Option<String>,
    working_directory: Option<String>,
    approval_policy: Option<String>,
    sandbox_mode: Option<String>,
    servers: Vec<(String, McpServer)>,
    on_approval: Option<ApprovalFn>,
}

impl ThreadOptions {
    /// The model.
    pub fn model(mut self, model: impl Into<String>) -> Self {
        self.model = Some(model.into());
        self
    }
    /// The working directory (also the process's).
    pub fn working_directory(mut self, dir: impl Into<String>) -> Self {
        self.working_directory = Some(dir.into());
        self
    }
    /// `never` (the default, as `codex exec`), `on-request`, `on-failure` or `untrusted`.
    pub fn approval_policy(mut self, policy: impl Into<String>) -> Self {
        self.approval_policy = Some(policy.into());
        self
    }
    /// `read-only`, `workspace-write` or `danger-full-access`.
    pub fn sandbox_mode(mut self, mode: impl Into<String>) -> Self {
        self.sandbox_mode = Some(mode.into());
        self
    }
    /// An in-process server, offered to the model as the namespace `name`.
    pub fn mcp_server(mut self, name: impl Into<String>, server: McpServer) -> Self {
        self.servers.push((name.into(), server));
        self
    }
    /// Answers approvals; without it every one is declined.
    pub fn on_approval<F, Fut>(mut self, f: F) -> Self
    where
        F: Fn(ApprovalRequest) -> Fut + Send + Sync + 'static,
        Fut: std::future::Future<Output = Approval> + Send + 'static,
    {
        self.on_approval = Some(Arc::new(move |r| f(r).boxed()));
        self
    }

    fn params(&self) -> Value {
        let mut p = json!({ "approvalPolicy": self.approval_policy.as_deref().unwrap_or("never") });
        if let Some(m) = &self.model {
            p["model"] = json!(m);
        }
        if let Some(d) = &self.working_directory {
            p["cwd"] = json!(d);
        }
        if let Some(s) = &self.sandbox_mode {
            p["sandbox"] = json!(s);
        }
        p
    }
}

/// Starts threads.
#[derive(Debug, Clone, Default)]
pub struct Codex {
    options: CodexOptions,
}

impl Codex {
    /// A client with these options.
    pub fn new(options: CodexOptions) -> Self {
        Self { options }
    }

    /// Starts `codex app-server` and a new thread on it (inside a tokio runtime).
    pub async fn start_thread(&self, options: ThreadOptions) -> Result<Thread, CodexError> {
        let (session, events) = self.spawn(&options)?;
        let r = session.start_thread(&options.params().to_string()).await;
        let id = match r.and_then(|t| thread_id(&t)) {
            Ok(id) => id,
            Err(e) => {
                session.close();
                return Err(e);
            }
        };
        Ok(Thread {
            session,
            events: tokio::sync::Mutex::new((events, EventMapper::new())),
            id,
        })
    }

    /// Starts `codex app-server` and resumes the thread `id` on it (its dynamic tools come back).
    pub async fn resume_thread(&self, id: &str, options: ThreadOptions) -> Result<Thread, CodexError> {
        let (session, events) = self.spawn(&options)?;
        let mut params = options.params();
        params["threadId"] = json!(id);
        if let Err(e) = session.request("thread/resume", params.to_string()).await {
            session.close();
            return Err(e);
        }
        Ok(Thread {
            session,
            events: tokio::sync::Mutex::new((events, EventMapper::new())),
            id: id.to_string(),
        })
    }

    fn spawn(&self, options: &ThreadOptions) -> Result<(CodexSession, CodexEvents), CodexError> {
        let env = self.options.env.clone().unwrap_or_else(|| std::env::vars().collect());
        let path_var = env.iter().find(|(k, _)| k == "PATH").map(|(_, v)| v.clone());
        let cwd = std::env::current_dir().ok().into_iter().collect::<Vec<_>>();
        let explicit = self
            .options
            .codex_path
            .as_ref()
            .map(|p| p.to_string_lossy().into_owned());
        let program = raw_codex::find_codex(explicit.as_deref(), &cwd, path_var.as_deref())?;
        let request: Option<CodexRequestFn> = options.on_approval.clone().map(|f| -> CodexRequestFn {
            Arc::new(move |method: String, params: Value| {
                let command = params["command"].as_str().map(str::to_string);
                let answer = f(ApprovalRequest {
                    method,
                    command,
                    params,
                });
                async move {
                    match answer.await {
                        Approval::Allow => json!({ "behavior": "allow" }),
                        Approval::AllowForSession => json!({ "behavior": "allow", "scope": "session" }),
                        Approval::Deny => json!({ "behavior": "deny" }),
                        Approval::DenyAndInterrupt => json!({ "behavior": "deny", "interrupt": true }),
                    }
                }
                .boxed()
            })
        });
        let approvals = request.is_some();
        let host = codex_host(&options.servers, request).map_err(|e| CodexError::InvalidOption(e.to_string()))?;
        let spec = CodexSpec {
            launch: LaunchSpec {
                program: program.to_string_lossy().into_owned(),
                args: raw_codex::app_server_args(&self.options.config_overrides),
                env,
                cwd: options.working_directory.clone(),
            },
            servers: options
                .servers
                .iter()
                .map(|(n, s)| (n.clone(), s.inner.def.clone()))
                .collect(),
            callbacks: CodexCallbacks {
                command_approval: approvals,
                file_change_approval: approvals,
                permissions_approval: approvals,
                ..Default::default()
            },
            forward_stderr: false,
            client_name: "claude_agent_sdk_rust".into(),
            client_version: env!("CARGO_PKG_VERSION").into(),
            initialize_timeout: Duration::from_secs(60),
        };
        let started = raw_codex::start(spec, host)?;
        Ok((started.session, started.events))
    }
}

fn thread_id(result: &str) -> Result<String, CodexError> {
    let v: Value = serde_json::from_str(result)
        .map_err(|e| CodexError::Protocol(format!("thread/start answered with invalid JSON: {e}")))?;
    v["thread"]["id"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| CodexError::Protocol("thread/start answered without thread.id".into()))
}

/// A conversation with Codex on its own `codex app-server` process (ended by [`Thread::close`]
/// or when dropped).
pub struct Thread {
    session: CodexSession,
    events: tokio::sync::Mutex<(CodexEvents, EventMapper)>,
    id: String,
}

impl Thread {
    /// The thread's id (for [`Codex::resume_thread`]).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Starts a turn and streams its events, `thread.started` first; the stream ends after the
    /// turn's `turn.completed` or `turn.failed` (an interrupted turn ends it with
    /// [`CodexError::Aborted`]). Turns on one thread run one at a time.
    pub async fn run_streamed(
        &self,
        input: &str,
    ) -> Result<BoxStream<'_, Result<ThreadEvent, CodexError>>, CodexError> {
        let guard = self.events.lock().await;
        let params = json!({ "threadId": self.id, "input": [{ "type": "text", "text": input, "text_elements": [] }] });
        let r = self.session.request("turn/start", params.to_string()).await?;
        let turn_id = serde_json::from_str::<Value>(&r)
            .ok()
            .and_then(|v| v["turn"]["id"].as_str().map(str::to_string))
            .unwrap_or_default();
        let first = ThreadEvent::ThreadStarted {
            thread_id: self.id.clone(),
        };
        struct State<'a> {
            guard: tokio::sync::MutexGuard<'a, (CodexEvents, EventMapper)>,
            pending: std::collections::VecDeque<Result<ThreadEvent, CodexError>>,
            done: bool,
            thread: String,
            turn: String,
        }
        let state = State {
            guard,
            pending: [Ok(first)].into(),
            done: false,
            thread: self.id.clone(),
            turn: turn_id,
        };
        Ok(futures::stream::unfold(state, |mut st| async move {
            loop {
                if let Some(next) = st.pending.pop_front() {
                    return Some((next, st));
                }
                if st.done {
                    return None;
                }
                let (events, mapper) = &mut *st.guard;
                match events.recv().await {
                    None => return None,
                    Some(CodexEvent::End(outcome)) => {
                        st.done = true;
                        st.pending.push_back(Err(outcome.err().unwrap_or_else(|| {
                            CodexError::Closed("The Codex session was closed during the turn".into())
                        })));
                    }
                    Some(CodexEvent::Warning(_)) => {}
                    Some(CodexEvent::Notification { method, params }) => {
                        let p: Value = serde_json::from_str(&params).unwrap_or(Value::Null);
                        if p["threadId"].as_str() != Some(st.thread.as_str()) {
                            continue;
                        }
                        let (mapped, end) = mapper.map(&method, &p);
                        for e in mapped {
                            st.pending.push_back(
                                serde_json::from_value(e)
                                    .map_err(|e| CodexError::Protocol(format!("an event could not be read: {e}"))),
                            );
                        }
                        if end.is_some() && p["turn"]["id"].as_str() == Some(st.turn.as_str()) {
                            st.done = true;
                            if end == Some(TurnEnd::Interrupted) {
                                st.pending.push_back(Err(CodexError::Aborted));
                            }
                        }
                    }
                }
            }
        })
        .boxed())
    }

    /// Runs a turn to its end: its completed items, final response and usage. A failed turn is
    /// [`CodexError::Protocol`] with its message.
    pub async fn run(&self, input: &str) -> Result<Turn, CodexError> {
        let mut events = self.run_streamed(input).await?;
        let mut turn = Turn {
            items: Vec::new(),
            final_response: String::new(),
            usage: None,
        };
        while let Some(event) = events.next().await {
            match event? {
                ThreadEvent::ItemCompleted { item } => {
                    if let ThreadItem::AgentMessage { text, .. } = &item {
                        turn.final_response = text.clone();
                    }
                    turn.items.push(item);
                }
                ThreadEvent::TurnCompleted { usage } => turn.usage = Some(usage),
                ThreadEvent::TurnFailed { error } => return Err(CodexError::Protocol(error.message)),
                _ => {}
            }
        }
        Ok(turn)
    }

    /// Interrupts the running turn `turn_id` (`turn/interrupt`).
    pub async fn interrupt(&self, turn_id: &str) -> Result<(), CodexError> {
        self.session
            .request(
                "turn/interrupt",
                json!({ "threadId": self.id, "turnId": turn_id }).to_string(),
            )
            .await
            .map(|_| ())
    }

    /// Ends the app-server (the thread can be resumed later).
    pub fn close(&self) {
        self.session.close();
    }
}

impl Drop for Thread {
    fn drop(&mut self) {
        self.session.close();
    }
}
