//! What the scripted model answers one request with: [`Turn`] (content blocks, or an API error).

use std::time::Duration;

use serde::Serialize;
use serde_json::{json, Map, Value};

/// One model response: text, thinking and tool calls, in the order added, or an
/// [`ApiError`]. Several tool calls in one turn are parallel calls (the CLI runs them
/// concurrently when every one of them is read-only, see
/// [`ToolAnnotations::read_only`](crate::ToolAnnotations::read_only)).
///
/// ```
/// use claude_agent_sdk::testing::{ApiError, Turn};
/// use serde_json::json;
///
/// let answer = Turn::text("Hello");
/// let one_call = Turn::tool_call("mcp__demo__greet", &json!({ "name": "Alice" }));
/// let two_calls = Turn::text("Looking both up")
///     .and_tool_call("mcp__demo__greet", &json!({ "name": "Alice" }))
///     .and_tool_call("mcp__demo__greet", &json!({ "name": "Bob" }));
/// let refused = Turn::error(ApiError::invalid_request("prompt is too long"));
/// # let _ = (answer, one_call, two_calls, refused);
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Turn {
    pub(crate) content: Vec<Value>,
    pub(crate) stop_reason: Option<String>,
    pub(crate) usage: Map<String, Value>,
    pub(crate) model: Option<String>,
    pub(crate) delay: Option<Duration>,
    pub(crate) error: Option<ApiError>,
}

impl Turn {
    /// A response with one text block.
    pub fn text(text: impl Into<String>) -> Self {
        Turn::default().and_text(text)
    }

    /// A response with one tool call (`stop_reason: tool_use`). `name` is the name the model
    /// sees: `mcp__<server>__<tool>` for an in-process tool ([`mcp_tool_name`](crate::mcp_tool_name)).
    pub fn tool_call(name: impl Into<String>, input: &impl Serialize) -> Self {
        Turn::default().and_tool_call(name, input)
    }

    /// A response with one thinking block.
    pub fn thinking(thinking: impl Into<String>) -> Self {
        Turn::default().and_thinking(thinking)
    }

    /// An HTTP error instead of a response.
    pub fn error(error: ApiError) -> Self {
        Turn {
            error: Some(error),
            ..Turn::default()
        }
    }

    /// Adds a text block.
    pub fn and_text(mut self, text: impl Into<String>) -> Self {
        self.content.push(json!({ "type": "text", "text": text.into() }));
        self
    }

    /// Adds a thinking block (with a placeholder signature).
    pub fn and_thinking(mut self, thinking: impl Into<String>) -> Self {
        self.content
            .push(json!({ "type": "thinking", "thinking": thinking.into(), "signature": "c2NyaXB0ZWQ=" }));
        self
    }

    /// Adds a tool call with a generated id. An input that does not serialize to JSON makes the
    /// turn an HTTP 400 naming the tool, so the test fails visibly.
    pub fn and_tool_call(self, name: impl Into<String>, input: &impl Serialize) -> Self {
        self.push_tool_call(None, name.into(), input)
    }

    /// Adds a tool call with the given id (`toolu_...`), to find its result by id.
    pub fn and_tool_call_with_id(self, id: impl Into<String>, name: impl Into<String>, input: &impl Serialize) -> Self {
        self.push_tool_call(Some(id.into()), name.into(), input)
    }

    fn push_tool_call(mut self, id: Option<String>, name: String, input: &impl Serialize) -> Self {
        match serde_json::to_value(input) {
            Ok(input) => {
                let mut block = json!({ "type": "tool_use", "name": name, "input": input });
                if let Some(id) = id {
                    block["id"] = json!(id);
                }
                self.content.push(block);
            }
            Err(e) => {
                self.error = Some(ApiError::invalid_request(format!(
                    "scripted model: the input of the call to {name} does not serialize to JSON: {e}"
                )))
            }
        }
        self
    }

    /// Adds a content block as it goes on the wire (e.g. `{"type": "redacted_thinking", ...}`);
    /// a block of a type this server does not stream piece by piece is sent whole in its
    /// `content_block_start` event.
    pub fn and_block(mut self, block: Value) -> Self {
        self.content.push(block);
        self
    }

    /// The stop reason (default: `tool_use` when the turn calls a tool, else `end_turn`).
    pub fn stop_reason(mut self, reason: impl Into<String>) -> Self {
        self.stop_reason = Some(reason.into());
        self
    }

    /// Usage fields merged into the default (`input_tokens: 10`, `output_tokens` about a
    /// quarter of the content's characters, cache fields 0).
    pub fn usage(mut self, usage: Value) -> Self {
        if let Value::Object(m) = usage {
            self.usage.extend(m);
        }
        self
    }

    /// The model named in the response (default: the one requested).
    pub fn model(mut self, model: impl Into<String>) -> Self {
        self.model = Some(model.into());
        self
    }

    /// Waits this long before answering (overrides [`ScriptedModelBuilder::delay`](super::ScriptedModelBuilder::delay)).
    pub fn delay(mut self, delay: Duration) -> Self {
        self.delay = Some(delay);
        self
    }

    /// The tool calls of this turn: `(id, name, input)`, ids as they will be sent (known only
    /// for calls added with [`and_tool_call_with_id`](Self::and_tool_call_with_id) until the
    /// turn is served).
    pub fn tool_calls(&self) -> impl Iterator<Item = (Option<&str>, &str, &Value)> {
        self.content
            .iter()
            .filter(|b| b["type"] == "tool_use")
            .map(|b| (b["id"].as_str(), b["name"].as_str().unwrap_or_default(), &b["input"]))
    }
}

impl From<&str> for Turn {
    fn from(text: &str) -> Self {
        Turn::text(text)
    }
}

impl From<String> for Turn {
    fn from(text: String) -> Self {
        Turn::text(text)
    }
}

/// An Anthropic-style HTTP error (`{"type": "error", "error": {"type", "message"}}`).
///
/// The CLI asks again after most errors, and each request takes the script's next turn: it
/// retries 429, 5xx and 529 with back-off (about a second per retry), and after a 400 it asks
/// again with fewer beta features (three requests in all with CLI 2.1.332) before ending the
/// turn with an error result carrying the message (`api_error_status` in its raw JSON) and
/// exiting with code 1. To have a turn fail for good, make the error the
/// [fallback](super::ScriptedModelBuilder::fallback), or script it as often as the CLI asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: u16,
    /// The error's `type` (`invalid_request_error`, `overloaded_error`, ...).
    pub kind: String,
    /// The error's `message`.
    pub message: String,
}

impl ApiError {
    /// Any status, type and message.
    pub fn new(status: u16, kind: impl Into<String>, message: impl Into<String>) -> Self {
        ApiError {
            status,
            kind: kind.into(),
            message: message.into(),
        }
    }

    /// 400 `invalid_request_error` (asked again with fewer betas, see above).
    pub fn invalid_request(message: impl Into<String>) -> Self {
        ApiError::new(400, "invalid_request_error", message)
    }

    /// 401 `authentication_error`.
    pub fn authentication(message: impl Into<String>) -> Self {
        ApiError::new(401, "authentication_error", message)
    }

    /// 429 `rate_limit_error` (retried).
    pub fn rate_limit(message: impl Into<String>) -> Self {
        ApiError::new(429, "rate_limit_error", message)
    }

    /// 500 `api_error` (retried).
    pub fn server(message: impl Into<String>) -> Self {
        ApiError::new(500, "api_error", message)
    }

    /// 529 `overloaded_error` (retried).
    pub fn overloaded() -> Self {
        ApiError::new(529, "overloaded_error", "Overloaded")
    }

    pub(crate) fn body(&self) -> Value {
        json!({ "type": "error", "error": { "type": self.kind, "message": self.message } })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builders_keep_the_order_of_blocks_and_parallel_calls() {
        let t = Turn::thinking("hm")
            .and_text("two calls")
            .and_tool_call("a", &json!({ "x": 1 }))
            .and_tool_call_with_id("toolu_2", "b", &json!({}));
        let types: Vec<_> = t.content.iter().map(|b| b["type"].as_str().unwrap()).collect();
        assert_eq!(types, ["thinking", "text", "tool_use", "tool_use"]);
        let calls: Vec<_> = t.tool_calls().collect();
        assert_eq!(
            calls,
            [(None, "a", &json!({ "x": 1 })), (Some("toolu_2"), "b", &json!({}))]
        );
        assert_eq!(Turn::from("hi"), Turn::text("hi"));
    }

    #[test]
    fn an_input_that_does_not_serialize_is_a_400_naming_the_tool() {
        let mut bad = std::collections::HashMap::new();
        bad.insert((1, 2), 3); // a map with non-string keys is no JSON object
        let t = Turn::tool_call("mcp__demo__greet", &bad);
        let e = t.error.expect("an error turn");
        assert_eq!(e.status, 400);
        assert!(e.message.contains("mcp__demo__greet"), "{}", e.message);
    }

    #[test]
    fn error_bodies_are_anthropic_shaped() {
        assert_eq!(
            ApiError::overloaded().body(),
            json!({ "type": "error", "error": { "type": "overloaded_error", "message": "Overloaded" } })
        );
        assert_eq!(ApiError::rate_limit("slow down").status, 429);
    }
}
