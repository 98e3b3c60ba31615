//! A query's settings as the TypeScript SDK's `Options` carry them, and the command line they
//! start the CLI with.

use std::path::PathBuf;

use agent_core::options::QueryOptions;

use super::error;
use crate::error::Result;

/// The data part of a query's options (everything but callbacks and live objects), named and
/// shaped as in the TypeScript SDK's `Options` (`{"model": .., "maxTurns": .., "mcpServers":
/// {only the servers the CLI runs itself}, "hooks": {Event: [{matcher, hookCallbackIds,
/// timeout}]}, "canUseTool": true, ...}`). Parsed once; every later step reads it.
///
/// [`Options`](crate::Options) converts to one of these, so a query started with [`query`](crate::query)
/// and one started by a host through [`start`](super::start) reach the CLI the same way.
#[derive(Debug)]
pub struct QueryConfig(pub(crate) QueryOptions);

impl QueryConfig {
    /// Parses the options from JSON text. An ill-typed or unknown field is an
    /// [`Error::InvalidOption`](crate::Error::InvalidOption) naming it (`Invalid option
    /// \`maxTurns\`: ...`).
    pub fn from_json(json: &str) -> Result<Self> {
        QueryOptions::from_json(json).map(Self).map_err(error)
    }

    /// The option names [`from_json`](Self::from_json) takes (the TypeScript SDK's camelCase
    /// `Options` keys that are data).
    pub fn option_names() -> &'static [&'static str] {
        QueryOptions::names()
    }

    /// Whether `debug` is set (the host's diagnostics should be on).
    pub fn debug(&self) -> bool {
        self.0.debug == Some(true)
    }

    /// Finds the Claude Code executable (the explicit `pathToClaudeCodeExecutable`, else the npm
    /// package `@anthropic-ai/claude-code` under a `node_modules` of one of `search_from` or their
    /// parents, else `claude` on the `PATH` of `env`, or of this process) and builds the command
    /// line, working directory and environment to start it with. `default_runtime` (`node`,
    /// `bun`) runs a JavaScript CLI when `executable` is not set.
    pub fn launch_spec(&self, search_from: &[PathBuf], default_runtime: &str) -> Result<LaunchSpec> {
        let o = &self.0;
        let path_var = o
            .env
            .as_ref()
            .and_then(|e| e.get("PATH"))
            .and_then(|v| v.as_str())
            .map(str::to_string)
            .or_else(|| std::env::var("PATH").ok());
        let explicit = o
            .path_to_claude_code_executable
            .as_deref()
            .map(|p| agent_core::options::path_text(p, "pathToClaudeCodeExecutable"))
            .transpose()
            .map_err(error)?;
        let exe = agent_core::cli::discover::find_cli(explicit, search_from, path_var.as_deref()).map_err(error)?;
        let launch = agent_core::cli::launch::build_launch(o, &exe, default_runtime).map_err(error)?;
        Ok(LaunchSpec {
            program: launch.program,
            args: launch.args,
            env: launch.env,
            cwd: launch.cwd,
        })
    }
}

/// How the CLI is started: what [`QueryConfig::launch_spec`] resolved, and what a host that
/// starts the process itself ([`Process::HostStarted`](super::Process::HostStarted)) runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchSpec {
    /// The executable (the CLI, or the runtime that runs it).
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its whole environment.
    pub env: Vec<(String, String)>,
    /// Its working directory; `None` for this process's.
    pub cwd: Option<String>,
}

impl From<LaunchSpec> for agent_core::cli::launch::Launch {
    fn from(l: LaunchSpec) -> Self {
        Self {
            program: l.program,
            args: l.args,
            env: l.env,
            cwd: l.cwd,
        }
    }
}
