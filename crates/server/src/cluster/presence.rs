//! What nodes ask each other about, besides games: which seats a game waits for ("your turn"
//! marks in `GET /api/me/games`), and who is still there (heartbeats).
//!
//! - **Turns**: only a game's owner knows whose turn it is now. A node listing an account's games
//!   asks each owner once (`chapterhouse.turns.<owner>`, request/reply, every game of that owner
//!   in one request), all owners at once, with a short timeout: an owner that does not answer in
//!   time leaves its games unmarked (the mark is a hint; the game itself is always right).
//! - **Heartbeats**: every node publishes its id on `chapterhouse.alive` each [`RENEW_EVERY`]. An
//!   owner drops the remote subscribers of a node it has not heard for [`LEASE_TTL`] (the node
//!   died, or was cut off and has given up its games), instead of publishing their patches to
//!   nobody until the game ends.

use super::{Node, LEASE_TTL, RENEW_EVERY};
use crate::ids::GameId;
use crate::state::AppState;
use crate::table::{Command, Tables};
use bytes::Bytes;
use game_core::Seat;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// How long a node listing games waits for the owners' answers about turns.
const TURNS_TIMEOUT: Duration = Duration::from_millis(500);

const ALIVE: &str = "chapterhouse.alive";

fn turns_subject(node: &str) -> String {
    format!("chapterhouse.turns.{node}")
}

/// One game and seat whose turn is asked about.
#[derive(Debug, Serialize, Deserialize)]
struct TurnAsk {
    game: GameId,
    seat: Seat,
}

impl Node {
    /// Of `asks` (games with the asking account's seat), the games that wait for that seat now,
    /// as their owners (other nodes) see it. A game whose owner does not answer in time is left
    /// out.
    pub async fn waiting_elsewhere(&self, asks: Vec<(GameId, Seat)>) -> HashSet<GameId> {
        if asks.is_empty() {
            return HashSet::new();
        }
        let games: Vec<GameId> = asks.iter().map(|(g, _)| g.clone()).collect();
        let owners = match self.store.live_lease_holders(&games).await {
            Ok(owners) => owners,
            Err(e) => {
                tracing::warn!(error = %e, "lease holders not read: no turn marks from other nodes");
                return HashSet::new();
            }
        };
        let mut by_owner: HashMap<String, Vec<TurnAsk>> = HashMap::new();
        for (game, seat) in asks {
            if let Some(owner) = owners.get(&game).filter(|o| **o != self.id) {
                by_owner.entry(owner.clone()).or_default().push(TurnAsk { game, seat });
            }
        }
        let requests = by_owner.into_iter().map(|(owner, asks)| async move {
            let payload = serde_json::to_vec(&asks).ok()?;
            let request = self.nats.request(turns_subject(&owner), Bytes::from(payload));
            let reply = match tokio::time::timeout(TURNS_TIMEOUT, request).await {
                Ok(Ok(reply)) => reply,
                _ => {
                    tracing::warn!(%owner, "a game owner did not say whose turn it is");
                    return None;
                }
            };
            let waiting: Vec<bool> = serde_json::from_slice(&reply.payload).ok()?;
            Some(asks.into_iter().zip(waiting).filter(|(_, w)| *w).map(|(a, _)| a.game).collect::<Vec<_>>())
        });
        futures_util::future::join_all(requests).await.into_iter().flatten().flatten().collect()
    }

    /// Notes that `node` was heard from now.
    fn heard(&self, node: &str) {
        if let Ok(mut seen) = self.seen.lock() {
            seen.insert(node.to_string(), Instant::now());
        }
    }

    /// Notes that `node` has a socket subscribed here, counting it as heard if it was not yet
    /// (its first heartbeat may still be on its way).
    pub(super) fn heard_if_new(&self, node: &str) {
        if let Ok(mut seen) = self.seen.lock() {
            seen.entry(node.to_string()).or_insert_with(Instant::now);
        }
    }

    /// Drops the remote subscribers of every node not heard from for [`LEASE_TTL`].
    fn drop_departed(&self, tables: &Tables) {
        let now = Instant::now();
        let departed: HashSet<String> = match self.seen.lock() {
            Ok(mut seen) => {
                let gone = seen.iter().filter(|(_, at)| now.duration_since(**at) > LEASE_TTL).map(|(n, _)| n.clone());
                let gone: HashSet<String> = gone.collect();
                seen.retain(|n, _| !gone.contains(n));
                gone
            }
            Err(_) => return,
        };
        if departed.is_empty() {
            return;
        }
        let dropped: Vec<super::route::RemoteConn> = match self.remote_conns.lock() {
            Ok(mut conns) => {
                let keys: Vec<_> = conns.keys().filter(|(node, _)| departed.contains(node)).cloned().collect();
                let dropped = keys.into_iter().filter_map(|k| conns.remove(&k)).collect();
                crate::metrics::remote_subscribers(conns.len());
                dropped
            }
            Err(_) => return,
        };
        if dropped.is_empty() {
            return;
        }
        tracing::info!(nodes = ?departed, sockets = dropped.len(), "remote sockets of departed nodes dropped");
        for remote in dropped {
            for game in &remote.games {
                if let Some(table) = tables.get(game).filter(|t| !t.is_remote()) {
                    let (table, conn) = (table.clone(), remote.id);
                    tokio::spawn(async move { table.send(Command::Unsubscribe { conn, done: None }).await });
                }
            }
        }
    }
}

/// Starts answering turn questions, the heartbeats, and the sweep of departed nodes.
pub(super) async fn start(node: Arc<Node>, state: AppState, stop: CancellationToken) -> anyhow::Result<()> {
    let mut turns = node.nats.subscribe(turns_subject(&node.id)).await?;
    let mut alive = node.nats.subscribe(ALIVE).await?;
    let (owner, tables, until) = (Arc::clone(&node), state.tables.clone(), stop.clone());
    tokio::spawn(async move {
        while let Some(message) = super::next_or_stop(&mut turns, &until).await {
            let Some(reply) = message.reply else { continue };
            let asks: Vec<TurnAsk> = serde_json::from_slice(&message.payload).unwrap_or_default();
            let waiting: Vec<bool> = asks
                .iter()
                .map(|a| tables.get(&a.game).is_some_and(|t| !t.is_remote() && t.info.waits_for(a.seat)))
                .collect();
            let payload = serde_json::to_vec(&waiting).unwrap_or_default();
            let _ = owner.nats.publish(reply, Bytes::from(payload)).await;
        }
    });
    let (listener, until) = (Arc::clone(&node), stop.clone());
    tokio::spawn(async move {
        while let Some(message) = super::next_or_stop(&mut alive, &until).await {
            if let Ok(from) = std::str::from_utf8(&message.payload) {
                if from != listener.id {
                    listener.heard(from);
                }
            }
        }
    });
    let tables = state.tables.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(RENEW_EVERY);
        loop {
            tokio::select! {
                _ = stop.cancelled() => break,
                _ = tick.tick() => {}
            }
            let _ = node.nats.publish(ALIVE, Bytes::from(node.id.clone())).await;
            node.drop_departed(&tables);
        }
    });
    Ok(())
}
