//! The worktrees `git worktree list --porcelain` prints for a folder, read from git's own files
//! instead of starting git (about 1.5 ms a call): the repository found as git's discovery finds
//! it (setup.c), the main worktree and the linked ones as worktree.c lists them, sorted as
//! builtin/worktree.c sorts them. [`worktrees`] answers only where it knows git's answer for
//! sure and returns `None` everywhere else, where the caller starts git as the official SDK does:
//! a GIT_* variable outside a known-harmless list, a git older than 2.29 (the main worktree's
//! path was not a real path before) or a script on PATH, a repository owned by another user
//! (git's `safe.directory` decides), a bare repository found by discovery
//! (`safe.bareRepository` decides), `core.worktree`, a repository format or extension outside
//! the few every such git accepts, config includes or any config text this module's strict
//! reader does not take, an unreadable file git would die on, paths git prints that a line
//! parser cannot carry. Linux only.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// Environment variables that do not change which repository git finds, how it reads its
/// config or what `worktree list` prints; any other `GIT_*` variable sends the call to git.
/// (`GIT_REFERENCE_BACKEND`: the official SDK sets it to `files` for the child.)
const HARMLESS_ENV: &[&str] = &[
    "GIT_ALLOW_PROTOCOL",
    "GIT_ASKPASS",
    "GIT_AUTHOR_DATE",
    "GIT_AUTHOR_EMAIL",
    "GIT_AUTHOR_NAME",
    "GIT_COMMITTER_DATE",
    "GIT_COMMITTER_EMAIL",
    "GIT_COMMITTER_NAME",
    "GIT_EDITOR",
    "GIT_FLUSH",
    "GIT_MERGE_AUTOEDIT",
    "GIT_MERGE_VERBOSITY",
    "GIT_OPTIONAL_LOCKS",
    "GIT_PAGER",
    "GIT_PROTOCOL_FROM_USER",
    "GIT_PROXY_COMMAND",
    "GIT_REFERENCE_BACKEND",
    "GIT_SEQUENCE_EDITOR",
    "GIT_SSH",
    "GIT_SSH_COMMAND",
    "GIT_SSH_VARIANT",
    "GIT_TERMINAL_PROMPT",
];

/// Families of variables for logs, the network and shell prompts (git-lfs's too).
const HARMLESS_PREFIXES: &[&str] = &[
    "GIT_TRACE",
    "GIT_SSL_",
    "GIT_HTTP_",
    "GIT_CURL_",
    "GIT_PS1_",
    "GIT_LFS_",
];

/// Whether an environment leaves git's discovery and config as this module reads them: no
/// `GIT_*` variable but the harmless ones.
pub(crate) fn env_is_plain<'a>(vars: impl IntoIterator<Item = &'a OsStr>) -> bool {
    vars.into_iter().all(|k| {
        let k = k.as_bytes();
        !k.starts_with(b"GIT_")
            || HARMLESS_PREFIXES.iter().any(|h| k.starts_with(h.as_bytes()))
            || HARMLESS_ENV.iter().any(|h| h.as_bytes() == k)
    })
}

/// What `git` on PATH is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Git {
    /// No `git` anywhere on PATH: starting it fails, and the official lists no worktrees.
    Missing,
    /// A git of this major and minor version.
    Version(u32, u32),
    /// Anything else (no PATH, a relative PATH entry, a script, an unreadable version).
    Unknown,
}

/// The first `git` an `execvp` of "git" would run, what it is, and the system config files it
/// may read: its version (and, from 2.42 on, its system config's path) is asked once per
/// binary (path, device, inode, size, change time), then remembered.
pub(crate) fn installed_git() -> (Git, Vec<PathBuf>) {
    use std::os::unix::fs::MetadataExt;
    type Key = (PathBuf, u64, u64, u64, i64, i64);
    type Seen = Option<(Key, Git, Vec<PathBuf>)>;
    static SEEN: std::sync::Mutex<Seen> = std::sync::Mutex::new(None);
    let Some(path_var) = std::env::var_os("PATH") else {
        return (Git::Unknown, Vec::new());
    };
    let mut found = None;
    for entry in path_var.as_bytes().split(|b| *b == b':') {
        if !entry.starts_with(b"/") {
            // Empty or relative: looked up from the child's cwd.
            return (Git::Unknown, Vec::new());
        }
        let candidate = Path::new(OsStr::from_bytes(entry)).join("git");
        match std::fs::metadata(&candidate) {
            Ok(m) if m.is_file() && executable(&candidate) => {
                found = Some((candidate, m));
                break;
            }
            _ => continue,
        }
    }
    let Some((path, m)) = found else {
        return (Git::Missing, Vec::new());
    };
    let key: Key = (path.clone(), m.dev(), m.ino(), m.size(), m.ctime(), m.ctime_nsec());
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((k, git, system)) = seen.as_ref() {
        if *k == key {
            return (*git, system.clone());
        }
    }
    let git = ask_version(&path);
    let system = system_configs(&path, git);
    *seen = Some((key, git, system.clone()));
    (git, system)
}

/// Where a git binary's system config may be: `/etc/gitconfig` (distributions), `etc/gitconfig`
/// beside the `bin` folder it is in or its real file is in (builds with another prefix), and
/// what `git var GIT_CONFIG_SYSTEM` says (2.42 on). All are read; any may be missing.
fn system_configs(binary: &Path, git: Git) -> Vec<PathBuf> {
    let mut v = vec![PathBuf::from("/etc/gitconfig")];
    let beside = |bin: &Path| bin.parent().and_then(Path::parent).map(|p| p.join("etc/gitconfig"));
    v.extend(beside(binary));
    if let Ok(real) = std::fs::canonicalize(binary) {
        v.extend(beside(&real));
    }
    if matches!(git, Git::Version(a, b) if (a, b) >= (2, 42)) {
        let out = std::process::Command::new(binary)
            .args(["var", "GIT_CONFIG_SYSTEM"])
            .stdin(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .output();
        if let Ok(o) = out {
            let text = o.stdout.strip_suffix(b"\n").unwrap_or(&o.stdout);
            if o.status.success() && text.starts_with(b"/") && !text.contains(&b'\n') {
                v.push(PathBuf::from(OsStr::from_bytes(text)));
            }
        }
    }
    let mut out: Vec<PathBuf> = Vec::new();
    for p in v {
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

fn executable(p: &Path) -> bool {
    let Ok(c) = std::ffi::CString::new(p.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: a NUL-terminated path; access(2) only reads it.
    unsafe { libc::access(c.as_ptr(), libc::X_OK) == 0 }
}

fn ask_version(path: &Path) -> Git {
    let mut head = [0u8; 2];
    let is_script = std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut head))
        .map(|_| &head == b"#!")
        .unwrap_or(true);
    if is_script {
        return Git::Unknown;
    }
    let out = std::process::Command::new(path)
        .arg("--version")
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output();
    match out {
        Ok(o) if o.status.success() => parse_version(&String::from_utf8_lossy(&o.stdout)).unwrap_or(Git::Unknown),
        _ => Git::Unknown,
    }
}

/// `git version 2.47.3` (also `2.39.5 (Apple Git-154)`, `2.47.1.windows.1`).
pub(crate) fn parse_version(s: &str) -> Option<Git> {
    let rest = s.strip_prefix("git version ")?;
    let mut it = rest.split(|c: char| !c.is_ascii_digit());
    let major = it.next()?.parse().ok()?;
    let minor = it.next()?.parse().ok()?;
    Some(Git::Version(major, minor))
}

/// The worktree paths `git worktree list --porcelain` would print in `dir` (a real, absolute
/// path), main first, or `None` where only git can say.
pub(crate) fn worktrees(dir: &str) -> Option<Vec<String>> {
    if !cfg!(target_os = "linux") {
        return None;
    }
    let names: Vec<std::ffi::OsString> = std::env::vars_os().map(|(k, _)| k).collect();
    if !env_is_plain(names.iter().map(|k| k.as_os_str())) {
        return None;
    }
    match installed_git() {
        (Git::Missing, _) => Some(Vec::new()),
        (Git::Version(major, minor), system) if (major, minor) >= (2, 29) => {
            let home = std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
            let xdg = std::env::var_os("XDG_CONFIG_HOME")
                .filter(|h| !h.is_empty())
                .map(PathBuf::from);
            let mut global = system;
            global.extend(user_configs(home.as_deref(), xdg.as_deref()));
            list(Path::new(dir), (major, minor), &global, nix::unistd::geteuid().as_raw())
        }
        _ => None,
    }
}

/// The user's config files git reads.
pub(crate) fn user_configs(home: Option<&Path>, xdg: Option<&Path>) -> Vec<PathBuf> {
    let mut v = Vec::new();
    if let Some(x) = xdg {
        v.push(x.join("git/config"));
    } else if let Some(h) = home {
        v.push(h.join(".config/git/config"));
    }
    if let Some(h) = home {
        v.push(h.join(".gitconfig"));
    }
    v
}

/// Where discovery stopped.
struct Found {
    /// The `.git` file, when the repository was named by one.
    gitfile: Option<PathBuf>,
    /// The folder holding `.git`.
    worktree: PathBuf,
    /// The repository (for a `.git` file, the real path of the folder it names).
    gitdir: PathBuf,
}

/// The listing for `dir` with this git version, these config files outside the repository and
/// this effective user id. `None`: start git.
pub(crate) fn list(dir: &Path, version: (u32, u32), global: &[PathBuf], euid: u32) -> Option<Vec<String>> {
    let Some(found) = discover(dir)? else {
        // No repository up to the root or the file system's edge: git fails.
        return Some(Vec::new());
    };
    for p in [
        found.gitfile.as_deref(),
        Some(found.worktree.as_path()),
        Some(found.gitdir.as_path()),
    ]
    .into_iter()
    .flatten()
    {
        if !owned_by(p, euid) {
            return None;
        }
    }
    // The common folder (setup.c `get_common_dir_noenv`).
    let commondir_file = found.gitdir.join("commondir");
    let has_common = std::fs::metadata(&commondir_file).is_ok();
    let commondir = if has_common {
        let data = std::fs::read(&commondir_file).ok().filter(|d| !d.is_empty())?;
        let mut end = data.len();
        while end > 0 && (data[end - 1] == b'\n' || data[end - 1] == b'\r') {
            end -= 1;
        }
        let data = &data[..end];
        if data.contains(&0) {
            return None;
        }
        let joined = if data.starts_with(b"/") {
            PathBuf::from(OsStr::from_bytes(data))
        } else {
            let mut s = found.gitdir.as_os_str().as_bytes().to_vec();
            s.push(b'/');
            s.extend_from_slice(data);
            PathBuf::from(OsStr::from_bytes(&s))
        };
        realpath(&joined, false)?
    } else {
        found.gitdir.clone()
    };

    // The repository format (setup.c `read_and_verify_repository_format`).
    let main_config = read_config(&commondir.join("config"))?;
    let mut ignore_case = false;
    let mut version_seen: i64 = -1;
    let mut worktree_config = false;
    let mut work_tree = false;
    for e in main_config.iter() {
        match e.key.as_str() {
            "core.repositoryformatversion" => version_seen = decimal(e.value.as_deref()?)?,
            "core.worktree" => work_tree = true,
            _ => {}
        }
    }
    if !(-1..=1).contains(&version_seen) {
        return None;
    }
    for e in main_config.iter() {
        let Some(ext) = e.key.strip_prefix("extensions.") else {
            continue;
        };
        match ext {
            "noop" => {}
            "preciousobjects" => {
                boolean(e.value.as_deref())?;
            }
            "worktreeconfig" => worktree_config = boolean(e.value.as_deref())?,
            "partialclone" => {
                e.value.as_ref()?;
            }
            "relativeworktrees" if version_seen == 1 && version >= (2, 48) => {
                boolean(e.value.as_deref())?;
            }
            _ => return None,
        }
    }
    if version_seen < 0 {
        // No format version: the extensions and core.worktree are not read.
        worktree_config = false;
        work_tree = false;
    } else if has_common && !worktree_config {
        // A linked worktree takes core.worktree from its own config only.
        work_tree = false;
    }
    let mut files = vec![(commondir.join("config"), main_config)];
    if worktree_config {
        let own = found.gitdir.join("config.worktree");
        let cfg = read_config(&own)?;
        if cfg.iter().any(|e| e.key == "core.worktree") {
            work_tree = true;
        }
        files.push((own, cfg));
    }
    if work_tree {
        return None;
    }
    // Read as well: the main worktree's own config (newer gits read its core.bare), the system
    // and user files (a syntax error there makes every git command fail).
    for f in std::iter::once(commondir.join("config.worktree")).chain(global.iter().cloned()) {
        if !files.iter().any(|(p, _)| *p == f) {
            let cfg = read_config(&f)?;
            files.push((f, cfg));
        }
    }
    for (_, cfg) in &files {
        for e in cfg {
            match e.key.as_str() {
                "core.bare" => {
                    boolean(e.value.as_deref())?;
                }
                "core.ignorecase" => ignore_case |= boolean(e.value.as_deref())?,
                _ => {}
            }
            if e.key.starts_with("include.") || e.key.starts_with("includeif.") {
                return None;
            }
        }
    }

    // The main worktree (worktree.c `get_main_worktree`).
    let main = realpath(&commondir, false)?;
    let main = main.as_os_str().as_bytes();
    let main = main.strip_suffix(b"/.git").unwrap_or(main).to_vec();
    if main.is_empty() {
        return None;
    }
    // The linked ones (`get_linked_worktree`), in any order: `list` sorts them.
    let mut linked: Vec<Vec<u8>> = Vec::new();
    if let Ok(rd) = std::fs::read_dir(commondir.join("worktrees")) {
        for ent in rd {
            let ent = ent.ok()?;
            let admin = ent.path();
            let Ok(text) = std::fs::read(admin.join("gitdir")) else {
                continue;
            };
            if text.is_empty() {
                continue;
            }
            if text.len() > 1 << 20 || text.contains(&0) {
                return None;
            }
            // `worktree_lock_reason` dies on a `locked` it cannot read.
            let locked = admin.join("locked");
            if std::fs::metadata(&locked).is_ok() && std::fs::read(&locked).is_err() {
                return None;
            }
            let mut end = text.len();
            while end > 0 && matches!(text[end - 1], b' ' | b'\t' | b'\n' | b'\r') {
                end -= 1;
            }
            let path = &text[..end];
            let path = path.strip_suffix(b"/.git").unwrap_or(path);
            let path = if path.starts_with(b"/") || version < (2, 48) {
                path.to_vec()
            } else {
                let mut s = admin.as_os_str().as_bytes().to_vec();
                s.push(b'/');
                s.extend_from_slice(path);
                realpath(Path::new(OsStr::from_bytes(&s)), true)?
                    .as_os_str()
                    .as_bytes()
                    .to_vec()
            };
            if path.is_empty() {
                return None;
            }
            linked.push(path);
        }
    }
    // builtin/worktree.c `pathsort`: `fspathcmp`, which ignores case when core.ignorecase is on.
    linked.sort();
    if ignore_case {
        let folded = |p: &[u8]| p.to_ascii_lowercase();
        for w in linked.windows(2) {
            if w[0] != w[1] && (folded(&w[0]) >= folded(&w[1]) || !w[0].is_ascii() || !w[1].is_ascii()) {
                return None;
            }
        }
    }
    let mut out = Vec::with_capacity(linked.len() + 1);
    for p in std::iter::once(main).chain(linked) {
        let s = String::from_utf8(p).ok()?;
        if s.contains('\n') {
            return None;
        }
        out.push(s);
    }
    Some(out)
}

/// Git's discovery from `dir` (setup.c `repo_discovery_find_dir`): `Some(None)` when there is
/// no repository up to the root or the file system's edge; `None` where git would fail in
/// another way, or a bare repository is found.
fn discover(dir: &Path) -> Option<Option<Found>> {
    use std::os::unix::fs::MetadataExt;
    if !dir.is_absolute() {
        return None;
    }
    let device = match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => m.dev(),
        // git cannot be started in it.
        Ok(_) => return Some(None),
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            return Some(None)
        }
        Err(_) => return None,
    };
    let mut cur = dir.to_path_buf();
    loop {
        let dotgit = cur.join(".git");
        match std::fs::metadata(&dotgit) {
            Ok(m) if m.is_dir() => {
                if is_git_directory(&dotgit)? {
                    return Some(Some(Found {
                        gitfile: None,
                        worktree: cur,
                        gitdir: dotgit,
                    }));
                }
            }
            Ok(m) if m.is_file() => {
                // `read_gitfile_gently`: anything wrong with it makes git die.
                if m.len() > 1 << 20 {
                    return None;
                }
                let text = std::fs::read(&dotgit).ok()?;
                let rest = text.strip_prefix(b"gitdir: ")?;
                let mut end = rest.len();
                while end > 0 && (rest[end - 1] == b'\n' || rest[end - 1] == b'\r') {
                    end -= 1;
                }
                let target = &rest[..end];
                if target.is_empty() || target.contains(&0) {
                    return None;
                }
                let target = if target.starts_with(b"/") {
                    PathBuf::from(OsStr::from_bytes(target))
                } else {
                    let mut s = cur.as_os_str().as_bytes().to_vec();
                    if !s.ends_with(b"/") {
                        s.push(b'/');
                    }
                    s.extend_from_slice(target);
                    PathBuf::from(OsStr::from_bytes(&s))
                };
                if !is_git_directory(&target)? {
                    return None;
                }
                return Some(Some(Found {
                    gitfile: Some(dotgit),
                    worktree: cur,
                    gitdir: realpath(&target, false)?,
                }));
            }
            Ok(_) => return None,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                ) => {}
            Err(_) => return None,
        }
        if is_git_directory(&cur)? {
            return None;
        }
        let Some(parent) = cur.parent() else {
            return Some(None);
        };
        if std::fs::metadata(parent).ok()?.dev() != device {
            // `GIT_DIR_HIT_MOUNT_POINT`
            return Some(None);
        }
        cur = parent.to_path_buf();
    }
}

/// setup.c `is_git_directory`: a valid HEAD, and `objects` and `refs` in the common folder that
/// this user may enter. `None`: a `commondir` file git would die reading.
fn is_git_directory(dir: &Path) -> Option<bool> {
    if !valid_head(&dir.join("HEAD")) {
        return Some(false);
    }
    let commondir_file = dir.join("commondir");
    let common = if std::fs::metadata(&commondir_file).is_ok() {
        let data = std::fs::read(&commondir_file).ok().filter(|d| !d.is_empty())?;
        let mut end = data.len();
        while end > 0 && (data[end - 1] == b'\n' || data[end - 1] == b'\r') {
            end -= 1;
        }
        let data = &data[..end];
        let joined = if data.starts_with(b"/") {
            PathBuf::from(OsStr::from_bytes(data))
        } else {
            let mut s = dir.as_os_str().as_bytes().to_vec();
            s.push(b'/');
            s.extend_from_slice(data);
            PathBuf::from(OsStr::from_bytes(&s))
        };
        // `strbuf_add_real_path` dies when it cannot resolve it.
        realpath(&joined, false)?
    } else {
        dir.to_path_buf()
    };
    Some(executable(&common.join("objects")) && executable(&common.join("refs")))
}

/// setup.c `validate_headref`.
fn valid_head(path: &Path) -> bool {
    let Ok(m) = std::fs::symlink_metadata(path) else {
        return false;
    };
    if m.file_type().is_symlink() {
        return std::fs::read_link(path).is_ok_and(|t| t.as_os_str().as_bytes().starts_with(b"refs/"));
    }
    let Ok(f) = std::fs::File::open(path) else {
        return false;
    };
    let mut buf = Vec::with_capacity(255);
    if std::io::Read::read_to_end(&mut std::io::Read::take(f, 255), &mut buf).is_err() {
        return false;
    }
    if let Some(rest) = buf.strip_prefix(b"ref:") {
        let start = rest
            .iter()
            .position(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
            .unwrap_or(rest.len());
        if rest[start..].starts_with(b"refs/") {
            return true;
        }
    }
    let hex = buf.iter().take_while(|b| b.is_ascii_hexdigit()).count();
    hex >= 40
}

/// `is_path_owned_by_current_user`: `lstat`'s owner is this user (root: root). A root user
/// looking at another user's files is sent to git (it consults `SUDO_UID`).
fn owned_by(p: &Path, euid: u32) -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::symlink_metadata(p).is_ok_and(|m| m.uid() == euid)
}

/// abspath.c `strbuf_realpath_1`: symlinks resolved component by component; `many_missing`:
/// any number of trailing components may be missing (`strbuf_realpath_forgiving`), else only
/// the last. `None` where git's call fails.
pub(crate) fn realpath(path: &Path, many_missing: bool) -> Option<PathBuf> {
    let path = path.as_os_str().as_bytes();
    if !path.starts_with(b"/") {
        return None;
    }
    let mut resolved: Vec<u8> = b"/".to_vec();
    let mut remaining: Vec<u8> = path[1..].to_vec();
    let mut links = 0;
    let strip_last = |r: &mut Vec<u8>| {
        let mut len = r.len();
        while len > 1 && r[len - 1] != b'/' {
            len -= 1;
        }
        while len > 1 && r[len - 1] == b'/' {
            len -= 1;
        }
        r.truncate(len);
    };
    while !remaining.is_empty() {
        let start = remaining.iter().position(|b| *b != b'/').unwrap_or(remaining.len());
        let end = remaining[start..]
            .iter()
            .position(|b| *b == b'/')
            .map_or(remaining.len(), |i| start + i);
        let next = remaining[start..end].to_vec();
        remaining.drain(..end);
        if next.is_empty() || next == b"." {
            continue;
        }
        if next == b".." {
            strip_last(&mut resolved);
            continue;
        }
        if resolved.last() != Some(&b'/') {
            resolved.push(b'/');
        }
        resolved.extend_from_slice(&next);
        match std::fs::symlink_metadata(OsStr::from_bytes(&resolved)) {
            Err(e) => {
                if e.kind() != std::io::ErrorKind::NotFound || (!many_missing && !remaining.is_empty()) {
                    return None;
                }
            }
            Ok(m) if m.file_type().is_symlink() => {
                links += 1;
                if links > 32 {
                    return None;
                }
                let target = std::fs::read_link(OsStr::from_bytes(&resolved)).ok()?;
                let mut target = target.as_os_str().as_bytes().to_vec();
                if target.starts_with(b"/") {
                    resolved = b"/".to_vec();
                    target.remove(0);
                } else {
                    strip_last(&mut resolved);
                }
                if !remaining.is_empty() {
                    target.push(b'/');
                    target.extend_from_slice(&remaining);
                }
                remaining = target;
            }
            Ok(_) => {}
        }
    }
    Some(PathBuf::from(OsStr::from_bytes(&resolved)))
}

/// One `key = value` of a config file: `section[.subsection].key` (section and key lower-cased)
/// and the value (`None`: the key alone, which reads as true).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    pub key: String,
    pub value: Option<String>,
}

/// A config file's entries: empty when it does not exist, `None` when it cannot be read or is
/// not text [`parse_config`] takes.
fn read_config(path: &Path) -> Option<Vec<Entry>> {
    match std::fs::read(path) {
        Ok(text) => parse_config(&text),
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            Some(Vec::new())
        }
        Err(_) => None,
    }
}

/// Git's config syntax (config.c `git_parse_source`), strictly: `None` for everything git
/// rejects and for the rarer forms git takes that this reader does not (a NUL, a lone CR, a
/// key outside any section, a non-UTF-8 name or value).
pub(crate) fn parse_config(text: &[u8]) -> Option<Vec<Entry>> {
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    if text.contains(&0) {
        return None;
    }
    // Characters as `get_next_char` gives them: CR LF is LF, the end is a final LF.
    let mut chars: Vec<u8> = Vec::with_capacity(text.len() + 1);
    let mut i = 0;
    while i < text.len() {
        if text[i] == b'\r' {
            if text.get(i + 1) == Some(&b'\n') {
                i += 1;
                continue;
            }
            return None;
        }
        chars.push(text[i]);
        i += 1;
    }
    let n = chars.len();
    chars.push(b'\n');
    let space = |c: u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r');
    let keychar = |c: u8| c.is_ascii_alphanumeric() || c == b'-';
    let mut out = Vec::new();
    let mut section: Option<String> = None;
    let mut pos = 0;
    let mut comment = false;
    while pos < n {
        let c = chars[pos];
        pos += 1;
        if c == b'\n' {
            comment = false;
            continue;
        }
        if comment || space(c) {
            continue;
        }
        if c == b'#' || c == b';' {
            comment = true;
            continue;
        }
        if c == b'[' {
            let mut name = Vec::new();
            loop {
                if pos >= n {
                    return None;
                }
                let c = chars[pos];
                pos += 1;
                if c == b']' {
                    break;
                }
                if space(c) {
                    // `[section "subsection"]`
                    let mut c = c;
                    while space(c) {
                        if c == b'\n' || pos >= n {
                            return None;
                        }
                        c = chars[pos];
                        pos += 1;
                    }
                    if c != b'"' {
                        return None;
                    }
                    name.push(b'.');
                    loop {
                        if pos >= n {
                            return None;
                        }
                        let mut c = chars[pos];
                        pos += 1;
                        if c == b'\n' {
                            return None;
                        }
                        if c == b'"' {
                            break;
                        }
                        if c == b'\\' {
                            if pos >= n {
                                return None;
                            }
                            c = chars[pos];
                            pos += 1;
                            if c == b'\n' {
                                return None;
                            }
                        }
                        name.push(c);
                    }
                    if pos >= n || chars[pos] != b']' {
                        return None;
                    }
                    pos += 1;
                    break;
                }
                if !keychar(c) && c != b'.' {
                    return None;
                }
                name.push(c.to_ascii_lowercase());
            }
            if name.is_empty() || name.starts_with(b".") {
                return None;
            }
            section = Some(String::from_utf8(name).ok()?);
            continue;
        }
        if !c.is_ascii_alphabetic() {
            return None;
        }
        let mut key = vec![c.to_ascii_lowercase()];
        let mut c = chars[pos];
        pos += 1;
        while pos <= n && keychar(c) {
            key.push(c.to_ascii_lowercase());
            c = chars[pos];
            pos += 1;
        }
        while c == b' ' || c == b'\t' {
            c = chars[pos];
            pos += 1;
        }
        let value = if c == b'\n' {
            None
        } else if c != b'=' {
            return None;
        } else {
            // `parse_value`
            let mut v: Vec<u8> = Vec::new();
            let mut quote = false;
            let mut in_comment = false;
            let mut spaces = 0usize;
            loop {
                if pos > n {
                    return None;
                }
                let mut c = chars[pos];
                pos += 1;
                if c == b'\n' {
                    if quote {
                        return None;
                    }
                    break;
                }
                if in_comment {
                    continue;
                }
                if space(c) && !quote {
                    if !v.is_empty() {
                        spaces += 1;
                    }
                    continue;
                }
                if !quote && (c == b';' || c == b'#') {
                    in_comment = true;
                    continue;
                }
                v.extend(std::iter::repeat_n(b' ', spaces));
                spaces = 0;
                if c == b'\\' {
                    if pos >= n {
                        return None;
                    }
                    c = chars[pos];
                    pos += 1;
                    match c {
                        b'\n' => continue,
                        b't' => c = b'\t',
                        b'b' => c = 8,
                        b'n' => c = b'\n',
                        b'\\' | b'"' => {}
                        _ => return None,
                    }
                    v.push(c);
                    continue;
                }
                if c == b'"' {
                    quote = !quote;
                    continue;
                }
                v.push(c);
            }
            Some(String::from_utf8(v).ok()?)
        };
        // Past the line's end: the line it ended is done.
        pos -= 1;
        let section = section.as_ref()?;
        out.push(Entry {
            key: format!("{section}.{}", String::from_utf8(key).ok()?),
            value,
        });
    }
    Some(out)
}

/// `git_config_bool`, for the values every git reads the same way; `None` for the rest.
pub(crate) fn boolean(v: Option<&str>) -> Option<bool> {
    let Some(v) = v else { return Some(true) };
    match v.to_ascii_lowercase().as_str() {
        "" | "false" | "no" | "off" => Some(false),
        "true" | "yes" | "on" => Some(true),
        s => decimal(s).map(|n| n != 0),
    }
}

/// A plain decimal (git also takes `0x`, octal and `k`/`m`/`g` suffixes: those go to git).
fn decimal(s: &str) -> Option<i64> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || (digits.len() > 1 && digits.starts_with('0'))
    {
        return None;
    }
    s.parse().ok()
}

// The read is Linux's only (elsewhere git is always started).
#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::process::Command;

    /// Real repositories made by the real `git`, in a folder of their own; the user's config
    /// is this folder's (`HOME`), the system's is not read.
    struct Sandbox {
        base: PathBuf,
        version: (u32, u32),
    }

    impl Sandbox {
        fn new(name: &str) -> Sandbox {
            let base = std::env::temp_dir().join(format!("gitmeta-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&base);
            std::fs::create_dir_all(&base).unwrap();
            let base = std::fs::canonicalize(base).unwrap();
            let (Git::Version(a, b), _) = installed_git() else {
                panic!("these tests need git on PATH");
            };
            Sandbox { base, version: (a, b) }
        }

        fn cmd(&self, cwd: &Path) -> Command {
            let mut c = Command::new("git");
            for (k, _) in std::env::vars_os() {
                if k.as_bytes().starts_with(b"GIT_") {
                    c.env_remove(k);
                }
            }
            c.current_dir(cwd)
                .env("HOME", &self.base)
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .stdin(std::process::Stdio::null());
            c
        }

        fn git(&self, cwd: &Path, args: &[&str]) {
            let out = self
                .cmd(cwd)
                .args([
                    "-c",
                    "user.name=t",
                    "-c",
                    "user.email=t@example.com",
                    "-c",
                    "init.defaultBranch=main",
                ])
                .args(args)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "git {args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }

        /// A repository at `rel` with one commit.
        fn repo(&self, rel: &str) -> PathBuf {
            let d = self.base.join(rel);
            std::fs::create_dir_all(&d).unwrap();
            self.git(&d, &["init", "-q"]);
            self.git(&d, &["commit", "-q", "--allow-empty", "-m", "one"]);
            d
        }

        /// What the official SDK gets: `git worktree list --porcelain` run as it runs it, its
        /// `worktree ` lines (nothing when git fails).
        fn by_git(&self, dir: &Path) -> Vec<String> {
            let out = self
                .cmd(dir)
                .env("GIT_REFERENCE_BACKEND", "files")
                .args(crate::sessions::worktree_list::WORKTREE_LIST)
                .output()
                .unwrap();
            if !out.status.success() {
                return Vec::new();
            }
            crate::sessions::worktree_list::worktree_lines(&out.stdout)
        }

        fn read(&self, dir: &Path) -> Option<Vec<String>> {
            self.read_as(dir, self.version, nix::unistd::geteuid().as_raw())
        }

        fn read_as(&self, dir: &Path, version: (u32, u32), euid: u32) -> Option<Vec<String>> {
            list(dir, version, &user_configs(Some(&self.base), None), euid)
        }

        /// The list read from the files, which must be taken and be git's.
        fn same(&self, dir: &Path) -> Vec<String> {
            let want = self.by_git(dir);
            let got = self.read(dir);
            assert_eq!(got.as_ref(), Some(&want), "in {}", dir.display());
            want
        }

        fn s(&self, rel: &str) -> String {
            self.base.join(rel).to_string_lossy().into_owned()
        }
    }

    impl Drop for Sandbox {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.base);
        }
    }

    #[test]
    fn plain_repository_from_its_folder_and_below() {
        let sb = Sandbox::new("plain");
        let repo = sb.repo("r");
        assert_eq!(sb.same(&repo), vec![sb.s("r")]);
        std::fs::create_dir_all(repo.join("a/b")).unwrap();
        assert_eq!(sb.same(&repo.join("a/b")), vec![sb.s("r")]);
        // No repository at all: git fails and the official lists nothing.
        std::fs::create_dir_all(sb.base.join("none/x")).unwrap();
        assert_eq!(sb.same(&sb.base.join("none/x")), Vec::<String>::new());
        // A folder that is not there, or a file: git cannot start in it.
        assert_eq!(sb.read(&sb.base.join("missing")), Some(vec![]));
        std::fs::write(sb.base.join("file"), "x").unwrap();
        assert_eq!(sb.read(&sb.base.join("file")), Some(vec![]));
    }

    #[test]
    fn linked_worktrees_sorted_from_everywhere() {
        let sb = Sandbox::new("linked");
        let repo = sb.repo("r");
        for name in ["zeta", "alpha", "Mid", "mid2"] {
            sb.git(&repo, &["worktree", "add", "-q", &sb.s(&format!("wt/{name}"))]);
        }
        let want = vec![
            sb.s("r"),
            sb.s("wt/Mid"),
            sb.s("wt/alpha"),
            sb.s("wt/mid2"),
            sb.s("wt/zeta"),
        ];
        assert_eq!(sb.same(&repo), want);
        let alpha = sb.base.join("wt/alpha");
        std::fs::create_dir_all(alpha.join("deep/er")).unwrap();
        for d in [
            alpha.clone(),
            alpha.join("deep/er"),
            sb.base.join("wt/zeta"),
            repo.join(".git"),
        ] {
            if d.ends_with(".git") {
                // Inside the repository's own folder: git finds it as a bare one; left to git.
                assert_eq!(sb.read(&d), None);
                continue;
            }
            assert_eq!(sb.same(&d), want);
        }
        // Locked (with and without a reason) and prunable (its folder deleted) ones are listed.
        sb.git(
            &repo,
            &["worktree", "lock", "--reason", "on a\nstick", &sb.s("wt/alpha")],
        );
        sb.git(&repo, &["worktree", "lock", &sb.s("wt/mid2")]);
        std::fs::remove_dir_all(sb.base.join("wt/zeta")).unwrap();
        assert_eq!(sb.same(&repo), want);
        assert_eq!(sb.same(&sb.base.join("wt/Mid")), want);
        // An entry whose gitdir file is gone, empty or padded, and stray files: as git reads them.
        let admin = repo.join(".git/worktrees");
        std::fs::remove_file(admin.join("Mid/gitdir")).unwrap();
        std::fs::create_dir_all(admin.join("empty")).unwrap();
        std::fs::write(admin.join("empty/gitdir"), "").unwrap();
        std::fs::create_dir_all(admin.join("padded")).unwrap();
        std::fs::write(
            admin.join("padded/gitdir"),
            format!("{}/.git \t\r\n\n", sb.s("else/where")),
        )
        .unwrap();
        std::fs::create_dir_all(admin.join("dir-gitdir/gitdir")).unwrap();
        std::fs::write(admin.join("stray"), "x").unwrap();
        let got = sb.same(&repo);
        assert_eq!(
            got,
            vec![
                sb.s("r"),
                sb.s("else/where"),
                sb.s("wt/alpha"),
                sb.s("wt/mid2"),
                sb.s("wt/zeta")
            ]
        );
        // A `locked` git cannot read makes it die: left to git.
        std::fs::create_dir_all(admin.join("alpha/locked-dir")).unwrap();
        std::fs::remove_file(admin.join("alpha/locked")).unwrap();
        std::fs::create_dir_all(admin.join("alpha/locked")).unwrap();
        assert_eq!(sb.read(&repo), None);
        assert_eq!(sb.by_git(&repo), Vec::<String>::new(), "git dies reading it");
    }

    #[test]
    fn bare_repository_with_worktrees() {
        let sb = Sandbox::new("bare");
        let src = sb.repo("src");
        sb.git(&sb.base, &["clone", "-q", "--bare", &src.to_string_lossy(), "proj.git"]);
        let bare = sb.base.join("proj.git");
        sb.git(&bare, &["worktree", "add", "-q", &sb.s("proj/feature")]);
        sb.git(&bare, &["worktree", "add", "-q", &sb.s("proj/main-wt"), "main"]);
        let want = vec![sb.s("proj.git"), sb.s("proj/feature"), sb.s("proj/main-wt")];
        assert_eq!(sb.same(&sb.base.join("proj/feature")), want);
        std::fs::create_dir_all(sb.base.join("proj/main-wt/sub")).unwrap();
        assert_eq!(sb.same(&sb.base.join("proj/main-wt/sub")), want);
        // In the bare repository itself git's `safe.bareRepository` decides: left to git.
        assert_eq!(sb.read(&bare), None);
        assert_eq!(sb.read(&bare.join("refs")), None);
        assert_eq!(sb.by_git(&bare), want);
    }

    #[test]
    fn gitfile_elsewhere_and_symlinks() {
        let sb = Sandbox::new("gitfile");
        // `.git` a file naming a repository elsewhere (as `--separate-git-dir` and submodules make).
        std::fs::create_dir_all(sb.base.join("work")).unwrap();
        std::fs::create_dir_all(sb.base.join("store")).unwrap();
        sb.git(
            &sb.base.join("work"),
            &["init", "-q", "--separate-git-dir", &sb.s("store/work.git")],
        );
        sb.git(&sb.base.join("work"), &["commit", "-q", "--allow-empty", "-m", "one"]);
        assert_eq!(sb.same(&sb.base.join("work")), vec![sb.s("store/work.git")]);
        sb.git(&sb.base.join("work"), &["worktree", "add", "-q", &sb.s("work-b")]);
        assert_eq!(
            sb.same(&sb.base.join("work-b")),
            vec![sb.s("store/work.git"), sb.s("work-b")]
        );
        // A relative `gitdir:` line.
        std::fs::write(sb.base.join("work/.git"), "gitdir: ../store/work.git\n").unwrap();
        assert_eq!(
            sb.same(&sb.base.join("work")),
            vec![sb.s("store/work.git"), sb.s("work-b")]
        );

        // Worktrees added through a symlinked path, and a `.git` that is a symlink.
        let repo = sb.repo("real/r");
        std::os::unix::fs::symlink(sb.base.join("real"), sb.base.join("link")).unwrap();
        sb.git(&repo, &["worktree", "add", "-q", &sb.s("link/through-link")]);
        let via_link = sb.same(&repo);
        assert_eq!(via_link.len(), 2);
        assert_eq!(sb.same(&sb.base.join("real/through-link")), via_link);
        let moved = sb.repo("m");
        std::fs::rename(moved.join(".git"), sb.base.join("m-git")).unwrap();
        std::os::unix::fs::symlink(sb.base.join("m-git"), moved.join(".git")).unwrap();
        assert_eq!(sb.same(&moved), vec![sb.s("m-git")]);

        // A `.git` file git cannot use makes it die: left to git.
        let broken = sb.base.join("broken");
        std::fs::create_dir_all(&broken).unwrap();
        std::fs::write(broken.join(".git"), "not a gitfile\n").unwrap();
        assert_eq!(sb.read(&broken), None);
        std::fs::write(broken.join(".git"), "gitdir: /nowhere\n").unwrap();
        assert_eq!(sb.read(&broken), None);
        assert_eq!(sb.by_git(&broken), Vec::<String>::new());
        // core.worktree (submodules have it): left to git.
        let cw = sb.repo("cw");
        sb.git(&cw, &["config", "core.worktree", &cw.to_string_lossy()]);
        assert_eq!(sb.read(&cw), None);
    }

    #[test]
    fn relative_worktree_paths() {
        let sb = Sandbox::new("relative");
        let repo = sb.repo("r");
        sb.git(&repo, &["worktree", "add", "-q", &sb.s("wt/rel")]);
        // As git 2.48's `worktree.useRelativePaths` writes them.
        std::fs::write(repo.join(".git/worktrees/rel/gitdir"), "../../../../wt/rel/.git\n").unwrap();
        std::fs::write(sb.base.join("wt/rel/.git"), "gitdir: ../../r/.git/worktrees/rel\n").unwrap();
        // Without the extension this git prints the line as written (before 2.48) ...
        let here = sb.same(&sb.base.join("wt/rel"));
        if sb.version < (2, 48) {
            assert_eq!(here, vec![sb.s("r"), "../../../../wt/rel".to_string()]);
        }
        // ... from 2.48 on the path is resolved from the entry's folder.
        assert_eq!(
            sb.read_as(&repo, (2, 48), 0).map(|v| v[1].clone()),
            Some(sb.s("wt/rel"))
        );
        // The folder gone: resolved as far as it exists.
        std::fs::rename(sb.base.join("wt/rel"), sb.base.join("wt/moved")).unwrap();
        assert_eq!(
            sb.read_as(&repo, (2, 48), 0).map(|v| v[1].clone()),
            Some(sb.s("wt/rel"))
        );
        std::fs::rename(sb.base.join("wt/moved"), sb.base.join("wt/rel")).unwrap();
        // With the extension (format 1): a git that knows it reads it; older ones refuse the
        // repository (left to git).
        sb.git(&repo, &["config", "core.repositoryformatversion", "1"]);
        sb.git(&repo, &["config", "extensions.relativeWorktrees", "true"]);
        assert_eq!(sb.read_as(&repo, (2, 47), 0), None);
        assert_eq!(sb.read_as(&repo, (2, 48), 0), Some(vec![sb.s("r"), sb.s("wt/rel")]));
        if sb.version < (2, 48) {
            assert_eq!(
                sb.by_git(&repo),
                Vec::<String>::new(),
                "this git does not know the extension"
            );
        } else {
            sb.same(&repo);
        }
    }

    #[test]
    fn formats_configs_and_what_is_left_to_git() {
        let sb = Sandbox::new("formats");
        let repo = sb.repo("r");
        sb.git(&repo, &["worktree", "add", "-q", &sb.s("wt")]);
        let want = vec![sb.s("r"), sb.s("wt")];
        // Format 1 with the extensions every git since 2.29 knows.
        sb.git(&repo, &["config", "core.repositoryformatversion", "1"]);
        sb.git(&repo, &["config", "extensions.worktreeConfig", "true"]);
        sb.git(&repo, &["config", "extensions.partialClone", "origin"]);
        sb.git(&sb.base.join("wt"), &["config", "--worktree", "core.bare", "false"]);
        assert_eq!(sb.same(&sb.base.join("wt")), want);
        assert_eq!(sb.same(&repo), want);
        // An extension outside those: left to git.
        sb.git(&repo, &["config", "extensions.objectFormat", "sha1"]);
        assert_eq!(sb.read(&repo), None);
        sb.git(&repo, &["config", "--unset", "extensions.objectFormat"]);
        sb.git(&repo, &["config", "extensions.madeUp", "true"]);
        assert_eq!(sb.read(&repo), None);
        assert_eq!(
            sb.by_git(&repo),
            Vec::<String>::new(),
            "git refuses an unknown extension"
        );
        let file = repo.join(".git/config").to_string_lossy().into_owned();
        sb.git(&sb.base, &["config", "--file", &file, "--unset", "extensions.madeUp"]);
        assert_eq!(sb.same(&repo), want);
        // A format above 1: git refuses it; left to git.
        sb.git(&repo, &["config", "core.repositoryformatversion", "2"]);
        assert_eq!(sb.read(&repo), None);
        assert_eq!(sb.by_git(&repo), Vec::<String>::new());
        sb.git(
            &sb.base,
            &["config", "--file", &file, "core.repositoryformatversion", "0"],
        );
        // Includes, anywhere: left to git.
        sb.git(&repo, &["config", "include.path", "other"]);
        assert_eq!(sb.read(&repo), None);
        sb.git(&repo, &["config", "--unset", "include.path"]);
        assert_eq!(sb.same(&repo), want);
        // A config git cannot parse makes every command fail: left to git (repository or user's).
        let config = repo.join(".git/config");
        let good = std::fs::read(&config).unwrap();
        std::fs::write(&config, [good.as_slice(), b"[core\n"].concat()).unwrap();
        assert_eq!(sb.read(&repo), None);
        assert_eq!(sb.by_git(&repo), Vec::<String>::new());
        std::fs::write(&config, &good).unwrap();
        std::fs::write(sb.base.join(".gitconfig"), "[user]\n\tname = \"unclosed\n").unwrap();
        assert_eq!(sb.read(&repo), None);
        assert_eq!(sb.by_git(&repo), Vec::<String>::new());
        std::fs::write(sb.base.join(".gitconfig"), "[user]\n\tname = fine # comment\n").unwrap();
        assert_eq!(sb.same(&repo), want);
        // core.ignorecase on: kept where the order with and without case is the same.
        sb.git(&repo, &["config", "core.ignorecase", "true"]);
        assert_eq!(sb.same(&repo), want);
        sb.git(&repo, &["worktree", "add", "-q", &sb.s("Upper")]);
        assert_eq!(sb.same(&repo), vec![sb.s("r"), sb.s("Upper"), sb.s("wt")]);
        sb.git(&repo, &["worktree", "add", "-q", &sb.s("apple")]);
        assert_eq!(
            sb.read(&repo),
            None,
            "`Upper` sorts before `apple` by bytes, after it without case"
        );
        assert_eq!(
            sb.by_git(&repo),
            vec![sb.s("r"), sb.s("apple"), sb.s("Upper"), sb.s("wt")]
        );
        sb.git(&repo, &["config", "core.ignorecase", "false"]);
        assert_eq!(
            sb.same(&repo),
            vec![sb.s("r"), sb.s("Upper"), sb.s("apple"), sb.s("wt")]
        );
        // Someone else's repository: git's safe.directory decides; left to git.
        assert_eq!(sb.read_as(&repo, sb.version, 4242), None);
        // A path git prints with a line break in it: left to git.
        std::fs::write(
            repo.join(".git/worktrees/wt/gitdir"),
            format!("{}/a\nb/.git\n", sb.s("")),
        )
        .unwrap();
        assert_eq!(sb.read(&repo), None);
        // A git older than 2.29 named the main worktree differently: left to it.
        assert_eq!(worktrees_for_version(&repo, (2, 28)), None);
    }

    fn worktrees_for_version(dir: &Path, version: (u32, u32)) -> Option<Vec<String>> {
        match version {
            v if v >= (2, 29) => list(dir, v, &[], 0),
            _ => None,
        }
    }

    #[test]
    fn ownership_mismatch_goes_to_git() {
        if !nix::unistd::geteuid().is_root() {
            return;
        }
        let sb = Sandbox::new("owner");
        let repo = sb.repo("r");
        std::os::unix::fs::chown(&repo, Some(4242), Some(4242)).unwrap();
        assert_eq!(sb.read(&repo), None);
        // git refuses it ("dubious ownership"): the official lists nothing.
        assert_eq!(sb.by_git(&repo), Vec::<String>::new());
    }

    #[test]
    fn environment() {
        let plain = |v: &[&str]| env_is_plain(v.iter().map(OsStr::new));
        assert!(plain(&[
            "PATH",
            "HOME",
            "GIT_EDITOR",
            "GIT_SSL_CAINFO",
            "GIT_TRACE2_EVENT",
            "GIT_REFERENCE_BACKEND"
        ]));
        for v in [
            "GIT_DIR",
            "GIT_WORK_TREE",
            "GIT_COMMON_DIR",
            "GIT_CEILING_DIRECTORIES",
            "GIT_DISCOVERY_ACROSS_FILESYSTEM",
            "GIT_CONFIG_PARAMETERS",
            "GIT_CONFIG_COUNT",
            "GIT_CONFIG_GLOBAL",
            "GIT_OBJECT_DIRECTORY",
            "GIT_TEST_ASSUME_DIFFERENT_OWNER",
            "GIT_EXEC_PATH",
        ] {
            assert!(!plain(&["PATH", v]), "{v}");
        }
        assert_eq!(parse_version("git version 2.47.3\n"), Some(Git::Version(2, 47)));
        assert_eq!(
            parse_version("git version 2.39.5 (Apple Git-154)"),
            Some(Git::Version(2, 39))
        );
        assert_eq!(parse_version("git version 2.47.1.windows.1"), Some(Git::Version(2, 47)));
        assert_eq!(parse_version("hub version 2.14.2"), None);
    }

    #[test]
    fn system_config_of_the_installed_git_is_read() {
        let (Git::Version(a, b), system) = installed_git() else {
            panic!("these tests need git on PATH");
        };
        assert!(system.contains(&PathBuf::from("/etc/gitconfig")));
        if (a, b) >= (2, 42) {
            let out = Command::new("git")
                .args(["var", "GIT_CONFIG_SYSTEM"])
                .env_remove("GIT_CONFIG_SYSTEM")
                .output()
                .unwrap();
            let named = String::from_utf8(out.stdout).unwrap();
            assert!(
                system.contains(&PathBuf::from(named.trim_end())),
                "{named} in {system:?}"
            );
        }
    }

    #[test]
    fn git_dir_in_the_environment_is_left_to_git() {
        // The same repository seen through GIT_DIR by git: discovery is git's there.
        let sb = Sandbox::new("gitdir-env");
        let repo = sb.repo("r");
        let other = sb.repo("other");
        let out = sb
            .cmd(&other)
            .env("GIT_DIR", repo.join(".git"))
            .args(["worktree", "list", "--porcelain"])
            .output()
            .unwrap();
        let listed = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(listed.contains(&format!("worktree {}\n", sb.s("r"))), "{listed}");
        assert!(!env_is_plain([OsStr::new("GIT_DIR")]));
    }

    /// The reader against `git config --list` on the same text: what it takes, git reads the
    /// same way; what git refuses, it refuses.
    #[test]
    fn config_reader_agrees_with_git() {
        let sb = Sandbox::new("config");
        let texts: &[&str] = &[
            "[core]\n\tbare = false\n\tignorecase\n",
            "\u{feff}[Core]\r\n\tBare=  true  ; comment\r\n",
            "[remote \"Or\\\"igin\"]\n\turl = \"a b\" c\\tq # x\n[Sec.Sub]\nk=v\n",
            "# only a comment\n\n;another\n",
            "[core] bare = true\n",
            "[a]\nk = \"unclosed\n",
            "[a]\nk = bad\\q\n",
            "[a\nk=1\n",
            "[a \"b\"x]\nk=1\n",
            "[a]\nk # no\n",
            "[a]\n1k = v\n",
            "[a]\nk = one \\\n two\n",
            "[a]\nk=v\n[b]\nk=w",
            "[]\nk=v\n",
            "k = outside\n",
        ];
        for (i, t) in texts.iter().enumerate() {
            let f = sb.base.join(format!("c{i}"));
            std::fs::write(&f, t).unwrap();
            let out = sb
                .cmd(&sb.base)
                .args(["config", "--file", &f.to_string_lossy(), "--list"])
                .output()
                .unwrap();
            let ours = parse_config(t.as_bytes());
            if !out.status.success() {
                assert_eq!(ours, None, "{t:?}: git refuses it");
                continue;
            }
            let Some(ours) = ours else { continue };
            let ours: Vec<String> = ours
                .iter()
                .map(|e| match &e.value {
                    Some(v) => format!("{}={v}", e.key),
                    None => e.key.clone(),
                })
                .collect();
            let theirs: Vec<String> = String::from_utf8_lossy(&out.stdout)
                .lines()
                .map(str::to_string)
                .collect();
            assert_eq!(ours, theirs, "{t:?}");
        }
        assert_eq!(boolean(None), Some(true));
        assert_eq!(boolean(Some("")), Some(false));
        assert_eq!(boolean(Some("YES")), Some(true));
        assert_eq!(boolean(Some("0")), Some(false));
        assert_eq!(boolean(Some("maybe")), None);
    }

    #[test]
    fn realpath_like_git() {
        let sb = Sandbox::new("realpath");
        std::fs::create_dir_all(sb.base.join("a/b")).unwrap();
        std::os::unix::fs::symlink("a/b", sb.base.join("l")).unwrap();
        std::os::unix::fs::symlink(sb.base.join("a"), sb.base.join("abs")).unwrap();
        let p = |s: &str| sb.base.join(s);
        assert_eq!(realpath(&p("l/../b"), false), Some(p("a/b")));
        assert_eq!(realpath(&p("abs//b/./"), false), Some(p("a/b")));
        assert_eq!(realpath(&p("l/missing"), false), Some(p("a/b/missing")));
        assert_eq!(realpath(&p("l/missing/more"), false), None);
        assert_eq!(realpath(&p("l/missing/more/../x"), true), Some(p("a/b/missing/x")));
        std::os::unix::fs::symlink("loop", sb.base.join("loop")).unwrap();
        assert_eq!(realpath(&p("loop/x"), true), None);
        assert_eq!(realpath(Path::new("relative"), true), None);
    }
}
