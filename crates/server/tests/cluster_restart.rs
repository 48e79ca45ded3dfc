//! Cluster mode: a rolling restart under load. Three nodes; games played without pause by
//! players spread over the nodes (each game's two players on two different nodes), who behave as
//! the web client does: they retry a refused action after resubscribing, reconnect to the next
//! node when their socket closes, and resubscribe with their last version. The nodes are restarted
//! one at a time (SIGTERM, wait for the exit, a new process on the same port, wait for /healthz)
//! while play goes on. Only documented retryable refusals are met, every acknowledged action is
//! in the stored log, every game ends, and every log verifies.
//!
//! Prerequisites and helpers: `common/cluster.rs`.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use common::cluster::*;
use common::play::Seen;
use common::Ws;
use game_core::GameRng;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Games played at once (one worker each, playing game after game until the restarts are over).
const WORKERS: usize = 3;

/// Acknowledged actions (over every game) between two restarts: play goes on through each one
/// (a few hundred actions are a second or two of play on a loaded 2-core machine).
const ACKS_BETWEEN: usize = 300;

/// What a refused action may carry while nodes restart (each documented as retryable in
/// docs/protocol.md): the node is stopping, the game is moving to another node, or the client's
/// view was behind (it missed patches while its owner moved, and resyncs).
const RETRYABLE: [&str; 3] = ["server/shutting_down", "server/unavailable", "game/stale_version"];

/// What one worker saw.
#[derive(Default)]
struct Report {
    /// Each game played, with the actions acknowledged to its players, in order.
    games: Vec<(String, Vec<Value>)>,
    /// The code of every refused action.
    refusals: Vec<String>,
    /// How many times a socket closed under a player (who then reconnected).
    reconnects: usize,
}

/// One player: their token, the node they use now (an index, moved on when a socket closes),
/// and their picture of the game (kept across sockets, to resume from its version).
struct Client {
    token: String,
    node: usize,
    seen: Option<Seen>,
    connected: bool,
}

/// POSTs on the first node that takes it, trying each in turn from `from` (a restarting node
/// refuses connections or answers 503; nothing was done then).
async fn post_any(addrs: &[SocketAddr], from: usize, token: &str, path: &str, body: Value) -> Value {
    let client = reqwest::Client::new();
    for attempt in 0..300 {
        let addr = addrs[(from + attempt) % addrs.len()];
        match client.post(format!("http://{addr}{path}")).bearer_auth(token).json(&body).send().await {
            Ok(r) if r.status().is_success() => return r.json().await.unwrap(),
            Ok(r) if r.status() == 503 => {}
            Ok(r) => panic!("POST {path} refused: {} {}", r.status(), r.text().await.unwrap_or_default()),
            Err(_) => {}
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no node took POST {path}");
}

/// Takes in one message; false if the player must resubscribe (a gap in versions, or an error
/// about the subscription: the game is moving).
fn take(seen: &mut Seen, msg: Value) -> bool {
    match msg["type"].as_str() {
        Some("patch") => {
            let version = msg["version"].as_u64().unwrap();
            if version <= seen.version {
                return true; // already seen (a copy from the game's previous owner)
            }
            if version > seen.version + 1 {
                return false;
            }
        }
        Some("error") if msg["req"].is_null() => return false,
        _ => {}
    }
    seen.absorb(msg);
    true
}

/// (Re)connects a player and subscribes, resuming from its last version if it has one; moves to
/// the next node while one does not answer.
async fn connect(c: &mut Client, game: &str, addrs: &[SocketAddr], report: &mut Report) {
    for _ in 0..300 {
        let addr = addrs[c.node % addrs.len()];
        if let Some(mut ws) = Ws::try_connect(addr, Some(&c.token)).await {
            let last = c.seen.as_ref().map(|s| s.version);
            let request = json!({"type": "subscribe", "game": game, "last_version": last});
            if ws.try_send(request, Duration::from_secs(5)).await {
                let mut seen = match c.seen.take() {
                    Some(mut seen) => {
                        seen.ws = ws;
                        seen
                    }
                    None => Seen::new(ws, game),
                };
                let mut ok = false;
                while let Some(msg) = seen.ws.try_recv(Duration::from_secs(10)).await {
                    let kind = msg["type"].as_str().unwrap_or_default().to_string();
                    if kind == "error" {
                        break; // no owner yet (the game is moving): again in a moment
                    }
                    if !take(&mut seen, msg) {
                        break;
                    }
                    if kind == "snapshot" || kind == "resumed" {
                        ok = true;
                        break;
                    }
                }
                let fresh = seen.version == 0 && seen.received.iter().all(|(k, _)| k != "snapshot");
                c.seen = if fresh { None } else { Some(seen) };
                if ok {
                    c.connected = true;
                    return;
                }
                // A resumed picture that could not be brought up to date starts over.
                c.seen = None;
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        }
        c.node += 1;
        report.reconnects += 1;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("player could not subscribe to {game} on any node");
}

/// The answer to an action.
enum Answer {
    Ack(u64),
    Refused(Value),
    Closed,
}

async fn try_act(seen: &mut Seen, action: Value, version: u64) -> Answer {
    let message = json!({"type": "action", "game": seen.game, "version": version, "action": action, "req": 7});
    if !seen.ws.try_send(message, Duration::from_secs(5)).await {
        return Answer::Closed;
    }
    loop {
        let Some(msg) = seen.ws.try_recv(Duration::from_secs(10)).await else { return Answer::Closed };
        let answer = msg["req"] == 7;
        match msg["type"].as_str() {
            Some("ack") if answer => {
                let v = msg["version"].as_u64().unwrap();
                seen.absorb(msg);
                return Answer::Ack(v);
            }
            Some("error") if answer => return Answer::Refused(msg),
            _ => {
                if !take(seen, msg) {
                    return Answer::Closed;
                }
            }
        }
    }
}

/// Plays `game` to its end (random legal actions); returns the acknowledged actions.
async fn play(
    game: &str,
    addrs: &[SocketAddr],
    clients: &mut [Client],
    rng: &mut GameRng,
    report: &mut Report,
    acks: &AtomicUsize,
) -> Vec<Value> {
    let started = Instant::now();
    let mut acked = Vec::new();
    let mut progress = Instant::now();
    loop {
        assert!(started.elapsed() < Duration::from_secs(150), "game {game} ends");
        for c in clients.iter_mut().filter(|c| !c.connected) {
            connect(c, game, addrs, report).await;
        }
        if clients.iter().all(|c| c.seen.as_ref().is_some_and(|s| s.outcome.is_some())) {
            return acked;
        }
        let Some(i) = clients.iter().position(|c| c.seen.as_ref().is_some_and(Seen::to_move)) else {
            // The other seat's patch is on its way, or a picture fell behind: listen, and after a
            // while with nothing new, resubscribe everyone.
            for c in clients.iter_mut() {
                let seen = c.seen.as_mut().unwrap();
                let before = seen.version;
                let keep = match seen.ws.try_recv(Duration::from_millis(200)).await {
                    Some(msg) => take(seen, msg),
                    None => progress.elapsed() <= Duration::from_secs(3),
                };
                if !keep {
                    c.connected = false;
                }
                if c.seen.as_ref().is_some_and(|s| s.version > before) {
                    progress = Instant::now();
                }
            }
            if progress.elapsed() > Duration::from_secs(3) {
                progress = Instant::now();
            }
            continue;
        };
        let seen = clients[i].seen.as_mut().unwrap();
        let action = rng.choose(&seen.legal).unwrap().clone();
        let version = seen.version;
        match try_act(seen, action.clone(), version).await {
            Answer::Ack(v) => {
                acked.push(action);
                acks.fetch_add(1, Ordering::SeqCst);
                progress = Instant::now();
                for c in clients.iter_mut() {
                    let seen = c.seen.as_mut().unwrap();
                    while c.connected && seen.version < v {
                        let taken = match seen.ws.try_recv(Duration::from_secs(5)).await {
                            Some(msg) => take(seen, msg),
                            None => false,
                        };
                        c.connected = taken;
                    }
                }
            }
            Answer::Refused(e) => {
                let code = e["code"].as_str().unwrap_or_default().to_string();
                assert!(RETRYABLE.contains(&code.as_str()), "only documented retryable refusals: {e}");
                report.refusals.push(code);
                clients[i].connected = false;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Answer::Closed => {
                clients[i].connected = false;
                clients[i].node += 1;
                report.reconnects += 1;
            }
        }
    }
}

/// Starts games (host on node `w`, guest on the next node) and plays them, one after another,
/// until `stop`; the game under way when it is set is played to its end.
async fn worker(
    w: usize,
    addrs: Vec<SocketAddr>,
    tokens: (String, String),
    stop: Arc<AtomicBool>,
    acks: Arc<AtomicUsize>,
) -> Report {
    let mut report = Report::default();
    let mut rng = GameRng::from_u64(100 + w as u64);
    let (host, guest) = tokens;
    while !stop.load(Ordering::SeqCst) {
        let created = post_any(&addrs, w, &host, "/api/lobbies", json!({"game": GAME, "public": true})).await;
        let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
        post_any(&addrs, w + 1, &guest, &format!("/api/lobbies/{lobby}/join"), json!({})).await;
        post_any(&addrs, w + 1, &guest, &format!("/api/lobbies/{lobby}/seat"), json!({"seat": 1})).await;
        let started = post_any(&addrs, w, &host, &format!("/api/lobbies/{lobby}/start"), json!({})).await;
        let game = started["game"].as_str().unwrap().to_string();
        let mut clients = [
            Client { token: host.clone(), node: w, seen: None, connected: false },
            Client { token: guest.clone(), node: w + 1, seen: None, connected: false },
        ];
        let acked = play(&game, &addrs, &mut clients, &mut rng, &mut report, &acks).await;
        report.games.push((game, acked));
    }
    report
}

/// Waits until at least `count` actions were acknowledged in all (generous deadline).
async fn acks_reach(acks: &AtomicUsize, count: usize) {
    let until = Instant::now() + Duration::from_secs(60);
    while acks.load(Ordering::SeqCst) < count {
        assert!(
            Instant::now() < until,
            "play goes on ({} of {count} actions acknowledged)",
            acks.load(Ordering::SeqCst)
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rolling_restart_under_load_refuses_only_retryable_actions_and_loses_no_acknowledged_one() {
    let Some(c) = Cluster::new().await else { return };
    let mut nodes = c.nodes::<3>().await;
    let addrs: Vec<SocketAddr> = nodes.iter().map(|n| n.addr).collect();
    let (stop, acks) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicUsize::new(0)));
    let mut workers = Vec::new();
    for w in 0..WORKERS {
        let (host, _) = nodes[w % 3].http().guest(&format!("Host{w}")).await;
        let (guest, _) = nodes[(w + 1) % 3].http().guest(&format!("Guest{w}")).await;
        let tokens = (host.token.unwrap(), guest.token.unwrap());
        workers.push(tokio::spawn(worker(w, addrs.clone(), tokens, Arc::clone(&stop), Arc::clone(&acks))));
    }

    acks_reach(&acks, ACKS_BETWEEN).await;
    for (i, addr) in addrs.iter().enumerate() {
        let node = &mut nodes[i];
        assert!(tokio::task::block_in_place(|| node.terminate()), "node {i} stops cleanly on SIGTERM");
        let before = acks.load(Ordering::SeqCst);
        nodes[i] = Node::start_with(&c.db.url, &c.nats.url, *addr, &c.log).await;
        acks_reach(&acks, before + ACKS_BETWEEN).await;
    }
    stop.store(true, Ordering::SeqCst);

    let mut games = Vec::new();
    let (mut refusals, mut reconnects) = (BTreeMap::<String, usize>::new(), 0);
    for worker in workers {
        let report = worker.await.unwrap();
        games.extend(report.games);
        for code in report.refusals {
            *refusals.entry(code).or_default() += 1;
        }
        reconnects += report.reconnects;
    }
    assert!(games.len() >= WORKERS, "every worker finished a game");
    assert!(reconnects > 0, "the restarts closed sockets under the players, who reconnected");
    for (game, acked) in &games {
        check_log(&nodes[0].http(), game, &[0, 1], acked, c.dir.path()).await;
    }
    let total: usize = games.iter().map(|(_, a)| a.len()).sum();
    eprintln!(
        "rolling restart: {} games, {total} acknowledged actions, refused: {refusals:?}, reconnects: {reconnects}",
        games.len()
    );
    c.db.cleanup().await;
}
