//! A Codex session: one `codex app-server` process and the loop that owns its JSON-RPC pipe
//! (one JSON object per line, `"jsonrpc"` omitted), beside the Claude session and built the same
//! way: the child in its own process group, dying with the session and with the host
//! ([`crate::cli::process`]); one reader of its stdout; our requests correlated with their
//! answers by id; every request of Codex's handled concurrently (in-process tools and the user's
//! callbacks run in the [`Host`], their answers written from the thread that has them); unknown
//! methods answered with a JSON-RPC error; notifications streamed as [`CodexEvent`]s.
//!
//! In-process MCP servers (the same [`McpServerDef`]s a Claude session serves) are declared to
//! Codex as `dynamicTools` namespaces ([`tools`]); `item/tool/call` goes to the server's handler
//! through the MCP `tools/call` path a Claude session uses. [`events`] maps notifications to the
//! events of `codex exec --experimental-json` (what `@openai/codex-sdk` yields).

pub mod discover;
mod error;
pub mod events;
mod session;
pub mod tools;

pub use error::CodexError;
pub use events::{EventMapper, TurnEnd};
pub use session::{start, CodexEvent, CodexEvents, CodexSession, CodexStarted};

use std::sync::Arc;
use std::time::Duration;

use crate::cli::launch::Launch;
use crate::mcp::McpServerDef;

/// Which of Codex's requests for the user the host has a callback for; the others get a safe
/// default answer (a decline, no answers, no permissions).
#[derive(Debug, Clone, Copy, Default)]
pub struct CodexCallbacks {
    /// `item/commandExecution/requestApproval` (and the legacy `execCommandApproval`).
    pub command_approval: bool,
    /// `item/fileChange/requestApproval` (and the legacy `applyPatchApproval`).
    pub file_change_approval: bool,
    /// `item/permissions/requestApproval`.
    pub permissions_approval: bool,
    /// `item/tool/requestUserInput`.
    pub user_input: bool,
    /// `mcpServer/elicitation/request`.
    pub elicitation: bool,
}

/// Everything needed to start a Codex session.
pub struct CodexSpec {
    /// The executable (see [`discover::find_codex`]) with its arguments (`app-server` and any
    /// `-c key=value` overrides), environment and working directory.
    pub launch: Launch,
    /// In-process servers by the namespace Codex knows them under.
    pub servers: Vec<(String, Arc<McpServerDef>)>,
    pub callbacks: CodexCallbacks,
    /// Forward Codex's stderr to [`crate::host::Host::stderr`].
    pub forward_stderr: bool,
    /// `initialize`'s `clientInfo`.
    pub client_name: String,
    pub client_version: String,
    pub initialize_timeout: Duration,
}

/// Default time Codex gets to answer `initialize`.
pub const DEFAULT_INITIALIZE_TIMEOUT: Duration = Duration::from_secs(60);

/// `codex app-server` with `-c key=value` overrides.
pub fn app_server_args(config_overrides: &[String]) -> Vec<String> {
    let mut args = vec!["app-server".to_string()];
    for o in config_overrides {
        args.push("-c".into());
        args.push(o.clone());
    }
    args
}
