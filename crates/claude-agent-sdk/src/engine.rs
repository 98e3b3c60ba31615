//! The high-level [`query`](crate::query) on the raw layer ([`crate::raw`]): converts
//! [`Options`] to a [`QueryConfig`] (the engine's options, named as the TypeScript SDK names
//! them), starts the session, and answers its calls into user code (tool handlers, the
//! permission callback, hooks, elicitation and dialog callbacks) by running the Rust closures on
//! the tokio runtime. Besides [`crate::raw`], the only module that names the engine
//! (`agent-core`), for its options struct.

use std::collections::{HashMap, VecDeque};
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

use agent_core::options::QueryOptions;
use futures::future::{AbortHandle, BoxFuture};
use futures::stream::BoxStream;
use futures::{FutureExt, StreamExt};
use serde::Deserialize;
use serde_json::{json, Map, Value};

use crate::dialog::{ElicitationFn, ElicitationRequest, UserDialogFn, UserDialogRequest};
use crate::error::{Error, Result};
use crate::hooks::{HookFn, HookInput};
use crate::message::Message;
use crate::options::{Options, StderrFn};
use crate::permission::{CanUseToolFn, PermissionContext};
use crate::raw::{self, Call, CallKind, CallResult, MessageQueue, Process, QueryConfig, Reply, SessionSpec};
use crate::server::McpServer;
use crate::store::api::SessionStore;
use crate::store::folder::ResumeDir;

/// A Codex thread's callback for Codex's requests for the user: `(method, params)` → the answer
/// the engine takes (a permission result for approvals, or Codex's own result).
pub(crate) type CodexRequestFn = Arc<dyn Fn(String, Value) -> BoxFuture<'static, Value> + Send + Sync>;

/// The host of a Codex thread: its in-process servers' tools and its request callback, run as a
/// query's are.
pub(crate) fn codex_host(
    servers: &[(String, McpServer)],
    codex_request: Option<CodexRequestFn>,
) -> Result<Arc<dyn raw::Host>> {
    let runtime = tokio::runtime::Handle::try_current().map_err(|_| Error::NoRuntime)?;
    Ok(Arc::new(RustHost {
        servers: RwLock::new(servers.iter().cloned().collect()),
        can_use_tool: None,
        hooks: HashMap::new(),
        on_elicitation: None,
        on_user_dialog: None,
        stderr: None,
        store: None,
        codex_request,
        running: Default::default(),
        runtime,
    }))
}

/// What the CLI is told this SDK is (`CLAUDE_CODE_ENTRYPOINT`).
const ENTRYPOINT: &str = "sdk-rust";

/// How many queued messages the stream takes from the engine at a time.
const BATCH: usize = 64;
const BATCH_BYTES: usize = 1 << 20;

/// A running session: controls, cheap to clone.
#[derive(Clone)]
pub(crate) struct Session {
    handle: raw::Session,
    host: Arc<RustHost>,
}

/// An engine error in the Rust API's words: the engine names the CLI's path option as the
/// TypeScript SDK does.
pub(crate) fn rust_names(e: Error) -> Error {
    let rename = |m: String| {
        m.replace(
            agent_core::cli::discover::PATH_OPTION,
            "the `cli_path` option (`OptionsBuilder::cli_path`)",
        )
    };
    match e {
        Error::CliNotFound(m) => Error::CliNotFound(rename(m)),
        Error::Spawn { message, cause } => Error::Spawn {
            message: rename(message),
            cause,
        },
        e => e,
    }
}

/// Starts the CLI and the session. `prompt`: the text prompt, or `None` for streaming input.
pub(crate) fn start(
    prompt: Option<String>,
    options: Options,
) -> Result<(Session, BoxStream<'static, Result<Message>>)> {
    let runtime = tokio::runtime::Handle::try_current().map_err(|_| Error::NoRuntime)?;
    let (core, hooks) = engine_options(&options)?;
    let config = QueryConfig(core);
    let launch = config
        .launch_spec(&search_paths(options.core.cwd.as_deref()), "node")
        .map_err(rust_names)?;
    let host = Arc::new(RustHost {
        servers: RwLock::new(options.sdk_servers.iter().cloned().collect()),
        can_use_tool: options.can_use_tool.clone(),
        hooks,
        on_elicitation: options.on_elicitation.clone(),
        on_user_dialog: options.on_user_dialog.as_ref().map(|(_, f)| f.clone()),
        stderr: options.stderr.clone(),
        store: options.session_store.clone(),
        codex_request: None,
        running: Default::default(),
        runtime,
    });
    // The app's own process, started now with the command line the SDK would run.
    let spawned = match &options.spawn {
        Some(spawn) => {
            let spawn_options = crate::spawn::SpawnOptions {
                command: launch.program.clone(),
                args: launch.args.clone(),
                cwd: launch.cwd.clone().map(PathBuf::from),
                env: launch.env.clone(),
            };
            let process = spawn(spawn_options).map_err(|e| Error::Spawn {
                message: format!("spawn_claude_code_process failed: {e}"),
                cause: Some(e.into()),
            })?;
            Some((process, crate::spawn::sink()))
        }
        None => None,
    };
    let (process, events) = match spawned {
        Some((process, (sink, events))) => (Process::HostStarted(sink), Some((process, events))),
        None => (Process::Spawn(launch), None),
    };
    let spec = SessionSpec {
        config,
        process,
        servers: options
            .sdk_servers
            .iter()
            .map(|(key, s)| (key.clone(), s.inner.def.clone()))
            .collect(),
        prompt,
        forward_stderr: options.stderr.is_some(),
        message_text: raw::MessageText::Utf8,
    };
    let started = raw::start(spec, host.clone()).map_err(rust_names)?;
    if let (Some((process, events)), Some(feed)) = (events, started.feed.clone()) {
        crate::spawn::connect(process, events, feed);
    }
    if let Some(dir) = options.resume_dir.clone() {
        // A resumed session's folder goes once the CLI has exited, as the TypeScript SDK removes it
        // (not when the query is left: the CLI may still be writing there as it stops).
        let ended = started.session.ended();
        tokio::spawn(async move {
            ended.await;
            ResumeDir::remove(dir).await;
        });
    }
    Ok((
        Session {
            handle: started.session,
            host,
        },
        message_stream(started.messages),
    ))
}

impl Session {
    /// Sends a control request; the CLI's answer.
    pub(crate) async fn control(&self, body: Value) -> Result<Value> {
        let text = self.handle.control(body).await?;
        serde_json::from_str(&text)
            .map_err(|e| Error::Protocol(format!("Claude Code answered a control request with invalid JSON: {e}")))
    }

    /// The CLI's answer to `initialize`.
    pub(crate) async fn initialization_result(&self) -> Result<Value> {
        let text = self.handle.initialization_result().await?;
        serde_json::from_str(&text)
            .map_err(|e| Error::Protocol(format!("Claude Code answered initialize with invalid JSON: {e}")))
    }

    /// Sends `initialize` again; the CLI's fresh answer.
    pub(crate) async fn reinitialize(&self) -> Result<Value> {
        let text = self.handle.reinitialize().await?;
        serde_json::from_str(&text)
            .map_err(|e| Error::Protocol(format!("Claude Code answered initialize with invalid JSON: {e}")))
    }

    /// Replaces the in-process servers (routed by the engine and answered by this host from now
    /// on) and tells the CLI the new set: `servers` is the `mcp_set_servers` map with in-process
    /// ones as `{"type": "sdk", "name": key}`.
    pub(crate) async fn set_mcp_servers(
        &self,
        sdk: Vec<(String, McpServer)>,
        servers: Map<String, Value>,
    ) -> Result<Value> {
        let defs = sdk.iter().map(|(key, s)| (key.clone(), s.inner.def.clone())).collect();
        *self.host.servers.write().unwrap_or_else(|p| p.into_inner()) = sdk.into_iter().collect();
        self.handle.set_sdk_servers(defs)?;
        self.control(json!({ "subtype": "mcp_set_servers", "servers": servers }))
            .await
    }

    pub(crate) fn send_user_message(&self, json: String) -> Result<()> {
        self.handle.send_user_message(json)
    }

    pub(crate) fn end_input(&self) {
        self.handle.end_input()
    }

    pub(crate) fn close(&self) {
        self.handle.close()
    }

    pub(crate) fn abort(&self) {
        self.handle.abort()
    }

    pub(crate) fn pid(&self) -> Option<u32> {
        self.handle.pid()
    }
}

/// The engine's queue as a stream of typed messages (a batch taken at a time).
fn message_stream(messages: MessageQueue) -> BoxStream<'static, Result<Message>> {
    futures::stream::unfold(
        (messages, VecDeque::<Vec<u8>>::new()),
        |(mut messages, mut ready)| async move {
            loop {
                if let Some(line) = ready.pop_front() {
                    let item = std::str::from_utf8(&line)
                        .map_err(|e| e.to_string())
                        .and_then(|text| Message::from_json(text).map_err(|e| e.to_string()))
                        .map_err(|e| Error::Protocol(format!("Claude Code wrote a line that is not JSON: {e}")));
                    return Some((item, (messages, ready)));
                }
                match messages.next_batch(BATCH, BATCH_BYTES).await? {
                    Ok(batch) => ready.extend(batch),
                    Err(e) => return Some((Err(e), (messages, ready))),
                }
            }
        },
    )
    .boxed()
}

/// Where to look for `node_modules/@anthropic-ai/claude-code`: the query's working directory,
/// this process's, and the directory of its executable (a binary under `target/` finds the
/// project's `node_modules`).
fn search_paths(cwd: Option<&Path>) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = cwd.map(Path::to_path_buf).into_iter().collect();
    dirs.extend(std::env::current_dir().ok());
    dirs.extend(
        std::env::current_exe()
            .ok()
            .and_then(|p| p.parent().map(Path::to_path_buf)),
    );
    dirs
}

/// An option that must be an absolute path (as it exists where Claude Code runs).
/// Completes the builder's engine options for a start: names this SDK, refuses what the builder
/// could not take, and numbers the hooks (`{Event: [{matcher, hookCallbackIds, timeout}]}`, ids
/// as the official SDK numbers them); the hook callbacks by those ids.
fn engine_options(o: &Options) -> Result<(QueryOptions, HashMap<String, HookFn>)> {
    if let Some(message) = &o.invalid {
        return Err(Error::InvalidOption(message.clone()));
    }
    if let Some(display) = o.thinking_display {
        return Err(Error::InvalidOption(format!(
            "Invalid option `thinking_display`: {} needs `thinking` (Thinking::Adaptive or Thinking::Budget)",
            display.as_str()
        )));
    }
    let mut q = o.core.clone();
    q.entrypoint = Some(ENTRYPOINT.into());
    if q.session_store && (q.resume.is_some() || q.continue_conversation == Some(true)) && !o.resume_prepared {
        return Err(Error::InvalidOption(
            "A resume with session_store needs the stored session loaded first: pass the options through \
       claude_agent_sdk::store::resume_from_store(options).await before query()"
                .into(),
        ));
    }

    let mut callbacks = HashMap::new();
    let mut wire = Map::new();
    for (event, matcher) in &o.hooks {
        let ids: Vec<String> = matcher
            .hooks
            .iter()
            .map(|f| {
                let id = format!("hook_{}", callbacks.len());
                callbacks.insert(id.clone(), f.clone());
                id
            })
            .collect();
        let entry = json!({ "matcher": matcher.matcher, "hookCallbackIds": ids, "timeout": matcher.timeout_secs });
        wire.entry(event.as_str().to_string())
            .or_insert_with(|| json!([]))
            .as_array_mut()
            .expect("an array")
            .push(entry);
    }
    if !wire.is_empty() {
        q.hooks = Some(Value::Object(wire));
    }
    Ok((q, callbacks))
}

/// Runs the engine's calls into user code as tokio tasks, each answered through its `Reply`.
struct RustHost {
    /// In-process servers by the name the CLI knows them under (replaced by `set_mcp_servers`).
    servers: RwLock<HashMap<String, McpServer>>,
    can_use_tool: Option<CanUseToolFn>,
    hooks: HashMap<String, HookFn>,
    on_elicitation: Option<ElicitationFn>,
    on_user_dialog: Option<UserDialogFn>,
    stderr: Option<StderrFn>,
    /// The session store the transcript is mirrored to.
    store: Option<Arc<dyn SessionStore>>,
    /// A Codex thread's answers to Codex's requests for the user ([`crate::codex`]).
    codex_request: Option<CodexRequestFn>,
    /// Calls running, by control request id: what `cancel` aborts.
    running: Arc<Mutex<HashMap<String, AbortHandle>>>,
    runtime: tokio::runtime::Handle,
}

#[derive(Deserialize)]
struct ToolPayload {
    server: String,
    tool: String,
    #[serde(default)]
    arguments: Value,
}

#[derive(Deserialize)]
struct HookPayload {
    callback_id: String,
    #[serde(default)]
    input: Value,
    #[serde(default)]
    tool_use_id: Option<String>,
}

#[derive(Deserialize)]
struct PermissionPayload {
    tool_name: String,
    #[serde(default)]
    input: Value,
}

impl RustHost {
    /// The user code a call runs, as a future of its answer (JSON text) or failure message.
    fn call(&self, call: &Call) -> BoxFuture<'static, CallResult> {
        // Exhaustive: a kind the engine adds fails to compile here until this SDK answers it.
        match call.kind {
            CallKind::Tool => {
                let p: ToolPayload = match serde_json::from_str(&call.payload) {
                    Ok(p) => p,
                    Err(e) => return futures::future::ready(Err(format!("Malformed tool call: {e}"))).boxed(),
                };
                let servers = self.servers.read().unwrap_or_else(|p| p.into_inner());
                let Some(tool) = servers.get(&p.server).and_then(|s| s.tool(&p.tool)).cloned() else {
                    return futures::future::ready(Err(format!("Tool {} not found on server {}", p.tool, p.server)))
                        .boxed();
                };
                async move {
                    let result = tool.call(p.arguments).await;
                    Ok(json!({ "result": result }).to_string())
                }
                .boxed()
            }
            CallKind::CanUseTool => {
                let Some(f) = self.can_use_tool.clone() else {
                    return futures::future::ready(Err("canUseTool callback is not provided.".to_string())).boxed();
                };
                let raw: Value = serde_json::from_str(&call.payload).unwrap_or(Value::Null);
                let p = match PermissionPayload::deserialize(&raw) {
                    Ok(p) => p,
                    Err(e) => return futures::future::ready(Err(format!("Malformed permission request: {e}"))).boxed(),
                };
                let mut ctx = PermissionContext::deserialize(&raw)
                    .unwrap_or_else(|_| PermissionContext::deserialize(&json!({})).expect("every field has a default"));
                ctx.raw = raw;
                async move { Ok(f(p.tool_name, p.input, ctx).await.to_json().to_string()) }.boxed()
            }
            CallKind::Hook => {
                let p: HookPayload = match serde_json::from_str(&call.payload) {
                    Ok(p) => p,
                    Err(e) => return futures::future::ready(Err(format!("Malformed hook callback: {e}"))).boxed(),
                };
                let Some(f) = self.hooks.get(&p.callback_id).cloned() else {
                    return futures::future::ready(Err(format!("No hook callback found for ID: {}", p.callback_id)))
                        .boxed();
                };
                let mut input = HookInput::deserialize(&p.input)
                    .unwrap_or_else(|_| HookInput::deserialize(&json!({})).expect("every field has a default"));
                input.raw = p.input;
                async move {
                    let out = f(input, p.tool_use_id).await;
                    serde_json::to_string(&out).map_err(|e| format!("The hook's output could not be serialized: {e}"))
                }
                .boxed()
            }
            CallKind::Elicitation => {
                let Some(f) = self.on_elicitation.clone() else {
                    return futures::future::ready(Err("No on_elicitation callback is set".to_string())).boxed();
                };
                let raw: Value = serde_json::from_str(&call.payload).unwrap_or(Value::Null);
                let mut request = match ElicitationRequest::deserialize(&raw) {
                    Ok(r) => r,
                    Err(e) => {
                        return futures::future::ready(Err(format!("Malformed elicitation request: {e}"))).boxed()
                    }
                };
                request.raw = raw;
                async move { Ok(f(request).await.to_json().to_string()) }.boxed()
            }
            CallKind::UserDialog => {
                let Some(f) = self.on_user_dialog.clone() else {
                    return futures::future::ready(Err("No on_user_dialog callback is set".to_string())).boxed();
                };
                let raw: Value = serde_json::from_str(&call.payload).unwrap_or(Value::Null);
                let mut request = match UserDialogRequest::deserialize(&raw) {
                    Ok(r) => r,
                    Err(e) => {
                        return futures::future::ready(Err(format!("Malformed user dialog request: {e}"))).boxed()
                    }
                };
                request.raw = raw;
                // `null` refuses the dialog (the engine answers the CLI with an error saying so).
                async move { Ok(f(request).await.unwrap_or(Value::Null).to_string()) }.boxed()
            }
            CallKind::CodexRequest => match &self.codex_request {
                Some(f) => {
                    let v: Value = serde_json::from_str(&call.payload).unwrap_or(Value::Null);
                    let (method, params) = (v["method"].as_str().unwrap_or("").to_string(), v["params"].clone());
                    f(method, params).map(|answer| Ok(answer.to_string())).boxed()
                }
                None => futures::future::ready(Err("No Codex callback is set".to_string())).boxed(),
            },
            CallKind::StoreAppend => match &self.store {
                Some(store) => crate::store::api::append_call(store.clone(), &call.payload),
                None => futures::future::ready(Err("No session_store is set".to_string())).boxed(),
            },
            // This SDK offers none of these handlers: each gets what the TypeScript SDK answers without one.
            CallKind::HostRequest => {
                let subtype = serde_json::from_str::<Value>(&call.payload)
                    .ok()
                    .and_then(|r| r.get("subtype")?.as_str().map(String::from))
                    .unwrap_or_default();
                let answer = match subtype.as_str() {
          "oauth_token_refresh" => Err("getOAuthToken callback is not provided.".to_string()),
          "host_auth_token_refresh" => Err("getHostAuthToken callback is not provided.".to_string()),
          "remote_control_work_secret" => Err("refreshWorkSecret callback is not provided.".to_string()),
          other => Ok(json!({ "error": format!("Unsupported control request subtype: {other}"), "error_code": "unsupported_request" }).to_string()),
        };
                futures::future::ready(answer).boxed()
            }
        }
    }
}

impl RustHost {
    /// Runs one call as a task on the runtime and hands its outcome to `answer`. A panic in user
    /// code answers the call with its message: the CLI is never left waiting, and the process goes
    /// on. (Independent of how the engine takes answers, so only [`Host::invoke`] follows it.)
    fn run(&self, call: Call, answer: impl FnOnce(CallResult) + Send + 'static) {
        let work = AssertUnwindSafe(self.call(&call)).catch_unwind();
        let (work, abort) = futures::future::abortable(work);
        let id = call.request_id;
        self.running
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id.clone(), abort);
        let running = self.running.clone();
        let kind = call.kind.as_str();
        self.runtime.spawn(async move {
            let outcome = match work.await {
                Ok(Ok(result)) => result,
                Ok(Err(panic)) => Err(format!("The {kind} callback panicked: {}", panic_message(&*panic))),
                Err(_aborted) => Err("The call was cancelled".to_string()),
            };
            running.lock().unwrap_or_else(|p| p.into_inner()).remove(&id);
            answer(outcome);
        });
    }
}

impl raw::Host for RustHost {
    fn invoke(&self, calls: Vec<(Call, Reply)>) {
        for (call, reply) in calls {
            self.run(call, move |outcome| reply.send(outcome));
        }
    }

    fn cancel(&self, request_id: &str) {
        if let Some(abort) = self
            .running
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(request_id)
        {
            abort.abort();
        }
    }

    fn stderr(&self, chunk: &str) {
        if let Some(f) = &self.stderr {
            // A panicking stderr callback must not take the engine's task down.
            let _ = std::panic::catch_unwind(AssertUnwindSafe(|| f(chunk)));
        }
    }

    fn release(&self) {
        for (_, abort) in self.running.lock().unwrap_or_else(|p| p.into_inner()).drain() {
            abort.abort();
        }
    }
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{HookEvent, HookMatcher, HookOutput, PermissionMode, SettingSource, SystemPrompt, Thinking, Tools};

    #[test]
    fn options_map_to_the_engine_and_name_this_sdk() {
        let o = Options::builder()
            .model("m")
            .permission_mode(PermissionMode::AcceptEdits)
            .setting_sources([SettingSource::User, SettingSource::Project])
            .tools(Tools::List(vec!["Read".into()]))
            .hook(
                HookEvent::PreToolUse,
                HookMatcher::matching("Bash")
                    .hook(|_, _| async { HookOutput::proceed() })
                    .hook(|_, _| async { HookOutput::proceed() }),
            )
            .hook(
                HookEvent::Stop,
                HookMatcher::all()
                    .timeout_secs(5)
                    .hook(|_, _| async { HookOutput::proceed() }),
            )
            .build();
        let (q, hooks) = engine_options(&o).unwrap();
        assert_eq!(
            q.permission_mode,
            Some(agent_core::options::PermissionMode::AcceptEdits)
        );
        assert_eq!(
            q.setting_sources,
            Some(vec![
                agent_core::options::SettingSource::User,
                agent_core::options::SettingSource::Project
            ])
        );
        assert_eq!(
            q.hooks,
            Some(
                json!({"PreToolUse":[{"matcher":"Bash","hookCallbackIds":["hook_0","hook_1"],"timeout":null}],"Stop":[{"matcher":null,"hookCallbackIds":["hook_2"],"timeout":5}]})
            )
        );
        assert_eq!(hooks.len(), 3);
        assert!(q.env.is_none(), "nothing set: the engine passes our environment on");
        let env = agent_core::cli::launch::child_env(&q).unwrap();
        assert!(env.contains(&("CLAUDE_CODE_ENTRYPOINT".into(), "sdk-rust".into())));
        let args = agent_core::cli::launch::cli_args(&q).unwrap();
        assert!(
            args.contains(&"--setting-sources=user,project".to_string()) && args.contains(&"--tools=Read".to_string()),
            "{args:?}"
        );
    }

    #[test]
    fn external_servers_thinking_prompt_and_output_type_reach_the_command_line() {
        #[derive(schemars::JsonSchema)]
        #[allow(dead_code)]
        struct Answer {
            n: u8,
        }
        let o = Options::builder()
            .external_mcp_server(
                "fs",
                crate::McpServerConfig::Stdio {
                    command: "npx".into(),
                    args: vec!["x".into()],
                    env: Default::default(),
                },
            )
            .thinking(Thinking::Budget(500))
            .system_prompt(SystemPrompt::ClaudeCode {
                append: Some("be brief".into()),
            })
            .output_type::<Answer>()
            .build();
        let (q, _) = engine_options(&o).unwrap();
        let args = agent_core::cli::launch::cli_args(&q).unwrap();
        let i = args.iter().position(|a| a == "--mcp-config").expect("--mcp-config");
        assert_eq!(
            args[i + 1],
            r#"{"mcpServers":{"fs":{"type":"stdio","command":"npx","args":["x"]}}}"#
        );
        assert!(args.contains(&"--max-thinking-tokens=500".to_string()), "{args:?}");
        assert!(
            args.iter()
                .any(|a| a.starts_with("--json-schema=") && a.contains(r#""required":["n"]"#)),
            "{args:?}"
        );
        let init = agent_core::session::initialize_request(&q, &[]).unwrap();
        assert_eq!(init["appendSystemPrompt"], "be brief");
        assert!(init.get("systemPrompt").is_none());
    }

    #[test]
    fn env_changes_apply_on_top_of_ours_or_alone() {
        let env = |o: Options| -> HashMap<String, String> {
            let (q, _) = engine_options(&o).unwrap();
            agent_core::cli::launch::child_env(&q).unwrap().into_iter().collect()
        };
        let on_top = env(Options::builder().env("A_VAR", "1").env_remove("PATH").build());
        assert_eq!(on_top["A_VAR"], "1");
        assert!(!on_top.contains_key("PATH"), "unset");
        assert!(
            on_top.contains_key("HOME") || std::env::var_os("HOME").is_none(),
            "inherited"
        );
        let alone = env(Options::builder().inherit_env(false).env("A_VAR", "1").build());
        assert_eq!(alone["A_VAR"], "1");
        assert!(!alone.contains_key("HOME"), "not inherited");
    }
}
