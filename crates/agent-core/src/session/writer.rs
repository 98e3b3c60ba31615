//! The only writer of the CLI's stdin. Lines from every task funnel through one channel into a
//! buffered writer that flushes when the channel is momentarily empty, so bursts (64 tool results
//! at once) cost one syscall, not 64.

use tokio::io::{AsyncWrite, AsyncWriteExt, BufWriter};
use tokio::sync::mpsc;

pub enum WriterMsg {
  /// A complete line, terminator included.
  Line(String),
  /// Flush and close stdin: the CLI sees end of input.
  Close,
}

/// Unbounded on purpose: everything written is produced by us in answer to the CLI or the user
/// (responses, user messages), at a pace the CLI's own requests set; the writer drains it as
/// fast as the pipe takes it.
pub type WriterTx = mpsc::UnboundedSender<WriterMsg>;

pub fn spawn_writer(stdin: Box<dyn AsyncWrite + Send + Unpin>) -> WriterTx {
  let (tx, mut rx) = mpsc::unbounded_channel::<WriterMsg>();
  tokio::spawn(async move {
    let mut out = Some(BufWriter::with_capacity(64 * 1024, stdin));
    let mut failed = false;
    while let Some(msg) = rx.recv().await {
      let mut next = Some(msg);
      while let Some(msg) = next.take() {
        match msg {
          WriterMsg::Line(line) => {
            if let (Some(w), false) = (out.as_mut(), failed) {
              if let Err(e) = w.write_all(line.as_bytes()).await {
                report(&e);
                failed = true;
              }
            }
          }
          WriterMsg::Close => {
            if let (Some(mut w), false) = (out.take(), failed) {
              let _ = w.flush().await;
              let _ = w.shutdown().await;
            }
            out = None;
          }
        }
        next = rx.try_recv().ok();
      }
      if let (Some(w), false) = (out.as_mut(), failed) {
        if let Err(e) = w.flush().await {
          report(&e);
          failed = true;
        }
      }
    }
  });
  tx
}

/// EPIPE means the CLI is gone; the session learns that from stdout and the exit status, so this
/// is reported once, as a diagnostic, and never raised into the host.
fn report(e: &std::io::Error) {
  tracing::warn!(error = %e, "writing to Claude Code's stdin failed (the CLI has likely exited); further writes are dropped");
}
