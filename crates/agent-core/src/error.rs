/// Everything a session can fail with. Messages are what the user reads, so each names what was
/// wrong; where the official SDK has a wording for the same failure we use it. [`Error::code`]
/// is the stable name a program matches on (the JS binding's `error.code`).
///
/// Deliberately not `#[non_exhaustive]`: its one consumer, the Rust SDK (whose public error is
/// `#[non_exhaustive]`), maps it with an exhaustive match, so a new variant fails to compile
/// there until it has a mapping, rather than falling into a catch-all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// An option had a value we cannot use (wrong type, NUL byte, conflicting options, ...).
    #[error("{0}")]
    InvalidOption(String),
    /// No Claude Code executable could be found.
    #[error("{0}")]
    CliNotFound(String),
    /// The executable exists but could not be started; `cause`: the system's error, when there is
    /// one.
    #[error("{message}")]
    Spawn {
        message: String,
        #[source]
        cause: Option<IoCause>,
    },
    /// The CLI exited with a non-zero code, or with 0 before producing a result.
    #[error("{}{}", exit_message(*.code), stderr_suffix(.stderr_tail))]
    Exited { code: i32, stderr_tail: String },
    /// The CLI was killed by a signal we did not send.
    #[error("Claude Code process terminated by signal {}{}", signal_name(*.signal), stderr_suffix(.stderr_tail))]
    Signaled { signal: i32, stderr_tail: String },
    /// The user aborted (abortController) — mirrors the official AbortError.
    #[error("Claude Code process aborted by user")]
    Aborted,
    /// The session is over (closed, or the CLI is gone): no more requests can be sent.
    #[error("{0}")]
    SessionClosed(String),
    /// The CLI answered a control request with an error.
    #[error("{0}")]
    Control(String),
    /// The CLI did not answer `initialize` in time.
    #[error("Claude Code did not answer the initialize request within {0} ms; the process was killed")]
    InitializeTimeout(u64),
    /// A line from the CLI broke the protocol in a way we cannot skip over.
    #[error("{0}")]
    Protocol(String),
    /// The consumer fell so far behind that the messages waiting for it passed the session's
    /// bound (see `session::queue`): the session was ended rather than stall or grow without limit.
    #[error("The query's consumer fell behind: about {held} bytes of messages were waiting unread when Claude Code wrote another of {line} bytes, past the bound; the session was ended (iterate the query while it runs, or close it)")]
    Backlog { held: usize, line: usize },
    /// The CLI's process tree passed its `resourceLimits` and was stopped: `message` names the
    /// limit and the figure reached; `code`/`signal` are how the CLI ended.
    #[error("{message}{}", stderr_suffix(.stderr_tail))]
    ResourceLimit {
        message: String,
        code: Option<i32>,
        signal: Option<i32>,
        stderr_tail: String,
    },
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// A short machine-readable name, handed to JS as `error.code`.
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidOption(_) => "INVALID_OPTION",
            Error::CliNotFound(_) => "CLI_NOT_FOUND",
            Error::Spawn { .. } => "SPAWN_FAILED",
            Error::Exited { .. } => "PROCESS_EXITED",
            Error::Signaled { .. } => "PROCESS_SIGNALED",
            Error::Aborted => "ABORTED",
            Error::SessionClosed(_) => "SESSION_CLOSED",
            Error::Control(_) => "CONTROL_ERROR",
            Error::InitializeTimeout(_) => "INITIALIZE_TIMEOUT",
            Error::Protocol(_) => "PROTOCOL_ERROR",
            Error::Backlog { .. } => "MESSAGE_BACKLOG",
            Error::ResourceLimit { .. } => "RESOURCE_LIMIT",
        }
    }

    /// The CLI's exit code, when it exited on its own.
    pub fn exit_code(&self) -> Option<i32> {
        match self {
            Error::Exited { code, .. } => Some(*code),
            Error::ResourceLimit { code, .. } => *code,
            _ => None,
        }
    }

    /// The signal that ended the CLI, as Node names it (`SIGKILL`).
    pub fn signal(&self) -> Option<String> {
        match self {
            Error::Signaled { signal, .. } => Some(signal_name(*signal)),
            Error::ResourceLimit {
                signal: Some(signal), ..
            } => Some(signal_name(*signal)),
            _ => None,
        }
    }

    /// The end of the CLI's stderr (keys masked), when the CLI died.
    pub fn stderr(&self) -> Option<&str> {
        match self {
            Error::Exited { stderr_tail, .. }
            | Error::Signaled { stderr_tail, .. }
            | Error::ResourceLimit { stderr_tail, .. } => Some(stderr_tail),
            _ => None,
        }
    }
}

/// An I/O error kept as the cause of an error (`source()`), shared so that the error stays
/// `Clone`. It reads as the I/O error itself (same message, same `source()`); two are equal when
/// their kind, OS code and message are.
#[derive(Debug, Clone)]
pub struct IoCause(pub std::sync::Arc<std::io::Error>);

impl IoCause {
    /// The I/O error.
    pub fn io(&self) -> &std::io::Error {
        &self.0
    }
}

impl From<std::io::Error> for IoCause {
    fn from(e: std::io::Error) -> Self {
        IoCause(std::sync::Arc::new(e))
    }
}

impl PartialEq for IoCause {
    fn eq(&self, other: &Self) -> bool {
        self.0.kind() == other.0.kind()
            && self.0.raw_os_error() == other.0.raw_os_error()
            && self.0.to_string() == other.0.to_string()
    }
}

impl Eq for IoCause {}

impl std::fmt::Display for IoCause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for IoCause {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

impl Error {
    /// A spawn failure with no system error behind it.
    pub fn spawn(message: impl Into<String>) -> Error {
        Error::Spawn {
            message: message.into(),
            cause: None,
        }
    }

    /// A spawn failure caused by `cause`.
    pub fn spawn_io(message: impl Into<String>, cause: std::io::Error) -> Error {
        Error::Spawn {
            message: message.into(),
            cause: Some(cause.into()),
        }
    }
}

fn exit_message(code: i32) -> String {
    if code == 0 {
        "Claude Code process exited with code 0 before sending a result".to_string()
    } else {
        format!("Claude Code process exited with code {code}")
    }
}

/// `. stderr: <tail>` for an error message, or nothing when the tail is empty.
pub(crate) fn stderr_suffix(tail: &str) -> String {
    let tail = tail.trim();
    if tail.is_empty() {
        String::new()
    } else {
        format!(". stderr: {tail}")
    }
}

/// The number of a signal Node names (`SIGTERM` for anything unknown: the polite default).
pub fn signal_number(name: &str) -> i32 {
    crate::cli::signal::number(name)
}

/// Node names signals (`SIGKILL`), so our messages do too.
pub fn signal_name(signal: i32) -> String {
    crate::cli::signal::name(signal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_and_codes_are_stable() {
        let e = Error::Exited {
            code: 0,
            stderr_tail: String::new(),
        };
        assert_eq!(
            e.to_string(),
            "Claude Code process exited with code 0 before sending a result"
        );
        let e = Error::Exited {
            code: 3,
            stderr_tail: " boom \n".into(),
        };
        assert_eq!(
            (e.code(), e.to_string(), e.exit_code()),
            (
                "PROCESS_EXITED",
                "Claude Code process exited with code 3. stderr: boom".into(),
                Some(3)
            )
        );
        let e = Error::Signaled {
            signal: libc::SIGKILL,
            stderr_tail: String::new(),
        };
        assert_eq!(
            (e.to_string(), e.signal()),
            (
                "Claude Code process terminated by signal SIGKILL".into(),
                Some("SIGKILL".into())
            )
        );
        assert_eq!(
            Error::InitializeTimeout(5).to_string(),
            "Claude Code did not answer the initialize request within 5 ms; the process was killed"
        );
        assert_eq!(Error::Aborted.code(), "ABORTED");
    }
}
