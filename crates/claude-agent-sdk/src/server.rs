//! In-process MCP servers: named sets of [`Tool`]s the CLI reaches through this process.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use serde_json::json;

use crate::error::Result;
use crate::raw::ServerDef;
use crate::tool::Tool;

/// An MCP server run in this process. Give it to a query with
/// [`OptionsBuilder::mcp_server`](crate::OptionsBuilder::mcp_server); its tools are offered to
/// the model as `mcp__<key>__<tool>`. Cheap to clone: one server (its manifest computed once) can
/// serve any number of concurrent queries.
#[derive(Clone)]
pub struct McpServer {
    pub(crate) inner: Arc<ServerInner>,
}

pub(crate) struct ServerInner {
    pub(crate) name: String,
    pub(crate) tools: HashMap<String, Tool>,
    /// The engine's view of the server (its `initialize` and `tools/list` answers).
    pub(crate) def: ServerDef,
}

impl fmt::Debug for McpServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpServer")
            .field("name", &self.inner.name)
            .field("tools", &self.inner.tools.keys())
            .finish()
    }
}

impl McpServer {
    /// Starts describing a server.
    pub fn builder(name: impl Into<String>) -> McpServerBuilder {
        McpServerBuilder {
            name: name.into(),
            version: None,
            instructions: None,
            tools: Vec::new(),
        }
    }

    /// The server's name (as announced in its `serverInfo`).
    pub fn name(&self) -> &str {
        &self.inner.name
    }

    /// One of its tools.
    pub fn tool(&self, name: &str) -> Option<&Tool> {
        self.inner.tools.get(name)
    }
}

/// Describes an [`McpServer`].
#[derive(Debug)]
pub struct McpServerBuilder {
    name: String,
    version: Option<String>,
    instructions: Option<String>,
    tools: Vec<Tool>,
}

impl McpServerBuilder {
    /// The version in its `serverInfo` (default `1.0.0`).
    pub fn version(mut self, version: impl Into<String>) -> Self {
        self.version = Some(version.into());
        self
    }

    /// Instructions for the model about the server as a whole.
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// Adds a tool.
    pub fn tool(mut self, tool: Tool) -> Self {
        self.tools.push(tool);
        self
    }

    /// Builds the server. Fails on an empty name or two tools of one name.
    pub fn build(self) -> Result<McpServer> {
        let listing: Vec<_> = self.tools.iter().map(Tool::listing).collect();
        let spec =
            json!({ "name": self.name, "version": self.version, "instructions": self.instructions, "tools": listing });
        let def = ServerDef::from_spec_json(&spec.to_string())?;
        let tools = self.tools.into_iter().map(|t| (t.name.clone(), t)).collect();
        Ok(McpServer {
            inner: Arc::new(ServerInner {
                name: self.name,
                tools,
                def,
            }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        let t = crate::tool("t", "d", |_: serde_json::Value| async { "x" });
        let e = McpServer::builder("s").tool(t.clone()).tool(t).build().unwrap_err();
        assert!(e.to_string().contains("twice"), "{e}");
        assert!(McpServer::builder("").build().unwrap_err().to_string().contains("name"));
    }
}
