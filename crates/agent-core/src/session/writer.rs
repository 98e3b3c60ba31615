//! The CLI's stdin. Whoever produces a line writes it: an answer computed on the host's thread
//! goes to the pipe with one non-blocking write right there, with no hop to another thread.
//! Only when the pipe is full (or bytes are already queued, to keep lines in order), or when
//! there is no direct way to the pipe, does the rest go to a task that waits for the pipe to
//! drain. Lines queued in a burst leave in one write.
//!
//! The queue is unbounded on purpose: everything written is produced by us in answer to the CLI
//! or the user (responses, user messages), at a pace the CLI's own requests set.
//!
//! A thread that is about to write many lines (the JS thread answering the calls that settled in
//! one microtask checkpoint) can hold its lines ([`hold_lines`]) and let them go with one write
//! per pipe ([`release_lines`]). Held lines wait in the queue: whoever writes next to that pipe,
//! or the writer task (a close drains the queue first), takes them along, so a held line is never
//! stranded and never overtaken.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::fs::File;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::Notify;

pub struct StdinWriter {
    state: Mutex<State>,
    wake: Notify,
    /// Something this session sent came from JS with a lone surrogate, read masked: every line
    /// from then on goes out through [`crate::sessions::surrogate::unmask`].
    lone_surrogates: AtomicBool,
}

#[derive(Default)]
struct State {
    queue: VecDeque<u8>,
    /// A second descriptor of the (non-blocking) pipe for direct writes, when there is one.
    direct: Option<File>,
    /// The task holds bytes it is writing; direct writes must queue behind them.
    task_busy: bool,
    close_requested: bool,
    /// Closed by an abort: what is refused from then on never reached the CLI because of it.
    aborted: bool,
    /// stdin is closed or broken: nothing more is written (or reported).
    done: bool,
    /// The queue has lines a thread holds ([`hold_lines`]); it lets them go.
    held: bool,
}

thread_local! {
  /// The writers this thread holds lines for, while it holds them.
  static HOLDING: RefCell<Option<Vec<Arc<StdinWriter>>>> = const { RefCell::new(None) };
}

/// From now on, lines this thread writes wait until [`release_lines`] (which writes each pipe's
/// in one go). Nothing is held by a thread that never calls it.
pub fn hold_lines() {
    HOLDING.with(|h| {
        h.borrow_mut().get_or_insert_with(Vec::new);
    });
}

/// Writes what this thread held since [`hold_lines`], one write per pipe, and stops holding.
pub fn release_lines() {
    for writer in HOLDING.with(|h| h.borrow_mut().take()).unwrap_or_default() {
        writer.let_go();
    }
}

impl StdinWriter {
    /// Writes a complete line (terminator included) now if the pipe takes it, else queues it.
    /// `false` when the line was refused because an abort had closed stdin ([`Self::abort`]).
    pub fn write_line(self: &Arc<Self>, line: &str) -> bool {
        let unmasked;
        let line = if self.lone_surrogates.load(Ordering::Relaxed) {
            unmasked = crate::sessions::surrogate::unmask(line);
            &unmasked
        } else {
            line
        };
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if st.done || st.close_requested {
            return !st.aborted;
        }
        if st.direct.is_some() && self.hold(&mut st) {
            st.queue.extend(line.as_bytes());
            return true;
        }
        let mut rest = line.as_bytes();
        if st.queue.is_empty() && !st.task_busy {
            if let Some(mut pipe) = st.direct.as_ref() {
                match write_now(&mut pipe, rest) {
                    Ok(n) => rest = &rest[n..],
                    Err(e) => {
                        report(&e);
                        st.done = true;
                        return true;
                    }
                }
                if rest.is_empty() {
                    return true;
                }
            }
        }
        st.queue.extend(rest);
        drop(st);
        self.wake.notify_one();
        true
    }

    /// Whether this thread holds its lines; if so, this writer is on its list.
    fn hold(self: &Arc<Self>, st: &mut State) -> bool {
        HOLDING.with(|h| match h.borrow_mut().as_mut() {
            Some(list) => {
                if !std::mem::replace(&mut st.held, true) {
                    list.push(self.clone());
                }
                true
            }
            None => false,
        })
    }

    /// Writes the queue now if nobody else is writing it, as much as the pipe takes; the task
    /// gets the rest.
    fn let_go(&self) {
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        st.held = false;
        if st.queue.is_empty() || st.done {
            return;
        }
        if !st.task_busy && !st.close_requested {
            let State { direct, queue, .. } = &mut *st;
            if let Some(mut pipe) = direct.as_ref() {
                match write_now(&mut pipe, queue.make_contiguous()) {
                    Ok(n) => {
                        queue.drain(..n);
                    }
                    Err(e) => {
                        report(&e);
                        st.done = true;
                        return;
                    }
                }
                if st.queue.is_empty() {
                    return;
                }
            }
        }
        drop(st);
        self.wake.notify_one();
    }

    /// As [`Self::close`], for an abort: later lines are refused as the abort's ([`Self::write_line`]).
    /// A value read masked ([`crate::sessions::surrogate::from_js`]) is about to be written: the
    /// lone surrogates go out as their escapes, in this line and every later one.
    pub fn mark_lone_surrogates(&self) {
        self.lone_surrogates.store(true, Ordering::Relaxed);
    }

    pub fn abort(&self) {
        self.state.lock().unwrap_or_else(|p| p.into_inner()).aborted = true;
        self.close();
    }

    /// Closes stdin once everything queued has been written: the CLI sees end of input.
    pub fn close(&self) {
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        st.close_requested = true;
        // No more direct writes: the task closes the pipe once the queue is out.
        st.direct = None;
        drop(st);
        self.wake.notify_one();
    }
}

/// What the pipe takes of `bytes` now: 0 when it is full.
fn write_now(pipe: &mut &File, bytes: &[u8]) -> std::io::Result<usize> {
    loop {
        match pipe.write(bytes) {
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return Ok(0),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Starts the writer task. `direct`, when given, must be another descriptor of the same
/// non-blocking pipe as `stdin` (lines are then written from the producing thread when they fit).
pub(crate) fn spawn_writer(mut stdin: Box<dyn AsyncWrite + Send + Unpin>, direct: Option<File>) -> Arc<StdinWriter> {
    let state = State {
        direct,
        ..State::default()
    };
    let w = Arc::new(StdinWriter {
        state: Mutex::new(state),
        wake: Notify::new(),
        lone_surrogates: AtomicBool::new(false),
    });
    let writer = w.clone();
    tokio::spawn(async move {
        loop {
            let (chunk, close) = {
                let mut st = writer.state.lock().unwrap_or_else(|p| p.into_inner());
                if st.done {
                    break;
                }
                let chunk: Vec<u8> = st.queue.drain(..).collect();
                st.task_busy = !chunk.is_empty();
                (chunk, st.close_requested)
            };
            if !chunk.is_empty() {
                let result = async {
                    stdin.write_all(&chunk).await?;
                    stdin.flush().await
                }
                .await;
                let mut st = writer.state.lock().unwrap_or_else(|p| p.into_inner());
                st.task_busy = false;
                if let Err(e) = result {
                    report(&e);
                    st.done = true;
                    break;
                }
                continue; // more may have been queued meanwhile
            }
            if close {
                let drained = {
                    let mut st = writer.state.lock().unwrap_or_else(|p| p.into_inner());
                    st.done = st.queue.is_empty();
                    st.done
                };
                if drained {
                    let _ = stdin.shutdown().await;
                    break;
                }
                continue;
            }
            writer.wake.notified().await;
        }
    });
    w
}

/// EPIPE means the CLI is gone; the session learns that from stdout and the exit status, so this
/// is reported once, as a diagnostic, and never raised into the host.
fn report(e: &std::io::Error) {
    tracing::warn!(error = %e, "writing to Claude Code's stdin failed (the CLI has likely exited); further writes are dropped");
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    #[tokio::test]
    async fn lines_arrive_in_order_through_both_paths_then_close() {
        let (a, mut b) = tokio::io::duplex(64); // tiny buffer: many partial writes
        let w = spawn_writer(Box::new(a), None);
        let lines: Vec<String> = (0..200).map(|i| format!("{{\"n\":{i}}}\n")).collect();
        for l in &lines {
            w.write_line(l);
        }
        w.close();
        w.write_line("after close\n");
        let mut got = String::new();
        b.read_to_string(&mut got).await.unwrap();
        assert_eq!(got, lines.concat());
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn held_lines_leave_in_one_write_and_are_never_stranded() {
        // Non-blocking on both ends, as the session's pipe is: direct writes never wait.
        let (tx, rx) = tokio::net::unix::pipe::pipe().unwrap();
        let w = File::from(tx.into_nonblocking_fd().unwrap());
        let mut r = File::from(rx.into_nonblocking_fd().unwrap());
        let (a, _b) = tokio::io::duplex(64);
        let writer = spawn_writer(Box::new(a), Some(w));
        hold_lines();
        for i in 0..50 {
            assert!(writer.write_line(&format!("{{\"n\":{i}}}\n")));
        }
        let mut got = vec![0u8; 1 << 16];
        assert!(
            std::io::Read::read(&mut r, &mut got).is_err(),
            "nothing reached the pipe while held"
        );
        release_lines();
        let n = std::io::Read::read(&mut r, &mut got).unwrap();
        let expected: String = (0..50).map(|i| format!("{{\"n\":{i}}}\n")).collect();
        assert_eq!(
            std::str::from_utf8(&got[..n]).unwrap(),
            expected,
            "all fifty lines, in order, once let go"
        );
        // Not holding any more: the next line goes straight out.
        assert!(writer.write_line("{\"after\":1}\n"));
        let n = std::io::Read::read(&mut r, &mut got).unwrap();
        assert_eq!(&got[..n], b"{\"after\":1}\n");
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn held_lines_go_out_with_a_close_that_comes_first() {
        // The loop may close stdin (the call is finished) before the answering thread lets go: the
        // task drains the queue, held lines included, before it closes.
        let (tx, _rx) = tokio::net::unix::pipe::pipe().unwrap();
        let w = File::from(tx.into_nonblocking_fd().unwrap());
        let (a, mut b) = tokio::io::duplex(1 << 16);
        let writer = spawn_writer(Box::new(a), Some(w));
        hold_lines();
        assert!(writer.write_line("{\"held\":1}\n"));
        writer.close();
        release_lines();
        let mut got = String::new();
        b.read_to_string(&mut got).await.unwrap();
        assert_eq!(got, "{\"held\":1}\n");
    }
}
