//! A session: one CLI process and the loop that owns its pipe.
//!
//! ```text
//!  CLI stdout ──▶ loop (one task: framing, pending map, routing) ──▶ Messages (consumer)
//!                   │  inline answers          │ user-code calls, answered from the host
//!                   ▼                          ▼
//!  CLI stdin  ◀── writer (direct write, or its task when the pipe is full)
//! ```
//!
//! Or, with an [`ExternalReader`], stdout is read on the host's thread, which routes control
//! requests right there and hands the loop every other line.

mod external_reader;
mod handle;
mod initialize;
mod inflight;
mod queue;
mod router;
mod run;
mod stderr;
mod writer;

pub use external_reader::{ExternalReader, ReadState};
pub use inflight::Inflight;
pub use writer::StdinWriter;

pub use handle::SessionHandle;
pub use initialize::initialize_request;
pub use queue::{MessageText, Messages, DEFAULT_QUEUE_BYTES};
pub use router::{error_result, Dialogs};
pub use stderr::redact_keys;

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
  /// Which dialog callbacks the host has (see [`router::Dialogs`]).
  pub dialogs: router::Dialogs,
  /// Forward the CLI's stderr to [`Host::stderr`].
  pub forward_stderr: bool,
  pub initialize_timeout: Duration,
  pub queue_bytes: usize,
  /// How messages reach the consumer ([`Messages`]).
  pub message_text: MessageText,
  /// Read the CLI's stdout on the host's thread, through the [`ExternalReader`] that [`start`]
  /// returns, instead of on the engine's. Only for a CLI we spawn (a host-started process
  /// already feeds us its output).
  pub external_stdout: bool,
}

/// A started session.
pub struct Started {
  pub handle: SessionHandle,
  pub messages: Messages,
  /// When [`SessionSpec::external_stdout`] was asked for (and the process is ours): the host
  /// must poll its fd and call `read_ready()`, or the session sees no output.
  pub reader: Option<ExternalReader>,
}

static NEXT_TRACE_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// Default time the CLI gets to answer `initialize` (it loads MCP servers, plugins, settings).
pub const DEFAULT_INITIALIZE_TIMEOUT: Duration = Duration::from_secs(60);

/// Spawns the CLI and starts the session loop. Must run inside a tokio runtime.
pub fn start(spec: SessionSpec, host: Arc<dyn Host>) -> Result<Started, Error> {
  let mut servers = HashMap::new();
  for (name, s) in &spec.servers {
    if servers.insert(name.clone(), s.clone()).is_some() {
      return Err(Error::InvalidOption(format!("Two in-process MCP servers are named {name:?}")));
    }
  }
  // Every event of this session carries its id, so a host can route diagnostics per session.
  let trace_id = NEXT_TRACE_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
  let span = tracing::debug_span!("session", sid = trace_id);
  let _entered = span.enter();
  let forward = if spec.forward_stderr { Some(host.clone()) } else { None };
  let (child, stdin, stdout, (stderr_task, stderr_tail)): (Box<dyn ChildProcess>, _, StdoutPipe, _) = match spec.process {
    ProcessSpec::Spawn(launch) => {
      let s = process::spawn(&launch)?;
      let stderr = stderr::spawn_stderr(s.stderr, forward);
      // tokio keeps child pipes non-blocking: direct writes from any thread are safe.
      let fd = std::os::fd::AsRawFd::as_raw_fd(&s.stdin);
      let stdout = if spec.external_stdout {
        StdoutPipe::Fd(s.stdout.into_owned_fd().map_err(|e| Error::Spawn(format!("Claude Code's stdout: {e}")))?)
      } else {
        StdoutPipe::Async(Box::new(s.stdout))
      };
      (Box::new(s.child), (Box::new(s.stdin) as Box<dyn tokio::io::AsyncWrite + Send + Unpin>, Some(fd)), stdout, stderr)
    }
    // A host-started process has no stderr pipe of ours: the host sees it directly.
    ProcessSpec::Host(p) => (p.child, (p.stdin, None), StdoutPipe::Async(p.stdout), stderr::spawn_stderr(tokio::io::empty(), None)),
  };
  let pid = child.id();
  let writer = writer::spawn_writer(stdin.0, stdin.1);

  let init_id = run::next_request_id();
  writer.write_line(&outgoing::control_request(&init_id, &spec.initialize));
  let initialize = Arc::new(spec.initialize);
  let prompt_sent = spec.prompt.is_some();
  if let Some(prompt) = &spec.prompt {
    writer.write_line(&outgoing::user_text_message(prompt));
  }

  let (cmd_tx, cmd_rx) = tokio::sync::mpsc::unbounded_channel();
  let (inflight, idle_rx) = inflight::Inflight::new();
  let (init_tx, init_rx) = tokio::sync::watch::channel(None);
  let (queue_tx, messages) = queue::queue(spec.queue_bytes, spec.message_text);
  let router = Arc::new(router::Router {
    servers: std::sync::RwLock::new(servers),
    host: host.clone(),
    can_use_tool: spec.can_use_tool,
    dialogs: spec.dialogs,
    writer: writer.clone(),
    inflight: inflight.clone(),
    tool_calls: Default::default(),
  });
  tracing::debug!(thread = %if matches!(stdout, StdoutPipe::Fd(_)) { "host" } else { "engine" }, "reading Claude Code's stdout");
  let (stdout, reader) = match stdout {
    StdoutPipe::Async(pipe) => (run::Stdout::Own(pipe), None),
    StdoutPipe::Fd(fd) => {
      // The reader runs at most as far ahead of the loop as the consumer queue holds (1 MiB at most).
      let backlog = external_reader::Backlog::new(spec.queue_bytes.min(external_reader::MAX_READ_AHEAD));
      let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
      let reader = ExternalReader::new(fd, router.clone(), host.clone(), tx, backlog.clone(), span.clone())
        .map_err(|e| Error::Spawn(format!("Claude Code's stdout: {e}")))?;
      (run::Stdout::External(rx, backlog), Some(reader))
    }
  };
  let state = run::Loop::new(run::LoopParts {
    child,
    stdout: Some(stdout),
    writer,
    router,
    host,
    cmd_rx,
    inflight,
    idle_rx,
    queue: queue_tx,
    init_id,
    init_tx,
    init_timeout: spec.initialize_timeout,
    input_done: prompt_sent,
    awaiting_result: prompt_sent,
    stderr_task,
    stderr_tail,
  });
  drop(_entered);
  tokio::spawn(state.run().instrument(span));
  Ok(Started { handle: SessionHandle { cmd: cmd_tx, init: init_rx, pid, trace_id, initialize }, messages, reader })
}

enum StdoutPipe {
  Async(Box<dyn tokio::io::AsyncRead + Send + Unpin>),
  Fd(std::os::fd::OwnedFd),
}
