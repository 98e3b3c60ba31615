//! `createSdkMcpServer()`'s native half: the server's manifests, computed once per server object
//! and shared by every query that uses it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, LazyLock, Mutex, Weak};

use agent_core::mcp::McpServerDef;
use napi::{Error, Result, Status};

static NEXT_ID: AtomicU32 = AtomicU32::new(1);

/// Live servers by id, so `startSession` can take plain ids instead of object references.
static REGISTRY: LazyLock<Mutex<HashMap<u32, Weak<McpServerDef>>>> = LazyLock::new(Default::default);

#[napi]
pub struct NativeMcpServer {
  id: u32,
  def: Arc<McpServerDef>,
}

#[napi]
impl NativeMcpServer {
  /// `spec`: `{"name","version","instructions","tools":[<tools/list entries>]}` as JSON text.
  #[napi(constructor)]
  pub fn new(spec: String) -> Result<Self> {
    let def = Arc::new(McpServerDef::from_spec_json(&spec).map_err(|e| Error::new(Status::InvalidArg, e))?);
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    REGISTRY.lock().unwrap_or_else(|p| p.into_inner()).insert(id, Arc::downgrade(&def));
    Ok(Self { id, def })
  }

  #[napi(getter)]
  pub fn id(&self) -> u32 {
    self.id
  }

  /// The manifest sent in `initialize` (for inspection and tests), as JSON text.
  #[napi]
  pub fn manifest(&self) -> String {
    self.def.manifest().to_string()
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
