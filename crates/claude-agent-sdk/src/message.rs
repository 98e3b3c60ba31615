//! The messages a query yields, typed after the CLI's `stream-json` output (field names as on
//! the wire), each keeping the JSON it was read from. Messages of a type this crate does not
//! know arrive as [`Message::Other`], so a newer CLI never breaks the stream.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// One message of a query.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Message {
    /// `type: "system"`: session start (`init`), status changes, hook and task events, ...
    System(SystemMessage),
    /// `type: "assistant"`: a model response.
    Assistant(AssistantMessage),
    /// `type: "user"`: tool results, replayed and echoed user messages.
    User(UserMessage),
    /// `type: "result"`: the last message of a turn, with cost, usage and the final text.
    Result(ResultMessage),
    /// `type: "stream_event"`: a raw Messages API streaming event (with
    /// [`OptionsBuilder::include_partial_messages`](crate::OptionsBuilder::include_partial_messages)).
    StreamEvent(StreamEvent),
    /// Any other message (`tool_progress`, `auth_status`, `rate_limit_event`, ...), or one whose
    /// fields did not have the expected types, as the CLI sent it.
    Other(Value),
}

impl Message {
    /// Reads one line of the CLI's output. Anything that is valid JSON becomes a message: unknown
    /// or malformed messages become [`Message::Other`].
    pub fn from_json(text: &str) -> Result<Self, serde_json::Error> {
        Ok(Self::from_value(serde_json::from_str(text)?))
    }

    /// Types a JSON message (see [`Message::from_json`]).
    pub fn from_value(raw: Value) -> Self {
        fn typed<T: for<'de> Deserialize<'de> + HasRaw>(raw: Value, wrap: fn(T) -> Message) -> Message {
            match T::deserialize(&raw) {
                Ok(mut m) => {
                    m.set_raw(raw);
                    wrap(m)
                }
                Err(_) => Message::Other(raw),
            }
        }
        match raw.get("type").and_then(Value::as_str) {
            Some("system") => typed(raw, Message::System),
            Some("assistant") => typed(raw, Message::Assistant),
            Some("user") => typed(raw, Message::User),
            Some("result") => typed(raw, Message::Result),
            Some("stream_event") => typed(raw, Message::StreamEvent),
            _ => Message::Other(raw),
        }
    }

    /// The JSON this message was read from.
    pub fn raw(&self) -> &Value {
        match self {
            Message::System(m) => &m.raw,
            Message::Assistant(m) => &m.raw,
            Message::User(m) => &m.raw,
            Message::Result(m) => &m.raw,
            Message::StreamEvent(m) => &m.raw,
            Message::Other(v) => v,
        }
    }

    /// The wire `type` (`"system"`, `"assistant"`, ..., or whatever an [`Message::Other`] says).
    pub fn kind(&self) -> &str {
        self.raw().get("type").and_then(Value::as_str).unwrap_or("")
    }

    /// The session id the CLI gave the message, when it has one.
    pub fn session_id(&self) -> Option<&str> {
        self.raw().get("session_id").and_then(Value::as_str)
    }
}

trait HasRaw {
    fn set_raw(&mut self, raw: Value);
}

macro_rules! has_raw {
  ($($t:ty),*) => {$(impl HasRaw for $t { fn set_raw(&mut self, raw: Value) { self.raw = raw; } })*};
}
has_raw!(SystemMessage, AssistantMessage, UserMessage, ResultMessage, StreamEvent);

/// A `system` message. Its fields beyond `subtype`, `session_id` and `uuid` differ by subtype;
/// [`SystemMessage::init`] types the `init` message, [`SystemMessage::raw`] holds them all.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[non_exhaustive]
pub struct SystemMessage {
    /// `init`, `status`, `compact_boundary`, `hook_started`, `task_started`, ...
    pub subtype: String,
    /// The session's id.
    #[serde(default)]
    pub session_id: Option<String>,
    /// The message's id.
    #[serde(default)]
    pub uuid: Option<String>,
    /// The message as the CLI sent it.
    #[serde(skip)]
    pub raw: Value,
}

impl SystemMessage {
    /// The session's setup, when this is the `init` message.
    pub fn init(&self) -> Option<SystemInit> {
        (self.subtype == "init")
            .then(|| SystemInit::deserialize(&self.raw).ok())
            .flatten()
    }
}

/// The `init` system message: what the session runs with.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[non_exhaustive]
pub struct SystemInit {
    /// The working directory.
    #[serde(default)]
    pub cwd: String,
    /// Every tool the model is offered (in-process ones as `mcp__<server>__<tool>`).
    #[serde(default)]
    pub tools: Vec<String>,
    /// MCP servers and their connection status.
    #[serde(default)]
    pub mcp_servers: Vec<McpServerState>,
    /// The model.
    #[serde(default)]
    pub model: String,
    /// The permission mode (`default`, `acceptEdits`, ...).
    #[serde(default, rename = "permissionMode")]
    pub permission_mode: String,
    /// Slash commands available.
    #[serde(default)]
    pub slash_commands: Vec<String>,
    /// Where the API key came from.
    #[serde(default, rename = "apiKeySource")]
    pub api_key_source: String,
    /// The CLI's version.
    #[serde(default)]
    pub claude_code_version: String,
    /// The session's id.
    #[serde(default)]
    pub session_id: String,
}

/// One MCP server in the `init` message.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct McpServerState {
    /// Its name (the key in `mcpServers`).
    pub name: String,
    /// `connected`, `failed`, `pending`, ...
    pub status: String,
}

/// An `assistant` message.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[non_exhaustive]
pub struct AssistantMessage {
    /// The Messages API message.
    pub message: ApiMessage,
    /// Set when the message belongs to a subagent: the id of the tool call that started it.
    #[serde(default)]
    pub parent_tool_use_id: Option<String>,
    /// The session's id.
    #[serde(default)]
    pub session_id: Option<String>,
    /// The message's id.
    #[serde(default)]
    pub uuid: Option<String>,
    /// Why the response failed (`rate_limit`, `authentication_failed`, ...), when it did.
    #[serde(default)]
    pub error: Option<String>,
    /// The message as the CLI sent it.
    #[serde(skip)]
    pub raw: Value,
}

impl AssistantMessage {
    /// The text blocks, joined.
    pub fn text(&self) -> String {
        self.message
            .content
            .iter()
            .filter_map(|b| {
                if let ContentBlock::Text { text } = b {
                    Some(text.as_str())
                } else {
                    None
                }
            })
            .collect()
    }

    /// The tool calls the model made in this message.
    pub fn tool_uses(&self) -> impl Iterator<Item = (&str, &str, &Value)> {
        self.message.content.iter().filter_map(|b| match b {
            ContentBlock::ToolUse { id, name, input } => Some((id.as_str(), name.as_str(), input)),
            _ => None,
        })
    }
}

/// A Messages API message (the `message` of an assistant message).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[non_exhaustive]
pub struct ApiMessage {
    /// Its id (`msg_...`).
    #[serde(default)]
    pub id: Option<String>,
    /// The model that wrote it.
    #[serde(default)]
    pub model: Option<String>,
    /// The content blocks.
    #[serde(default)]
    pub content: Vec<ContentBlock>,
    /// Why the model stopped (`end_turn`, `tool_use`, ...), when known.
    #[serde(default)]
    pub stop_reason: Option<String>,
    /// Token usage, as the API reported it.
    #[serde(default)]
    pub usage: Option<Value>,
}

/// A content block of a message.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ContentBlock {
    /// Text.
    Text {
        /// The text.
        text: String,
    },
    /// The model's reasoning.
    Thinking {
        /// The reasoning text.
        thinking: String,
    },
    /// A tool call.
    ToolUse {
        /// The call's id (`toolu_...`).
        id: String,
        /// The tool's name.
        name: String,
        /// Its input.
        input: Value,
    },
    /// A tool's result (in user messages).
    ToolResult {
        /// The id of the call this answers.
        tool_use_id: String,
        /// A string or content blocks.
        content: Value,
        /// Whether the tool failed.
        is_error: bool,
    },
    /// Any other block, as sent.
    Other(Value),
}

impl<'de> Deserialize<'de> for ContentBlock {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(ContentBlock::from(Value::deserialize(d)?))
    }
}

impl From<Value> for ContentBlock {
    fn from(v: Value) -> Self {
        let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        match (
            v.get("type").and_then(Value::as_str),
            s("text"),
            s("thinking"),
            s("id"),
            s("name"),
            s("tool_use_id"),
        ) {
            (Some("text"), Some(text), ..) => ContentBlock::Text { text },
            (Some("thinking"), _, Some(thinking), ..) => ContentBlock::Thinking { thinking },
            (Some("tool_use"), _, _, Some(id), Some(name), _) => ContentBlock::ToolUse {
                id,
                name,
                input: v.get("input").cloned().unwrap_or(Value::Null),
            },
            (Some("tool_result"), .., Some(tool_use_id)) => ContentBlock::ToolResult {
                tool_use_id,
                content: v.get("content").cloned().unwrap_or(Value::Null),
                is_error: v.get("is_error").and_then(Value::as_bool).unwrap_or(false),
            },
            _ => ContentBlock::Other(v),
        }
    }
}

/// A `user` message: a tool result, or a user message echoed or replayed.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[non_exhaustive]
pub struct UserMessage {
    /// `{role: "user", content}`; see [`UserMessage::content`].
    pub message: Value,
    /// Set when the message belongs to a subagent.
    #[serde(default)]
    pub parent_tool_use_id: Option<String>,
    /// The session's id.
    #[serde(default)]
    pub session_id: Option<String>,
    /// The message's id.
    #[serde(default)]
    pub uuid: Option<String>,
    /// The tool's own result, for tool results.
    #[serde(default)]
    pub tool_use_result: Option<Value>,
    /// The message as the CLI sent it.
    #[serde(skip)]
    pub raw: Value,
}

impl UserMessage {
    /// The content as blocks (a string content is one text block).
    pub fn content(&self) -> Vec<ContentBlock> {
        match self.message.get("content") {
            Some(Value::String(s)) => vec![ContentBlock::Text { text: s.clone() }],
            Some(Value::Array(blocks)) => blocks.iter().cloned().map(ContentBlock::from).collect(),
            _ => Vec::new(),
        }
    }

    /// The tool results this message carries (the answers to an assistant message's
    /// [`tool_uses`](AssistantMessage::tool_uses)), in order.
    pub fn tool_results(&self) -> Vec<ToolResultBlock> {
        self.content()
            .into_iter()
            .filter_map(|b| match b {
                ContentBlock::ToolResult {
                    tool_use_id,
                    content,
                    is_error,
                } => Some(ToolResultBlock {
                    tool_use_id,
                    content,
                    is_error,
                }),
                _ => None,
            })
            .collect()
    }
}

/// A tool's result as the model received it ([`UserMessage::tool_results`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ToolResultBlock {
    /// The id of the call it answers.
    pub tool_use_id: String,
    /// A string, or content blocks (`text`, `image`, ...), as sent.
    pub content: Value,
    /// Whether the tool failed.
    pub is_error: bool,
}

impl ToolResultBlock {
    /// Its text: a string content as it is, else its `text` blocks joined with line feeds.
    pub fn text(&self) -> String {
        match &self.content {
            Value::String(s) => s.clone(),
            Value::Array(blocks) => blocks
                .iter()
                .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|b| b.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join("\n"),
            _ => String::new(),
        }
    }
}

/// A `result` message: how the turn ended.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[non_exhaustive]
pub struct ResultMessage {
    /// `success`, `error_during_execution`, `error_max_turns`, `error_max_budget_usd`, ...
    pub subtype: String,
    /// Whether the turn failed.
    #[serde(default)]
    pub is_error: bool,
    /// The final text (on success).
    #[serde(default)]
    pub result: Option<String>,
    /// Wall time of the turn, ms.
    #[serde(default)]
    pub duration_ms: u64,
    /// Time spent in API calls, ms.
    #[serde(default)]
    pub duration_api_ms: u64,
    /// Model turns taken.
    #[serde(default)]
    pub num_turns: u64,
    /// Cost of the session so far, USD.
    #[serde(default)]
    pub total_cost_usd: f64,
    /// Why the model stopped.
    #[serde(default)]
    pub stop_reason: Option<String>,
    /// Token usage.
    #[serde(default)]
    pub usage: Option<Value>,
    /// With an output schema: the validated JSON value.
    #[serde(default)]
    pub structured_output: Option<Value>,
    /// What went wrong, for error subtypes.
    #[serde(default)]
    pub errors: Vec<String>,
    /// Tool uses that were denied.
    #[serde(default)]
    pub permission_denials: Vec<Value>,
    /// The session's id.
    #[serde(default)]
    pub session_id: Option<String>,
    /// The message as the CLI sent it.
    #[serde(skip)]
    pub raw: Value,
}

/// A `stream_event` message (partial assistant output).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[non_exhaustive]
pub struct StreamEvent {
    /// The Messages API streaming event (`message_start`, `content_block_delta`, ...).
    pub event: Value,
    /// Set when the event belongs to a subagent.
    #[serde(default)]
    pub parent_tool_use_id: Option<String>,
    /// The session's id.
    #[serde(default)]
    pub session_id: Option<String>,
    /// The event's id.
    #[serde(default)]
    pub uuid: Option<String>,
    /// The message as the CLI sent it.
    #[serde(skip)]
    pub raw: Value,
}

/// A user message to send: what a streaming prompt yields, or
/// [`QueryControl::send_message`](crate::QueryControl::send_message) takes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UserInput {
    #[serde(rename = "type")]
    kind: &'static str,
    session_id: String,
    message: Value,
    parent_tool_use_id: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    client_composed: bool,
}

impl UserInput {
    /// A text message.
    pub fn text(text: impl Into<String>) -> Self {
        Self::blocks(vec![json!({ "type": "text", "text": text.into() })])
    }

    /// A message of Messages API content blocks (text, images, documents, ...).
    pub fn blocks(content: Vec<Value>) -> Self {
        Self {
            kind: "user",
            session_id: String::new(),
            message: json!({ "role": "user", "content": content }),
            parent_tool_use_id: None,
            client_composed: false,
        }
    }

    /// The session the message is for (default: the query's own).
    pub fn session_id(mut self, id: impl Into<String>) -> Self {
        self.session_id = id.into();
        self
    }

    /// Deliver the text as written: no `@path` expansion, no slash-command dispatch (Claude Code
    /// 2.1.248 or later). [`OptionsBuilder::verbatim_prompts`](crate::OptionsBuilder::verbatim_prompts)
    /// sets it on every message.
    pub fn client_composed(mut self, verbatim: bool) -> Self {
        self.client_composed = verbatim;
        self
    }

    /// The JSON line this message is sent as.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a user message always serializes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_trace_messages_and_keeps_the_rest() {
        let a = Message::from_json(r#"{"type":"assistant","message":{"id":"msg_4","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"toolu_4","name":"mcp__demo__greet","input":{"name":"Alice"}},{"type":"text","text":"hi"},{"type":"server_tool_use","id":"x"}],"stop_reason":null},"parent_tool_use_id":null,"session_id":"s","uuid":"u"}"#).unwrap();
        let Message::Assistant(a) = a else { panic!("{a:?}") };
        assert_eq!(a.text(), "hi");
        assert_eq!(a.tool_uses().next().unwrap().1, "mcp__demo__greet");
        assert!(matches!(a.message.content[2], ContentBlock::Other(_)));
        // The result message's `type` comes late on the wire.
        let r = Message::from_json(r#"{"duration_api_ms":54,"stop_reason":"end_turn","session_id":"s","total_cost_usd":0.00044,"type":"result","subtype":"success","is_error":false,"duration_ms":9,"num_turns":2,"result":"done","extra":1}"#).unwrap();
        let Message::Result(r) = &r else { panic!("{r:?}") };
        assert_eq!(
            (r.result.as_deref(), r.num_turns, r.raw["extra"].as_i64()),
            (Some("done"), 2, Some(1))
        );
        let init = Message::from_json(r#"{"type":"system","subtype":"init","cwd":"/w","session_id":"s","tools":["Bash"],"mcp_servers":[{"name":"demo","status":"connected"}],"model":"m","permissionMode":"default"}"#).unwrap();
        let Message::System(s) = &init else { panic!() };
        assert_eq!(s.init().unwrap().mcp_servers[0].status, "connected");
        assert_eq!(init.session_id(), Some("s"));
        assert!(matches!(
            Message::from_json(r#"{"type":"rate_limit_event","x":1}"#).unwrap(),
            Message::Other(_)
        ));
        assert!(
            matches!(
                Message::from_json(r#"{"type":"result","subtype":7}"#).unwrap(),
                Message::Other(_)
            ),
            "ill-typed stays readable"
        );
    }

    #[test]
    fn tool_results_and_their_text() {
        let u = Message::from_json(r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"a"},{"type":"image","data":"x"},{"type":"text","text":"b"}]},{"type":"text","text":"not a result"},{"type":"tool_result","tool_use_id":"t2","content":"plain","is_error":true}]},"session_id":"s"}"#).unwrap();
        let Message::User(u) = u else { panic!("{u:?}") };
        let results = u.tool_results();
        assert_eq!(
            results
                .iter()
                .map(|r| (r.tool_use_id.as_str(), r.text(), r.is_error))
                .collect::<Vec<_>>(),
            [("t1", "a\nb".to_string(), false), ("t2", "plain".to_string(), true)]
        );
    }

    #[test]
    fn user_input_matches_the_official_line() {
        assert_eq!(
            UserInput::text("greet Alice").to_json(),
            r#"{"type":"user","session_id":"","message":{"role":"user","content":[{"type":"text","text":"greet Alice"}]},"parent_tool_use_id":null}"#
        );
    }
}
