//! In-process MCP servers as the session routes them: a definition whose lists and manifests are
//! answered without calling the host, and whose tool calls reach it.

use std::sync::Arc;

use agent_core::mcp::{McpAction, McpServerDef};
use serde_json::Value;

use crate::error::{Error, Result};

/// An in-process MCP server's definition: its `initialize` answer, `tools/list` entries,
/// resources and prompts, computed once and shared by every session that serves it (cheap to
/// clone). Tool calls (and reads, prompt gets) go to the session's [`Host`](super::Host) as
/// [`CallKind::Tool`](super::CallKind::Tool).
#[derive(Debug, Clone)]
pub struct ServerDef(pub(crate) Arc<McpServerDef>);

impl ServerDef {
    /// From the JSON text `{"name","version"?,"instructions"?,"tools":[<tools/list entries>],
    /// "resources"?,"resourceTemplates"?,"prompts"?}`. An empty name or two tools of one name is
    /// an [`Error::InvalidOption`].
    pub fn from_spec_json(spec: &str) -> Result<Self> {
        McpServerDef::from_spec_json(spec)
            .map(|d| Self(Arc::new(d)))
            .map_err(Error::InvalidOption)
    }

    /// A server every message of which goes to the host (any MCP server object of the host's
    /// language, connected through a transport the host feeds).
    pub fn forwarding(name: &str) -> Result<Self> {
        McpServerDef::forwarding(name)
            .map(|d| Self(Arc::new(d)))
            .map_err(Error::InvalidOption)
    }

    /// Replaces the definition (tools, resources or prompts changed at run time); sessions serving
    /// it answer from the new one at once.
    pub fn update(&self, spec: &str) -> Result<()> {
        self.0.update(spec).map_err(Error::InvalidOption)
    }

    /// The manifest sent in `initialize`; `None` for a forwarding server.
    pub fn manifest(&self) -> Option<Value> {
        self.0.manifest()
    }

    /// Routes one JSON-RPC message (text) as a session serving this server under `served_as`
    /// would.
    pub fn handle(&self, served_as: &str, message: &str) -> ServerAction {
        match self.0.handle(served_as, message) {
            McpAction::Reply(r) => ServerAction::Reply(r),
            McpAction::CallTool(call) => ServerAction::Call(call.payload),
            McpAction::Cancel(id) => ServerAction::Cancel(id),
            McpAction::Notify(payload) => ServerAction::Notify(payload),
        }
    }
}

/// What [`ServerDef::handle`] decided for a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerAction {
    /// Answer with this JSON-RPC response (text).
    Reply(String),
    /// Run it in the host: the payload of a [`CallKind::Tool`](super::CallKind::Tool) call.
    Call(String),
    /// `notifications/cancelled`: abort the call with this JSON-RPC id (JSON text).
    Cancel(String),
    /// A message the host must see that gets no answer: `{"server","message"}`.
    Notify(String),
}
