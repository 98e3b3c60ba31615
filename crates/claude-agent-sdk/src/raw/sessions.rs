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

/// [`sessions_call`], with the JSON text re-encoded as Latin-1 (characters above U+00FF as
/// `\uXXXX` escapes), the form a JavaScript engine holds as a one-byte string and parses without
/// decoding UTF-8. ASCII text (the usual case) is handed back as it is.
pub fn sessions_call_latin1(op: &str, args: &str) -> Result<Vec<u8>, SessionsFailure> {
  sessions_call(op, args).map(|text| if text.is_ascii() { text.into_bytes() } else { agent_core::codec::latin1_json(&text) })
}

/// Whether `id` is a session id as the CLI writes them (a UUID, any case): what every session
/// operation checks before it looks for a file, so no id can name a path.
pub fn is_session_id(id: &str) -> bool {
  agent_core::sessions::paths::is_uuid(id)
}
