//! Power draws (spec §4.4): once per turn, after the Fate row is empty.

use super::Events;
use crate::card::CardType;
use crate::event::Event;
use crate::state::{KnightsTemplar, Pending, Stage};
use game_core::BySeat;

impl KnightsTemplar {
    /// §4.4 step 1: the snapshot of Power drawers, clockwise from the GM.
    pub(crate) fn start_power_draws(&mut self, events: &mut Events) {
        self.stage = Stage::PowerDraws;
        let power = BySeat::from_fn(self.players, |s| self.count(s, CardType::Power));
        let m = power.iter().map(|(_, p)| *p).max().unwrap_or(0);
        self.power_queue = if m == 0 {
            Vec::new()
        } else {
            (0..self.players).map(|i| self.gm.next(self.players, i)).filter(|s| power[*s] == m).collect()
        };
        events.push(game_core::Event::public(Event::PowerDrawers { seats: self.power_queue.clone(), power: m as u32 }));
        self.next_power_draw(events);
    }

    /// §4.4 step 2: the next drawer draws and plays the top card, or the End Phase follows.
    pub(super) fn next_power_draw(&mut self, events: &mut Events) {
        if self.power_queue.is_empty() {
            self.end_phase(events);
            return;
        }
        let drawer = self.power_queue.remove(0);
        if self.deck.is_empty() {
            events.push(game_core::Event::public(Event::PowerDrawEmpty { seat: drawer }));
            self.power_queue.clear();
            self.end_phase(events);
            return;
        }
        let card = self.deck.remove(0);
        events.push(game_core::Event::public(Event::PowerDraw { seat: drawer, card }));
        self.pending = Pending::Resolving;
        self.resolve(drawer, card, events);
        if !self.is_deciding() {
            self.after_resolution(events);
        }
    }
}
