//! The socket's transport: the upgrade's frame limits, close codes, the writer task that drains a
//! connection's [`Outbox`](crate::outbox::Outbox), and the closing handshake.
//!
//! A client that stops reading fills its queue; its writer then drops the backlog and closes the
//! socket with [`CLOSE_SLOW_CONSUMER`], while the tables and everyone else carry on.

use crate::lobby::registry::Kick;
use crate::outbox::OutboxReader;
use crate::table::ConnId;
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use std::future::Future;
use std::task::Poll;
use std::time::Duration;
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

/// Frames above this are refused by the WebSocket layer itself (the socket is closed with 1009);
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

pub(super) type Sink = SplitSink<WebSocket, Message>;
pub(super) type Stream = SplitStream<WebSocket>;

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
    /// Someone was removed from a lobby.
    Kick(Kick),
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
                    Ok(kick) => Notice::Kick(kick),
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
pub(super) async fn write(mut sink: Sink, mut queue: OutboxReader, mut close: oneshot::Receiver<CloseFrame>) {
    let fell_behind = queue.overflow_signal();
    loop {
        // A busy socket finds its next message already queued: take it without setting up the
        // wait below (the close is still looked at first).
        let ready = match close.try_recv() {
            Err(oneshot::error::TryRecvError::Empty) => queue.try_recv(),
            closing => return close_after_queue(sink, queue, closing.ok()).await,
        };
        let text = match ready {
            Some(text) => Some(text),
            None => tokio::select! {
                biased;
                frame = &mut close => return close_after_queue(sink, queue, frame.ok()).await,
                text = queue.recv() => text,
            },
        };
        if queue.fell_behind() {
            return close_slow_consumer(sink, queue).await;
        }
        let Some(text) = text else { return };
        // What is queued together (a patch and the ack behind it) goes out in one write.
        let send_queued = async {
            sink.feed(Message::Text(text)).await?;
            while let Some(more) = queue.try_recv() {
                sink.feed(Message::Text(more)).await?;
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
