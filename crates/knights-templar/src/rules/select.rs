//! The Select Phase's own decisions (spec §4.1 S1–S5): the Fate pick (DP1) and the Grand
//! Master's nomination of the next picker (DP2).

use super::Events;
use crate::card::Card;
use crate::event::Event;
use crate::state::{KnightsTemplar, Pending};
use game_core::Seat;

impl KnightsTemplar {
    /// DP1: `seat` takes `card` from the Fate row and plays it.
    pub(super) fn pick(&mut self, seat: Seat, card: Card, automatic: bool, events: &mut Events) {
        self.fate.retain(|c| *c != card);
        self.fate_picks[seat] += 1;
        events.push(game_core::Event::public(Event::Picked { seat, card, automatic }));
        self.resolve(seat, card, events);
        if !self.is_deciding() {
            self.after_resolution(events);
        }
    }

    /// DP2: the GM nominates `seat`.
    pub(super) fn nominate(&mut self, seat: Seat, automatic: bool, events: &mut Events) {
        events.push(game_core::Event::public(Event::Nominated { gm: self.gm, seat, automatic }));
        self.picker = seat;
        self.pending = Pending::Pick { seat };
    }
}
