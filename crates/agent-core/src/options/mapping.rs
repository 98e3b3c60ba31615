//! Every option reaches the CLI: for each field of [`QueryOptions`] an example, and where it
//! goes. An option added to the struct without an entry here, or whose entry says it changes the
//! command line, the environment, the launch or the `initialize` request when it does not, fails.

use serde_json::{Map, Value};

use super::QueryOptions;
use crate::cli::discover::Executable;
use crate::cli::launch::{build_launch, child_env, cli_args};
use crate::session::initialize_request;

/// Where an option shows.
enum Goes {
    /// In the CLI's arguments ([`cli_args`]).
    Argv,
    /// In the CLI's environment ([`child_env`]).
    Env,
    /// In how the CLI is started: program, arguments before its own, working directory
    /// ([`build_launch`]).
    Launch,
    /// In the `initialize` request ([`initialize_request`]).
    Initialize,
    /// Read by the session, not sent to the CLI: names the reader.
    Session(#[allow(dead_code)] &'static str),
}

/// The field, the options that show it (the field with what it needs beside it), where it goes.
const MAPPING: &[(&str, &str, Goes)] = &[
    (
        "pathToClaudeCodeExecutable",
        r#"{"pathToClaudeCodeExecutable":"/bin/claude"}"#,
        Goes::Session("cli::discover::find_cli, by the binding and raw::QueryConfig::launch_spec"),
    ),
    ("executable", r#"{"executable":"deno"}"#, Goes::Launch),
    ("executableArgs", r#"{"executableArgs":["--x"]}"#, Goes::Launch),
    ("cwd", r#"{"cwd":"/"}"#, Goes::Launch),
    ("env", r#"{"env":{"A_VAR":"1"}}"#, Goes::Env),
    ("model", r#"{"model":"m"}"#, Goes::Argv),
    ("fallbackModel", r#"{"fallbackModel":"f"}"#, Goes::Argv),
    ("allowedTools", r#"{"allowedTools":["Read"]}"#, Goes::Argv),
    ("disallowedTools", r#"{"disallowedTools":["Bash"]}"#, Goes::Argv),
    ("permissionMode", r#"{"permissionMode":"plan"}"#, Goes::Argv),
    (
        "allowDangerouslySkipPermissions",
        r#"{"allowDangerouslySkipPermissions":true}"#,
        Goes::Argv,
    ),
    (
        "permissionPromptToolName",
        r#"{"permissionPromptToolName":"mcp__p__ask"}"#,
        Goes::Argv,
    ),
    ("maxTurns", r#"{"maxTurns":3}"#, Goes::Argv),
    ("maxBudgetUsd", r#"{"maxBudgetUsd":1.5}"#, Goes::Argv),
    ("maxThinkingTokens", r#"{"maxThinkingTokens":100}"#, Goes::Argv),
    ("thinking", r#"{"thinking":{"type":"adaptive"}}"#, Goes::Argv),
    ("effort", r#"{"effort":"high"}"#, Goes::Argv),
    ("systemPrompt", r#"{"systemPrompt":"be brief"}"#, Goes::Initialize),
    (
        "includePartialMessages",
        r#"{"includePartialMessages":true}"#,
        Goes::Argv,
    ),
    ("canUseTool", r#"{"canUseTool":true}"#, Goes::Argv),
    (
        "onElicitation",
        r#"{"onElicitation":true}"#,
        Goes::Session("session::router (elicitation requests go to the host)"),
    ),
    (
        "onUserDialog",
        r#"{"onUserDialog":true}"#,
        Goes::Session("session::router (request_user_dialog requests go to the host)"),
    ),
    ("continue", r#"{"continue":true}"#, Goes::Argv),
    ("resume", r#"{"resume":"s"}"#, Goes::Argv),
    ("resumeSessionAt", r#"{"resumeSessionAt":"u"}"#, Goes::Argv),
    ("forkSession", r#"{"forkSession":true}"#, Goes::Argv),
    ("sessionId", r#"{"sessionId":"s"}"#, Goes::Argv),
    ("persistSession", r#"{"persistSession":false}"#, Goes::Argv),
    (
        "additionalDirectories",
        r#"{"additionalDirectories":["/d"]}"#,
        Goes::Argv,
    ),
    ("betas", r#"{"betas":["b"]}"#, Goes::Argv),
    ("debug", r#"{"debug":true}"#, Goes::Argv),
    ("debugFile", r#"{"debugFile":"/tmp/d.txt"}"#, Goes::Argv),
    ("strictMcpConfig", r#"{"strictMcpConfig":true}"#, Goes::Argv),
    ("settingSources", r#"{"settingSources":["user"]}"#, Goes::Argv),
    ("tools", r#"{"tools":["Read"]}"#, Goes::Argv),
    ("mcpServers", r#"{"mcpServers":{"a":{"command":"x"}}}"#, Goes::Argv),
    ("settings", r#"{"settings":{"model":"m"}}"#, Goes::Argv),
    ("extraArgs", r#"{"extraArgs":{"x":null}}"#, Goes::Argv),
    ("plugins", r#"{"plugins":[{"type":"local","path":"/p"}]}"#, Goes::Argv),
    (
        "agents",
        r#"{"agents":{"a":{"description":"d","prompt":"p"}}}"#,
        Goes::Initialize,
    ),
    ("hooks", r#"{"hooks":{"Stop":[]}}"#, Goes::Initialize),
    (
        "outputFormat",
        r#"{"outputFormat":{"type":"json_schema","schema":{}}}"#,
        Goes::Argv,
    ),
    ("sandbox", r#"{"sandbox":{"enabled":true}}"#, Goes::Argv),
    (
        "enableFileCheckpointing",
        r#"{"enableFileCheckpointing":true}"#,
        Goes::Env,
    ),
    ("agent", r#"{"agent":"a"}"#, Goes::Argv),
    ("taskBudget", r#"{"taskBudget":{"total":10}}"#, Goes::Argv),
    ("includeHookEvents", r#"{"includeHookEvents":true}"#, Goes::Argv),
    ("projectConfigRoot", r#"{"projectConfigRoot":"/r"}"#, Goes::Argv),
    ("permissionPrompts", r#"{"permissionPrompts":"none"}"#, Goes::Argv),
    (
        "planModeInstructions",
        r#"{"planModeInstructions":"p"}"#,
        Goes::Initialize,
    ),
    ("toolAliases", r#"{"toolAliases":{"a":"b"}}"#, Goes::Initialize),
    ("title", r#"{"title":"t"}"#, Goes::Initialize),
    ("promptSuggestions", r#"{"promptSuggestions":true}"#, Goes::Initialize),
    (
        "agentProgressSummaries",
        r#"{"agentProgressSummaries":true}"#,
        Goes::Initialize,
    ),
    (
        "forwardSubagentText",
        r#"{"forwardSubagentText":true}"#,
        Goes::Initialize,
    ),
    (
        "toolConfig",
        r#"{"toolConfig":{"askUserQuestion":{"previewFormat":"html"}}}"#,
        Goes::Env,
    ),
    (
        "supportedDialogKinds",
        r#"{"supportedDialogKinds":["k"]}"#,
        Goes::Initialize,
    ),
    (
        "perTaskStopAffordance",
        r#"{"perTaskStopAffordance":true}"#,
        Goes::Initialize,
    ),
    (
        "rapidFollowupPreempt",
        r#"{"rapidFollowupPreempt":true}"#,
        Goes::Initialize,
    ),
    (
        "forwardNestedSubagentToolCalls",
        r#"{"forwardNestedSubagentToolCalls":true}"#,
        Goes::Initialize,
    ),
    (
        "offersBypassSwitchBack",
        r#"{"offersBypassSwitchBack":true}"#,
        Goes::Initialize,
    ),
    ("keepsBypassHeld", r#"{"keepsBypassHeld":true}"#, Goes::Initialize),
    (
        "allowedControlRequests",
        r#"{"allowedControlRequests":["can_use_tool"]}"#,
        Goes::Session("session::router (other control requests are refused)"),
    ),
    (
        "workspaceTrust",
        r#"{"workspaceTrust":{"accepted":true,"directory":"/w"}}"#,
        Goes::Initialize,
    ),
    (
        "mcpServersDelivery",
        r#"{"mcpServersDelivery":"initialize","mcpServers":{"a":{"command":"x"}}}"#,
        Goes::Initialize,
    ),
    (
        "pluginDelivery",
        r#"{"pluginDelivery":"initialize","plugins":[{"type":"local","path":"/p"}]}"#,
        Goes::Initialize,
    ),
    ("resumeDropsTurn", r#"{"resumeDropsTurn":"u"}"#, Goes::Argv),
    ("managedSettings", r#"{"managedSettings":{"a":1}}"#, Goes::Argv),
    (
        "managedSettingsDelivery",
        r#"{"managedSettingsDelivery":"initialize","managedSettings":{"a":1}}"#,
        Goes::Initialize,
    ),
    (
        "settingsDelivery",
        r#"{"settingsDelivery":"initialize","settings":{"model":"m"}}"#,
        Goes::Initialize,
    ),
    (
        "disallowedToolsDelivery",
        r#"{"disallowedToolsDelivery":"initialize","disallowedTools":["Bash"]}"#,
        Goes::Initialize,
    ),
    ("skills", r#"{"skills":"all"}"#, Goes::Argv),
    (
        "initializeTimeoutMs",
        r#"{"initializeTimeoutMs":5}"#,
        Goes::Session("session::run (how long initialize may take)"),
    ),
    ("sessionStore", r#"{"sessionStore":true}"#, Goes::Argv),
    (
        "tokenCallbacks",
        r#"{"tokenCallbacks":true}"#,
        Goes::Session("session::start (the CLI's token refreshes go to the host; stdin stays open after a result)"),
    ),
    (
        "resourceLimits",
        r#"{"resourceLimits":{"maxMemoryMb":100}}"#,
        Goes::Session("session::start (cli::limits bounds the CLI's process tree)"),
    ),
    (
        "sessionStoreFlush",
        r#"{"sessionStoreFlush":"eager"}"#,
        Goes::Session("session::mirror (when transcript frames go to the store)"),
    ),
];

/// What the CLI gets for these options, where `goes` says to look.
fn seen(options: &Map<String, Value>, goes: &Goes) -> Option<String> {
    let mut options = options.clone();
    // A fixed environment, so that only the options change it.
    options.entry("env").or_insert_with(|| Value::Object(Map::new()));
    let o = QueryOptions::from_json(&Value::Object(options).to_string()).unwrap();
    let exe = Executable {
        path: "/bin/cli.js".into(),
        is_script: true,
    };
    Some(match goes {
        Goes::Argv => format!("{:?}", cli_args(&o).unwrap()),
        Goes::Env => format!("{:?}", child_env(&o).unwrap()),
        Goes::Launch => {
            let l = build_launch(&o, &exe, "node").unwrap();
            format!("{} {:?} {:?}", l.program, l.args, l.cwd)
        }
        Goes::Initialize => initialize_request(&o, &[]).unwrap().to_string(),
        Goes::Session(_) => return None,
    })
}

#[test]
fn every_option_has_an_entry_and_reaches_the_cli_where_it_says() {
    let mut named: Vec<&str> = MAPPING.iter().map(|(name, _, _)| *name).collect();
    named.sort_unstable();
    let mut fields = QueryOptions::names().to_vec();
    fields.sort_unstable();
    assert_eq!(
        named, fields,
        "every field of QueryOptions needs an entry in options/mapping.rs (and nothing else)"
    );
    for (name, example, goes) in MAPPING {
        if let Goes::Session(_) = goes {
            continue;
        }
        let with: Map<String, Value> = serde_json::from_str(example).unwrap();
        assert!(with.contains_key(*name), "the example for `{name}` sets it");
        let mut without = with.clone();
        without.remove(*name);
        assert_ne!(
            seen(&with, goes),
            seen(&without, goes),
            "`{name}` does not show where its entry says"
        );
    }
}
