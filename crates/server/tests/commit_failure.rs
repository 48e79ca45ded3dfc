//! A commit that fails: the table applied the action before committing it (it does not copy the
//! state per action), so it reloads the game from the store; the mover is told, every subscriber
//! gets a snapshot of the stored position, and play continues from there.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use common::play::Seen;
use common::{TestDb, TestServer, Ws};
use game_core::GameRng;
use serde_json::json;
use sqlx::Connection;

/// Makes every insert of action seq 3 fail, on either backend.
const FAIL_SQLITE: &str = "create trigger fail_seq_3 before insert on actions when new.seq = 3 \
                           begin select raise(abort, 'injected failure'); end";
const FAIL_PG_FN: &str = "create function fail_seq_3() returns trigger language plpgsql as \
                          $$ begin if new.seq = 3 then raise exception 'injected failure'; end if; return new; end $$";
const FAIL_PG: &str = "create trigger fail_seq_3 before insert on actions for each row execute function fail_seq_3()";

#[tokio::test]
async fn a_failed_commit_reloads_the_table_from_the_store_and_play_goes_on() {
    for db in TestDb::all().await {
        eprintln!("-- on {}", db.backend);
        let server = TestServer::start(&db).await;
        let http = server.http();
        let (ana, _) = http.guest("Ana").await;
        let created = ana.post("/api/lobbies", json!({"game": "knights-templar", "public": true})).await;
        let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
        let (ben, _) = http.guest("Ben").await;
        ben.post(&format!("/api/lobbies/{lobby}/join"), json!({})).await;
        ben.post(&format!("/api/lobbies/{lobby}/seat"), json!({"seat": 1})).await;
        let started = ana.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await;
        let game = started["game"].as_str().unwrap().to_string();
        let mut seen = vec![
            Seen::subscribe(Ws::connect(server.addr, ana.token.as_deref()).await, &game, None).await,
            Seen::subscribe(Ws::connect(server.addr, ben.token.as_deref()).await, &game, None).await,
            Seen::subscribe(Ws::connect(server.addr, None).await, &game, None).await,
        ];
        let mut rng = GameRng::from_u64(3);
        for version in 0..2 {
            let mover = (0..2).find(|i| seen[*i].to_move()).unwrap();
            let action = rng.choose(&seen[mover].legal).unwrap().clone();
            seen[mover].act(action, version).await.unwrap();
            for s in &mut seen {
                s.catch_up(version + 1).await;
            }
        }

        let mut admin = sqlx::AnyConnection::connect(&db.url).await.unwrap();
        if db.backend == "sqlite" {
            sqlx::query(FAIL_SQLITE).execute(&mut admin).await.unwrap();
        } else {
            sqlx::query(FAIL_PG_FN).execute(&mut admin).await.unwrap();
            sqlx::query(FAIL_PG).execute(&mut admin).await.unwrap();
        }
        let mover = (0..2).find(|i| seen[*i].to_move()).unwrap();
        let action = rng.choose(&seen[mover].legal).unwrap().clone();
        let had: Vec<_> = seen.iter().map(|s| s.view.clone()).collect();
        let refused = seen[mover].act(action.clone(), 2).await.unwrap_err();
        assert_eq!(refused["code"], "server/internal", "the mover learns that its action was not stored");
        // Every subscriber got the stored position again (the mover before its error).
        for (i, s) in seen.iter_mut().enumerate() {
            if i != mover {
                let snapshot = s.ws.recv_until(|m| m["type"] == "snapshot").await;
                s.absorb(snapshot);
            }
            let kinds: Vec<&str> = s.received.iter().map(|(k, _)| k.as_str()).collect();
            assert_eq!(kinds.iter().filter(|k| **k == "snapshot").count(), 2, "subscriber {i}: {kinds:?}");
            assert!(s.received.iter().all(|(_, v)| *v <= 2), "subscriber {i}: nothing of version 3 went out");
            assert_eq!(s.version, 2, "the table is back at the last stored version");
            assert_eq!(s.view, had[i], "and at the position stored with it");
        }

        sqlx::query("drop trigger fail_seq_3 on actions").execute(&mut admin).await.ok();
        sqlx::query("drop trigger fail_seq_3").execute(&mut admin).await.ok();
        let _ = admin.close().await;
        assert_eq!(seen[mover].act(action, 2).await, Ok(3), "the same action is accepted once the store takes it");
        for s in &mut seen {
            s.catch_up(3).await;
        }
        let log = ana.get(&format!("/api/games/{game}/log")).await;
        assert_eq!(log["version"], 3, "three actions are stored: {log}");
        server.stop().await;
        db.cleanup().await;
    }
}
