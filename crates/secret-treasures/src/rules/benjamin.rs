//! Benjamin, the novice (D10): up to 3 steps, revisits allowed, picking up one unscored ring and
//! stashing it in another room. Options that would leave the ring with nowhere to go are not offered.

use super::{public, Log};
use crate::action::Action;
use crate::board::{self, Ring};
use crate::event::Event;
use crate::state::{Carried, Phase, Piece, Place, SecretTreasures, Step};
use game_core::Seat;

/// Benjamin's range.
const RANGE: u8 = 3;

impl SecretTreasures {
    /// Whether a ring of type `ring` picked up in `from` could be stashed in `room` now.
    fn can_stash_in(&self, ring: Ring, from: u8, room: u8) -> bool {
        room != from
            && self.severus != Some(room)
            && self.spaces(room).is_some_and(|r| (0..r.areas.len()).any(|a| r.accepts_ring(a, ring)))
    }

    /// `F(room, k)`: the ring can be stashed in `room`, or within `k` more steps from it.
    fn feasible(&self, ring: Ring, from: u8, room: u8, k: u8) -> bool {
        self.can_stash_in(ring, from, room)
            || (k > 0
                && board::open_neighbours(room, self.door).into_iter().any(|m| self.feasible(ring, from, m, k - 1)))
    }

    pub(super) fn benjamin_options(
        &self,
        seat: Seat,
        steps: u8,
        carrying: Option<Carried>,
        step: &Step,
    ) -> Vec<Action> {
        let picked = matches!(step, Step::Benjamin { picked: true, .. });
        let here = match self.tokens[seat] {
            Place::Portal(p) if steps == 0 => return vec![Action::Room(p.room())],
            Place::Room(r) => r,
            _ => return Vec::new(),
        };
        let remaining = RANGE.saturating_sub(steps);
        let mut options = Vec::new();
        if remaining > 0 {
            for r in board::open_neighbours(here, self.door) {
                if carrying.is_none_or(|c| self.feasible(c.ring, c.from, r, remaining - 1)) {
                    options.push(Action::Room(r));
                }
            }
        }
        let watched = self.severus == Some(here);
        let Some(room) = self.spaces(here) else { return options };
        if let Some(c) = carrying {
            if here != c.from && !watched {
                for area in 0..room.areas.len() {
                    if room.accepts_ring(area, c.ring) {
                        options.push(Action::Stash { area: area as u8 + 1 });
                    }
                }
            }
        }
        if !picked && !watched && remaining > 0 {
            for (area, spaces) in room.areas.iter().enumerate() {
                let Some(ring) = room.area_type(area) else { continue };
                let reachable = board::open_neighbours(here, self.door)
                    .into_iter()
                    .any(|m| self.feasible(ring, here, m, remaining - 1));
                if !reachable {
                    continue;
                }
                for owner in self.seats() {
                    if self.final_turn && owner != seat {
                        continue;
                    }
                    if spaces.iter().flatten().any(|p| p.owner == owner && !p.scored) {
                        options.push(Action::Pickup { owner, ring, area: area as u8 + 1 });
                    }
                }
            }
        }
        if steps >= 1 && carrying.is_none() {
            options.push(Action::Stop);
        }
        options
    }

    pub(super) fn benjamin_step(
        &mut self,
        seat: Seat,
        mut steps: u8,
        mut carrying: Option<Carried>,
        mut picked: bool,
        action: Action,
        log: &mut Log,
    ) {
        let here = self.tokens[seat].room();
        match action {
            Action::Room(room) => {
                self.tokens[seat] = Place::Room(room);
                public(log, Event::TokenMoved { seat, room });
                steps += 1;
            }
            Action::Pickup { owner, ring, area } => {
                let Some(here) = here else { return };
                let Some(spaces) =
                    self.spaces_mut(here).and_then(|r| r.areas.get_mut(usize::from(area).wrapping_sub(1)))
                else {
                    return;
                };
                let Some(space) = spaces.iter_mut().find(|s| s.is_some_and(|p| p.owner == owner && !p.scored)) else {
                    return;
                };
                *space = None;
                carrying = Some(Carried { owner, ring, from: here });
                picked = true;
                public(log, Event::PickedUp { seat, owner, ring, room: here, area });
            }
            Action::Stash { area } => {
                let (Some(here), Some(c)) = (here, carrying) else { return };
                let piece = Piece { owner: c.owner, kind: c.ring.into(), scored: false };
                if self.put(here, piece, Some(area)) {
                    carrying = None;
                    public(log, Event::RingMoved { seat, owner: c.owner, ring: c.ring, room: here, area });
                }
            }
            _ => return self.end_turn(seat, log),
        }
        if steps >= RANGE && carrying.is_none() {
            self.end_turn(seat, log);
        } else {
            self.phase = Phase::Turn { seat, step: Step::Benjamin { steps, carrying, picked } };
        }
    }

    /// Puts a carried ring back where it came from (a guard; the feasibility test makes it unreachable).
    pub(super) fn return_ring(&mut self, carried: Carried) {
        let piece = Piece { owner: carried.owner, kind: carried.ring.into(), scored: false };
        let areas = self.spaces(carried.from).map_or(0, |r| r.areas.len());
        for area in 0..areas {
            if self.spaces(carried.from).is_some_and(|r| r.accepts_ring(area, carried.ring))
                && self.put(carried.from, piece, Some(area as u8 + 1))
            {
                return;
            }
        }
        self.stocks[carried.owner].add(carried.ring.into());
    }
}
