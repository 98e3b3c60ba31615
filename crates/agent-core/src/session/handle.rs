use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde_json::Value;

use crate::mcp::McpServerDef;
use tokio::sync::{mpsc, oneshot, watch};

use crate::error::Error;

/// Commands wait in an unbounded channel whose first block (32 slots) every session allocates
/// up front, so the rare large ones are boxed: the enum stays at 32 bytes.
pub(crate) enum Command {
    /// A control request of ours.
    Control(Box<ControlCommand>),
    /// Withdraws a control request of ours still unanswered (see [`SessionHandle::cancel_control`]).
    CancelControl(String),
    UserMessage(String),
    SetServers(Vec<(String, Arc<McpServerDef>)>),
    /// A message from an in-process MCP server to the CLI (see [`SessionHandle::send_mcp_message`]).
    McpMessage(Box<(String, Value)>),
    EndInput,
    Close {
        abort: bool,
    },
}

/// A control request; `id` is its request id when the caller chose one (to cancel it later).
pub(crate) struct ControlCommand {
    pub body: Value,
    pub reply: oneshot::Sender<Result<Option<String>, Error>>,
    pub id: Option<String>,
}

/// The outcome of `initialize`: `None` while waiting, then the CLI's answer (JSON text) or error.
pub(crate) type InitState = Option<Result<String, Error>>;

/// Controls a running session. Cheap to clone; when the last clone is dropped the session ends
/// as if closed, so a forgotten query cannot leave a CLI running.
#[derive(Clone)]
pub struct SessionHandle {
    pub(crate) cmd: mpsc::UnboundedSender<Command>,
    pub(crate) init: watch::Receiver<InitState>,
    pub(crate) pid: Option<u32>,
    pub(crate) trace_id: u64,
    /// The `initialize` body as JSON text, for `reinitialize()` (text: a `Value` of the servers'
    /// manifests costs every session kilobytes of maps for the rare second send).
    pub(crate) initialize: Arc<str>,
    pub(crate) abort_now: AbortNow,
    /// How the process ended, once it has (see [`SessionHandle::exit`]).
    pub(crate) exit: Arc<std::sync::OnceLock<crate::cli::child::ExitInfo>>,
}

/// What an abort does at once, on the caller's thread, before the session loop hears of it.
#[derive(Clone)]
pub(crate) struct AbortNow {
    /// The CLI's stdin: closed, so no answer a callback gives as its signal fires reaches the CLI
    /// (the official SDK refuses writes once aborted).
    pub(crate) writer: Arc<crate::session::writer::StdinWriter>,
    /// The consumer's end becomes [`Error::Aborted`] (see `Messages::abort_mark`).
    pub(crate) mark: Arc<AtomicBool>,
}

impl AbortNow {
    /// Aborts: `close` tells the session loop (no-op when it is gone). The loop hears of it
    /// before stdin closes, so it reads nothing the CLI writes in answer to its input's end as
    /// ordinary output (the drain after an abort counts the tool results in it).
    fn fire(&self, close: impl FnOnce()) {
        self.mark.store(true, Ordering::Release);
        close();
        self.writer.abort();
    }
}

fn closed() -> Error {
    Error::SessionClosed("The query has ended; no further requests can be sent to Claude Code".into())
}

impl SessionHandle {
    /// The CLI's process id.
    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// The `sid` field of the `session` span all of this session's diagnostics are in.
    pub fn trace_id(&self) -> u64 {
        self.trace_id
    }

    /// Sends a control request (`{"subtype": "interrupt", ...}`); the future resolves with the
    /// CLI's answer, as JSON text (`{}` when the answer has no body). The request is queued when
    /// this is called, not when the future is first polled: it goes to the CLI ahead of anything
    /// sent after this returns (a user message right behind a `claim_session`, say).
    pub fn control(&self, body: Value) -> impl std::future::Future<Output = Result<String, Error>> + Send + 'static {
        let answer = self.control_as(None, body);
        async move { answer.await.map(|body| body.unwrap_or_else(|| "{}".into())) }
    }

    /// [`control`](Self::control) under a request id the caller chose (unique among its requests
    /// in flight), so that [`cancel_control`](Self::cancel_control) can withdraw it; resolves with
    /// the answer's body as the CLI wrote it, `None` when it wrote none (the official SDK's
    /// `response` is then `undefined`).
    pub fn control_as(
        &self,
        id: Option<String>,
        body: Value,
    ) -> impl std::future::Future<Output = Result<Option<String>, Error>> + Send + 'static {
        let (reply, rx) = oneshot::channel();
        let sent = self
            .cmd
            .send(Command::Control(Box::new(ControlCommand { body, reply, id })));
        async move {
            sent.map_err(|_| closed())?;
            rx.await.map_err(|_| closed())?
        }
    }

    /// Withdraws the control request `id` (sent with [`control_as`](Self::control_as)) if the CLI
    /// has not answered it yet: the CLI is told with a `control_cancel_request`, as the official SDK
    /// tells it when a request's AbortSignal fires, and the request's future fails. Its answer, if
    /// one still comes, is dropped.
    pub fn cancel_control(&self, id: String) {
        let _ = self.cmd.send(Command::CancelControl(id));
    }

    /// Sends the `initialize` request again; the future resolves with the CLI's fresh answer
    /// (queued at once, as [`control`](Self::control)).
    pub fn reinitialize(&self) -> impl std::future::Future<Output = Result<String, Error>> + Send + 'static {
        // Text this session wrote from a `Value`: it reads back as that value.
        let body = serde_json::from_str(&self.initialize).unwrap_or(Value::Null);
        self.control(body)
    }

    /// What this session sends from now on holds strings read masked (JSON from JS with a lone
    /// surrogate, see [`crate::sessions::surrogate::from_js`]): they reach the CLI as their
    /// escapes, as `JSON.stringify` wrote them. Call it before sending such a value.
    pub fn mark_lone_surrogates(&self) {
        self.abort_now.writer.mark_lone_surrogates();
    }

    /// Writes a user message (one JSON object, no trailing newline needed).
    pub fn send_user_message(&self, json: String) -> Result<(), Error> {
        self.cmd.send(Command::UserMessage(json)).map_err(|_| closed())
    }

    /// Replaces the in-process servers this session routes `mcp_message` to (for `setMcpServers()`;
    /// the caller then tells the CLI with an `mcp_set_servers` request, which this orders after).
    pub fn set_sdk_servers(&self, servers: Vec<(String, Arc<McpServerDef>)>) -> Result<(), Error> {
        self.cmd.send(Command::SetServers(servers)).map_err(|_| closed())
    }

    /// Sends a message from the in-process server `server` (the name the CLI knows it under) to the
    /// CLI — a notification (`notifications/tools/list_changed`, progress, logging) or a request
    /// (`elicitation/create`, whose answer comes back as an `mcp_message` for the server) — as the
    /// official SDK does: a `mcp_message` control request whose own answer carries nothing.
    pub fn send_mcp_message(&self, server: String, message: Value) -> Result<(), Error> {
        self.cmd
            .send(Command::McpMessage(Box::new((server, message))))
            .map_err(|_| closed())
    }

    /// No more user messages: stdin closes once the session is idle and no callback is pending.
    pub fn end_input(&self) {
        let _ = self.cmd.send(Command::EndInput);
    }

    /// Ends the session now: the stream ends cleanly, the CLI is stopped in the background.
    pub fn close(&self) {
        let _ = self.cmd.send(Command::Close { abort: false });
    }

    /// Like [`close`](Self::close), but the stream ends with [`Error::Aborted`].
    ///
    /// The messages the CLI wrote before the abort took effect are still delivered, then the
    /// error: what it had written, and — when one of its requests (a tool call, a permission
    /// prompt, a hook) was running in the host — what it writes as it stops (the interrupted tool
    /// result), for a moment at most. The stream ends with [`Error::Aborted`] whenever the abort
    /// comes before the consumer has taken the end, however the session ended.
    pub fn abort(&self) {
        self.abort_now.fire(|| {
            let _ = self.cmd.send(Command::Close { abort: true });
        });
    }

    /// A handle that can only abort the session, and does not keep it alive: when every
    /// [`SessionHandle`] is gone the session ends anyway.
    pub fn abort_handle(&self) -> AbortHandle {
        AbortHandle(self.cmd.downgrade(), self.abort_now.clone())
    }

    /// The CLI's answer to `initialize` (commands, models, account, ...), once it has come.
    pub async fn initialization_result(&self) -> Result<String, Error> {
        let mut rx = self.init.clone();
        let state = rx.wait_for(Option::is_some).await.map_err(|_| closed())?;
        state.clone().expect("waited for Some")
    }

    /// How the CLI process ended: `None` until it has exited and been reaped (after
    /// [`ended`](Self::ended) resolves it is known, unless the status could not be read).
    pub fn exit(&self) -> Option<crate::cli::child::ExitInfo> {
        self.exit.get().copied()
    }

    /// Resolves once the session's loop is over: the CLI has exited and been reaped (after a
    /// `close()` too, which stops it in the background). What a resumed session's temporary
    /// config folder waits for before it is removed, as the official waits for the CLI's exit.
    /// Does not keep the session alive.
    pub fn ended(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        // The loop owns the sending end of `init` and drops it as it returns; a receiver does not
        // keep the loop alive.
        let mut rx = self.init.clone();
        async move { while rx.changed().await.is_ok() {} }
    }
}

/// Aborts a session without keeping it alive (see [`SessionHandle::abort_handle`]).
#[derive(Clone)]
pub struct AbortHandle(mpsc::WeakUnboundedSender<Command>, AbortNow);

impl AbortHandle {
    /// As [`SessionHandle::abort`] (a consumer that has not taken the end yet gets
    /// [`Error::Aborted`] even once the session is gone).
    pub fn abort(&self) {
        self.1.fire(|| {
            if let Some(cmd) = self.0.upgrade() {
                let _ = cmd.send(Command::Close { abort: true });
            }
        });
    }

    /// The session can still be reached (some [`SessionHandle`] is alive).
    pub fn is_alive(&self) -> bool {
        self.0.strong_count() > 0
    }
}
