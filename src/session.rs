//! A query's native half: starts a session through the Rust SDK's raw layer
//! (`claude_agent_sdk::raw`) and exposes its stream and controls to JavaScript.

use std::sync::{Arc, Mutex};

use claude_agent_sdk::raw::{
    self, MessageQueue, MessageText, Process, ProcessEvent, ProcessFeed, QueryConfig, Session, SessionSpec,
};
use napi::bindgen_prelude::PromiseRaw;
use napi::bindgen_prelude::{Buffer, Either};
use napi::{Env, Error, Result, Status};

use crate::diagnostics;
use crate::errors::js_error;
use crate::js_host::{DispatchJs, JsHost};
use crate::json_text::JsonArrayText;
use crate::mcp_server;

/// How many queued messages one batch may carry: one napi crossing costs tens of µs, a batch of
/// 256 about the same, so a consumer that is behind catches up cheaply. The byte bound keeps the
/// batch's string below V8's large-object size (128 KiB), so it is a cheap young-generation
/// allocation that dies right after its `JSON.parse` instead of fresh pages mapped per batch
/// (measured on `stream_1k`: ≈ 15 % more MB/s and 18 MB less peak RSS than a 1 MiB bound). A
/// larger message still crosses, alone.
const MAX_BATCH: usize = 256;
const MAX_BATCH_BYTES: usize = 96 * 1024;

#[napi(object)]
pub struct StartParams {
    /// The data part of `Options` as JSON text, parsed once into a
    /// `claude_agent_sdk::raw::QueryConfig`.
    pub options: String,
    /// The `NativeMcpServer`s this query serves, by the name the CLI knows them under.
    pub servers: Vec<ServerRef>,
    /// A string prompt; absent for streaming input.
    pub prompt: Option<String>,
    /// Forward the CLI's stderr to dispatch('stderr', ...).
    pub forward_stderr: bool,
    /// Where to look for `node_modules/@anthropic-ai/claude-code` (the package's own folder, cwd).
    pub search_from: Vec<String>,
    /// `node` or `bun`: runs a `.js` CLI when `options.executable` is not given.
    pub runtime: String,
    /// The app starts the process itself (`spawnClaudeCodeProcess`): nothing is spawned; JS gets
    /// `launchSpec()`, feeds the process's output in, and receives `stdin`/`stdin_end`/`kill`
    /// events through dispatch.
    pub host_process: Option<bool>,
}

#[napi(object)]
pub struct LaunchSpec {
    pub command: String,
    pub args: Vec<String>,
    pub cwd: Option<String>,
    pub env: std::collections::HashMap<String, String>,
}

#[napi(object)]
pub struct ServerRef {
    /// The key in `options.mcpServers`.
    pub name: String,
    /// `NativeMcpServer.id`.
    pub id: u32,
}

/// Why the stream ended with an error: the Rust SDK's error, field for field (`lib/errors.js`
/// makes the Error the stream throws of it).
#[napi(object)]
pub struct EndReason {
    pub code: String,
    pub message: String,
    pub exit_code: Option<i32>,
    pub signal: Option<String>,
    pub stderr: Option<String>,
}

impl From<&claude_agent_sdk::Error> for EndReason {
    fn from(e: &claude_agent_sdk::Error) -> Self {
        Self {
            code: e.code().into(),
            message: e.to_string(),
            exit_code: e.exit_code(),
            signal: e.signal(),
            stderr: e.stderr().map(str::to_string),
        }
    }
}

/// How the CLI process ended (`NativeSession.exitInfo()`).
#[napi(object)]
pub struct ProcessExitInfo {
    pub code: Option<i32>,
    pub signal: Option<String>,
}

#[napi]
pub struct NativeSession {
    handle: Session,
    host: Arc<JsHost>,
    /// The command line for the app's own spawn (`spawnClaudeCodeProcess`); not kept for a CLI
    /// spawned here (its environment alone is kilobytes per session).
    launch: Option<raw::LaunchSpec>,
    feed: Option<ProcessFeed>,
    messages: Arc<tokio::sync::Mutex<MessageQueue>>,
    end: Arc<Mutex<Option<claude_agent_sdk::Error>>>,
}

/// Answers a session's calls without holding the session (`NativeSession.replier()`).
#[napi]
pub struct NativeReplier {
    host: Arc<JsHost>,
}

#[napi]
impl NativeReplier {
    /// As `NativeSession.reply()`.
    #[napi]
    pub fn reply(&self, request_id: String, ok: bool, text: String) {
        self.host.reply(&request_id, if ok { Ok(text) } else { Err(text) });
    }
}

/// Answers given on this thread through `reply()` wait until [`release_answers`], then leave
/// together, one write per session (JS holds them while it answers the calls that settled in
/// one microtask checkpoint).
#[napi]
pub fn hold_answers() {
    raw::hold_answers()
}

/// Writes the answers held since [`hold_answers`].
#[napi]
pub fn release_answers() {
    raw::release_answers()
}

/// The option keys the engine takes as data (what `startSession`'s options JSON may hold).
#[napi]
pub fn option_names() -> Vec<String> {
    QueryConfig::option_names().iter().map(|n| n.to_string()).collect()
}

/// Starts a session: validates options, finds the CLI, spawns it, writes `initialize` (and the
/// prompt). Errors (bad option, no CLI) are thrown with their `code`.
#[napi(ts_args_type = "params: StartParams, dispatch: (kind: string, requestId: string, payload: string) => unknown")]
pub fn start_session(env: Env, params: StartParams, dispatch: DispatchJs<'_>) -> Result<NativeSession> {
    let invalid = |e: claude_agent_sdk::Error| js_error(&env, &e);
    let config = QueryConfig::from_json(&params.options).map_err(invalid)?;
    diagnostics::init(config.debug());
    let servers = params
        .servers
        .iter()
        .map(|s| Ok((s.name.clone(), mcp_server::lookup(s.id)?)))
        .collect::<Result<Vec<_>>>()?;
    let search: Vec<std::path::PathBuf> = params.search_from.iter().map(Into::into).collect();
    let launch = config.launch_spec(&search, &params.runtime).map_err(invalid)?;
    let host = Arc::new(JsHost::new(dispatch, params.forward_stderr)?);
    let (process, launch) = if params.host_process == Some(true) {
        let h = host.clone();
        let process = Process::HostStarted(Arc::new(move |event| {
            match event {
                ProcessEvent::Write(bytes) => h.notify("stdin", "", String::from_utf8_lossy(&bytes).into_owned()),
                ProcessEvent::End => h.notify("stdin_end", "", String::new()),
                ProcessEvent::Signal(name) => h.notify("kill", "", name),
            };
        }));
        (process, Some(launch))
    } else {
        (Process::Spawn(launch), None)
    };
    let spec = SessionSpec {
        config,
        process,
        servers,
        prompt: params.prompt,
        forward_stderr: params.forward_stderr,
        // Encoded on the engine's thread as each line is read: the JS thread only joins bytes.
        message_text: MessageText::Latin1Json,
    };
    // Spawning needs the runtime's reactor; this runs on the JS thread, which also makes it the
    // child's parent thread for PR_SET_PDEATHSIG (it lives as long as the host process).
    let started =
        napi::bindgen_prelude::within_runtime_if_available(|| raw::start(spec, host.clone())).map_err(invalid)?;
    let (handle, messages, feed) = (started.session, started.messages, started.feed);
    diagnostics::register(handle.trace_id(), &host);
    crate::worker::track(&env, &handle)?;
    Ok(NativeSession {
        handle,
        host,
        launch,
        feed,
        messages: Arc::new(tokio::sync::Mutex::new(messages)),
        end: Arc::new(Mutex::new(None)),
    })
}

#[napi]
impl NativeSession {
    /// The CLI's process id.
    #[napi(getter)]
    pub fn pid(&self) -> Option<u32> {
        self.handle.pid()
    }

    /// The command line and environment the CLI should be started with (for
    /// `spawnClaudeCodeProcess`): a session started with `hostProcess` only.
    #[napi]
    pub fn launch_spec(&self) -> Result<LaunchSpec> {
        let launch = self.launch.as_ref().ok_or_else(|| {
            Error::new(
                Status::GenericFailure,
                "launchSpec() is for a session whose process the app starts (hostProcess)",
            )
        })?;
        Ok(LaunchSpec {
            command: launch.program.clone(),
            args: launch.args.clone(),
            cwd: launch.cwd.clone(),
            env: launch.env.iter().cloned().collect(),
        })
    }

    /// JS's answer to a call dispatched as `dispatch('calls', ...)`: `ok` with the answer's JSON,
    /// or not `ok` with the message of what the user code threw. Written to the CLI from this
    /// thread.
    #[napi]
    pub fn reply(&self, request_id: String, ok: bool, text: String) {
        self.host.reply(&request_id, if ok { Ok(text) } else { Err(text) });
    }

    /// Answers calls without the session: a query with a session store keeps one, because the
    /// engine still sends the store's last batch after the query was left (and its session
    /// collected), and waits for the answer. It holds the host only, not the session.
    #[napi]
    pub fn replier(&self) -> NativeReplier {
        NativeReplier {
            host: self.host.clone(),
        }
    }

    /// Output of a host-started process.
    #[napi]
    pub fn push_stdout(&self, chunk: Buffer) {
        if let Some(f) = &self.feed {
            f.stdout(chunk.to_vec());
        }
    }

    #[napi]
    pub fn stdout_end(&self) {
        if let Some(f) = &self.feed {
            f.stdout_end();
        }
    }

    /// A host-started process exited (Node's `exit` event: code, or the signal's name).
    #[napi]
    pub fn process_exited(&self, code: Option<i32>, signal: Option<String>) {
        if let Some(f) = &self.feed {
            f.exited(code, signal.as_deref());
        }
    }

    /// The next messages as the text of one JSON array (at least one message; a single message as
    /// the text of that message alone, see [`JsonArrayText::join`]), or `null` at the
    /// end of the stream; then `endReason()` tells whether it ended with an error. One string and
    /// one `JSON.parse` per batch beat one of each per message. A message whose Latin-1 text
    /// would not fit a V8 string comes alone as a Buffer of its UTF-8 JSON text.
    #[napi(ts_return_type = "Promise<string | Buffer | null>")]
    pub async fn next_batch(&self) -> Result<Option<Either<JsonArrayText, Buffer>>> {
        let mut messages = self.messages.lock().await;
        match messages.next_chunk(MAX_BATCH, MAX_BATCH_BYTES).await {
            Some(Ok(chunk)) => Ok(Some(crossing(chunk))),
            Some(Err(e)) => {
                *self.end.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                // The stream is over for JS: no stderr chunk after it.
                self.host.end_stderr();
                Ok(None)
            }
            None => {
                self.host.end_stderr();
                Ok(None)
            }
        }
    }

    /// The messages already queued, as `nextBatch()` gives them, without waiting: `null` when
    /// none is (or at the end, which `nextBatch()` reports). A consumer that is behind takes its
    /// batches this way: a plain call, no Promise and no wake-up of the JS thread in between.
    #[napi(ts_return_type = "string | Buffer | null")]
    pub fn try_batch(&self) -> Option<Either<JsonArrayText, Buffer>> {
        let mut messages = self.messages.try_lock().ok()?;
        messages.try_chunk(MAX_BATCH, MAX_BATCH_BYTES).map(crossing)
    }

    /// Why the stream ended: `null` for a clean end.
    #[napi]
    pub fn end_reason(&self) -> Option<EndReason> {
        self.end
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .map(EndReason::from)
    }

    /// Sends a control request (JSON text of its body) and resolves with the CLI's answer's body
    /// (JSON text; the empty string when the answer has none). With
    /// `request_id` (unique among this session's requests in flight) it can be withdrawn with
    /// `cancelControl(request_id)`.
    #[napi(ts_return_type = "Promise<string>")]
    pub fn control<'env>(
        &self,
        env: &'env Env,
        body: String,
        request_id: Option<String>,
    ) -> Result<PromiseRaw<'env, String>> {
        let (body, lone): (serde_json::Value, bool) = raw::parse_js_json(&body)
            .map_err(|e| Error::new(Status::InvalidArg, format!("invalid control request: {e}")))?;
        if lone {
            self.handle.mark_lone_surrogates();
        }
        // Queued now, ahead of anything JS sends after this call returns.
        let answer = self.handle.control_as(request_id, body);
        settle(env, async move { answer.await.map(Option::unwrap_or_default) })
    }

    /// Withdraws a control request sent with a `request_id`, if it is still unanswered: the CLI
    /// gets a `control_cancel_request`, and the request's promise rejects.
    #[napi]
    pub fn cancel_control(&self, request_id: String) {
        self.handle.cancel_control(request_id);
    }

    /// Sends `initialize` again; resolves with the CLI's fresh answer.
    #[napi(ts_return_type = "Promise<string>")]
    pub fn reinitialize<'env>(&self, env: &'env Env) -> Result<PromiseRaw<'env, String>> {
        settle(env, self.handle.reinitialize())
    }

    /// The CLI's answer to `initialize`.
    #[napi(ts_return_type = "Promise<string>")]
    pub fn initialization_result<'env>(&self, env: &'env Env) -> Result<PromiseRaw<'env, String>> {
        let handle = self.handle.clone();
        settle(env, async move { handle.initialization_result().await })
    }

    /// Writes a user message (JSON text of one SDKUserMessage).
    #[napi]
    pub fn send_user_message(&self, env: Env, json: String) -> Result<()> {
        if json.contains('\n') {
            // JSON.stringify never emits raw newlines; anything else would break the framing.
            return Err(Error::new(
                Status::InvalidArg,
                "a user message must be one line of JSON",
            ));
        }
        self.handle.send_user_message(json).map_err(|e| js_error(&env, &e))
    }

    /// Replaces the in-process servers (for `setMcpServers()`).
    #[napi]
    pub fn set_sdk_servers(&self, env: Env, servers: Vec<ServerRef>) -> Result<()> {
        let servers = servers
            .iter()
            .map(|s| Ok((s.name.clone(), mcp_server::lookup(s.id)?)))
            .collect::<Result<Vec<_>>>()?;
        self.handle.set_sdk_servers(servers).map_err(|e| js_error(&env, &e))
    }

    /// A message from the in-process server `server` to the CLI (JSON text of one JSON-RPC
    /// message): a notification or a request of the server (see `SessionHandle::send_mcp_message`).
    #[napi]
    pub fn send_mcp_message(&self, env: Env, server: String, message: String) -> Result<()> {
        let (message, lone): (serde_json::Value, bool) = raw::parse_js_json(&message)
            .map_err(|e| Error::new(Status::InvalidArg, format!("invalid MCP message: {e}")))?;
        if lone {
            self.handle.mark_lone_surrogates();
        }
        self.handle
            .send_mcp_message(server, message)
            .map_err(|e| js_error(&env, &e))
    }

    #[napi]
    pub fn end_input(&self) {
        self.handle.end_input();
    }

    /// Resolves once the session is over and the CLI has exited (after `close()` too, which stops
    /// it in the background): when a store-resumed query's temporary config folder may go.
    #[napi(ts_return_type = "Promise<void>")]
    pub fn ended<'env>(&self, env: &'env Env) -> Result<PromiseRaw<'env, ()>> {
        let ended = self.handle.ended();
        env.spawn_future(async move {
            ended.await;
            Ok(())
        })
    }

    /// How the CLI process ended (`{ code, signal }`, as Node's `exit` event gives them), once it
    /// has: known when `ended()` resolves; `null` before, or when its status could not be read.
    #[napi]
    pub fn exit_info(&self) -> Option<ProcessExitInfo> {
        self.handle.exit().map(|e| ProcessExitInfo {
            code: e.code,
            signal: e.signal,
        })
    }

    /// Ends the session; the stream ends cleanly (or with an abort error) at once, and the CLI is
    /// stopped in the background.
    #[napi]
    pub fn close(&self, abort: Option<bool>) {
        // The iterator has ended for JS (break, return(), close(), abort).
        self.host.end_stderr();
        if abort == Some(true) {
            self.handle.abort();
        } else {
            self.handle.close();
        }
    }
}

/// How a chunk of messages crosses: Latin-1 batches as one string, a message too long for that
/// as its UTF-8 bytes (JS decodes and parses it).
fn crossing(chunk: raw::Chunk) -> Either<JsonArrayText, Buffer> {
    match chunk {
        raw::Chunk::Lines(batch) => Either::A(JsonArrayText::join(batch)),
        raw::Chunk::Utf8(line) => Either::B(line.into()),
    }
}

/// A Promise for an engine call: its answer, or the engine's error as a JS Error with its `code`.
fn settle<'env>(
    env: &'env Env,
    call: impl std::future::Future<Output = claude_agent_sdk::Result<String>> + Send + 'static,
) -> Result<PromiseRaw<'env, String>> {
    env.spawn_future_with_callback(async move { Ok(call.await) }, |env, outcome| {
        outcome.map_err(|e| js_error(env, &e))
    })
}
