//! The socket's token never travels in a URL: it is offered as a WebSocket subprotocol (or, for
//! clients that can set headers, as a bearer token), and URLs are logged without their query.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use common::{TestDb, TestServer, Ws};
use std::io::Write;
use std::sync::{Arc, Mutex};

#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn a_token_in_the_url_is_refused_the_subprotocol_signs_in_and_logs_hold_no_query() {
    let logs = Captured::default();
    let writer = logs.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_env_filter("debug")
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);

    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let (ana, _) = server.http().guest("Ana").await;
    let token = ana.token.clone().unwrap();

    // The old way: refused before the upgrade, with a JSON error that says why.
    let response = reqwest::get(format!("http://{}/ws?token={token}", server.addr)).await.unwrap();
    assert_eq!(response.status().as_u16(), 400);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "auth/token_in_url");

    // The subprotocol way (what browsers use): the welcome names the account.
    let mut ws = Ws::connect_raw(server.addr, Some(&token)).await;
    let welcome = ws.recv().await;
    assert_eq!((welcome["type"].as_str(), welcome["account"]["name"].as_str()), (Some("welcome"), Some("Ana")));

    // A query string with a secret in it, on any route, is not written to the log.
    let _ = reqwest::get(format!("http://{}/api/lobbies/x?code=sekrit-invite", server.addr)).await.unwrap();
    server.stop().await;
    let text = String::from_utf8(logs.0.lock().unwrap().clone()).unwrap();
    assert!(text.contains("/api/lobbies/x"), "requests are logged: {text}");
    assert!(!text.contains(&token), "the token is not in the log");
    assert!(!text.contains("sekrit-invite"), "query strings are not in the log");
}
