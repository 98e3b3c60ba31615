//! The errors of a Codex session, each with a stable code (JS gets it as `error.code`).

use crate::error::stderr_suffix;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodexError {
    #[error("{0}")]
    InvalidOption(String),
    /// No Codex executable was found (the message lists where it looked).
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Spawn(String),
    /// `codex app-server` exited (or was killed) while the session needed it.
    #[error("Codex app-server {}{}", exit_text(*.code, .signal.as_deref()), stderr_suffix(.stderr_tail))]
    Exited {
        code: Option<i32>,
        signal: Option<String>,
        stderr_tail: String,
    },
    /// This Codex has no dynamic tools (older than the `dynamicTools` of `thread/start`).
    #[error("{0}")]
    TooOld(String),
    /// Codex answered a request with a JSON-RPC error.
    #[error("{message}")]
    Request { code: i64, message: String },
    /// The session is closed: nothing more can be sent.
    #[error("{0}")]
    Closed(String),
    #[error("Codex app-server did not answer `initialize` within {0} ms; the process was killed")]
    InitializeTimeout(u64),
    /// A line or an answer from Codex broke the protocol.
    #[error("{0}")]
    Protocol(String),
    /// The turn was interrupted by the caller.
    #[error("The Codex turn was aborted")]
    Aborted,
}

impl CodexError {
    pub fn code(&self) -> &'static str {
        match self {
            CodexError::InvalidOption(_) => "INVALID_OPTION",
            CodexError::NotFound(_) => "CODEX_NOT_FOUND",
            CodexError::Spawn(_) => "CODEX_SPAWN_FAILED",
            CodexError::Exited { .. } => "CODEX_EXITED",
            CodexError::TooOld(_) => "CODEX_TOO_OLD",
            CodexError::Request { .. } => "CODEX_REQUEST_FAILED",
            CodexError::Closed(_) => "CODEX_CLOSED",
            CodexError::InitializeTimeout(_) => "CODEX_INITIALIZE_TIMEOUT",
            CodexError::Protocol(_) => "CODEX_PROTOCOL_ERROR",
            CodexError::Aborted => "ABORTED",
        }
    }

    /// The end of Codex's stderr (keys masked), when it died.
    pub fn stderr(&self) -> Option<&str> {
        match self {
            CodexError::Exited { stderr_tail, .. } => Some(stderr_tail),
            _ => None,
        }
    }

    pub fn exit_code(&self) -> Option<i32> {
        match self {
            CodexError::Exited { code, .. } => *code,
            _ => None,
        }
    }

    pub fn signal(&self) -> Option<String> {
        match self {
            CodexError::Exited { signal, .. } => signal.clone(),
            _ => None,
        }
    }
}

fn exit_text(code: Option<i32>, signal: Option<&str>) -> String {
    match (code, signal) {
        (_, Some(s)) => format!("was terminated by signal {s}"),
        (Some(c), None) => format!("exited with code {c}"),
        (None, None) => "exited".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_messages_are_stable() {
        let e = CodexError::Exited {
            code: Some(2),
            signal: None,
            stderr_tail: "boom".into(),
        };
        assert_eq!(
            (e.code(), e.to_string()),
            (
                "CODEX_EXITED",
                "Codex app-server exited with code 2. stderr: boom".to_string()
            )
        );
        let e = CodexError::Exited {
            code: None,
            signal: Some("SIGKILL".into()),
            stderr_tail: String::new(),
        };
        assert_eq!(e.to_string(), "Codex app-server was terminated by signal SIGKILL");
        assert_eq!(CodexError::TooOld("x".into()).code(), "CODEX_TOO_OLD");
    }
}
