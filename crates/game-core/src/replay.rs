//! The one replay loop: rebuild a game from its setup and its accepted actions.
//!
//! Start-up recovery, the log and replay routes, and offline verification all rebuild games the
//! same way; they differ only in what they check (the stored hashes, or not) and what they want
//! to see along the way (each action's events, the position after it). Keeping one loop means a
//! faster replay, or a stricter check, reaches all of them at once.

use crate::dynamic::{DynEvent, DynGame, GameDescriptor};
use crate::hash::StateHash;
use crate::log::{LogEntry, ReplayError};
use crate::rng::Seed;
use crate::seat::SeatNames;
use serde_json::Value;

/// Where a replay starts: the game as it was set up.
#[derive(Clone, Copy)]
pub struct ReplayStart<'a> {
    /// The catalog entry of the game.
    pub descriptor: &'a dyn GameDescriptor,
    /// Seat names (their number is the player count); events are rendered with them.
    pub seats: &'a [String],
    /// The options, as normalised by the catalog.
    pub options: &'a Value,
    /// The seed.
    pub seed: Seed,
    /// The hash recorded after setup, checked when given.
    pub initial_hash: Option<&'a StateHash>,
}

/// Whether a replay checks each entry's recorded state hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashCheck {
    /// Recompute the state hash after every action and compare it (recovery, verification).
    Every,
    /// Trust the recorded hashes (reading an already verified log, e.g. to show a position).
    None,
}

/// A game rebuilt by [`replay`].
pub struct Replayed {
    /// The game after the last entry.
    pub game: Box<dyn DynGame>,
    /// What setup did.
    pub setup_events: Vec<DynEvent>,
    /// Entries applied.
    pub actions: usize,
}

/// Sets the game up from `start`, checks its initial hash, then applies `entries` in order,
/// requiring consecutive seqs from 1 and, under [`HashCheck::Every`], each recorded hash; calls
/// `each` with every entry, its events and the game after it.
///
/// # Errors
/// The first [`ReplayError`]: setup failed, the initial hash differs, a seq is out of order, an
/// action was rejected, or a state hash differs; naming the entry where it happened.
pub fn replay<'e>(
    start: ReplayStart<'_>,
    entries: impl IntoIterator<Item = &'e LogEntry>,
    hashes: HashCheck,
    mut each: impl FnMut(&'e LogEntry, &[DynEvent], &dyn DynGame),
) -> Result<Replayed, ReplayError> {
    let mut game = start
        .descriptor
        .create(start.seats.len(), start.options, start.seed)
        .map_err(|e| ReplayError::Setup(e.to_string()))?;
    if let Some(expected) = start.initial_hash {
        let actual = game.state_hash();
        if &actual != expected {
            return Err(ReplayError::InitialHash { expected: expected.clone(), actual });
        }
    }
    let names = SeatNames(start.seats.to_vec());
    let setup_events = game.setup_events(&names);
    let mut actions = 0;
    for (i, entry) in entries.into_iter().enumerate() {
        let expected_seq = i as u64 + 1;
        if entry.seq != expected_seq {
            return Err(ReplayError::Sequence { index: i + 1, seq: entry.seq, expected: expected_seq });
        }
        let events = game.apply(entry.seat, &entry.action, &names).map_err(|error| ReplayError::Rejected {
            seq: entry.seq,
            seat: entry.seat,
            error,
        })?;
        if hashes == HashCheck::Every {
            let actual = game.state_hash();
            if actual != entry.hash {
                return Err(ReplayError::HashMismatch { seq: entry.seq, expected: entry.hash.clone(), actual });
            }
        }
        each(entry, &events, game.as_ref());
        actions += 1;
    }
    Ok(Replayed { game, setup_events, actions })
}
