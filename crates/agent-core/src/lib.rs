//! The engine of claude-agent-sdk-native, free of napi so it can serve as a Rust SDK on its own.
//!
//! - [`cli`]: finding the Claude Code executable, building its argv and environment, spawning it.
//! - [`codec`]: NDJSON framing of the child's stdout.
//! - [`protocol`]: the envelopes of the stream-json control protocol.
//! - [`mcp`]: in-process MCP servers (the `mcp_message` control requests).
//! - [`session`]: the session loop that owns the pipe, routes every control request and owns the
//!   state of every request in flight.
//! - [`sessions`]: session transcripts on disk (list, read, rename, tag, archive, fork, delete).
//! - [`host`]: the trait through which the session reaches user code (tool handlers, permission
//!   prompts, hooks) that lives in the embedding program, and the [`host::Reply`] it answers with.
//! - [`error`]: the one error type, with a stable code per variant.
//!
//! Modules depend on each other as a tree: `session` → `cli`, `mcp`, `host`, `codec`,
//! `protocol`, `options`, `error`; `mcp` → `protocol`; `cli` → `options`, `error`.

pub mod cli;
pub mod codec;
pub mod codex;
pub mod error;
pub mod host;
pub mod mcp;
pub mod options;
pub mod protocol;
pub mod session;
pub mod sessions;

pub use error::{Error, Result};
