//! The `git worktree list` child the official SDK starts to find a folder's worktrees: its
//! arguments and environment, its 5 s limit, and how its output is read. Used where the list
//! cannot be read from git's files ([`super::gitmeta`]), and by that module's tests as the
//! reference it is checked against.

/// The arguments the official SDK starts git with to list worktrees (with
/// `GIT_REFERENCE_BACKEND=files` in its environment).
pub(crate) const WORKTREE_LIST: [&str; 7] = [
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "core.fsmonitor=",
    "worktree",
    "list",
    "--porcelain",
];

/// The paths of `worktree ` lines in git's output, read as the official reads them (split at
/// LF only).
pub(crate) fn worktree_lines(stdout: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(stdout)
        .split('\n')
        .filter_map(|l| l.strip_prefix("worktree "))
        .map(str::to_string)
        .collect()
}

/// How long git may take to list the worktrees: the official SDK's `execFile` timeout, after
/// which it kills git and takes no worktrees.
const WORKTREE_LIST_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// `git worktree list --porcelain` run in `dir` as the official SDK runs it, killed after
/// [`WORKTREE_LIST_TIMEOUT`]: the paths of its `worktree ` lines, none when git is missing, fails
/// or takes too long (as the official).
pub(crate) fn by_git(dir: &str) -> Vec<String> {
    let child = std::process::Command::new("git")
        .args(WORKTREE_LIST)
        .current_dir(dir)
        .env("GIT_REFERENCE_BACKEND", "files")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn();
    let Ok(mut child) = child else {
        return Vec::new();
    };
    match run_bounded(&mut child, WORKTREE_LIST_TIMEOUT) {
        Some(stdout) => worktree_lines(&stdout),
        None => Vec::new(),
    }
}

/// The child's whole stdout if it exits successfully within `limit`; else it is killed (and
/// reaped) and the answer is `None`. Its stdout is read on a thread of its own, whose end of
/// file (the child exiting) is what the caller waits for, so no poll adds latency.
fn run_bounded(child: &mut std::process::Child, limit: std::time::Duration) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut stdout = child.stdout.take()?;
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    let reader = std::thread::Builder::new().name("git-output".into()).spawn(move || {
        let mut out = Vec::new();
        let ok = stdout.read_to_end(&mut out).is_ok();
        let _ = tx.send(ok.then_some(out));
    });
    if reader.is_err() {
        let _ = child.kill();
        let _ = child.wait();
        return None;
    }
    match rx.recv_timeout(limit) {
        Ok(out) => {
            let status = child.wait().ok()?;
            out.filter(|_| status.success())
        }
        Err(_) => {
            // Past the limit (or the reader died): the child goes, and the reader thread ends
            // when the pipe closes with it.
            let _ = child.kill();
            let _ = child.wait();
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_child_past_its_limit_is_killed_and_gives_nothing() {
        let sh = |script: &str| {
            std::process::Command::new("sh")
                .args(["-c", script])
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        };
        let limit = std::time::Duration::from_millis(300);
        let mut quick = sh("printf 'worktree /a\\n'");
        assert_eq!(run_bounded(&mut quick, limit).as_deref(), Some(&b"worktree /a\n"[..]));
        let mut failing = sh("printf 'worktree /a\\n'; exit 3");
        assert_eq!(run_bounded(&mut failing, limit), None);
        let started = std::time::Instant::now();
        let mut stuck = sh("exec sleep 30");
        assert_eq!(run_bounded(&mut stuck, limit), None);
        assert!(started.elapsed() < std::time::Duration::from_secs(10));
        // Killed and reaped: nothing left to wait for.
        assert!(stuck.try_wait().unwrap().is_some());
    }
}
