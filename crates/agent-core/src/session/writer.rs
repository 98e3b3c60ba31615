//! The CLI's stdin: the session loop queues complete lines, a task of its own writes them, so
//! the loop never waits on a full pipe. Lines queued in a burst leave in one write.
//!
//! The queue is unbounded on purpose: everything written is produced by us in answer to the CLI
//! or the user (responses, user messages), at a pace the CLI's own requests set.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::Notify;

pub struct StdinWriter {
  state: Mutex<State>,
  wake: Notify,
}

#[derive(Default)]
struct State {
  queue: VecDeque<u8>,
  close_requested: bool,
  /// stdin is closed or broken: nothing more is written (or reported).
  done: bool,
}

impl StdinWriter {
  /// Queues a complete line, terminator included.
  pub fn write_line(&self, line: &str) {
    let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
    if st.done || st.close_requested {
      return;
    }
    st.queue.extend(line.as_bytes());
    drop(st);
    self.wake.notify_one();
  }

  /// Closes stdin once everything queued has been written: the CLI sees end of input.
  pub fn close(&self) {
    self.state.lock().unwrap_or_else(|p| p.into_inner()).close_requested = true;
    self.wake.notify_one();
  }
}

/// Starts the writer task.
pub fn spawn_writer(mut stdin: Box<dyn AsyncWrite + Send + Unpin>) -> Arc<StdinWriter> {
  let w = Arc::new(StdinWriter { state: Mutex::new(State::default()), wake: Notify::new() });
  let writer = w.clone();
  tokio::spawn(async move {
    loop {
      let (chunk, close) = {
        let mut st = writer.state.lock().unwrap_or_else(|p| p.into_inner());
        if st.done {
          break;
        }
        let chunk: Vec<u8> = st.queue.drain(..).collect();
        (chunk, st.close_requested)
      };
      if !chunk.is_empty() {
        let result = async {
          stdin.write_all(&chunk).await?;
          stdin.flush().await
        }
        .await;
        if let Err(e) = result {
          report(&e);
          writer.state.lock().unwrap_or_else(|p| p.into_inner()).done = true;
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
    let w = spawn_writer(Box::new(a));
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
