//! macOS: the tree through libproc (`proc_listchildpids`, `proc_pidinfo(PROC_PIDTASKINFO)`:
//! resident size, user and system time in Mach time units). The CPU time of children that
//! already exited is not counted (libproc keeps no `cutime`).

use std::io;

use super::unix_tree::{ProcTree, Reader};
use super::{ResourceLimits, Tree};
use crate::cli::child::LocalChild;

pub(super) fn tree(child: &LocalChild, _limits: &ResourceLimits) -> io::Result<Box<dyn Tree>> {
    let pid = child
        .id()
        .ok_or_else(|| io::Error::other("Claude Code exited before its limits could be set"))? as i32;
    let (numer, denom) = timebase();
    Ok(Box::new(ProcTree::new(pid, LibProc { numer, denom })))
}

/// Mach time units to nanoseconds: `numer / denom` (1/1 on Intel).
#[allow(deprecated)] // libc points to the mach2 crate; this one call needs no more
fn timebase() -> (u64, u64) {
    let mut base = libc::mach_timebase_info { numer: 0, denom: 0 };
    // SAFETY: fills the struct it is given.
    unsafe { libc::mach_timebase_info(&mut base) };
    if base.numer == 0 || base.denom == 0 {
        (1, 1)
    } else {
        (base.numer as u64, base.denom as u64)
    }
}

struct LibProc {
    numer: u64,
    denom: u64,
}

impl Reader for LibProc {
    fn children(&mut self, pid: i32) -> Vec<i32> {
        let mut buf = vec![0 as libc::pid_t; 256];
        // SAFETY: the buffer and its size in bytes match; the count returned is bounded below.
        let n = unsafe {
            libc::proc_listchildpids(
                pid,
                buf.as_mut_ptr().cast(),
                (buf.len() * std::mem::size_of::<libc::pid_t>()) as libc::c_int,
            )
        };
        if n <= 0 {
            return Vec::new();
        }
        buf.truncate((n as usize).min(buf.len()));
        buf.retain(|&p| p > 0);
        buf
    }

    fn usage(&mut self, pid: i32) -> Option<(u64, u64)> {
        // SAFETY: plain data, filled by the call.
        let mut info: libc::proc_taskinfo = unsafe { std::mem::zeroed() };
        let size = std::mem::size_of::<libc::proc_taskinfo>() as libc::c_int;
        // SAFETY: the buffer is a proc_taskinfo of the size given. A zombie has no task: 0.
        let n = unsafe {
            libc::proc_pidinfo(
                pid,
                libc::PROC_PIDTASKINFO,
                0,
                (&mut info as *mut libc::proc_taskinfo).cast(),
                size,
            )
        };
        if n != size {
            return None;
        }
        let ticks = info.pti_total_user + info.pti_total_system;
        Some((info.pti_resident_size, ticks.saturating_mul(self.numer) / self.denom))
    }
}
