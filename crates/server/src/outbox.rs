//! A socket's outgoing queue. It is bounded, so a client that does not read cannot make the
//! server buffer without limit, and its senders (tables, lobby forwarders, action answers) never
//! wait on it: when it is full the socket is marked as fallen behind, and the socket drops its
//! backlog and closes (see [`crate::ws`]). Every message carries a version, so such a client
//! reconnects and resubscribes with `last_version`.
//!
//! A socket may also be written to at once ([`Direct`]): a sender whose message has nothing
//! queued ahead of it writes it to the socket itself, when the socket takes it without waiting,
//! instead of handing it to the socket's writer task. Order is kept: a message goes this way only
//! while every message queued before it is already in the socket's buffer.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
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
/// patch and the ack behind it, so that they go out in one write). The pair is boxed: a queue's
/// first block of slots is allocated when its socket opens, each slot the size of an entry.
#[derive(Debug)]
enum Item {
    One(Frame),
    Two(Box<(Frame, Frame)>),
}

/// A socket that a sender may write to itself (see the module's documentation).
pub trait Direct: Send + Sync {
    /// Writes `frames`, in this order, if the socket takes them now: true once they are in its
    /// buffer. False, with nothing written, when it cannot (the socket is busy, waiting on the
    /// client, or gone): then they are queued for the writer.
    fn try_write(&self, frames: &[&Frame]) -> bool;
}

/// The sending side of a socket's queue (cheap to clone: one reference count, as a table takes
/// one with every action a socket sends it).
#[derive(Clone)]
pub struct Outbox {
    inner: Arc<Senders>,
}

/// What every clone of an [`Outbox`] shares.
struct Senders {
    tx: mpsc::Sender<Item>,
    overflow: CancellationToken,
    /// Set (before `overflow` is cancelled) when the queue overflows: read on every message
    /// without the token's lock.
    fell_behind: Arc<AtomicBool>,
    /// Entries queued and not yet in the socket's buffer: while any is, nothing is written
    /// directly (it would overtake them).
    pending: Arc<AtomicUsize>,
    direct: Option<Arc<dyn Direct>>,
}

impl std::fmt::Debug for Outbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Outbox")
            .field("pending", &self.inner.pending.load(Ordering::Relaxed))
            .field("fell_behind", &self.fell_behind())
            .field("direct", &self.inner.direct.is_some())
            .finish_non_exhaustive()
    }
}

/// The socket's side of its queue.
#[derive(Debug)]
pub struct OutboxReader {
    rx: mpsc::Receiver<Item>,
    /// The second message of a pair, not yet handed out.
    second: Option<Frame>,
    overflow: CancellationToken,
    fell_behind: Arc<AtomicBool>,
    pending: Arc<AtomicUsize>,
    /// Entries handed out whole since the last [`OutboxReader::settle`].
    handed: usize,
}

/// A queue of at most `capacity` messages (at least 1).
pub fn outbox(capacity: usize) -> (Outbox, OutboxReader) {
    outbox_to(capacity, None)
}

/// A queue of at most `capacity` messages (at least 1) to a socket that senders may write to
/// themselves when nothing is queued (`direct`; none: every message is queued).
pub fn outbox_to(capacity: usize, direct: Option<Arc<dyn Direct>>) -> (Outbox, OutboxReader) {
    let (tx, rx) = mpsc::channel(capacity.max(1));
    let (overflow, fell_behind) = (CancellationToken::new(), Arc::new(AtomicBool::new(false)));
    let pending = Arc::new(AtomicUsize::new(0));
    let out = Outbox {
        inner: Arc::new(Senders {
            tx,
            overflow: overflow.clone(),
            fell_behind: Arc::clone(&fell_behind),
            pending: Arc::clone(&pending),
            direct,
        }),
    };
    (out, OutboxReader { rx, second: None, overflow, fell_behind, pending, handed: 0 })
}

impl Outbox {
    /// Queues a message without waiting. False when the socket is gone or has fallen behind; a
    /// full queue marks it as fallen behind, and nothing more is queued for it.
    pub fn send(&self, text: Frame) -> bool {
        self.write_now(&[&text]).unwrap_or_else(|| self.queue(Item::One(text)))
    }

    /// Queues two messages as one entry: the socket's writer takes both at once, so they go out in
    /// one write (no wake-up of the writer can fall between them). Otherwise as [`Outbox::send`].
    pub fn send_two(&self, first: Frame, second: Frame) -> bool {
        // Boxed only to wait in the queue: most pairs are written at once.
        self.write_now(&[&first, &second]).unwrap_or_else(|| self.queue(Item::Two(Box::new((first, second)))))
    }

    /// Whether the queue has overflowed (nothing more is queued).
    pub fn fell_behind(&self) -> bool {
        self.inner.fell_behind.load(Ordering::Acquire)
    }

    /// Whether `other` queues to the same socket.
    pub fn same_socket(&self, other: &Outbox) -> bool {
        self.inner.tx.same_channel(&other.inner.tx)
    }

    /// `frames` written to the socket now, if nothing waits in the queue before them: `Some(true)`
    /// when written, `Some(false)` when the socket is gone or has fallen behind, `None` when they
    /// have to be queued ([`Outbox::queue`]).
    fn write_now(&self, frames: &[&Frame]) -> Option<bool> {
        let this = &*self.inner;
        if this.fell_behind.load(Ordering::Acquire) || this.tx.is_closed() {
            return Some(false);
        }
        let direct = this.direct.as_ref()?;
        (this.pending.load(Ordering::Acquire) == 0 && direct.try_write(frames)).then_some(true)
    }

    /// Puts `item` in the queue, for the socket's writer task.
    fn queue(&self, item: Item) -> bool {
        let this = &*self.inner;
        this.pending.fetch_add(1, Ordering::AcqRel);
        match this.tx.try_send(item) {
            Ok(()) => true,
            Err(TrySendError::Full(_)) => {
                this.pending.fetch_sub(1, Ordering::AcqRel);
                this.fell_behind.store(true, Ordering::Release);
                this.overflow.cancel();
                false
            }
            Err(TrySendError::Closed(_)) => {
                this.pending.fetch_sub(1, Ordering::AcqRel);
                false
            }
        }
    }
}

impl OutboxReader {
    /// The next message; `None` once every sender is gone.
    pub async fn recv(&mut self) -> Option<Frame> {
        if let Some(second) = self.second.take() {
            self.handed += 1;
            return Some(second);
        }
        let item = self.rx.recv().await?;
        Some(self.unpack(item))
    }

    /// A message already queued, if any.
    pub fn try_recv(&mut self) -> Option<Frame> {
        if let Some(second) = self.second.take() {
            self.handed += 1;
            return Some(second);
        }
        let item = self.rx.try_recv().ok()?;
        Some(self.unpack(item))
    }

    /// Tells that every message handed out so far is in the socket's buffer: once nothing
    /// queued is left behind, senders may write to the socket themselves again.
    pub fn settle(&mut self) {
        if self.second.is_none() && self.handed > 0 {
            self.pending.fetch_sub(self.handed, Ordering::AcqRel);
            self.handed = 0;
        }
    }

    fn unpack(&mut self, item: Item) -> Frame {
        match item {
            Item::One(text) => {
                self.handed += 1;
                text
            }
            Item::Two(pair) => {
                let (first, second) = *pair;
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
        assert!(!out.inner.overflow.is_cancelled());
        assert!(!out.send("c".into()), "the third message does not fit");
        assert!(reader.overflow_signal().is_cancelled() && reader.fell_behind());
        assert_eq!(reader.try_recv().as_deref(), Some("a"));
        assert!(!out.send("d".into()), "a socket that fell behind takes nothing more, even with room");
        reader.discard();
        assert_eq!(reader.try_recv(), None, "the backlog is dropped");
        reader.overflowed().await;
    }

    /// A socket that takes writes while it is open, and the writer task's writes: all in the
    /// order they reach it.
    #[derive(Default)]
    struct Fake {
        open: AtomicBool,
        written: std::sync::Mutex<Vec<String>>,
    }

    impl Fake {
        fn put(&self, text: &Frame) {
            self.written.lock().unwrap().push(text.to_string());
        }
    }

    impl Direct for Fake {
        fn try_write(&self, frames: &[&Frame]) -> bool {
            if !self.open.load(Ordering::SeqCst) {
                return false;
            }
            frames.iter().for_each(|f| self.put(f));
            true
        }
    }

    #[test]
    fn a_message_is_written_at_once_only_when_nothing_queued_is_left_behind() {
        let socket = Arc::new(Fake::default());
        let (out, mut reader) = outbox_to(8, Some(Arc::clone(&socket) as Arc<dyn Direct>));
        // The writer task's part: what it takes goes into the socket's buffer.
        let take = |reader: &mut OutboxReader| {
            let text = reader.try_recv().expect("queued");
            socket.put(&text);
            reader.settle();
        };
        assert!(out.send("a".into()), "the socket is busy: queued");
        socket.open.store(true, Ordering::SeqCst);
        assert!(out.send_two("b".into(), "b-ack".into()), "queued behind a");
        take(&mut reader);
        assert!(out.send("c".into()), "queued behind b");
        take(&mut reader);
        assert!(out.send("d".into()), "queued: b's ack is not in the buffer yet");
        for _ in 0..3 {
            take(&mut reader);
        }
        assert!(out.send("e".into()), "nothing left behind: written at once");
        assert_eq!(reader.try_recv(), None);
        assert_eq!(*socket.written.lock().unwrap(), ["a", "b", "b-ack", "c", "d", "e"]);
        drop(reader);
        assert!(!out.send("f".into()), "a socket whose writer is gone takes nothing, even at once");
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
