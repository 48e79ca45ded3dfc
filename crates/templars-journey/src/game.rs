//! The `game_core::Game` implementation: the contract's entry points, routed to the modules.

use crate::action::Action;
use crate::event::Event;
use crate::setup::Options;
use crate::state::TemplarsJourney;
use crate::view::View;
use crate::{rules, score, setup, validate, view};
use game_core::view_diff::{ViewCache, ViewParts};
use game_core::{GameRng, InvalidState, Outcome, RuleError, Seat, Seed, SetupError, Viewer};

impl game_core::Game for TemplarsJourney {
    type Options = Options;
    type Action = Action;
    type View = View;
    type Event = Event;

    const ID: &'static str = "templars-journey";
    const NAME: &'static str = "Templars' Journey";
    const MIN_PLAYERS: usize = 3;
    const MAX_PLAYERS: usize = 5;

    fn setup(players: usize, options: &Options, seed: Seed) -> Result<Self, SetupError> {
        setup::setup(players, options, seed)
    }

    fn setup_events(&self) -> Vec<game_core::Event<Event>> {
        setup::setup_events(self)
    }

    fn players(&self) -> usize {
        self.players.len()
    }

    fn to_act(&self) -> Vec<Seat> {
        rules::to_act(self)
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        rules::legal_actions(self, seat)
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<game_core::Event<Event>>, RuleError> {
        rules::apply(self, seat, action)
    }

    fn view(&self, viewer: Viewer) -> View {
        view::view(self, viewer)
    }

    fn view_texts(&self, viewers: &[Viewer], _: &mut ViewCache) -> Vec<ViewParts> {
        view::view_texts(self, viewers)
    }

    fn outcome(&self) -> Option<Outcome> {
        score::outcome(self)
    }

    fn scramble_hidden(&self, viewer: Viewer, rng: &mut GameRng) -> Self {
        view::scramble_hidden(self, viewer, rng)
    }

    fn validate(&self) -> Result<(), InvalidState> {
        validate::validate(self)
    }
}
