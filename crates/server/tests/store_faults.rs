//! Store faults, through a TCP proxy in front of PostgreSQL: a commit whose reply is lost, an
//! outage, and a stopped database. (PostgreSQL only: the proxy speaks to a server; skipped without `DATABASE_URL`.)
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use chapterhouse::serve::ServerConfig;
use common::{generous_limits, Http, TestDb, TestServer, Ws};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// A simple-protocol `Query("COMMIT")` message as PostgreSQL's wire protocol frames it.
const COMMIT: &[u8] = b"Q\0\0\0\x0bCOMMIT\0";

/// The writer's statement for a batch of actions with nothing else in it, which commits on its
/// own (no COMMIT follows it). Its text is on the wire the first time a connection prepares it.
const INSERT_ACTIONS: &[u8] = b"insert into actions";

/// A TCP proxy to PostgreSQL that can lose the reply to the next commit (a COMMIT, or an action
/// insert that commits on its own: the database commits; the client never hears so), take and
/// drop every connection (an outage behind a live address), or stop listening and cut every
/// open connection (a stopped database: a new connection is refused).
#[derive(Clone)]
struct Proxy {
    lose_next_commit_reply: Arc<AtomicBool>,
    down: Arc<AtomicBool>,
    refusing: Arc<watch::Sender<bool>>,
}

impl Proxy {
    async fn start(upstream: SocketAddr) -> (Proxy, SocketAddr) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let proxy = Proxy {
            lose_next_commit_reply: Arc::default(),
            down: Arc::default(),
            refusing: Arc::new(watch::channel(false).0),
        };
        let p = proxy.clone();
        tokio::spawn(async move {
            let mut refusing = p.refusing.subscribe();
            let mut first = Some(listener);
            loop {
                let listener = match first.take() {
                    Some(listener) => listener,
                    None => TcpListener::bind(addr).await.unwrap(),
                };
                loop {
                    let client = tokio::select! {
                        accepted = listener.accept() => match accepted {
                            Ok((client, _)) => client,
                            Err(_) => continue,
                        },
                        _ = refusing.wait_for(|r| *r) => break,
                    };
                    if p.down.load(Ordering::SeqCst) {
                        drop(client);
                        continue;
                    }
                    let Ok(server) = TcpStream::connect(upstream).await else { continue };
                    tokio::spawn(p.clone().pipe(client, server));
                }
                // Nothing listens on the port until the database is back.
                drop(listener);
                let _ = refusing.wait_for(|r| !*r).await;
            }
        });
        (proxy, addr)
    }

    async fn pipe(self, client: TcpStream, server: TcpStream) {
        let (mut client_read, mut client_write) = client.into_split();
        let (mut server_read, mut server_write) = server.into_split();
        let commit_sent = Arc::new(AtomicBool::new(false));
        let (sent, proxy) = (commit_sent.clone(), self.clone());
        let upstream = async move {
            let mut buf = vec![0u8; 64 * 1024];
            loop {
                let n = match client_read.read(&mut buf).await {
                    Ok(0) | Err(_) => return,
                    Ok(n) => n,
                };
                let has = |what: &[u8]| buf[..n].windows(what.len()).any(|w| w == what);
                let is_commit = has(COMMIT) || has(INSERT_ACTIONS);
                if is_commit && proxy.lose_next_commit_reply.swap(false, Ordering::SeqCst) {
                    sent.store(true, Ordering::SeqCst);
                }
                if server_write.write_all(&buf[..n]).await.is_err() || proxy.down.load(Ordering::SeqCst) {
                    return;
                }
            }
        };
        let down = self.down.clone();
        let downstream = async move {
            let mut buf = vec![0u8; 64 * 1024];
            loop {
                let n = match server_read.read(&mut buf).await {
                    Ok(0) | Err(_) => return,
                    Ok(n) => n,
                };
                // The database answered the commit: drop the answer and the connection.
                if commit_sent.load(Ordering::SeqCst) || down.load(Ordering::SeqCst) {
                    return;
                }
                if client_write.write_all(&buf[..n]).await.is_err() {
                    return;
                }
            }
        };
        // Whichever side ends first ends both: dropping the halves closes the sockets. A
        // stopped database closes them all.
        let mut refusing = self.refusing.subscribe();
        tokio::select! {
            _ = upstream => {}
            _ = downstream => {}
            _ = refusing.wait_for(|r| *r) => {}
        }
    }
}

/// The address in a `postgres://user@host:port/db` URL, and the URL with another address.
fn via(url: &str, proxy: SocketAddr) -> (SocketAddr, String) {
    let start = url.find('@').unwrap() + 1;
    let end = start + url[start..].find('/').unwrap();
    let upstream = url[start..end].parse().unwrap();
    (upstream, format!("{}{proxy}{}", &url[..start], &url[end..]))
}

async fn server_behind(db: &TestDb) -> (Proxy, TestServer) {
    let (upstream, _) = via(&db.url, "127.0.0.1:1".parse().unwrap());
    let (proxy, addr) = Proxy::start(upstream).await;
    let (_, url) = via(&db.url, addr);
    let server = TestServer::start_config(ServerConfig {
        database_url: url,
        web_dir: "web".into(),
        tables: common::fast_tables(),
        socket_queue: chapterhouse::outbox::DEFAULT_CAPACITY,
        socket_send_buffer: None,
        catalog: Arc::new(chapterhouse::catalog::Catalog::standard()),
        limits: generous_limits(),
        trust_forwarded_for: false,
        nats_url: None,
    })
    .await;
    (proxy, server)
}

/// Ana and Ben at a started two-player game, each with a subscribed socket: (game, sockets by seat).
async fn two_players(http: &Http, addr: SocketAddr) -> (String, Vec<Ws>) {
    let (ana, _) = http.guest("Ana").await;
    let (ben, _) = http.guest("Ben").await;
    let created = ana.post("/api/lobbies", json!({"game": "knights-templar", "public": true})).await;
    let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
    ben.post(&format!("/api/lobbies/{lobby}/join"), json!({})).await;
    ben.post(&format!("/api/lobbies/{lobby}/seat"), json!({"seat": 1})).await;
    let game = ana.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await["game"].as_str().unwrap().to_string();
    let mut sockets = Vec::new();
    for p in [&ana, &ben] {
        let mut ws = Ws::connect(addr, p.token.as_deref()).await;
        ws.send(json!({"type": "subscribe", "game": game})).await;
        assert_eq!(ws.recv().await["type"], "snapshot");
        sockets.push(ws);
    }
    (game, sockets)
}

/// The seat to act now, its first legal action, and the version (from a fresh snapshot).
async fn next_move(sockets: &mut [Ws], game: &str) -> (usize, Value, u64) {
    sockets[0].send(json!({"type": "subscribe", "game": game})).await;
    let snap = sockets[0].recv_until(|m| m["type"] == "snapshot").await;
    let seat = snap["to_act"][0].as_u64().unwrap() as usize;
    sockets[seat].send(json!({"type": "subscribe", "game": game})).await;
    let snap = sockets[seat].recv_until(|m| m["type"] == "snapshot").await;
    (seat, snap["legal_actions"][0].clone(), snap["version"].as_u64().unwrap())
}

/// Sends `action` again every 200 ms (reqs from `first_req` on) while the answer is
/// `server/unavailable`, for at most 80 tries; the last answer.
async fn until_taken(ws: &mut Ws, game: &str, version: u64, action: &Value, first_req: u64) -> Value {
    let mut answer = Value::Null;
    for req in first_req..first_req + 80 {
        ws.send(json!({"type": "action", "game": game, "version": version, "action": action, "req": req})).await;
        answer = ws.recv_until(|m| m["req"] == req).await;
        if answer["type"] == "ack" {
            break;
        }
        assert_eq!(answer["code"], "server/unavailable", "{answer}");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    answer
}

#[tokio::test]
async fn an_action_whose_commit_reply_is_lost_is_acknowledged_broadcast_and_the_game_goes_on() {
    let Some(db) = TestDb::postgres().await else { return };
    let (proxy, server) = server_behind(&db).await;
    let (game, mut sockets) = two_players(&server.http(), server.addr).await;

    let (seat, action, version) = next_move(&mut sockets, &game).await;
    proxy.lose_next_commit_reply.store(true, Ordering::SeqCst);
    sockets[seat].send(json!({"type": "action", "game": game, "version": version, "action": action, "req": 1})).await;
    let answer = sockets[seat].recv_until(|m| m["req"] == 1).await;
    assert_eq!((answer["type"].as_str(), answer["version"].as_u64()), (Some("ack"), Some(version + 1)), "{answer}");
    assert!(!proxy.lose_next_commit_reply.load(Ordering::SeqCst), "a commit's reply was lost on the way");
    let other = 1 - seat;
    let patch = sockets[other].recv_until(|m| m["type"] == "patch").await;
    assert_eq!(patch["version"].as_u64(), Some(version + 1), "the other player hears of it");

    for req in 2..5 {
        let (seat, action, version) = next_move(&mut sockets, &game).await;
        sockets[seat]
            .send(json!({"type": "action", "game": game, "version": version, "action": action, "req": req}))
            .await;
        let answer = sockets[seat].recv_until(|m| m["req"] == req).await;
        assert_eq!(answer["type"], "ack", "later actions are taken too: {answer}");
    }
    server.stop().await;
    db.cleanup().await;
}

#[tokio::test]
async fn during_an_outage_actions_fail_fast_with_server_unavailable_and_the_store_recovers_by_itself() {
    let Some(db) = TestDb::postgres().await else { return };
    let (proxy, server) = server_behind(&db).await;
    let (game, mut sockets) = two_players(&server.http(), server.addr).await;

    let (seat, action, version) = next_move(&mut sockets, &game).await;
    proxy.down.store(true, Ordering::SeqCst);
    let mut codes = Vec::new();
    for req in 10..13 {
        sockets[seat]
            .send(json!({"type": "action", "game": game, "version": version, "action": action, "req": req}))
            .await;
        let answer = sockets[seat].recv_until(|m| m["req"] == req).await;
        codes.push(answer["code"].as_str().unwrap_or("").to_string());
    }
    assert!(codes.iter().all(|c| c == "server/unavailable"), "{codes:?}");

    proxy.down.store(false, Ordering::SeqCst);
    let answer = until_taken(&mut sockets[seat], &game, version, &action, 20).await;
    assert_eq!(answer["type"], "ack", "the store came back and the action was taken: {answer}");
    server.stop().await;
    db.cleanup().await;
}

#[tokio::test]
async fn when_the_database_stops_the_first_action_is_refused_without_waiting_out_the_pool() {
    let Some(db) = TestDb::postgres().await else { return };
    let (proxy, server) = server_behind(&db).await;
    let (game, mut sockets) = two_players(&server.http(), server.addr).await;

    // First the store writer has no connection yet; the second time, it holds one that breaks.
    for round in 0..2_u64 {
        // What the table sent while the store was away (a fresh snapshot once it was back) is
        // read first, so that the move is found in a snapshot of now.
        for ws in &mut sockets {
            while ws.try_recv(std::time::Duration::from_millis(300)).await.is_some() {}
        }
        let (seat, action, version) = next_move(&mut sockets, &game).await;
        // Connections are now refused. The pool retries a refused connection until its own
        // timeout (10 s, as long as the test socket waits for a message): the writer must not.
        proxy.refusing.send_replace(true);
        // Past the second within which the pool hands out a connection without testing it.
        tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
        for req in 10..12 {
            let req = 100 * round + req;
            sockets[seat]
                .send(json!({"type": "action", "game": game, "version": version, "action": action, "req": req}))
                .await;
            let answer = sockets[seat].recv_until(|m| m["req"] == req).await;
            assert_eq!(answer["code"], "server/unavailable", "round {round}: {answer}");
        }

        proxy.refusing.send_replace(false);
        let answer = until_taken(&mut sockets[seat], &game, version, &action, 100 * round + 20).await;
        assert_eq!(answer["type"], "ack", "round {round}: the database is back and the action was taken: {answer}");
    }
    server.stop().await;
    db.cleanup().await;
}
