//! Hostile input: every bad request gets its documented error code, and nothing is lost.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use chapterhouse::catalog::Catalog;
use chapterhouse::serve::ServerConfig;
use common::play::Seen;
use common::{code, Http, TestDb, TestServer, Ws};
use game_core::{GameLog, GameRng};
use serde_json::{json, Value};

const GAME: &str = "knights-templar";

/// The kernel send buffer the slow-client tests give each accepted socket (the kernel doubles it
/// for its bookkeeping): far less than the patches of the games they watch.
const SEND_BUFFER: usize = 32 * 1024;

/// A started two-player game: (host client, guest client, lobby id, game id).
async fn two_player_game(http: &Http, public: bool) -> (Http, Http, String, String) {
    let (ana, _) = http.guest("Ana").await;
    let (ben, _) = http.guest("Ben").await;
    let created = ana.post("/api/lobbies", json!({"game": GAME, "public": public})).await;
    let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
    let code = created["lobby"]["invite_code"].as_str().map(str::to_string);
    ben.post(&format!("/api/lobbies/{lobby}/join"), json!({ "code": code })).await;
    ben.post(&format!("/api/lobbies/{lobby}/seat"), json!({"seat": 1})).await;
    let game = ana.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await["game"].as_str().unwrap().to_string();
    (ana, ben, lobby, game)
}

fn is_error(msg: &Value, code: &str) -> bool {
    msg["type"] == "error" && msg["code"] == code
}

#[tokio::test]
async fn bad_frames_get_proto_errors_and_the_socket_keeps_working() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let mut ws = Ws::connect(server.addr, None).await;

    ws.send_text("{not json".into()).await;
    let msg = ws.recv().await;
    assert!(is_error(&msg, "proto/malformed"), "{msg}");

    ws.send(json!({"type": "teleport", "req": 11})).await;
    let msg = ws.recv().await;
    assert!(is_error(&msg, "proto/unknown_type"), "{msg}");
    assert_eq!(msg["req"], 11, "the error names the request");

    ws.send(json!({"type": "action", "req": 12})).await;
    let msg = ws.recv().await;
    assert!(is_error(&msg, "proto/malformed"), "missing fields: {msg}");
    assert_eq!(msg["req"], 12);

    ws.send(json!({"type": "ping", "pad": "x".repeat(100_000), "req": 13})).await;
    let msg = ws.recv().await;
    assert!(is_error(&msg, "proto/too_large"), "{msg}");

    ws.send(json!({"type": "ping", "req": 14})).await;
    let msg = ws.recv().await;
    assert_eq!((msg["type"].as_str(), msg["req"].as_u64()), (Some("pong"), Some(14)), "still alive: {msg}");

    // A frame past the hard limit closes the socket with 1009 (message too big).
    ws.send_text("x".repeat(2 * 1024 * 1024)).await;
    assert_eq!(ws.close_code().await, Some(1009));
    server.stop().await;
}

#[tokio::test]
async fn account_errors_have_their_codes_and_a_revoked_token_is_refused_everywhere() {
    for db in TestDb::all().await {
        let server = TestServer::start(&db).await;
        let http = server.http();
        let (status, body) = http.call("GET", "/api/me", None).await;
        assert_eq!((status, code(&body)), (401, "auth/missing_token"));
        let (status, body) = http.call("POST", "/api/guest", Some(json!({"name": "  "}))).await;
        assert_eq!((status, code(&body)), (422, "auth/invalid_name"));
        let (status, body) =
            http.call("POST", "/api/register", Some(json!({"name": "Ada", "password": "short"}))).await;
        assert_eq!((status, code(&body)), (422, "auth/weak_password"));
        let session = http.post("/api/register", json!({"name": "Ada", "password": "long enough"})).await;
        let (status, body) =
            http.call("POST", "/api/register", Some(json!({"name": "ada", "password": "another one"}))).await;
        assert_eq!((status, code(&body)), (409, "auth/name_taken"));
        let (status, body) =
            http.call("POST", "/api/login", Some(json!({"name": "Ada", "password": "wrong password"}))).await;
        assert_eq!((status, code(&body)), (401, "auth/bad_credentials"));
        let (status, body) = http.call("POST", "/api/guest", Some(json!({"nom": "x"}))).await;
        assert_eq!((status, code(&body)), (422, "proto/malformed"));
        let login = http.post("/api/login", json!({"name": "ADA", "password": "long enough"})).await;
        assert_eq!(login["account"]["id"], session["account"]["id"]);

        let mut ada = http.clone();
        ada.token = login["token"].as_str().map(str::to_string);
        assert_eq!(ada.get("/api/me").await["name"], "Ada");
        let (status, _) = ada.call("POST", "/api/logout", None).await;
        assert_eq!(status, 204);
        let (status, body) = ada.call("GET", "/api/me", None).await;
        assert_eq!((status, code(&body)), (401, "auth/invalid_token"));
        let (status, body) = ada.call("POST", "/api/lobbies", Some(json!({"game": GAME}))).await;
        assert_eq!((status, code(&body)), (401, "auth/invalid_token"));
        let mut ws = Ws::connect_raw(server.addr, ada.token.as_deref()).await;
        let msg = ws.recv().await;
        assert!(is_error(&msg, "auth/invalid_token"), "{msg}");
        assert_eq!(ws.close_code().await, Some(4401));
        // The other session of the same account still works.
        let mut other = http.clone();
        other.token = session["token"].as_str().map(str::to_string);
        assert_eq!(other.get("/api/me").await["name"], "Ada");
        server.stop().await;
        db.cleanup().await;
    }
}

#[tokio::test]
async fn lobby_errors_have_their_codes() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let http = server.http();
    let (ana, _) = http.guest("Ana").await;
    let (ben, ben_id) = http.guest("Ben").await;
    let (status, body) = ana.call("POST", "/api/lobbies", Some(json!({"game": "chess"}))).await;
    assert_eq!((status, code(&body)), (422, "game/unknown_game"));
    let (status, body) =
        ana.call("POST", "/api/lobbies", Some(json!({"game": GAME, "options": {"nonsense": 1}}))).await;
    assert_eq!((status, code(&body)), (422, "game/invalid_options"));

    let created = ana.post("/api/lobbies", json!({"game": GAME})).await;
    let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
    let invite = created["lobby"]["invite_code"].as_str().unwrap().to_string();
    let path = |p: &str| format!("/api/lobbies/{lobby}/{p}");

    let (status, body) = ben.call("GET", &format!("/api/lobbies/{lobby}"), None).await;
    assert_eq!((status, code(&body)), (403, "lobby/invite_required"));
    let (status, body) = ben.call("POST", &path("join"), Some(json!({"code": "wrong"}))).await;
    assert_eq!((status, code(&body)), (403, "lobby/invite_required"));
    let mut ws = Ws::connect(server.addr, ben.token.as_deref()).await;
    ws.send(json!({"type": "subscribe_lobby", "lobby": lobby, "req": 1})).await;
    assert!(is_error(&ws.recv().await, "lobby/invite_required"));
    let (status, body) = ben.call("POST", &path("seat"), Some(json!({"seat": 1}))).await;
    assert_eq!((status, code(&body)), (403, "lobby/not_member"));

    ben.post(&path("join"), json!({"code": invite})).await;
    let (status, body) = ben.call("POST", &path("seat"), Some(json!({"seat": 0}))).await;
    assert_eq!((status, code(&body)), (409, "lobby/seat_taken"));
    let (status, body) = ben.call("POST", &path("seat"), Some(json!({"seat": 99}))).await;
    assert_eq!((status, code(&body)), (422, "lobby/no_such_seat"));
    let (status, body) = ben.call("POST", &path("unseat"), None).await;
    assert_eq!((status, code(&body)), (409, "lobby/not_seated"));
    let (status, body) = ana.call("POST", &path("start"), None).await;
    assert_eq!((status, code(&body)), (422, "lobby/bad_player_count"));
    assert_eq!(body["error"]["details"]["seated"], 1);
    let (status, body) = ben.call("POST", &path("bots"), Some(json!({"seat": 1}))).await;
    assert_eq!((status, code(&body)), (403, "lobby/not_host"));
    let (status, body) = ben.call("POST", &path("options"), Some(json!({"public": true}))).await;
    assert_eq!((status, code(&body)), (403, "lobby/not_host"));

    let kicked = ana.post(&path("kick"), json!({"account": ben_id})).await;
    assert_eq!(kicked["lobby"]["members"].as_array().unwrap().len(), 1);
    let (status, body) = ben.call("POST", &path("join"), Some(json!({"code": invite}))).await;
    assert_eq!((status, code(&body)), (403, "lobby/kicked"));

    let with_bot = ana.post(&path("bots"), json!({"seat": 3})).await;
    assert_eq!(with_bot["lobby"]["seats"][3]["bot"], true);
    let changed = ana.post(&path("options"), json!({"turn_seconds": 60})).await;
    assert_eq!(changed["lobby"]["turn_seconds"], 60);
    ana.post(&path("start"), json!({})).await;
    let (status, body) = ana.call("POST", &path("start"), None).await;
    assert_eq!((status, code(&body)), (409, "lobby/started"));
    let (status, body) = ana.call("POST", "/api/nowhere", None).await;
    assert_eq!((status, code(&body)), (404, "proto/no_route"));
    server.stop().await;
}

#[tokio::test]
async fn bad_actions_are_refused_with_their_codes_and_nothing_acknowledged_is_lost() {
    for db in TestDb::all().await {
        let server = TestServer::start(&db).await;
        let http = server.http();
        let (ana, ben, _, game) = two_player_game(&http, false).await;
        let mut a = Seen::subscribe(Ws::connect(server.addr, ana.token.as_deref()).await, &game, None).await;
        let mut b = Seen::subscribe(Ws::connect(server.addr, ben.token.as_deref()).await, &game, None).await;

        // Someone with no seat.
        let (stranger, _) = http.guest("Mallory").await;
        let mut ws = Ws::connect(server.addr, stranger.token.as_deref()).await;
        ws.send(json!({"type": "action", "game": game, "version": 0, "action": {}, "req": 1})).await;
        assert!(is_error(&ws.recv().await, "game/not_a_player"));
        // No token at all.
        let mut anon = Ws::connect(server.addr, None).await;
        anon.send(json!({"type": "action", "game": game, "version": 0, "action": {}, "req": 1})).await;
        assert!(is_error(&anon.recv().await, "auth/missing_token"));
        // An unknown game.
        anon.send(json!({"type": "subscribe", "game": "no-such-game", "req": 2})).await;
        assert!(is_error(&anon.recv().await, "game/not_found"));

        let mut rng = GameRng::from_u64(3);
        let mut version = 0u64;
        let mut acked = Vec::new();
        let mut round = 0;
        while a.outcome.is_none() {
            let (mover, idle) = if a.to_move() { (&mut a, &mut b) } else { (&mut b, &mut a) };
            let action = rng.choose(&mover.legal).unwrap().clone();
            if round < 3 {
                // Out of turn: the seat the game does not wait for.
                let err = idle.act(action.clone(), version).await.unwrap_err();
                assert!(err["code"] == "rule/not_your_turn" || err["code"] == "rule/illegal_action", "{err}");
                // Stale version.
                if version > 0 {
                    let err = mover.act(action.clone(), version - 1).await.unwrap_err();
                    assert_eq!(err["code"], "game/stale_version");
                    assert_eq!(err["details"]["current_version"], version);
                }
                let err = mover.act(action.clone(), version + 5).await.unwrap_err();
                assert_eq!(err["code"], "game/stale_version");
                // Not an action of this game.
                let err = mover.act(json!({"bogus": [1, 2, 3]}), version).await.unwrap_err();
                assert!(err["code"].as_str().unwrap().starts_with("rule/"), "{err}");
            }
            round += 1;
            let v = mover.act(action.clone(), version).await.expect("accepted");
            version += 1;
            assert_eq!(v, version);
            acked.push(action);
            a.catch_up(version).await;
            b.catch_up(version).await;
        }
        // After the end.
        let legal_before = json!({"anything": true});
        let err = a.act(legal_before, version).await.unwrap_err();
        assert_eq!(err["code"], "game/finished");

        // Nothing lost, nothing extra: the log holds exactly the acknowledged actions and replays.
        let log: GameLog = serde_json::from_value(ana.get(&format!("/api/games/{game}/log")).await).unwrap();
        assert_eq!(log.actions.iter().map(|e| e.action.clone()).collect::<Vec<_>>(), acked);
        let catalog = Catalog::standard();
        log.replay(catalog.get(GAME).unwrap()).expect("the log verifies");
        server.stop().await;
        db.cleanup().await;
    }
}

#[tokio::test]
async fn a_running_game_log_shows_a_player_only_their_own_view_and_no_seed() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let http = server.http();
    let (ana, ben, _, game) = two_player_game(&http, true).await;
    let mut a = Seen::subscribe(Ws::connect(server.addr, ana.token.as_deref()).await, &game, None).await;
    let mut b = Seen::subscribe(Ws::connect(server.addr, ben.token.as_deref()).await, &game, None).await;
    let mut rng = GameRng::from_u64(8);
    for version in 0..2u64 {
        let mover = if a.to_move() { &mut a } else { &mut b };
        let action = rng.choose(&mover.legal).unwrap().clone();
        mover.act(action, version).await.unwrap();
        a.catch_up(version + 1).await;
        b.catch_up(version + 1).await;
    }
    let log = ana.get(&format!("/api/games/{game}/log")).await;
    assert_eq!(log["format"], "chapterhouse-partial-log/1");
    assert!(log.get("seed").is_none() && log.to_string().find("\"hash\"").is_none(), "no seed, no hashes: {log}");
    assert_eq!(log["version"], 2);
    for entry in log["actions"].as_array().unwrap() {
        let own = entry["seat"] == 0;
        assert_eq!(!entry["action"].is_null(), own, "only Ana's own actions are shown to Ana: {entry}");
    }
    let summary = http.get(&format!("/api/games/{game}")).await;
    assert!(summary["game"]["seed"].is_null(), "the seed stays secret while the game runs");
    assert_eq!(summary["game"]["seed_commitment"].as_str().map(str::len), Some(64));
    server.stop().await;
}

#[tokio::test]
async fn signing_out_stops_the_sockets_opened_with_that_token_and_no_others() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let http = server.http();
    // Ana is signed in twice; she signs out one session while sockets of both are open.
    let first = http.post("/api/register", json!({"name": "Ana", "password": "long enough"})).await;
    let second = http.post("/api/login", json!({"name": "Ana", "password": "long enough"})).await;
    let mut ana = http.clone();
    ana.token = first["token"].as_str().map(str::to_string);
    let mut ana_elsewhere = http.clone();
    ana_elsewhere.token = second["token"].as_str().map(str::to_string);
    let (ben, _) = http.guest("Ben").await;
    let created = ana.post("/api/lobbies", json!({"game": GAME})).await;
    let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
    let invite = created["lobby"]["invite_code"].clone();
    ben.post(&format!("/api/lobbies/{lobby}/join"), json!({ "code": invite })).await;
    ben.post(&format!("/api/lobbies/{lobby}/seat"), json!({"seat": 1})).await;
    let game = ana.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await["game"].as_str().unwrap().to_string();

    let mut signed_out = Seen::subscribe(Ws::connect(server.addr, ana.token.as_deref()).await, &game, None).await;
    let mut elsewhere =
        Seen::subscribe(Ws::connect(server.addr, ana_elsewhere.token.as_deref()).await, &game, None).await;
    let mut b = Seen::subscribe(Ws::connect(server.addr, ben.token.as_deref()).await, &game, None).await;
    let mut rng = GameRng::from_u64(5);
    while !signed_out.to_move() {
        let action = rng.choose(&b.legal).unwrap().clone();
        let version = b.version;
        b.act(action, version).await.unwrap();
        signed_out.catch_up(version + 1).await;
        elsewhere.catch_up(version + 1).await;
    }
    let version = signed_out.version;
    let action = rng.choose(&signed_out.legal).unwrap().clone();

    let (status, _) = ana.call("POST", "/api/logout", None).await;
    assert_eq!(status, 204);
    // The socket opened with the revoked token no longer acts for Ana: it is told, then closed.
    signed_out.ws.send(json!({"type": "action", "game": game, "version": version, "action": action, "req": 7})).await;
    let (messages, close) = signed_out.ws.until_close().await;
    assert!(messages.iter().any(|m| is_error(m, "auth/invalid_token")), "told why: {messages:?}");
    assert!(!messages.iter().any(|m| m["type"] == "ack" || m["type"] == "patch"), "nothing was played: {messages:?}");
    assert_eq!(close, Some((4401, "auth/invalid_token".to_string())));
    // The same action from Ana's other session is the one that plays at that version.
    assert_eq!(elsewhere.act(action, version).await, Ok(version + 1));
    b.catch_up(version + 1).await;
    server.stop().await;
}

#[tokio::test]
async fn a_kicked_member_stops_receiving_the_lobby_on_sockets_already_open() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let http = server.http();
    let (ana, _) = http.guest("Ana").await;
    let (ben, ben_id) = http.guest("Ben").await;
    let (cy, _) = http.guest("Cy").await;
    let created = ana.post("/api/lobbies", json!({"game": GAME, "public": true})).await;
    let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
    let path = |p: &str| format!("/api/lobbies/{lobby}/{p}");
    ben.post(&path("join"), json!({})).await;
    cy.post(&path("join"), json!({})).await;
    let mut followers = Vec::new();
    for token in [ben.token.as_deref(), cy.token.as_deref(), None] {
        let mut ws = Ws::connect(server.addr, token).await;
        ws.send(json!({"type": "subscribe_lobby", "lobby": lobby})).await;
        assert_eq!(ws.recv().await["type"], "lobby");
        followers.push(ws);
    }
    let [ben_ws, cy_ws, watcher] = &mut followers[..] else { unreachable!() };

    ana.post(&path("kick"), json!({"account": ben_id})).await;
    let msg = ben_ws.recv().await;
    assert!(is_error(&msg, "lobby/kicked"), "the removed member is told, and sees nothing more: {msg}");
    assert_eq!(msg["details"]["lobby"], lobby.as_str());
    let members = |m: &Value| m["lobby"]["members"].as_array().map_or(0, Vec::len);
    assert_eq!(members(&cy_ws.recv().await), 2, "the others see the kick");
    assert_eq!(members(&watcher.recv().await), 2);

    // Turning the lobby private: members keep following (and see the code), an anonymous
    // follower without the code is cut off before the code reaches it.
    ana.post(&path("options"), json!({"public": false})).await;
    let private = cy_ws.recv().await;
    assert!(private["lobby"]["invite_code"].is_string(), "{private}");
    let msg = watcher.recv().await;
    assert!(is_error(&msg, "lobby/invite_required") && msg["details"]["lobby"] == lobby.as_str(), "{msg}");
    ana.post(&path("options"), json!({"turn_seconds": 30})).await;
    assert_eq!(cy_ws.recv().await["lobby"]["turn_seconds"], 30);
    for ws in [&mut *ben_ws, &mut *watcher] {
        let late = ws.try_recv(std::time::Duration::from_millis(300)).await;
        assert!(late.is_none(), "no later change reaches a socket that may not see the lobby: {late:?}");
    }
    // Nor can the removed member follow it again, even with the code.
    let code = private["lobby"]["invite_code"].clone();
    ben_ws.send(json!({"type": "subscribe_lobby", "lobby": lobby, "code": code, "req": 9})).await;
    let msg = ben_ws.recv().await;
    assert!(is_error(&msg, "lobby/kicked") && msg["req"] == 9, "{msg}");
    server.stop().await;
}

/// A public game that bots play among themselves, started by `host` (who leaves the table).
async fn bots_only_game(host: &Http) -> String {
    let created = host.post("/api/lobbies", json!({"game": GAME, "public": true})).await;
    let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
    host.post(&format!("/api/lobbies/{lobby}/unseat"), json!({})).await;
    for seat in 0..8 {
        host.post(&format!("/api/lobbies/{lobby}/bots"), json!({ "seat": seat })).await;
    }
    host.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await["game"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn a_client_that_does_not_read_is_cut_off_and_the_players_are_not_held_up() {
    use std::time::{Duration, Instant};
    let db = TestDb::sqlite();
    let tables = chapterhouse::table::TableConfig { bot_delay: Duration::from_millis(2), ..common::fast_tables() };
    // A kernel send buffer of its own, so that what fills it does not depend on this machine's
    // `net.ipv4.tcp_wmem` (one CI machine absorbed 5.6 MB of patches without a byte read).
    let config =
        ServerConfig { tables, socket_queue: 16, socket_send_buffer: Some(SEND_BUFFER), ..common::config(&db) };
    let server = TestServer::start_config(config).await;
    let http = server.http();
    let (ana, _) = http.guest("Ana").await;
    let created = ana.post("/api/lobbies", json!({"game": GAME, "public": true})).await;
    let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
    ana.post(&format!("/api/lobbies/{lobby}/bots"), json!({"seat": 1})).await;
    let game = ana.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await["game"].as_str().unwrap().to_string();
    let mut a = Seen::subscribe(Ws::connect(server.addr, ana.token.as_deref()).await, &game, None).await;

    // A spectator of Ana's game, and of games bots play among themselves, that never reads: what
    // the bots play soon fills what the kernel buffers for it (~64 KB sent, ~8 KB received), then
    // its queue. 32 such games make ~3 MB of patches.
    let mut slow = Ws::connect_small_buffer(server.addr, None).await;
    slow.send(json!({"type": "subscribe", "game": game})).await;
    for _ in 0..32 {
        let watched = bots_only_game(&ana).await;
        slow.send(json!({"type": "subscribe", "game": watched})).await;
    }

    // Meanwhile Ana plays her bot: every answer and patch still comes at once.
    let mut rng = GameRng::from_u64(21);
    let mut slowest = Duration::ZERO;
    for _ in 0..20 {
        while !a.to_move() && a.outcome.is_none() {
            let msg = a.ws.recv().await;
            a.absorb(msg);
        }
        if a.outcome.is_some() {
            break;
        }
        let action = rng.choose(&a.legal).unwrap().clone();
        let (version, started) = (a.version, Instant::now());
        assert_eq!(a.act(action, version).await, Ok(version + 1));
        slowest = slowest.max(started.elapsed());
    }
    assert!(slowest < Duration::from_secs(2), "a player waited {slowest:?} for an answer");

    // The slow client gets what was already on its way, then a close frame saying why; the rest
    // of its backlog was dropped.
    let (messages, close) = slow.until_close().await;
    let bytes: usize = messages.iter().map(|m| m.to_string().len()).sum();
    let reached = messages.iter().filter(|m| m["game"] == game.as_str()).filter_map(|m| m["version"].as_u64()).max();
    eprintln!("the slow client got {} messages ({bytes} bytes) before {close:?}", messages.len());
    assert_eq!(close, Some((4408, "proto/slow_consumer".to_string())), "after {} messages", messages.len());

    // It resyncs by subscribing again, from the last version it saw.
    let mut again = Ws::connect(server.addr, None).await;
    again.send(json!({"type": "subscribe", "game": game, "last_version": reached})).await;
    let caught_up = again.recv_until(|m| m["type"] == "resumed" || m["type"] == "snapshot").await;
    assert!(caught_up["version"].as_u64() >= Some(a.version), "{caught_up}");
    server.stop().await;
}

#[tokio::test]
async fn a_client_that_pauses_reading_then_reads_again_gets_every_patch_in_order() {
    use std::collections::HashMap;
    use std::time::Duration;
    let db = TestDb::sqlite();
    let tables = chapterhouse::table::TableConfig { bot_delay: Duration::from_millis(1), ..common::fast_tables() };
    // A queue long enough that the pause below does not overflow it.
    let config =
        ServerConfig { tables, socket_queue: 1 << 16, socket_send_buffer: Some(SEND_BUFFER), ..common::config(&db) };
    let server = TestServer::start_config(config).await;
    let http = server.http();
    let (ana, _) = http.guest("Ana").await;

    // A spectator of games bots play among themselves stops reading: what they play fills what
    // the kernel buffers for it (~64 KB sent, ~8 KB received), so that the server's writes to it wait,
    // and later messages are queued behind them.
    let mut ws = Ws::connect_small_buffer(server.addr, None).await;
    let mut versions: HashMap<String, u64> = HashMap::new();
    for _ in 0..64 {
        let game = bots_only_game(&ana).await;
        ws.send(json!({"type": "subscribe", "game": game})).await;
        versions.insert(game, 0);
    }
    tokio::time::sleep(Duration::from_secs(3)).await;

    // Then it reads again: every game's patches come, in order and none missing, to the end.
    let mut over = 0;
    let mut patches = 0;
    while over < versions.len() {
        let msg = ws.recv().await;
        let Some(version) = versions.get_mut(msg["game"].as_str().unwrap_or_default()) else { continue };
        match msg["type"].as_str() {
            Some("snapshot") => *version = msg["version"].as_u64().unwrap(),
            Some("patch") => {
                assert_eq!(msg["version"].as_u64(), Some(*version + 1), "patches in order, none missing");
                *version += 1;
                patches += 1;
            }
            _ => continue,
        }
        if !msg["outcome"].is_null() {
            over += 1;
        }
    }
    eprintln!("{patches} patches of {} games", versions.len());
    server.stop().await;
}
