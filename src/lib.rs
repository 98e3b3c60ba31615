//! The napi binding: a thin adapter between JavaScript and the Rust SDK's raw layer
//! (`claude_agent_sdk::raw`, over the napi-free engine in `crates/agent-core`): options and
//! payloads cross as JSON text, messages as Latin-1 JSON batches. Public API lives in `index.js`; this module is loaded through
//! `binding.js` and is not meant to be used directly.

#[macro_use]
extern crate napi_derive;

mod codex;
mod diagnostics;
mod errors;
mod js_host;
mod json_text;
mod mcp_server;
mod session;
mod sessions;
mod worker;

/// One tokio worker thread. The engine's work per message is small (framing, routing, a pipe
/// write); with several workers the reader and the tasks it wakes ping-pong between threads,
/// and on a 2-vCPU machine each of those switches costs more than the work itself.
#[napi_derive::module_init]
fn init_runtime() {
    if let Ok(rt) = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("claude-agent-sdk")
        .enable_all()
        .build()
    {
        napi::bindgen_prelude::create_custom_tokio_runtime(rt);
    }
}
