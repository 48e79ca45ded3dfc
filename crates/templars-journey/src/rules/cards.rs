//! A5 to A8: the simultaneous hidden card choice (D8), the reveal with its penalty thresholds,
//! the order of resolution (card number, ties from the first player), and the marker pass.

use super::Events;
use crate::action::Action;
use crate::event::Event;
use crate::state::{CardPhase, GoldTake, MoveKind, Prompt, Step, TemplarsJourney};
use game_core::{BySeat, Seat};

/// The type of a card: 0 collect gold (1, 2), 1 place knights (3, 4), 2 move a Templar (5, 6).
pub(crate) fn card_type(card: u8) -> usize {
    usize::from(card.saturating_sub(1) / 2).min(2)
}

/// Whether `card` is the RISKY card of its type.
pub(crate) fn is_risky(card: u8) -> bool {
    matches!(card, 2 | 4 | 5)
}

/// How many cards of one type trigger the penalty at a table of `players`.
pub(crate) fn penalty_threshold(players: usize) -> usize {
    if players <= 3 {
        2
    } else {
        3
    }
}

/// Which seats are penalised for the cards played.
pub(crate) fn penalties(cards: &BySeat<u8>) -> BySeat<bool> {
    let mut counts = [0usize; 3];
    for &c in &cards.0 {
        counts[card_type(c)] += 1;
    }
    let threshold = penalty_threshold(cards.len());
    cards.map(|_, &c| is_risky(c) && counts[card_type(c)] >= threshold)
}

impl TemplarsJourney {
    /// The order of resolution: ascending card number, ties by clockwise distance from the
    /// first player.
    pub fn resolution_order(&self, cards: &BySeat<u8>) -> Vec<Seat> {
        let mut seats: Vec<Seat> = cards.iter().map(|(s, _)| s).collect();
        seats.sort_by_key(|s| (cards.get(*s).copied().unwrap_or(0), self.cw(*s)));
        seats
    }

    pub(super) fn do_choose_card(&mut self, seat: Seat, action: &Action, events: &mut Events) {
        let (Action::ChooseCard { card }, Step::ChooseCards { chosen }) = (action, &mut self.step) else {
            return;
        };
        if let Some(slot) = chosen.0.get_mut(seat.index()) {
            *slot = Some(*card);
        }
        events.push(game_core::Event::public(Event::CardChosen { seat }));
        events.push(game_core::Event::private(seat, Event::CardChosenSecret { seat, card: *card }));
        let all: Option<Vec<u8>> = chosen.0.iter().copied().collect();
        if let Some(cards) = all {
            self.reveal(BySeat(cards), events);
        }
    }

    fn reveal(&mut self, cards: BySeat<u8>, events: &mut Events) {
        let penalised = penalties(&cards);
        let order = self.resolution_order(&cards);
        events.push(game_core::Event::public(Event::CardsRevealed {
            cards: cards.clone(),
            penalised: penalised.iter().filter(|(_, p)| **p).map(|(s, _)| s).collect(),
            order: order.clone(),
        }));
        self.card_phases += 1;
        self.leg_card_phases += 1;
        self.card_phase = Some(CardPhase { cards, penalised, order, resolved: 0 });
        self.start_card_action(events);
    }

    /// Starts the next card action in order, or ends the card phase (A8).
    fn start_card_action(&mut self, events: &mut Events) {
        let next = self.card_phase.as_ref().and_then(|phase| {
            let seat = *phase.order.get(phase.resolved)?;
            Some((seat, *phase.cards.get(seat)?, *phase.penalised.get(seat)?))
        });
        let Some((seat, card, penalty)) = next else {
            let n = self.players.len();
            self.first = self.first.next(n, 1);
            events.push(game_core::Event::public(Event::MarkerPassed { to: self.first }));
            self.begin_action();
            return;
        };
        events.push(game_core::Event::public(Event::CardActionStarted { seat, card, penalty }));
        let prompt = match (card, penalty) {
            (1, _) => Prompt::GoldSource { take: GoldTake::Safe },
            (2, false) => Prompt::GoldSource { take: GoldTake::Risky },
            (2, true) => Prompt::GoldSource { take: GoldTake::Penalty },
            (3, _) => Prompt::SafeCity,
            (4, false) => Prompt::RiskyCity,
            (4, true) => Prompt::PenaltyCity,
            (5, false) => Prompt::ChooseTemplar { kind: MoveKind::Risky },
            (5, true) => Prompt::ChooseTemplar { kind: MoveKind::Penalty },
            _ => Prompt::ChooseTemplar { kind: MoveKind::Safe },
        };
        self.step = Step::Card { seat, prompt };
    }

    /// Ends the current card action and starts the next one.
    pub(crate) fn finish_card_action(&mut self, events: &mut Events) {
        if let Some(phase) = self.card_phase.as_mut() {
            phase.resolved += 1;
        }
        self.start_card_action(events);
    }
}
