//! `listSessions` and `getSessionInfo`: which transcript files belong to the listing, in which
//! order, and the lookup of one session by id (official `nj`, `xQ`, `HR`).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::info::{self, SessionInfo};
use super::paths::{self, Context};

/// What a listing lists (`listSessions`' options).
#[derive(Default, Clone, Debug, PartialEq, Eq)]
pub struct ListOptions {
    /// Only this project's sessions (and its worktrees'); every project's when `None`.
    pub dir: Option<String>,
    /// At most this many, newest first (`0` or less: no limit).
    pub limit: Option<i64>,
    /// Skip this many first.
    pub offset: Option<i64>,
    /// With the project's git worktrees (default: yes).
    pub include_worktrees: Option<bool>,
    /// With sessions started by programs (SDK entrypoints `sdk-ts`, `sdk-py`, `sdk-cli`,
    /// `sdk-rust`, and daemon sessions) (default: yes).
    pub include_programmatic: Option<bool>,
}

struct Candidate {
    session_id: String,
    path: PathBuf,
    mtime: i64,
    project_path: Option<String>,
    /// Whether the folder has an entry named after the session (where a sidecar title or an
    /// archive mark would be): without one, neither is looked up.
    side: bool,
    /// The listed project's paths and worktrees, when its worktrees were listed: a session that
    /// ran inside one of them is never taken for another project's.
    own: Option<std::sync::Arc<Vec<String>>>,
}

/// Transcripts of one project folder: `<uuid>.jsonl` files, with their mtime when `stat`.
fn candidates_in(
    cx: &Context,
    dir: &Path,
    stat: bool,
    project_path: Option<&str>,
    own: Option<&std::sync::Arc<Vec<String>>>,
    out: &mut Vec<Candidate>,
) {
    let entries = paths::read_dir_sorted(dir);
    let names: HashSet<std::ffi::OsString> = entries
        .iter()
        .map(|e| e.file_name())
        .filter(|n| !n.to_string_lossy().ends_with(".jsonl"))
        .collect();
    for ent in entries {
        let name = ent.file_name();
        let name = name.to_string_lossy();
        let Some(stem) = name.strip_suffix(".jsonl") else {
            continue;
        };
        if !paths::is_uuid(stem) {
            continue;
        }
        let path = ent.path();
        let mtime = if stat {
            match std::fs::metadata(&path) {
                Ok(m) => info::mtime_ms(&m, cx.floor_mtime),
                Err(_) => continue,
            }
        } else {
            0
        };
        let side = names.contains(std::ffi::OsStr::new(stem));
        out.push(Candidate {
            session_id: stem.to_string(),
            path,
            mtime,
            project_path: project_path.map(str::to_string),
            side,
            own: own.cloned(),
        });
    }
}

fn subdirs(dir: &Path) -> Vec<(String, PathBuf)> {
    paths::read_dir_sorted(dir)
        .into_iter()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()) || e.path().is_dir())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .collect()
}

fn candidates_for_dir(cx: &Context, dir: &str, worktrees: bool, stat: bool, projects: &Path) -> Vec<Candidate> {
    let real = paths::real_dir(dir);
    let project_paths = paths::project_paths(dir, &real, paths::WINDOWS);
    let trees = if worktrees {
        paths::git_worktrees(&real)
    } else {
        Vec::new()
    };
    let fold = |s: &str| paths::fold(s, paths::WINDOWS);
    let mut out = Vec::new();
    // Folders already listed (official `ej`/`NNe`): two project paths can map to one folder.
    let mut seen: HashSet<String> = HashSet::new();
    let own = (trees.len() > 1)
        .then(|| std::sync::Arc::new(project_paths.iter().chain(trees.iter()).cloned().collect::<Vec<_>>()));
    for p in &project_paths {
        for pd in info::project_dirs_for(cx, p, projects) {
            let name = pd
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if seen.insert(fold(&name)) {
                candidates_in(cx, &pd, stat, Some(p), own.as_ref(), &mut out);
            }
        }
    }
    if trees.len() <= 1 {
        return out;
    }
    let mut keyed: Vec<(String, String)> = trees.iter().map(|t| (fold(&cx.folder_name(t)), t.clone())).collect();
    keyed.sort_by_key(|k| std::cmp::Reverse(k.0.len()));
    for (name, path) in subdirs(projects) {
        let folded = fold(&name);
        if seen.contains(&folded) {
            continue;
        }
        for (key, tree) in &keyed {
            let cut = key.len() > 200
                && folded.starts_with(&format!("{}-", &key[..200]))
                && info::folder_has_cwd(&path, &paths::sanitize(tree), paths::WINDOWS);
            if &folded == key || cut {
                seen.insert(folded.clone());
                candidates_in(cx, &path, stat, Some(tree), own.as_ref(), &mut out);
                break;
            }
        }
    }
    out
}

fn describe(c: &Candidate, include_programmatic: bool, floor: bool) -> Option<SessionInfo> {
    let ht = info::read_head_tail(&c.path, floor)?;
    if !include_programmatic && super::scan::is_programmatic(&ht.head, &ht.tail) {
        return None;
    }
    if let Some(next) = info::continued_in(&ht.tail) {
        if info::continuation_exists(&c.path, &next) {
            return None;
        }
    }
    // A session of another project whose path maps to the same folder name is not this one's
    // (official `tj`: `/a/b-c` and `/a/b/c` both map to `-a-b-c`).
    if let Some(project) = c.project_path.as_deref() {
        if let Some(cwd) = info::session_cwd(&ht) {
            let ci = paths::CASE_INSENSITIVE;
            if !c.own.as_ref().is_some_and(|own| paths::within(&cwd, own, ci))
                && paths::other_project(&cwd, project, ci)
            {
                return None;
            }
        }
    }
    let mut found = if c.side {
        info::describe(&c.path, &c.session_id, &ht, c.project_path.as_deref())
    } else {
        info::build(&c.session_id, &ht, c.project_path.as_deref(), None, None)
    }?;
    if c.mtime != 0 {
        found.last_modified = c.mtime;
    }
    Some(found)
}

/// Describes candidates, shared with one helper thread from 16 on ([`super::shared::two_ended`]):
/// each file is two small reads, and this thread works too instead of waiting for helpers it
/// started (a thread started per call costs more than a file here).
fn describe_all(cands: &[Candidate], include_programmatic: bool, floor: bool) -> Vec<Option<SessionInfo>> {
    if !super::shared::worth_helping(cands.len(), DESCRIBE_SHARED_FROM) {
        return cands.iter().map(|c| describe(c, include_programmatic, floor)).collect();
    }
    type Described = Vec<(usize, Option<SessionInfo>)>;
    let (front, helped) = super::shared::two_ended(
        cands.len(),
        Described::new(),
        Some(Described::new()),
        |i, acc: &mut Described| acc.push((i, describe(&cands[i], include_programmatic, floor))),
    );
    let mut out: Vec<Option<SessionInfo>> = Vec::with_capacity(cands.len());
    out.resize_with(cands.len(), || None);
    for (i, found) in front.into_iter().chain(helped.into_iter().flat_map(|h| h.acc)) {
        out[i] = found;
    }
    out
}

/// From how many candidates a listing shares its work with a helper thread.
const DESCRIBE_SHARED_FROM: usize = 16;

/// The sessions a listing holds, newest first (official `listSessions`).
pub fn list_sessions(cx: &Context, opts: &ListOptions) -> Vec<SessionInfo> {
    let projects = cx.projects_dir();
    let offset = opts.offset.unwrap_or(0).max(0) as usize;
    let include_programmatic = opts.include_programmatic.unwrap_or(true);
    let paged = opts.limit.is_some_and(|l| l > 0) || offset > 0;
    let mut cands = match opts.dir.as_deref().filter(|d| !d.is_empty()) {
        Some(dir) => candidates_for_dir(cx, dir, opts.include_worktrees.unwrap_or(true), paged, &projects),
        None => {
            let mut out = Vec::new();
            for (_, p) in subdirs(&projects) {
                candidates_in(cx, &p, paged, None, None, &mut out);
            }
            out
        }
    };
    if !paged {
        let mut best: std::collections::HashMap<String, SessionInfo> = std::collections::HashMap::new();
        for found in describe_all(&cands, include_programmatic, cx.floor_mtime)
            .into_iter()
            .flatten()
        {
            match best.get(&found.session_id) {
                Some(prev) if found.last_modified <= prev.last_modified => {}
                _ => {
                    best.insert(found.session_id.clone(), found);
                }
            }
        }
        let mut all: Vec<SessionInfo> = best.into_values().collect();
        all.sort_by(|a, b| {
            b.last_modified
                .cmp(&a.last_modified)
                .then_with(|| b.session_id.cmp(&a.session_id))
        });
        return all;
    }
    cands.sort_by(|a, b| b.mtime.cmp(&a.mtime).then_with(|| b.session_id.cmp(&a.session_id)));
    let limit = opts.limit.filter(|l| *l > 0).map_or(usize::MAX, |l| l as usize);
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut skipped = 0;
    let mut i = 0;
    while i < cands.len() && out.len() < limit {
        let end = (i + 32).min(cands.len());
        for found in describe_all(&cands[i..end], include_programmatic, cx.floor_mtime) {
            if out.len() >= limit {
                break;
            }
            let Some(found) = found else { continue };
            if !seen.insert(found.session_id.clone()) {
                continue;
            }
            if skipped < offset {
                skipped += 1;
                continue;
            }
            out.push(found);
        }
        i = end;
    }
    out
}

/// Where a session's transcript is: its path and the project path it was found under.
pub(crate) struct Located {
    pub path: PathBuf,
    pub project_path: Option<String>,
}

fn non_empty_file(p: &Path) -> bool {
    std::fs::metadata(p).is_ok_and(|m| m.len() > 0)
}

/// Finds `<sessionId>.jsonl` (non-empty) under `dir`'s project folders and its worktrees', or
/// under every project folder. The id must already be a UUID.
pub(crate) fn locate(cx: &Context, session_id: &str, dir: Option<&str>) -> Option<Located> {
    debug_assert!(paths::is_uuid(session_id));
    let projects = cx.projects_dir();
    let file = format!("{session_id}.jsonl");
    match dir.filter(|d| !d.is_empty()) {
        Some(dir) => {
            let real = paths::real_dir(dir);
            let mut seen: HashSet<String> = HashSet::new();
            for p in paths::project_paths(dir, &real, paths::WINDOWS) {
                for pd in info::project_dirs_for(cx, &p, &projects) {
                    if !seen.insert(paths::fold(&pd.to_string_lossy(), paths::WINDOWS)) {
                        continue;
                    }
                    let f = pd.join(&file);
                    if non_empty_file(&f) {
                        return Some(Located {
                            path: f,
                            project_path: Some(p.clone()),
                        });
                    }
                }
            }
            for tree in paths::git_worktrees(&real) {
                if tree == real {
                    continue;
                }
                for pd in info::project_dirs_for(cx, &tree, &projects) {
                    let p = pd.join(&file);
                    if non_empty_file(&p) {
                        return Some(Located {
                            path: p,
                            project_path: Some(tree.clone()),
                        });
                    }
                }
            }
            None
        }
        None => {
            for ent in paths::read_dir_sorted(&projects) {
                let p = ent.path().join(&file);
                if non_empty_file(&p) {
                    return Some(Located {
                        path: p,
                        project_path: None,
                    });
                }
            }
            None
        }
    }
}

/// One session's listing entry (official `getSessionInfo`).
pub(crate) fn session_info(cx: &Context, session_id: &str, dir: Option<&str>) -> Option<SessionInfo> {
    if !paths::is_uuid(session_id) {
        return None;
    }
    let loc = locate(cx, session_id, dir)?;
    let ht = info::read_head_tail(&loc.path, cx.floor_mtime)?;
    info::describe(&loc.path, session_id, &ht, loc.project_path.as_deref())
}
