//! The rules as a state machine: who acts ([`to_act`]), what they may do at each decision point
//! ([`legal_actions`]), how each step applies ([`apply`]), and the automatic steps that run up to
//! the next decision point.
//!
//! One file per phase: `setup_phase` (D1, D2), `pope` (A1 to A4: D3 to D7), `cards` (D8, the
//! reveal, resolution order, A8), `gold` (D9 to D11), `place` (D12 to D19), `movement` (D20 to
//! D25) and `shipping` (shipping rounds and the end of the game).

mod cards;
mod gold;
mod movement;
mod place;
mod pope;
mod setup_phase;
mod shipping;

pub(crate) use cards::penalties;
pub(crate) use movement::MOVE_STEPS;
pub(crate) use place::{NEW_CHANCE_LIMIT, RISKY_LIMIT, SAFE_SPEND_LIMIT};

use crate::action::Action;
use crate::event::Event;
use crate::state::{Prompt, Step, TemplarsJourney};
use game_core::{RuleError, Seat};

/// Events collected while applying one action.
pub(crate) type Events = Vec<game_core::Event<Event>>;

/// The seats the game waits for (`Game::to_act`).
pub(crate) fn to_act(game: &TemplarsJourney) -> Vec<Seat> {
    let n = game.players.len();
    match &game.step {
        Step::SetupKnight { placed } | Step::SetupTemplar { placed } => vec![game.first.next(n, *placed)],
        Step::PopeStep | Step::GreenFlag | Step::RedFlag => vec![game.first],
        Step::Leader { holder, .. } => vec![*holder],
        Step::ChooseCards { chosen } => chosen.iter().filter(|(_, c)| c.is_none()).map(|(s, _)| s).collect(),
        Step::Card { prompt: Prompt::Veto { asked, .. }, .. } => vec![*asked],
        Step::Card { seat, .. } => vec![*seat],
        Step::GameOver => Vec::new(),
    }
}

/// The legal actions of `seat` now, empty if the game does not wait for it (`Game::legal_actions`).
pub(crate) fn legal_actions(game: &TemplarsJourney, seat: Seat) -> Vec<Action> {
    if !to_act(game).contains(&seat) {
        return Vec::new();
    }
    match &game.step {
        Step::ChooseCards { .. } => (1..=6).map(|card| Action::ChooseCard { card }).collect(),
        _ => game.options(seat),
    }
}

/// Validates `action` against the legal list, applies it and runs every automatic step up to the
/// next decision point (`Game::apply`).
///
/// # Errors
/// The [`RuleError`] of [`RuleError::check`]; the state is then unchanged.
pub(crate) fn apply(game: &mut TemplarsJourney, seat: Seat, action: &Action) -> Result<Events, RuleError> {
    RuleError::check(game, seat, action)?;
    let mut events = Vec::new();
    game.perform(seat, action, false, &mut events);
    game.settle(&mut events);
    Ok(events)
}

impl TemplarsJourney {
    /// The options of the single player the current decision point asks.
    fn options(&self, seat: Seat) -> Vec<Action> {
        match &self.step {
            Step::SetupKnight { .. } => self.setup_knight_options(seat),
            Step::SetupTemplar { .. } => self.setup_templar_options(),
            Step::PopeStep => self.pope_options(),
            Step::GreenFlag => self.green_flag_options(seat),
            Step::RedFlag => self.red_flag_options(seat),
            Step::Leader { holder, received } => self.leader_options(*holder, *received),
            Step::ChooseCards { .. } | Step::GameOver => Vec::new(),
            Step::Card { seat, prompt } => self.card_options(*seat, prompt),
        }
    }

    fn card_options(&self, seat: Seat, prompt: &Prompt) -> Vec<Action> {
        match prompt {
            Prompt::GoldSource { .. } => self.gold_source_options(seat),
            Prompt::Taxes { .. } => self.taxes_options(seat),
            Prompt::Sacrifice => self.sacrifice_options(seat),
            Prompt::SafeCity => self.safe_city_options(seat),
            Prompt::SafeStep { city, spent, .. } => self.safe_step_options(seat, *city, *spent),
            Prompt::CrossResult { city, .. } => self.cross_options(seat, *city),
            Prompt::NewChance { .. } => vec![Action::NewChance, Action::Decline],
            Prompt::RiskyCity => self.risky_city_options(seat),
            Prompt::RiskyStep { city, done } => self.risky_step_options(seat, *city, *done),
            Prompt::PenaltyCity => self.penalty_city_options(seat),
            Prompt::PenaltyStep { city, done } => self.penalty_step_options(seat, *city, *done),
            Prompt::ChooseTemplar { .. } => self.choose_templar_options(seat),
            Prompt::MoveStep { templar, steps, .. } => self.move_step_options(seat, *templar, *steps),
            Prompt::SafeEffect { city } => self.safe_effect_options(seat, *city),
            Prompt::EdictExchange { city } => self.edict_exchange_options(*city),
            Prompt::Veto { .. } => vec![Action::Allow, Action::Veto],
            Prompt::PenaltyGold { entered } => self.penalty_gold_options(entered),
        }
    }

    /// Whether the current decision point may be left with Decline, Stop, Accept or Forgo.
    pub fn is_optional(&self) -> bool {
        match &self.step {
            Step::SetupKnight { .. } | Step::SetupTemplar { .. } | Step::PopeStep | Step::ChooseCards { .. } => false,
            Step::GreenFlag | Step::RedFlag | Step::Leader { .. } => true,
            Step::Card { prompt, .. } => !matches!(
                prompt,
                Prompt::GoldSource { .. }
                    | Prompt::Sacrifice
                    | Prompt::ChooseTemplar { .. }
                    | Prompt::PenaltyGold { .. }
            ),
            Step::GameOver => false,
        }
    }

    /// Applies a legal `action` of `seat`. `auto` marks a step the engine took because it was
    /// the only possibility. The caller has validated the action against [`legal_actions`].
    fn perform(&mut self, seat: Seat, action: &Action, auto: bool, events: &mut Events) {
        match self.step.clone() {
            Step::SetupKnight { placed } => self.do_setup_knight(seat, placed, action, events),
            Step::SetupTemplar { placed } => self.do_setup_templar(seat, placed, action, events),
            Step::PopeStep => {
                if let Action::MovePope { to } = action {
                    self.move_pope(*to, false, events);
                }
            }
            Step::GreenFlag | Step::RedFlag => self.do_flag(seat, action, auto, events),
            Step::Leader { holder, received } => self.do_leader(holder, received, action, events),
            Step::ChooseCards { .. } => self.do_choose_card(seat, action, events),
            Step::Card { seat: actor, prompt } => self.do_card_step(actor, seat, prompt, action, events),
            Step::GameOver => {}
        }
    }

    fn do_card_step(&mut self, actor: Seat, seat: Seat, prompt: Prompt, action: &Action, events: &mut Events) {
        match prompt {
            Prompt::GoldSource { take } => self.do_gold_source(actor, take, action, events),
            Prompt::Taxes { penalty } => self.do_taxes(actor, penalty, action, events),
            Prompt::Sacrifice => self.do_sacrifice(actor, action, events),
            Prompt::SafeCity => self.do_safe_city(actor, action, events),
            Prompt::SafeStep { city, spent, chances } => self.do_safe_step(actor, city, spent, chances, action, events),
            Prompt::CrossResult { city, spent, chances } => self.do_cross(actor, city, spent, chances, action, events),
            Prompt::NewChance { city, spent, chances } => {
                self.do_new_chance(actor, city, spent, chances, action, events)
            }
            Prompt::RiskyCity => self.do_risky_city(actor, action, events),
            Prompt::RiskyStep { city, done } => self.do_risky_step(actor, city, done, action, events),
            Prompt::PenaltyCity => self.do_penalty_city(actor, action, events),
            Prompt::PenaltyStep { city, done } => self.do_penalty_step(actor, city, done, action, events),
            Prompt::ChooseTemplar { kind } => self.do_choose_templar(actor, kind, action),
            Prompt::MoveStep { kind, templar, steps, entered } => {
                self.do_move_step(actor, kind, templar, steps, entered, action, events)
            }
            Prompt::SafeEffect { city } => self.do_safe_effect(actor, city, action, events),
            Prompt::EdictExchange { city } => self.do_edict_exchange(actor, city, action, events),
            Prompt::Veto { city, target, later, .. } => self.do_veto(actor, seat, city, target, later, action, events),
            Prompt::PenaltyGold { .. } => self.do_penalty_gold(actor, action, events),
        }
    }

    /// Handles a decision point with no option at all: that part of the action is forfeited.
    fn forfeit(&mut self, seat: Seat, events: &mut Events) {
        let Step::Card { seat: actor, prompt } = self.step.clone() else {
            // Only card prompts can be empty (setup always has room, D3 always has two spaces).
            self.step = Step::GameOver;
            return;
        };
        match prompt {
            Prompt::GoldSource { take } => {
                events.push(game_core::Event::public(Event::Forfeited {
                    seat,
                    what: "the gold take: no gold within reach".into(),
                }));
                self.after_gold_take(actor, take);
            }
            Prompt::Sacrifice => {
                events.push(game_core::Event::public(Event::Forfeited {
                    seat,
                    what: "the sacrifice: no own knight in any city".into(),
                }));
                self.finish_card_action(events);
            }
            Prompt::PenaltyGold { .. } => {
                events.push(game_core::Event::public(Event::Forfeited {
                    seat,
                    what: "the gold of the penalised move: none in the territories entered".into(),
                }));
                self.step = Step::Card { seat: actor, prompt: Prompt::Sacrifice };
            }
            _ => self.finish_card_action(events),
        }
    }

    /// Logs a card-action part skipped because its only option was `decline` (spec §4.0: every
    /// skip is logged). Favour windows whose cost the player cannot pay are not decision points
    /// and stay silent; the flag steps log their own forfeit.
    fn log_skip(&self, seat: Seat, events: &mut Events) {
        let Step::Card { prompt, .. } = &self.step else { return };
        let what = match prompt {
            Prompt::SafeCity => "Place knights (safe): no city where anything can be done".to_string(),
            Prompt::RiskyCity => "Place knights (risky): nothing to exchange".to_string(),
            Prompt::PenaltyCity => "the removals of the penalty: nothing to remove".to_string(),
            Prompt::SafeEffect { city } => format!("the effect of the safe move: nothing to do in {city}"),
            Prompt::Taxes { .. } if self.players[seat].temple >= gold::TAXES_COST => {
                "Taxes: no gold within reach".to_string()
            }
            _ => return,
        };
        events.push(game_core::Event::public(Event::Forfeited { seat, what }));
    }

    /// Runs every automatic step up to the next decision point that needs a real choice.
    pub(crate) fn settle(&mut self, events: &mut Events) {
        // Every automatic step makes progress; the bound only guards against a logic error.
        for _ in 0..10_000 {
            match &self.step {
                Step::GameOver | Step::ChooseCards { .. } => return,
                Step::PopeStep => {
                    let (next, choice) = self.pope.next();
                    if choice {
                        return;
                    }
                    match next.first() {
                        Some(&to) => self.move_pope(to, true, events),
                        None => self.step = Step::GameOver,
                    }
                    continue;
                }
                _ => {}
            }
            let Some(&seat) = to_act(self).first() else { return };
            let options = self.options(seat);
            match options.as_slice() {
                [] => self.forfeit(seat, events),
                [only] => {
                    let only = only.clone();
                    self.log_skip(seat, events);
                    self.perform(seat, &only, true, events);
                }
                _ => return,
            }
        }
    }
}
