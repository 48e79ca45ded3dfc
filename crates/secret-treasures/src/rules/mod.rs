//! The rules: who is waited for, what each seat may do now, and applying one step followed by
//! every automatic step up to the next decision point. This file routes each phase and step to
//! its own file, one per phase or card family.

mod benjamin;
mod cards;
mod door;
mod harbor;
mod movement;
mod placement;
mod turn;

use crate::action::Action;
use crate::board::Portal;
use crate::event::Event;
use crate::state::{Phase, SecretTreasures, Step};
use game_core::{Game, Seat};

/// The events an action produced.
pub(crate) type Log = Vec<game_core::Event<Event>>;

/// Records a public event.
pub(crate) fn public(log: &mut Log, event: Event) {
    log.push(game_core::Event::public(event));
}

/// The seats the game waits for.
pub(crate) fn to_act(game: &SecretTreasures) -> Vec<Seat> {
    match &game.phase {
        Phase::PlaceRemigius { seat }
        | Phase::PlaceVitus { seat }
        | Phase::PlaceSeverus { seat }
        | Phase::ChooseRings { seat }
        | Phase::Turn { seat, .. } => vec![*seat],
        Phase::FirstRound => game.seats().filter(|s| game.chosen[*s].is_none()).collect(),
        Phase::Over => Vec::new(),
    }
}

/// Everything `seat` may do now, in canonical order.
pub(crate) fn legal_actions(game: &SecretTreasures, seat: Seat) -> Vec<Action> {
    if seat.index() >= game.players() {
        return Vec::new();
    }
    match &game.phase {
        Phase::PlaceRemigius { seat: s } | Phase::PlaceVitus { seat: s } | Phase::PlaceSeverus { seat: s }
            if *s == seat =>
        {
            game.placement_options()
        }
        Phase::ChooseRings { seat: s } if *s == seat => game.ring_options(),
        Phase::FirstRound if game.chosen[seat].is_none() => game.hands[seat].iter().map(|c| Action::Card(*c)).collect(),
        Phase::Turn { seat: s, step } if *s == seat => game.step_options(seat, step),
        _ => Vec::new(),
    }
}

/// Applies an action already checked against [`legal_actions`], then every automatic step.
pub(crate) fn apply(game: &mut SecretTreasures, seat: Seat, action: Action) -> Log {
    let mut log = Log::new();
    match game.phase.clone() {
        Phase::PlaceRemigius { .. } | Phase::PlaceVitus { .. } | Phase::PlaceSeverus { .. } => {
            game.place_figure(seat, action, &mut log);
        }
        Phase::ChooseRings { .. } => game.choose_rings(seat, action, &mut log),
        Phase::FirstRound => game.choose_first_card(seat, action, &mut log),
        Phase::Turn { step, .. } => match step {
            Step::Portal => game.leave_storehouse(seat, action, &mut log),
            Step::Card => {
                if let Action::Card(card) = action {
                    game.play_card(seat, card, &mut log);
                }
            }
            Step::Move { card, steps, visited } => game.move_step(seat, card, steps, visited, action, &mut log),
            Step::Stash { left } => game.stash(seat, left, action, &mut log),
            Step::Benjamin { steps, carrying, picked } => {
                game.benjamin_step(seat, steps, carrying, picked, action, &mut log);
            }
            Step::Storehouse => game.maria(seat, action, &mut log),
            Step::Door => game.porticus(seat, action, &mut log),
            Step::Remigius { start, steps, forced } => {
                game.remigius_step(seat, start, steps, forced, action, &mut log);
            }
        },
        Phase::Over => {}
    }
    game.settle(&mut log);
    log
}

impl SecretTreasures {
    /// The options of the active player at a step of his turn.
    pub(crate) fn step_options(&self, seat: Seat, step: &Step) -> Vec<Action> {
        match step {
            Step::Portal => vec![Action::Portal(Portal::Main), Action::Portal(Portal::Side)],
            Step::Card => self.card_options(seat),
            Step::Move { card, steps, visited } => self.move_options(seat, *card, *steps, visited),
            Step::Stash { .. } => self.stash_options(seat),
            Step::Benjamin { steps, carrying, .. } => self.benjamin_options(seat, *steps, *carrying, step),
            Step::Storehouse => self.storehouse_options(seat),
            Step::Door => self.door_options(),
            Step::Remigius { start, steps, forced } => self.remigius_options(*start, *steps, *forced),
        }
    }

    /// Resolves every decision whose only option is `Stop` (or that has no option at all).
    fn settle(&mut self, log: &mut Log) {
        // Each round of the loop ends a move or a turn, so it cannot run for ever; the bound is a guard.
        for _ in 0..1000 {
            let Phase::Turn { seat, step } = &self.phase else { return };
            let options = self.step_options(*seat, step);
            if !(options.is_empty() || options == [Action::Stop]) {
                return;
            }
            let (seat, step) = (*seat, step.clone());
            self.stop(seat, step, log);
        }
    }

    /// `Stop` at the current step: ends the move (then the card's action follows) or the turn.
    fn stop(&mut self, seat: Seat, step: Step, log: &mut Log) {
        match step {
            Step::Move { card, .. } => self.finish_move(seat, card, log),
            Step::Remigius { start, .. } => self.finish_remigius(seat, start, log),
            Step::Benjamin { carrying: Some(carried), .. } => {
                // Unreachable with the feasibility test; never lose a ring even so.
                self.return_ring(carried);
                self.end_turn(seat, log);
            }
            _ => self.end_turn(seat, log),
        }
    }
}
