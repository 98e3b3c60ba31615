//! Starting and ending the CLI process. The child must never outlive its session or its host:
//! it is killed when the session ends or its handle is dropped, and each platform's guard
//! ([`crate::cli::os`]) ends it if the host dies without cleaning up (SIGKILL of the host
//! included).

use std::process::Stdio;
use std::time::Duration;

use tokio::process::{ChildStderr, ChildStdin, ChildStdout, Command};

use crate::cli::child::{ChildProcess, ExitInfo, LocalChild};
use crate::cli::os;
use crate::cli::signal::{SIGKILL, SIGTERM};

use crate::cli::launch::Launch;
use crate::error::Error;

pub struct Spawned {
  pub child: LocalChild,
  pub stdin: ChildStdin,
  pub stdout: ChildStdout,
  pub stderr: ChildStderr,
}

/// Spawns without a shell: every argument reaches the CLI as one argv entry, as given.
/// Must be called from within a tokio runtime; any thread will do (see `os::spawn`).
pub fn spawn(launch: &Launch) -> Result<Spawned, Error> {
  crate::cli::launch::check_command_line(launch)?;
  let mut cmd = Command::new(&launch.program);
  cmd
    .args(&launch.args)
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
  let (Some(stdin), Some(stdout), Some(stderr)) = (child.child.stdin.take(), child.child.stdout.take(), child.child.stderr.take()) else {
    return Err(Error::Spawn("Failed to spawn Claude Code process: stdio pipes were not created".into()));
  };
  tracing::debug!(pid = child.id(), program = %launch.program, args = launch.args.len(), "spawned Claude Code");
  Ok(Spawned { child, stdin, stdout, stderr })
}

fn spawn_error(launch: &Launch, e: std::io::Error) -> Error {
  match e.kind() {
    std::io::ErrorKind::NotFound => Error::CliNotFound(format!(
      "Claude Code executable not found at {}. Is options.pathToClaudeCodeExecutable set?",
      launch.program
    )),
    std::io::ErrorKind::PermissionDenied => {
      Error::Spawn(format!("Claude Code executable at {} exists but failed to launch: permission denied", launch.program))
    }
    _ => Error::Spawn(format!("Failed to spawn Claude Code process: {e}")),
  }
}

/// How long the CLI gets to exit on its own once stdin is closed, and then after SIGTERM, before
/// it is sent SIGKILL. The official SDK waits 2 s and 5 s.
pub const GRACE_AFTER_STDIN: Duration = Duration::from_secs(2);
pub const GRACE_AFTER_SIGTERM: Duration = Duration::from_secs(5);

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
