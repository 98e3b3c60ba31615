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

/// A child we spawned ourselves; how it is contained is each platform's business
/// ([`crate::cli::os`]).
pub use crate::cli::os::LocalChild;

impl ChildProcess for LocalChild {
  fn id(&self) -> Option<u32> {
    LocalChild::id(self)
  }

  fn signal(&mut self, signal: i32) {
    LocalChild::signal(self, signal)
  }

  fn wait(&mut self) -> WaitFuture<'_> {
    Box::pin(LocalChild::wait(self))
  }

  fn end_leftovers(&mut self) {
    LocalChild::end_leftovers(self)
  }
}
