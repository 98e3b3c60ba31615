//! A started session as a host drives it: its controls ([`Session`]) and its messages
//! ([`MessageQueue`]).

use std::future::Future;

use agent_core::session::{AbortHandle as CoreAbort, Chunk as CoreChunk, Messages, SessionHandle};
use serde_json::Value;

use super::error;
use super::server::ServerDef;
use crate::error::Result;

/// Controls a running session. Cheap to clone; when the last clone is dropped the session ends
/// as if closed, so a forgotten session cannot leave a CLI running.
#[derive(Clone)]
pub struct Session(pub(super) SessionHandle);

impl Session {
    /// The CLI's process id (`None` for a host-started process).
    pub fn pid(&self) -> Option<u32> {
        self.0.pid()
    }

    /// The `sid` field of the `session` tracing span every diagnostic event of this session is
    /// in, so a host can route a session's diagnostics to that query's own output.
    pub fn trace_id(&self) -> u64 {
        self.0.trace_id()
    }

    /// Sends a control request (`{"subtype": "interrupt", ...}`); resolves with the CLI's answer
    /// as JSON text (`{}` when it has no body). The request is queued when this is called, not
    /// when the future is first polled: it reaches the CLI ahead of anything sent after this
    /// returns.
    pub fn control(&self, body: Value) -> impl Future<Output = Result<String>> + Send + 'static {
        let answer = self.0.control(body);
        async move { answer.await.map_err(error) }
    }

    /// [`control`](Self::control) under a request id the caller chose (unique among its requests
    /// in flight), so that [`cancel_control`](Self::cancel_control) can withdraw it.
    /// Resolves with the answer's body, `None` when the CLI wrote none.
    pub fn control_as(
        &self,
        id: Option<String>,
        body: Value,
    ) -> impl Future<Output = Result<Option<String>>> + Send + 'static {
        let answer = self.0.control_as(id, body);
        async move { answer.await.map_err(error) }
    }

    /// What is sent from now on holds strings read masked from JSON with lone surrogates
    /// ([`parse_js_json`](super::parse_js_json)): they reach the CLI as their escapes.
    pub fn mark_lone_surrogates(&self) {
        self.0.mark_lone_surrogates()
    }

    /// Withdraws the control request `id` (see [`control_as`](Self::control_as)) if the CLI has not
    /// answered it: the CLI gets a `control_cancel_request`, the request's future fails.
    pub fn cancel_control(&self, id: String) {
        self.0.cancel_control(id)
    }

    /// Sends `initialize` again; resolves with the CLI's fresh answer (queued at once, as
    /// [`control`](Self::control)).
    pub fn reinitialize(&self) -> impl Future<Output = Result<String>> + Send + 'static {
        let answer = self.0.reinitialize();
        async move { answer.await.map_err(error) }
    }

    /// The CLI's answer to `initialize` (JSON text), once it has come.
    pub async fn initialization_result(&self) -> Result<String> {
        self.0.initialization_result().await.map_err(error)
    }

    /// Writes a user message: one JSON object (an `SDKUserMessage`) on one line.
    pub fn send_user_message(&self, json: String) -> Result<()> {
        self.0.send_user_message(json).map_err(error)
    }

    /// Replaces the in-process servers the session routes `mcp_message` requests to, by the name
    /// the CLI knows each under. Tell the CLI with an `mcp_set_servers` control request after
    /// this; it is ordered after the change.
    pub fn set_sdk_servers(&self, servers: Vec<(String, ServerDef)>) -> Result<()> {
        self.0
            .set_sdk_servers(servers.into_iter().map(|(name, s)| (name, s.0)).collect())
            .map_err(error)
    }

    /// Sends a JSON-RPC message from the in-process server `server` to the CLI: a notification
    /// (`notifications/tools/list_changed`, progress, logging) or a request of the server, whose
    /// answer comes back to the host as a [`ServerAction::Notify`](super::ServerAction::Notify).
    pub fn send_mcp_message(&self, server: String, message: Value) -> Result<()> {
        self.0.send_mcp_message(server, message).map_err(error)
    }

    /// No more user messages: stdin closes once the session is idle and no call is pending.
    pub fn end_input(&self) {
        self.0.end_input()
    }

    /// Ends the session now: the messages end cleanly, the CLI is stopped in the background.
    pub fn close(&self) {
        self.0.close()
    }

    /// As [`close`](Self::close), but the messages end with [`Error::Aborted`](crate::Error::Aborted),
    /// after those the CLI wrote before the abort took effect (see [`QueryControl::abort`](crate::QueryControl::abort)).
    pub fn abort(&self) {
        self.0.abort()
    }

    /// A handle that can only abort the session and does not keep it alive.
    pub fn abort_handle(&self) -> AbortHandle {
        AbortHandle(self.0.abort_handle())
    }

    /// Resolves once the session is over and its CLI has exited (been reaped); after a
    /// [`close`](Self::close) too, which stops the CLI in the background. The future does not
    /// keep the session alive.
    pub fn ended(&self) -> impl Future<Output = ()> + Send + 'static {
        self.0.ended()
    }

    /// How the CLI process ended, once it has (known when [`ended`](Self::ended) resolves,
    /// unless the exit status could not be read); `None` before.
    pub fn exit(&self) -> Option<ProcessExit> {
        self.0.exit().map(|e| ProcessExit {
            code: e.code,
            signal: e.signal.map(agent_core::cli::signal::name),
        })
    }
}

/// How the CLI process ended: its exit code, or the signal that ended it (Node's name for it,
/// `SIGKILL`), as Node's `exit` event reports them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcessExit {
    /// The exit code (`None` when a signal ended the process).
    pub code: Option<i32>,
    /// The signal that ended it (`None` when it exited by itself).
    pub signal: Option<String>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("pid", &self.pid())
            .field("trace_id", &self.trace_id())
            .finish_non_exhaustive()
    }
}

/// Aborts a session without keeping it alive (see [`Session::abort_handle`]).
#[derive(Clone)]
pub struct AbortHandle(CoreAbort);

impl AbortHandle {
    /// As [`Session::abort`]; nothing if the session is gone.
    pub fn abort(&self) {
        self.0.abort()
    }

    /// Whether the session can still be reached (some [`Session`] is alive).
    pub fn is_alive(&self) -> bool {
        self.0.is_alive()
    }
}

impl std::fmt::Debug for AbortHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AbortHandle").field("alive", &self.is_alive()).finish()
    }
}

/// The session's messages, each the JSON text of one line the CLI wrote (in the encoding the
/// session was started with, [`MessageText`](super::MessageText)), taken in batches. The queue
/// holds at most a few MiB: the CLI's output is not read further until the consumer catches up.
pub struct MessageQueue(pub(super) Messages);

impl MessageQueue {
    /// Waits for at least one message, then takes what else is queued, up to `max` messages and
    /// `max_bytes` bytes. `None` at the clean end; the session's error after the messages that
    /// preceded it.
    pub async fn next_batch(&mut self, max: usize, max_bytes: usize) -> Option<Result<Vec<Vec<u8>>>> {
        self.0.next_batch(max, max_bytes).await.map(|r| r.map_err(error))
    }

    /// The messages already queued, without waiting (same bounds): `None` when none is, or at the
    /// end, which only [`next_batch`](Self::next_batch) reports.
    pub fn try_batch(&mut self, max: usize, max_bytes: usize) -> Option<Vec<Vec<u8>>> {
        self.0.try_batch(max, max_bytes)
    }

    /// As [`next_batch`](Self::next_batch), for [`MessageText::Latin1Json`](super::MessageText::Latin1Json):
    /// a message whose Latin-1 text would be too long for a JavaScript string comes alone, as UTF-8
    /// ([`Chunk::Utf8`]).
    pub async fn next_chunk(&mut self, max: usize, max_bytes: usize) -> Option<Result<Chunk>> {
        self.0
            .next_chunk(max, max_bytes)
            .await
            .map(|r| r.map(Chunk::from).map_err(error))
    }

    /// As [`try_batch`](Self::try_batch), in chunks (see [`next_chunk`](Self::next_chunk)).
    pub fn try_chunk(&mut self, max: usize, max_bytes: usize) -> Option<Chunk> {
        self.0.try_chunk(max, max_bytes).map(Chunk::from)
    }
}

/// Messages taken from a [`MessageQueue`] by [`next_chunk`](MessageQueue::next_chunk).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Chunk {
    /// Messages in the session's encoding.
    Lines(Vec<Vec<u8>>),
    /// One message as UTF-8 JSON text, in Latin-1 mode: its Latin-1 text would be too long for a
    /// JavaScript string.
    Utf8(Vec<u8>),
}

impl From<CoreChunk> for Chunk {
    fn from(c: CoreChunk) -> Self {
        match c {
            CoreChunk::Lines(lines) => Chunk::Lines(lines),
            CoreChunk::Utf8(line) => Chunk::Utf8(line),
        }
    }
}

impl std::fmt::Debug for MessageQueue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MessageQueue").finish_non_exhaustive()
    }
}
