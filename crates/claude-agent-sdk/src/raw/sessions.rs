//! Session transcripts on disk, as the TypeScript SDK's session functions see them: the engine's
//! typed functions, for a binding that shapes their results for its language. Each takes the
//! [`Context`] it looks in and does blocking file I/O: call them where blocking is allowed.
//! (The [`crate::sessions`] functions are the same work for Rust callers, run on tokio's blocking
//! pool.)

pub use agent_core::sessions::surrogate::unmask as unmask_surrogates;
pub use agent_core::sessions::{
    append, delete, export, fork, fork_text, info, info_from_text, list, materialize, messages, messages_from_text,
    precompact_skip_from_env, set_archived, subagent_messages, subagent_messages_from_text, subagents, Context, Export,
    ExportedAgent, Failure as SessionsFailure, Forked, ListOptions, MaterializeRequest, MaterializeSubagent, Page,
    SessionInfo,
};

/// The name of a project's folder under `projects/` (and its session store key): the path with
/// every character but ASCII letters and digits made `-`, long ones shortened with a hash, as
/// the CLI names them.
pub fn project_folder_name(path: &str) -> String {
    agent_core::sessions::paths::project_key(path)
}

/// Whether the CLI takes `name` from `CLAUDE_CODE_PROJECT_DIR_NAME` (1 to 64 of
/// `[A-Za-z0-9_-]`, not a Windows device name).
pub fn is_project_dir_name(name: &str) -> bool {
    agent_core::sessions::paths::valid_dir_name(name)
}

/// A random version-4 UUID.
pub fn new_uuid() -> String {
    agent_core::sessions::write::uuid_v4()
}

/// Whether `id` is a session id as the CLI writes them (a UUID, any case): what every session
/// operation checks before it looks for a file, so no id can name a path.
pub fn is_session_id(id: &str) -> bool {
    agent_core::sessions::paths::is_uuid(id)
}
