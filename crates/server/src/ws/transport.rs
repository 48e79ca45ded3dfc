//! The socket's transport: the upgrade's frame limits, close codes, the shared [`Socket`] that
//! senders write to directly when nothing is queued, the writer task that drains a connection's
//! [`Outbox`](crate::outbox::Outbox) and finishes the writes that could not leave at once, and the
//! closing handshake.
//!
//! A client that stops reading fills its queue; its writer then drops the backlog and closes the
//! socket with [`CLOSE_SLOW_CONSUMER`], while the tables and everyone else carry on.

use crate::lobby::registry::Kick;
use crate::outbox::{Direct, Frame, OutboxReader};
use crate::table::ConnId;
use axum::extract::ws::{CloseFrame, Message};
use futures_util::task::AtomicWaker;
use futures_util::{SinkExt, StreamExt};
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, Waker};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::frames::{ReadError, WriteError, WsConn};

/// Messages above this are refused by the WebSocket layer itself ([`super::frames`]: the socket is
/// closed with 1009);
/// frames above [`crate::protocol::MAX_MESSAGE_BYTES`] but below this get a `proto/too_large` error.
pub(super) const HARD_FRAME_LIMIT: usize = 1024 * 1024;

/// Close code sent when the token is refused or revoked (4000 + 401).
pub const CLOSE_UNAUTHORIZED: u16 = 4401;

/// Close code sent to a client that fell behind: its queue overflowed (4000 + 408, it did not
/// take its messages in time). The reason is `proto/slow_consumer`.
pub const CLOSE_SLOW_CONSUMER: u16 = 4408;

/// How long a closing socket may take to write what it still owes, its close frame included.
const CLOSE_GRACE: Duration = Duration::from_secs(10);

/// How long to wait for the client's answer to our close frame.
const CLOSE_REPLY: Duration = Duration::from_secs(2);

/// One connection's WebSocket ([`WsConn`]), shared by its reader, its writer task and the senders that write
/// to it themselves ([`Direct`]). Each holds it for one step that does not wait (a read, or a
/// write into its buffer and an attempt to send that), never across an `await`.
pub(super) struct Socket {
    ws: Mutex<Option<WsConn>>,
    /// A sender's write did not leave at once (the client is not reading fast enough): the
    /// writer task sends it, and until then every message is queued.
    busy: AtomicBool,
    /// The writer task, woken when a sender's write can go on.
    writer: Arc<WriterWake>,
    /// `writer` as a waker.
    waker: Waker,
}

/// Wakes the writer task registered last.
#[derive(Default)]
struct WriterWake(AtomicWaker);

impl std::task::Wake for WriterWake {
    fn wake(self: Arc<Self>) {
        self.0.wake();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.wake();
    }
}

impl Socket {
    pub(super) fn new(ws: WsConn) -> Arc<Socket> {
        let writer = Arc::new(WriterWake::default());
        let waker = Waker::from(Arc::clone(&writer));
        Arc::new(Socket { ws: Mutex::new(Some(ws)), busy: AtomicBool::new(false), writer, waker })
    }

    fn lock(&self) -> MutexGuard<'_, Option<WsConn>> {
        self.ws.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `f` on the connection, or `gone` once it has been dropped.
    fn with<T>(&self, gone: impl FnOnce() -> T, f: impl FnOnce(&mut WsConn) -> T) -> T {
        match self.lock().as_mut() {
            Some(ws) => f(ws),
            None => gone(),
        }
    }

    /// Drops the connection (once its reader and writer are done with it).
    pub(super) fn drop_connection(&self) {
        drop(self.lock().take());
    }

    /// Resolves when a sender's write waits for the writer task to finish it.
    async fn wants_flush(&self) {
        std::future::poll_fn(|cx| {
            self.writer.0.register(cx.waker());
            if self.busy.load(Ordering::Acquire) {
                Poll::Ready(())
            } else {
                Poll::Pending
            }
        })
        .await;
    }
}

impl Direct for Socket {
    fn try_write(&self, frames: &[&Frame]) -> bool {
        // Looked at again under the lock; this first look spares the lock when it is set.
        if self.busy.load(Ordering::Acquire) {
            return false;
        }
        // Taken by the reader or the writer this moment: queue instead of waiting.
        let Ok(mut guard) = self.ws.try_lock() else { return false };
        let Some(ws) = guard.as_mut() else { return false };
        if self.busy.load(Ordering::Acquire) {
            return false;
        }
        // A step that cannot finish now wakes the writer task when it can.
        let mut cx = Context::from_waker(&self.waker);
        if !matches!(ws.poll_ready(&mut cx), Poll::Ready(Ok(()))) {
            return false;
        }
        for (i, text) in frames.iter().enumerate() {
            if ws.start_send_text(text).is_err() {
                // The connection is closing: its reader and writer end it.
                return i > 0;
            }
        }
        if ws.poll_flush(&mut cx).is_pending() {
            self.busy.store(true, Ordering::Release);
        }
        true
    }
}

/// The writing side of a [`Socket`].
pub(super) struct Sink(Arc<Socket>);

/// The reading side of a [`Socket`].
pub(super) struct Stream(Arc<Socket>);

impl Sink {
    pub(super) fn new(socket: &Arc<Socket>) -> Sink {
        Sink(Arc::clone(socket))
    }

    /// One step on the socket, by the task that a sender's write wakes from now on. A flush
    /// that is done (`flushes`) leaves the socket free for senders again: whatever waited in
    /// its buffer, a sender's write too, has left (or never will).
    fn step<T>(
        &self,
        cx: &mut Context<'_>,
        flushes: bool,
        f: impl FnOnce(&mut WsConn, &mut Context<'_>) -> Poll<Result<T, WriteError>>,
    ) -> Poll<Result<T, WriteError>> {
        self.0.writer.0.register(cx.waker());
        self.0.with(
            || Poll::Ready(Err(not_connected())),
            |ws| {
                let done = f(ws, cx);
                if flushes && done.is_ready() {
                    self.0.busy.store(false, Ordering::Release);
                }
                done
            },
        )
    }
}

fn not_connected() -> WriteError {
    WriteError::Io(std::io::ErrorKind::NotConnected.into())
}

impl futures_util::Sink<Message> for Sink {
    type Error = WriteError;

    fn poll_ready(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.step(cx, false, |ws, cx| ws.poll_ready(cx))
    }

    fn start_send(self: Pin<&mut Self>, item: Message) -> Result<(), Self::Error> {
        self.0.with(|| Err(not_connected()), |ws| ws.start_send(item))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.step(cx, true, |ws, cx| ws.poll_flush(cx))
    }

    fn poll_close(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.step(cx, true, |ws, cx| ws.poll_close(cx))
    }
}

impl Stream {
    pub(super) fn new(socket: &Arc<Socket>) -> Stream {
        Stream(Arc::clone(socket))
    }
}

impl futures_util::Stream for Stream {
    type Item = Result<Message, ReadError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let socket = &self.0;
        socket.with(
            || Poll::Ready(None),
            |ws| {
                let next = ws.poll_next(cx);
                // A pong or a close reading answered: sent now if the socket takes it, else by
                // the writer task (as a sender's write that did not leave at once).
                if ws.has_unsent() && !socket.busy.load(Ordering::Acquire) {
                    let mut writer = Context::from_waker(&socket.waker);
                    if ws.poll_flush(&mut writer).is_pending() {
                        socket.busy.store(true, Ordering::Release);
                    }
                }
                next
            },
        )
    }
}

/// Why a connection ends.
pub(super) enum End {
    /// The client closed it or went away.
    ClientGone,
    /// The server closes it with this frame, after the messages already queued.
    Close(CloseFrame),
    /// Its queue overflowed: the writer dropped the backlog and closes it.
    FellBehind,
    /// The client sent a frame the WebSocket layer cannot read (too large, not UTF-8): closed
    /// with this frame, though nothing more can be read from it.
    Refused(CloseFrame),
}

/// What, besides the client's frames, makes a connection's reader act.
pub(super) enum Notice {
    /// The socket's token was revoked.
    Revoked,
    /// Its queue overflowed.
    FellBehind,
    /// The server is shutting down.
    Closing,
    /// Someone was removed from a lobby (boxed: the queue's slots, allocated when a socket
    /// opens, are the size of the largest notice).
    Kick(Box<Kick>),
}

/// What a connection's watcher waits for (see [`watch`]).
pub(super) struct Watched {
    pub(super) conn: ConnId,
    /// The token's revocation (none for an anonymous socket).
    pub(super) revoked: Option<CancellationToken>,
    pub(super) fell_behind: CancellationToken,
    pub(super) closing: CancellationToken,
    pub(super) kicks: broadcast::Receiver<Kick>,
}

/// Starts a task that waits for what may interrupt a connection's reading and passes each on
/// as a [`Notice`]: the reader then waits on this one queue beside its socket, instead of
/// setting up a wait on every signal for every frame it reads. The task ends after an ending
/// notice, or once the reader is gone.
pub(super) fn watch(watched: Watched) -> mpsc::UnboundedReceiver<Notice> {
    let (tx, rx) = mpsc::unbounded_channel();
    let Watched { conn, revoked, fell_behind, closing, mut kicks } = watched;
    tokio::spawn(async move {
        let mut kicks_open = true;
        loop {
            let notice = tokio::select! {
                biased;
                () = tx.closed() => return,
                () = async { match &revoked { Some(token) => token.cancelled().await, None => std::future::pending().await } } => Notice::Revoked,
                () = fell_behind.cancelled() => Notice::FellBehind,
                kick = kicks.recv(), if kicks_open => match kick {
                    Ok(kick) => Notice::Kick(Box::new(kick)),
                    Err(broadcast::error::RecvError::Lagged(missed)) => {
                        tracing::warn!(conn, missed, "kick notices lagged");
                        continue;
                    }
                    Err(broadcast::error::RecvError::Closed) => {
                        kicks_open = false;
                        continue;
                    }
                },
                () = closing.cancelled() => Notice::Closing,
            };
            let ends = !matches!(notice, Notice::Kick(_));
            if tx.send(notice).is_err() || ends {
                return;
            }
        }
    });
    rx
}

/// Writes the connection's queue to the client until told to close (then what is queued goes out
/// first), or until the queue overflows: then the backlog is dropped and the socket is closed
/// with [`CLOSE_SLOW_CONSUMER`].
///
/// The overflow is looked for when a message is taken and watched only while a write waits on
/// the client: a queue can only fill while its writer is not taking from it.
pub(super) async fn write(socket: Arc<Socket>, mut queue: OutboxReader, mut close: oneshot::Receiver<CloseFrame>) {
    let mut sink = Sink::new(&socket);
    let fell_behind = queue.overflow_signal();
    loop {
        // A busy socket finds its next message already queued: take it without setting up the
        // wait below (the close is still looked at first).
        let ready = match close.try_recv() {
            Err(oneshot::error::TryRecvError::Empty) => queue.try_recv(),
            closing => return close_after_queue(sink, queue, closing.ok()).await,
        };
        // A message to send, or none: a sender's write is to be finished.
        let text = match ready {
            Some(text) => Some(text),
            None => tokio::select! {
                biased;
                frame = &mut close => return close_after_queue(sink, queue, frame.ok()).await,
                text = queue.recv() => match text {
                    Some(text) => Some(text),
                    None => return,
                },
                () = socket.wants_flush() => None,
            },
        };
        if queue.fell_behind() {
            return close_slow_consumer(sink, queue).await;
        }
        // What is queued together (a patch and the ack behind it) goes out in one write.
        let send_queued = async {
            if let Some(text) = text {
                sink.feed(Message::Text(text)).await?;
                queue.settle();
                while let Some(more) = queue.try_recv() {
                    sink.feed(Message::Text(more)).await?;
                    queue.settle();
                }
            }
            sink.flush().await
        };
        let mut send_queued = std::pin::pin!(send_queued);
        // Nearly always the socket takes it at once; only a write that waits on the client also
        // watches for the overflow.
        let first = std::future::poll_fn(|cx| Poll::Ready(send_queued.as_mut().poll(cx))).await;
        if let Poll::Ready(sent) = first {
            if sent.is_err() {
                return;
            }
            continue;
        }
        tokio::select! {
            biased;
            sent = send_queued => if sent.is_err() { return },
            // A client that stopped reading: stop waiting on it (the frame stays buffered whole,
            // ahead of the close frame), so that the overflow is handled above.
            _ = fell_behind.cancelled() => {}
        }
    }
}

/// Ends the writer when its close is asked for (`frame`; none when the connection dropped the
/// request): a socket that fell behind drops its backlog and closes as a slow consumer; else
/// what is queued goes out, then the close frame.
async fn close_after_queue(mut sink: Sink, mut queue: OutboxReader, frame: Option<CloseFrame>) {
    if queue.fell_behind() {
        return close_slow_consumer(sink, queue).await;
    }
    if let Some(frame) = frame {
        let _ = tokio::time::timeout(CLOSE_GRACE, async {
            while let Some(text) = queue.try_recv() {
                sink.send(Message::Text(text)).await?;
            }
            sink.send(Message::Close(Some(frame))).await
        })
        .await;
    }
}

/// Drops the backlog of a socket that fell behind and closes it with [`CLOSE_SLOW_CONSUMER`].
async fn close_slow_consumer(mut sink: Sink, mut queue: OutboxReader) {
    queue.discard();
    let frame = CloseFrame { code: CLOSE_SLOW_CONSUMER, reason: "proto/slow_consumer".into() };
    let _ = tokio::time::timeout(CLOSE_GRACE, sink.send(Message::Close(Some(frame)))).await;
}

/// Waits until the writer has sent its close frame (or given up), discarding what the client still
/// sends meanwhile (closing with unread data would reset the connection and lose the close frame),
/// then briefly for the client's answer.
pub(super) async fn finish(stream: &mut Stream, mut writer: JoinHandle<()>) {
    let written = tokio::select! {
        _ = &mut writer => true,
        _ = until_closed(stream) => false,
        _ = tokio::time::sleep(CLOSE_GRACE + CLOSE_REPLY) => false,
    };
    if written {
        let _ = tokio::time::timeout(CLOSE_REPLY, until_closed(stream)).await;
    } else {
        let _ = tokio::time::timeout(CLOSE_REPLY, &mut writer).await;
        writer.abort();
    }
}

/// Closes a connection that can no longer be read (see [`End::Refused`]): once the close frame
/// is written, the connection is held a moment before it is dropped. Dropping it at once, with
/// the rest of the refused frame unread, would make the kernel reset it, and a reset can discard
/// the close frame before the client reads it.
pub(super) async fn linger(mut writer: JoinHandle<()>) {
    if tokio::time::timeout(CLOSE_GRACE, &mut writer).await.is_err() {
        writer.abort();
        return;
    }
    tokio::time::sleep(CLOSE_REPLY).await;
}

/// Reads until the client's close frame or the end of the stream.
async fn until_closed(stream: &mut Stream) {
    while let Some(Ok(frame)) = stream.next().await {
        if matches!(frame, Message::Close(_)) {
            return;
        }
    }
}
