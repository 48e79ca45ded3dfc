//! Collect gold (cards 1 and 2 and the card-2 penalty): the gold source (D9), the Taxes favour
//! (D10), and the sacrifice that ends every penalty action (D11).

use super::Events;
use crate::action::Action;
use crate::event::{Event, Favour, GoldCause};
use crate::state::{GoldTake, Prompt, Step, TemplarsJourney};
use game_core::Seat;

/// Temple knights the Taxes favour costs.
pub(crate) const TAXES_COST: u32 = 2;
/// Gold the Taxes favour takes at most.
const TAXES_GOLD: u32 = 2;

impl TemplarsJourney {
    pub(super) fn gold_source_options(&self, seat: Seat) -> Vec<Action> {
        self.reach(seat)
            .into_iter()
            .filter(|t| self.gold_at(*t) > 0)
            .map(|territory| Action::TakeGold { territory })
            .collect()
    }

    pub(super) fn do_gold_source(&mut self, actor: Seat, take: GoldTake, action: &Action, events: &mut Events) {
        if let Action::TakeGold { territory } = action {
            let amount = take.amount(self.gold_at(*territory));
            let amount = self.take_gold(actor, *territory, amount);
            let cause = match take {
                GoldTake::Safe => GoldCause::CollectSafe,
                GoldTake::Risky => GoldCause::CollectRisky,
                GoldTake::Penalty => GoldCause::CollectPenalty,
            };
            events.push(game_core::Event::public(Event::GoldTaken {
                seat: actor,
                territory: *territory,
                amount,
                cause,
            }));
        }
        self.after_gold_take(actor, take);
    }

    /// After the main take (or its forfeit): the Taxes window.
    pub(super) fn after_gold_take(&mut self, actor: Seat, take: GoldTake) {
        self.step = Step::Card { seat: actor, prompt: Prompt::Taxes { penalty: take == GoldTake::Penalty } };
    }

    pub(super) fn taxes_options(&self, seat: Seat) -> Vec<Action> {
        let mut out = Vec::new();
        if self.players[seat].temple >= TAXES_COST {
            out.extend(
                self.reach(seat)
                    .into_iter()
                    .filter(|t| self.gold_at(*t) > 0)
                    .map(|territory| Action::Taxes { territory }),
            );
        }
        out.push(Action::Decline);
        out
    }

    pub(super) fn do_taxes(&mut self, actor: Seat, penalty: bool, action: &Action, events: &mut Events) {
        if let Action::Taxes { territory } = action {
            self.pay_favour(actor, TAXES_COST);
            events.push(game_core::Event::public(Event::FavourUsed {
                seat: actor,
                favour: Favour::Taxes,
                cost: TAXES_COST,
            }));
            let amount = self.take_gold(actor, *territory, TAXES_GOLD);
            events.push(game_core::Event::public(Event::GoldTaken {
                seat: actor,
                territory: *territory,
                amount,
                cause: GoldCause::Taxes,
            }));
        }
        if penalty {
            self.step = Step::Card { seat: actor, prompt: Prompt::Sacrifice };
        } else {
            self.finish_card_action(events);
        }
    }

    pub(super) fn sacrifice_options(&self, seat: Seat) -> Vec<Action> {
        self.cities_with_own(seat).into_iter().map(|city| Action::Sacrifice { city }).collect()
    }

    pub(super) fn do_sacrifice(&mut self, actor: Seat, action: &Action, events: &mut Events) {
        if let Action::Sacrifice { city } = action {
            self.knight_to_temple(*city, actor);
            events.push(game_core::Event::public(Event::Sacrificed { seat: actor, city: *city }));
        }
        self.finish_card_action(events);
    }
}
