//! `createSdkMcpServer()`'s native half: the server's manifests, computed once per definition
//! and shared by every query that uses it; replaced when the server changes at run time.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, LazyLock, Mutex, Weak};

use claude_agent_sdk::raw::{ServerAction, ServerDef};
use napi::{Error, Result, Status};

static NEXT_ID: AtomicU32 = AtomicU32::new(1);

/// Live servers by id, so `startSession` can take plain ids instead of object references.
static REGISTRY: LazyLock<Mutex<HashMap<u32, Weak<ServerDef>>>> = LazyLock::new(Default::default);

#[napi]
pub struct NativeMcpServer {
    id: u32,
    def: Arc<ServerDef>,
}

impl NativeMcpServer {
    fn register(def: ServerDef) -> Self {
        let def = Arc::new(def);
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        REGISTRY
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id, Arc::downgrade(&def));
        Self { id, def }
    }
}

#[napi]
impl NativeMcpServer {
    /// `spec`: `{"name","version","instructions","tools":[<tools/list entries>],...}` as JSON text
    /// (see `claude_agent_sdk::raw::ServerDef::from_spec_json`).
    #[napi(constructor)]
    pub fn new(spec: String) -> Result<Self> {
        Ok(Self::register(ServerDef::from_spec_json(&spec).map_err(invalid)?))
    }

    /// A server every message of which goes to JS (any MCP server object, connected through a
    /// transport).
    #[napi(factory)]
    pub fn forwarding(name: String) -> Result<Self> {
        Ok(Self::register(ServerDef::forwarding(&name).map_err(invalid)?))
    }

    #[napi(getter)]
    pub fn id(&self) -> u32 {
        self.id
    }

    /// Replaces the definition (tools, resources, prompts changed at run time).
    #[napi]
    pub fn update(&self, spec: String) -> Result<()> {
        self.def.update(&spec).map_err(invalid)
    }

    /// The manifest sent in `initialize` (for inspection and tests), as JSON text; `null` for a
    /// forwarding server.
    #[napi]
    pub fn manifest(&self) -> Option<String> {
        self.def.manifest().map(|m| m.to_string())
    }

    /// Routes one JSON-RPC message as a session would (for `instance.connect(transport)`), as
    /// JSON text: `{"reply":<response>}`, `{"call":<host payload>}`, `{"cancel":<request id>}` or
    /// `{"notify":<payload>}`.
    #[napi]
    pub fn handle(&self, served_as: String, message: String) -> String {
        match self.def.handle(&served_as, &message) {
            ServerAction::Reply(r) => format!("{{\"reply\":{r}}}"),
            ServerAction::Call(payload) => format!("{{\"call\":{payload}}}"),
            ServerAction::Cancel(id) => format!("{{\"cancel\":{id}}}"),
            ServerAction::Notify(payload) => format!("{{\"notify\":{payload}}}"),
        }
    }
}

impl Drop for NativeMcpServer {
    fn drop(&mut self) {
        REGISTRY.lock().unwrap_or_else(|p| p.into_inner()).remove(&self.id);
    }
}

pub fn lookup(id: u32) -> Result<ServerDef> {
    REGISTRY
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get(&id)
        .and_then(Weak::upgrade)
        .map(|def| (*def).clone())
        .ok_or_else(|| {
            Error::new(
                Status::InvalidArg,
                format!("in-process MCP server #{id} no longer exists"),
            )
        })
}

/// A bad server definition: thrown as a `TypeError`-like invalid-argument error with its message.
fn invalid(e: claude_agent_sdk::Error) -> Error {
    Error::new(Status::InvalidArg, e.to_string())
}
