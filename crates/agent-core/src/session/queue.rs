//! The consumer's message queue, bounded in bytes. When the consumer falls behind, the session
//! stops reading the CLI's stdout once this many bytes wait, so the CLI blocks on its own writes
//! (back-pressure) instead of the host buffering without limit. Control requests keep flowing
//! up to the point where the CLI itself blocks.

use std::sync::Arc;

use tokio::sync::{mpsc, OwnedSemaphorePermit, Semaphore, TryAcquireError};

use crate::codec::latin1_json;
use crate::error::Error;

/// 4 MiB of messages may wait for the consumer. A single larger message still passes (it takes
/// the whole budget), so the bound is max(4 MiB, largest message). Enough slack for the reader
/// to stay ahead of a consumer that keeps up: `stream_1m` (1 MB messages) runs as fast with it as
/// with 16 MiB, with 13 MB less peak RSS.
pub const DEFAULT_QUEUE_BYTES: usize = 4 * 1024 * 1024;

/// How each message's JSON text reaches the consumer. Encoding happens as the session reads the
/// line (on its own thread), not when the consumer takes it, so a consumer whose thread is the
/// bottleneck (a JS event loop) only joins ready bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum MessageText {
  /// As the CLI wrote it: UTF-8.
  #[default]
  Utf8,
  /// Latin-1 JSON (see [`crate::codec::push_latin1_json`]), for a JavaScript engine's one-byte
  /// strings.
  Latin1Json,
}

enum Item {
  Line(Vec<u8>, #[allow(dead_code)] OwnedSemaphorePermit),
  End(Result<(), Error>),
}

/// The session loop's side.
#[derive(Clone)]
pub struct QueueSender {
  tx: mpsc::UnboundedSender<Item>,
  budget: Arc<Semaphore>,
  limit: usize,
  text: MessageText,
}

/// The consumer's side.
pub struct Messages {
  rx: mpsc::UnboundedReceiver<Item>,
  end: Option<Result<(), Error>>,
  done: bool,
}

pub fn queue(limit: usize, text: MessageText) -> (QueueSender, Messages) {
  let (tx, rx) = mpsc::unbounded_channel();
  let limit = limit.clamp(1, u32::MAX as usize);
  (
    QueueSender { tx, budget: Arc::new(Semaphore::new(limit)), limit, text },
    Messages { rx, end: None, done: false },
  )
}

impl QueueSender {
  /// A message line in the consumer's encoding.
  pub fn encode(&self, line: String) -> Vec<u8> {
    match self.text {
      MessageText::Latin1Json if !line.is_ascii() => latin1_json(&line),
      _ => line.into_bytes(),
    }
  }

  /// The budget a line needs.
  pub fn cost(&self, line: &[u8]) -> u32 {
    line.len().clamp(1, self.limit) as u32
  }

  /// Enqueues an encoded line if the budget allows, otherwise hands it back.
  pub fn try_push(&self, line: Vec<u8>) -> Result<(), Vec<u8>> {
    match self.budget.clone().try_acquire_many_owned(self.cost(&line)) {
      Ok(permit) => {
        let _ = self.tx.send(Item::Line(line, permit));
        Ok(())
      }
      Err(TryAcquireError::NoPermits) => Err(line),
      Err(TryAcquireError::Closed) => Ok(()),
    }
  }

  /// Waits for budget (cancel-safe: dropping the future gives nothing up).
  pub async fn reserve(&self, cost: u32) -> Option<OwnedSemaphorePermit> {
    self.budget.clone().acquire_many_owned(cost).await.ok()
  }

  pub fn push_reserved(&self, line: Vec<u8>, permit: OwnedSemaphorePermit) {
    let _ = self.tx.send(Item::Line(line, permit));
  }

  /// The last item: the stream ends, cleanly or with the session's error.
  pub fn end(&self, result: Result<(), Error>) {
    let _ = self.tx.send(Item::End(result));
  }
}

impl Messages {
  /// Waits for at least one message, then takes more that are already queued — up to `max`
  /// messages and `max_bytes` bytes — so a consumer that is behind catches up in one crossing
  /// without the batch itself becoming a large unbounded buffer. `None` at the clean end of the
  /// stream; the session's error after the messages that preceded it.
  pub async fn next_batch(&mut self, max: usize, max_bytes: usize) -> Option<Result<Vec<Vec<u8>>, Error>> {
    if self.done {
      return None;
    }
    if let Some(end) = self.end.take() {
      self.done = true;
      return end.err().map(Err);
    }
    match self.rx.recv().await {
      Some(first) => self.collect(first, max, max_bytes),
      None => {
        self.done = true;
        None
      }
    }
  }

  /// The messages already queued, without waiting (same bounds as [`Self::next_batch`]); `None`
  /// when none is queued yet or the stream is at its end, which only `next_batch` reports. A
  /// consumer that is behind takes its batches this way, with no wake-up in between.
  pub fn try_batch(&mut self, max: usize, max_bytes: usize) -> Option<Vec<Vec<u8>>> {
    if self.done || self.end.is_some() {
      return None;
    }
    match self.rx.try_recv() {
      Ok(Item::Line(line, permit)) => match self.collect(Item::Line(line, permit), max, max_bytes) {
        Some(Ok(batch)) => Some(batch),
        _ => unreachable!("a batch that starts with a line holds messages"),
      },
      Ok(Item::End(result)) => {
        // Kept for next_batch, which ends the stream.
        self.end = Some(result);
        None
      }
      Err(_) => None,
    }
  }

  fn collect(&mut self, first: Item, max: usize, max_bytes: usize) -> Option<Result<Vec<Vec<u8>>, Error>> {
    let mut batch = Vec::new();
    let mut item = Some(first);
    let mut bytes = 0;
    while let Some(it) = item.take() {
      match it {
        Item::Line(line, _permit) => {
          bytes += line.len();
          batch.push(line);
        }
        Item::End(result) => {
          if batch.is_empty() {
            self.done = true;
            return result.err().map(Err);
          }
          self.end = Some(result);
          break;
        }
      }
      if batch.len() >= max || bytes >= max_bytes {
        break;
      }
      item = self.rx.try_recv().ok();
    }
    Some(Ok(batch))
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  fn text(batch: Vec<Vec<u8>>) -> Vec<String> {
    batch.into_iter().map(|b| String::from_utf8(b).unwrap()).collect()
  }

  fn push(tx: &QueueSender, line: &str) -> Result<(), Vec<u8>> {
    tx.try_push(tx.encode(line.to_string()))
  }

  #[tokio::test]
  async fn batches_what_is_queued_then_ends_with_the_error() {
    let (tx, mut rx) = queue(1024, MessageText::Utf8);
    for i in 0..5 {
      push(&tx, &format!("m{i}")).unwrap();
    }
    tx.end(Err(Error::Aborted));
    assert_eq!(text(rx.next_batch(3, 100).await.unwrap().unwrap()), ["m0", "m1", "m2"]);
    assert_eq!(text(rx.next_batch(3, 2).await.unwrap().unwrap()), ["m3"], "the byte bound stops the batch");
    assert_eq!(text(rx.next_batch(3, 100).await.unwrap().unwrap()), ["m4"]);
    assert_eq!(rx.next_batch(3, 100).await.unwrap().unwrap_err(), Error::Aborted);
    assert!(rx.next_batch(3, 100).await.is_none());
  }

  #[tokio::test]
  async fn budget_bounds_bytes_and_is_returned_when_consumed() {
    let (tx, mut rx) = queue(10, MessageText::Utf8);
    push(&tx, "12345678").unwrap();
    let back = push(&tx, "abc").unwrap_err();
    assert_eq!(back, b"abc");
    // A line bigger than the whole budget still passes once the queue is empty.
    assert_eq!(tx.cost("x".repeat(100).as_bytes()), 10);
    assert_eq!(text(rx.next_batch(10, 100).await.unwrap().unwrap()), ["12345678"]);
    push(&tx, "abc").unwrap();
    tx.end(Ok(()));
    assert_eq!(text(rx.next_batch(10, 100).await.unwrap().unwrap()), ["abc"]);
    assert!(rx.next_batch(10, 100).await.is_none());
  }

  #[tokio::test]
  async fn try_batch_takes_what_is_queued_and_leaves_the_end_to_next_batch() {
    let (tx, mut rx) = queue(1024, MessageText::Utf8);
    assert!(rx.try_batch(10, 100).is_none(), "nothing queued yet");
    push(&tx, "a").unwrap();
    push(&tx, "b").unwrap();
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
    assert_eq!(tx.encode(r#"{"a":"é—"}"#.into()), b"{\"a\":\"\xe9\\u2014\"}".to_vec());
    assert_eq!(tx.encode(r#"{"a":1}"#.into()), br#"{"a":1}"#.to_vec());
  }
}
