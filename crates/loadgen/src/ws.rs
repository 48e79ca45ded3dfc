//! The load generator's WebSocket client: just what a player's socket needs (RFC 6455, plain
//! `ws://`, text messages, no extensions), over tokio's `TcpStream`.
//!
//! The generator reads four or five frames for every action it sends, and with
//! `tokio-tungstenite` the client's own machinery was a fifth of its CPU in a profile of 200
//! saturated games: zero-filling the free part of its read buffer before every read, a waker
//! proxy made for every poll, a shared buffer split per message, the text validated again. Here a
//! socket reads into spare capacity (never zero-filled), parses frames in place and hands out the
//! message as a slice of its buffer until the next read (docs/performance.md). What the generator
//! measures is unchanged: the same frames, read as they arrive.

use anyhow::{bail, ensure, Context};
use base64::Engine as _;
use sha1::{Digest as _, Sha1};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// How long a socket waits for its next message before the slot gives up.
const SILENCE: Duration = Duration::from_secs(30);
/// The largest message the generator accepts (the server's frames are a few KiB).
const MAX_MESSAGE: usize = 16 << 20;
/// Room kept free for a read: a patch frame is ~640 bytes.
const READ_ROOM: usize = 4096;

/// One client WebSocket.
pub struct Socket {
    stream: TcpStream,
    /// Bytes read and not yet consumed are `buf[start..]`.
    buf: Vec<u8>,
    start: usize,
    /// The current message: a range of `buf`, or (when it came in fragments) all of `pieces`.
    current: std::ops::Range<usize>,
    fragmented: bool,
    pieces: Vec<u8>,
    /// State of the generator of masking keys (xorshift).
    mask: u64,
    out: Vec<u8>,
}

/// What the frame at the front of the buffer is, once it is there whole.
struct Frame {
    fin: bool,
    opcode: u8,
    payload: std::ops::Range<usize>,
}

impl Socket {
    /// Opens `url` (`ws://host:port/path`), offering `protocols` (the `Sec-WebSocket-Protocol`
    /// header) when given, and completes the opening handshake.
    pub async fn connect(url: &str, protocols: Option<&str>) -> anyhow::Result<Socket> {
        let rest = url.strip_prefix("ws://").with_context(|| format!("not a ws:// url: {url}"))?;
        let (host, path) = rest.split_once('/').map_or((rest, "/".to_string()), |(h, p)| (h, format!("/{p}")));
        let stream = TcpStream::connect(host).await.with_context(|| format!("connect {host}"))?;
        // No Nagle delay, as browsers do for WebSockets.
        stream.set_nodelay(true)?;
        let seed =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64)
                ^ u64::from(stream.local_addr()?.port()).rotate_left(32);
        let mut socket = Socket {
            stream,
            buf: Vec::with_capacity(READ_ROOM),
            start: 0,
            current: 0..0,
            fragmented: false,
            pieces: Vec::new(),
            mask: seed | 1,
            out: Vec::with_capacity(256),
        };
        let nonce: [u8; 16] = std::array::from_fn(|_| socket.next_random() as u8);
        let key = base64::engine::general_purpose::STANDARD.encode(nonce);
        let mut request = format!(
            "GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        );
        if let Some(protocols) = protocols {
            request.push_str(&format!("Sec-WebSocket-Protocol: {protocols}\r\n"));
        }
        request.push_str("\r\n");
        socket.stream.write_all(request.as_bytes()).await?;
        let end = loop {
            if let Some(at) = memchr::memmem::find(&socket.buf, b"\r\n\r\n") {
                break at + 4;
            }
            ensure!(socket.buf.len() < 64 * 1024, "the handshake's answer is too long");
            socket.fill().await?;
        };
        let head = std::str::from_utf8(&socket.buf[..end]).context("the handshake's answer is not text")?;
        let status = head.lines().next().unwrap_or_default();
        ensure!(status.split(' ').nth(1) == Some("101"), "the server refused the socket: {status}");
        let expected = accept_key(&key);
        let accept = head.lines().find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.trim().eq_ignore_ascii_case("sec-websocket-accept").then(|| value.trim())
        });
        ensure!(accept == Some(expected.as_str()), "the handshake's Sec-WebSocket-Accept is wrong: {accept:?}");
        // What follows the answer (the welcome, perhaps) stays in the buffer.
        socket.start = end;
        Ok(socket)
    }

    /// Waits for the next text message; [`Socket::text`] then reads it. Answers pings, passes
    /// over binary messages and pongs; a close ends the socket with an error.
    pub async fn next(&mut self) -> anyhow::Result<()> {
        loop {
            let Frame { fin, opcode, payload } = self.frame().await?;
            match opcode {
                0x1 if fin => {
                    self.fragmented = false;
                    self.current = payload;
                    return Ok(());
                }
                0x1 | 0x2 => {
                    // The first piece of a message (a binary one is read and passed over).
                    self.pieces.clear();
                    self.pieces.extend_from_slice(&self.buf[payload]);
                    self.fragmented = opcode == 0x1;
                    if !fin {
                        self.read_pieces().await?;
                    }
                    if self.fragmented {
                        return Ok(());
                    }
                }
                0x8..=0xA => self.control(opcode, payload).await?,
                other => bail!("a frame with opcode {other:#x}"),
            }
        }
    }

    /// The rest of a fragmented message, into `pieces` (control frames between are answered).
    async fn read_pieces(&mut self) -> anyhow::Result<()> {
        loop {
            let Frame { fin, opcode, payload } = self.frame().await?;
            match opcode {
                0x0 => {
                    ensure!(self.pieces.len() + payload.len() <= MAX_MESSAGE, "a message larger than 16 MiB");
                    self.pieces.extend_from_slice(&self.buf[payload]);
                    if fin {
                        return Ok(());
                    }
                }
                0x8..=0xA => self.control(opcode, payload).await?,
                other => bail!("a frame with opcode {other:#x} inside a fragmented message"),
            }
        }
    }

    /// A control frame: a close ends the socket with an error, a ping is answered, a pong passed
    /// over.
    async fn control(&mut self, opcode: u8, payload: std::ops::Range<usize>) -> anyhow::Result<()> {
        match opcode {
            0x8 => bail!("socket closed"),
            0x9 => {
                let ping = self.buf[payload].to_vec();
                self.send(0xA, &ping).await
            }
            _ => Ok(()),
        }
    }

    /// The message [`Socket::next`] read.
    pub fn text(&self) -> anyhow::Result<&str> {
        let bytes = if self.fragmented { &self.pieces[..] } else { &self.buf[self.current.clone()] };
        std::str::from_utf8(bytes).context("a text message that is not UTF-8")
    }

    /// Reads the next text message and returns it as an owned string.
    pub async fn recv_string(&mut self) -> anyhow::Result<String> {
        self.next().await?;
        Ok(self.text()?.to_string())
    }

    /// Sends `text` as one masked text frame.
    pub async fn send_text(&mut self, text: &str) -> anyhow::Result<()> {
        self.send(0x1, text.as_bytes()).await
    }

    /// Sends an empty ping (whether the socket is still open).
    pub async fn ping(&mut self) -> anyhow::Result<()> {
        self.send(0x9, &[]).await
    }

    /// Sends a close frame (status 1000) and shuts the socket down; errors are of no interest.
    pub async fn close(&mut self) {
        let _ = self.send(0x8, &1000u16.to_be_bytes()).await;
        let _ = self.stream.shutdown().await;
    }

    async fn send(&mut self, opcode: u8, payload: &[u8]) -> anyhow::Result<()> {
        self.out.clear();
        self.out.push(0x80 | opcode);
        match payload.len() {
            n if n < 126 => self.out.push(0x80 | n as u8),
            n if n <= usize::from(u16::MAX) => {
                self.out.push(0x80 | 126);
                self.out.extend_from_slice(&(n as u16).to_be_bytes());
            }
            n => {
                self.out.push(0x80 | 127);
                self.out.extend_from_slice(&(n as u64).to_be_bytes());
            }
        }
        let key = (self.next_random() as u32).to_ne_bytes();
        self.out.extend_from_slice(&key);
        let at = self.out.len();
        self.out.extend_from_slice(payload);
        unmask(&mut self.out[at..], key);
        self.stream.write_all(&self.out).await?;
        Ok(())
    }

    /// The frame at the front of the buffer, read until it is whole, unmasked and consumed (its
    /// payload stays in the buffer until the next read).
    async fn frame(&mut self) -> anyhow::Result<Frame> {
        loop {
            if let Some((frame, key)) = self.parse()? {
                if let Some(key) = key {
                    unmask(&mut self.buf[frame.payload.clone()], key);
                }
                self.start = frame.payload.end;
                return Ok(frame);
            }
            self.fill().await?;
        }
    }

    /// The frame at `buf[start..]` and its masking key (a server must not mask; tolerated), if
    /// it is all there.
    fn parse(&self) -> anyhow::Result<Option<(Frame, Option<[u8; 4]>)>> {
        let b = &self.buf[self.start..];
        if b.len() < 2 {
            return Ok(None);
        }
        ensure!(b[0] & 0x70 == 0, "a frame with reserved bits set (no extension was agreed)");
        let (fin, opcode, masked) = (b[0] & 0x80 != 0, b[0] & 0x0F, b[1] & 0x80 != 0);
        let (len, mut at) = match b[1] & 0x7F {
            126 if b.len() >= 4 => (u64::from(u16::from_be_bytes([b[2], b[3]])), 4),
            127 if b.len() >= 10 => (u64::from_be_bytes(b[2..10].try_into()?), 10),
            126 | 127 => return Ok(None),
            n => (u64::from(n), 2),
        };
        ensure!(len <= MAX_MESSAGE as u64, "a frame larger than 16 MiB");
        let key = if masked {
            if b.len() < at + 4 {
                return Ok(None);
            }
            at += 4;
            Some([b[at - 4], b[at - 3], b[at - 2], b[at - 1]])
        } else {
            None
        };
        let end = at + len as usize;
        if b.len() < end {
            return Ok(None);
        }
        Ok(Some((Frame { fin, opcode, payload: self.start + at..self.start + end }, key)))
    }

    /// Reads more bytes into the buffer (into its spare capacity, which is not zero-filled),
    /// first moving what is unread to its front.
    async fn fill(&mut self) -> anyhow::Result<()> {
        if self.start > 0 {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        self.buf.reserve(READ_ROOM);
        let read = tokio::time::timeout(SILENCE, self.stream.read_buf(&mut self.buf))
            .await
            .context("no message for 30 s")??;
        ensure!(read > 0, "socket closed");
        Ok(())
    }

    fn next_random(&mut self) -> u64 {
        let mut x = self.mask;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.mask = x;
        x
    }
}

/// The `Sec-WebSocket-Accept` a server answers to the opening handshake's `key` (RFC 6455, 4.2.2).
fn accept_key(key: &str) -> String {
    let mut sha1 = Sha1::new();
    sha1.update(key.as_bytes());
    sha1.update(b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11");
    base64::engine::general_purpose::STANDARD.encode(sha1.finalize())
}

/// XORs `bytes` with the masking `key` (masking and unmasking are the same).
fn unmask(bytes: &mut [u8], key: [u8; 4]) {
    for (i, b) in bytes.iter_mut().enumerate() {
        *b ^= key[i & 3];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::net::TcpListener;

    /// A server end that answers the handshake by hand and then writes `frames` raw.
    async fn serve(frames: Vec<u8>) -> (String, tokio::task::JoinHandle<Vec<u8>>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let url = format!("ws://{}/ws", listener.local_addr().expect("addr"));
        let task = tokio::spawn(async move {
            let (mut s, _) = listener.accept().await.expect("accept");
            let mut head = Vec::new();
            while memchr::memmem::find(&head, b"\r\n\r\n").is_none() {
                let mut byte = [0u8; 1024];
                let n = s.read(&mut byte).await.expect("read");
                head.extend_from_slice(&byte[..n]);
            }
            let head = String::from_utf8(head).expect("text");
            assert!(head.starts_with("GET /ws HTTP/1.1\r\n"), "{head}");
            assert!(head.contains("Sec-WebSocket-Protocol: chapterhouse\r\n"), "{head}");
            let key = head.lines().find_map(|l| l.strip_prefix("Sec-WebSocket-Key: ")).expect("a key").to_string();
            let accept = accept_key(&key);
            let answer = format!(
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
                 Sec-WebSocket-Accept: {accept}\r\n\r\n"
            );
            // The answer and the first frames in one write, as a server may send them.
            let mut first = answer.into_bytes();
            first.extend_from_slice(&frames);
            s.write_all(&first).await.expect("write");
            let mut got = Vec::new();
            s.read_to_end(&mut got).await.expect("read the client's frames");
            got
        });
        (url, task)
    }

    fn frame(b0: u8, payload: &[u8]) -> Vec<u8> {
        let mut f = vec![b0];
        match payload.len() {
            n if n < 126 => f.push(n as u8),
            n if n <= 65535 => {
                f.push(126);
                f.extend_from_slice(&(n as u16).to_be_bytes());
            }
            n => {
                f.push(127);
                f.extend_from_slice(&(n as u64).to_be_bytes());
            }
        }
        f.extend_from_slice(payload);
        f
    }

    /// The client's frames as (opcode, unmasked payload).
    fn client_frames(mut b: &[u8]) -> Vec<(u8, Vec<u8>)> {
        let mut out = Vec::new();
        while !b.is_empty() {
            assert_eq!(b[1] & 0x80, 0x80, "a client masks every frame");
            let (len, at) = match b[1] & 0x7F {
                126 => (usize::from(u16::from_be_bytes([b[2], b[3]])), 4),
                127 => (u64::from_be_bytes(b[2..10].try_into().expect("8 bytes")) as usize, 10),
                n => (usize::from(n), 2),
            };
            let key = [b[at], b[at + 1], b[at + 2], b[at + 3]];
            let mut payload = b[at + 4..at + 4 + len].to_vec();
            unmask(&mut payload, key);
            out.push((b[0] & 0x0F, payload));
            b = &b[at + 4 + len..];
        }
        out
    }

    #[tokio::test]
    async fn messages_of_every_size_pings_and_fragments_are_read_and_frames_sent_masked() {
        let long = "x".repeat(70_000);
        let middle = "y".repeat(300);
        let mut frames = frame(0x81, br#"{"type":"welcome"}"#);
        frames.extend(frame(0x89, b"are you there"));
        frames.extend(frame(0x82, b"\x00\x01binary"));
        frames.extend(frame(0x81, middle.as_bytes()));
        frames.extend(frame(0x01, b"frag"));
        frames.extend(frame(0x8A, b"pong"));
        frames.extend(frame(0x00, b"men"));
        frames.extend(frame(0x80, b"ted"));
        frames.extend(frame(0x81, long.as_bytes()));
        frames.extend(frame(0x88, &1000u16.to_be_bytes()));
        let (url, server) = serve(frames).await;
        let mut ws = Socket::connect(&url, Some("chapterhouse")).await.expect("connect");
        assert_eq!(ws.recv_string().await.expect("welcome"), r#"{"type":"welcome"}"#);
        ws.send_text(r#"{"type":"subscribe","game":"g"}"#).await.expect("send");
        assert_eq!(ws.recv_string().await.expect("after the ping and the binary"), middle);
        assert_eq!(ws.recv_string().await.expect("in pieces"), "fragmented");
        assert_eq!(ws.recv_string().await.expect("long").len(), 70_000);
        let closed = ws.next().await.expect_err("a close ends the socket");
        assert!(closed.to_string().contains("closed"), "{closed}");
        ws.close().await;
        let sent = client_frames(&server.await.expect("server"));
        let sent: Vec<(u8, &[u8])> = sent.iter().map(|(o, p)| (*o, &p[..])).collect();
        assert_eq!(
            sent,
            vec![
                (0x1, &br#"{"type":"subscribe","game":"g"}"#[..]),
                (0xA, &b"are you there"[..]),
                (0x8, &1000u16.to_be_bytes()[..]),
            ]
        );
    }

    #[tokio::test]
    async fn a_refused_handshake_is_an_error() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let url = format!("ws://{}/ws", listener.local_addr().expect("addr"));
        tokio::spawn(async move {
            let (mut s, _) = listener.accept().await.expect("accept");
            let mut head = [0u8; 4096];
            let _ = s.read(&mut head).await;
            let _ = s.write_all(b"HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\n\r\n").await;
        });
        let refused = Socket::connect(&url, None).await.err().expect("refused");
        assert!(refused.to_string().contains("401"), "{refused}");
    }
}
