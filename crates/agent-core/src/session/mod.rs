//! A session: one CLI process and the loop that owns its pipe.
//!
//! ```text
//!  CLI stdout ──▶ loop (one task: framing, routing, every request's state) ──▶ Messages (consumer)
//!                   │ answers, our requests   │ calls + Replies      ▲ Finished (mailbox)
//!                   ▼                         ▼                      │
//!  CLI stdin  ◀── writer ◀── Reply (answer written on the host's thread)
//! ```

pub mod ceiling;
mod finished;
mod handle;
mod initialize;
pub mod mirror;
mod queue;
mod router;
mod run;
mod spin;
pub(crate) mod stderr;
pub(crate) mod writer;

pub use handle::{AbortHandle, SessionHandle};
pub use initialize::initialize_request;
pub use queue::{Chunk, MessageText, Messages, BACKLOG_FACTOR, DEFAULT_QUEUE_BYTES, MAX_LATIN1_LINE};
pub use router::Dialogs;
pub use stderr::redact_keys;
pub use writer::{hold_lines, release_lines};

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use crate::cli::child::ChildProcess;
use crate::cli::custom::HostProcess;
use crate::cli::launch::Launch;
use crate::cli::process;
use crate::error::Error;
use crate::host::Host;
use crate::mcp::McpServerDef;
use crate::protocol::outgoing;
use tracing::Instrument;

/// How the CLI process comes to be.
pub enum ProcessSpec {
    /// We spawn it.
    Spawn(Launch),
    /// The host started it (`spawnClaudeCodeProcess`) and feeds us its output.
    Host(HostProcess),
}

/// Everything needed to start a session.
pub struct SessionSpec {
    pub process: ProcessSpec,
    /// The `initialize` request body (see [`initialize_request`]).
    pub initialize: serde_json::Value,
    /// In-process servers by the name the CLI knows them under (their key in `mcpServers`).
    pub servers: Vec<(String, Arc<McpServerDef>)>,
    /// The prompt when it is a string: sent right after `initialize`, and input ends with it.
    pub prompt: Option<String>,
    pub can_use_tool: bool,
    /// `allowedControlRequests`: the CLI's control-request subtypes served (`None`: all).
    pub allowed_control_requests: Option<Vec<String>>,
    /// Which dialog callbacks the host has (see [`router::Dialogs`]).
    pub dialogs: router::Dialogs,
    /// The host answers the CLI's token refreshes (`getOAuthToken`, `getHostAuthToken`): after a
    /// result, stdin stays open while the CLI reports work, as for any callback.
    pub token_callbacks: bool,
    /// Forward the CLI's stderr to [`Host::stderr`].
    pub forward_stderr: bool,
    pub initialize_timeout: Duration,
    pub queue_bytes: usize,
    /// How messages reach the consumer ([`Messages`]).
    pub message_text: MessageText,
    /// The session store mirror (`sessionStore`): `transcript_mirror` frames go to the host's
    /// store. Without it they are dropped (they never reach the consumer either way).
    pub mirror: Option<mirror::MirrorSpec>,
    /// The options held a lone surrogate, read masked ([`crate::options::QueryOptions::lone_surrogates`]).
    pub lone_surrogates: bool,
    /// `resourceLimits` for a CLI we spawn ([`crate::cli::limits`]).
    pub limits: Option<crate::cli::limits::ResourceLimits>,
    /// After a result, how long to wait for `idle` before ending the run anyway (`None`: no
    /// ceiling); see [`ceiling`].
    pub run_end_ceiling: Option<Duration>,
}

#[cfg(test)]
impl SessionSpec {
    /// For the engine's own tests: a session over a host-started process, with nothing else
    /// asked for (no prompt, servers, callbacks, mirror or limits; `initialize` bare).
    pub(crate) fn for_host(process: HostProcess) -> SessionSpec {
        SessionSpec {
            process: ProcessSpec::Host(process),
            initialize: serde_json::json!({ "subtype": "initialize" }),
            servers: vec![],
            prompt: None,
            can_use_tool: false,
            allowed_control_requests: None,
            dialogs: Default::default(),
            token_callbacks: false,
            forward_stderr: false,
            initialize_timeout: DEFAULT_INITIALIZE_TIMEOUT,
            queue_bytes: DEFAULT_QUEUE_BYTES,
            message_text: Default::default(),
            mirror: None,
            lone_surrogates: false,
            limits: None,
            run_end_ceiling: Some(ceiling::DEFAULT_RUN_END_CEILING),
        }
    }
}

/// A started session.
pub struct Started {
    pub handle: SessionHandle,
    pub messages: Messages,
}

static NEXT_TRACE_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// Default time the CLI gets to answer `initialize` (it loads MCP servers, plugins, settings).
pub const DEFAULT_INITIALIZE_TIMEOUT: Duration = Duration::from_secs(60);

/// Spawns the CLI and starts the session loop. Must run inside a tokio runtime.
pub fn start(spec: SessionSpec, host: Arc<dyn Host>) -> Result<Started, Error> {
    let mut servers = HashMap::new();
    for (name, s) in &spec.servers {
        if servers.insert(name.clone(), s.clone()).is_some() {
            return Err(Error::InvalidOption(format!(
                "Two in-process MCP servers are named {name:?}"
            )));
        }
    }
    // Every event of this session carries its id, so a host can route diagnostics per session.
    let trace_id = NEXT_TRACE_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let span = tracing::debug_span!("session", sid = trace_id);
    let _entered = span.enter();
    let forward = if spec.forward_stderr { Some(host.clone()) } else { None };
    type Stdin = (Box<dyn tokio::io::AsyncWrite + Send + Unpin>, Option<std::fs::File>);
    let (child, stdin, stdout, (stderr_task, stderr_tail)): (Box<dyn ChildProcess>, Stdin, run::Stdout, _) =
        match spec.process {
            ProcessSpec::Spawn(launch) => {
                let s = process::spawn(&launch)?;
                let child = crate::cli::limits::limit(s.child, spec.limits)?;
                let stderr = stderr::spawn_stderr(s.stderr, forward);
                (child, (s.stdin, s.direct_stdin), s.stdout, stderr)
            }
            // Limits need the process tree in reach; one the host started may be anywhere.
            ProcessSpec::Host(_) if spec.limits.is_some_and(|l| l.any()) => {
                return Err(Error::InvalidOption(
                    "resourceLimits cannot be enforced on a process started by spawnClaudeCodeProcess (or hostSpawn): bound that process where you start it, or let the SDK start Claude Code".into(),
                ))
            }
            // A host-started process has no stderr pipe of ours: the host sees it directly.
            ProcessSpec::Host(p) => (
                p.child,
                (p.stdin, None),
                p.stdout,
                stderr::spawn_stderr(tokio::io::empty(), None),
            ),
        };
    let pid = child.id();
    let exit = Arc::new(std::sync::OnceLock::new());
    let child: Box<dyn ChildProcess> = Box::new(crate::cli::child::RecordExit::new(child, exit.clone()));
    let writer = writer::spawn_writer(stdin.0, stdin.1);
    if spec.lone_surrogates || spec.servers.iter().any(|(_, s)| s.lone_surrogates()) {
        writer.mark_lone_surrogates();
    }

    let init_id = outgoing::next_request_id();
    let has_hooks = spec
        .initialize
        .get("hooks")
        .and_then(|h| h.as_object())
        .is_some_and(|h| !h.is_empty());
    let initialize: Arc<str> = spec.initialize.to_string().into();
    drop(spec.initialize);
    writer.write_line(&outgoing::control_request_text(&init_id, &initialize));
    let prompt_sent = spec.prompt.is_some();
    if let Some(prompt) = &spec.prompt {
        writer.write_line(&outgoing::user_text_message(prompt));
    }

    let (cmd_tx, cmd_rx) = tokio::sync::mpsc::unbounded_channel();
    let (init_tx, init_rx) = tokio::sync::watch::channel(None);
    // Tests lower the Latin-1 line bound to exercise the UTF-8 crossing without 200 MB messages.
    let latin1_max = std::env::var("CLAUDE_AGENT_SDK_TEST_MAX_LATIN1_LINE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(queue::MAX_LATIN1_LINE);
    let (queue_tx, messages) = queue::queue_with(spec.queue_bytes, spec.message_text, latin1_max);
    let abort_now = handle::AbortNow {
        writer: writer.clone(),
        mark: messages.abort_mark(),
    };
    let mirror = spec.mirror.map(|m| mirror::Mirror::start(m, host.clone()));
    let state = run::Loop::new(run::LoopParts {
        mirror,
        child,
        writer,
        router: router::Router {
            servers,
            can_use_tool: spec.can_use_tool,
            dialogs: spec.dialogs,
            allowed: spec.allowed_control_requests,
        },
        host,
        cmd_rx,
        finished: finished::Finished::new(),
        queue: queue_tx,
        init_id,
        init_tx,
        init_timeout: spec.initialize_timeout,
        input_done: prompt_sent,
        awaiting_result: prompt_sent,
        host_callbacks: has_hooks || spec.token_callbacks,
        run_end_ceiling: spec.run_end_ceiling,
        stderr_task,
        stderr_tail,
    });
    drop(_entered);
    tokio::spawn(state.run(stdout).instrument(span));
    Ok(Started {
        handle: SessionHandle {
            cmd: cmd_tx,
            init: init_rx,
            pid,
            trace_id,
            initialize,
            abort_now,
            exit,
        },
        messages,
    })
}
