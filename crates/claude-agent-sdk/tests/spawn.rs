//! `spawn_claude_code_process`: the app starts the CLI itself, side by side with the official
//! TypeScript SDK's `spawnClaudeCodeProcess` against the mock CLI: the same command line is
//! handed to the app, the session runs over the app's pipes, a failing spawner fails the query,
//! and a query dropped early stops the app's process.

mod support;

use std::process::Stdio;
use std::sync::{Arc, Mutex};

use claude_agent_sdk::spawn::{SpawnOptions, SpawnedProcess};
use claude_agent_sdk::{query, Error, Message, Options};
use futures::StreamExt;
use serde_json::Value;

/// Echoes the prompt, then waits for its input to close (a query left early stops it).
const SCENARIO: &str = r#"
export default async function (cli) {
  await cli.initialize()
  const user = await cli.nextUserMessage()
  cli.systemInit()
  cli.assistantText('spawned: ' + JSON.stringify(user.message.content))
  cli.result()
  if (cli.env.MOCK_HOLD) await cli.sleep(60000)
}
"#;

/// The command line the official SDK hands its `spawnClaudeCodeProcess`: `[command, args]`.
fn official(cli: &std::path::Path, scenario: &std::path::Path) -> Value {
    let sdk = support::official_sdk();
    let script = format!(
        r#"const {{ query }} = await import({sdk:?})
const {{ spawn }} = await import('node:child_process')
let seen
const options = {{
  pathToClaudeCodeExecutable: {cli:?},
  env: {{ ...process.env, MOCK_CLI_SCENARIO: {scenario:?} }},
  spawnClaudeCodeProcess: (o) => {{
    seen = [o.command, o.args]
    return spawn(o.command, o.args, {{ cwd: o.cwd, env: o.env, stdio: ['pipe', 'pipe', 'ignore'] }})
  }},
}}
for await (const m of query({{ prompt: 'hi', options }})) {{}}
process.stdout.write(JSON.stringify(seen))"#,
        sdk = sdk.to_str().unwrap(),
        cli = cli.to_str().unwrap(),
        scenario = scenario.to_str().unwrap()
    );
    serde_json::from_slice(&support::node_module("official spawn", &script)).expect("what the official spawner saw")
}

/// What a recording spawner was asked, with the pid it started.
type Seen = Arc<Mutex<Vec<(SpawnOptions, u32)>>>;

/// A spawner that starts the command as asked and records what it was asked, and the pid.
fn recording() -> (
    Seen,
    impl Fn(SpawnOptions) -> std::io::Result<SpawnedProcess> + Send + Sync + 'static,
) {
    let seen: Seen = Arc::default();
    let record = seen.clone();
    let spawner = move |o: SpawnOptions| {
        let mut command = tokio::process::Command::new(&o.command);
        command
            .args(&o.args)
            .env_clear()
            .envs(o.env.iter().cloned())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(cwd) = &o.cwd {
            command.current_dir(cwd);
        }
        let child = command.spawn()?;
        record.lock().unwrap().push((o, child.id().unwrap()));
        SpawnedProcess::from_child(child)
    };
    (seen, spawner)
}

#[tokio::test(flavor = "multi_thread")]
async fn the_app_starts_the_cli_with_the_official_command_line() {
    let Some((cli, scenario)) = support::mock_cli_with("spawn", SCENARIO) else {
        return;
    };
    let (seen, spawner) = recording();
    let options = Options::builder()
        .cli_path(&cli)
        .env("MOCK_CLI_SCENARIO", scenario.to_str().unwrap())
        .spawn_claude_code_process(spawner)
        .build();
    let mut q = query("hi", options).unwrap();
    let mut texts = vec![];
    let mut result = false;
    while let Some(m) = q.next().await {
        match m.unwrap() {
            Message::Assistant(a) => texts.push(a.text()),
            Message::Result(_) => result = true,
            _ => {}
        }
    }
    assert!(result, "the session ran to its result over the app's pipes");
    assert!(
        texts[0].starts_with("spawned: ") && texts[0].contains("hi"),
        "{texts:?}"
    );
    let (mine, _) = seen.lock().unwrap()[0].clone();
    assert!(
        mine.env
            .iter()
            .any(|(k, v)| k == "CLAUDE_CODE_ENTRYPOINT" && v == "sdk-rust"),
        "the environment the SDK would give the CLI"
    );
    let theirs = official(&cli, &scenario);
    let name = |c: &str| {
        std::path::Path::new(c)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned()
    };
    assert_eq!(
        name(&mine.command),
        name(theirs[0].as_str().unwrap()),
        "the same program"
    );
    assert_eq!(
        serde_json::to_value(&mine.args).unwrap(),
        theirs[1],
        "the same arguments"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_failing_spawner_fails_the_query_and_a_query_dropped_early_stops_the_process() {
    let Some((cli, scenario)) = support::mock_cli_with("spawn-stop", SCENARIO) else {
        return;
    };
    let failing = Options::builder()
        .cli_path(&cli)
        .spawn_claude_code_process(|_| Err(std::io::Error::other("no VM today")))
        .build();
    let Err(e) = query("hi", failing) else {
        panic!("a failing spawner must fail the query")
    };
    assert!(
        matches!(e, Error::Spawn { .. }) && e.to_string().contains("no VM today"),
        "{e}"
    );

    let (seen, spawner) = recording();
    let options = Options::builder()
        .cli_path(&cli)
        .env("MOCK_CLI_SCENARIO", scenario.to_str().unwrap())
        .env("MOCK_HOLD", "1")
        .spawn_claude_code_process(spawner)
        .build();
    let mut q = query("hi", options).unwrap();
    while let Some(m) = q.next().await {
        if let Message::Result(_) = m.unwrap() {
            break;
        }
    }
    drop(q);
    let pid = seen.lock().unwrap()[0].1;
    let gone = || {
        !std::path::Path::new(&format!("/proc/{pid}")).exists()
            || std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| s.contains(") Z "))
    };
    for _ in 0..400 {
        if gone() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    if cfg!(target_os = "linux") {
        assert!(gone(), "the app's process was stopped (input closed, then SIGTERM)");
    }
}
