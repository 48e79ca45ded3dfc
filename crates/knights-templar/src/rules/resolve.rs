//! Resolving a played card (spec §4.3), with its decisions: the Enemy or Battle target (DP3,
//! DP4) and the Ally choice (DP5).

use super::Events;
use crate::card::{Card, CardType};
use crate::event::Event;
use crate::state::{Discard, KnightsTemplar, Pending};
use game_core::Seat;

impl KnightsTemplar {
    /// DP3/DP4: the Enemy or Battle `card` of `resolver` hits `target`.
    pub(super) fn hit(&mut self, resolver: Seat, card: Card, target: Card, events: &mut Events) {
        let Some(owner) = self.owner(target) else { return };
        self.tableaus[owner].retain(|c| *c != target);
        if card.kind() == CardType::Battle {
            self.tableaus[resolver].push(target);
            events.push(game_core::Event::public(Event::Stole {
                seat: resolver,
                battle: card,
                from: owner,
                card: target,
            }));
        } else {
            self.discard.push(Discard { card: target, face_down_by: None });
            events.push(game_core::Event::public(Event::Destroyed {
                seat: resolver,
                enemy: card,
                owner,
                card: target,
            }));
        }
        self.pending = Pending::Resolving;
        self.after_resolution(events);
    }

    /// DP5: `resolver` plays `keep` and discards the other Ally card face down.
    pub(super) fn keep(&mut self, resolver: Seat, cards: [Card; 2], keep: Card, events: &mut Events) {
        let other = if cards[0] == keep { cards[1] } else { cards[0] };
        self.discard.push(Discard { card: other, face_down_by: Some(resolver) });
        events.push(game_core::Event::public(Event::AllyKept { seat: resolver, card: keep }));
        events.push(game_core::Event::private(resolver, Event::AllyDiscarded { seat: resolver, card: other }));
        self.pending = Pending::Resolving;
        self.resolve(resolver, keep, events);
        if !self.is_deciding() {
            self.after_resolution(events);
        }
    }

    /// §4.3: plays `card` for `resolver`. Leaves a Target or AllyChoice pending if a decision is
    /// needed; otherwise the resolution is complete.
    pub(super) fn resolve(&mut self, resolver: Seat, card: Card, events: &mut Events) {
        match card.kind() {
            kind if kind.stays_in_play() => {
                self.tableaus[resolver].push(card);
                events.push(game_core::Event::public(Event::Placed { seat: resolver, card }));
            }
            CardType::Enemy | CardType::Battle => {
                self.discard.push(Discard { card, face_down_by: None });
                if self.targets(resolver).is_empty() {
                    events.push(game_core::Event::public(Event::NoTarget { seat: resolver, card }));
                } else {
                    // A single target is taken by `settle` (after the caller returns) or by `hit`.
                    self.pending = Pending::Target { resolver, card };
                }
            }
            _ => {
                // Ally.
                self.discard.push(Discard { card, face_down_by: None });
                let k = self.deck.len().min(2);
                events.push(game_core::Event::public(Event::AllyDrew { seat: resolver, ally: card, count: k as u32 }));
                match k {
                    0 => {}
                    1 => {
                        let drawn = self.deck.remove(0);
                        events.push(game_core::Event::public(Event::AllySingle { seat: resolver, card: drawn }));
                        self.resolve(resolver, drawn, events);
                    }
                    _ => {
                        let cards = [self.deck.remove(0), self.deck.remove(0)];
                        events.push(game_core::Event::private(resolver, Event::AllyCards { seat: resolver, cards }));
                        self.pending = Pending::AllyChoice { resolver, cards };
                    }
                }
            }
        }
    }
}
