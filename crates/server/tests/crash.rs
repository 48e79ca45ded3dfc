//! Crash-proofing: nothing a guest sends, and no single stored game, can stop the server or leave
//! a game stuck; a table that fails is reloaded from the store.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use common::{code, Http, TestDb, TestServer, Ws};
use serde_json::{json, Value};
use sqlx::Connection;

const GAME: &str = "knights-templar";

/// A started game of Ana against a bot, with `turn_seconds`: (Ana's client, game id).
async fn game_against_a_bot(http: &Http, turn_seconds: Option<u64>) -> (Http, String) {
    let (ana, _) = http.guest("Ana").await;
    let created = ana.post("/api/lobbies", json!({"game": GAME, "turn_seconds": turn_seconds})).await;
    let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
    ana.post(&format!("/api/lobbies/{lobby}/bots"), json!({"seat": 1})).await;
    let game = ana.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await["game"].as_str().unwrap().to_string();
    (ana, game)
}

/// Runs one SQL statement on the test database (what an operator, or an old build, could leave).
async fn sql(db: &TestDb, statement: &str) {
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(&db.url).await.unwrap();
    sqlx::query(statement).execute(&mut conn).await.unwrap();
    let _ = conn.close().await;
}

/// Subscribes and returns the snapshot (or the error) the server answers with.
async fn subscribe(ws: &mut Ws, game: &str) -> Value {
    ws.send(json!({"type": "subscribe", "game": game, "req": 1})).await;
    ws.recv_until(|m| m["type"] == "snapshot" || m["type"] == "error").await
}

#[tokio::test]
async fn a_turn_limit_outside_its_range_is_refused_with_its_code_on_create_and_on_options() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let (ana, _) = server.http().guest("Ana").await;
    for bad in [json!(9_223_372_036_854_775_807_u64), json!(0), json!(-5), json!(1.5), json!(9), json!(604_801)] {
        let (status, body) = ana.call("POST", "/api/lobbies", Some(json!({"game": GAME, "turn_seconds": bad}))).await;
        assert_eq!((status, code(&body)), (422, "lobby/invalid_turn_limit"), "{bad}: {body}");
        assert_eq!(body["error"]["details"], json!({"min": 10, "max": 604_800}));
    }
    let created = ana.post("/api/lobbies", json!({"game": GAME, "turn_seconds": 10})).await;
    let lobby = created["lobby"]["id"].as_str().unwrap();
    let path = format!("/api/lobbies/{lobby}/options");
    let (status, body) = ana.call("POST", &path, Some(json!({"turn_seconds": 0}))).await;
    assert_eq!((status, code(&body)), (422, "lobby/invalid_turn_limit"), "{body}");
    let unchanged = ana.get(&format!("/api/lobbies/{lobby}")).await;
    assert_eq!(unchanged["lobby"]["turn_seconds"], 10, "a refused change changes nothing");
    assert_eq!(ana.post(&path, json!({"turn_seconds": null})).await["lobby"]["turn_seconds"], Value::Null);
    server.stop().await;
}

#[tokio::test]
async fn a_stored_game_with_an_absurd_turn_limit_restores_and_plays_on() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with_catalog(&db, common::toy::toy_catalog()).await;
    let (ana, _) = server.http().guest("Ana").await;
    let created = ana.post("/api/lobbies", json!({"game": "toy", "turn_seconds": 60})).await;
    let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
    let game = ana.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await["game"].as_str().unwrap().to_string();
    server.stop().await;
    // What an older build stored for a lobby created with turn_seconds = i64::MAX.
    sql(&db, &format!("update games set turn_seconds = 9223372036854775807 where id = '{game}'")).await;

    let server = TestServer::start_with_catalog(&db, common::toy::toy_catalog()).await;
    let mut ws = Ws::connect(server.addr, ana.token.as_deref()).await;
    assert_eq!(subscribe(&mut ws, &game).await["type"], "snapshot");
    // Every action restarts the seat's clock: each must survive it.
    for version in 0..3 {
        let req = 10 + version;
        ws.send(json!({"type": "action", "game": game, "version": version, "action": "step", "req": req})).await;
        let answer = ws.recv_until(|m| m["req"] == req).await;
        assert_eq!((answer["type"].as_str(), answer["version"].as_u64()), (Some("ack"), Some(version + 1)), "{answer}");
    }
    server.stop().await;
}

#[tokio::test]
async fn a_game_that_cannot_be_restored_is_marked_broken_and_the_others_start() {
    for db in TestDb::all().await {
        let server = TestServer::start(&db).await;
        let http = server.http();
        let (_, broken) = game_against_a_bot(&http, None).await;
        let (ana, healthy) = game_against_a_bot(&http, None).await;
        server.stop().await;
        sql(&db, &format!("update games set seats = 'not json' where id = '{broken}'")).await;

        let server = TestServer::start(&db).await;
        let mut ws = Ws::connect(server.addr, ana.token.as_deref()).await;
        assert_eq!(subscribe(&mut ws, &healthy).await["type"], "snapshot", "{}: the other game plays", db.backend);
        let answer = subscribe(&mut ws, &broken).await;
        assert_eq!(answer["code"], "game/broken", "{}: {answer}", db.backend);
        server.stop().await;
        db.cleanup().await;
    }
}

#[tokio::test]
async fn a_table_that_panics_is_dropped_and_the_next_request_reloads_it_from_the_store() {
    let db = TestDb::sqlite();
    let server = TestServer::start_with_catalog(&db, common::toy::toy_catalog()).await;
    let (ana, _) = server.http().guest("Ana").await;
    let lobby = ana.post("/api/lobbies", json!({"game": "toy"})).await["lobby"]["id"].as_str().unwrap().to_string();
    let game = ana.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await["game"].as_str().unwrap().to_string();
    let mut ws = Ws::connect(server.addr, ana.token.as_deref()).await;
    assert_eq!(subscribe(&mut ws, &game).await["type"], "snapshot");
    ws.send(json!({"type": "action", "game": game, "version": 0, "action": "step", "req": 2})).await;
    assert_eq!(ws.recv_until(|m| m["req"] == 2).await["type"], "ack");

    ws.send(json!({"type": "action", "game": game, "version": 1, "action": "explode", "req": 3})).await;
    let answer = ws.recv_until(|m| m["req"] == 3).await;
    assert_eq!(answer["code"], "server/internal", "{answer}");

    let again = subscribe(&mut ws, &game).await;
    assert_eq!((again["type"].as_str(), again["version"].as_u64()), (Some("snapshot"), Some(1)), "{again}");
    ws.send(json!({"type": "action", "game": game, "version": 1, "action": "step", "req": 4})).await;
    let answer = ws.recv_until(|m| m["req"] == 4).await;
    assert_eq!((answer["type"].as_str(), answer["version"].as_u64()), (Some("ack"), Some(2)), "{answer}");
    server.stop().await;
}
