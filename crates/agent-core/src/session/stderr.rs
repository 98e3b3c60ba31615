//! The CLI's stderr: forwarded to the host when it asked (the `stderr` option), and its tail
//! kept for error messages when the CLI dies.

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::task::JoinHandle;

use crate::host::{Host, StderrGate};

/// How much of the end of stderr error messages quote (the official SDK keeps 2048 chars).
pub(crate) const TAIL_CHARS: usize = 2048;

/// The first read's room; each read that fills it doubles it, up to [`MAX_READ`].
const FIRST_READ: usize = 1024;
const MAX_READ: usize = 8192;

#[derive(Clone, Default)]
pub(crate) struct StderrTail(Arc<Mutex<String>>);

impl StderrTail {
    fn push(&self, s: &str) {
        let mut t = self.0.lock().unwrap_or_else(|p| p.into_inner());
        t.push_str(s);
        if t.len() > 4 * TAIL_CHARS {
            let cut = t.len() - 2 * TAIL_CHARS;
            let cut = (cut..t.len()).find(|i| t.is_char_boundary(*i)).unwrap_or(t.len());
            t.drain(..cut);
        }
    }

    /// The last [`TAIL_CHARS`] characters, with anything that looks like an API key masked.
    pub fn get(&self) -> String {
        let t = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let chars: Vec<char> = t.chars().collect();
        let start = chars.len().saturating_sub(TAIL_CHARS);
        redact_keys(&chars[start..].iter().collect::<String>())
            .trim()
            .to_string()
    }
}

/// Masks `sk-...` style tokens (Anthropic keys are `sk-ant-...`), so a CLI that prints its
/// configuration cannot leak a key into an exception message or a log.
pub fn redact_keys(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("sk-") {
        out.push_str(&rest[..i]);
        let tail = &rest[i + 3..];
        let len = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .unwrap_or(tail.len());
        if len >= 8 {
            out.push_str("<token>");
        } else {
            out.push_str(&rest[i..i + 3 + len]);
        }
        rest = &tail[len..];
    }
    out.push_str(rest);
    out
}

/// Reads the CLI's stderr to its end: its tail is kept, and each chunk goes to the host when it
/// asked, within the host's [`StderrGate`] if it has one (the reader then waits for room, and the
/// CLI for the reader, as stdout waits for its consumer).
pub fn spawn_stderr(
    mut stderr: impl AsyncRead + Send + Unpin + 'static,
    mut host: Option<Arc<dyn Host>>,
) -> (JoinHandle<()>, StderrTail) {
    let tail = StderrTail::default();
    let t = tail.clone();
    let gate = host.as_ref().and_then(|h| h.stderr_gate());
    let task = tokio::spawn(async move {
        // Read straight into `carry`, never zeroed, and only as large as the CLI's writes ask:
        // most CLIs write little or nothing here, and a host runs hundreds of sessions.
        let mut carry: Vec<u8> = Vec::new();
        let mut chunk = FIRST_READ;
        loop {
            carry.reserve(chunk);
            let n = match stderr.read_buf(&mut carry).await {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            if n >= chunk {
                chunk = (chunk * 2).min(MAX_READ);
            }
            // Hold back an incomplete UTF-8 sequence at the end for the next read.
            let valid = match std::str::from_utf8(&carry) {
                Ok(_) => carry.len(),
                Err(e) if e.error_len().is_none() => e.valid_up_to(),
                Err(_) => carry.len(),
            };
            let text = String::from_utf8_lossy(&carry[..valid]).into_owned();
            carry.drain(..valid);
            t.push(&text);
            forward(&mut host, gate.as_deref(), &text).await;
        }
        if !carry.is_empty() {
            let text = String::from_utf8_lossy(&carry).into_owned();
            t.push(&text);
            forward(&mut host, gate.as_deref(), &text).await;
        }
    });
    (task, tail)
}

/// Hands a chunk to the host, once its gate has room; a closed gate ends the forwarding.
async fn forward(host: &mut Option<Arc<dyn Host>>, gate: Option<&StderrGate>, text: &str) {
    let Some(h) = host else { return };
    if let Some(gate) = gate {
        if !gate.room(text.len()).await {
            *host = None;
            return;
        }
    }
    h.stderr(text);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn keys_are_masked() {
        assert_eq!(redact_keys("key=sk-ant-api03-abcdefghij rest"), "key=<token> rest");
        assert_eq!(redact_keys("sk-test short sk-1"), "sk-test short sk-1");
    }

    #[test]
    fn tail_keeps_the_end() {
        let t = StderrTail::default();
        for i in 0..2000 {
            t.push(&format!("line {i}\n"));
        }
        let s = t.get();
        assert!(s.ends_with("line 1999"));
        assert!(s.chars().count() <= TAIL_CHARS);
    }

    /// A host that keeps every chunk.
    #[derive(Default)]
    struct Keep(Mutex<Vec<String>>);

    impl Host for Keep {
        fn invoke(&self, _: Vec<(crate::host::HostCall, crate::host::Reply)>) {}
        fn cancel(&self, _: &str) {}
        fn stderr(&self, chunk: &str) {
            self.0.lock().unwrap().push(chunk.to_string());
        }
    }

    /// The read room starts small and grows: a long stream in odd-sized writes (multi-byte
    /// characters cut between them) reaches the host whole and in order, and so do small writes.
    #[tokio::test]
    async fn long_and_short_output_reaches_the_host_whole() {
        use tokio::io::AsyncWriteExt;
        let text: String = (0..4000).map(|i| format!("línea {i} 🌍\n")).collect();
        let host = Arc::new(Keep::default());
        let (mut cli, stderr) = tokio::io::duplex(64 * 1024);
        let (task, tail) = spawn_stderr(stderr, Some(host.clone() as Arc<dyn Host>));
        for chunk in text.as_bytes().chunks(7919) {
            cli.write_all(chunk).await.unwrap();
        }
        for i in 0..50 {
            cli.write_all(format!("short {i}\n").as_bytes()).await.unwrap();
            tokio::task::yield_now().await;
        }
        drop(cli);
        task.await.unwrap();
        let got = host.0.lock().unwrap().concat();
        let shorts: String = (0..50).map(|i| format!("short {i}\n")).collect();
        assert_eq!(got, text + &shorts);
        assert!(tail.get().ends_with("short 49"));
    }

    /// A host that holds every chunk until the test delivers it.
    struct Slow {
        gate: Arc<StderrGate>,
        chunks: Mutex<Vec<String>>,
    }

    impl Host for Slow {
        fn invoke(&self, _: Vec<(crate::host::HostCall, crate::host::Reply)>) {}
        fn cancel(&self, _: &str) {}
        fn stderr(&self, chunk: &str) {
            self.chunks.lock().unwrap().push(chunk.to_string());
        }
        fn stderr_gate(&self) -> Option<Arc<StderrGate>> {
            Some(self.gate.clone())
        }
    }

    /// The reader waits for room in the host's gate (so the writer waits for the pipe); a closed
    /// gate lets it read on, keeping only the tail.
    #[tokio::test]
    async fn a_gate_makes_the_reader_wait_and_closing_it_frees_the_reader() {
        use tokio::io::AsyncWriteExt;
        let host = Arc::new(Slow {
            gate: StderrGate::new(8),
            chunks: Mutex::default(),
        });
        let (mut cli, stderr) = tokio::io::duplex(4);
        let (task, tail) = spawn_stderr(stderr, Some(host.clone() as Arc<dyn Host>));
        cli.write_all(b"abcdef").await.unwrap();
        let wait = || tokio::time::sleep(std::time::Duration::from_millis(50));
        wait().await;
        let taken: usize = host.chunks.lock().unwrap().iter().map(String::len).sum();
        assert!((1..=8).contains(&taken), "{taken}");
        // The gate is full: what the CLI writes now stays in the pipe (4 bytes), then blocks it.
        let blocked = tokio::time::timeout(std::time::Duration::from_millis(200), cli.write_all(&[b'x'; 64])).await;
        assert!(blocked.is_err(), "the writer waits");
        assert!(host.chunks.lock().unwrap().iter().map(String::len).sum::<usize>() <= 8);
        host.gate.delivered(taken);
        wait().await;
        assert!(host.chunks.lock().unwrap().iter().map(String::len).sum::<usize>() > taken);
        host.gate.close();
        cli.write_all(b"the end").await.unwrap();
        drop(cli);
        task.await.unwrap();
        assert!(tail.get().ends_with("the end"));
        assert!(!host.chunks.lock().unwrap().concat().contains("the end"));
    }
}
