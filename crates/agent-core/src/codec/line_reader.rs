use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead};

use super::line_framer::{LineFramer, ReadLine, DEFAULT_MAX_LINE_BYTES};
use super::read_buffer::ReadBuffer;

/// Splits a byte stream into lines, reading it with `fill_buf` (see [`LineFramer`]).
pub struct LineReader<R> {
    inner: R,
    framer: LineFramer,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    pub fn new(inner: R) -> Self {
        Self::with_max_line(inner, DEFAULT_MAX_LINE_BYTES)
    }

    pub fn with_max_line(inner: R, max_line: usize) -> Self {
        Self {
            inner,
            framer: LineFramer::with_max_line(max_line),
        }
    }

    /// Reads the next non-blank line.
    pub async fn next_line(&mut self) -> std::io::Result<ReadLine> {
        loop {
            let available = self.inner.fill_buf().await?;
            if available.is_empty() {
                return Ok(self.framer.finish().unwrap_or(ReadLine::Eof));
            }
            let (consumed, line) = self.framer.feed(available);
            self.inner.consume(consumed);
            if let Some(line) = line {
                return Ok(line);
            }
        }
    }
}

impl<R: AsyncRead + Unpin> LineReader<ReadBuffer<R>> {
    /// The next line if it is already buffered, without reading: `None` means the next line needs
    /// a read. Lets a reader act once on everything one read brought (a burst of requests).
    pub(crate) fn buffered_line(&mut self) -> Option<ReadLine> {
        loop {
            let available = self.inner.buffer();
            if available.is_empty() {
                return None;
            }
            let (consumed, line) = self.framer.feed(available);
            self.inner.consume(consumed);
            if line.is_some() {
                return line;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::pin::Pin;
    use std::task::{Context, Poll};
    use tokio::io::{AsyncRead, ReadBuf};

    /// Yields the given chunks one read at a time, as a pipe would.
    struct Chunked(Vec<Vec<u8>>);
    impl AsyncRead for Chunked {
        fn poll_read(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<std::io::Result<()>> {
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
        let mut r = LineReader::with_max_line(ReadBuffer::with_bounds(Chunked(chunks), 7, 7), max);
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
    async fn buffered_lines_come_without_a_read() {
        let chunks = vec![b"{\"a\":1}\n{\"b\":2}\n{\"c\"".to_vec(), b":3}\n".to_vec()];
        let mut r = LineReader::new(ReadBuffer::new(Chunked(chunks)));
        assert_eq!(r.buffered_line(), None, "nothing read yet");
        assert_eq!(r.next_line().await.unwrap(), line("{\"a\":1}"));
        assert_eq!(r.buffered_line(), Some(line("{\"b\":2}")));
        assert_eq!(r.buffered_line(), None, "the rest of the buffer is a partial line");
        assert_eq!(r.next_line().await.unwrap(), line("{\"c\":3}"));
        assert_eq!(r.next_line().await.unwrap(), ReadLine::Eof);
    }

    #[tokio::test]
    async fn splits_lines_across_reads() {
        let got = lines_of(
            vec![b"{\"a\":".to_vec(), b"1}\n{\"b\"".to_vec(), b":2}\n\n".to_vec()],
            1000,
        )
        .await;
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
        assert_eq!(
            lines_of(vec![b"{}\n{\"x\":1}".to_vec()], 100).await,
            vec![line("{}"), line("{\"x\":1}")]
        );
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
        assert_eq!(
            lines_of(chunks, DEFAULT_MAX_LINE_BYTES).await,
            vec![ReadLine::Line(big)]
        );
    }

    /// Through a pipe-like channel with the engine's default buffer: thousands of small lines,
    /// then lines of several MB (one of two-byte characters), then small ones again, all whole
    /// and in order, and the buffer never past its bound.
    #[tokio::test]
    async fn big_and_small_lines_through_the_growing_buffer() {
        use tokio::io::AsyncWriteExt;
        let big = |n: usize, c: &str| format!("{{\"s\":\"{}\"}}", c.repeat(n));
        let mut expected: Vec<String> = (0..2000).map(|i| format!("{{\"i\":{i}}}")).collect();
        expected.push(big(6 * 1024 * 1024, "x"));
        expected.extend((0..100).map(|i| format!("{{\"j\":{i}}}")));
        expected.push(big(1_500_000 + 17, "é"));
        expected.extend((0..2000).map(|i| format!("{{\"k\":{i}}}")));
        let (mut w, r) = tokio::io::duplex(64 * 1024);
        let lines = expected.clone();
        let writer = tokio::spawn(async move {
            for l in lines {
                w.write_all(l.as_bytes()).await.unwrap();
                w.write_all(b"\n").await.unwrap();
            }
        });
        let mut reader = LineReader::new(ReadBuffer::new(r));
        let mut got = vec![];
        loop {
            // Every other line taken from what is buffered when it can be, as the session does.
            let buffered = (got.len() % 2 == 0).then(|| reader.buffered_line()).flatten();
            let line = match buffered {
                Some(line) => line,
                None => reader.next_line().await.unwrap(),
            };
            match line {
                ReadLine::Line(l) => got.push(l),
                ReadLine::Eof => break,
                other => panic!("{other:?}"),
            }
            assert!(reader.inner.capacity() <= crate::codec::read_buffer::MAX);
        }
        writer.await.unwrap();
        assert_eq!(got.len(), expected.len());
        assert!(got == expected, "a line differs");
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
