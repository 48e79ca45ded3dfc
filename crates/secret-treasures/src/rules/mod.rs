//! The rules: who is waited for, what each seat may do now, and applying one step followed by
//! every automatic step up to the next decision point. One file per phase or card family.

mod benjamin;
mod cards;
mod harbor;
mod movement;
mod placement;

use crate::action::Action;
use crate::event::StEvent;
use crate::state::{Phase, Place, SecretTreasures, Step, Trigger};
use game_core::{Event, Seat};

/// The events an action produced.
pub(crate) type Log = Vec<Event<StEvent>>;

/// Records a public event.
pub(crate) fn public(log: &mut Log, event: StEvent) {
    log.push(Event::public(event));
}

impl SecretTreasures {
    /// The seats the game waits for.
    pub(crate) fn waiting_for(&self) -> Vec<Seat> {
        match &self.phase {
            Phase::PlaceRemigius { seat }
            | Phase::PlaceVitus { seat }
            | Phase::PlaceSeverus { seat }
            | Phase::ChooseRings { seat }
            | Phase::Turn { seat, .. } => vec![*seat],
            Phase::FirstRound => self.seats().filter(|s| self.chosen[*s].is_none()).collect(),
            Phase::Over => Vec::new(),
        }
    }

    /// Everything `seat` may do now, in canonical order.
    pub(crate) fn legal(&self, seat: Seat) -> Vec<Action> {
        if seat.index() >= self.n() {
            return Vec::new();
        }
        match &self.phase {
            Phase::PlaceRemigius { seat: s } | Phase::PlaceVitus { seat: s } | Phase::PlaceSeverus { seat: s }
                if *s == seat =>
            {
                self.placement_options()
            }
            Phase::ChooseRings { seat: s } if *s == seat => self.ring_options(),
            Phase::FirstRound if self.chosen[seat].is_none() => {
                self.hands[seat].iter().map(|c| Action::Card(*c)).collect()
            }
            Phase::Turn { seat: s, step } if *s == seat => self.step_options(seat, step),
            _ => Vec::new(),
        }
    }

    /// The options of the active player at a step of his turn.
    pub(crate) fn step_options(&self, seat: Seat, step: &Step) -> Vec<Action> {
        match step {
            Step::Portal => {
                vec![Action::Portal(crate::board::Portal::Main), Action::Portal(crate::board::Portal::Side)]
            }
            Step::Card => self.card_options(seat),
            Step::Move { card, steps, visited } => self.move_options(seat, *card, *steps, visited),
            Step::Stash { .. } => self.stash_options(seat),
            Step::Benjamin { steps, carrying, .. } => self.benjamin_options(seat, *steps, *carrying, step),
            Step::Storehouse => self.storehouse_options(seat),
            Step::Door => self.door_options(),
            Step::Remigius { start, steps, forced } => self.remigius_options(*start, *steps, *forced),
        }
    }

    /// Applies an action already checked against [`SecretTreasures::legal`], then every automatic step.
    pub(crate) fn play(&mut self, seat: Seat, action: Action) -> Log {
        let mut log = Log::new();
        match self.phase.clone() {
            Phase::PlaceRemigius { .. } | Phase::PlaceVitus { .. } | Phase::PlaceSeverus { .. } => {
                self.place_figure(seat, action, &mut log);
            }
            Phase::ChooseRings { .. } => self.choose_rings(seat, action, &mut log),
            Phase::FirstRound => self.choose_first_card(seat, action, &mut log),
            Phase::Turn { step, .. } => match step {
                Step::Portal => self.leave_storehouse(seat, action, &mut log),
                Step::Card => {
                    if let Action::Card(card) = action {
                        self.play_card(seat, card, &mut log);
                    }
                }
                Step::Move { card, steps, visited } => self.move_step(seat, card, steps, visited, action, &mut log),
                Step::Stash { left } => self.stash(seat, left, action, &mut log),
                Step::Benjamin { steps, carrying, picked } => {
                    self.benjamin_step(seat, steps, carrying, picked, action, &mut log);
                }
                Step::Storehouse => self.maria(seat, action, &mut log),
                Step::Door => self.porticus(seat, action, &mut log),
                Step::Remigius { start, steps, forced } => {
                    self.remigius_step(seat, start, steps, forced, action, &mut log);
                }
            },
            Phase::Over => {}
        }
        self.settle(&mut log);
        log
    }

    /// Resolves every decision whose only option is `Stop` (or that has no option at all).
    pub(crate) fn settle(&mut self, log: &mut Log) {
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
            public(log, StEvent::EndTriggered { seat, trigger });
        }
    }

    /// The end-of-turn sequence (A5): the 13-room trigger, the final-turn count, Raphael, the next player.
    pub(crate) fn end_turn(&mut self, seat: Seat, log: &mut Log) {
        if self.final_turns_left.is_none() && self.rooms_with_pieces(seat) == usize::from(crate::board::ROOMS) {
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
        let next = seat.next(self.n(), 1);
        if next == self.start {
            if self.round >= 2 && self.raphael.is_some() {
                self.raphael_reveals(log);
            }
            self.round += 1;
        }
        if self.round == 1 {
            self.final_turn = self.final_turns_left.is_some();
            let card = self.piles[next].last().copied().unwrap_or(crate::board::Card::Bells);
            self.resolve_card(next, card, log);
        } else {
            self.begin_turn(next);
        }
    }
}
