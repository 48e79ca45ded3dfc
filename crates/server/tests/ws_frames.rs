//! Frames the socket must close on with the documented code, even when the client sends them
//! whole and at once: 1009 for a frame above 1 MiB, 1007 for text that is not UTF-8.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use common::{TestDb, TestServer};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A client frame (FIN set, masked with a zero mask, as RFC 6455 requires of clients).
fn client_frame(opcode: u8, payload: &[u8]) -> Vec<u8> {
    let mut frame = vec![0x80 | opcode];
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
    frame.extend_from_slice(&[0, 0, 0, 0]);
    frame.extend_from_slice(payload);
    frame
}

/// Opens a socket by hand, sends the upgrade and `frame` in one write, and returns the close
/// code of the first close frame the server sends back (`None` if the connection ends without
/// one, e.g. reset).
async fn close_code_after(addr: SocketAddr, frame: Vec<u8>) -> Option<u16> {
    let tcp = TcpStream::connect(addr).await.unwrap();
    let mut bytes = format!(
        "GET /ws HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\
         Sec-WebSocket-Protocol: chapterhouse\r\n\r\n"
    )
    .into_bytes();
    bytes.extend(frame);
    // The whole frame at once (written beside the reading, as a browser would: a send that
    // cannot complete must not keep the client from hearing the close).
    let (mut read, mut write) = tcp.into_split();
    let sender = tokio::spawn(async move {
        let _ = write.write_all(&bytes).await;
        write
    });
    let mut received = Vec::new();
    let mut buf = vec![0u8; 64 * 1024];
    while let Ok(Ok(n)) = tokio::time::timeout(Duration::from_secs(10), read.read(&mut buf)).await {
        if n == 0 {
            break;
        }
        received.extend_from_slice(&buf[..n]);
        if let Some(code) = find_close(&received) {
            sender.abort();
            return Some(code);
        }
    }
    sender.abort();
    find_close(&received)
}

/// The code of a server close frame (unmasked, opcode 8) in `bytes`, after the HTTP response.
fn find_close(bytes: &[u8]) -> Option<u16> {
    let body = bytes.windows(4).position(|w| w == b"\r\n\r\n").map(|i| &bytes[i + 4..])?;
    let mut rest = body;
    while rest.len() >= 2 {
        let (opcode, len) = (rest[0] & 0x0F, usize::from(rest[1] & 0x7F));
        let (header, len) = match len {
            126 if rest.len() >= 4 => (4, usize::from(u16::from_be_bytes([rest[2], rest[3]]))),
            127 => return None,
            n => (2, n),
        };
        if rest.len() < header + len {
            return None;
        }
        if opcode == 8 && len >= 2 {
            return Some(u16::from_be_bytes([rest[header], rest[header + 1]]));
        }
        rest = &rest[header + len..];
    }
    None
}

#[tokio::test]
async fn a_frame_above_1_mib_sent_whole_gets_close_1009_not_a_reset() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let text = format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(3 * 1024 * 1024 / 2));
    assert_eq!(close_code_after(server.addr, client_frame(0x1, text.as_bytes())).await, Some(1009));
    server.stop().await;
}

#[tokio::test]
async fn a_text_frame_that_is_not_utf8_gets_close_1007() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    assert_eq!(close_code_after(server.addr, client_frame(0x1, b"{\"type\":\"ping\xff\xfe\"}")).await, Some(1007));
    server.stop().await;
}
