//! The CLI's stdin. Whoever produces a line writes it: an answer computed on the host's thread
//! goes to the pipe with one non-blocking `write(2)` right there, with no hop to another thread.
//! Only when the pipe is full (or a write is already queued, to keep lines in order) does the
//! rest go to a background task that waits for the pipe to drain. Lines produced in a burst are
//! queued together and leave in one syscall.
//!
//! The queue is unbounded on purpose: everything written is produced by us in answer to the CLI
//! or the user (responses, user messages), at a pace the CLI's own requests set.

use std::collections::VecDeque;
#[cfg(unix)]
use std::os::fd::RawFd;
/// No direct writes where there are no fds: `Option<RawFd>` is always None.
#[cfg(not(unix))]
type RawFd = std::convert::Infallible;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::Notify;

pub struct StdinWriter {
  state: Mutex<State>,
  wake: Notify,
  /// The pipe's fd when direct writes are possible (a local child's stdin, non-blocking).
  fd: Option<RawFd>,
}

#[derive(Default)]
struct State {
  queue: VecDeque<u8>,
  /// The task holds bytes it is writing; direct writes must queue behind them.
  task_busy: bool,
  close_requested: bool,
  /// stdin is closed or broken: nothing more is written (or reported).
  done: bool,
}

impl StdinWriter {
  /// Queues (or writes at once) a complete line, terminator included.
  pub fn write_line(&self, line: &str) {
    let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
    if st.done || st.close_requested {
      return;
    }
    let mut rest = line.as_bytes();
    if let (Some(fd), true, false) = (self.fd, st.queue.is_empty(), st.task_busy) {
      match write_nonblocking(fd, rest) {
        Ok(n) => rest = &rest[n..],
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
        Err(e) => {
          report(&e);
          st.done = true;
          return;
        }
      }
      if rest.is_empty() {
        return;
      }
    }
    st.queue.extend(rest);
    drop(st);
    self.wake.notify_one();
  }

  /// Closes stdin once everything queued has been written: the CLI sees end of input.
  pub fn close(&self) {
    self.state.lock().unwrap_or_else(|p| p.into_inner()).close_requested = true;
    self.wake.notify_one();
  }
}

#[cfg(not(unix))]
fn write_nonblocking(fd: RawFd, _: &[u8]) -> std::io::Result<usize> {
  match fd {}
}

#[cfg(unix)]
fn write_nonblocking(fd: RawFd, bytes: &[u8]) -> std::io::Result<usize> {
  loop {
    let n = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
    if n >= 0 {
      return Ok(n as usize);
    }
    let e = std::io::Error::last_os_error();
    if e.kind() != std::io::ErrorKind::Interrupted {
      return Err(e);
    }
  }
}

/// Starts the writer. `fd` enables direct writes; it must be the non-blocking fd of `stdin`.
pub fn spawn_writer(mut stdin: Box<dyn AsyncWrite + Send + Unpin>, fd: Option<RawFd>) -> Arc<StdinWriter> {
  let w = Arc::new(StdinWriter { state: Mutex::new(State::default()), wake: Notify::new(), fd });
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
        // No direct write can race the fd being closed: they stop once close is requested.
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
    let (a, mut b) = tokio::io::duplex(64); // tiny buffer: forces the queued path
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
}
