//! The `game-core` contract for Templar: The Secret Treasures. Each method calls the engine's own
//! function of the same name: `setup`, `rules`, `view`, `score` and `validate` hold the logic.

use crate::action::Action;
use crate::event::Event;
use crate::setup::{self, Options, SetupHooks};
use crate::state::SecretTreasures;
use crate::view::{self, View};
use crate::{rules, score, validate};
use game_core::view_diff::{ViewCache, ViewParts};
use game_core::{GameRng, InvalidState, OptionSpec, Outcome, RuleError, Seat, Seed, SetupError, Viewer};

impl game_core::Game for SecretTreasures {
    type Options = Options;
    type Action = Action;
    type View = View;
    type Event = Event;

    const ID: &'static str = "secret-treasures";
    const NAME: &'static str = "Templar: The Secret Treasures";
    const MIN_PLAYERS: usize = 2;
    const MAX_PLAYERS: usize = 5;

    fn option_specs() -> Vec<OptionSpec> {
        setup::option_specs()
    }

    fn setup(players: usize, options: &Options, seed: Seed) -> Result<Self, SetupError> {
        setup::setup(players, options, seed, SetupHooks::default())
    }

    fn setup_events(&self) -> Vec<game_core::Event<Event>> {
        self.setup_log.iter().cloned().map(game_core::Event::public).collect()
    }

    fn players(&self) -> usize {
        usize::from(self.players)
    }

    fn to_act(&self) -> Vec<Seat> {
        rules::to_act(self)
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        rules::legal_actions(self, seat)
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<game_core::Event<Event>>, RuleError> {
        RuleError::check(self, seat, action)?;
        Ok(rules::apply(self, seat, *action))
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
