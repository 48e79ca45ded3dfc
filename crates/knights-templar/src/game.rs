//! The `game_core::Game` implementation: the contract's entry points, routed to the modules.

use crate::action::Action;
use crate::event::Event;
use crate::setup::Options;
use crate::state::KnightsTemplar;
use crate::view::View;
use crate::{rules, score, setup, validate, view};
use game_core::view_diff::{ViewCache, ViewParts};
use game_core::{GameRng, InvalidState, Outcome, RuleError, Seat, Seed, SetupError, Viewer};

impl game_core::Game for KnightsTemplar {
    type Options = Options;
    type Action = Action;
    type View = View;
    type Event = Event;

    const ID: &'static str = "knights-templar";
    const NAME: &'static str = "Knights Templar";
    const MIN_PLAYERS: usize = 2;
    const MAX_PLAYERS: usize = 8;

    fn setup(players: usize, options: &Options, seed: Seed) -> Result<Self, SetupError> {
        setup::setup(players, options, seed)
    }

    fn setup_events(&self) -> Vec<game_core::Event<Event>> {
        setup::setup_events(self)
    }

    fn players(&self) -> usize {
        self.players
    }

    fn to_act(&self) -> Vec<Seat> {
        rules::to_act(self)
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        rules::legal_actions(self, seat)
    }

    fn legal_actions_json(&self, seat: Seat) -> String {
        crate::action::list_json(&rules::legal_actions(self, seat))
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<game_core::Event<Event>>, RuleError> {
        rules::apply(self, seat, action)
    }

    fn view(&self, viewer: Viewer) -> View {
        view::view(self, viewer)
    }

    fn view_text(&self, viewer: Viewer) -> game_core::view_diff::ViewText {
        view::view_text(self, viewer)
    }

    fn view_texts(&self, viewers: &[Viewer], cache: &mut ViewCache) -> Vec<ViewParts> {
        view::view_texts(self, viewers, cache.get())
    }

    fn writes_patches(&self) -> bool {
        true
    }

    fn view_patches(&self, viewers: &[Viewer], cache: &mut ViewCache, patches: &mut Vec<String>) -> bool {
        crate::view::view_patches(self, viewers, cache.get(), patches)
    }

    fn write_canonical(&self, out: &mut Vec<u8>, cache: &mut ViewCache) {
        crate::canonical::write(self, out, cache.get());
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
