//! The Rust SDK against the real Claude Code CLI and the scripted Messages API.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use claude_agent_sdk::testing::{ScriptedModel, Turn};
use claude_agent_sdk::{
    query, tool, HookEvent, HookMatcher, HookOutput, McpServer, Message, PermissionMode, PermissionResult, Prompt,
    UserInput,
};
use futures::StreamExt;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use support::{collect, echo_tool_result, echo_user_text, result_text, tool_results};

#[derive(Deserialize, JsonSchema)]
struct Greet {
    /// Who to greet.
    name: String,
}

/// The `demo` server with its `greet` tool, counting the handler's runs.
fn demo_server(calls: Arc<AtomicUsize>) -> McpServer {
    let greet = tool("greet", "Greet someone", move |args: Greet| {
        let calls = calls.clone();
        async move {
            calls.fetch_add(1, Ordering::SeqCst);
            format!("Hello, {}!", args.name)
        }
    });
    McpServer::builder("demo").tool(greet).build().unwrap()
}

fn greet_then_echo(name: serde_json::Value) -> ScriptedModel {
    ScriptedModel::builder()
        .turn(Turn::tool_call("mcp__demo__greet", &json!({ "name": name })))
        .turn_with(echo_tool_result("Tool said: "))
        .start()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn tool_round_trip_and_one_server_shared_by_concurrent_sessions() {
    require_e2e!();
    let calls = Arc::new(AtomicUsize::new(0));
    let server = demo_server(calls.clone());
    let run = |name: &'static str| {
        let server = server.clone();
        async move {
            let model = greet_then_echo(json!(name));
            let options = model
                .options()
                .mcp_server("demo", server)
                .allowed_tools(["mcp__demo__greet"])
                .build();
            let messages = collect(query("greet someone", options).unwrap()).await;
            (model, messages)
        }
    };
    let ((_m1, alice), (_m2, bob)) = tokio::join!(run("Alice"), run("Bob"));
    for (messages, name) in [(&alice, "Alice"), (&bob, "Bob")] {
        let init = messages
            .iter()
            .find_map(|m| if let Message::System(s) = m { s.init() } else { None })
            .expect("init");
        assert!(init.tools.iter().any(|t| t == "mcp__demo__greet"), "{:?}", init.tools);
        assert_eq!(
            init.mcp_servers
                .iter()
                .find(|s| s.name == "demo")
                .map(|s| s.status.as_str()),
            Some("connected")
        );
        let asked = messages.iter().find_map(|m| {
            if let Message::Assistant(a) = m {
                a.tool_uses().next().map(|(_, n, i)| (n.to_string(), i.clone()))
            } else {
                None
            }
        });
        assert_eq!(asked, Some(("mcp__demo__greet".to_string(), json!({ "name": name }))));
        assert_eq!(tool_results(messages), [(format!("Hello, {name}!"), false)]);
        assert_eq!(result_text(messages), format!("Tool said: Hello, {name}!"));
        assert!(messages
            .iter()
            .all(|m| m.session_id().is_some() || matches!(m, Message::Other(_))));
    }
    assert_eq!(calls.load(Ordering::SeqCst), 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bad_argument_is_an_error_result_naming_the_field_and_the_handler_does_not_run() {
    require_e2e!();
    let calls = Arc::new(AtomicUsize::new(0));
    let model = greet_then_echo(json!(42));
    let options = model
        .options()
        .cli_path(support::cli_path())
        .mcp_server("demo", demo_server(calls.clone()))
        .allowed_tools(["mcp__demo__greet"])
        .build();
    let messages = collect(query("greet 42", options).unwrap()).await;
    let results = tool_results(&messages);
    assert_eq!(results.len(), 1);
    let (text, is_error) = &results[0];
    assert!(*is_error, "{text}");
    assert!(
        text.contains("Invalid arguments for tool greet: `name`: invalid type: integer `42`, expected a string"),
        "{text}"
    );
    assert_eq!(calls.load(Ordering::SeqCst), 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_panicking_handler_is_an_error_result_and_the_session_goes_on() {
    require_e2e!();
    let boom = tool("boom", "Always fails", |_: Greet| async move {
        if true {
            panic!("the handler gave up");
        }
        "unreachable"
    });
    let server = McpServer::builder("demo").tool(boom).build().unwrap();
    let model = ScriptedModel::builder()
        .turn(Turn::tool_call("mcp__demo__boom", &json!({ "name": "x" })))
        .turn_with(echo_tool_result("Tool said: "))
        .start()
        .unwrap();
    let options = model
        .options()
        .cli_path(support::cli_path())
        .mcp_server("demo", server)
        .allowed_tools(["mcp__demo__boom"])
        .build();
    let messages = collect(query("boom", options).unwrap()).await;
    let results = tool_results(&messages);
    assert!(results.len() == 1 && results[0].1, "{results:?}");
    assert!(
        results[0].0.contains("The tool callback panicked: the handler gave up"),
        "{results:?}"
    );
    assert!(result_text(&messages).starts_with("Tool said: "), "the turn went on");
}

#[tokio::test(flavor = "multi_thread")]
async fn permission_callback_denies_and_allows_with_a_changed_input() {
    require_e2e!();
    let calls = Arc::new(AtomicUsize::new(0));
    let model = ScriptedModel::builder()
        .turn(Turn::tool_call("mcp__demo__greet", &json!({ "name": "Mallory" })))
        .turn(Turn::tool_call("mcp__demo__greet", &json!({ "name": "Carol" })))
        .turn_with(echo_tool_result("Tool said: "))
        .start()
        .unwrap();
    let asked = Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = asked.clone();
    let options = model
        .options()
        .cli_path(support::cli_path())
        .mcp_server("demo", demo_server(calls.clone()))
        .can_use_tool(move |tool_name, input, ctx| {
            log.lock()
                .unwrap()
                .push((tool_name.clone(), input.clone(), ctx.tool_use_id.clone()));
            async move {
                if input["name"] == "Mallory" {
                    PermissionResult::deny("Mallory may not be greeted")
                } else {
                    PermissionResult::allow_with_input(json!({ "name": "Bob" }))
                }
            }
        })
        .build();
    let messages = collect(query("greet people", options).unwrap()).await;
    let asked = asked.lock().unwrap().clone();
    assert_eq!(
        asked
            .iter()
            .map(|(t, i, _)| (t.as_str(), i["name"].as_str().unwrap()))
            .collect::<Vec<_>>(),
        [("mcp__demo__greet", "Mallory"), ("mcp__demo__greet", "Carol")]
    );
    assert!(
        asked
            .iter()
            .all(|(_, _, id)| id.as_deref().is_some_and(|id| id.starts_with("toolu_"))),
        "{asked:?}"
    );
    let results = tool_results(&messages);
    assert_eq!(results.len(), 2, "{results:?}");
    assert!(
        results[0].1 && results[0].0.contains("Mallory may not be greeted"),
        "{results:?}"
    );
    assert_eq!(results[1], ("Hello, Bob!".to_string(), false));
    assert_eq!(calls.load(Ordering::SeqCst), 1, "the denied call never ran");
    assert_eq!(result_text(&messages), "Tool said: Hello, Bob!");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_pre_tool_use_hook_blocks_a_call() {
    require_e2e!();
    let calls = Arc::new(AtomicUsize::new(0));
    let model = greet_then_echo(json!("Alice"));
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = seen.clone();
    let options = model
        .options()
        .cli_path(support::cli_path())
        .mcp_server("demo", demo_server(calls.clone()))
        .allowed_tools(["mcp__demo__greet"])
        .hook(
            HookEvent::PreToolUse,
            HookMatcher::matching("mcp__demo__.*").hook(move |input, tool_use_id| {
                log.lock().unwrap().push((
                    input.hook_event_name.clone(),
                    input.tool_name.clone(),
                    input.tool_input.clone(),
                    tool_use_id,
                ));
                async { HookOutput::deny_tool("blocked by the hook") }
            }),
        )
        .build();
    let messages = collect(query("greet Alice", options).unwrap()).await;
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(
        (seen[0].0.as_str(), seen[0].1.as_deref(), &seen[0].2),
        ("PreToolUse", Some("mcp__demo__greet"), &Some(json!({"name":"Alice"})))
    );
    assert!(seen[0].3.as_deref().is_some_and(|id| id.starts_with("toolu_")));
    let results = tool_results(&messages);
    assert!(
        results.len() == 1 && results[0].1 && results[0].0.contains("blocked by the hook"),
        "{results:?}"
    );
    assert_eq!(calls.load(Ordering::SeqCst), 0);
}

#[derive(Deserialize, JsonSchema)]
struct Add {
    a: i64,
    b: i64,
}

#[tokio::test(flavor = "multi_thread")]
async fn streaming_input_and_control_requests() {
    require_e2e!();
    let model = ScriptedModel::builder()
        .turn_with(echo_user_text("echo: "))
        .turn(Turn::tool_call("mcp__calc__add", &json!({ "a": 1, "b": 2 })))
        .turn_with(echo_user_text("echo: "))
        .start()
        .unwrap();
    let (tx, rx) = futures::channel::mpsc::unbounded::<UserInput>();
    tx.unbounded_send(UserInput::text("first")).unwrap();
    let options = model
        .options()
        .cli_path(support::cli_path())
        .mcp_server("demo", demo_server(Default::default()))
        .allowed_tools(["mcp__calc__add"])
        .build();
    let mut q = query(Prompt::stream(rx), options).unwrap();
    let mut results = Vec::new();
    let mut messages = Vec::new();
    while let Some(m) = tokio::time::timeout(Duration::from_secs(60), q.next())
        .await
        .expect("a message in time")
    {
        let m = m.unwrap();
        messages.push(m.clone());
        let Message::Result(r) = m else { continue };
        results.push(r.result.unwrap_or_default());
        if results.len() == 1 {
            // Between turns: the controls work, a server is added, then the next message goes in and
            // the input ends.
            let status = q.mcp_server_status().await.unwrap();
            assert_eq!(
                status.iter().find(|s| s.name == "demo").map(|s| s.status.as_str()),
                Some("connected"),
                "{status:?}"
            );
            // The CLI names the mode now in effect; a mode it refuses is an error.
            assert_eq!(
                q.set_permission_mode(PermissionMode::AcceptEdits).await.unwrap(),
                Some(PermissionMode::AcceptEdits)
            );
            let refused = q
                .set_permission_mode(PermissionMode::BypassPermissions)
                .await
                .unwrap_err();
            assert!(refused.to_string().contains("bypassPermissions"), "{refused}");
            q.note_prompt_draft_activity().await.unwrap();
            let in_effect = q.set_model(Some("claude-sonnet-4-5")).await.unwrap();
            assert!(
                in_effect.as_deref().is_some_and(|m| m.contains("sonnet")),
                "the model in effect: {in_effect:?}"
            );
            let models = q.supported_models().await.unwrap();
            assert!(
                !models.is_empty() && models.iter().all(|m| !m.value.is_empty()),
                "{models:?}"
            );
            let unknown = q
                .control_request(json!({ "subtype": "no_such_request" }))
                .await
                .unwrap_err();
            assert!(matches!(unknown, claude_agent_sdk::Error::Control(_)), "{unknown:?}");
            let add = tool(
                "add",
                "Adds two integers",
                |x: Add| async move { (x.a + x.b).to_string() },
            );
            let calc = McpServer::builder("calc").tool(add).build().unwrap();
            let changed = q.set_mcp_servers([("calc", calc.into())]).await.unwrap();
            assert_eq!(changed.added, ["calc"], "{changed:?}");
            tx.unbounded_send(UserInput::text("second")).unwrap();
            tx.close_channel();
        }
    }
    assert_eq!(results.len(), 2, "{results:?}");
    assert_eq!(results[0], "echo: first");
    assert_eq!(
        tool_results(&messages),
        [("3".to_string(), false)],
        "the server added at run time answered"
    );
    // The CLI shows the model the `/model` change before the second message.
    assert!(
        results[1].contains("Set model to `claude-sonnet-4-5`") && results[1].ends_with("second"),
        "{results:?}"
    );
    let control = q.control();
    drop(q);
    let err = control.interrupt().await.unwrap_err();
    assert!(matches!(err, claude_agent_sdk::Error::SessionClosed(_)), "{err:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn interrupt_ends_a_slow_turn_and_dropping_the_query_ends_the_cli() {
    require_e2e!();
    // The model takes 20 s to answer; the interrupt must not wait for it.
    let model = ScriptedModel::start([Turn::text("too late").delay(Duration::from_secs(20))]).unwrap();
    let (tx, rx) = futures::channel::mpsc::unbounded::<UserInput>();
    tx.unbounded_send(UserInput::text("take your time")).unwrap();
    let mut q = query(
        Prompt::stream(rx),
        model.options().cli_path(support::cli_path()).build(),
    )
    .unwrap();
    let pid = q.pid().expect("a pid");
    let mut started = Instant::now();
    let mut interrupted = false;
    while let Some(m) = tokio::time::timeout(Duration::from_secs(30), q.next())
        .await
        .expect("a message in time")
    {
        match m.unwrap() {
            Message::System(s) if s.subtype == "init" && !interrupted => {
                // Once the model has the request (it answers in 20 s), interrupt it.
                while model.turn_count() == 0 {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                started = Instant::now(); // the model answers 20 s from about now
                q.interrupt().await.unwrap();
                interrupted = true;
            }
            Message::Result(r) => {
                assert!(r.result.as_deref() != Some("too late"), "{r:?}");
                break;
            }
            _ => {}
        }
    }
    assert!(interrupted);
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "the turn ended at the interrupt, not the model's answer"
    );
    // The input stream is still open: only dropping the query ends the session.
    assert!(std::path::Path::new(&format!("/proc/{pid}")).exists());
    drop(q);
    let deadline = Instant::now() + Duration::from_secs(10);
    while std::path::Path::new(&format!("/proc/{pid}")).exists() {
        assert!(
            Instant::now() < deadline,
            "the CLI (pid {pid}) outlived its dropped query by 10 s"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    drop(tx);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_cli_is_found_from_the_working_directory_and_told_it_runs_under_the_rust_sdk() {
    require_e2e!();
    let model = ScriptedModel::start([Turn::text("hi from the model")]).unwrap();
    // No cli_path: found from this process's working directory (the crate, inside the repository).
    let options = model.options().build();
    let messages = collect(query("hello", options).unwrap()).await;
    assert_eq!(result_text(&messages), "hi from the model");
    let requests = model.requests();
    let ua = requests[0].header("user-agent").expect("a user agent");
    assert!(ua.contains("sdk-rust"), "{ua}");
    assert_eq!(requests[0].last_user_text(), "hello");
}

#[tokio::test(flavor = "multi_thread")]
async fn startup_errors_come_back_from_query() {
    let e = query(
        "x",
        claude_agent_sdk::Options::builder().cli_path("/no/such/claude").build(),
    )
    .unwrap_err();
    assert!(
        matches!(e, claude_agent_sdk::Error::CliNotFound(ref m) if m.contains("/no/such/claude")),
        "{e:?}"
    );
    // The message names this SDK's option, not the TypeScript one.
    assert!(
        e.to_string().contains("`cli_path`") && !e.to_string().contains("pathToClaudeCodeExecutable"),
        "{e}"
    );
    // A file that is no executable for this machine: the error names it and says why.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let bad = std::env::temp_dir().join(format!("not-a-cli-{}", std::process::id()));
        std::fs::write(&bad, b"\x7fELF\x02\x01\x01\0 not really").unwrap();
        std::fs::set_permissions(&bad, std::fs::Permissions::from_mode(0o755)).unwrap();
        let e = query("x", claude_agent_sdk::Options::builder().cli_path(&bad).build()).err();
        let _ = std::fs::remove_file(&bad);
        let e = e.expect("no process starts");
        assert!(matches!(e, claude_agent_sdk::Error::Spawn { .. }), "{e:?}");
        assert!(
            e.to_string().contains(bad.to_str().unwrap())
                && e.to_string().contains("not an executable this machine can run"),
            "{e}"
        );
    }
    let e = query(
        "x",
        claude_agent_sdk::Options::builder()
            .cli_path(support::repo_root().join("package.json"))
            .model("a")
            .fallback_model("a")
            .build(),
    )
    .unwrap_err();
    assert!(
        matches!(e, claude_agent_sdk::Error::InvalidOption(ref m) if m.contains("Fallback model")),
        "{e:?}"
    );
}

#[test]
fn query_outside_a_runtime_says_so() {
    let e = query("x", claude_agent_sdk::Options::default()).unwrap_err();
    assert_eq!(e, claude_agent_sdk::Error::NoRuntime);
}

#[derive(Deserialize, JsonSchema)]
struct NoArgs {}

#[tokio::test(flavor = "multi_thread")]
async fn abort_during_a_tool_call_delivers_the_interrupted_tool_result_then_the_abort_error() {
    require_e2e!();
    // The tool never answers; the query is aborted 50 ms into the call.
    let called = Arc::new(tokio::sync::Notify::new());
    let notify = called.clone();
    let wait = tool("wait", "Waits", move |_: NoArgs| {
        let notify = notify.clone();
        async move {
            notify.notify_one();
            std::future::pending::<String>().await
        }
    });
    let server = McpServer::builder("slow").tool(wait).build().unwrap();
    let model = ScriptedModel::start([
        Turn::tool_call("mcp__slow__wait", &json!({})),
        Turn::text("after the abort"),
    ])
    .unwrap();
    let options = model
        .options()
        .cli_path(support::cli_path())
        .mcp_server("slow", server)
        .allowed_tools(["mcp__slow__wait"])
        .build();
    let mut q = query("wait", options).unwrap();
    let control = q.control();
    let aborted_at = Arc::new(Mutex::new(None));
    let at = aborted_at.clone();
    tokio::spawn(async move {
        called.notified().await;
        tokio::time::sleep(Duration::from_millis(50)).await;
        *at.lock().unwrap() = Some(Instant::now());
        control.abort();
    });
    let mut messages = Vec::new();
    let error = loop {
        match tokio::time::timeout(Duration::from_secs(60), q.next())
            .await
            .expect("a message within 60 s")
        {
            Some(Ok(m)) => messages.push(m),
            Some(Err(e)) => break Some(e),
            None => break None,
        }
    };
    let waited = aborted_at.lock().unwrap().expect("aborted").elapsed();
    assert!(matches!(error, Some(claude_agent_sdk::Error::Aborted)), "{error:?}");
    // As with the JS SDK (and the official): the CLI's interrupted tool result, then the error.
    let results = tool_results(&messages);
    assert_eq!(results.len(), 1, "{messages:?}");
    assert!(
        results[0].0.contains("interrupted before a result was received"),
        "{results:?}"
    );
    assert!(results[0].1, "an error result");
    assert!(
        matches!(messages.last(), Some(Message::User(_))),
        "nothing after it: {:?}",
        messages.last()
    );
    assert!(waited < Duration::from_secs(2), "the abort took {waited:?}");
}
