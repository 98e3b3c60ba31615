//! A CLI process started by the host (`spawnClaudeCodeProcess`): its stdout arrives as chunks
//! the host pushes, its stdin leaves through a callback, and its exit is reported by the host.
//! The session treats it exactly like a child it spawned.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::{mpsc, watch};

use crate::cli::child::{ChildProcess, ExitInfo, WaitFuture};

/// What the session asks of the host's process.
pub enum HostProcessEvent {
    /// Write these bytes to the process's stdin.
    Write(Vec<u8>),
    /// Close its stdin.
    End,
    /// Send it this signal.
    Signal(i32),
}

pub type HostProcessSink = Arc<dyn Fn(HostProcessEvent) + Send + Sync>;

/// The host's handle: push what the process prints, report how it ended.
#[derive(Clone)]
pub struct HostProcessFeed {
    stdout: mpsc::UnboundedSender<Option<Vec<u8>>>,
    exit: Arc<watch::Sender<Option<ExitInfo>>>,
}

impl HostProcessFeed {
    /// A chunk of the process's stdout. Unbounded: the host reads its process's stream at the
    /// pace it delivers; the session applies back-pressure after framing (the consumer queue).
    pub fn stdout(&self, bytes: Vec<u8>) {
        let _ = self.stdout.send(Some(bytes));
    }

    pub fn stdout_end(&self) {
        let _ = self.stdout.send(None);
    }

    pub fn exited(&self, info: ExitInfo) {
        let _ = self.exit.send(Some(info));
        self.stdout_end();
    }
}

/// The session's side of a host-started process.
pub struct HostProcess {
    pub child: Box<dyn ChildProcess>,
    pub stdin: Box<dyn AsyncWrite + Send + Unpin>,
    pub stdout: Box<dyn AsyncRead + Send + Unpin>,
}

pub fn host_process(sink: HostProcessSink) -> (HostProcess, HostProcessFeed) {
    let (stdout_tx, stdout_rx) = mpsc::unbounded_channel();
    let (exit_tx, exit_rx) = watch::channel(None);
    let process = HostProcess {
        child: Box::new(RemoteChild {
            exit: exit_rx,
            sink: sink.clone(),
        }),
        stdin: Box::new(SinkWriter { sink }),
        stdout: Box::new(ChunkReader {
            rx: stdout_rx,
            pending: Vec::new(),
            pos: 0,
            eof: false,
        }),
    };
    (
        process,
        HostProcessFeed {
            stdout: stdout_tx,
            exit: Arc::new(exit_tx),
        },
    )
}

struct RemoteChild {
    exit: watch::Receiver<Option<ExitInfo>>,
    sink: HostProcessSink,
}

impl ChildProcess for RemoteChild {
    fn id(&self) -> Option<u32> {
        None
    }

    fn signal(&mut self, signal: i32) {
        if self.exit.borrow().is_none() {
            (self.sink)(HostProcessEvent::Signal(signal));
        }
    }

    fn wait(&mut self) -> WaitFuture<'_> {
        Box::pin(async move {
            let exit = self.exit.wait_for(Option::is_some).await.ok()?;
            *exit
        })
    }
}

struct SinkWriter {
    sink: HostProcessSink,
}

impl AsyncWrite for SinkWriter {
    fn poll_write(self: Pin<&mut Self>, _: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        (self.sink)(HostProcessEvent::Write(buf.to_vec()));
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        (self.sink)(HostProcessEvent::End);
        Poll::Ready(Ok(()))
    }
}

struct ChunkReader {
    rx: mpsc::UnboundedReceiver<Option<Vec<u8>>>,
    pending: Vec<u8>,
    pos: usize,
    eof: bool,
}

impl AsyncRead for ChunkReader {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        loop {
            if self.pos < self.pending.len() {
                let n = (self.pending.len() - self.pos).min(buf.remaining());
                let start = self.pos;
                buf.put_slice(&self.pending[start..start + n]);
                self.pos += n;
                return Poll::Ready(Ok(()));
            }
            if self.eof {
                return Poll::Ready(Ok(()));
            }
            match self.rx.poll_recv(cx) {
                Poll::Ready(Some(Some(chunk))) => {
                    self.pending = chunk;
                    self.pos = 0;
                }
                Poll::Ready(Some(None)) | Poll::Ready(None) => self.eof = true,
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test]
    async fn bytes_flow_both_ways_and_exit_is_reported() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let s = seen.clone();
        let (mut p, feed) = host_process(Arc::new(move |e| {
            s.lock().unwrap().push(match e {
                HostProcessEvent::Write(b) => String::from_utf8(b).unwrap(),
                HostProcessEvent::End => "<end>".into(),
                HostProcessEvent::Signal(n) => format!("<sig {n}>"),
            })
        }));
        p.stdin.write_all(b"{\"a\":1}\n").await.unwrap();
        p.stdin.shutdown().await.unwrap();
        feed.stdout(b"{\"x\"".to_vec());
        feed.stdout(b":1}\n".to_vec());
        p.child.signal(15);
        feed.exited(ExitInfo {
            code: Some(0),
            signal: None,
        });
        let mut out = String::new();
        p.stdout.read_to_string(&mut out).await.unwrap();
        assert_eq!(out, "{\"x\":1}\n");
        assert_eq!(
            p.child.wait().await,
            Some(ExitInfo {
                code: Some(0),
                signal: None
            })
        );
        p.child.signal(9); // after exit: not forwarded
        assert_eq!(*seen.lock().unwrap(), ["{\"a\":1}\n", "<end>", "<sig 15>"]);
    }
}
