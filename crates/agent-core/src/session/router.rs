//! Routing of the control requests the CLI sends us. Requests answerable from data (MCP
//! handshake, `tools/list`, unknown subtypes) are answered inline by the session loop; requests
//! that need user code run as their own task, so a slow tool never blocks another tool, a
//! permission prompt or a hook. Every request gets an answer, never silence.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};

use serde_json::{json, value::RawValue, Value};

use crate::host::{CallKind, Host, HostCall, HostResult, Reply};
use crate::mcp::{McpAction, McpServerDef, NOTIFICATION_ACK};
use crate::protocol::incoming::RequestHead;
use crate::protocol::outgoing::{error_response, jsonrpc_result, mcp_response_body, success_response};
use crate::session::inflight::Inflight;
use crate::session::writer::StdinWriter;

pub struct Router {
  /// In-process servers by the name the CLI knows them under; replaced by `setMcpServers()`.
  pub servers: RwLock<HashMap<String, Arc<McpServerDef>>>,
  pub host: Arc<dyn Host>,
  pub can_use_tool: bool,
  pub dialogs: Dialogs,
  pub writer: Arc<StdinWriter>,
  /// Requests running in the host; each one's [`Reply`] takes it out.
  pub inflight: Arc<Inflight>,
  /// Tool calls in flight by server and JSON-RPC id → the control request carrying them, so an
  /// MCP `notifications/cancelled` can abort the right handler.
  pub tool_calls: Arc<Mutex<HashMap<String, String>>>,
}

/// Which of the dialog callbacks (`onElicitation`, `onUserDialog`) the host has.
#[derive(Debug, Clone, Copy, Default)]
pub struct Dialogs {
  pub elicitation: bool,
  pub user_dialog: bool,
}

/// Whether the request now runs in the host (and so is in flight until its reply).
#[derive(Debug, PartialEq, Eq)]
pub enum Dispatched {
  Answered,
  Running,
}

impl Router {
  fn write(&self, line: String) {
    self.writer.write_line(&line);
  }

  /// A control request from the CLI, from whichever thread read it. Skipped when one with the
  /// same id is still running (the official SDK skips such duplicates). The id enters the
  /// in-flight set before the host sees the call, so an answer given at once on another thread
  /// always finds it there.
  pub fn accept(self: &Arc<Self>, request_id: String, request: Box<RawValue>) {
    if !self.inflight.insert(request_id.clone()) {
      tracing::warn!(request_id = %request_id, "duplicate control request id while the first is in flight (ignored)");
      return;
    }
    if self.dispatch(request_id.clone(), request) == Dispatched::Answered {
      self.inflight.remove(&request_id);
    }
  }

  pub fn dispatch(self: &Arc<Self>, request_id: String, request: Box<RawValue>) -> Dispatched {
    let head: RequestHead = match serde_json::from_str(request.get()) {
      Ok(h) => h,
      Err(e) => {
        self.write(error_response(&request_id, &format!("Malformed control request: {e}"), None));
        return Dispatched::Answered;
      }
    };
    tracing::debug!(request_id = %request_id, subtype = %head.subtype, "control request");
    match head.subtype.as_ref() {
      "mcp_message" => self.mcp_message(request_id, head),
      "can_use_tool" if !self.can_use_tool => {
        self.write(error_response(&request_id, "canUseTool callback is not provided.", None));
        Dispatched::Answered
      }
      "can_use_tool" => {
        let input = permission_input(&request);
        self.run(request_id, CallKind::CanUseTool, request.get().to_string(), move |rid, result| {
          success_response(rid, &permission_answer(result, &input))
        })
      }
      "hook_callback" => self.run(request_id, CallKind::Hook, request.get().to_string(), |rid, result| match result {
        Ok(json) => success_response(rid, &one_line(json)),
        Err(message) => error_response(rid, &message, None),
      }),
      "elicitation" | "request_user_dialog" => self.dialog(request_id, head.subtype.as_ref(), &request),
      other => {
        tracing::warn!(subtype = other, "unsupported control request");
        self.write(error_response(
          &request_id,
          &format!("Unsupported control request subtype: {other}"),
          Some("unsupported_request"),
        ));
        Dispatched::Answered
      }
    }
  }

  /// `elicitation` and `request_user_dialog`: to the host's callback, concurrently like
  /// `can_use_tool`. Without a callback an elicitation is declined (as the official SDK does) and
  /// a dialog is refused with an error (the official stays silent, leaving the CLI to wait for its
  /// own deadline). A callback that answers `null` cancels an elicitation and refuses a dialog; one
  /// that throws gets an error response with its message.
  fn dialog(self: &Arc<Self>, request_id: String, subtype: &str, request: &RawValue) -> Dispatched {
    let elicitation = subtype == "elicitation";
    let (has_callback, kind) =
      if elicitation { (self.dialogs.elicitation, CallKind::Elicitation) } else { (self.dialogs.user_dialog, CallKind::UserDialog) };
    if !has_callback {
      self.write(if elicitation {
        success_response(&request_id, r#"{"action":"decline"}"#)
      } else {
        error_response(&request_id, "No onUserDialog callback answers request_user_dialog", None)
      });
      return Dispatched::Answered;
    }
    self.run(request_id, kind, request.get().to_string(), move |rid, result| match result.map(one_line) {
      Ok(json) if json == "null" && elicitation => success_response(rid, r#"{"action":"cancel"}"#),
      Ok(json) if json == "null" => error_response(rid, "The onUserDialog callback gave no answer (null)", None),
      Ok(json) => success_response(rid, &json),
      Err(message) => error_response(rid, &message, None),
    })
  }

  fn mcp_message(self: &Arc<Self>, request_id: String, head: RequestHead) -> Dispatched {
    let name = head.server_name.as_deref().unwrap_or("");
    let server = self.servers.read().unwrap_or_else(|p| p.into_inner()).get(name).cloned();
    let Some(server) = server else {
      self.write(error_response(&request_id, &format!("SDK MCP server not found: {name}"), None));
      return Dispatched::Answered;
    };
    let Some(message) = head.message else {
      self.write(error_response(&request_id, "mcp_message without message", None));
      return Dispatched::Answered;
    };
    match server.handle(name, message.get()) {
      McpAction::Reply(response) => {
        self.write(success_response(&request_id, &mcp_response_body(&response)));
        Dispatched::Answered
      }
      McpAction::Cancel(jsonrpc_id) => {
        let target = self.tool_calls.lock().unwrap_or_else(|p| p.into_inner()).get(&tool_key(name, &jsonrpc_id)).cloned();
        if let Some(target) = target {
          tracing::debug!(request_id = %target, "MCP notifications/cancelled: aborting the tool call");
          self.host.cancel(&target);
        }
        self.write(success_response(&request_id, &mcp_response_body(NOTIFICATION_ACK)));
        Dispatched::Answered
      }
      // A response to the server's own request, or a notification for a server the host answers.
      McpAction::Notify(payload) => self.run(request_id, CallKind::Tool, payload, |rid, _| success_response(rid, &mcp_response_body(NOTIFICATION_ACK))),
      McpAction::CallTool(call) => {
        let id = call.id;
        let key = tool_key(name, id.get());
        self.tool_calls.lock().unwrap_or_else(|p| p.into_inner()).insert(key.clone(), request_id.clone());
        let tool_calls = self.tool_calls.clone();
        self.run(request_id, CallKind::Tool, call.payload, move |rid, result| {
          tool_calls.lock().unwrap_or_else(|p| p.into_inner()).remove(&key);
          let response = match result.map(one_line).map(|json| tool_answer(&id, &json)) {
            Ok(Some(response)) => response,
            Ok(None) => jsonrpc_result(&id, &error_result("The SDK host answered a tool call without `result` or `error`")),
            Err(message) => jsonrpc_result(&id, &error_result(&message)),
          };
          success_response(rid, &mcp_response_body(&response))
        })
      }
    }
  }

  /// Hands the call to user code; the answer `answer` builds from its outcome is written when
  /// the host replies, on whatever thread it replies from.
  fn run(
    self: &Arc<Self>,
    request_id: String,
    kind: CallKind,
    payload: String,
    answer: impl FnOnce(&str, HostResult) -> String + Send + 'static,
  ) -> Dispatched {
    let reply = Reply::new(request_id.clone(), Box::new(answer), self.writer.clone(), self.inflight.clone());
    self.host.invoke(HostCall { request_id, kind, payload }, reply);
    Dispatched::Running
  }
}

fn tool_key(server: &str, jsonrpc_id: &str) -> String {
  format!("{server}\u{0}{jsonrpc_id}")
}

#[derive(serde::Deserialize)]
struct ToolAnswer<'a> {
  #[serde(borrow, default)]
  result: Option<&'a RawValue>,
  #[serde(borrow, default)]
  error: Option<&'a RawValue>,
}

/// The host answers a tool call with `{"result": CallToolResult}`, or `{"error": {code, message}}`
/// where the official server answers with a JSON-RPC error (e.g. an invalid result).
fn tool_answer(id: &RawValue, json: &str) -> Option<String> {
  let answer: ToolAnswer = serde_json::from_str(json).ok()?;
  match (answer.result, answer.error) {
    (Some(result), _) => Some(jsonrpc_result(id, result.get())),
    (None, Some(error)) => Some(format!("{{\"jsonrpc\":\"2.0\",\"id\":{},\"error\":{}}}", id.get(), error.get())),
    (None, None) => None,
  }
}

/// A CallToolResult for a handler that threw: the message, flagged as an error for the model.
pub fn error_result(message: &str) -> String {
  json!({ "content": [{ "type": "text", "text": message }], "isError": true }).to_string()
}

/// The host's JSON goes into one NDJSON line: it must be valid JSON without raw newlines.
/// `JSON.stringify` output already is; anything else is re-serialized or replaced by an error.
fn one_line(json: String) -> String {
  if memchr::memchr(b'\n', json.as_bytes()).is_none() && serde_json::from_str::<serde::de::IgnoredAny>(&json).is_ok() {
    return json;
  }
  match serde_json::from_str::<Value>(&json) {
    Ok(v) => v.to_string(),
    Err(e) => error_result(&format!("The SDK host returned invalid JSON: {e}")),
  }
}

fn permission_input(request: &RawValue) -> (Value, Value) {
  let v: Value = serde_json::from_str(request.get()).unwrap_or(Value::Null);
  (v.get("input").cloned().unwrap_or_else(|| json!({})), v.get("tool_use_id").cloned().unwrap_or(Value::Null))
}

/// The answer to `can_use_tool`: the callback's PermissionResult, with the original input echoed
/// when an allow has no `updatedInput` (the CLI requires it) and `toolUseID` added, as the
/// official SDK does. A callback that threw, or answered nonsense, denies with the reason.
fn permission_answer(result: Result<String, String>, (input, tool_use_id): &(Value, Value)) -> String {
  let deny = |message: String| json!({ "behavior": "deny", "message": message });
  let mut answer = match result {
    Err(message) => deny(message),
    Ok(json) => match serde_json::from_str::<Value>(&json) {
      Ok(Value::Object(mut m)) => match m.get("behavior").and_then(Value::as_str) {
        Some("allow") => {
          if m.get("updatedInput").is_none_or(Value::is_null) {
            m.insert("updatedInput".into(), input.clone());
          }
          Value::Object(m)
        }
        Some("deny") => {
          if !m.contains_key("message") {
            m.insert("message".into(), Value::String(String::new()));
          }
          Value::Object(m)
        }
        other => deny(format!(
          "canUseTool returned an invalid PermissionResult: behavior must be \"allow\" or \"deny\", got {}",
          other.map(|s| format!("{s:?}")).unwrap_or_else(|| "nothing".into())
        )),
      },
      Ok(other) => deny(format!("canUseTool returned an invalid PermissionResult: expected an object, got {other}")),
      Err(e) => deny(format!("canUseTool returned an invalid PermissionResult: {e}")),
    },
  };
  if !tool_use_id.is_null() {
    answer["toolUseID"] = tool_use_id.clone();
  }
  answer.to_string()
}

#[cfg(test)]
mod tests {
  use super::*;

  fn ctx() -> (Value, Value) {
    (json!({"name":"Alice"}), json!("toolu_1"))
  }

  #[test]
  fn allow_without_updated_input_echoes_the_input() {
    let a: Value = serde_json::from_str(&permission_answer(Ok(r#"{"behavior":"allow"}"#.into()), &ctx())).unwrap();
    assert_eq!(a, json!({"behavior":"allow","updatedInput":{"name":"Alice"},"toolUseID":"toolu_1"}));
    let a: Value = serde_json::from_str(&permission_answer(Ok(r#"{"behavior":"allow","updatedInput":{"name":"Bob"}}"#.into()), &ctx())).unwrap();
    assert_eq!(a["updatedInput"], json!({"name":"Bob"}));
  }

  #[test]
  fn throwing_or_invalid_callbacks_deny_with_the_reason() {
    let a: Value = serde_json::from_str(&permission_answer(Err("boom".into()), &ctx())).unwrap();
    assert_eq!(a, json!({"behavior":"deny","message":"boom","toolUseID":"toolu_1"}));
    let a: Value = serde_json::from_str(&permission_answer(Ok(r#"{"behavior":"maybe"}"#.into()), &ctx())).unwrap();
    assert_eq!(a["behavior"], "deny");
    assert!(a["message"].as_str().unwrap().contains("\"maybe\""));
    let a: Value = serde_json::from_str(&permission_answer(Ok("null".into()), &ctx())).unwrap();
    assert_eq!(a["behavior"], "deny");
  }

  #[test]
  fn tool_answers_become_jsonrpc_results_or_errors() {
    let id = RawValue::from_string("7".into()).unwrap();
    assert_eq!(tool_answer(&id, r#"{"result":{"content":[]}}"#).unwrap(), r#"{"result":{"content":[]},"jsonrpc":"2.0","id":7}"#);
    assert_eq!(tool_answer(&id, r#"{"error":{"code":-32602,"message":"m"}}"#).unwrap(), r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"m"}}"#);
    assert!(tool_answer(&id, "{}").is_none());
  }

  #[test]
  fn host_json_is_kept_on_one_line() {
    assert_eq!(one_line(r#"{"a":1}"#.into()), r#"{"a":1}"#);
    assert_eq!(one_line("{\n\"a\": 1\n}".into()), r#"{"a":1}"#);
    assert!(one_line("{oops".into()).contains("invalid JSON"));
  }
}
