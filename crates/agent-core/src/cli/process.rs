//! Starting and ending the CLI process. The child must never outlive its session or its host:
//! it is killed when the session ends or its handle is dropped, and each platform's guard
//! ([`crate::cli::os`]) ends it if the host dies without cleaning up (SIGKILL of the host
//! included).

use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite};
use tokio::process::Command;

use crate::cli::child::{ChildProcess, ExitInfo, LocalChild};
use crate::cli::os;
use crate::cli::signal::{SIGKILL, SIGTERM};

use crate::cli::launch::Launch;
use crate::error::Error;

pub struct Spawned {
    pub child: LocalChild,
    pub stdin: Box<dyn AsyncWrite + Send + Unpin>,
    /// A second descriptor of the non-blocking stdin pipe, for writes straight from any thread
    /// (the non-blocking flag belongs to the pipe, so this one never blocks either). None on
    /// Windows, whose child pipes are not non-blocking: every line goes through the writer task.
    pub direct_stdin: Option<std::fs::File>,
    pub stdout: Box<dyn AsyncRead + Send + Unpin>,
    pub stderr: Box<dyn AsyncRead + Send + Unpin>,
}

/// Spawns without a shell: every argument reaches the CLI as one argv entry, as given.
/// Must be called from within a tokio runtime; any thread will do (see `os::spawn`).
pub fn spawn(launch: &Launch) -> Result<Spawned, Error> {
    crate::cli::launch::check_command_line(launch)?;
    #[cfg(target_os = "linux")]
    if let Some(spawned) = spawn_without_fork(launch)? {
        return Ok(spawned);
    }
    let mut cmd = Command::new(&launch.program);
    cmd.args(&launch.args)
        .env_clear()
        .envs(launch.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    if let Some(cwd) = &launch.cwd {
        cmd.current_dir(cwd);
    }
    let mut child = os::spawn(cmd).map_err(|e| spawn_error(launch, e))?;
    let Some((stdin, stdout, stderr)) = child.take_tokio_stdio() else {
        return Err(Error::spawn(
            "Failed to spawn Claude Code process: stdio pipes were not created",
        ));
    };
    tracing::debug!(pid = child.id(), program = %launch.program, args = launch.args.len(), "spawned Claude Code");
    #[cfg(unix)]
    let direct_stdin = {
        use std::os::fd::AsFd;
        stdin.as_fd().try_clone_to_owned().map(std::fs::File::from).ok()
    };
    #[cfg(not(unix))]
    let direct_stdin = None;
    Ok(Spawned {
        child,
        stdin: Box::new(stdin),
        direct_stdin,
        stdout: Box::new(stdout),
        stderr: Box::new(stderr),
    })
}

/// Linux: the CLI started without a fork of the host (see `os::clone_spawn`); None where that
/// cannot be done here.
#[cfg(target_os = "linux")]
fn spawn_without_fork(launch: &Launch) -> Result<Option<Spawned>, Error> {
    use tokio::net::unix::pipe;
    let Some((child, pipes)) = os::spawn_without_fork(launch).map_err(|e| spawn_error(launch, e))? else {
        return Ok(None);
    };
    let wrap =
        |e: std::io::Error| Error::spawn_io(format!("Failed to spawn Claude Code process: its stdio pipes: {e}"), e);
    let direct_stdin = pipes.stdin.try_clone().map(std::fs::File::from).ok();
    let stdin = pipe::Sender::from_owned_fd(pipes.stdin).map_err(wrap)?;
    let stdout = pipe::Receiver::from_owned_fd(pipes.stdout).map_err(wrap)?;
    let stderr = pipe::Receiver::from_owned_fd(pipes.stderr).map_err(wrap)?;
    tracing::debug!(pid = child.id(), program = %launch.program, args = launch.args.len(), "spawned Claude Code (no fork)");
    Ok(Some(Spawned {
        child,
        stdin: Box::new(stdin),
        direct_stdin,
        stdout: Box::new(stdout),
        stderr: Box::new(stderr),
    }))
}

fn spawn_error(launch: &Launch, e: std::io::Error) -> Error {
    match e.kind() {
    std::io::ErrorKind::NotFound => Error::CliNotFound(format!(
      "Claude Code executable not found at {}. Is {} set?",
      launch.program,
      super::discover::PATH_OPTION
    )),
    std::io::ErrorKind::PermissionDenied => {
      Error::spawn_io(format!("Claude Code executable at {} exists but failed to launch: permission denied", launch.program), e)
    }
    // ENOEXEC: a binary for another platform or architecture, or a script without a `#!` line.
    _ if e.raw_os_error() == Some(libc::ENOEXEC) => Error::spawn_io(
      format!(
        "Failed to spawn Claude Code process {}: {e}: it is not an executable this machine can run (a binary for another platform, or a script without a #! line)",
        launch.program
      ),
      e,
    ),
    _ => Error::spawn_io(format!("Failed to spawn Claude Code process {}: {e}", launch.program), e),
  }
}

/// How long the CLI gets to exit on its own once stdin is closed, and then after SIGTERM, before
/// it is sent SIGKILL. The official SDK waits 2 s and 5 s.
pub(crate) const GRACE_AFTER_STDIN: Duration = Duration::from_secs(2);
pub(crate) const GRACE_AFTER_SIGTERM: Duration = Duration::from_secs(5);

/// Ends the child gracefully, as the official SDK does: (stdin already closed by the caller)
/// wait, SIGTERM, wait, SIGKILL. On Windows the first signal already ends the job: the polite
/// part there is the closed stdin and the wait. Returns its exit status and whether we had to signal it.
pub async fn terminate(child: &mut dyn ChildProcess) -> (Option<ExitInfo>, bool) {
    if let Ok(status) = tokio::time::timeout(GRACE_AFTER_STDIN, child.wait()).await {
        return (status, false);
    }
    child.signal(SIGTERM);
    if let Ok(status) = tokio::time::timeout(GRACE_AFTER_SIGTERM, child.wait()).await {
        return (status, true);
    }
    child.signal(SIGKILL);
    (child.wait().await, true)
}

/// Process hygiene on every platform (the release workflow runs these on macOS and Windows
/// runners too): a CLI that exits when stdin closes ends by itself; one that does not is ended
/// by us, and says so; a CLI whose host is SIGKILLed/terminated does not survive it.
/// For the host-death tests: this test binary run again as a host, running only `test`, with
/// `var` naming a file for it to write one line to; the host, and the line once written (empty
/// if it was not within `wait`).
#[cfg(test)]
pub(crate) fn rerun_as_host(test: &str, var: &str, wait: Duration) -> (std::process::Child, String) {
    let out = std::env::temp_dir().join(format!("agent-core-{var}-{}", std::process::id()));
    let _ = std::fs::remove_file(&out);
    let host = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", test, "--test-threads=1"])
        .env(var, &out)
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = std::time::Instant::now();
    let mut line = String::new();
    while t0.elapsed() < wait && !line.ends_with('\n') {
        std::thread::sleep(Duration::from_millis(20));
        line = std::fs::read_to_string(&out).unwrap_or_default();
    }
    let _ = std::fs::remove_file(&out);
    (host, line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// A command line for this platform: `sh -c` on unix, `cmd /c` on Windows.
    fn shell(unix: &str, windows: &str) -> Launch {
        let (program, args) = if cfg!(windows) {
            ("cmd", vec!["/d".to_string(), "/c".into(), windows.into()])
        } else {
            ("sh", vec!["-c".to_string(), unix.into()])
        };
        Launch {
            program: program.into(),
            args,
            env: std::env::vars().collect(),
            cwd: None,
        }
    }

    fn alive(pid: u32) -> bool {
        #[cfg(unix)]
        {
            nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid as i32), None).is_ok()
                && !std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| s.contains(") Z"))
        }
        #[cfg(windows)]
        {
            let out = std::process::Command::new("tasklist")
                .args(["/FI", &format!("PID eq {pid}"), "/NH"])
                .output()
                .unwrap();
            String::from_utf8_lossy(&out.stdout).contains(&pid.to_string())
        }
    }

    #[tokio::test]
    async fn graceful_stop_closing_stdin_is_a_normal_exit() {
        // Reads stdin to its end, then exits 0.
        let mut s = spawn(&shell("cat >/dev/null", "sort >NUL")).unwrap();
        drop((s.stdin, s.direct_stdin));
        let (status, signalled) = terminate(&mut s.child).await;
        assert!(!signalled);
        assert_eq!(
            status,
            Some(ExitInfo {
                code: Some(0),
                signal: None
            })
        );
    }

    #[tokio::test]
    async fn a_cli_that_ignores_stdin_is_ended_by_us_and_reported_as_such() {
        let mut s = spawn(&shell("exec sleep 60", "ping -n 60 127.0.0.1 >NUL")).unwrap();
        let pid = s.child.id().unwrap();
        drop((s.stdin, s.direct_stdin));
        let t0 = Instant::now();
        let (status, signalled) = terminate(&mut s.child).await;
        assert!(signalled);
        assert!(t0.elapsed() >= GRACE_AFTER_STDIN && t0.elapsed() < GRACE_AFTER_STDIN + GRACE_AFTER_SIGTERM);
        // Windows has no signals: ended by us reads as the signal we sent, never as exit code 1.
        assert_eq!(
            status,
            Some(ExitInfo {
                code: None,
                signal: Some(SIGTERM)
            })
        );
        assert!(!alive(pid));
    }

    /// The host (this test binary, run again) spawns a CLI through [`spawn`] and is then killed
    /// outright; the CLI must not survive it, whatever the platform's guard.
    #[test]
    fn the_cli_dies_with_a_killed_host() {
        if let Some(out) = std::env::var_os("HOST_DEATH_TEST_OUT") {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async {
                let s = spawn(&shell("exec sleep 60", "ping -n 60 127.0.0.1 >NUL")).unwrap();
                std::fs::write(&out, format!("{}\n", s.child.id().unwrap())).unwrap();
                tokio::time::sleep(Duration::from_secs(60)).await;
            });
            return;
        }
        let (mut host, text) = rerun_as_host(
            "cli::process::tests::the_cli_dies_with_a_killed_host",
            "HOST_DEATH_TEST_OUT",
            Duration::from_secs(20),
        );
        let pid: u32 = text
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("the host reported {text:?}"));
        assert!(alive(pid));
        host.kill().unwrap(); // SIGKILL / TerminateProcess: nothing in the host runs
        host.wait().unwrap();
        let t0 = Instant::now();
        while alive(pid) && t0.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(!alive(pid), "CLI {pid} outlived its killed host");
    }
}
