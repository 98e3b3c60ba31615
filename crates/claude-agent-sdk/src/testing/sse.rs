//! A [`Turn`] as the Messages API sends it: the SSE events of a streamed response (what the CLI
//! asks for), or the one JSON message of an unstreamed one. The same shapes as the project's
//! JavaScript scripted model (`testing/index.js`).

use serde_json::{json, Map, Value};

use super::turn::Turn;

/// A turn with ids filled in, ready to send.
pub(crate) struct Response {
    pub id: String,
    pub model: String,
    pub content: Vec<Value>,
    pub stop_reason: String,
    pub usage: Map<String, Value>,
}

impl Response {
    /// `turn` (no error) for a request asking for `requested_model`; `tool_id` makes ids for
    /// calls without one.
    pub fn new(turn: &Turn, id: String, requested_model: Option<&str>, mut tool_id: impl FnMut() -> String) -> Self {
        let mut content = turn.content.clone();
        for b in &mut content {
            if b["type"] == "tool_use" && b.get("id").is_none() {
                b["id"] = json!(tool_id());
            }
        }
        if content.is_empty() {
            content.push(json!({ "type": "text", "text": "" }));
        }
        let stop_reason = turn.stop_reason.clone().unwrap_or_else(|| {
            if content.iter().any(|b| b["type"] == "tool_use") {
                "tool_use".into()
            } else {
                "end_turn".into()
            }
        });
        let chars: usize = content.iter().map(|b| b.to_string().len()).sum();
        let mut usage = Map::new();
        usage.insert("input_tokens".into(), json!(10));
        usage.insert("cache_creation_input_tokens".into(), json!(0));
        usage.insert("cache_read_input_tokens".into(), json!(0));
        usage.insert("output_tokens".into(), json!(chars.div_ceil(4).max(1)));
        usage.extend(turn.usage.clone());
        Response {
            id,
            model: turn
                .model
                .clone()
                .or_else(|| requested_model.map(str::to_string))
                .unwrap_or_else(|| "claude-scripted".into()),
            content,
            stop_reason,
            usage,
        }
    }

    /// The unstreamed answer.
    pub fn message(&self) -> Value {
        json!({
          "id": self.id, "type": "message", "role": "assistant", "model": self.model, "content": self.content,
          "stop_reason": self.stop_reason, "stop_sequence": null, "usage": self.usage,
        })
    }

    /// The streamed answer: `event: <type>\ndata: <json>\n\n` frames, text and tool input
    /// JSON split into deltas of `chunk` characters (0: one delta per block).
    pub fn events(&self, chunk: usize) -> Vec<String> {
        let mut out = Vec::new();
        let mut ev = |kind: &str, mut data: Value| {
            let mut object = Map::new();
            object.insert("type".into(), json!(kind));
            if let Value::Object(fields) = data.take() {
                object.extend(fields);
            }
            out.push(format!("event: {kind}\ndata: {}\n\n", Value::Object(object)));
        };
        let mut start_usage = self.usage.clone();
        start_usage.insert("output_tokens".into(), json!(1));
        ev(
            "message_start",
            json!({ "message": {
              "id": self.id, "type": "message", "role": "assistant", "model": self.model, "content": [],
              "stop_reason": null, "stop_sequence": null, "usage": start_usage,
            }}),
        );
        ev("ping", json!({}));
        for (index, b) in self.content.iter().enumerate() {
            match b["type"].as_str() {
                Some("text") => {
                    ev(
                        "content_block_start",
                        json!({ "index": index, "content_block": { "type": "text", "text": "" } }),
                    );
                    for t in pieces(b["text"].as_str().unwrap_or_default(), chunk) {
                        ev(
                            "content_block_delta",
                            json!({ "index": index, "delta": { "type": "text_delta", "text": t } }),
                        );
                    }
                }
                Some("tool_use") => {
                    ev(
                        "content_block_start",
                        json!({ "index": index, "content_block": { "type": "tool_use", "id": b["id"], "name": b["name"], "input": {} } }),
                    );
                    for j in pieces(&b["input"].to_string(), chunk) {
                        ev(
                            "content_block_delta",
                            json!({ "index": index, "delta": { "type": "input_json_delta", "partial_json": j } }),
                        );
                    }
                }
                Some("thinking") => {
                    ev(
                        "content_block_start",
                        json!({ "index": index, "content_block": { "type": "thinking", "thinking": "", "signature": "" } }),
                    );
                    for t in pieces(b["thinking"].as_str().unwrap_or_default(), chunk) {
                        ev(
                            "content_block_delta",
                            json!({ "index": index, "delta": { "type": "thinking_delta", "thinking": t } }),
                        );
                    }
                    ev(
                        "content_block_delta",
                        json!({ "index": index, "delta": { "type": "signature_delta", "signature": b["signature"] } }),
                    );
                }
                _ => ev("content_block_start", json!({ "index": index, "content_block": b })),
            }
            ev("content_block_stop", json!({ "index": index }));
        }
        ev(
            "message_delta",
            json!({ "delta": { "stop_reason": self.stop_reason, "stop_sequence": null }, "usage": { "output_tokens": self.usage["output_tokens"] } }),
        );
        ev("message_stop", json!({}));
        out
    }
}

/// `s` in pieces of at most `size` characters (whole when `size` is 0).
fn pieces(s: &str, size: usize) -> Vec<String> {
    if size == 0 || s.chars().count() <= size {
        return vec![s.to_string()];
    }
    let chars: Vec<char> = s.chars().collect();
    chars.chunks(size).map(|c| c.iter().collect()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(frame: &str) -> Value {
        serde_json::from_str(frame.split_once("data: ").unwrap().1.trim()).unwrap()
    }

    #[test]
    fn a_tool_call_streams_as_the_api_does() {
        let turn = Turn::text("hi").and_tool_call("t", &json!({ "a": "bcdef" }));
        let mut n = 0;
        let r = Response::new(&turn, "msg_1".into(), Some("claude-x"), || {
            n += 1;
            format!("toolu_{n}")
        });
        assert_eq!(r.stop_reason, "tool_use");
        assert_eq!(r.model, "claude-x");
        let events = r.events(4);
        let kinds: Vec<String> = events
            .iter()
            .map(|e| e.lines().next().unwrap().trim_start_matches("event: ").to_string())
            .collect();
        assert_eq!(kinds[..3], ["message_start", "ping", "content_block_start"]);
        assert_eq!(kinds.last().unwrap(), "message_stop");
        let json: String = events
            .iter()
            .map(|e| data(e))
            .filter(|d| d["index"] == 1 && d["delta"]["type"] == "input_json_delta")
            .map(|d| d["delta"]["partial_json"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(serde_json::from_str::<Value>(&json).unwrap(), json!({ "a": "bcdef" }));
        let start = data(&events[2]);
        assert_eq!(start["content_block"]["type"], "text");
        assert_eq!(data(&events[events.len() - 2])["delta"]["stop_reason"], "tool_use");
        assert_eq!(r.message()["content"][1]["id"], "toolu_1");
    }

    #[test]
    fn an_empty_turn_is_one_empty_text_and_pieces_split_on_characters() {
        let r = Response::new(&Turn::default(), "m".into(), None, String::new);
        assert_eq!(r.content, [json!({ "type": "text", "text": "" })]);
        assert_eq!(r.stop_reason, "end_turn");
        assert_eq!(pieces("ééé", 2), ["éé", "é"]);
    }
}
