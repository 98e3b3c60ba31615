//! `sessions::ConfigDir`: the session functions on a config folder named by the caller, with the
//! environment pointing elsewhere; the same results as the official SDK's functions run with
//! `CLAUDE_CONFIG_DIR` set to that folder, and the same changes. One test, in its own process:
//! it sets `CLAUDE_CONFIG_DIR` (to an empty folder, to show it is not read).

mod support;

use std::path::PathBuf;

use claude_agent_sdk::sessions::{self, ConfigDir, ListSessions, SessionMessages};
use serde_json::{json, Value};
use support::{info_json, message_json, norm, without_nulls};

fn node(args: &[&str]) -> Value {
    let out = support::official_script("official-sessions.mjs", args);
    serde_json::from_slice(&out).expect("JSON")
}

#[test]
fn a_config_dir_is_read_and_changed_without_the_environment() {
    if !support::have_node() {
        return;
    }
    let base = std::env::temp_dir().join(format!("claude-agent-sdk-config-dir-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let config = base.join("config");
    let built = node(&["build", config.to_str().unwrap(), base.join("work").to_str().unwrap()]);
    let ids: Vec<String> = serde_json::from_value(built["ids"].clone()).unwrap();
    let dir = built["projectPaths"][0].as_str().unwrap().to_string();
    // The environment names an empty folder: only the ConfigDir finds the sessions.
    let elsewhere = base.join("elsewhere");
    std::fs::create_dir_all(elsewhere.join("projects")).unwrap();
    std::env::set_var("CLAUDE_CONFIG_DIR", &elsewhere);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let here = ConfigDir::new(&config);
    assert_eq!(here.path(), config);
    assert_eq!(ConfigDir::from_env().path(), elsewhere);

    let plan = json!({ "ids": ids, "dir": dir });
    let theirs = node(&["read", config.to_str().unwrap(), &plan.to_string()]);
    rt.block_on(async {
        assert!(
            sessions::list_sessions(ListSessions::default())
                .await
                .unwrap()
                .is_empty(),
            "the environment's folder is empty"
        );
        let all: Vec<Value> = here
            .list_sessions(ListSessions::default())
            .await
            .unwrap()
            .iter()
            .map(info_json)
            .collect();
        assert!(all.len() >= 10);
        assert_eq!(norm(Value::Array(all)), norm(theirs["all"].clone()));
        let project: Vec<Value> = here
            .list_sessions(ListSessions {
                dir: Some(PathBuf::from(&dir)),
                ..Default::default()
            })
            .await
            .unwrap()
            .iter()
            .map(info_json)
            .collect();
        assert_eq!(norm(Value::Array(project)), norm(theirs["project"].clone()));
        for id in &ids {
            let info = here.get_session_info(id, None).await.unwrap();
            assert_eq!(
                without_nulls(info.as_ref().map(info_json).unwrap_or(Value::Null)),
                without_nulls(theirs["sessions"][id]["info"].clone()),
                "info {id}"
            );
            let messages: Vec<Value> = here
                .get_session_messages(id, SessionMessages::default())
                .await
                .unwrap()
                .iter()
                .map(message_json)
                .collect();
            assert_eq!(
                norm(Value::Array(messages)),
                norm(theirs["sessions"][id]["messages"].clone()),
                "messages {id}"
            );
            assert_eq!(
                json!(here.list_subagents(id, None).await.unwrap()),
                theirs["sessions"][id]["agents"],
                "subagents {id}"
            );
            assert_eq!(
                sessions::get_session_info(id, None).await.unwrap(),
                None,
                "not in the environment's folder"
            );
        }

        // Changes land in the named folder.
        here.rename_session(&ids[1], "Renamed here", None).await.unwrap();
        assert_eq!(
            here.get_session_info(&ids[1], None)
                .await
                .unwrap()
                .unwrap()
                .custom_title
                .as_deref(),
            Some("Renamed here")
        );
        let forked = here.fork_session(&ids[6], Default::default()).await.unwrap();
        assert!(here.get_session_info(&forked, None).await.unwrap().is_some());
        here.delete_session(&forked, None).await.unwrap();
        assert_eq!(here.get_session_info(&forked, None).await.unwrap(), None);
        let e = sessions::delete_session(&ids[1], None).await.unwrap_err();
        assert_eq!(e.code(), "SESSIONS_ERROR", "{e}");
    });

    // The folder-name override: every project's sessions in one folder.
    let shared = base.join("shared");
    let one = shared.join("projects").join("one-folder");
    std::fs::create_dir_all(&one).unwrap();
    let id = &ids[0];
    let from = here.rt_path_of(id);
    std::fs::copy(&from, one.join(format!("{id}.jsonl"))).unwrap();
    rt.block_on(async {
        let named = ConfigDir::new(&shared).project_dir_name("one-folder");
        let found = named
            .list_sessions(ListSessions {
                dir: Some(PathBuf::from("/somewhere/else")),
                ..Default::default()
            })
            .await
            .unwrap();
        assert_eq!(
            found.iter().map(|s| s.session_id.as_str()).collect::<Vec<_>>(),
            [id.as_str()]
        );
        let unnamed = ConfigDir::new(&shared);
        assert!(unnamed
            .list_sessions(ListSessions {
                dir: Some(PathBuf::from("/somewhere/else")),
                ..Default::default()
            })
            .await
            .unwrap()
            .is_empty());
        let invalid = ConfigDir::new(&shared).project_dir_name("not/valid");
        assert!(
            invalid
                .list_sessions(ListSessions {
                    dir: Some(PathBuf::from("/somewhere/else")),
                    ..Default::default()
                })
                .await
                .unwrap()
                .is_empty(),
            "a name the CLI would not take is ignored"
        );
    });
    let _ = std::fs::remove_dir_all(&base);
}

trait PathOf {
    fn rt_path_of(&self, id: &str) -> PathBuf;
}

impl PathOf for ConfigDir {
    /// The transcript of `id` under this folder's projects.
    fn rt_path_of(&self, id: &str) -> PathBuf {
        for project in std::fs::read_dir(self.path().join("projects")).unwrap() {
            let p = project.unwrap().path().join(format!("{id}.jsonl"));
            if p.is_file() {
                return p;
            }
        }
        panic!("no transcript for {id}");
    }
}
