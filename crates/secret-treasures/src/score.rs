//! Scoring: Remigius's room scoring with the flipping of pieces (A3), the final scoring (A7:
//! church rings and the rooms table) and the outcome, where tied leaders share the victory.

use crate::board;
use crate::event::{Event, Source};
use crate::rules::{public, Log};
use crate::state::{Phase, Score, SecretTreasures};
use game_core::{BySeat, Game, Outcome, ScoreLine, Seat};

impl SecretTreasures {
    /// A3: every unscored piece in `room` scores for its owner (ring 2, book 3, chalice 5); then every
    /// chalice and book there turns scored, and each player turns exactly one ring: his lowest (area, space).
    pub(crate) fn score_room(&mut self, room: u8, log: &mut Log) {
        let n = self.players();
        let Some(spaces) = self.spaces_mut(room) else { return };
        let mut points = BySeat::from_fn(n, |_| 0i64);
        for piece in spaces.pieces().filter(|p| !p.scored) {
            if let Some((_, p)) = points.iter_mut().find(|(seat, _)| *seat == piece.owner) {
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
        for (seat, &points) in points.iter() {
            if points > 0 {
                self.scores[seat].remigius += points;
                public(log, Event::Scored { seat, points, source: Source::Remigius });
            }
        }
    }

    /// Unscored rings of `seat` in the church rooms.
    pub(crate) fn church_rings(&self, seat: Seat) -> i64 {
        board::CHURCH
            .iter()
            .filter_map(|r| self.spaces(*r))
            .flat_map(|r| r.pieces())
            .filter(|p| p.owner == seat && !p.scored && p.kind.ring().is_some())
            .count() as i64
    }

    /// A7: church rings and the rooms bonus, then the game is over.
    pub(crate) fn finish_game(&mut self, log: &mut Log) {
        for seat in Seat::all(self.players()) {
            let church = self.church_rings(seat) * board::CHURCH_RING_POINTS;
            let rooms = self.rooms_of(seat);
            let rooms_bonus = board::rooms_bonus(rooms);
            self.scores[seat].church = church;
            self.scores[seat].rooms = rooms_bonus;
            let total = self.scores[seat].total();
            public(log, Event::FinalScore { seat, church, rooms: rooms as u8, rooms_bonus, total });
        }
        self.phase = Phase::Over;
        if let Some(outcome) = outcome(self) {
            public(log, Event::GameOver { winners: outcome.winners });
        }
    }
}

/// The outcome once the game is over: tied leaders share the victory.
pub(crate) fn outcome(game: &SecretTreasures) -> Option<Outcome> {
    if game.phase != Phase::Over {
        return None;
    }
    let line =
        |label: &str, f: fn(&Score) -> i64| ScoreLine::new(label, game.scores.iter().map(|(_, s)| f(s)).collect());
    let breakdown = vec![
        line("Remigius", |s| s.remigius),
        line("Porticus", |s| s.porticus),
        line("Severus", |s| s.severus),
        line("Stephanus", |s| s.stephanus),
        line("Unscored rings in the church", |s| s.church),
        line("Rooms with valuables", |s| s.rooms),
    ];
    let scores: Vec<i64> = game.scores.iter().map(|(_, s)| s.total()).collect();
    let keys: Vec<Vec<i64>> = scores.iter().map(|s| vec![*s]).collect();
    Some(Outcome::from_keys(scores, &keys, breakdown, None))
}
