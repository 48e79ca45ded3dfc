//! The random bot: plays any game by choosing uniformly among its legal actions.

use crate::dynamic::DynGame;
use crate::game::Game;
use crate::rng::GameRng;
use crate::seat::Seat;
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

    /// A random seat among those the game waits for, or `None` if it waits for nobody.
    pub fn pick_seat(&mut self, to_act: &[Seat]) -> Option<Seat> {
        self.rng.choose(to_act).copied()
    }
}
