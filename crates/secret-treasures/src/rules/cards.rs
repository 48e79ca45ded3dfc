//! Playing cards: the simultaneous face-down first round (D5), leaving a storehouse (D6), choosing
//! a card from round 2 on (D7, never the top card of another pile), and starting each card's action.

use super::{public, Log};
use crate::action::Action;
use crate::board::Card;
use crate::event::Event;
use crate::state::{Phase, Place, SecretTreasures, Step};
use game_core::{Game, Seat};

impl SecretTreasures {
    /// D7: every card in hand except the top card of another player's pile or of Raphael's display.
    pub(super) fn card_options(&self, seat: Seat) -> Vec<Action> {
        let blocked = self.blocked_cards(seat);
        self.hands[seat].iter().filter(|c| !blocked.contains(c)).map(|c| Action::Card(*c)).collect()
    }

    /// D5: a face-down choice; once everyone has chosen, reveal and resolve from the start player.
    pub(super) fn choose_first_card(&mut self, seat: Seat, action: Action, log: &mut Log) {
        let Action::Card(card) = action else { return };
        let Some(i) = self.hands[seat].iter().position(|c| *c == card) else { return };
        self.hands[seat].remove(i);
        self.chosen[seat] = Some(card);
        public(log, Event::CardChosen { seat });
        log.push(game_core::Event::private(seat, Event::YouChose { seat, card }));
        if self.seats().any(|s| self.chosen[s].is_none()) {
            return;
        }
        let mut cards = Vec::new();
        for s in Seat::all(self.players()) {
            if let Some(c) = self.chosen[s].take() {
                self.piles[s].push(c);
                cards.push((s, c));
            }
        }
        public(log, Event::CardsRevealed { cards });
        self.final_turn = false;
        let start = self.start;
        let card = self.piles[start].last().copied().unwrap_or(Card::Bells);
        self.resolve_card(start, card, log);
    }

    /// D6: back from the harbor to a portal.
    pub(super) fn leave_storehouse(&mut self, seat: Seat, action: Action, log: &mut Log) {
        let Action::Portal(portal) = action else { return };
        self.tokens[seat] = Place::Portal(portal);
        public(log, Event::LeftStorehouse { seat, portal });
        self.phase = Phase::Turn { seat, step: Step::Card };
    }

    /// D7: the card goes on the player's pile and its action starts.
    pub(super) fn play_card(&mut self, seat: Seat, card: Card, log: &mut Log) {
        let Some(i) = self.hands[seat].iter().position(|c| *c == card) else { return };
        self.hands[seat].remove(i);
        self.piles[seat].push(card);
        public(log, Event::CardPlayed { seat, card });
        self.resolve_card(seat, card, log);
    }

    /// Starts the action of `card`, already on top of `seat`'s pile.
    pub(crate) fn resolve_card(&mut self, seat: Seat, card: Card, log: &mut Log) {
        let step = match card {
            Card::Anselmus | Card::Josua | Card::Lucas | Card::Stephanus | Card::Severus => {
                let visited = self.mover_place(seat, card).and_then(Place::room).into_iter().collect();
                Step::Move { card, steps: 0, visited }
            }
            Card::Benjamin => Step::Benjamin { steps: 0, carrying: None, picked: false },
            Card::Maria => Step::Storehouse,
            Card::Porticus => Step::Door,
            Card::Remigius => Step::Remigius { start: self.remigius.unwrap_or(1), steps: 0, forced: false },
            Card::Bells => {
                self.phase = Phase::Turn { seat, step: Step::Card };
                self.bells(seat, log);
                self.end_turn(seat, log);
                return;
            }
        };
        self.phase = Phase::Turn { seat, step };
    }
}
