//! Tables: one task per live game owns its engine state ([`actor`]); this module keeps the
//! registry of live tables, starts them, and rebuilds games from the store.
//!
//! The action path (socket → table task → store writer → subscribers) touches only the one
//! table's task and the shared writer: nothing on it grows with the number of live games.

mod actor;

use crate::catalog::Catalog;
use crate::error::ApiError;
use crate::ids::{AccountId, GameId, LobbyId};
use crate::store::writer::Writer;
use crate::store::{ActionRow, GameRecord, Store};
use game_core::replay::{replay, HashCheck, ReplayStart};
use game_core::{DynGame, Seat, Seed, Viewer};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
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
    pub turn_seconds: Option<u64>,
}

impl TableInfo {
    /// The seat `account` plays, if any.
    pub fn seat_of(&self, account: &AccountId) -> Option<Seat> {
        self.accounts.iter().zip(&self.bots).position(|(a, bot)| a == account && !bot).map(|i| Seat(i as u8))
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
    },
    /// Play an action. The table answers on `out` itself, once the action is committed and its
    /// patches are queued: an `ack` (right behind the mover's own patch, in the same queue) or
    /// an `error`; no task in between, so the ack leaves with the patch.
    Action {
        /// The seat acting.
        seat: Seat,
        /// The version the client saw.
        version: u64,
        /// The action JSON.
        action: Value,
        /// The client's request id, echoed in the answer.
        req: Option<u64>,
        /// The sender's socket, for the answer.
        out: Outbox,
    },
}

/// A handle to a live table (cheap to clone).
#[derive(Clone)]
pub struct TableHandle {
    /// Its fixed facts.
    pub info: Arc<TableInfo>,
    tx: mpsc::Sender<Command>,
    instance: u64,
}

impl TableHandle {
    /// Sends a command; false if the table has stopped.
    pub async fn send(&self, command: Command) -> bool {
        self.tx.send(command).await.is_ok()
    }
}

/// Tunables of the tables.
#[derive(Clone, Debug)]
pub struct TableConfig {
    /// How long a bot waits before acting (so people can follow).
    pub bot_delay: Duration,
    /// How long a finished table with no subscribers stays live.
    pub idle_finished: Duration,
}

impl Default for TableConfig {
    fn default() -> Self {
        TableConfig { bot_delay: Duration::from_millis(400), idle_finished: Duration::from_secs(60) }
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
        }
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
        let record = self.store.game(id).await?.ok_or(ApiError::GameNotFound)?;
        if record.status == "broken" {
            return Err(ApiError::GameBroken);
        }
        let actions = self.store.actions(id).await?;
        let rebuilt = rebuild(&self.catalog, &record, &actions).map_err(|e| {
            tracing::error!(game = %id, error = %e, "a stored game no longer replays");
            ApiError::GameBroken
        })?;
        Ok(self.spawn(&record, rebuilt))
    }

    /// Rebuilds and starts every unfinished game; a game whose log does not replay is marked
    /// broken. Returns (restored, broken).
    ///
    /// # Errors
    /// When the store fails.
    pub async fn recover(self: &Arc<Self>) -> Result<(usize, usize), crate::store::StoreError> {
        let (mut restored, mut broken) = (0, 0);
        for record in self.store.running_games().await? {
            let actions = self.store.actions(&record.setup.id).await?;
            match rebuild(&self.catalog, &record, &actions) {
                Ok(rebuilt) => {
                    tracing::info!(game = %record.setup.id, version = rebuilt.version, "restored game");
                    self.spawn(&record, rebuilt);
                    restored += 1;
                }
                Err(e) => {
                    tracing::error!(game = %record.setup.id, error = %e, "game does not replay; marked broken");
                    self.store.mark_broken(&record.setup.id).await?;
                    broken += 1;
                }
            }
        }
        Ok((restored, broken))
    }

    /// Starts the task of a table (or returns the one already live for that game).
    pub fn spawn(self: &Arc<Self>, record: &GameRecord, rebuilt: Rebuilt) -> TableHandle {
        let setup = &record.setup;
        let info = Arc::new(TableInfo {
            id: setup.id.clone(),
            catalog_id: setup.game.clone(),
            lobby: setup.lobby.clone(),
            seats: setup.seats.clone(),
            accounts: setup.accounts.clone(),
            bots: setup.bots.clone(),
            public: setup.public,
            invite_code: setup.invite_code.clone(),
            turn_seconds: setup.turn_seconds,
        });
        let (tx, rx) = mpsc::channel(256);
        let handle =
            TableHandle { info: info.clone(), tx, instance: self.next_instance.fetch_add(1, Ordering::Relaxed) };
        {
            let Ok(mut map) = self.map.write() else { return handle };
            if let Some(existing) = map.get(&setup.id) {
                return existing.clone();
            }
            map.insert(setup.id.clone(), handle.clone());
        }
        let actor = actor::Actor::new(
            info,
            rebuilt,
            setup.seed,
            rx,
            self.store.clone(),
            self.catalog.clone(),
            self.writer.clone(),
            self.shutdown.clone(),
            self.config.clone(),
        );
        let tables = Arc::clone(self);
        let instance = handle.instance;
        self.tracker.spawn(async move {
            let id = actor.run().await;
            tables.remove(&id, instance);
        });
        handle
    }

    fn remove(&self, id: &GameId, instance: u64) {
        if let Ok(mut map) = self.map.write() {
            if map.get(id).is_some_and(|h| h.instance == instance) {
                map.remove(id);
            }
        }
    }

    /// Waits until every table task has ended (after shutdown was signalled).
    pub async fn wait_stopped(&self) {
        self.tracker.close();
        self.tracker.wait().await;
    }

    /// Draws a seed for a new game.
    pub fn new_seed() -> Seed {
        Seed::random()
    }
}

/// Rebuilds a game from its setup and stored actions, checking every stored hash.
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
