//! A CLI process the host starts itself (the TypeScript SDK's `spawnClaudeCodeProcess`): the
//! session writes to it and signals it through the host, and the host feeds its output back.

use std::sync::Arc;

use agent_core::cli::child::ExitInfo;
use agent_core::cli::custom::{HostProcessEvent, HostProcessFeed};

/// What the session asks of a host-started process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProcessEvent {
    /// Write these bytes to its stdin.
    Write(Vec<u8>),
    /// Close its stdin.
    End,
    /// Send it this signal (named as Node names signals: `SIGTERM`, `SIGKILL`).
    Signal(String),
}

/// Where a host-started process's [`ProcessEvent`]s go; called from the session's task, so it
/// must not block.
pub type ProcessSink = Arc<dyn Fn(ProcessEvent) + Send + Sync>;

impl From<HostProcessEvent> for ProcessEvent {
    fn from(e: HostProcessEvent) -> Self {
        match e {
            HostProcessEvent::Write(bytes) => ProcessEvent::Write(bytes),
            HostProcessEvent::End => ProcessEvent::End,
            HostProcessEvent::Signal(sig) => ProcessEvent::Signal(agent_core::error::signal_name(sig)),
        }
    }
}

/// The host's side of a host-started process: what it prints and how it ended.
#[derive(Clone)]
pub struct ProcessFeed(pub(super) HostProcessFeed);

impl ProcessFeed {
    /// A chunk of the process's stdout.
    pub fn stdout(&self, bytes: Vec<u8>) {
        self.0.stdout(bytes)
    }

    /// Its stdout ended.
    pub fn stdout_end(&self) {
        self.0.stdout_end()
    }

    /// It exited: with `code`, or killed by the signal named `signal` (`SIGKILL`; an unknown name
    /// counts as `SIGTERM`). Neither given counts as exit code 1.
    pub fn exited(&self, code: Option<i32>, signal: Option<&str>) {
        let signal = signal.map(agent_core::error::signal_number);
        self.0.exited(ExitInfo {
            code: if signal.is_some() {
                None
            } else {
                Some(code.unwrap_or(1))
            },
            signal,
        });
    }
}

impl std::fmt::Debug for ProcessFeed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProcessFeed").finish_non_exhaustive()
    }
}
