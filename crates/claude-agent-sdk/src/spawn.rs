//! Starting the CLI yourself (the TypeScript SDK's `spawnClaudeCodeProcess`): in a container, on
//! another machine, under a sandbox. [`OptionsBuilder::spawn_claude_code_process`] gets the
//! command line the SDK would run ([`SpawnOptions`]) and returns the process as a
//! [`SpawnedProcess`]: its stdin, its stdout, how it exits, and how to signal it. The session
//! then speaks to it exactly as to a CLI it started.
//!
//! [`OptionsBuilder::spawn_claude_code_process`]: crate::OptionsBuilder::spawn_claude_code_process

use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;

use futures::future::BoxFuture;
use futures::FutureExt;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use crate::raw::{ProcessEvent, ProcessFeed, ProcessSink};

/// The command line the SDK would run the CLI with (the TypeScript SDK's `SpawnOptions`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SpawnOptions {
    /// The executable: the CLI, or the runtime that runs it (`node`, `bun`).
    pub command: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// The working directory (`None`: this process's).
    pub cwd: Option<PathBuf>,
    /// Its whole environment (this process's, with the options' changes, unless
    /// [`inherit_env(false)`](crate::OptionsBuilder::inherit_env)).
    pub env: Vec<(String, String)>,
}

/// How a process ended: its exit code, or the signal that killed it (`SIGKILL`, ...).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ProcessExit {
    /// The exit code, if it exited by itself.
    pub code: Option<i32>,
    /// The name of the signal that killed it, if one did.
    pub signal: Option<String>,
}

/// Sends a process a signal, named as Node names them (`SIGTERM`, `SIGKILL`).
pub type KillFn = Box<dyn FnMut(&str) + Send>;

/// A CLI process the app started (the TypeScript SDK's `SpawnedProcess`). The session writes
/// its input to [`stdin`](Self::stdin) (and drops it when done, which must close the
/// process's input), reads its messages from
/// [`stdout`](Self::stdout), and stops it as it stops a CLI it started itself: input closed,
/// then `SIGTERM`, then `SIGKILL`, through [`kill`](Self::kill). The session ends when
/// [`exited`](Self::exited) resolves.
pub struct SpawnedProcess {
    /// Its standard input.
    pub stdin: Pin<Box<dyn AsyncWrite + Send>>,
    /// Its standard output.
    pub stdout: Pin<Box<dyn AsyncRead + Send>>,
    /// Resolves when it has exited.
    pub exited: BoxFuture<'static, ProcessExit>,
    /// Signals it.
    pub kill: KillFn,
}

impl std::fmt::Debug for SpawnedProcess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SpawnedProcess").finish_non_exhaustive()
    }
}

impl SpawnedProcess {
    /// A child started with `tokio::process::Command` with piped stdin and stdout (its stderr is
    /// the app's to handle). Fails when either pipe is missing.
    pub fn from_child(mut child: tokio::process::Child) -> std::io::Result<Self> {
        let missing = |which: &str| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("the child's {which} is not piped (Stdio::piped())"),
            )
        };
        let stdin = child.stdin.take().ok_or_else(|| missing("stdin"))?;
        let stdout = child.stdout.take().ok_or_else(|| missing("stdout"))?;
        let pid = child.id();
        // The wait owns the child; a SIGKILL asked for meanwhile reaches it through this channel
        // (other signals go to its pid).
        let (kill_tx, mut kill_rx) = tokio::sync::mpsc::unbounded_channel::<()>();
        let exited = async move {
            let status = loop {
                tokio::select! {
                  status = child.wait() => break status,
                  Some(()) = kill_rx.recv() => { let _ = child.start_kill(); }
                }
            };
            match status {
                Ok(s) => exit_of(s),
                Err(_) => ProcessExit {
                    code: Some(1),
                    signal: None,
                },
            }
        }
        .boxed();
        let kill: KillFn = Box::new(move |signal: &str| {
            if signal == "SIGKILL" {
                let _ = kill_tx.send(());
            } else if let Some(pid) = pid {
                signal_pid(pid, signal, &kill_tx);
            }
        });
        Ok(Self {
            stdin: Box::pin(stdin),
            stdout: Box::pin(stdout),
            exited,
            kill,
        })
    }
}

fn exit_of(s: std::process::ExitStatus) -> ProcessExit {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = s.signal() {
            return ProcessExit {
                code: None,
                signal: Some(agent_core::error::signal_name(sig)),
            };
        }
    }
    ProcessExit {
        code: Some(s.code().unwrap_or(1)),
        signal: None,
    }
}

#[cfg(unix)]
fn signal_pid(pid: u32, signal: &str, _kill: &tokio::sync::mpsc::UnboundedSender<()>) {
    use nix::sys::signal::{kill, Signal};
    use nix::unistd::Pid;
    if let Ok(sig) = Signal::try_from(agent_core::error::signal_number(signal)) {
        let _ = kill(Pid::from_raw(pid as i32), sig);
    }
}

/// Windows has no signals: any of them ends the process.
#[cfg(not(unix))]
fn signal_pid(_pid: u32, _signal: &str, kill: &tokio::sync::mpsc::UnboundedSender<()>) {
    let _ = kill.send(());
}

/// What starts the CLI for a query ([`OptionsBuilder::spawn_claude_code_process`](crate::OptionsBuilder::spawn_claude_code_process)).
pub(crate) type SpawnFn = Arc<dyn Fn(SpawnOptions) -> std::io::Result<SpawnedProcess> + Send + Sync>;

/// The session's side of an app-started process: what the session writes or signals goes to
/// the process (the sink), and its output and exit come back through the feed once
/// [`connect`] has it.
pub(crate) fn sink() -> (ProcessSink, tokio::sync::mpsc::UnboundedReceiver<ProcessEvent>) {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    (Arc::new(move |event| drop(tx.send(event))), rx)
}

/// Runs an app-started process for a session: its input from the session's events, its output
/// and its exit to the session's feed. The tasks end with the process.
pub(crate) fn connect(
    process: SpawnedProcess,
    mut events: tokio::sync::mpsc::UnboundedReceiver<ProcessEvent>,
    feed: ProcessFeed,
) {
    let SpawnedProcess {
        stdin,
        mut stdout,
        exited,
        mut kill,
    } = process;
    tokio::spawn(async move {
        let mut stdin = Some(stdin);
        while let Some(event) = events.recv().await {
            match event {
                ProcessEvent::Write(bytes) => {
                    if let Some(pipe) = stdin.as_mut() {
                        // A write that fails means the process is gone: its exit is reported below.
                        if pipe.write_all(&bytes).await.is_err() || pipe.flush().await.is_err() {
                            stdin = None;
                        }
                    }
                }
                // Dropped, not only shut down: a pipe closes when its end is dropped.
                ProcessEvent::End => {
                    if let Some(mut pipe) = stdin.take() {
                        let _ = pipe.shutdown().await;
                    }
                }
                ProcessEvent::Signal(signal) => kill(&signal),
            }
        }
    });
    let out = feed.clone();
    tokio::spawn(async move {
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            match stdout.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => out.stdout(buf[..n].to_vec()),
            }
        }
        out.stdout_end();
    });
    tokio::spawn(async move {
        let exit = exited.await;
        feed.exited(exit.code, exit.signal.as_deref());
    });
}
