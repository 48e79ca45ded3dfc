//! Templar: The Secret Treasures (Queen Games 2013), 2–5 players: a pure, deterministic rules engine
//! on the `game-core` contract. The map of the crate:
//!
//! - [`board`]: the printed components (abbey map, hiding places, harbor, tiles, cards, tables);
//! - [`setup`]: the options, and setting up a game (harbor stocking, Raphael's deck);
//! - [`state`]: the full game state, hidden parts included, with the RNG inside, and its accessors;
//! - `validate`: the invariants every reachable state keeps, checked when a state is read;
//! - [`action`]: the small steps players send;
//! - `rules`: who acts, the legal actions, and applying them with every automatic step;
//! - [`score`]: Remigius's room scoring, the final scoring and the outcome;
//! - [`event`]: the game log lines and their audiences;
//! - [`view`]: what one viewer may see, and re-drawing what it may not;
//! - [`game`]: the `Game` implementation, calling the modules above;
//! - [`testing`]: building scenario states from explicit parts, for tests.

pub mod action;
pub mod board;
pub mod event;
pub mod game;
mod rules;
pub mod score;
pub mod setup;
pub mod state;
#[doc(hidden)]
pub mod testing;
mod validate;
pub mod view;

pub use action::Action;
pub use board::{Card, Kind, Pieces, Portal, Ring};
pub use event::Event;
pub use setup::Options;
pub use state::{Phase, Place, SecretTreasures, Step};
pub use view::View;

/// The engine version, recorded in game logs.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The rules texts in English (see texts/en.json).
pub const TEXTS_EN: &str = include_str!("../texts/en.json");

/// The rules texts in German, with the same keys as the English ones (see texts/de.json).
pub const TEXTS_DE: &str = include_str!("../texts/de.json");
