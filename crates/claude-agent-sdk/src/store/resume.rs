//! Resuming a session from a store alone ([`resume_from_store`]): the stored transcripts
//! written into a private config folder for the CLI, removed once the CLI has exited.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use crate::error::{Error, Result};
use crate::options::Options;
use crate::raw;

use super::api::{project_key, SessionKey, StoreFuture};
use super::folder::ResumeDir;

/// How long each store call of a resume may take unless
/// [`load_timeout`](crate::OptionsBuilder::load_timeout) says otherwise (the TypeScript SDK's
/// `loadTimeoutMs` default).
pub const LOAD_TIMEOUT: Duration = Duration::from_secs(60);

/// A store call of a resume, given `limit` to answer: `call` names it, `about` says for what
/// (the TypeScript SDK's wording: `SessionStore.load() timed out after 60000ms for session ...`).
async fn timed<T>(limit: Duration, call: &str, about: String, f: StoreFuture<'_, T>) -> Result<T> {
    match tokio::time::timeout(limit, f).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(Error::Sessions(format!("{call}{about} failed: {e}"))),
        Err(_) => Err(Error::Sessions(format!(
            "{call} timed out after {}ms{about}",
            limit.as_millis()
        ))),
    }
}

/// Prepares `options` to resume from their [`session_store`](crate::OptionsBuilder::session_store)
/// alone: the session named by [`resume`](crate::OptionsBuilder::resume) (or, with
/// [`continue_conversation`](crate::OptionsBuilder::continue_conversation), the store's newest
/// session of the working directory's project) is loaded, with its subagents' transcripts, and
/// written into a fresh private config folder, with the credentials and settings the CLI needs
/// copied from the usual one, as the TypeScript SDK does before it starts the CLI. The options
/// returned point the CLI there (`CLAUDE_CONFIG_DIR`) and resume that session; the folder is
/// removed when the query is over. Options without a store, or without anything to resume in
/// it, come back as they were.
///
/// (The TypeScript `query()` does this itself; in Rust [`query`](crate::query) starts the CLI at
/// once, so the loading, which is asynchronous, comes first.)
pub async fn resume_from_store(mut options: Options) -> Result<Options> {
    let Some(store) = options.session_store.clone() else {
        return Ok(options);
    };
    options.resume_prepared = true;
    let limit = options.load_timeout.unwrap_or(LOAD_TIMEOUT);
    let d = &options.core;
    if d.resume.is_none() && d.continue_conversation != Some(true) {
        return Ok(options);
    }
    let cwd = match &d.cwd {
        Some(c) => c.clone(),
        None => std::env::current_dir().map_err(|e| Error::InvalidOption(format!("Invalid option `cwd`: {e}")))?,
    };
    let env_var = |name: &str| -> Option<String> {
        match d.env.as_ref().and_then(|env| env.get(name)) {
            Some(v) => v.as_str().map(str::to_string),
            None if !d.env_is_whole => std::env::var(name).ok(),
            None => None,
        }
    };
    let project_key = project_key(
        &cwd,
        env_var("CLAUDE_CONFIG_DIR")
            .is_some()
            .then(|| env_var("CLAUDE_CODE_PROJECT_DIR_NAME"))
            .flatten(),
    );
    let session_id = match &d.resume {
        Some(id) => Some(id.clone()),
        None => {
            let Some(list) = store.list_sessions(&project_key) else {
                return Err(Error::InvalidOption(
                    "Options.continue with sessionStore requires store.listSessions to be implemented".into(),
                ));
            };
            let list = timed(limit, "SessionStore.listSessions()", String::new(), list).await?;
            // The newest; of equal ones the first listed (a stable sort, as the TypeScript SDK's).
            list.into_iter()
                .min_by_key(|s| std::cmp::Reverse(s.mtime))
                .map(|s| s.session_id)
        }
    };
    let Some(session_id) = session_id.filter(|id| raw::is_session_id(id)) else {
        return Ok(options);
    };
    let key = SessionKey::new(project_key.clone(), session_id.clone());
    let entries = timed(
        limit,
        "SessionStore.load()",
        format!(" for session {session_id}"),
        store.load(&key),
    )
    .await?
    .unwrap_or_default();
    check_loaded(&entries, &format!("session {session_id}"))?;
    if entries.is_empty() {
        return Ok(options);
    }
    let mut subagents = Vec::new();
    if let Some(subkeys) = store.list_subkeys(&key) {
        for sub in timed(
            limit,
            "SessionStore.listSubkeys()",
            format!(" for session {session_id}"),
            subkeys,
        )
        .await?
        {
            // A subpath must stay inside the session's folder (the engine checks it again).
            if sub.is_empty() || Path::new(&sub).is_absolute() || sub.split(['/', '\\']).any(|p| p == "..") {
                continue;
            }
            let sub_key = SessionKey {
                subpath: Some(sub.clone()),
                ..key.clone()
            };
            let sub_entries = timed(
                limit,
                "SessionStore.load()",
                format!(" for session {session_id} subpath {sub}"),
                store.load(&sub_key),
            )
            .await?
            .unwrap_or_default();
            check_loaded(&sub_entries, &format!("session {session_id} subpath {sub}"))?;
            if sub_entries.is_empty() {
                continue;
            }
            let (meta, rest): (Vec<&Value>, Vec<&Value>) = sub_entries
                .iter()
                .partition(|e| e.get("type").and_then(Value::as_str) == Some("agent_metadata"));
            let meta = meta.last().map(|m| {
                let mut m = (*m).clone();
                if let Some(o) = m.as_object_mut() {
                    o.remove("type");
                }
                m.to_string()
            });
            subagents.push(raw::sessions::MaterializeSubagent {
                subpath: sub,
                text: jsonl(rest.into_iter()),
                meta,
            });
        }
    }
    let config_from = env_var("CLAUDE_CONFIG_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| home().join(".claude"));
    let global_from = env_var("CLAUDE_CONFIG_DIR").map(PathBuf::from).unwrap_or_else(home);
    let dir = std::env::temp_dir().join(format!("claude-resume-{}", raw::new_uuid()));
    let credential_env: std::collections::HashMap<String, String> =
        ["CLAUDE_CONFIG_DIR", "ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN"]
            .into_iter()
            .filter_map(|k| env_var(k).map(|v| (k.to_string(), v)))
            .collect();
    let request = raw::sessions::MaterializeRequest {
        dir: dir.clone(),
        project_key: project_key.clone(),
        session_id: session_id.clone(),
        text: jsonl(entries.iter()),
        subagents,
        config_from,
        global_from,
        // On macOS the credentials come from the login keychain when the CLI's environment names
        // no other source (agent-core's sessions/keychain.rs), as the official takes them.
        keychain: cfg!(target_os = "macos"),
        options_env: Some(credential_env),
        host_env: None,
    };
    crate::sessions::blocking("materialize", move || raw::sessions::materialize(&request)).await?;
    options.resume_dir = Some(Arc::new(ResumeDir(dir.clone())));
    let dir = dir
        .to_str()
        .ok_or_else(|| Error::Sessions(format!("the resume folder {dir:?} is not valid UTF-8")))?
        .to_string();
    let env = options.core.env.get_or_insert_default();
    env.insert("CLAUDE_CONFIG_DIR".into(), serde_json::Value::String(dir));
    options.core.resume = Some(session_id);
    options.core.continue_conversation = None;
    Ok(options)
}

/// What a store's `load` gave, checked before anything is written: objects with a string `type`
/// (the TypeScript SDK's check, with its wording); anything else is an error naming the session
/// (`about`) and the entry.
fn check_loaded(entries: &[Value], about: &str) -> Result<()> {
    for (i, e) in entries.iter().enumerate() {
        if !e.get("type").is_some_and(Value::is_string) {
            let shown: String = e.to_string().chars().take(80).collect();
            return Err(Error::Sessions(format!(
                "SessionStore.load() for {about}: corrupt entry {i} (not an object with a string \"type\"): {shown}"
            )));
        }
    }
    Ok(())
}

/// One JSON text per line, each line ended.
fn jsonl<'a>(entries: impl Iterator<Item = &'a Value>) -> String {
    let mut out = String::new();
    for e in entries {
        out.push_str(&e.to_string());
        out.push('\n');
    }
    out
}

fn home() -> PathBuf {
    PathBuf::from(
        std::env::var_os("HOME")
            .or_else(|| std::env::var_os("USERPROFILE"))
            .unwrap_or_default(),
    )
}
