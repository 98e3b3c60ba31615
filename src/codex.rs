//! A Codex thread's native half (`claude-agent-sdk-native/codex`): starts `codex app-server`
//! through the Rust SDK's raw layer (`claude_agent_sdk::raw::codex`) with the same in-process
//! servers and the same `dispatch` host a query uses, and hands JS its requests' results and its
//! events (already mapped to `@openai/codex-sdk`'s `ThreadEvent`s, per thread).

use std::collections::HashMap;
use std::sync::Arc;

use claude_agent_sdk::raw::codex::{
    self, CodexCallbacks, CodexError, CodexEvent, CodexEvents, CodexSession, CodexSpec, EventMapper, TurnEnd,
};
use claude_agent_sdk::raw::LaunchSpec;
use napi::bindgen_prelude::{JsObjectValue, PromiseRaw, ToNapiValue};
use napi::{Env, Error, Result, Status};
use serde_json::{json, Value};

use crate::js_host::{DispatchJs, JsHost};
use crate::mcp_server;
use crate::session::ServerRef;

#[napi(object)]
pub struct CodexStartParams {
    /// `codexPathOverride`.
    pub codex_path: Option<String>,
    /// Where to look for `node_modules/@openai/codex-<platform>` (the package's folder, cwd).
    pub search_from: Vec<String>,
    /// `-c key=value` overrides (TOML values), in order.
    pub config_overrides: Vec<String>,
    /// The whole environment of the process.
    pub env: HashMap<String, String>,
    pub cwd: Option<String>,
    pub servers: Vec<ServerRef>,
    /// Which requests JS answers: `commandApproval`, `fileChangeApproval`, `permissionsApproval`,
    /// `userInput`, `elicitation`.
    pub callbacks: Vec<String>,
    pub forward_stderr: bool,
    pub client_version: String,
    pub initialize_timeout_ms: Option<u32>,
}

#[napi]
pub struct NativeCodex {
    session: CodexSession,
    host: Arc<JsHost>,
    events: Arc<tokio::sync::Mutex<Stream>>,
}

struct Stream {
    events: CodexEvents,
    mappers: HashMap<String, EventMapper>,
    ended: bool,
}

/// The JS Error for a Codex error: its message, stable `code`, and the exit fields.
fn codex_error(env: &Env, e: &CodexError) -> Error {
    let build = || -> Result<Error> {
        let mut err = env.create_error(Error::new(Status::GenericFailure, e.to_string()))?;
        err.set_named_property("code", e.code())?;
        if let CodexError::Request { code, .. } = e {
            err.set_named_property("rpcCode", *code)?;
        }
        crate::errors::set_exit_fields(&mut err, e.exit_code(), e.signal(), e.stderr())?;
        Ok(Error::from(err.into_unknown(env)?))
    };
    build().unwrap_or_else(|failed| failed)
}

fn error_json(e: &CodexError) -> Value {
    json!({ "code": e.code(), "message": e.to_string(), "exitCode": e.exit_code(), "signal": e.signal(), "stderr": e.stderr() })
}

/// Starts `codex app-server` and writes `initialize`. Errors (no Codex, bad option) are thrown
/// with their `code`.
#[napi(
    ts_args_type = "params: CodexStartParams, dispatch: (kind: string, requestId: string, payload: string) => unknown"
)]
pub fn start_codex(env: Env, params: CodexStartParams, dispatch: DispatchJs<'_>) -> Result<NativeCodex> {
    let search: Vec<std::path::PathBuf> = params.search_from.iter().map(Into::into).collect();
    let path_var = params.env.get("PATH").cloned().or_else(|| std::env::var("PATH").ok());
    let program = codex::find_codex(params.codex_path.as_deref(), &search, path_var.as_deref())
        .map_err(|e| codex_error(&env, &e))?;
    let servers = params
        .servers
        .iter()
        .map(|s| Ok((s.name.clone(), mcp_server::lookup(s.id)?)))
        .collect::<Result<Vec<_>>>()?;
    let has = |k: &str| params.callbacks.iter().any(|c| c == k);
    let callbacks = CodexCallbacks {
        command_approval: has("commandApproval"),
        file_change_approval: has("fileChangeApproval"),
        permissions_approval: has("permissionsApproval"),
        user_input: has("userInput"),
        elicitation: has("elicitation"),
    };
    let host = Arc::new(JsHost::new(dispatch, params.forward_stderr)?);
    host.unref(&env)?;
    let spec = CodexSpec {
        launch: LaunchSpec {
            program: program.to_string_lossy().into_owned(),
            args: codex::app_server_args(&params.config_overrides),
            env: params.env.into_iter().collect(),
            cwd: params.cwd,
        },
        servers,
        callbacks,
        forward_stderr: params.forward_stderr,
        client_name: "claude_agent_sdk_native".into(),
        client_version: params.client_version,
        initialize_timeout: params
            .initialize_timeout_ms
            .map(|ms| std::time::Duration::from_millis(ms.into()))
            .unwrap_or(codex::DEFAULT_INITIALIZE_TIMEOUT),
    };
    let started = napi::bindgen_prelude::within_runtime_if_available(|| codex::start(spec, host.clone()))
        .map_err(|e| codex_error(&env, &e))?;
    Ok(NativeCodex {
        session: started.session,
        host,
        events: Arc::new(tokio::sync::Mutex::new(Stream {
            events: started.events,
            mappers: HashMap::new(),
            ended: false,
        })),
    })
}

fn settle<'env>(
    env: &'env Env,
    call: impl std::future::Future<Output = std::result::Result<String, CodexError>> + Send + 'static,
) -> Result<PromiseRaw<'env, String>> {
    env.spawn_future_with_callback(async move { Ok(call.await) }, |env, outcome| {
        outcome.map_err(|e| codex_error(env, &e))
    })
}

/// One event for JS (see `nextEvents`).
fn entry(stream: &mut Stream, event: CodexEvent) -> Value {
    match event {
        CodexEvent::Notification { method, params } => {
            let p: Value = serde_json::from_str(&params).unwrap_or(Value::Null);
            let thread = p["threadId"]
                .as_str()
                .or(p["thread"]["id"].as_str())
                .unwrap_or("")
                .to_string();
            let (events, end) = stream.mappers.entry(thread).or_default().map(&method, &p);
            let end = end.map(|e| match e {
                TurnEnd::Completed => json!("completed"),
                TurnEnd::Failed(m) => json!({ "failed": m }),
                TurnEnd::Interrupted => json!("interrupted"),
            });
            json!({ "method": method, "params": p, "events": events, "turnEnd": end })
        }
        CodexEvent::Warning(message) => json!({ "warning": message }),
        CodexEvent::End(outcome) => {
            stream.ended = true;
            json!({ "end": outcome.err().map(|e| error_json(&e)) })
        }
    }
}

#[napi]
impl NativeCodex {
    /// The app-server's process id.
    #[napi(getter)]
    pub fn pid(&self) -> Option<u32> {
        self.session.pid()
    }

    /// `initialize`'s result (JSON text).
    #[napi(ts_return_type = "Promise<string>")]
    pub fn initialized<'env>(&self, env: &'env Env) -> Result<PromiseRaw<'env, String>> {
        let s = self.session.clone();
        settle(env, async move { s.initialized().await })
    }

    /// A JSON-RPC request (`params` as JSON text); resolves with the result's JSON text.
    #[napi(ts_return_type = "Promise<string>")]
    pub fn request<'env>(&self, env: &'env Env, method: String, params: String) -> Result<PromiseRaw<'env, String>> {
        let s = self.session.clone();
        settle(env, async move { s.request(&method, params).await })
    }

    /// `thread/start` with the in-process servers' `dynamicTools` added.
    #[napi(ts_return_type = "Promise<string>")]
    pub fn start_thread<'env>(&self, env: &'env Env, params: String) -> Result<PromiseRaw<'env, String>> {
        let s = self.session.clone();
        settle(env, async move { s.start_thread(&params).await })
    }

    /// The `dynamicTools` the in-process servers declare (JSON text).
    #[napi]
    pub fn dynamic_tools(&self) -> String {
        Value::Array(self.session.dynamic_tools()).to_string()
    }

    /// The events ready, as the JSON text of an array (waits for at least one); `null` once the
    /// end was delivered. Each entry: `{method, params, events, turnEnd}` for a notification
    /// (`events`: the `ThreadEvent`s it maps to), `{warning}`, or `{end: null | error}`.
    #[napi(ts_return_type = "Promise<string | null>")]
    pub fn next_events<'env>(&self, env: &'env Env) -> Result<PromiseRaw<'env, Option<String>>> {
        let stream = self.events.clone();
        env.spawn_future(async move {
            let mut stream = stream.lock().await;
            if stream.ended {
                return Ok(None);
            }
            let Some(first) = stream.events.recv().await else {
                return Ok(None);
            };
            let mut out = vec![entry(&mut stream, first)];
            while !stream.ended && out.len() < 256 {
                match stream.events.try_recv() {
                    Some(e) => {
                        let v = entry(&mut stream, e);
                        out.push(v);
                    }
                    None => break,
                }
            }
            Ok(Some(Value::Array(out).to_string()))
        })
    }

    /// JS's answer to a call dispatched as `dispatch('calls', ...)`.
    #[napi]
    pub fn reply(&self, request_id: String, ok: bool, text: String) {
        self.host.reply(&request_id, if ok { Ok(text) } else { Err(text) });
    }

    /// Ends the session: Codex is stopped, running calls are cancelled.
    #[napi]
    pub fn close(&self) {
        self.session.close();
    }
}

impl Drop for NativeCodex {
    fn drop(&mut self) {
        self.session.close();
    }
}
