//! `renameSession`, `tagSession`, `archiveSession`/`unarchiveSession`, `deleteSession`:
//! changes to a session on disk, each crash-safe (one appended line, or a file renamed into
//! place). Ids are checked to be UUIDs before any path is built from them.

use std::path::PathBuf;

use super::paths::Context;
use super::{info, list, paths, write};

/// A failed session operation: the message the official SDK gives, and whether it throws its
/// `TelemetrySafeError` (rather than a plain `Error`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Failure {
    /// What went wrong.
    pub message: String,
    /// Whether the official reports it as safe to send to telemetry (it names nothing private).
    pub safe: bool,
    /// The error's `code` when it is more precise than the binding's general one: a session
    /// file the fence refused ([`super::fence`]).
    pub code: Option<&'static str>,
}

impl Failure {
    fn plain(m: String) -> Self {
        Failure {
            message: m,
            safe: false,
            code: None,
        }
    }
    fn safe(m: String) -> Self {
        Failure {
            message: m,
            safe: true,
            code: None,
        }
    }

    /// A session file the fence refused: its code, and a message naming the session and file.
    pub(crate) fn refused(id: &str, r: &super::fence::Refused) -> Self {
        Failure {
            message: r.describe(&format!("Session {id}")),
            safe: false,
            code: r.code(),
        }
    }
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        Failure::plain(e.to_string())
    }
}

/// The project folders a mutation looks in: `dir`'s (and its worktrees'), or all of them.
fn folders(cx: &Context, dir: Option<&str>) -> Option<Vec<PathBuf>> {
    let projects = cx.projects_dir();
    match dir.filter(|d| !d.is_empty()) {
        Some(d) => {
            let real = paths::real_dir(d);
            let mut out: Vec<PathBuf> = paths::project_paths(d, &real, paths::WINDOWS)
                .iter()
                .flat_map(|p| info::project_dirs_for(cx, p, &projects))
                .collect();
            for tree in paths::git_worktrees(&real) {
                if tree != real {
                    out.extend(info::project_dirs_for(cx, &tree, &projects));
                }
            }
            Some(out)
        }
        None => {
            std::fs::read_dir(&projects).ok()?;
            Some(
                paths::read_dir_sorted(&projects)
                    .into_iter()
                    .map(|e| e.path())
                    .collect(),
            )
        }
    }
}

fn not_found(id: &str, dir: Option<&str>) -> String {
    match dir.filter(|d| !d.is_empty()) {
        Some(d) => format!("Session {id} not found in project directory for {d}"),
        None => format!("Session {id} not found in any project directory"),
    }
}

/// Appends one JSONL line (built by the caller) to the session's transcript.
pub(crate) fn append_line(cx: &Context, id: &str, dir: Option<&str>, line: &str) -> Result<(), Failure> {
    if !paths::is_uuid(id) {
        return Err(Failure::plain(format!("Invalid sessionId: {id}")));
    }
    let Some(dirs) = folders(cx, dir) else {
        return Err(Failure::plain(format!(
            "Session {id} not found (no projects directory)"
        )));
    };
    let file = format!("{id}.jsonl");
    for d in dirs {
        match write::append_existing(&d.join(&file), line) {
            Ok(true) => return Ok(()),
            Ok(false) => {}
            Err(super::fence::Refused::Io(e)) => return Err(e.into()),
            Err(r) => return Err(Failure::refused(id, &r)),
        }
    }
    Err(Failure::plain(not_found(id, dir)))
}

/// Writes `<project>/<id>/archived.json` beside every copy of the session.
pub fn set_archived(cx: &Context, id: &str, dir: Option<&str>, archived: bool) -> Result<(), Failure> {
    if !paths::is_uuid(id) {
        return Err(Failure::safe(format!("Invalid sessionId: {id}")));
    }
    let file = format!("{id}.jsonl");
    let mut found: Vec<PathBuf> = Vec::new();
    for d in folders(cx, dir).unwrap_or_default() {
        let p = d.join(&file);
        // Opened inside the fence: a transcript that is a link out, or a FIFO, is refused.
        match super::fence::open_read(&p) {
            Ok(f) if f.metadata().is_ok_and(|m| m.len() > 0) && !found.contains(&p) => found.push(p),
            Ok(_) | Err(super::fence::Refused::Io(_)) => {}
            Err(r) => return Err(Failure::refused(id, &r)),
        }
    }
    if found.is_empty() {
        return Err(Failure::safe(not_found(id, dir)));
    }
    let line = serde_json::json!({ "archived": archived, "at": write::now_iso(), "by": "sdk" }).to_string();
    for p in found {
        let folder = p.with_extension("");
        let mut b = std::fs::DirBuilder::new();
        b.recursive(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::DirBuilderExt;
            b.mode(0o700);
        }
        b.create(&folder)?;
        // The session's folder may be a link out of the tree: nothing is written through it.
        super::fence::dir_inside(&folder).map_err(|r| Failure::refused(id, &r))?;
        write::replace_file(&folder.join("archived.json"), line.as_bytes())?;
    }
    Ok(())
}

/// Removes the transcript and the session's folder (subagents, archive mark).
pub fn delete(cx: &Context, id: &str, dir: Option<&str>) -> Result<(), Failure> {
    if !paths::is_uuid(id) {
        return Err(Failure::plain(format!("Invalid sessionId: {id}")));
    }
    let file = format!("{id}.jsonl");
    for d in folders(cx, dir).unwrap_or_default() {
        let p = d.join(&file);
        match std::fs::metadata(&p) {
            Ok(m) if m.len() > 0 => {}
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound || e.raw_os_error() == Some(libc::ENOTDIR) => continue,
            Err(e) => return Err(e.into()),
        }
        match std::fs::remove_file(&p) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e.into()),
        }
        let folder = d.join(id);
        match std::fs::remove_dir_all(&folder) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e.into()),
        }
        return Ok(());
    }
    Err(Failure::plain(not_found(id, dir)))
}

/// The located transcript of a session, for reading (fork, import).
pub(crate) fn locate(cx: &Context, id: &str, dir: Option<&str>) -> Option<list::Located> {
    if !paths::is_uuid(id) {
        return None;
    }
    list::locate(cx, id, dir)
}
