//! The game log: everything needed to rebuild and audit a game, and its replay.
//!
//! A log records the setup (game, engine version, options, seats, seed commitment and, once the
//! game is over, the seed), every accepted action with its seat and the state hash after it,
//! and the outcome. [`GameLog::replay`] rebuilds the game and checks every recorded hash.

use crate::dynamic::{DynGame, GameDescriptor};
use crate::game::{Outcome, RuleError};
use crate::hash::StateHash;
use crate::replay::{replay, HashCheck, ReplayStart};
use crate::rng::Seed;
use crate::seat::{Seat, SeatNames};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The format tag written into every log.
pub const LOG_FORMAT: &str = "chapterhouse-log/1";

/// A complete, self-contained record of one game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameLog {
    /// Always [`LOG_FORMAT`].
    pub format: String,
    /// The id of this particular game (table), e.g. a UUID; free-form.
    pub game_id: String,
    /// The catalog id of the game played.
    pub game: String,
    /// The engine version that played it.
    pub engine_version: String,
    /// The options, as normalised by the catalog.
    pub options: Value,
    /// The seats' display names; their number is the player count.
    pub seats: Vec<String>,
    /// SHA-256 of the seed, published before the first move.
    pub seed_commitment: String,
    /// The seed; `None` while the game runs (it is revealed when the game ends).
    pub seed: Option<Seed>,
    /// The hash of the state right after setup.
    pub initial_hash: StateHash,
    /// Every accepted action, in order.
    pub actions: Vec<LogEntry>,
    /// The result, once the game is over.
    pub outcome: Option<Outcome>,
}

/// One accepted action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogEntry {
    /// 1 for the first action, then consecutive.
    pub seq: u64,
    /// Who acted.
    pub seat: Seat,
    /// The action as the engine's JSON.
    pub action: Value,
    /// The state hash after applying it.
    pub hash: StateHash,
}

/// What a successful replay found.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayReport {
    /// Actions replayed.
    pub actions: usize,
    /// The hash of the final state.
    pub final_hash: StateHash,
    /// The recomputed outcome.
    pub outcome: Option<Outcome>,
}

/// Why a log did not verify.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ReplayError {
    /// The log is for another game than the descriptor given.
    #[error("the log is for game {found:?}, not {expected:?}")]
    WrongGame {
        /// The descriptor's game.
        expected: String,
        /// The log's game.
        found: String,
    },
    /// The log's format tag is unknown.
    #[error("unknown log format {0:?}")]
    UnknownFormat(String),
    /// The seed has not been revealed (the game is still running).
    #[error("the log has no seed: it can be verified once the game is over and the seed is revealed")]
    NoSeed,
    /// The seed does not match the commitment published before the first move.
    #[error("the seed does not match its commitment (expected {expected}, the seed hashes to {actual})")]
    Commitment {
        /// The published commitment.
        expected: String,
        /// The hash of the revealed seed.
        actual: String,
    },
    /// The game could not be set up from the log's options.
    #[error("setup failed: {0}")]
    Setup(String),
    /// The state after setup does not match.
    #[error("the state after setup has hash {actual}, the log says {expected}")]
    InitialHash {
        /// Recorded.
        expected: StateHash,
        /// Recomputed.
        actual: StateHash,
    },
    /// An action's sequence number is out of order.
    #[error("action #{index} has seq {seq}, expected {expected}")]
    Sequence {
        /// Position in the log (1-based).
        index: usize,
        /// The recorded seq.
        seq: u64,
        /// The expected seq.
        expected: u64,
    },
    /// An action was rejected by the engine.
    #[error("action seq {seq} by seat {seat} was rejected: {error}")]
    Rejected {
        /// The seq of the action.
        seq: u64,
        /// Who acted.
        seat: Seat,
        /// The engine's reason.
        error: RuleError,
    },
    /// The state after an action does not match the recorded hash.
    #[error("after action seq {seq} the state hash is {actual}, the log says {expected}")]
    HashMismatch {
        /// The seq of the action.
        seq: u64,
        /// Recorded.
        expected: StateHash,
        /// Recomputed.
        actual: StateHash,
    },
    /// The recorded outcome differs from the replayed one.
    #[error("the recorded outcome differs from the replayed one")]
    OutcomeMismatch,
}

impl ReplayError {
    /// The seq of the first action that failed, if the failure is at an action.
    pub fn failing_seq(&self) -> Option<u64> {
        match self {
            ReplayError::Rejected { seq, .. } | ReplayError::HashMismatch { seq, .. } => Some(*seq),
            ReplayError::Sequence { seq, .. } => Some(*seq),
            _ => None,
        }
    }
}

impl GameLog {
    /// A log for a game just set up (no actions yet). The seed is kept out until [`GameLog::reveal`].
    pub fn start(
        game_id: impl Into<String>,
        descriptor: &dyn GameDescriptor,
        options: Value,
        seats: Vec<String>,
        seed: &Seed,
        game: &dyn DynGame,
    ) -> GameLog {
        let info = descriptor.info();
        GameLog {
            format: LOG_FORMAT.to_string(),
            game_id: game_id.into(),
            game: info.id,
            engine_version: info.engine_version,
            options,
            seats,
            seed_commitment: seed.commitment(),
            seed: None,
            initial_hash: game.state_hash(),
            actions: Vec::new(),
            outcome: None,
        }
    }

    /// Appends an accepted action with the hash of the state after it.
    pub fn record(&mut self, seat: Seat, action: Value, hash: StateHash) {
        let seq = self.actions.len() as u64 + 1;
        self.actions.push(LogEntry { seq, seat, action, hash });
    }

    /// Reveals the seed and records the outcome, once the game is over.
    pub fn reveal(&mut self, seed: Seed, outcome: Option<Outcome>) {
        self.seed = Some(seed);
        self.outcome = outcome;
    }

    /// The seat names of this log.
    pub fn names(&self) -> SeatNames {
        SeatNames(self.seats.clone())
    }

    /// Rebuilds the game from its seed and actions, checking the commitment, every hash and the outcome.
    ///
    /// # Errors
    /// The first [`ReplayError`] found, naming the action where the replay diverged.
    pub fn replay(&self, descriptor: &dyn GameDescriptor) -> Result<ReplayReport, ReplayError> {
        self.replay_with(descriptor, |_, _| {})
    }

    /// Like [`GameLog::replay`], calling `each` with every entry and the state after it.
    ///
    /// # Errors
    /// As [`GameLog::replay`].
    pub fn replay_with(
        &self,
        descriptor: &dyn GameDescriptor,
        mut each: impl FnMut(&LogEntry, &dyn DynGame),
    ) -> Result<ReplayReport, ReplayError> {
        if self.format != LOG_FORMAT {
            return Err(ReplayError::UnknownFormat(self.format.clone()));
        }
        let info = descriptor.info();
        if info.id != self.game {
            return Err(ReplayError::WrongGame { expected: info.id, found: self.game.clone() });
        }
        let seed = self.seed.ok_or(ReplayError::NoSeed)?;
        if seed.commitment() != self.seed_commitment {
            return Err(ReplayError::Commitment { expected: self.seed_commitment.clone(), actual: seed.commitment() });
        }
        let start = ReplayStart {
            descriptor,
            seats: &self.seats,
            options: &self.options,
            seed,
            initial_hash: Some(&self.initial_hash),
        };
        let game = replay(start, &self.actions, HashCheck::Every, |entry, _, game| each(entry, game))?.game;
        let outcome = game.outcome();
        if self.outcome.is_some() && self.outcome != outcome {
            return Err(ReplayError::OutcomeMismatch);
        }
        Ok(ReplayReport { actions: self.actions.len(), final_hash: game.state_hash(), outcome })
    }
}
