//! The watchdog's view of a process tree on unix, from the CLI down through each process's
//! children (a child that left the tree by being orphaned is still in the CLI's process group,
//! which is stopped with it). Each platform says how to list a process's children and read its
//! use ([`Reader`]).

use nix::sys::signal::{kill, killpg, Signal};
use nix::unistd::Pid;

use super::{Tree, Usage};

/// The most processes followed in one tree (a fork bomb is stopped, not walked to the end).
const MAX_PROCESSES: usize = 4096;

pub(super) trait Reader: Send + 'static {
    /// The children of `pid` (none if it is gone).
    fn children(&mut self, pid: i32) -> Vec<i32>;
    /// Its resident memory in bytes and its CPU time (with that of the children it waited for)
    /// in nanoseconds; `None` when it is gone or a zombie.
    fn usage(&mut self, pid: i32) -> Option<(u64, u64)>;
}

pub(super) struct ProcTree<R: Reader> {
    root: i32,
    reader: R,
    /// The most CPU time seen: a child that exits unwaited-for leaves the sum for a moment.
    cpu_max: u64,
}

impl<R: Reader> ProcTree<R> {
    pub(super) fn new(root: i32, reader: R) -> Self {
        Self {
            root,
            reader,
            cpu_max: 0,
        }
    }

    /// The tree's pids, the root first.
    fn walk(&mut self) -> Vec<i32> {
        let mut pids = vec![self.root];
        let mut i = 0;
        while i < pids.len() && pids.len() < MAX_PROCESSES {
            for c in self.reader.children(pids[i]) {
                if !pids.contains(&c) {
                    pids.push(c);
                }
            }
            i += 1;
        }
        pids
    }
}

impl<R: Reader> Tree for ProcTree<R> {
    fn sample(&mut self) -> Option<Usage> {
        self.reader.usage(self.root)?;
        let mut usage = Usage::default();
        for pid in self.walk() {
            if let Some((memory, cpu)) = self.reader.usage(pid) {
                usage.memory_bytes += memory;
                usage.cpu_ns += cpu;
            }
        }
        self.cpu_max = self.cpu_max.max(usage.cpu_ns);
        usage.cpu_ns = self.cpu_max;
        Some(usage)
    }

    /// Freezes the tree first (a stopped process cannot fork, and its children stay its
    /// children), until a walk finds nothing new; then kills all of it and the CLI's group.
    fn kill(&mut self) {
        let mut stopped: Vec<i32> = Vec::new();
        let _ = killpg(Pid::from_raw(self.root), Signal::SIGSTOP);
        for _ in 0..8 {
            let fresh: Vec<i32> = self.walk().into_iter().filter(|p| !stopped.contains(p)).collect();
            if fresh.is_empty() {
                break;
            }
            for &pid in &fresh {
                let _ = kill(Pid::from_raw(pid), Signal::SIGSTOP);
            }
            stopped.extend(fresh);
        }
        let _ = killpg(Pid::from_raw(self.root), Signal::SIGKILL);
        for pid in stopped {
            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
        }
    }
}
