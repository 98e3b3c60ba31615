//! The napi binding: a thin layer that hands JSON text between JavaScript and the napi-free
//! engine in `crates/agent-core`. Public API lives in `index.js`; this module is loaded through
//! `binding.js` and is not meant to be used directly.

#[macro_use]
extern crate napi_derive;

mod diagnostics;
mod js_host;
mod mcp_server;
mod session;
