//! Helpers shared by the scenario tests.
#![allow(dead_code, clippy::unwrap_used)]

use game_core::{Game, Seat};
use richard_the_lionheart::{Action, Card, Cards, Choice, Location, RichardTheLionheart, Stage};

pub const A: Seat = Seat(0);

/// Applies an action that must be legal.
pub fn play(g: &mut RichardTheLionheart, seat: Seat, action: Action) {
    if let Err(e) = g.apply(seat, &action) {
        panic!("{action:?} by {seat} was rejected: {e}; legal: {:?}", g.legal_actions(seat));
    }
}

/// Asserts an action is rejected and leaves the state unchanged.
pub fn rejected(g: &mut RichardTheLionheart, seat: Seat, action: Action) {
    let before = serde_json::to_string(g).unwrap();
    assert!(g.apply(seat, &action).is_err(), "{action:?} by {seat} should be rejected");
    assert_eq!(serde_json::to_string(g).unwrap(), before, "a rejected action changed the state");
}

/// The Perform choices offered to `seat` now.
pub fn perform_choices(g: &RichardTheLionheart, seat: Seat) -> Vec<Choice> {
    g.legal_actions(seat)
        .into_iter()
        .filter_map(|a| match a {
            Action::Perform { choice } => Some(choice),
            _ => None,
        })
        .collect()
}

/// A hand/reserve from (type, count) pairs, the rest 0.
pub fn cards(list: &[(Card, u8)]) -> Cards {
    let mut c = Cards::default();
    for (card, n) in list {
        c.add(*card, *n);
    }
    c
}

/// `base` plus `extra`, per type.
pub fn plus(base: Cards, extra: Cards) -> Cards {
    let mut c = base;
    for t in Card::ALL {
        c.add(t, extra.get(t));
    }
    c
}

/// Every location where a move that is underway for `seat` could end (exploring steps only).
pub fn endpoints(g: &RichardTheLionheart, seat: Seat) -> Vec<Location> {
    let mut out = Vec::new();
    explore(g, seat, &mut out);
    out.sort();
    out.dedup();
    out
}

fn explore(g: &RichardTheLionheart, seat: Seat, out: &mut Vec<Location>) {
    let Stage::Move { movement, .. } = &g.stage else {
        return;
    };
    for a in g.legal_actions(seat) {
        match a {
            Action::Stop => out.push(movement.current()),
            Action::Step { .. } => {
                let mut next = g.clone();
                next.apply(seat, &a).unwrap();
                match &next.stage {
                    Stage::Move { seat: s, .. } if *s == seat => explore(&next, seat, out),
                    _ => out.push(next.player(seat).location.unwrap()),
                }
            }
            _ => {}
        }
    }
}

/// The steps offered now.
pub fn steps(g: &RichardTheLionheart, seat: Seat) -> Vec<Location> {
    let mut v: Vec<Location> = g
        .legal_actions(seat)
        .into_iter()
        .filter_map(|a| match a {
            Action::Step { to } => Some(to),
            _ => None,
        })
        .collect();
    v.sort();
    v
}

/// The number of cards in all zones.
pub fn all_cards(g: &RichardTheLionheart) -> usize {
    g.provisions.len()
        + g.reserve.total()
        + g.crusade.len()
        + g.display.total()
        + g.players.iter().map(|(_, p)| p.hand.total()).sum::<usize>()
}
