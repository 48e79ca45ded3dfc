//! Helpers shared by the scenario tests.
#![allow(dead_code)]

use game_core::{Game, Seat};
use secret_treasures::{Action, Event, Phase, SecretTreasures, Step};

/// Ani (yellow), the start player.
pub const ANI: Seat = Seat(0);
/// Frank (blue).
pub const FRANK: Seat = Seat(1);
/// Alex (red).
pub const ALEX: Seat = Seat(2);

/// Applies a step that must be legal.
pub fn act(game: &mut SecretTreasures, seat: Seat, action: Action) -> Vec<game_core::Event<Event>> {
    match game.apply(seat, &action) {
        Ok(events) => events,
        Err(e) => panic!("{action:?} by {seat} was rejected: {e}; legal were {:?}", game.legal_actions(seat)),
    }
}

/// Applies several steps of one seat.
pub fn acts(game: &mut SecretTreasures, seat: Seat, actions: &[Action]) {
    for a in actions {
        act(game, seat, *a);
    }
}

/// The legal actions of a seat.
pub fn legal(game: &SecretTreasures, seat: Seat) -> Vec<Action> {
    game.legal_actions(seat)
}

/// `Room(r)` for each room.
pub fn rooms(list: &[u8]) -> Vec<Action> {
    list.iter().map(|r| Action::Room(*r)).collect()
}

/// A player's points so far.
pub fn points(game: &SecretTreasures, seat: Seat) -> i64 {
    game.score(seat).total()
}

/// Whether it is `seat`'s turn to choose a card.
pub fn choosing_card(game: &SecretTreasures, seat: Seat) -> bool {
    *game.phase() == Phase::Turn { seat, step: Step::Card }
}
