//! The fence: session functions read and write only inside the config folder's `projects/`
//! tree. Every transcript, sidecar and subagent file is opened here:
//!
//! - with no-follow semantics (`O_NOFOLLOW`; on Windows the link itself is opened), so a link is
//!   never followed blindly. A link whose target, resolved, stays inside the tree is followed
//!   (as `listSessions` does: every function sees the same sessions); one that leaves it (to a
//!   file or a folder, through `..` or an absolute target) is refused;
//! - without blocking (`O_NONBLOCK`): a FIFO or a socket planted as a transcript opens at once
//!   (or fails), and is refused by its type, read from the open file (`fstat`), never by a
//!   second lookup of the path;
//! - and checked after opening: the path the open file really has (`/proc/self/fd` on Linux,
//!   `F_GETPATH` on macOS, the resolved path on Windows) must lie inside the tree's real path. A
//!   folder on the way that is a link out (a project folder, a session's subagents folder) is
//!   caught there too.
//!
//! The tree is the `projects` folder of the [`Context`](super::paths::Context) a function was
//! called with ([`enter`]); a path outside every tree entered (a unit test's temporary file) is
//! opened with the same no-follow and type checks.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Why a file was not opened.
#[derive(Debug)]
pub(crate) enum Refused {
    /// It is not there (or cannot be opened): what a missing file means to the caller.
    Io(std::io::Error),
    /// It, or a folder on its way, is a link that leaves the `projects` tree.
    Outside(PathBuf),
    /// It is not a regular file: a FIFO, a socket, a device or a folder (named).
    NotRegular(PathBuf, &'static str),
}

impl Refused {
    /// The error code a session function reports it with (`None`: not found, as before).
    pub fn code(&self) -> Option<&'static str> {
        match self {
            Refused::Io(_) => None,
            Refused::Outside(_) => Some("SESSION_OUTSIDE_PROJECTS"),
            Refused::NotRegular(..) => Some("SESSION_NOT_A_FILE"),
        }
    }

    /// What happened, naming the file and `what` it was meant to be.
    pub fn describe(&self, what: &str) -> String {
        match self {
            Refused::Io(e) => format!("{what}: {e}"),
            Refused::Outside(p) => format!(
                "{what}: {} leads outside the projects folder (a link); session files are read and written only inside it",
                p.display()
            ),
            Refused::NotRegular(p, kind) => {
                format!("{what}: {} is {kind}, not a regular file", p.display())
            }
        }
    }
}

impl From<Refused> for std::io::Error {
    fn from(r: Refused) -> Self {
        match r {
            Refused::Io(e) => e,
            other => std::io::Error::other(other.describe("session file")),
        }
    }
}

impl From<std::io::Error> for Refused {
    fn from(e: std::io::Error) -> Self {
        Refused::Io(e)
    }
}

/// The `projects` folders entered: each as the functions build paths from it, and its real
/// path. A few at most (one per config folder in use).
static TREES: Mutex<Vec<(PathBuf, Option<PathBuf>)>> = Mutex::new(Vec::new());
const MAX_TREES: usize = 64;

/// A session function starts work under `projects` (`<config>/projects`): its real path is
/// taken now (the config folder may itself be a link, and may change between calls).
pub(crate) fn enter(projects: &Path) {
    let real = std::fs::canonicalize(projects).ok();
    let mut trees = TREES.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(t) = trees.iter_mut().find(|t| t.0 == projects) {
        t.1 = real;
        return;
    }
    if trees.len() >= MAX_TREES {
        trees.remove(0);
    }
    trees.push((projects.to_path_buf(), real));
}

/// The tree `path` was built in (the longest entered folder it starts with): `Some(None)` when
/// that folder does not exist (nothing in it can be opened).
fn tree_of(path: &Path) -> Option<Option<PathBuf>> {
    let trees = TREES.lock().unwrap_or_else(|p| p.into_inner());
    trees
        .iter()
        .filter(|t| path.starts_with(&t.0))
        .max_by_key(|t| t.0.as_os_str().len())
        .map(|t| t.1.clone())
}

/// Opens a file to read.
pub(crate) fn open_read(path: &Path) -> Result<File, Refused> {
    open(path, false)
}

/// A whole file, read inside the fence.
pub(crate) fn read(path: &Path) -> Result<Vec<u8>, Refused> {
    use std::io::Read;
    let mut f = open_read(path)?;
    let mut out = Vec::new();
    f.read_to_end(&mut out)?;
    Ok(out)
}

/// Opens an existing file to append to (it is never created).
pub(crate) fn open_append(path: &Path) -> Result<File, Refused> {
    open(path, true)
}

/// Whether `dir` (a folder about to be written in, or listed) really lies inside its tree. A
/// folder outside every tree entered is judged by itself: it must not be a link.
pub(crate) fn dir_inside(dir: &Path) -> Result<(), Refused> {
    match tree_of(dir) {
        Some(Some(root)) => {
            let real = std::fs::canonicalize(dir)?;
            if real.starts_with(&root) {
                Ok(())
            } else {
                Err(Refused::Outside(dir.to_path_buf()))
            }
        }
        Some(None) => Err(Refused::Io(std::io::ErrorKind::NotFound.into())),
        None => {
            if std::fs::symlink_metadata(dir)?.file_type().is_symlink() {
                Err(Refused::Outside(dir.to_path_buf()))
            } else {
                Ok(())
            }
        }
    }
}

fn open(path: &Path, append: bool) -> Result<File, Refused> {
    let tree = tree_of(path);
    if let Some(None) = tree {
        return Err(Refused::Io(std::io::ErrorKind::NotFound.into()));
    }
    let root = tree.flatten();
    let file = match os::open_no_follow(path, append) {
        Ok(f) => f,
        Err(os::OpenError::Link) => {
            // A link: followed only to a place inside the tree (and opened there, no-follow).
            let Some(root) = &root else {
                return Err(Refused::Outside(path.to_path_buf()));
            };
            let real = std::fs::canonicalize(path)?;
            if !real.starts_with(root) {
                return Err(Refused::Outside(path.to_path_buf()));
            }
            match os::open_no_follow(&real, append) {
                Ok(f) => f,
                Err(os::OpenError::Link) => return Err(Refused::Outside(path.to_path_buf())),
                Err(os::OpenError::NotRegular) => return Err(not_regular(path)),
                Err(os::OpenError::Io(e)) => return Err(Refused::Io(e)),
            }
        }
        Err(os::OpenError::NotRegular) => return Err(not_regular(path)),
        Err(os::OpenError::Io(e)) => return Err(Refused::Io(e)),
    };
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(Refused::NotRegular(path.to_path_buf(), kind(&meta)));
    }
    if let Some(root) = &root {
        // After resolving: where the open file really is (a folder on the way may be a link).
        let real = os::real_path(&file, path)?;
        if !real.starts_with(root) {
            return Err(Refused::Outside(path.to_path_buf()));
        }
    }
    Ok(file)
}

/// Reading, or appending to an existing file (never creating one).
fn options(append: bool) -> std::fs::OpenOptions {
    let mut o = std::fs::OpenOptions::new();
    if append {
        o.append(true);
    } else {
        o.read(true);
    }
    o
}

/// A file the OS would not open as a regular one: its kind, read without following a link.
fn not_regular(path: &Path) -> Refused {
    let kind = std::fs::symlink_metadata(path).map_or("not a regular file", |m| kind(&m));
    Refused::NotRegular(path.to_path_buf(), kind)
}

fn kind(meta: &std::fs::Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a folder";
    }
    if t.is_symlink() {
        return "a link";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    "not a regular file"
}

#[cfg(unix)]
mod os {
    use std::fs::File;
    use std::path::{Path, PathBuf};

    pub enum OpenError {
        /// The last component is a symbolic link.
        Link,
        /// Something no regular file is (a FIFO without a reader for writing, a socket).
        NotRegular,
        Io(std::io::Error),
    }

    pub fn open_no_follow(path: &Path, append: bool) -> Result<File, OpenError> {
        use std::os::unix::fs::OpenOptionsExt;
        let mut o = super::options(append);
        // O_NONBLOCK: opening a FIFO never waits for its other end (regular files ignore it).
        o.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
        o.open(path).map_err(|e| match e.raw_os_error() {
            // Linux and macOS answer ELOOP for a link under O_NOFOLLOW, the BSDs EMLINK.
            Some(libc::ELOOP) | Some(libc::EMLINK) => OpenError::Link,
            // A FIFO with no reader (for writing), a socket, a device with nothing behind it.
            Some(libc::ENXIO) | Some(libc::EOPNOTSUPP) | Some(libc::EISDIR) => OpenError::NotRegular,
            _ => OpenError::Io(e),
        })
    }

    /// The path the open file really has.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    pub fn real_path(file: &File, path: &Path) -> std::io::Result<PathBuf> {
        use std::os::fd::AsRawFd;
        match std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd())) {
            Ok(p) => Ok(p),
            // No /proc (a chroot): the path resolved now.
            Err(_) => std::fs::canonicalize(path),
        }
    }

    /// The path the open file really has.
    #[cfg(any(target_os = "macos", target_os = "ios"))]
    pub fn real_path(file: &File, path: &Path) -> std::io::Result<PathBuf> {
        use std::os::fd::AsRawFd;
        use std::os::unix::ffi::OsStrExt;
        let mut buf = vec![0u8; libc::PATH_MAX as usize];
        // SAFETY: F_GETPATH writes at most PATH_MAX bytes (NUL included) into `buf`, which has
        // that many; the descriptor is open for the call.
        let r = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_GETPATH, buf.as_mut_ptr()) };
        if r == -1 {
            return std::fs::canonicalize(path);
        }
        let len = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
        Ok(PathBuf::from(std::ffi::OsStr::from_bytes(&buf[..len])))
    }

    /// The path the open file really has: the path resolved now, on the other Unixes.
    #[cfg(not(any(target_os = "linux", target_os = "android", target_os = "macos", target_os = "ios")))]
    pub fn real_path(_file: &File, path: &Path) -> std::io::Result<PathBuf> {
        std::fs::canonicalize(path)
    }
}

#[cfg(windows)]
mod os {
    use std::fs::File;
    use std::path::{Path, PathBuf};

    pub enum OpenError {
        /// The last component is a symbolic link or another reparse point (a junction).
        Link,
        #[allow(dead_code)]
        NotRegular,
        Io(std::io::Error),
    }

    /// `FILE_FLAG_OPEN_REPARSE_POINT`: a link is opened itself, not what it points at.
    const OPEN_REPARSE_POINT: u32 = 0x0020_0000;
    /// `FILE_FLAG_BACKUP_SEMANTICS`: lets a folder be opened (and then refused by its type).
    const BACKUP_SEMANTICS: u32 = 0x0200_0000;

    pub fn open_no_follow(path: &Path, append: bool) -> Result<File, OpenError> {
        use std::os::windows::fs::OpenOptionsExt;
        let mut o = super::options(append);
        o.custom_flags(OPEN_REPARSE_POINT | BACKUP_SEMANTICS);
        let f = o.open(path).map_err(OpenError::Io)?;
        match f.metadata() {
            Ok(m) if m.file_type().is_symlink() => Err(OpenError::Link),
            Ok(_) => Ok(f),
            Err(e) => Err(OpenError::Io(e)),
        }
    }

    /// The path the open file really has: the path resolved (`GetFinalPathNameByHandle`).
    pub fn real_path(_file: &File, path: &Path) -> std::io::Result<PathBuf> {
        std::fs::canonicalize(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn links_out_fifos_and_sockets_are_refused_links_inside_followed() {
        let base = std::env::temp_dir().join(format!("fence-{}", super::super::write::uuid_v4()));
        let projects = base.join("config/projects");
        let proj = projects.join("-p");
        std::fs::create_dir_all(&proj).unwrap();
        std::fs::create_dir_all(base.join("outside")).unwrap();
        std::fs::write(base.join("outside/secret.jsonl"), "{}\n").unwrap();
        std::fs::write(proj.join("a.jsonl"), "{\"a\":1}\n").unwrap();
        let link = |target: &str, name: &str| std::os::unix::fs::symlink(target, proj.join(name)).unwrap();
        link("a.jsonl", "in.jsonl");
        link("../../../outside/secret.jsonl", "dotdot.jsonl");
        link(base.join("outside/secret.jsonl").to_str().unwrap(), "abs.jsonl");
        std::os::unix::fs::symlink(base.join("outside"), projects.join("-out")).unwrap();
        let fifo = std::ffi::CString::new(proj.join("fifo.jsonl").to_str().unwrap()).unwrap();
        // SAFETY: a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        let _sock = std::os::unix::net::UnixListener::bind(proj.join("sock.jsonl")).unwrap();
        enter(&projects);
        assert!(open_read(&proj.join("a.jsonl")).is_ok());
        assert!(
            open_read(&proj.join("in.jsonl")).is_ok(),
            "a link inside the tree is followed"
        );
        for name in ["dotdot.jsonl", "abs.jsonl"] {
            assert!(
                matches!(open_read(&proj.join(name)), Err(Refused::Outside(_))),
                "{name}"
            );
            assert!(
                matches!(open_append(&proj.join(name)), Err(Refused::Outside(_))),
                "{name}"
            );
        }
        let via_folder = projects.join("-out/secret.jsonl");
        assert!(matches!(open_read(&via_folder), Err(Refused::Outside(_))));
        assert!(matches!(dir_inside(&projects.join("-out")), Err(Refused::Outside(_))));
        assert!(dir_inside(&proj).is_ok());
        for name in ["fifo.jsonl", "sock.jsonl"] {
            let r = open_read(&proj.join(name));
            assert!(matches!(r, Err(Refused::NotRegular(..))), "{name}: {r:?}");
            let w = open_append(&proj.join(name));
            assert!(matches!(w, Err(Refused::NotRegular(..))), "{name}: {w:?}");
        }
        let e = open_read(&proj.join("fifo.jsonl")).unwrap_err();
        assert_eq!(e.code(), Some("SESSION_NOT_A_FILE"));
        assert!(e.describe("x").contains("a FIFO"), "{}", e.describe("x"));
        assert!(matches!(open_read(&proj.join("missing.jsonl")), Err(Refused::Io(_))));
        std::fs::remove_dir_all(&base).unwrap();
    }
}
