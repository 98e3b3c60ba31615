//! What the engine asks of the program embedding it. The session never runs user code itself:
//! tool handlers, permission prompts and hooks live in the host (JavaScript, for the napi
//! binding) and are reached through [`Host`]. Payloads cross as JSON text so the binding can
//! hand them to `JSON.parse` instead of converting field by field.
//!
//! The session loop owns every call in flight (its cancellation, whether stdin may close); the
//! host holds only each call's [`Reply`] until it answers.

use std::sync::Arc;

use tokio::sync::Semaphore;

/// What the host is asked to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CallKind {
    /// A `tools/call` on an in-process MCP server. Payload:
    /// `{"server":..,"tool":..,"id":<JSON-RPC id>,"arguments":{..}?,"meta":{..}|null}` (no
    /// `arguments` when the CLI sent none). Answer: `{"result": CallToolResult}`, or
    /// `{"error":{"code","message"}}` for a JSON-RPC error. A failed call becomes an `isError`
    /// result carrying the message.
    Tool,
    /// A `can_use_tool` request; payload is the request object as the CLI sent it. Answer: a
    /// PermissionResult (`{"behavior":"allow"|"deny",...}`); a failure denies with the message.
    CanUseTool,
    /// A `hook_callback` request; payload is the request object. Answer: the hook's output; a
    /// failure is an error response with the message.
    Hook,
    /// An `elicitation` request (an MCP server asks the user for input); payload is the request
    /// object. Answer: an ElicitResult (`{"action":"accept"|"decline"|"cancel",...}`), or `null`
    /// for none (answered as a cancel).
    Elicitation,
    /// A `request_user_dialog` request; payload is the request object. Answer: the dialog's
    /// result, or `null` for none (answered with an error).
    UserDialog,
    /// The session store's `append` (the `sessionStore` option; see [`crate::session::mirror`]).
    /// Payload: `{"key":{"projectKey","sessionId","subpath"?},"entries":[..]}`. The answer is
    /// ignored; a failure is tried again, then reported in the stream as a `mirror_error`.
    StoreAppend,
    /// A request from the CLI that an optional host handler answers: `oauth_token_refresh`,
    /// `host_auth_token_refresh` (the `getOAuthToken` / `getHostAuthToken` options),
    /// `remote_control_work_secret` (`enableRemoteControl()`'s `refreshWorkSecret`) and the
    /// `ui_*` requests (`setUiHost()`). Payload: the request object as the CLI sent it. Answer: an
    /// envelope, `{"response": BODY}` (no `response`: a success without a body) or
    /// `{"error": MESSAGE, "error_code"?: CODE}`; a failure is an error response with the message.
    HostRequest,
    /// A Codex app-server request for the user (approvals, `requestUserInput`, MCP elicitation;
    /// see [`crate::codex`]). Payload: `{"method":..,"params":..}` as Codex sent them. Answer: the
    /// JSON-RPC result as Codex expects it; a failure gives the method's safe default (a decline).
    CodexRequest,
}

impl CallKind {
    /// The name the host sees the call under.
    pub fn as_str(self) -> &'static str {
        match self {
            CallKind::Tool => "tool",
            CallKind::CanUseTool => "can_use_tool",
            CallKind::Hook => "hook_callback",
            CallKind::Elicitation => "elicitation",
            CallKind::UserDialog => "request_user_dialog",
            CallKind::StoreAppend => "store_append",
            CallKind::HostRequest => "host_request",
            CallKind::CodexRequest => "codex_request",
        }
    }
}

/// One call into user code. `request_id` is the CLI's id for the control request: it names the
/// call in [`Host::cancel`]. `request_id_json` is that id as the CLI wrote it, when it is not a
/// plain string (a number, or a string with escapes such as a lone surrogate): user code that is
/// shown the id (`canUseTool`'s `requestId`, elicitation and dialog callbacks) gets that value,
/// as the official SDK passes it through.
#[derive(Debug, Clone)]
pub struct HostCall {
    pub request_id: String,
    pub request_id_json: Option<Box<str>>,
    pub kind: CallKind,
    pub payload: String,
}

/// How a call ended: `Ok` with the answer as JSON text, or `Err` with the message of what the
/// user code threw.
pub type HostResult = Result<String, String>;

/// How a call is answered: once, from any thread. The answer becomes the control response and
/// is written to the CLI right there (the round trip costs no wake-up of another thread), and
/// the session loop, which owns the call's state, learns that it finished. A `Reply` dropped
/// unanswered answers with an error: the CLI is never left waiting on silence.
pub struct Reply {
    request_id: String,
    send: Option<Box<dyn FnOnce(HostResult) + Send>>,
}

impl Reply {
    /// A reply that runs `send` with the outcome (the session builds these).
    pub fn new(request_id: String, send: impl FnOnce(HostResult) + Send + 'static) -> Self {
        Self {
            request_id,
            send: Some(Box::new(send)),
        }
    }

    pub fn request_id(&self) -> &str {
        &self.request_id
    }

    pub fn send(mut self, result: HostResult) {
        if let Some(send) = self.send.take() {
            send(result);
        }
    }
}

impl Drop for Reply {
    fn drop(&mut self) {
        if let Some(send) = self.send.take() {
            send(Err("The SDK host ended the call without answering it".to_string()));
        }
    }
}

impl std::fmt::Debug for Reply {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reply")
            .field("request_id", &self.request_id)
            .finish_non_exhaustive()
    }
}

/// The program that runs user code for a session.
pub trait Host: Send + Sync + 'static {
    /// Runs user code for each call and answers each through its [`Reply`], now or later, from
    /// any thread. The calls of one burst (the CLI's parallel tool calls) come together. Must
    /// return without waiting for the user code.
    fn invoke(&self, calls: Vec<(HostCall, Reply)>);

    /// The CLI withdrew the request, or the session ended: fire the call's abort signal. Its
    /// answer, if one still comes, is still written.
    fn cancel(&self, request_id: &str);

    /// A chunk of the CLI's stderr, for hosts that asked for it.
    fn stderr(&self, _chunk: &str) {}

    /// For a host that delivers stderr later, on another thread (a JavaScript host: its event loop
    /// may be busy): the gate that bounds what it holds undelivered. Each chunk waits for room
    /// before [`Host::stderr`] gets it, so a flood waits in the pipe (the CLI's writes block) rather
    /// than in memory. `None` (the default): chunks are taken as they come.
    fn stderr_gate(&self) -> Option<Arc<StderrGate>> {
        None
    }

    /// The session is over and will make no more calls: drop whatever keeps the host busy
    /// (unanswered replies answer with an error as they drop).
    fn release(&self) {}

    /// The session is over for its consumer, but it still makes calls in the background (a store
    /// mirror's last appends): from now on nothing it left pending may keep the host process
    /// alive (an append that never settles is abandoned if the process has nothing else to do).
    /// [`Host::release`] follows once those calls are done.
    fn detach(&self) {}
}

/// Bounds the stderr a host holds undelivered ([`Host::stderr_gate`]), in bytes. The session's
/// stderr reader takes room for a chunk before it hands the chunk over; the host gives the room
/// back once the chunk is delivered (or dropped). Closed, it hands nothing more over and waits
/// for nothing: the reader goes on reading (keeping only the tail for error messages).
///
/// It cannot deadlock the session: only the stderr reader waits on it, and room comes back from
/// the host's own thread as it runs, not from anything the CLI or the session loop does. A CLI
/// blocked writing stderr while the loop waits for its stdout stays blocked only until the host's
/// thread takes the chunks it holds; the loop itself never waits on stderr (it gives the reader at
/// most a moment at the end), and closing the gate frees the reader at once.
#[derive(Debug)]
pub struct StderrGate {
    room: Semaphore,
    /// Its size: a chunk larger than the whole gate takes all of it.
    bytes: usize,
}

impl StderrGate {
    /// What a JavaScript host may hold undelivered: small next to the 64 KiB a pipe holds times
    /// the chunks in flight, large enough that a host keeping up never makes the reader wait.
    pub const BYTES: usize = 256 * 1024;

    pub fn new(bytes: usize) -> Arc<Self> {
        let bytes = bytes.clamp(1, Semaphore::MAX_PERMITS);
        Arc::new(Self {
            room: Semaphore::new(bytes),
            bytes,
        })
    }

    fn cost(&self, len: usize) -> u32 {
        len.clamp(1, self.bytes.min(u32::MAX as usize)) as u32
    }

    /// Waits for room for a chunk of `len` bytes; false once the gate is closed.
    pub async fn room(&self, len: usize) -> bool {
        match self.room.acquire_many(self.cost(len)).await {
            Ok(permit) => {
                permit.forget();
                true
            }
            Err(_) => false,
        }
    }

    /// A chunk of `len` bytes the reader had room for was delivered or dropped.
    pub fn delivered(&self, len: usize) {
        if !self.room.is_closed() {
            self.room.add_permits(self.cost(len) as usize);
        }
    }

    /// Nothing more is delivered: the query's stream has ended, or the host is gone.
    pub fn close(&self) {
        self.room.close()
    }

    pub fn is_closed(&self) -> bool {
        self.room.is_closed()
    }
}
