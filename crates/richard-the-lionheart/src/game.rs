//! The `game_core::Game` implementation: the contract's entry points, routed to the modules.

use crate::action::Action;
use crate::event::Event;
use crate::setup::Options;
use crate::state::RichardTheLionheart;
use crate::view::View;
use crate::{rules, score, setup, validate, view};
use game_core::view_diff::{ViewCache, ViewParts};
use game_core::{
    Game, GameRng, InvalidState, OptionKind, OptionSpec, Outcome, RuleError, Seat, Seed, SetupError, Viewer,
};

impl Game for RichardTheLionheart {
    type Options = Options;
    type Action = Action;
    type View = View;
    type Event = Event;

    const ID: &'static str = "richard-the-lionheart";
    const NAME: &'static str = "Richard the Lionheart";
    const MIN_PLAYERS: usize = 2;
    const MAX_PLAYERS: usize = 6;

    fn option_specs() -> Vec<OptionSpec> {
        vec![OptionSpec {
            key: "characters".into(),
            label: "Characters".into(),
            help: "random: dealt at random within the faction quotas; chosen: each seat picks in turn".into(),
            kind: OptionKind::Choice { choices: vec!["random".into(), "chosen".into()], default: "random".into() },
        }]
    }

    fn setup(players: usize, options: &Options, seed: Seed) -> Result<Self, SetupError> {
        setup::setup(players, options, seed)
    }

    fn setup_events(&self) -> Vec<game_core::Event<Event>> {
        let mut out: Vec<game_core::Event<Event>> = self
            .players
            .iter()
            .filter_map(|(seat, p)| {
                p.character.map(|character| game_core::Event::public(Event::CharacterTaken { seat, character }))
            })
            .collect();
        if out.len() == self.players.len() {
            out.push(game_core::Event::public(Event::FirstPlayer { seat: self.first_player }));
        }
        out
    }

    fn players(&self) -> usize {
        self.players.len()
    }

    fn to_act(&self) -> Vec<Seat> {
        self.stage.seat().into_iter().collect()
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        rules::legal_actions(self, seat)
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<game_core::Event<Event>>, RuleError> {
        RuleError::check(self, seat, action)?;
        self.log.clear();
        rules::apply(self, seat, *action);
        Ok(std::mem::take(&mut self.log))
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
