//! Shared test helpers: fresh databases on both backends, a real server on 127.0.0.1:0, and
//! HTTP and WebSocket clients.
#![allow(dead_code)]

use chapterhouse::catalog::Catalog;
use chapterhouse::limits::{LimitsConfig, Rate};
use chapterhouse::serve::{serve, ServerConfig};
use chapterhouse::table::TableConfig;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use sqlx::Connection;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub mod cluster;
pub mod play;
pub mod toy;

/// A database that exists for one test.
pub struct TestDb {
    /// Its URL.
    pub url: String,
    /// `sqlite` or `postgres`.
    pub backend: &'static str,
    _dir: Option<tempfile::TempDir>,
    admin: Option<(String, String)>,
}

impl TestDb {
    /// A fresh SQLite file in a temporary directory.
    pub fn sqlite() -> TestDb {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite://{}", dir.path().join("test.db").display());
        TestDb { url, backend: "sqlite", _dir: Some(dir), admin: None }
    }

    /// A fresh database on the PostgreSQL server in `DATABASE_URL`; `None` (with a note) when it is
    /// not set, except under `CI=true`, where that is a failure.
    pub async fn postgres() -> Option<TestDb> {
        let Ok(admin_url) = std::env::var("DATABASE_URL") else {
            if std::env::var("CI").as_deref() == Ok("true") {
                panic!(
                    "CI=true but DATABASE_URL is not set: the PostgreSQL tests cannot run (use scripts/with-postgres)"
                );
            }
            eprintln!("DATABASE_URL is not set: skipping the PostgreSQL half of this test");
            return None;
        };
        sqlx::any::install_default_drivers();
        let name = format!("test_{}", uuid::Uuid::new_v4().simple());
        let mut admin = sqlx::AnyConnection::connect(&admin_url).await.expect("connect to DATABASE_URL");
        sqlx::query(&format!("create database {name}")).execute(&mut admin).await.expect("create test database");
        let _ = admin.close().await;
        let url = database_url_with_name(&admin_url, &name);
        Some(TestDb { url, backend: "postgres", _dir: None, admin: Some((admin_url, name)) })
    }

    /// Every backend this run can test: SQLite always, PostgreSQL when available.
    pub async fn all() -> Vec<TestDb> {
        let mut dbs = vec![TestDb::sqlite()];
        dbs.extend(TestDb::postgres().await);
        dbs
    }

    /// Drops a PostgreSQL test database.
    pub async fn cleanup(self) {
        if let Some((admin_url, name)) = &self.admin {
            if let Ok(mut admin) = sqlx::AnyConnection::connect(admin_url).await {
                let _ = sqlx::query(&format!("drop database if exists {name} with (force)")).execute(&mut admin).await;
            }
        }
    }
}

/// `url` with its database name replaced by `name` (query parameters kept).
pub fn database_url_with_name(url: &str, name: &str) -> String {
    let host_start = url.find("://").map(|i| i + 3).unwrap_or(0);
    let (base, rest) = match url[host_start..].find(['/', '?']) {
        Some(j) => url.split_at(host_start + j),
        None => (url, ""),
    };
    let query = rest.find('?').map(|k| &rest[k..]).unwrap_or("");
    format!("{base}/{name}{query}")
}

/// A server running in this process.
pub struct TestServer {
    /// Its address.
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<anyhow::Result<()>>,
}

/// Table settings for tests: bots move at once.
pub fn fast_tables() -> TableConfig {
    // A turn limit's "second" lasts 100 ms here, so a 10-second limit (the shortest) runs out in 1 s.
    TableConfig {
        bot_delay: Duration::from_millis(0),
        idle_finished: Duration::from_secs(60),
        turn_second: Duration::from_millis(100),
    }
}

/// The configuration of a test server on `db` (standard catalog, fast tables, generous limits).
pub fn config(db: &TestDb) -> ServerConfig {
    ServerConfig {
        database_url: db.url.clone(),
        web_dir: "web".into(),
        tables: fast_tables(),
        socket_queue: chapterhouse::outbox::DEFAULT_CAPACITY,
        socket_send_buffer: None,
        catalog: Arc::new(Catalog::standard()),
        limits: generous_limits(),
        trust_forwarded_for: false,
        nats_url: None,
    }
}

/// Limits no ordinary test reaches (every test client shares one address); the limit tests set
/// their own.
pub fn generous_limits() -> LimitsConfig {
    let plenty = Rate::new(1_000_000, Duration::from_secs(1));
    LimitsConfig {
        sign_in: plenty,
        new_accounts: plenty,
        new_lobbies: plenty,
        socket_messages: plenty,
        account_messages: plenty,
        chat: plenty,
        sockets_per_ip: 10_000,
        sockets_total: 10_000,
        // Every test client is on 127.0.0.1: the per-address limits are tested as if it were not.
        exempt_loopback: false,
        ..LimitsConfig::default()
    }
}

impl TestServer {
    /// Starts a server on 127.0.0.1:0 against `db`.
    pub async fn start(db: &TestDb) -> TestServer {
        TestServer::start_with(db, fast_tables()).await
    }

    /// Starts a server with table settings.
    pub async fn start_with(db: &TestDb, tables: TableConfig) -> TestServer {
        TestServer::start_config(ServerConfig { tables, ..config(db) }).await
    }

    /// Starts a server hosting the games of `catalog`.
    pub async fn start_with_catalog(db: &TestDb, catalog: Arc<Catalog>) -> TestServer {
        TestServer::start_config(ServerConfig { catalog, ..config(db) }).await
    }

    /// Starts a server with `config`.
    pub async fn start_config(config: ServerConfig) -> TestServer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(serve(listener, config, async move {
            let _ = stopped.await;
        }));
        let server = TestServer { addr, stop: Some(stop), task };
        server.wait_healthy().await;
        server
    }

    async fn wait_healthy(&self) {
        let client = reqwest::Client::new();
        for _ in 0..200 {
            if let Ok(r) = client.get(format!("http://{}/healthz", self.addr)).send().await {
                if r.status().is_success() {
                    return;
                }
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("the server did not become healthy");
    }

    /// Starts a graceful shutdown (as SIGTERM does) without waiting for it; `stop` then waits.
    pub fn signal_stop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }

    /// Whether the server has stopped taking new connections (its listener is closed).
    pub async fn refuses_connections(&self) -> bool {
        TcpStream::connect(self.addr).await.is_err()
    }

    /// Shuts the server down gracefully and waits for it.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let result = tokio::time::timeout(Duration::from_secs(20), self.task).await;
        result.expect("server stops in time").expect("server task").expect("server ran without error");
    }

    /// An HTTP client for this server.
    pub fn http(&self) -> Http {
        Http { base: format!("http://{}", self.addr), client: reqwest::Client::new(), token: None }
    }
}

/// A small HTTP client speaking the API.
#[derive(Clone)]
pub struct Http {
    /// `http://addr`.
    pub base: String,
    client: reqwest::Client,
    /// The bearer token, once signed in.
    pub token: Option<String>,
}

impl Http {
    /// A client for `base` (e.g. `http://127.0.0.1:8080`), not signed in.
    pub fn new(base: String) -> Http {
        Http { base, client: reqwest::Client::new(), token: None }
    }

    /// Sends a request; returns the status and the JSON body (null if none).
    pub async fn call(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
        let mut request = self.client.request(method, format!("{}{}", self.base, path));
        if let Some(token) = &self.token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("http request");
        let status = response.status().as_u16();
        let text = response.text().await.expect("body");
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// POST expecting success.
    pub async fn post(&self, path: &str, body: Value) -> Value {
        let (status, value) = self.call("POST", path, Some(body)).await;
        assert!((200..300).contains(&status), "POST {path} failed with {status}: {value}");
        value
    }

    /// GET expecting success.
    pub async fn get(&self, path: &str) -> Value {
        let (status, value) = self.call("GET", path, None).await;
        assert!((200..300).contains(&status), "GET {path} failed with {status}: {value}");
        value
    }

    /// A new guest; returns a client signed in as them and their account id.
    pub async fn guest(&self, name: &str) -> (Http, String) {
        let session = self.post("/api/guest", json!({"name": name})).await;
        let mut signed = self.clone();
        signed.token = Some(session["token"].as_str().expect("token").to_string());
        (signed, session["account"]["id"].as_str().expect("id").to_string())
    }
}

/// The error code of an HTTP error body.
pub fn code(body: &Value) -> &str {
    body["error"]["code"].as_str().unwrap_or("")
}

/// The upgrade request of a socket to `addr`: the token, if any, travels as a subprotocol, as the
/// web client sends it (docs/protocol.md).
pub fn ws_request(addr: SocketAddr, token: Option<&str>) -> tokio_tungstenite::tungstenite::handshake::client::Request {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = format!("ws://{addr}/ws").into_client_request().expect("ws request");
    let protocols = match token {
        Some(t) => format!("chapterhouse, chapterhouse.token.{t}"),
        None => "chapterhouse".to_string(),
    };
    request.headers_mut().insert("sec-websocket-protocol", protocols.parse().expect("header value"));
    request
}

/// A WebSocket client.
pub struct Ws {
    stream: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Ws {
    /// Connects (with a token if given) and reads the welcome.
    pub async fn connect(addr: SocketAddr, token: Option<&str>) -> Ws {
        let (stream, _) = tokio_tungstenite::connect_async(ws_request(addr, token)).await.expect("ws connect");
        let mut ws = Ws { stream };
        let welcome = ws.recv().await;
        assert_eq!(welcome["type"], "welcome", "first message is the welcome: {welcome}");
        ws
    }

    /// Connects and reads the welcome; `None` if the server cannot be reached (it is down, or
    /// going down).
    pub async fn try_connect(addr: SocketAddr, token: Option<&str>) -> Option<Ws> {
        let (stream, _) = tokio_tungstenite::connect_async(ws_request(addr, token)).await.ok()?;
        let mut ws = Ws { stream };
        let welcome = ws.try_recv(Duration::from_secs(10)).await?;
        (welcome["type"] == "welcome").then_some(ws)
    }

    /// Connects without reading anything.
    pub async fn connect_raw(addr: SocketAddr, token: Option<&str>) -> Ws {
        let (stream, _) = tokio_tungstenite::connect_async(ws_request(addr, token)).await.expect("ws connect");
        Ws { stream }
    }

    /// Connects with a small TCP receive buffer (so that a client that does not read soon stops
    /// the server's writes) and reads the welcome.
    pub async fn connect_small_buffer(addr: SocketAddr, token: Option<&str>) -> Ws {
        let url = ws_request(addr, token);
        let socket = tokio::net::TcpSocket::new_v4().expect("tcp socket");
        socket.set_recv_buffer_size(4096).expect("receive buffer size");
        let tcp = socket.connect(addr).await.expect("tcp connect");
        let (stream, _) = tokio_tungstenite::client_async(url, MaybeTlsStream::Plain(tcp)).await.expect("ws handshake");
        let mut ws = Ws { stream };
        let welcome = ws.recv().await;
        assert_eq!(welcome["type"], "welcome", "first message is the welcome: {welcome}");
        ws
    }

    /// Sends a JSON message, giving up after `wait`; false if it could not be sent.
    pub async fn try_send(&mut self, msg: Value, wait: Duration) -> bool {
        matches!(tokio::time::timeout(wait, self.stream.send(Message::text(msg.to_string()))).await, Ok(Ok(())))
    }

    /// Every message until the socket closes, and the close frame's code and reason (`None` if the
    /// stream ends without one, or nothing comes for 10 s).
    pub async fn until_close(&mut self) -> (Vec<Value>, Option<(u16, String)>) {
        let mut messages = Vec::new();
        loop {
            let Ok(Some(frame)) = tokio::time::timeout(Duration::from_secs(10), self.stream.next()).await else {
                return (messages, None);
            };
            match frame {
                Ok(Message::Text(text)) => {
                    messages.push(serde_json::from_str(text.as_str()).expect("json from server"))
                }
                Ok(Message::Close(frame)) => {
                    return (messages, frame.map(|f| (u16::from(f.code), f.reason.to_string())));
                }
                Ok(_) => continue,
                Err(_) => return (messages, None),
            }
        }
    }

    /// True when nothing at all (no message, no close frame, no end of stream) arrives for `wait`.
    pub async fn quiet_for(&mut self, wait: Duration) -> bool {
        tokio::time::timeout(wait, self.stream.next()).await.is_err()
    }

    /// Sends a JSON message.
    pub async fn send(&mut self, msg: Value) {
        self.send_text(msg.to_string()).await;
    }

    /// Sends a raw text frame.
    pub async fn send_text(&mut self, text: String) {
        self.stream.send(Message::text(text)).await.expect("ws send");
    }

    /// The next message (JSON), failing after 10 s.
    pub async fn recv(&mut self) -> Value {
        self.try_recv(Duration::from_secs(10)).await.expect("a message within 10 s")
    }

    /// The next message, or `None` on timeout or close.
    pub async fn try_recv(&mut self, wait: Duration) -> Option<Value> {
        loop {
            let frame = tokio::time::timeout(wait, self.stream.next()).await.ok()??;
            match frame {
                Ok(Message::Text(text)) => return Some(serde_json::from_str(text.as_str()).expect("json from server")),
                Ok(Message::Close(_)) | Err(_) => return None,
                Ok(_) => continue,
            }
        }
    }

    /// The next close frame's code, skipping messages (None if the stream ends without one).
    pub async fn close_code(&mut self) -> Option<u16> {
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(10), self.stream.next()).await.ok()??;
            match frame {
                Ok(Message::Close(frame)) => return frame.map(|f| u16::from(f.code)),
                Ok(_) => continue,
                Err(_) => return None,
            }
        }
    }

    /// Reads until a message satisfies `pred`, returning it (and failing after 10 s).
    pub async fn recv_until(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let msg = self.recv().await;
            if pred(&msg) {
                return msg;
            }
        }
    }
}
