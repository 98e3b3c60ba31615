//! The lower level under [`query`](crate::query), for hosts that bring their own callbacks: a
//! language binding (the Node.js package is one), or a program that wants the CLI's messages as
//! JSON text.
//!
//! Here a query is started from its options as the TypeScript SDK names them
//! ([`QueryConfig`]), with in-process servers as definitions ([`ServerDef`]); the user code the
//! session calls (tool handlers, permission prompts, hooks, elicitation and dialog callbacks)
//! reaches the host's [`Host`] as [`Call`]s with JSON payloads, a burst of calls at a time, each
//! answered through its [`Reply`] from whichever thread has the answer (it is written to the CLI
//! right there). Messages come as JSON text in batches ([`MessageQueue`]).
//!
//! ```no_run
//! use std::sync::Arc;
//! use claude_agent_sdk::raw::{self, Call, Host, MessageText, Process, QueryConfig, Reply, SessionSpec};
//!
//! struct Deny;
//! impl Host for Deny {
//!     fn invoke(&self, calls: Vec<(Call, Reply)>) {
//!         for (_call, reply) in calls {
//!             reply.send(Ok(r#"{"behavior":"deny","message":"no"}"#.into()));
//!         }
//!     }
//!     fn cancel(&self, _request_id: &str) {}
//! }
//!
//! # async fn run() -> claude_agent_sdk::Result<()> {
//! let config = QueryConfig::from_json(r#"{"model":"claude-sonnet-4-5","canUseTool":true}"#)?;
//! let launch = config.launch_spec(&[std::env::current_dir().unwrap()], "node")?;
//! let spec = SessionSpec::new(config, Process::Spawn(launch)).prompt("Hello");
//! let mut started = raw::start(spec, Arc::new(Deny))?;
//! while let Some(batch) = started.messages.next_batch(64, 1 << 20).await {
//!     for line in batch? {
//!         println!("{}", String::from_utf8_lossy(&line));
//!     }
//! }
//! # Ok(()) }
//! ```

pub mod codex;
mod config;
mod host;
mod process;
mod server;
mod session;
pub mod sessions;

use std::sync::Arc;
use std::time::Duration;

use agent_core::cli::custom::host_process;
use agent_core::session::{self as core, ProcessSpec};

pub use config::{LaunchSpec, QueryConfig};
pub use host::{hold_answers, release_answers, Call, CallKind, CallResult, Host, Reply, StderrGate};
pub use process::{ProcessEvent, ProcessFeed, ProcessSink};
pub use server::{ServerAction, ServerDef};
pub use session::{AbortHandle, Chunk, MessageQueue, ProcessExit, Session};
pub use sessions::{is_project_dir_name, is_session_id, new_uuid, project_folder_name, SessionsFailure};

use crate::error::{Error, Result};

/// How the CLI process comes to be.
pub enum Process {
    /// The session spawns it (it dies with the session and with this process).
    Spawn(LaunchSpec),
    /// The host starts it (from [`QueryConfig::launch_spec`], say) and feeds its output in through
    /// the [`ProcessFeed`] in [`Started::feed`]; what the session writes or signals goes to the
    /// sink.
    HostStarted(ProcessSink),
}

/// How each message's JSON text reaches [`MessageQueue`], encoded on the session's thread as it
/// reads the line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum MessageText {
    /// As the CLI wrote it: UTF-8.
    #[default]
    Utf8,
    /// JSON text whose bytes are Latin-1 characters (anything beyond escaped as `\uXXXX`), for a
    /// JavaScript engine's compact one-byte strings.
    Latin1Json,
}

/// Everything [`start`] needs.
pub struct SessionSpec {
    /// The query's options.
    pub config: QueryConfig,
    /// How the CLI process comes to be.
    pub process: Process,
    /// In-process servers by the name the CLI knows them under (their key in `mcpServers`).
    pub servers: Vec<(String, ServerDef)>,
    /// A string prompt, sent right after `initialize` (input ends with it); `None` for streaming
    /// input through [`Session::send_user_message`].
    pub prompt: Option<String>,
    /// Hand the CLI's stderr to [`Host::stderr`].
    pub forward_stderr: bool,
    /// How messages are encoded.
    pub message_text: MessageText,
}

impl SessionSpec {
    /// A spec with no in-process servers, streaming input, stderr not forwarded, UTF-8 messages.
    pub fn new(config: QueryConfig, process: Process) -> Self {
        Self {
            config,
            process,
            servers: Vec::new(),
            prompt: None,
            forward_stderr: false,
            message_text: MessageText::Utf8,
        }
    }

    /// Sets a string prompt.
    pub fn prompt(mut self, prompt: impl Into<String>) -> Self {
        self.prompt = Some(prompt.into());
        self
    }
}

/// A started session.
#[derive(Debug)]
pub struct Started {
    /// Its controls.
    pub session: Session,
    /// Its messages.
    pub messages: MessageQueue,
    /// For [`Process::HostStarted`]: where the host feeds the process's output.
    pub feed: Option<ProcessFeed>,
}

/// Reads JSON text a JavaScript host made (`JSON.stringify`, which writes a string cut inside a
/// surrogate pair as a lone `\udXXX` escape): `(value, lone)`. With `lone`, the value's strings
/// hold stand-ins for those surrogates; send it through a session after
/// [`Session::mark_lone_surrogates`] and the CLI gets the escapes back, exactly as written. The
/// one way every JSON value from the host enters the engine (options, control requests, MCP
/// messages and server specs, session-function arguments).
pub fn parse_js_json<T: serde::de::DeserializeOwned>(json: &str) -> serde_json::Result<(T, bool)> {
    let (text, lone) = agent_core::sessions::surrogate::from_js(json);
    Ok((serde_json::from_str(&text)?, lone))
}

/// Starts a session: the CLI (or the host's process), then `initialize` (and the prompt). Must
/// be called within a tokio runtime. Fails on options the CLI cannot be started with, on two
/// in-process servers under one name, or when the process cannot be spawned.
pub fn start(spec: SessionSpec, host: Arc<dyn Host>) -> Result<Started> {
    let o = spec.config.0;
    let servers: Vec<_> = spec.servers.into_iter().map(|(name, s)| (name, s.0)).collect();
    let initialize = core::initialize_request(&o, &servers).map_err(error)?;
    // A session store: the transcripts are under the projects folder of the CLI's environment.
    let mirror = if o.session_store {
        let env = agent_core::cli::launch::child_env(&o).map_err(error)?;
        Some(core::mirror::MirrorSpec::for_child(
            &env,
            o.session_store_flush == Some(agent_core::options::SessionStoreFlush::Eager),
        ))
    } else {
        None
    };
    let (process, feed) = match spec.process {
        Process::Spawn(launch) => (ProcessSpec::Spawn(launch.into()), None),
        Process::HostStarted(sink) => {
            let (p, feed) = host_process(Arc::new(move |event| sink(event.into())));
            (ProcessSpec::Host(p), Some(ProcessFeed(feed)))
        }
    };
    let run_end_ceiling = core::ceiling::run_end_ceiling_of(&o);
    let core_spec = core::SessionSpec {
        process,
        initialize,
        servers,
        prompt: spec.prompt,
        can_use_tool: o.can_use_tool,
        allowed_control_requests: o.allowed_control_requests.clone(),
        dialogs: core::Dialogs {
            elicitation: o.on_elicitation,
            user_dialog: o.on_user_dialog,
        },
        token_callbacks: o.token_callbacks,
        forward_stderr: spec.forward_stderr,
        initialize_timeout: o
            .initialize_timeout_ms
            .map(Duration::from_millis)
            .unwrap_or(core::DEFAULT_INITIALIZE_TIMEOUT),
        queue_bytes: core::DEFAULT_QUEUE_BYTES,
        message_text: match spec.message_text {
            MessageText::Utf8 => core::MessageText::Utf8,
            MessageText::Latin1Json => core::MessageText::Latin1Json,
        },
        mirror,
        lone_surrogates: o.lone_surrogates,
        limits: o.resource_limits,
        run_end_ceiling,
    };
    let started = core::start(core_spec, host).map_err(error)?;
    Ok(Started {
        session: Session(started.handle),
        messages: MessageQueue(started.messages),
        feed,
    })
}

/// The engine's error in this crate's terms: same message, same [`Error::code`]. Exhaustive, with
/// no fallback (agent-core's error is deliberately not `#[non_exhaustive]`): a variant the engine
/// adds fails to compile here until it is mapped.
pub(crate) fn error(e: agent_core::Error) -> Error {
    use agent_core::Error as E;
    let message = e.to_string();
    let stderr = e.stderr().unwrap_or_default().to_string();
    match e {
        E::InvalidOption(m) => Error::InvalidOption(m),
        E::CliNotFound(m) => Error::CliNotFound(m),
        E::Spawn { message, cause } => Error::Spawn { message, cause },
        E::Exited { code, .. } => Error::ProcessExited { code, message, stderr },
        E::Signaled { signal, .. } => Error::ProcessSignaled {
            signal,
            message,
            stderr,
        },
        E::Aborted => Error::Aborted,
        E::SessionClosed(m) => Error::SessionClosed(m),
        E::Control(m) => Error::Control(m),
        E::InitializeTimeout(ms) => Error::InitializeTimeout(Duration::from_millis(ms)),
        E::Protocol(m) => Error::Protocol(m),
        E::Backlog { .. } => Error::Backlog(message),
        E::ResourceLimit { code, signal, .. } => Error::ResourceLimit {
            message,
            exit_code: code,
            signal,
            stderr,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A host (the JS binding) builds its errors from `code()`, `to_string()` and the CLI's exit
    /// fields: every engine error keeps all of them.
    #[test]
    fn engine_errors_keep_their_code_message_and_fields() {
        use agent_core::Error as E;
        let all = [
            E::InvalidOption("Invalid option `maxTurns`".into()),
            E::CliNotFound("not found".into()),
            E::spawn("spawn failed"),
            E::spawn_io("spawn failed", std::io::Error::from_raw_os_error(libc_enoexec())),
            E::Exited {
                code: 3,
                stderr_tail: " boom \n".into(),
            },
            E::Exited {
                code: 0,
                stderr_tail: String::new(),
            },
            E::Signaled {
                signal: 9,
                stderr_tail: "killed".into(),
            },
            E::Aborted,
            E::SessionClosed("closed".into()),
            E::Control("control".into()),
            E::InitializeTimeout(5),
            E::Protocol("protocol".into()),
            E::Backlog { held: 10, line: 2 },
            E::ResourceLimit {
                message: "Claude Code exceeded resourceLimits.maxMemoryMb (1 MB)".into(),
                code: None,
                signal: Some(9),
                stderr_tail: "oom".into(),
            },
        ];
        for e in all {
            let ours = error(e.clone());
            assert_eq!(
                (
                    ours.code(),
                    ours.to_string(),
                    ours.exit_code(),
                    ours.signal(),
                    ours.stderr().map(str::to_string)
                ),
                (
                    e.code(),
                    e.to_string(),
                    e.exit_code(),
                    e.signal(),
                    e.stderr().map(str::to_string)
                ),
                "{e:?}"
            );
        }
    }

    /// ENOEXEC on every platform the tests run on.
    fn libc_enoexec() -> i32 {
        8
    }

    #[test]
    fn a_spawn_failure_keeps_its_io_error_as_source() {
        let e = error(agent_core::Error::spawn_io(
            "Failed to spawn Claude Code process /x: boom",
            std::io::Error::from_raw_os_error(libc_enoexec()),
        ));
        let source = std::error::Error::source(&e).expect("a source");
        assert_eq!(
            source.to_string(),
            std::io::Error::from_raw_os_error(libc_enoexec()).to_string()
        );
        let Error::Spawn { cause: Some(cause), .. } = &e else {
            panic!("{e:?}")
        };
        assert_eq!(cause.io().raw_os_error(), Some(libc_enoexec()));
        assert_eq!(e.clone(), e, "still Clone and Eq");
    }

    #[test]
    fn options_are_parsed_once_and_bad_ones_named() {
        let e = QueryConfig::from_json(r#"{"maxTurns":"three"}"#).unwrap_err();
        assert_eq!(e.code(), "INVALID_OPTION");
        assert!(e.to_string().contains("`maxTurns`"), "{e}");
        assert!(QueryConfig::from_json(r#"{"debug":true}"#).unwrap().debug());
    }

    #[test]
    fn server_definitions_answer_lists_and_hand_calls_to_the_host() {
        let def = ServerDef::from_spec_json(r#"{"name":"s","tools":[{"name":"t","inputSchema":{"type":"object"}}]}"#)
            .unwrap();
        assert!(def.manifest().is_some());
        let list = def.handle("s", r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
        assert!(
            matches!(&list, ServerAction::Reply(r) if r.contains(r#""name":"t""#)),
            "{list:?}"
        );
        let call = def.handle(
            "s",
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","arguments":{}}}"#,
        );
        assert!(
            matches!(&call, ServerAction::Call(p) if p.contains(r#""tool":"t""#)),
            "{call:?}"
        );
        assert!(ServerDef::from_spec_json(r#"{"name":""}"#).is_err());
    }
}
