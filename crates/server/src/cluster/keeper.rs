//! The lease keeper: every [`RENEW_EVERY`] it renews this node's leases, stops the tables whose
//! lease another node took, and takes over running games nobody holds (their node died).
//!
//! A node proves its ownership only by renewing. When it cannot (PostgreSQL or NATS lost) for
//! nearly a lease's lifetime, it drops every lease it holds and stops their tables before the
//! leases can lapse and another node take them: it never plays a game it cannot prove it owns.
//! (The store writer's fence would refuse such an append anyway, in its own transaction.)

use super::{Node, LEASE_TTL, RENEW_EVERY};
use crate::table::Tables;
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// How many orphaned games one node takes per scan, so that the survivors of a failure share
/// the dead node's games instead of the fastest taking them all.
const TAKE_PER_SCAN: i64 = 16;

/// A margin under [`LEASE_TTL`]: a node that has not renewed for this long gives up its games.
const PROOF_MARGIN: Duration = Duration::from_millis(1000);

pub(super) async fn run(node: Arc<Node>, tables: Arc<Tables>, stop: CancellationToken) {
    // How long one renewal proves this node's leases, counted from when it began (the store set
    // `expires_at` after that moment, by its own clock).
    let proof = LEASE_TTL.saturating_sub(PROOF_MARGIN);
    let mut last_renewed = Instant::now();
    let taking_over = Arc::new(AtomicBool::new(false));
    loop {
        // Wake for the next renewal, or exactly when the last one stops proving the leases: a
        // renewal that fails or hangs must not delay giving the games up past that moment.
        let proof_ends = last_renewed + proof;
        let mut wake = Instant::now() + RENEW_EVERY;
        if node.healthy() {
            wake = wake.min(proof_ends);
        }
        tokio::select! {
            _ = stop.cancelled() => return,
            _ = tokio::time::sleep_until(wake) => {}
        }
        let began = Instant::now();
        let nats_up = node.nats.connection_state() == async_nats::connection::State::Connected;
        if nats_up {
            // An unreachable PostgreSQL can hold a query for the pool's whole acquire timeout:
            // the renewal may run until the proof ends (or one period, once it has ended).
            let limit = if began < proof_ends { proof_ends } else { began + RENEW_EVERY };
            match tokio::time::timeout_at(limit, renew(&node, &tables)).await {
                Ok(Ok(())) => last_renewed = began,
                Ok(Err(e)) => tracing::warn!(error = %e, "leases not renewed"),
                Err(_) => tracing::warn!("leases not renewed: the store did not answer in time"),
            }
        }
        let proven = Instant::now() < last_renewed + proof;
        if node.healthy.swap(proven, Ordering::SeqCst) != proven {
            if proven {
                tracing::info!("leases renewed again: taking games");
            } else {
                tracing::error!(nats_up, "cannot renew leases: every table of this node stops");
                if !nats_up {
                    // The owners stop hearing this node and drop its sockets: tell them now.
                    tables.stop_forwarding();
                }
            }
        }
        if !proven {
            for game in node.leases.clear() {
                tables.stop(&game);
            }
            continue;
        }
        // Replaying games takes time: in its own task, so that renewals stay on time.
        if !taking_over.swap(true, Ordering::SeqCst) {
            let (node, tables, flag) = (Arc::clone(&node), Arc::clone(&tables), Arc::clone(&taking_over));
            tokio::spawn(async move {
                take_over(&node, &tables).await;
                flag.store(false, Ordering::SeqCst);
            });
        }
    }
}

/// Renews this node's leases; stops the tables of those another node took.
async fn renew(node: &Node, tables: &Arc<Tables>) -> Result<(), crate::store::StoreError> {
    // Only leases held before the renewal can be missing from it: one taken while it runs (a
    // game being started) is not lost.
    let before: HashSet<_> = node.leases.games().into_iter().collect();
    for game in node.store.release_finished_leases(&node.id).await? {
        node.leases.drop_lease(&game);
    }
    let ttl = LEASE_TTL.as_millis() as i64;
    let renewed = node.store.renew_leases(&node.id, ttl).await?;
    for game in &before {
        if !renewed.contains_key(game) && node.leases.drop_lease(game) {
            tables.stop(game);
        }
    }
    // Held in the store but not in the book (dropped while this node could not renew, and no
    // other node took them since): this node still owns them; play them.
    for (game, epoch) in renewed {
        if !before.contains(&game) && node.leases.epoch(&game).is_none() {
            node.leases.hold(game.clone(), epoch);
            if tables.get(&game).is_none_or(|t| t.is_remote()) {
                // Not in the renewal's time limit: a long replay must not cost the leases.
                let tables = Arc::clone(tables);
                tokio::spawn(async move {
                    if let Err(e) = tables.restore(&game).await {
                        tracing::error!(%game, error = %e, "a held game did not restore");
                    }
                });
            }
        }
    }
    Ok(())
}

/// Takes over running games whose lease is missing or lapsed.
async fn take_over(node: &Node, tables: &Arc<Tables>) {
    let orphans = match node.store.orphaned_games(TAKE_PER_SCAN).await {
        Ok(orphans) => orphans,
        Err(e) => return tracing::warn!(error = %e, "cannot look for orphaned games"),
    };
    for game in orphans {
        if !matches!(node.claim(&game).await, Ok(super::Claim::Mine)) {
            continue;
        }
        // A log that no longer replays is marked broken by the load itself; a store failure is
        // tried again by the next request for the game.
        match tables.restore(&game).await {
            Ok(version) => tracing::info!(%game, version, "game taken over"),
            Err(e) => tracing::error!(%game, error = %e, "a taken-over game did not restore yet"),
        }
    }
}
