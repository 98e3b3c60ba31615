//! A request the scripted model received ([`RecordedRequest`]), and what a test reads from it:
//! what the model saw.

use serde_json::Value;

/// Substrings that mark a user message as the instruction of a forked side agent (prompt
/// suggestions, compaction): such a request reuses the main conversation and tools but never
/// consumes a scripted turn.
pub const SIDE_AGENT_MARKERS: &[&str] = &[
    "[SUGGESTION MODE:",
    "CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.",
];

/// What a request was, as the scripted model classified it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RequestKind {
    /// An agent turn: `POST /v1/messages` with a `tools` array (possibly empty) and no
    /// [side-agent marker](SIDE_AGENT_MARKERS). Consumes the next scripted [`Turn`](super::Turn).
    Turn,
    /// Any other `POST /v1/messages` (the CLI's one-shot side queries: titles, classifiers,
    /// summaries, and forked side agents), answered with the side-query turn.
    Side,
    /// `POST /v1/messages/count_tokens`.
    CountTokens,
    /// `HEAD /` or `GET /` (the CLI's connectivity probe).
    Probe,
    /// Anything else (answered 404).
    Other,
}

/// One HTTP request the scripted model received.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct RecordedRequest {
    /// `POST`, `HEAD`, ...
    pub method: String,
    /// The path and query, e.g. `/v1/messages?beta=true`.
    pub url: String,
    /// The headers, names in lower case, in the order received.
    pub headers: Vec<(String, String)>,
    /// The body parsed as JSON (`Null` when empty, a string when not JSON).
    pub body: Value,
    /// How it was classified and answered.
    pub kind: RequestKind,
}

impl RecordedRequest {
    /// A header's value (`name` in any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The model asked for.
    pub fn model(&self) -> Option<&str> {
        self.body["model"].as_str()
    }

    /// The `tool_result` blocks of the last user message: what the model is told its calls
    /// returned, `(tool_use_id, text, is_error)` with the text as [`tool_result_text`] flattens it.
    pub fn tool_results(&self) -> Vec<(String, String, bool)> {
        last_user_message(&self.body)
            .map(|m| {
                blocks(&m["content"])
                    .into_iter()
                    .filter(|b| b["type"] == "tool_result")
                    .map(|b| {
                        (
                            b["tool_use_id"].as_str().unwrap_or_default().to_string(),
                            tool_result_text(&b),
                            b["is_error"].as_bool().unwrap_or(false),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The text of the last tool result the model is shown (`""` when the last user message
    /// carries none).
    pub fn last_tool_result_text(&self) -> String {
        self.tool_results().pop().map(|(_, text, _)| text).unwrap_or_default()
    }

    /// What the user typed most recently: the text blocks of the latest user message with text
    /// besides `<system-reminder>` sections, joined with line feeds (reminders removed). Tool
    /// results are skipped, so during a tool loop this is still the turn's prompt.
    pub fn last_user_text(&self) -> String {
        let messages = self.body["messages"].as_array().map(Vec::as_slice).unwrap_or_default();
        for m in messages.iter().rev().filter(|m| m["role"] == "user") {
            let texts: Vec<String> = blocks(&m["content"])
                .into_iter()
                .filter(|b| b["type"] == "text")
                .map(|b| strip_reminders(b["text"].as_str().unwrap_or_default()))
                .filter(|t| !t.is_empty())
                .collect();
            if !texts.is_empty() {
                return texts.join("\n");
            }
        }
        String::new()
    }

    /// The system prompt as one string (its text blocks joined with line feeds).
    pub fn system_text(&self) -> String {
        blocks(&self.body["system"])
            .into_iter()
            .map(|b| b["text"].as_str().unwrap_or_default().to_string())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The names of the tools offered to the model.
    pub fn tool_names(&self) -> Vec<String> {
        self.body["tools"]
            .as_array()
            .map(|tools| {
                tools
                    .iter()
                    .filter_map(|t| t["name"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The tool the model is offered under `name`, as sent (`name`, `description`, `input_schema`).
    pub fn tool(&self, name: &str) -> Option<&Value> {
        self.body["tools"].as_array()?.iter().find(|t| t["name"] == name)
    }
}

/// Whether a `POST /v1/messages` body is an agent turn (see [`RequestKind::Turn`]).
pub fn is_agent_turn(body: &Value) -> bool {
    if !body["tools"].is_array() {
        return false;
    }
    let messages = body["messages"].as_array().map(Vec::as_slice).unwrap_or_default();
    !messages.iter().filter(|m| m["role"] == "user").any(|m| {
        blocks(&m["content"]).into_iter().any(|b| {
            b["type"] == "text"
                && SIDE_AGENT_MARKERS
                    .iter()
                    .any(|k| b["text"].as_str().unwrap_or_default().contains(k))
        })
    })
}

/// A tool result block (or its `content`) as text: text blocks joined with line feeds, other
/// blocks as `[type]`, `<system-reminder>` sections removed.
pub fn tool_result_text(block: &Value) -> String {
    let content = match block.get("content") {
        Some(c) if block.is_object() => c,
        _ => block,
    };
    let parts: Vec<String> = blocks(content)
        .into_iter()
        .map(|b| match b["type"].as_str() {
            Some("text") => b["text"].as_str().unwrap_or_default().to_string(),
            other => format!("[{}]", other.unwrap_or("undefined")),
        })
        .collect();
    strip_reminders(&parts.join("\n"))
}

/// `text` without the `<system-reminder>...</system-reminder>` sections the CLI injects, trimmed.
pub fn strip_reminders(text: &str) -> String {
    const OPEN: &str = "<system-reminder>";
    const CLOSE: &str = "</system-reminder>";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(OPEN) {
        match rest[start..].find(CLOSE) {
            Some(end) => {
                out.push_str(&rest[..start]);
                rest = &rest[start + end + CLOSE.len()..];
            }
            None => break,
        }
    }
    out.push_str(rest);
    out.trim().to_string()
}

fn blocks(content: &Value) -> Vec<Value> {
    match content {
        Value::String(s) => vec![serde_json::json!({ "type": "text", "text": s })],
        Value::Array(a) => a.clone(),
        _ => Vec::new(),
    }
}

fn last_user_message(body: &Value) -> Option<&Value> {
    body["messages"].as_array()?.iter().rev().find(|m| m["role"] == "user")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn request(body: Value) -> RecordedRequest {
        RecordedRequest {
            method: "POST".into(),
            url: "/v1/messages?beta=true".into(),
            headers: vec![("user-agent".into(), "claude-cli/2 (external, sdk-rust)".into())],
            body,
            kind: RequestKind::Turn,
        }
    }

    #[test]
    fn what_the_model_saw() {
        let r = request(json!({
          "model": "claude-x",
          "system": [{ "type": "text", "text": "You are" }, { "type": "text", "text": "helpful" }],
          "tools": [{ "name": "mcp__demo__greet", "input_schema": {} }],
          "messages": [
            { "role": "user", "content": [{ "type": "text", "text": "<system-reminder>ctx</system-reminder>greet Alice" }] },
            { "role": "assistant", "content": [{ "type": "tool_use", "id": "t1", "name": "mcp__demo__greet", "input": {} }] },
            { "role": "user", "content": [
              { "type": "tool_result", "tool_use_id": "t1", "content": [{ "type": "text", "text": "Hello" }, { "type": "image" }] },
              { "type": "tool_result", "tool_use_id": "t2", "content": "boom", "is_error": true },
            ] },
          ],
        }));
        assert_eq!(r.header("User-Agent"), Some("claude-cli/2 (external, sdk-rust)"));
        assert_eq!(r.model(), Some("claude-x"));
        assert_eq!(r.last_user_text(), "greet Alice");
        assert_eq!(r.system_text(), "You are\nhelpful");
        assert_eq!(r.tool_names(), ["mcp__demo__greet"]);
        assert!(r.tool("mcp__demo__greet").is_some());
        assert_eq!(
            r.tool_results(),
            [
                ("t1".to_string(), "Hello\n[image]".to_string(), false),
                ("t2".to_string(), "boom".to_string(), true)
            ]
        );
        assert_eq!(r.last_tool_result_text(), "boom");
    }

    #[test]
    fn agent_turns_have_tools_and_no_side_agent_marker() {
        assert!(is_agent_turn(&json!({ "tools": [], "messages": [] })));
        assert!(!is_agent_turn(&json!({ "messages": [] })));
        assert!(!is_agent_turn(&json!({
          "tools": [],
          "messages": [{ "role": "user", "content": "[SUGGESTION MODE: on]" }],
        })));
    }

    #[test]
    fn reminders_are_removed_and_an_unclosed_one_kept() {
        assert_eq!(strip_reminders(" a<system-reminder>x</system-reminder>b "), "ab");
        assert_eq!(strip_reminders("a<system-reminder>x"), "a<system-reminder>x");
    }
}
