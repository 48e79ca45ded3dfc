//! Knights Templar, the Warpspawn card game by Lloyd Krassner (2–8 players): a pure,
//! deterministic rules engine on the `game-core` contract, following `specs/knights-templar.md`.
//! The map of the crate:
//!
//! - [`card`]: the 95 printed cards, their names and types;
//! - [`setup`]: the options ([`Options`]) and setup: the Grand Master draw and the game deck;
//! - [`state`]: the full (secret) state, its pending decision and read access to it;
//! - [`validate`]: the invariants every reachable state keeps, checked on every state read from JSON;
//! - [`action`]: the five decisions a player makes ([`Action`]);
//! - [`rules`]: the turn flow, one module per phase, with single-option decisions played automatically;
//! - [`event`]: the game log lines ([`Event`]);
//! - [`view`]: what each viewer may see ([`View`]), and the re-drawing of what it may not;
//! - [`score`]: final scoring and the outcome;
//! - [`game`]: the `game_core::Game` implementation;
//! - `testing`: the scripted-shuffle setup of spec §3 step 2, for tests.

pub mod action;
mod canonical;
pub mod card;
pub mod event;
pub mod game;
pub mod rules;
pub mod score;
pub mod setup;
pub mod state;
#[doc(hidden)]
pub mod testing;
pub mod validate;
pub mod view;

#[cfg(test)]
mod tests;

pub use action::Action;
pub use card::{Card, CardType};
pub use event::Event;
pub use setup::Options;
pub use state::{Discard, EndReason, KnightsTemplar, Pending, Stage};
pub use view::View;

/// The engine version, recorded in game logs.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The rules texts in English (see texts/en.json).
pub const TEXTS_EN: &str = include_str!("../texts/en.json");

/// The rules texts in German, with the same keys as the English ones (see texts/de.json).
pub const TEXTS_DE: &str = include_str!("../texts/de.json");
