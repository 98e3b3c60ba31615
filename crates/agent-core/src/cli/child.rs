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

  /// After the process exited: end what it started and left behind (MCP servers, shells).
  fn end_leftovers(&mut self) {}
}

/// A child we spawned ourselves, leader of its own process group.
pub struct LocalChild {
  child: tokio::process::Child,
  /// Kept past the reaping of the leader (after which `id()` is None), to reach the group.
  pgid: Option<i32>,
}

impl LocalChild {
  pub fn new(child: tokio::process::Child) -> Self {
    let pgid = child.id().map(|p| p as i32);
    Self { child, pgid }
  }
}

impl ChildProcess for LocalChild {
  fn id(&self) -> Option<u32> {
    self.child.id()
  }

  fn end_leftovers(&mut self) {
    // The group outlives its leader while members remain, and its id cannot be reused until
    // they are gone: SIGTERM now, SIGKILL for whatever ignores it a little later (ESRCH when
    // nothing is left).
    if let Some(pgid) = self.pgid.take() {
      unsafe {
        libc::kill(-pgid, libc::SIGTERM);
      }
      tokio::spawn(async move {
        tokio::time::sleep(std::time::Duration::from_secs(2)).await;
        unsafe {
          libc::kill(-pgid, libc::SIGKILL);
        }
      });
    }
  }

  fn signal(&mut self, signal: i32) {
    if let Some(pid) = self.child.id() {
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
      let status = self.child.wait().await.ok()?;
      Some(ExitInfo { code: status.code(), signal: status.signal() })
    })
  }
}
