//! A socket's outgoing queue. It is bounded, so a client that does not read cannot make the
//! server buffer without limit, and its senders (tables, lobby forwarders, action answers) never
//! wait on it: when it is full the socket is marked as fallen behind, and the socket drops its
//! backlog and closes (see [`crate::ws`]). Every message carries a version, so such a client
//! reconnects and resubscribes with `last_version`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tokio::sync::mpsc;
use tokio::sync::mpsc::error::TrySendError;
use tokio_util::sync::CancellationToken;

/// One message to a socket: a text frame whose bytes are shared (a table's patch goes to every
/// subscriber of a viewer, and into its history) and handed to the WebSocket layer as they are.
pub type Frame = axum::extract::ws::Utf8Bytes;

/// How many messages may wait for one socket by default.
pub const DEFAULT_CAPACITY: usize = 1024;

/// One entry of the queue: a message, or two that must reach the socket's writer together (a
/// patch and the ack behind it, so that they go out in one write).
#[derive(Debug)]
enum Item {
    One(Frame),
    Two(Frame, Frame),
}

/// The sending side of a socket's queue (cheap to clone).
#[derive(Clone, Debug)]
pub struct Outbox {
    tx: mpsc::Sender<Item>,
    overflow: CancellationToken,
    /// Set (before `overflow` is cancelled) when the queue overflows: read on every message
    /// without the token's lock.
    fell_behind: Arc<AtomicBool>,
}

/// The socket's side of its queue.
#[derive(Debug)]
pub struct OutboxReader {
    rx: mpsc::Receiver<Item>,
    /// The second message of a pair, not yet handed out.
    second: Option<Frame>,
    overflow: CancellationToken,
    fell_behind: Arc<AtomicBool>,
}

/// A queue of at most `capacity` messages (at least 1).
pub fn outbox(capacity: usize) -> (Outbox, OutboxReader) {
    let (tx, rx) = mpsc::channel(capacity.max(1));
    let (overflow, fell_behind) = (CancellationToken::new(), Arc::new(AtomicBool::new(false)));
    let out = Outbox { tx, overflow: overflow.clone(), fell_behind: Arc::clone(&fell_behind) };
    (out, OutboxReader { rx, second: None, overflow, fell_behind })
}

impl Outbox {
    /// Queues a message without waiting. False when the socket is gone or has fallen behind; a
    /// full queue marks it as fallen behind, and nothing more is queued for it.
    pub fn send(&self, text: Frame) -> bool {
        self.queue(Item::One(text))
    }

    /// Queues two messages as one entry: the socket's writer takes both at once, so they go out in
    /// one write (no wake-up of the writer can fall between them). Otherwise as [`Outbox::send`].
    pub fn send_two(&self, first: Frame, second: Frame) -> bool {
        self.queue(Item::Two(first, second))
    }

    /// Whether the queue has overflowed (nothing more is queued).
    pub fn fell_behind(&self) -> bool {
        self.fell_behind.load(Ordering::Acquire)
    }

    /// Whether `other` queues to the same socket.
    pub fn same_socket(&self, other: &Outbox) -> bool {
        self.tx.same_channel(&other.tx)
    }

    fn queue(&self, item: Item) -> bool {
        if self.fell_behind.load(Ordering::Acquire) {
            return false;
        }
        match self.tx.try_send(item) {
            Ok(()) => true,
            Err(TrySendError::Full(_)) => {
                self.fell_behind.store(true, Ordering::Release);
                self.overflow.cancel();
                false
            }
            Err(TrySendError::Closed(_)) => false,
        }
    }
}

impl OutboxReader {
    /// The next message; `None` once every sender is gone.
    pub async fn recv(&mut self) -> Option<Frame> {
        if let Some(second) = self.second.take() {
            return Some(second);
        }
        let item = self.rx.recv().await?;
        Some(self.unpack(item))
    }

    /// A message already queued, if any.
    pub fn try_recv(&mut self) -> Option<Frame> {
        if let Some(second) = self.second.take() {
            return Some(second);
        }
        let item = self.rx.try_recv().ok()?;
        Some(self.unpack(item))
    }

    fn unpack(&mut self, item: Item) -> Frame {
        match item {
            Item::One(text) => text,
            Item::Two(first, second) => {
                self.second = Some(second);
                first
            }
        }
    }

    /// Whether the queue has overflowed.
    pub fn fell_behind(&self) -> bool {
        self.fell_behind.load(Ordering::Acquire)
    }

    /// Resolves once the queue has overflowed.
    pub async fn overflowed(&self) {
        self.overflow.cancelled().await;
    }

    /// A token cancelled when the queue overflows.
    pub fn overflow_signal(&self) -> CancellationToken {
        self.overflow.clone()
    }

    /// Drops every queued message and refuses new ones.
    pub fn discard(&mut self) {
        self.rx.close();
        self.second = None;
        while self.rx.try_recv().is_ok() {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_full_queue_marks_the_socket_as_fallen_behind_and_refuses_more() {
        let (out, mut reader) = outbox(2);
        assert!(out.send("a".into()));
        assert!(out.send("b".into()));
        assert!(!out.overflow.is_cancelled());
        assert!(!out.send("c".into()), "the third message does not fit");
        assert!(reader.overflow_signal().is_cancelled() && reader.fell_behind());
        assert_eq!(reader.try_recv().as_deref(), Some("a"));
        assert!(!out.send("d".into()), "a socket that fell behind takes nothing more, even with room");
        reader.discard();
        assert_eq!(reader.try_recv(), None, "the backlog is dropped");
        reader.overflowed().await;
    }

    #[tokio::test]
    async fn a_pair_is_one_entry_and_comes_out_in_order() {
        let (out, mut reader) = outbox(2);
        assert!(out.send_two("patch".into(), "ack".into()));
        assert!(out.send("next".into()));
        assert!(!out.send("more".into()), "the pair took one entry, and the queue holds two");
        assert_eq!(reader.recv().await.as_deref(), Some("patch"));
        assert_eq!(reader.try_recv().as_deref(), Some("ack"));
        assert_eq!(reader.try_recv().as_deref(), Some("next"));
        assert_eq!(reader.try_recv(), None);
        let (a, b) = (outbox(1).0, outbox(1).0);
        assert!(a.same_socket(&a.clone()) && !a.same_socket(&b));
    }
}
