//! Linux: the CLI started the way `posix_spawn` starts a process, with the parent-death signal
//! that `posix_spawn` cannot set.
//!
//! Rust's `Command` forks as soon as it must run code in the child before `exec` (here:
//! `PR_SET_PDEATHSIG`), and a fork copies the host's page tables: for a Node process that costs
//! about a millisecond on every `query()`, and afterwards every page the host writes faults once
//! (measured: a warm session's start 2.3–3.2 ms with a fork, 1.4–1.9 ms without, one CPU).
//! `clone(CLONE_VM | CLONE_VFORK)` copies nothing: the child runs on a stack of its own in the
//! host's memory, only until it calls `execve`, and the calling thread waits for that. This is
//! how glibc's `posix_spawn` works; the child here does what `posix_spawn` does (signal
//! dispositions to default, the signal mask emptied, its own process group, stdio, working
//! folder, `execvp`-style path search) plus `PR_SET_PDEATHSIG`.
//!
//! The child is waited for through a pidfd (`CLONE_PIDFD`), so no SIGCHLD handler and no reaper
//! thread are involved. Where the kernel lacks any of this (before 5.3), [`spawn`] says so and
//! the caller forks as before.

use std::ffi::{c_int, c_void, CString};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::OnceLock;

use nix::sys::signal::{kill, Signal};
use nix::sys::wait::{waitpid, WaitPidFlag, WaitStatus};
use nix::unistd::Pid;
use tokio::io::unix::AsyncFd;

use crate::cli::child::ExitInfo;
use crate::cli::launch::Launch;

/// A started CLI: its pid, the pidfd to wait on, and the host's ends of its stdio pipes.
pub struct Started {
    pub child: PidfdChild,
    pub stdin: OwnedFd,
    pub stdout: OwnedFd,
    pub stderr: OwnedFd,
}

/// A child waited for through its pidfd. Killed (SIGKILL, the leader only, as tokio's
/// `kill_on_drop`) and reaped in the background if dropped before it was reaped.
pub(crate) struct PidfdChild {
    pid: Pid,
    pidfd: Option<AsyncFd<OwnedFd>>,
    status: Option<ExitInfo>,
}

impl PidfdChild {
    /// None once reaped: a recycled pid is never signalled.
    pub fn id(&self) -> Option<u32> {
        self.status.is_none().then_some(self.pid.as_raw() as u32)
    }

    /// Cancel-safe: the status is kept once taken.
    pub async fn wait(&mut self) -> Option<ExitInfo> {
        loop {
            if let Some(status) = self.status {
                return Some(status);
            }
            if let Some(status) = try_reap(self.pid) {
                self.status = Some(status);
                self.pidfd = None;
                continue;
            }
            let fd = self.pidfd.as_ref()?;
            // Readable once the process has exited.
            let mut ready = fd.readable().await.ok()?;
            ready.clear_ready();
        }
    }
}

impl Drop for PidfdChild {
    fn drop(&mut self) {
        if self.status.is_some() {
            return;
        }
        let _ = kill(self.pid, Signal::SIGKILL);
        let pid = self.pid;
        match (self.pidfd.take(), tokio::runtime::Handle::try_current()) {
            (Some(fd), Ok(rt)) => {
                rt.spawn(async move {
                    while try_reap(pid).is_none() {
                        match fd.readable().await {
                            Ok(mut ready) => ready.clear_ready(),
                            Err(_) => break,
                        }
                    }
                });
            }
            // No runtime (a host shutting down): the child is SIGKILLed, so the wait is short.
            _ => {
                let _ = std::thread::Builder::new()
                    .name("claude-cli-reaper".into())
                    .spawn(move || waitpid(pid, None));
            }
        }
    }
}

/// The exit status if the child has exited (and reaps it), else None.
fn try_reap(pid: Pid) -> Option<ExitInfo> {
    match waitpid(pid, Some(WaitPidFlag::WNOHANG)) {
        Ok(WaitStatus::Exited(_, code)) => Some(ExitInfo {
            code: Some(code),
            signal: None,
        }),
        Ok(WaitStatus::Signaled(_, signal, _)) => Some(ExitInfo {
            code: None,
            signal: Some(signal as i32),
        }),
        // Reaped already (cannot happen: only we wait for it): report it as gone.
        Err(nix::errno::Errno::ECHILD) => Some(ExitInfo {
            code: None,
            signal: None,
        }),
        _ => None,
    }
}

/// Pidfds that can be polled (Linux 5.3); probed once.
fn supported() -> bool {
    static SUPPORTED: OnceLock<bool> = OnceLock::new();
    *SUPPORTED.get_or_init(|| {
        if std::env::var_os("CLAUDE_AGENT_SDK_SPAWN").is_some_and(|v| v == "fork") {
            return false;
        }
        // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor or -1; nothing is
        // passed by pointer.
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, libc::getpid(), 0) };
        if fd < 0 {
            return false;
        }
        // SAFETY: the descriptor was just returned to us and is owned by nothing else.
        drop(unsafe { OwnedFd::from_raw_fd(fd as RawFd) });
        true
    })
}

/// What the child needs, prepared before the clone: it may not allocate.
struct ChildArgs {
    /// The candidates `execve` is tried on, in order (the program, or each `PATH` entry with it).
    paths: Vec<CString>,
    /// Null-terminated arrays of pointers into `_strings`.
    argv: Vec<*const libc::c_char>,
    envp: Vec<*const libc::c_char>,
    _strings: Vec<CString>,
    cwd: Option<CString>,
    /// The child's ends of its stdin, stdout and stderr, each ≥ 3 (so no `dup2` overwrites another).
    stdio: [RawFd; 3],
    host: libc::pid_t,
    /// The write end of a close-on-exec pipe: the child writes its errno there when it fails
    /// before `exec`. (Not a shared variable: qemu-user runs CLONE_VFORK as a plain fork, where
    /// the child's memory is a copy and the parent does not wait.)
    error: RawFd,
}

/// Starts `launch` in its own process group with `PR_SET_PDEATHSIG` (the thread calling this is
/// the one whose exit kills the child: see `super::spawner`). `Ok(None)`: not possible on this
/// kernel, fork instead.
pub fn spawn(launch: &Launch) -> io::Result<Option<Started>> {
    if !supported() {
        return Ok(None);
    }
    let (stdin_child, stdin_host) = pipe()?;
    let (stdout_host, stdout_child) = pipe()?;
    let (stderr_host, stderr_child) = pipe()?;
    let stdio = [
        above_stdio(stdin_child)?,
        above_stdio(stdout_child)?,
        above_stdio(stderr_child)?,
    ];
    let (error_r, error_w) = pipe()?;
    let error_w = above_stdio(error_w)?;

    let nul = |what: &str| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("nul byte found in provided data ({what})"),
        )
    };
    let cstring = |s: &str, what: &str| CString::new(s).map_err(|_| nul(what));
    let mut strings = Vec::with_capacity(launch.args.len() + launch.env.len() + 1);
    strings.push(cstring(&launch.program, "program")?);
    for a in &launch.args {
        strings.push(cstring(a, "argument")?);
    }
    let argc = strings.len();
    for (k, v) in &launch.env {
        strings.push(cstring(&format!("{k}={v}"), "environment")?);
    }
    let ptrs = |s: &[CString]| {
        s.iter()
            .map(|c| c.as_ptr())
            .chain(std::iter::once(std::ptr::null()))
            .collect::<Vec<_>>()
    };
    let argv = ptrs(&strings[..argc]);
    let envp = ptrs(&strings[argc..]);
    let path_var = launch
        .env
        .iter()
        .rev()
        .find(|(k, _)| k == "PATH")
        .map(|(_, v)| v.as_str());
    let paths = candidates(&launch.program, path_var).map_err(|_| nul("program"))?;
    let cwd = match &launch.cwd {
        Some(c) => Some(CString::new(Path::new(c).as_os_str().as_bytes()).map_err(|_| nul("cwd"))?),
        None => None,
    };
    let args = ChildArgs {
        paths,
        argv,
        envp,
        _strings: strings,
        cwd,
        stdio: [stdio[0].as_raw_fd(), stdio[1].as_raw_fd(), stdio[2].as_raw_fd()],
        host: nix::unistd::getpid().as_raw(),
        error: error_w.as_raw_fd(),
    };

    // The child's stack, in our memory; it needs little (a few syscall wrappers).
    let mut stack = vec![0u8; 64 * 1024];
    // SAFETY: one past the end of the allocation, rounded down to 16 bytes: the top of the stack
    // (it grows down on every architecture Linux runs this on), inside or at the end of `stack`.
    let top = unsafe { stack.as_mut_ptr().add(stack.len()) };
    let top = (top as usize & !15) as *mut c_void;

    // Every signal blocked while the child shares our memory: a handler of the host's must never
    // run there. The child sets its dispositions to default before it unblocks them.
    let mut old: libc::sigset_t = empty_sigset();
    let mut all: libc::sigset_t = empty_sigset();
    let mut pidfd: c_int = -1;
    // SAFETY: `all` and `old` are valid sigset_t values. `clone` runs `child` on `top` (a live
    // allocation of 64 KiB) with `args`, which outlives the child's use of it: CLONE_VFORK
    // suspends this thread until the child has exec'd or exited, and the child touches only
    // `args` and its own stack. With CLONE_PIDFD the kernel writes the pidfd to `pidfd`.
    let pid = unsafe {
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut old);
        let pid = libc::clone(
            child,
            top,
            libc::CLONE_VM | libc::CLONE_VFORK | libc::CLONE_PIDFD | libc::SIGCHLD,
            &args as *const ChildArgs as *mut c_void,
            &mut pidfd as *mut c_int,
        );
        let errno = io::Error::last_os_error();
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        if pid < 0 {
            // A kernel or sandbox that refuses these flags: fork instead.
            return match errno.raw_os_error() {
                Some(libc::EINVAL | libc::ENOSYS | libc::EPERM) => Ok(None),
                _ => Err(errno),
            };
        }
        pid
    };
    drop(stdio);
    drop(error_w);
    let pid = Pid::from_raw(pid);
    // SAFETY: the kernel returned this descriptor to us with the child (CLONE_PIDFD).
    let pidfd = unsafe { OwnedFd::from_raw_fd(pidfd) };
    // End of file once the child has exec'd (close-on-exec) or exited; its errno if it failed.
    // Under CLONE_VFORK it is there already; under an emulated fork this waits for the exec.
    let mut errno = [0u8; 4];
    let n = read_full(&error_r, &mut errno);
    drop(stack);
    if n == errno.len() {
        // The child exited without an exec: reap it.
        let _ = waitpid(pid, None);
        return Err(io::Error::from_raw_os_error(i32::from_ne_bytes(errno)));
    }
    // An `OwnedFd` keeps its descriptor for as long as the `AsyncFd` holds it, which is what the
    // deprecation of this constructor (tokio#8587) is about; `register_with_interest`, its
    // replacement, needs tokio 1.54 and an `unsafe` block for the same guarantee.
    #[allow(deprecated)]
    let pidfd = AsyncFd::with_interest(pidfd, tokio::io::Interest::READABLE)?;
    Ok(Some(Started {
        child: PidfdChild {
            pid,
            pidfd: Some(pidfd),
            status: None,
        },
        stdin: stdin_host,
        stdout: stdout_host,
        stderr: stderr_host,
    }))
}

fn empty_sigset() -> libc::sigset_t {
    // SAFETY: sigset_t is a plain bit array; all zeroes is the empty set.
    unsafe { std::mem::zeroed() }
}

/// Reads until `buf` is full or end of file (retrying EINTR); the bytes read.
fn read_full(fd: &OwnedFd, buf: &mut [u8]) -> usize {
    let mut n = 0;
    while n < buf.len() {
        // SAFETY: writes at most `buf.len() - n` bytes into `buf` from offset `n`.
        let r = unsafe { libc::read(fd.as_raw_fd(), buf[n..].as_mut_ptr().cast(), buf.len() - n) };
        match r {
            0 => break,
            r if r > 0 => n += r as usize,
            _ if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted => {}
            _ => break,
        }
    }
    n
}

/// A pipe, both ends close-on-exec: (read end, write end).
fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as c_int; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just created and are owned by nothing else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// The descriptor moved to 3 or above (a host that closed its own stdio gets pipes at 0–2).
fn above_stdio(fd: OwnedFd) -> io::Result<OwnedFd> {
    if fd.as_raw_fd() > 2 {
        return Ok(fd);
    }
    // SAFETY: F_DUPFD_CLOEXEC on a descriptor we own returns a new one or -1.
    let dup = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 3) };
    if dup < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: just created, owned by nothing else.
    Ok(unsafe { OwnedFd::from_raw_fd(dup) })
}

/// Where `execve` is tried, as `execvp` searches: the program itself when it names a path,
/// else each `PATH` entry joined with it (an empty entry is the working folder; no `PATH`:
/// `/bin:/usr/bin`, glibc's default).
fn candidates(program: &str, path: Option<&str>) -> Result<Vec<CString>, std::ffi::NulError> {
    if program.contains('/') {
        return Ok(vec![CString::new(program)?]);
    }
    path.unwrap_or("/bin:/usr/bin")
        .split(':')
        .map(|dir| {
            CString::new(if dir.is_empty() {
                program.to_string()
            } else {
                format!("{}/{program}", dir.trim_end_matches('/'))
            })
        })
        .collect()
}

/// The child, between `clone` and `execve`. It shares the host's memory and runs on its own
/// stack, so it makes system calls only: no allocation, no lock, no panic.
extern "C" fn child(arg: *mut c_void) -> c_int {
    // SAFETY: `arg` is the `ChildArgs` the parent passed, alive until this child execs or exits
    // (the parent's thread is suspended until then).
    let a = unsafe { &*(arg as *const ChildArgs) };
    // SAFETY: only async-signal-safe system calls on values prepared by the parent.
    let errno = unsafe { prepare_and_exec(a) }.max(1).to_ne_bytes();
    // SAFETY: writes 4 bytes from a local array to a descriptor the parent keeps open for us.
    unsafe { libc::write(a.error, errno.as_ptr().cast(), errno.len()) };
    // SAFETY: _exit ends this child without running any of the host's exit handlers.
    unsafe { libc::_exit(127) }
}

/// Does what `posix_spawn` does for `Command` plus the parent-death signal, then `execve`s.
/// Returns the errno of what failed.
///
/// # Safety
/// To be called only in the clone child, with `a` valid.
unsafe fn prepare_and_exec(a: &ChildArgs) -> c_int {
    let errno = || io::Error::last_os_error().raw_os_error().unwrap_or(libc::EINVAL);
    // Handlers go back to default (they are the host's code, meaningless here); what the host
    // ignores stays ignored, but SIGPIPE, which Rust and Node ignore, is reset as `Command` does.
    // SAFETY (all calls below): plain system call wrappers on valid arguments.
    unsafe {
        let mut dfl: libc::sigaction = std::mem::zeroed();
        dfl.sa_sigaction = libc::SIG_DFL;
        for sig in 1..=libc::SIGRTMAX() {
            if sig == libc::SIGKILL || sig == libc::SIGSTOP {
                continue;
            }
            let mut cur: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(sig, std::ptr::null(), &mut cur) != 0 {
                continue;
            }
            if cur.sa_sigaction != libc::SIG_DFL && (cur.sa_sigaction != libc::SIG_IGN || sig == libc::SIGPIPE) {
                libc::sigaction(sig, &dfl, std::ptr::null_mut());
            }
        }
        if libc::setpgid(0, 0) != 0 {
            return errno();
        }
        if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
            return errno();
        }
        // The host may have died before the prctl: then nobody would kill us.
        if libc::getppid() != a.host {
            return libc::ESRCH;
        }
        for (target, &fd) in a.stdio.iter().enumerate() {
            // dup2 leaves the new descriptor without close-on-exec; the originals close at exec.
            if libc::dup2(fd, target as c_int) < 0 {
                return errno();
            }
        }
        if let Some(cwd) = &a.cwd {
            if libc::chdir(cwd.as_ptr()) != 0 {
                return errno();
            }
        }
        let mut empty: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut empty);
        libc::pthread_sigmask(libc::SIG_SETMASK, &empty, std::ptr::null_mut());
        // execvp's rules: go on past a directory where the file is missing or not ours to run,
        // and report EACCES if any candidate had it, else the last error.
        let mut seen_eacces = false;
        let mut last = libc::ENOENT;
        for path in &a.paths {
            libc::execve(path.as_ptr(), a.argv.as_ptr(), a.envp.as_ptr());
            last = errno();
            match last {
                libc::EACCES => seen_eacces = true,
                libc::ENOENT | libc::ENOTDIR | libc::ESTALE | libc::ENODEV | libc::ETIMEDOUT => {}
                _ => return last,
            }
        }
        if seen_eacces {
            libc::EACCES
        } else {
            last
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn launch(program: &str, args: &[&str], env: &[(&str, &str)], cwd: Option<&str>) -> Launch {
        Launch {
            program: program.into(),
            args: args.iter().map(|a| a.to_string()).collect(),
            env: env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            cwd: cwd.map(Into::into),
        }
    }

    /// What the child printed and how it ended, started here.
    async fn run_cloned(l: &Launch) -> (String, ExitInfo) {
        let mut s = spawn(l).unwrap().expect("this kernel has pidfds");
        drop(s.stdin);
        let mut out = String::new();
        std::fs::File::from(s.stdout).read_to_string(&mut out).unwrap();
        (out, s.child.wait().await.unwrap())
    }

    /// The same launch through `std::process::Command`, which forks (it has a pre_exec).
    fn run_forked(l: &Launch) -> (String, ExitInfo) {
        use std::os::unix::process::{CommandExt, ExitStatusExt};
        let mut cmd = std::process::Command::new(&l.program);
        cmd.args(&l.args)
            .env_clear()
            .envs(l.env.iter().cloned())
            .stdin(std::process::Stdio::null())
            .process_group(0);
        if let Some(c) = &l.cwd {
            cmd.current_dir(c);
        }
        // SAFETY: an empty closure: nothing runs in the child but std's own setup.
        unsafe { cmd.pre_exec(|| Ok(())) };
        let out = cmd.output().unwrap();
        (
            String::from_utf8(out.stdout).unwrap(),
            ExitInfo {
                code: out.status.code(),
                signal: out.status.signal(),
            },
        )
    }

    /// Arguments, environment, working folder, exit code, process group and the signal state the
    /// CLI starts with are what a forked `Command` gives it (this test process ignores SIGPIPE, as
    /// Node does; the child must not).
    #[tokio::test]
    async fn the_child_starts_as_a_forked_command_would_start_it() {
        let script = r#"printf '%s|' "$@"; echo; pwd; echo "$FOO"; env | sort | tr '\n' ' '; echo;
      ps -o pgid= -p $$ | tr -d ' ' | grep -qx $$ && echo own-group;
      exec grep -E '^Sig(Blk|Ign)' /proc/self/status"#;
        let l = launch(
            "sh",
            &["-c", script, "argv0", "two words", "ü ☃", "", "--flag=x"],
            &[
                ("PATH", "/nonexistent:/usr/bin:/bin"),
                ("FOO", "bar baz"),
                ("EMPTY", ""),
            ],
            Some("/tmp"),
        );
        let (cloned, status) = run_cloned(&l).await;
        let (forked, forked_status) = run_forked(&l);
        assert_eq!(cloned, forked);
        assert_eq!(status, forked_status);
        assert_eq!(status.code, Some(0));
        let exits = launch("/bin/sh", &["-c", "kill -TERM $$; exit 7"], &[], None);
        assert_eq!(
            run_cloned(&exits).await.1,
            ExitInfo {
                code: None,
                signal: Some(libc::SIGTERM)
            }
        );
        assert_eq!(
            run_forked(&exits).1,
            ExitInfo {
                code: None,
                signal: Some(libc::SIGTERM)
            }
        );
        let exits = launch("/bin/sh", &["-c", "exit 7"], &[], None);
        assert_eq!(
            run_cloned(&exits).await.1,
            ExitInfo {
                code: Some(7),
                signal: None
            }
        );
        assert!(cloned.contains("own-group"), "{cloned}");
        assert!(cloned.contains("SigBlk:\t0000000000000000"), "{cloned}");
        assert!(
            cloned.starts_with("two words|ü ☃||--flag=x|\n/tmp\nbar baz\n"),
            "{cloned}"
        );
    }

    /// Missing programs and ones that cannot be run fail as `Command` fails (the session maps the
    /// kinds to its "not found" and "permission denied" errors), and leave no child behind.
    #[tokio::test]
    async fn programs_that_cannot_run_are_errors_of_the_right_kind() {
        let missing = spawn(&launch("no-such-claude-xyz", &[], &[("PATH", "/usr/bin:/bin")], None))
            .err()
            .unwrap();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
        let missing = spawn(&launch("/nonexistent/claude", &[], &[], None)).err().unwrap();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
        let dir = std::env::temp_dir().join(format!("clone-spawn-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("not-executable");
        std::fs::write(&file, "#!/bin/sh\n").unwrap();
        let denied = spawn(&launch(file.to_str().unwrap(), &[], &[], None)).err().unwrap();
        assert_eq!(denied.kind(), io::ErrorKind::PermissionDenied);
        let bad_cwd = spawn(&launch("/bin/sh", &[], &[], Some("/nonexistent-folder")))
            .err()
            .unwrap();
        assert_eq!(bad_cwd.kind(), io::ErrorKind::NotFound);
        let nul = spawn(&launch("/bin/sh", &["a\0b"], &[], None)).err().unwrap();
        assert_eq!(nul.kind(), io::ErrorKind::InvalidInput);
        std::fs::remove_dir_all(&dir).unwrap();
        // Every failed child was reaped: none is left as a zombie of this process.
        let zombies = std::fs::read_dir("/proc").unwrap().filter_map(|e| {
            let stat = std::fs::read_to_string(e.ok()?.path().join("stat")).ok()?;
            let after = stat.rsplit_once(") ")?.1;
            let fields: Vec<&str> = after.split(' ').collect();
            (fields[0] == "Z" && fields[1] == std::process::id().to_string()).then_some(stat)
        });
        assert_eq!(zombies.count(), 0);
    }

    /// A child dropped while running is killed and reaped.
    #[tokio::test]
    async fn a_dropped_child_is_killed_and_reaped() {
        let s = spawn(&launch("/bin/sleep", &["60"], &[], None)).unwrap().unwrap();
        let pid = s.child.id().unwrap() as i32;
        drop(s);
        let t0 = std::time::Instant::now();
        while std::path::Path::new(&format!("/proc/{pid}")).exists() {
            assert!(
                t0.elapsed() < std::time::Duration::from_secs(5),
                "pid {pid} still there (a zombie if not reaped)"
            );
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
    }
}
