//! Tables: one task per live game owns its engine state ([`actor`]); this module keeps the
//! registry of live tables, starts them, and rebuilds games from the store.
//!
//! The action path (socket → table task → store writer → subscribers) touches only the one
//! table's task and the shared writer: nothing on it grows with the number of live games.

mod actor;

use crate::catalog::Catalog;
use crate::clock::TurnLimit;
use crate::error::ApiError;
use crate::ids::{AccountId, GameId, LobbyId};
use crate::store::writer::Writer;
use crate::store::{ActionRow, GameRecord, GameStatus, Store, StoreError};
use game_core::replay::{replay, HashCheck, ReplayStart};
use game_core::{DynGame, Seat, Viewer};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU16, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock, RwLock};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// Where a table sends a subscriber's messages (JSON text frames); sending never waits.
pub use crate::outbox::Outbox;

/// Identifies one socket connection.
pub type ConnId = u64;

/// What everyone may know about a table, fixed when it starts.
#[derive(Clone, Debug)]
pub struct TableInfo {
    /// The game.
    pub id: GameId,
    /// The catalog id.
    pub catalog_id: String,
    /// The lobby it came from.
    pub lobby: Option<LobbyId>,
    /// Seat names.
    pub seats: Vec<String>,
    /// The account in each seat.
    pub accounts: Vec<AccountId>,
    /// Which seats bots play.
    pub bots: Vec<bool>,
    /// Whether anyone may watch.
    pub public: bool,
    /// The invite code that lets someone watch a private game.
    pub invite_code: Option<String>,
    /// Per-turn time limit.
    pub turn_seconds: Option<TurnLimit>,
    /// The seats the game waits for now, one bit per seat (the only field that changes: the
    /// table's task writes it, and "your turn" marks in the games list read it without a message).
    pub waiting: Arc<AtomicU16>,
}

impl TableInfo {
    /// Whether the game waits for `seat` now.
    pub fn waits_for(&self, seat: Seat) -> bool {
        seat.index() < 16 && self.waiting.load(Ordering::Relaxed) & (1 << seat.index()) != 0
    }
}

impl TableInfo {
    /// The facts that decide who may see or act in this game.
    pub fn access(&self) -> crate::access::GameAccess<'_> {
        crate::access::GameAccess {
            accounts: &self.accounts,
            bots: &self.bots,
            public: self.public,
            invite_code: self.invite_code.as_deref(),
            lobby: self.lobby.as_ref(),
        }
    }
}

/// A request to a table task.
pub enum Command {
    /// Subscribe a connection as `viewer`.
    Subscribe {
        /// The connection.
        conn: ConnId,
        /// Its viewer.
        viewer: Viewer,
        /// The last version it holds, to resume.
        last_version: Option<u64>,
        /// Where to send.
        out: Outbox,
    },
    /// Drop a connection's subscription.
    Unsubscribe {
        /// The connection.
        conn: ConnId,
        /// Told once the subscription is gone: nothing of this game is queued to the connection
        /// after that (so a notice sent then is the last word about the game).
        done: Option<tokio::sync::oneshot::Sender<()>>,
    },
    /// Play an action. The table answers on `out` itself, once the action is committed and its
    /// patches are queued: an `ack` (right behind the mover's own patch, in the same queue) or
    /// an `error`; no task in between, so the ack leaves with the patch.
    Action {
        /// The sender's connection (a cluster node routes the answer back to it by this).
        conn: ConnId,
        /// The seat acting.
        seat: Seat,
        /// The version the client saw.
        version: u64,
        /// The action's JSON text, as the client sent it.
        action: Box<serde_json::value::RawValue>,
        /// The client's request id, echoed in the answer.
        req: Option<u64>,
        /// The sender's socket, for the answer.
        out: Outbox,
    },
}

/// Tells an [`Command::Unsubscribe`]'s sender, if it waits, that the subscription is gone.
pub(crate) fn unsubscribed(done: Option<tokio::sync::oneshot::Sender<()>>) {
    if let Some(done) = done {
        // The sender may have stopped waiting (its socket closed): nothing to tell then.
        let _ = done.send(());
    }
}

/// A handle to a live table (cheap to clone).
#[derive(Clone)]
pub struct TableHandle {
    /// Its fixed facts.
    pub info: Arc<TableInfo>,
    tx: mpsc::Sender<Command>,
    instance: u64,
    /// Cancelled to stop this table alone (cluster mode: its lease was lost).
    stop: CancellationToken,
    /// Whether this handle forwards to the game's owner on another node (cluster mode).
    remote: bool,
}

impl TableHandle {
    /// Sends a command; false if the table has stopped.
    pub async fn send(&self, command: Command) -> bool {
        self.tx.send(command).await.is_ok()
    }

    /// Sends a command; if the table has stopped, the command comes back.
    pub async fn send_or_return(&self, command: Command) -> Result<(), Command> {
        self.tx.send(command).await.map_err(|e| e.0)
    }

    /// Whether this handle forwards to another node (cluster mode) rather than to a local table.
    pub fn is_remote(&self) -> bool {
        self.remote
    }
}

/// Tunables of the tables.
#[derive(Clone, Debug)]
pub struct TableConfig {
    /// How long a bot waits before acting (so people can follow).
    pub bot_delay: Duration,
    /// How long a finished table with no subscribers stays live.
    pub idle_finished: Duration,
    /// How long one second of a lobby's turn limit lasts on the table's clock: one second, except
    /// in tests and demos that want a 10-second limit (the shortest a lobby may set) to run out fast.
    pub turn_second: Duration,
}

impl Default for TableConfig {
    fn default() -> Self {
        TableConfig {
            bot_delay: Duration::from_millis(400),
            idle_finished: Duration::from_secs(60),
            turn_second: Duration::from_secs(1),
        }
    }
}

/// The registry of live tables.
pub struct Tables {
    map: RwLock<HashMap<GameId, TableHandle>>,
    store: Store,
    catalog: Arc<Catalog>,
    writer: Writer,
    shutdown: CancellationToken,
    tracker: TaskTracker,
    config: TableConfig,
    next_instance: AtomicU64,
    /// This node's place in a cluster (`--nats-url`), set once at start-up; unset on a single node.
    cluster: OnceLock<Arc<crate::cluster::Node>>,
}

/// A game rebuilt from its log.
pub struct Rebuilt {
    /// The engine state after the last stored action.
    pub game: Box<dyn DynGame>,
    /// The number of stored actions.
    pub version: u64,
}

impl Tables {
    /// An empty registry.
    pub fn new(
        store: Store,
        catalog: Arc<Catalog>,
        writer: Writer,
        shutdown: CancellationToken,
        config: TableConfig,
    ) -> Tables {
        Tables {
            map: RwLock::new(HashMap::new()),
            store,
            catalog,
            writer,
            shutdown,
            tracker: TaskTracker::new(),
            config,
            next_instance: AtomicU64::new(1),
            cluster: OnceLock::new(),
        }
    }

    /// Joins this registry to a cluster: games are then played where their lease is held.
    pub fn join_cluster(&self, node: Arc<crate::cluster::Node>) {
        let _ = self.cluster.set(node);
    }

    /// The cluster this node belongs to, if any.
    pub fn cluster(&self) -> Option<&Arc<crate::cluster::Node>> {
        self.cluster.get()
    }

    /// Stops one local table (cluster mode: its lease was lost); the next request for the game
    /// finds its new owner.
    pub fn stop(&self, id: &GameId) {
        if let Some(handle) = self.get(id).filter(|h| !h.remote) {
            tracing::warn!(game = %id, "table stopped: this node no longer holds its lease");
            handle.stop.cancel();
        }
    }

    /// Stops every forwarding handle (cluster mode: this node lost NATS and gave up its games);
    /// their subscribers are told to subscribe again, which succeeds once the node is back.
    pub fn stop_forwarding(&self) {
        let Ok(map) = self.map.read() else { return };
        for handle in map.values().filter(|h| h.remote) {
            handle.stop.cancel();
        }
    }

    /// Starts the table of a game just created (with its first state): in cluster mode the
    /// caller took its lease first, see [`crate::cluster::Node::claim_new`].
    pub fn start(self: &Arc<Self>, record: &GameRecord, rebuilt: Rebuilt) -> TableHandle {
        self.spawn(record, rebuilt)
    }

    /// The live table of a game, if it is live.
    pub fn get(&self, id: &GameId) -> Option<TableHandle> {
        self.map.read().ok()?.get(id).cloned()
    }

    /// How many tables are live.
    pub fn live(&self) -> usize {
        self.map.read().map(|m| m.len()).unwrap_or(0)
    }

    /// The live table of a game, loading a finished game from the store if needed.
    ///
    /// # Errors
    /// `game/not_found`, `game/broken`, or `server/internal` if the store fails.
    pub async fn get_or_load(self: &Arc<Self>, id: &GameId) -> Result<TableHandle, ApiError> {
        if let Some(handle) = self.get(id) {
            return Ok(handle);
        }
        if self.shutdown.is_cancelled() {
            return Err(ApiError::ShuttingDown);
        }
        // Cluster mode: a node that cannot prove its leases (PostgreSQL or NATS lost) plays
        // nothing, and says so at once instead of after the store's timeout.
        if self.cluster().is_some_and(|c| !c.healthy()) {
            return Err(ApiError::Unavailable);
        }
        let record = match self.store.game(id).await {
            Ok(record) => record.ok_or(ApiError::GameNotFound)?,
            // Its row no longer reads: it cannot be played (recovery marked it broken).
            Err(StoreError::Corrupt(e)) => {
                tracing::error!(game = %id, error = %e, "unreadable game row");
                return Err(ApiError::GameBroken);
            }
            Err(e) => return Err(unavailable_or(e)),
        };
        if record.status == GameStatus::Broken {
            return Err(ApiError::GameBroken);
        }
        // Cluster mode: a running game is played by its lease holder; another node's socket
        // reaches it through a forwarding handle. A finished game is read-only: any node loads it.
        if let (Some(cluster), GameStatus::Running) = (self.cluster(), record.status) {
            if let crate::cluster::Claim::Theirs(owner) = cluster.claim(id).await? {
                return Ok(self.spawn_remote(cluster.clone(), &record, owner));
            }
        }
        let actions = self.store.actions(id).await.map_err(unavailable_or)?;
        let rebuilt = self.rebuild_blocking(&record, actions).await.map_err(|e| {
            tracing::error!(game = %id, error = %e, "a stored game no longer replays");
            ApiError::GameBroken
        })?;
        Ok(self.spawn(&record, rebuilt))
    }

    /// [`Tables::rebuild_guarded`] on a blocking thread: a long game's replay must not hold up an
    /// async worker (and every socket it serves).
    async fn rebuild_blocking(
        self: &Arc<Self>,
        record: &GameRecord,
        actions: Vec<ActionRow>,
    ) -> Result<Rebuilt, String> {
        let (tables, record) = (Arc::clone(self), record.clone());
        tokio::task::spawn_blocking(move || tables.rebuild_guarded(&record, &actions))
            .await
            .unwrap_or_else(|_| Err("the replay task failed".into()))
    }

    /// [`Tables::rebuild`], with an engine panic turned into an error: one game's bug must not
    /// take the caller (start-up recovery, or a request) down with it.
    fn rebuild_guarded(&self, record: &GameRecord, actions: &[ActionRow]) -> Result<Rebuilt, String> {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.rebuild(record, actions)))
            .unwrap_or_else(|_| Err("the engine panicked while replaying the log".into()))
    }

    /// Rebuilds a game from its setup and stored actions, checking every stored hash.
    ///
    /// # Errors
    /// A description of the first mismatch.
    pub fn rebuild(&self, record: &GameRecord, actions: &[ActionRow]) -> Result<Rebuilt, String> {
        rebuild(&self.catalog, record, actions)
    }

    /// Rebuilds and starts every unfinished game. A game that cannot be restored (an unreadable
    /// row, a log that does not replay, an engine that panics on it) is marked broken and the
    /// others start: no single stored game can keep the server from starting. Returns
    /// (restored, broken).
    ///
    /// # Errors
    /// When the store cannot list the running games or mark one broken.
    pub async fn recover(self: &Arc<Self>) -> Result<(usize, usize), crate::store::StoreError> {
        let (mut restored, mut broken) = (0, 0);
        for id in self.store.running_games().await? {
            match self.restore(&id).await {
                Ok(version) => {
                    tracing::info!(game = %id, version, "restored game");
                    restored += 1;
                }
                Err(e) => {
                    tracing::error!(game = %id, error = %e, "game cannot be restored; marked broken");
                    self.store.mark_broken(&id).await?;
                    broken += 1;
                }
            }
        }
        Ok((restored, broken))
    }

    /// Reads, rebuilds and starts one stored game; returns its version.
    pub(crate) async fn restore(self: &Arc<Self>, id: &GameId) -> Result<u64, String> {
        let record = self.store.game(id).await.map_err(|e| e.to_string())?.ok_or("the game row is gone")?;
        let actions = self.store.actions(id).await.map_err(|e| e.to_string())?;
        let rebuilt = self.rebuild_blocking(&record, actions).await?;
        let version = rebuilt.version;
        self.spawn(&record, rebuilt);
        Ok(version)
    }

    /// Starts the task of a table (or returns the one already live for that game).
    pub fn spawn(self: &Arc<Self>, record: &GameRecord, rebuilt: Rebuilt) -> TableHandle {
        let setup = &record.setup;
        let info = table_info(record);
        let (tx, rx) = mpsc::channel(256);
        let stop = self.shutdown.child_token();
        let handle = TableHandle {
            info: info.clone(),
            tx,
            instance: self.next_instance.fetch_add(1, Ordering::Relaxed),
            stop: stop.clone(),
            remote: false,
        };
        {
            let Ok(mut map) = self.map.write() else { return handle };
            // A forwarding handle gives way: this node now owns the game.
            if let Some(existing) = map.get(&setup.id).filter(|h| !h.remote) {
                return existing.clone();
            }
            map.insert(setup.id.clone(), handle.clone());
            crate::metrics::live_tables(map.len());
        }
        let actor = actor::Actor::new(
            info,
            rebuilt,
            setup.seed,
            rx,
            actor::Persistence {
                writer: self.writer.clone(),
                store: self.store.clone(),
                catalog: self.catalog.clone(),
            },
            stop,
            self.config.clone(),
        );
        let registered = Registered { tables: Arc::clone(self), id: setup.id.clone(), instance: handle.instance };
        let (tables, game) = (Arc::clone(self), setup.id.clone());
        self.tracker.spawn(async move {
            // Dropped however the task ends, a panic included: the game then leaves the registry
            // and the next request reloads it from the store.
            let subscribers = actor.run().await;
            // Out of the registry first, so that the subscribers find the game's new home.
            drop(registered);
            // Stopped while the server runs: another node took the lease (cluster mode).
            if let (Some(cluster), false) = (tables.cluster().cloned(), tables.shutdown.is_cancelled()) {
                crate::cluster::rehome_stopped(cluster, tables, game, subscribers).await;
            }
        });
        handle
    }

    /// Registers a handle that forwards to the game's owner on node `owner` (cluster mode), or
    /// returns the handle already registered.
    fn spawn_remote(
        self: &Arc<Self>,
        cluster: Arc<crate::cluster::Node>,
        record: &GameRecord,
        owner: String,
    ) -> TableHandle {
        let info = table_info(record);
        let (tx, rx) = mpsc::channel(256);
        let handle = TableHandle {
            info: info.clone(),
            tx,
            instance: self.next_instance.fetch_add(1, Ordering::Relaxed),
            stop: self.shutdown.child_token(),
            remote: true,
        };
        {
            let Ok(mut map) = self.map.write() else { return handle };
            if let Some(existing) = map.get(&record.setup.id) {
                return existing.clone();
            }
            map.insert(record.setup.id.clone(), handle.clone());
        }
        let registered =
            Registered { tables: Arc::clone(self), id: record.setup.id.clone(), instance: handle.instance };
        let tables = Arc::clone(self);
        let stop = handle.stop.clone();
        self.tracker.spawn(async move {
            let rehome = crate::cluster::forward(cluster, info, owner, rx, stop).await;
            // Out of the registry first, so that the subscribers find the game's new home.
            drop(registered);
            crate::cluster::rehome(tables, rehome).await;
        });
        handle
    }

    fn remove(&self, id: &GameId, instance: u64) {
        if let Ok(mut map) = self.map.write() {
            if map.get(id).is_some_and(|h| h.instance == instance) {
                map.remove(id);
                crate::metrics::live_tables(map.len());
            }
        }
    }

    /// Waits until every table task has ended (after shutdown was signalled).
    pub async fn wait_stopped(&self) {
        self.tracker.close();
        self.tracker.wait().await;
    }
}

/// A store failure as clients see it: `server/unavailable` (retryable) when the store cannot be
/// reached, else `server/internal`.
fn unavailable_or(e: StoreError) -> ApiError {
    if e.is_unreachable() {
        tracing::warn!(error = %e, "store unreachable");
        ApiError::Unavailable
    } else {
        e.into()
    }
}

/// What everyone may know about a game's table, from its stored record.
fn table_info(record: &GameRecord) -> Arc<TableInfo> {
    let setup = &record.setup;
    Arc::new(TableInfo {
        id: setup.id.clone(),
        catalog_id: setup.game.clone(),
        lobby: setup.lobby.clone(),
        seats: setup.seats.clone(),
        accounts: setup.accounts.clone(),
        bots: setup.bots.clone(),
        public: setup.public,
        invite_code: setup.invite_code.clone(),
        turn_seconds: setup.turn_seconds,
        waiting: Arc::default(),
    })
}

/// A live table's place in the registry, given up when its task ends (see [`Tables::spawn`]).
struct Registered {
    tables: Arc<Tables>,
    id: GameId,
    instance: u64,
}

impl Drop for Registered {
    fn drop(&mut self) {
        if std::thread::panicking() {
            tracing::error!(game = %self.id, "the table failed; it is reloaded from the store on the next request");
        }
        self.tables.remove(&self.id, self.instance);
    }
}

/// Rebuilds a game from its setup and stored actions with game-core's replay loop, checking
/// every stored hash.
///
/// # Errors
/// A description of the first mismatch.
pub fn rebuild(catalog: &Catalog, record: &GameRecord, actions: &[ActionRow]) -> Result<Rebuilt, String> {
    let log = record.log(actions.to_vec());
    let descriptor = catalog.get(&log.game).ok_or_else(|| format!("game {:?} is not in this build", log.game))?;
    let start = ReplayStart {
        descriptor,
        seats: &log.seats,
        options: &log.options,
        seed: record.setup.seed,
        initial_hash: Some(&log.initial_hash),
    };
    let replayed = replay(start, &log.actions, HashCheck::Every, |_, _, _| {}).map_err(|e| e.to_string())?;
    Ok(Rebuilt { game: replayed.game, version: replayed.actions as u64 })
}
