//! Cluster mode: a node that loses its link to PostgreSQL or to NATS stops playing the games it
//! can no longer prove it owns, the other nodes take them over and play on, and once its link is
//! back the node plays again (on games that are its own again) without any game having two
//! owners. Node A reaches the cut link through a TCP proxy that the test cuts and restores.
//!
//! Prerequisites and helpers: `common/cluster.rs`.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use common::cluster::*;
use common::play::Seen;
use game_core::GameRng;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// The link of node A that the test cuts.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Link {
    Postgres,
    Nats,
}

/// The codes a node answers while it cannot prove its leases (docs/protocol.md: both retryable).
const REFUSED: [&str; 2] = ["server/unavailable", "server/shutting_down"];

/// Acts on `seen`'s game through its node until the node refuses with a [`REFUSED`] code; returns
/// how long that took. Before that, the node may still accept (it still proves its lease): each
/// accepted action goes into `acked`, and must then be in the stored log. An action sent while
/// it is not this seat's turn is answered with a rule error, which is fine too.
async fn act_until_refused(seen: &mut Seen, rng: &mut GameRng, acked: &mut Vec<Value>) -> Duration {
    let started = Instant::now();
    loop {
        assert!(started.elapsed() < Duration::from_secs(30), "the cut node goes on taking actions");
        let action = if seen.to_move() { rng.choose(&seen.legal).unwrap().clone() } else { json!({"probe": 1}) };
        let version = seen.version;
        match seen.act(action.clone(), version).await {
            Ok(_) => acked.push(action),
            Err(e) => {
                let code = e["code"].as_str().unwrap_or_default();
                if REFUSED.contains(&code) {
                    return started.elapsed();
                }
                // A probe sent while it is the other seat's turn is refused by the rules.
                assert!(
                    !code.is_empty() && code != "server/internal",
                    "before it refuses, the node answers as usual: {e}"
                );
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn cut_and_restore(link: Link) {
    let Some(cluster) = Cluster::new().await else { return };
    let proxy = Proxy::start(match link {
        Link::Postgres => url_addr(&cluster.db.url),
        Link::Nats => cluster.nats.addr,
    })
    .await;
    let (a_db, a_nats) = match link {
        Link::Postgres => (url_via(&cluster.db.url, proxy.addr), cluster.nats.url.clone()),
        Link::Nats => (cluster.db.url.clone(), url_via(&cluster.nats.url, proxy.addr)),
    };
    let a = Node::start_with(&a_db, &a_nats, free_addr(), &cluster.log).await;
    let b = cluster.node().await;
    let c = cluster.node().await;
    let mut rng = GameRng::from_u64(23);

    // Two games started on A (so A owns them): Ana on A against Ben on B, and Cy on A against a
    // bot with a turn clock.
    let (ana, _) = a.http().guest("Ana").await;
    let (ben, _) = b.http().guest("Ben").await;
    let people = two_player_game(&ana, &ben, b.addr).await;
    let (cy, _) = a.http().guest("Cy").await;
    let created = cy.post("/api/lobbies", json!({"game": GAME, "public": true, "turn_seconds": 10})).await;
    let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
    cy.post(&format!("/api/lobbies/{lobby}/bots"), json!({"seat": 1})).await;
    let against_bot =
        cy.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await["game"].as_str().unwrap().to_string();

    // A few actions as usual, from both nodes.
    let mut acked = Vec::new();
    let mut seen = vec![
        subscribe(a.addr, ana.token.as_deref(), &people).await,
        subscribe(b.addr, ben.token.as_deref(), &people).await,
    ];
    for _ in 0..3 {
        let i = seen.iter().position(Seen::to_move).expect("a person is to move");
        let action = rng.choose(&seen[i].legal).unwrap().clone();
        let version = seen[i].version;
        seen[i].act(action.clone(), version).await.expect("accepted before the cut");
        acked.push(action);
        for s in seen.iter_mut() {
            s.catch_up(version + 1).await;
        }
    }

    // A game owned by B (Gil on B, Hal on C), watched from A through forwarding.
    let (gil, _) = b.http().guest("Gil").await;
    let (hal, _) = c.http().guest("Hal").await;
    let watched = two_player_game(&gil, &hal, c.addr).await;
    let mut watcher = subscribe(a.addr, None, &watched).await;

    proxy.cut();
    // A stops taking actions on its games: Ana's socket on A is refused, with a retryable code.
    let refused_after = act_until_refused(&mut seen[0], &mut rng, &mut acked).await;
    eprintln!("{link:?} cut: node A refused actions {refused_after:?} after the cut");
    // And keeps refusing while its link is cut (by then the other nodes may hold the game).
    for _ in 0..3 {
        let version = seen[0].version;
        let refused = seen[0].act(json!({"probe": 2}), version).await.expect_err("refused while cut");
        assert!(REFUSED.contains(&refused["code"].as_str().unwrap_or_default()), "{refused}");
    }
    // Its health check fails with 503 (out of service) once its leases are given up.
    let until = Instant::now() + Duration::from_secs(20);
    while a.http().call("GET", "/healthz", None).await.0 != 503 {
        assert!(Instant::now() < until, "the cut node reports itself out of service");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    drop(seen);
    if link == Link::Nats {
        // Without NATS, B stops hearing A and drops A's sockets: A tells its watcher to
        // subscribe again, rather than leave it waiting for patches that no longer come.
        let until = Instant::now() + Duration::from_secs(30);
        let told = loop {
            assert!(Instant::now() < until, "A's watcher of a game owned elsewhere is told");
            if let Some(msg) = watcher.ws.try_recv(Duration::from_secs(1)).await {
                if msg["type"] == "error" {
                    break msg;
                }
            }
        };
        assert_eq!((told["code"].as_str(), told["game"].as_str()), (Some("server/unavailable"), Some(&*watched)));
    }
    drop(watcher);

    // The games go on through B and C (Ana moves to C): another node took them over.
    let people_players = [Player { http: ana.clone(), node: c.addr }, Player { http: ben.clone(), node: b.addr }];
    let seen = play_to_end(&people, &people_players, &mut rng, &mut acked).await;
    assert!(seen.iter().all(|s| s.outcome.is_some()), "the game ended on the other nodes");

    // A comes back: it renews and is healthy again, follows a game owned elsewhere (Cy plays the
    // rest of his game through A), and plays a new game of its own.
    proxy.restore();
    assert!(healthy_within(a.addr, Duration::from_secs(30)).await, "A is healthy again once its link is back");
    let mut acked_bot = Vec::new();
    let seen = play_to_end(&against_bot, &[Player { http: cy.clone(), node: a.addr }], &mut rng, &mut acked_bot).await;
    assert!(seen[0].outcome.is_some(), "the game against a bot ended");
    // The watcher on A follows B's game again, and it is played to its end.
    let mut watcher = subscribe(a.addr, None, &watched).await;
    let mut acked_watched = Vec::new();
    let watched_players = [Player { http: gil.clone(), node: b.addr }, Player { http: hal.clone(), node: c.addr }];
    let seen = play_to_end(&watched, &watched_players, &mut rng, &mut acked_watched).await;
    watcher.catch_up(seen[0].version).await;
    assert!(watcher.outcome.is_some(), "the watcher on A saw the end");
    check_log(&b.http(), &watched, &[0, 1], &acked_watched, cluster.dir.path()).await;
    let (dan, _) = a.http().guest("Dan").await;
    let (eve, _) = b.http().guest("Eve").await;
    let fresh = two_player_game(&dan, &eve, b.addr).await;
    let mut acked_fresh = Vec::new();
    let fresh_players = [Player { http: dan.clone(), node: a.addr }, Player { http: eve.clone(), node: b.addr }];
    let seen = play_to_end(&fresh, &fresh_players, &mut rng, &mut acked_fresh).await;
    assert!(seen.iter().all(|s| s.outcome.is_some()));

    // Every log verifies and holds every acknowledged action (those A took before it gave up
    // included). Ana's game moved exactly once (A could not append to it, and it went on). Cy's
    // game moved at most once: another node took it, or, if none did before A renewed again, A
    // still held it and played it on (the same epoch: nobody else appended in between). Never a
    // third owner; A took the new game's first lease.
    check_log(&b.http(), &people, &[0, 1], &acked, cluster.dir.path()).await;
    check_log(&c.http(), &against_bot, &[0], &acked_bot, cluster.dir.path()).await;
    check_log(&a.http(), &fresh, &[0, 1], &acked_fresh, cluster.dir.path()).await;
    let log = std::fs::read_to_string(&cluster.log).unwrap_or_default();
    let taken = |game: &str, epoch: u64| {
        let epoch = format!("epoch={epoch}");
        log.lines().filter(|l| l.contains("lease taken") && l.contains(game) && l.contains(&epoch)).count()
    };
    assert_eq!((taken(&people, 1), taken(&people, 2), taken(&people, 3)), (1, 1, 0), "Ana's game moved once");
    assert_eq!(taken(&against_bot, 1), 1);
    assert!(taken(&against_bot, 2) <= 1 && taken(&against_bot, 3) == 0, "Cy's game moved at most once");
    assert_eq!(taken(&fresh, 1), 1, "the new game was leased once");
    drop((a, b, c));
    cluster.db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_cut_from_postgres_stops_playing_its_games_and_the_others_take_them_over() {
    cut_and_restore(Link::Postgres).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_cut_from_nats_stops_playing_its_games_and_the_others_take_them_over() {
    cut_and_restore(Link::Nats).await;
}
