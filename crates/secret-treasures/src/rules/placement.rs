//! Setup decisions D1–D4: the players to the right of the start player place Remigius, Vitus and
//! Severus, then each player, clockwise from the start player, chooses his starting rings.

use super::{public, Log};
use crate::action::Action;
use crate::board::{self, Kind, Ring};
use crate::event::{Event, Figure};
use crate::state::{Phase, Place, SecretTreasures};
use game_core::{Game, Seat};

impl SecretTreasures {
    /// D1/D3: any room; D2: a room sharing a passage with Remigius's room (door or not).
    pub(super) fn placement_options(&self) -> Vec<Action> {
        match self.phase {
            Phase::PlaceVitus { .. } => {
                let Some(rem) = self.remigius else { return Vec::new() };
                (1..=board::ROOMS).filter(|r| board::adjacent(rem, *r)).map(Action::Room).collect()
            }
            _ => (1..=board::ROOMS).map(Action::Room).collect(),
        }
    }

    /// D4: the type held only once.
    pub(super) fn ring_options(&self) -> Vec<Action> {
        Ring::ALL.iter().map(|r| Action::Single(*r)).collect()
    }

    pub(super) fn place_figure(&mut self, seat: Seat, action: Action, log: &mut Log) {
        let Action::Room(room) = action else { return };
        let n = self.players();
        let (figure, next) = match self.phase {
            Phase::PlaceRemigius { .. } => {
                self.remigius = Some(room);
                (Figure::Remigius, Phase::PlaceVitus { seat: self.start.next(n, 2 * n - 2) })
            }
            Phase::PlaceVitus { .. } => {
                self.vitus = Some(Place::Room(room));
                (Figure::Vitus, Phase::PlaceSeverus { seat: self.start.next(n, 3 * n - 3) })
            }
            _ => {
                self.severus = Some(room);
                (Figure::Severus, Phase::ChooseRings { seat: self.start })
            }
        };
        public(log, Event::FigurePlaced { seat, figure, room });
        self.phase = next;
    }

    pub(super) fn choose_rings(&mut self, seat: Seat, action: Action, log: &mut Log) {
        let Action::Single(single) = action else { return };
        for ring in Ring::ALL {
            let count = if ring == single { 1 } else { 2 };
            for _ in 0..count {
                if self.reserves[seat].take(Kind::from(ring)) {
                    self.stocks[seat].add(Kind::from(ring));
                }
            }
        }
        public(log, Event::RingsChosen { seat, single });
        let next = seat.next(self.players(), 1);
        self.phase = if next == self.start { Phase::FirstRound } else { Phase::ChooseRings { seat: next } };
    }
}
