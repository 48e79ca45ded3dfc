//! The rules, one module per phase; this module routes each decision to its phase.
//!
//! [`apply`] here is the trusted path: the caller (`Game::apply`) has already checked the action
//! against [`legal_actions`]. After each decision the phase modules run every automatic step up
//! to the next decision.

pub mod contribute;
pub mod location;
pub mod outcomes;
pub mod purchase;
pub mod round;
pub mod travel;

use crate::action::Action;
use crate::board::{Card, Location};
use crate::event::Event;
use crate::setup;
use crate::state::{RichardTheLionheart, Stage};
use game_core::Seat;

/// The complete list of what `seat` may do now (`Game::legal_actions`).
pub(crate) fn legal_actions(game: &RichardTheLionheart, seat: Seat) -> Vec<Action> {
    if game.stage.seat() != Some(seat) {
        return Vec::new();
    }
    match &game.stage {
        Stage::ChooseCharacter { .. } => {
            setup::choosable(game).into_iter().map(|character| Action::ChooseCharacter { character }).collect()
        }
        Stage::ChooseSide { .. } => round::side_actions(),
        Stage::Captor { .. } => vec![Action::UseCaptor, Action::Decline],
        Stage::Place { .. } => Location::ALL
            .into_iter()
            .filter(|l| game.occupant(*l, seat).is_none())
            .map(|location| Action::Place { location })
            .collect(),
        Stage::Move { movement, .. } => travel::move_actions(game, seat, movement),
        Stage::LocationAction { .. } => {
            let mut out: Vec<Action> =
                location::options(game, seat).into_iter().map(|choice| Action::Perform { choice }).collect();
            out.push(Action::Decline);
            out
        }
        Stage::TakeChoice { .. } => {
            location::take_options(game, seat).into_iter().map(|card| Action::TakeCard { card }).collect()
        }
        Stage::KeepEdict { drawn, .. } => {
            let mut out = Vec::new();
            if let Some(held) = game.player(seat).edict {
                out.push(Action::KeepEdict { edict: held });
            }
            out.push(Action::KeepEdict { edict: *drawn });
            out
        }
        Stage::AllyTake { .. } => {
            let mut out: Vec<Action> = game.reserve.present().map(|card| Action::TakeCard { card }).collect();
            out.push(Action::Decline);
            out
        }
        Stage::SkillReturn { .. } => hand_actions(game, seat, |card| Action::ReturnCard { card }),
        Stage::Purchase { .. } => purchase::actions(game, seat),
        Stage::Trade { .. } => {
            let hand = game.player(seat).hand;
            let mut out: Vec<Action> =
                Card::ALL.into_iter().filter(|c| hand.get(*c) >= 2).map(|card| Action::Trade { card }).collect();
            out.push(Action::Decline);
            out
        }
        Stage::Contribute { .. } => contribute::actions(game, seat),
        Stage::Over => Vec::new(),
    }
}

fn hand_actions(game: &RichardTheLionheart, seat: Seat, f: impl Fn(Card) -> Action) -> Vec<Action> {
    game.player(seat).hand.present().map(f).collect()
}

/// Applies a decision already checked against [`legal_actions`], then runs the automatic steps.
pub(crate) fn apply(game: &mut RichardTheLionheart, seat: Seat, action: Action) {
    let stage = game.stage.clone();
    match (stage, action) {
        (Stage::ChooseCharacter { .. }, Action::ChooseCharacter { character }) => {
            setup::choose(game, seat, character);
        }
        (Stage::ChooseSide { .. }, Action::ChooseSide { side }) => round::choose_side(game, seat, side),
        (Stage::Captor { .. }, Action::UseCaptor) => round::use_captor(game, seat),
        (Stage::Captor { .. }, _) => {
            game.say(Event::Declined { seat });
            travel::start(game);
        }
        (Stage::Place { .. }, Action::Place { location }) => travel::place(game, seat, location),
        (Stage::Move { movement, .. }, action) => travel::play(game, seat, movement, action),
        (Stage::LocationAction { .. }, Action::Perform { choice }) => location::perform(game, seat, choice),
        (Stage::LocationAction { .. }, _) => {
            game.say(Event::Declined { seat });
            location::after_action(game, seat, false);
        }
        (Stage::TakeChoice { .. }, Action::TakeCard { card }) => location::take_choice(game, seat, card),
        (Stage::KeepEdict { drawn, .. }, Action::KeepEdict { edict }) => {
            location::keep_edict(game, seat, drawn, edict);
        }
        (Stage::AllyTake { active, pending }, action) => location::ally_take(game, active, pending, action),
        (Stage::SkillReturn { .. }, Action::ReturnCard { card }) => {
            game.give_back(seat, card, 1);
            location::finish_action(game, seat, true);
        }
        (Stage::Purchase { .. }, action) => purchase::play(game, seat, action),
        (Stage::Trade { .. }, action) => purchase::trade(game, seat, action),
        (Stage::Contribute { .. }, action) => contribute::play(game, seat, action),
        // Unreachable after the legality check; the state stays as it was.
        _ => {}
    }
}
