//! The one error type of this crate.

use std::time::Duration;

pub use agent_core::error::IoCause;

/// Everything a query can fail with. Each message names what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An option had a value that cannot be used (a NUL byte, conflicting options, a missing
    /// directory, two in-process servers under one name, ...).
    #[error("{0}")]
    InvalidOption(String),
    /// No Claude Code executable could be found.
    #[error("{0}")]
    CliNotFound(String),
    /// The executable exists but could not be started (or
    /// [`spawn_claude_code_process`](crate::OptionsBuilder::spawn_claude_code_process) failed).
    #[error("{message}")]
    Spawn {
        /// What failed, with the executable's path.
        message: String,
        /// The system's error, when there is one (also this error's `source()`).
        #[source]
        cause: Option<IoCause>,
    },
    /// The CLI exited with a non-zero code, or with 0 before producing a result.
    #[error("{message}")]
    ProcessExited {
        /// The exit code.
        code: i32,
        /// The full message, with the end of the CLI's stderr.
        message: String,
        /// The end of the CLI's stderr (API keys masked).
        stderr: String,
    },
    /// The CLI was killed by a signal this SDK did not send.
    #[error("{message}")]
    ProcessSignaled {
        /// The signal's number.
        signal: i32,
        /// The full message, with the end of the CLI's stderr.
        message: String,
        /// The end of the CLI's stderr (API keys masked).
        stderr: String,
    },
    /// The query was aborted ([`QueryControl::abort`](crate::QueryControl::abort)).
    #[error("Claude Code process aborted by user")]
    Aborted,
    /// The query is over (closed, dropped, or the CLI is gone): no more requests can be sent.
    #[error("{0}")]
    SessionClosed(String),
    /// The CLI answered a control request with an error.
    #[error("{0}")]
    Control(String),
    /// The CLI did not answer `initialize` in time.
    #[error("Claude Code did not answer the initialize request within {} ms; the process was killed", .0.as_millis())]
    InitializeTimeout(Duration),
    /// A line from the CLI, or an answer to a control request, broke the protocol.
    #[error("{0}")]
    Protocol(String),
    /// The consumer fell so far behind that the messages waiting for it passed the session's
    /// bound: the session was ended rather than stall the CLI or grow without limit.
    #[error("{0}")]
    Backlog(String),
    /// A session function ([`crate::sessions`]) failed: no such session, a bad id, a file that
    /// could not be written, ...; or a session store's call when resuming from it
    /// ([`crate::store::resume_from_store`]).
    #[error("{0}")]
    Sessions(String),
    /// The Claude Code started cannot do what an option asks (it is older than the feature): the
    /// session was ended before the prompt was sent.
    #[error("{0}")]
    CliTooOld(String),
    /// The CLI and what it started passed their
    /// [`resource_limits`](crate::OptionsBuilder::resource_limits) and were stopped.
    #[error("{message}")]
    ResourceLimit {
        /// The full message: the limit, the figure reached, and the end of the CLI's stderr.
        message: String,
        /// The CLI's exit code, when it exited with one.
        exit_code: Option<i32>,
        /// The signal that ended it, when one did.
        signal: Option<i32>,
        /// The end of the CLI's stderr (API keys masked).
        stderr: String,
    },
    /// [`query`](crate::query) was called outside a tokio runtime.
    #[error("claude_agent_sdk::query must be called from within a tokio runtime (e.g. under #[tokio::main])")]
    NoRuntime,
}

impl Error {
    /// A short stable name to match on (the Node.js package's `error.code`): `INVALID_OPTION`,
    /// `CLI_NOT_FOUND`, `SPAWN_FAILED`, `PROCESS_EXITED`, `PROCESS_SIGNALED`, `ABORTED`,
    /// `SESSION_CLOSED`, `CONTROL_ERROR`, `INITIALIZE_TIMEOUT`, `PROTOCOL_ERROR`, `MESSAGE_BACKLOG`,
    /// `CLI_TOO_OLD`, `SESSIONS_ERROR`, `NO_RUNTIME`, `RESOURCE_LIMIT`.
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidOption(_) => "INVALID_OPTION",
            Error::CliNotFound(_) => "CLI_NOT_FOUND",
            Error::Spawn { .. } => "SPAWN_FAILED",
            Error::ProcessExited { .. } => "PROCESS_EXITED",
            Error::ProcessSignaled { .. } => "PROCESS_SIGNALED",
            Error::Aborted => "ABORTED",
            Error::SessionClosed(_) => "SESSION_CLOSED",
            Error::Control(_) => "CONTROL_ERROR",
            Error::InitializeTimeout(_) => "INITIALIZE_TIMEOUT",
            Error::Protocol(_) => "PROTOCOL_ERROR",
            Error::Backlog(_) => "MESSAGE_BACKLOG",
            Error::ResourceLimit { .. } => "RESOURCE_LIMIT",
            Error::CliTooOld(_) => "CLI_TOO_OLD",
            Error::Sessions(_) => "SESSIONS_ERROR",
            Error::NoRuntime => "NO_RUNTIME",
        }
    }

    /// The CLI's exit code, when it exited on its own ([`Error::ProcessExited`]).
    pub fn exit_code(&self) -> Option<i32> {
        match self {
            Error::ProcessExited { code, .. } => Some(*code),
            Error::ResourceLimit { exit_code, .. } => *exit_code,
            _ => None,
        }
    }

    /// The signal that ended the CLI, as Node names it (`SIGKILL`), for
    /// [`Error::ProcessSignaled`].
    pub fn signal(&self) -> Option<String> {
        match self {
            Error::ProcessSignaled { signal, .. } => Some(agent_core::error::signal_name(*signal)),
            Error::ResourceLimit {
                signal: Some(signal), ..
            } => Some(agent_core::error::signal_name(*signal)),
            _ => None,
        }
    }

    /// The end of the CLI's stderr, when the CLI died.
    pub fn stderr(&self) -> Option<&str> {
        match self {
            Error::ProcessExited { stderr, .. }
            | Error::ProcessSignaled { stderr, .. }
            | Error::ResourceLimit { stderr, .. } => Some(stderr),
            _ => None,
        }
    }
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
