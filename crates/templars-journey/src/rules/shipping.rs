//! The shipping round when the Pope enters a harbour: both cities, the temple majority, the new
//! gold after rounds 1 and 2 and the Pope's move to the next start space; after round 3, the
//! final scoring.

use super::Events;
use crate::board::{EdictSpace, Space};
use crate::event::Event;
use crate::state::TemplarsJourney;

impl TemplarsJourney {
    /// Runs shipping round `round` (1 to 3) and everything automatic after it.
    pub(super) fn shipping_round(&mut self, round: u8, events: &mut Events) {
        events.push(game_core::Event::public(Event::ShippingRound { round }));
        for space in EdictSpace::of_round(round) {
            self.evaluate_city(space, events);
        }
        self.temple_majority(round, events);
        if round < 3 {
            let (with_city, without_city) = self.deal_gold(round);
            events.push(game_core::Event::public(Event::GoldDealt { with_city, without_city }));
            let to = Space::start(round + 1);
            self.pope = to;
            self.leg_card_phases = 0;
            events.push(game_core::Event::public(Event::PopeMoved { seat: self.first, to, forced: true }));
            self.begin_action();
        } else {
            self.final_scoring(events);
        }
    }
}
