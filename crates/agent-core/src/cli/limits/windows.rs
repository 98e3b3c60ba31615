//! Windows: the CLI's Job Object (every process it starts is in it) gets the limits as the
//! kernel's own: `JOB_OBJECT_LIMIT_JOB_MEMORY` (an allocation past it fails) and
//! `JOB_OBJECT_LIMIT_JOB_TIME` (user time; the kernel ends the job past it). A completion port
//! tells which limit was hit; the job's accounting gives the figures (CPU: user + kernel time,
//! checked by the watchdog as on the other platforms).

use std::io;
use std::os::windows::io::{AsRawHandle, FromRawHandle, OwnedHandle, RawHandle};

use windows_sys::Win32::Foundation::{HANDLE, INVALID_HANDLE_VALUE};
use windows_sys::Win32::System::JobObjects::{
    JobObjectAssociateCompletionPortInformation, JobObjectBasicAccountingInformation,
    JobObjectExtendedLimitInformation, QueryInformationJobObject, SetInformationJobObject, TerminateJobObject,
    JOBOBJECTINFOCLASS, JOBOBJECT_ASSOCIATE_COMPLETION_PORT, JOBOBJECT_BASIC_ACCOUNTING_INFORMATION,
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION, JOB_OBJECT_LIMIT_JOB_MEMORY, JOB_OBJECT_LIMIT_JOB_TIME,
};
use windows_sys::Win32::System::IO::{CreateIoCompletionPort, GetQueuedCompletionStatus, OVERLAPPED};

use super::{breach, memory_message, ResourceLimits, Tree, Usage};
use crate::cli::child::LocalChild;

/// The job's messages (winnt.h).
const JOB_OBJECT_MSG_END_OF_JOB_TIME: u32 = 1;
const JOB_OBJECT_MSG_JOB_MEMORY_LIMIT: u32 = 10;

pub(super) fn tree(child: &LocalChild, limits: &ResourceLimits) -> io::Result<Box<dyn Tree>> {
    let job = child.job_handle()?;
    let raw = job.as_raw_handle() as HANDLE;
    // SAFETY: plain data, filled by the call; the handle is valid.
    let mut info: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = unsafe { std::mem::zeroed() };
    let size = std::mem::size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32;
    // SAFETY: `info` is the structure this class expects, with its exact size.
    if unsafe {
        QueryInformationJobObject(
            raw,
            JobObjectExtendedLimitInformation,
            (&mut info as *mut JOBOBJECT_EXTENDED_LIMIT_INFORMATION).cast(),
            size,
            std::ptr::null_mut(),
        )
    } == 0
    {
        return Err(io::Error::last_os_error());
    }
    if let Some(bytes) = limits.memory_bytes() {
        info.BasicLimitInformation.LimitFlags |= JOB_OBJECT_LIMIT_JOB_MEMORY;
        info.JobMemoryLimit = usize::try_from(bytes).unwrap_or(usize::MAX);
    }
    if let Some(ns) = limits.cpu_ns() {
        info.BasicLimitInformation.LimitFlags |= JOB_OBJECT_LIMIT_JOB_TIME;
        info.BasicLimitInformation.PerJobUserTimeLimit = (ns / 100) as i64;
    }
    // SAFETY: as above; the existing flags (kill on close) are kept.
    if unsafe {
        SetInformationJobObject(
            raw,
            JobObjectExtendedLimitInformation,
            (&info as *const JOBOBJECT_EXTENDED_LIMIT_INFORMATION).cast(),
            size,
        )
    } == 0
    {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a new port, not tied to a file.
    let port = unsafe { CreateIoCompletionPort(INVALID_HANDLE_VALUE, std::ptr::null_mut(), 0, 1) };
    if port.is_null() {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a fresh handle owned here.
    let port = unsafe { OwnedHandle::from_raw_handle(port as RawHandle) };
    let assoc = JOBOBJECT_ASSOCIATE_COMPLETION_PORT {
        CompletionKey: std::ptr::null_mut(),
        CompletionPort: port.as_raw_handle() as HANDLE,
    };
    // SAFETY: the structure this class expects, with its size.
    if unsafe {
        SetInformationJobObject(
            raw,
            JobObjectAssociateCompletionPortInformation,
            (&assoc as *const JOBOBJECT_ASSOCIATE_COMPLETION_PORT).cast(),
            std::mem::size_of::<JOBOBJECT_ASSOCIATE_COMPLETION_PORT>() as u32,
        )
    } == 0
    {
        return Err(io::Error::last_os_error());
    }
    Ok(Box::new(Job { job, port }))
}

struct Job {
    job: OwnedHandle,
    port: OwnedHandle,
}

impl Job {
    fn raw(&self) -> HANDLE {
        self.job.as_raw_handle() as HANDLE
    }

    /// One of the job's information classes: a plain C structure, all-zero until filled.
    fn query<T: Copy>(&self, class: JOBOBJECTINFOCLASS) -> Option<T> {
        // SAFETY: only used with the plain-data JOBOBJECT_* structures, valid when zeroed.
        let mut info: T = unsafe { std::mem::zeroed() };
        // SAFETY: `info` is the structure `class` expects, with its exact size.
        let ok = unsafe {
            QueryInformationJobObject(
                self.raw(),
                class,
                (&mut info as *mut T).cast(),
                std::mem::size_of::<T>() as u32,
                std::ptr::null_mut(),
            )
        };
        (ok != 0).then_some(info)
    }

    fn accounting(&self) -> Option<JOBOBJECT_BASIC_ACCOUNTING_INFORMATION> {
        self.query(JobObjectBasicAccountingInformation)
    }

    fn peak_memory(&self) -> u64 {
        self.query::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>(JobObjectExtendedLimitInformation)
            .map_or(0, |i| i.PeakJobMemoryUsed as u64)
    }

    fn cpu_ns(info: &JOBOBJECT_BASIC_ACCOUNTING_INFORMATION) -> u64 {
        (info.TotalUserTime.max(0) as u64 + info.TotalKernelTime.max(0) as u64) * 100
    }
}

impl Tree for Job {
    fn sample(&mut self) -> Option<Usage> {
        let info = self.accounting()?;
        if info.ActiveProcesses == 0 {
            return None;
        }
        Some(Usage {
            // Committed memory; the kernel holds it under the limit, the port reports a hit.
            memory_bytes: 0,
            cpu_ns: Self::cpu_ns(&info),
        })
    }

    fn enforced(&mut self, limits: &ResourceLimits) -> Option<String> {
        loop {
            let (mut msg, mut key, mut overlapped) = (0u32, 0usize, std::ptr::null_mut::<OVERLAPPED>());
            // SAFETY: valid port and out-pointers; a zero timeout only drains what is queued.
            if unsafe {
                GetQueuedCompletionStatus(
                    self.port.as_raw_handle() as HANDLE,
                    &mut msg,
                    &mut key,
                    &mut overlapped,
                    0,
                )
            } == 0
            {
                return None;
            }
            match msg {
                JOB_OBJECT_MSG_JOB_MEMORY_LIMIT => return Some(memory_message(limits, self.peak_memory(), "reached")),
                JOB_OBJECT_MSG_END_OF_JOB_TIME => {
                    let cpu = self.accounting().map(|i| Self::cpu_ns(&i)).unwrap_or_default();
                    let over = Usage {
                        memory_bytes: 0,
                        cpu_ns: cpu.max(limits.cpu_ns().unwrap_or(0) + 1),
                    };
                    return breach(limits, over);
                }
                _ => {}
            }
        }
    }

    fn kill(&mut self) {
        // SAFETY: a valid job handle; failure (nothing left) is harmless.
        unsafe { TerminateJobObject(self.raw(), 1) };
    }
}
