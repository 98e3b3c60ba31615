//! The CLI's requests whose callbacks are still running. The loop adds them, withdraws
//! cancelled ones and asks whether any is left (stdin stays open while one is); a [`Reply`]
//! finishes its own on whatever thread the host answers from. A finished call wakes the loop
//! only when the loop is waiting for the set to empty: otherwise a tool call's answer would cost
//! a wake-up of the loop's thread for nothing (measured: an eventfd write plus a context switch
//! per call, ≈ 10 % of the JS thread's time in sequential tool calls).
//!
//! [`Reply`]: crate::host::Reply

use std::collections::HashSet;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::mpsc;

pub struct Inflight {
  state: Mutex<State>,
  wake: mpsc::UnboundedSender<()>,
}

#[derive(Default)]
struct State {
  ids: HashSet<String>,
  /// The loop found calls still running when it wanted to close stdin: wake it when the last
  /// one finishes.
  wake_when_empty: bool,
}

impl Inflight {
  /// The set, and the receiver the loop waits on for "the last call finished".
  pub fn new() -> (Arc<Self>, mpsc::UnboundedReceiver<()>) {
    let (wake, rx) = mpsc::unbounded_channel();
    (Arc::new(Self { state: Mutex::default(), wake }), rx)
  }

  fn lock(&self) -> MutexGuard<'_, State> {
    self.state.lock().unwrap_or_else(|p| p.into_inner())
  }

  /// Adds a call; false if one with this id is already running.
  pub fn insert(&self, id: String) -> bool {
    self.lock().ids.insert(id)
  }

  /// Withdraws a call (the CLI cancelled it); true if it was running.
  pub fn remove(&self, id: &str) -> bool {
    self.lock().ids.remove(id)
  }

  /// A call answered (from any thread).
  pub fn finish(&self, id: &str) {
    let mut state = self.lock();
    if state.ids.remove(id) && state.ids.is_empty() && state.wake_when_empty {
      state.wake_when_empty = false;
      let _ = self.wake.send(());
    }
  }

  /// True when no call is running; otherwise the loop is woken when the last one finishes.
  pub fn is_empty_or_wake(&self) -> bool {
    let mut state = self.lock();
    state.wake_when_empty = !state.ids.is_empty();
    !state.wake_when_empty
  }

  pub fn ids(&self) -> Vec<String> {
    self.lock().ids.iter().cloned().collect()
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn wakes_the_loop_only_when_it_waits_and_the_last_call_finishes() {
    let (set, mut wake) = Inflight::new();
    set.insert("a".into());
    set.insert("b".into());
    set.finish("a");
    assert!(wake.try_recv().is_err(), "nobody waits: no wake-up");
    assert!(!set.is_empty_or_wake());
    set.finish("zzz");
    assert!(wake.try_recv().is_err(), "an unknown id changes nothing");
    set.finish("b");
    assert!(wake.try_recv().is_ok(), "the last call finished while the loop waited");
    assert!(set.is_empty_or_wake());
    set.insert("c".into());
    set.finish("c");
    assert!(wake.try_recv().is_err(), "the wait was consumed");
  }

  #[test]
  fn a_cancelled_call_leaves_the_set() {
    let (set, _wake) = Inflight::new();
    assert!(set.insert("a".into()));
    assert!(!set.insert("a".into()), "already running");
    assert!(set.remove("a"));
    assert!(!set.remove("a"));
    assert!(set.is_empty_or_wake());
  }
}
