use serde::Deserialize;
use serde_json::{json, value::RawValue, Map, Value};
use std::collections::HashMap;

use crate::mcp::validate::ArgsCheck;
use crate::protocol::outgoing::{jsonrpc_error, jsonrpc_result};

/// The MCP protocol version we announce when the client asks for one we do not know.
pub const LATEST_PROTOCOL_VERSION: &str = "2025-11-25";
const SUPPORTED_PROTOCOL_VERSIONS: &[&str] = &["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"];

/// An in-process server as the CLI sees it. Built once per `createSdkMcpServer()` object and
/// shared (read-only) by every session that uses it, so its manifests are computed once.
#[derive(Debug)]
pub struct McpServerDef {
  pub name: String,
  initialize_result: Value,
  /// `{"tools":[...]}` as JSON text, ready to splice into answers.
  tools_list_result: String,
  tools: HashMap<String, usize>,
  /// Argument checks for the tools whose input schema is plain JSON Schema.
  checks: HashMap<String, ArgsCheck>,
}

#[derive(Deserialize)]
struct Spec {
  name: String,
  #[serde(default)]
  version: Option<String>,
  #[serde(default)]
  instructions: Option<String>,
  /// Tool entries exactly as `tools/list` should list them (name, description, inputSchema,
  /// annotations, ...): the host owns schema conversion.
  #[serde(default)]
  tools: Vec<Map<String, Value>>,
  /// Plain-JSON-Schema tools' input schemas, by tool name: checked here before crossing to JS.
  #[serde(default, rename = "argsChecks")]
  args_checks: Map<String, Value>,
}

/// What to do with one MCP message.
#[derive(Debug)]
pub enum McpAction {
  /// Answer with this JSON-RPC response text.
  Reply(String),
  /// Run a tool in the host; answer with its CallToolResult under `id`.
  CallTool(ToolCall),
  /// `notifications/cancelled`: abort the tool call with this JSON-RPC id (raw JSON text);
  /// acknowledge the notification as any other.
  Cancel(String),
}

#[derive(Debug)]
pub struct ToolCall {
  pub id: Box<RawValue>,
  pub tool: String,
  /// `{"server":..,"tool":..,"arguments":..,"meta":..}`, the host's payload.
  pub payload: String,
}

#[derive(Deserialize)]
struct Message<'a> {
  #[serde(borrow, default)]
  method: Option<std::borrow::Cow<'a, str>>,
  #[serde(borrow, default)]
  id: Option<&'a RawValue>,
  #[serde(borrow, default)]
  params: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct CallParams<'a> {
  #[serde(borrow)]
  name: std::borrow::Cow<'a, str>,
  #[serde(borrow, default)]
  arguments: Option<&'a RawValue>,
  #[serde(borrow, default, rename = "_meta")]
  meta: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct CancelParams<'a> {
  #[serde(borrow, default, rename = "requestId")]
  request_id: Option<&'a RawValue>,
}

/// What the official SDK answers to any notification.
pub const NOTIFICATION_ACK: &str = r#"{"jsonrpc":"2.0","result":{},"id":0}"#;

#[derive(Deserialize)]
struct InitParams {
  #[serde(default, rename = "protocolVersion")]
  protocol_version: Option<String>,
}

impl McpServerDef {
  /// Builds a server from its spec (JSON text): `{name, version?, instructions?, tools:[...]}`.
  pub fn from_spec_json(spec: &str) -> Result<Self, String> {
    let spec: Spec = serde_json::from_str(spec).map_err(|e| format!("invalid MCP server definition: {e}"))?;
    if spec.name.is_empty() {
      return Err("createSdkMcpServer: `name` must be a non-empty string".into());
    }
    let mut tools = HashMap::new();
    for (i, t) in spec.tools.iter().enumerate() {
      let name = t.get("name").and_then(Value::as_str).ok_or_else(|| format!("tool #{i} of server {:?} has no name", spec.name))?;
      if tools.insert(name.to_string(), i).is_some() {
        return Err(format!("server {:?} defines the tool {name:?} twice", spec.name));
      }
    }
    let mut initialize_result = json!({
      "protocolVersion": LATEST_PROTOCOL_VERSION,
      "capabilities": { "tools": { "listChanged": true } },
      "serverInfo": { "name": spec.name, "version": spec.version.as_deref().unwrap_or("1.0.0") },
    });
    if let Some(instructions) = spec.instructions {
      initialize_result["instructions"] = Value::String(instructions);
    }
    let tools_list_result = json!({ "tools": spec.tools }).to_string();
    let checks = spec.args_checks.iter().filter_map(|(name, schema)| Some((name.clone(), ArgsCheck::compile(schema)?))).collect();
    Ok(Self { name: spec.name, initialize_result, tools_list_result, tools, checks })
  }

  /// The manifest the official SDK 0.3.x sends in `initialize` as `sdkMcpServerManifests[name]`,
  /// so CLIs that read it skip the MCP handshake.
  pub fn manifest(&self) -> Value {
    json!({
      "initializeResult": self.initialize_result,
      "toolsListResult": serde_json::from_str::<Value>(&self.tools_list_result).expect("built from a Value"),
    })
  }

  pub fn has_tool(&self, name: &str) -> bool {
    self.tools.contains_key(name)
  }

  /// Routes one JSON-RPC message sent to this server under the name `served_as` (the key in
  /// `mcpServers`, which may differ from the server's own name). Notifications get the empty
  /// acknowledgement the official SDK sends (`{"jsonrpc":"2.0","result":{},"id":0}`); unknown
  /// methods get -32601.
  pub fn handle(&self, served_as: &str, message: &str) -> McpAction {
    let msg: Message = match serde_json::from_str(message) {
      Ok(m) => m,
      Err(e) => return McpAction::Reply(jsonrpc_error(None, -32700, &format!("Parse error: {e}"))),
    };
    let method = msg.method.as_deref().unwrap_or("");
    let Some(id) = msg.id else {
      if method == "notifications/cancelled" {
        let cancelled = msg.params.and_then(|p| serde_json::from_str::<CancelParams>(p.get()).ok()).and_then(|p| p.request_id);
        if let Some(rid) = cancelled {
          return McpAction::Cancel(rid.get().to_string());
        }
      }
      // A notification (no id), e.g. notifications/initialized: nothing to do but acknowledge.
      return McpAction::Reply(NOTIFICATION_ACK.to_string());
    };
    match method {
      "initialize" => {
        let requested = msg
          .params
          .and_then(|p| serde_json::from_str::<InitParams>(p.get()).ok())
          .and_then(|p| p.protocol_version);
        let mut result = self.initialize_result.clone();
        if let Some(v) = requested.filter(|v| SUPPORTED_PROTOCOL_VERSIONS.contains(&v.as_str())) {
          result["protocolVersion"] = Value::String(v);
        }
        McpAction::Reply(jsonrpc_result(id, &result.to_string()))
      }
      "tools/list" => McpAction::Reply(jsonrpc_result(id, &self.tools_list_result)),
      "ping" => McpAction::Reply(jsonrpc_result(id, "{}")),
      "tools/call" => {
        let params = match msg.params.map(|p| serde_json::from_str::<CallParams>(p.get())) {
          Some(Ok(p)) => p,
          Some(Err(e)) => return McpAction::Reply(jsonrpc_error(Some(id), -32602, &format!("Invalid params for tools/call: {e}"))),
          None => return McpAction::Reply(jsonrpc_error(Some(id), -32602, "Invalid params for tools/call: missing params")),
        };
        if !self.has_tool(&params.name) {
          // The official server answers an unknown tool with an isError result, not a JSON-RPC error.
          let text = format!("MCP error -32602: Tool {} not found", params.name);
          return McpAction::Reply(jsonrpc_result(id, &crate::protocol::outgoing::error_result(&text)));
        }
        // `arguments` stays absent when the CLI sent none (validation reports that as the
        // official does); `id` is the JSON-RPC id, handed to the handler as `extra.requestId`.
        let arguments = params.arguments.map(|a| format!(",\"arguments\":{}", a.get())).unwrap_or_default();
        // Arguments that certainly pass the tool's JSON Schema are marked so JS skips its check.
        let validated = match (self.checks.get(params.name.as_ref()), params.arguments) {
          (Some(check), Some(args)) => serde_json::from_str::<Value>(args.get()).is_ok_and(|v| check.accepts(&v)),
          _ => false,
        };
        let arguments = if validated { format!("{arguments},\"validated\":true") } else { arguments };
        let payload = format!(
          "{{\"server\":{},\"tool\":{},\"id\":{}{arguments},\"meta\":{}}}",
          serde_json::to_string(served_as).expect("string"),
          serde_json::to_string(params.name.as_ref()).expect("string"),
          id.get(),
          params.meta.map(RawValue::get).unwrap_or("null"),
        );
        McpAction::CallTool(ToolCall { id: id.to_owned(), tool: params.name.into_owned(), payload })
      }
      other => McpAction::Reply(jsonrpc_error(Some(id), -32601, &format!("Method not found: {other}"))),
    }
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  fn server() -> McpServerDef {
    McpServerDef::from_spec_json(
      r#"{"name":"demo","version":"2.0.0","tools":[{"name":"greet","description":"Greet someone","inputSchema":{"type":"object"}}]}"#,
    )
    .unwrap()
  }

  fn reply(action: McpAction) -> Value {
    match action {
      McpAction::Reply(s) => serde_json::from_str(&s).unwrap(),
      other => panic!("{other:?}"),
    }
  }

  #[test]
  fn answers_the_handshake_like_the_official_sdk() {
    let s = server();
    let init = reply(s.handle("demo", r#"{"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}},"jsonrpc":"2.0","id":0}"#));
    assert_eq!(init["id"], 0);
    assert_eq!(init["result"]["protocolVersion"], "2025-06-18");
    assert_eq!(init["result"]["serverInfo"], json!({"name":"demo","version":"2.0.0"}));
    assert_eq!(init["result"]["capabilities"], json!({"tools":{"listChanged":true}}));
    let unknown_version = reply(s.handle("demo", r#"{"method":"initialize","params":{"protocolVersion":"1999-01-01"},"jsonrpc":"2.0","id":0}"#));
    assert_eq!(unknown_version["result"]["protocolVersion"], LATEST_PROTOCOL_VERSION);
    assert_eq!(reply(s.handle("demo", r#"{"method":"notifications/initialized","jsonrpc":"2.0"}"#)), json!({"jsonrpc":"2.0","result":{},"id":0}));
    match s.handle("demo", r#"{"method":"notifications/cancelled","params":{"requestId":7,"reason":"x"},"jsonrpc":"2.0"}"#) {
      McpAction::Cancel(id) => assert_eq!(id, "7"),
      other => panic!("{other:?}"),
    }
    let list = reply(s.handle("demo", r#"{"method":"tools/list","jsonrpc":"2.0","id":1}"#));
    assert_eq!(list["result"]["tools"][0]["name"], "greet");
    assert_eq!(reply(s.handle("demo", r#"{"method":"ping","jsonrpc":"2.0","id":"p"}"#))["result"], json!({}));
    assert_eq!(s.manifest()["toolsListResult"], list["result"]);
  }

  #[test]
  fn unknown_method_is_32601_and_unknown_tool_names_it() {
    let s = server();
    let e = reply(s.handle("demo", r#"{"method":"resources/list","jsonrpc":"2.0","id":3}"#));
    assert_eq!(e["error"]["code"], -32601);
    assert_eq!(e["id"], 3);
    let e = reply(s.handle("demo", r#"{"method":"tools/call","params":{"name":"nope","arguments":{}},"jsonrpc":"2.0","id":4}"#));
    assert_eq!(e["result"], json!({"content":[{"type":"text","text":"MCP error -32602: Tool nope not found"}],"isError":true}));
  }

  #[test]
  fn tools_call_becomes_a_host_call_with_raw_arguments() {
    let s = server();
    match s.handle("demo", r#"{"method":"tools/call","params":{"name":"greet","arguments":{"name":"Al\"ice"},"_meta":{"progressToken":2}},"jsonrpc":"2.0","id":2}"#) {
      McpAction::CallTool(call) => {
        assert_eq!(call.id.get(), "2");
        let p: Value = serde_json::from_str(&call.payload).unwrap();
        assert_eq!(p, json!({"server":"demo","tool":"greet","id":2,"arguments":{"name":"Al\"ice"},"meta":{"progressToken":2}}));
      }
      other => panic!("{other:?}"),
    }
  }

  #[test]
  fn json_schema_tools_are_checked_before_crossing() {
    let s = McpServerDef::from_spec_json(
      r#"{"name":"demo","tools":[{"name":"t"}],"argsChecks":{"t":{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}}}"#,
    )
    .unwrap();
    let payload = |args: &str| match s.handle("demo", &format!(r#"{{"method":"tools/call","params":{{"name":"t","arguments":{args}}},"jsonrpc":"2.0","id":1}}"#)) {
      McpAction::CallTool(call) => serde_json::from_str::<Value>(&call.payload).unwrap(),
      other => panic!("{other:?}"),
    };
    assert_eq!(payload(r#"{"n":1}"#)["validated"], true);
    assert!(payload(r#"{"n":"x"}"#).get("validated").is_none(), "left to JS, which words the error");
  }

  #[test]
  fn bad_specs_are_named() {
    assert!(McpServerDef::from_spec_json(r#"{"name":""}"#).unwrap_err().contains("name"));
    let dup = McpServerDef::from_spec_json(r#"{"name":"x","tools":[{"name":"a"},{"name":"a"}]}"#).unwrap_err();
    assert!(dup.contains("twice"), "{dup}");
  }
}
