//! The End Phase (spec §4.1 E1–E3) and the end of the game (§7).

use super::Events;
use crate::card::CardType;
use crate::event::Event;
use crate::state::{EndReason, KnightsTemplar, Pending, Stage};
use game_core::{BySeat, Seat};

impl KnightsTemplar {
    /// End Phase (E1–E3).
    pub(crate) fn end_phase(&mut self, events: &mut Events) {
        let missions = BySeat::from_fn(self.players, |s| self.count(s, CardType::Mission));
        if let Some(leader) = sole_leader(&missions, 0) {
            let changed = leader != self.gm;
            self.gm = leader;
            events.push(game_core::Event::public(Event::GrandMaster { seat: leader, changed }));
        } else {
            events.push(game_core::Event::public(Event::GrandMaster { seat: self.gm, changed: false }));
        }
        let counties = BySeat::from_fn(self.players, |s| self.count(s, CardType::County));
        let county_leader = sole_leader(&counties, 1);
        if let Some(s) = county_leader {
            self.county_vp[s] += 1;
        }
        events.push(game_core::Event::public(Event::CountyPoint { seat: county_leader }));
        if self.deck.is_empty() {
            self.finish(EndReason::DeckEmpty, events);
        } else if self.tableaus.iter().any(|(s, _)| self.count(s, CardType::Downfall) >= 5) {
            self.finish(EndReason::FiveDownfall, events);
        } else {
            self.draw_phase(events);
        }
    }

    /// The game ends for `reason`: nothing is pending any more.
    pub(super) fn finish(&mut self, reason: EndReason, events: &mut Events) {
        self.stage = Stage::Over;
        self.end = Some(reason);
        self.pending = Pending::Over;
        self.power_queue.clear();
        events.push(game_core::Event::public(Event::GameEnded { reason }));
    }
}

/// The seat with the sole highest count, if that count is at least `min`.
fn sole_leader(counts: &BySeat<usize>, min: usize) -> Option<Seat> {
    let best = counts.iter().map(|(_, c)| *c).max()?;
    let leaders: Vec<Seat> = counts.iter().filter(|(_, c)| **c == best).map(|(s, _)| s).collect();
    match leaders[..] {
        [only] if best >= min => Some(only),
        _ => None,
    }
}
