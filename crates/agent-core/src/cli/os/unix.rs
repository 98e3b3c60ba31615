//! Unix: the CLI leads its own process group, which is what the session signals, so the MCP
//! servers and shells it started go with it. Host death: see [`spawn`].

use std::io;

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use tokio::process::{Child, Command};

use crate::cli::child::ExitInfo;

/// The CLI as spawned here: the child and what keeps its group in check.
pub struct LocalChild {
    child: Proc,
    /// Kept past the reaping of the leader (after which `child.id()` is None), to reach the group.
    pgid: Option<Pid>,
    /// Held only where the kernel has no parent-death signal (see [`Watchdog`]).
    _watchdog: Option<Watchdog>,
}

/// How the child was started: forked by tokio's `Command`, or (Linux) cloned without a fork and
/// waited for through its pidfd ([`super::clone_spawn`]).
enum Proc {
    Tokio(Child),
    #[cfg(target_os = "linux")]
    Pidfd(super::clone_spawn::PidfdChild),
}

impl LocalChild {
    /// The tokio child's stdio, taken once (None for a child started without tokio).
    pub(crate) fn take_tokio_stdio(
        &mut self,
    ) -> Option<(
        tokio::process::ChildStdin,
        tokio::process::ChildStdout,
        tokio::process::ChildStderr,
    )> {
        match &mut self.child {
            Proc::Tokio(c) => Some((c.stdin.take()?, c.stdout.take()?, c.stderr.take()?)),
            #[cfg(target_os = "linux")]
            Proc::Pidfd(_) => None,
        }
    }

    pub fn id(&self) -> Option<u32> {
        match &self.child {
            Proc::Tokio(c) => c.id(),
            #[cfg(target_os = "linux")]
            Proc::Pidfd(c) => c.id(),
        }
    }

    /// Signals the whole group. `child.id()` is None once the leader is reaped, so a recycled pid
    /// is never signalled.
    pub fn signal(&mut self, signal: i32) {
        if let (Some(pid), Ok(sig)) = (self.id(), Signal::try_from(signal)) {
            let _ = killpg(Pid::from_raw(pid as i32), sig);
        }
    }

    pub async fn wait(&mut self) -> Option<ExitInfo> {
        use std::os::unix::process::ExitStatusExt;
        match &mut self.child {
            Proc::Tokio(c) => {
                let status = c.wait().await.ok()?;
                Some(ExitInfo {
                    code: status.code(),
                    signal: status.signal(),
                })
            }
            #[cfg(target_os = "linux")]
            Proc::Pidfd(c) => c.wait().await,
        }
    }

    /// The group outlives its leader while members remain, and its id cannot be reused until they
    /// are gone: SIGTERM now, SIGKILL for whatever ignores it a little later (ESRCH when nothing
    /// is left).
    pub(crate) fn end_leftovers(&mut self) {
        if let Some(pgid) = self.pgid.take() {
            let _ = killpg(pgid, Signal::SIGTERM);
            tokio::spawn(async move {
                tokio::time::sleep(std::time::Duration::from_secs(2)).await;
                let _ = killpg(pgid, Signal::SIGKILL);
            });
        }
    }
}

/// Spawns `cmd` as the leader of a new process group. Must be called within a tokio runtime.
///
/// Linux: the kernel sends the CLI SIGKILL when the *thread* that forked it exits
/// (`PR_SET_PDEATHSIG`). Forking from whatever thread calls us would tie the CLI's life to that
/// thread (a `spawn_blocking` thread idles out after 10 s), so every fork happens on one thread
/// that lives as long as the process ([`spawner`]). Elsewhere a [`Watchdog`] does the same job
/// (and on Linux too when `CLAUDE_AGENT_SDK_WATCHDOG=1`, which is how its tests run here).
pub fn spawn(mut cmd: Command) -> io::Result<LocalChild> {
    cmd.process_group(0);
    let handle =
        tokio::runtime::Handle::try_current().map_err(|e| io::Error::other(format!("no tokio runtime: {e}")))?;
    #[cfg(target_os = "linux")]
    let child = {
        let host = nix::unistd::getpid();
        // SAFETY: the closure runs in the forked child before exec and only makes two
        // async-signal-safe syscalls (prctl, getppid); it touches no lock and allocates nothing.
        unsafe {
            cmd.pre_exec(move || {
                nix::sys::prctl::set_pdeathsig(Signal::SIGKILL)?;
                // The host may have died between fork and prctl: then nobody would kill us.
                if nix::unistd::getppid() != host {
                    return Err(io::Error::other("the host exited while Claude Code was starting"));
                }
                Ok(())
            });
        }
        spawner::run(move || {
            let _rt = handle.enter();
            cmd.spawn()
        })?
    };
    #[cfg(not(target_os = "linux"))]
    let child = {
        let _rt = handle.enter();
        cmd.spawn()?
    };
    let mut child = child;
    let pgid = child.id().map(|p| Pid::from_raw(p as i32));
    let watchdog = match pgid {
        Some(pgid) if watchdog_wanted() => match Watchdog::arm(pgid) {
            Ok(w) => Some(w),
            // A CLI that already exited (its group gone) needs no guard: the session reports its exit.
            Err(_) if matches!(child.try_wait(), Ok(Some(_))) => None,
            Err(e) => {
                // Without it a SIGKILLed host would leave the CLI running: refuse to go on.
                let _ = killpg(pgid, Signal::SIGKILL);
                return Err(io::Error::other(format!(
                    "could not start the watchdog that ends Claude Code with its host: {e}"
                )));
            }
        },
        _ => None,
    };
    Ok(LocalChild {
        child: Proc::Tokio(child),
        pgid,
        _watchdog: watchdog,
    })
}

/// The CLI's stdio pipes, host ends, for a child started without tokio's `Command`.
#[cfg(target_os = "linux")]
pub(crate) struct Pipes {
    pub stdin: std::os::fd::OwnedFd,
    pub stdout: std::os::fd::OwnedFd,
    pub stderr: std::os::fd::OwnedFd,
}

/// Linux: starts `launch` without forking the host ([`super::clone_spawn`]), on the spawner
/// thread like every start (the parent-death signal follows that thread). `Ok(None)` where the
/// kernel cannot, or where the watchdog is wanted instead: then [`spawn`] forks.
#[cfg(target_os = "linux")]
pub(crate) fn spawn_without_fork(launch: &crate::cli::launch::Launch) -> io::Result<Option<(LocalChild, Pipes)>> {
    if watchdog_wanted() {
        return Ok(None);
    }
    let handle =
        tokio::runtime::Handle::try_current().map_err(|e| io::Error::other(format!("no tokio runtime: {e}")))?;
    let launch = launch.clone();
    let started = spawner::run(move || {
        let _rt = handle.enter();
        super::clone_spawn::spawn(&launch)
    })?;
    Ok(started.map(|s| {
        let pgid = s.child.id().map(|p| Pid::from_raw(p as i32));
        (
            LocalChild {
                child: Proc::Pidfd(s.child),
                pgid,
                _watchdog: None,
            },
            Pipes {
                stdin: s.stdin,
                stdout: s.stdout,
                stderr: s.stderr,
            },
        )
    }))
}

fn watchdog_wanted() -> bool {
    !cfg!(target_os = "linux") || std::env::var_os("CLAUDE_AGENT_SDK_WATCHDOG").is_some_and(|v| v == "1")
}

/// Ends a process group when the host goes, however it goes: a `/bin/sh` in the CLI's group
/// blocks reading a pipe whose write end only the host holds (close-on-exec, so neither the CLI
/// nor the watchdog inherits it). When the host exits or is SIGKILLed the kernel closes that
/// end, the read returns, and the watchdog SIGKILLs the group (itself included). Dropping the
/// `Watchdog` does the same: a session that ends leaves nothing in the group either.
///
/// Pipe sizes do not matter here (nothing is written); the CLI's own pipes are whatever the
/// platform gives (64 KiB on macOS and Linux).
pub(crate) struct Watchdog {
    _host_end: std::io::PipeWriter,
    _process: Child,
}

impl Watchdog {
    pub(crate) fn arm(pgid: Pid) -> io::Result<Watchdog> {
        let (read, write) = std::io::pipe()?;
        let mut cmd = Command::new("/bin/sh");
        cmd.args(["-c", "read -r _; kill -KILL -\"$1\"", "claude-agent-sdk-watchdog"])
            .arg(pgid.as_raw().to_string())
            .stdin(read)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            // Reaped by tokio in the background once dropped (it is SIGKILLed with the group).
            .kill_on_drop(false)
            .process_group(pgid.as_raw());
        let process = cmd.spawn()?;
        Ok(Watchdog {
            _host_end: write,
            _process: process,
        })
    }
}

#[cfg(target_os = "linux")]
mod spawner {
    //! One thread, alive as long as the process, that does every fork (see [`super::spawn`]).

    use std::sync::mpsc::{channel, sync_channel, Sender};
    use std::sync::{Mutex, OnceLock};

    type Job = Box<dyn FnOnce() + Send>;

    fn queue() -> &'static Mutex<Sender<Job>> {
        static QUEUE: OnceLock<Mutex<Sender<Job>>> = OnceLock::new();
        QUEUE.get_or_init(|| {
            let (tx, rx) = channel::<Job>();
            std::thread::Builder::new()
                .name("claude-cli-spawner".into())
                .spawn(move || {
                    for job in rx {
                        job();
                    }
                })
                .expect("cannot start the thread that spawns Claude Code");
            Mutex::new(tx)
        })
    }

    /// Runs `f` on the spawner thread and returns its result.
    pub fn run<T: Send + 'static>(f: impl FnOnce() -> std::io::Result<T> + Send + 'static) -> std::io::Result<T> {
        let (tx, rx) = sync_channel(1);
        let job: Job = Box::new(move || {
            let _ = tx.send(f());
        });
        queue()
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .send(job)
            .map_err(|_| std::io::Error::other("the spawner thread is gone"))?;
        rx.recv()
            .map_err(|_| std::io::Error::other("the spawner thread dropped the request"))?
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn alive(pid: i32) -> bool {
        // Signal 0 checks existence; a zombie (exited, not reaped) counts as gone.
        nix::sys::signal::kill(Pid::from_raw(pid), None).is_ok()
            && !std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| s.contains(") Z"))
    }

    fn wait_gone(pid: i32, within: Duration) -> bool {
        let t0 = Instant::now();
        while t0.elapsed() < within {
            if !alive(pid) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }

    /// The CLI outlives the thread that asked for it (the old code tied it to that thread: from a
    /// `spawn_blocking` thread it died when the thread idled out).
    #[test]
    fn child_outlives_the_thread_that_spawned_it() {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let handle = rt.handle().clone();
        let mut child = std::thread::spawn(move || {
            let _g = handle.enter();
            let mut cmd = Command::new("sleep");
            cmd.arg("30").kill_on_drop(true);
            spawn(cmd).unwrap()
        })
        .join()
        .unwrap();
        let pid = child.id().unwrap() as i32;
        std::thread::sleep(Duration::from_millis(300));
        assert!(alive(pid), "the CLI died with the thread that spawned it");
        child.signal(crate::cli::signal::SIGKILL);
        assert!(wait_gone(pid, Duration::from_secs(5)) || rt.block_on(child.wait()).is_some());
    }

    /// The watchdog (macOS's guard, armed by hand here) SIGKILLs the whole group when the host
    /// that holds its pipe is SIGKILLed. The host is this test binary run again in host mode.
    #[test]
    fn watchdog_ends_the_group_when_the_host_is_killed() {
        if let Some(out) = std::env::var_os("WATCHDOG_TEST_HOST") {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async {
                let mut cmd = Command::new("sh");
                // A CLI that ignores SIGTERM and starts a grandchild in its group.
                cmd.args(["-c", "trap '' TERM; sleep 60 & echo $$ $! > \"$0\"; wait"])
                    .arg(&out)
                    .process_group(0);
                let child = cmd.spawn().unwrap();
                let _w = Watchdog::arm(Pid::from_raw(child.id().unwrap() as i32)).unwrap();
                tokio::time::sleep(Duration::from_secs(60)).await;
            });
            return;
        }
        let (mut host, line) = crate::cli::process::rerun_as_host(
            "cli::os::unix::tests::watchdog_ends_the_group_when_the_host_is_killed",
            "WATCHDOG_TEST_HOST",
            Duration::from_secs(10),
        );
        let pids: Vec<i32> = line.split_whitespace().filter_map(|p| p.parse().ok()).collect();
        assert_eq!(pids.len(), 2, "host said {line:?}");
        assert!(pids.iter().all(|&p| alive(p)));
        host.kill().unwrap(); // SIGKILL: no destructor runs in the host
        host.wait().unwrap();
        for pid in pids {
            let gone = wait_gone(pid, Duration::from_secs(5));
            if !gone {
                let _ = nix::sys::signal::kill(Pid::from_raw(pid), Signal::SIGKILL);
            }
            assert!(gone, "process {pid} of the CLI's group outlived its SIGKILLed host");
        }
    }
}
