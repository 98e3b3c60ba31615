//! A stored session written out for the CLI to resume (the `sessionStore` option with `resume`
//! or `continue`): a fresh, private config folder holding the session's transcript, its
//! subagents' transcripts and metadata, and copies of the files the CLI needs to run there
//! (credentials, global config, settings without the keys that would point elsewhere). The
//! entries come from the user's store (loaded by the host); this writes them, off the host's
//! event loop. On any failure the folder is removed.

use std::collections::HashMap;
use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Component, Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;

use super::mutate::Failure;

/// A subagent's transcript: where it goes under the session's folder, its JSONL, its metadata.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Subagent {
    /// `subagents/agent-<id>` (no `.jsonl`), relative to the session's folder.
    pub subpath: String,
    /// Its JSONL text (may be empty when it only has metadata).
    #[serde(default)]
    pub text: String,
    /// Its `.meta.json` text.
    #[serde(default)]
    pub meta: Option<String>,
}

/// What to write.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Request {
    /// The folder to create (it must not exist).
    pub dir: PathBuf,
    /// The project folder's name under `projects/`.
    pub project_key: String,
    pub session_id: String,
    /// The session's JSONL text.
    pub text: String,
    #[serde(default)]
    pub subagents: Vec<Subagent>,
    /// The config folder the session's credentials and settings are copied from.
    pub config_from: PathBuf,
    /// The folder holding the global `.claude.json`.
    pub global_from: PathBuf,
    /// Whether this platform keeps credentials in a login keychain (macOS) that the official
    /// consults ([`super::keychain`]).
    #[serde(default)]
    pub keychain: bool,
    /// The query's `env` option, when given (where the official looks for the variables that
    /// make it skip the keychain).
    #[serde(default)]
    pub options_env: Option<HashMap<String, String>>,
    /// The host's environment, when the host keeps its own (see [`super::keychain::read_for`]).
    #[serde(default)]
    pub host_env: Option<HashMap<String, String>>,
}

/// A name that is one plain path component (no separator, no `..`).
fn plain_name(s: &str) -> bool {
    !s.is_empty() && !s.contains(['/', '\\']) && s != "." && s != ".."
}

/// A subpath that stays inside the session's folder.
fn inside(sub: &str) -> bool {
    !sub.is_empty()
        && !Path::new(sub).is_absolute()
        && !sub.contains('\\')
        && Path::new(sub).components().all(|c| matches!(c, Component::Normal(_)))
}

fn private_dir(path: &Path) -> std::io::Result<()> {
    let mut b = fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
    b.create(path)
}

fn private_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut o = OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
    o.open(path)?.write_all(bytes)
}

/// The variants of the global config and of the hybrid settings the CLI may use (its OAuth
/// environments), as the official copies them.
const OAUTH_SUFFIXES: [&str; 4] = ["", "-staging-oauth", "-local-oauth", "-custom-oauth"];

/// Settings copied into the folder lose the keys that would point elsewhere (plugins and
/// marketplaces, the `CLAUDE_CONFIG_DIR` of their `env`). Text that is not a JSON object, or
/// that has none of them, is copied byte for byte.
fn clean_settings(bytes: Vec<u8>) -> Vec<u8> {
    let text = String::from_utf8_lossy(&bytes);
    let Ok(Value::Object(mut v)) = serde_json::from_str::<Value>(text.strip_prefix('\u{FEFF}').unwrap_or(&text)) else {
        return bytes;
    };
    let mut changed = false;
    for k in ["enabledPlugins", "extraKnownMarketplaces", "additionalMarketplaces"] {
        changed |= v.remove(k).is_some();
    }
    if let Some(Value::Object(env)) = v.get_mut("env") {
        changed |= env.remove("CLAUDE_CONFIG_DIR").is_some();
    }
    if !changed {
        return bytes;
    }
    serde_json::to_vec(&Value::Object(v)).unwrap_or(bytes)
}

/// Credentials without their refresh tokens (the resumed CLI must not rotate the user's).
fn without_refresh_tokens(bytes: Vec<u8>) -> Vec<u8> {
    let Ok(Value::Object(mut v)) = serde_json::from_slice::<Value>(&bytes) else {
        return bytes;
    };
    let mut changed = false;
    for k in ["claudeAiOauth", "hybridOauth"] {
        if let Some(Value::Object(o)) = v.get_mut(k) {
            // Removed when JavaScript would call it present (truthy), as the official does.
            let truthy = match o.get("refreshToken") {
                None | Some(Value::Null) | Some(Value::Bool(false)) => false,
                Some(Value::String(t)) => !t.is_empty(),
                Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0),
                Some(_) => true,
            };
            if truthy {
                o.remove("refreshToken");
                changed = true;
            }
        }
    }
    if !changed {
        return bytes;
    }
    serde_json::to_vec(&Value::Object(v)).unwrap_or(bytes)
}

/// A file written privately from another, transformed (a missing source is skipped).
fn write_from(from: &Path, to: &Path, transform: fn(Vec<u8>) -> Vec<u8>) -> std::io::Result<()> {
    match fs::read(from) {
        Ok(bytes) => private_file(to, &transform(bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// A file copied with its permissions (a missing source is skipped).
fn copy_from(from: &Path, to: &Path) -> std::io::Result<()> {
    match fs::copy(from, to) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// The credentials: the keychain's where the official asks it and it answers, else the config
/// folder's file (none when neither has them); without refresh tokens either way.
fn write_credentials(r: &Request) -> std::io::Result<()> {
    let file = match fs::read(r.config_from.join(".credentials.json")) {
        Ok(bytes) => Some(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    let from_keychain = if r.keychain {
        super::keychain::read_for(r.options_env.as_ref(), r.host_env.as_ref()).map_err(std::io::Error::other)?
    } else {
        None
    };
    match from_keychain.map(String::into_bytes).or(file) {
        Some(bytes) => private_file(&r.dir.join(".credentials.json"), &without_refresh_tokens(bytes)),
        None => Ok(()),
    }
}

fn write_all(r: &Request) -> std::io::Result<()> {
    let project_dir = r.dir.join("projects").join(&r.project_key);
    private_dir(&project_dir)?;
    private_file(&project_dir.join(format!("{}.jsonl", r.session_id)), r.text.as_bytes())?;
    write_credentials(r)?;
    for suffix in OAUTH_SUFFIXES {
        let name = format!(".claude{suffix}.json");
        copy_from(&r.global_from.join(&name), &r.dir.join(&name))?;
    }
    copy_from(&r.config_from.join(".config.json"), &r.dir.join(".config.json"))?;
    write_from(
        &r.config_from.join("settings.json"),
        &r.dir.join("settings.json"),
        clean_settings,
    )?;
    write_from(
        &r.config_from.join("cowork_settings.json"),
        &r.dir.join("cowork_settings.json"),
        clean_settings,
    )?;
    for suffix in OAUTH_SUFFIXES {
        let name = format!("hybrid-settings{suffix}.json");
        let from = r.config_from.join("state").join(&name);
        if fs::symlink_metadata(&from).is_ok_and(|m| m.is_file()) {
            private_dir(&r.dir.join("state"))?;
            copy_from(&from, &r.dir.join("state").join(&name))?;
        }
    }
    let base = project_dir.join(&r.session_id);
    for sub in r.subagents.iter().filter(|s| inside(&s.subpath)) {
        let file = base.join(format!("{}.jsonl", sub.subpath));
        if let Some(parent) = file.parent() {
            fs::create_dir_all(parent)?;
        }
        if !sub.text.is_empty() {
            private_file(&file, sub.text.as_bytes())?;
        }
        if let Some(meta) = &sub.meta {
            private_file(&base.join(format!("{}.meta.json", sub.subpath)), meta.as_bytes())?;
        }
    }
    Ok(())
}

/// Writes the folder. A bad request is refused before anything is written; a failed write
/// removes what was written.
pub fn materialize(r: &Request) -> Result<(), Failure> {
    let bad = |what: &str| {
        Err(Failure {
            message: format!("sessionStore: cannot resume: {what}"),
            safe: false,
            code: None,
        })
    };
    if !plain_name(&r.project_key) {
        return bad("the project key is not a folder name");
    }
    if !super::paths::is_uuid(&r.session_id) {
        return bad("the session id is not a UUID");
    }
    if r.dir.exists() {
        return bad("the folder to write exists already");
    }
    match write_all(r) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = fs::remove_dir_all(&r.dir);
            Err(Failure {
                message: format!(
                    "sessionStore: could not write the session to resume ({}): {e}",
                    r.dir.display()
                ),
                safe: false,
                code: None,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("materialize-test-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn writes_the_session_its_subagents_and_clean_copies_privately() {
        let config = temp("config");
        fs::create_dir_all(&config).unwrap();
        fs::write(
            config.join(".credentials.json"),
            r#"{"claudeAiOauth":{"accessToken":"a","refreshToken":"r"},"k":1}"#,
        )
        .unwrap();
        fs::create_dir_all(config.join("state")).unwrap();
        fs::write(config.join("state/hybrid-settings-local-oauth.json"), "{}").unwrap();
        fs::write(config.join("cowork_settings.json"), " {\"keep\": true} ").unwrap();
        fs::write(
            config.join("settings.json"),
            r#"{"model":"m","enabledPlugins":{"x":true},"env":{"CLAUDE_CONFIG_DIR":"/elsewhere","A":"1"}}"#,
        )
        .unwrap();
        let dir = temp("out");
        let id = "0a1b2c3d-4e5f-6789-abcd-ef0123456789";
        let r = Request {
            dir: dir.clone(),
            project_key: "-work-p".into(),
            session_id: id.into(),
            text: "{\"type\":\"user\"}\n".into(),
            subagents: vec![
                Subagent {
                    subpath: "subagents/agent-a1".into(),
                    text: "{\"a\":1}\n".into(),
                    meta: Some("{\"agentType\":\"x\"}".into()),
                },
                Subagent {
                    subpath: "../escape".into(),
                    text: "no\n".into(),
                    meta: None,
                },
                Subagent {
                    subpath: "/abs".into(),
                    text: "no\n".into(),
                    meta: None,
                },
            ],
            config_from: config.clone(),
            global_from: config.clone(),
            keychain: false,
            options_env: None,
            host_env: None,
        };
        materialize(&r).unwrap();
        let project = dir.join("projects/-work-p");
        assert_eq!(
            fs::read_to_string(project.join(format!("{id}.jsonl"))).unwrap(),
            "{\"type\":\"user\"}\n"
        );
        assert_eq!(
            fs::read_to_string(project.join(id).join("subagents/agent-a1.jsonl")).unwrap(),
            "{\"a\":1}\n"
        );
        assert_eq!(
            fs::read_to_string(project.join(id).join("subagents/agent-a1.meta.json")).unwrap(),
            "{\"agentType\":\"x\"}"
        );
        assert!(!project.join("escape.jsonl").exists() && !project.join(id).join("escape.jsonl").exists());
        assert_eq!(
            fs::read_to_string(dir.join(".credentials.json")).unwrap(),
            r#"{"claudeAiOauth":{"accessToken":"a"},"k":1}"#
        );
        assert_eq!(
            fs::read_to_string(dir.join("state/hybrid-settings-local-oauth.json")).unwrap(),
            "{}"
        );
        // Nothing to remove: the bytes as they were.
        assert_eq!(
            fs::read_to_string(dir.join("cowork_settings.json")).unwrap(),
            " {\"keep\": true} "
        );
        let settings: Value = serde_json::from_str(&fs::read_to_string(dir.join("settings.json")).unwrap()).unwrap();
        assert_eq!(settings, serde_json::json!({ "model": "m", "env": { "A": "1" } }));
        assert!(!dir.join(".config.json").exists());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                fs::metadata(project.join(format!("{id}.jsonl")))
                    .unwrap()
                    .permissions()
                    .mode()
                    & 0o777,
                0o600
            );
            assert_eq!(fs::metadata(&project).unwrap().permissions().mode() & 0o777, 0o700);
        }
        // Written twice into the same folder: refused, and the first stays.
        assert!(materialize(&r).is_err());
        assert!(project.join(format!("{id}.jsonl")).exists());
        fs::remove_dir_all(&dir).unwrap();
        fs::remove_dir_all(&config).unwrap();
    }

    #[test]
    fn bad_keys_and_ids_are_refused_before_anything_is_written() {
        let dir = temp("bad");
        let r = |key: &str, id: &str| Request {
            dir: dir.clone(),
            project_key: key.into(),
            session_id: id.into(),
            text: String::new(),
            subagents: vec![],
            config_from: dir.clone(),
            global_from: dir.clone(),
            keychain: false,
            options_env: None,
            host_env: None,
        };
        assert!(materialize(&r("../x", "0a1b2c3d-4e5f-6789-abcd-ef0123456789")).is_err());
        assert!(materialize(&r("p", "../../etc")).is_err());
        assert!(!dir.exists());
    }
}
