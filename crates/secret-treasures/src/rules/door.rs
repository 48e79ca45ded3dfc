//! Porticus, the porter (D12): the door moves to any other passage, and he scores 1.

use super::{public, Log};
use crate::action::Action;
use crate::board;
use crate::event::{Event, Source};
use crate::state::SecretTreasures;
use game_core::Seat;

impl SecretTreasures {
    /// D12: every passage but the one holding the door.
    pub(super) fn door_options(&self) -> Vec<Action> {
        board::PASSAGES.iter().enumerate().filter(|(i, _)| *i != self.door).map(|(_, p)| Action::Passage(*p)).collect()
    }

    /// Porticus: the door moves to the chosen passage; +1.
    pub(super) fn porticus(&mut self, seat: Seat, action: Action, log: &mut Log) {
        let Action::Passage([a, b]) = action else { return };
        let Some(to) = board::passage_index(a, b) else { return };
        let from = self.door();
        self.door = to;
        public(log, Event::DoorMoved { seat, from, to: [a, b] });
        self.scores[seat].porticus += 1;
        public(log, Event::Scored { seat, points: 1, source: Source::Porticus });
        self.end_turn(seat, log);
    }
}
