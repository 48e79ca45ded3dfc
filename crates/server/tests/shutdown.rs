//! A graceful stop (SIGTERM) loses no answer: an action that is stored when the signal arrives
//! still gets its patch and its ack on the mover's socket before the socket closes with 1001.
//!
//! The race is made deterministic with a test engine whose view blocks on a gate: the table has
//! committed the action and is computing its patches (so it has not acked yet) when the test
//! signals the stop, and it goes on only once the test has seen the server stop accepting
//! connections and the socket stay open.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use common::{TestDb, TestServer, Ws};
use serde_json::{json, Value};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// Holds the first view computed after it is armed until it is released.
struct Gate {
    state: Mutex<GateState>,
    changed: Condvar,
}

#[derive(Default)]
struct GateState {
    armed: bool,
    entered: bool,
    released: bool,
}

static GATE: Gate =
    Gate { state: Mutex::new(GateState { armed: false, entered: false, released: false }), changed: Condvar::new() };

impl Gate {
    fn arm(&self) {
        *self.state.lock().unwrap() = GateState { armed: true, ..GateState::default() };
    }

    /// Called by the engine: blocks the caller if armed, until released.
    fn pass(&self) {
        let mut s = self.state.lock().unwrap();
        if !s.armed {
            return;
        }
        s.armed = false;
        s.entered = true;
        self.changed.notify_all();
        while !s.released {
            s = self.changed.wait(s).unwrap();
        }
    }

    /// Waits (on a blocking thread) until the engine is held at the gate.
    async fn entered(&'static self) {
        tokio::task::spawn_blocking(move || {
            let s = self.state.lock().unwrap();
            let (s, timeout) = self.changed.wait_timeout_while(s, Duration::from_secs(10), |s| !s.entered).unwrap();
            assert!(!timeout.timed_out() && s.entered, "the table never computed the action's view");
        })
        .await
        .unwrap();
    }

    fn release(&self) {
        if let Ok(mut s) = self.state.lock() {
            s.released = true;
        }
        self.changed.notify_all();
    }
}

/// The toy game's catalog, its views passing through [`GATE`].
fn gated() -> Arc<chapterhouse::catalog::Catalog> {
    common::toy::on_view(|| GATE.pass());
    common::toy::toy_catalog()
}

/// Releases the gate when dropped: a failing assertion must not leave a worker thread blocked (the
/// test's runtime would never shut down).
struct ReleaseOnDrop;

impl Drop for ReleaseOnDrop {
    fn drop(&mut self) {
        GATE.release();
    }
}

async fn subscribe(ws: &mut Ws, game: &str) -> Value {
    ws.send(json!({"type": "subscribe", "game": game, "req": 1})).await;
    ws.recv_until(|m| m["type"] == "snapshot" || m["type"] == "error").await
}

// The engine blocks one worker thread at the gate; the server needs others meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn on_sigterm_a_stored_action_still_gets_its_patch_and_ack_before_the_socket_closes() {
    for db in TestDb::all().await {
        let mut server = TestServer::start_with_catalog(&db, gated()).await;
        let (ana, _) = server.http().guest("Ana").await;
        let lobby = ana.post("/api/lobbies", json!({"game": "toy"})).await["lobby"]["id"].as_str().unwrap().to_string();
        let game =
            ana.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await["game"].as_str().unwrap().to_string();
        let mut ws = Ws::connect(server.addr, ana.token.as_deref()).await;
        assert_eq!(subscribe(&mut ws, &game).await["type"], "snapshot");

        GATE.arm();
        let release = ReleaseOnDrop;
        ws.send(json!({"type": "action", "game": game, "version": 0, "action": "step", "req": 7})).await;
        // The action is committed (views are computed only after the commit) but not yet acked.
        GATE.entered().await;
        server.signal_stop();
        let mut refused = false;
        for _ in 0..400 {
            if server.refuses_connections().await {
                refused = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        assert!(refused, "{}: the server stops accepting connections once signalled", db.backend);
        // A server that closed its sockets at once would send the close frame now, ahead of the ack.
        assert!(
            ws.quiet_for(Duration::from_millis(500)).await,
            "{}: the socket stays open while the action is still being answered",
            db.backend
        );
        drop(release);

        let (messages, close) = ws.until_close().await;
        let patch = messages.iter().position(|m| m["type"] == "patch" && m["version"] == 1);
        let ack = messages.iter().position(|m| m["type"] == "ack" && m["req"] == 7);
        assert!(patch.is_some(), "{}: the mover got the action's patch before the close: {messages:?}", db.backend);
        assert!(ack.is_some(), "{}: the mover got the ack before the close: {messages:?}", db.backend);
        assert!(patch < ack, "{}: the patch comes first, then the ack: {messages:?}", db.backend);
        assert_eq!(messages[ack.unwrap()]["version"], 1);
        assert_eq!(close.map(|(code, _)| code), Some(1001), "{}: then the socket closes with 1001", db.backend);
        server.stop().await;

        // The acknowledged action is stored: the game restarts at version 1.
        let server = TestServer::start_with_catalog(&db, gated()).await;
        let mut ws = Ws::connect(server.addr, ana.token.as_deref()).await;
        let snapshot = subscribe(&mut ws, &game).await;
        assert_eq!(
            (snapshot["type"].as_str(), snapshot["version"].as_u64()),
            (Some("snapshot"), Some(1)),
            "{snapshot}"
        );
        server.stop().await;
        db.cleanup().await;
    }
}
