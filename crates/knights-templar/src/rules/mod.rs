//! The turn flow (spec §4), one module per phase; this module answers who acts and what is
//! legal, routes each decision to its phase, and runs the Downfall check between resolutions.
//!
//! Every step in the phase modules is trusted: `apply` has already checked the action against
//! `legal_actions`. After each step `KnightsTemplar::settle` plays every decision that has a
//! single legal option (R7), so the game only ever waits where a real choice exists (I14).

mod draw;
mod end;
mod power;
mod resolve;
mod select;

pub use draw::fate_size;

use crate::action::Action;
use crate::card::CardType;
use crate::event::Event;
use crate::state::{EndReason, KnightsTemplar, Pending, Stage};
use game_core::{RuleError, Seat};

/// The events one step produces, in order.
pub(crate) type Events = Vec<game_core::Event<Event>>;

/// The seats the game waits for: the decider of the pending decision point.
pub(crate) fn to_act(game: &KnightsTemplar) -> Vec<Seat> {
    decider(game).into_iter().collect()
}

/// The decider of the pending decision point, if the game waits for one (never more than one):
/// [`to_act`] without a list, for the checks made at every action.
fn decider(game: &KnightsTemplar) -> Option<Seat> {
    match &game.pending {
        Pending::Pick { seat } => Some(*seat),
        Pending::Nominate => Some(game.gm),
        Pending::Target { resolver, .. } | Pending::AllyChoice { resolver, .. } => Some(*resolver),
        Pending::Resolving | Pending::Over => None,
    }
}

/// The options of the pending decision point (spec §4.2), for its decider only.
pub(crate) fn legal_actions(game: &KnightsTemplar, seat: Seat) -> Vec<Action> {
    if decider(game) != Some(seat) {
        return Vec::new();
    }
    match &game.pending {
        Pending::Pick { .. } => game.fate.iter().map(|c| Action::Pick { card: *c }).collect(),
        Pending::Nominate => game.unpicked().into_iter().map(|s| Action::Nominate { seat: s }).collect(),
        Pending::Target { resolver, .. } => {
            game.targets(*resolver).into_iter().map(|c| Action::Target { card: c }).collect()
        }
        Pending::AllyChoice { cards, .. } => cards.iter().map(|c| Action::Keep { card: *c }).collect(),
        Pending::Resolving | Pending::Over => Vec::new(),
    }
}

/// Checks `action` against the legal list, then plays it and every automatic step after it.
///
/// # Errors
/// The [`RuleError`] of [`RuleError::check`]; the state is then unchanged.
pub(crate) fn apply(game: &mut KnightsTemplar, seat: Seat, action: &Action) -> Result<Events, RuleError> {
    RuleError::check(game, seat, action)?;
    let mut events = Vec::new();
    match (game.pending.clone(), *action) {
        (Pending::Pick { .. }, Action::Pick { card }) => game.pick(seat, card, false, &mut events),
        (Pending::Nominate, Action::Nominate { seat: nominee }) => game.nominate(nominee, false, &mut events),
        (Pending::Target { resolver, card }, Action::Target { card: target }) => {
            game.hit(resolver, card, target, &mut events)
        }
        (Pending::AllyChoice { resolver, cards }, Action::Keep { card }) => {
            game.keep(resolver, cards, card, &mut events)
        }
        _ => return Err(RuleError::IllegalAction { action: format!("{action:?}") }),
    }
    game.settle(&mut events);
    Ok(events)
}

impl KnightsTemplar {
    /// Plays every pending decision that has exactly one option.
    pub(crate) fn settle(&mut self, events: &mut Events) {
        loop {
            match self.pending.clone() {
                Pending::Pick { seat } if self.fate.len() == 1 => {
                    let card = self.fate[0];
                    self.pick(seat, card, true, events);
                }
                Pending::Nominate => {
                    let candidates = self.unpicked();
                    if let [only] = candidates[..] {
                        self.nominate(only, true, events);
                    } else {
                        return;
                    }
                }
                Pending::Target { resolver, card } => {
                    let targets = self.targets(resolver);
                    if let [only] = targets[..] {
                        self.hit(resolver, card, only, events);
                    } else {
                        return;
                    }
                }
                _ => return,
            }
        }
    }

    /// Whether a resolution is waiting for a target or an Ally choice.
    fn is_deciding(&self) -> bool {
        matches!(self.pending, Pending::Target { .. } | Pending::AllyChoice { .. })
    }

    /// What follows a complete resolution: the Downfall check (§4.5), then the next pick or draw.
    fn after_resolution(&mut self, events: &mut Events) {
        if self.tableaus.iter().any(|(s, _)| self.count(s, CardType::Downfall) >= 5) {
            self.finish(EndReason::FiveDownfall, events);
            return;
        }
        match self.stage {
            Stage::Select => {
                self.picked.push(self.picker);
                if self.fate.is_empty() {
                    self.start_power_draws(events);
                } else if self.picked.len() == self.players {
                    self.round += 1;
                    self.picked.clear();
                    self.picker = self.gm;
                    self.pending = Pending::Pick { seat: self.gm };
                } else {
                    self.pending = Pending::Nominate;
                }
            }
            Stage::PowerDraws => self.next_power_draw(events),
            Stage::Over => {}
        }
    }
}
