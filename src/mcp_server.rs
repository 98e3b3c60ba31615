//! `createSdkMcpServer()`'s native half: the server's manifests, computed once per definition
//! and shared by every query that uses it; replaced when the server changes at run time.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, LazyLock, Mutex, Weak};

use agent_core::mcp::{McpAction, McpServerDef};
use napi::{Error, Result, Status};

static NEXT_ID: AtomicU32 = AtomicU32::new(1);

/// Live servers by id, so `startSession` can take plain ids instead of object references.
static REGISTRY: LazyLock<Mutex<HashMap<u32, Weak<McpServerDef>>>> = LazyLock::new(Default::default);

#[napi]
pub struct NativeMcpServer {
  id: u32,
  def: Arc<McpServerDef>,
}

impl NativeMcpServer {
  fn register(def: McpServerDef) -> Self {
    let def = Arc::new(def);
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    REGISTRY.lock().unwrap_or_else(|p| p.into_inner()).insert(id, Arc::downgrade(&def));
    Self { id, def }
  }
}

#[napi]
impl NativeMcpServer {
  /// `spec`: `{"name","version","instructions","tools":[<tools/list entries>],...}` as JSON text
  /// (see `agent_core::mcp::McpServerDef::from_spec_json`).
  #[napi(constructor)]
  pub fn new(spec: String) -> Result<Self> {
    Ok(Self::register(McpServerDef::from_spec_json(&spec).map_err(|e| Error::new(Status::InvalidArg, e))?))
  }

  /// A server every message of which goes to JS (any MCP server object, connected through a
  /// transport).
  #[napi(factory)]
  pub fn forwarding(name: String) -> Result<Self> {
    Ok(Self::register(McpServerDef::forwarding(&name).map_err(|e| Error::new(Status::InvalidArg, e))?))
  }

  #[napi(getter)]
  pub fn id(&self) -> u32 {
    self.id
  }

  /// Replaces the definition (tools, resources, prompts changed at run time).
  #[napi]
  pub fn update(&self, spec: String) -> Result<()> {
    self.def.update(&spec).map_err(|e| Error::new(Status::InvalidArg, e))
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
      McpAction::Reply(r) => format!("{{\"reply\":{r}}}"),
      McpAction::CallTool(call) => format!("{{\"call\":{}}}", call.payload),
      McpAction::Cancel(id) => format!("{{\"cancel\":{id}}}"),
      McpAction::Notify(payload) => format!("{{\"notify\":{payload}}}"),
    }
  }
}

impl Drop for NativeMcpServer {
  fn drop(&mut self) {
    REGISTRY.lock().unwrap_or_else(|p| p.into_inner()).remove(&self.id);
  }
}

pub fn lookup(id: u32) -> Result<Arc<McpServerDef>> {
  REGISTRY
    .lock()
    .unwrap_or_else(|p| p.into_inner())
    .get(&id)
    .and_then(Weak::upgrade)
    .ok_or_else(|| Error::new(Status::InvalidArg, format!("in-process MCP server #{id} no longer exists")))
}
