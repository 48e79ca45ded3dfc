//! `/metrics`: Prometheus text with the server's action, store, table, socket and rate-limit
//! figures.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use chapterhouse::limits::{LimitsConfig, Rate};
use chapterhouse::serve::ServerConfig;
use common::{generous_limits, TestDb, TestServer, Ws};
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

#[tokio::test]
async fn metrics_count_actions_by_result_and_show_store_tables_sockets_and_rate_limits() {
    let db = TestDb::sqlite();
    let limits = LimitsConfig { new_lobbies: Rate::new(1, Duration::from_secs(3600)), ..generous_limits() };
    let server = TestServer::start_config(ServerConfig {
        database_url: db.url.clone(),
        web_dir: "web".into(),
        tables: common::fast_tables(),
        socket_queue: chapterhouse::outbox::DEFAULT_CAPACITY,
        socket_send_buffer: None,
        catalog: Arc::new(chapterhouse::catalog::Catalog::standard()),
        limits,
        trust_forwarded_for: false,
        nats_url: None,
    })
    .await;
    let http = server.http();
    let (ana, _) = http.guest("Ana").await;
    let (ben, _) = http.guest("Ben").await;
    let created = ana.post("/api/lobbies", json!({"game": "knights-templar", "public": true})).await;
    let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
    let (status, _) = ana.call("POST", "/api/lobbies", Some(json!({"game": "knights-templar"}))).await;
    assert_eq!(status, 429);
    ben.post(&format!("/api/lobbies/{lobby}/join"), json!({})).await;
    ben.post(&format!("/api/lobbies/{lobby}/seat"), json!({"seat": 1})).await;
    let game = ana.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await["game"].as_str().unwrap().to_string();

    let mut ws = Ws::connect(server.addr, ana.token.as_deref()).await;
    ws.send(json!({"type": "subscribe", "game": game})).await;
    let snapshot = ws.recv().await;
    ws.send(json!({"type": "action", "game": game, "version": 99, "action": {}, "req": 1})).await;
    assert_eq!(ws.recv_until(|m| m["req"] == 1).await["code"], "game/stale_version");
    let first = if snapshot["to_act"][0] == 0 { &ana } else { &ben };
    let mut player = Ws::connect(server.addr, first.token.as_deref()).await;
    player.send(json!({"type": "subscribe", "game": game})).await;
    let snap = player.recv_until(|m| m["type"] == "snapshot").await;
    let action = snap["legal_actions"][0].clone();
    player.send(json!({"type": "action", "game": game, "version": 0, "action": action, "req": 2})).await;
    assert_eq!(player.recv_until(|m| m["req"] == 2).await["type"], "ack");

    let text = reqwest::get(format!("http://{}/metrics", server.addr)).await.unwrap().text().await.unwrap();
    for expected in [
        "chapterhouse_actions_total{result=\"accepted\"}",
        "chapterhouse_actions_total{result=\"game/stale_version\"}",
        "chapterhouse_action_seconds_bucket",
        "chapterhouse_store_batch_size_bucket",
        "chapterhouse_store_commit_seconds_bucket",
        "chapterhouse_live_tables",
        "chapterhouse_sockets",
        "chapterhouse_subscriptions",
        "chapterhouse_rate_limited_total{limit=\"new_lobby\"}",
    ] {
        assert!(text.contains(expected), "{expected} in:\n{text}");
    }
    server.stop().await;
}
