//! Moving one room per step: the monks and Stephanus (own token), Severus, and Remigius with Vitus
//! following; then the monks' stashing (D9), Stephanus's count and Severus's point.

use super::{public, Log};
use crate::action::Action;
use crate::board::{self, Card, Kind, Ring};
use crate::event::{Event, Figure, Source};
use crate::state::{Phase, Piece, Place, SecretTreasures, Step};
use game_core::Seat;

impl SecretTreasures {
    /// D8/D14: the rooms one step away that were not visited, and `Stop` after the first step.
    pub(super) fn move_options(&self, seat: Seat, card: Card, steps: u8, visited: &[u8]) -> Vec<Action> {
        let mut options: Vec<Action> = match self.mover_place(seat, card) {
            Some(Place::Portal(p)) if steps == 0 => vec![Action::Room(p.room())],
            Some(Place::Room(r)) if steps < card.range() => board::open_neighbours(r, self.door)
                .into_iter()
                .filter(|n| !visited.contains(n))
                .map(Action::Room)
                .collect(),
            _ => Vec::new(),
        };
        if steps >= 1 {
            options.push(Action::Stop);
        }
        options
    }

    pub(super) fn move_step(
        &mut self,
        seat: Seat,
        card: Card,
        steps: u8,
        mut visited: Vec<u8>,
        action: Action,
        log: &mut Log,
    ) {
        let Action::Room(room) = action else {
            self.finish_move(seat, card, log);
            return;
        };
        if card == Card::Severus {
            self.severus = Some(room);
            public(log, Event::FigureMoved { figure: Figure::Severus, room });
        } else {
            self.tokens[seat] = Place::Room(room);
            public(log, Event::TokenMoved { seat, room });
        }
        visited.push(room);
        let steps = steps + 1;
        if steps >= card.range() {
            self.finish_move(seat, card, log);
        } else {
            self.phase = Phase::Turn { seat, step: Step::Move { card, steps, visited } };
        }
    }

    /// After the move: the monk stashes, Stephanus counts, Severus scores.
    pub(super) fn finish_move(&mut self, seat: Seat, card: Card, log: &mut Log) {
        match card {
            Card::Stephanus => {
                let points = self.admirers(seat);
                self.scores[seat].stephanus += points;
                public(log, Event::Scored { seat, points, source: Source::Stephanus });
                self.end_turn(seat, log);
            }
            Card::Severus => {
                self.scores[seat].severus += 1;
                public(log, Event::Scored { seat, points: 1, source: Source::Severus });
                self.end_turn(seat, log);
            }
            _ => self.phase = Phase::Turn { seat, step: Step::Stash { left: card.stash_limit() } },
        }
    }

    /// Stephanus: the other characters in the player's room (figures and other players' tokens).
    pub(crate) fn admirers(&self, seat: Seat) -> i64 {
        let Some(room) = self.tokens[seat].room() else { return 0 };
        let figures = [self.remigius == Some(room), self.severus == Some(room), self.vitus == Some(Place::Room(room))];
        let tokens = self.tokens.iter().filter(|(s, t)| *s != seat && **t == Place::Room(room)).count();
        (figures.iter().filter(|f| **f).count() + tokens) as i64
    }

    /// D9: each kind the stock has and the room has a free matching space for; nothing under Severus's eyes.
    pub(super) fn stash_options(&self, seat: Seat) -> Vec<Action> {
        let mut options = Vec::new();
        let Some(room_no) = self.tokens[seat].room() else { return vec![Action::Stop] };
        let Some(room) = self.spaces(room_no) else { return vec![Action::Stop] };
        if self.severus != Some(room_no) {
            let stock = &self.stocks[seat];
            if stock.chalice > 0 && room.has_free(Kind::Chalice) {
                options.push(Action::StashChalice);
            }
            if stock.book > 0 && room.has_free(Kind::Book) {
                options.push(Action::StashBook);
            }
            for ring in Ring::ALL {
                if stock.get(Kind::from(ring)) == 0 {
                    continue;
                }
                for area in 0..room.areas.len() {
                    if room.accepts_ring(area, ring) {
                        options.push(Action::StashRing { ring, area: area as u8 + 1 });
                    }
                }
            }
        }
        options.push(Action::Stop);
        options
    }

    pub(super) fn stash(&mut self, seat: Seat, left: u8, action: Action, log: &mut Log) {
        let Some(room_no) = self.tokens[seat].room() else { return self.end_turn(seat, log) };
        let (kind, area) = match action {
            Action::StashChalice => (Kind::Chalice, None),
            Action::StashBook => (Kind::Book, None),
            Action::StashRing { ring, area } => (Kind::from(ring), Some(area)),
            _ => return self.end_turn(seat, log),
        };
        let piece = Piece { owner: seat, kind, scored: false };
        if !self.put(room_no, piece, area) {
            return self.end_turn(seat, log);
        }
        self.stocks[seat].take(kind);
        public(log, Event::Stashed { seat, kind, room: room_no, area });
        let left = left.saturating_sub(1);
        if left == 0 {
            self.end_turn(seat, log);
        } else {
            self.phase = Phase::Turn { seat, step: Step::Stash { left } };
        }
    }

    /// Puts a piece on the lowest empty matching space (ring area `area`, from 1, for rings).
    pub(crate) fn put(&mut self, room: u8, piece: Piece, area: Option<u8>) -> bool {
        let Some(spaces) = self.spaces_mut(room) else { return false };
        let list = match (piece.kind, area) {
            (Kind::Chalice, _) => &mut spaces.chalices,
            (Kind::Book, _) => &mut spaces.books,
            (_, Some(a)) => match spaces.areas.get_mut(usize::from(a).wrapping_sub(1)) {
                Some(list) => list,
                None => return false,
            },
            (_, None) => return false,
        };
        match list.iter_mut().find(|s| s.is_none()) {
            Some(space) => {
                *space = Some(piece);
                true
            }
            None => false,
        }
    }

    /// D13: Remigius's steps; never into Vitus's room unless there is no other way (a forced crossing).
    pub(super) fn remigius_options(&self, start: u8, steps: u8, forced: bool) -> Vec<Action> {
        let Some(here) = self.remigius else { return Vec::new() };
        let vitus = self.vitus.and_then(Place::room);
        let open = board::open_neighbours(here, self.door);
        match steps {
            0 => {
                let rooms: Vec<Action> = open.iter().filter(|r| Some(**r) != vitus).map(|r| Action::Room(*r)).collect();
                if rooms.is_empty() {
                    open.iter().filter(|r| Some(**r) == vitus).map(|r| Action::Room(*r)).collect()
                } else {
                    rooms
                }
            }
            1 if forced => open.iter().filter(|r| **r != start).map(|r| Action::Room(*r)).collect(),
            1 => {
                let mut options: Vec<Action> =
                    open.iter().filter(|r| **r != start && Some(**r) != vitus).map(|r| Action::Room(*r)).collect();
                options.push(Action::Stop);
                options
            }
            _ => Vec::new(),
        }
    }

    pub(super) fn remigius_step(
        &mut self,
        seat: Seat,
        start: u8,
        steps: u8,
        forced: bool,
        action: Action,
        log: &mut Log,
    ) {
        let Action::Room(room) = action else {
            return self.finish_remigius(seat, start, log);
        };
        let forced = forced || (steps == 0 && self.vitus == Some(Place::Room(room)));
        self.remigius = Some(room);
        public(log, Event::FigureMoved { figure: Figure::Remigius, room });
        let steps = steps + 1;
        if steps >= Card::Remigius.range() {
            self.finish_remigius(seat, start, log);
        } else {
            self.phase = Phase::Turn { seat, step: Step::Remigius { start, steps, forced } };
        }
    }

    /// A4 then A3: Vitus follows to Remigius's start room, then the room is scored unless Severus is there.
    pub(super) fn finish_remigius(&mut self, seat: Seat, start: u8, log: &mut Log) {
        if self.remigius != Some(start) {
            self.vitus = Some(Place::Room(start));
            public(log, Event::FigureMoved { figure: Figure::Vitus, room: start });
        }
        if let Some(room) = self.remigius {
            if self.severus == Some(room) {
                public(log, Event::ScoringBlocked { room });
            } else {
                self.score_room(room, log);
            }
        }
        self.end_turn(seat, log);
    }
}
