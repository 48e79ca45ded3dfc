//! Templars' Journey (3 to 5 players): a pure, deterministic rules engine on the `game-core`
//! contract. The rulebook is the authority; the rules specification (`shared/specs/templars-journey.md`)
//! fixes the reconstructed board data and the rulings. The client-facing JSON is described in
//! `docs/games/templars-journey.md`; deviations and open points in `NOTES.md`.
//!
//! The map of the crate:
//! - [`board`]: the printed board and cards as data (territories, adjacency, cities, tiles, the
//!   round track, edict spaces and ships, missions, gold rates).
//! - [`state`]: the full secret state and the decision point the game waits at.
//! - [`action`]: the small steps a player sends.
//! - [`event`]: what happened, as log lines.
//! - [`view`]: what one viewer may see, and the re-draw of hidden information.
//! - [`setup`]: options and the random setup.
//! - [`score`]: city evaluation, temple majority, final scoring, the outcome.
//! - `rules`: the state machine, one file per phase.
//! - [`testing`]: helpers for scenario tests (not part of the stable API).

pub mod action;
pub mod board;
pub mod event;
mod rules;
pub mod score;
pub mod setup;
pub mod state;
#[doc(hidden)]
pub mod testing;
pub mod view;

pub use action::Action;
pub use event::Event;
pub use setup::Options;
pub use state::TemplarsJourney;
pub use view::View;

use game_core::{Game, GameRng, OptionSpec, Outcome, RuleError, Seat, Seed, SetupError, Viewer};

impl Game for TemplarsJourney {
    type Options = Options;
    type Action = Action;
    type View = View;
    type Event = Event;

    const ID: &'static str = "templars-journey";
    const NAME: &'static str = "Templars' Journey";
    const MIN_PLAYERS: usize = 3;
    const MAX_PLAYERS: usize = 5;

    fn option_specs() -> Vec<OptionSpec> {
        setup::option_specs()
    }

    fn setup(players: usize, options: &Options, seed: Seed) -> Result<Self, SetupError> {
        SetupError::check_players::<Self>(players)?;
        setup::setup(players, options, seed)
    }

    fn setup_events(&self) -> Vec<game_core::Event<Event>> {
        self.setup_log()
    }

    fn players(&self) -> usize {
        self.player_count()
    }

    fn to_act(&self) -> Vec<Seat> {
        self.waiting_for()
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        self.legal(seat)
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<game_core::Event<Event>>, RuleError> {
        RuleError::check(self, seat, action)?;
        let mut events = Vec::new();
        self.perform(seat, action, false, &mut events);
        self.settle(&mut events);
        Ok(events)
    }

    fn view(&self, viewer: Viewer) -> View {
        self.view_for(viewer)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.final_outcome()
    }

    fn scramble_hidden(&self, viewer: Viewer, rng: &mut GameRng) -> Self {
        self.scrambled(viewer, rng)
    }
}

/// The catalog entry of Templars' Journey.
pub const DESCRIPTOR: game_core::Descriptor<TemplarsJourney> = game_core::Descriptor::new(env!("CARGO_PKG_VERSION"));

/// The engine version, recorded in game logs.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The rules texts in English (see texts/en.json).
pub const TEXTS_EN: &str = include_str!("../texts/en.json");

/// The rules texts in German, with the same keys as the English ones (see texts/de.json).
pub const TEXTS_DE: &str = include_str!("../texts/de.json");
