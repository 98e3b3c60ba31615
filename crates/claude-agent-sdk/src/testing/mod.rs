//! Test support (cargo feature `testing`): run the real Claude Code CLI offline against a
//! scripted model, and check what it did and what the model was shown.
//!
//! [`ScriptedModel`] is a local fake of the Anthropic Messages API on 127.0.0.1. Each agent turn
//! the CLI asks for is answered with the next scripted [`Turn`] (text, thinking, one or several
//! tool calls, or an [`ApiError`]), streamed as server-sent events exactly as the API streams
//! them; the CLI's side queries (titles, classifiers) and probes are answered without using the
//! script. Every request is recorded as a [`RecordedRequest`], with helpers for what a test
//! asserts on: the tool results the model was sent, the user's text, the tools offered.
//! [`collect`] and friends gather a query's messages.
//!
//! ```no_run
//! use claude_agent_sdk::testing::{collect, result_text, ScriptedModel, Turn};
//! use claude_agent_sdk::{mcp_tool_name, query, tool, McpServer};
//! use schemars::JsonSchema;
//! use serde::Deserialize;
//! use serde_json::json;
//!
//! #[derive(Deserialize, JsonSchema)]
//! struct Greet {
//!     name: String,
//! }
//!
//! #[tokio::main]
//! async fn main() {
//!     let greet = mcp_tool_name("demo", "greet");
//!     let model = ScriptedModel::builder()
//!         .turn(Turn::tool_call(&greet, &json!({ "name": "Alice" })))
//!         .turn_with(|request, _| Turn::text(format!("The tool said: {}", request.last_tool_result_text())))
//!         .start()
//!         .unwrap();
//!     let server = McpServer::builder("demo")
//!         .tool(tool("greet", "Greets", |g: Greet| async move { format!("Hello, {}!", g.name) }))
//!         .build()
//!         .unwrap();
//!     let options = model
//!         .options()
//!         .cli_path("node_modules/@anthropic-ai/claude-code/bin/claude.exe")
//!         .mcp_server("demo", server)
//!         .allowed_tools([greet.as_str()])
//!         .build();
//!     let messages = collect(query("Greet Alice", options).unwrap()).await.unwrap();
//!     assert_eq!(result_text(&messages).as_deref(), Some("The tool said: Hello, Alice!"));
//!     assert_eq!(model.requests()[1].tool_results()[0].1, "Hello, Alice!");
//! }
//! ```
//!
//! The CLI itself is not part of this crate: install `@anthropic-ai/claude-code` from npm (its
//! `bin/claude.exe` is a native binary; it is found under `node_modules` from the working
//! directory up) or give its path to [`cli_path`](crate::OptionsBuilder::cli_path). No network
//! is used: the CLI is told not to send telemetry or other traffic besides the model's.
//!
//! What the CLI does with a scripted answer is the CLI's own: it asks again after API errors
//! (see [`ApiError`]), runs parallel calls together only for read-only tools
//! ([`ToolAnnotations::read_only`](crate::ToolAnnotations::read_only)), sends tool results in
//! the order the calls finished, and makes side requests (titles, classifiers) that do not use
//! the script ([`RequestKind`]).

mod request;
mod server;
mod sse;
mod turn;

pub use request::{is_agent_turn, strip_reminders, tool_result_text, RecordedRequest, RequestKind, SIDE_AGENT_MARKERS};
pub use server::{ScriptedModel, ScriptedModelBuilder, TurnInfo};
pub use turn::{ApiError, Turn};

use futures::StreamExt;

use crate::{Error, Message, Query, ResultMessage, ToolResultBlock};

/// Every message of a query, to its end; the first error ends it and is returned.
pub async fn collect(query: Query) -> Result<Vec<Message>, Error> {
    match collect_until_error(query).await {
        (messages, None) => Ok(messages),
        (_, Some(e)) => Err(e),
    }
}

/// The messages of a query up to its end or its first error, and that error (for tests of
/// how a session fails: what arrived before the error matters too).
pub async fn collect_until_error(mut query: Query) -> (Vec<Message>, Option<Error>) {
    let mut messages = Vec::new();
    while let Some(m) = query.next().await {
        match m {
            Ok(m) => messages.push(m),
            Err(e) => return (messages, Some(e)),
        }
    }
    (messages, None)
}

/// The last result message.
pub fn result(messages: &[Message]) -> Option<&ResultMessage> {
    messages.iter().rev().find_map(|m| match m {
        Message::Result(r) => Some(r),
        _ => None,
    })
}

/// The last result's text (`None` without a result, or for an error result without text).
pub fn result_text(messages: &[Message]) -> Option<String> {
    result(messages).and_then(|r| r.result.clone())
}

/// Every tool result the session's user messages carry, in order.
pub fn tool_results(messages: &[Message]) -> Vec<ToolResultBlock> {
    messages
        .iter()
        .filter_map(|m| match m {
            Message::User(u) => Some(u.tool_results()),
            _ => None,
        })
        .flatten()
        .collect()
}

/// Every tool call of the session's assistant messages, in order: `(id, name, input)`.
pub fn tool_calls(messages: &[Message]) -> Vec<(String, String, serde_json::Value)> {
    messages
        .iter()
        .filter_map(|m| match m {
            Message::Assistant(a) => Some(
                a.tool_uses()
                    .map(|(id, name, input)| (id.to_string(), name.to_string(), input.clone()))
                    .collect::<Vec<_>>(),
            ),
            _ => None,
        })
        .flatten()
        .collect()
}
