//! The Claude Agent SDK for Rust: run Claude Code as a library.
//!
//! [`query`] starts the Claude Code CLI on a prompt and yields the session's [`Message`]s as a
//! [`Stream`](futures::Stream); the [`Query`] it returns also carries the session's controls
//! ([`QueryControl`]: interrupt, change the model or the permission mode, MCP server status, ...).
//! [`Options`] (built with [`Options::builder`]) say how the CLI runs. Tools written in Rust are
//! served to the model from this process ([`tool`], [`McpServer`]), their input schema derived
//! from the argument type with `schemars`; permission prompts and hooks are answered by async
//! closures ([`OptionsBuilder::can_use_tool`], [`OptionsBuilder::hook`]).
//!
//! ```no_run
//! use claude_agent_sdk::{query, tool, McpServer, Message, Options};
//! use futures::StreamExt;
//! use schemars::JsonSchema;
//! use serde::Deserialize;
//!
//! #[derive(Deserialize, JsonSchema)]
//! struct Greet {
//!     /// Who to greet.
//!     name: String,
//! }
//!
//! #[tokio::main]
//! async fn main() -> Result<(), claude_agent_sdk::Error> {
//!     let greet = tool("greet", "Greets someone", |args: Greet| async move { format!("Hello, {}!", args.name) });
//!     let server = McpServer::builder("demo").tool(greet).build()?;
//!     let options = Options::builder().mcp_server("demo", server).allowed_tools(["mcp__demo__greet"]).build();
//!     let mut messages = query("Greet Alice", options)?;
//!     while let Some(message) = messages.next().await {
//!         match message? {
//!             Message::Assistant(a) => println!("{}", a.text()),
//!             Message::Result(r) => println!("done: {}", r.result.unwrap_or_default()),
//!             _ => {}
//!         }
//!     }
//!     Ok(())
//! }
//! ```
//!
//! MCP elicitations and the CLI's user dialogs are answered by closures too
//! ([`OptionsBuilder::on_elicitation`], [`OptionsBuilder::on_user_dialog`]). A session's
//! transcript can be mirrored to storage of your own, and resumed from it ([`store`]).
//!
//! Cargo features (none on by default): `postgres` and `redis` add `store::postgres` and
//! `store::redis`, session stores on those databases sharing their tables and keys with the
//! TypeScript package's stores; `testing` adds `store::conformance`, the conformance runner for
//! any [`SessionStore`](store::SessionStore).
//!
//! Under all of this is [`raw`], the layer for hosts that bring their own callbacks: options as
//! the TypeScript SDK names them, calls into user code with JSON payloads answered from any
//! thread, messages as JSON text in batches, session transcripts. The Node.js package's native
//! binding is such a host, built on nothing but this crate's public API.
//!
//! The CLI is found as the TypeScript SDK finds it (the npm package `@anthropic-ai/claude-code`
//! under a `node_modules` from the working directory up, then `claude` on `PATH`) unless
//! [`OptionsBuilder::cli_path`] says where. It inherits this process's environment, and is told
//! it runs under this SDK (`CLAUDE_CODE_ENTRYPOINT=sdk-rust`).

#![deny(missing_docs)]

pub mod codex;
pub mod constants;
mod dialog;
mod engine;
mod error;
mod hooks;
mod limits;
mod message;
mod options;
mod permission;
mod query;
pub mod raw;
mod server;
pub mod sessions;
pub mod spawn;
pub mod store;
mod stored;
#[cfg(feature = "testing")]
pub mod testing;
mod tool;

pub use dialog::{ElicitationRequest, ElicitationResult, UserDialogRequest};
pub use error::{Error, Result};
pub use hooks::{HookEvent, HookInput, HookMatcher, HookOutput};
pub use limits::ResourceLimits;
pub use message::{
    ApiMessage, AssistantMessage, ContentBlock, McpServerState, Message, ResultMessage, StreamEvent, SystemInit,
    SystemMessage, ToolResultBlock, UserInput, UserMessage,
};
pub use options::{
    Delivery, Effort, McpServerConfig, Options, OptionsBuilder, PermissionPrompts, Plugin, PreviewFormat,
    SettingSource, Skills, SystemPrompt, Thinking, ThinkingDisplay, Tools, WorkspaceTrust,
};
pub use permission::{PermissionContext, PermissionMode, PermissionResult};
pub use query::{
    query, startup, AccountInfo, AgentInfo, FileContents, InterruptReceipt, McpServerSpec, McpServerStatus,
    McpSetServersResult, ModelInfo, Prompt, Query, QueryControl, SettingsFile, SlashCommand, TurnResponse, WarmQuery,
};
pub use server::{McpServer, McpServerBuilder};
pub use store::{
    InMemorySessionStore, SessionKey, SessionStore, SessionStoreFlush, SessionSummaryEntry, StoredSession,
};
pub use tool::{
    input_schema, mcp_tool_name, split_mcp_tool_name, tool, tool_input, Content, IntoToolResult, Tool, ToolAnnotations,
    ToolResult,
};

#[cfg(test)]
mod tests {
    /// What users move between tasks and threads must be able to go.
    #[test]
    fn public_handles_are_send_and_sync_where_it_matters() {
        fn send<T: Send>() {}
        fn send_sync<T: Send + Sync>() {}
        send::<crate::Query>();
        send_sync::<crate::QueryControl>();
        send_sync::<crate::Options>();
        send_sync::<crate::McpServer>();
        send_sync::<crate::Tool>();
        send_sync::<crate::Message>();
        send_sync::<crate::Error>();
    }
}

/// The repository README's Rust example, compiled as a doc-test so it cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;
