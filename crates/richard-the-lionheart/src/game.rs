//! The `game_core::Game` implementation: the contract's entry points, routed to the modules.

use crate::action::Action;
use crate::event::LogEvent;
use crate::state::{Options, RichardTheLionheart};
use crate::view::View;
use crate::{rules, score, setup, view};
use game_core::{Event, Game, GameRng, OptionKind, OptionSpec, Outcome, RuleError, Seat, Seed, SetupError, Viewer};

impl Game for RichardTheLionheart {
    type Options = Options;
    type Action = Action;
    type View = View;
    type Event = LogEvent;

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

    fn setup_events(&self) -> Vec<Event<LogEvent>> {
        let mut out: Vec<Event<LogEvent>> = self
            .players
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                p.character.map(|character| Event::public(LogEvent::CharacterTaken { seat: Seat(i as u8), character }))
            })
            .collect();
        if out.len() == self.n() {
            out.push(Event::public(LogEvent::FirstPlayer { seat: self.first_player }));
        }
        out
    }

    fn players(&self) -> usize {
        self.n()
    }

    fn to_act(&self) -> Vec<Seat> {
        self.stage.seat().into_iter().collect()
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        rules::legal(self, seat)
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Event<LogEvent>>, RuleError> {
        RuleError::check(self, seat, action)?;
        self.log.clear();
        rules::play(self, seat, *action);
        Ok(std::mem::take(&mut self.log))
    }

    fn view(&self, viewer: Viewer) -> View {
        view::view(self, viewer)
    }

    fn outcome(&self) -> Option<Outcome> {
        score::outcome(self)
    }

    fn scramble_hidden(&self, viewer: Viewer, rng: &mut GameRng) -> Self {
        view::scramble(self, viewer, rng)
    }
}
