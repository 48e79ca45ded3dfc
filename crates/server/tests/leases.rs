//! Table leases and fencing (cluster mode, PostgreSQL only): one node at a time appends to a game,
//! and a node whose lease was taken over is refused in the appending transaction.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use chapterhouse::ids::GameId;
use chapterhouse::store::writer::{AppendError, Writer};
use chapterhouse::store::{AccountKind, ActionRow, LeaseBook, NewGame, Store, StoreError};
use common::TestDb;
use game_core::{Seat, Seed, StateHash};
use serde_json::json;
use std::sync::Arc;

const TTL_MS: i64 = 3000;

async fn store_with_a_game() -> Option<(TestDb, Store, GameId)> {
    let db = TestDb::postgres().await?;
    let store = Store::open(&db.url).await.unwrap();
    let a = store.create_account("A", AccountKind::Guest, None, None).await.unwrap();
    let game = NewGame {
        id: GameId::random(),
        lobby: None,
        game: "some-game".into(),
        engine_version: "1.0.0".into(),
        options: json!({}),
        seats: vec!["P0".into(), "P1".into()],
        bots: vec![false, false],
        accounts: vec![a.id.clone(), a.id],
        public: true,
        invite_code: None,
        turn_seconds: None,
        seed: Seed::from_u64(1),
        initial_hash: StateHash("h0".into()),
    };
    store.start_game(&game, None).await.unwrap();
    Some((db, store, game.id))
}

fn row(game: &GameId, seq: u64, tag: &str) -> ActionRow {
    ActionRow {
        game: game.clone(),
        seq,
        seat: Seat(0),
        action: serde_json::value::to_raw_value(&json!({"by": tag})).unwrap(),
        hash: StateHash(format!("h{seq}")),
        outcome: None,
        by_clock: false,
    }
}

/// Lets every lease lapse now (what a dead node's leases do after `LEASE_TTL`).
async fn lapse(store: &Store, db: &TestDb) {
    sqlx::any::install_default_drivers();
    let mut conn = <sqlx::AnyConnection as sqlx::Connection>::connect(&db.url).await.unwrap();
    sqlx::query("update table_leases set expires_at = 0").execute(&mut conn).await.unwrap();
    let _ = store;
}

#[tokio::test]
async fn a_live_lease_is_one_node_s_and_a_lapsed_one_moves_with_a_new_epoch() {
    let Some((db, store, game)) = store_with_a_game().await else { return };
    assert_eq!(store.acquire_lease(&game, "a", TTL_MS).await.unwrap(), Some(1));
    assert_eq!(store.acquire_lease(&game, "b", TTL_MS).await.unwrap(), None, "b cannot take a live lease");
    let holder = store.lease_holder(&game).await.unwrap().unwrap();
    assert_eq!((holder.node.as_str(), holder.epoch, holder.live), ("a", 1, true));
    assert!(store.orphaned_games(10).await.unwrap().is_empty(), "a held game is nobody's to take");
    assert!(store.renew_leases("a", TTL_MS).await.unwrap().contains_key(&game));

    lapse(&store, &db).await;
    assert_eq!(store.orphaned_games(10).await.unwrap(), vec![game.clone()], "a lapsed lease's game is up for grabs");
    assert_eq!(store.acquire_lease(&game, "b", TTL_MS).await.unwrap(), Some(2), "the taker gets a new epoch");
    assert!(store.renew_leases("a", TTL_MS).await.unwrap().is_empty(), "the old owner renews nothing");
    store.close().await;
    db.cleanup().await;
}

#[tokio::test]
async fn an_append_by_a_node_whose_lease_was_taken_over_is_refused_and_writes_nothing() {
    let Some((db, store, game)) = store_with_a_game().await else { return };
    let a = Arc::new(LeaseBook::new("a".into()));
    let b = Arc::new(LeaseBook::new("b".into()));
    a.hold(game.clone(), store.acquire_lease(&game, "a", TTL_MS).await.unwrap().unwrap());
    store.append_actions_fenced(&[row(&game, 1, "a")], Some(&a.fence())).await.unwrap();

    // a pauses; its lease lapses and b takes the game. a still believes it holds epoch 1.
    lapse(&store, &db).await;
    b.hold(game.clone(), store.acquire_lease(&game, "b", TTL_MS).await.unwrap().unwrap());
    let refused = store.append_actions_fenced(&[row(&game, 2, "a")], Some(&a.fence())).await;
    assert!(matches!(refused, Err(StoreError::Fenced(ref g)) if *g == game), "{refused:?}");
    store.append_actions_fenced(&[row(&game, 2, "b")], Some(&b.fence())).await.unwrap();

    // Through the writer, as a table appends: the old owner's append is refused as not its own.
    let (writer, task) = Writer::spawn_fenced(store.clone(), Some(Arc::clone(&a)));
    assert!(matches!(writer.append(row(&game, 3, "a")).await, Err(AppendError::NotOwner)));
    // So is an append for a game the node never held.
    assert!(matches!(writer.append(row(&GameId::random(), 1, "a")).await, Err(AppendError::NotOwner)));
    drop(writer);
    task.await.unwrap();

    let stored: Vec<_> = store
        .actions(&game)
        .await
        .unwrap()
        .iter()
        .map(|r| serde_json::from_str::<serde_json::Value>(r.action.get()).unwrap()["by"].clone())
        .collect();
    assert_eq!(stored, vec![json!("a"), json!("b")], "only the lease holder's appends are in the log");
    store.close().await;
    db.cleanup().await;
}
