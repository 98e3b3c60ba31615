//! Windows: the CLI runs in a Job Object created for it. Everything it starts joins the job, so
//! `TerminateJobObject` ends the whole tree; the job is created with
//! `JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE` and its only handle is the host's (not inheritable), so
//! when the host exits or is killed the kernel closes the handle and ends the tree.
//!
//! There are no signals: a signal ends the job, and the exit is reported as that signal (what a
//! unix caller would see) so that "ended by us" is never mistaken for a crash (a terminated
//! process's own exit code is whatever `TerminateJobObject` was given).

use std::io;
use std::os::windows::io::{AsRawHandle, FromRawHandle, OwnedHandle, RawHandle};

use tokio::process::{Child, Command};
use windows_sys::Win32::Foundation::{HANDLE, INVALID_HANDLE_VALUE};
use windows_sys::Win32::System::Diagnostics::ToolHelp::{
    CreateToolhelp32Snapshot, Thread32First, Thread32Next, TH32CS_SNAPTHREAD, THREADENTRY32,
};
use windows_sys::Win32::System::JobObjects::{
    AssignProcessToJobObject, CreateJobObjectW, JobObjectExtendedLimitInformation, SetInformationJobObject,
    TerminateJobObject, JOBOBJECT_EXTENDED_LIMIT_INFORMATION, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
};
use windows_sys::Win32::System::Threading::{
    OpenThread, ResumeThread, CREATE_NO_WINDOW, CREATE_SUSPENDED, THREAD_SUSPEND_RESUME,
};

use crate::cli::child::ExitInfo;

/// The exit code the job's processes get when we end them (what `TerminateProcess` users pick).
const ENDED_BY_US: u32 = 1;

pub struct LocalChild {
    pub(crate) child: Child,
    job: Job,
    /// The signal we ended it with, reported in place of its exit code.
    ended_by: Option<i32>,
}

impl LocalChild {
    /// The child's stdio, taken once.
    pub(crate) fn take_tokio_stdio(
        &mut self,
    ) -> Option<(
        tokio::process::ChildStdin,
        tokio::process::ChildStdout,
        tokio::process::ChildStderr,
    )> {
        Some((
            self.child.stdin.take()?,
            self.child.stdout.take()?,
            self.child.stderr.take()?,
        ))
    }

    pub fn id(&self) -> Option<u32> {
        self.child.id()
    }

    /// Any signal ends the job (there is no polite one on Windows: the polite stop is closing
    /// stdin, which the session does first).
    pub fn signal(&mut self, signal: i32) {
        if matches!(self.child.try_wait(), Ok(None)) {
            self.ended_by.get_or_insert(signal);
            self.job.terminate();
        }
    }

    pub async fn wait(&mut self) -> Option<ExitInfo> {
        let status = self.child.wait().await.ok()?;
        Some(match self.ended_by {
            Some(signal) => ExitInfo {
                code: None,
                signal: Some(signal),
            },
            None => ExitInfo {
                code: status.code(),
                signal: None,
            },
        })
    }

    /// A second handle to the CLI's job, for the watchdog of its `resourceLimits`
    /// ([`crate::cli::limits`]).
    pub(crate) fn job_handle(&self) -> io::Result<OwnedHandle> {
        self.job.0.try_clone()
    }

    /// Whatever the CLI started and left running dies with the job.
    pub(crate) fn end_leftovers(&mut self) {
        self.job.terminate();
    }
}

struct Job(OwnedHandle);

impl Job {
    fn new() -> io::Result<Job> {
        // SAFETY: no security attributes (default, not inheritable), no name: plain FFI call whose
        // result is checked before use.
        let raw = unsafe { CreateJobObjectW(std::ptr::null(), std::ptr::null()) };
        if raw.is_null() {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: a fresh, valid handle that nothing else owns.
        let job = Job(unsafe { OwnedHandle::from_raw_handle(raw as RawHandle) });
        // SAFETY: the struct is plain data; all-zero is its documented "no limits" state.
        let mut info: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = unsafe { std::mem::zeroed() };
        info.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
        // SAFETY: `info` is the structure this information class expects, with its exact size.
        let ok = unsafe {
            SetInformationJobObject(
                job.raw(),
                JobObjectExtendedLimitInformation,
                (&info as *const JOBOBJECT_EXTENDED_LIMIT_INFORMATION).cast(),
                std::mem::size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32,
            )
        };
        if ok == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(job)
    }

    fn raw(&self) -> HANDLE {
        self.0.as_raw_handle() as HANDLE
    }

    fn assign(&self, process: RawHandle) -> io::Result<()> {
        // SAFETY: both handles are valid for the call (the child is not yet reaped).
        if unsafe { AssignProcessToJobObject(self.raw(), process as HANDLE) } == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    fn terminate(&self) {
        // SAFETY: a valid job handle; failure (nothing left in it) is harmless.
        unsafe { TerminateJobObject(self.raw(), ENDED_BY_US) };
    }
}

/// Spawns `cmd` suspended, puts it in its job, then lets it run: nothing it starts can escape the
/// job, not even in its first instructions. No console window is created for it.
pub fn spawn(mut cmd: Command) -> io::Result<LocalChild> {
    let job = Job::new()?;
    cmd.creation_flags(CREATE_SUSPENDED | CREATE_NO_WINDOW);
    let mut child = cmd.spawn()?;
    let placed = match (child.raw_handle(), child.id()) {
        (Some(handle), Some(pid)) => job.assign(handle).and_then(|()| resume_threads(pid)),
        _ => Err(io::Error::other(
            "Claude Code exited before it could be placed in its job",
        )),
    };
    if let Err(e) = placed {
        let _ = child.start_kill();
        return Err(e);
    }
    Ok(LocalChild {
        child,
        job,
        ended_by: None,
    })
}

/// A process created suspended has one thread, suspended; std gives no handle to it, so it is
/// found through a thread snapshot.
fn resume_threads(pid: u32) -> io::Result<()> {
    // SAFETY: plain FFI call, result checked.
    let snap = unsafe { CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0) };
    if snap == INVALID_HANDLE_VALUE {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a fresh valid handle, owned here.
    let snap = unsafe { OwnedHandle::from_raw_handle(snap as RawHandle) };
    // SAFETY: plain data; dwSize set as the API requires.
    let mut entry: THREADENTRY32 = unsafe { std::mem::zeroed() };
    entry.dwSize = std::mem::size_of::<THREADENTRY32>() as u32;
    let mut resumed = 0;
    // SAFETY: `entry` is a valid THREADENTRY32 with dwSize set; the snapshot handle is valid.
    let mut more = unsafe { Thread32First(snap.as_raw_handle() as HANDLE, &mut entry) } != 0;
    while more {
        if entry.th32OwnerProcessID == pid {
            // SAFETY: plain FFI call; the handle is checked and then owned.
            let thread = unsafe { OpenThread(THREAD_SUSPEND_RESUME, 0, entry.th32ThreadID) };
            if !thread.is_null() {
                // SAFETY: as above.
                let thread = unsafe { OwnedHandle::from_raw_handle(thread as RawHandle) };
                // SAFETY: a valid thread handle with THREAD_SUSPEND_RESUME access.
                if unsafe { ResumeThread(thread.as_raw_handle() as HANDLE) } != u32::MAX {
                    resumed += 1;
                }
            }
        }
        // SAFETY: as for Thread32First.
        more = unsafe { Thread32Next(snap.as_raw_handle() as HANDLE, &mut entry) } != 0;
    }
    if resumed == 0 {
        return Err(io::Error::other("could not resume Claude Code's main thread"));
    }
    Ok(())
}
