//! The `testing` module's scripted model driving the real Claude Code CLI: parallel tool calls
//! (and what `readOnlyHint` changes), API errors and retries, what the model was shown, a turn
//! at a time with `receive_response`, typed permission answers, and sessions of this SDK
//! counted as programmatic.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use claude_agent_sdk::sessions::{ConfigDir, ListSessions};
use claude_agent_sdk::testing::{self, ApiError, ScriptedModel, Turn};
use claude_agent_sdk::{
    mcp_tool_name, query, tool, tool_input, McpServer, Message, PermissionResult, Prompt, ToolAnnotations, UserInput,
};
use futures::StreamExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use support::{echo_tool_result, echo_user_text};

#[derive(Deserialize, Serialize, JsonSchema)]
struct Lookup {
    /// What to look up.
    key: String,
}

/// A `lookup` tool that records how many of its calls ran at the same time, at most. Each call
/// waits (up to 1.5 s) for a second call to join it, so calls that may overlap do.
fn lookup_server(read_only: bool, peak: Arc<AtomicUsize>) -> McpServer {
    let running = Arc::new(AtomicUsize::new(0));
    let lookup = tool("lookup", "Looks a key up", move |l: Lookup| {
        let (running, peak) = (running.clone(), peak.clone());
        async move {
            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
            peak.fetch_max(now, Ordering::SeqCst);
            for _ in 0..30 {
                if running.load(Ordering::SeqCst) >= 2 {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            peak.fetch_max(running.load(Ordering::SeqCst), Ordering::SeqCst);
            tokio::time::sleep(Duration::from_millis(100)).await;
            running.fetch_sub(1, Ordering::SeqCst);
            format!("value of {}", l.key)
        }
    });
    let lookup = if read_only {
        lookup.annotations(ToolAnnotations::new().read_only())
    } else {
        lookup
    };
    McpServer::builder("kv").tool(lookup).build().unwrap()
}

/// Two calls in one turn; returns how many ran at once and the model's view of the results.
async fn two_lookups(read_only: bool) -> (usize, Vec<(String, String, bool)>) {
    let name = mcp_tool_name("kv", "lookup");
    let model = ScriptedModel::builder()
        .turn(
            Turn::text("Looking both up")
                .and_tool_call_with_id("toolu_a", &name, &Lookup { key: "a".into() })
                .and_tool_call_with_id("toolu_b", &name, &Lookup { key: "b".into() }),
        )
        .turn_with(|r, _| Turn::text(format!("{} results", r.tool_results().len())))
        .start()
        .unwrap();
    let peak = Arc::new(AtomicUsize::new(0));
    let options = model
        .options()
        .cli_path(support::cli_path())
        .mcp_server("kv", lookup_server(read_only, peak.clone()))
        .allowed_tools([name.as_str()])
        .build();
    let messages = support::collect(query("look a and b up", options).unwrap()).await;
    assert_eq!(testing::result_text(&messages).as_deref(), Some("2 results"));
    let calls = testing::tool_calls(&messages);
    assert_eq!(
        calls
            .iter()
            .map(|(id, _, input)| (id.as_str(), &input["key"]))
            .collect::<Vec<_>>(),
        [("toolu_a", &json!("a")), ("toolu_b", &json!("b"))]
    );
    let mut seen = model.requests()[1].tool_results();
    seen.sort(); // sent in the order the calls finished
    (peak.load(Ordering::SeqCst), seen)
}

#[tokio::test(flavor = "multi_thread")]
async fn parallel_tool_calls_overlap_only_when_the_tool_is_read_only() {
    require_e2e!();
    let (read_only_peak, seen) = two_lookups(true).await;
    assert_eq!(read_only_peak, 2, "the CLI ran the read-only calls together");
    assert_eq!(
        seen,
        [
            ("toolu_a".to_string(), "value of a".to_string(), false),
            ("toolu_b".to_string(), "value of b".to_string(), false)
        ],
        "the model is sent both results"
    );
    let (peak, seen) = two_lookups(false).await;
    assert_eq!(
        peak, 1,
        "without readOnlyHint the CLI ran the calls one after the other"
    );
    assert_eq!(seen.len(), 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_api_error_ends_the_turn_with_its_message_and_an_overload_is_retried() {
    require_e2e!();
    // The fallback: every request the CLI makes for the turn is refused.
    let refused = Turn::error(ApiError::invalid_request("scripted: this request is refused"));
    let model = ScriptedModel::builder().fallback(refused).start().unwrap();
    let options = model.options().cli_path(support::cli_path()).build();
    let (messages, error) = testing::collect_until_error(query("hi", options).unwrap()).await;
    let result = testing::result(&messages).expect("a result");
    assert!(result.is_error, "{result:?}");
    let text = format!("{messages:?}");
    assert!(
        text.contains("scripted: this request is refused"),
        "the message reaches the app: {result:?}"
    );
    assert_eq!(result.raw["api_error_status"], 400, "{result:?}");
    // As under the official SDK: after the error result the CLI exits with 1, which ends the query.
    assert!(
        matches!(error, Some(claude_agent_sdk::Error::ProcessExited { code: 1, .. })),
        "{error:?}"
    );
    let betas = |i: usize| model.requests()[i].header("anthropic-beta").unwrap_or_default().len();
    let asked = model.requests().len();
    assert!(
        asked >= 2 && betas(asked - 1) < betas(0),
        "the CLI asks again with fewer betas after a 400"
    );

    let model = ScriptedModel::start([Turn::error(ApiError::overloaded()), Turn::text("after the retry")]).unwrap();
    let options = model.options().cli_path(support::cli_path()).build();
    let messages = support::collect(query("hi", options).unwrap()).await;
    assert_eq!(testing::result_text(&messages).as_deref(), Some("after the retry"));
    assert_eq!(model.requests().len(), 2, "the CLI asked again after the 529");
    assert_eq!(model.turn_count(), 2);
    assert!(model.errors().is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn receive_response_yields_one_turn_at_a_time() {
    require_e2e!();
    let model = ScriptedModel::builder()
        .turn_with(echo_user_text("1: "))
        .turn_with(echo_user_text("2: "))
        .start()
        .unwrap();
    let (tx, rx) = futures::channel::mpsc::unbounded::<UserInput>();
    let options = model.options().cli_path(support::cli_path()).build();
    let mut q = query(Prompt::stream(rx), options).unwrap();
    let mut texts = Vec::new();
    for prompt in ["first", "second"] {
        tx.unbounded_send(UserInput::text(prompt)).unwrap();
        let mut turn = q.receive_response();
        let mut last = None;
        while let Some(m) = tokio::time::timeout(Duration::from_secs(60), turn.next())
            .await
            .expect("a message in time")
        {
            last = Some(m.unwrap());
        }
        match last {
            Some(Message::Result(r)) => texts.push(r.result.unwrap_or_default()),
            other => panic!("the turn ends with its result: {other:?}"),
        }
        assert!(turn.next().await.is_none(), "nothing after the result");
    }
    assert_eq!(texts, ["1: first", "2: second"]);
    drop(tx);
    let rest: Vec<_> = q.collect().await;
    assert!(
        rest.iter().all(|m| !matches!(m, Ok(Message::Result(_)))),
        "no third turn: {rest:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn can_use_tool_reads_our_tools_input_typed_and_answers_with_a_typed_one() {
    require_e2e!();
    let name = mcp_tool_name("kv", "lookup");
    let model = ScriptedModel::builder()
        .turn(Turn::tool_call(&name, &json!({ "key": "secret" })))
        .turn(Turn::tool_call(&name, &json!({ "key": 7 })))
        .turn_with(echo_tool_result("got: "))
        .start()
        .unwrap();
    let wanted = name.clone();
    let options = model
        .options()
        .cli_path(support::cli_path())
        .mcp_server("kv", lookup_server(false, Default::default()))
        .can_use_tool(move |tool_name, input, _| {
            let ours = tool_name == wanted;
            async move {
                if !ours {
                    return PermissionResult::deny("not ours");
                }
                match tool_input::<Lookup>(&tool_name, &input) {
                    Ok(l) if l.key == "secret" => PermissionResult::allow_with(&Lookup { key: "public".into() }),
                    Ok(_) => PermissionResult::allow(),
                    Err(why) => PermissionResult::deny(why),
                }
            }
        })
        .build();
    let messages = support::collect(query("look up", options).unwrap()).await;
    let results = testing::tool_results(&messages);
    assert_eq!(results.len(), 2, "{results:?}");
    assert_eq!(
        (results[0].text(), results[0].is_error),
        ("value of public".into(), false)
    );
    assert!(results[1].is_error, "{results:?}");
    assert!(
        results[1]
            .text()
            .contains("Invalid arguments for tool mcp__kv__lookup: `key`"),
        "the typed check named the field: {results:?}"
    );
    let seen = model.requests();
    assert_eq!(
        seen[1].last_tool_result_text(),
        "value of public",
        "what the model was shown"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn sessions_of_the_rust_sdk_are_programmatic() {
    require_e2e!();
    let model = ScriptedModel::start([Turn::text("noted")]).unwrap();
    let env = model.env();
    let config = env
        .iter()
        .find(|(k, _)| k == "CLAUDE_CONFIG_DIR")
        .map(|(_, v)| std::path::PathBuf::from(v))
        .unwrap();
    let options = claude_agent_sdk::Options::builder()
        .cli_path(support::cli_path())
        .inherit_env(false)
        .envs(env)
        .cwd(model.temp_dir())
        .build();
    let messages = support::collect(query("remember this", options).unwrap()).await;
    let id = messages.iter().find_map(Message::session_id).unwrap().to_string();
    let dir = ConfigDir::new(&config);
    let all = dir.list_sessions(ListSessions::default()).await.unwrap();
    assert!(all.iter().any(|s| s.session_id == id), "listed by default: {all:?}");
    let by_people = dir
        .list_sessions(ListSessions {
            include_programmatic: Some(false),
            ..Default::default()
        })
        .await
        .unwrap();
    assert!(
        by_people.iter().all(|s| s.session_id != id),
        "a session of sdk-rust is programmatic: {by_people:?}"
    );
}
