//! Routing of the control requests the CLI sends us, as a pure function of the request and the
//! session's in-process servers: a request answerable from data (MCP handshake, `tools/list`,
//! unknown subtypes) gets its answer line at once; one that needs user code becomes a call for
//! the host plus the [`Answer`] that turns the host's outcome into the control response. The
//! session loop acts on the [`Route`] and owns every call in flight.
//!
//! A new kind of host callback is a [`CallKind`] variant, an arm in [`Router::route`] and, if
//! its answer is not plain JSON, an [`Answer`] variant.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{value::RawValue, Value};

use crate::host::{CallKind, HostResult};
use crate::mcp::{McpAction, McpServerDef, NOTIFICATION_ACK};
use crate::protocol::incoming::RequestHead;
use crate::protocol::outgoing::{error_response, error_result, jsonrpc_result, mcp_response_body, success_response};

pub(crate) struct Router {
    /// In-process servers by the name the CLI knows them under; replaced by `setMcpServers()`.
    pub servers: HashMap<String, Arc<McpServerDef>>,
    pub can_use_tool: bool,
    pub dialogs: Dialogs,
    /// `allowedControlRequests`: the subtypes this host serves (`None`: all).
    pub allowed: Option<Vec<String>>,
}

/// Which of the dialog callbacks (`onElicitation`, `onUserDialog`) the host has.
#[derive(Debug, Clone, Copy, Default)]
pub struct Dialogs {
    pub elicitation: bool,
    pub user_dialog: bool,
}

/// What the loop does with a control request.
#[derive(Debug)]
pub(crate) enum Route {
    /// Answered from data: write this line.
    Reply(String),
    /// Run user code; when the host answers, `answer` builds the response.
    Call {
        kind: CallKind,
        payload: String,
        answer: Answer,
    },
    /// MCP `notifications/cancelled`: abort the tool call `server`/`jsonrpc_id`, write `ack`.
    CancelTool { tool: ToolKey, ack: String },
    /// Not ours to answer: a request for the machine that serves this session's tools remotely,
    /// which answers it itself (`remote_tool_call`, `remote_plumbing_call`, `remote_tools_probe`,
    /// `remote_tools_reannounce`).
    Leave,
}

/// Requests from the CLI that an optional host handler answers ([`CallKind::HostRequest`]): the
/// host decides, as the official SDK does, what each gets without its handler (an error naming
/// the missing callback, or "Unsupported control request subtype" for a `ui_*` one).
pub(crate) const HOST_REQUEST_SUBTYPES: [&str; 9] = [
    "oauth_token_refresh",
    "host_auth_token_refresh",
    "remote_control_work_secret",
    "ui_copy",
    "ui_prompt_read",
    "ui_prompt_fill",
    "ui_prompt_paint",
    "ui_prompt_suggest",
    "ui_read_selection",
];

/// A tool call's name in MCP terms: its server and JSON-RPC id (raw JSON text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ToolKey {
    pub server: String,
    pub jsonrpc_id: String,
}

/// How the host's outcome of a call becomes the control response.
#[derive(Debug)]
pub(crate) enum Answer {
    /// A `tools/call`: a JSON-RPC result (a failure is an `isError` result).
    Tool { key: ToolKey, id: Box<RawValue> },
    /// `can_use_tool`: a PermissionResult, completed as the CLI requires (a failure denies).
    /// The request's `input` and `tool_use_id` are kept as the CLI wrote them (raw JSON text,
    /// never a tree): an allow without `updatedInput` echoes the input byte for byte.
    Permission {
        input: Box<RawValue>,
        tool_use_id: Option<Box<RawValue>>,
    },
    /// The host's JSON as the response body (a failure is an error response).
    Json,
    /// An MCP notification's acknowledgement, whatever the host answered.
    Ack,
    /// An ElicitResult; `null` cancels.
    Elicitation,
    /// A dialog's result; `null` is an error.
    UserDialog,
    /// A [`CallKind::HostRequest`] envelope: `{"response"?}` or `{"error","error_code"?}`.
    Envelope,
}

impl Answer {
    /// The tool call this answers, if it is one.
    pub fn tool(&self) -> Option<&ToolKey> {
        match self {
            Answer::Tool { key, .. } => Some(key),
            _ => None,
        }
    }

    /// The control-response line for the host's outcome.
    pub fn line(self, request_id: &str, result: HostResult) -> String {
        match self {
            Answer::Tool { id, .. } => {
                let response = match result.map(one_line).map(|json| tool_answer(&id, &json)) {
                    Ok(Some(response)) => response,
                    Ok(None) => jsonrpc_result(
                        &id,
                        &error_result("The SDK host answered a tool call without `result` or `error`"),
                    ),
                    Err(message) => jsonrpc_result(&id, &error_result(&message)),
                };
                success_response(request_id, &mcp_response_body(&response))
            }
            Answer::Permission { input, tool_use_id } => {
                success_response(request_id, &permission_answer(result, &input, tool_use_id.as_deref()))
            }
            Answer::Ack => success_response(request_id, &mcp_response_body(NOTIFICATION_ACK)),
            Answer::Json => match result {
                Ok(json) => success_response(request_id, &one_line(json)),
                Err(message) => error_response(request_id, &message, None),
            },
            Answer::Envelope => match result {
                Ok(json) => envelope_answer(request_id, &json),
                Err(message) => error_response(request_id, &message, None),
            },
            Answer::Elicitation | Answer::UserDialog => match result.map(one_line) {
                Ok(json) if json == "null" && matches!(self, Answer::Elicitation) => {
                    success_response(request_id, r#"{"action":"cancel"}"#)
                }
                Ok(json) if json == "null" => {
                    error_response(request_id, "The onUserDialog callback gave no answer (null)", None)
                }
                Ok(json) => success_response(request_id, &json),
                Err(message) => error_response(request_id, &message, None),
            },
        }
    }
}

impl Router {
    pub fn route(&self, request_id: &str, request: Box<RawValue>) -> Route {
        if request.get() == "null" {
            return Route::Reply(error_response(
                request_id,
                "Malformed control request: `request` is missing or null",
                None,
            ));
        }
        let head: RequestHead = match serde_json::from_str(request.get()) {
            Ok(h) => h,
            Err(e) => {
                return Route::Reply(error_response(
                    request_id,
                    &format!("Malformed control request: {e}"),
                    None,
                ))
            }
        };
        tracing::debug!(request_id = %request_id, subtype = %head.subtype, "control request");
        if self
            .allowed
            .as_ref()
            .is_some_and(|a| !a.iter().any(|s| *s == head.subtype))
        {
            return Route::Reply(error_response(
                request_id,
                "Control request not allowed by this host",
                None,
            ));
        }
        match head.subtype.as_ref() {
            // Addressed to the machine serving the session's tools (a remote tool host on the same pipe),
            // not to the SDK: left unanswered, as the official leaves them, so that no answer of ours can
            // preempt that host's.
            "remote_tool_call" | "remote_plumbing_call" | "remote_tools_probe" | "remote_tools_reannounce" => {
                tracing::debug!(request_id = %request_id, subtype = %head.subtype, "for the machine serving this session's tools: left unanswered");
                Route::Leave
            }
            "mcp_message" => self.mcp_message(request_id, head),
            "can_use_tool" if !self.can_use_tool => {
                Route::Reply(error_response(request_id, "canUseTool callback is not provided.", None))
            }
            "can_use_tool" => {
                let (input, tool_use_id) = permission_input(&request);
                Route::Call {
                    kind: CallKind::CanUseTool,
                    payload: request.get().to_string(),
                    answer: Answer::Permission { input, tool_use_id },
                }
            }
            "hook_callback" => Route::Call {
                kind: CallKind::Hook,
                payload: request.get().to_string(),
                answer: Answer::Json,
            },
            "elicitation" | "request_user_dialog" => self.dialog(request_id, head.subtype.as_ref(), &request),
            s if HOST_REQUEST_SUBTYPES.contains(&s) => Route::Call {
                kind: CallKind::HostRequest,
                payload: request.get().to_string(),
                answer: Answer::Envelope,
            },
            other => {
                tracing::warn!(subtype = other, "unsupported control request");
                Route::Reply(error_response(
                    request_id,
                    &format!("Unsupported control request subtype: {other}"),
                    Some("unsupported_request"),
                ))
            }
        }
    }

    /// `elicitation` and `request_user_dialog`: to the host's callback, concurrently like
    /// `can_use_tool`. Without a callback an elicitation is declined (as the official SDK does) and
    /// a dialog is refused with an error (the official stays silent, leaving the CLI to wait for its
    /// own deadline). A callback that answers `null` cancels an elicitation and refuses a dialog; one
    /// that throws gets an error response with its message.
    fn dialog(&self, request_id: &str, subtype: &str, request: &RawValue) -> Route {
        let elicitation = subtype == "elicitation";
        let (has_callback, kind) = if elicitation {
            (self.dialogs.elicitation, CallKind::Elicitation)
        } else {
            (self.dialogs.user_dialog, CallKind::UserDialog)
        };
        if !has_callback {
            return Route::Reply(if elicitation {
                success_response(request_id, r#"{"action":"decline"}"#)
            } else {
                error_response(request_id, "No onUserDialog callback answers request_user_dialog", None)
            });
        }
        let answer = if elicitation {
            Answer::Elicitation
        } else {
            Answer::UserDialog
        };
        Route::Call {
            kind,
            payload: request.get().to_string(),
            answer,
        }
    }

    fn mcp_message(&self, request_id: &str, head: RequestHead) -> Route {
        let name = head.server_name.as_deref().unwrap_or("");
        let Some(server) = self.servers.get(name) else {
            return Route::Reply(error_response(
                request_id,
                &format!("SDK MCP server not found: {name}"),
                None,
            ));
        };
        let Some(message) = head.message else {
            return Route::Reply(error_response(request_id, "mcp_message without message", None));
        };
        match server.handle(name, message.get()) {
            McpAction::Reply(response) if server.lone_surrogates() => Route::Reply(crate::sessions::surrogate::unmask(
                &success_response(request_id, &mcp_response_body(&response)),
            )),
            McpAction::Reply(response) => Route::Reply(success_response(request_id, &mcp_response_body(&response))),
            McpAction::Cancel(jsonrpc_id) => Route::CancelTool {
                tool: ToolKey {
                    server: name.to_string(),
                    jsonrpc_id,
                },
                ack: success_response(request_id, &mcp_response_body(NOTIFICATION_ACK)),
            },
            // A response to the server's own request, or a notification for a server the host answers:
            // the host takes it, and the CLI gets the acknowledgement once it has.
            McpAction::Notify(payload) => Route::Call {
                kind: CallKind::Tool,
                payload,
                answer: Answer::Ack,
            },
            McpAction::CallTool(call) => {
                let key = ToolKey {
                    server: name.to_string(),
                    jsonrpc_id: call.id.get().to_string(),
                };
                Route::Call {
                    kind: CallKind::Tool,
                    payload: call.payload,
                    answer: Answer::Tool { key, id: call.id },
                }
            }
        }
    }
}

/// The control response a [`CallKind::HostRequest`] envelope stands for (a small object: read as
/// a tree). `"response": null` is a body of `null`, as the official writes it; no `response` at
/// all is a success without a body.
fn envelope_answer(request_id: &str, json: &str) -> String {
    let (masked, lone) = crate::sessions::surrogate::from_js(json);
    if lone {
        return crate::sessions::surrogate::unmask(&envelope_answer(request_id, &masked));
    }
    let envelope = match serde_json::from_str::<Value>(json) {
        Ok(Value::Object(m)) => m,
        Ok(_) => {
            return error_response(
                request_id,
                "The SDK host answered with an invalid envelope: not an object",
                None,
            )
        }
        Err(e) => {
            return error_response(
                request_id,
                &format!("The SDK host answered with an invalid envelope: {e}"),
                None,
            )
        }
    };
    if let Some(message) = envelope.get("error").and_then(Value::as_str) {
        return error_response(request_id, message, envelope.get("error_code").and_then(Value::as_str));
    }
    match envelope.get("response") {
        Some(body) => success_response(request_id, &body.to_string()),
        None => {
            let mut line = serde_json::json!({ "type": "control_response", "response": { "subtype": "success", "request_id": request_id } }).to_string();
            line.push('\n');
            line
        }
    }
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
        (None, Some(error)) => Some(format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":{},\"error\":{}}}",
            id.get(),
            error.get()
        )),
        (None, None) => None,
    }
}

/// The host's JSON goes into one NDJSON line: it must be valid JSON without raw newlines.
/// `JSON.stringify` output already is; anything else is re-serialized or replaced by an error.
fn one_line(json: String) -> String {
    if memchr::memchr(b'\n', json.as_bytes()).is_none() && serde_json::from_str::<serde::de::IgnoredAny>(&json).is_ok()
    {
        return json;
    }
    match serde_json::from_str::<Value>(&json) {
        Ok(v) => v.to_string(),
        Err(e) => error_result(&format!("The SDK host returned invalid JSON: {e}")),
    }
}

#[derive(serde::Deserialize)]
struct PermissionRequest<'a> {
    #[serde(borrow, default)]
    input: Option<&'a RawValue>,
    #[serde(borrow, default)]
    tool_use_id: Option<&'a RawValue>,
}

/// The request's `input` and `tool_use_id` as raw JSON text. Reading them skips the values
/// without building them (serde_json's skipping is iterative and does not judge `\u` escapes),
/// so any nesting depth and lone-surrogate escapes pass through untouched.
fn permission_input(request: &RawValue) -> (Box<RawValue>, Option<Box<RawValue>>) {
    let fields: PermissionRequest = serde_json::from_str(request.get()).unwrap_or(PermissionRequest {
        input: None,
        tool_use_id: None,
    });
    let input = fields
        .input
        .map(RawValue::to_owned)
        .unwrap_or_else(|| RawValue::from_string("{}".into()).expect("valid JSON"));
    (
        input,
        fields
            .tool_use_id
            .filter(|id| id.get() != "null")
            .map(RawValue::to_owned),
    )
}

/// A JSON object's members in order, each value as raw text (never a tree).
struct Members<'a>(Vec<(String, Cow<'a, RawValue>)>);

impl<'de: 'a, 'a> serde::Deserialize<'de> for Members<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for V<'a> {
            type Value = Members<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Members<'a>, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, &'de RawValue>()? {
                    out.push((k, Cow::Borrowed(v)));
                }
                Ok(Members(out))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

impl Members<'_> {
    fn get(&self, key: &str) -> Option<&RawValue> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_ref())
    }

    fn text(&self) -> String {
        let mut out = String::from("{");
        for (i, (k, v)) in self.0.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&serde_json::to_string(k).expect("a string serializes"));
            out.push(':');
            out.push_str(v.get());
        }
        out.push('}');
        out
    }
}

/// The answer to `can_use_tool`: the callback's PermissionResult, with the original input echoed
/// when an allow has no `updatedInput` (the CLI requires it) and `toolUseID` added, as the
/// official SDK does. A callback that threw, or answered nonsense, denies with the reason. The
/// callback's members pass as raw text: `updatedInput` of any depth, with any escapes, is kept.
fn permission_answer(result: Result<String, String>, input: &RawValue, tool_use_id: Option<&RawValue>) -> String {
    let deny = |message: String| {
        Members(vec![
            ("behavior".into(), raw(r#""deny""#)),
            ("message".into(), text(&message)),
        ])
    };
    let json = match result {
        Err(message) => return with_tool_use_id(deny(message), tool_use_id),
        Ok(json) => json,
    };
    let answer = match serde_json::from_str::<Members>(&json) {
        Ok(mut m) => match m.get("behavior").map(|b| serde_json::from_str::<String>(b.get())) {
            Some(Ok(b)) if b == "allow" => {
                m.0.retain(|(k, v)| k != "updatedInput" || v.get() != "null");
                if m.get("updatedInput").is_none() {
                    m.0.push(("updatedInput".into(), Cow::Borrowed(input)));
                }
                m
            }
            Some(Ok(b)) if b == "deny" => {
                if m.get("message").is_none() {
                    m.0.push(("message".into(), raw(r#""""#)));
                }
                m
            }
            other => deny(format!(
                "canUseTool returned an invalid PermissionResult: behavior must be \"allow\" or \"deny\", got {}",
                match other {
                    Some(Ok(s)) => format!("{s:?}"),
                    Some(Err(_)) => "a value that is not a string".into(),
                    None => "nothing".into(),
                }
            )),
        },
        Err(_) if serde_json::from_str::<serde::de::IgnoredAny>(&json).is_ok() => deny(format!(
            "canUseTool returned an invalid PermissionResult: expected an object, got {}",
            json.chars().take(100).collect::<String>()
        )),
        Err(e) => deny(format!("canUseTool returned an invalid PermissionResult: {e}")),
    };
    with_tool_use_id(answer, tool_use_id)
}

/// The answer's text, with the request's `toolUseID` (it replaces one the callback gave).
fn with_tool_use_id<'a>(mut answer: Members<'a>, tool_use_id: Option<&'a RawValue>) -> String {
    if let Some(id) = tool_use_id {
        answer.0.retain(|(k, _)| k != "toolUseID");
        answer.0.push(("toolUseID".into(), Cow::Borrowed(id)));
    }
    answer.text()
}

/// Literal JSON as a member value.
fn raw(json: &'static str) -> Cow<'static, RawValue> {
    Cow::Borrowed(serde_json::from_str(json).expect("literal JSON"))
}

/// A string as a member value.
fn text(s: &str) -> Cow<'static, RawValue> {
    Cow::Owned(RawValue::from_string(serde_json::to_string(s).expect("a string serializes")).expect("valid JSON"))
}

#[cfg(test)]
mod tests {
    /// The subtypes `Router::route` leaves to the remote tool host.
    const REMOTE_TOOL_HOST_SUBTYPES: [&str; 4] = [
        "remote_tool_call",
        "remote_plumbing_call",
        "remote_tools_probe",
        "remote_tools_reannounce",
    ];
    use super::*;
    use serde_json::json;

    fn answer(result: Result<String, String>) -> Value {
        let input = RawValue::from_string(r#"{"name":"Alice"}"#.into()).unwrap();
        let id = RawValue::from_string(r#""toolu_1""#.into()).unwrap();
        serde_json::from_str(&permission_answer(result, &input, Some(&id))).unwrap()
    }

    /// A request body as the CLI sends it.
    fn raw(s: &str) -> Box<RawValue> {
        RawValue::from_string(s.to_string()).unwrap()
    }

    /// A router serving `can_use_tool`, with no servers or dialogs, and `allowed` subtypes.
    fn router(allowed: Option<Vec<String>>) -> Router {
        Router {
            servers: HashMap::new(),
            can_use_tool: true,
            dialogs: Dialogs::default(),
            allowed,
        }
    }

    #[test]
    fn subtypes_outside_allowed_control_requests_are_refused() {
        let only = router(Some(vec!["can_use_tool".into()]));
        let hook = raw(r#"{"subtype":"hook_callback","callback_id":"h0","input":{}}"#);
        match only.route("r1", hook.clone()) {
            Route::Reply(line) => {
                let v: Value = serde_json::from_str(&line).unwrap();
                assert_eq!(v["response"]["subtype"], "error");
                assert_eq!(v["response"]["request_id"], "r1");
                assert_eq!(v["response"]["error"], "Control request not allowed by this host");
            }
            other => panic!("{other:?}"),
        }
        let ask = raw(r#"{"subtype":"can_use_tool","tool_name":"T","input":{}}"#);
        assert!(matches!(
            only.route("r2", ask),
            Route::Call {
                kind: CallKind::CanUseTool,
                ..
            }
        ));
        assert!(matches!(
            router(None).route("r3", hook.clone()),
            Route::Call {
                kind: CallKind::Hook,
                ..
            }
        ));
        // An empty list serves nothing.
        assert!(matches!(router(Some(vec![])).route("r4", hook), Route::Reply(_)));
    }

    #[test]
    fn requests_for_the_remote_tool_host_are_left_to_it_unless_not_allowed() {
        for subtype in REMOTE_TOOL_HOST_SUBTYPES {
            let request = raw(&format!(r#"{{"subtype":"{subtype}"}}"#));
            assert!(
                matches!(router(None).route("r1", request.clone()), Route::Leave),
                "{subtype}"
            );
            // The host's allow list is checked first, as in the official.
            assert!(
                matches!(
                    router(Some(vec!["can_use_tool".into()])).route("r2", request),
                    Route::Reply(_)
                ),
                "{subtype}"
            );
        }
        let unknown = raw(r#"{"subtype":"remote_something_else"}"#);
        assert!(matches!(router(None).route("r3", unknown), Route::Reply(_)));
    }

    #[test]
    fn host_requests_go_to_the_host_and_their_envelopes_become_responses() {
        let router = Router {
            servers: HashMap::new(),
            can_use_tool: false,
            dialogs: Dialogs::default(),
            allowed: None,
        };
        for subtype in HOST_REQUEST_SUBTYPES {
            let request = raw(&format!(r#"{{"subtype":"{subtype}","x":1}}"#));
            match router.route("r1", request) {
                Route::Call {
                    kind: CallKind::HostRequest,
                    payload,
                    answer: Answer::Envelope,
                } => assert!(payload.contains(subtype)),
                other => panic!("{subtype}: {other:?}"),
            }
        }
        let v = |line: String| serde_json::from_str::<Value>(&line).unwrap();
        assert_eq!(
            v(Answer::Envelope.line("r", Ok(r#"{"response":{"accessToken":null}}"#.into())))["response"],
            json!({"subtype":"success","request_id":"r","response":{"accessToken":null}})
        );
        assert_eq!(
            v(Answer::Envelope.line("r", Ok("{}".into())))["response"],
            json!({"subtype":"success","request_id":"r"})
        );
        assert_eq!(
            v(Answer::Envelope.line("r", Ok(r#"{"response":null}"#.into())))["response"],
            json!({"subtype":"success","request_id":"r","response":null})
        );
        assert_eq!(
            v(Answer::Envelope.line(
                "r",
                Ok(
                    r#"{"error":"Unsupported control request subtype: ui_copy","error_code":"unsupported_request"}"#
                        .into()
                )
            ))["response"],
            json!({"subtype":"error","request_id":"r","error":"Unsupported control request subtype: ui_copy","error_code":"unsupported_request"})
        );
        assert_eq!(
            v(Answer::Envelope.line("r", Err("boom".into())))["response"],
            json!({"subtype":"error","request_id":"r","error":"boom"})
        );
        assert_eq!(
            v(Answer::Envelope.line("r", Ok("[1]".into())))["response"]["subtype"],
            "error"
        );
    }

    #[test]
    fn allow_without_updated_input_echoes_the_input() {
        assert_eq!(
            answer(Ok(r#"{"behavior":"allow"}"#.into())),
            json!({"behavior":"allow","updatedInput":{"name":"Alice"},"toolUseID":"toolu_1"})
        );
        assert_eq!(
            answer(Ok(r#"{"behavior":"allow","updatedInput":null}"#.into()))["updatedInput"],
            json!({"name":"Alice"})
        );
        assert_eq!(
            answer(Ok(r#"{"behavior":"allow","updatedInput":{"name":"Bob"}}"#.into()))["updatedInput"],
            json!({"name":"Bob"})
        );
    }

    #[test]
    fn throwing_or_invalid_callbacks_deny_with_the_reason() {
        assert_eq!(
            answer(Err("boom".into())),
            json!({"behavior":"deny","message":"boom","toolUseID":"toolu_1"})
        );
        let a = answer(Ok(r#"{"behavior":"maybe"}"#.into()));
        assert_eq!(a["behavior"], "deny");
        assert!(a["message"].as_str().unwrap().contains("\"maybe\""));
        assert_eq!(answer(Ok("null".into()))["behavior"], "deny");
        assert_eq!(
            answer(Ok(r#"{"behavior":"deny"}"#.into())),
            json!({"behavior":"deny","message":"","toolUseID":"toolu_1"})
        );
    }

    /// What is only passed through stays the CLI's text: lone surrogates and any depth.
    #[test]
    fn permission_input_passes_through_byte_for_byte() {
        let deep = format!("{}1{}", "[".repeat(5000), "]".repeat(5000));
        let input = format!(r#"{{"s":"\ud800x","deep":{deep},"u":"\u00e9"}}"#);
        let request = format!(r#"{{"subtype":"can_use_tool","tool_name":"T","input":{input},"tool_use_id":"tu_9"}}"#);
        let (got, id) = permission_input(&RawValue::from_string(request).unwrap());
        assert_eq!(got.get(), input);
        assert_eq!(id.as_deref().map(RawValue::get), Some(r#""tu_9""#));
        let line = permission_answer(Ok(r#"{"behavior":"allow"}"#.into()), &got, id.as_deref());
        assert_eq!(
            line,
            format!(r#"{{"behavior":"allow","updatedInput":{input},"toolUseID":"tu_9"}}"#)
        );
        let echoed = format!(r#"{{"behavior":"allow","updatedInput":{input}}}"#);
        assert_eq!(
            permission_answer(Ok(echoed), &got, id.as_deref()),
            line,
            "updatedInput: input is kept as written"
        );
    }

    #[test]
    fn tool_answers_become_jsonrpc_results_or_errors() {
        let id = RawValue::from_string("7".into()).unwrap();
        assert_eq!(
            tool_answer(&id, r#"{"result":{"content":[]}}"#).unwrap(),
            r#"{"result":{"content":[]},"jsonrpc":"2.0","id":7}"#
        );
        assert_eq!(
            tool_answer(&id, r#"{"error":{"code":-32602,"message":"m"}}"#).unwrap(),
            r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"m"}}"#
        );
        assert!(tool_answer(&id, "{}").is_none());
    }

    #[test]
    fn host_json_is_kept_on_one_line() {
        assert_eq!(one_line(r#"{"a":1}"#.into()), r#"{"a":1}"#);
        assert_eq!(one_line("{\n\"a\": 1\n}".into()), r#"{"a":1}"#);
        assert!(one_line("{oops".into()).contains("invalid JSON"));
    }
}
