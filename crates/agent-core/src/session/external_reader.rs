//! The CLI's stdout read on the host's own thread, when the host's event loop can poll the
//! pipe (the napi binding under Node: a `uv_poll` on the fd). A tool call or a permission
//! prompt then reaches user code in the wake-up that read it, where the engine's own reader
//! costs a wake-up of its thread and then one of the host's (20–50 µs each on a 2-vCPU VM).
//!
//! What needs no loop state is done right here: control requests are routed and messages are
//! queued for the consumer. The loop gets the rest as [`Input`]s: our own requests' answers,
//! cancels and malformed lines (as lines), and the facts it decides on (a result, a state
//! change, the end of the stream). That channel is unbounded on purpose: it carries only those
//! rare lines and small events, never the message stream, which is bounded by the queue.

use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tokio::sync::mpsc;

use crate::codec::{LineFramer, ReadLine};
use crate::host::Host;
use crate::protocol::incoming::{classify, Incoming};
use crate::session::queue::QueueSender;
use crate::session::router::Router;

/// What the loop learns from an external reader.
#[derive(Debug)]
pub(crate) enum Input {
  /// A line the loop handles itself (it classifies it again).
  Line(String),
  /// A `result` message was queued.
  Result,
  /// A `session_state_changed` was seen.
  State { idle: bool },
  /// stdout ended (or failed); everything before it was handled.
  Eof,
}

/// What the host should do with its poll after [`ExternalReader::read_ready`].
#[derive(Debug, PartialEq, Eq)]
pub enum ReadState {
  /// Keep polling.
  Open,
  /// Stop polling until [`Host::wake_reader`]: the consumer is behind, and the CLI should
  /// block on its writes meanwhile.
  Paused,
  /// stdout ended: stop polling for good.
  Ended,
}

const READ_CHUNK: usize = 64 * 1024;
/// At most this much is read per wake-up, so a flood of output cannot starve the host's other
/// work (its timers, the consumer); a level-triggered poll calls again right away.
const READ_BUDGET: usize = 1024 * 1024;

pub struct ExternalReader {
  fd: OwnedFd,
  framer: LineFramer,
  /// Bytes read but not framed yet are `buf[pos..]` (a pause can leave some).
  buf: Vec<u8>,
  pos: usize,
  router: Arc<Router>,
  host: Arc<dyn Host>,
  queue: QueueSender,
  loop_tx: mpsc::UnboundedSender<Input>,
  /// Set while a message waits for room in the consumer queue; the task that waits for the room
  /// clears it, then wakes the host.
  blocked: Arc<AtomicBool>,
  /// stdout ended while a message waited: the end is reported once it is queued.
  eof_pending: bool,
  ended: bool,
  runtime: tokio::runtime::Handle,
  span: tracing::Span,
}

impl ExternalReader {
  pub(crate) fn new(
    fd: OwnedFd,
    router: Arc<Router>,
    host: Arc<dyn Host>,
    queue: QueueSender,
    loop_tx: mpsc::UnboundedSender<Input>,
    span: tracing::Span,
  ) -> std::io::Result<Self> {
    set_nonblocking(&fd)?;
    Ok(Self {
      fd,
      framer: LineFramer::default(),
      buf: Vec::with_capacity(READ_CHUNK),
      pos: 0,
      router,
      host,
      queue,
      loop_tx,
      blocked: Arc::new(AtomicBool::new(false)),
      eof_pending: false,
      ended: false,
      runtime: tokio::runtime::Handle::current(),
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
    if self.blocked.load(Ordering::Acquire) {
      return ReadState::Paused;
    }
    let span = self.span.clone();
    let _entered = span.enter();
    if self.eof_pending {
      return self.end();
    }
    let mut read = 0;
    loop {
      while self.pos < self.buf.len() {
        let (n, line) = self.framer.feed(&self.buf[self.pos..]);
        self.pos += n;
        if let Some(line) = line {
          self.handle(line);
          if self.blocked.load(Ordering::Acquire) {
            return ReadState::Paused;
          }
        }
      }
      if read >= READ_BUDGET {
        return ReadState::Open;
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
      // End of stream (or a read error, which ends it the same way).
      if let Some(last) = self.framer.finish() {
        self.handle(last);
      }
      if self.blocked.load(Ordering::Acquire) {
        self.eof_pending = true;
        return ReadState::Paused;
      }
      return self.end();
    }
  }

  fn end(&mut self) -> ReadState {
    self.ended = true;
    let _ = self.loop_tx.send(Input::Eof);
    ReadState::Ended
  }

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
    match classify(&line) {
      Incoming::Message { is_result } => {
        self.deliver(line);
        if is_result {
          let _ = self.loop_tx.send(Input::Result);
        }
      }
      Incoming::SessionState { state, host_only } => {
        if !host_only {
          self.deliver(line);
        }
        let _ = self.loop_tx.send(Input::State { idle: state == "idle" });
      }
      Incoming::ControlRequest { request_id, request } => self.router.accept(request_id, request),
      Incoming::HostOnly => {}
      Incoming::ControlResponse { .. } | Incoming::ControlCancel { .. } | Incoming::Malformed(_) => {
        let _ = self.loop_tx.send(Input::Line(line));
      }
    }
  }

  /// Queues a message for the consumer. When it does not fit, reading pauses (the CLI then
  /// blocks on its writes) until a task on the engine's runtime has queued it.
  fn deliver(&mut self, line: String) {
    let Err(line) = self.queue.try_push(self.queue.encode(line)) else {
      return;
    };
    self.blocked.store(true, Ordering::Release);
    let (queue, blocked, host, loop_tx) = (self.queue.clone(), self.blocked.clone(), self.host.clone(), self.loop_tx.clone());
    let cost = queue.cost(&line);
    self.runtime.spawn(async move {
      tokio::select! {
        permit = queue.reserve(cost) => {
          if let Some(permit) = permit {
            queue.push_reserved(line, permit);
          }
        }
        // The session ended: nobody will read this message.
        _ = loop_tx.closed() => return,
      }
      blocked.store(false, Ordering::Release);
      host.wake_reader();
    });
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
        ReadState::Open => {
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
    let host = Arc::new(TestHost { calls: Mutex::default(), wake: Mutex::new(wake_tx) });
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
    let host = Arc::new(TestHost { calls: Mutex::default(), wake: Mutex::new(wake_tx) });
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
}
