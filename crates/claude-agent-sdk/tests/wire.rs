//! Side by side with the official TypeScript SDK: the same options and control calls, made
//! through this crate's builder and `QueryControl`, and through the official SDK (the
//! repository's devDependency, run by `support/official-wire.mjs`) with the TypeScript options
//! that mean the same, reach the mock CLI (`__test__/mock-cli`) as the same command line,
//! `initialize` request, `CLAUDE_CODE_*` environment, user message and control requests; and
//! the answers come back as the same values.

mod support;

use std::process::Command;

use claude_agent_sdk::{
    query, Delivery, Error, McpServerConfig, Message, Options, OptionsBuilder, PermissionPrompts, Plugin,
    PreviewFormat, SettingsFile, Skills, Thinking, ThinkingDisplay,
};
use futures::StreamExt;
use serde_json::{json, Value};

/// The mock CLI's side: answers each control request this test makes, records them, and reports
/// what it saw as the result text once `MOCK_EXPECT_CONTROLS` requests have arrived.
const SCENARIO: &str = r#"
export default async function (cli) {
  const seen = []
  const answers = {
    interrupt: { still_queued: ['q1'], cancelled: ['q2'] },
    set_max_thinking_tokens: {},
    set_mcp_permission_mode_override: { warning: 'careful' },
    apply_flag_settings: {},
    update_settings: {},
    read_file: { contents: 'aGk=', absPath: '/abs/f.txt', encoding: 'base64', truncated: true },
    reload_plugins: { commands: [], agents: [], plugins: [{ name: 'p2', path: '/p2' }], mcpServers: [], error_count: 0 },
    reload_skills: { skills: [] },
    reload_output_styles: { output_styles: [] },
    seed_read_state: {},
    mcp_read_resource: { contents: [{ uri: 'res://x', text: 'hello' }] },
    background_tasks: { backgrounded: false },
    cancel_async_message: { cancelled: true },
  }
  for (const [subtype, body] of Object.entries(answers)) cli.onControlRequest(subtype, (request) => { seen.push(request); return body })
  await cli.initialize(cli.env.MOCK_SERVERS_APPLIED ? { mcp_servers_applied: true } : {})
  const user = await cli.nextUserMessage()
  cli.systemInit()
  const expected = Number(cli.env.MOCK_EXPECT_CONTROLS ?? 0)
  while (seen.length < expected) await cli.sleep(10)
  const env = Object.fromEntries(Object.entries(cli.env).filter(([k]) => k.startsWith('CLAUDE_CODE_') && k !== 'CLAUDE_CODE_ENTRYPOINT'))
  cli.assistantText(JSON.stringify({ argv: cli.argv, init: cli.initRequest, env, user, controls: seen }))
  cli.result()
}
"#;

fn mock_cli() -> Option<(std::path::PathBuf, std::path::PathBuf)> {
    support::mock_cli_with("wire", SCENARIO)
}

/// What the official SDK sends and answers: `(seen, answers)`.
fn official(options: &Value, controls: &Value) -> (Value, Vec<Value>) {
    let (cli, scenario) = mock_cli().expect("node");
    let script = support::repo_root().join("crates/claude-agent-sdk/tests/support/official-wire.mjs");
    let out = Command::new("node")
        .arg(script)
        .arg(&cli)
        .arg(&scenario)
        .arg(options.to_string())
        .arg(controls.to_string())
        .env(
            "MOCK_EXPECT_CONTROLS",
            controls
                .as_array()
                .map_or(0, |c| {
                    c.iter()
                        .filter(|c| c[0] != "supportedAgents" && c[0] != "accountInfo")
                        .count()
                })
                .to_string(),
        )
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "the official SDK's run failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut v: Value = serde_json::from_slice(&out.stdout).expect("official-wire.mjs prints JSON");
    let answers = v["answers"].as_array().cloned().unwrap_or_default();
    (v["seen"].take(), answers)
}

/// Runs this crate's query with `configure`d options, making the control calls `calls` once the
/// CLI has answered `initialize`; what the mock CLI saw.
async fn ours<F, Fut>(
    configure: impl FnOnce(OptionsBuilder) -> OptionsBuilder,
    expect_controls: usize,
    calls: F,
) -> (Value, Vec<Value>)
where
    F: FnOnce(claude_agent_sdk::QueryControl) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = Vec<Value>> + Send,
{
    let (cli, scenario) = mock_cli().expect("node");
    let options = configure(
        Options::builder()
            .cli_path(cli)
            .env("MOCK_CLI_SCENARIO", scenario.to_str().unwrap())
            .env("MOCK_EXPECT_CONTROLS", expect_controls.to_string()),
    )
    .build();
    let mut q = query("go", options).unwrap();
    let control = q.control();
    let answers = tokio::spawn(async move {
        control.initialization_result().await.unwrap();
        calls(control).await
    });
    let mut text = None;
    while let Some(m) = q.next().await {
        if let Message::Result(r) = m.unwrap() {
            text = r.result;
        }
    }
    (
        serde_json::from_str(&text.expect("a result")).unwrap(),
        answers.await.unwrap(),
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn options_reach_the_cli_as_the_official_sends_them() {
    if mock_cli().is_none() {
        return;
    }
    let ts_options = json!({
      "betas": ["context-1m-2025-08-07"],
      "taskBudget": { "total": 5000 },
      "toolAliases": { "Bash": "mcp__w__bash" },
      "toolConfig": { "askUserQuestion": { "previewFormat": "html" } },
      "projectConfigRoot": "/srv/root",
      "permissionPrompts": "none",
      "planModeInstructions": "plan it",
      "promptSuggestions": true,
      "agentProgressSummaries": true,
      "forwardSubagentText": true,
      "perTaskStopAffordance": true,
      "verbatimPrompts": true,
      "workspaceTrust": { "accepted": true, "directory": "/srv/w" },
      "mcpServersDelivery": "initialize",
      "pluginDelivery": "argv",
      "plugins": [{ "type": "local", "path": "/p1", "skipMcpDiscovery": true }, { "type": "local", "path": "/p3" }],
      "resumeSessionAt": "u0",
      "resumeDropsTurn": "u1",
      "managedSettings": { "permissions": { "deny": ["Bash"] } },
      "skills": ["a", "b"],
      "thinking": { "type": "adaptive", "display": "omitted" },
    });
    let (theirs, _) = official(&ts_options, &json!([]));
    let (mine, _) = ours(
        |b| {
            b.betas(["context-1m-2025-08-07"])
                .task_budget(5000)
                .tool_alias("Bash", "mcp__w__bash")
                .ask_user_question_preview_format(PreviewFormat::Html)
                .project_config_root("/srv/root")
                .permission_prompts(PermissionPrompts::None)
                .plan_mode_instructions("plan it")
                .prompt_suggestions(true)
                .agent_progress_summaries(true)
                .forward_subagent_text(true)
                .per_task_stop_affordance(true)
                .verbatim_prompts(true)
                .workspace_trust("/srv/w")
                .mcp_servers_delivery(Delivery::Initialize)
                .plugin_delivery(Delivery::Argv)
                .plugin(Plugin::local("/p1").skip_mcp_discovery(true))
                .plugin_dir("/p3")
                .resume_session_at("u0")
                .resume_drops_turn("u1")
                .managed_settings(json!({ "permissions": { "deny": ["Bash"] } }))
                .skills(Skills::Only(vec!["a".into(), "b".into()]))
                .thinking(Thinking::Adaptive)
                .thinking_display(ThinkingDisplay::Omitted)
        },
        0,
        |_| async { vec![] },
    )
    .await;
    assert_eq!(mine, theirs);
}

#[tokio::test(flavor = "multi_thread")]
async fn plugins_in_initialize_and_skills_all_as_the_official() {
    if mock_cli().is_none() {
        return;
    }
    let ts_options = json!({
      "pluginDelivery": "initialize",
      "plugins": [{ "type": "local", "path": "/p1" }],
      "skills": "all",
      "thinking": { "type": "enabled", "budgetTokens": 2048, "display": "summarized" },
    });
    let (theirs, _) = official(&ts_options, &json!([]));
    let (mine, _) = ours(
        |b| {
            b.plugin_delivery(Delivery::Initialize)
                .plugin_dir("/p1")
                .skills(Skills::All)
                .thinking(Thinking::Budget(2048))
                .thinking_display(ThinkingDisplay::Summarized)
        },
        0,
        |_| async { vec![] },
    )
    .await;
    assert_eq!(mine, theirs);
}

#[tokio::test(flavor = "multi_thread")]
async fn control_methods_send_and_answer_as_the_official() {
    if mock_cli().is_none() {
        return;
    }
    let calls = json!([
      ["interrupt", { "cancelQueued": true }],
      ["setMaxThinkingTokens", 1000, "omitted"],
      ["setMaxThinkingTokens", null],
      ["setMcpPermissionModeOverride", "srv", "auto"],
      ["setMcpPermissionModeOverride", "srv", null],
      ["applyFlagSettings", { "model": "m" }],
      ["updateSettings", "localSettings", { "a": 1 }],
      ["updateSettings", "userSettings", { "b": 2 }],
      ["readFile", "f.txt", { "maxBytes": 10, "encoding": "base64" }],
      ["readFile", "g.txt"],
      ["reloadPlugins", { "addPlugins": [{ "type": "local", "path": "/p2" }] }],
      ["reloadSkills"],
      ["reloadOutputStyles"],
      ["seedReadState", "/f", 1234],
      ["readMcpResource", "srv", "res://x"],
      ["backgroundTasks", "toolu_1"],
      ["backgroundTasks"],
      ["cancelAsyncMessage", "uuid-1"],
      ["supportedAgents"],
      ["accountInfo"],
    ]);
    let (theirs, their_answers) = official(&json!({}), &calls);
    let (mine, my_answers) = ours(
    |b| b,
    18,
    |c| async move {
      let r = c.interrupt_queued(true).await.unwrap().unwrap();
      let mut out = vec![json!({ "still_queued": r.still_queued, "cancelled": r.cancelled })];
      c.set_thinking(Some(1000), Some(ThinkingDisplay::Omitted)).await.unwrap();
      out.push(Value::Null);
      c.set_thinking(None, None).await.unwrap();
      out.push(Value::Null);
      out.push(json!({ "warning": c.set_mcp_permission_mode_override("srv", Some("auto")).await.unwrap() }));
      out.push(json!({ "warning": c.set_mcp_permission_mode_override("srv", None).await.unwrap() }));
      c.apply_flag_settings(json!({ "model": "m" })).await.unwrap();
      out.push(Value::Null);
      c.update_settings(SettingsFile::Local, json!({ "a": 1 })).await.unwrap();
      out.push(Value::Null);
      c.update_settings(SettingsFile::User, json!({ "b": 2 })).await.unwrap();
      out.push(Value::Null);
      let f = c.read_file("f.txt", Some(10), true).await.unwrap().unwrap();
      out.push(json!({ "contents": f.contents, "absPath": f.abs_path, "encoding": f.encoding, "truncated": f.truncated }));
      let g = c.read_file("g.txt", None, false).await.unwrap().unwrap();
      out.push(json!({ "contents": g.contents, "absPath": g.abs_path, "encoding": g.encoding, "truncated": g.truncated }));
      out.push(c.reload_plugins(&[Plugin::local("/p2")]).await.unwrap());
      out.push(c.reload_skills().await.unwrap());
      out.push(c.reload_output_styles().await.unwrap());
      c.seed_read_state("/f", 1234.0).await.unwrap();
      out.push(Value::Null);
      out.push(c.read_mcp_resource("srv", "res://x").await.unwrap());
      out.push(json!(c.background_tasks(Some("toolu_1")).await.unwrap()));
      out.push(json!(c.background_tasks(None).await.unwrap()));
      out.push(json!(c.cancel_async_message("uuid-1").await.unwrap()));
      let agents = c.supported_agents().await.unwrap();
      out.push(json!(agents.iter().map(|a| json!({ "name": a.name, "description": a.description, "model": a.model })).collect::<Vec<_>>()));
      let a = c.account_info().await.unwrap();
      out.push(json!({ "tokenSource": a.token_source, "apiKeySource": a.api_key_source, "apiProvider": a.api_provider, "email": a.email }));
      out
    },
  )
  .await;
    assert_eq!(mine["controls"], theirs["controls"], "the control requests");
    assert_eq!(mine, theirs);
    // The answers, with absent fields as null on both sides (the typed structs have no "absent").
    let normalize = |v: &Value| -> Value {
        match v {
            Value::Object(m) => Value::Object(
                m.iter()
                    .filter(|(_, v)| !v.is_null())
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
            ),
            Value::Array(a) => Value::Array(
                a.iter()
                    .map(|x| match x {
                        Value::Object(m) => Value::Object(
                            m.iter()
                                .filter(|(_, v)| !v.is_null())
                                .map(|(k, v)| (k.clone(), v.clone()))
                                .collect(),
                        ),
                        x => x.clone(),
                    })
                    .collect(),
            ),
            v => v.clone(),
        }
    };
    assert_eq!(my_answers.len(), their_answers.len());
    for (i, (m, t)) in my_answers.iter().zip(&their_answers).enumerate() {
        let t = if calls[i][0] == "setMcpPermissionModeOverride" && t.get("warning").is_none() {
            json!({})
        } else {
            t.clone()
        };
        assert_eq!(normalize(m), normalize(&t), "the answer to {}", calls[i][0]);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn servers_in_initialize_hold_the_prompt_until_the_cli_confirms_them() {
    let Some((cli, scenario)) = mock_cli() else { return };
    let server = McpServerConfig::Stdio {
        command: "/bin/true".into(),
        args: vec![],
        env: Default::default(),
    };
    let options = |applied: bool| {
        let b = Options::builder()
            .cli_path(&cli)
            .env("MOCK_CLI_SCENARIO", scenario.to_str().unwrap())
            .mcp_servers_delivery(Delivery::Initialize)
            .external_mcp_server("files", server.clone());
        if applied { b.env("MOCK_SERVERS_APPLIED", "1") } else { b }.build()
    };
    // A CLI that does not confirm them (too old to read them): no prompt, and CliTooOld.
    let messages: Vec<_> = query("go", options(false)).unwrap().collect().await;
    let last = messages.last().expect("an item");
    assert!(
        matches!(last, Err(Error::CliTooOld(m)) if m.contains("too old to read MCP servers")),
        "{messages:?}"
    );
    assert!(!messages.iter().any(|m| matches!(m, Ok(Message::Result(_)))));
    // One that does: the prompt goes, and the servers were in `initialize`, not on the command line.
    let mut text = None;
    let mut q = query("go", options(true)).unwrap();
    while let Some(m) = q.next().await {
        if let Message::Result(r) = m.unwrap() {
            text = r.result;
        }
    }
    let seen: Value = serde_json::from_str(&text.expect("a result")).unwrap();
    assert_eq!(
        seen["init"]["mcpServers"],
        json!({ "files": { "type": "stdio", "command": "/bin/true" } })
    );
    assert!(seen["argv"].as_array().unwrap().contains(&json!("--await-initialize")));
    assert!(!seen["argv"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a.as_str().is_some_and(|a| a.contains("mcp-config"))));
}
