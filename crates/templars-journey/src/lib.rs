//! Templars' Journey (3 to 5 players): a pure, deterministic rules engine on the `game-core`
//! contract. The rulebook is the authority; the rules specification (`shared/specs/templars-journey.md`)
//! fixes the reconstructed board data and the rulings. The client-facing JSON is described in
//! `docs/games/templars-journey.md`; deviations and open points in `NOTES.md`.
//!
//! The map of the crate:
//! - [`board`]: the printed board and cards as data (territories, cities, tiles, round track, missions);
//! - [`setup`]: the options ([`Options`]), the random setup and the gold deal;
//! - [`state`]: the full secret state, the decision point it waits at, and small queries on it;
//! - `validate`: the invariants every reachable state keeps (spec §9), checked on every state read;
//! - [`action`]: the small steps a player sends ([`Action`]);
//! - `rules`: the state machine, one module per phase; single-option decisions play themselves;
//! - [`score`]: city evaluation, the temple majority, final scoring and the outcome;
//! - [`event`]: what happened, as log lines ([`Event`]);
//! - [`view`]: what one viewer may see ([`View`]), and the re-draw of what it may not;
//! - [`game`]: the `game_core::Game` implementation, calling the modules above;
//! - [`testing`]: helpers that build scenario states from explicit parts (for tests only).

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
pub use event::Event;
pub use setup::Options;
pub use state::TemplarsJourney;
pub use view::View;

/// The engine version, recorded in game logs.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The rules texts in English (see texts/en.json).
pub const TEXTS_EN: &str = include_str!("../texts/en.json");

/// The rules texts in German, with the same keys as the English ones (see texts/de.json).
pub const TEXTS_DE: &str = include_str!("../texts/de.json");
