//! The turn sequence: starting a turn (D6 first if the token is at the harbor), the end of a turn
//! (A5: the 13-room trigger, the final-turn count, the next player), the end triggers, and
//! Raphael's reveal at the end of each round of a 2-player game (A6).

use super::{public, Log};
use crate::board::{self, Card};
use crate::event::Event;
use crate::state::{Phase, Place, SecretTreasures, Step, Trigger};
use game_core::{Game, Seat};

impl SecretTreasures {
    /// Starts `seat`'s turn from round 2 on: leave the storehouse first if he is in one.
    pub(crate) fn begin_turn(&mut self, seat: Seat) {
        self.final_turn = self.final_turns_left.is_some();
        let step = if matches!(self.tokens[seat], Place::Storehouse(_)) { Step::Portal } else { Step::Card };
        self.phase = Phase::Turn { seat, step };
    }

    /// Starts the end of the game unless it has already begun.
    pub(crate) fn trigger_end(&mut self, seat: Seat, trigger: Trigger, log: &mut Log) {
        if self.final_turns_left.is_none() {
            self.final_turns_left = Some(self.players);
            self.trigger = Some((seat, trigger));
            public(log, Event::EndTriggered { seat, trigger });
        }
    }

    /// The end-of-turn sequence (A5): the 13-room trigger, the final-turn count, Raphael, the next player.
    pub(crate) fn end_turn(&mut self, seat: Seat, log: &mut Log) {
        if self.final_turns_left.is_none() && self.rooms_of(seat) == usize::from(board::ROOMS) {
            self.trigger_end(seat, Trigger::AllRooms, log);
        }
        if self.final_turn {
            let left = self.final_turns_left.unwrap_or(1).saturating_sub(1);
            self.final_turns_left = Some(left);
            if left == 0 {
                self.finish_game(log);
                return;
            }
        }
        let next = seat.next(self.players(), 1);
        if next == self.start {
            if self.round >= 2 && self.raphael.is_some() {
                self.raphael_reveals(log);
            }
            self.round += 1;
        }
        if self.round == 1 {
            self.final_turn = self.final_turns_left.is_some();
            let card = self.piles[next].last().copied().unwrap_or(Card::Bells);
            self.resolve_card(next, card, log);
        } else {
            self.begin_turn(next);
        }
    }

    /// A6: Raphael reveals until his top card is neither The Bells nor either player's top card.
    fn raphael_reveals(&mut self, log: &mut Log) {
        let tops: Vec<Card> = self.piles.iter().filter_map(|(_, p)| p.last().copied()).collect();
        let Some(mut raphael) = self.raphael.take() else { return };
        // Terminates with probability 1; the bound only guards against a malformed deck.
        for _ in 0..10_000 {
            if raphael.deck.is_empty() {
                raphael.deck.append(&mut raphael.display);
                self.rng.shuffle(&mut raphael.deck);
                public(log, Event::RaphaelShuffled);
            }
            let Some(card) = raphael.deck.pop() else { break };
            raphael.display.push(card);
            public(log, Event::RaphaelRevealed { card });
            if card == Card::Bells {
                raphael.deck.append(&mut raphael.display);
                self.rng.shuffle(&mut raphael.deck);
                public(log, Event::RaphaelShuffled);
                continue;
            }
            if !tops.contains(&card) {
                break;
            }
        }
        self.raphael = Some(raphael);
    }
}
