//! The CLI's stdout read on the host's own thread, when the host's event loop can poll the
//! pipe (the napi binding under Node: a `uv_poll` on the fd). A tool call or a permission
//! prompt then reaches user code in the wake-up that read it, where the engine's own reader
//! costs a wake-up of its thread and then one of the host's (20–50 µs each on a 2-vCPU VM).
//!
//! The reader moves between threads with the traffic: a wake-up that finds a whole read budget
//! waiting (the CLI is streaming) hands it to the engine's thread (`read_on_engine`), which
//! reads in parallel with the consumer, and after a quiet moment it goes back to the host
//! ([`Host::adopt_reader`]). One thread at a time holds it, so lines stay in order.
//!
//! Only control requests are routed here: the host's thread is also the consumer's, so every
//! other line (messages, answers to our requests, cancels) goes to the loop as it is, and the
//! loop classifies, encodes and queues it on the engine's thread as it does with its own reader
//! (measured: classifying and encoding messages on the JS thread cost `stream_1k` a quarter and
//! `stream_1m` nearly half of their throughput). What the loop has not taken yet is bounded
//! ([`Backlog`]): past the bound the reader pauses until the loop catches up, so the loop's own
//! back-pressure (the consumer queue) still reaches the CLI.

use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::unix::AsyncFd;
use tokio::sync::{mpsc, Notify};
use tracing::Instrument;

use crate::codec::{LineFramer, ReadLine};
use crate::host::Host;
use crate::protocol::incoming::{classify, Incoming};
use crate::session::router::Router;

/// What the loop gets from an external reader.
#[derive(Debug)]
pub(crate) enum Input {
  /// Lines for the loop to handle, in order: all those of one read go together, so the loop's
  /// thread is woken once per read, not once per line (the host's thread pays for each wake).
  Lines(Vec<String>),
  /// stdout ended (or failed); every line before it was sent.
  Eof,
}

/// What the host should do with its poll after [`ExternalReader::read_ready`].
#[derive(Debug, PartialEq, Eq)]
pub enum ReadState {
  /// Keep polling.
  Open,
  /// A whole read budget was waiting: the CLI is streaming. The host should stop polling and
  /// hand the reader to the engine's thread ([`ExternalReader::read_on_engine`]).
  Streaming,
  /// Stop polling until [`Host::wake_reader`]: the loop is behind (the consumer is), and the
  /// CLI should block on its writes meanwhile.
  Paused,
  /// stdout ended: stop polling for good.
  Ended,
}

/// How the CLI writes a control request (both CLI versions in `shared/traces`, and the official
/// SDK's own output, put `type` first). A control request written otherwise still works: the
/// loop routes it, on the engine's thread.
const CONTROL_REQUEST_PREFIX: &str = r#"{"type":"control_request","#;
const READ_CHUNK: usize = 64 * 1024;
/// At most this much is read per wake-up (or half the pipe, if it is smaller). Finding it all
/// waiting means the CLI writes faster than the host's thread takes it (a stream; a control
/// request is a few KiB at most), so the reader reports `Streaming` and the engine's thread
/// takes over (measured on `stream_1k`: with 1 MiB the hand-over seldom happened and the JS
/// thread read the whole stream, 30 % slower).
const READ_BUDGET: usize = 128 * 1024;
/// The most bytes of lines the loop may have not taken yet (at least one line always passes).
pub(crate) const MAX_READ_AHEAD: usize = 1024 * 1024;
/// How long the engine's thread keeps reading after the CLI's output stops, before the reader
/// goes back to the host's thread. Output of a stream comes microseconds apart; a tool call
/// waits on the model for far longer.
const QUIET: Duration = Duration::from_millis(5);

/// Bytes of lines sent to the loop and not yet taken by it, and whether the reader paused for
/// them. Shared by the reader (adds) and the loop (takes, and wakes a paused reader).
pub(crate) struct Backlog {
  state: Mutex<(usize, bool)>,
  limit: usize,
  /// Wakes a paused reader on the engine's thread (the host is woken too, for its side).
  resumed: Notify,
}

impl Backlog {
  pub(crate) fn new(limit: usize) -> Arc<Self> {
    Arc::new(Self { state: Mutex::new((0, false)), limit: limit.max(1), resumed: Notify::new() })
  }

  /// Lines of `len` bytes were sent; true when the reader must pause until woken.
  fn sent(&self, len: usize) -> bool {
    let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
    st.0 += len;
    st.1 = st.0 > self.limit;
    st.1
  }

  /// The reader was woken, or asks again: whether it is still paused.
  fn paused(&self) -> bool {
    self.state.lock().unwrap_or_else(|p| p.into_inner()).1
  }

  /// The loop took lines of `len` bytes; wakes the reader once the backlog is under the limit.
  pub(crate) fn taken(&self, len: usize, host: &dyn Host) {
    let wake = {
      let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
      st.0 = st.0.saturating_sub(len);
      let wake = st.1 && st.0 <= self.limit;
      if wake {
        st.1 = false;
      }
      wake
    };
    if wake {
      self.resumed.notify_one();
      host.wake_reader();
    }
  }
}

pub struct ExternalReader {
  fd: OwnedFd,
  framer: LineFramer,
  /// Bytes read but not framed yet are `buf[pos..]` (a pause can leave some).
  buf: Vec<u8>,
  pos: usize,
  router: Arc<Router>,
  host: Arc<dyn Host>,
  loop_tx: mpsc::UnboundedSender<Input>,
  backlog: Arc<Backlog>,
  runtime: tokio::runtime::Handle,
  /// Lines of this read for the loop, and their bytes.
  batch: Vec<String>,
  batch_bytes: usize,
  /// [`READ_BUDGET`], or half the pipe when that is smaller (a budget the pipe cannot hold
  /// would never be found waiting).
  read_budget: usize,
  ended: bool,
  span: tracing::Span,
}

impl ExternalReader {
  pub(crate) fn new(
    fd: OwnedFd,
    router: Arc<Router>,
    host: Arc<dyn Host>,
    loop_tx: mpsc::UnboundedSender<Input>,
    backlog: Arc<Backlog>,
    span: tracing::Span,
  ) -> std::io::Result<Self> {
    set_nonblocking(&fd)?;
    let read_budget = grow_pipe(&fd).map_or(READ_BUDGET, |pipe| READ_BUDGET.min(pipe / 2).max(READ_CHUNK));
    Ok(Self {
      fd,
      framer: LineFramer::default(),
      buf: Vec::with_capacity(READ_CHUNK),
      pos: 0,
      router,
      host,
      loop_tx,
      backlog,
      runtime: tokio::runtime::Handle::current(),
      batch: Vec::new(),
      batch_bytes: 0,
      read_budget,
      ended: false,
      span,
    })
  }

  /// The pipe to poll for readability.
  pub fn fd(&self) -> std::os::fd::RawFd {
    self.fd.as_raw_fd()
  }

  /// The pipe is readable (or the host resumes after a pause): reads what is there, up to a
  /// budget, and handles every complete line. Calls into the host happen from here, on the
  /// caller's thread.
  pub fn read_ready(&mut self) -> ReadState {
    if self.ended {
      return ReadState::Ended;
    }
    if self.backlog.paused() {
      return ReadState::Paused;
    }
    let span = self.span.clone();
    let _entered = span.enter();
    let state = self.read();
    if self.flush() && matches!(state, ReadState::Open | ReadState::Streaming) {
      return ReadState::Paused;
    }
    state
  }

  /// Goes on reading on the engine's thread (the host stopped polling), and comes back to the
  /// host through [`Host::adopt_reader`] once the CLI has been quiet for a moment.
  pub fn read_on_engine(self) {
    let (runtime, span) = (self.runtime.clone(), self.span.clone());
    let _entered = span.enter();
    tracing::trace!("the CLI is streaming: its stdout is read on the engine's thread");
    runtime.spawn(engine_reads(self, true).instrument(span.clone()));
  }

  fn read(&mut self) -> ReadState {
    let mut read = 0;
    loop {
      while self.pos < self.buf.len() {
        let (n, line) = self.framer.feed(&self.buf[self.pos..]);
        self.pos += n;
        if let Some(line) = line {
          self.handle(line);
          if self.batch_bytes > self.backlog.limit {
            // Far enough ahead of the loop for now; what is read stays in `buf`.
            return ReadState::Open;
          }
        }
      }
      if read >= self.read_budget {
        return ReadState::Streaming;
      }
      self.buf.clear();
      self.pos = 0;
      let n = unsafe { libc::read(self.fd.as_raw_fd(), self.buf.as_mut_ptr().cast(), self.buf.capacity()) };
      if n > 0 {
        // SAFETY: read(2) initialized the first n bytes.
        unsafe { self.buf.set_len(n as usize) };
        read += n as usize;
        continue;
      }
      if n < 0 {
        let e = std::io::Error::last_os_error();
        match e.kind() {
          std::io::ErrorKind::WouldBlock => return ReadState::Open,
          std::io::ErrorKind::Interrupted => continue,
          _ => tracing::warn!(error = %e, "reading Claude Code's stdout failed"),
        }
      }
      // End of stream (or a read error, which ends it the same way). The end follows the last
      // line in the channel, so it needs no room.
      if let Some(last) = self.framer.finish() {
        self.handle(last);
      }
      self.flush();
      self.ended = true;
      let _ = self.loop_tx.send(Input::Eof);
      return ReadState::Ended;
    }
  }

  /// Routes a control request, or adds the line to the batch for the loop.
  fn handle(&mut self, line: ReadLine) {
    let line = match line {
      ReadLine::Line(line) => line,
      ReadLine::TooLong { len, prefix } => {
        tracing::warn!(len, "skipped a line from Claude Code longer than the limit");
        tracing::trace!(prefix = %crate::session::redact_keys(&prefix), "the skipped line began");
        return;
      }
      ReadLine::Eof => return,
    };
    if line.starts_with(CONTROL_REQUEST_PREFIX) {
      if let Incoming::ControlRequest { request_id, request } = classify(&line) {
        // The lines before it reach the loop first.
        self.flush();
        self.router.accept(request_id, request);
        return;
      }
    }
    self.batch_bytes += line.len();
    self.batch.push(line);
  }

  /// Sends the batch to the loop; true when reading must pause until the loop catches up.
  fn flush(&mut self) -> bool {
    if self.batch.is_empty() {
      return false;
    }
    let pause = self.backlog.sent(std::mem::take(&mut self.batch_bytes));
    let _ = self.loop_tx.send(Input::Lines(std::mem::take(&mut self.batch)));
    pause
  }
}

/// The host's thread reads only between its other work (parsing the consumer's batches, running
/// handlers): a 1 MiB pipe lets the CLI write ahead meanwhile, and lets a wake-up find a whole
/// read budget waiting, which is how a stream is told apart (the default 64 KiB could never
/// hold it). Best effort: the system's `pipe-max-size` may be lower. Returns the pipe's size.
#[cfg(target_os = "linux")]
fn grow_pipe(fd: &OwnedFd) -> Option<usize> {
  const PIPE_BYTES: libc::c_int = 1024 * 1024;
  let size = unsafe {
    libc::fcntl(fd.as_raw_fd(), libc::F_SETPIPE_SZ, PIPE_BYTES);
    libc::fcntl(fd.as_raw_fd(), libc::F_GETPIPE_SZ)
  };
  (size > 0).then_some(size as usize)
}

#[cfg(not(target_os = "linux"))]
fn grow_pipe(_: &OwnedFd) -> Option<usize> {
  None
}

/// The fd as tokio's reactor sees it; the reader keeps owning it.
struct Borrowed(std::os::fd::RawFd);

impl AsRawFd for Borrowed {
  fn as_raw_fd(&self) -> std::os::fd::RawFd {
    self.0
  }
}

/// Reads on the engine's thread; with `hand_back`, returns the reader to the host once the CLI
/// has been quiet for [`QUIET`] (a host that will not take it gets it read here to the end).
async fn engine_reads(mut reader: ExternalReader, hand_back: bool) {
  // SAFETY: the reader owns the fd and outlives `fd`, a local dropped before the reader is
  // given back or dropped (parameters drop after locals).
  let fd = match unsafe { AsyncFd::register_with_interest(Borrowed(reader.fd()), tokio::io::Interest::READABLE) } {
    Ok(fd) => fd,
    Err(e) => {
      tracing::warn!(error = %e, "cannot watch Claude Code's stdout on the engine's thread");
      if hand_back {
        give_back(reader);
      }
      return;
    }
  };
  let closed = reader.loop_tx.clone();
  loop {
    match reader.read_ready() {
      ReadState::Ended => return,
      ReadState::Streaming => tokio::task::yield_now().await,
      ReadState::Paused => tokio::select! {
        _ = reader.backlog.resumed.notified() => {}
        // The session ended: nobody takes these lines.
        _ = closed.closed() => return,
      },
      ReadState::Open => tokio::select! {
        // Readiness is cleared only now that a read found the pipe empty (WouldBlock), and only
        // the readiness seen before it: newer output still wakes us.
        ready = fd.readable() => if let Ok(mut guard) = ready {
          guard.clear_ready();
        },
        _ = tokio::time::sleep(QUIET), if hand_back => {
          drop(fd);
          return give_back(reader);
        }
        _ = closed.closed() => return,
      },
    }
  }
}

fn give_back(reader: ExternalReader) {
  tracing::trace!("the CLI is quiet: its stdout goes back to the host's thread");
  let host = reader.host.clone();
  if let Some(reader) = host.adopt_reader(reader) {
    let (runtime, span) = (reader.runtime.clone(), reader.span.clone());
    runtime.spawn(engine_reads(reader, false).instrument(span));
  }
}

fn set_nonblocking(fd: &OwnedFd) -> std::io::Result<()> {
  let fd = fd.as_raw_fd();
  unsafe {
    let flags = libc::fcntl(fd, libc::F_GETFL);
    if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
      return Err(std::io::Error::last_os_error());
    }
  }
  Ok(())
}

#[cfg(test)]
mod tests {
  use std::sync::mpsc as std_mpsc;
  use std::sync::Mutex;
  use std::time::Duration;

  use super::*;
  use crate::cli::launch::Launch;
  use crate::host::{HostCall, Reply};
  use crate::session::{start, MessageText, ProcessSpec, SessionSpec};

  /// Answers every call at once, on the reading thread (as a synchronous JS handler would, before
  /// the reader has returned), and tells the test when the reader may read again.
  struct TestHost {
    calls: Mutex<Vec<String>>,
    wake: Mutex<std_mpsc::Sender<()>>,
    /// Takes the reader back from the engine's thread (into `adopted`, then wakes the test).
    adopts: bool,
    adopted: Mutex<Option<ExternalReader>>,
  }

  impl TestHost {
    fn new(wake: std_mpsc::Sender<()>, adopts: bool) -> Arc<Self> {
      Arc::new(Self { calls: Mutex::default(), wake: Mutex::new(wake), adopts, adopted: Mutex::default() })
    }
  }

  impl Host for TestHost {
    fn invoke(&self, call: HostCall, reply: Reply) {
      self.calls.lock().unwrap().push(call.request_id);
      reply.send(Ok(r#"{"behavior":"allow"}"#.into()));
    }
    fn cancel(&self, _: &str) {}
    fn wake_reader(&self) {
      let _ = self.wake.lock().unwrap().send(());
    }
    fn adopt_reader(&self, reader: ExternalReader) -> Option<ExternalReader> {
      if !self.adopts {
        return Some(reader);
      }
      *self.adopted.lock().unwrap() = Some(reader);
      let _ = self.wake.lock().unwrap().send(());
      None
    }
  }

  /// A CLI in sh: answers `initialize`, reads the prompt, prints what `body` prints, then a
  /// result, and exits when stdin closes.
  fn sh_cli(body: &str) -> Launch {
    let script = format!(
      r#"read init; id=$(printf '%s' "$init" | sed 's/.*"request_id":"\([^"]*\)".*/\1/')
printf '{{"type":"control_response","response":{{"subtype":"success","request_id":"%s","response":{{}}}}}}\n' "$id"
read prompt
{body}
printf '{{"type":"result","subtype":"success"}}\n'
cat >/dev/null"#
    );
    Launch { program: "/bin/sh".into(), args: vec!["-c".into(), script], env: vec![("PATH".into(), std::env::var("PATH").unwrap_or_default())], cwd: None }
  }

  fn spec(launch: Launch, queue_bytes: usize) -> SessionSpec {
    SessionSpec {
      process: ProcessSpec::Spawn(launch),
      initialize: serde_json::json!({"subtype": "initialize"}),
      servers: vec![],
      prompt: Some("hi".into()),
      can_use_tool: true,
      dialogs: Default::default(),
      forward_stderr: false,
      initialize_timeout: Duration::from_secs(20),
      queue_bytes,
      message_text: MessageText::Utf8,
      external_stdout: true,
    }
  }

  /// Drives the reader as a host event loop would: poll(2) for readability, or a wake-up after
  /// a pause. Returns how many times it paused.
  fn drive(mut reader: ExternalReader, wake: std_mpsc::Receiver<()>) -> usize {
    let mut pauses = 0;
    loop {
      match reader.read_ready() {
        ReadState::Ended => return pauses,
        ReadState::Paused => {
          pauses += 1;
          wake.recv_timeout(Duration::from_secs(20)).expect("woken after a pause");
        }
        ReadState::Open | ReadState::Streaming => {
          let mut fds = libc::pollfd { fd: reader.fd(), events: libc::POLLIN, revents: 0 };
          unsafe { libc::poll(&mut fds, 1, 20_000) };
        }
      }
    }
  }

  /// Every message up to the end of the stream, which must come within 20 s (a session whose
  /// stdin is held open by a stale call never ends).
  async fn all_messages(messages: &mut crate::session::Messages) -> Vec<String> {
    let mut out = vec![];
    let take = async {
      while let Some(batch) = messages.next_batch(3, 1 << 20).await {
        out.extend(batch.expect("a clean end").into_iter().map(|m| String::from_utf8(m).unwrap()));
      }
    };
    tokio::time::timeout(Duration::from_secs(20), take).await.expect("the session ended");
    out
  }

  #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
  async fn routes_on_the_readers_thread_and_the_session_ends_cleanly() {
    let (wake_tx, wake_rx) = std_mpsc::channel();
    let host = TestHost::new(wake_tx, true);
    let body = r#"printf '{"type":"assistant","n":1}\n'
printf '{"type":"control_request","request_id":"c1","request":{"subtype":"can_use_tool","tool_name":"T","input":{"a":1}}}\n'
read answer; printf '{"type":"answer","got":%s}\n' "$answer""#;
    let started = start(spec(sh_cli(body), 1 << 20), host.clone()).unwrap();
    let mut messages = started.messages;
    let reader = std::thread::spawn({
      let reader = started.reader.expect("an external reader");
      move || drive(reader, wake_rx)
    });
    let got = all_messages(&mut messages).await;
    assert_eq!(reader.join().unwrap(), 0);
    assert_eq!(got.len(), 3, "{got:?}");
    assert_eq!(got[0], r#"{"type":"assistant","n":1}"#);
    // The answer given at once, on the reading thread, reached the CLI: the call was in flight
    // (registered before the host saw it) and stdin stayed open for it.
    assert!(got[1].contains(r#""behavior":"allow""#) && got[1].contains(r#""request_id":"c1""#), "{}", got[1]);
    assert!(got[2].contains(r#""type":"result""#));
    assert_eq!(*host.calls.lock().unwrap(), ["c1"]);
    assert!(started.handle.initialization_result().await.is_ok());
  }

  #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
  async fn pauses_while_the_consumer_is_behind_and_loses_nothing() {
    let (wake_tx, wake_rx) = std_mpsc::channel();
    let host = TestHost::new(wake_tx, true);
    // 200 messages of ~100 bytes through a 512-byte queue.
    let body = r#"i=0; while [ $i -lt 200 ]; do printf '{"type":"assistant","n":%d,"pad":"%s"}\n' $i xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; i=$((i+1)); done"#;
    let started = start(spec(sh_cli(body), 512), host).unwrap();
    let mut messages = started.messages;
    let reader = std::thread::spawn({
      let reader = started.reader.expect("an external reader");
      move || drive(reader, wake_rx)
    });
    // A slow consumer: the reader must wait for it rather than buffer.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let got = all_messages(&mut messages).await;
    let pauses = reader.join().unwrap();
    assert!(pauses > 0, "the reader never paused");
    assert_eq!(got.len(), 201);
    for (i, m) in got[..200].iter().enumerate() {
      assert!(m.starts_with(&format!(r#"{{"type":"assistant","n":{i},"#)), "message {i} out of order: {m}");
    }
    assert!(got[200].contains(r#""type":"result""#));
  }

  const QUIET_THEN_ASK: &str = r#"printf '{"type":"assistant","n":1}\n{"type":"assistant","n":2}\n'
sleep 0.3
printf '{"type":"control_request","request_id":"c1","request":{"subtype":"can_use_tool","tool_name":"T","input":{}}}\n'
read answer; printf '{"type":"answer","got":%s}\n' "$answer""#;

  /// A session of `QUIET_THEN_ASK` whose reader starts on the engine's thread, as after a
  /// wake-up that found a stream. The handle must be kept: dropping it closes the session.
  fn started_on_engine(adopts: bool) -> (Arc<TestHost>, crate::session::SessionHandle, crate::session::Messages, std_mpsc::Receiver<()>) {
    let (wake_tx, wake_rx) = std_mpsc::channel();
    let host = TestHost::new(wake_tx, adopts);
    let started = start(spec(sh_cli(QUIET_THEN_ASK), 1 << 20), host.clone()).unwrap();
    started.reader.expect("an external reader").read_on_engine();
    (host, started.handle, started.messages, wake_rx)
  }

  #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
  async fn goes_back_to_the_host_when_the_cli_is_quiet_after_reading_on_the_engine() {
    let (host, _handle, mut messages, wake_rx) = started_on_engine(true);
    let host_thread = std::thread::spawn({
      let host = host.clone();
      move || {
        wake_rx.recv_timeout(Duration::from_secs(20)).expect("the reader came back");
        let reader = host.adopted.lock().unwrap().take().expect("adopted");
        drive(reader, wake_rx)
      }
    });
    let got = all_messages(&mut messages).await;
    host_thread.join().unwrap();
    assert_eq!(got.len(), 4, "{got:?}");
    assert_eq!(got[..2], [r#"{"type":"assistant","n":1}"#, r#"{"type":"assistant","n":2}"#]);
    assert!(got[2].contains(r#""behavior":"allow""#), "{}", got[2]);
    assert_eq!(*host.calls.lock().unwrap(), ["c1"]);
  }

  #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
  async fn a_host_that_does_not_take_the_reader_back_has_it_read_to_the_end_on_the_engine() {
    let (host, _handle, mut messages, _wake_rx) = started_on_engine(false);
    let got = all_messages(&mut messages).await;
    assert_eq!(got.len(), 4, "{got:?}");
    assert_eq!(*host.calls.lock().unwrap(), ["c1"]);
    assert!(host.adopted.lock().unwrap().is_none());
  }
}
