//! Line framing on bytes as they come, with no I/O of its own: the engine's async reader and a
//! reader driven by the host's event loop (see `session::driven`) both cut lines with it.

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

/// Cuts a byte stream into lines. Splitting happens on bytes, before decoding, so a UTF-8
/// sequence cut by a read boundary is reassembled intact.
pub struct LineFramer {
    line: Vec<u8>,
    max_line: usize,
    /// Bytes of the current over-long line seen so far; `Some` while skipping to its end.
    skipping: Option<usize>,
}

impl Default for LineFramer {
    fn default() -> Self {
        Self::with_max_line(DEFAULT_MAX_LINE_BYTES)
    }
}

impl LineFramer {
    pub(crate) fn with_max_line(max_line: usize) -> Self {
        Self {
            line: Vec::new(),
            max_line,
            skipping: None,
        }
    }

    /// Takes the bytes of `chunk` up to and including its first newline. Returns how many it
    /// took and the line they completed, if any (a blank line completes nothing).
    pub fn feed(&mut self, chunk: &[u8]) -> (usize, Option<ReadLine>) {
        let (chunk_len, complete) = match memchr::memchr(b'\n', chunk) {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        if let Some(seen) = self.skipping.as_mut() {
            *seen += chunk_len;
        } else if self.line.len() + chunk_len > self.max_line {
            // Keep a prefix for the report, drop the rest as it streams by.
            let keep = 200usize.saturating_sub(self.line.len()).min(chunk_len);
            self.line.extend_from_slice(&chunk[..keep]);
            self.skipping = Some(self.line.len() - keep + chunk_len);
            self.line.truncate(200);
            self.line.shrink_to_fit();
        } else {
            self.line.extend_from_slice(&chunk[..chunk_len]);
        }
        let consumed = chunk_len + usize::from(complete);
        if !complete {
            return (consumed, None);
        }
        if let Some(len) = self.skipping.take() {
            return (consumed, Some(self.too_long(len)));
        }
        (consumed, self.take_line().map(ReadLine::Line))
    }

    /// The stream ended: the last line if it had no terminator.
    pub fn finish(&mut self) -> Option<ReadLine> {
        if let Some(len) = self.skipping.take() {
            return Some(self.too_long(len));
        }
        self.take_line().map(ReadLine::Line)
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
