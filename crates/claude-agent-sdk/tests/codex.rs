//! The Rust SDK's Codex threads against the real Codex binary (`@openai/codex`) and the scripted
//! Responses API: one McpServer serves a Claude query and a Codex thread at the same time.

mod support;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use claude_agent_sdk::codex::{Codex, CodexOptions, ThreadEvent, ThreadItem, ThreadOptions};
use claude_agent_sdk::testing::{ScriptedModel, Turn};
use claude_agent_sdk::{query, tool, McpServer};
use futures::StreamExt;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use support::{collect, echo_tool_result, result_text};

#[derive(Deserialize, JsonSchema)]
struct Add {
    a: i64,
    b: i64,
}

/// The Codex binary the npm devDependency installs (linux-x64), if it is there.
fn codex_binary() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let p = root.join("node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex");
    p.is_file().then_some(p)
}

/// The scripted Responses API (tests/support/scripted-responses.mjs).
struct ScriptedResponses {
    child: Child,
    env: Vec<(String, String)>,
    cwd: String,
}

impl ScriptedResponses {
    fn start(script: Value) -> Self {
        let helper = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/support/scripted-responses.mjs");
        let mut child = Command::new("node")
            .arg(helper)
            .arg(script.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("node starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .expect("the fake prints its settings");
        let info: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("the fake said {line:?}: {e}"));
        let env = info["env"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
            .collect();
        Self {
            child,
            env,
            cwd: info["cwd"].as_str().unwrap().to_string(),
        }
    }
}

impl Drop for ScriptedResponses {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn one_server_serves_a_claude_query_and_a_codex_thread_at_once() {
    require_e2e!();
    let Some(codex_path) = codex_binary() else {
        assert!(
            std::env::var("CLAUDE_AGENT_SDK_REQUIRE_E2E").as_deref() != Ok("1"),
            "the Codex binary is not installed (npm install)"
        );
        eprintln!("skipped: the linux-x64 Codex binary is not installed");
        return;
    };
    let calls = Arc::new(AtomicUsize::new(0));
    let counted = calls.clone();
    let add = tool("add", "Adds two numbers", move |x: Add| {
        counted.fetch_add(1, Ordering::SeqCst);
        async move { (x.a + x.b).to_string() }
    });
    let server = McpServer::builder("calc").tool(add).build().unwrap();

    let fake = ScriptedResponses::start(json!({ "turns": [
      { "functionCalls": [{ "namespace": "calc", "name": "add", "arguments": { "a": 2, "b": 3 } }] },
      { "echoFunctionOutput": "codex got " },
    ]}));
    let model = ScriptedModel::builder()
        .turn(Turn::tool_call("mcp__calc__add", &json!({ "a": 40, "b": 2 })))
        .turn_with(echo_tool_result("claude got "))
        .start()
        .unwrap();

    let codex = Codex::new(CodexOptions {
        codex_path: Some(codex_path),
        env: Some(fake.env.clone()),
        ..Default::default()
    });
    let codex_turn = async {
        let thread = codex
            .start_thread(
                ThreadOptions::default()
                    .working_directory(fake.cwd.clone())
                    .mcp_server("calc", server.clone()),
            )
            .await
            .expect("thread starts");
        let mut events = Vec::new();
        let mut stream = thread.run_streamed("add 2 and 3").await.expect("turn starts");
        while let Some(e) = stream.next().await {
            events.push(e.expect("event"));
        }
        drop(stream);
        let id = thread.id().to_string();
        thread.close();
        (id, events)
    };
    let claude_turn = async {
        let options = model
            .options()
            .cli_path(support::cli_path())
            .mcp_server("calc", server.clone())
            .allowed_tools(["mcp__calc__add"])
            .build();
        collect(query("add", options).unwrap()).await
    };
    let ((thread_id, events), messages) = tokio::join!(codex_turn, claude_turn);

    assert_eq!(result_text(&messages), "claude got 42");
    assert_eq!(events.first(), Some(&ThreadEvent::ThreadStarted { thread_id }));
    assert_eq!(events.get(1), Some(&ThreadEvent::TurnStarted));
    let call = events.iter().find_map(|e| match e {
        ThreadEvent::ItemCompleted {
            item: item @ ThreadItem::McpToolCall { .. },
        } => Some(item.clone()),
        _ => None,
    });
    let Some(ThreadItem::McpToolCall {
        server,
        tool,
        arguments,
        status,
        result,
        ..
    }) = call
    else {
        panic!("no tool call in {events:?}")
    };
    assert_eq!(
        (server.as_str(), tool.as_str(), status.as_str()),
        ("calc", "add", "completed")
    );
    assert_eq!(arguments, json!({ "a": 2, "b": 3 }));
    assert_eq!(
        result,
        Some(json!({ "content": [{ "type": "text", "text": "5" }], "structured_content": null }))
    );
    let last_message = events.iter().rev().find_map(|e| match e {
        ThreadEvent::ItemCompleted {
            item: ThreadItem::AgentMessage { text, .. },
        } => Some(text.clone()),
        _ => None,
    });
    assert_eq!(last_message.as_deref(), Some("codex got 5"));
    assert!(
        matches!(events.last(), Some(ThreadEvent::TurnCompleted { .. })),
        "{events:?}"
    );
    assert_eq!(calls.load(Ordering::SeqCst), 2, "one call from each agent");
}
