//! A one-seat toy game for tests that need an engine to misbehave on cue: `step` counts up,
//! `explode` panics as a bug would, and its view calls the hook a test sets ([`on_view`]), which
//! may block (to hold a table in the middle of an action).

use chapterhouse::catalog::Catalog;
use game_core::{
    Descriptor, Event, Game, GameEvent, GameRng, InvalidState, Outcome, RuleError, Seat, SeatNames, Seed, SetupError,
    Viewer,
};
use serde::{Deserialize, Serialize};
use std::sync::{Arc, OnceLock};

/// The toy game's state.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Toy {
    steps: u32,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ToyOptions {}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToyAction {
    Step,
    Explode,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stepped;

impl GameEvent for Stepped {
    fn describe(&self, _: &SeatNames) -> String {
        "a step".into()
    }
}

/// What the view calls, once a test set it.
static ON_VIEW: OnceLock<fn()> = OnceLock::new();

/// Makes every view of the toy game call `hook` first (set once per test binary).
pub fn on_view(hook: fn()) {
    let _ = ON_VIEW.set(hook);
}

impl Game for Toy {
    type Options = ToyOptions;
    type Action = ToyAction;
    type View = u32;
    type Event = Stepped;
    const ID: &'static str = "toy";
    const NAME: &'static str = "Toy";
    const MIN_PLAYERS: usize = 1;
    const MAX_PLAYERS: usize = 1;

    fn setup(_: usize, _: &ToyOptions, _: Seed) -> Result<Self, SetupError> {
        Ok(Toy { steps: 0 })
    }
    fn players(&self) -> usize {
        1
    }
    fn to_act(&self) -> Vec<Seat> {
        vec![Seat(0)]
    }
    fn legal_actions(&self, _: Seat) -> Vec<ToyAction> {
        vec![ToyAction::Step, ToyAction::Explode]
    }
    fn apply(&mut self, _: Seat, action: &ToyAction) -> Result<Vec<Event<Stepped>>, RuleError> {
        match action {
            ToyAction::Step => {
                self.steps += 1;
                Ok(vec![Event::public(Stepped)])
            }
            ToyAction::Explode => panic!("the test engine explodes"),
        }
    }
    fn view(&self, _: Viewer) -> u32 {
        if let Some(hook) = ON_VIEW.get() {
            hook();
        }
        self.steps
    }
    fn outcome(&self) -> Option<Outcome> {
        None
    }
    fn scramble_hidden(&self, _: Viewer, _: &mut GameRng) -> Self {
        self.clone()
    }
    fn validate(&self) -> Result<(), InvalidState> {
        Ok(())
    }
}

/// A catalog holding only the toy game.
pub fn toy_catalog() -> Arc<Catalog> {
    Arc::new(Catalog::new(vec![Box::new(Descriptor::<Toy>::new("1"))]))
}
