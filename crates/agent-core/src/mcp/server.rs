use serde::Deserialize;
use serde_json::{json, value::RawValue, Map, Value};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, LazyLock, Mutex, RwLock, Weak};

use crate::mcp::validate::ArgsCheck;
use crate::protocol::outgoing::{jsonrpc_error, jsonrpc_result};

/// The MCP protocol version we announce when the client asks for one we do not know.
pub const LATEST_PROTOCOL_VERSION: &str = "2025-11-25";
const SUPPORTED_PROTOCOL_VERSIONS: &[&str] = &["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"];

/// An in-process server as the CLI sees it. Built once per `createSdkMcpServer()` object and
/// shared by every session that uses it, so its manifests are computed once per change: the
/// host replaces its definition ([`McpServerDef::update`]) when tools, resources or prompts are
/// added, changed or removed at run time, and every later list (and manifest) reflects it.
///
/// A *forwarding* server ([`McpServerDef::forwarding`]) is any other MCP server object (an
/// `McpServer` of `@modelcontextprotocol/sdk`, a server of another copy of this package): every
/// message goes to the host, which feeds it to that server through a transport.
#[derive(Debug)]
pub struct McpServerDef {
    pub name: String,
    forward: bool,
    /// Built once per spec text and shared by the servers made from the same spec ([`built`]);
    /// never changed in place: an update replaces it.
    state: RwLock<Arc<State>>,
    /// Its spec (now or once) held a lone surrogate, read masked: what it answers goes out
    /// through [`crate::sessions::surrogate::unmask`].
    lone_surrogates: std::sync::atomic::AtomicBool,
}

#[derive(Debug, Default)]
struct State {
    /// The server's name, and whether its spec held a lone surrogate (for a server made from a
    /// spec already built, see [`built`]).
    name: String,
    lone: bool,
    initialize_result: Value,
    /// `{"tools":[...]}` as JSON text, ready to splice into answers.
    tools_list_result: String,
    tools: HashSet<String>,
    /// Argument checks for the tools whose input schema is plain JSON Schema.
    checks: HashMap<String, ArgsCheck>,
    /// `{"resources":[...]}`; `None` when a resource template lists resources in the host.
    resources_list_result: Option<String>,
    templates_list_result: String,
    prompts_list_result: String,
    prompts: HashSet<String>,
    has_resources: bool,
    has_prompts: bool,
}

#[derive(Deserialize)]
struct Spec {
    name: String,
    #[serde(default)]
    version: Option<String>,
    #[serde(default)]
    instructions: Option<String>,
    /// Tool entries exactly as `tools/list` should list them (name, description, inputSchema,
    /// outputSchema, annotations, ...): the host owns schema conversion.
    #[serde(default)]
    tools: Vec<Map<String, Value>>,
    /// Plain-JSON-Schema tools' input schemas, by tool name: checked here before crossing to JS.
    #[serde(default, rename = "argsChecks")]
    args_checks: Map<String, Value>,
    /// Static resources as `resources/list` lists them (`uri`, `name`, metadata).
    #[serde(default)]
    resources: Vec<Value>,
    /// Resource templates as `resources/templates/list` lists them.
    #[serde(default, rename = "resourceTemplates")]
    resource_templates: Vec<Value>,
    /// A template has a list callback: `resources/list` is answered by the host.
    #[serde(default, rename = "resourcesListInHost")]
    resources_list_in_host: bool,
    /// Prompts as `prompts/list` lists them (`name`, `description`, `arguments`).
    #[serde(default)]
    prompts: Vec<Map<String, Value>>,
    /// Which capabilities to announce beyond `tools` (once registered, as the MCP SDK does).
    #[serde(default)]
    capabilities: Capabilities,
}

#[derive(Deserialize, Default)]
struct Capabilities {
    #[serde(default)]
    resources: bool,
    #[serde(default)]
    prompts: bool,
}

/// What to do with one MCP message.
#[derive(Debug)]
pub enum McpAction {
    /// Answer with this JSON-RPC response text.
    Reply(String),
    /// Run a request in the host (`tools/call`, `resources/read`, `prompts/get`, or anything for a
    /// forwarding server); answer with its `{"result"}` / `{"error"}` under `id`.
    CallTool(ToolCall),
    /// `notifications/cancelled`: abort the tool call with this JSON-RPC id (raw JSON text);
    /// acknowledge the notification as any other.
    Cancel(String),
    /// A message the host must see but that gets no JSON-RPC answer: a response to a request the
    /// server sent the CLI (e.g. `elicitation/create`), or any notification for a forwarding
    /// server. Payload `{"server":..,"message":<the message>}`; acknowledged once the host took it.
    Notify(String),
}

#[derive(Debug)]
pub struct ToolCall {
    pub id: Box<RawValue>,
    pub tool: String,
    /// `{"server":..,"tool":..,"arguments":..,"meta":..}` for `tools/call`,
    /// `{"server":..,"method":..,"id":..,"params":..}` for the other host requests,
    /// `{"server":..,"id":..,"forward":<message>}` for a forwarding server: the host's payload.
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

#[derive(Deserialize)]
struct NameParam<'a> {
    #[serde(borrow, default)]
    name: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow, default)]
    uri: Option<std::borrow::Cow<'a, str>>,
}

/// What the official SDK answers to any notification.
pub const NOTIFICATION_ACK: &str = r#"{"jsonrpc":"2.0","result":{},"id":0}"#;

/// MCP's "resource not found" error code.
pub const RESOURCE_NOT_FOUND: i64 = -32002;

#[derive(Deserialize)]
struct InitParams {
    #[serde(default, rename = "protocolVersion")]
    protocol_version: Option<String>,
}

/// The names of a server's tools or prompts (`what`); one missing or given twice is an error.
fn names(defs: &[Map<String, Value>], what: &str, server: &str) -> Result<HashSet<String>, String> {
    let mut names = HashSet::new();
    for (i, d) in defs.iter().enumerate() {
        let name = d
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("{what} #{i} of server {server:?} has no name"))?;
        if !names.insert(name.to_string()) {
            return Err(format!("server {server:?} defines the {what} {name:?} twice"));
        }
    }
    Ok(names)
}

fn quoted(s: &str) -> String {
    serde_json::to_string(s).expect("string")
}

impl State {
    fn from_spec(spec: Spec, lone: bool) -> Result<Self, String> {
        if spec.name.is_empty() {
            return Err("createSdkMcpServer: `name` must be a non-empty string".into());
        }
        let tools = names(&spec.tools, "tool", &spec.name)?;
        let prompts = names(&spec.prompts, "prompt", &spec.name)?;
        let has_resources =
            spec.capabilities.resources || !spec.resources.is_empty() || !spec.resource_templates.is_empty();
        let has_prompts = spec.capabilities.prompts || !spec.prompts.is_empty();
        let mut capabilities = json!({ "tools": { "listChanged": true } });
        if has_resources {
            capabilities["resources"] = json!({ "listChanged": true });
        }
        if has_prompts {
            capabilities["prompts"] = json!({ "listChanged": true });
        }
        let mut initialize_result = json!({
          "protocolVersion": LATEST_PROTOCOL_VERSION,
          "capabilities": capabilities,
          "serverInfo": { "name": spec.name, "version": spec.version.as_deref().unwrap_or("1.0.0") },
        });
        if let Some(instructions) = spec.instructions {
            initialize_result["instructions"] = Value::String(instructions);
        }
        let checks = spec
            .args_checks
            .iter()
            .filter_map(|(name, schema)| Some((name.clone(), ArgsCheck::compile(schema)?)))
            .collect();
        let state = State {
            lone,
            initialize_result,
            tools_list_result: json!({ "tools": spec.tools }).to_string(),
            tools,
            checks,
            resources_list_result: (!spec.resources_list_in_host)
                .then(|| json!({ "resources": spec.resources }).to_string()),
            templates_list_result: json!({ "resourceTemplates": spec.resource_templates }).to_string(),
            prompts_list_result: json!({ "prompts": spec.prompts }).to_string(),
            prompts,
            has_resources,
            has_prompts,
            name: spec.name,
        };
        Ok(state)
    }
}

/// The states built from the specs of live servers, by spec text: an app that makes a server per
/// query (the official SDK's server instance serves one query at a time) makes the same spec
/// again and again, and its servers share one state (its lists, manifest and argument checks)
/// instead of holding a copy each.
static BUILT: LazyLock<Mutex<Built>> = LazyLock::new(Default::default);

#[derive(Default)]
struct Built {
    states: HashMap<Box<str>, Weak<State>>,
    /// The size at which the entries of dropped states are next swept out.
    sweep_at: usize,
}

/// The state of `spec` (JSON text, as from the host), built or shared: its server's name, the
/// state, and whether the spec held a lone surrogate.
fn built(spec: &str) -> Result<(String, Arc<State>, bool), String> {
    let mut cache = BUILT.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(state) = cache.states.get(spec).and_then(Weak::upgrade) {
        let lone = state.lone;
        return Ok((state.name.clone(), state, lone));
    }
    let (text, lone) = crate::sessions::surrogate::from_js(spec);
    let parsed: Spec = serde_json::from_str(&text).map_err(|e| format!("invalid MCP server definition: {e}"))?;
    let state = Arc::new(State::from_spec(parsed, lone)?);
    let name = state.name.clone();
    if cache.states.len() >= cache.sweep_at {
        cache.states.retain(|_, s| s.strong_count() > 0);
        cache.sweep_at = (cache.states.len() * 2).max(64);
    }
    cache.states.insert(spec.into(), Arc::downgrade(&state));
    Ok((name, state, lone))
}

impl McpServerDef {
    /// Builds a server from its spec (JSON text): `{name, version?, instructions?, tools:[...],
    /// argsChecks?, resources?, resourceTemplates?, resourcesListInHost?, prompts?, capabilities?}`.
    pub fn from_spec_json(spec: &str) -> Result<Self, String> {
        let (name, state, lone) = built(spec)?;
        Ok(Self {
            name,
            forward: false,
            state: RwLock::new(state),
            lone_surrogates: lone.into(),
        })
    }

    /// Whether its spec held a lone surrogate (see [`crate::sessions::surrogate::from_js`]).
    pub fn lone_surrogates(&self) -> bool {
        self.lone_surrogates.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// A server whose every message the host answers (see [`McpAction`]): no manifest, no lists.
    pub fn forwarding(name: &str) -> Result<Self, String> {
        if name.is_empty() {
            return Err("an in-process MCP server needs a non-empty name".into());
        }
        Ok(Self {
            name: name.to_string(),
            forward: true,
            state: RwLock::new(Arc::default()),
            lone_surrogates: false.into(),
        })
    }

    /// Replaces the definition (same spec as [`from_spec_json`](Self::from_spec_json); the name
    /// may not change). Sessions using the server see the new lists from their next request on.
    pub fn update(&self, spec: &str) -> Result<(), String> {
        if self.forward {
            return Err(format!(
                "the MCP server {:?} is answered by its own object; it has no definition to update",
                self.name
            ));
        }
        let (name, state, lone) = built(spec)?;
        if lone {
            self.lone_surrogates.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        if name != self.name {
            return Err(format!("an MCP server cannot be renamed ({:?} -> {name:?})", self.name));
        }
        *self.state.write().unwrap_or_else(|p| p.into_inner()) = state;
        Ok(())
    }

    fn state(&self) -> Arc<State> {
        self.state.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    pub fn is_forwarding(&self) -> bool {
        self.forward
    }

    /// The manifest the official SDK 0.3.x sends in `initialize` as `sdkMcpServerManifests[name]`,
    /// so CLIs that read it skip the MCP handshake. `None` for a forwarding server (the CLI then
    /// does the handshake through `mcp_message`, which reaches the server itself).
    pub fn manifest(&self) -> Option<Value> {
        if self.forward {
            return None;
        }
        let st = self.state();
        Some(json!({
          "initializeResult": st.initialize_result,
          "toolsListResult": serde_json::from_str::<Value>(&st.tools_list_result).expect("built from a Value"),
        }))
    }

    pub fn has_tool(&self, name: &str) -> bool {
        self.state().tools.contains(name)
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
        let notify = || {
            McpAction::Notify(format!(
                "{{\"server\":{},\"message\":{}}}",
                quoted(served_as),
                message.trim()
            ))
        };
        let Some(id) = msg.id.filter(|_| msg.method.is_some()) else {
            if msg.method.is_none() && msg.id.is_some() {
                // A JSON-RPC response: the CLI answering a request the server sent it.
                return notify();
            }
            if method == "notifications/cancelled" {
                let cancelled = msg
                    .params
                    .and_then(|p| serde_json::from_str::<CancelParams>(p.get()).ok())
                    .and_then(|p| p.request_id);
                if let Some(rid) = cancelled {
                    return McpAction::Cancel(rid.get().to_string());
                }
            }
            if self.forward {
                return notify();
            }
            // A notification (no id), e.g. notifications/initialized: nothing to do but acknowledge.
            return McpAction::Reply(NOTIFICATION_ACK.to_string());
        };
        if self.forward {
            let payload = format!(
                "{{\"server\":{},\"id\":{},\"forward\":{}}}",
                quoted(served_as),
                id.get(),
                message.trim()
            );
            return McpAction::CallTool(ToolCall {
                id: id.to_owned(),
                tool: method.to_string(),
                payload,
            });
        }
        let host_request = || {
            let payload = format!(
                "{{\"server\":{},\"method\":{},\"id\":{},\"params\":{}}}",
                quoted(served_as),
                quoted(method),
                id.get(),
                msg.params.map(RawValue::get).unwrap_or("{}"),
            );
            McpAction::CallTool(ToolCall {
                id: id.to_owned(),
                tool: method.to_string(),
                payload,
            })
        };
        let st = self.state();
        match method {
            "initialize" => {
                let requested = msg
                    .params
                    .and_then(|p| serde_json::from_str::<InitParams>(p.get()).ok())
                    .and_then(|p| p.protocol_version);
                let mut result = st.initialize_result.clone();
                if let Some(v) = requested.filter(|v| SUPPORTED_PROTOCOL_VERSIONS.contains(&v.as_str())) {
                    result["protocolVersion"] = Value::String(v);
                }
                McpAction::Reply(jsonrpc_result(id, &result.to_string()))
            }
            "tools/list" => McpAction::Reply(jsonrpc_result(id, &st.tools_list_result)),
            "ping" => McpAction::Reply(jsonrpc_result(id, "{}")),
            "resources/list" if st.has_resources => match &st.resources_list_result {
                Some(list) => McpAction::Reply(jsonrpc_result(id, list)),
                None => host_request(),
            },
            "resources/templates/list" if st.has_resources => {
                McpAction::Reply(jsonrpc_result(id, &st.templates_list_result))
            }
            "resources/read" if st.has_resources => {
                match msg
                    .params
                    .and_then(|p| serde_json::from_str::<NameParam>(p.get()).ok())
                    .and_then(|p| p.uri)
                {
                    // Which resource or template matches is decided in the host, which owns the callbacks.
                    Some(_) => host_request(),
                    None => McpAction::Reply(jsonrpc_error(
                        Some(id),
                        -32602,
                        "Invalid params for resources/read: `uri` must be a string",
                    )),
                }
            }
            "prompts/list" if st.has_prompts => McpAction::Reply(jsonrpc_result(id, &st.prompts_list_result)),
            "prompts/get" if st.has_prompts => {
                match msg
                    .params
                    .and_then(|p| serde_json::from_str::<NameParam>(p.get()).ok())
                    .and_then(|p| p.name)
                {
                    Some(name) if st.prompts.contains(name.as_ref()) => host_request(),
                    Some(name) => McpAction::Reply(jsonrpc_error(
                        Some(id),
                        -32602,
                        &format!("MCP error -32602: Prompt {name} not found"),
                    )),
                    None => McpAction::Reply(jsonrpc_error(
                        Some(id),
                        -32602,
                        "Invalid params for prompts/get: `name` must be a string",
                    )),
                }
            }
            "tools/call" => {
                let params = match msg.params.map(|p| serde_json::from_str::<CallParams>(p.get())) {
                    Some(Ok(p)) => p,
                    Some(Err(e)) => {
                        return McpAction::Reply(jsonrpc_error(
                            Some(id),
                            -32602,
                            &format!("Invalid params for tools/call: {e}"),
                        ))
                    }
                    None => {
                        return McpAction::Reply(jsonrpc_error(
                            Some(id),
                            -32602,
                            "Invalid params for tools/call: missing params",
                        ))
                    }
                };
                if !st.tools.contains(params.name.as_ref()) {
                    // The official server answers an unknown tool with an isError result, not a JSON-RPC error.
                    let text = format!("MCP error -32602: Tool {} not found", params.name);
                    return McpAction::Reply(jsonrpc_result(id, &crate::protocol::outgoing::error_result(&text)));
                }
                // `arguments` stays absent when the CLI sent none (validation reports that as the
                // official does); `id` is the JSON-RPC id, handed to the handler as `extra.requestId`.
                let arguments = params
                    .arguments
                    .map(|a| format!(",\"arguments\":{}", a.get()))
                    .unwrap_or_default();
                // Arguments that certainly pass the tool's JSON Schema are marked so JS skips its check.
                let validated = match (st.checks.get(params.name.as_ref()), params.arguments) {
                    (Some(check), Some(args)) => {
                        serde_json::from_str::<Value>(args.get()).is_ok_and(|v| check.accepts(&v))
                    }
                    _ => false,
                };
                let arguments = if validated {
                    format!("{arguments},\"validated\":true")
                } else {
                    arguments
                };
                let payload = format!(
                    "{{\"server\":{},\"tool\":{},\"id\":{}{arguments},\"meta\":{}}}",
                    quoted(served_as),
                    quoted(params.name.as_ref()),
                    id.get(),
                    params.meta.map(RawValue::get).unwrap_or("null"),
                );
                McpAction::CallTool(ToolCall {
                    id: id.to_owned(),
                    tool: params.name.into_owned(),
                    payload,
                })
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
        let unknown_version = reply(s.handle(
            "demo",
            r#"{"method":"initialize","params":{"protocolVersion":"1999-01-01"},"jsonrpc":"2.0","id":0}"#,
        ));
        assert_eq!(unknown_version["result"]["protocolVersion"], LATEST_PROTOCOL_VERSION);
        assert_eq!(
            reply(s.handle("demo", r#"{"method":"notifications/initialized","jsonrpc":"2.0"}"#)),
            json!({"jsonrpc":"2.0","result":{},"id":0})
        );
        match s.handle(
            "demo",
            r#"{"method":"notifications/cancelled","params":{"requestId":7,"reason":"x"},"jsonrpc":"2.0"}"#,
        ) {
            McpAction::Cancel(id) => assert_eq!(id, "7"),
            other => panic!("{other:?}"),
        }
        let list = reply(s.handle("demo", r#"{"method":"tools/list","jsonrpc":"2.0","id":1}"#));
        assert_eq!(list["result"]["tools"][0]["name"], "greet");
        assert_eq!(
            reply(s.handle("demo", r#"{"method":"ping","jsonrpc":"2.0","id":"p"}"#))["result"],
            json!({})
        );
        assert_eq!(s.manifest().unwrap()["toolsListResult"], list["result"]);
    }

    #[test]
    fn unknown_method_is_32601_and_unknown_tool_names_it() {
        let s = server();
        let e = reply(s.handle("demo", r#"{"method":"resources/list","jsonrpc":"2.0","id":3}"#));
        assert_eq!(e["error"]["code"], -32601);
        assert_eq!(e["id"], 3);
        let e = reply(s.handle(
            "demo",
            r#"{"method":"tools/call","params":{"name":"nope","arguments":{}},"jsonrpc":"2.0","id":4}"#,
        ));
        assert_eq!(
            e["result"],
            json!({"content":[{"type":"text","text":"MCP error -32602: Tool nope not found"}],"isError":true})
        );
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
        let payload = |args: &str| match s.handle(
            "demo",
            &format!(r#"{{"method":"tools/call","params":{{"name":"t","arguments":{args}}},"jsonrpc":"2.0","id":1}}"#),
        ) {
            McpAction::CallTool(call) => serde_json::from_str::<Value>(&call.payload).unwrap(),
            other => panic!("{other:?}"),
        };
        assert_eq!(payload(r#"{"n":1}"#)["validated"], true);
        assert!(
            payload(r#"{"n":"x"}"#).get("validated").is_none(),
            "left to JS, which words the error"
        );
    }

    #[test]
    fn bad_specs_are_named() {
        assert!(McpServerDef::from_spec_json(r#"{"name":""}"#)
            .unwrap_err()
            .contains("name"));
        let dup = McpServerDef::from_spec_json(r#"{"name":"x","tools":[{"name":"a"},{"name":"a"}]}"#).unwrap_err();
        assert!(dup.contains("twice"), "{dup}");
        let err = |spec: &str| McpServerDef::from_spec_json(spec).unwrap_err();
        assert_eq!(
            err(r#"{"name":"x","prompts":[{"name":"p"},{"name":"p"}]}"#),
            r#"server "x" defines the prompt "p" twice"#
        );
        assert_eq!(
            err(r#"{"name":"x","tools":[{"name":"a"},{}]}"#),
            r#"tool #1 of server "x" has no name"#
        );
        assert_eq!(
            err(r#"{"name":"x","prompts":[{}]}"#),
            r#"prompt #0 of server "x" has no name"#
        );
    }

    fn call_payload(action: McpAction) -> Value {
        match action {
            McpAction::CallTool(call) => serde_json::from_str(&call.payload).unwrap(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn resources_and_prompts_follow_the_spec() {
        let s = McpServerDef::from_spec_json(
      r#"{"name":"docs","resources":[{"uri":"file:///a","name":"a"}],"resourceTemplates":[{"name":"u","uriTemplate":"users://{id}"}],"prompts":[{"name":"review","arguments":[{"name":"code","required":true}]}]}"#,
    )
    .unwrap();
        let init = reply(s.handle("docs", r#"{"method":"initialize","params":{},"jsonrpc":"2.0","id":0}"#));
        assert_eq!(
            init["result"]["capabilities"],
            json!({"tools":{"listChanged":true},"resources":{"listChanged":true},"prompts":{"listChanged":true}})
        );
        assert_eq!(
            reply(s.handle("docs", r#"{"method":"resources/list","jsonrpc":"2.0","id":1}"#))["result"],
            json!({"resources":[{"uri":"file:///a","name":"a"}]})
        );
        assert_eq!(
            reply(s.handle(
                "docs",
                r#"{"method":"resources/templates/list","jsonrpc":"2.0","id":2}"#
            ))["result"]["resourceTemplates"][0]["uriTemplate"],
            "users://{id}"
        );
        assert_eq!(
            reply(s.handle("docs", r#"{"method":"prompts/list","jsonrpc":"2.0","id":3}"#))["result"]["prompts"][0]
                ["name"],
            "review"
        );
        // Reads and gets run in the host, which owns the callbacks.
        let read = call_payload(s.handle(
            "docs",
            r#"{"method":"resources/read","params":{"uri":"file:///a"},"jsonrpc":"2.0","id":4}"#,
        ));
        assert_eq!(
            read,
            json!({"server":"docs","method":"resources/read","id":4,"params":{"uri":"file:///a"}})
        );
        let get = call_payload(s.handle(
            "served",
            r#"{"method":"prompts/get","params":{"name":"review","arguments":{"code":"x"}},"jsonrpc":"2.0","id":5}"#,
        ));
        assert_eq!(get["server"], "served");
        assert_eq!(get["params"]["arguments"], json!({"code":"x"}));
        // Bad params and unknown prompts are answered here.
        assert_eq!(
            reply(s.handle(
                "docs",
                r#"{"method":"resources/read","params":{},"jsonrpc":"2.0","id":6}"#
            ))["error"]["code"],
            -32602
        );
        let e = reply(s.handle(
            "docs",
            r#"{"method":"prompts/get","params":{"name":"nope"},"jsonrpc":"2.0","id":7}"#,
        ));
        assert_eq!(e["error"]["code"], -32602);
        assert!(e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("Prompt nope not found"));
    }

    #[test]
    fn a_template_with_a_list_callback_lists_in_the_host() {
        let s = McpServerDef::from_spec_json(
            r#"{"name":"d","resourceTemplates":[{"name":"u","uriTemplate":"u://{x}"}],"resourcesListInHost":true}"#,
        )
        .unwrap();
        assert_eq!(
            call_payload(s.handle("d", r#"{"method":"resources/list","jsonrpc":"2.0","id":1}"#))["method"],
            "resources/list"
        );
    }

    #[test]
    fn updates_replace_lists_and_keep_the_name() {
        let s = server();
        s.update(r#"{"name":"demo","tools":[{"name":"later"}],"capabilities":{"prompts":true}}"#)
            .unwrap();
        let list = reply(s.handle("demo", r#"{"method":"tools/list","jsonrpc":"2.0","id":1}"#));
        assert_eq!(list["result"], json!({"tools":[{"name":"later"}]}));
        assert!(s.has_tool("later") && !s.has_tool("greet"));
        assert_eq!(
            s.manifest().unwrap()["initializeResult"]["capabilities"]["prompts"],
            json!({"listChanged":true})
        );
        assert_eq!(
            reply(s.handle("demo", r#"{"method":"prompts/list","jsonrpc":"2.0","id":2}"#))["result"],
            json!({"prompts":[]})
        );
        assert!(s.update(r#"{"name":"other"}"#).unwrap_err().contains("renamed"));
    }

    #[test]
    fn servers_made_from_one_spec_share_its_state_until_one_is_updated() {
        let spec = r#"{"name":"shared","tools":[{"name":"a","inputSchema":{"type":"object"}}],"argsChecks":{"a":{"type":"object"}}}"#;
        let a = McpServerDef::from_spec_json(spec).unwrap();
        let b = McpServerDef::from_spec_json(spec).unwrap();
        assert!(Arc::ptr_eq(&a.state(), &b.state()));
        b.update(r#"{"name":"shared","tools":[{"name":"b"}]}"#).unwrap();
        assert!(
            a.has_tool("a") && !a.has_tool("b"),
            "an update changes its own server only"
        );
        assert!(b.has_tool("b") && !b.has_tool("a"));
        // Once its servers are gone, so is the state; the spec builds afresh.
        let state = Arc::downgrade(&a.state());
        drop(a);
        assert!(state.upgrade().is_none());
        let c = McpServerDef::from_spec_json(spec).unwrap();
        assert!(c.has_tool("a") && c.state().checks.contains_key("a"));
        // A lone surrogate is remembered by every server of the spec; a bad spec fails each time.
        let lone = r#"{"name":"lone","instructions":"x\ud800","tools":[]}"#;
        let (d, e) = (
            McpServerDef::from_spec_json(lone).unwrap(),
            McpServerDef::from_spec_json(lone).unwrap(),
        );
        assert!(d.lone_surrogates() && e.lone_surrogates());
        for _ in 0..2 {
            assert!(McpServerDef::from_spec_json(r#"{"name":""}"#).is_err());
        }
    }

    #[test]
    fn responses_reach_the_host_and_forwarding_servers_get_everything() {
        let s = server();
        match s.handle(
            "demo",
            r#"{"jsonrpc":"2.0","id":"sdk-native-1","result":{"action":"accept"}}"#,
        ) {
            McpAction::Notify(p) => assert_eq!(
                serde_json::from_str::<Value>(&p).unwrap()["message"]["result"]["action"],
                "accept"
            ),
            other => panic!("{other:?}"),
        }
        let f = McpServerDef::forwarding("ext").unwrap();
        assert!(f.manifest().is_none() && f.is_forwarding());
        let p = call_payload(f.handle("ext", r#"{"method":"initialize","params":{},"jsonrpc":"2.0","id":0}"#));
        assert_eq!(p["forward"]["method"], "initialize");
        assert_eq!(p["id"], 0);
        assert!(matches!(
            f.handle("ext", r#"{"method":"notifications/initialized","jsonrpc":"2.0"}"#),
            McpAction::Notify(_)
        ));
        assert!(
            matches!(f.handle("ext", r#"{"method":"notifications/cancelled","params":{"requestId":3},"jsonrpc":"2.0"}"#), McpAction::Cancel(id) if id == "3")
        );
        assert!(f.update(r#"{"name":"ext"}"#).is_err());
    }
}
