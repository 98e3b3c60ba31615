//! `startup()`: the CLI started and initialized before the prompt is known, then given it, side
//! by side with the official TypeScript SDK's `startup()` against the mock CLI: the prompt
//! reaches the CLI as the same user message, after `initialize` was answered; a CLI that dies
//! before answering fails `startup` itself; a warm query dropped unused ends its CLI.

mod support;

use claude_agent_sdk::{startup, Message, Options};
use futures::StreamExt;
use serde_json::{json, Value};

/// Reports the user message it got, and how long after `initialize` was answered it came.
const SCENARIO: &str = r#"
export default async function (cli) {
  if (cli.env.MOCK_DIE) {
    cli.stderr('no can do')
    await cli.exit(3)
  }
  await cli.initialize()
  const answered = Date.now()
  const user = await cli.nextUserMessage()
  cli.systemInit()
  cli.assistantText(JSON.stringify({ user, waited: Date.now() - answered }))
  cli.result()
}
"#;

fn mock() -> Option<(std::path::PathBuf, std::path::PathBuf)> {
    support::mock_cli_with("startup", SCENARIO)
}

/// What the official SDK's `startup()` then `query(prompt)` made the mock CLI see.
fn official(cli: &std::path::Path, scenario: &std::path::Path) -> Value {
    let sdk = support::official_sdk();
    let script = format!(
        r#"const {{ startup }} = await import({sdk:?})
const warm = await startup({{ options: {{ pathToClaudeCodeExecutable: {cli:?}, env: {{ ...process.env, MOCK_CLI_SCENARIO: {scenario:?} }} }} }})
await new Promise((r) => setTimeout(r, 300))
let text
for await (const m of warm.query('warm hello')) if (m.type === 'result') text = m.result
process.stdout.write(text)"#,
        sdk = sdk.to_str().unwrap(),
        cli = cli.to_str().unwrap(),
        scenario = scenario.to_str().unwrap()
    );
    serde_json::from_slice(&support::node_module("official startup", &script)).expect("the mock's report")
}

#[tokio::test(flavor = "multi_thread")]
async fn a_warm_query_sends_its_prompt_to_the_initialized_cli_as_the_official_does() {
    let Some((cli, scenario)) = mock() else { return };
    let options = || {
        Options::builder()
            .cli_path(&cli)
            .env("MOCK_CLI_SCENARIO", scenario.to_str().unwrap())
    };
    let warm = startup(options().build()).await.expect("started");
    assert!(warm.pid().is_some());
    assert!(
        warm.initialization_result().await.unwrap().get("commands").is_some(),
        "initialized before the prompt"
    );
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let mut q = warm.query("warm hello");
    let mut kinds = vec![];
    let mut report = None;
    while let Some(m) = q.next().await {
        match m.unwrap() {
            Message::Result(r) => {
                kinds.push("result");
                report = r.result;
            }
            Message::Assistant(_) => kinds.push("assistant"),
            _ => {}
        }
    }
    assert_eq!(kinds, ["assistant", "result"], "the query ends after its result");
    let mine: Value = serde_json::from_str(&report.expect("a result")).unwrap();
    assert!(
        mine["waited"].as_u64().unwrap() >= 250,
        "the prompt came later, to a CLI already initialized: {mine}"
    );
    let theirs = official(&cli, &scenario);
    assert_eq!(mine["user"], theirs["user"], "the same user message");
    assert_eq!(
        mine["user"]["message"],
        json!({ "role": "user", "content": [{ "type": "text", "text": "warm hello" }] })
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn startup_fails_when_the_cli_dies_before_initializing_and_a_dropped_warm_query_ends_its_cli() {
    let Some((cli, scenario)) = mock() else { return };
    let options = || {
        Options::builder()
            .cli_path(&cli)
            .env("MOCK_CLI_SCENARIO", scenario.to_str().unwrap())
    };
    let e = startup(options().env("MOCK_DIE", "1").build()).await.unwrap_err();
    assert_eq!(e.exit_code(), Some(3), "{e}");

    let warm = startup(options().build()).await.expect("started");
    let pid = warm.pid().unwrap();
    drop(warm);
    let gone = || {
        !std::path::Path::new(&format!("/proc/{pid}")).exists()
            || std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| s.contains(") Z "))
    };
    for _ in 0..250 {
        if gone() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    if cfg!(target_os = "linux") {
        assert!(gone(), "the CLI of a dropped warm query ended");
    }
}
