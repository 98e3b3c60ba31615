use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// Lines longer than this are skipped (and reported) instead of buffered: one bad line must not
/// take the host's memory with it. 256 MiB is far above anything the CLI legitimately prints
/// (a 64 MiB line passes) while still bounding a runaway writer.
pub const DEFAULT_MAX_LINE_BYTES: usize = 256 * 1024 * 1024;

/// What one read produced.
#[derive(Debug, PartialEq, Eq)]
pub enum ReadLine {
  /// A complete non-blank line without its terminator. Bytes that are not valid UTF-8 are
  /// replaced by U+FFFD, as Node's stream decoder (and so the official SDK) does.
  Line(String),
  /// A line longer than the limit: its length and its first bytes, for the report.
  TooLong { len: usize, prefix: String },
  /// End of stream. A final line without a terminator is returned as a `Line` first.
  Eof,
}

/// Splits a byte stream into lines. Splitting happens on bytes, before decoding, so a UTF-8
/// sequence cut by a read boundary is reassembled intact.
pub struct LineReader<R> {
  inner: R,
  line: Vec<u8>,
  max_line: usize,
  /// Bytes of the current over-long line seen so far; `Some` while skipping to its end.
  skipping: Option<usize>,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
  pub fn new(inner: R) -> Self {
    Self::with_max_line(inner, DEFAULT_MAX_LINE_BYTES)
  }

  pub fn with_max_line(inner: R, max_line: usize) -> Self {
    Self { inner, line: Vec::new(), max_line, skipping: None }
  }

  /// Reads the next non-blank line.
  pub async fn next_line(&mut self) -> std::io::Result<ReadLine> {
    loop {
      let available = self.inner.fill_buf().await?;
      if available.is_empty() {
        if let Some(len) = self.skipping.take() {
          return Ok(self.too_long(len));
        }
        if self.line.is_empty() {
          return Ok(ReadLine::Eof);
        }
        if let Some(line) = self.take_line() {
          return Ok(ReadLine::Line(line));
        }
        return Ok(ReadLine::Eof);
      }
      let (chunk_len, complete) = match memchr::memchr(b'\n', available) {
        Some(i) => (i, true),
        None => (available.len(), false),
      };
      if let Some(seen) = self.skipping.as_mut() {
        *seen += chunk_len;
      } else if self.line.len() + chunk_len > self.max_line {
        // Keep a prefix for the report, drop the rest as it streams by.
        let keep = 200usize.saturating_sub(self.line.len()).min(chunk_len);
        self.line.extend_from_slice(&available[..keep]);
        self.skipping = Some(self.line.len() - keep + chunk_len);
        self.line.truncate(200);
        self.line.shrink_to_fit();
      } else {
        self.line.extend_from_slice(&available[..chunk_len]);
      }
      self.inner.consume(chunk_len + usize::from(complete));
      if !complete {
        continue;
      }
      if let Some(len) = self.skipping.take() {
        return Ok(self.too_long(len));
      }
      if let Some(line) = self.take_line() {
        return Ok(ReadLine::Line(line));
      }
    }
  }

  fn too_long(&mut self, len: usize) -> ReadLine {
    let prefix = String::from_utf8_lossy(&self.line[..self.line.len().min(200)]).into_owned();
    self.line.clear();
    ReadLine::TooLong { len, prefix }
  }

  /// Takes the buffered line, or `None` when it is blank (blank lines carry nothing).
  fn take_line(&mut self) -> Option<String> {
    let bytes = std::mem::take(&mut self.line);
    if bytes.iter().all(u8::is_ascii_whitespace) {
      return None;
    }
    Some(match String::from_utf8(bytes) {
      Ok(s) => s,
      Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
  }
}

#[cfg(test)]
mod tests {
  use super::*;
  use std::pin::Pin;
  use std::task::{Context, Poll};
  use tokio::io::{AsyncRead, BufReader, ReadBuf};

  /// Yields the given chunks one read at a time, as a pipe would.
  struct Chunked(Vec<Vec<u8>>);
  impl AsyncRead for Chunked {
    fn poll_read(mut self: Pin<&mut Self>, _: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
      if self.0.is_empty() {
        return Poll::Ready(Ok(()));
      }
      let mut chunk = self.0.remove(0);
      let n = chunk.len().min(buf.remaining());
      buf.put_slice(&chunk[..n]);
      if n < chunk.len() {
        let rest = chunk.split_off(n);
        self.0.insert(0, rest);
      }
      Poll::Ready(Ok(()))
    }
  }

  async fn lines_of(chunks: Vec<Vec<u8>>, max: usize) -> Vec<ReadLine> {
    let mut r = LineReader::with_max_line(BufReader::with_capacity(7, Chunked(chunks)), max);
    let mut out = vec![];
    loop {
      let l = r.next_line().await.unwrap();
      if l == ReadLine::Eof {
        return out;
      }
      out.push(l);
    }
  }

  fn line(s: &str) -> ReadLine {
    ReadLine::Line(s.to_string())
  }

  #[tokio::test]
  async fn splits_lines_across_reads() {
    let got = lines_of(vec![b"{\"a\":".to_vec(), b"1}\n{\"b\"".to_vec(), b":2}\n\n".to_vec()], 1000).await;
    assert_eq!(got, vec![line("{\"a\":1}"), line("{\"b\":2}")]);
  }

  #[tokio::test]
  async fn reassembles_utf8_split_inside_a_character() {
    let text = "{\"t\":\"héllo 🌍\"}\n".as_bytes().to_vec();
    // Cut inside 'é' (2 bytes) and inside the emoji (4 bytes), one byte per read.
    let chunks = text.iter().map(|b| vec![*b]).collect();
    assert_eq!(lines_of(chunks, 1000).await, vec![line("{\"t\":\"héllo 🌍\"}")]);
  }

  #[tokio::test]
  async fn invalid_utf8_is_replaced_not_fatal() {
    let got = lines_of(vec![b"{\"t\":\"a\xffb\"}\n{}\n".to_vec()], 1000).await;
    assert_eq!(got, vec![line("{\"t\":\"a\u{fffd}b\"}"), line("{}")]);
  }

  #[tokio::test]
  async fn final_line_without_newline_is_returned() {
    assert_eq!(lines_of(vec![b"{}\n{\"x\":1}".to_vec()], 100).await, vec![line("{}"), line("{\"x\":1}")]);
  }

  #[tokio::test]
  async fn crlf_and_blank_lines() {
    let got = lines_of(vec![b"\r\n  \n{}\r\n".to_vec()], 100).await;
    assert_eq!(got, vec![line("{}\r")]);
  }

  #[tokio::test]
  async fn long_lines_within_limit_are_whole() {
    let big = format!("{{\"s\":\"{}\"}}", "x".repeat(5 * 1024 * 1024));
    let mut bytes = big.clone().into_bytes();
    bytes.push(b'\n');
    let chunks = bytes.chunks(65536).map(|c| c.to_vec()).collect();
    assert_eq!(lines_of(chunks, DEFAULT_MAX_LINE_BYTES).await, vec![ReadLine::Line(big)]);
  }

  #[tokio::test]
  async fn over_long_line_is_skipped_and_reported_then_reading_goes_on() {
    let mut bytes = vec![b'y'; 1000];
    bytes.extend_from_slice(b"\n{\"after\":true}\n");
    let chunks = bytes.chunks(33).map(|c| c.to_vec()).collect();
    let got = lines_of(chunks, 100).await;
    assert_eq!(got.len(), 2);
    match &got[0] {
      ReadLine::TooLong { len, prefix } => {
        assert_eq!(*len, 1000);
        assert!(!prefix.is_empty() && prefix.len() <= 200 && prefix.bytes().all(|b| b == b'y'));
      }
      other => panic!("{other:?}"),
    }
    assert_eq!(got[1], line("{\"after\":true}"));
  }
}
