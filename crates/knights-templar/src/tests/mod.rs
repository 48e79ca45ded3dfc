//! Scenario tests for every check of the spec's §8 and the invariants of §9, built on states
//! assembled directly (the spec's "Given" lines).

mod invariants;
mod scenarios;
mod view_json;
mod view_patches;

use crate::card::Card;
use crate::state::{Discard, KnightsTemplar, Pending, Stage};
use crate::{Action, Event};
use game_core::{BySeat, Game, GameRng, Seat};

/// The card with this name (panics on a typo in a test).
pub(crate) fn c(name: &str) -> Card {
    Card::named(name).unwrap_or_else(|| panic!("no card named {name:?}"))
}

pub(crate) fn cards(names: &[&str]) -> Vec<Card> {
    names.iter().map(|n| c(n)).collect()
}

/// A state in the Select Phase of turn 1. Cards not placed anywhere go to the bottom of the deck
/// (in id order) when `rest_in_deck`, else face up into the discard pile (the spec's default).
pub(crate) struct Given {
    pub players: usize,
    pub gm: u8,
    pub deck: Vec<&'static str>,
    pub fate: Vec<&'static str>,
    pub tableaus: Vec<Vec<&'static str>>,
    pub picked: Vec<u8>,
    pub round: u32,
    pub rest_in_deck: bool,
}

impl Default for Given {
    fn default() -> Self {
        Given {
            players: 3,
            gm: 0,
            deck: vec![],
            fate: vec![],
            tableaus: vec![],
            picked: vec![],
            round: 1,
            rest_in_deck: true,
        }
    }
}

impl Given {
    /// Builds the state with `picker` to make a Fate pick (DP1), then plays automatic steps.
    pub(crate) fn picking(self, picker: u8) -> KnightsTemplar {
        let mut game = self.build();
        game.picker = Seat(picker);
        game.pending = Pending::Pick { seat: Seat(picker) };
        let mut events = Vec::new();
        game.settle(&mut events);
        game
    }

    pub(crate) fn build(self) -> KnightsTemplar {
        let n = self.players;
        let mut tableaus = BySeat::from_fn(n, |_| Vec::new());
        for (i, t) in self.tableaus.iter().enumerate() {
            tableaus[Seat(i as u8)] = cards(t);
        }
        let mut deck = cards(&self.deck);
        let fate = cards(&self.fate);
        let used: Vec<Card> = deck.iter().chain(&fate).chain(tableaus.0.iter().flatten()).copied().collect();
        let rest: Vec<Card> = Card::all().filter(|c| !used.contains(c)).collect();
        let mut discard = Vec::new();
        if self.rest_in_deck {
            deck.extend(rest);
        } else {
            discard = rest.into_iter().map(|card| Discard { card, face_down_by: None }).collect();
        }
        let game = KnightsTemplar {
            players: n,
            rng: GameRng::from_u64(0),
            deck,
            fate,
            tableaus,
            discard,
            county_vp: BySeat::from_fn(n, |_| 0),
            gm: Seat(self.gm),
            turn: 1,
            round: self.round,
            picked: self.picked.iter().map(|s| Seat(*s)).collect(),
            picker: Seat(self.gm),
            fate_picks: BySeat::from_fn(n, |_| 0),
            stage: Stage::Select,
            power_queue: Vec::new(),
            pending: Pending::Resolving,
            setup_draws: Vec::new(),
            end: None,
        };
        if let Err(e) = crate::validate::conservation(&game) {
            panic!("the scenario must place every card exactly once: {e}");
        }
        game
    }
}

/// Applies an action, panicking with the rule error; returns its events.
pub(crate) fn act(game: &mut KnightsTemplar, seat: u8, action: Action) -> Vec<game_core::Event<Event>> {
    match game.apply(Seat(seat), &action) {
        Ok(events) => events,
        Err(e) => panic!("{action:?} by P{seat} was rejected: {e}"),
    }
}

pub(crate) fn pick(game: &mut KnightsTemplar, seat: u8, name: &str) -> Vec<game_core::Event<Event>> {
    act(game, seat, Action::Pick { card: c(name) })
}

pub(crate) fn names(game: &KnightsTemplar, seat: u8) -> Vec<&'static str> {
    game.tableau(Seat(seat)).iter().map(|c| c.name()).collect()
}
