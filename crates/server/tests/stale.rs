//! Simultaneous decisions: an action is stale only if what its seat could do changed since the
//! version it was chosen at.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use common::{TestDb, TestServer, Ws};
use serde_json::{json, Value};

/// Subscribes again and returns the snapshot.
async fn snapshot(ws: &mut Ws, game: &str) -> Value {
    ws.send(json!({"type": "subscribe", "game": game})).await;
    ws.recv_until(|m| m["type"] == "snapshot").await
}

/// Sends an action and returns the answer (`ack` or `error`).
async fn act(ws: &mut Ws, game: &str, version: u64, action: &Value, req: u64) -> Value {
    ws.send(json!({"type": "action", "game": game, "version": version, "action": action, "req": req})).await;
    ws.recv_until(|m| m["req"] == req && (m["type"] == "ack" || m["type"] == "error")).await
}

/// A three-player Templars' Journey game (lobby `options` merged into the request), its players'
/// sockets, and every seat's snapshot at the first step where the game waits for two seats at
/// once (reached by playing each seat's first legal action).
async fn at_a_simultaneous_decision(server: &TestServer, options: Value) -> (String, Vec<Ws>, Vec<Value>) {
    let http = server.http();
    let mut players = Vec::new();
    for name in ["Ana", "Ben", "Cy"] {
        players.push(http.guest(name).await.0);
    }
    let mut request = json!({"game": "templars-journey"});
    if let (Some(r), Some(o)) = (request.as_object_mut(), options.as_object()) {
        r.extend(o.clone());
    }
    let created = players[0].post("/api/lobbies", request).await;
    let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
    let code = created["lobby"]["invite_code"].clone();
    for (seat, p) in players.iter().enumerate().skip(1) {
        p.post(&format!("/api/lobbies/{lobby}/join"), json!({ "code": code })).await;
        p.post(&format!("/api/lobbies/{lobby}/seat"), json!({ "seat": seat })).await;
    }
    let game =
        players[0].post(&format!("/api/lobbies/{lobby}/start"), json!({})).await["game"].as_str().unwrap().to_string();
    let mut sockets = Vec::new();
    for p in &players {
        sockets.push(Ws::connect(server.addr, p.token.as_deref()).await);
    }
    let mut req = 100;
    let mut views: Vec<Value> = Vec::new();
    for _ in 0..300 {
        views.clear();
        for ws in sockets.iter_mut() {
            views.push(snapshot(ws, &game).await);
        }
        if views[0]["to_act"].as_array().unwrap().len() >= 2 {
            return (game, sockets, views);
        }
        let seat = views[0]["to_act"][0].as_u64().unwrap() as usize;
        let version = views[seat]["version"].as_u64().unwrap();
        let action = views[seat]["legal_actions"][0].clone();
        req += 1;
        assert_eq!(act(&mut sockets[seat], &game, version, &action, req).await["type"], "ack");
    }
    panic!("the game reached no simultaneous decision in 300 steps");
}

/// The seats a snapshot says the game waits for.
fn waiting(view: &Value) -> Vec<usize> {
    view["to_act"].as_array().unwrap().iter().map(|s| s.as_u64().unwrap() as usize).collect()
}

#[tokio::test]
async fn a_seat_deciding_at_the_same_time_as_another_is_not_refused_as_stale() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let (game, mut sockets, views) = at_a_simultaneous_decision(&server, json!({})).await;
    let to_act = waiting(&views[0]);
    let (a, b) = (to_act[0], to_act[1]);
    let version = views[a]["version"].as_u64().unwrap();
    let (choice_a, choice_b) = (views[a]["legal_actions"][0].clone(), views[b]["legal_actions"][0].clone());

    let first = act(&mut sockets[a], &game, version, &choice_a, 1).await;
    assert_eq!((first["type"].as_str(), first["version"].as_u64()), (Some("ack"), Some(version + 1)), "{first}");
    // Seat b chose at the same version; its options did not change: played, not refused.
    let second = act(&mut sockets[b], &game, version, &choice_b, 2).await;
    assert_eq!((second["type"].as_str(), second["version"].as_u64()), (Some("ack"), Some(version + 2)), "{second}");
    // Seat a's options did change (it has chosen): the same old version is stale for it.
    let again = act(&mut sockets[a], &game, version, &choice_a, 3).await;
    assert_eq!(again["code"], "game/stale_version", "{again}");
    server.stop().await;
}

#[tokio::test]
async fn the_turn_clock_of_a_simultaneous_decision_keeps_running_when_one_seat_decides() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    // 600 turn seconds are 60 s with the tests' 100-ms second: far more than the walk takes.
    let (game, mut sockets, views) = at_a_simultaneous_decision(&server, json!({"turn_seconds": 600})).await;
    let to_act = waiting(&views[0]);
    let (a, b) = (to_act[0], to_act[1]);
    let before = views[b]["clock"]["remaining_ms"].as_u64().expect("a timed game sends its clock");
    assert_eq!(views[b]["clock"]["seats"], views[0]["to_act"], "one clock for everyone the game waits for");
    // Time passes while seat b thinks; seat a decides.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let version = views[a]["version"].as_u64().unwrap();
    let choice = views[a]["legal_actions"][0].clone();
    assert_eq!(act(&mut sockets[a], &game, version, &choice, 1).await["type"], "ack");
    let patch = sockets[b].recv_until(|m| m["type"] == "patch").await;
    let still: Vec<usize> = waiting(&json!({"to_act": patch["clock"]["seats"]}));
    assert!(still.contains(&b) && !still.contains(&a), "b still waits, a no longer: {patch}");
    let after = patch["clock"]["remaining_ms"].as_u64().unwrap();
    assert!(after < before, "b's time kept running while a decided ({before} ms before, {after} ms after)");
    server.stop().await;
}
