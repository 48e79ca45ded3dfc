//! A1 to A4 of an action: the Pope's move (D3, or forced), the green or red flag step of the
//! first player (D4, D5), and the Leader favour's chain of passing the marker (D6, D7).

use super::Events;
use crate::action::Action;
use crate::board::{Flag, Space, Spot};
use crate::event::{Event, Favour, PlaceCause, RemoveCause};
use crate::state::{Step, TemplarsJourney};
use game_core::{BySeat, Seat};

/// Temple knights the Leader favour costs.
pub(crate) const LEADER_COST: u32 = 3;

impl TemplarsJourney {
    /// A1: the next action starts with the first player's Pope move.
    pub(crate) fn begin_action(&mut self) {
        self.step = Step::PopeStep;
    }

    pub(super) fn pope_options(&self) -> Vec<Action> {
        let (next, choice) = self.pope.next();
        if !choice {
            return Vec::new();
        }
        next.into_iter().map(|to| Action::MovePope { to }).collect()
    }

    /// Moves the Pope and starts what the new space calls for.
    pub(super) fn move_pope(&mut self, to: Space, forced: bool, events: &mut Events) {
        self.pope = to;
        events.push(game_core::Event::public(Event::PopeMoved { seat: self.first, to, forced }));
        match (to.spot, to.flag()) {
            (Spot::Harbour, _) => self.shipping_round(to.leg, events),
            (_, Some(Flag::Green)) => self.step = Step::GreenFlag,
            (_, Some(Flag::Red)) => self.step = Step::RedFlag,
            // The Pope never moves onto a start space by a step; treat it as a new action.
            (_, None) => self.begin_action(),
        }
    }

    pub(super) fn green_flag_options(&self, seat: Seat) -> Vec<Action> {
        let mut out = Vec::new();
        if self.players[seat].supply > 0 {
            out.extend(
                self.own_active_cities(seat)
                    .into_iter()
                    .filter(|c| self.city(*c).has_room())
                    .map(|city| Action::PlaceKnight { city }),
            );
        }
        out.push(Action::Decline);
        out
    }

    pub(super) fn red_flag_options(&self, seat: Seat) -> Vec<Action> {
        let mut out = Vec::new();
        for city in self.own_active_cities(seat) {
            for owner in self.opponents_in(seat, city) {
                out.push(Action::RemoveKnight { city, owner });
            }
        }
        out.push(Action::Decline);
        out
    }

    pub(super) fn do_flag(&mut self, seat: Seat, action: &Action, auto: bool, events: &mut Events) {
        match action {
            Action::PlaceKnight { city } => {
                self.knight_from_supply(*city, seat);
                events.push(game_core::Event::public(Event::KnightPlaced {
                    seat,
                    city: *city,
                    cause: PlaceCause::GreenFlag,
                }));
            }
            Action::RemoveKnight { city, owner } => {
                self.knight_to_temple(*city, *owner);
                events.push(game_core::Event::public(Event::KnightRemoved {
                    by: seat,
                    owner: *owner,
                    city: *city,
                    cause: RemoveCause::RedFlag,
                }));
            }
            _ => {
                let what = match self.step {
                    Step::GreenFlag => "the green flag action",
                    _ => "the red flag action",
                };
                let event = if auto {
                    Event::Forfeited { seat, what: format!("{what}: nothing to do") }
                } else {
                    Event::Declined { seat, what: what.to_string() }
                };
                events.push(game_core::Event::public(event));
            }
        }
        self.step = Step::Leader { holder: seat, received: false };
    }

    pub(super) fn leader_options(&self, holder: Seat, received: bool) -> Vec<Action> {
        let mut out = vec![if received { Action::Accept } else { Action::Decline }];
        if self.players[holder].temple >= LEADER_COST {
            let n = self.players.len();
            out.extend((1..n).map(|k| Action::PassLeader { to: holder.next(n, k) }));
            out.sort_by_key(|a| match a {
                Action::PassLeader { to } => to.index() + 1,
                _ => 0,
            });
        }
        out
    }

    pub(super) fn do_leader(&mut self, holder: Seat, received: bool, action: &Action, events: &mut Events) {
        match action {
            Action::PassLeader { to } => {
                self.pay_favour(holder, LEADER_COST);
                events.push(game_core::Event::public(Event::FavourUsed {
                    seat: holder,
                    favour: Favour::Leader,
                    cost: LEADER_COST,
                }));
                events.push(game_core::Event::public(Event::LeaderPassed { from: holder, to: *to }));
                self.first = *to;
                self.step = Step::Leader { holder: *to, received: true };
            }
            _ => {
                if received {
                    events.push(game_core::Event::public(Event::LeaderAccepted { seat: holder }));
                }
                self.start_card_choice();
            }
        }
    }

    /// A5: every player chooses a card, hidden.
    pub(super) fn start_card_choice(&mut self) {
        self.card_phase = None;
        self.step = Step::ChooseCards { chosen: BySeat(vec![None; self.players.len()]) };
    }
}
