//! `tracing` output, off by default. `DEBUG_CLAUDE_AGENT_SDK=1` (or `options.debug`) turns it on:
//! one line per event on stderr. The filter can be refined with `CLAUDE_AGENT_SDK_LOG`
//! (`tracing` env-filter syntax, e.g. `agent_core=trace`).

use std::sync::Once;

static INIT: Once = Once::new();

pub fn truthy(v: Option<String>) -> bool {
  matches!(v.map(|s| s.trim().to_ascii_lowercase()).as_deref(), Some("1" | "true" | "yes" | "on"))
}

/// Installs the subscriber once per process, if diagnostics are wanted.
pub fn init(requested: bool) {
  if !(requested || truthy(std::env::var("DEBUG_CLAUDE_AGENT_SDK").ok())) {
    return;
  }
  INIT.call_once(|| {
    let filter = std::env::var("CLAUDE_AGENT_SDK_LOG").unwrap_or_else(|_| "agent_core=debug,claude_agent_sdk_native=debug".into());
    let _ = tracing_subscriber::fmt()
      .with_env_filter(tracing_subscriber::EnvFilter::new(filter))
      .with_writer(std::io::stderr)
      .with_target(false)
      .with_ansi(false)
      .compact()
      .try_init();
  });
}
