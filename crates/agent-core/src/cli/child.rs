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

    /// The error the session ends with when the process tree passed its `resourceLimits` and
    /// was stopped for it ([`crate::cli::limits`]).
    fn limit_breach(&self) -> Option<crate::error::Error> {
        None
    }
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

/// A process whose first reported exit is kept, for whoever asks once the session is over
/// (`onProcessExit`): the session loop waits for the process in several places (at the end of
/// output, when stopping it), and each goes through here.
pub struct RecordExit {
    inner: Box<dyn ChildProcess>,
    seen: std::sync::Arc<std::sync::OnceLock<ExitInfo>>,
}

impl RecordExit {
    pub fn new(inner: Box<dyn ChildProcess>, seen: std::sync::Arc<std::sync::OnceLock<ExitInfo>>) -> Self {
        Self { inner, seen }
    }
}

impl ChildProcess for RecordExit {
    fn id(&self) -> Option<u32> {
        self.inner.id()
    }

    fn signal(&mut self, signal: i32) {
        self.inner.signal(signal)
    }

    fn wait(&mut self) -> WaitFuture<'_> {
        let seen = self.seen.clone();
        let wait = self.inner.wait();
        Box::pin(async move {
            let exit = wait.await;
            if let Some(e) = exit {
                let _ = seen.set(e);
            }
            exit
        })
    }

    fn end_leftovers(&mut self) {
        self.inner.end_leftovers()
    }

    fn limit_breach(&self) -> Option<crate::error::Error> {
        self.inner.limit_breach()
    }
}
