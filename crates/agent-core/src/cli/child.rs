//! The CLI process as the session sees it: something that can be signalled and waited for.
//! Usually a child we spawned ([`LocalChild`]); with `spawnClaudeCodeProcess` it is a process the
//! host started (in a VM, a container, over SSH) and only reports on ([`crate::cli::custom`]).

use std::future::Future;
use std::pin::Pin;

/// How the process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExitInfo {
  pub code: Option<i32>,
  pub signal: Option<i32>,
}

pub type WaitFuture<'a> = Pin<Box<dyn Future<Output = Option<ExitInfo>> + Send + 'a>>;

pub trait ChildProcess: Send {
  fn id(&self) -> Option<u32>;
  /// Sends a signal (to the whole process group, for a local child).
  fn signal(&mut self, signal: i32);
  /// Resolves when the process has exited. Cancel-safe: dropping the future and calling again
  /// is fine.
  fn wait(&mut self) -> WaitFuture<'_>;
}

/// A child we spawned ourselves.
pub struct LocalChild(pub tokio::process::Child);

impl ChildProcess for LocalChild {
  fn id(&self) -> Option<u32> {
    self.0.id()
  }

  fn signal(&mut self, signal: i32) {
    if let Some(pid) = self.0.id() {
      // Negative pid: the process group we put the CLI in, so what it started goes too.
      // `id()` is None once the child is reaped, so a recycled pid is never signalled.
      unsafe {
        libc::kill(-(pid as i32), signal);
      }
    }
  }

  fn wait(&mut self) -> WaitFuture<'_> {
    use std::os::unix::process::ExitStatusExt;
    Box::pin(async move {
      let status = self.0.wait().await.ok()?;
      Some(ExitInfo { code: status.code(), signal: status.signal() })
    })
  }
}
