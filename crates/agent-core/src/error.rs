use std::fmt;

/// Everything a session can fail with. Messages are what the user reads, so each names what was
/// wrong; where the official SDK has a wording for the same failure we use it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
  /// An option had a value we cannot use (wrong type, NUL byte, conflicting options, ...).
  InvalidOption(String),
  /// No Claude Code executable could be found.
  CliNotFound(String),
  /// The executable exists but could not be started.
  Spawn(String),
  /// The CLI exited with a non-zero code, or with 0 before producing a result.
  Exited { code: i32, stderr_tail: String },
  /// The CLI was killed by a signal we did not send.
  Signaled { signal: i32, stderr_tail: String },
  /// The user aborted (abortController) — mirrors the official AbortError.
  Aborted,
  /// The session is over (closed, or the CLI is gone): no more requests can be sent.
  SessionClosed(String),
  /// The CLI answered a control request with an error.
  Control(String),
  /// The CLI did not answer `initialize` in time.
  InitializeTimeout(u64),
  /// A line from the CLI broke the protocol in a way we cannot skip over.
  Protocol(String),
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
  /// A short machine-readable name, handed to JS as `error.code`.
  pub fn code(&self) -> &'static str {
    match self {
      Error::InvalidOption(_) => "INVALID_OPTION",
      Error::CliNotFound(_) => "CLI_NOT_FOUND",
      Error::Spawn(_) => "SPAWN_FAILED",
      Error::Exited { .. } => "PROCESS_EXITED",
      Error::Signaled { .. } => "PROCESS_SIGNALED",
      Error::Aborted => "ABORTED",
      Error::SessionClosed(_) => "SESSION_CLOSED",
      Error::Control(_) => "CONTROL_ERROR",
      Error::InitializeTimeout(_) => "INITIALIZE_TIMEOUT",
      Error::Protocol(_) => "PROTOCOL_ERROR",
    }
  }
}

fn stderr_suffix(tail: &str) -> String {
  let tail = tail.trim();
  if tail.is_empty() {
    String::new()
  } else {
    format!(". stderr: {tail}")
  }
}

impl fmt::Display for Error {
  fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    match self {
      Error::InvalidOption(m) | Error::CliNotFound(m) | Error::Spawn(m) | Error::Protocol(m) => {
        f.write_str(m)
      }
      Error::Exited { code: 0, stderr_tail } => write!(
        f,
        "Claude Code process exited with code 0 before sending a result{}",
        stderr_suffix(stderr_tail)
      ),
      Error::Exited { code, stderr_tail } => write!(
        f,
        "Claude Code process exited with code {code}{}",
        stderr_suffix(stderr_tail)
      ),
      Error::Signaled { signal, stderr_tail } => write!(
        f,
        "Claude Code process terminated by signal {}{}",
        signal_name(*signal),
        stderr_suffix(stderr_tail)
      ),
      Error::Aborted => f.write_str("Claude Code process aborted by user"),
      Error::SessionClosed(m) => f.write_str(m),
      Error::Control(m) => f.write_str(m),
      Error::InitializeTimeout(ms) => write!(
        f,
        "Claude Code did not answer the initialize request within {ms} ms; the process was killed"
      ),
    }
  }
}

impl std::error::Error for Error {}

/// The number of a signal Node names (`SIGTERM` for anything unknown: the polite default).
pub fn signal_number(name: &str) -> i32 {
  crate::cli::signal::number(name)
}

/// Node names signals (`SIGKILL`), so our messages do too.
pub fn signal_name(signal: i32) -> String {
  crate::cli::signal::name(signal)
}
