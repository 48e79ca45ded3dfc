//! The random bot: plays any game by choosing uniformly among its legal actions.

use crate::dynamic::DynGame;
use crate::game::{Game, RuleError};
use crate::rng::GameRng;
use crate::seat::{Seat, SeatNames};
use serde_json::value::RawValue;
use serde_json::Value;

/// A bot that picks a uniformly random legal action. Deterministic for a given RNG.
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: GameRng,
}

impl RandomBot {
    /// A bot drawing from `rng`.
    pub fn new(rng: GameRng) -> Self {
        RandomBot { rng }
    }

    /// A random legal action of `seat` in a typed game, or `None` if it has none.
    pub fn choose<G: Game>(&mut self, game: &G, seat: Seat) -> Option<G::Action> {
        let actions = game.legal_actions(seat);
        self.rng.choose(&actions).cloned()
    }

    /// A random legal action of `seat` in any game, or `None` if it has none.
    pub fn choose_dyn(&mut self, game: &dyn DynGame, seat: Seat) -> Option<Value> {
        let actions = game.legal_actions(seat);
        self.rng.choose(&actions).cloned()
    }

    /// [`RandomBot::choose_dyn`]'s choice (the same draw from the same list) as the text the
    /// game lists it with, ready for [`DynGame::apply_text`]: no `Value` per legal action.
    pub fn choose_dyn_text(&mut self, game: &dyn DynGame, seat: Seat) -> Option<Box<RawValue>> {
        let actions: Vec<Box<RawValue>> = serde_json::from_str(&game.legal_actions_json(seat)).ok()?;
        self.rng.choose(&actions).cloned()
    }

    /// One random move in any game: a random seat among those it waits for plays a random legal
    /// action, applied. The seat and the action; `None` (and nothing applied) when the game
    /// waits for nobody or that seat has no legal action.
    ///
    /// # Errors
    /// The engine's refusal of an action it listed as legal (a bug in the engine).
    pub fn step_dyn(&mut self, game: &mut dyn DynGame, names: &SeatNames) -> Result<Option<(Seat, Value)>, RuleError> {
        let Some(seat) = self.pick_seat(&game.to_act()) else { return Ok(None) };
        let Some(action) = self.choose_dyn(&*game, seat) else { return Ok(None) };
        game.apply(seat, &action, names)?;
        Ok(Some((seat, action)))
    }

    /// A random seat among those the game waits for, or `None` if it waits for nobody.
    pub fn pick_seat(&mut self, to_act: &[Seat]) -> Option<Seat> {
        self.rng.choose(to_act).copied()
    }
}
