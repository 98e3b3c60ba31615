use serde_json::{json, Map, Value};
use std::sync::Arc;

use crate::error::Error;
use crate::mcp::McpServerDef;
use crate::options::{QueryOptions, Skills};

/// The `initialize` control request, field for field as the official SDK 0.3.x builds it:
/// in-process server names and their manifests (so new CLIs skip the MCP handshake), hooks,
/// the system prompt, agents.
pub fn initialize_request(o: &QueryOptions, servers: &[(String, Arc<McpServerDef>)]) -> Result<Value, Error> {
    let mut r = Map::new();
    r.insert("subtype".into(), json!("initialize"));
    if let Some(hooks) = &o.hooks {
        r.insert("hooks".into(), hooks.clone());
    }
    if !servers.is_empty() {
        r.insert(
            "sdkMcpServers".into(),
            servers.iter().map(|(name, _)| json!(name)).collect(),
        );
        let manifests: Map<String, Value> = servers
            .iter()
            .filter_map(|(name, s)| Some((name.clone(), s.manifest()?)))
            .collect();
        r.insert("sdkMcpServerManifests".into(), Value::Object(manifests));
    }
    // Structured output: the schema goes both on the command line and here, as the official does.
    if let Some(schema) = o.output_format.as_ref().and_then(|f| f.get("schema")) {
        r.insert("jsonSchema".into(), schema.clone());
    }
    let (system_prompt, append) = system_prompt(o.system_prompt.as_ref())?;
    if let Some(sp) = system_prompt {
        r.insert("systemPrompt".into(), sp);
    }
    if let Some(a) = append {
        r.insert("appendSystemPrompt".into(), a);
    }
    let mut put = |key: &str, value: Option<Value>| {
        if let Some(v) = value {
            r.insert(key.into(), v);
        }
    };
    // In the official request's field order.
    put(
        "planModeInstructions",
        o.plan_mode_instructions.clone().map(Value::String),
    );
    put("toolAliases", o.tool_aliases.clone());
    put("agents", o.agents.clone());
    put("title", o.title.clone().map(Value::String));
    put(
        "skills",
        match &o.skills {
            Some(Skills::Only(names)) => Some(Value::Array(names.clone())),
            _ => None,
        },
    );
    put("promptSuggestions", o.prompt_suggestions.map(Value::Bool));
    put("agentProgressSummaries", o.agent_progress_summaries.map(Value::Bool));
    put("forwardSubagentText", o.forward_subagent_text.map(Value::Bool));
    put(
        "supportedDialogKinds",
        o.supported_dialog_kinds
            .clone()
            .map(|k| k.into_iter().map(Value::String).collect()),
    );
    put("perTaskStopAffordance", o.per_task_stop_affordance.map(Value::Bool));
    put("rapidFollowupPreempt", o.rapid_followup_preempt.clone());
    put(
        "forwardNestedSubagentToolCalls",
        o.forward_nested_subagent_tool_calls.clone(),
    );
    put("offersBypassSwitchBack", o.offers_bypass_switch_back.clone());
    put("keepsBypassHeld", o.keeps_bypass_held.clone());
    put("workspaceTrust", o.workspace_trust.clone());
    put(
        "plugins",
        o.plugins
            .clone()
            .filter(|_| o.plugins_via_initialize())
            .map(Value::Array),
    );
    put(
        "managedSettings",
        o.managed_settings
            .clone()
            .filter(|_| o.managed_settings_via_initialize()),
    );
    put("settings", crate::cli::launch::settings_for_initialize(o)?);
    put(
        "disallowedTools",
        o.disallowed_tools_via_initialize()
            .then(|| o.disallowed_tools.iter().cloned().map(Value::String).collect()),
    );
    put(
        "mcpServers",
        o.mcp_servers
            .clone()
            .filter(|_| o.mcp_servers_via_initialize())
            .map(Value::Object),
    );
    Ok(Value::Object(r))
}

/// `systemPrompt` forms: absent → the empty custom prompt (`[""]`, what the official SDK sends);
/// a string → `[s]`; an array → as is; `{type:'preset', append?}` → the CLI's own prompt plus
/// `appendSystemPrompt`; `{type:'custom', prompt}` → that prompt.
fn system_prompt(sp: Option<&Value>) -> Result<(Option<Value>, Option<Value>), Error> {
    match sp {
    None => Ok((Some(json!([""])), None)),
    Some(Value::String(s)) => Ok((Some(json!([s])), None)),
    Some(Value::Array(a)) => Ok((Some(Value::Array(a.clone())), None)),
    Some(Value::Object(m)) => match m.get("type").and_then(Value::as_str) {
      Some("preset") => Ok((None, m.get("append").filter(|v| !v.is_null()).cloned())),
      Some("custom") => Ok((m.get("prompt").map(|p| match p {
        Value::String(s) => json!([s]),
        other => other.clone(),
      }), None)),
      _ => Err(Error::InvalidOption(
        "Invalid option `systemPrompt`: expected a string, or { type: 'preset', preset: 'claude_code', append? }".into(),
      )),
    },
    Some(_) => Err(Error::InvalidOption("Invalid option `systemPrompt`: expected a string or an object".into())),
  }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn init(json: &str, servers: &[(String, Arc<McpServerDef>)]) -> Value {
        initialize_request(&QueryOptions::from_json(json).unwrap(), servers).unwrap()
    }

    #[test]
    fn matches_the_official_trace_for_one_sdk_server() {
        let s = Arc::new(
      McpServerDef::from_spec_json(r#"{"name":"demo","tools":[{"name":"greet","description":"Greet someone","inputSchema":{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"name":{"type":"string"}},"required":["name"]},"execution":{"taskSupport":"forbidden"}}]}"#).unwrap(),
    );
        // From shared/traces/cli-2.1.330-sdk-mcp-tool-call.ndjson.txt, request_id removed.
        let expected: Value = serde_json::from_str(r#"{"subtype":"initialize","sdkMcpServers":["demo"],"sdkMcpServerManifests":{"demo":{"initializeResult":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"demo","version":"1.0.0"}},"toolsListResult":{"tools":[{"name":"greet","description":"Greet someone","inputSchema":{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"name":{"type":"string"}},"required":["name"]},"execution":{"taskSupport":"forbidden"}}]}}},"systemPrompt":[""]}"#).unwrap();
        let got = init("{}", &[("demo".into(), s)]);
        assert_eq!(got, expected);
        assert_eq!(got.to_string(), expected.to_string(), "same key order");
    }

    #[test]
    fn launch_fields_in_initialize() {
        let got = init(
            r#"{"managedSettingsDelivery":"initialize","managedSettings":{"a":1},"settingsDelivery":"initialize","settings":"{\"model\":\"m\"}","sandbox":{"enabled":true},"disallowedToolsDelivery":"initialize","disallowedTools":["Bash"]}"#,
            &[],
        );
        assert_eq!(got["managedSettings"], json!({"a":1}));
        assert_eq!(
            got["settings"],
            json!({"model":"m","sandbox":{"enabled":true,"failIfUnavailable":true}})
        );
        assert_eq!(got["disallowedTools"], json!(["Bash"]));
        let argv = init(
            r#"{"settings":{"model":"m"},"disallowedTools":["Bash"],"managedSettings":{"a":1}}"#,
            &[],
        );
        assert!(
            argv.get("settings").is_none()
                && argv.get("disallowedTools").is_none()
                && argv.get("managedSettings").is_none()
        );
    }

    #[test]
    fn system_prompt_forms() {
        assert_eq!(
            init(r#"{"systemPrompt":"be brief"}"#, &[])["systemPrompt"],
            json!(["be brief"])
        );
        let preset = init(
            r#"{"systemPrompt":{"type":"preset","preset":"claude_code","append":"x"}}"#,
            &[],
        );
        assert!(preset.get("systemPrompt").is_none());
        assert_eq!(preset["appendSystemPrompt"], "x");
        assert!(initialize_request(
            &QueryOptions::from_json(r#"{"systemPrompt":{"type":"nope"}}"#).unwrap(),
            &[]
        )
        .is_err());
    }
}
