//! Codex sessions for hosts that bring their own callbacks: `codex app-server` driven by the
//! engine, with the same in-process servers ([`ServerDef`]) and [`Host`] a Claude session uses.
//! Codex's tool calls reach the host as [`CallKind::Tool`](super::CallKind::Tool) calls (the
//! payload a Claude `tools/call` has), its approvals and questions as
//! [`CallKind::CodexRequest`](super::CallKind::CodexRequest). Notifications come as
//! [`CodexEvent`]s; [`EventMapper`] turns them into the events of `codex exec
//! --experimental-json` (what `@openai/codex-sdk` yields).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use agent_core::codex as core;

pub use core::{
    app_server_args, CodexCallbacks, CodexError, CodexEvent, CodexEvents, CodexSession, EventMapper, TurnEnd,
    DEFAULT_INITIALIZE_TIMEOUT,
};

use super::{Host, LaunchSpec, ServerDef};

/// Everything [`start`] needs.
pub struct CodexSpec {
    /// The Codex executable ([`find_codex`]) with its arguments ([`app_server_args`]), whole
    /// environment and working directory.
    pub launch: LaunchSpec,
    /// In-process servers by the namespace Codex knows them under.
    pub servers: Vec<(String, ServerDef)>,
    /// Which of Codex's requests for the user the host answers (the others get safe defaults).
    pub callbacks: CodexCallbacks,
    /// Hand Codex's stderr to [`Host::stderr`].
    pub forward_stderr: bool,
    /// `initialize`'s `clientInfo.name`.
    pub client_name: String,
    /// `initialize`'s `clientInfo.version`.
    pub client_version: String,
    /// How long Codex gets to answer `initialize` ([`DEFAULT_INITIALIZE_TIMEOUT`]).
    pub initialize_timeout: Duration,
}

/// A started Codex session: its handle and its events.
pub struct CodexStarted {
    /// Its requests and controls.
    pub session: CodexSession,
    /// Its notifications, then its end.
    pub events: CodexEvents,
}

/// Where the Codex executable is: `explicit`, then `@openai/codex`'s per-platform package from
/// each of `search_from` upwards, then `codex` on `path_var`.
pub fn find_codex(
    explicit: Option<&str>,
    search_from: &[PathBuf],
    path_var: Option<&str>,
) -> Result<PathBuf, CodexError> {
    core::discover::find_codex(explicit, search_from, path_var)
}

/// Starts `codex app-server` and its session loop (inside a tokio runtime).
pub fn start(spec: CodexSpec, host: Arc<dyn Host>) -> Result<CodexStarted, CodexError> {
    let core_spec = core::CodexSpec {
        launch: spec.launch.into(),
        servers: spec.servers.into_iter().map(|(n, s)| (n, s.0)).collect(),
        callbacks: spec.callbacks,
        forward_stderr: spec.forward_stderr,
        client_name: spec.client_name,
        client_version: spec.client_version,
        initialize_timeout: spec.initialize_timeout,
    };
    let started = core::start(core_spec, host)?;
    Ok(CodexStarted {
        session: started.session,
        events: started.events,
    })
}
