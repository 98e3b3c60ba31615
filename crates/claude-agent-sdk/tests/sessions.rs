//! `claude_agent_sdk::sessions` side by side with the official TypeScript SDK's session
//! functions (the repository's devDependency, run by `support/official-sessions.mjs`) on a
//! generated corpus of transcripts (titles, tags, compaction, sidechains, SDK entrypoints,
//! subagents, corrupt lines, odd file names): the same listings, infos and messages; and the
//! same folder after renaming, tagging, archiving, deleting and forking on copies of it.
//! One test, in its own process: it sets `CLAUDE_CONFIG_DIR`.

mod support;

use std::path::{Path, PathBuf};

use claude_agent_sdk::sessions::{self, ForkSession, ListSessions, SessionMessage, SessionMessages};
use serde_json::{json, Value};
use support::{info_json, message_json, norm, without_nulls};

fn node(args: &[&str]) -> Value {
    let out = support::official_script("official-sessions.mjs", args);
    if out.is_empty() {
        return Value::Null;
    }
    serde_json::from_slice(&out).expect("JSON")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), &dest).unwrap();
            let mtime = e.metadata().unwrap().modified().unwrap();
            std::fs::File::options()
                .write(true)
                .open(&dest)
                .unwrap()
                .set_modified(mtime)
                .unwrap();
        }
    }
}

async fn ours(ids: &[String], dir: &str) -> Value {
    let list = |o: ListSessions| async move {
        Value::Array(
            sessions::list_sessions(o)
                .await
                .unwrap()
                .iter()
                .map(info_json)
                .collect(),
        )
    };
    let mut out = json!({
      "all": list(ListSessions::default()).await,
      "page": list(ListSessions { limit: Some(5), offset: Some(2), ..Default::default() }).await,
      "programmatic": list(ListSessions { include_programmatic: Some(true), ..Default::default() }).await,
      "project": list(ListSessions { dir: Some(PathBuf::from(dir)), ..Default::default() }).await,
      "sessions": {},
    });
    let msgs = |v: Vec<SessionMessage>| Value::Array(v.iter().map(message_json).collect());
    for id in ids {
        let agents = sessions::list_subagents(id, None).await.unwrap();
        let mut agent_messages = vec![];
        for a in &agents {
            agent_messages.push(msgs(
                sessions::get_subagent_messages(id, a, SessionMessages::default())
                    .await
                    .unwrap(),
            ));
        }
        out["sessions"][id] = json!({
          "info": sessions::get_session_info(id, None).await.unwrap().as_ref().map(info_json),
          "messages": msgs(sessions::get_session_messages(id, SessionMessages::default()).await.unwrap()),
          "system": msgs(sessions::get_session_messages(id, SessionMessages { include_system_messages: true, limit: Some(7), offset: Some(1), ..Default::default() }).await.unwrap()),
          "agents": agents,
          "agentMessages": agent_messages,
        });
    }
    out
}

/// Both sides' reads, normalized the same way (absent and null alike).
fn normalize(mut v: Value) -> Value {
    for key in ["all", "page", "programmatic", "project"] {
        v[key] = norm(v[key].take());
    }
    if let Some(s) = v["sessions"].as_object_mut() {
        for one in s.values_mut() {
            one["info"] = without_nulls(one["info"].take());
            for key in ["messages", "system"] {
                one[key] = norm(one[key].take());
            }
            if let Some(a) = one["agentMessages"].as_array_mut() {
                for m in a {
                    *m = norm(m.take());
                }
            }
        }
    }
    v
}

#[test]
fn session_functions_match_the_official_sdk() {
    if !support::have_node() {
        return;
    }
    let base = std::env::temp_dir().join(format!("claude-agent-sdk-sessions-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let config = base.join("config");
    let built = node(&["build", config.to_str().unwrap(), base.join("work").to_str().unwrap()]);
    let ids: Vec<String> = serde_json::from_value(built["ids"].clone()).unwrap();
    let dir = built["projectPaths"][0].as_str().unwrap().to_string();
    assert!(ids.len() >= 18);
    std::env::set_var("CLAUDE_CONFIG_DIR", &config);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();

    // Reads.
    let plan = json!({ "ids": ids, "dir": dir });
    let theirs = normalize(node(&["read", config.to_str().unwrap(), &plan.to_string()]));
    let mine = normalize(rt.block_on(ours(&ids, &dir)));
    assert!(mine["all"].as_array().unwrap().len() >= 10, "{:?}", mine["all"]);
    for id in &ids {
        assert_eq!(mine["sessions"][id], theirs["sessions"][id], "session {id}");
    }
    assert_eq!(mine, theirs);

    // Bad input: the official's answers.
    rt.block_on(async {
        assert_eq!(
            sessions::get_session_info("../../etc/passwd", None).await.unwrap(),
            None
        );
        assert!(sessions::get_session_messages("not-a-uuid", SessionMessages::default())
            .await
            .unwrap()
            .is_empty());
        let e = sessions::rename_session("../x", "t", None).await.unwrap_err();
        assert_eq!(
            (e.code(), e.to_string()),
            ("SESSIONS_ERROR", "Invalid sessionId: ../x".to_string())
        );
        assert!(sessions::rename_session(&ids[0], "   ", None)
            .await
            .unwrap_err()
            .to_string()
            .contains("title must be non-empty"));
        assert!(sessions::tag_session(&ids[0], Some("\u{200B}"), None)
            .await
            .unwrap_err()
            .to_string()
            .contains("tag must be non-empty"));
        assert!(sessions::delete_session("00000000-0000-0000-0000-000000000000", None)
            .await
            .is_err());
    });

    // Changes, each package on its own copy; then both copies read by the official SDK.
    let (official_copy, our_copy) = (base.join("official"), base.join("ours"));
    copy_dir(&config, &official_copy);
    copy_dir(&config, &our_copy);
    let changes = json!({ "rename": ids[1], "tag": ids[2], "untag": ids[3], "archive": ids[4], "delete": ids[5], "fork": ids[6] });
    let their_fork = node(&["mutate", official_copy.to_str().unwrap(), &changes.to_string()])["forked"]
        .as_str()
        .unwrap()
        .to_string();
    std::env::set_var("CLAUDE_CONFIG_DIR", &our_copy);
    let our_fork = rt.block_on(async {
        sessions::rename_session(&ids[1], "  A new title  ", None)
            .await
            .unwrap();
        sessions::tag_session(&ids[2], Some("ｔａｇ\u{200B} one"), None)
            .await
            .unwrap();
        sessions::tag_session(&ids[3], None, None).await.unwrap();
        sessions::archive_session(&ids[4], None).await.unwrap();
        sessions::delete_session(&ids[5], None).await.unwrap();
        sessions::fork_session(
            &ids[6],
            ForkSession {
                title: Some("Forked".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap()
    });
    let read = |copy: &Path, fork: &str| {
        let mut ids: Vec<String> = ids.clone();
        ids.push(fork.to_string());
        let mut v = normalize(node(&[
            "read",
            copy.to_str().unwrap(),
            &json!({ "ids": ids, "dir": dir }).to_string(),
        ]));
        // What legitimately differs: write times, and the fork's new ids.
        let text = v.to_string().replace(fork, "FORK");
        v = serde_json::from_str(&text).unwrap();
        strip_times(&mut v);
        v
    };
    let (a, b) = (read(&our_copy, &our_fork), read(&official_copy, &their_fork));
    // Listed newest first, and each side wrote at its own times: compared by id.
    let by_id = |v: &Value| {
        let mut list = v.as_array().unwrap().clone();
        list.sort_by_key(|s| s["sessionId"].as_str().unwrap_or("").to_string());
        for s in &mut list {
            if s["sessionId"] == "FORK" {
                s.as_object_mut().unwrap().remove("createdAt"); // when each fork was written
            }
        }
        list
    };
    assert_eq!(by_id(&a["all"]).len(), ids.len() - 1 + 1, "one deleted, one forked");
    assert_eq!(by_id(&a["all"]), by_id(&b["all"]), "listings after the changes");
    assert_eq!(
        a["sessions"]["FORK"]["messages"].as_array().map(Vec::len),
        b["sessions"]["FORK"]["messages"].as_array().map(Vec::len)
    );
    let _ = std::fs::remove_dir_all(&base);
}

/// Drops `lastModified` and the fork's message uuids and timestamps (new on each side).
fn strip_times(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.remove("lastModified");
            for x in m.values_mut() {
                strip_times(x);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(strip_times),
        _ => {}
    }
}
