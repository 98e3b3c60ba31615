//! Each platform's way of starting the CLI so that it, and everything it starts, ends with the
//! session and with the host — however the host ends:
//!
//! | | the CLI and its children | host killed (SIGKILL, crash) |
//! |---|---|---|
//! | Linux | own process group, `killpg` | `PR_SET_PDEATHSIG` from a thread that lives as long as the process |
//! | macOS, other unix | own process group, `killpg` | a watchdog process that kills the group when a pipe only the host holds closes |
//! | Windows | a Job Object (`TerminateJobObject`) | `JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE`: the job's only handle is the host's |

#[cfg(target_os = "linux")]
mod clone_spawn;
#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub use unix::*;

#[cfg(windows)]
mod windows;
#[cfg(windows)]
pub use self::windows::*;
