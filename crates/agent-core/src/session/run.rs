//! The session loop: the one task that reads the CLI's stdout (or takes the lines of the reader
//! that does, see `external_reader.rs`), owns the map of our pending control requests, and decides
//! when stdin closes and how the session ends. The CLI's requests in flight are in a shared set
//! their replies take them out of (`inflight.rs`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::BufReader;
use tokio::io::AsyncRead;

use crate::cli::child::{ChildProcess, ExitInfo};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::cli::process;
use crate::codec::{LineReader, ReadLine};
use crate::error::Error;
use crate::host::Host;
use crate::protocol::incoming::{classify, Incoming};
use crate::protocol::outgoing;
use crate::session::handle::{Command, InitState};
use crate::session::external_reader::{Backlog, Input};
use crate::session::inflight::Inflight;
use crate::session::queue::QueueSender;
use crate::session::router::Router;
use crate::session::stderr::StderrTail;
use crate::session::writer::StdinWriter;

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Ids for our control requests: unique within the process, never reused.
pub fn next_request_id() -> String {
  format!("req_{}_{}", std::process::id(), NEXT_ID.fetch_add(1, Ordering::Relaxed))
}

pub(crate) struct LoopParts {
  pub child: Box<dyn ChildProcess>,
  pub stdout: Option<Stdout>,
  pub writer: Arc<StdinWriter>,
  pub router: Arc<Router>,
  pub host: Arc<dyn Host>,
  pub cmd_rx: mpsc::UnboundedReceiver<Command>,
  pub inflight: Arc<Inflight>,
  /// The last running call finished while the loop waited for that to close stdin.
  pub idle_rx: mpsc::UnboundedReceiver<()>,
  pub queue: QueueSender,
  pub init_id: String,
  pub init_tx: watch::Sender<InitState>,
  pub init_timeout: Duration,
  pub input_done: bool,
  pub awaiting_result: bool,
  pub stderr_task: JoinHandle<()>,
  pub stderr_tail: StderrTail,
}

/// Where the loop's lines come from.
pub(crate) enum Stdout {
  /// The loop reads the pipe itself.
  Own(Box<dyn AsyncRead + Send + Unpin>),
  /// An [`ExternalReader`](crate::session::ExternalReader) reads it on the host's thread and
  /// sends what it does not route itself.
  External(mpsc::UnboundedReceiver<Input>, Arc<Backlog>),
}

enum Source {
  Own(LineReader<BufReader<Box<dyn AsyncRead + Send + Unpin>>>),
  /// The lines of the last batch not handled yet (in reverse order, taken from the end).
  External(mpsc::UnboundedReceiver<Input>, Arc<Backlog>, Arc<dyn Host>, Vec<String>),
}

/// What the loop handles next.
enum Next {
  Line(String),
  Eof,
}

impl Source {
  async fn next(&mut self) -> Next {
    match self {
      Source::Own(reader) => loop {
        match reader.next_line().await {
          Ok(ReadLine::Line(line)) => return Next::Line(line),
          Ok(ReadLine::TooLong { len, prefix }) => {
            tracing::warn!(len, "skipped a line from Claude Code longer than the limit");
            tracing::trace!(prefix = %crate::session::redact_keys(&prefix), "the skipped line began");
          }
          Ok(ReadLine::Eof) => return Next::Eof,
          Err(e) => {
            tracing::warn!(error = %e, "reading Claude Code's stdout failed");
            return Next::Eof;
          }
        }
      },
      Source::External(rx, backlog, host, lines) => loop {
        if let Some(line) = lines.pop() {
          backlog.taken(line.len(), &**host);
          return Next::Line(line);
        }
        // A reader gone without a word (its host dropped it) ends stdout too.
        match rx.recv().await.unwrap_or(Input::Eof) {
          Input::Lines(mut batch) => {
            batch.reverse();
            *lines = batch;
          }
          Input::Eof => return Next::Eof,
        }
      },
    }
  }
}

/// Why the loop stopped reading.
enum Stop {
  /// stdout ended: the CLI exited or is exiting.
  Eof,
  /// `close()`, `abort()`, or every handle dropped.
  Closed { abort: bool },
  InitTimeout,
  InitFailed(String),
}

pub(crate) struct Loop {
  p: LoopParts,
  pending: HashMap<String, oneshot::Sender<Result<String, Error>>>,
  init_deadline: Option<Instant>,
  stdin_closed: bool,
  /// Seen any `session_state_changed` (newer CLIs report state; older ones do not).
  state_reported: bool,
  idle: bool,
  result_seen: bool,
  /// A message that did not fit the consumer queue; reading pauses until it does.
  blocked: Option<Vec<u8>>,
}

impl Loop {
  pub(crate) fn new(p: LoopParts) -> Self {
    let init_deadline = Some(Instant::now() + p.init_timeout);
    Self {
      p,
      pending: HashMap::new(),
      init_deadline,
      stdin_closed: false,
      state_reported: false,
      idle: false,
      result_seen: false,
      blocked: None,
    }
  }

  pub(crate) async fn run(mut self) {
    let mut source = match self.p.stdout.take().expect("run is called once") {
      Stdout::Own(stdout) => Source::Own(LineReader::new(BufReader::with_capacity(256 * 1024, stdout))),
      Stdout::External(rx, backlog) => Source::External(rx, backlog, self.p.host.clone(), Vec::new()),
    };
    let stop = loop {
      let init_deadline = self.init_deadline;
      let blocked_cost = self.blocked.as_deref().map(|l| self.p.queue.cost(l));
      tokio::select! {
        biased;
        Some(()) = self.p.idle_rx.recv() => self.maybe_close_stdin(),
        cmd = self.p.cmd_rx.recv() => match cmd {
          None => break Stop::Closed { abort: false },
          Some(Command::Close { abort }) => break Stop::Closed { abort },
          Some(cmd) => self.command(cmd),
        },
        Some(permit) = reserve(&self.p.queue, blocked_cost), if blocked_cost.is_some() => {
          let line = self.blocked.take().expect("blocked");
          self.p.queue.push_reserved(line, permit);
        }
        input = source.next(), if self.blocked.is_none() => match input {
          Next::Line(line) => {
            if let Some(stop) = self.line(line) {
              break stop;
            }
          }
          Next::Eof => break Stop::Eof,
        },
        _ = sleep_until(init_deadline), if init_deadline.is_some() => break Stop::InitTimeout,
      }
    };
    drop(source);
    self.finish(stop).await;
  }

  fn command(&mut self, cmd: Command) {
    match cmd {
      Command::Control { body, reply } => {
        if self.stdin_closed {
          let _ = reply.send(Err(Error::SessionClosed(
            "Cannot send a control request: the input to Claude Code is already closed".into(),
          )));
          return;
        }
        let id = next_request_id();
        self.write(outgoing::control_request(&id, &body));
        self.pending.insert(id, reply);
      }
      Command::UserMessage(mut json) => {
        if self.stdin_closed {
          tracing::warn!("dropped a user message: the input to Claude Code is already closed");
          return;
        }
        json.push('\n');
        self.write(json);
        self.p.awaiting_result = true;
      }
      Command::SetServers(servers) => {
        *self.p.router.servers.write().unwrap_or_else(|p| p.into_inner()) = servers.into_iter().collect();
      }
      Command::McpMessage { server, message } => {
        if !self.stdin_closed {
          let body = serde_json::json!({ "subtype": "mcp_message", "server_name": server, "message": message });
          // Its answer carries nothing: the `mcp_` prefix lets it be dropped without a warning.
          self.write(outgoing::control_request(&format!("mcp_{}", next_request_id()), &body));
        }
      }
      Command::EndInput => {
        self.p.input_done = true;
        self.maybe_close_stdin();
      }
      Command::Close { .. } => unreachable!("handled by the loop"),
    }
  }

  fn write(&self, line: String) {
    self.p.writer.write_line(&line);
  }

  /// Handles one line; returns `Some` when the session must stop.
  fn line(&mut self, line: String) -> Option<Stop> {
    match classify(&line) {
      Incoming::Message { is_result } => {
        if is_result {
          self.result_seen = true;
          self.p.awaiting_result = false;
        }
        self.deliver(line);
        if is_result {
          self.maybe_close_stdin();
        }
      }
      Incoming::ControlRequest { request_id, request } => self.p.router.accept(request_id, request),
      Incoming::ControlResponse { request_id, outcome } => {
        if request_id == self.p.init_id {
          self.init_deadline = None;
          match outcome {
            Ok(body) => {
              let body = body.map(|b| b.get().to_string()).unwrap_or_else(|| "{}".into());
              let _ = self.p.init_tx.send(Some(Ok(body)));
            }
            Err(message) => return Some(Stop::InitFailed(message)),
          }
        } else if let Some(reply) = self.pending.remove(&request_id) {
          let _ = reply.send(
            outcome.map(|b| b.map(|b| b.get().to_string()).unwrap_or_else(|| "{}".into())).map_err(Error::Control),
          );
        } else if !request_id.starts_with("mcp_req_") {
          tracing::warn!(request_id = %request_id, "control_response for a request we did not send (ignored)");
        }
      }
      Incoming::ControlCancel { request_id } => {
        // The CLI no longer waits for this answer: abort the callback, and do not let it hold
        // stdin open (a callback that ignores its signal would otherwise keep the session alive).
        if self.p.inflight.remove(&request_id) {
          tracing::debug!(request_id = %request_id, "the CLI cancelled a request; aborting its callback");
          self.p.host.cancel(&request_id);
          self.maybe_close_stdin();
        }
      }
      Incoming::SessionState { state, host_only } => {
        self.state_reported = true;
        self.idle = state == "idle";
        if !host_only {
          self.deliver(line);
        }
        self.maybe_close_stdin();
      }
      Incoming::HostOnly => {}
      Incoming::Malformed(reason) => {
        // The official SDK skips such lines too; say which one, shortened (it may be large).
        // The line itself may carry tool arguments: only its size at warn level.
        tracing::warn!(reason = %reason, len = line.len(), "skipped a line from Claude Code that is not a protocol message");
        tracing::trace!(line = %crate::session::redact_keys(&line.chars().take(200).collect::<String>()), "the skipped line");
      }
    }
    None
  }

  fn deliver(&mut self, line: String) {
    if let Err(line) = self.p.queue.try_push(self.p.queue.encode(line)) {
      self.blocked = Some(line);
    }
  }

  /// stdin closes when nothing can need it any more: the input has ended, every turn has its
  /// result, the CLI reports idle (when it reports state), and no callback is still running
  /// (its answer must reach the CLI) nor any request of ours awaiting its answer.
  fn maybe_close_stdin(&mut self) {
    if self.stdin_closed
      || !self.p.input_done
      || self.p.awaiting_result
      || !self.pending.is_empty()
      || (self.state_reported && !self.idle)
      || !self.p.inflight.is_empty_or_wake()
    {
      return;
    }
    tracing::debug!("closing Claude Code's stdin: input ended and the session is idle");
    self.stdin_closed = true;
    self.p.writer.close();
  }

  async fn finish(mut self, stop: Stop) {
    let child = &mut *self.p.child;
    let outcome: Result<(), Error> = match stop {
      Stop::Closed { abort } => {
        // The consumer learns at once; the CLI is stopped in the background (it gets the
        // official grace periods to flush its session file).
        let result = if abort { Err(Error::Aborted) } else { Ok(()) };
        self.p.queue.end(result.clone());
        end_requests(&mut self.pending, &self.p.inflight, &*self.p.host, || if abort { Error::Aborted } else { closed_error() });
        self.p.writer.close();
        self.p.host.release();
        process::terminate(child).await;
        child.end_leftovers();
        return;
      }
      Stop::InitTimeout | Stop::InitFailed(_) => {
        child.signal(libc::SIGKILL);
        let _ = child.wait().await;
        match stop {
          Stop::InitTimeout => Err(Error::InitializeTimeout(self.p.init_timeout.as_millis() as u64)),
          Stop::InitFailed(m) => Err(Error::Control(format!("Claude Code rejected the initialize request: {m}"))),
          _ => unreachable!(),
        }
      }
      Stop::Eof => {
        // stdout is closed; the exit status follows. A CLI that closed stdout but lingers is
        // ended the graceful way.
        self.p.writer.close();
        let (status, signaled_by_us) = match tokio::time::timeout(process::GRACE_AFTER_STDIN, child.wait()).await {
          Ok(s) => (s, false),
          Err(_) => process::terminate(child).await,
        };
        // Give stderr a moment to drain so the tail is complete (the official SDK waits 200 ms).
        let _ = tokio::time::timeout(Duration::from_millis(200), &mut self.p.stderr_task).await;
        exit_outcome(status, signaled_by_us, self.result_seen, &self.p.stderr_tail)
      }
    };
    child.end_leftovers();
    if let Err(e) = &outcome {
      tracing::debug!(error = %e, "session ended with an error");
    }
    let err = outcome.as_ref().err().cloned();
    end_requests(&mut self.pending, &self.p.inflight, &*self.p.host, || {
      err.clone().unwrap_or_else(closed_error)
    });
    if self.p.init_tx.borrow().is_none() {
      let _ = self.p.init_tx.send(Some(Err(err.clone().unwrap_or_else(closed_error))));
    }
    self.p.queue.end(outcome);
    self.p.host.release();
  }
}

fn closed_error() -> Error {
  Error::SessionClosed("The query has ended; no further requests can be sent to Claude Code".into())
}

/// Rejects our pending requests and fires the abort signal of every callback still running.
fn end_requests(
  pending: &mut HashMap<String, oneshot::Sender<Result<String, Error>>>,
  inflight: &Inflight,
  host: &dyn Host,
  error: impl Fn() -> Error,
) {
  for (_, reply) in pending.drain() {
    let _ = reply.send(Err(error()));
  }
  for id in inflight.ids() {
    host.cancel(&id);
  }
}

fn exit_outcome(
  status: Option<ExitInfo>,
  signaled_by_us: bool,
  result_seen: bool,
  tail: &StderrTail,
) -> Result<(), Error> {
  let Some(status) = status else {
    return Err(Error::Protocol("Claude Code's exit status could not be read".into()));
  };
  match (status.code, status.signal) {
    (Some(0), _) if result_seen => Ok(()),
    (Some(code), _) => Err(Error::Exited { code, stderr_tail: tail.get() }),
    (None, Some(_)) if signaled_by_us && result_seen => Ok(()),
    (None, Some(signal)) => Err(Error::Signaled { signal, stderr_tail: tail.get() }),
    (None, None) => Err(Error::Protocol("Claude Code ended without an exit code or signal".into())),
  }
}

async fn reserve(queue: &QueueSender, cost: Option<u32>) -> Option<tokio::sync::OwnedSemaphorePermit> {
  queue.reserve(cost.unwrap_or(1)).await
}

async fn sleep_until(deadline: Option<Instant>) {
  match deadline {
    Some(d) => tokio::time::sleep_until(d).await,
    None => std::future::pending().await,
  }
}
