//! Elicitation and user-dialog callbacks, against the mock CLI (`__test__/mock-cli`): the CLI's
//! `elicitation` and `request_user_dialog` requests reach the Rust closures with the request's
//! fields, and what they answer is the control response; without a closure an elicitation is
//! declined and a dialog refused, as in the TypeScript SDK.

mod support;

use claude_agent_sdk::{query, ElicitationResult, Message, Options, OptionsBuilder};
use futures::StreamExt;
use serde_json::{json, Value};

/// The scenario: two elicitations and two dialogs, their answers reported as the result text.
const SCENARIO: &str = r#"
export default async function (cli) {
  const init = await cli.initialize()
  await cli.nextUserMessage()
  cli.systemInit()
  const ask = { mcp_server_name: 'srv', message: 'Your name?', mode: 'form', requested_schema: { type: 'object', properties: { name: { type: 'string' } } }, elicitation_id: 'e1', title: 'T' }
  const e1 = await cli.request('elicitation', ask)
  const e2 = await cli.request('elicitation', { ...ask, mcp_server_name: 'other' })
  const d1 = await cli.request('request_user_dialog', { dialog_kind: 'pick', payload: { options: [1, 2] }, tool_use_id: 'toolu_1' })
  const d2 = await cli.request('request_user_dialog', { dialog_kind: 'refused', payload: {} })
  const strip = (r) => r.response ?? { error: r.error }
  cli.assistantText(JSON.stringify({ kinds: init.supportedDialogKinds ?? null, e1: strip(e1), e2: strip(e2), d1: strip(d1), d2: strip(d2) }))
  cli.result()
}
"#;

fn mock_cli() -> Option<(std::path::PathBuf, std::path::PathBuf)> {
    support::mock_cli_with("dialogs", SCENARIO)
}

async fn run(configure: impl FnOnce(OptionsBuilder) -> OptionsBuilder) -> Value {
    let (cli, scenario) = mock_cli().expect("node");
    let options = configure(
        Options::builder()
            .cli_path(cli)
            .env("MOCK_CLI_SCENARIO", scenario.to_str().unwrap()),
    )
    .build();
    let mut q = query("go", options).unwrap();
    let mut text = None;
    while let Some(m) = q.next().await {
        if let Message::Result(r) = m.unwrap() {
            text = r.result;
        }
    }
    serde_json::from_str(&text.expect("a result")).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn elicitations_and_dialogs_reach_the_closures_and_their_answers_the_cli() {
    if mock_cli().is_none() {
        return;
    }
    let out = run(|o| {
        o.on_elicitation(|r| async move {
            if r.server_name == "srv" {
                assert_eq!(
                    (
                        r.message.as_str(),
                        r.mode.as_deref(),
                        r.elicitation_id.as_deref(),
                        r.title.as_deref()
                    ),
                    ("Your name?", Some("form"), Some("e1"), Some("T"))
                );
                assert_eq!(
                    r.requested_schema.as_ref().unwrap()["properties"]["name"]["type"],
                    "string"
                );
                assert_eq!(r.raw["mcp_server_name"], "srv");
                ElicitationResult::accept(json!({ "name": "Ada" }))
            } else {
                ElicitationResult::Decline
            }
        })
        .on_user_dialog(["pick", "refused"], |r| async move {
            match r.dialog_kind.as_str() {
                "pick" => {
                    assert_eq!(
                        (r.payload.clone(), r.tool_use_id.as_deref()),
                        (json!({ "options": [1, 2] }), Some("toolu_1"))
                    );
                    Some(json!({ "picked": 2 }))
                }
                _ => None,
            }
        })
    })
    .await;
    assert_eq!(
        out["kinds"],
        json!(["pick", "refused"]),
        "the dialog kinds are declared in initialize"
    );
    assert_eq!(out["e1"], json!({ "action": "accept", "content": { "name": "Ada" } }));
    assert_eq!(out["e2"], json!({ "action": "decline" }));
    assert_eq!(out["d1"], json!({ "picked": 2 }));
    assert!(
        out["d2"]["error"].as_str().is_some_and(|e| e.contains("no answer")),
        "a refused dialog is an error: {out}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn without_closures_elicitations_are_declined_and_dialogs_refused() {
    if mock_cli().is_none() {
        return;
    }
    let out = run(|o| o).await;
    assert_eq!(out["kinds"], Value::Null);
    assert_eq!(out["e1"], json!({ "action": "decline" }));
    assert!(
        out["d1"]["error"].as_str().is_some_and(|e| e.contains("onUserDialog")),
        "{out}"
    );
}
