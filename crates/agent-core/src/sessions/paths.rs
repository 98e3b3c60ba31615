//! Where transcripts live: the config directory, the projects folder, the folder name a project
//! path maps to, and the session-id check that keeps every path inside the projects folder.

use std::path::{Path, PathBuf};

/// Longest sanitized project folder name before it is cut and suffixed with a hash.
const MAX_KEY: usize = 200;

thread_local! {
  /// The config folder of the call running on this thread, when its caller named one.
  static CONFIG_DIR: std::cell::RefCell<Option<PathBuf>> = const { std::cell::RefCell::new(None) };
  /// Whether file times are truncated to the millisecond (Bun's `stats.mtime`) rather than
  /// rounded (Node's).
  static FLOOR_MTIME: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with `dir` as the config folder (a host whose `process.env` is not the process's
/// environment, as under Bun, passes the value it sees) and the host's rounding of file times.
pub fn with_config_dir<T>(dir: Option<PathBuf>, floor_mtime: bool, f: impl FnOnce() -> T) -> T {
  let prev = CONFIG_DIR.with(|c| c.replace(dir));
  let prev_floor = FLOOR_MTIME.with(|c| c.replace(floor_mtime));
  let out = f();
  CONFIG_DIR.with(|c| *c.borrow_mut() = prev);
  FLOOR_MTIME.with(|c| c.set(prev_floor));
  out
}

/// The current thread's file-time rounding (to hand to helper threads).
pub fn floor_mtime() -> bool {
  FLOOR_MTIME.with(|c| c.get())
}

/// Milliseconds of a duration since the epoch, as the host's `stats.mtime.getTime()` gives them.
pub fn host_ms(d: std::time::Duration) -> i64 {
  let ns = d.as_nanos();
  let floor = FLOOR_MTIME.with(|c| c.get());
  (if floor { ns / 1_000_000 } else { (ns + 500_000) / 1_000_000 }) as i64
}

/// The caller's config folder, else `$CLAUDE_CONFIG_DIR`, else `~/.claude`; read at each call,
/// as the official functions do.
pub fn config_dir() -> PathBuf {
  if let Some(dir) = CONFIG_DIR.with(|c| c.borrow().clone()) {
    return dir;
  }
  if let Some(dir) = std::env::var_os("CLAUDE_CONFIG_DIR").filter(|d| !d.is_empty()) {
    return PathBuf::from(dir);
  }
  let home = std::env::var_os("HOME").or_else(|| std::env::var_os("USERPROFILE")).unwrap_or_default();
  PathBuf::from(home).join(".claude")
}

pub fn projects_dir() -> PathBuf {
  config_dir().join("projects")
}

/// A session id is a UUID (any case). Only such ids are ever joined into a path, so an id can
/// never name a file outside its project folder.
pub fn is_uuid(s: &str) -> bool {
  let b = s.as_bytes();
  if b.len() != 36 {
    return false;
  }
  b.iter().enumerate().all(|(i, c)| match i {
    8 | 13 | 18 | 23 => *c == b'-',
    _ => c.is_ascii_hexdigit(),
  })
}

/// Every character that is not an ASCII letter or digit becomes '-', one per UTF-16 code unit
/// (the CLI does this on JavaScript strings).
pub fn sanitize(path: &str) -> String {
  let mut out = String::with_capacity(path.len());
  for c in path.chars() {
    if c.is_ascii_alphanumeric() {
      out.push(c);
    } else {
      for _ in 0..c.len_utf16() {
        out.push('-');
      }
    }
  }
  out
}

/// The CLI's 32-bit string hash (Java's `hashCode` over UTF-16 code units).
fn js_hash(s: &str) -> i32 {
  let mut h: i32 = 0;
  for u in s.encode_utf16() {
    h = h.wrapping_shl(5).wrapping_sub(h).wrapping_add(u as i32);
  }
  h
}

fn base36(mut n: u64) -> String {
  if n == 0 {
    return "0".into();
  }
  let mut digits = Vec::new();
  while n > 0 {
    digits.push(b"0123456789abcdefghijklmnopqrstuvwxyz"[(n % 36) as usize]);
    n /= 36;
  }
  digits.reverse();
  String::from_utf8(digits).unwrap_or_default()
}

/// The folder name of a project path under `projects/`.
pub fn project_key(path: &str) -> String {
  let s = sanitize(path);
  if s.len() <= MAX_KEY {
    return s;
  }
  format!("{}-{}", &s[..MAX_KEY], base36((js_hash(path) as i64).unsigned_abs()))
}

/// The real path of a directory (symlinks resolved), or the path as given when it cannot be
/// resolved.
pub fn real_dir(dir: &str) -> String {
  match std::fs::canonicalize(dir) {
    Ok(p) => p.to_string_lossy().into_owned(),
    Err(_) => normalize(dir),
  }
}

/// Lexical normalization of an absolute or relative path (`.`/`..` and repeated separators).
pub fn normalize(p: &str) -> String {
  let path = Path::new(p);
  let mut out = PathBuf::new();
  for comp in path.components() {
    match comp {
      std::path::Component::ParentDir => {
        out.pop();
      }
      std::path::Component::CurDir => {}
      c => out.push(c.as_os_str()),
    }
  }
  let s = out.to_string_lossy().into_owned();
  if s.is_empty() { ".".into() } else { s }
}

/// The project folders a project path maps to: its exact folder, and, for paths whose name was
/// cut at 200 characters, folders with the same prefix whose sessions ran in that path.
pub fn project_dirs_for(path: &str, projects: &Path) -> Vec<PathBuf> {
  let key = project_key(path);
  let exact = projects.join(&key);
  let mut out = Vec::new();
  if exact.is_dir() {
    out.push(exact.clone());
  }
  if key.len() <= MAX_KEY {
    return out;
  }
  let prefix = format!("{}-", &key[..MAX_KEY]);
  let wanted = sanitize(path);
  if let Ok(rd) = std::fs::read_dir(projects) {
    for ent in rd.flatten() {
      let name = ent.file_name().to_string_lossy().into_owned();
      let p = ent.path();
      if !name.starts_with(&prefix) || p == exact || !p.is_dir() {
        continue;
      }
      if super::info::folder_has_cwd(&p, &wanted) {
        out.push(p);
      }
    }
  }
  out
}

/// `git worktree list --porcelain` run in `dir`: the paths of the repository's worktrees
/// (empty when git is missing or `dir` is not in a repository).
pub fn git_worktrees(dir: &str) -> Vec<String> {
  let out = std::process::Command::new("git")
    .args(["-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=", "worktree", "list", "--porcelain"])
    .current_dir(dir)
    .stdin(std::process::Stdio::null())
    .stderr(std::process::Stdio::null())
    .output();
  match out {
    Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout)
      .lines()
      .filter_map(|l| l.strip_prefix("worktree "))
      .map(|p| normalize(p))
      .collect(),
    _ => Vec::new(),
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn keys() {
    assert_eq!(sanitize("/home/u/my proj.x"), "-home-u-my-proj-x");
    assert_eq!(sanitize("a\u{1F600}b"), "a--b");
    let long = format!("/{}", "a".repeat(300));
    let k = project_key(&long);
    assert!(k.starts_with(&format!("-{}", "a".repeat(199))));
    assert_eq!(k.len() > 201, true);
    assert!(is_uuid("0a1b2c3d-0000-4000-8000-00000000000A"));
    assert!(!is_uuid("../../etc/passwd"));
    assert!(!is_uuid("0a1b2c3d-0000-4000-8000-00000000000/"));
  }
}

/// A folder's entries sorted by name, as Node's `readdir` lists them (libuv sorts them): the
/// official functions' first-match rules depend on that order.
pub fn read_dir_sorted(dir: &Path) -> Vec<std::fs::DirEntry> {
  let Ok(rd) = std::fs::read_dir(dir) else { return Vec::new() };
  let mut v: Vec<std::fs::DirEntry> = rd.flatten().collect();
  v.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
  v
}
