//! Lines we write to the CLI. Each builder returns the line with its `\n` terminator, ready for
//! the writer. Bodies that are already JSON text (a tool result from the host) are spliced in
//! without being re-parsed into a tree.

use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{json, value::RawValue, Value};

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Ids for our control requests: unique within the process, never reused.
pub(crate) fn next_request_id() -> String {
    format!("req_{}_{}", std::process::id(), NEXT_ID.fetch_add(1, Ordering::Relaxed))
}

fn quoted(s: &str) -> String {
    serde_json::to_string(s).expect("strings always serialize")
}

/// `{"type":"control_response","response":{"subtype":"success","request_id":..,"response":BODY}}`
pub(crate) fn success_response(request_id: &str, body: &str) -> String {
    format!(
    "{{\"type\":\"control_response\",\"response\":{{\"subtype\":\"success\",\"request_id\":{},\"response\":{}}}}}\n",
    quoted(request_id),
    body
  )
}

/// An error answer to a control request. `error_code` is set for requests we do not support, as
/// the official SDK does (`unsupported_request`).
pub(crate) fn error_response(request_id: &str, message: &str, error_code: Option<&str>) -> String {
    let mut response = json!({ "subtype": "error", "request_id": request_id, "error": message });
    if let Some(code) = error_code {
        response["error_code"] = Value::String(code.to_string());
    }
    let mut line = json!({ "type": "control_response", "response": response }).to_string();
    line.push('\n');
    line
}

/// An answer line built under the id's `key` (see [`RequestId`](super::incoming::RequestId)),
/// with the id put back as the CLI wrote it (`json`): the first `"request_id":` of every answer
/// line is the envelope's (bodies come after it, and a string value cannot hold an unescaped `"`).
pub(crate) fn echo_request_id(line: String, key: &str, json: &str) -> String {
    let built = format!("\"request_id\":{}", quoted(key));
    match line.find(&built) {
        Some(at) => {
            let start = at + "\"request_id\":".len();
            let mut out = String::with_capacity(line.len() + json.len());
            out.push_str(&line[..start]);
            out.push_str(json);
            out.push_str(&line[start + built.len() - "\"request_id\":".len()..]);
            out
        }
        None => {
            debug_assert!(false, "an answer line without its request_id: {line}");
            line
        }
    }
}

/// A control request of ours: `{"request_id":..,"type":"control_request","request":BODY}`.
pub fn control_request(request_id: &str, body: &Value) -> String {
    format!(
        "{{\"request_id\":{},\"type\":\"control_request\",\"request\":{}}}\n",
        quoted(request_id),
        body
    )
}

/// [`control_request`] with its body already JSON text.
pub fn control_request_text(request_id: &str, body: &str) -> String {
    format!(
        "{{\"request_id\":{},\"type\":\"control_request\",\"request\":{body}}}\n",
        quoted(request_id),
    )
}

/// `{"type":"control_cancel_request","request_id":..}`: we withdraw a request of ours.
pub fn control_cancel_request(request_id: &str) -> String {
    format!(
        "{{\"type\":\"control_cancel_request\",\"request_id\":{}}}\n",
        quoted(request_id)
    )
}

/// The MCP answer wrapped for a `mcp_message` request: `{"mcp_response": RESPONSE}`.
pub(crate) fn mcp_response_body(jsonrpc_response: &str) -> String {
    format!("{{\"mcp_response\":{jsonrpc_response}}}")
}

/// A JSON-RPC success, in the key order the official SDK's MCP server uses.
pub(crate) fn jsonrpc_result(id: &RawValue, result: &str) -> String {
    format!("{{\"result\":{result},\"jsonrpc\":\"2.0\",\"id\":{}}}", id.get())
}

/// A JSON-RPC error.
pub(crate) fn jsonrpc_error(id: Option<&RawValue>, code: i64, message: &str) -> String {
    format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{},\"error\":{{\"code\":{code},\"message\":{}}}}}",
        id.map(RawValue::get).unwrap_or("null"),
        quoted(message)
    )
}

/// A CallToolResult for a tool that failed: the message, flagged as an error for the model.
pub(crate) fn error_result(message: &str) -> String {
    json!({ "content": [{ "type": "text", "text": message }], "isError": true }).to_string()
}

/// The user message a string prompt becomes, exactly as the official SDK writes it.
pub(crate) fn user_text_message(text: &str) -> String {
    format!(
    "{{\"type\":\"user\",\"session_id\":\"\",\"message\":{{\"role\":\"user\",\"content\":[{{\"type\":\"text\",\"text\":{}}}]}},\"parent_tool_use_id\":null}}\n",
    quoted(text)
  )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_valid_json_with_terminator() {
        for line in [
            success_response("a\"b", r#"{"x":1}"#),
            error_response("id", "bad \"thing\"\nnext", Some("unsupported_request")),
            control_request("r", &json!({"subtype":"interrupt"})),
            user_text_message("hi\n\"there\" é"),
        ] {
            assert!(line.ends_with('\n'));
            assert_eq!(line.matches('\n').count(), 1, "{line}");
            let v: Value = serde_json::from_str(&line).unwrap();
            assert!(v.is_object());
        }
        let id = RawValue::from_string("7".into()).unwrap();
        assert_eq!(jsonrpc_result(&id, "{}"), r#"{"result":{},"jsonrpc":"2.0","id":7}"#);
        let err: Value = serde_json::from_str(&jsonrpc_error(None, -32601, "Method not found")).unwrap();
        assert_eq!(err["error"]["code"], -32601);
    }

    #[test]
    fn user_message_matches_official_shape() {
        assert_eq!(
      user_text_message("greet Alice"),
      "{\"type\":\"user\",\"session_id\":\"\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"greet Alice\"}]},\"parent_tool_use_id\":null}\n"
    );
    }

    #[test]
    fn an_answer_echoes_the_id_as_the_cli_wrote_it() {
        let key = r#""x\ud800""#;
        let line = echo_request_id(success_response(key, r#"{"request_id":"x"}"#), key, key);
        assert_eq!(
            line,
            r#"{"type":"control_response","response":{"subtype":"success","request_id":"x\ud800","response":{"request_id":"x"}}}"#.to_string() + "\n"
        );
        let message = r#"bad "request_id":"7""#;
        let line = echo_request_id(error_response("7", message, None), "7", "7");
        let v: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["response"]["request_id"], 7);
        assert_eq!(v["response"]["error"], message);
    }
}
