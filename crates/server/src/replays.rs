//! Past positions of stored games for the log and replay routes, at a bounded cost per request.
//!
//! Rebuilding a position means replaying the game from its seed. That runs on the blocking pool
//! (never on an async worker, which serves many sockets), at most [`Replays::permits`] at once,
//! so a flood of requests queues instead of taking every core. A finished game never changes, so
//! it is replayed once and kept ready ([`Checkpoints`]: a copy of the game every
//! [`CHECKPOINT_EVERY`] steps): any step of it then costs at most that many actions to replay,
//! whatever the game's length. The most recently used [`FINISHED_KEPT`] finished games are kept.

use crate::catalog::Catalog;
use crate::error::ApiError;
use crate::ids::GameId;
use crate::store::{ActionRow, GameRecord};
use game_core::log::ReplayError;
use game_core::replay::{replay, HashCheck, ReplayStart};
use game_core::{DynEvent, DynGame, LogEntry, SeatNames};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use tokio::sync::Semaphore;

/// A finished game keeps a copy of its state every this many steps.
pub const CHECKPOINT_EVERY: usize = 32;

/// How many finished games are kept ready for replay (the most recently asked for).
pub const FINISHED_KEPT: usize = 64;

/// Replays of stored games: bounded in number, and kept for finished games.
pub struct Replays {
    permits: Semaphore,
    count: usize,
    finished: Mutex<VecDeque<(GameId, Arc<Checkpoints>)>>,
}

impl Replays {
    /// At most `permits` replays at once (at least 1).
    pub fn new(permits: usize) -> Replays {
        let count = permits.max(1);
        Replays { permits: Semaphore::new(count), count, finished: Mutex::new(VecDeque::new()) }
    }

    /// Two replays per core: a replay is pure CPU work.
    pub fn for_this_machine() -> Replays {
        Replays::new(2 * std::thread::available_parallelism().map_or(2, usize::from))
    }

    /// How many replays may run at once.
    pub fn permits(&self) -> usize {
        self.count
    }

    /// Runs `work` on the blocking pool once a permit is free.
    ///
    /// # Errors
    /// `server/internal` if the work panicked.
    pub async fn bounded<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> Result<T, ApiError> {
        let _permit = self.permits.acquire().await.map_err(|_| ApiError::Internal)?;
        tokio::task::spawn_blocking(work).await.map_err(|_| ApiError::Internal)
    }

    /// The checkpoints of finished game `id`, if they are kept.
    pub fn kept(&self, id: &GameId) -> Option<Arc<Checkpoints>> {
        let mut kept = self.finished.lock().ok()?;
        let i = kept.iter().position(|(g, _)| g == id)?;
        let entry = kept.remove(i)?;
        let checkpoints = entry.1.clone();
        kept.push_back(entry);
        Some(checkpoints)
    }

    /// The checkpoints of a finished game: kept ones, or replayed from `actions` and kept.
    ///
    /// # Errors
    /// `game/broken` if the stored game no longer replays; `game/unknown_game` if this build does
    /// not host it.
    pub async fn finished(
        &self,
        catalog: &Arc<Catalog>,
        record: &GameRecord,
        actions: Vec<ActionRow>,
    ) -> Result<Arc<Checkpoints>, ApiError> {
        let id = record.setup.id.clone();
        if let Some(kept) = self.kept(&id) {
            return Ok(kept);
        }
        let (catalog, record) = (Arc::clone(catalog), record.clone());
        let built = self.bounded(move || Checkpoints::of_stored(&catalog, &record, actions)).await??;
        let built = Arc::new(built);
        if let Ok(mut kept) = self.finished.lock() {
            if !kept.iter().any(|(g, _)| *g == id) {
                if kept.len() >= FINISHED_KEPT {
                    kept.pop_front();
                }
                kept.push_back((id, built.clone()));
            }
        }
        Ok(built)
    }
}

/// A game's log with a copy of the game every [`CHECKPOINT_EVERY`] steps.
pub struct Checkpoints {
    entries: Vec<LogEntry>,
    by_clock: Vec<bool>,
    names: SeatNames,
    setup_events: Vec<DynEvent>,
    /// `states[i]`: the game after `i * CHECKPOINT_EVERY` actions.
    states: Vec<Box<dyn DynGame>>,
}

impl Checkpoints {
    /// Replays a stored game once, keeping its checkpoints.
    ///
    /// # Errors
    /// `game/unknown_game` if this build does not host the game, `game/broken` if it no longer
    /// replays.
    pub fn of_stored(catalog: &Catalog, record: &GameRecord, actions: Vec<ActionRow>) -> Result<Checkpoints, ApiError> {
        let s = &record.setup;
        let descriptor = catalog.get(&s.game).ok_or_else(|| ApiError::UnknownGame(s.game.clone()))?;
        let by_clock = actions.iter().map(|a| a.by_clock).collect();
        let entries = record.log(actions).actions;
        let start = ReplayStart { descriptor, seats: &s.seats, options: &s.options, seed: s.seed, initial_hash: None };
        Checkpoints::build(start, entries, by_clock).map_err(|e| {
            tracing::error!(game = %s.id, error = %e, "stored game does not replay");
            ApiError::GameBroken
        })
    }

    /// Replays `entries` from `start` with game-core's replay loop (the recorded hashes are
    /// trusted: they were checked when stored), keeping a copy every [`CHECKPOINT_EVERY`] steps.
    ///
    /// # Errors
    /// The replay's error.
    pub fn build(
        start: ReplayStart<'_>,
        entries: Vec<LogEntry>,
        by_clock: Vec<bool>,
    ) -> Result<Checkpoints, ReplayError> {
        let initial = replay(start, &[], HashCheck::None, |_, _, _| {})?;
        let mut states = vec![initial.game];
        replay(start, &entries, HashCheck::None, |entry, _, game| {
            if entry.seq % CHECKPOINT_EVERY as u64 == 0 {
                states.push(game.clone_box());
            }
        })?;
        Ok(Checkpoints {
            entries,
            by_clock,
            names: SeatNames(start.seats.to_vec()),
            setup_events: initial.setup_events,
            states,
        })
    }

    /// How many actions the game has.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no action was played.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether step `at` (from 1) was the turn clock's move.
    pub fn by_clock(&self, at: usize) -> bool {
        at > 0 && self.by_clock.get(at - 1).copied().unwrap_or(false)
    }

    /// The game after its first `at` actions (at most its length) and the events of step `at`
    /// (setup's for 0), replaying at most [`CHECKPOINT_EVERY`] actions from the checkpoint before.
    ///
    /// # Errors
    /// `game/no_such_step` past the end; `game/broken` if an action no longer applies.
    pub fn position(&self, at: usize) -> Result<(Box<dyn DynGame>, Vec<DynEvent>), ApiError> {
        if at > self.entries.len() {
            return Err(ApiError::NoSuchStep { at: at as u64, last: self.entries.len() as u64 });
        }
        if at == 0 {
            return Ok((self.states[0].clone_box(), self.setup_events.clone()));
        }
        let from = (at - 1) / CHECKPOINT_EVERY;
        let mut game = self.states.get(from).ok_or(ApiError::Internal)?.clone_box();
        let mut events = Vec::new();
        for entry in &self.entries[from * CHECKPOINT_EVERY..at] {
            events = game.apply(entry.seat, &entry.action, &self.names).map_err(|_| ApiError::GameBroken)?;
        }
        Ok((game, events))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::{GameRng, RandomBot, Seed, Viewer};

    /// A complete random game of `id` as log entries (hashes included).
    fn played(
        catalog: &Catalog,
        id: &str,
        players: usize,
        seed: Seed,
        options: &serde_json::Value,
    ) -> (Vec<String>, Vec<LogEntry>) {
        let seats: Vec<String> = (0..players).map(|i| format!("P{i}")).collect();
        let names = SeatNames(seats.clone());
        let mut game = catalog.get(id).unwrap().create(players, options, seed).unwrap();
        let mut bot = RandomBot::new(GameRng::from_seed(Seed::from_u64(7)));
        let mut entries = Vec::new();
        while game.outcome().is_none() {
            let seat = game.to_act()[0];
            let action = bot.choose_dyn(game.as_ref(), seat).unwrap();
            game.apply(seat, &action, &names).unwrap();
            entries.push(LogEntry { seq: entries.len() as u64 + 1, seat, action, hash: game.state_hash() });
        }
        (seats, entries)
    }

    #[test]
    fn every_step_from_the_checkpoints_equals_a_replay_from_the_start() {
        let catalog = Catalog::standard();
        for id in catalog.ids() {
            let descriptor = catalog.get(&id).unwrap();
            let info = descriptor.info();
            let players = info.min_players.max(2);
            let seed = Seed::from_u64(3);
            let (seats, entries) = played(&catalog, &id, players, seed, &info.default_options);
            let options = info.default_options.clone();
            let start = ReplayStart { descriptor, seats: &seats, options: &options, seed, initial_hash: None };
            let clocked = (0..entries.len()).map(|i| i % 5 == 4).collect();
            let checkpoints = Checkpoints::build(start, entries.clone(), clocked).unwrap();
            assert!(entries.len() > 2 * CHECKPOINT_EVERY, "{id}: the game is long enough to cross checkpoints");
            for at in 0..=entries.len() {
                let mut events = Vec::new();
                let full = replay(start, &entries[..at], HashCheck::Every, |_, e, _| events = e.to_vec()).unwrap();
                if at == 0 {
                    events = full.setup_events.clone();
                }
                let (game, step_events) = checkpoints.position(at).unwrap();
                assert_eq!(game.state_hash(), full.game.state_hash(), "{id} at {at}: the same state");
                for viewer in Viewer::all(players) {
                    assert_eq!(game.view(viewer), full.game.view(viewer), "{id} at {at}: the view of {viewer:?}");
                }
                assert_eq!(game.to_act(), full.game.to_act(), "{id} at {at}");
                assert_eq!(step_events, events, "{id} at {at}: the events of that step");
                assert_eq!(checkpoints.by_clock(at), at > 0 && (at - 1) % 5 == 4, "{id} at {at}");
            }
            assert!(matches!(checkpoints.position(entries.len() + 1), Err(ApiError::NoSuchStep { .. })));
        }
    }
}
