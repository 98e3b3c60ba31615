//! Where transcripts live: the config directory, the projects folder, the folder name a project
//! path maps to, and the session-id check that keeps every path inside the projects folder.

use std::path::{Path, PathBuf};

/// Longest sanitized project folder name before it is cut and suffixed with a hash.
pub(crate) const MAX_KEY: usize = 200;

/// Where and how the session functions look: every function that reads the config folder takes
/// one. The host fills it from the environment it sees (under Bun, assignments to `process.env`
/// do not reach the process environment); [`Context::from_env`] reads this process's.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Context {
    /// The config folder; `None`: `$CLAUDE_CONFIG_DIR`, else `~/.claude`, read at each call.
    pub config_dir: Option<PathBuf>,
    /// `CLAUDE_CODE_PROJECT_DIR_NAME` as the caller's environment has it, when `CLAUDE_CONFIG_DIR`
    /// is set there too (the only case in which the CLI uses it): the folder every project's
    /// sessions are in. Ignored unless [`valid_dir_name`].
    pub dir_name: Option<String>,
    /// Whether file times are truncated to the millisecond (Bun's `stats.mtime`) rather than
    /// rounded (Node's).
    pub floor_mtime: bool,
}

impl Context {
    /// This process's environment: `$CLAUDE_CONFIG_DIR` (read at each call) and, when that is
    /// set, `$CLAUDE_CODE_PROJECT_DIR_NAME`; file times rounded.
    pub fn from_env() -> Context {
        let configured = std::env::var_os("CLAUDE_CONFIG_DIR").is_some_and(|d| !d.is_empty());
        let dir_name = if configured {
            std::env::var("CLAUDE_CODE_PROJECT_DIR_NAME")
                .ok()
                .filter(|n| valid_dir_name(n))
        } else {
            None
        };
        Context {
            config_dir: None,
            dir_name,
            floor_mtime: false,
        }
    }

    /// The config folder, else `$CLAUDE_CONFIG_DIR`, else `~/.claude`; read at each call, as the
    /// official functions do.
    pub fn config_dir(&self) -> PathBuf {
        if let Some(dir) = self.config_dir.as_ref().filter(|d| !d.as_os_str().is_empty()) {
            return dir.clone();
        }
        if let Some(dir) = std::env::var_os("CLAUDE_CONFIG_DIR").filter(|d| !d.is_empty()) {
            return PathBuf::from(dir);
        }
        let home = std::env::var_os("HOME")
            .or_else(|| std::env::var_os("USERPROFILE"))
            .unwrap_or_default();
        PathBuf::from(home).join(".claude")
    }

    /// `<config>/projects`: the tree session functions read and write in, and nowhere else
    /// ([`super::fence`], which learns its real path here).
    pub(crate) fn projects_dir(&self) -> PathBuf {
        let projects = self.config_dir().join("projects");
        super::fence::enter(&projects);
        projects
    }

    /// The folder a project path's sessions are in: the override when a valid one is set, else
    /// [`project_key`] (official `Lr`).
    pub(crate) fn folder_name(&self, path: &str) -> String {
        self.dir_name
            .as_deref()
            .filter(|n| valid_dir_name(n))
            .map_or_else(|| project_key(path), str::to_string)
    }
}

/// Whether paths follow Windows rules (drive letters, `\\?\` prefixes, case-insensitive
/// folder names).
pub(crate) const WINDOWS: bool = cfg!(windows);
/// Whether the file system is taken as case-insensitive when telling two project paths apart
/// (the official's rule: Windows and macOS).
pub(crate) const CASE_INSENSITIVE: bool = cfg!(any(windows, target_os = "macos"));

/// A folder name the CLI accepts from `CLAUDE_CODE_PROJECT_DIR_NAME`: 1 to 64 of
/// `[A-Za-z0-9_-]`, and not a name Windows reserves for a device.
pub fn valid_dir_name(name: &str) -> bool {
    let ok = !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    let lower = name.to_ascii_lowercase();
    let device = matches!(lower.as_str(), "con" | "prn" | "aux" | "nul")
        || (lower.len() == 4
            && (lower.starts_with("com") || lower.starts_with("lpt"))
            && lower.as_bytes()[3].is_ascii_digit());
    ok && !device
}

/// Lower case where folder names are compared without case (Windows).
pub fn fold(s: &str, windows: bool) -> String {
    if windows {
        s.to_lowercase()
    } else {
        s.to_string()
    }
}

/// A real path as Node's `fs.realpath` gives it on Windows: without the `\\?\` prefix the
/// system call returns (`\\?\C:\x` is `C:\x`, `\\?\UNC\srv\share` is `\\srv\share`).
pub(crate) fn strip_verbatim(p: &str) -> String {
    if let Some(rest) = p.strip_prefix(r"\\?\UNC\") {
        return format!(r"\\{rest}");
    }
    if let Some(rest) = p.strip_prefix(r"\\?\") {
        return rest.to_string();
    }
    p.to_string()
}

/// Splits at runs of `\` and `/` (JavaScript's `split(/[\\/]+/)`).
fn split_seps(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' || b[i] == b'/' {
            out.push(&s[start..i]);
            while i < b.len() && (b[i] == b'\\' || b[i] == b'/') {
                i += 1;
            }
            start = i;
        } else {
            i += 1;
        }
    }
    out.push(&s[start..]);
    out
}

/// The project paths a `dir` argument stands for (official `UR`): its real path; on Windows
/// also the drive path as given (`X:\seg\…`), when the real path is the same folders reached
/// through another drive or share (a `subst` drive, a mapped or junctioned folder).
pub(crate) fn project_paths(input: &str, real: &str, windows: bool) -> Vec<String> {
    let one = vec![real.to_string()];
    if !windows {
        return one;
    }
    let b = input.as_bytes();
    if b.len() < 3 || !b[0].is_ascii_alphabetic() || b[1] != b':' || !(b[2] == b'\\' || b[2] == b'/') {
        return one;
    }
    let drive = &input[..1];
    let rest = input[2..].trim_start_matches(['\\', '/']).trim_end_matches(['\\', '/']);
    let segs: Vec<&str> = if rest.is_empty() { Vec::new() } else { split_seps(rest) };
    let real_segs = split_seps(real.trim_end_matches(['\\', '/']));
    let same =
        |a: &str, b: &str| a.encode_utf16().count() == b.encode_utf16().count() && a.to_lowercase() == b.to_lowercase();
    if real_segs.len() <= segs.len() {
        return one;
    }
    let l = real_segs.len() - segs.len();
    if !segs.iter().enumerate().all(|(i, s)| same(s, real_segs[l + i]))
        || (l == 1 && same(real_segs[0], &format!("{drive}:")))
    {
        return one;
    }
    vec![real.to_string(), format!("{drive}:\\{}", segs.join("\\"))]
}

/// `\` as `/`, lower-cased where case does not count (official `oh`).
fn slashed(p: &str, ci: bool) -> String {
    fold(&p.replace('\\', "/"), ci)
}

/// Two different paths whose project folder names are the same (official `rF`).
pub(crate) fn same_folder_other_path(a: &str, b: &str, ci: bool) -> bool {
    fold(&sanitize(a), ci) == fold(&sanitize(b), ci) && slashed(a, ci) != slashed(b, ci)
}

/// `path` is one of `roots` or inside one (official `yF`).
pub fn within(path: &str, roots: &[String], ci: bool) -> bool {
    let p = slashed(path, ci);
    roots.iter().any(|r| {
        let r = slashed(r, ci);
        p == r || p.starts_with(&if r.ends_with('/') { r.clone() } else { format!("{r}/") })
    })
}

/// Paths never resolved to tell projects apart (official `Qr`, `jl`): network shares and
/// device namespaces (`\\srv\share`, `\\?\…`, `\GLOBAL??\…`), automounted network
/// folders (`/net/<host>`, `/Network/…`), macOS's `/.vol`-style folders, and paths with a `..`
/// segment.
pub(crate) fn risky(p: &str) -> bool {
    let b = p.as_bytes();
    let unc = b.len() >= 2 && (b[0] == b'\\' || b[0] == b'/') && (b[1] == b'\\' || b[1] == b'/');
    let wsl = {
        let l = p.to_ascii_lowercase().replace('\\', "/");
        l.starts_with("//wsl$/") || l.starts_with("//wsl.localhost/")
    };
    let device = {
        let l = p.to_ascii_lowercase().replace('\\', "/");
        ["/global??/", "/globalroot/", "/dosdevices/", "/device/"]
            .iter()
            .any(|d| l.starts_with(d))
    };
    let dotdot = split_seps(p).contains(&"..");
    let mut segs: Vec<&str> = Vec::new();
    let mut net = false;
    if p.starts_with('/') {
        for s in p.split('/') {
            match s {
                "" | "." => {}
                ".." => {
                    segs.pop();
                }
                s => {
                    segs.push(s);
                    let l: Vec<String> = segs.iter().map(|x| x.to_ascii_lowercase()).collect();
                    if (l.len() == 2 && l[0] == "net")
                        || (l.len() == 3 && l[0] == "network" && l[1] == "servers")
                        || (l.len() == 1 && l[0] == "network")
                    {
                        net = true;
                    }
                    if l.len() == 1 && matches!(l[0].as_str(), ".vol" | ".file" | ".nofollow" | ".resolve") {
                        net = true;
                    }
                }
            }
        }
        if segs.len() == 1 && segs[0].eq_ignore_ascii_case("net") {
            net = true;
        }
    }
    (unc && !wsl) || device || dotdot || net
}

/// Whether a session that ran in `cwd`, found in `project_path`'s folder, belongs to another
/// project whose path maps to the same folder name (official `_F`): both paths safe to
/// resolve, `cwd` an existing folder, and the two still different after resolving.
pub(crate) fn other_project(cwd: &str, project_path: &str, ci: bool) -> bool {
    if !same_folder_other_path(cwd, project_path, ci) || risky(cwd) || risky(project_path) {
        return false;
    }
    let Some(real_cwd) = real_path(cwd) else { return false };
    let real_project = real_path(project_path).unwrap_or_else(|| project_path.to_string());
    same_folder_other_path(&real_cwd, &real_project, ci)
}

/// `fs.realpath` of a path (`None` when it cannot be resolved).
pub(crate) fn real_path(p: &str) -> Option<String> {
    let r = std::fs::canonicalize(p).ok()?.to_string_lossy().into_owned();
    Some(if WINDOWS { strip_verbatim(&r) } else { r })
}

/// Milliseconds of a duration since the epoch, as the host's `stats.mtime.getTime()` gives them
/// (`floor`: truncated, as Bun's; else rounded, as Node's).
pub(crate) fn host_ms(d: std::time::Duration, floor: bool) -> i64 {
    let ns = d.as_nanos();
    (if floor {
        ns / 1_000_000
    } else {
        (ns + 500_000) / 1_000_000
    }) as i64
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
pub(crate) fn sanitize(path: &str) -> String {
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
pub(crate) fn real_dir(dir: &str) -> String {
    real_path(dir).unwrap_or_else(|| normalize(dir))
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
    if s.is_empty() {
        ".".into()
    } else {
        s
    }
}

/// Whether git could find a repository for `dir`: a `.git` (or a bare repository) in it or a
/// folder above it, or a repository named by the environment. When neither holds, git would fail with "not a git
/// repository", so it is not started.
fn maybe_in_repository(dir: &Path) -> bool {
    if std::env::var_os("GIT_DIR").is_some() || std::env::var_os("GIT_WORK_TREE").is_some() {
        return true;
    }
    let Ok(start) = std::fs::canonicalize(dir) else {
        return true;
    };
    let bare = |d: &Path| d.join("HEAD").is_file() && d.join("objects").is_dir() && d.join("refs").is_dir();
    start
        .ancestors()
        .any(|d| std::fs::symlink_metadata(d.join(".git")).is_ok() || bare(d))
}

/// The paths `git worktree list --porcelain` prints in `dir` (a real path): the repository's
/// worktrees, empty when git is missing or `dir` is not in a repository. Read from git's files
/// where that gives git's answer for sure ([`super::gitmeta`]), else from git.
pub(crate) fn git_worktrees(dir: &str) -> Vec<String> {
    #[cfg(unix)]
    let read = super::gitmeta::worktrees(dir);
    #[cfg(not(unix))]
    let read: Option<Vec<String>> = None;
    match read {
        Some(list) => list.iter().map(|p| normalize(p)).collect(),
        None => git_worktrees_by_git(dir),
    }
}

/// `git worktree list --porcelain` run in `dir` as the official SDK runs it (see
/// [`super::worktree_list`]), its paths normalized; none when `dir` cannot be in a repository.
pub(crate) fn git_worktrees_by_git(dir: &str) -> Vec<String> {
    if !maybe_in_repository(Path::new(dir)) {
        return Vec::new();
    }
    super::worktree_list::by_git(dir).iter().map(|p| normalize(p)).collect()
}

/// A folder's entries sorted by name, as Node's `readdir` lists them (libuv sorts them): the
/// official functions' first-match rules depend on that order.
pub(crate) fn read_dir_sorted(dir: &Path) -> Vec<std::fs::DirEntry> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<std::fs::DirEntry> = rd.flatten().collect();
    v.sort_by_key(|a| a.file_name());
    v
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
        assert!(k.len() > 201);
        assert!(is_uuid("0a1b2c3d-0000-4000-8000-00000000000A"));
        assert!(!is_uuid("../../etc/passwd"));
        assert!(!is_uuid("0a1b2c3d-0000-4000-8000-00000000000/"));
    }

    /// Outputs of the official SDK's `UR` (0.3.330, run with `process.platform` set to 'win32')
    /// for these inputs and real paths.
    const OFFICIAL_UR: &str = r#"[["S:\\proj","C:\\work\\proj",["C:\\work\\proj","S:\\proj"]],["S:\\","C:\\work",["C:\\work","S:\\"]],["s:/Proj/","C:\\work\\proj",["C:\\work\\proj","s:\\Proj"]],["C:\\work\\proj","C:\\work\\proj",["C:\\work\\proj"]],["c:\\WORK\\proj","C:\\work\\proj",["C:\\work\\proj"]],["S:\\a\\b","\\\\srv\\share\\a\\b",["\\\\srv\\share\\a\\b","S:\\a\\b"]],["S:\\a\\b","C:\\x\\a\\c",["C:\\x\\a\\c"]],["S:proj","C:\\w\\proj",["C:\\w\\proj"]],["/home/u/p","/home/u/p",["/home/u/p"]],["S:\\\\a\\\\","D:\\a",["D:\\a","S:\\a"]],["S:\\a","S:\\a",["S:\\a"]],["X:\\ä","C:\\m\\Ä",["C:\\m\\Ä","X:\\ä"]],["Z:\\a\\b","C:\\a\\b",["C:\\a\\b","Z:\\a\\b"]],["Z:\\a\\b","a\\b",["a\\b"]]]"#;

    #[test]
    fn windows_project_paths_match_the_official() {
        let cases: Vec<(String, String, Vec<String>)> = serde_json::from_str(OFFICIAL_UR).unwrap();
        for (input, real, want) in cases {
            assert_eq!(project_paths(&input, &real, true), want, "{input} {real}");
            assert_eq!(project_paths(&input, &real, false), vec![real.clone()]);
        }
    }

    #[test]
    fn windows_real_paths_and_names() {
        assert_eq!(strip_verbatim(r"\\?\C:\Users\Me\proj"), r"C:\Users\Me\proj");
        assert_eq!(strip_verbatim(r"\\?\UNC\srv\share\proj"), r"\\srv\share\proj");
        assert_eq!(strip_verbatim(r"C:\x"), r"C:\x");
        // Drive letters and separators all become '-', as the CLI names the folder.
        assert_eq!(project_key(r"C:\Users\Me\proj"), "C--Users-Me-proj");
        assert_eq!(fold("C--Users-Me", true), "c--users-me");
        assert_eq!(fold("C--Users-Me", false), "C--Users-Me");
        for ok in ["proj", "a_b-C9", &"x".repeat(64)] {
            assert!(valid_dir_name(ok), "{ok}");
        }
        for bad in ["", "a b", "a/b", "..", "CON", "nul", "Com1", "lpt9", &"x".repeat(65)] {
            assert!(!valid_dir_name(bad), "{bad}");
        }
        assert!(valid_dir_name("com") && valid_dir_name("com10"));
    }

    #[test]
    fn two_paths_one_folder() {
        assert!(same_folder_other_path("/a/b-c", "/a/b/c", false));
        assert!(!same_folder_other_path("/a/b/c", "/a/b/c", false));
        assert!(!same_folder_other_path("/a/b/c", "/a/B/c", true));
        assert!(!same_folder_other_path("/a/b/c", "/a/B/c", false));
        assert!(!same_folder_other_path(r"C:\a\b", "C:/a/b", false));
        assert!(within("/r/wt/sub", &["/r/wt".into()], false));
        assert!(!within("/r/wt2", &["/r/wt".into()], false));
        assert!(within(r"C:\R\x", &["c:/r".into()], true));
        for r in [
            r"\\srv\share\p",
            "//srv/share",
            r"\\?\C:\x",
            "/net/host/p",
            "/Network/Servers/x/y",
            "/.vol/1/2",
            "/a/../b",
            r"\GLOBAL??\C:",
        ] {
            assert!(risky(r), "{r}");
        }
        for r in ["/home/u/p", r"C:\Users\p", r"\\wsl$\Ubuntu\home", "/network-x/p"] {
            assert!(!risky(r), "{r}");
        }
    }
}
