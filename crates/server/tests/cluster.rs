//! Cluster mode: three nodes (processes of the real binary) over one PostgreSQL, joined by a real
//! `nats-server`. Players on different nodes play one game and a spectator watches from a third;
//! a SIGKILLed owner's games go on elsewhere; every finished log verifies.
//!
//! Needs `nats-server` (Debian package `nats-server`, which `scripts/test` installs) and
//! PostgreSQL (`scripts/with-postgres`); without either the test says so and passes, except under
//! `CI=true`, where that is a failure.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use chapterhouse::catalog::Catalog;
use common::play::Seen;
use common::{Http, TestDb, Ws};
use game_core::{GameLog, GameRng};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const GAME: &str = "knights-templar";

fn free_addr() -> SocketAddr {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap()
}

/// A `nats-server` on a free loopback port, killed when dropped.
struct Nats {
    child: Child,
    url: String,
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
                return Some(Nats { child, url: format!("nats://{addr}") });
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
struct Node {
    child: Child,
    addr: SocketAddr,
}

impl Node {
    async fn start(db: &TestDb, nats: &Nats, log: &std::path::Path) -> Node {
        let addr = free_addr();
        let log = std::fs::OpenOptions::new().create(true).append(true).open(log).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_chapterhouse"))
            .args(["serve", "--bind", &addr.to_string(), "--database-url", &db.url, "--nats-url", &nats.url])
            .args(["--bot-delay-ms", "5", "--no-limits"])
            .env("RUST_LOG", "info")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("start the chapterhouse binary");
        let node = Node { child, addr };
        let client = reqwest::Client::new();
        for _ in 0..400 {
            if let Ok(r) = client.get(format!("http://{addr}/healthz")).send().await {
                if r.status().is_success() {
                    return node;
                }
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("the node did not come up");
    }

    fn http(&self) -> Http {
        Http::new(format!("http://{}", self.addr))
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Prints the nodes' log when the test fails (the temporary directory goes with the test).
struct ShowLogOnFailure(std::path::PathBuf);

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

/// NATS and PostgreSQL, or `None` when this run has either missing (see the module header).
async fn cluster_prerequisites() -> Option<(Nats, TestDb)> {
    let nats = Nats::start().await?;
    let db = TestDb::postgres().await?;
    Some((nats, db))
}

/// One player: their client (signed in on some node) and the node their socket uses.
struct Player {
    http: Http,
    node: SocketAddr,
}

/// Subscribes, retrying while the game has no reachable owner (a failover in progress).
async fn subscribe(addr: SocketAddr, token: Option<&str>, game: &str) -> Seen {
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
async fn drain(seen: &mut Seen, wait: Duration) {
    while let Some(msg) = seen.ws.try_recv(wait).await {
        seen.absorb(msg);
    }
}

/// Plays the people's seats (random legal actions) until the game ends; bots play themselves.
/// Every acknowledged action is appended to `acked`. A refused action (the owner died in
/// between) is retried on fresh subscriptions. Returns the players' final views.
async fn play_to_end(game: &str, players: &[Player], rng: &mut GameRng, acked: &mut Vec<Value>) -> Vec<Seen> {
    play_to_end_timed(game, players, rng, acked, &mut None).await
}

/// [`play_to_end`], noting when the first action was acknowledged.
async fn play_to_end_timed(
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
async fn check_log(http: &Http, game: &str, people_seats: &[u8], acked: &[Value], dir: &std::path::Path) {
    let log: GameLog = serde_json::from_value(http.get(&format!("/api/games/{game}/log")).await).unwrap();
    log.replay(Catalog::standard().get(GAME).unwrap()).expect("the log verifies");
    let people: Vec<&Value> =
        log.actions.iter().filter(|e| people_seats.contains(&e.seat.0)).map(|e| &e.action).collect();
    let mut it = people.iter();
    for action in acked {
        assert!(it.any(|a| *a == action), "acknowledged action {action} is in the log");
    }
    let file = dir.join(format!("{game}.json"));
    std::fs::write(&file, serde_json::to_vec(&log).unwrap()).unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_chapterhouse"))
        .args(["verify", file.to_str().unwrap()])
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "chapterhouse verify accepts the log");
}

/// A public lobby created by Ana on `host`, Ben joining and seated through `other`: the lobby's
/// follower on `other` sees Ana's start. Returns the game id.
async fn two_player_game(ana: &Http, ben: &Http, ben_node: SocketAddr) -> String {
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

#[tokio::test]
async fn players_on_two_nodes_and_a_spectator_on_a_third_play_a_game_that_verifies() {
    let Some((nats, db)) = cluster_prerequisites().await else { return };
    let dir = tempfile::tempdir().unwrap();
    let log_file = dir.path().join("nodes.log");
    let _show = ShowLogOnFailure(log_file.clone());
    let nodes = [
        Node::start(&db, &nats, &log_file).await,
        Node::start(&db, &nats, &log_file).await,
        Node::start(&db, &nats, &log_file).await,
    ];
    let (ana, _) = nodes[0].http().guest("Ana").await;
    let (ben, _) = nodes[1].http().guest("Ben").await;
    let game = two_player_game(&ana, &ben, nodes[1].addr).await;

    let mut spectator = subscribe(nodes[2].addr, None, &game).await;
    let players =
        [Player { http: ana.clone(), node: nodes[0].addr }, Player { http: ben.clone(), node: nodes[1].addr }];
    let mut acked = Vec::new();
    let seen = play_to_end(&game, &players, &mut GameRng::from_u64(7), &mut acked).await;
    let last = seen[0].version;
    spectator.catch_up(last).await;
    assert!(spectator.outcome.is_some(), "the spectator on the third node saw the end");

    // Each remote viewer's view, patch by patch, is exactly what its own fresh snapshot shows.
    for (p, s) in players.iter().zip(&seen) {
        for node in &nodes {
            let fresh = subscribe(node.addr, p.http.token.as_deref(), &game).await;
            assert_eq!(fresh.view, s.view, "a seat's view is the same from every node");
        }
    }
    let fresh = subscribe(nodes[0].addr, None, &game).await;
    assert_eq!(fresh.view, spectator.view, "the spectator's patched view is the spectators' view");
    check_log(&ben, &game, &[0, 1], &acked, dir.path()).await;

    // The game's chat reaches its followers on every node: Ana writes on node 0; Ben on node 1 and a
    // spectator on node 2 read it (and so does Ana).
    let mut chat = Vec::new();
    for (node, token) in
        [(nodes[0].addr, ana.token.as_deref()), (nodes[1].addr, ben.token.as_deref()), (nodes[2].addr, None)]
    {
        let mut ws = Ws::connect(node, token).await;
        ws.send(json!({"type": "subscribe", "game": game})).await;
        let first = ws.recv_until(|m| m["type"] == "snapshot" || m["type"] == "error").await;
        assert_eq!(first["type"], "snapshot", "{first}");
        // The pong comes after the chat follow is set up (messages are handled in order).
        ws.send(json!({"type": "ping", "req": 50})).await;
        ws.recv_until(|m| m["type"] == "pong").await;
        chat.push(ws);
    }
    chat[0].send(json!({"type": "chat", "game": game, "text": "good game", "req": 51})).await;
    for (i, ws) in chat.iter_mut().enumerate() {
        let msg = ws.recv_until(|m| m["type"] == "chat" || m["type"] == "error").await;
        assert_eq!((msg["type"].as_str(), msg["text"].as_str()), (Some("chat"), Some("good game")), "node {i}: {msg}");
        assert_eq!(msg["from"]["name"], "Ana", "node {i}: {msg}");
    }

    // A sign-out on one node closes the account's socket on another.
    let mut ben_socket = Ws::connect(nodes[2].addr, ben.token.as_deref()).await;
    ben.post("/api/logout", json!({})).await;
    let (_, close) = ben_socket.until_close().await;
    assert_eq!(close.map(|c| c.0), Some(4401), "the revoked token's socket on another node closes");
    db.cleanup().await;
}

#[tokio::test]
async fn a_sigkilled_owner_s_games_go_on_elsewhere_and_every_acknowledged_action_is_kept() {
    let Some((nats, db)) = cluster_prerequisites().await else { return };
    let dir = tempfile::tempdir().unwrap();
    let log_file = dir.path().join("nodes.log");
    let _show = ShowLogOnFailure(log_file.clone());
    let mut nodes = [
        Node::start(&db, &nats, &log_file).await,
        Node::start(&db, &nats, &log_file).await,
        Node::start(&db, &nats, &log_file).await,
    ];
    let mut rng = GameRng::from_u64(11);
    // Both games start on node 0, which owns them; their players play through nodes 1 and 2.
    let (ana, _) = nodes[0].http().guest("Ana").await;
    let (ben, _) = nodes[0].http().guest("Ben").await;
    let people = two_player_game(&ana, &ben, nodes[2].addr).await;
    let (cy, _) = nodes[0].http().guest("Cy").await;
    let created = cy.post("/api/lobbies", json!({"game": GAME, "public": true, "turn_seconds": 10})).await;
    let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
    cy.post(&format!("/api/lobbies/{lobby}/bots"), json!({"seat": 1})).await;
    let against_bot =
        cy.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await["game"].as_str().unwrap().to_string();

    let people_players =
        [Player { http: ana.clone(), node: nodes[1].addr }, Player { http: ben.clone(), node: nodes[2].addr }];
    let bot_players = [Player { http: cy.clone(), node: nodes[1].addr }];
    // A few actions through the owner, from other nodes.
    let (mut acked_people, mut acked_bot) = (Vec::new(), Vec::new());
    {
        let mut seen = Vec::new();
        for p in &people_players {
            seen.push(subscribe(p.node, p.http.token.as_deref(), &people).await);
        }
        for _ in 0..4 {
            let i = seen.iter().position(Seen::to_move).expect("a person is to move");
            let action = rng.choose(&seen[i].legal).unwrap().clone();
            let version = seen[i].version;
            let v = seen[i].act(action.clone(), version).await.expect("accepted through a non-owner node");
            acked_people.push(action);
            for s in seen.iter_mut() {
                s.catch_up(v).await;
            }
        }
    }

    let killed = Instant::now();
    nodes[0].child.kill().expect("SIGKILL");
    nodes[0].child.wait().unwrap();

    // The surviving nodes take the games over; players keep playing through them, and the bot
    // (played by whichever node owns its game now) answers every move of Cy's to the end.
    let acked_before_kill = acked_people.len();
    let mut first_ack = None;
    let seen = play_to_end_timed(&people, &people_players, &mut rng, &mut acked_people, &mut first_ack).await;
    assert!(acked_people.len() > acked_before_kill, "actions were accepted after the kill");
    if let Some(at) = first_ack {
        eprintln!("failover: first action accepted {:?} after the owner was killed", at - killed);
    }
    assert!(seen.iter().all(|s| s.outcome.is_some()));
    let seen = play_to_end(&against_bot, &bot_players, &mut rng, &mut acked_bot).await;
    assert!(seen[0].outcome.is_some(), "the game against a bot ended: its bot kept playing after the kill");
    check_log(&nodes[1].http(), &people, &[0, 1], &acked_people, dir.path()).await;
    check_log(&nodes[2].http(), &against_bot, &[0], &acked_bot, dir.path()).await;
    let log = std::fs::read_to_string(&log_file).unwrap_or_default();
    // A surviving node took each game's lease with a new epoch (on demand or by its scan).
    assert_eq!(log.matches("epoch=2").count(), 2, "both games moved once");
    assert!(log.contains("epoch=2"), "a surviving node took the games over with a new epoch");
    db.cleanup().await;
}
