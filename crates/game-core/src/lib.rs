//! The contract every Chapterhouse game implements, and the machinery that is the same for all games.
//!
//! A game is a pure value that moves from one decision point to the next ([`Game`]). Around that
//! contract this crate provides:
//!
//! - [`seat`]: seats, viewers and the seat-indexed container [`BySeat`];
//! - [`rng`]: the seeded ChaCha RNG kept inside every game state, seeds and their commitments;
//! - [`hash`]: the canonical serialisation of a state and its SHA-256;
//! - [`game`]: the [`Game`] trait itself, events with their audience, outcomes and rule errors;
//! - [`dynamic`]: the object-safe JSON wrapper ([`DynGame`]) and catalog entries ([`GameDescriptor`]);
//! - [`log`]: the game log format and its verification;
//! - [`replay`]: the one loop that rebuilds a game from its actions (recovery, routes, verify);
//! - [`bot`]: the random bot that plays any game from its legal actions;
//! - [`testing`]: the generic property harness every game crate runs;
//! - [`view_diff`]: the JSON Patch between two views, computed on their text.

pub mod bot;
pub mod dynamic;
pub mod game;
pub mod hash;
pub mod log;
pub mod replay;
pub mod rng;
pub mod seat;
pub mod testing;
pub mod view_diff;

pub use bot::RandomBot;
pub use dynamic::{Descriptor, DynEvent, DynGame, EventJson, GameDescriptor, GameInfo, OptionKind, OptionSpec};
pub use game::{Audience, Event, Game, GameEvent, InvalidState, Outcome, RuleError, ScoreLine, SetupError};
pub use hash::{state_hash, StateHash};
pub use log::{GameLog, LogEntry, ReplayError, ReplayReport};
pub use rng::{GameRng, Seed};
pub use seat::{BySeat, Seat, SeatNames, Viewer};
