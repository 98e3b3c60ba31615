//! In-process MCP servers as Codex dynamic tools: each server is declared as a `dynamicTools`
//! namespace named after it, and an `item/tool/call` becomes the same MCP `tools/call` a Claude
//! session routes through [`McpServerDef::handle`] (validation, the host's handler), whose
//! `CallToolResult` is turned into Codex's `{contentItems, success}`.

use std::sync::Arc;

use serde_json::{json, value::RawValue, Value};

use crate::host::{CallKind, HostResult};
use crate::mcp::{McpAction, McpServerDef};

/// The `dynamicTools` of `thread/start` for these servers (one namespace each, named by the key
/// the server is given under). A forwarding server (a foreign `McpServer`) has no tool list here:
/// the host lists its tools and passes them as `extra`.
pub fn dynamic_tools(servers: &[(String, Arc<McpServerDef>)]) -> Vec<Value> {
    let mut out = Vec::new();
    for (name, server) in servers {
        let Some(manifest) = server.manifest() else { continue };
        let tools = manifest["toolsListResult"]["tools"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let description = manifest["initializeResult"]["instructions"]
            .as_str()
            .map(str::to_string)
            .unwrap_or_else(|| format!("Tools of the in-process MCP server {name:?}"));
        out.push(namespace(name, &description, &tools));
    }
    out
}

/// One namespace from MCP `tools/list` entries.
pub fn namespace(name: &str, description: &str, tools: &[Value]) -> Value {
    let tools: Vec<Value> = tools
        .iter()
        .filter_map(|t| {
            let tool = t["name"].as_str()?;
            Some(json!({
              "type": "function",
              "name": tool,
              "description": t["description"].as_str().unwrap_or(""),
              "inputSchema": t.get("inputSchema").cloned().unwrap_or_else(|| json!({"type": "object"})),
            }))
        })
        .collect();
    json!({ "type": "namespace", "name": name, "description": description, "tools": tools })
}

#[derive(serde::Deserialize)]
struct CallParams<'a> {
    #[serde(borrow, default)]
    namespace: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow)]
    tool: std::borrow::Cow<'a, str>,
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
    #[serde(borrow, default, rename = "threadId")]
    thread_id: Option<&'a RawValue>,
    #[serde(borrow, default, rename = "turnId")]
    turn_id: Option<&'a RawValue>,
    #[serde(borrow, default, rename = "callId")]
    call_id: Option<&'a RawValue>,
}

/// What to do with an `item/tool/call`.
#[derive(Debug)]
pub enum ToolRoute {
    /// Answer at once with this `DynamicToolCallResponse` JSON.
    Answer(String),
    /// Run in the host; its outcome becomes the response through [`tool_response`].
    Call { kind: CallKind, payload: String },
}

/// Routes an `item/tool/call`'s params. `rpc_id` is the JSON-RPC id the MCP message carries (the
/// handler's `extra.requestId`).
pub fn route_tool_call(servers: &[(String, Arc<McpServerDef>)], params: &str, rpc_id: &str) -> ToolRoute {
    let p: CallParams = match serde_json::from_str(params) {
        Ok(p) => p,
        Err(e) => return ToolRoute::Answer(failure(&format!("Malformed item/tool/call params: {e}"))),
    };
    let Some(namespace) = p.namespace.as_deref() else {
        return ToolRoute::Answer(failure(&format!(
            "Unknown tool {:?}: this session declares its tools in namespaces",
            p.tool
        )));
    };
    let Some((served_as, server)) = servers.iter().find(|(n, _)| n == namespace) else {
        return ToolRoute::Answer(failure(&format!(
            "Unknown tool namespace {namespace:?} (tool {:?})",
            p.tool
        )));
    };
    if !server.is_forwarding() && !server.has_tool(&p.tool) {
        return ToolRoute::Answer(failure(&format!(
            "Unknown tool {:?} in namespace {namespace:?}",
            p.tool
        )));
    }
    let raw = |v: Option<&RawValue>| v.map(RawValue::get).unwrap_or("null").to_string();
    let meta = format!(
        "{{\"codex\":{{\"threadId\":{},\"turnId\":{},\"callId\":{}}}}}",
        raw(p.thread_id),
        raw(p.turn_id),
        raw(p.call_id)
    );
    let arguments = p.arguments.map(RawValue::get).filter(|a| *a != "null").unwrap_or("{}");
    let message = format!(
    "{{\"jsonrpc\":\"2.0\",\"id\":{rpc_id},\"method\":\"tools/call\",\"params\":{{\"name\":{},\"arguments\":{arguments},\"_meta\":{meta}}}}}",
    serde_json::to_string(p.tool.as_ref()).expect("a string serializes"),
  );
    match server.handle(served_as, &message) {
        McpAction::CallTool(call) => ToolRoute::Call {
            kind: CallKind::Tool,
            payload: call.payload,
        },
        McpAction::Reply(response) => ToolRoute::Answer(from_jsonrpc_response(&response)),
        McpAction::Cancel(_) | McpAction::Notify(_) => ToolRoute::Answer(failure("The tool call could not be routed")),
    }
}

/// A failed call: the model sees the message.
pub fn failure(message: &str) -> String {
    json!({ "contentItems": [{ "type": "inputText", "text": message }], "success": false }).to_string()
}

/// The host's outcome of a tool call (`{"result": CallToolResult}` or `{"error": {..}}`, or what
/// the handler threw) as a `DynamicToolCallResponse`.
pub fn tool_response(result: HostResult) -> String {
    match result {
        Err(message) => failure(&message),
        Ok(text) => match serde_json::from_str::<Value>(&text) {
            Ok(v) => match (v.get("result"), v.get("error")) {
                (Some(r), _) => from_call_tool_result(r),
                (None, Some(e)) => {
                    let message = e["message"].as_str().unwrap_or("(no message)");
                    // The MCP SDK's errors already name their code.
                    if message.starts_with("MCP error") {
                        failure(message)
                    } else {
                        failure(&format!("MCP error {}: {message}", e["code"]))
                    }
                }
                (None, None) => failure("The SDK host answered a tool call without `result` or `error`"),
            },
            Err(e) => failure(&format!("The SDK host returned invalid JSON: {e}")),
        },
    }
}

/// A JSON-RPC response of the server (answered without the host) as a `DynamicToolCallResponse`.
fn from_jsonrpc_response(response: &str) -> String {
    match serde_json::from_str::<Value>(response) {
        Ok(v) => tool_response(Ok(v.to_string())),
        Err(e) => failure(&format!("Malformed MCP response: {e}")),
    }
}

/// `CallToolResult` → `{contentItems, success}`: text as `inputText`, images as `inputImage` data
/// URLs, embedded text resources as their text, anything else as its JSON; `isError` → `success:
/// false`. A result that is not an MCP result is a failure naming what it was.
pub fn from_call_tool_result(r: &Value) -> String {
    let Some(obj) = r.as_object() else {
        return failure(&format!(
            "The tool returned {r}, which is not an MCP CallToolResult (an object with `content`)"
        ));
    };
    let mut items = Vec::new();
    match obj.get("content") {
        Some(Value::Array(blocks)) => {
            for b in blocks {
                items.push(content_item(b));
            }
        }
        None | Some(Value::Null) => {
            if let Some(s) = obj.get("structuredContent") {
                items.push(json!({ "type": "inputText", "text": s.to_string() }));
            }
        }
        Some(other) => {
            return failure(&format!(
                "The tool's result has `content` {other}, which is not an array of MCP content blocks"
            ))
        }
    }
    let success = !obj.get("isError").and_then(Value::as_bool).unwrap_or(false);
    json!({ "contentItems": items, "success": success }).to_string()
}

fn content_item(b: &Value) -> Value {
    let text = |t: &str| json!({ "type": "inputText", "text": t });
    match b["type"].as_str() {
        Some("text") => text(b["text"].as_str().unwrap_or("")),
        Some("image") => match (b["data"].as_str(), b["mimeType"].as_str()) {
            (Some(data), Some(mime)) => {
                json!({ "type": "inputImage", "imageUrl": format!("data:{mime};base64,{data}") })
            }
            _ => text(&b.to_string()),
        },
        Some("resource") => match b["resource"]["text"].as_str() {
            Some(t) => text(t),
            None => text(&b.to_string()),
        },
        _ => text(&b.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn servers() -> Vec<(String, Arc<McpServerDef>)> {
        let def = McpServerDef::from_spec_json(
      r#"{"name":"calc","version":"1.0.0","tools":[{"name":"add","description":"Adds","inputSchema":{"type":"object","properties":{"a":{"type":"number"}},"required":["a"]}}],"argsChecks":{"add":{"type":"object","properties":{"a":{"type":"number"}},"required":["a"]}}}"#,
    )
    .unwrap();
        vec![("calc".into(), Arc::new(def))]
    }

    #[test]
    fn servers_become_namespaces() {
        let tools = dynamic_tools(&servers());
        assert_eq!(tools[0]["type"], "namespace");
        assert_eq!(tools[0]["name"], "calc");
        assert_eq!(
            tools[0]["tools"][0],
            json!({"type":"function","name":"add","description":"Adds","inputSchema":{"type":"object","properties":{"a":{"type":"number"}},"required":["a"]}})
        );
    }

    #[test]
    fn calls_route_to_the_host_and_unknown_names_fail_naming_them() {
        let s = servers();
        match route_tool_call(
            &s,
            r#"{"threadId":"t","turnId":"u","callId":"c","namespace":"calc","tool":"add","arguments":{"a":1}}"#,
            "7",
        ) {
            ToolRoute::Call {
                kind: CallKind::Tool,
                payload,
            } => {
                let p: Value = serde_json::from_str(&payload).unwrap();
                assert_eq!(
                    (
                        p["server"].as_str(),
                        p["tool"].as_str(),
                        p["id"].as_i64(),
                        p["validated"].as_bool()
                    ),
                    (Some("calc"), Some("add"), Some(7), Some(true))
                );
                assert_eq!(p["meta"]["codex"]["callId"], "c");
            }
            other => panic!("{other:?}"),
        }
        let fail = |params: &str| match route_tool_call(&s, params, "1") {
            ToolRoute::Answer(a) => serde_json::from_str::<Value>(&a).unwrap(),
            other => panic!("{other:?}"),
        };
        let a = fail(r#"{"namespace":"nope","tool":"add","arguments":{}}"#);
        assert_eq!(a["success"], false);
        assert!(a["contentItems"][0]["text"].as_str().unwrap().contains("\"nope\""));
        let a = fail(r#"{"namespace":"calc","tool":"sub","arguments":{}}"#);
        assert!(a["contentItems"][0]["text"].as_str().unwrap().contains("\"sub\""));
    }

    #[test]
    fn results_become_content_items() {
        let r: Value = serde_json::from_str(&tool_response(Ok(r#"{"result":{"content":[{"type":"text","text":"5"},{"type":"image","data":"AAA","mimeType":"image/png"}]}}"#.into()))).unwrap();
        assert_eq!(
            r,
            json!({"contentItems":[{"type":"inputText","text":"5"},{"type":"inputImage","imageUrl":"data:image/png;base64,AAA"}],"success":true})
        );
        let r: Value = serde_json::from_str(&tool_response(Ok(
            r#"{"result":{"content":[{"type":"text","text":"bad"}],"isError":true}}"#.into(),
        )))
        .unwrap();
        assert_eq!(r["success"], false);
        let r: Value = serde_json::from_str(&tool_response(Err("boom".into()))).unwrap();
        assert_eq!(
            r,
            json!({"contentItems":[{"type":"inputText","text":"boom"}],"success":false})
        );
        let r: Value = serde_json::from_str(&tool_response(Ok(r#"{"result":42}"#.into()))).unwrap();
        assert_eq!(r["success"], false);
        assert!(r["contentItems"][0]["text"]
            .as_str()
            .unwrap()
            .contains("not an MCP CallToolResult"));
    }
}
