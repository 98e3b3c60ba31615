//! How a host runs the user code a session calls: the [`Host`] trait, the [`Call`]s it is given
//! and the [`Reply`] each is answered through. These are the engine's own types (no copy to
//! keep in step): [`CallKind`] is exhaustive, so a host that matches on it fails to compile when
//! the engine adds a kind, rather than leaving it unanswered.
//!
//! [`CallKind`]'s payloads and answers are JSON text, in the shapes the TypeScript SDK's callbacks
//! take and return: `Tool` (payload `{"server","tool","id","arguments"?,"meta"}`; answer
//! `{"result": CallToolResult}` or `{"error": {"code","message"}}`), `CanUseTool` (a
//! PermissionResult), `Hook` (the hook's output), `Elicitation` (an ElicitResult, or `null`),
//! `UserDialog` (the dialog's result, or `null`), `StoreAppend` (payload
//! `{"key":{"projectKey","sessionId","subpath"?},"entries":[..]}`; the answer is ignored, a failure
//! is tried again and then reported as a `mirror_error` system message), `HostRequest` (a request
//! an optional host handler answers, as the CLI sent it: `oauth_token_refresh`,
//! `host_auth_token_refresh`, `remote_control_work_secret`, `ui_*`; answer `{"response": BODY}` or
//! `{"error": MESSAGE, "error_code"?: CODE}`), `CodexRequest` (a Codex app-server request for the
//! user, [`crate::raw::codex`]: payload `{"method","params"}` as Codex sent them; answer the
//! JSON-RPC result Codex expects, a failure answering with the method's safe default, a decline).

pub use agent_core::host::{CallKind, Host, HostCall as Call, HostResult as CallResult, Reply, StderrGate};

/// From now on, the answers [`Reply::send`] writes on this thread wait, and leave together at
/// [`release_answers`]: one write per session for all of them. For a host that answers many calls
/// in one go (a JavaScript host answers every call that settled in one microtask checkpoint);
/// a session that closes its input meanwhile still writes them first.
pub fn hold_answers() {
    agent_core::session::hold_lines()
}

/// Writes the answers held on this thread since [`hold_answers`], and stops holding.
pub fn release_answers() {
    agent_core::session::release_lines()
}
