//! The integration tests' fixture: the real Claude Code CLI (from the repository's
//! node_modules) against the project's scripted fake Messages API, started as a Node child
//! process (`scripted-model.mjs`).

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;

use claude_agent_sdk::{Message, Options, OptionsBuilder, Query};
use futures::StreamExt;
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

/// Why the end-to-end tests cannot run here, if they cannot: no `node`, or no CLI. With
/// `CLAUDE_AGENT_SDK_REQUIRE_E2E=1` (set by `npm test`) a missing piece fails instead.
pub fn unavailable() -> Option<String> {
    let reason = if Command::new("node")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .map(|s| !s.success())
        .unwrap_or(true)
    {
        Some("`node` is not on PATH (it runs the scripted Messages API)".to_string())
    } else if !cli_path().exists() {
        Some(format!(
            "the Claude Code CLI is not installed at {} (run `npm install`)",
            cli_path().display()
        ))
    } else {
        None
    };
    if let (Some(r), true) = (
        &reason,
        std::env::var("CLAUDE_AGENT_SDK_REQUIRE_E2E").as_deref() == Ok("1"),
    ) {
        panic!("end-to-end test cannot run: {r}");
    }
    reason
}

/// Returns from the test with a clear message when node or the CLI is absent.
#[macro_export]
macro_rules! require_e2e {
    () => {
        if let Some(reason) = support::unavailable() {
            eprintln!("skipping {}: {reason}", module_path!());
            return;
        }
    };
}

/// A scripted model: a Node process serving the fake API until dropped.
pub struct ScriptedModel {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: Mutex<BufReader<ChildStdout>>,
    pub url: String,
    pub env: Vec<(String, String)>,
    pub cwd: PathBuf,
}

impl ScriptedModel {
    /// `script`: `{turns: [...], fallback?, delayMs?}` (see scripted-model.mjs).
    pub fn start(script: Value) -> Self {
        let helper = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/support/scripted-model.mjs");
        let mut child = Command::new("node")
            .arg(helper)
            .arg(script.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("node starts");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout
            .read_line(&mut line)
            .expect("the scripted model prints its address");
        let info: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("scripted model said {line:?}: {e}"));
        let env = info["env"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
            .collect();
        Self {
            stdin: child.stdin.take(),
            child,
            stdout: Mutex::new(stdout),
            url: info["url"].as_str().unwrap().to_string(),
            env,
            cwd: PathBuf::from(info["cwd"].as_str().unwrap()),
        }
    }

    /// Options that point the CLI at this model, in an isolated environment and home.
    pub fn options(&self) -> OptionsBuilder {
        Options::builder()
            .cli_path(cli_path())
            .inherit_env(false)
            .envs(self.env.clone())
            .cwd(&self.cwd)
    }

    /// The HTTP requests the model has seen: `[{url, kind, userAgent}]`.
    pub fn requests(&mut self) -> Vec<Value> {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(b"requests\n").unwrap();
        stdin.flush().unwrap();
        let mut line = String::new();
        self.stdout.lock().unwrap().read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap()
    }
}

impl Drop for ScriptedModel {
    fn drop(&mut self) {
        drop(self.stdin.take()); // the helper closes the model and exits at the end of its stdin
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while std::time::Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Every message of a query, up to its end; panics on an error.
pub async fn collect(mut q: Query) -> Vec<Message> {
    let mut out = Vec::new();
    while let Some(m) = tokio::time::timeout(std::time::Duration::from_secs(60), q.next())
        .await
        .expect("a message within 60 s")
    {
        out.push(m.expect("no error"));
    }
    out
}

/// The `tool_result` blocks of the user messages: `(text, is_error)`.
pub fn tool_results(messages: &[Message]) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for m in messages {
        if let Message::User(u) = m {
            for block in u.content() {
                if let claude_agent_sdk::ContentBlock::ToolResult { content, is_error, .. } = block {
                    let text = match &content {
                        Value::String(s) => s.clone(),
                        Value::Array(parts) => parts
                            .iter()
                            .filter_map(|p| p["text"].as_str())
                            .collect::<Vec<_>>()
                            .join(""),
                        other => other.to_string(),
                    };
                    out.push((text, is_error));
                }
            }
        }
    }
    out
}

/// The final result's text.
pub fn result_text(messages: &[Message]) -> String {
    messages
        .iter()
        .rev()
        .find_map(|m| {
            if let Message::Result(r) = m {
                Some(r.result.clone().unwrap_or_default())
            } else {
                None
            }
        })
        .expect("a result message")
}

/// The mock CLI (`__test__/mock-cli/mock-cli.mjs`) and a scenario file with `source`, named after
/// `tag`; `None` without `node` (a failure with `CLAUDE_AGENT_SDK_REQUIRE_E2E=1`).
pub fn mock_cli_with(tag: &str, source: &str) -> Option<(PathBuf, PathBuf)> {
    if Command::new("node")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .map(|s| !s.success())
        .unwrap_or(true)
    {
        assert!(
            std::env::var("CLAUDE_AGENT_SDK_REQUIRE_E2E").as_deref() != Ok("1"),
            "`node` is not on PATH (it runs the mock CLI)"
        );
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
