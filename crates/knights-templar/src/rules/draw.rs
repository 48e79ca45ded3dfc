//! The Draw Phase (spec §4.1): the Fate row of the turn.

use super::Events;
use crate::event::Event;
use crate::state::{KnightsTemplar, Pending, Stage};
use game_core::BySeat;

/// The number of Fate cards per turn for `players` (spec §2.3); 0 for an unsupported count.
pub fn fate_size(players: usize) -> usize {
    match players {
        2 | 3 | 6 => 7,
        4 | 8 => 9,
        5 => 6,
        7 => 8,
        _ => 0,
    }
}

impl KnightsTemplar {
    /// Draw Phase: flip min(X, deck) cards into the Fate row; the GM picks first.
    pub(crate) fn draw_phase(&mut self, events: &mut Events) {
        self.turn += 1;
        let f = fate_size(self.players).min(self.deck.len());
        self.fate = self.deck.drain(..f).collect();
        events.push(game_core::Event::public(Event::TurnStarted { turn: self.turn, fate: self.fate.clone() }));
        self.stage = Stage::Select;
        self.round = 1;
        self.picked.clear();
        self.fate_picks = BySeat::from_fn(self.players, |_| 0);
        self.picker = self.gm;
        self.pending = Pending::Pick { seat: self.gm };
    }
}
