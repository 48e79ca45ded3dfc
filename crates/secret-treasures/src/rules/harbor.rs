//! The harbor: Maria's storehouse (D11), and The Bells with its replenishment (A1) and the
//! deliveries to players waiting in a storehouse (A2).

use super::{public, Log};
use crate::action::Action;
use crate::board::{Kind, STOREHOUSES};
use crate::event::Event;
use crate::state::{Place, SecretTreasures, Trigger};
use game_core::{Game, Seat};

impl SecretTreasures {
    /// D11: any storehouse without another player's token in it (an empty one too).
    pub(super) fn storehouse_options(&self, seat: Seat) -> Vec<Action> {
        (1..=STOREHOUSES.len() as u8)
            .filter(|i| !self.tokens.iter().any(|(s, t)| s != seat && *t == Place::Storehouse(*i)))
            .map(Action::Storehouse)
            .collect()
    }

    /// Maria: take every tile of the storehouse, swapping it for a valuable from the reserve.
    pub(super) fn maria(&mut self, seat: Seat, action: Action, log: &mut Log) {
        let Action::Storehouse(number) = action else { return };
        let tiles = self.collect(seat, number);
        self.tokens[seat] = Place::Storehouse(number);
        let received = tiles.iter().copied().filter(|t| t.1).map(|t| t.0).collect();
        let tiles = tiles.into_iter().map(|t| t.0).collect();
        public(log, Event::TookTiles { seat, storehouse: number, tiles, received });
        self.end_turn(seat, log);
    }

    /// Empties storehouse `number` for `seat`: each tile leaves the game, and gives the matching
    /// valuable from the reserve if there is one left (the flag).
    fn collect(&mut self, seat: Seat, number: u8) -> Vec<(Kind, bool)> {
        let tiles =
            self.storehouses.get_mut(usize::from(number).wrapping_sub(1)).map(std::mem::take).unwrap_or_default();
        tiles
            .into_iter()
            .map(|tile| {
                self.removed.add(tile);
                let got = self.reserves[seat].take(tile);
                if got {
                    self.stocks[seat].add(tile);
                }
                (tile, got)
            })
            .collect()
    }

    /// The Bells: new tiles for the previous card's number, deliveries, then the whole pile back to hand.
    pub(crate) fn bells(&mut self, seat: Seat, log: &mut Log) {
        let pile = &self.piles[seat];
        let number = pile.len().checked_sub(2).and_then(|i| pile.get(i)).map_or(0, |c| c.bells_number());
        self.replenish(seat, number, log);
        self.deliver(log);
        let cards = std::mem::take(&mut self.piles[seat]);
        public(log, Event::TookBackCards { seat, cards: cards.len() as u8 });
        self.hands[seat].extend(cards);
        self.hands[seat].sort_unstable();
    }

    /// A1: draws `owed` tiles into the storehouses clockwise from S1, at most one chalice each.
    pub(crate) fn replenish(&mut self, seat: Seat, owed: usize, log: &mut Log) {
        let mut placed = 0;
        let mut next = 0;
        let count = STOREHOUSES.len();
        while placed < owed {
            let free = |s: &Self, d: usize| s.storehouses.get(d).is_some_and(|h| h.len() < STOREHOUSES[d]);
            if !(0..count).any(|d| free(self, d)) {
                return;
            }
            let Some(tile) = self.draw() else {
                self.trigger_end(seat, Trigger::BagEmpty, log);
                return;
            };
            let dest = (0..count).map(|k| (next + k) % count).find(|d| {
                free(self, *d)
                    && (tile != Kind::Chalice || self.storehouses.get(*d).is_some_and(|h| !h.contains(&Kind::Chalice)))
            });
            match dest.and_then(|d| self.storehouses.get_mut(d).map(|h| (d, h))) {
                Some((d, house)) => {
                    house.push(tile);
                    public(log, Event::TileDrawn { storehouse: d as u8 + 1, tile });
                    placed += 1;
                    next = d + 1;
                }
                None => {
                    self.removed.add(tile);
                    public(log, Event::ChaliceRemoved);
                }
            }
        }
    }

    /// A2: every player waiting in a storehouse receives the tiles that arrived there.
    pub(crate) fn deliver(&mut self, log: &mut Log) {
        for seat in Seat::all(self.players()) {
            let Place::Storehouse(number) = self.tokens[seat] else { continue };
            let tiles = self.collect(seat, number);
            if tiles.is_empty() {
                continue;
            }
            let received = tiles.iter().copied().filter(|t| t.1).map(|t| t.0).collect();
            let tiles = tiles.into_iter().map(|t| t.0).collect();
            public(log, Event::Delivered { seat, storehouse: number, tiles, received });
        }
    }
}
