//! Richard the Lionheart (CMON 2017, 2–6 players): a pure, deterministic rules engine on the
//! `game-core` contract.
//!
//! The map of the crate:
//! - [`board`]: the printed data — card types, the England map, characters, costs, edicts, events;
//! - [`setup`]: the options, and setup by player count and character choice;
//! - [`state`]: the full (secret) state, the decision stages and the small operations on them;
//! - [`validate`]: the invariants every reachable state keeps (spec §9), checked on every load;
//! - [`action`]: the small steps a player can take;
//! - [`event`]: the game log, with secret details in private events only;
//! - [`rules`]: one module per phase, routing each decision and running the automatic steps;
//! - [`score`]: edicts, the end conditions' winners and the outcome;
//! - [`view`]: what each viewer may see, and the re-drawing of what they may not;
//! - [`game`]: the `game_core::Game` implementation;
//! - [`testing`]: helpers that build scenario states from explicit parts (for tests).

pub mod action;
pub mod board;
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

pub use action::{Action, Choice};
pub use board::{Card, Cards, Character, Edict, EventCard, Faction, Location, Purchase, Side, Track};
pub use event::Event;
pub use setup::{CharacterAssignment, Options};
pub use state::{RichardTheLionheart, Stage};
pub use view::View;

/// The engine version, recorded in game logs.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The rules texts in English (see texts/en.json).
pub const TEXTS_EN: &str = include_str!("../texts/en.json");

/// The rules texts in German, with the same keys as the English ones (see texts/de.json).
pub const TEXTS_DE: &str = include_str!("../texts/de.json");
