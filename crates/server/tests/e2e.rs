//! End to end over real WebSockets: a private lobby, a complete game with random legal actions,
//! every client's rebuilt view checked against the server's view for its seat at every version.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use chapterhouse::catalog::Catalog;
use common::play::Seen;
use common::{code, TestDb, TestServer, Ws};
use game_core::{GameLog, GameRng, Viewer};
use serde_json::{json, Value};

const GAME: &str = "knights-templar";

#[tokio::test]
async fn three_players_play_a_private_game_and_every_view_matches_the_server_at_every_version() {
    for db in TestDb::all().await {
        eprintln!("-- on {}", db.backend);
        let server = TestServer::start(&db).await;
        play_a_private_game(&server, 1).await;
        server.stop().await;
        db.cleanup().await;
    }
}

async fn play_a_private_game(server: &TestServer, seed: u64) {
    let http = server.http();
    let (ana, _) = http.guest("Ana").await;
    let (ben, ben_id) = http.guest("Ben").await;
    let (cy, _) = http.guest("Cy").await;

    // Ana creates a private lobby and follows it over the socket.
    let created = ana.post("/api/lobbies", json!({"game": GAME, "public": false})).await;
    let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
    let invite = created["lobby"]["invite_code"].as_str().expect("a private lobby has an invite code").to_string();
    let mut ana_ws = Ws::connect(server.addr, ana.token.as_deref()).await;
    ana_ws.send(json!({"type": "subscribe_lobby", "lobby": lobby})).await;
    let first = ana_ws.recv().await;
    assert_eq!(first["type"], "lobby");

    // The public listing does not show it; joining needs the code.
    let listed = http.get("/api/lobbies").await;
    assert!(!listed["lobbies"].as_array().unwrap().iter().any(|l| l["id"] == lobby.as_str()));
    let (status, body) = ben.call("POST", &format!("/api/lobbies/{lobby}/join"), Some(json!({}))).await;
    assert_eq!((status, code(&body)), (403, "lobby/invite_required"));
    ben.post(&format!("/api/lobbies/{lobby}/join"), json!({"code": invite})).await;
    ben.post(&format!("/api/lobbies/{lobby}/seat"), json!({"seat": 1})).await;
    // Cy joins and sits in one request; a seat that is taken refuses the join as well.
    let (status, body) =
        cy.call("POST", &format!("/api/lobbies/{lobby}/join"), Some(json!({"code": invite, "seat": 1}))).await;
    assert_eq!((status, code(&body)), (409, "lobby/seat_taken"));
    let unchanged = http.get(&format!("/api/lobbies/{lobby}?code={invite}")).await;
    assert_eq!(unchanged["lobby"]["members"].as_array().unwrap().len(), 2);
    let joined = cy.post(&format!("/api/lobbies/{lobby}/join"), json!({"code": invite, "seat": 2})).await;
    assert_eq!(joined["lobby"]["seats"][2]["name"], "Cy");

    // Ana saw every change live: the last lobby message has all three seated.
    let seated = ana_ws.recv_until(|m| m["type"] == "lobby" && m["lobby"]["seats"][2]["name"] == "Cy").await;
    assert_eq!(seated["lobby"]["seats"][1]["account"], ben_id.as_str());
    assert_eq!(seated["lobby"]["members"].as_array().unwrap().len(), 3);

    // Only the host starts.
    let (status, body) = ben.call("POST", &format!("/api/lobbies/{lobby}/start"), None).await;
    assert_eq!((status, code(&body)), (403, "lobby/not_host"));
    let started = ana.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await;
    let game = started["game"].as_str().unwrap().to_string();
    let live = ana_ws.recv_until(|m| m["type"] == "lobby" && m["lobby"]["status"] == "started").await;
    assert_eq!(live["lobby"]["game_id"], game.as_str());

    // Three players and a spectator with the invite code subscribe.
    let mut players = vec![
        Seen::subscribe(ana_ws, &game, None).await,
        Seen::subscribe(Ws::connect(server.addr, ben.token.as_deref()).await, &game, None).await,
        Seen::subscribe(Ws::connect(server.addr, cy.token.as_deref()).await, &game, None).await,
    ];
    let (stranger, _) = http.guest("Stranger").await;
    let mut stranger_ws = Ws::connect(server.addr, stranger.token.as_deref()).await;
    stranger_ws.send(json!({"type": "subscribe", "game": game, "req": 3})).await;
    let refused = stranger_ws.recv().await;
    assert_eq!((refused["type"].as_str(), refused["code"].as_str()), (Some("error"), Some("lobby/invite_required")));
    let mut spectator = Seen::subscribe(Ws::connect(server.addr, None).await, &game, Some(&invite)).await;
    for (i, p) in players.iter().enumerate() {
        assert_eq!(p.seat, Some(i as u64), "each player sees their own seat");
    }
    assert_eq!(spectator.seat, None);
    assert!(spectator.legal.is_empty());

    // Play to the end with random legal actions.
    let mut rng = GameRng::from_u64(seed);
    let mut version = 0;
    while players[0].outcome.is_none() {
        assert!(version < 5000, "the game ends");
        let movers: Vec<usize> = (0..3).filter(|i| players[*i].to_move()).collect();
        let mover = *rng.choose(&movers).expect("someone is to move while the game runs");
        let action = rng.choose(&players[mover].legal).expect("a legal action").clone();
        let acked =
            players[mover].act(action, version).await.expect("a legal action at the current version is accepted");
        version += 1;
        assert_eq!(acked, version);
        // The ack comes straight behind the mover's own patch of that version, nothing between.
        let last_two = &players[mover].received[players[mover].received.len() - 2..];
        assert_eq!(last_two, [("patch".to_string(), version), ("ack".to_string(), version)]);
        for p in players.iter_mut().chain(std::iter::once(&mut spectator)) {
            p.catch_up(version).await;
            // Only a seat the game waits for is sent legal actions.
            if !p.seat.is_some_and(|s| p.to_act.contains(&s)) {
                assert!(p.legal.is_empty(), "seat {:?} is not waited for but got {:?}", p.seat, p.legal);
            }
        }
    }
    for p in &players {
        assert_eq!(p.seed.as_ref().map(String::len), Some(64), "the seed is revealed at the end");
        assert_eq!(p.outcome, players[0].outcome);
    }

    // The finished log verifies, and its seed matches the commitment published at the start.
    let log_json = ana.get(&format!("/api/games/{game}/log")).await;
    let log: GameLog = serde_json::from_value(log_json).expect("a game-core log");
    assert_eq!(log.seed_commitment, players[0].commitment);
    assert_eq!(log.seed.map(|s| s.to_hex()), players[0].seed.clone());
    assert_eq!(log.actions.len() as u64, version);
    let catalog = Catalog::standard();
    let descriptor = catalog.get(GAME).unwrap();

    // Every rebuilt view equals the server's view for that viewer, at every version.
    let mut server_views: Vec<Vec<Value>> = vec![Vec::new(); 4];
    let initial = descriptor.create(3, &log.options, log.seed.unwrap()).unwrap();
    let viewers = Viewer::all(3);
    for (i, v) in viewers.iter().enumerate() {
        server_views[i].push(initial.view(*v));
    }
    log.replay_with(descriptor, |_, game| {
        for (i, v) in viewers.iter().enumerate() {
            server_views[i].push(game.view(*v));
        }
    })
    .expect("the log replays");
    for (i, seen) in players.iter().chain(std::iter::once(&spectator)).enumerate() {
        assert_eq!(seen.views.len(), server_views[i].len(), "viewer {i} saw every version");
        for (n, view) in seen.views.iter().enumerate() {
            assert_eq!(view.as_ref(), Some(&server_views[i][n]), "viewer {i} at version {n}");
        }
    }

    // The replay route shows each player the position they saw at every step of the finished game
    // (served from the finished game's checkpoints, in any order of steps).
    let mut first = Vec::new();
    for n in 0..=version {
        let step = ben.get(&format!("/api/games/{game}/replay?at={n}")).await;
        assert_eq!(step["version"], n);
        assert_eq!(step["view"], server_views[1][n as usize], "Ben's replay at step {n}");
        assert_eq!(step["outcome"].is_null(), n < version, "the outcome only at the last step");
        first.push(step);
    }
    for n in (0..=version).rev() {
        let again = ben.get(&format!("/api/games/{game}/replay?at={n}")).await;
        assert_eq!(again, first[n as usize], "the same answer for step {n} the second time");
    }
    let (status, body) = ben.call("GET", &format!("/api/games/{game}/replay?at={}", version + 1), None).await;
    assert_eq!((status, code(&body)), (422, "game/no_such_step"));

    // The spectator never received anything hidden: no private event, no legal actions, and its
    // view is the spectator view (checked above) — which differs from the players' views.
    assert!(spectator.events.iter().all(|e| e["private"] == false));
    assert!(players.iter().any(|p| p.views != spectator.views), "players see more than spectators");
    // Players did receive their private events, and only their own.
    let private_seen: usize = players.iter().map(|p| p.events.iter().filter(|e| e["private"] == true).count()).sum();
    eprintln!("{version} actions; {private_seen} private events delivered to their seats");

    // The game is in each player's history, and the seat is right.
    let history = ben.get("/api/me/games").await;
    let entry = history["games"].as_array().unwrap().iter().find(|g| g["id"] == game.as_str()).expect("listed");
    assert_eq!((entry["seat"].as_u64(), entry["status"].as_str()), (Some(1), Some("finished")));

    // Everyone leaves the finished game (its table then lets go of what playing needed); a player
    // who comes back later, even one holding the last version, gets the final position whole.
    for p in players.iter_mut().chain(std::iter::once(&mut spectator)) {
        p.ws.send(json!({"type": "unsubscribe", "game": game})).await;
        // A socket answers in order, and its unsubscribe waits for the table: once the ping is
        // answered, the table has let this subscriber go.
        p.ws.send(json!({"type": "ping", "req": 77})).await;
        p.ws.recv_until(|m| m["type"] == "pong").await;
    }
    let mut ws = Ws::connect(server.addr, ben.token.as_deref()).await;
    ws.send(json!({"type": "subscribe", "game": game, "last_version": version})).await;
    let late = ws.recv_until(|m| m["type"] == "snapshot" || m["type"] == "resumed" || m["type"] == "error").await;
    assert_eq!(late["type"], "snapshot", "a late subscriber to a finished game gets its final snapshot: {late}");
    assert_eq!(late["version"], version);
    assert_eq!(late["view"], server_views[1][version as usize]);
    assert_eq!(late["outcome"], players[1].outcome.clone().unwrap());
    assert_eq!(late["seed"].as_str(), players[1].seed.as_deref());
    assert_eq!(late["legal_actions"], json!([]));
}

#[tokio::test]
async fn a_reconnecting_player_resumes_with_the_missed_patches() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let http = server.http();
    let (ana, _) = http.guest("Ana").await;
    let lobby = ana.post("/api/lobbies", json!({"game": GAME, "public": true})).await["lobby"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (ben, _) = http.guest("Ben").await;
    ben.post(&format!("/api/lobbies/{lobby}/join"), json!({})).await;
    ben.post(&format!("/api/lobbies/{lobby}/seat"), json!({"seat": 1})).await;
    let game = ana.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await["game"].as_str().unwrap().to_string();

    let mut a = Seen::subscribe(Ws::connect(server.addr, ana.token.as_deref()).await, &game, None).await;
    let mut b = Seen::subscribe(Ws::connect(server.addr, ben.token.as_deref()).await, &game, None).await;
    // A second socket of Ben's that will drop out after version 2.
    let mut dropping = Seen::subscribe(Ws::connect(server.addr, ben.token.as_deref()).await, &game, None).await;
    let mut rng = GameRng::from_u64(5);
    let mut version = 0;
    while version < 6 && a.outcome.is_none() {
        let mover = if a.to_move() { &mut a } else { &mut b };
        let action = rng.choose(&mover.legal).unwrap().clone();
        mover.act(action, version).await.unwrap();
        version += 1;
        a.catch_up(version).await;
        b.catch_up(version).await;
        if version <= 2 {
            dropping.catch_up(version).await;
        }
    }
    let last = 2;
    let kept_view = dropping.views[2].clone().unwrap();
    drop(dropping);
    // A new connection resumes from the last version it holds.
    let mut ws = Ws::connect(server.addr, ben.token.as_deref()).await;
    ws.send(json!({"type": "subscribe", "game": game, "last_version": last})).await;
    let mut view = kept_view;
    let mut at = last;
    loop {
        let msg = ws.recv().await;
        match msg["type"].as_str() {
            Some("patch") => {
                assert_eq!(msg["version"].as_u64(), Some(at + 1));
                let patch: json_patch::Patch = serde_json::from_value(msg["patch"].clone()).unwrap();
                json_patch::patch(&mut view, &patch).unwrap();
                at += 1;
            }
            Some("resumed") => {
                assert_eq!(msg["version"].as_u64(), Some(version));
                break;
            }
            other => panic!("expected patches then resumed, got {other:?}: {msg}"),
        }
    }
    assert_eq!(at, version);
    // The resumed view equals a fresh snapshot's view.
    let fresh = Seen::subscribe(Ws::connect(server.addr, ben.token.as_deref()).await, &game, None).await;
    assert_eq!(fresh.version, version);
    assert_eq!(view, fresh.view);
    server.stop().await;
}

#[tokio::test]
async fn a_lobby_survives_a_restart_and_a_graceful_stop_closes_sockets_with_1001() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let http = server.http();
    let (ana, _) = http.guest("Ana").await;
    let created = ana.post("/api/lobbies", json!({"game": GAME, "public": true, "turn_seconds": 30})).await;
    let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
    let with_bot = ana.post(&format!("/api/lobbies/{lobby}/bots"), json!({"seat": 2})).await;
    let mut ws = Ws::connect(server.addr, ana.token.as_deref()).await;
    ws.send(json!({"type": "subscribe_lobby", "lobby": lobby})).await;
    assert_eq!(ws.recv().await["type"], "lobby");
    server.stop().await;
    assert_eq!(ws.close_code().await, Some(1001), "the socket is closed with 'going away'");

    let server = TestServer::start(&db).await;
    let mut ana2 = server.http();
    ana2.token = ana.token.clone();
    let listed = ana2.get("/api/lobbies").await;
    let found = listed["lobbies"].as_array().unwrap().iter().find(|l| l["id"] == lobby.as_str()).cloned();
    assert_eq!(found.as_ref().map(|l| &l["seats"]), Some(&with_bot["lobby"]["seats"]), "the lobby came back");
    let again = ana2.get(&format!("/api/lobbies/{lobby}")).await;
    assert_eq!(again["lobby"]["turn_seconds"], 30);
    assert_eq!(again["lobby"]["host"], with_bot["lobby"]["host"]);
    server.stop().await;
}

#[tokio::test]
async fn a_player_who_lets_the_turn_clock_run_out_is_played_for_by_a_bot() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let http = server.http();
    let (ana, _) = http.guest("Ana").await;
    let (ben, _) = http.guest("Ben").await;
    // The shortest limit the server allows (docs/protocol.md).
    let created = ana.post("/api/lobbies", json!({"game": GAME, "public": true, "turn_seconds": 10})).await;
    let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
    ben.post(&format!("/api/lobbies/{lobby}/join"), json!({})).await;
    ben.post(&format!("/api/lobbies/{lobby}/seat"), json!({"seat": 1})).await;
    let game = ana.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await["game"].as_str().unwrap().to_string();
    let mut watcher = Seen::subscribe(Ws::connect(server.addr, None).await, &game, None).await;
    let waiting_for = watcher.to_act.clone();
    let msg = watcher.ws.try_recv(std::time::Duration::from_secs(30)).await.expect("a patch once the clock ran out");
    assert_eq!(msg["type"], "patch", "{msg}");
    assert!(waiting_for.contains(&msg["seat"].as_u64().unwrap()), "the bot played for the absent seat");
    let log = http.get(&format!("/api/games/{game}/log")).await;
    assert_eq!(log["version"], 1, "the timed-out move is in the log like any other");
    server.stop().await;
}

#[tokio::test]
async fn every_game_of_the_catalog_is_playable_through_the_server_with_bots() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let http = server.http();
    for info in Catalog::standard().infos() {
        let (host, _) = http.guest("Host").await;
        let created = host.post("/api/lobbies", json!({"game": info.id, "public": true})).await;
        let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
        for seat in 1..info.min_players {
            host.post(&format!("/api/lobbies/{lobby}/bots"), json!({ "seat": seat })).await;
        }
        let game =
            host.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await["game"].as_str().unwrap().to_string();
        let mut me = Seen::subscribe(Ws::connect(server.addr, host.token.as_deref()).await, &game, None).await;
        let mut rng = GameRng::from_u64(11);
        let mut moves = 0;
        while moves < 25 && me.outcome.is_none() {
            if me.to_move() {
                let action = rng.choose(&me.legal).unwrap().clone();
                let version = me.version;
                match me.act(action, version).await {
                    Ok(_) => moves += 1,
                    // A bot moved first (simultaneous choices): the version moved on; decide again.
                    Err(e) if e["code"] == "game/stale_version" => {}
                    Err(e) => panic!("{}: a legal action was refused: {e}", info.id),
                }
            } else {
                let msg = me.ws.recv().await;
                me.absorb(msg);
            }
        }
        // The view rebuilt from patches equals a fresh snapshot.
        let version = me.version;
        let mut fresh = Seen::subscribe(Ws::connect(server.addr, host.token.as_deref()).await, &game, None).await;
        me.catch_up(fresh.version).await;
        fresh.catch_up(me.version).await;
        assert_eq!(me.view, fresh.view, "{}: patched view equals the snapshot", info.id);
        eprintln!("{}: {moves} moves by the host, version {version}", info.id);
    }
    server.stop().await;
}

/// A game that ends with nobody watching it (Ana never opens it; her turn clock plays for her, a
/// bot plays the other seat) lets go of its views after its last broadcast, as one whose last
/// subscriber leaves does: Ana, coming back with the final version, gets the final position
/// whole (`snapshot`), not `resumed` from views the table kept.
#[tokio::test]
async fn a_game_that_ends_unwatched_gives_a_returning_player_its_final_snapshot() {
    let db = TestDb::sqlite();
    // The clock's "second" is 5 ms: Ana's shortest turn limit (10 s) runs out in 50 ms.
    let tables =
        chapterhouse::table::TableConfig { turn_second: std::time::Duration::from_millis(5), ..common::fast_tables() };
    let server = TestServer::start_with(&db, tables).await;
    let (ana, _) = server.http().guest("Ana").await;
    let created = ana.post("/api/lobbies", json!({"game": GAME, "turn_seconds": 10})).await;
    let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
    ana.post(&format!("/api/lobbies/{lobby}/bots"), json!({"seat": 1})).await;
    let game = ana.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await["game"].as_str().unwrap().to_string();

    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while ana.get(&format!("/api/games/{game}")).await["game"]["status"] != "finished" {
        assert!(std::time::Instant::now() < deadline, "the clock and the bot did not finish the game");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let log = ana.get(&format!("/api/games/{game}/log")).await;
    let version = log["actions"].as_array().unwrap().len() as u64;
    assert!(version > 0);

    let mut ws = Ws::connect(server.addr, ana.token.as_deref()).await;
    ws.send(json!({"type": "subscribe", "game": game, "last_version": version})).await;
    let late = ws.recv_until(|m| m["type"] == "snapshot" || m["type"] == "resumed" || m["type"] == "error").await;
    assert_eq!(late["type"], "snapshot", "a game that ended unwatched kept its views: {late}");
    assert_eq!(late["version"], version);
    assert!(late["outcome"].is_object(), "the final snapshot carries the outcome: {late}");
    assert_eq!(late["legal_actions"], json!([]));
    server.stop().await;
    db.cleanup().await;
}
