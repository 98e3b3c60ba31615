//! In-process tools built from Rust types: the input schema comes from the argument type
//! (`schemars`), the arguments are deserialized and checked before the handler runs.

use std::fmt;
use std::future::Future;
use std::sync::Arc;

use futures::future::BoxFuture;
use futures::FutureExt;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// A tool the model can call, run in this process. Build one with [`tool`]; serve it with an
/// [`McpServer`](crate::McpServer). Cheap to clone.
#[derive(Clone)]
pub struct Tool {
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) input_schema: Value,
    pub(crate) annotations: Option<ToolAnnotations>,
    pub(crate) handler: Handler,
}

/// Runs the tool on its JSON arguments.
pub(crate) type Handler = Arc<dyn Fn(Value) -> BoxFuture<'static, ToolResult> + Send + Sync>;

impl fmt::Debug for Tool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tool")
            .field("name", &self.name)
            .field("input_schema", &self.input_schema)
            .finish_non_exhaustive()
    }
}

/// Builds a tool from its name, a description for the model, and an async handler taking the
/// arguments as a Rust type. The type's JSON Schema (from `#[derive(JsonSchema)]`) is the tool's
/// `inputSchema`; the CLI's arguments are deserialized into it before the handler runs, and
/// arguments that do not fit are answered with an `isError` result naming the field, without
/// calling the handler.
///
/// The handler returns anything [`IntoToolResult`]: a `String`, a [`ToolResult`], or a
/// `Result` of either whose `Err` (any `Display`) becomes an `isError` result. Each call runs as
/// its own tokio task, so this process never makes one call wait for another; whether the CLI
/// asks for the calls of one model turn together or one after the other is the CLI's choice,
/// and it asks for them together only when the tool is marked read-only
/// ([`ToolAnnotations::read_only`]). A panic becomes an `isError` result carrying its message;
/// when the CLI cancels the call (or the query ends), the handler's future is dropped.
///
/// ```
/// use claude_agent_sdk::{tool, Tool};
/// use schemars::JsonSchema;
/// use serde::Deserialize;
///
/// #[derive(Deserialize, JsonSchema)]
/// struct Add {
///     /// The first number.
///     a: f64,
///     /// The second number.
///     b: f64,
/// }
///
/// let add: Tool = tool("add", "Adds two numbers", |args: Add| async move { format!("{}", args.a + args.b) });
/// assert_eq!(add.name(), "add");
/// assert_eq!(add.input_schema()["required"], serde_json::json!(["a", "b"]));
/// ```
pub fn tool<Args, F, Fut>(name: impl Into<String>, description: impl Into<String>, handler: F) -> Tool
where
    Args: DeserializeOwned + JsonSchema + Send + 'static,
    F: Fn(Args) -> Fut + Send + Sync + 'static,
    Fut: Future + Send + 'static,
    Fut::Output: IntoToolResult,
{
    let name = name.into();
    let tool_name = name.clone();
    let handler: Handler = Arc::new(
        move |arguments: Value| match parse_args::<Args>(&tool_name, arguments) {
            Ok(args) => handler(args).map(IntoToolResult::into_tool_result).boxed(),
            Err(message) => futures::future::ready(ToolResult::error(message)).boxed(),
        },
    );
    Tool {
        name,
        description: description.into(),
        input_schema: input_schema::<Args>(),
        annotations: None,
        handler,
    }
}

impl Tool {
    /// The tool's name (the model sees it as `mcp__<server>__<name>`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The description the model reads.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The JSON Schema of the arguments, as sent in `tools/list`.
    pub fn input_schema(&self) -> &Value {
        &self.input_schema
    }

    /// The tool's MCP annotations, sent with it (replacing any set before). Of these, Claude
    /// Code acts on [`read_only`](ToolAnnotations::read_only): see there.
    ///
    /// ```
    /// use claude_agent_sdk::{tool, ToolAnnotations};
    /// # #[derive(serde::Deserialize, schemars::JsonSchema)] struct Q { city: String }
    /// let weather = tool("weather", "Today's weather", |q: Q| async move { format!("Sunny in {}", q.city) })
    ///     .annotations(ToolAnnotations::new().title("Weather").read_only().open_world());
    /// assert_eq!(weather.tool_annotations().unwrap().read_only_hint, Some(true));
    /// ```
    pub fn annotations(mut self, annotations: ToolAnnotations) -> Self {
        self.annotations = Some(annotations);
        self
    }

    /// The annotations set with [`annotations`](Self::annotations).
    pub fn tool_annotations(&self) -> Option<&ToolAnnotations> {
        self.annotations.as_ref()
    }

    /// The name the model and [`can_use_tool`](crate::OptionsBuilder::can_use_tool) see for this
    /// tool when its server is registered under `server`: [`mcp_tool_name`]`(server, name)`.
    pub fn mcp_name(&self, server: &str) -> String {
        mcp_tool_name(server, &self.name)
    }

    /// Runs the tool on JSON arguments, exactly as a call from the CLI does (checks included).
    pub async fn call(&self, arguments: Value) -> ToolResult {
        (self.handler)(arguments).await
    }

    /// The `tools/list` entry.
    pub(crate) fn listing(&self) -> Value {
        let mut entry = json!({ "name": self.name, "description": self.description, "inputSchema": self.input_schema });
        if let Some(a) = &self.annotations {
            entry["annotations"] = serde_json::to_value(a).unwrap_or_default();
        }
        entry
    }
}

/// A tool's MCP annotations (`ToolAnnotations` in the MCP specification): hints about what the
/// tool does, sent with its listing. All are hints; unset ones are not sent.
///
/// Claude Code acts on one of them: **`readOnlyHint` is what lets the CLI run calls in
/// parallel.** When the model asks for several tools in one turn, the CLI runs the consecutive
/// calls whose tools are read-only concurrently, and every other call on its own, one after
/// the other. So mark a tool [`read_only`](Self::read_only) when it changes nothing and its
/// calls may overlap; leave it unmarked when calls must not interleave.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolAnnotations {
    /// A title for people (`title`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The tool changes nothing (`readOnlyHint`); lets the CLI run its calls in parallel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// A change it makes may destroy something (`destructiveHint`; meaningful when not read-only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// Calling it again with the same input changes nothing more (`idempotentHint`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// It reaches outside this process's world (the web, other services) (`openWorldHint`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
}

impl ToolAnnotations {
    /// No hints.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `title`.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets `readOnlyHint: true`: the tool changes nothing, and the CLI may run several of its
    /// calls (and other read-only tools') at the same time.
    pub fn read_only(mut self) -> Self {
        self.read_only_hint = Some(true);
        self
    }

    /// Sets `destructiveHint: true`.
    pub fn destructive(mut self) -> Self {
        self.destructive_hint = Some(true);
        self
    }

    /// Sets `idempotentHint: true`.
    pub fn idempotent(mut self) -> Self {
        self.idempotent_hint = Some(true);
        self
    }

    /// Sets `openWorldHint: true`.
    pub fn open_world(mut self) -> Self {
        self.open_world_hint = Some(true);
        self
    }
}

/// The name the model and [`can_use_tool`](crate::OptionsBuilder::can_use_tool) see for `tool`
/// of the MCP server registered under `server` (its key in
/// [`mcp_server`](crate::OptionsBuilder::mcp_server)): `mcp__<server>__<tool>`, with every
/// character of the server's name other than ASCII letters, digits, `_` and `-` made `_`, as
/// Claude Code names them.
pub fn mcp_tool_name(server: &str, tool: &str) -> String {
    let server: String = server
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("mcp__{server}__{tool}")
}

/// The server and tool of an `mcp__<server>__<tool>` name (the server's name as Claude Code
/// wrote it, see [`mcp_tool_name`]); `None` for a name of another form (a built-in tool).
pub fn split_mcp_tool_name(name: &str) -> Option<(&str, &str)> {
    let rest = name.strip_prefix("mcp__")?;
    let (server, tool) = rest.split_once("__")?;
    (!server.is_empty() && !tool.is_empty()).then_some((server, tool))
}

/// The argument type's schema in the form MCP clients expect of an `inputSchema`: JSON Schema
/// draft-07 (what the official SDK sends), every subschema inlined (no `$ref`s into `$defs`,
/// which some clients do not resolve), no root `title` (the Rust type's name means nothing to
/// the model). A recursive type keeps the `$ref`s it cannot do without.
pub fn input_schema<T: JsonSchema>() -> Value {
    let generator = schemars::generate::SchemaSettings::draft07()
        .with(|s| s.inline_subschemas = true)
        .into_generator();
    let mut schema = generator.into_root_schema_for::<T>().to_value();
    if let Some(obj) = schema.as_object_mut() {
        obj.remove("title");
        // MCP requires an object schema; a unit or newtype struct would not say so.
        obj.entry("type").or_insert_with(|| json!("object"));
    }
    schema
}

/// Deserializes the arguments; an error names the field (`a.b[2]`) and what was wrong.
/// A call's input as a typed tool's argument type, checked as the tool itself checks it before
/// its handler runs: for a [`can_use_tool`](crate::OptionsBuilder::can_use_tool) callback
/// deciding on a call to one of this process's tools by its typed input (and answering with
/// [`PermissionResult::allow_with`](crate::PermissionResult::allow_with)). `tool` names the
/// tool in the error; an input that does not fit says which field and why.
///
/// ```
/// use claude_agent_sdk::{mcp_tool_name, tool_input, PermissionResult};
/// use serde::{Deserialize, Serialize};
/// # #[derive(Deserialize, Serialize)] struct Transfer { to: String, amount: u64 }
///
/// async fn decide(name: String, input: serde_json::Value) -> PermissionResult {
///     if name != mcp_tool_name("bank", "transfer") {
///         return PermissionResult::allow();
///     }
///     match tool_input::<Transfer>(&name, &input) {
///         Ok(t) if t.amount > 100 => PermissionResult::allow_with(&Transfer { amount: 100, ..t }),
///         Ok(_) => PermissionResult::allow(),
///         Err(why) => PermissionResult::deny(why),
///     }
/// }
/// ```
pub fn tool_input<T: DeserializeOwned>(tool: &str, input: &Value) -> Result<T, String> {
    parse_args(tool, input.clone())
}

fn parse_args<T: DeserializeOwned>(tool: &str, arguments: Value) -> Result<T, String> {
    // No `arguments` from the CLI: an empty object, so a missing required field is named.
    let arguments = if arguments.is_null() {
        Value::Object(Map::new())
    } else {
        arguments
    };
    serde_path_to_error::deserialize(arguments).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if path == "." {
            format!("Invalid arguments for tool {tool}: {inner}")
        } else {
            format!("Invalid arguments for tool {tool}: `{path}`: {inner}")
        }
    })
}

/// What a tool answers: MCP content blocks, flagged as an error or not.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolResult {
    /// The content the model reads.
    pub content: Vec<Content>,
    /// Whether the tool failed (the model sees the content as an error).
    #[serde(rename = "isError", skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
    /// Structured output, for tools that declare an output schema.
    #[serde(rename = "structuredContent", skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Value>,
}

impl ToolResult {
    /// One text block.
    pub fn text(text: impl Into<String>) -> Self {
        Self {
            content: vec![Content::text(text)],
            is_error: false,
            structured_content: None,
        }
    }

    /// One text block, flagged as an error.
    pub fn error(message: impl Into<String>) -> Self {
        Self {
            is_error: true,
            ..Self::text(message)
        }
    }

    /// Content blocks.
    pub fn content(content: Vec<Content>) -> Self {
        Self {
            content,
            is_error: false,
            structured_content: None,
        }
    }

    /// A value as JSON text, also given as `structuredContent`.
    pub fn json<T: Serialize>(value: &T) -> Self {
        match serde_json::to_value(value) {
            Ok(v) => Self {
                content: vec![Content::text(v.to_string())],
                is_error: false,
                structured_content: Some(v),
            },
            Err(e) => Self::error(format!("The tool's result could not be serialized: {e}")),
        }
    }

    /// Its text blocks joined with line feeds (what a test of a tool run with [`Tool::call`]
    /// usually checks); the model's view of a result is [`ToolResultBlock::text`](crate::ToolResultBlock::text).
    pub fn to_text(&self) -> String {
        self.content
            .iter()
            .filter_map(Content::as_text)
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// An MCP content block (`text`, `image`, `audio`, `resource`, `resource_link`), as JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Content(pub Value);

impl Content {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        Content(json!({ "type": "text", "text": text.into() }))
    }

    /// An image block (base64 `data`).
    pub fn image(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Content(json!({ "type": "image", "data": data.into(), "mimeType": mime_type.into() }))
    }

    /// The text, when this is a text block.
    pub fn as_text(&self) -> Option<&str> {
        (self.0.get("type").and_then(Value::as_str) == Some("text"))
            .then(|| self.0.get("text").and_then(Value::as_str))
            .flatten()
    }
}

/// What a tool handler may return.
pub trait IntoToolResult {
    /// The result the model sees.
    fn into_tool_result(self) -> ToolResult;
}

impl IntoToolResult for ToolResult {
    fn into_tool_result(self) -> ToolResult {
        self
    }
}

impl IntoToolResult for String {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::text(self)
    }
}

impl IntoToolResult for &'static str {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::text(self)
    }
}

impl<T: IntoToolResult, E: fmt::Display> IntoToolResult for Result<T, E> {
    fn into_tool_result(self) -> ToolResult {
        match self {
            Ok(v) => v.into_tool_result(),
            Err(e) => ToolResult::error(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn mcp_names() {
        assert_eq!(mcp_tool_name("weather", "forecast"), "mcp__weather__forecast");
        assert_eq!(mcp_tool_name("my server.v2", "t"), "mcp__my_server_v2__t");
        assert_eq!(
            split_mcp_tool_name("mcp__weather__forecast"),
            Some(("weather", "forecast"))
        );
        assert_eq!(split_mcp_tool_name("mcp__a__b__c"), Some(("a", "b__c")));
        assert_eq!(split_mcp_tool_name("Bash"), None);
        assert_eq!(split_mcp_tool_name("mcp____x"), None);
    }

    #[test]
    fn annotations_are_sent_as_mcp_names_them_and_unset_hints_left_out() {
        let t = tool("t", "d", |_: Inner| async { "" }).annotations(ToolAnnotations::new().read_only().idempotent());
        assert_eq!(
            t.listing()["annotations"],
            json!({ "readOnlyHint": true, "idempotentHint": true })
        );
        let all = ToolAnnotations::new()
            .title("T")
            .read_only()
            .destructive()
            .idempotent()
            .open_world();
        assert_eq!(
            serde_json::to_value(&all).unwrap(),
            json!({ "title": "T", "readOnlyHint": true, "destructiveHint": true, "idempotentHint": true, "openWorldHint": true })
        );
        assert!(tool("u", "d", |_: Inner| async { "" })
            .listing()
            .get("annotations")
            .is_none());
        assert_eq!(t.mcp_name("my server"), "mcp__my_server__t");
    }

    #[test]
    fn a_results_text() {
        let r = ToolResult::content(vec![
            Content::text("a"),
            Content::image("AAAA", "image/png"),
            Content::text("b"),
        ]);
        assert_eq!(r.to_text(), "a\nb");
        assert_eq!(ToolResult::error("bad").to_text(), "bad");
    }

    #[test]
    fn typed_input_for_a_permission_callback_names_the_field() {
        let ok: Inner = tool_input("mcp__s__t", &json!({ "depth": 3 })).unwrap();
        assert_eq!(ok.depth, 3);
        let e = tool_input::<Inner>("mcp__s__t", &json!({ "depth": "deep" }))
            .err()
            .unwrap();
        assert!(e.contains("mcp__s__t") && e.contains("`depth`"), "{e}");
    }
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Inner {
        /// How deep.
        depth: u32,
    }

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    enum Mode {
        Fast,
        Slow,
    }

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Args {
        /// Who to greet.
        name: String,
        inner: Inner,
        modes: Vec<Mode>,
        times: Option<u8>,
    }

    #[test]
    fn schema_is_draft07_with_refs_inlined() {
        let s = input_schema::<Args>();
        assert_eq!(s["$schema"], "http://json-schema.org/draft-07/schema#");
        assert_eq!(s["type"], "object");
        assert!(s.get("title").is_none());
        let text = s.to_string();
        assert!(
            !text.contains("$ref") && !text.contains("definitions") && !text.contains("$defs"),
            "{text}"
        );
        assert_eq!(s["properties"]["name"]["description"], "Who to greet.");
        assert_eq!(
            s["properties"]["inner"]["properties"]["depth"]["description"],
            "How deep."
        );
        assert_eq!(s["required"], json!(["name", "inner", "modes"]));
    }

    #[tokio::test]
    async fn bad_arguments_name_the_field_and_skip_the_handler() {
        let t = tool("greet", "d", |a: Args| async move { format!("hi {}", a.name) });
        let ok = t.call(json!({"name":"Al","inner":{"depth":1},"modes":["Fast"]})).await;
        assert_eq!(ok, ToolResult::text("hi Al"));
        let bad = t.call(json!({"name":"Al","inner":{"depth":-1},"modes":[]})).await;
        assert!(bad.is_error);
        let text = bad.content[0].as_text().unwrap();
        assert!(
            text.contains("`inner.depth`") && text.contains("invalid value: integer `-1`"),
            "{text}"
        );
        let missing = t.call(Value::Null).await;
        let text = missing.content[0].as_text().unwrap();
        assert!(text.contains("missing field `name`"), "{text}");
        let e = tool("fail", "d", |_: Inner| async { Err::<String, _>("disk full") })
            .call(json!({"depth":0}))
            .await;
        assert_eq!(e, ToolResult::error("disk full"));
    }

    #[test]
    fn results_serialize_as_mcp() {
        assert_eq!(
            serde_json::to_value(ToolResult::error("x")).unwrap(),
            json!({"content":[{"type":"text","text":"x"}],"isError":true})
        );
        assert_eq!(
            serde_json::to_value(ToolResult::json(&json!({"a":1}))).unwrap()["structuredContent"],
            json!({"a":1})
        );
    }
}
