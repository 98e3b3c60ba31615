//! Spin, then park: after the loop hands the host one call, it keeps its thread awake for a
//! short window instead of sleeping in `epoll_wait`, so the CLI's next request (the tool call
//! after a permission prompt, the hook after a tool call) is read the moment it is written.
//!
//! Why: a sequential round trip has one more thread hand-off in this engine than in a client
//! that reads the pipe on its JS thread (the engine's thread reads, the callback runs on the JS
//! thread). On a virtual machine, waking a thread whose vCPU went idle costs tens of µs (the
//! no-SDK client's whole round trip is two such wake-ups); measured on the 2-vCPU VM, idle, a
//! sequential permission prompt took 88–104 µs parked and 40–49 µs with a 200 µs window.
//!
//! What it costs, and where it stays off:
//! - the window is bounded (default 200 µs, `CLAUDE_AGENT_SDK_SPIN_US`, 0 disables) and armed
//!   only when the host has exactly one call of this session in flight: under a burst of
//!   concurrent calls the thread is busy anyway, and a model turn ends every spin long before
//!   it could matter (each tool use costs at most a few windows of one thread's CPU);
//! - each turn of the spin gives way (`sched_yield`) to any other thread that wants the CPU, and
//!   polls the reactor without blocking (tokio runs a yielded task after a zero-timeout poll of
//!   its driver), so a loaded machine loses little to it;
//! - it never arms on a process confined to one CPU, where the spinning thread could only take
//!   time from the CLI and the callback it waits for;
//! - it is kept only where it pays: the time from handing the host a call to the CLI's next line
//!   is averaged apart for windows that spun and windows that parked, every 16th window tries the
//!   other way, and the faster way is used (process-wide). On the same VM with another process
//!   busy on one vCPU, spinning made the round trip 8–10 µs slower than parking (the three threads
//!   of a round trip then share one vCPU with the spinner); idle, it made it 40–60 µs faster;
//! - it stops when the machine is busy: a turn of the spin that comes back late (the thread was
//!   kept off its CPU by other work) ends the window and keeps spinning off for a while.

use std::sync::LazyLock;
use std::time::{Duration, Instant};

/// The window after a call is handed to the host; zero when spinning is off.
static WINDOW: LazyLock<Duration> = LazyLock::new(|| {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    window_for(std::env::var("CLAUDE_AGENT_SDK_SPIN_US").ok().as_deref(), cpus)
});

const DEFAULT_WINDOW_US: u64 = 200;
/// A spin turn later than this after the one before: the thread was kept off its CPU.
const LATE_TURN: Duration = Duration::from_micros(250);
/// How long spinning stays off after a late turn.
const COOL_DOWN: Duration = Duration::from_millis(100);
/// Every this many windows try the way the averages do not favour.
const EXPLORE_EVERY: u32 = 16;
/// A next line later than this after the hand-off says nothing about spinning (the CLI was busy
/// with something else: a model turn, a tool of its own).
const RELEVANT: Duration = Duration::from_millis(2);

/// What the process has seen of spinning and parking: the mean time (µs, exponentially weighted)
/// from a hand-off to the CLI's next line, each way.
struct Evidence {
    windows: u32,
    spun: Option<f64>,
    parked: Option<f64>,
}

static EVIDENCE: std::sync::Mutex<Evidence> = std::sync::Mutex::new(Evidence {
    windows: 0,
    spun: None,
    parked: None,
});

impl Evidence {
    /// Whether the next window spins: the faster way so far (spinning until parking has been
    /// seen), and the other way every [`EXPLORE_EVERY`] windows.
    fn choose(&mut self) -> bool {
        self.windows = self.windows.wrapping_add(1);
        let spin_is_faster = match (self.spun, self.parked) {
            (Some(s), Some(p)) => s <= p,
            _ => true,
        };
        spin_is_faster != self.windows.is_multiple_of(EXPLORE_EVERY)
    }

    fn record(&mut self, spun: bool, dt: Duration) {
        let us = dt.as_secs_f64() * 1e6;
        let mean = if spun { &mut self.spun } else { &mut self.parked };
        *mean = Some(mean.map_or(us, |m| m + (us - m) / 8.0));
    }
}

fn evidence() -> std::sync::MutexGuard<'static, Evidence> {
    EVIDENCE.lock().unwrap_or_else(|p| p.into_inner())
}

/// The window for a setting of `CLAUDE_AGENT_SDK_SPIN_US` (unset or unparsable: the default)
/// on a process that may run on `cpus` CPUs.
fn window_for(setting: Option<&str>, cpus: usize) -> Duration {
    if cpus < 2 {
        return Duration::ZERO;
    }
    let us = setting
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(DEFAULT_WINDOW_US);
    Duration::from_micros(us.min(10_000))
}

/// One session loop's spin state.
pub(crate) struct Spin {
    window: Duration,
    until: Option<Instant>,
    /// When the loop last took a turn of this window's spin.
    last_turn: Option<Instant>,
    /// No spinning before this (the machine was busy).
    cool_until: Option<Instant>,
    /// The last hand-off, and whether its window spins, until the CLI's next line.
    handed: Option<(Instant, bool)>,
    /// Whether to spin follows the process's [`Evidence`] (else always, within the window).
    learn: bool,
}

impl Spin {
    pub fn new() -> Self {
        Self::with_window(*WINDOW, true)
    }

    fn with_window(window: Duration, learn: bool) -> Self {
        Self {
            window,
            until: None,
            last_turn: None,
            cool_until: None,
            handed: None,
            learn,
        }
    }

    /// Calls were just handed to the host; `in_flight` of the session's calls are running there.
    pub(crate) fn arm(&mut self, in_flight: usize) {
        if in_flight != 1 || self.window.is_zero() {
            return;
        }
        let now = Instant::now();
        let spin = self.cool_until.is_none_or(|t| now >= t) && (!self.learn || evidence().choose());
        self.handed = Some((now, spin));
        if spin {
            self.until = Some(now + self.window);
            self.last_turn = None;
        }
    }

    /// The loop read a line from the CLI: how long it took after the last hand-off is evidence
    /// for the way that window went.
    pub(crate) fn line_read(&mut self) {
        if let Some((at, spun)) = self.handed.take() {
            let dt = at.elapsed();
            if dt < RELEVANT {
                evidence().record(spun, dt);
            }
        }
    }

    /// Whether the loop should take a turn of the spin now rather than park: within the window,
    /// and while the turns come back on time.
    pub(crate) fn active(&mut self) -> bool {
        let Some(until) = self.until else { return false };
        let now = Instant::now();
        if self.last_turn.is_some_and(|last| now.duration_since(last) > LATE_TURN) {
            self.cool_until = Some(now + COOL_DOWN);
        } else if now < until {
            self.last_turn = Some(now);
            return true;
        }
        self.until = None;
        self.last_turn = None;
        false
    }

    /// One turn of the spin: gives the CPU to any thread that wants it, then lets the runtime
    /// poll its reactor (without blocking) and its other tasks before the loop looks again.
    pub async fn turn() {
        std::thread::yield_now();
        tokio::task::yield_now().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_is_the_setting_or_the_default_and_never_on_one_cpu() {
        assert_eq!(window_for(None, 2), Duration::from_micros(200));
        assert_eq!(window_for(Some("50"), 8), Duration::from_micros(50));
        assert_eq!(window_for(Some("0"), 8), Duration::ZERO);
        assert_eq!(window_for(Some("nonsense"), 2), Duration::from_micros(200));
        assert_eq!(window_for(Some("99999999"), 2), Duration::from_millis(10), "bounded");
        assert_eq!(window_for(None, 1), Duration::ZERO);
        assert_eq!(window_for(Some("500"), 1), Duration::ZERO);
    }

    #[test]
    fn the_faster_way_wins_and_the_other_is_still_tried() {
        let mut e = Evidence {
            windows: 0,
            spun: None,
            parked: None,
        };
        // Nothing seen: spin, but every 16th window parks (so parking gets measured).
        let first: Vec<bool> = (0..16).map(|_| e.choose()).collect();
        assert_eq!(first.iter().filter(|s| !**s).count(), 1);
        for _ in 0..20 {
            e.record(true, Duration::from_micros(45));
            e.record(false, Duration::from_micros(35));
        }
        let next: Vec<bool> = (0..32).map(|_| e.choose()).collect();
        assert_eq!(
            next.iter().filter(|s| **s).count(),
            2,
            "parking is faster here: spin only to look again"
        );
        for _ in 0..40 {
            e.record(false, Duration::from_micros(100));
        }
        assert!(e.choose() || e.choose(), "parking got slower than spinning: spin again");
        assert!(e.parked.unwrap() > 90.0 && (e.spun.unwrap() - 45.0).abs() < 1.0);
    }

    #[test]
    fn arms_for_one_call_in_flight_only_and_expires() {
        let mut s = Spin::with_window(Duration::from_millis(30), false);
        assert!(!s.active());
        s.arm(2);
        assert!(!s.active(), "several calls in flight: the thread has work, no spin");
        s.arm(1);
        assert!(s.active());
        std::thread::sleep(Duration::from_millis(40));
        assert!(!s.active(), "the window ended");
        let mut off = Spin::with_window(Duration::ZERO, false);
        off.arm(1);
        assert!(!off.active());
    }

    #[test]
    fn a_late_turn_ends_the_window_and_cools_spinning_down() {
        let mut s = Spin::with_window(Duration::from_millis(50), false);
        s.arm(1);
        assert!(s.active());
        std::thread::sleep(LATE_TURN + Duration::from_micros(200));
        assert!(
            !s.active(),
            "the thread was kept away longer than a turn takes: the machine is busy"
        );
        s.arm(1);
        assert!(!s.active(), "cooling down");
        std::thread::sleep(COOL_DOWN + Duration::from_millis(5));
        s.arm(1);
        assert!(s.active(), "spins again once the cool-down is over");
    }
}
