//! In-process MCP servers. The CLI knows them by name only and sends MCP JSON-RPC to us as
//! `mcp_message` control requests; this module answers everything but `tools/call` itself (from
//! manifests computed once per server) and turns `tools/call` into a call to the host.

mod server;
mod validate;

pub use validate::ArgsCheck;

pub use server::{McpAction, McpServerDef, ToolCall, LATEST_PROTOCOL_VERSION, NOTIFICATION_ACK, RESOURCE_NOT_FOUND};
