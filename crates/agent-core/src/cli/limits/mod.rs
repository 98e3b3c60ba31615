//! `resourceLimits: { maxMemoryMb?, maxCpuSeconds? }`: a bound on the memory and CPU time of the
//! CLI **and everything it starts**, so that a runaway Claude Code cannot take its host down.
//! On a breach the whole tree is stopped and the session ends with [`Error::ResourceLimit`]
//! (every message the CLI wrote before it is delivered first).
//!
//! How each platform enforces it:
//!
//! | | memory | CPU time |
//! |---|---|---|
//! | Linux, cgroup v2 with the memory controller delegated to us | a child group of ours (`memory.max`, `memory.oom.group`); its `memory.events` tell an OOM kill | the group's `cpu.stat` (exited children included) |
//! | Linux otherwise | the tree's RSS from `/proc` (each member's `children`, `stat`) | `utime + stime + cutime + cstime` of the tree |
//! | macOS | the tree's resident size (`proc_listchildpids`, `proc_pidinfo(PROC_PIDTASKINFO)`) | the tree's user + system time |
//! | Windows | the CLI's Job Object: `JOB_OBJECT_LIMIT_JOB_MEMORY` (allocations past it fail) and its `JOB_MEMORY_LIMIT` message | the job's accounting (user + kernel time; `JOB_OBJECT_LIMIT_JOB_TIME` as a backstop) |
//!
//! Without limits nothing here runs (no thread, no reads): it costs nothing.
//! With limits, one thread per session samples every [`INTERVAL`].

use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::Duration;

use serde::Deserialize;
use serde_json::Value;

use crate::cli::child::{ChildProcess, ExitInfo, WaitFuture};
use crate::error::Error;

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
use linux as platform;
#[cfg(target_os = "macos")]
mod macos;
#[cfg(target_os = "macos")]
use macos as platform;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
use self::windows as platform;
#[cfg(all(unix, not(any(target_os = "linux", target_os = "macos"))))]
mod platform {
    //! Elsewhere: no way to read the tree's use; limits are refused rather than ignored.
    pub(super) fn tree(
        _child: &crate::cli::child::LocalChild,
        _limits: &super::ResourceLimits,
    ) -> std::io::Result<Box<dyn super::Tree>> {
        Err(std::io::Error::other(
            "resourceLimits are not supported on this platform",
        ))
    }
}
#[cfg(unix)]
mod unix_tree;

/// How often the watchdog samples the tree.
pub const INTERVAL: Duration = Duration::from_millis(50);

/// The `resourceLimits` option. Each bound is optional; an empty object sets none.
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize)]
#[serde(try_from = "RawLimits")]
pub struct ResourceLimits {
    /// Memory of the CLI and its descendants together, in megabytes (MiB).
    pub max_memory_mb: Option<f64>,
    /// CPU time (user + system) of the CLI and its descendants together, in seconds.
    pub max_cpu_seconds: Option<f64>,
}

/// The option as it comes, checked into [`ResourceLimits`] (a NaN or Infinity reaches us as
/// `null`, which is refused rather than read as "no limit").
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RawLimits {
    #[serde(default, deserialize_with = "present")]
    max_memory_mb: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    max_cpu_seconds: Option<Value>,
}

/// A field that is there, `null` included (`Option` alone would read `null` as absent).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

impl TryFrom<RawLimits> for ResourceLimits {
    type Error = String;

    fn try_from(raw: RawLimits) -> Result<Self, String> {
        Ok(ResourceLimits {
            max_memory_mb: positive(raw.max_memory_mb, "maxMemoryMb", "megabytes")?,
            max_cpu_seconds: positive(raw.max_cpu_seconds, "maxCpuSeconds", "seconds")?,
        })
    }
}

fn positive(v: Option<Value>, field: &str, unit: &str) -> Result<Option<f64>, String> {
    match v {
        None => Ok(None),
        Some(Value::Number(n)) => match n.as_f64() {
            Some(x) if x.is_finite() && x > 0.0 => Ok(Some(x)),
            _ => Err(format!(
                "resourceLimits.{field} must be a positive number of {unit}, got {n}"
            )),
        },
        Some(other) => Err(format!(
            "resourceLimits.{field} must be a positive number of {unit}, got {}",
            match other {
                Value::Null => "null (NaN and Infinity become null in JSON)".to_string(),
                Value::String(s) => format!("the string {s:?}"),
                v => v.to_string(),
            }
        )),
    }
}

impl ResourceLimits {
    /// Whether any bound is set.
    pub fn any(&self) -> bool {
        self.max_memory_mb.is_some() || self.max_cpu_seconds.is_some()
    }

    fn memory_bytes(&self) -> Option<u64> {
        self.max_memory_mb.map(|mb| (mb * MIB).round() as u64)
    }

    fn cpu_ns(&self) -> Option<u64> {
        self.max_cpu_seconds.map(|s| (s * 1e9).round() as u64)
    }
}

const MIB: f64 = 1024.0 * 1024.0;

/// The tree's use at one moment.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Usage {
    pub memory_bytes: u64,
    pub cpu_ns: u64,
}

/// The breach message for `usage` against `limits`, if one is passed.
pub(crate) fn breach(limits: &ResourceLimits, usage: Usage) -> Option<String> {
    if let Some(max) = limits.memory_bytes() {
        if usage.memory_bytes > max {
            return Some(memory_message(limits, usage.memory_bytes, "used"));
        }
    }
    if let Some(max) = limits.cpu_ns() {
        if usage.cpu_ns > max {
            return Some(format!(
                "Claude Code exceeded resourceLimits.maxCpuSeconds ({} s): its process tree used {:.2} s of CPU time; Claude Code and the processes it started were stopped",
                fmt_num(limits.max_cpu_seconds.unwrap_or_default()),
                usage.cpu_ns as f64 / 1e9
            ));
        }
    }
    None
}

fn memory_message(limits: &ResourceLimits, bytes: u64, verb: &str) -> String {
    format!(
        "Claude Code exceeded resourceLimits.maxMemoryMb ({} MB): its process tree {verb} {:.1} MB of memory; Claude Code and the processes it started were stopped",
        fmt_num(limits.max_memory_mb.unwrap_or_default()),
        bytes as f64 / MIB
    )
}

fn fmt_num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// What the watchdog reads and stops: one platform's view of the CLI's tree.
pub(crate) trait Tree: Send + 'static {
    /// The tree's use now; `None` once nothing of it is left.
    fn sample(&mut self) -> Option<Usage>;
    /// A breach the system itself enforced since the last call (an OOM kill in the cgroup, the
    /// job's memory limit hit), as the message to report.
    fn enforced(&mut self, _limits: &ResourceLimits) -> Option<String> {
        None
    }
    /// Stops every process of the tree, for good.
    fn kill(&mut self);
}

struct Shared {
    stopped: Mutex<bool>,
    wake: Condvar,
    breach: OnceLock<String>,
    tree: Mutex<Box<dyn Tree>>,
}

impl Shared {
    /// One look at the tree; true when it is over (a breach, or nothing left to watch).
    fn check(&self, limits: &ResourceLimits) -> bool {
        if self.breach.get().is_some() {
            return true;
        }
        let mut tree = self.tree.lock().unwrap_or_else(|p| p.into_inner());
        let found = match tree.enforced(limits) {
            Some(m) => Some(m),
            None => match tree.sample() {
                Some(usage) => breach(limits, usage),
                // The CLI is gone: its pid may be reused, so nothing more is read or signalled.
                None => return true,
            },
        };
        match found {
            Some(message) => {
                tracing::warn!(%message, "resource limit reached");
                let _ = self.breach.set(message);
                tree.kill();
                true
            }
            None => false,
        }
    }
}

/// The watchdog of one CLI: a thread sampling its tree until the guard is dropped or the tree is
/// gone. Dropping it stops the thread at once.
pub struct Guard {
    shared: Arc<Shared>,
    limits: ResourceLimits,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Guard {
    pub(crate) fn start(limits: ResourceLimits, tree: Box<dyn Tree>) -> std::io::Result<Guard> {
        let shared = Arc::new(Shared {
            stopped: Mutex::new(false),
            wake: Condvar::new(),
            breach: OnceLock::new(),
            tree: Mutex::new(tree),
        });
        let s = shared.clone();
        let thread = std::thread::Builder::new()
            .name("claude-cli-limits".into())
            .spawn(move || {
                let mut stopped = s.stopped.lock().unwrap_or_else(|p| p.into_inner());
                while !*stopped && !s.check(&limits) {
                    stopped = s
                        .wake
                        .wait_timeout(stopped, INTERVAL)
                        .unwrap_or_else(|p| p.into_inner())
                        .0;
                }
            })?;
        Ok(Guard {
            shared,
            limits,
            thread: Some(thread),
        })
    }

    /// The breach, once the watchdog found one (and stopped the tree). Asked when the session
    /// ends, it looks once more at what the system enforced itself (an OOM kill in the cgroup,
    /// the job's memory limit), which may have ended the CLI between two samples.
    pub fn breach(&self) -> Option<&str> {
        if self.shared.breach.get().is_none() {
            let mut tree = self.shared.tree.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(message) = tree.enforced(&self.limits) {
                let _ = self.shared.breach.set(message);
                tree.kill();
            }
        }
        self.shared.breach.get().map(String::as_str)
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        *self.shared.stopped.lock().unwrap_or_else(|p| p.into_inner()) = true;
        self.shared.wake.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A spawned CLI under its limits: the child, and the watchdog whose breach becomes the
/// session's error ([`ChildProcess::limit_breach`]).
pub struct Limited<C: ChildProcess> {
    inner: C,
    guard: Guard,
    exit: Option<ExitInfo>,
}

impl<C: ChildProcess> ChildProcess for Limited<C> {
    fn id(&self) -> Option<u32> {
        self.inner.id()
    }

    fn signal(&mut self, signal: i32) {
        self.inner.signal(signal)
    }

    fn wait(&mut self) -> WaitFuture<'_> {
        Box::pin(async move {
            let exit = self.inner.wait().await;
            if exit.is_some() {
                self.exit = exit;
            }
            exit
        })
    }

    fn end_leftovers(&mut self) {
        self.inner.end_leftovers()
    }

    fn limit_breach(&self) -> Option<Error> {
        let message = self.guard.breach()?.to_string();
        Some(Error::ResourceLimit {
            message,
            code: self.exit.and_then(|e| e.code),
            signal: self.exit.and_then(|e| e.signal),
            stderr_tail: String::new(),
        })
    }
}

/// Puts a spawned CLI under `limits` (none set: the child as it is, nothing started).
pub fn limit(
    child: crate::cli::child::LocalChild,
    limits: Option<ResourceLimits>,
) -> Result<Box<dyn ChildProcess>, Error> {
    let Some(limits) = limits.filter(ResourceLimits::any) else {
        return Ok(Box::new(child));
    };
    let guard = match platform::tree(&child, &limits).and_then(|tree| Guard::start(limits, tree)) {
        Ok(g) => g,
        Err(e) => {
            // Not left running unbounded: the query fails, naming why.
            let mut child = child;
            child.signal(crate::cli::signal::SIGKILL);
            return Err(Error::spawn_io(
                format!("Could not put Claude Code under its resourceLimits: {e}"),
                e,
            ));
        }
    };
    Ok(Box::new(Limited {
        inner: child,
        guard,
        exit: None,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Result<ResourceLimits, String> {
        serde_json::from_str::<ResourceLimits>(json).map_err(|e| e.to_string())
    }

    #[test]
    fn the_option_is_checked_naming_the_field() {
        assert_eq!(
            parse(r#"{"maxMemoryMb":512,"maxCpuSeconds":1.5}"#).unwrap(),
            ResourceLimits {
                max_memory_mb: Some(512.0),
                max_cpu_seconds: Some(1.5)
            }
        );
        assert!(!parse("{}").unwrap().any());
        for (json, field) in [
            (r#"{"maxMemoryMb":0}"#, "maxMemoryMb"),
            (r#"{"maxMemoryMb":-5}"#, "maxMemoryMb"),
            (r#"{"maxMemoryMb":null}"#, "maxMemoryMb"),
            (r#"{"maxCpuSeconds":"2"}"#, "maxCpuSeconds"),
            (r#"{"maxCpuSeconds":true}"#, "maxCpuSeconds"),
            (r#"{"maxMemory":1}"#, "maxMemory"),
        ] {
            let e = parse(json).unwrap_err();
            assert!(e.contains(field), "{json}: {e}");
        }
        let e = parse(r#"{"maxMemoryMb":null}"#).unwrap_err();
        assert!(e.contains("NaN"), "{e}");
    }

    #[test]
    fn breaches_name_the_limit_and_the_figure() {
        let l = ResourceLimits {
            max_memory_mb: Some(100.0),
            max_cpu_seconds: Some(2.0),
        };
        assert_eq!(
            breach(
                &l,
                Usage {
                    memory_bytes: 100 << 20,
                    cpu_ns: 2_000_000_000
                }
            ),
            None
        );
        let m = breach(
            &l,
            Usage {
                memory_bytes: 150 << 20,
                cpu_ns: 0,
            },
        )
        .unwrap();
        assert!(m.contains("maxMemoryMb (100 MB)") && m.contains("150.0 MB"), "{m}");
        let c = breach(
            &l,
            Usage {
                memory_bytes: 0,
                cpu_ns: 2_500_000_000,
            },
        )
        .unwrap();
        assert!(c.contains("maxCpuSeconds (2 s)") && c.contains("2.50 s"), "{c}");
    }

    /// A tree whose use grows each sample: the watchdog reports the breach and kills it, once.
    #[test]
    fn the_watchdog_kills_the_tree_on_a_breach_and_stops_when_dropped() {
        struct Fake {
            n: u64,
            killed: Arc<Mutex<u32>>,
        }
        impl Tree for Fake {
            fn sample(&mut self) -> Option<Usage> {
                self.n += 1;
                Some(Usage {
                    memory_bytes: self.n * (10 << 20),
                    cpu_ns: 0,
                })
            }
            fn kill(&mut self) {
                *self.killed.lock().unwrap() += 1;
            }
        }
        let killed = Arc::new(Mutex::new(0));
        let limits = ResourceLimits {
            max_memory_mb: Some(25.0),
            max_cpu_seconds: None,
        };
        let g = Guard::start(
            limits,
            Box::new(Fake {
                n: 0,
                killed: killed.clone(),
            }),
        )
        .unwrap();
        let t0 = std::time::Instant::now();
        while g.breach().is_none() && t0.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(g.breach().unwrap().contains("30.0 MB"), "{:?}", g.breach());
        drop(g);
        assert_eq!(*killed.lock().unwrap(), 1);
        // Dropped before any breach: the thread ends at once.
        let g = Guard::start(
            ResourceLimits {
                max_memory_mb: Some(1e9),
                max_cpu_seconds: None,
            },
            Box::new(Fake {
                n: 0,
                killed: killed.clone(),
            }),
        )
        .unwrap();
        let t0 = std::time::Instant::now();
        drop(g);
        assert!(t0.elapsed() < Duration::from_millis(500));
    }
}
