//! The calls the host has answered, on their way back to the session loop, which owns the set of
//! calls in flight. A [`Reply`](crate::host::Reply) drops its call's id here after writing the
//! answer; the loop takes the ids whenever it looks at its calls. Only when the loop is waiting
//! for the last call to finish (to close stdin) does an answer wake it: otherwise each answer
//! would cost a wake-up of the loop's thread, on a small machine at the very moment the CLI
//! needs the CPU to read the answer (measured: +20-25 µs on a sequential tool call, 2 vCPUs).

use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::Notify;

#[derive(Default)]
pub(crate) struct Finished {
    state: Mutex<State>,
    wake: Notify,
}

#[derive(Default)]
struct State {
    ids: Vec<String>,
    /// Answers an abort kept from the CLI (stdin closed by then): the CLI reports those calls as
    /// interrupted.
    unanswered: usize,
    /// The loop waits for an answer: the next one wakes it.
    wanted: bool,
}

impl Finished {
    pub fn new() -> Arc<Self> {
        Arc::default()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A call was answered (from any thread).
    pub fn push(&self, id: String) {
        self.push_with(id, false)
    }

    fn push_with(&self, id: String, unanswered: bool) {
        let mut state = self.lock();
        // One look: the loop never sees the count without the id (it would count the call twice).
        state.unanswered += usize::from(unanswered);
        state.ids.push(id);
        if std::mem::take(&mut state.wanted) {
            drop(state);
            self.wake.notify_one();
        }
    }

    /// A call ended after an abort closed stdin: its answer never reached the CLI.
    pub(crate) fn push_unanswered(&self, id: String) {
        self.push_with(id, true)
    }

    /// The ids answered since the last take, and how many answers an abort kept from the CLI in
    /// all (one look, so no call counts twice).
    pub(crate) fn take_with_unanswered(&self) -> (Vec<String>, usize) {
        let mut state = self.lock();
        (std::mem::take(&mut state.ids), state.unanswered)
    }

    /// The ids answered since the last take.
    pub fn take(&self) -> Vec<String> {
        std::mem::take(&mut self.lock().ids)
    }

    /// The ids answered since the last take; the next answer wakes the loop ([`Self::woken`]).
    pub(crate) fn take_and_want(&self) -> Vec<String> {
        let mut state = self.lock();
        state.wanted = true;
        std::mem::take(&mut state.ids)
    }

    /// Resolves when an answer came while the loop wanted one.
    pub async fn woken(&self) {
        self.wake.notified().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_answer_wakes_the_loop_only_when_it_waits() {
        let f = Finished::new();
        f.push("a".into());
        assert!(
            tokio::time::timeout(std::time::Duration::from_millis(20), f.woken())
                .await
                .is_err(),
            "nobody waited"
        );
        assert_eq!(f.take_and_want(), vec!["a".to_string()]);
        f.push("b".into());
        tokio::time::timeout(std::time::Duration::from_secs(1), f.woken())
            .await
            .expect("woken");
        assert_eq!(f.take(), vec!["b".to_string()]);
        f.push("c".into());
        assert!(
            tokio::time::timeout(std::time::Duration::from_millis(20), f.woken())
                .await
                .is_err(),
            "the wait was used up"
        );
    }
}
