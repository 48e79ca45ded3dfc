//! Cluster mode (`serve --nats-url`): several nodes over one PostgreSQL, joined by NATS.
//!
//! - Ownership ([`keeper`]): each running game is played by the one node holding its lease row
//!   (`table_leases`), renewed every second and lapsing after [`LEASE_TTL`]; the store writer
//!   refuses an append whose lease epoch the node no longer holds (checked in the appending
//!   transaction), and the `(game, seq)` primary key stays the last guard.
//! - Routing ([`route`]): a socket on any node reaches a game through a forwarding table handle
//!   that sends subscriptions and actions to the owner (NATS request/reply); the owner's table
//!   treats each remote socket as one more subscriber, whose messages (patches, snapshots, acks,
//!   errors, in the table's order) it publishes to that socket's node, which queues them for it.
//! - Notices ([`notice`]): lobby changes, kicks and sign-outs, published to every node.
//! - Presence ([`presence`]): whose turn it is in games owned elsewhere, and heartbeats, by
//!   which an owner drops the remote subscribers of a node that is gone.
//!
//! NATS carries only messages that are useless once missed (a node that misses one resyncs from
//! the store or its owner), so it runs without persistence: PostgreSQL stays the one truth.
//! See docs/scaling.md.

mod keeper;
pub mod notice;
mod presence;
mod route;

pub use route::{forward, rehome, rehome_stopped};

use crate::error::ApiError;
use crate::ids::GameId;
use crate::outbox::Outbox;
use crate::state::AppState;
use crate::store::{LeaseBook, Store};
use crate::table::ConnId;
use anyhow::Context;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// How long a lease lasts unless renewed. A dead node's games move after at most this long (plus
/// one scan, [`RENEW_EVERY`]).
pub const LEASE_TTL: Duration = Duration::from_millis(3000);

/// How often a node renews its leases and looks for games nobody owns.
pub const RENEW_EVERY: Duration = Duration::from_millis(1000);

/// How long a node waits for another to answer a forwarded subscription or action.
const ASK_TIMEOUT: Duration = Duration::from_secs(3);

/// Why a node cannot join the cluster.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// Cluster mode keeps leases and logs in one shared PostgreSQL; SQLite is one process's file.
    #[error("cluster mode (--nats-url) needs PostgreSQL: set --database-url (DATABASE_URL) to a postgres:// URL")]
    NeedsPostgres,
}

/// Where a game is to be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// This node holds its lease.
    Mine,
    /// Another node (its id) holds it.
    Theirs(String),
}

/// This node's place in the cluster.
pub struct Node {
    id: String,
    nats: async_nats::Client,
    store: Store,
    leases: Arc<LeaseBook>,
    /// Whether the lease keeper renewed recently enough to prove this node's leases.
    healthy: AtomicBool,
    /// The local sockets that games owned elsewhere send to, by connection.
    deliveries: Mutex<HashMap<ConnId, Outbox>>,
    /// The sockets of other nodes subscribed to this node's tables: (node, its conn) → ours.
    remote_conns: Mutex<HashMap<(String, ConnId), route::RemoteConn>>,
    /// Local connection ids for remote sockets, from the same counter as local sockets.
    next_conn: Mutex<Option<Arc<std::sync::atomic::AtomicU64>>>,
    /// When each other node was last heard from (its heartbeat), see [`presence`].
    seen: Mutex<HashMap<String, tokio::time::Instant>>,
}

impl Node {
    /// Connects to NATS at `url` as a new node (a fresh id per process) over `store`.
    ///
    /// # Errors
    /// [`ClusterError::NeedsPostgres`] on SQLite; when NATS cannot be reached.
    pub async fn connect(url: &str, store: Store) -> anyhow::Result<Arc<Node>> {
        if *store.backend() != crate::store::Backend::Postgres {
            return Err(ClusterError::NeedsPostgres.into());
        }
        let id = uuid::Uuid::new_v4().simple().to_string();
        let nats = async_nats::ConnectOptions::new()
            .name(format!("chapterhouse-{id}"))
            .connection_timeout(Duration::from_secs(5))
            .request_timeout(Some(ASK_TIMEOUT))
            .connect(url)
            .await
            .with_context(|| format!("cannot reach NATS at {url}"))?;
        tracing::info!(node = %id, "cluster node joined NATS");
        Ok(Arc::new(Node {
            leases: Arc::new(LeaseBook::new(id.clone())),
            id,
            nats,
            store,
            healthy: AtomicBool::new(true),
            deliveries: Mutex::default(),
            remote_conns: Mutex::default(),
            next_conn: Mutex::default(),
            seen: Mutex::default(),
        }))
    }

    /// This node's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The leases this node holds (the store writer's fence).
    pub fn leases(&self) -> Arc<LeaseBook> {
        Arc::clone(&self.leases)
    }

    /// Whether this node can prove its leases now (it renewed them within [`LEASE_TTL`]).
    pub fn healthy(&self) -> bool {
        self.healthy.load(Ordering::SeqCst)
    }

    /// Where `game` is to be played: here if this node holds its lease or can take it (nobody
    /// holds it, or it lapsed), else on the node that holds it.
    ///
    /// # Errors
    /// `server/unavailable` when this node cannot prove its leases or the store fails.
    pub async fn claim(&self, game: &GameId) -> Result<Claim, ApiError> {
        if self.leases.epoch(game).is_some() {
            return Ok(Claim::Mine);
        }
        if !self.healthy() {
            return Err(ApiError::Unavailable);
        }
        let unavailable = |e: crate::store::StoreError| {
            tracing::warn!(%game, error = %e, "lease look-up failed");
            ApiError::Unavailable
        };
        if let Some(holder) = self.store.lease_holder(game).await.map_err(unavailable)? {
            if holder.live && holder.node != self.id {
                return Ok(Claim::Theirs(holder.node));
            }
        }
        self.take(game).await
    }

    /// Takes the lease of a game this node creates, before the game is stored: nobody else can
    /// start its table in between.
    ///
    /// # Errors
    /// `server/unavailable` when the lease cannot be taken.
    pub async fn claim_new(&self, game: &GameId) -> Result<(), ApiError> {
        match self.take(game).await? {
            Claim::Mine => Ok(()),
            Claim::Theirs(_) => Err(ApiError::Unavailable),
        }
    }

    async fn take(&self, game: &GameId) -> Result<Claim, ApiError> {
        let ttl = LEASE_TTL.as_millis() as i64;
        match self.store.acquire_lease(game, &self.id, ttl).await {
            Ok(Some(epoch)) => {
                self.leases.hold(game.clone(), epoch);
                tracing::info!(%game, epoch, "lease taken");
                Ok(Claim::Mine)
            }
            Ok(None) => match self.store.lease_holder(game).await {
                Ok(Some(holder)) if holder.node != self.id => Ok(Claim::Theirs(holder.node)),
                _ => Err(ApiError::Unavailable),
            },
            Err(e) => {
                tracing::warn!(%game, error = %e, "lease not taken");
                Err(ApiError::Unavailable)
            }
        }
    }

    /// Starts the node's background work: the lease keeper, the owner side of routing, deliveries
    /// to local sockets, and notices from other nodes. Ends when `stop` is cancelled.
    ///
    /// # Errors
    /// When NATS refuses a subscription.
    pub async fn start(self: &Arc<Self>, state: AppState, stop: CancellationToken) -> anyhow::Result<()> {
        if let Ok(mut next) = self.next_conn.lock() {
            *next = Some(Arc::clone(&state.next_conn));
        }
        route::start(Arc::clone(self), state.clone(), stop.clone()).await?;
        notice::start(Arc::clone(self), state.clone(), stop.clone()).await?;
        presence::start(Arc::clone(self), state.clone(), stop.clone()).await?;
        tokio::spawn(keeper::run(Arc::clone(self), state.tables.clone(), stop));
        Ok(())
    }

    /// Gives up every lease (a graceful stop, once the tables and the writer are done): the
    /// other nodes take the games over at their next scan instead of waiting for the leases to
    /// lapse.
    pub async fn leave(&self) {
        self.leases.clear();
        match self.store.release_leases(&self.id).await {
            Ok(()) => tracing::info!(node = %self.id, "leases released"),
            Err(e) => tracing::warn!(error = %e, "leases not released; they lapse by themselves"),
        }
        let _ = self.nats.flush().await;
    }

    fn next_conn_id(&self) -> ConnId {
        match self.next_conn.lock().ok().and_then(|n| n.clone()) {
            Some(next) => next.fetch_add(1, Ordering::Relaxed),
            // Before start-up: a range local sockets never reach.
            None => u64::MAX / 2 + rand_core::RngCore::next_u32(&mut rand_core::OsRng) as u64,
        }
    }
}

/// The next message of `subscriber`, or `None` once `stop` is cancelled or the subscription ends:
/// the head of every loop that serves a NATS subject.
async fn next_or_stop(
    subscriber: &mut async_nats::Subscriber,
    stop: &tokio_util::sync::CancellationToken,
) -> Option<async_nats::Message> {
    use futures_util::StreamExt;
    tokio::select! {
        _ = stop.cancelled() => None,
        message = subscriber.next() => message,
    }
}
