//! Session transcripts on disk, as the TypeScript SDK's session functions see them.

/// Why a session operation failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionsFailure {
  /// What went wrong.
  pub message: String,
  /// Whether the message is safe to show as it is (it names nothing private, such as a path).
  pub safe: bool,
}

/// Runs one session operation on the CLI's JSONL transcripts, the engine side of the TypeScript
/// SDK's session functions: `op` is one of `list`, `info`, `infoFromText`, `messages`,
/// `messagesFromText`, `subagents`, `subagentMessages`, `subagentMessagesFromText`, `append`,
/// `archive`, `delete`, `fork`, `forkText`, `exportEntries`, and `args` its arguments as one
/// JSON object (`{"sessionId", "dir", "configDir", ...}`, named as in the TypeScript SDK); the
/// result is JSON text. It does blocking file I/O: call it where blocking is allowed.
pub fn sessions_call(op: &str, args: &str) -> Result<String, SessionsFailure> {
  agent_core::sessions::call(op, args).map_err(|f| SessionsFailure { message: f.message, safe: f.safe })
}

/// Whether `id` is a session id as the CLI writes them (a UUID, any case): what every session
/// operation checks before it looks for a file, so no id can name a path.
pub fn is_session_id(id: &str) -> bool {
  agent_core::sessions::paths::is_uuid(id)
}
