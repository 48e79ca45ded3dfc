//! Place knights (cards 3 and 4 and the card-4 penalty): the SAFE loop of paid places, removes
//! and chance-marker tosses with the New Chance favour (D12 to D15), the RISKY exchanges (D16,
//! D17) and the penalty removals (D18, D19).

use super::Events;
use crate::action::Action;
use crate::board::City;
use crate::event::{Event, Favour, PlaceCause, RemoveCause, Toss};
use crate::state::{Prompt, Step, TemplarsJourney};
use game_core::Seat;

/// Most gold a Place-knights SAFE action may spend.
pub(crate) const SAFE_SPEND_LIMIT: u32 = 6;
/// Most exchanges (RISKY) or removals (penalty) in one Place-knights action.
pub(crate) const RISKY_LIMIT: u32 = 3;
/// Most New Chance uses per card action.
pub(crate) const NEW_CHANCE_LIMIT: u32 = 2;
/// Gold one knight costs.
const KNIGHT_PRICE: u32 = 2;
/// Gold one toss costs.
const TOSS_PRICE: u32 = 1;

impl TemplarsJourney {
    fn can_place_in(&self, seat: Seat, city: City) -> bool {
        self.players[seat].supply > 0 && self.city(city).has_room()
    }

    fn pay(&mut self, seat: Seat, gold: u32) {
        let p = &mut self.players[seat];
        p.gold = p.gold.saturating_sub(gold);
    }

    pub(super) fn safe_city_options(&self, seat: Seat) -> Vec<Action> {
        let mut out: Vec<Action> = self
            .own_active_cities(seat)
            .into_iter()
            .filter(|c| self.safe_step_options(seat, *c, 0).len() > 1)
            .map(|city| Action::ChooseCity { city })
            .collect();
        out.push(Action::Decline);
        out
    }

    pub(super) fn safe_step_options(&self, seat: Seat, city: City, spent: u32) -> Vec<Action> {
        let gold = self.players[seat].gold;
        let place = self.can_place_in(seat, city);
        let opponents = self.opponents_in(seat, city);
        let mut out = Vec::new();
        if gold >= KNIGHT_PRICE && spent + KNIGHT_PRICE <= SAFE_SPEND_LIMIT {
            if place {
                out.push(Action::PlaceKnight { city });
            }
            out.extend(opponents.iter().map(|&owner| Action::RemoveKnight { city, owner }));
        }
        if gold >= TOSS_PRICE && spent + TOSS_PRICE <= SAFE_SPEND_LIMIT && (place || !opponents.is_empty()) {
            out.push(Action::Toss);
        }
        out.push(Action::Stop);
        out
    }

    pub(super) fn do_safe_city(&mut self, actor: Seat, action: &Action, events: &mut Events) {
        if let Action::ChooseCity { city } = action {
            events.push(game_core::Event::public(Event::CityChosen { seat: actor, city: *city }));
            self.step = Step::Card { seat: actor, prompt: Prompt::SafeStep { city: *city, spent: 0, chances: 0 } };
        } else {
            self.finish_card_action(events);
        }
    }

    pub(super) fn do_safe_step(
        &mut self,
        actor: Seat,
        city: City,
        spent: u32,
        chances: u32,
        action: &Action,
        events: &mut Events,
    ) {
        let spent = match action {
            Action::PlaceKnight { .. } => {
                self.pay(actor, KNIGHT_PRICE);
                self.knight_from_supply(city, actor);
                events.push(game_core::Event::public(Event::KnightPlaced {
                    seat: actor,
                    city,
                    cause: PlaceCause::Paid,
                }));
                spent + KNIGHT_PRICE
            }
            Action::RemoveKnight { owner, .. } => {
                self.pay(actor, KNIGHT_PRICE);
                self.knight_to_temple(city, *owner);
                events.push(game_core::Event::public(Event::KnightRemoved {
                    by: actor,
                    owner: *owner,
                    city,
                    cause: RemoveCause::Paid,
                }));
                spent + KNIGHT_PRICE
            }
            Action::Toss => {
                self.pay(actor, TOSS_PRICE);
                self.toss(actor, city, spent + TOSS_PRICE, chances, TOSS_PRICE, events);
                return;
            }
            _ => {
                self.finish_card_action(events);
                return;
            }
        };
        self.step = Step::Card { seat: actor, prompt: Prompt::SafeStep { city, spent, chances } };
    }

    /// Throws the chance marker (one RNG draw) and moves to what the result allows.
    fn toss(&mut self, actor: Seat, city: City, spent: u32, chances: u32, paid: u32, events: &mut Events) {
        let result = if self.rng.coin() { Toss::Cross } else { Toss::Blank };
        events.push(game_core::Event::public(Event::Tossed { seat: actor, result, paid }));
        let prompt = match result {
            Toss::Cross => Prompt::CrossResult { city, spent, chances },
            Toss::Blank if self.players[actor].temple >= 1 && chances < NEW_CHANCE_LIMIT => {
                Prompt::NewChance { city, spent, chances }
            }
            Toss::Blank => Prompt::SafeStep { city, spent, chances },
        };
        self.step = Step::Card { seat: actor, prompt };
    }

    pub(super) fn cross_options(&self, seat: Seat, city: City) -> Vec<Action> {
        let mut out = Vec::new();
        if self.can_place_in(seat, city) {
            out.push(Action::PlaceKnight { city });
        }
        out.extend(self.opponents_in(seat, city).into_iter().map(|owner| Action::RemoveKnight { city, owner }));
        out.push(Action::Forgo);
        out
    }

    pub(super) fn do_cross(
        &mut self,
        actor: Seat,
        city: City,
        spent: u32,
        chances: u32,
        action: &Action,
        events: &mut Events,
    ) {
        match action {
            Action::PlaceKnight { .. } => {
                self.knight_from_supply(city, actor);
                events.push(game_core::Event::public(Event::KnightPlaced {
                    seat: actor,
                    city,
                    cause: PlaceCause::Cross,
                }));
            }
            Action::RemoveKnight { owner, .. } => {
                self.knight_to_temple(city, *owner);
                events.push(game_core::Event::public(Event::KnightRemoved {
                    by: actor,
                    owner: *owner,
                    city,
                    cause: RemoveCause::Cross,
                }));
            }
            _ => {}
        }
        self.step = Step::Card { seat: actor, prompt: Prompt::SafeStep { city, spent, chances } };
    }

    pub(super) fn do_new_chance(
        &mut self,
        actor: Seat,
        city: City,
        spent: u32,
        chances: u32,
        action: &Action,
        events: &mut Events,
    ) {
        if *action == Action::NewChance {
            self.pay_favour(actor, 1);
            events.push(game_core::Event::public(Event::FavourUsed {
                seat: actor,
                favour: Favour::NewChance,
                cost: 1,
            }));
            self.toss(actor, city, spent, chances + 1, 0, events);
        } else {
            self.step = Step::Card { seat: actor, prompt: Prompt::SafeStep { city, spent, chances } };
        }
    }

    fn cities_with_opponents(&self, seat: Seat) -> Vec<Action> {
        self.own_active_cities(seat)
            .into_iter()
            .filter(|c| !self.opponents_in(seat, *c).is_empty())
            .map(|city| Action::ChooseCity { city })
            .collect()
    }

    pub(super) fn risky_city_options(&self, seat: Seat) -> Vec<Action> {
        let p = &self.players[seat];
        let mut out =
            if p.supply > 0 && p.gold >= KNIGHT_PRICE { self.cities_with_opponents(seat) } else { Vec::new() };
        out.push(Action::Decline);
        out
    }

    pub(super) fn do_risky_city(&mut self, actor: Seat, action: &Action, events: &mut Events) {
        if let Action::ChooseCity { city } = action {
            events.push(game_core::Event::public(Event::CityChosen { seat: actor, city: *city }));
            self.step = Step::Card { seat: actor, prompt: Prompt::RiskyStep { city: *city, done: 0 } };
        } else {
            self.finish_card_action(events);
        }
    }

    pub(super) fn risky_step_options(&self, seat: Seat, city: City, done: u32) -> Vec<Action> {
        let p = &self.players[seat];
        let mut out = Vec::new();
        if done < RISKY_LIMIT && p.supply > 0 && p.gold >= KNIGHT_PRICE {
            out.extend(self.opponents_in(seat, city).into_iter().map(|owner| Action::ExchangeKnight { city, owner }));
        }
        out.push(Action::Stop);
        out
    }

    pub(super) fn do_risky_step(&mut self, actor: Seat, city: City, done: u32, action: &Action, events: &mut Events) {
        if let Action::ExchangeKnight { owner, .. } = action {
            self.pay(actor, KNIGHT_PRICE);
            self.knight_to_temple(city, *owner);
            self.knight_from_supply(city, actor);
            events.push(game_core::Event::public(Event::KnightExchanged { by: actor, owner: *owner, city }));
            self.step = Step::Card { seat: actor, prompt: Prompt::RiskyStep { city, done: done + 1 } };
        } else {
            self.finish_card_action(events);
        }
    }

    pub(super) fn penalty_city_options(&self, seat: Seat) -> Vec<Action> {
        let mut out =
            if self.players[seat].gold >= KNIGHT_PRICE { self.cities_with_opponents(seat) } else { Vec::new() };
        out.push(Action::Decline);
        out
    }

    pub(super) fn do_penalty_city(&mut self, actor: Seat, action: &Action, events: &mut Events) {
        if let Action::ChooseCity { city } = action {
            events.push(game_core::Event::public(Event::CityChosen { seat: actor, city: *city }));
            self.step = Step::Card { seat: actor, prompt: Prompt::PenaltyStep { city: *city, done: 0 } };
        } else {
            self.step = Step::Card { seat: actor, prompt: Prompt::Sacrifice };
        }
    }

    pub(super) fn penalty_step_options(&self, seat: Seat, city: City, done: u32) -> Vec<Action> {
        let mut out = Vec::new();
        if done < RISKY_LIMIT && self.players[seat].gold >= KNIGHT_PRICE {
            out.extend(self.opponents_in(seat, city).into_iter().map(|owner| Action::RemoveKnight { city, owner }));
        }
        out.push(Action::Stop);
        out
    }

    pub(super) fn do_penalty_step(&mut self, actor: Seat, city: City, done: u32, action: &Action, events: &mut Events) {
        if let Action::RemoveKnight { owner, .. } = action {
            self.pay(actor, KNIGHT_PRICE);
            self.knight_to_temple(city, *owner);
            events.push(game_core::Event::public(Event::KnightRemoved {
                by: actor,
                owner: *owner,
                city,
                cause: RemoveCause::Paid,
            }));
            self.step = Step::Card { seat: actor, prompt: Prompt::PenaltyStep { city, done: done + 1 } };
        } else {
            self.step = Step::Card { seat: actor, prompt: Prompt::Sacrifice };
        }
    }
}
