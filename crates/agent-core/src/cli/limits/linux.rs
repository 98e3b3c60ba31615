//! Linux: a cgroup v2 group of the CLI's own where the memory controller is delegated to us (the
//! kernel then enforces `memory.max` for the whole tree, exited children's CPU time included in
//! `cpu.stat`); else the tree read from `/proc`.

use std::io;
use std::path::{Path, PathBuf};

use super::unix_tree::{ProcTree, Reader};
use super::{memory_message, ResourceLimits, Tree, Usage};
use crate::cli::child::LocalChild;

pub(super) fn tree(child: &LocalChild, limits: &ResourceLimits) -> io::Result<Box<dyn Tree>> {
    let pid = child
        .id()
        .ok_or_else(|| io::Error::other("Claude Code exited before its limits could be set"))? as i32;
    if std::env::var_os("CLAUDE_AGENT_SDK_LIMITS").is_none_or(|v| v != "proc") {
        match Cgroup::create(pid, limits) {
            Ok(Some(group)) => return Ok(Box::new(group)),
            Ok(None) => {}
            Err(e) => tracing::debug!(error = %e, "no cgroup for the CLI's limits; watching /proc instead"),
        }
    }
    Ok(Box::new(ProcTree::new(pid, Proc::new())))
}

/// `/proc` of the running kernel.
pub(super) struct Proc {
    tick_ns: u64,
    page: u64,
}

impl Proc {
    pub(super) fn new() -> Self {
        // SAFETY: sysconf only reads configuration.
        let (ticks, page) = unsafe { (libc::sysconf(libc::_SC_CLK_TCK), libc::sysconf(libc::_SC_PAGESIZE)) };
        Proc {
            tick_ns: 1_000_000_000 / (if ticks > 0 { ticks as u64 } else { 100 }),
            page: if page > 0 { page as u64 } else { 4096 },
        }
    }
}

impl Reader for Proc {
    fn children(&mut self, pid: i32) -> Vec<i32> {
        // Each thread's `children` (CONFIG_PROC_CHILDREN, on in every distribution kernel).
        let mut out = Vec::new();
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            return out;
        };
        for task in tasks.flatten() {
            if let Ok(text) = std::fs::read_to_string(task.path().join("children")) {
                out.extend(text.split_whitespace().filter_map(|p| p.parse::<i32>().ok()));
            }
        }
        out
    }

    fn usage(&mut self, pid: i32) -> Option<(u64, u64)> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        let (rss_pages, ticks) = parse_stat(&stat)?;
        Some((rss_pages * self.page, ticks * self.tick_ns))
    }
}

/// From `/proc/<pid>/stat`: resident pages, and utime + stime + cutime + cstime in clock ticks;
/// `None` for a zombie or a line that cannot be read.
pub(super) fn parse_stat(stat: &str) -> Option<(u64, u64)> {
    // comm may hold spaces and parentheses: the fields start after the last ')'.
    let rest: Vec<&str> = stat.get(stat.rfind(')')? + 2..)?.split(' ').collect();
    if rest.first() == Some(&"Z") || rest.first() == Some(&"X") {
        return None;
    }
    // Field n of proc(5) is rest[n - 3].
    let n = |i: usize| {
        rest.get(i - 3)
            .and_then(|v| v.parse::<i64>().ok())
            .map(|v| v.max(0) as u64)
    };
    Some((n(24)?, n(14)? + n(15)? + n(16)? + n(17)?))
}

/// A cgroup v2 group the CLI was moved into.
struct Cgroup {
    dir: PathBuf,
    root: i32,
}

impl Cgroup {
    /// A group for `pid` with `limits`, or `None` where this process may not make one with the
    /// controllers the limits need.
    fn create(pid: i32, limits: &ResourceLimits) -> io::Result<Option<Cgroup>> {
        let Some(own) = own_cgroup()? else {
            return Ok(None);
        };
        let controllers = read(&own.dir.join("cgroup.controllers")).unwrap_or_default();
        let has_memory = controllers.split_whitespace().any(|c| c == "memory");
        if limits.max_memory_mb.is_some() && !has_memory {
            return Ok(None);
        }
        // Our own group can have children with controllers only at the hierarchy's root (no
        // processes in inner groups with controllers on); else the group goes next to ours.
        let parent = if own.is_root {
            if has_memory {
                let subtree = read(&own.dir.join("cgroup.subtree_control")).unwrap_or_default();
                if !subtree.split_whitespace().any(|c| c == "memory") {
                    std::fs::write(own.dir.join("cgroup.subtree_control"), "+memory")?;
                }
            }
            own.dir.clone()
        } else {
            match own.dir.parent() {
                Some(p) => p.to_path_buf(),
                None => return Ok(None),
            }
        };
        static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let dir = parent.join(format!(
            "claude-agent-sdk-{}-{}",
            std::process::id(),
            N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        std::fs::create_dir(&dir)?;
        let group = Cgroup { dir, root: pid };
        if let Some(bytes) = limits.memory_bytes() {
            std::fs::write(group.dir.join("memory.max"), bytes.to_string())?;
            // Swapping would let the tree past the bound; ending all of it at once leaves nothing
            // half-killed. (Either may be missing: no swap accounting, an old kernel.)
            let _ = std::fs::write(group.dir.join("memory.swap.max"), "0");
            let _ = std::fs::write(group.dir.join("memory.oom.group"), "1");
        }
        // The CLI, then anything it started already.
        std::fs::write(group.dir.join("cgroup.procs"), pid.to_string())?;
        for p in children_of(pid) {
            let _ = std::fs::write(group.dir.join("cgroup.procs"), p.to_string());
        }
        tracing::debug!(dir = %group.dir.display(), "the CLI runs in a cgroup of its own");
        Ok(Some(group))
    }

    fn procs(&self) -> Vec<i32> {
        read(&self.dir.join("cgroup.procs"))
            .unwrap_or_default()
            .split_whitespace()
            .filter_map(|p| p.parse().ok())
            .collect()
    }
}

impl Drop for Cgroup {
    /// The group goes once it is empty (the session ends its leftovers in the background).
    fn drop(&mut self) {
        let dir = self.dir.clone();
        if std::fs::remove_dir(&dir).is_ok() {
            return;
        }
        let _ = std::thread::Builder::new()
            .name("claude-cli-cgroup".into())
            .spawn(move || {
                for _ in 0..200 {
                    std::thread::sleep(std::time::Duration::from_millis(100));
                    if std::fs::remove_dir(&dir).is_ok() || !dir.exists() {
                        return;
                    }
                }
            });
    }
}

impl Tree for Cgroup {
    fn sample(&mut self) -> Option<Usage> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.root)).ok()?;
        parse_stat(&stat)?;
        let memory = read_u64(&self.dir.join("memory.current")).unwrap_or(0);
        let cpu_us = read(&self.dir.join("cpu.stat"))
            .and_then(|s| keyed(&s, "usage_usec"))
            .unwrap_or(0);
        Some(Usage {
            memory_bytes: memory,
            cpu_ns: cpu_us * 1000,
        })
    }

    /// The kernel's OOM killer acted in the group: the memory bound was reached.
    fn enforced(&mut self, limits: &ResourceLimits) -> Option<String> {
        let events = read(&self.dir.join("memory.events"))?;
        if keyed(&events, "oom_kill").unwrap_or(0) == 0 && keyed(&events, "oom_group_kill").unwrap_or(0) == 0 {
            return None;
        }
        let peak = read_u64(&self.dir.join("memory.peak")).or_else(|| limits.memory_bytes())?;
        Some(memory_message(limits, peak, "reached"))
    }

    fn kill(&mut self) {
        if std::fs::write(self.dir.join("cgroup.kill"), "1").is_ok() {
            return;
        }
        // Before Linux 5.14: each member, until none is left.
        for _ in 0..8 {
            let procs = self.procs();
            if procs.is_empty() {
                break;
            }
            for p in procs {
                let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(p), nix::sys::signal::Signal::SIGKILL);
            }
        }
    }
}

/// The children of `pid` (its threads' `children` files).
fn children_of(pid: i32) -> Vec<i32> {
    Proc::new().children(pid)
}

struct OwnCgroup {
    dir: PathBuf,
    is_root: bool,
}

/// This process's cgroup v2 folder (the `0::` line of `/proc/self/cgroup` under the cgroup2
/// mount of `/proc/self/mountinfo`); `None` without a v2 hierarchy.
fn own_cgroup() -> io::Result<Option<OwnCgroup>> {
    let Some(rel) = v2_path(&std::fs::read_to_string("/proc/self/cgroup")?) else {
        return Ok(None);
    };
    let Some(mount) = cgroup2_mount(&std::fs::read_to_string("/proc/self/mountinfo")?) else {
        return Ok(None);
    };
    let is_root = rel == "/";
    let dir = mount.join(rel.trim_start_matches('/'));
    Ok(dir.is_dir().then_some(OwnCgroup { dir, is_root }))
}

/// The path of the `0::<path>` line (cgroup v2), if there is one.
fn v2_path(cgroup: &str) -> Option<String> {
    cgroup
        .lines()
        .find_map(|l| l.strip_prefix("0::"))
        .map(|p| p.trim().to_string())
        .filter(|p| p.starts_with('/') && !p.contains(" (deleted)"))
}

/// Where the cgroup2 file system is mounted.
fn cgroup2_mount(mountinfo: &str) -> Option<PathBuf> {
    mountinfo.lines().find_map(|l| {
        let (before, after) = l.split_once(" - ")?;
        if after.split_whitespace().next()? != "cgroup2" {
            return None;
        }
        before.split_whitespace().nth(4).map(PathBuf::from)
    })
}

fn read(p: &Path) -> Option<String> {
    std::fs::read_to_string(p).ok()
}

fn read_u64(p: &Path) -> Option<u64> {
    read(p)?.trim().parse().ok()
}

/// `key value` lines (`cpu.stat`, `memory.events`).
fn keyed(text: &str, key: &str) -> Option<u64> {
    text.lines().find_map(|l| {
        let (k, v) = l.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok()).flatten()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_stat_lines_whatever_the_command_name() {
        let line =
            "42 (a) b (c)) S 1 42 42 0 -1 4194304 100 0 0 0 7 3 2 1 20 0 1 0 100 1000000 250 18446744073709551615";
        assert_eq!(parse_stat(line), Some((250, 13)));
        assert_eq!(
            parse_stat("42 (z) Z 1 42 42 0 -1 0 0 0 0 0 7 3 2 1 20 0 1 0 100 0 0 0"),
            None
        );
        assert_eq!(parse_stat("garbage"), None);
    }

    #[test]
    fn finds_the_v2_hierarchy() {
        assert_eq!(
            v2_path("4:memory:/x\n0::/user.slice/a.scope\n").as_deref(),
            Some("/user.slice/a.scope")
        );
        assert_eq!(v2_path("4:memory:/x\n"), None);
        let mi = "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw\n41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";
        assert_eq!(cgroup2_mount(mi), Some(PathBuf::from("/sys/fs/cgroup/unified")));
        assert_eq!(keyed("usage_usec 1200\nuser_usec 1000\n", "usage_usec"), Some(1200));
        assert_eq!(keyed("oom 0\noom_kill 2\n", "oom_kill"), Some(2));
    }

    /// A shell that starts a child which starts its own (in a new session, out of the CLI's
    /// process group): the walk finds all three, and `kill` ends them all.
    #[test]
    fn the_proc_tree_sees_and_ends_every_descendant() {
        let mut sh = std::process::Command::new("sh")
            .args(["-c", "sh -c 'setsid sleep 30 & sleep 30' & sleep 30"])
            .process_group(0)
            .spawn()
            .unwrap();
        let root = sh.id() as i32;
        let mut tree = ProcTree::new(root, Proc::new());
        let t0 = std::time::Instant::now();
        let mut pids = Vec::new();
        while t0.elapsed() < std::time::Duration::from_secs(5) {
            pids = tree_pids(root);
            if pids.len() >= 4 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(pids.len() >= 4, "{pids:?}");
        let usage = tree.sample().unwrap();
        assert!(usage.memory_bytes > 0);
        tree.kill();
        let _ = sh.wait();
        let t0 = std::time::Instant::now();
        while pids.iter().any(|&p| alive(p)) && t0.elapsed() < std::time::Duration::from_secs(5) {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(
            pids.iter().all(|&p| !alive(p)),
            "left: {:?}",
            pids.iter().filter(|&&p| alive(p)).collect::<Vec<_>>()
        );
    }

    fn tree_pids(root: i32) -> Vec<i32> {
        let mut proc = Proc::new();
        let mut pids = vec![root];
        let mut i = 0;
        while i < pids.len() {
            let c = proc.children(pids[i]);
            pids.extend(c);
            i += 1;
        }
        pids
    }

    fn alive(pid: i32) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| parse_stat(&s).is_some())
    }

    use std::os::unix::process::CommandExt;
}
