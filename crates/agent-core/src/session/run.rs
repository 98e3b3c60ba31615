//! The session loop: the one task that reads the CLI's stdout, owns the state of every request
//! in either direction (ours awaiting the CLI's answer; the CLI's running in the host, with
//! their cancellation), and decides when stdin closes and how the session ends, in the manner
//! of async-lsp's main loop. A call's [`Reply`] writes its answer from the thread that has it
//! (no wake-up of this one on the round trip) and leaves the call's id in the loop's
//! [`Finished`] mailbox.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use serde_json::value::RawValue;
use tokio::io::AsyncRead;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::cli::child::{ChildProcess, ExitInfo};
use crate::cli::process;
use crate::codec::{LineReader, ReadBuffer, ReadLine};
use crate::error::Error;
use crate::host::{Host, HostCall, Reply};
use crate::protocol::incoming::{classify, result_problem, Incoming, RequestId};
use crate::protocol::outgoing::{self, next_request_id};
use crate::session::ceiling;
use crate::session::finished::Finished;
use crate::session::handle::{Command, ControlCommand, InitState};
use crate::session::mirror::{Event as MirrorEvent, Mirror};
use crate::session::queue::QueueSender;
use crate::session::router::{Answer, Route, Router, ToolKey};
use crate::session::spin::Spin;
use crate::session::stderr::StderrTail;
use crate::session::writer::StdinWriter;

pub(crate) type Stdout = Box<dyn AsyncRead + Send + Unpin>;

pub(crate) struct LoopParts {
    pub child: Box<dyn ChildProcess>,
    pub writer: Arc<StdinWriter>,
    pub router: Router,
    pub host: Arc<dyn Host>,
    pub cmd_rx: mpsc::UnboundedReceiver<Command>,
    /// Calls answered (their request ids), from the [`Reply`]s the loop made.
    pub finished: Arc<Finished>,
    pub queue: QueueSender,
    pub init_id: String,
    pub init_tx: watch::Sender<InitState>,
    pub init_timeout: Duration,
    pub input_done: bool,
    pub awaiting_result: bool,
    /// The host has callbacks the router does not know of that the CLI may call (hooks, token
    /// callbacks): see [`Loop::bidirectional`].
    pub host_callbacks: bool,
    /// After a result, how long to wait for `idle` before ending the run anyway ([`ceiling`]).
    pub run_end_ceiling: Option<Duration>,
    pub stderr_task: JoinHandle<()>,
    pub stderr_tail: StderrTail,
    /// The session store mirror, when the query has a store.
    pub mirror: Option<Mirror>,
}

/// Why the loop stopped reading.
enum Stop {
    /// stdout ended: the CLI exited or is exiting.
    Eof,
    /// `close()`, `abort()`, or every handle dropped.
    Closed {
        abort: bool,
    },
    InitTimeout,
    InitFailed(String),
    /// The consumer fell behind past the backlog's bound.
    Backlog(Error),
    /// The CLI wrote a message the consumer could not read (a malformed `result`).
    Malformed(Error),
}

pub(crate) struct Loop {
    p: LoopParts,
    /// Our control requests awaiting the CLI's answer.
    /// Our control requests awaiting the CLI's answer: its body as JSON text (`None`: no body).
    pending: HashMap<String, oneshot::Sender<Result<Option<String>, Error>>>,
    /// The CLI's requests running in the host, by its request id.
    calls: HashMap<String, Call>,
    /// Calls routed since the host was last handed a batch.
    outbox: Vec<(HostCall, Reply)>,
    init_deadline: Option<Instant>,
    stdin_closed: bool,
    /// Seen any `session_state_changed` (newer CLIs report state; older ones do not).
    state_reported: bool,
    idle: bool,
    result_seen: bool,
    /// When the wait for `idle` after a result ends anyway ([`ceiling`]).
    ceiling_at: Option<Instant>,
    /// The wait for `idle` passed its ceiling: the state no longer holds stdin open.
    ceiling_passed: bool,
    /// Keeps the loop's thread awake for a moment after it hands the host a call.
    spin: Spin,
    /// Our requests the CLI answered lately: a second answer to one is ignored quietly.
    answered: std::collections::VecDeque<String>,
    /// A `remote_control` request of ours carried a work secret: the CLI may ask to refresh it.
    work_secret: bool,
}

/// How many of our answered requests [`Loop::answered`] remembers.
const ANSWERED_KEPT: usize = 64;

/// A request of the CLI's running in the host.
struct Call {
    /// It is a `tools/call` (MCP cancels name it this way).
    tool: Option<ToolKey>,
    /// The CLI withdrew it: its signal fired, stdin no longer waits for it, and its answer is
    /// still written if it comes (a handler may finish what it was doing).
    cancelled: bool,
}

/// What one read gave.
enum Input {
    Line(String),
    Eof,
}

impl Loop {
    pub(crate) fn new(p: LoopParts) -> Self {
        let init_deadline = Some(Instant::now() + p.init_timeout);
        Self {
            p,
            pending: HashMap::new(),
            calls: HashMap::new(),
            outbox: Vec::new(),
            init_deadline,
            stdin_closed: false,
            state_reported: false,
            idle: false,
            result_seen: false,
            ceiling_at: None,
            ceiling_passed: false,
            spin: Spin::new(),
            answered: std::collections::VecDeque::new(),
            work_secret: false,
        }
    }

    pub(crate) async fn run(mut self, stdout: Stdout) {
        let mut reader = LineReader::new(ReadBuffer::new(stdout));
        let stop = loop {
            let init_deadline = self.init_deadline;
            // Reading never waits for the consumer (a control request may be behind any amount of
            // messages); the backlog moves into the consumer's channel as it takes messages.
            let backlog_cost = self.p.queue.backlog_cost();
            let spinning = self.spin.active();
            tokio::select! {
              biased;
              _ = self.p.finished.woken() => self.maybe_close_stdin(),
              cmd = self.p.cmd_rx.recv() => match cmd {
                None => break Stop::Closed { abort: false },
                Some(Command::Close { abort }) => break Stop::Closed { abort },
                Some(cmd) => self.command(cmd),
              },
              Some(permit) = reserve(&self.p.queue, backlog_cost), if backlog_cost.is_some() => self.p.queue.refill(permit),
              input = next_line(&mut reader) => {
                self.spin.line_read();
                let mut input = input;
                // Everything this read brought is handled before the host hears of the calls in
                // it: a burst of the CLI's requests reaches the host as one batch.
                let stop = loop {
                  match input {
                    Input::Line(line) => {
                      if let Some(stop) = self.line(line) {
                        break Some(stop);
                      }
                    }
                    Input::Eof => break Some(Stop::Eof),
                  }
                  match buffered_line(&mut reader) {
                    Some(next) => input = next,
                    None => break None,
                  }
                };
                self.hand_calls_to_host();
                if let Some(stop) = stop {
                  break stop;
                }
              }
              event = next_mirror_event(&mut self.p.mirror) => {
                if let Some(stop) = self.mirror_event(event) {
                  break stop;
                }
              }
              _ = sleep_until(init_deadline), if init_deadline.is_some() => break Stop::InitTimeout,
              _ = sleep_until(self.ceiling_at), if self.ceiling_at.is_some() => {
                tracing::debug!("no 'idle' from Claude Code within the ceiling after the last result: ending the run");
                self.ceiling_at = None;
                self.ceiling_passed = true;
                self.maybe_close_stdin();
              }
              // Last: only when nothing else is ready does the loop spin another turn.
              _ = Spin::turn(), if spinning => {}
            }
        };
        // Boxed when the session ends: its state (the abort's drain, the graceful stop's timers)
        // would otherwise be part of every session's task all along (4.1 KB against 2.3 KB).
        Box::pin(self.finish(stop, reader)).await;
    }

    /// A control request from the CLI. Skipped when one with the same id is still running (the
    /// official SDK skips such duplicates). Its answer carries its id as the CLI wrote it.
    fn control_request(&mut self, id: RequestId, request: Box<RawValue>) {
        let RequestId { key: request_id, json } = id;
        let echo = |line: String| match &json {
            Some(json) => outgoing::echo_request_id(line, &request_id, json),
            None => line,
        };
        self.forget_finished(self.p.finished.take());
        if self.calls.contains_key(&request_id) {
            tracing::warn!(request_id = %request_id, "duplicate control request id while the first is in flight (ignored)");
            return;
        }
        match self.p.router.route(&request_id, request) {
            Route::Reply(line) => self.write(echo(line)),
            Route::Call { kind, payload, answer } => {
                self.calls.insert(
                    request_id.clone(),
                    Call {
                        tool: answer.tool().cloned(),
                        cancelled: false,
                    },
                );
                let reply = self.reply(request_id.clone(), json.clone(), answer);
                self.outbox.push((
                    HostCall {
                        request_id,
                        request_id_json: json,
                        kind,
                        payload,
                    },
                    reply,
                ));
            }
            Route::Leave => {}
            Route::CancelTool { tool, ack } => {
                let target = self
                    .calls
                    .iter()
                    .find(|(_, c)| !c.cancelled && c.tool.as_ref() == Some(&tool))
                    .map(|(id, _)| id.clone());
                if let Some(target) = target {
                    tracing::debug!(request_id = %target, "MCP notifications/cancelled: aborting the tool call");
                    self.cancel_call(&target);
                }
                self.write(echo(ack));
                // The cancel may come after the turn's result: stdin no longer waits for this call.
                self.maybe_close_stdin();
            }
        }
    }

    /// The calls routed since the last batch go to the host, together.
    fn hand_calls_to_host(&mut self) {
        if !self.outbox.is_empty() {
            self.p.host.invoke(std::mem::take(&mut self.outbox));
            self.spin.arm(self.calls.len());
        }
    }

    /// Calls the host has answered leave the set.
    fn forget_finished(&mut self, ids: Vec<String>) {
        for id in ids {
            self.calls.remove(&id);
        }
    }

    /// How the host answers a call: the control response `answer` builds is written on the
    /// answering thread, then the loop hears that the call finished.
    fn reply(&self, request_id: String, json: Option<Box<str>>, answer: Answer) -> Reply {
        let writer = self.p.writer.clone();
        let finished = self.p.finished.clone();
        Reply::new(request_id.clone(), move |result| {
            let mut line = answer.line(&request_id, result);
            if let Some(json) = &json {
                line = outgoing::echo_request_id(line, &request_id, json);
            }
            if writer.write_line(&line) {
                finished.push(request_id);
            } else {
                finished.push_unanswered(request_id);
            }
        })
    }

    /// The CLI withdrew a call: its signal fires, and stdin no longer waits for it (a callback
    /// that ignores its signal would otherwise keep the session alive).
    fn cancel_call(&mut self, request_id: &str) {
        if let Some(call) = self.calls.get_mut(request_id).filter(|c| !c.cancelled) {
            call.cancelled = true;
            // A cancel read with its request follows the call to the host, never overtakes it.
            self.hand_calls_to_host();
            self.p.host.cancel(request_id);
        }
    }

    fn command(&mut self, cmd: Command) {
        match cmd {
            Command::Control(control) => {
                let ControlCommand { body, reply, id } = *control;
                if self.stdin_closed {
                    let _ = reply.send(Err(Error::SessionClosed(
                        "Cannot send a control request: the input to Claude Code is already closed".into(),
                    )));
                    return;
                }
                let id = id.unwrap_or_else(next_request_id);
                // With a work secret the CLI may ask for a fresh one: a need for stdin (see
                // `Loop::bidirectional`).
                if body.get("subtype").and_then(|s| s.as_str()) == Some("remote_control")
                    && body.get("work_secret").is_some_and(|s| !s.is_null())
                {
                    self.work_secret = true;
                }
                self.write(outgoing::control_request(&id, &body));
                self.pending.insert(id, reply);
            }
            Command::CancelControl(id) => {
                if let Some(reply) = self.pending.remove(&id) {
                    if !self.stdin_closed {
                        self.write(outgoing::control_cancel_request(&id));
                    }
                    let _ = reply.send(Err(Error::Control("Control request cancelled".into())));
                    self.maybe_close_stdin();
                }
            }
            Command::UserMessage(mut json) => {
                if self.stdin_closed {
                    tracing::warn!("dropped a user message: the input to Claude Code is already closed");
                    return;
                }
                json.push('\n');
                self.write(json);
                self.p.awaiting_result = true;
                self.restart_run();
            }
            Command::SetServers(servers) => {
                if servers.iter().any(|(_, s)| s.lone_surrogates()) {
                    self.p.writer.mark_lone_surrogates();
                }
                self.p.router.servers = servers.into_iter().collect()
            }
            Command::McpMessage(m) => {
                if !self.stdin_closed {
                    let (server, message) = *m;
                    let body =
                        serde_json::json!({ "subtype": "mcp_message", "server_name": server, "message": message });
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
        let incoming = classify(&line);
        // While the store flush before a `result` runs, what the consumer would see (and the frames
        // behind it) waits, in order; control traffic goes on.
        if let Some(mirror) = self.p.mirror.as_mut().filter(|m| m.holding()) {
            if matches!(
                incoming,
                Incoming::Message { .. } | Incoming::SessionState { .. } | Incoming::TranscriptMirror
            ) {
                mirror.hold(line);
                return None;
            }
        }
        match incoming {
            Incoming::Message { is_result: true } if self.p.mirror.as_ref().is_some_and(Mirror::busy) => {
                // The store has every entry of a turn before its result is seen.
                self.p.mirror.as_mut().expect("a mirror").hold_result(line);
            }
            Incoming::Message { is_result } => return self.message(line, is_result),
            Incoming::TranscriptMirror => {
                if let Some(mirror) = &mut self.p.mirror {
                    mirror.enqueue(&line);
                }
            }
            Incoming::ControlRequest { request_id, request } => self.control_request(request_id, request),
            Incoming::ControlResponse { request_id, outcome } => {
                if request_id == self.p.init_id && self.p.init_tx.borrow().is_none() {
                    self.init_deadline = None;
                    self.remember_answered(request_id);
                    match outcome {
                        Ok(body) => {
                            let body = body.map(|b| b.get().to_string()).unwrap_or_else(|| "{}".into());
                            let _ = self.p.init_tx.send(Some(Ok(body)));
                        }
                        Err(message) => return Some(Stop::InitFailed(message)),
                    }
                } else if let Some(reply) = self.pending.remove(&request_id) {
                    let _ = reply.send(outcome.map(|b| b.map(|b| b.get().to_string())).map_err(Error::Control));
                    self.remember_answered(request_id);
                } else if request_id == self.p.init_id || self.answered.contains(&request_id) {
                    // The official SDK ignores it too: the request was settled by the first answer.
                    tracing::debug!(request_id = %request_id, error = outcome.err().as_deref(), "a second control_response for a request already answered (ignored)");
                } else if !request_id.starts_with("mcp_req_") {
                    tracing::warn!(request_id = %request_id, "control_response for a request we did not send (ignored)");
                }
            }
            Incoming::ControlCancel { request_id } => {
                // The CLI no longer waits for this answer: abort the callback, and do not let it hold
                // stdin open (a callback that ignores its signal would otherwise keep the session alive).
                self.forget_finished(self.p.finished.take());
                if self.calls.get(&request_id).is_some_and(|c| !c.cancelled) {
                    tracing::debug!(request_id = %request_id, "the CLI cancelled a request; aborting its callback");
                    self.cancel_call(&request_id);
                    self.maybe_close_stdin();
                }
            }
            Incoming::SessionState { state, host_only } => {
                self.state_reported = true;
                self.idle = state == "idle";
                // As the official: `idle` ends the wait; `requires_action` (a prompt the host
                // answers) waits without a ceiling; other work starts the ceiling again.
                if self.idle {
                    self.ceiling_at = None;
                } else {
                    self.restart_run();
                    if state != "requires_action" && self.result_seen && !self.p.awaiting_result {
                        self.arm_ceiling();
                    }
                }
                if !host_only {
                    if let Some(stop) = self.deliver(line) {
                        return Some(stop);
                    }
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

    /// A message for the consumer.
    fn message(&mut self, line: String, is_result: bool) -> Option<Stop> {
        if is_result {
            // Everything before it is delivered; the stream then ends with what was wrong.
            if let Some(problem) = result_problem(&line) {
                tracing::warn!(problem = %problem, "ending the session on a malformed result");
                return Some(Stop::Malformed(Error::Protocol(problem)));
            }
            self.result_seen = true;
            self.p.awaiting_result = false;
        } else if (self.ceiling_at.is_some() || self.ceiling_passed) && ceiling::is_main_turn_message(&line) {
            self.restart_run();
        }
        if let Some(stop) = self.deliver(line) {
            return Some(stop);
        }
        if is_result {
            if self.waits_for_idle() {
                self.arm_ceiling();
            }
            self.maybe_close_stdin();
        }
        None
    }

    /// The state holds stdin open: the CLI reports work and may still call back into the host.
    fn waits_for_idle(&self) -> bool {
        self.state_reported && !self.idle && !self.ceiling_passed && self.bidirectional()
    }

    /// The wait for `idle` after a result starts (again), when there is a ceiling.
    fn arm_ceiling(&mut self) {
        self.ceiling_at = self.p.run_end_ceiling.map(|d| Instant::now() + d);
    }

    /// The run goes on (a new prompt, a new state, the main turn's output): a passed ceiling no
    /// longer counts and a running one stops.
    fn restart_run(&mut self) {
        self.ceiling_at = None;
        self.ceiling_passed = false;
    }

    /// What the store mirror's worker reports: a `mirror_error` goes into the stream at once (ahead
    /// of a held `result`); when the flush a `result` waits for is over, the held lines are handled
    /// as if read now (a later `result` among them may start another flush).
    fn mirror_event(&mut self, event: MirrorEvent) -> Option<Stop> {
        let mirror = self.p.mirror.as_mut()?;
        match event {
            MirrorEvent::Error(line) => self.deliver(line),
            MirrorEvent::Done => {
                let mut held = mirror.done()?;
                let result = held.pop_front().expect("a held result");
                let mut stop = self.message(result, true);
                for line in held {
                    stop = stop.or(self.line(line));
                }
                stop
            }
        }
    }

    fn deliver(&mut self, line: String) -> Option<Stop> {
        let was_behind = self.p.queue.backlog_cost().is_some();
        match self.p.queue.push(line) {
            Ok(()) => {
                if !was_behind && self.p.queue.backlog_cost().is_some() {
                    tracing::debug!("the consumer is behind: messages wait in the backlog while reading goes on");
                }
                None
            }
            Err(e) => {
                tracing::warn!(error = %e, "the consumer fell behind past the backlog's bound; ending the session");
                Some(Stop::Backlog(e))
            }
        }
    }

    /// stdin closes when nothing can need it any more: the input has ended, every turn has its
    /// result, no callback is still running (its answer must reach the CLI) nor any request of
    /// ours awaiting its answer, and, when the session has callbacks the CLI may still call, the
    /// CLI reports idle (when it reports state: background work after a result may ask). As the
    /// official SDK ends a run at a result "when the state is unknown or idle, or nothing is
    /// bidirectional", and otherwise at the `idle` after it.
    fn maybe_close_stdin(&mut self) {
        if self.stdin_closed
            || !self.p.input_done
            || self.p.awaiting_result
            || !self.pending.is_empty()
            || self.waits_for_idle()
            || self.calls_running()
        {
            return;
        }
        tracing::debug!("closing Claude Code's stdin: input ended and the session is idle");
        self.stdin_closed = true;
        self.p.writer.close();
    }

    /// Whether the CLI may still send a request only the host can answer (the official SDK's
    /// `hasBidirectionalNeeds`): in-process MCP servers, `canUseTool`, hooks, dialog callbacks,
    /// token callbacks, a remote-control work secret.
    fn bidirectional(&self) -> bool {
        let r = &self.p.router;
        self.p.host_callbacks
            || self.work_secret
            || !r.servers.is_empty()
            || r.can_use_tool
            || r.dialogs.elicitation
            || r.dialogs.user_dialog
    }

    fn remember_answered(&mut self, request_id: String) {
        if self.answered.len() == ANSWERED_KEPT {
            self.answered.pop_front();
        }
        self.answered.push_back(request_id);
    }

    /// Rejects our pending requests and fires the abort signal of every call still running.
    fn end_requests(&mut self, error: impl Fn() -> Error) {
        for (_, reply) in self.pending.drain() {
            let _ = reply.send(Err(error()));
        }
        self.outbox.clear();
        for (id, call) in self.calls.drain() {
            if !call.cancelled {
                self.p.host.cancel(&id);
            }
        }
    }

    /// Whether a call stdin must stay open for is running; if one is, the next answer wakes
    /// the loop to ask again.
    fn calls_running(&mut self) -> bool {
        if self.calls.is_empty() {
            return false;
        }
        self.forget_finished(self.p.finished.take_and_want());
        self.calls.values().any(|c| !c.cancelled)
    }

    async fn finish(mut self, stop: Stop, mut reader: LineReader<ReadBuffer<Stdout>>) {
        let outcome: Result<(), Error> = match stop {
            Stop::Closed { abort: true } => {
                // As the official SDK: the CLI's input ends and its callbacks are aborted. The messages
                // it wrote before the abort took effect reach the consumer before the AbortError: what
                // is already in the pipe, and, when one of its requests was running here, what it
                // writes as it stops — the interrupted tool result (tens of ms after its input ends).
                // Only for a moment: a CLI that keeps going (asks the model again) or never writes
                // does not hold the consumer; it is stopped in the background, with the official grace
                // periods.
                // The calls the CLI still waits on: those running, and those whose answer came too late
                // (a handler returns as its signal fires: stdin was already closed). stdin is closed
                // first (the handle did it already, unless the abort came another way), so an answer is
                // either written before or counted as unanswered.
                self.p.writer.abort();
                let (answered, unanswered) = self.p.finished.take_with_unanswered();
                self.forget_finished(answered);
                let in_flight = self.calls.values().filter(|c| !c.cancelled).count() + unanswered;
                self.end_requests(|| Error::Aborted);
                let mut mirror = self.p.mirror.take();
                if mirror.is_none() {
                    self.p.host.release();
                }
                let deadline = (in_flight > 0).then(|| Instant::now() + ABORT_DRAIN);
                let child = &mut *self.p.child;
                let queue = &mut self.p.queue;
                let host = self.p.host.clone();
                let ((), _) = tokio::join!(
                    async {
                        drain_after_abort(&mut reader, queue, mirror.as_mut(), deadline, in_flight).await;
                        // What the CLI wrote before it stopped still goes to the store.
                        if mirror.is_some() {
                            release_after(mirror, host);
                        }
                        drop(reader);
                        queue.flush_backlog();
                        queue.end(Err(Error::Aborted));
                    },
                    process::terminate(child)
                );
                self.p.child.end_leftovers();
                return;
            }
            Stop::Closed { abort: false } => {
                // The consumer learns at once; the CLI is stopped in the background (it gets the
                // official grace periods to flush its session file).
                drop(reader);
                self.p.queue.drop_backlog();
                self.p.queue.end(Ok(()));
                self.end_requests(closed_error);
                self.p.writer.close();
                self.release_host();
                process::terminate(&mut *self.p.child).await;
                self.p.child.end_leftovers();
                return;
            }
            Stop::Backlog(e) | Stop::Malformed(e) => {
                // What the consumer's channel holds is still delivered, then the error.
                drop(reader);
                self.p.queue.drop_backlog();
                self.p.queue.end(Err(e.clone()));
                self.end_requests(|| e.clone());
                self.p.writer.close();
                self.release_host();
                process::terminate(&mut *self.p.child).await;
                self.p.child.end_leftovers();
                return;
            }
            Stop::InitTimeout | Stop::InitFailed(_) => {
                drop(reader);
                self.p.child.signal(crate::cli::signal::SIGKILL);
                let _ = self.p.child.wait().await;
                match stop {
                    Stop::InitTimeout => Err(Error::InitializeTimeout(self.p.init_timeout.as_millis() as u64)),
                    Stop::InitFailed(m) => Err(Error::Control(format!(
                        "Claude Code rejected the initialize request: {m}"
                    ))),
                    _ => unreachable!(),
                }
            }
            Stop::Eof => {
                drop(reader);
                // stdout is closed; the exit status follows. A CLI that closed stdout but lingers is
                // ended the graceful way. The consumer is not held meanwhile by an abort or close():
                // everything the CLI wrote is delivered, then the end (the CLI is still reaped).
                self.p.writer.close();
                // First the store gets what waits (as the official flushes at the end of the stream), and
                // the consumer what was held for it and any `mirror_error`.
                let mut listening = true;
                while let Some(mirror) = self.p.mirror.as_mut().filter(|m| m.busy()) {
                    if !mirror.holding() {
                        mirror.drain();
                    }
                    tokio::select! {
                      event = next_mirror_event(&mut self.p.mirror) => {
                        if listening {
                          let _ = self.mirror_event(event);
                        }
                      }
                      cmd = self.p.cmd_rx.recv(), if listening => match cmd {
                        Some(Command::Close { abort }) => {
                          self.p.queue.flush_backlog();
                          self.p.queue.end(if abort { Err(Error::Aborted) } else { Ok(()) });
                          listening = false;
                        }
                        Some(_) => {}
                        None => listening = false,
                      },
                    }
                    if !listening {
                        // The consumer is gone: the rest goes to the store in the background.
                        break;
                    }
                }
                let p = &mut self.p;
                let exit = exit_status(&mut *p.child, &mut p.stderr_task, &p.stderr_tail, self.result_seen);
                tokio::pin!(exit);
                loop {
                    tokio::select! {
                      outcome = &mut exit => break outcome,
                      cmd = p.cmd_rx.recv(), if listening => match cmd {
                        Some(Command::Close { abort }) => {
                          p.queue.flush_backlog();
                          p.queue.end(if abort { Err(Error::Aborted) } else { Ok(()) });
                          listening = false;
                        }
                        // Requests fail as their reply drops: stdin is closed.
                        Some(_) => {}
                        None => listening = false,
                      },
                    }
                }
            }
        };
        self.p.child.end_leftovers();
        // The tree passed its resourceLimits and was stopped for it: that is why it ended.
        let outcome = match self.p.child.limit_breach() {
            Some(Error::ResourceLimit {
                message, code, signal, ..
            }) => Err(Error::ResourceLimit {
                message,
                code,
                signal,
                stderr_tail: self.p.stderr_tail.get(),
            }),
            Some(e) => Err(e),
            None => outcome,
        };
        if let Err(e) = &outcome {
            tracing::debug!(error = %e, "session ended with an error");
        }
        let err = outcome.as_ref().err().cloned();
        self.end_requests(|| err.clone().unwrap_or_else(closed_error));
        if self.p.init_tx.borrow().is_none() {
            let _ = self.p.init_tx.send(Some(Err(err.clone().unwrap_or_else(closed_error))));
        }
        // Everything the CLI wrote reaches the consumer before the end.
        self.p.queue.flush_backlog();
        self.p.queue.end(outcome);
        self.release_host();
    }

    /// The session is over for the host; with a store mirror, once its last batch is done (the
    /// store's calls still go through the host).
    fn release_host(&mut self) {
        release_after(self.p.mirror.take(), self.p.host.clone());
    }
}

/// Releases the host now, or with a store mirror once its last batch is done.
fn release_after(mirror: Option<Mirror>, host: Arc<dyn Host>) {
    match mirror {
        Some(mirror) => {
            host.detach();
            let worker = mirror.close();
            tokio::spawn(async move {
                let _ = worker.await;
                host.release();
            });
        }
        None => host.release(),
    }
}

/// How long an aborted session waits for what the CLI writes as it stops, when one of its
/// requests was running in the host. The real CLIs write the interrupted tool result 5-80 ms
/// after their input ends (measured, 2.1.330 and 2.1.197; more on a loaded machine); the official
/// SDK waits for the CLI's exit instead (2 s and more when the CLI goes on with its turn).
pub(crate) const ABORT_DRAIN: Duration = Duration::from_millis(500);

/// Delivers the messages the CLI wrote before an abort took effect: what the pipe already holds,
/// then, until `deadline` if there is one, what the CLI writes as it stops — until its stdout
/// ends, its turn's result, or a tool result for each of the `in_flight` calls it was waiting
/// on (what it writes after those is a new step of its turn, not the abort's). Its requests
/// go unanswered: its input is closed.
async fn drain_after_abort(
    reader: &mut LineReader<ReadBuffer<Stdout>>,
    queue: &mut QueueSender,
    mut mirror: Option<&mut Mirror>,
    deadline: Option<Instant>,
    in_flight: usize,
) {
    let mut results = 0;
    loop {
        let input = match deadline {
            Some(deadline) => match tokio::time::timeout_at(deadline, next_line(reader)).await {
                Ok(input) => input,
                Err(_) => return,
            },
            // Only what is readable now.
            None => tokio::select! {
              biased;
              input = next_line(reader) => input,
              () = std::future::ready(()) => return,
            },
        };
        let Input::Line(line) = input else { return };
        let is_result = match classify(&line) {
            Incoming::Message { is_result } => is_result,
            Incoming::SessionState { host_only: false, .. } => false,
            Incoming::TranscriptMirror => {
                if let Some(mirror) = mirror.as_deref_mut() {
                    mirror.enqueue(&line);
                }
                continue;
            }
            _ => continue,
        };
        results += tool_results(&line);
        if queue.push(line).is_err() || is_result || (in_flight > 0 && results >= in_flight) {
            return;
        }
    }
}

/// How many tool results a user message carries (0 for any other line).
fn tool_results(line: &str) -> usize {
    #[derive(serde::Deserialize)]
    struct Msg<'a> {
        #[serde(borrow, rename = "type")]
        kind: std::borrow::Cow<'a, str>,
        message: Option<Body>,
    }
    #[derive(serde::Deserialize)]
    struct Body {
        content: Option<serde_json::Value>,
    }
    if !line.contains("\"tool_result\"") {
        return 0;
    }
    match serde_json::from_str::<Msg>(line) {
        Ok(Msg {
            kind,
            message: Some(Body {
                content: Some(serde_json::Value::Array(blocks)),
            }),
        }) if kind == "user" => blocks
            .iter()
            .filter(|b| b.get("type").and_then(|t| t.as_str()) == Some("tool_result"))
            .count(),
        _ => 0,
    }
}

/// The CLI's exit (stdout already closed) as the session's outcome: it gets the grace period a
/// CLI whose input closed gets, then is stopped; its stderr a moment to drain.
async fn exit_status(
    child: &mut dyn ChildProcess,
    stderr_task: &mut JoinHandle<()>,
    tail: &StderrTail,
    result_seen: bool,
) -> Result<(), Error> {
    let (status, signaled_by_us) = match tokio::time::timeout(process::GRACE_AFTER_STDIN, child.wait()).await {
        Ok(s) => (s, false),
        Err(_) => process::terminate(child).await,
    };
    // Give stderr a moment to drain so the tail is complete (the official SDK waits 200 ms).
    let _ = tokio::time::timeout(Duration::from_millis(200), stderr_task).await;
    exit_outcome(status, signaled_by_us, result_seen, tail)
}

fn closed_error() -> Error {
    Error::SessionClosed("The query has ended; no further requests can be sent to Claude Code".into())
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
        (Some(code), _) => Err(Error::Exited {
            code,
            stderr_tail: tail.get(),
        }),
        (None, Some(_)) if signaled_by_us && result_seen => Ok(()),
        (None, Some(signal)) => Err(Error::Signaled {
            signal,
            stderr_tail: tail.get(),
        }),
        (None, None) => Err(Error::Protocol(
            "Claude Code ended without an exit code or signal".into(),
        )),
    }
}

async fn reserve(queue: &QueueSender, cost: Option<u32>) -> Option<tokio::sync::OwnedSemaphorePermit> {
    queue.reserve(cost.unwrap_or(1)).await
}

/// The store mirror's next event; never, without a mirror.
async fn next_mirror_event(mirror: &mut Option<Mirror>) -> MirrorEvent {
    match mirror {
        Some(m) => m.event().await,
        None => std::future::pending().await,
    }
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}

async fn next_line(reader: &mut LineReader<ReadBuffer<Stdout>>) -> Input {
    loop {
        match reader.next_line().await {
            Ok(line) => {
                if let Some(input) = input(line) {
                    return input;
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, "reading Claude Code's stdout failed");
                return Input::Eof;
            }
        }
    }
}

/// The next line if the last read already brought it.
fn buffered_line(reader: &mut LineReader<ReadBuffer<Stdout>>) -> Option<Input> {
    while let Some(line) = reader.buffered_line() {
        if let Some(input) = input(line) {
            return Some(input);
        }
    }
    None
}

fn input(line: ReadLine) -> Option<Input> {
    match line {
        ReadLine::Line(line) => Some(Input::Line(line)),
        ReadLine::TooLong { len, prefix } => {
            tracing::warn!(len, "skipped a line from Claude Code longer than the limit");
            tracing::trace!(prefix = %crate::session::redact_keys(&prefix), "the skipped line began");
            None
        }
        ReadLine::Eof => Some(Input::Eof),
    }
}

#[cfg(test)]
mod tests {
    use super::tool_results;

    #[test]
    fn tool_results_are_counted_in_user_messages_only() {
        let user = r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"x"},{"type":"text","text":"tool_result"},{"type":"tool_result","tool_use_id":"b","content":[]}]}}"#;
        assert_eq!(tool_results(user), 2);
        assert_eq!(
            tool_results(r#"{"type":"user","message":{"role":"user","content":"a \"tool_result\" in text"}}"#),
            0
        );
        assert_eq!(
            tool_results(r#"{"type":"assistant","message":{"content":[{"type":"tool_result"}]}}"#),
            0
        );
        assert_eq!(tool_results(r#"{"type":"system","subtype":"init"}"#), 0);
    }

    use std::sync::Arc;
    use std::time::Duration;

    use serde_json::Value;
    use tokio::sync::mpsc;

    use crate::cli::child::ExitInfo;
    use crate::cli::custom::{host_process, HostProcessEvent, HostProcessFeed};
    use crate::host::{Host, HostCall, Reply};
    use crate::session::queue::Messages;
    use crate::session::{start, SessionSpec};

    /// A host that answers every call with an error.
    struct Refuse;

    impl Host for Refuse {
        fn invoke(&self, calls: Vec<(HostCall, Reply)>) {
            for (_, reply) in calls {
                reply.send(Err("refused".into()));
            }
        }
        fn cancel(&self, _: &str) {}
    }

    /// A session on a fed process: what it writes arrives as lines (`None`: stdin closed).
    struct Fake {
        feed: HostProcessFeed,
        written: mpsc::UnboundedReceiver<Option<String>>,
        /// Lines written and not looked at yet (`None`: stdin closed).
        lines: std::collections::VecDeque<Option<String>>,
        messages: Messages,
        init_id: String,
        /// Held: the session closes when every handle is dropped.
        _handle: crate::session::SessionHandle,
    }

    impl Fake {
        async fn start(can_use_tool: bool) -> Self {
            let (tx, written) = mpsc::unbounded_channel();
            let (process, feed) = host_process(Arc::new(move |e| {
                let _ = tx.send(match e {
                    HostProcessEvent::Write(bytes) => Some(String::from_utf8(bytes).unwrap()),
                    _ => None,
                });
            }));
            let started = start(
                SessionSpec {
                    prompt: Some("hi".into()),
                    can_use_tool,
                    ..SessionSpec::for_host(process)
                },
                Arc::new(Refuse),
            )
            .unwrap();
            let mut fake = Self {
                feed,
                written,
                lines: Default::default(),
                messages: started.messages,
                init_id: String::new(),
                _handle: started.handle,
            };
            let init: Value = serde_json::from_str(&fake.next_written().await.unwrap()).unwrap();
            fake.init_id = init["request_id"].as_str().unwrap().to_string();
            assert!(fake.next_written().await.unwrap().contains("\"type\":\"user\""));
            fake.send(&format!(
                r#"{{"type":"control_response","response":{{"subtype":"success","request_id":"{}","response":{{}}}}}}"#,
                fake.init_id
            ));
            fake
        }

        fn send(&self, line: &str) {
            self.feed.stdout(format!("{line}\n").into_bytes());
        }

        async fn next_written(&mut self) -> Option<String> {
            self.next_within(10_000).await.expect("the session writes")
        }

        /// The next line written (`None`: stdin closed) within `ms`.
        async fn next_within(&mut self, ms: u64) -> Option<Option<String>> {
            while self.lines.is_empty() {
                match tokio::time::timeout(Duration::from_millis(ms), self.written.recv()).await {
                    Ok(Some(Some(text))) => self.lines.extend(text.lines().map(|l| Some(l.to_string()))),
                    Ok(Some(None)) | Ok(None) => self.lines.push_back(None),
                    Err(_) => return None,
                }
            }
            self.lines.pop_front()
        }

        /// Whether stdin closes within `ms` (nothing else written meanwhile).
        async fn stdin_closes_within(&mut self, ms: u64) -> bool {
            match self.next_within(ms).await {
                Some(None) => true,
                Some(Some(line)) => panic!("wrote {line}"),
                None => false,
            }
        }

        /// The message types up to the end, and how it ended.
        async fn rest(mut self) -> (Vec<String>, Result<(), crate::error::Error>) {
            self.feed.stdout_end();
            self.feed.exited(ExitInfo {
                code: Some(0),
                signal: None,
            });
            let mut types = vec![];
            loop {
                match self.messages.next_batch(16, 1 << 20).await {
                    Some(Ok(lines)) => types.extend(lines.iter().map(|l| {
                        let v: Value = serde_json::from_slice(l).unwrap();
                        v["type"].as_str().unwrap().to_string()
                    })),
                    Some(Err(e)) => return (types, Err(e)),
                    None => return (types, Ok(())),
                }
            }
        }
    }

    /// `reinitialize()` sends the `initialize` body the session started with (kept as its text),
    /// key order and values as first written, and resolves with the CLI's answer.
    #[tokio::test]
    async fn reinitialize_sends_the_first_body_again() {
        let (tx, mut written) = mpsc::unbounded_channel();
        let (process, feed) = host_process(Arc::new(move |e| {
            if let HostProcessEvent::Write(bytes) = e {
                let _ = tx.send(String::from_utf8(bytes).unwrap());
            }
        }));
        let body =
            serde_json::json!({"subtype":"initialize","zeta":1,"alpha":{"b":[1.5,"x\u{2028}é"],"a":null},"hooks":{}});
        let started = start(
            SessionSpec {
                initialize: body.clone(),
                ..SessionSpec::for_host(process)
            },
            Arc::new(Refuse),
        )
        .unwrap();
        let text = body.to_string();
        let first = written.recv().await.unwrap();
        assert!(first.contains(&format!("\"request\":{text}}}")), "{first}");
        let again = started.handle.reinitialize();
        let second = written.recv().await.unwrap();
        assert!(second.contains(&format!("\"request\":{text}}}")), "{second}");
        let id = serde_json::from_str::<Value>(second.trim()).unwrap()["request_id"].clone();
        feed.stdout(
            format!(r#"{{"type":"control_response","response":{{"subtype":"success","request_id":{id},"response":{{"ok":1}}}}}}"#)
                .into_bytes(),
        );
        feed.stdout(b"\n".to_vec());
        assert_eq!(again.await.unwrap(), r#"{"ok":1}"#);
    }

    /// Every request with a readable id is answered under that id, byte for byte.
    #[tokio::test]
    async fn requests_under_any_json_id_are_answered_under_it() {
        let mut cli = Fake::start(false).await;
        for (line, id) in [
            (
                r#"{"type":"control_request","request_id":7,"request":{"subtype":"can_use_tool"}}"#,
                "7",
            ),
            (
                r#"{"type":"control_request","request_id":"x\ud800","request":{"subtype":"hook_callback","callback_id":"h"}}"#,
                r#""x\ud800""#,
            ),
            (
                r#"{"type":"control_request","request_id":"first","request":{"subtype":"nope"},"request_id":"last"}"#,
                r#""last""#,
            ),
            (
                r#"{"type":"control_request","request_id":"n","request":null}"#,
                r#""n""#,
            ),
        ] {
            cli.send(line);
            let answer = cli.next_written().await.unwrap();
            assert!(answer.contains(&format!(r#""request_id":{id},"#)), "{answer}");
            // (A lone surrogate is no Rust string: the line is looked at as text.)
            assert!(
                answer.starts_with(r#"{"type":"control_response","response":{"subtype":"error","#),
                "{answer}"
            );
        }
        cli.send(r#"{"type":"result","subtype":"success"}"#);
        let (types, end) = cli.rest().await;
        assert_eq!(types, ["result"]);
        assert!(end.is_ok());
    }

    /// A second answer to a request of ours (initialize's, with an error) changes nothing.
    #[tokio::test]
    async fn a_second_answer_is_ignored() {
        let cli = Fake::start(false).await;
        cli.send(&format!(
            r#"{{"type":"control_response","response":{{"subtype":"error","request_id":"{}","error":"again"}}}}"#,
            cli.init_id
        ));
        cli.send(r#"{"type":"assistant","message":{"content":[]}}"#);
        cli.send(r#"{"type":"result","subtype":"success"}"#);
        let (types, end) = cli.rest().await;
        assert_eq!(types, ["assistant", "result"]);
        assert!(end.is_ok(), "{end:?}");
    }

    /// After a result with the CLI still `running`, stdin closes unless a callback may be called.
    #[tokio::test]
    async fn stdin_closes_at_a_result_unless_a_callback_may_still_be_called() {
        for can_use_tool in [false, true] {
            let mut cli = Fake::start(can_use_tool).await;
            cli.send(r#"{"type":"system","subtype":"session_state_changed","state":"running","sdk_host_only":true}"#);
            cli.send(r#"{"type":"result","subtype":"success"}"#);
            assert_eq!(cli.stdin_closes_within(300).await, !can_use_tool);
            if can_use_tool {
                cli.send(r#"{"type":"system","subtype":"session_state_changed","state":"idle","sdk_host_only":true}"#);
                assert!(cli.stdin_closes_within(5000).await);
            }
        }
    }

    /// A result whose `errors` is a string ends the stream with an error, after what came before.
    #[tokio::test]
    async fn a_malformed_result_ends_the_stream_after_what_came_before() {
        let cli = Fake::start(false).await;
        cli.send(r#"{"type":"assistant","message":{"content":[]}}"#);
        cli.send(r#"{"type":"assistant","message":{"content":[]}}"#);
        cli.send(r#"{"type":"result","subtype":"error_during_execution","is_error":true,"errors":"boom"}"#);
        let (types, end) = cli.rest().await;
        assert_eq!(types, ["assistant", "assistant"]);
        let message = end.unwrap_err().to_string();
        assert!(message.contains("`errors` is a string"), "{message}");
    }
}
