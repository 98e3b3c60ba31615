//! The integration tests' fixture: the real Claude Code CLI (from the repository's
//! node_modules) against the scripted Messages API of this crate's `testing` module.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Stdio};

use claude_agent_sdk::testing::{RecordedRequest, Turn, TurnInfo};
use claude_agent_sdk::{Message, Query};
use serde_json::Value;

pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repository root")
}

/// The pinned CLI, as __test__/helpers/clis.mjs names it.
pub fn cli_path() -> PathBuf {
    repo_root().join("node_modules/@anthropic-ai/claude-code/bin/claude.exe")
}

/// Why the end-to-end tests cannot run here, if they cannot: no CLI. With
/// `CLAUDE_AGENT_SDK_REQUIRE_E2E=1` (set by `npm test`) a missing CLI fails instead.
pub fn unavailable() -> Option<String> {
    let reason = (!cli_path().exists()).then(|| {
        format!(
            "the Claude Code CLI is not installed at {} (run `npm install`)",
            cli_path().display()
        )
    });
    if let (Some(r), true) = (
        &reason,
        std::env::var("CLAUDE_AGENT_SDK_REQUIRE_E2E").as_deref() == Ok("1"),
    ) {
        panic!("end-to-end test cannot run: {r}");
    }
    reason
}

/// Returns from the test with a clear message when the CLI is absent.
#[macro_export]
macro_rules! require_e2e {
    () => {
        if let Some(reason) = support::unavailable() {
            eprintln!("skipping {}: {reason}", module_path!());
            return;
        }
    };
}

/// A turn answering with `prefix` and the text of the last tool result the model was sent.
pub fn echo_tool_result(prefix: &'static str) -> impl Fn(&RecordedRequest, TurnInfo) -> Turn + Send + Sync {
    move |r, _| Turn::text(format!("{prefix}{}", r.last_tool_result_text()))
}

/// A turn answering with `prefix` and the latest text the user sent.
pub fn echo_user_text(prefix: &'static str) -> impl Fn(&RecordedRequest, TurnInfo) -> Turn + Send + Sync {
    move |r, _| Turn::text(format!("{prefix}{}", r.last_user_text()))
}

/// Every message of a query, up to its end; panics on an error or after 60 s.
pub async fn collect(q: Query) -> Vec<Message> {
    tokio::time::timeout(
        std::time::Duration::from_secs(60),
        claude_agent_sdk::testing::collect(q),
    )
    .await
    .expect("the query ends within 60 s")
    .expect("no error")
}

/// The tool results of the user messages: `(text, is_error)`.
pub fn tool_results(messages: &[Message]) -> Vec<(String, bool)> {
    claude_agent_sdk::testing::tool_results(messages)
        .iter()
        .map(|r| (r.text(), r.is_error))
        .collect()
}

/// The final result's text.
pub fn result_text(messages: &[Message]) -> String {
    claude_agent_sdk::testing::result(messages)
        .expect("a result message")
        .result
        .clone()
        .unwrap_or_default()
}

/// Whether `node` runs here (it runs the official SDK and the mock CLI); without it a test
/// returns early, and with `CLAUDE_AGENT_SDK_REQUIRE_E2E=1` fails instead.
pub fn have_node() -> bool {
    let runs = Command::new("node")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        runs || std::env::var("CLAUDE_AGENT_SDK_REQUIRE_E2E").as_deref() != Ok("1"),
        "`node` is not on PATH"
    );
    runs
}

/// The official TypeScript SDK's entry point (the repository's devDependency).
pub fn official_sdk() -> PathBuf {
    repo_root().join("node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs")
}

/// What `script`, run by `node` as an ES module, wrote to stdout; a failure panics with `what`
/// and node's stderr.
pub fn node_module(what: &str, script: &str) -> Vec<u8> {
    let out = Command::new("node")
        .args(["--input-type=module", "-e", script])
        .output()
        .expect("node runs");
    assert!(out.status.success(), "{what}: {}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// What `support/<script>` run by `node` with `args` wrote to stdout; a failure panics naming
/// the script, its first argument and node's stderr.
pub fn official_script(script: &str, args: &[&str]) -> Vec<u8> {
    let path = repo_root().join("crates/claude-agent-sdk/tests/support").join(script);
    let out = Command::new("node").arg(path).args(args).output().expect("node runs");
    assert!(
        out.status.success(),
        "{script} {}: {}",
        args.first().unwrap_or(&""),
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The mock CLI (`__test__/mock-cli/mock-cli.mjs`) and a scenario file with `source`, named after
/// `tag`; `None` without `node` (a failure with `CLAUDE_AGENT_SDK_REQUIRE_E2E=1`).
pub fn mock_cli_with(tag: &str, source: &str) -> Option<(PathBuf, PathBuf)> {
    if !have_node() {
        return None;
    }
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let scenario = std::env::temp_dir().join(format!("claude-agent-sdk-{tag}-{}-{n}.mjs", std::process::id()));
    std::fs::write(&scenario, source).unwrap();
    Some((repo_root().join("__test__/mock-cli/mock-cli.mjs"), scenario))
}

// ---- session values as JSON, to compare with the official SDK's output ----

/// A listing entry as the official's JSON has it (absent fields left out).
pub fn info_json(i: &claude_agent_sdk::sessions::SessionInfo) -> Value {
    let v = serde_json::json!({
      "sessionId": i.session_id, "summary": i.summary, "lastModified": i.last_modified, "fileSize": i.file_size,
      "customTitle": i.custom_title, "firstPrompt": i.first_prompt, "gitBranch": i.git_branch, "cwd": i.cwd,
      "tag": i.tag, "createdAt": i.created_at, "archived": i.archived,
    });
    without_nulls(v)
}

/// A session message as the official's JSON has it.
pub fn message_json(m: &claude_agent_sdk::sessions::SessionMessage) -> Value {
    let mut v = serde_json::json!({
      "type": m.kind, "uuid": m.uuid, "session_id": m.session_id, "message": m.message,
      "parent_tool_use_id": m.parent_tool_use_id, "parent_agent_id": m.parent_agent_id, "timestamp": m.timestamp,
    });
    v.as_object_mut().unwrap().extend(m.extra.clone());
    without_nulls(v)
}

/// Top-level null fields dropped (absent in the official's JSON, `None` here).
pub fn without_nulls(v: Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(m.into_iter().filter(|(_, v)| !v.is_null()).collect()),
        v => v,
    }
}

/// `without_nulls` of each element of an array (or of the value).
pub fn norm(v: Value) -> Value {
    match v {
        Value::Array(a) => Value::Array(a.into_iter().map(without_nulls).collect()),
        v => without_nulls(v),
    }
}
