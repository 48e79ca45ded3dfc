//! Floods and leftovers: rate limits, password hashing bounds, caps, and a kicked member who
//! tries to come back.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use chapterhouse::limits::{LimitsConfig, Rate};
use chapterhouse::serve::ServerConfig;
use common::{code, generous_limits, TestDb, TestServer, Ws};
use serde_json::json;
use sqlx::Connection;
use std::sync::Arc;
use std::time::Duration;

fn config(db: &TestDb, limits: LimitsConfig) -> ServerConfig {
    ServerConfig {
        database_url: db.url.clone(),
        web_dir: "web".into(),
        tables: common::fast_tables(),
        socket_queue: chapterhouse::outbox::DEFAULT_CAPACITY,
        socket_send_buffer: None,
        catalog: Arc::new(chapterhouse::catalog::Catalog::standard()),
        limits,
        trust_forwarded_for: false,
        nats_url: None,
    }
}

const GAME: &str = "knights-templar";

#[tokio::test]
async fn a_kicked_member_cannot_rejoin_as_a_new_guest_with_the_old_code_and_stops_watching_the_game() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let http = server.http();
    let (ana, _) = http.guest("Ana").await;
    let (ben, ben_id) = http.guest("Ben").await;
    let created = ana.post("/api/lobbies", json!({"game": GAME})).await;
    let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
    let old_code = created["lobby"]["invite_code"].as_str().unwrap().to_string();
    ben.post(&format!("/api/lobbies/{lobby}/join"), json!({"code": old_code})).await;
    ana.post(&format!("/api/lobbies/{lobby}/bots"), json!({"seat": 1})).await;
    let game = ana.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await["game"].as_str().unwrap().to_string();

    // Ben watches the game as a member of its lobby.
    let mut ws = Ws::connect(server.addr, ben.token.as_deref()).await;
    ws.send(json!({"type": "subscribe", "game": game, "req": 1})).await;
    assert_eq!(ws.recv().await["type"], "snapshot");

    let kicked = ana.post(&format!("/api/lobbies/{lobby}/kick"), json!({"account": ben_id})).await;
    let new_code = kicked["lobby"]["invite_code"].as_str().unwrap().to_string();
    assert_ne!(new_code, old_code, "the invite code changed");
    let notice = ws.recv_until(|m| m["type"] == "error").await;
    assert_eq!((notice["code"].as_str(), notice["game"].as_str()), (Some("lobby/kicked"), Some(game.as_str())));

    // The game goes on without him: a bot move later, nothing more reaches his socket.
    ws.send(json!({"type": "ping", "req": 2})).await;
    let next = ws.recv().await;
    assert_eq!(next["type"], "pong", "no patch after the notice: {next}");
    // Not with the code he knew, as himself or as someone new.
    ws.send(json!({"type": "subscribe", "game": game, "code": old_code, "req": 3})).await;
    assert_eq!(ws.recv().await["code"], "lobby/kicked");
    let (ben_again, _) = http.guest("Ben again").await;
    let (status, body) =
        ben_again.call("POST", &format!("/api/lobbies/{lobby}/join"), Some(json!({"code": old_code}))).await;
    assert_eq!((status, code(&body)), (403, "lobby/invite_required"), "{body}");
    let mut stranger = Ws::connect(server.addr, ben_again.token.as_deref()).await;
    stranger.send(json!({"type": "subscribe", "game": game, "code": old_code, "req": 4})).await;
    assert_eq!(stranger.recv().await["code"], "lobby/invite_required");
    server.stop().await;
}

#[tokio::test]
async fn floods_of_sign_ins_accounts_lobbies_messages_and_sockets_get_429_with_retry_after() {
    let db = TestDb::sqlite();
    let hour = Duration::from_secs(3600);
    let limits = LimitsConfig {
        sign_in: Rate::new(3, hour),
        new_accounts: Rate::new(3, hour),
        new_lobbies: Rate::new(2, hour),
        socket_messages: Rate::new(5, hour),
        sockets_per_ip: 3,
        ..generous_limits()
    };
    let server = TestServer::start_config(config(&db, limits)).await;
    let http = server.http();
    let (ana, _) = http.guest("Ana").await;
    http.guest("Ben").await;
    http.post("/api/register", json!({"name": "Registered", "password": "long enough"})).await;
    let (status, body) = http.call("POST", "/api/guest", Some(json!({"name": "Fourth"}))).await;
    assert_eq!((status, code(&body)), (429, "proto/rate_limited"), "{body}");
    assert!(body["error"]["details"]["retry_after"].as_u64().is_some_and(|s| s > 0), "{body}");
    let raw = reqwest::Client::new().post(format!("{}/api/guest", http.base)).json(&json!({"name": "x"})).send().await;
    let retry_after = raw.unwrap().headers().get("retry-after").and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    assert!(retry_after.is_some_and(|s| s > 0), "Retry-After is set: {retry_after:?}");

    for _ in 0..3 {
        let (status, _) =
            http.call("POST", "/api/login", Some(json!({"name": "nobody", "password": "wrong one"}))).await;
        assert_eq!(status, 401);
    }
    let (status, body) =
        http.call("POST", "/api/login", Some(json!({"name": "Registered", "password": "long enough"}))).await;
    assert_eq!((status, code(&body)), (429, "proto/rate_limited"), "sign-ins are limited per address: {body}");

    for _ in 0..2 {
        ana.post("/api/lobbies", json!({"game": GAME})).await;
    }
    let (status, body) = ana.call("POST", "/api/lobbies", Some(json!({"game": GAME}))).await;
    assert_eq!((status, code(&body)), (429, "proto/rate_limited"), "{body}");

    let mut ws = Ws::connect(server.addr, ana.token.as_deref()).await;
    for req in 0..5 {
        ws.send(json!({"type": "ping", "req": req})).await;
        assert_eq!(ws.recv().await["type"], "pong");
    }
    ws.send(json!({"type": "ping", "req": 9})).await;
    let refused = ws.recv().await;
    assert_eq!((refused["code"].as_str(), refused["req"].as_u64()), (Some("proto/rate_limited"), Some(9)), "{refused}");

    let _second = Ws::connect(server.addr, None).await;
    let _third = Ws::connect(server.addr, None).await;
    let fourth = tokio_tungstenite::connect_async(common::ws_request(server.addr, None)).await;
    match fourth {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => assert_eq!(response.status().as_u16(), 429),
        other => panic!("a fourth socket from one address is refused, got {:?}", other.map(|_| ())),
    }
    server.stop().await;
}

#[tokio::test]
async fn a_lobby_takes_members_up_to_its_cap_and_a_socket_subscriptions_up_to_its_cap() {
    let db = TestDb::sqlite();
    let limits = LimitsConfig { members_per_lobby: 2, subscriptions_per_socket: 2, ..generous_limits() };
    let server = TestServer::start_config(config(&db, limits)).await;
    let http = server.http();
    let (ana, _) = http.guest("Ana").await;
    let (ben, _) = http.guest("Ben").await;
    let (cy, _) = http.guest("Cy").await;
    let lobby = ana.post("/api/lobbies", json!({"game": GAME, "public": true})).await["lobby"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    ben.post(&format!("/api/lobbies/{lobby}/join"), json!({})).await;
    let (status, body) = cy.call("POST", &format!("/api/lobbies/{lobby}/join"), Some(json!({}))).await;
    assert_eq!((status, code(&body)), (409, "lobby/full"), "{body}");

    let mut ws = Ws::connect(server.addr, None).await;
    for other in [&ana, &ben] {
        let id = other.post("/api/lobbies", json!({"game": GAME, "public": true})).await["lobby"]["id"].clone();
        ws.send(json!({"type": "subscribe_lobby", "lobby": id})).await;
        assert_eq!(ws.recv().await["type"], "lobby");
    }
    ws.send(json!({"type": "subscribe_lobby", "lobby": lobby, "req": 3})).await;
    let refused = ws.recv().await;
    assert_eq!(refused["code"], "proto/too_many_subscriptions", "{refused}");
    server.stop().await;
}

#[tokio::test]
async fn tokens_expire_after_30_idle_days_sign_out_everywhere_ends_every_session_and_leftovers_are_purged() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let http = server.http();
    let (ana, _) = http.guest("Ana").await;
    // The idle guest's token is stored beside the server: one it issued itself it would take as
    // valid for a minute without asking the store (`Sessions::issued`), and this test moves the
    // token's last use 31 days back in the store, not the clock.
    let mut idle = http.clone();
    idle.token = Some(chapterhouse::accounts::new_token());
    let store = chapterhouse::store::Store::open(&db.url).await.unwrap();
    let idle_hash = chapterhouse::accounts::token_hash(idle.token.as_deref().unwrap());
    store.create_account("Idle", chapterhouse::store::AccountKind::Guest, None, Some(&idle_hash)).await.unwrap();
    http.post("/api/register", json!({"name": "Reg", "password": "long enough"})).await;
    let mut first = http.clone();
    first.token = http.post("/api/login", json!({"name": "reg", "password": "long enough"})).await["token"]
        .as_str()
        .map(str::to_string);
    let mut second = http.clone();
    second.token = http.post("/api/login", json!({"name": "reg", "password": "long enough"})).await["token"]
        .as_str()
        .map(str::to_string);
    let mut ws = Ws::connect(server.addr, second.token.as_deref()).await;

    // Sign out everywhere: both tokens die, and the socket opened with the other one is closed.
    let (status, _) = first.call("POST", "/api/logout/all", None).await;
    assert_eq!(status, 204);
    for client in [&first, &second] {
        let (status, body) = client.call("GET", "/api/me", None).await;
        assert_eq!((status, code(&body)), (401, "auth/invalid_token"));
    }
    assert_eq!(ws.close_code().await, Some(4401));

    // 31 days without use: the idle guest's token has expired; Ana's, used now, has not.
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(&db.url).await.unwrap();
    let long_ago = chapterhouse::ids::now_ms() - 31 * 24 * 3600 * 1000;
    sqlx::query(&format!(
        "update tokens set created_at = {long_ago}, last_used_at = {long_ago} where hash = '{idle_hash}'"
    ))
    .execute(&mut conn)
    .await
    .unwrap();
    sqlx::query(&format!("update accounts set created_at = {long_ago} where name = 'Idle'"))
        .execute(&mut conn)
        .await
        .unwrap();
    let (status, body) = idle.call("GET", "/api/me", None).await;
    assert_eq!((status, code(&body)), (401, "auth/invalid_token"), "{body}");
    assert_eq!(ana.get("/api/me").await["name"], "Ana");

    let (tokens, guests) = store.purge_expired(chapterhouse::accounts::TOKEN_IDLE_EXPIRY).await.unwrap();
    assert_eq!((tokens, guests), (4, 1), "Reg's three revoked tokens and the idle one; the idle guest");
    let left: i64 =
        sqlx::query_scalar("select count(*) from accounts where name = 'Idle'").fetch_one(&mut conn).await.unwrap();
    assert_eq!(left, 0);
    assert_eq!(ana.get("/api/me").await["name"], "Ana", "live sessions are untouched");
    server.stop().await;
}

#[tokio::test]
async fn a_started_lobby_nobody_follows_leaves_memory_and_still_answers_from_the_store() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let (ana, _) = server.http().guest("Ana").await;
    let lobby = ana.post("/api/lobbies", json!({"game": GAME})).await["lobby"]["id"].as_str().unwrap().to_string();
    ana.post(&format!("/api/lobbies/{lobby}/bots"), json!({"seat": 1})).await;
    let before = server.http().get("/healthz").await["live_lobbies"].as_u64().unwrap();
    assert!(before >= 1);
    ana.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await;
    let after = server.http().get("/healthz").await["live_lobbies"].as_u64().unwrap();
    assert_eq!(after, before - 1, "the started lobby was dropped from memory");
    assert_eq!(ana.get(&format!("/api/lobbies/{lobby}")).await["lobby"]["status"], "started");
    server.stop().await;
}

#[tokio::test]
async fn an_account_s_socket_messages_are_limited_over_all_its_sockets() {
    let db = TestDb::sqlite();
    let hour = Duration::from_secs(3600);
    let limits = LimitsConfig { account_messages: Rate::new(6, hour), ..generous_limits() };
    let server = TestServer::start_config(config(&db, limits)).await;
    let http = server.http();
    let (ana, _) = http.guest("Ana").await;
    let (ben, _) = http.guest("Ben").await;
    // Three sockets of one account share one budget of six messages.
    let mut sockets = Vec::new();
    for _ in 0..3 {
        sockets.push(Ws::connect(server.addr, ana.token.as_deref()).await);
    }
    let mut req = 0;
    for ws in sockets.iter_mut() {
        for _ in 0..2 {
            req += 1;
            ws.send(json!({"type": "ping", "req": req})).await;
            assert_eq!(ws.recv().await["type"], "pong");
        }
    }
    let mut fresh = Ws::connect(server.addr, ana.token.as_deref()).await;
    fresh.send(json!({"type": "ping", "req": 99})).await;
    let refused = fresh.recv().await;
    assert_eq!(
        (refused["code"].as_str(), refused["req"].as_u64()),
        (Some("proto/rate_limited"), Some(99)),
        "{refused}"
    );
    // Another account, and a socket that has not signed in, keep their own budgets.
    let mut other = Ws::connect(server.addr, ben.token.as_deref()).await;
    other.send(json!({"type": "ping", "req": 1})).await;
    assert_eq!(other.recv().await["type"], "pong");
    let mut anonymous = Ws::connect(server.addr, None).await;
    anonymous.send(json!({"type": "ping", "req": 1})).await;
    assert_eq!(anonymous.recv().await["type"], "pong");
    server.stop().await;
}

#[tokio::test]
async fn hosts_racing_to_seat_bots_in_one_seat_leave_one_bot_account() {
    for db in TestDb::all().await {
        eprintln!("-- on {}", db.backend);
        let server = TestServer::start(&db).await;
        let (ana, _) = server.http().guest("Ana").await;
        let lobby = ana.post("/api/lobbies", json!({"game": GAME})).await["lobby"]["id"].as_str().unwrap().to_string();
        let path = format!("/api/lobbies/{lobby}/bots");
        // Eight requests for seat 1 at once: each passes the check on the lobby it read, and
        // one seats its bot.
        let tries = (0..8).map(|_| ana.call("POST", &path, Some(json!({"seat": 1}))));
        let answers = futures_util::future::join_all(tries).await;
        let seated = answers.iter().filter(|(status, _)| *status == 200).count();
        assert_eq!(seated, 1, "{answers:?}");
        for (status, body) in answers.iter().filter(|(status, _)| *status != 200) {
            assert_eq!((*status, code(body)), (409, "lobby/seat_taken"), "{body}");
        }
        let seats = ana.get(&format!("/api/lobbies/{lobby}")).await["lobby"]["seats"].clone();
        assert_eq!(seats[1]["bot"], true, "{seats}");
        sqlx::any::install_default_drivers();
        let mut conn = sqlx::AnyConnection::connect(&db.url).await.unwrap();
        let bots: i64 =
            sqlx::query_scalar("select count(*) from accounts where kind = 'bot'").fetch_one(&mut conn).await.unwrap();
        assert_eq!(bots, 1, "a refused request leaves no bot account behind");
        let _ = conn.close().await;
        server.stop().await;
        db.cleanup().await;
    }
}
