//! Move a Templar (cards 5 and 6 and the card-5 penalty): the Templar (D20), its steps (D21),
//! the SAFE effect in the city where it stops (D22), the RISKY edict exchange (D23) with the
//! Veto favour offered to the others (D24), and the penalty's single gold (D25).

use super::Events;
use crate::action::Action;
use crate::board::{City, EdictSpace, Flag, Territory};
use crate::event::{Event, Favour, GoldCause, PlaceCause, RemoveCause};
use crate::state::{MoveKind, Prompt, Step, TemplarsJourney};
use game_core::Seat;

/// Most steps of one move.
pub(crate) const MOVE_STEPS: u32 = 3;
/// Temple knights the Veto favour costs.
pub(crate) const VETO_COST: u32 = 4;

impl TemplarsJourney {
    pub(super) fn choose_templar_options(&self, seat: Seat) -> Vec<Action> {
        self.own_territories(seat).into_iter().map(|territory| Action::ChooseTemplar { territory }).collect()
    }

    pub(super) fn do_choose_templar(&mut self, actor: Seat, kind: MoveKind, action: &Action) {
        let templar = match action {
            Action::ChooseTemplar { territory } => {
                self.players[actor].templars.iter().position(|t| t == territory).unwrap_or(0)
            }
            _ => 0,
        };
        self.step =
            Step::Card { seat: actor, prompt: Prompt::MoveStep { kind, templar, steps: 0, entered: Vec::new() } };
    }

    fn templar_at(&self, seat: Seat, templar: usize) -> Option<Territory> {
        self.players[seat].templars.get(templar).copied()
    }

    pub(super) fn move_step_options(&self, seat: Seat, templar: usize, steps: u32) -> Vec<Action> {
        let mut out = Vec::new();
        if steps < MOVE_STEPS {
            if let Some(at) = self.templar_at(seat, templar) {
                out.extend(at.neighbours().iter().map(|&to| Action::MoveTemplar { to }));
            }
        }
        out.push(Action::Stop);
        out
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn do_move_step(
        &mut self,
        actor: Seat,
        kind: MoveKind,
        templar: usize,
        steps: u32,
        mut entered: Vec<Territory>,
        action: &Action,
        events: &mut Events,
    ) {
        if let Action::MoveTemplar { to } = action {
            if let Some(slot) = self.players[actor].templars.get_mut(templar) {
                let from = *slot;
                *slot = *to;
                events.push(game_core::Event::public(Event::TemplarMoved { seat: actor, from, to: *to }));
            }
            if kind == MoveKind::Risky {
                let amount = self.take_gold(actor, *to, 1);
                if amount > 0 {
                    events.push(game_core::Event::public(Event::GoldTaken {
                        seat: actor,
                        territory: *to,
                        amount,
                        cause: GoldCause::RiskyMove,
                    }));
                }
            }
            entered.push(*to);
            let steps = steps + 1;
            if steps < MOVE_STEPS {
                self.step = Step::Card { seat: actor, prompt: Prompt::MoveStep { kind, templar, steps, entered } };
                return;
            }
        }
        self.end_move(actor, kind, templar, entered, events);
    }

    fn end_move(&mut self, actor: Seat, kind: MoveKind, templar: usize, entered: Vec<Territory>, events: &mut Events) {
        let city = self.templar_at(actor, templar).and_then(Territory::city);
        let prompt = match kind {
            MoveKind::Safe => city.filter(|c| self.city(*c).tile.is_some()).map(|city| Prompt::SafeEffect { city }),
            MoveKind::Risky => city.filter(|c| self.space_of(*c).is_some()).map(|city| Prompt::EdictExchange { city }),
            MoveKind::Penalty => Some(Prompt::PenaltyGold { entered }),
        };
        match prompt {
            Some(prompt) => self.step = Step::Card { seat: actor, prompt },
            None => self.finish_card_action(events),
        }
    }

    pub(super) fn safe_effect_options(&self, seat: Seat, city: City) -> Vec<Action> {
        let mut out = Vec::new();
        match self.flag() {
            Some(Flag::Green) if self.players[seat].supply > 0 && self.city(city).has_room() => {
                out.push(Action::PlaceKnight { city });
            }
            Some(Flag::Red) => {
                out.extend(self.opponents_in(seat, city).into_iter().map(|owner| Action::RemoveKnight { city, owner }));
            }
            _ => {}
        }
        out.push(Action::Decline);
        out
    }

    pub(super) fn do_safe_effect(&mut self, actor: Seat, city: City, action: &Action, events: &mut Events) {
        match action {
            Action::PlaceKnight { .. } => {
                self.knight_from_supply(city, actor);
                events.push(game_core::Event::public(Event::KnightPlaced {
                    seat: actor,
                    city,
                    cause: PlaceCause::SafeMove,
                }));
            }
            Action::RemoveKnight { owner, .. } => {
                self.knight_to_temple(city, *owner);
                events.push(game_core::Event::public(Event::KnightRemoved {
                    by: actor,
                    owner: *owner,
                    city,
                    cause: RemoveCause::SafeMove,
                }));
            }
            _ => {}
        }
        self.finish_card_action(events);
    }

    pub(super) fn edict_exchange_options(&self, city: City) -> Vec<Action> {
        let mut out: Vec<Action> = EdictSpace::ALL
            .into_iter()
            .filter_map(|s| self.edict_on(s))
            .filter(|e| *e != city)
            .map(|with| Action::ExchangeEdict { with })
            .collect();
        out.push(Action::Decline);
        out
    }

    pub(super) fn do_edict_exchange(&mut self, actor: Seat, city: City, action: &Action, events: &mut Events) {
        let Action::ExchangeEdict { with } = action else {
            self.finish_card_action(events);
            return;
        };
        events.push(game_core::Event::public(Event::ExchangeAttempted { seat: actor, edict: city, with: *with }));
        let n = self.players.len();
        let mut eligible: Vec<Seat> =
            (1..n).map(|k| actor.next(n, k)).filter(|s| self.players[*s].temple >= VETO_COST).collect();
        if eligible.is_empty() {
            self.swap_edicts(city, *with, events);
            self.finish_card_action(events);
        } else {
            let asked = eligible.remove(0);
            self.step =
                Step::Card { seat: actor, prompt: Prompt::Veto { city, target: *with, asked, later: eligible } };
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn do_veto(
        &mut self,
        actor: Seat,
        asked: Seat,
        city: City,
        target: City,
        mut later: Vec<Seat>,
        action: &Action,
        events: &mut Events,
    ) {
        if *action == Action::Veto {
            self.pay_favour(asked, VETO_COST);
            events.push(game_core::Event::public(Event::FavourUsed {
                seat: asked,
                favour: Favour::Veto,
                cost: VETO_COST,
            }));
            events.push(game_core::Event::public(Event::ExchangeVetoed { by: asked }));
            self.finish_card_action(events);
            return;
        }
        events.push(game_core::Event::public(Event::ExchangeAllowed { seat: asked }));
        if later.is_empty() {
            self.swap_edicts(city, target, events);
            self.finish_card_action(events);
        } else {
            let asked = later.remove(0);
            self.step = Step::Card { seat: actor, prompt: Prompt::Veto { city, target, asked, later } };
        }
    }

    fn swap_edicts(&mut self, a: City, b: City, events: &mut Events) {
        let (Some(sa), Some(sb)) = (self.space_of(a), self.space_of(b)) else { return };
        self.edict_spaces.swap(sa.index(), sb.index());
        events.push(game_core::Event::public(Event::EdictsExchanged { a: (a, sb), b: (b, sa) }));
    }

    pub(super) fn penalty_gold_options(&self, entered: &[Territory]) -> Vec<Action> {
        let mut out: Vec<Territory> = entered.iter().copied().filter(|t| self.gold_at(*t) > 0).collect();
        out.sort();
        out.dedup();
        out.into_iter().map(|territory| Action::TakeGold { territory }).collect()
    }

    pub(super) fn do_penalty_gold(&mut self, actor: Seat, action: &Action, events: &mut Events) {
        if let Action::TakeGold { territory } = action {
            let amount = self.take_gold(actor, *territory, 1);
            events.push(game_core::Event::public(Event::GoldTaken {
                seat: actor,
                territory: *territory,
                amount,
                cause: GoldCause::PenaltyMove,
            }));
        }
        self.step = Step::Card { seat: actor, prompt: Prompt::Sacrifice };
    }
}
