//! The consumer's message queue. The session reads the CLI's stdout whatever the consumer does:
//! a control request (a tool call, a permission prompt) may sit behind any amount of messages,
//! and an app may wait for that call before it consumes a single message. So reading never
//! pauses for the consumer; what it has not taken yet is held in two tiers:
//!
//! - the channel to the consumer, bounded by a byte budget ([`DEFAULT_QUEUE_BYTES`]); a single
//!   larger message still passes when the channel is empty;
//! - behind it, the backlog, which the session moves into the channel as budget comes back.
//!   It is bounded too ([`BACKLOG_FACTOR`] × the budget, 1 GiB by default, plus one message):
//!   past that the session ends with [`Error::Backlog`] after the messages already queued, and
//!   the CLI is stopped — a clear error rather than a stall or unbounded growth.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tokio::sync::{mpsc, OwnedSemaphorePermit, Semaphore, TryAcquireError};

use crate::codec::{latin1_json, latin1_json_len};
use crate::error::Error;

/// 4 MiB of messages may wait in the channel to the consumer. A single larger message still
/// passes (it takes the whole budget). Enough slack for the reader to stay ahead of a consumer
/// that keeps up: `stream_1m` (1 MB messages) runs as fast with it as with 16 MiB, with 13 MB
/// less peak RSS.
pub const DEFAULT_QUEUE_BYTES: usize = 4 * 1024 * 1024;

/// The backlog behind the channel may hold this many times the channel's budget (1 GiB with
/// the default budget) before the session gives up on the consumer.
pub const BACKLOG_FACTOR: usize = 256;

/// A Latin-1 line longer than this would not fit a V8 string (its limit is 2^29 − 24
/// characters; a batch adds at most ~96 KiB of smaller messages): such a line crosses as UTF-8.
pub const MAX_LATIN1_LINE: usize = (1 << 29) - (1 << 20);

/// How each message's JSON text reaches the consumer. Encoding happens as the session reads the
/// line (on its own thread), not when the consumer takes it, so a consumer whose thread is the
/// bottleneck (a JS event loop) only joins ready bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum MessageText {
    /// As the CLI wrote it: UTF-8.
    #[default]
    Utf8,
    /// Latin-1 JSON (see [`crate::codec::push_latin1_json`]), for a JavaScript engine's one-byte
    /// strings. A line whose Latin-1 text would exceed [`MAX_LATIN1_LINE`] stays UTF-8 and is
    /// handed over alone ([`Chunk::Utf8`]).
    Latin1Json,
}

/// What the consumer takes at once ([`Messages::next_chunk`]).
#[derive(Debug, PartialEq, Eq)]
pub enum Chunk {
    /// Messages in the queue's encoding.
    Lines(Vec<Vec<u8>>),
    /// One message as UTF-8 JSON text, in [`MessageText::Latin1Json`] mode: its Latin-1 text would
    /// be too long for a JavaScript string.
    Utf8(Vec<u8>),
}

struct Line {
    bytes: Vec<u8>,
    /// UTF-8 where the queue's encoding is Latin-1 (see [`MAX_LATIN1_LINE`]).
    utf8: bool,
}

/// Every session's channel allocates its first block of 32 items up front: the end's error is
/// boxed, so an item is no larger than a line.
enum Item {
    Line(Line, #[allow(dead_code)] OwnedSemaphorePermit),
    End(Result<(), Box<Error>>),
}

/// The session loop's side.
pub(crate) struct QueueSender {
    tx: mpsc::UnboundedSender<Item>,
    budget: Arc<Semaphore>,
    limit: usize,
    text: MessageText,
    latin1_max: usize,
    backlog: VecDeque<Line>,
    backlog_bytes: usize,
    backlog_limit: usize,
}

/// The consumer's side.
pub struct Messages {
    rx: mpsc::UnboundedReceiver<Item>,
    /// A line taken from the channel that must start the next chunk (it is UTF-8 and crosses alone).
    held: Option<Line>,
    end: Option<Result<(), Error>>,
    done: bool,
    /// Set by an abort (see [`Messages::abort_mark`]).
    aborted: Arc<AtomicBool>,
}

#[cfg(test)]
pub fn queue(limit: usize, text: MessageText) -> (QueueSender, Messages) {
    queue_with(limit, text, MAX_LATIN1_LINE)
}

pub(crate) fn queue_with(limit: usize, text: MessageText, latin1_max: usize) -> (QueueSender, Messages) {
    let (tx, rx) = mpsc::unbounded_channel();
    let limit = limit.clamp(1, u32::MAX as usize);
    (
        QueueSender {
            tx,
            budget: Arc::new(Semaphore::new(limit)),
            limit,
            text,
            latin1_max,
            backlog: VecDeque::new(),
            backlog_bytes: 0,
            backlog_limit: limit.saturating_mul(BACKLOG_FACTOR),
        },
        Messages {
            rx,
            held: None,
            end: None,
            done: false,
            aborted: Arc::new(AtomicBool::new(false)),
        },
    )
}

impl QueueSender {
    /// A message line in the consumer's encoding.
    fn encode(&self, line: String) -> Line {
        match self.text {
            MessageText::Latin1Json if !line.is_ascii() => {
                // Latin-1 text is at most 3 bytes per UTF-8 byte (a 2-byte character becomes 6 bytes,
                // a 4-byte one 12): only a line that could exceed the bound is measured first.
                if line.len().saturating_mul(3) > self.latin1_max && latin1_json_len(&line) > self.latin1_max {
                    tracing::debug!(
                        bytes = line.len(),
                        "a message too long for a one-byte JavaScript string crosses as UTF-8"
                    );
                    Line {
                        bytes: line.into_bytes(),
                        utf8: true,
                    }
                } else {
                    Line {
                        bytes: latin1_json(&line),
                        utf8: false,
                    }
                }
            }
            _ => Line {
                bytes: line.into_bytes(),
                utf8: false,
            },
        }
    }

    /// The budget a line needs.
    fn cost(&self, line: &[u8]) -> u32 {
        line.len().clamp(1, self.limit) as u32
    }

    /// Queues a message for the consumer: into the channel if the budget allows and nothing waits
    /// before it, otherwise into the backlog. Fails when the backlog is past its bound (the line
    /// is dropped; the session must end).
    pub fn push(&mut self, line: String) -> Result<(), Error> {
        let line = self.encode(line);
        if self.backlog.is_empty() {
            match self.budget.clone().try_acquire_many_owned(self.cost(&line.bytes)) {
                Ok(permit) => {
                    let _ = self.tx.send(Item::Line(line, permit));
                    return Ok(());
                }
                Err(TryAcquireError::Closed) => return Ok(()),
                Err(TryAcquireError::NoPermits) => {}
            }
        }
        if !self.backlog.is_empty() && self.backlog_bytes + line.bytes.len() > self.backlog_limit {
            return Err(Error::Backlog {
                held: self.backlog_bytes + self.limit,
                line: line.bytes.len(),
            });
        }
        self.backlog_bytes += line.bytes.len();
        self.backlog.push_back(line);
        Ok(())
    }

    /// The budget the oldest backlog line needs; `None` when the backlog is empty.
    pub(crate) fn backlog_cost(&self) -> Option<u32> {
        self.backlog.front().map(|l| self.cost(&l.bytes))
    }

    /// Waits for budget (cancel-safe: dropping the future gives nothing up).
    pub async fn reserve(&self, cost: u32) -> Option<OwnedSemaphorePermit> {
        self.budget.clone().acquire_many_owned(cost).await.ok()
    }

    /// Moves the oldest backlog line into the channel with `permit` (reserved for its cost), then
    /// as many more as the budget allows.
    pub(crate) fn refill(&mut self, permit: OwnedSemaphorePermit) {
        let Some(line) = self.backlog.pop_front() else { return };
        self.backlog_bytes -= line.bytes.len();
        let _ = self.tx.send(Item::Line(line, permit));
        while let Some(cost) = self.backlog_cost() {
            let Ok(permit) = self.budget.clone().try_acquire_many_owned(cost) else {
                break;
            };
            let line = self.backlog.pop_front().expect("a front line");
            self.backlog_bytes -= line.bytes.len();
            let _ = self.tx.send(Item::Line(line, permit));
        }
    }

    /// Drops the backlog (the session ends without delivering it).
    pub(crate) fn drop_backlog(&mut self) {
        self.backlog.clear();
        self.backlog_bytes = 0;
    }

    /// The last item: the stream ends, cleanly or with the session's error.
    pub fn end(&self, result: Result<(), Error>) {
        let _ = self.tx.send(Item::End(result.map_err(Box::new)));
    }
}

impl QueueSender {
    /// Hands every backlog line to the consumer regardless of the budget (the session is ending
    /// and the bytes are held already; moving them costs nothing).
    pub(crate) fn flush_backlog(&mut self) {
        while let Some(line) = self.backlog.pop_front() {
            self.backlog_bytes -= line.bytes.len();
            match self.budget.clone().try_acquire_many_owned(0) {
                Ok(permit) => {
                    let _ = self.tx.send(Item::Line(line, permit));
                }
                Err(_) => break,
            }
        }
    }
}

impl Messages {
    /// Waits for at least one message, then takes more that are already queued — up to `max`
    /// messages and `max_bytes` bytes — so a consumer that is behind catches up in one crossing
    /// without the chunk itself becoming a large unbounded buffer. `None` at the clean end of the
    /// stream; the session's error after the messages that preceded it.
    pub async fn next_chunk(&mut self, max: usize, max_bytes: usize) -> Option<Result<Chunk, Error>> {
        if self.done {
            return None;
        }
        if let Some(line) = self.held.take() {
            return Some(Ok(self.collect(line, max, max_bytes)));
        }
        if let Some(end) = self.end.take() {
            return self.finish(end);
        }
        match self.rx.recv().await {
            Some(Item::Line(line, _permit)) => Some(Ok(self.collect(line, max, max_bytes))),
            Some(Item::End(result)) => self.finish(result.map_err(|e| *e)),
            None => self.finish(Ok(())),
        }
    }

    /// The flag an abort sets: once it is set, the stream ends with [`Error::Aborted`] however the
    /// session ended, unless the consumer had already taken the end. (The messages before the end
    /// are still delivered: what the CLI wrote before the abort took effect.) An abort may come
    /// after the session has ended on its own — the CLI exited as its input closed, say — while the
    /// consumer has not reached the end yet; the abort wins, as the official SDK's does.
    pub(crate) fn abort_mark(&self) -> Arc<AtomicBool> {
        self.aborted.clone()
    }

    fn finish(&mut self, result: Result<(), Error>) -> Option<Result<Chunk, Error>> {
        self.done = true;
        if self.aborted.load(Ordering::Acquire) {
            return Some(Err(Error::Aborted));
        }
        result.err().map(Err)
    }

    /// The messages already queued, without waiting (same bounds as [`Self::next_chunk`]); `None`
    /// when none is queued yet or the stream is at its end, which only `next_chunk` reports. A
    /// consumer that is behind takes its chunks this way, with no wake-up in between.
    pub fn try_chunk(&mut self, max: usize, max_bytes: usize) -> Option<Chunk> {
        if self.done {
            return None;
        }
        if let Some(line) = self.held.take() {
            return Some(self.collect(line, max, max_bytes));
        }
        if self.end.is_some() {
            return None;
        }
        match self.rx.try_recv() {
            Ok(Item::Line(line, _permit)) => Some(self.collect(line, max, max_bytes)),
            Ok(Item::End(result)) => {
                // Kept for next_chunk, which ends the stream.
                self.end = Some(result.map_err(|e| *e));
                None
            }
            Err(_) => None,
        }
    }

    /// [`Self::next_chunk`] as lines (a [`Chunk::Utf8`] is a batch of its one line).
    pub async fn next_batch(&mut self, max: usize, max_bytes: usize) -> Option<Result<Vec<Vec<u8>>, Error>> {
        self.next_chunk(max, max_bytes).await.map(|r| r.map(Chunk::into_lines))
    }

    /// [`Self::try_chunk`] as lines.
    pub fn try_batch(&mut self, max: usize, max_bytes: usize) -> Option<Vec<Vec<u8>>> {
        self.try_chunk(max, max_bytes).map(Chunk::into_lines)
    }

    fn collect(&mut self, first: Line, max: usize, max_bytes: usize) -> Chunk {
        if first.utf8 {
            return Chunk::Utf8(first.bytes);
        }
        let mut bytes = first.bytes.len();
        let mut batch = vec![first.bytes];
        while batch.len() < max && bytes < max_bytes {
            match self.rx.try_recv() {
                Ok(Item::Line(line, _permit)) if line.utf8 => {
                    self.held = Some(line);
                    break;
                }
                Ok(Item::Line(line, _permit)) => {
                    bytes += line.bytes.len();
                    batch.push(line.bytes);
                }
                Ok(Item::End(result)) => {
                    self.end = Some(result.map_err(|e| *e));
                    break;
                }
                Err(_) => break,
            }
        }
        Chunk::Lines(batch)
    }
}

impl Chunk {
    pub(crate) fn into_lines(self) -> Vec<Vec<u8>> {
        match self {
            Chunk::Lines(lines) => lines,
            Chunk::Utf8(line) => vec![line],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(batch: Vec<Vec<u8>>) -> Vec<String> {
        batch.into_iter().map(|b| String::from_utf8(b).unwrap()).collect()
    }

    fn push(tx: &mut QueueSender, line: &str) {
        tx.push(line.to_string()).unwrap()
    }

    #[tokio::test]
    async fn an_abort_before_the_consumer_takes_the_end_wins_over_it_after_the_messages() {
        for end in [
            Ok(()),
            Err(Error::Exited {
                code: 0,
                stderr_tail: String::new(),
            }),
        ] {
            let (mut tx, mut rx) = queue(1024, MessageText::Utf8);
            push(&mut tx, "m0");
            tx.end(end.clone());
            rx.abort_mark().store(true, Ordering::Release);
            assert_eq!(
                text(rx.next_batch(8, 100).await.unwrap().unwrap()),
                ["m0"],
                "the message is still delivered"
            );
            assert!(
                matches!(rx.next_batch(8, 100).await, Some(Err(Error::Aborted))),
                "{end:?}"
            );
            assert!(rx.next_batch(8, 100).await.is_none());
        }
        // Taken before the abort: the end stays what it was.
        let (tx, mut rx) = queue(1024, MessageText::Utf8);
        tx.end(Ok(()));
        assert!(rx.next_batch(8, 100).await.is_none());
        rx.abort_mark().store(true, Ordering::Release);
        assert!(rx.next_batch(8, 100).await.is_none());
    }

    #[tokio::test]
    async fn batches_what_is_queued_then_ends_with_the_error() {
        let (mut tx, mut rx) = queue(1024, MessageText::Utf8);
        for i in 0..5 {
            push(&mut tx, &format!("m{i}"));
        }
        tx.end(Err(Error::Aborted));
        assert_eq!(text(rx.next_batch(3, 100).await.unwrap().unwrap()), ["m0", "m1", "m2"]);
        assert_eq!(
            text(rx.next_batch(3, 2).await.unwrap().unwrap()),
            ["m3"],
            "the byte bound stops the batch"
        );
        assert_eq!(text(rx.next_batch(3, 100).await.unwrap().unwrap()), ["m4"]);
        assert_eq!(rx.next_batch(3, 100).await.unwrap().unwrap_err(), Error::Aborted);
        assert!(rx.next_batch(3, 100).await.is_none());
    }

    /// Past the channel's budget lines wait in the backlog (never refused), and move into the
    /// channel as the consumer takes messages.
    #[tokio::test]
    async fn the_backlog_holds_what_the_budget_does_not_and_refills_the_channel() {
        let (mut tx, mut rx) = queue(10, MessageText::Utf8);
        push(&mut tx, "12345678");
        push(&mut tx, "abc");
        push(&mut tx, "de");
        assert_eq!(tx.backlog_cost(), Some(3), "abc waits behind the full budget");
        assert_eq!(
            tx.cost("x".repeat(100).as_bytes()),
            10,
            "a line bigger than the budget takes all of it"
        );
        assert_eq!(text(rx.next_batch(10, 100).await.unwrap().unwrap()), ["12345678"]);
        let permit = tx.reserve(3).await.unwrap();
        tx.refill(permit);
        assert_eq!(tx.backlog_cost(), None, "de followed abc into the channel");
        tx.end(Ok(()));
        assert_eq!(text(rx.next_batch(10, 100).await.unwrap().unwrap()), ["abc", "de"]);
        assert!(rx.next_batch(10, 100).await.is_none());
    }

    /// The backlog's bound: BACKLOG_FACTOR × the budget, plus one line; past it, a typed error.
    #[tokio::test]
    async fn past_the_backlog_bound_the_push_fails_with_a_typed_error_and_the_end_flushes() {
        let (mut tx, mut rx) = queue(4, MessageText::Utf8);
        push(&mut tx, "aaaa");
        let line = "b".repeat(4 * BACKLOG_FACTOR);
        push(&mut tx, &line); // alone in the backlog: always held
        let err = tx.push("c".into()).unwrap_err();
        assert!(matches!(err, Error::Backlog { line: 1, .. }), "{err:?}");
        assert_eq!(err.code(), "MESSAGE_BACKLOG");
        tx.flush_backlog();
        tx.end(Err(err.clone()));
        assert_eq!(
            text(rx.next_batch(10, 1 << 20).await.unwrap().unwrap()),
            ["aaaa".to_string(), line]
        );
        assert_eq!(rx.next_batch(10, 100).await.unwrap().unwrap_err(), err);
    }

    #[tokio::test]
    async fn try_batch_takes_what_is_queued_and_leaves_the_end_to_next_batch() {
        let (mut tx, mut rx) = queue(1024, MessageText::Utf8);
        assert!(rx.try_batch(10, 100).is_none(), "nothing queued yet");
        push(&mut tx, "a");
        push(&mut tx, "b");
        tx.end(Err(Error::Aborted));
        assert_eq!(text(rx.try_batch(10, 100).unwrap()), ["a", "b"]);
        assert!(rx.try_batch(10, 100).is_none(), "the end is not a batch");
        assert_eq!(rx.next_batch(10, 100).await.unwrap().unwrap_err(), Error::Aborted);
        assert!(rx.try_batch(10, 100).is_none());
        assert!(rx.next_batch(10, 100).await.is_none());
    }

    #[tokio::test]
    async fn try_batch_sees_an_end_that_is_alone_in_the_queue() {
        let (tx, mut rx) = queue(1024, MessageText::Utf8);
        tx.end(Ok(()));
        assert!(rx.try_batch(10, 100).is_none());
        assert!(rx.next_batch(10, 100).await.is_none());
    }

    #[test]
    fn latin1_text_is_encoded_as_it_is_queued() {
        let (tx, _rx) = queue(1024, MessageText::Latin1Json);
        assert_eq!(
            tx.encode(r#"{"a":"é—"}"#.into()).bytes,
            b"{\"a\":\"\xe9\\u2014\"}".to_vec()
        );
        assert_eq!(tx.encode(r#"{"a":1}"#.into()).bytes, br#"{"a":1}"#.to_vec());
    }

    /// A line whose Latin-1 text would be too long for a JavaScript string stays UTF-8 and crosses
    /// alone, between the batches before and after it.
    #[tokio::test]
    async fn a_line_too_long_for_latin1_crosses_alone_as_utf8() {
        let (mut tx, mut rx) = queue_with(1 << 20, MessageText::Latin1Json, 40);
        let big = format!(r#"{{"e":"{}"}}"#, "🌍".repeat(4)); // 16 UTF-8 bytes, 48 as Latin-1 escapes
        push(&mut tx, r#"{"a":"é"}"#);
        push(&mut tx, &big);
        push(&mut tx, r#"{"b":1}"#);
        tx.end(Ok(()));
        assert_eq!(
            rx.next_chunk(10, 1000).await.unwrap().unwrap(),
            Chunk::Lines(vec![b"{\"a\":\"\xe9\"}".to_vec()])
        );
        assert_eq!(
            rx.next_chunk(10, 1000).await.unwrap().unwrap(),
            Chunk::Utf8(big.into_bytes())
        );
        assert_eq!(
            rx.try_chunk(10, 1000).unwrap(),
            Chunk::Lines(vec![br#"{"b":1}"#.to_vec()])
        );
        assert!(rx.next_chunk(10, 1000).await.is_none());
    }
}
