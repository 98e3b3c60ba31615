//! Session transcripts on disk, read and written without the CLI: the engine side of
//! `listSessions`, `getSessionInfo`, `getSessionMessages`, `listSubagents`,
//! `getSubagentMessages`, `renameSession`, `tagSession`, `archiveSession`, `deleteSession`,
//! `forkSession` and the local half of `importSessionToStore`.
//!
//! - [`paths`]: config dir, projects folder, project folder names, UUID checks, git worktrees.
//! - [`scan`]: field search in head/tail text (no JSON tree per line).
//! - [`info`]: one session's metadata from its first and last 64 KiB.
//! - [`list`]: which transcripts a listing holds, in which order; finding one session.
//! - [`transcript`]: transcript lines parsed to the few fields the chain needs.
//! - [`shared`]: work shared with a helper thread, in parts claimed from both ends.
//! - [`chain`]: the conversation chain (compaction, leaf, split assistant messages).
//! - [`messages`]: the `SessionMessage` output of a chain, subagents.
//! - [`mutate`], [`fork`], [`write`]: crash-safe changes.
//! - [`materialize`]: a stored session written out for the CLI to resume ([`keychain`]: the
//!   macOS login keychain as its credentials' source).
//!
//! [`call`] is the one entry point the bindings use: an operation name and JSON arguments in,
//! JSON text out. It does blocking file I/O: call it off any event loop thread.

pub mod chain;
pub mod cut;
pub mod dataflow;
pub mod fork;
pub mod hidden;
pub mod info;
pub mod list;
pub mod keychain;
pub mod materialize;
pub mod messages;
pub mod mutate;
pub mod paths;
pub mod precompact;
pub mod queued;
pub mod scan;
pub mod shared;
pub mod skim;
pub mod surrogate;
pub mod transcript;
pub mod voice;
pub mod write;

use serde_json::Value;

pub use mutate::Failure;

/// The processors this process may run on, looked up once (on Linux the lookup reads the
/// cgroup's quota files: a few system calls each time).
pub(crate) fn cpus() -> usize {
  static CPUS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
  *CPUS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

fn opt_str<'a>(a: &'a Value, k: &str) -> Option<&'a str> {
  a.get(k).and_then(Value::as_str)
}

fn opt_i64(a: &Value, k: &str) -> Option<i64> {
  a.get(k).and_then(|v| v.as_i64().or_else(|| v.as_f64().map(|f| f as i64)))
}

fn opt_bool(a: &Value, k: &str) -> Option<bool> {
  a.get(k).and_then(Value::as_bool)
}

fn page(a: &Value) -> messages::Page {
  messages::Page { limit: opt_i64(a, "limit"), offset: opt_i64(a, "offset"), pieces: opt_bool(a, "pieces").unwrap_or(false) }
}

/// Lines of a file that parse as JSON, as one JSON array text (for importing into a store).
fn entries_array(path: &std::path::Path) -> String {
  let Ok(bytes) = std::fs::read(path) else { return "[]".into() };
  let text = String::from_utf8_lossy(&bytes);
  let mut out = String::from("[");
  let mut first = true;
  for line in text.split('\n') {
    let line = line.trim();
    if line.is_empty() || serde_json::from_str::<serde::de::IgnoredAny>(line).is_err() {
      continue;
    }
    if !first {
      out.push(',');
    }
    first = false;
    out.push_str(line);
  }
  out.push(']');
  out
}

/// Session metadata as JSON text; `masked`: some was read with its lone surrogates masked,
/// which are written back as their escapes.
fn info_json<T: serde::Serialize>(v: &T, masked: bool) -> String {
  let text = serde_json::to_string(v).unwrap_or_else(|_| "null".into());
  if masked {
    surrogate::unmask(&text)
  } else {
    text
  }
}

/// Runs one operation. `args` is a JSON object (`configDir`, when present, is the config folder
/// to use instead of the environment's); the result is JSON text.
pub fn call(op: &str, args: &str) -> Result<String, Failure> {
  let a: Value = serde_json::from_str(args).map_err(|e| Failure { message: format!("sessions: bad arguments for {op}: {e}"), safe: false })?;
  let config = opt_str(&a, "configDir").filter(|d| !d.is_empty()).map(std::path::PathBuf::from);
  let floor = opt_bool(&a, "floorMtime").unwrap_or(false);
  let dir_name = opt_str(&a, "projectDirName").map(str::to_string);
  paths::with_config_dir(config, floor, || paths::with_dir_name(dir_name, || run(op, &a)))
}

fn run(op: &str, a: &Value) -> Result<String, Failure> {
  let id = opt_str(&a, "sessionId").unwrap_or("");
  let dir = opt_str(&a, "dir");
  Ok(match op {
    "list" => {
      let opts = list::ListOptions {
        dir: dir.map(str::to_string),
        limit: opt_i64(&a, "limit"),
        offset: opt_i64(&a, "offset"),
        include_worktrees: opt_bool(&a, "includeWorktrees"),
        include_programmatic: opt_bool(&a, "includeProgrammatic"),
      };
      let list = list::list_sessions(&opts);
      info_json(&list, list.iter().any(|i| i.masked))
    }
    "info" => match list::session_info(id, dir) {
      Some(i) => info_json(&i, i.masked),
      None => "null".into(),
    },
    "infoFromText" => {
      // A stored session's metadata: `text` is its JSONL, `mtime` its last change.
      let text = opt_str(&a, "text").unwrap_or("");
      let b = text.as_bytes();
      let ht = info::HeadTail {
        head: String::from_utf8_lossy(&b[..b.len().min(info::WINDOW)]).into_owned(),
        tail: String::from_utf8_lossy(&b[b.len().saturating_sub(info::WINDOW)..]).into_owned(),
        mtime_ms: opt_i64(&a, "mtime").unwrap_or(0),
        size: b.len() as u64,
      };
      match info::build(id, &ht, None, None, None) {
        Some(i) => info_json(&i, i.masked),
        None => "null".into(),
      }
    }
    "messages" => {
      // The official's CLAUDE_CODE_DISABLE_PRECOMPACT_SKIP ("1", "true", "yes" or "on"), as the
      // caller's runtime sees it, else as this process's environment has it.
      let skip = opt_bool(&a, "precompactSkip").unwrap_or_else(|| !std::env::var("CLAUDE_CODE_DISABLE_PRECOMPACT_SKIP").map_or(false, |v| matches!(v.trim().to_lowercase().as_str(), "1" | "true" | "yes" | "on")));
      messages::session_messages(id, dir, opt_bool(&a, "includeSystemMessages").unwrap_or(false), &page(&a), skip)
    }
    "messagesFromText" => messages::conversation_json(opt_str(&a, "text").unwrap_or(""), opt_bool(&a, "includeSystemMessages").unwrap_or(false), &page(&a)),
    "subagents" => serde_json::to_string(&messages::list_subagents(id, dir)).unwrap_or_else(|_| "[]".into()),
    "subagentMessages" => messages::subagent_messages(id, opt_str(&a, "agentId").unwrap_or(""), dir, &page(&a)),
    "subagentMessagesFromText" => messages::subagent_json(opt_str(&a, "text").unwrap_or(""), opt_str(&a, "toolUseId"), opt_str(&a, "parentAgentId"), &page(&a)),
    "append" => {
      mutate::append_line(id, dir, opt_str(&a, "line").unwrap_or(""))?;
      "null".into()
    }
    "archive" => {
      mutate::set_archived(id, dir, opt_bool(&a, "archived").unwrap_or(true))?;
      "null".into()
    }
    "delete" => {
      mutate::delete(id, dir)?;
      "null".into()
    }
    "fork" => {
      let new_id = fork::fork(id, dir, opt_str(&a, "upToMessageId"), opt_str(&a, "title"))?;
      serde_json::json!({ "sessionId": new_id }).to_string()
    }
    "forkText" => {
      // A fork of a stored session: `text` is its JSONL; the fork's entries come back as an array.
      let (new_id, text) = fork::build(id, opt_str(&a, "text").unwrap_or(""), opt_str(&a, "upToMessageId"), opt_str(&a, "title"), fork::TitleFrom::Entries)?;
      let lines: Vec<&str> = text.lines().collect();
      format!("{{\"sessionId\":{},\"entries\":[{}]}}", Value::String(new_id), lines.join(","))
    }
    "materialize" => {
      let r: materialize::Request = serde_json::from_value(a.clone()).map_err(|e| Failure { message: format!("sessions: bad arguments for materialize: {e}"), safe: false })?;
      materialize::materialize(&r)?
    }
    "exportEntries" => {
      // The transcript and (optionally) its subagents' transcripts with their metadata, for
      // `importSessionToStore`.
      let Some(loc) = mutate::locate(id, dir) else { return Ok("null".into()) };
      let mut out = format!("{{\"main\":{}", entries_array(&loc.path));
      if opt_bool(&a, "includeSubagents").unwrap_or(true) {
        let base = loc.path.with_extension("");
        let root = base.join("subagents");
        out.push_str(",\"subagents\":[");
        for (n, (_, file)) in messages::agent_files(&root).into_iter().enumerate() {
          let rel = file.strip_prefix(&base).map(|p| p.to_string_lossy().replace('\\', "/")).unwrap_or_default();
          let subpath = rel.strip_suffix(".jsonl").unwrap_or(&rel).to_string();
          let meta = std::fs::read_to_string(file.with_extension("meta.json")).ok().filter(|t| serde_json::from_str::<serde::de::IgnoredAny>(t).is_ok());
          if n > 0 {
            out.push(',');
          }
          out.push_str(&format!("{{\"subpath\":{},\"entries\":{},\"meta\":{}}}", Value::String(subpath), entries_array(&file), meta.as_deref().unwrap_or("null")));
        }
        out.push(']');
      }
      out.push('}');
      out
    }
    _ => return Err(Failure { message: format!("sessions: unknown operation {op}"), safe: false }),
  })
}
