//! Cluster mode: three nodes (processes of the real binary) over one PostgreSQL, joined by a real
//! `nats-server`. Players on different nodes play one game and a spectator watches from a third;
//! a SIGKILLed owner's games go on elsewhere; every finished log verifies.
//!
//! Prerequisites and helpers: `common/cluster.rs`.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use common::cluster::*;
use common::play::Seen;
use common::Ws;
use game_core::GameRng;
use serde_json::json;
use std::time::Instant;

#[tokio::test]
async fn players_on_two_nodes_and_a_spectator_on_a_third_play_a_game_that_verifies() {
    let Some(c) = Cluster::new().await else { return };
    let nodes = c.nodes::<3>().await;
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
    check_log(&ben, &game, &[0, 1], &acked, c.dir.path()).await;

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
    c.db.cleanup().await;
}

#[tokio::test]
async fn a_sigkilled_owner_s_games_go_on_elsewhere_and_every_acknowledged_action_is_kept() {
    let Some(c) = Cluster::new().await else { return };
    let mut nodes = c.nodes::<3>().await;
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
    check_log(&nodes[1].http(), &people, &[0, 1], &acked_people, c.dir.path()).await;
    check_log(&nodes[2].http(), &against_bot, &[0], &acked_bot, c.dir.path()).await;
    let log = std::fs::read_to_string(&c.log).unwrap_or_default();
    // A surviving node took each game's lease with a new epoch (on demand or by its scan).
    assert_eq!(log.matches("epoch=2").count(), 2, "both games moved once");
    assert!(log.contains("epoch=2"), "a surviving node took the games over with a new epoch");
    c.db.cleanup().await;
}

#[tokio::test]
async fn the_watchers_of_a_table_whose_lease_another_node_took_follow_the_game_there() {
    let Some(c) = Cluster::new().await else { return };
    let [a, b] = c.nodes::<2>().await;
    // Started on A, so A owns it; and one started on B, to learn B's node id from its lease.
    let (ana, _) = a.http().guest("Ana").await;
    let (ben, _) = b.http().guest("Ben").await;
    let game = two_player_game(&ana, &ben, b.addr).await;
    let (cy, _) = b.http().guest("Cy").await;
    let (dee, _) = a.http().guest("Dee").await;
    let on_b = two_player_game(&cy, &dee, a.addr).await;
    sqlx::any::install_default_drivers();
    let mut db = <sqlx::AnyConnection as sqlx::Connection>::connect(&c.db.url).await.unwrap();
    let lease = |game: &str| {
        sqlx::query_scalar::<_, String>("select node from table_leases where game = $1").bind(game.to_string())
    };
    let (a_id, b_id) = (lease(&game).fetch_one(&mut db).await.unwrap(), lease(&on_b).fetch_one(&mut db).await.unwrap());
    assert_ne!(a_id, b_id, "each node owns the game it started");

    // A watcher and a player on A, at A's own table.
    let mut watcher = subscribe(a.addr, None, &game).await;
    let mut ana_on_a = subscribe(a.addr, ana.token.as_deref(), &game).await;
    // B takes the lease with a new epoch, as a node does when it finds another's lapsed (while
    // A, not knowing yet, still runs). A notices at its next renewal and stops its table; B
    // finds it holds a game it does not play, and plays it.
    sqlx::query("update table_leases set node = $1, epoch = epoch + 1 where game = $2")
        .bind(b_id.clone())
        .bind(game.clone())
        .execute(&mut db)
        .await
        .unwrap();

    let stopped = format!("table stopped: this node no longer holds its lease game={game}");
    let until = Instant::now() + std::time::Duration::from_secs(10);
    while !std::fs::read_to_string(&c.log).unwrap_or_default().contains(&stopped) {
        assert!(Instant::now() < until, "A noticed that its lease was taken");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }

    // The game goes on through B. A's sockets are not left waiting: A subscribes them at B.
    let players = [Player { http: ana.clone(), node: b.addr }, Player { http: ben.clone(), node: b.addr }];
    let mut acked = Vec::new();
    let seen = play_to_end(&game, &players, &mut GameRng::from_u64(5), &mut acked).await;
    let last = seen[0].version;
    watcher.catch_up(last).await;
    assert!(watcher.outcome.is_some(), "the watcher on A saw the end of the game B played");
    ana_on_a.catch_up(last).await;
    assert_eq!(ana_on_a.view, seen[0].view, "the player's socket on A kept her view");
    check_log(&ben, &game, &[0, 1], &acked, c.dir.path()).await;
    c.db.cleanup().await;
}

/// Whose turn it is, as `GET /api/me/games` on `node` marks it for `player`'s game `game`.
async fn your_turn(player: &common::Http, node: std::net::SocketAddr, game: &str) -> bool {
    let mut asker = player.clone();
    asker.base = format!("http://{node}");
    let list = asker.get("/api/me/games").await;
    let entry = list["games"].as_array().unwrap().iter().find(|g| g["id"] == game).cloned().unwrap();
    entry["your_turn"].as_bool().unwrap_or(false)
}

#[tokio::test]
async fn the_games_list_marks_your_turn_in_a_game_owned_by_another_node() {
    let Some(c) = Cluster::new().await else { return };
    let nodes = c.nodes::<2>().await;
    // Node 0 starts (and owns) the game; Ben plays it through node 1, and both ask node 1.
    let (ana, _) = nodes[0].http().guest("Ana").await;
    let (ben, _) = nodes[1].http().guest("Ben").await;
    let game = two_player_game(&ana, &ben, nodes[1].addr).await;
    let mut seen = [
        subscribe(nodes[0].addr, ana.token.as_deref(), &game).await,
        subscribe(nodes[1].addr, ben.token.as_deref(), &game).await,
    ];
    let mut rng = GameRng::from_u64(5);
    let (mut marked_ana, mut marked_ben) = (0, 0);
    for _ in 0..4 {
        let i = seen.iter().position(Seen::to_move).expect("a person is to move");
        // Asked on node 1, which does not own the game: the mover is marked, the other is not
        // (the owner updates its mark when the action is applied, before the ack).
        assert!(your_turn(if i == 0 { &ana } else { &ben }, nodes[1].addr, &game).await, "the mover is marked");
        assert!(!your_turn(if i == 0 { &ben } else { &ana }, nodes[1].addr, &game).await, "the other is not");
        if i == 0 {
            marked_ana += 1
        } else {
            marked_ben += 1
        }
        let action = rng.choose(&seen[i].legal).unwrap().clone();
        let version = seen[i].version;
        let v = seen[i].act(action, version).await.expect("accepted");
        for s in seen.iter_mut() {
            s.catch_up(v).await;
        }
    }
    assert!(marked_ana > 0 && marked_ben > 0, "both players' turns were asked about");
    c.db.cleanup().await;
}

/// The owner's count of sockets of other nodes that follow its tables (`/metrics`).
async fn remote_sockets(node: &Node) -> f64 {
    let text = reqwest::get(format!("http://{}/metrics", node.addr)).await.unwrap().text().await.unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix("chapterhouse_remote_sockets "))
        .map(|v| v.trim().parse().unwrap())
        .unwrap_or(0.0)
}

#[tokio::test]
async fn an_owner_drops_the_remote_subscribers_of_a_sigkilled_node() {
    let Some(c) = Cluster::new().await else { return };
    let mut nodes = c.nodes::<2>().await;
    // Both players on node 0, which owns the game; two spectators follow it from node 1.
    let (ana, _) = nodes[0].http().guest("Ana").await;
    let (ben, _) = nodes[0].http().guest("Ben").await;
    let game = two_player_game(&ana, &ben, nodes[0].addr).await;
    let _watchers = [subscribe(nodes[1].addr, None, &game).await, subscribe(nodes[1].addr, None, &game).await];
    // (The subscribe helper's probe socket may still be leaving: wait for the count to settle.)
    let until = Instant::now() + std::time::Duration::from_secs(30);
    while remote_sockets(&nodes[0]).await != 2.0 {
        assert!(Instant::now() < until, "the owner serves node 1's two spectators");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }

    nodes[1].child.kill().expect("SIGKILL");
    nodes[1].child.wait().unwrap();
    // Within a few heartbeats the owner forgets them (count-based wait, generous deadline).
    let until = Instant::now() + std::time::Duration::from_secs(30);
    while remote_sockets(&nodes[0]).await > 0.0 {
        assert!(Instant::now() < until, "the owner still serves the dead node's sockets");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    let log = std::fs::read_to_string(&c.log).unwrap_or_default();
    assert!(log.contains("remote sockets of departed nodes dropped"), "the owner says why");

    // The game goes on for its players.
    let players =
        [Player { http: ana.clone(), node: nodes[0].addr }, Player { http: ben.clone(), node: nodes[0].addr }];
    let mut acked = Vec::new();
    let seen = play_to_end(&game, &players, &mut GameRng::from_u64(9), &mut acked).await;
    assert!(seen.iter().all(|s| s.outcome.is_some()));
    check_log(&nodes[0].http(), &game, &[0, 1], &acked, c.dir.path()).await;
    c.db.cleanup().await;
}
