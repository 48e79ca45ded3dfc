//! Cluster-mode test support: a real `nats-server`, nodes as processes of the real binary, TCP
//! proxies that cut a node's link to PostgreSQL or NATS, and players that play a game to its
//! end through whichever nodes they are given (tests/cluster*.rs).
//!
//! Needs `nats-server` (Debian package `nats-server`, which `scripts/test` installs) and
//! PostgreSQL (`scripts/with-postgres`); without either a test says so and passes, except under
//! `CI=true`, where that is a failure.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

use super::play::Seen;
use super::{Http, TestDb, Ws};
use chapterhouse::catalog::Catalog;
use game_core::{GameLog, GameRng};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub const GAME: &str = "knights-templar";

pub fn free_addr() -> SocketAddr {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap()
}

/// A `nats-server` on a free loopback port, killed when dropped.
pub struct Nats {
    child: Child,
    /// `nats://127.0.0.1:port`.
    pub url: String,
    /// Its address.
    pub addr: SocketAddr,
}

impl Nats {
    /// `None` (with a note) when `nats-server` is not installed, except under `CI=true`.
    async fn start() -> Option<Nats> {
        let addr = free_addr();
        let child = match Command::new("nats-server")
            .args(["-a", "127.0.0.1", "-p", &addr.port().to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
        {
            Ok(child) => child,
            Err(e) => {
                if std::env::var("CI").as_deref() == Ok("true") {
                    panic!("CI=true but nats-server cannot be started ({e}): install the nats-server package");
                }
                eprintln!("nats-server cannot be started ({e}): skipping the cluster tests");
                return None;
            }
        };
        for _ in 0..200 {
            if tokio::net::TcpStream::connect(addr).await.is_ok() {
                return Some(Nats { child, url: format!("nats://{addr}"), addr });
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("nats-server did not come up");
    }
}

impl Drop for Nats {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One node: the real binary in cluster mode.
pub struct Node {
    /// The process.
    pub child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
}

impl Node {
    /// A node on `db` and `nats`, on a free port.
    pub async fn start(db: &TestDb, nats: &Nats, log: &std::path::Path) -> Node {
        Node::start_with(&db.url, &nats.url, free_addr(), log).await
    }

    /// A node with its own database and NATS URLs (through a [`Proxy`], say), listening on `addr`
    /// (a restarted node takes its predecessor's address).
    pub async fn start_with(db_url: &str, nats_url: &str, addr: SocketAddr, log: &std::path::Path) -> Node {
        let log = std::fs::OpenOptions::new().create(true).append(true).open(log).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_chapterhouse"))
            .args(["serve", "--bind", &addr.to_string(), "--database-url", db_url, "--nats-url", nats_url])
            .args(["--bot-delay-ms", "5", "--no-limits"])
            .env("RUST_LOG", "info")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("start the chapterhouse binary");
        let node = Node { child, addr };
        assert!(healthy_within(addr, Duration::from_secs(20)).await, "the node did not come up");
        node
    }

    /// A client of this node's HTTP API.
    pub fn http(&self) -> Http {
        Http::new(format!("http://{}", self.addr))
    }

    /// Stops the node gracefully (SIGTERM) and waits for the process to exit; true if it exited
    /// by itself with success.
    pub fn terminate(&mut self) -> bool {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status().is_ok_and(|s| s.success());
        sent && self.child.wait().is_ok_and(|s| s.success())
    }
}

/// Whether `/healthz` at `addr` answers 200 within `wait` (asked every 50 ms).
pub async fn healthy_within(addr: SocketAddr, wait: Duration) -> bool {
    let client = reqwest::Client::new();
    let until = Instant::now() + wait;
    while Instant::now() < until {
        if let Ok(r) = client.get(format!("http://{addr}/healthz")).send().await {
            if r.status().is_success() {
                return true;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Prints the nodes' log when the test fails (the temporary directory goes with the test).
pub struct ShowLogOnFailure(pub std::path::PathBuf);

impl Drop for ShowLogOnFailure {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let log = std::fs::read_to_string(&self.0).unwrap_or_default();
            let tail: Vec<&str> = log.lines().rev().take(80).collect();
            eprintln!("--- the nodes' log (last lines) ---");
            for line in tail.into_iter().rev() {
                eprintln!("{line}");
            }
        }
    }
}

/// What every cluster test starts from: NATS, a fresh PostgreSQL database, and the log file all
/// its nodes write to (in a temporary directory; printed if the test fails).
pub struct Cluster {
    // Declared in drop order: the log is printed before its directory goes.
    _show: ShowLogOnFailure,
    pub log: std::path::PathBuf,
    pub dir: tempfile::TempDir,
    pub db: TestDb,
    pub nats: Nats,
}

impl Cluster {
    /// `None` when this run has NATS or PostgreSQL missing (see the module header).
    pub async fn new() -> Option<Cluster> {
        let (nats, db) = cluster_prerequisites().await?;
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("nodes.log");
        Some(Cluster { _show: ShowLogOnFailure(log.clone()), log, dir, db, nats })
    }

    /// A node on the cluster's PostgreSQL and NATS.
    pub async fn node(&self) -> Node {
        Node::start(&self.db, &self.nats, &self.log).await
    }

    /// `N` nodes, started one after the other.
    pub async fn nodes<const N: usize>(&self) -> [Node; N] {
        let mut nodes = Vec::with_capacity(N);
        for _ in 0..N {
            nodes.push(self.node().await);
        }
        nodes.try_into().unwrap_or_else(|_| unreachable!("N nodes were started"))
    }
}

/// NATS and PostgreSQL, or `None` when this run has either missing (see the module header).
pub async fn cluster_prerequisites() -> Option<(Nats, TestDb)> {
    let nats = Nats::start().await?;
    let db = TestDb::postgres().await?;
    Some((nats, db))
}

/// One player: their client (signed in on some node) and the node their socket uses.
pub struct Player {
    /// Their client, signed in.
    pub http: Http,
    /// The node their socket uses.
    pub node: SocketAddr,
}

/// Subscribes, retrying while the game has no reachable owner (a failover in progress).
pub async fn subscribe(addr: SocketAddr, token: Option<&str>, game: &str) -> Seen {
    for _ in 0..80 {
        let mut probe = Ws::connect(addr, token).await;
        probe.send(json!({"type": "subscribe", "game": game})).await;
        let first = probe.recv_until(|m| m["type"] == "snapshot" || m["type"] == "error").await;
        drop(probe);
        if first["type"] == "snapshot" {
            return Seen::subscribe(Ws::connect(addr, token).await, game, None).await;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    panic!("the game could not be subscribed to on {addr}");
}

/// Reads whatever `seen` receives for up to `wait`.
pub async fn drain(seen: &mut Seen, wait: Duration) {
    while let Some(msg) = seen.ws.try_recv(wait).await {
        seen.absorb(msg);
    }
}

/// Plays the people's seats (random legal actions) until the game ends; bots play themselves.
/// Every acknowledged action is appended to `acked`. A refused action (the owner died in
/// between) is retried on fresh subscriptions. Returns the players' final views.
pub async fn play_to_end(game: &str, players: &[Player], rng: &mut GameRng, acked: &mut Vec<Value>) -> Vec<Seen> {
    play_to_end_timed(game, players, rng, acked, &mut None).await
}

/// [`play_to_end`], noting when the first action was acknowledged.
pub async fn play_to_end_timed(
    game: &str,
    players: &[Player],
    rng: &mut GameRng,
    acked: &mut Vec<Value>,
    first_ack: &mut Option<Instant>,
) -> Vec<Seen> {
    let started = Instant::now();
    'resubscribe: loop {
        assert!(started.elapsed() < Duration::from_secs(60), "the game ends in time");
        let mut seen = Vec::new();
        for p in players {
            seen.push(subscribe(p.node, p.http.token.as_deref(), game).await);
        }
        loop {
            if seen.iter().all(|s| s.outcome.is_some()) {
                return seen;
            }
            let Some(i) = seen.iter().position(Seen::to_move) else {
                // A bot (or nobody reachable) is to move: listen.
                let before: Vec<u64> = seen.iter().map(|s| s.version).collect();
                for s in seen.iter_mut() {
                    drain(s, Duration::from_millis(100)).await;
                }
                if seen.iter().map(|s| s.version).collect::<Vec<_>>() == before && seen.iter().all(|s| !s.to_move()) {
                    assert!(started.elapsed() < Duration::from_secs(60), "the game goes on");
                    if seen.iter().any(|s| s.outcome.is_none()) && started.elapsed() > Duration::from_secs(2) {
                        // Nothing moves: the owner may be gone; look again.
                        tokio::time::sleep(Duration::from_millis(200)).await;
                        continue 'resubscribe;
                    }
                }
                continue;
            };
            let action = rng.choose(&seen[i].legal).unwrap().clone();
            let version = seen[i].version;
            match seen[i].act(action.clone(), version).await {
                Ok(v) => {
                    first_ack.get_or_insert_with(Instant::now);
                    acked.push(action);
                    for s in seen.iter_mut() {
                        while s.version < v {
                            let Some(msg) = s.ws.try_recv(Duration::from_secs(5)).await else {
                                continue 'resubscribe;
                            };
                            s.absorb(msg);
                        }
                    }
                }
                Err(e) => {
                    let code = e["code"].as_str().unwrap_or_default().to_string();
                    assert!(
                        ["server/unavailable", "server/shutting_down", "game/stale_version"].contains(&code.as_str()),
                        "only retryable refusals during a failover: {e}"
                    );
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    continue 'resubscribe;
                }
            }
        }
    }
}

/// The finished game's log: it replays, the CLI verifies it, and every acknowledged action of
/// the people is in it, in order.
pub async fn check_log(http: &Http, game: &str, people_seats: &[u8], acked: &[Value], dir: &std::path::Path) {
    let log: GameLog = serde_json::from_value(http.get(&format!("/api/games/{game}/log")).await).unwrap();
    log.replay(Catalog::standard().get(GAME).unwrap()).expect("the log verifies");
    let people: Vec<&Value> =
        log.actions.iter().filter(|e| people_seats.contains(&e.seat.0)).map(|e| &e.action).collect();
    let mut it = people.iter();
    for action in acked {
        assert!(it.any(|a| *a == action), "acknowledged action {action} is in the log");
    }
    cli_verifies(&log, &dir.join(format!("{game}.json")));
}

/// Writes `log` to `file` and asserts that `chapterhouse verify` (the binary) accepts it.
pub fn cli_verifies(log: &GameLog, file: &std::path::Path) {
    std::fs::write(file, serde_json::to_vec(log).unwrap()).unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_chapterhouse"))
        .args(["verify", file.to_str().unwrap()])
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "chapterhouse verify accepts the log");
}

/// A public lobby created by Ana on `host`, Ben joining and seated through `other`: the lobby's
/// follower on `other` sees Ana's start. Returns the game id.
pub async fn two_player_game(ana: &Http, ben: &Http, ben_node: SocketAddr) -> String {
    let created = ana.post("/api/lobbies", json!({"game": GAME, "public": true})).await;
    let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
    ben.post(&format!("/api/lobbies/{lobby}/join"), json!({})).await;
    let mut follower = Ws::connect(ben_node, ben.token.as_deref()).await;
    follower.send(json!({"type": "subscribe_lobby", "lobby": lobby})).await;
    let first = follower.recv_until(|m| m["type"] == "lobby").await;
    assert_eq!(first["lobby"]["members"].as_array().unwrap().len(), 2);
    ben.post(&format!("/api/lobbies/{lobby}/seat"), json!({"seat": 1})).await;
    let game = ana.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await["game"].as_str().unwrap().to_string();
    let started = follower.recv_until(|m| m["type"] == "lobby" && m["lobby"]["status"] == "started").await;
    assert_eq!(started["lobby"]["game_id"], game.as_str(), "a lobby change on one node reaches a follower on another");
    game
}

/// A TCP proxy on loopback in front of `upstream`, which a test can cut (every connection
/// dropped, new ones closed at once) and restore: a node given its address loses that link.
pub struct Proxy {
    /// Where the proxy listens.
    pub addr: SocketAddr,
    /// Whether it is cut, and the connections it carries (under one lock, so that none slips
    /// past a cut).
    links: Arc<Mutex<(bool, Vec<tokio::task::AbortHandle>)>>,
    accept: tokio::task::JoinHandle<()>,
}

impl Proxy {
    /// A proxy to `upstream`. Its tasks run on the test's runtime: use a multi-thread runtime, so
    /// that the test's own blocking waits do not stall the node's link.
    pub async fn start(upstream: SocketAddr) -> Proxy {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let links: Arc<Mutex<(bool, Vec<tokio::task::AbortHandle>)>> = Arc::default();
        let shared = Arc::clone(&links);
        let accept = tokio::spawn(async move {
            loop {
                let Ok((mut inbound, _)) = listener.accept().await else { continue };
                let mut links = shared.lock().unwrap();
                if links.0 {
                    continue; // cut: the connection closes as it is dropped
                }
                let link = tokio::spawn(async move {
                    let Ok(mut outbound) = tokio::net::TcpStream::connect(upstream).await else { return };
                    let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                });
                links.1.retain(|l| !l.is_finished());
                links.1.push(link.abort_handle());
            }
        });
        Proxy { addr, links, accept }
    }

    /// Drops every connection and closes new ones until [`Proxy::restore`].
    pub fn cut(&self) {
        let mut links = self.links.lock().unwrap();
        links.0 = true;
        for link in links.1.drain(..) {
            link.abort();
        }
    }

    /// Carries connections again.
    pub fn restore(&self) {
        self.links.lock().unwrap().0 = false;
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.cut();
        self.accept.abort();
    }
}

/// The `host:port` of a `scheme://user@host:port/...` URL.
pub fn url_addr(url: &str) -> SocketAddr {
    let rest = &url[url.find("://").unwrap() + 3..];
    let rest = &rest[rest.find('@').map_or(0, |i| i + 1)..];
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    rest[..end].parse().unwrap()
}

/// `url` with its `host:port` replaced by `addr`.
pub fn url_via(url: &str, addr: SocketAddr) -> String {
    url.replacen(&url_addr(url).to_string(), &addr.to_string(), 1)
}
