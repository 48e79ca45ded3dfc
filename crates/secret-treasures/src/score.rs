//! Scoring: Remigius's room scoring with the flipping of pieces (A3), the final scoring (A7:
//! church rings and the rooms table) and the outcome, where tied leaders share the victory.

use crate::board::{self, Kind};
use crate::event::{Source, StEvent};
use crate::rules::{public, Log};
use crate::state::{Phase, SecretTreasures};
use game_core::{Outcome, ScoreLine, Seat};

impl SecretTreasures {
    /// A3: every unscored piece in `room` scores for its owner (ring 2, book 3, chalice 5); then every
    /// chalice and book there turns scored, and each player turns exactly one ring: his lowest (area, space).
    pub(crate) fn score_room(&mut self, room: u8, log: &mut Log) {
        let n = self.n();
        let Some(spaces) = self.room_mut(room) else { return };
        let mut points = vec![0i64; n];
        for piece in spaces.pieces().filter(|p| !p.scored) {
            if let Some(p) = points.get_mut(piece.owner.index()) {
                *p += piece.kind.points();
            }
        }
        for piece in spaces.chalices.iter_mut().chain(spaces.books.iter_mut()).flatten() {
            piece.scored = true;
        }
        for seat in Seat::all(n) {
            if let Some(ring) = spaces.areas.iter_mut().flatten().flatten().find(|p| p.owner == seat && !p.scored) {
                ring.scored = true;
            }
        }
        for (seat, points) in Seat::all(n).zip(points) {
            if points > 0 {
                self.scores[seat].remigius += points;
                public(log, StEvent::Scored { seat, points, source: Source::Remigius });
            }
        }
    }

    /// Unscored rings of `seat` in the church rooms.
    pub(crate) fn church_rings(&self, seat: Seat) -> i64 {
        board::CHURCH
            .iter()
            .filter_map(|r| self.room(*r))
            .flat_map(|r| r.pieces())
            .filter(|p| p.owner == seat && !p.scored && p.kind.ring().is_some())
            .count() as i64
    }

    /// A7: church rings and the rooms bonus, then the game is over.
    pub(crate) fn finish_game(&mut self, log: &mut Log) {
        for seat in Seat::all(self.n()) {
            let church = self.church_rings(seat) * board::CHURCH_RING_POINTS;
            let rooms = self.rooms_with_pieces(seat);
            let rooms_bonus = board::rooms_bonus(rooms);
            self.scores[seat].church = church;
            self.scores[seat].rooms = rooms_bonus;
            let total = self.scores[seat].total();
            public(log, StEvent::FinalScore { seat, church, rooms: rooms as u8, rooms_bonus, total });
        }
        self.phase = Phase::Over;
        if let Some(outcome) = self.final_outcome() {
            public(log, StEvent::GameOver { winners: outcome.winners });
        }
    }

    /// The outcome once the game is over.
    pub(crate) fn final_outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let line = |label: &str, f: fn(&crate::state::Score) -> i64| {
            ScoreLine::new(label, self.scores.iter().map(|(_, s)| f(s)).collect())
        };
        let breakdown = vec![
            line("Remigius", |s| s.remigius),
            line("Porticus", |s| s.porticus),
            line("Severus", |s| s.severus),
            line("Stephanus", |s| s.stephanus),
            line("Unscored rings in the church", |s| s.church),
            line("Rooms with valuables", |s| s.rooms),
        ];
        let scores: Vec<i64> = self.scores.iter().map(|(_, s)| s.total()).collect();
        let keys: Vec<Vec<i64>> = scores.iter().map(|s| vec![*s]).collect();
        Some(Outcome::from_keys(scores, &keys, breakdown, None))
    }
}

/// The number of pieces of `kind` a player owns on the board.
pub(crate) fn on_board(game: &SecretTreasures, seat: Seat, kind: Kind) -> u8 {
    game.rooms.iter().flat_map(|r| r.pieces()).filter(|p| p.owner == seat && p.kind == kind).count() as u8
}
