//! The WebSocket protocol itself (RFC 6455), written for this server: the handshake's answer, the
//! client's frames read from the upgraded connection, and the server's frames written to it.
//!
//! A general WebSocket library did this before, through a compatibility layer between its
//! blocking-style I/O and tokio, a message type per frame and a copy of every frame into its own
//! buffer; on the action path that was about a tenth of the server's CPU. What the server needs is
//! small: it only ever reads masked frames from a client and writes unmasked text and close frames,
//! with no extensions. So:
//!
//! - reading: the client's bytes land in one buffer; a frame is unmasked in place and handed out as
//!   a [`Message`]; a ping is answered with a pong, a close with a close; a message is limited to
//!   [`HARD_FRAME_LIMIT`](super::transport::HARD_FRAME_LIMIT) bytes, whole or in fragments;
//! - writing: a message's header and bytes are appended to one buffer, which goes out in one write
//!   when flushed (a patch and the ack behind it leave together).
//!
//! Every way a client can break the protocol ends in a [`ReadError`], which the connection answers
//! with the matching close code (1002, 1007, 1009).

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use hyper::upgrade::{OnUpgrade, Upgraded};
use hyper_util::rt::TokioIo;
use sha1::{Digest as _, Sha1};
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The connection under the protocol.
pub(super) type Io = TokioIo<Upgraded>;

/// The key RFC 6455 appends to the client's before hashing it into `Sec-WebSocket-Accept`.
const ACCEPT_GUID: &str = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

/// A request to upgrade to a WebSocket, checked (RFC 6455 §4.2.1): what answering it needs.
pub(crate) struct Upgrade {
    accept: HeaderValue,
    protocol: Option<HeaderValue>,
    on_upgrade: OnUpgrade,
}

/// Why a request is not a WebSocket upgrade this server takes.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum NotAnUpgrade {
    /// Not a GET with `Connection: upgrade`, `Upgrade: websocket` and a key.
    NotWebSocket,
    /// A WebSocket version other than 13.
    Version,
    /// The connection cannot be upgraded (HTTP/2, or a request without its connection).
    NoConnection,
}

/// Whether a comma-separated header holds `token` (case-insensitive).
fn has_token(headers: &HeaderMap, name: header::HeaderName, token: &str) -> bool {
    headers
        .get_all(name)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim().eq_ignore_ascii_case(token))
}

impl Upgrade {
    /// Checks an upgrade request; `offered` is the one subprotocol the server selects when the
    /// client offers it.
    pub(crate) fn check(
        method: &Method,
        headers: &HeaderMap,
        on_upgrade: Option<OnUpgrade>,
        offered: &str,
    ) -> Result<Upgrade, NotAnUpgrade> {
        let upgrade =
            has_token(headers, header::CONNECTION, "upgrade") && has_token(headers, header::UPGRADE, "websocket");
        let key = headers.get(header::SEC_WEBSOCKET_KEY);
        let (true, true, Some(key)) = (method == Method::GET, upgrade, key) else {
            return Err(NotAnUpgrade::NotWebSocket);
        };
        if headers.get(header::SEC_WEBSOCKET_VERSION).is_none_or(|v| v.as_bytes() != b"13") {
            return Err(NotAnUpgrade::Version);
        }
        let on_upgrade = on_upgrade.ok_or(NotAnUpgrade::NoConnection)?;
        let protocol = has_token(headers, header::SEC_WEBSOCKET_PROTOCOL, offered)
            .then(|| HeaderValue::from_str(offered).ok())
            .flatten();
        Ok(Upgrade { accept: accept_key(key.as_bytes()), protocol, on_upgrade })
    }

    /// The `101 Switching Protocols` answer, and the connection it leads to (once sent).
    pub(crate) fn answer(self) -> (Response, OnUpgrade) {
        let mut response = StatusCode::SWITCHING_PROTOCOLS.into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
        headers.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
        headers.insert(header::SEC_WEBSOCKET_ACCEPT, self.accept);
        if let Some(protocol) = self.protocol {
            headers.insert(header::SEC_WEBSOCKET_PROTOCOL, protocol);
        }
        (response, self.on_upgrade)
    }
}

/// `Sec-WebSocket-Accept` for the client's `Sec-WebSocket-Key`.
fn accept_key(key: &[u8]) -> HeaderValue {
    let mut sha1 = Sha1::new();
    sha1.update(key);
    sha1.update(ACCEPT_GUID.as_bytes());
    let accept = base64::engine::general_purpose::STANDARD.encode(sha1.finalize());
    // Base64 is plain ASCII: always a valid header value.
    HeaderValue::from_str(&accept).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// What ends reading a connection that broke the protocol (the connection answers each with a
/// close code) or failed.
#[derive(Debug)]
pub(super) enum ReadError {
    /// A message above the limit (close 1009).
    TooLong,
    /// A text message that is not UTF-8, or a close reason that is not (close 1007).
    NotUtf8,
    /// A frame RFC 6455 does not allow from a client (close 1002): unmasked, reserved bits or
    /// opcodes, a control frame fragmented or above 125 bytes, a continuation of nothing.
    Protocol(&'static str),
    /// The connection failed.
    Io(io::Error),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::TooLong => f.write_str("message too long"),
            ReadError::NotUtf8 => f.write_str("text is not UTF-8"),
            ReadError::Protocol(what) => write!(f, "protocol error: {what}"),
            ReadError::Io(e) => write!(f, "connection failed: {e}"),
        }
    }
}

/// Why a message could not be written.
#[derive(Debug)]
pub(super) enum WriteError {
    /// The server's close frame has gone out: nothing follows it.
    Closed,
    /// The connection failed.
    Io(io::Error),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Closed => f.write_str("the connection is closing"),
            WriteError::Io(e) => write!(f, "connection failed: {e}"),
        }
    }
}

/// A message being received in fragments: whether it is text, and its bytes so far.
struct Fragments {
    text: bool,
    bytes: Vec<u8>,
}

/// One WebSocket connection, the server's end.
pub(super) struct WsConn<T = Io> {
    io: T,
    /// Bytes read: `read[start..end]` are not consumed yet; `read[end..]` is room to read into.
    /// The buffer is zero-filled once per size, not per read.
    read: Vec<u8>,
    start: usize,
    end: usize,
    /// The size `read` returns to once a larger frame is consumed.
    read_size: usize,
    fragments: Option<Fragments>,
    /// Frames to send: `write[sent..]` has not left yet.
    write: Vec<u8>,
    sent: usize,
    /// Gather up to this much before `poll_ready` makes room by writing.
    write_size: usize,
    /// The largest message taken in, whole.
    max_message: usize,
    /// The server's close frame is in `write`: nothing more may be sent.
    close_sent: bool,
    /// The client's close frame (or the end of the stream) was read: nothing more is read.
    done_reading: bool,
}

impl<T: AsyncRead + AsyncWrite + Unpin> WsConn<T> {
    /// The protocol over `io`, with `read_ahead` (bytes that came with the upgrade request)
    /// already read.
    pub(super) fn new(io: T, read_ahead: &[u8], read_size: usize, write_size: usize, max_message: usize) -> Self {
        let mut read = vec![0; read_size.max(read_ahead.len()).max(16)];
        read[..read_ahead.len()].copy_from_slice(read_ahead);
        WsConn {
            io,
            end: read_ahead.len(),
            read,
            start: 0,
            read_size: read_size.max(16),
            fragments: None,
            write: Vec::new(),
            sent: 0,
            write_size,
            max_message,
            close_sent: false,
            done_reading: false,
        }
    }

    /// The next message from the client: text, binary or its close frame (pings are answered and
    /// pongs dropped here). `None` once the client closed or went away.
    pub(super) fn poll_next(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<Message, ReadError>>> {
        loop {
            if self.done_reading {
                return Poll::Ready(None);
            }
            match self.next_frame() {
                Ok(Some(message)) => return Poll::Ready(Some(Ok(message))),
                Ok(None) => {}
                Err(Need::More(total)) => {
                    if let Err(e) = ready!(self.fill(cx, total)) {
                        self.done_reading = true;
                        return Poll::Ready(match e {
                            Filled::Eof => None,
                            Filled::Io(e) => Some(Err(ReadError::Io(e))),
                        });
                    }
                }
                Err(Need::Fail(e)) => {
                    self.done_reading = true;
                    return Poll::Ready(Some(Err(e)));
                }
            }
        }
    }

    /// Reads until `total` unconsumed bytes are buffered (at least one more byte).
    fn fill(&mut self, cx: &mut Context<'_>, total: usize) -> Poll<Result<(), Filled>> {
        if self.start == self.end {
            (self.start, self.end) = (0, 0);
            if self.read.len() > self.read_size {
                // A large frame is behind us: give its memory back.
                self.read = vec![0; self.read_size];
            }
        }
        if self.start + total > self.read.len() {
            // Move what is left to the front, and make room for the rest of the frame.
            self.read.copy_within(self.start..self.end, 0);
            (self.start, self.end) = (0, self.end - self.start);
            if total > self.read.len() {
                self.read.resize(total, 0);
            }
        }
        let mut buf = ReadBuf::new(&mut self.read[self.end..]);
        match ready!(Pin::new(&mut self.io).poll_read(cx, &mut buf)) {
            Ok(()) if buf.filled().is_empty() => Poll::Ready(Err(Filled::Eof)),
            Ok(()) => {
                self.end += buf.filled().len();
                Poll::Ready(Ok(()))
            }
            Err(e) => Poll::Ready(Err(Filled::Io(e))),
        }
    }

    /// Takes the next whole frame from the buffer: a message for the caller, or none (a control
    /// frame handled here, or a fragment of a message not yet whole).
    fn next_frame(&mut self) -> Result<Option<Message>, Need> {
        let buffered = &self.read[self.start..self.end];
        let [first, second, ..] = *buffered else { return Err(Need::More(2)) };
        let (fin, opcode) = (first & 0x80 != 0, first & 0x0F);
        if first & 0x70 != 0 {
            return Err(Need::Fail(ReadError::Protocol("reserved bits set")));
        }
        if second & 0x80 == 0 {
            return Err(Need::Fail(ReadError::Protocol("a client frame that is not masked")));
        }
        let (length, at) = match second & 0x7F {
            126 => match buffered.get(2..4) {
                Some(b) => (u64::from(u16::from_be_bytes([b[0], b[1]])), 4),
                None => return Err(Need::More(4)),
            },
            127 => match buffered.get(2..10) {
                Some(b) => (u64::from_be_bytes(b.try_into().unwrap_or_default()), 10),
                None => return Err(Need::More(10)),
            },
            n => (u64::from(n), 2),
        };
        let control = opcode & 0x08 != 0;
        if control && (!fin || length > 125) {
            return Err(Need::Fail(ReadError::Protocol("a control frame fragmented or above 125 bytes")));
        }
        let so_far = self.fragments.as_ref().map_or(0, |f| f.bytes.len());
        let length = match usize::try_from(length) {
            Ok(n) if (control || so_far + n <= self.max_message) => n,
            _ => return Err(Need::Fail(ReadError::TooLong)),
        };
        let total = at + 4 + length;
        if buffered.len() < total {
            return Err(Need::More(total));
        }
        let mask = [buffered[at], buffered[at + 1], buffered[at + 2], buffered[at + 3]];
        let payload = self.start + at + 4..self.start + total;
        self.start += total;
        unmask(&mut self.read[payload.clone()], mask);
        let payload = &self.read[payload];
        match opcode {
            0x0 => {
                let Some(fragments) = &mut self.fragments else {
                    return Err(Need::Fail(ReadError::Protocol("a continuation of no message")));
                };
                fragments.bytes.extend_from_slice(payload);
                if !fin {
                    return Ok(None);
                }
                let Fragments { text, bytes } =
                    self.fragments.take().unwrap_or(Fragments { text: true, bytes: vec![] });
                message(text, bytes).map(Some)
            }
            0x1 | 0x2 => {
                if self.fragments.is_some() {
                    return Err(Need::Fail(ReadError::Protocol("a new message inside a fragmented one")));
                }
                if fin {
                    return message(opcode == 0x1, payload.to_vec()).map(Some);
                }
                self.fragments = Some(Fragments { text: opcode == 0x1, bytes: payload.to_vec() });
                Ok(None)
            }
            0x8 => {
                let frame = close_frame(payload)?;
                self.done_reading = true;
                // Answer the client's close with the same code (RFC 6455 §5.5.1), unless ours left.
                if !self.close_sent {
                    let code = frame.as_ref().map(|f| f.code);
                    self.queue_close(code.map(|code| CloseFrame { code, reason: Utf8Bytes::from_static("") }));
                }
                Ok(Some(Message::Close(frame)))
            }
            0x9 => {
                if !self.close_sent {
                    let payload = payload.to_vec();
                    self.queue(0xA, &payload);
                }
                Ok(None)
            }
            0xA => Ok(None),
            _ => Err(Need::Fail(ReadError::Protocol("a reserved opcode"))),
        }
    }

    /// Whether frames wait in the buffer to be written (a pong or close answered while reading).
    pub(super) fn has_unsent(&self) -> bool {
        self.sent < self.write.len()
    }

    /// Ready when the buffer has room for another message (writing some out if it has not).
    pub(super) fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), WriteError>> {
        if self.write.len() - self.sent < self.write_size {
            return Poll::Ready(Ok(()));
        }
        self.poll_flush(cx)
    }

    /// Puts `message` in the buffer (it leaves on the next flush).
    pub(super) fn start_send(&mut self, message: Message) -> Result<(), WriteError> {
        if self.close_sent {
            return Err(WriteError::Closed);
        }
        match message {
            Message::Text(text) => self.queue(0x1, text.as_bytes()),
            Message::Binary(bytes) => self.queue(0x2, &bytes),
            Message::Ping(bytes) => self.queue(0x9, &bytes),
            Message::Pong(bytes) => self.queue(0xA, &bytes),
            Message::Close(frame) => self.queue_close(frame),
        }
        Ok(())
    }

    /// Puts a text message in the buffer, as [`WsConn::start_send`] (without a [`Message`]).
    pub(super) fn start_send_text(&mut self, text: &Utf8Bytes) -> Result<(), WriteError> {
        if self.close_sent {
            return Err(WriteError::Closed);
        }
        self.queue(0x1, text.as_bytes());
        Ok(())
    }

    /// Writes the buffer out; ready once all of it has left.
    pub(super) fn poll_flush(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), WriteError>> {
        while self.sent < self.write.len() {
            match ready!(Pin::new(&mut self.io).poll_write(cx, &self.write[self.sent..])) {
                Ok(0) => return Poll::Ready(Err(WriteError::Io(io::ErrorKind::WriteZero.into()))),
                Ok(n) => self.sent += n,
                Err(e) => return Poll::Ready(Err(WriteError::Io(e))),
            }
        }
        self.sent = 0;
        self.write.clear();
        if self.write.capacity() > self.write_size {
            // A burst (a snapshot, a backlog) is behind us: give its memory back.
            self.write = Vec::new();
        }
        Pin::new(&mut self.io).poll_flush(cx).map_err(WriteError::Io)
    }

    /// Sends a close frame (if none has gone) and flushes.
    pub(super) fn poll_close(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), WriteError>> {
        if !self.close_sent {
            self.queue_close(None);
        }
        self.poll_flush(cx)
    }

    fn queue_close(&mut self, frame: Option<CloseFrame>) {
        let mut payload = Vec::new();
        if let Some(frame) = frame {
            payload.extend_from_slice(&frame.code.to_be_bytes());
            // A control frame holds 125 bytes: a longer reason is cut at a character boundary.
            let reason = frame.reason.as_str();
            let mut cut = reason.len().min(123);
            while !reason.is_char_boundary(cut) {
                cut -= 1;
            }
            payload.extend_from_slice(&reason.as_bytes()[..cut]);
        }
        self.queue(0x8, &payload);
        self.close_sent = true;
    }

    /// Appends a frame (FIN set, unmasked, as a server sends).
    fn queue(&mut self, opcode: u8, payload: &[u8]) {
        self.write.push(0x80 | opcode);
        match payload.len() {
            n if n < 126 => self.write.push(n as u8),
            n => match u16::try_from(n) {
                Ok(n) => {
                    self.write.push(126);
                    self.write.extend_from_slice(&n.to_be_bytes());
                }
                Err(_) => {
                    self.write.push(127);
                    self.write.extend_from_slice(&(n as u64).to_be_bytes());
                }
            },
        }
        self.write.extend_from_slice(payload);
    }
}

/// What reading needs before the next frame can be taken.
enum Need {
    /// This many unconsumed bytes in all.
    More(usize),
    /// Nothing: the client broke the protocol.
    Fail(ReadError),
}

/// Why the buffer could not be filled.
enum Filled {
    Eof,
    Io(io::Error),
}

/// A whole message.
fn message(text: bool, bytes: Vec<u8>) -> Result<Message, Need> {
    if !text {
        return Ok(Message::Binary(bytes.into()));
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Message::Text(text.into())),
        Err(_) => Err(Need::Fail(ReadError::NotUtf8)),
    }
}

/// A close frame's code and reason (none for an empty frame).
fn close_frame(payload: &[u8]) -> Result<Option<CloseFrame>, Need> {
    let (code, reason) = match payload {
        [] => return Ok(None),
        [_] => return Err(Need::Fail(ReadError::Protocol("a close frame of one byte"))),
        [a, b, reason @ ..] => (u16::from_be_bytes([*a, *b]), reason),
    };
    // Codes a peer may send (RFC 6455 §7.4): 1000-1003, 1007-1011, and 3000-4999.
    if !matches!(code, 1000..=1003 | 1007..=1011 | 3000..=4999) {
        return Err(Need::Fail(ReadError::Protocol("a close code a client may not send")));
    }
    let reason = std::str::from_utf8(reason).map_err(|_| Need::Fail(ReadError::NotUtf8))?;
    Ok(Some(CloseFrame { code, reason: reason.to_string().into() }))
}

/// XORs `bytes` with the frame's mask (RFC 6455 §5.3), eight bytes at a time.
fn unmask(bytes: &mut [u8], mask: [u8; 4]) {
    let wide = u64::from_ne_bytes([mask[0], mask[1], mask[2], mask[3], mask[0], mask[1], mask[2], mask[3]]);
    let mut chunks = bytes.chunks_exact_mut(8);
    for chunk in &mut chunks {
        let word = u64::from_ne_bytes(chunk.try_into().unwrap_or_default()) ^ wide;
        chunk.copy_from_slice(&word.to_ne_bytes());
    }
    for (i, byte) in chunks.into_remainder().iter_mut().enumerate() {
        *byte ^= mask[i % 4];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};

    /// A client frame, masked with `mask`.
    fn client_frame(fin: bool, opcode: u8, payload: &[u8], mask: [u8; 4]) -> Vec<u8> {
        let mut frame = vec![if fin { 0x80 } else { 0 } | opcode];
        match payload.len() {
            n if n < 126 => frame.push(0x80 | n as u8),
            n if n <= 0xFFFF => {
                frame.push(0x80 | 126);
                frame.extend_from_slice(&(n as u16).to_be_bytes());
            }
            n => {
                frame.push(0x80 | 127);
                frame.extend_from_slice(&(n as u64).to_be_bytes());
            }
        }
        frame.extend_from_slice(&mask);
        frame.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        frame
    }

    fn conn(read_ahead: &[u8]) -> (WsConn<DuplexStream>, DuplexStream) {
        let (server, client) = tokio::io::duplex(1 << 16);
        (WsConn::new(server, read_ahead, 16, 64, 1000), client)
    }

    async fn next(ws: &mut WsConn<DuplexStream>) -> Option<Result<Message, ReadError>> {
        std::future::poll_fn(|cx| ws.poll_next(cx)).await
    }

    async fn flush(ws: &mut WsConn<DuplexStream>) {
        std::future::poll_fn(|cx| ws.poll_flush(cx)).await.expect("flushed");
    }

    async fn read_exactly(client: &mut DuplexStream, n: usize) -> Vec<u8> {
        let mut bytes = vec![0; n];
        client.read_exact(&mut bytes).await.expect("read");
        bytes
    }

    #[test]
    fn the_accept_key_is_rfc_6455s_example() {
        assert_eq!(accept_key(b"dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    }

    #[tokio::test]
    async fn frames_split_anywhere_and_fragmented_messages_read_whole() {
        let mut bytes = client_frame(true, 0x1, "{\"type\":\"ping\"}".as_bytes(), [1, 2, 3, 4]);
        bytes.extend(client_frame(false, 0x1, "hé".as_bytes(), [9, 8, 7, 6]));
        bytes.extend(client_frame(true, 0x9, b"p", [5, 5, 5, 5])); // a ping between fragments
        bytes.extend(client_frame(true, 0x0, &[b'!'; 300], [0, 1, 0, 1]));
        bytes.extend(client_frame(true, 0x2, &[7, 8], [3, 3, 3, 3]));
        // The first bytes came with the upgrade request; the rest arrives one byte at a time.
        let (mut ws, mut client) = conn(&bytes[..3]);
        let rest = bytes[3..].to_vec();
        let writer = tokio::spawn(async move {
            for b in rest {
                client.write_all(&[b]).await.unwrap();
            }
            client
        });
        let text = |m: Option<Result<Message, ReadError>>| match m {
            Some(Ok(Message::Text(t))) => t.to_string(),
            other => panic!("expected text, got {other:?}"),
        };
        assert_eq!(text(next(&mut ws).await), "{\"type\":\"ping\"}");
        assert_eq!(text(next(&mut ws).await), format!("hé{}", "!".repeat(300)));
        assert!(matches!(next(&mut ws).await, Some(Ok(Message::Binary(b))) if b[..] == [7, 8]));
        let mut client = writer.await.unwrap();
        // The ping was answered with a pong of the same bytes.
        assert!(ws.has_unsent());
        flush(&mut ws).await;
        assert_eq!(read_exactly(&mut client, 3).await, [0x8A, 1, b'p']);
        drop(client);
        assert!(next(&mut ws).await.is_none(), "the end of the stream ends reading");
    }

    #[tokio::test]
    async fn a_close_is_answered_with_its_code_and_ends_reading() {
        let (mut ws, mut client) = conn(&[]);
        let mut payload = 4000u16.to_be_bytes().to_vec();
        payload.extend_from_slice(b"bye");
        client.write_all(&client_frame(true, 0x8, &payload, [1, 1, 1, 1])).await.unwrap();
        match next(&mut ws).await {
            Some(Ok(Message::Close(Some(frame)))) => assert_eq!((frame.code, frame.reason.as_str()), (4000, "bye")),
            other => panic!("expected a close, got {other:?}"),
        }
        assert!(next(&mut ws).await.is_none());
        flush(&mut ws).await;
        assert_eq!(read_exactly(&mut client, 4).await, [0x88, 2, 0x0F, 0xA0]);
        assert!(matches!(ws.start_send(Message::Text("late".into())), Err(WriteError::Closed)));
    }

    #[tokio::test]
    async fn broken_frames_end_reading_with_their_error() {
        type Expected = fn(&ReadError) -> bool;
        let cases: [(Vec<u8>, Expected); 7] = [
            (client_frame(true, 0x1, &[0xFF, 0xFE], [0; 4]), |e| matches!(e, ReadError::NotUtf8)),
            (client_frame(true, 0x1, &[b'x'; 1001], [0; 4]), |e| matches!(e, ReadError::TooLong)),
            (vec![0x81, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], |e| matches!(e, ReadError::TooLong)),
            (vec![0x81, 0x01, b'x'], |e| matches!(e, ReadError::Protocol(_))), // unmasked
            (client_frame(true, 0x0, b"x", [0; 4]), |e| matches!(e, ReadError::Protocol(_))),
            (client_frame(false, 0x9, b"x", [0; 4]), |e| matches!(e, ReadError::Protocol(_))),
            (client_frame(true, 0x3, b"x", [0; 4]), |e| matches!(e, ReadError::Protocol(_))),
        ];
        for (bytes, expected) in cases {
            let (mut ws, _client) = conn(&bytes);
            match next(&mut ws).await {
                Some(Err(e)) => assert!(expected(&e), "{e} for {bytes:02x?}"),
                other => panic!("expected an error for {bytes:02x?}, got {other:?}"),
            }
            assert!(next(&mut ws).await.is_none(), "nothing is read after an error");
        }
        // Fragments count towards the limit together.
        let mut bytes = client_frame(false, 0x1, &[b'x'; 600], [0; 4]);
        bytes.extend(client_frame(true, 0x0, &[b'x'; 401], [0; 4]));
        let (mut ws, _client) = conn(&bytes);
        assert!(matches!(next(&mut ws).await, Some(Err(ReadError::TooLong))));
    }

    #[tokio::test]
    async fn messages_gather_until_flushed_and_leave_as_server_frames() {
        let (mut ws, mut client) = conn(&[]);
        let long = "y".repeat(200);
        ws.start_send(Message::Text("patch".into())).unwrap();
        ws.start_send(Message::Text(long.clone().into())).unwrap();
        ws.start_send(Message::Close(Some(CloseFrame { code: 4408, reason: "proto/slow_consumer".into() }))).unwrap();
        assert!(ws.has_unsent());
        flush(&mut ws).await;
        assert!(!ws.has_unsent());
        let mut expected = vec![0x81, 5];
        expected.extend_from_slice(b"patch");
        expected.extend_from_slice(&[0x81, 126, 0, 200]);
        expected.extend_from_slice(long.as_bytes());
        expected.extend_from_slice(&[0x88, 21, 0x11, 0x38]);
        expected.extend_from_slice(b"proto/slow_consumer");
        assert_eq!(read_exactly(&mut client, expected.len()).await, expected);
    }
}
