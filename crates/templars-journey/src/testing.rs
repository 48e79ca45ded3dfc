//! Helpers for scenario tests: build a state from explicit parts, and find an RNG that throws
//! the chance marker a given way. Not part of the stable API.

use crate::board::{City, EdictSpace, Territory, Tile, KNIGHTS};
use crate::event::Toss;
use crate::setup::{setup, Options};
use crate::state::{Step, TemplarsJourney};
use game_core::{BySeat, GameRng, Seat, Seed};

/// A game of `players` after setup, emptied: no knights in cities, no Templars placed, no
/// gold anywhere, 5 gold and 19 supply knights per player, the Pope on `S1` waiting for the
/// first player `first`, and `edicts` on `E1a..E3b, E7` with tiles T1..T7 on their cities in
/// canonical order (the other two edicts boxed).
pub fn scenario(players: usize, first: Seat, edicts: [City; 7]) -> TemplarsJourney {
    let mut g = match setup(players, &Options::default(), Seed::from_u64(0)) {
        Ok(g) => g,
        Err(e) => panic!("scenario setup failed: {e}"),
    };
    g.first = first;
    g.edict_spaces = edicts.iter().copied().map(Some).collect();
    g.boxed_edicts = City::ALL.into_iter().filter(|c| !edicts.contains(c)).collect();
    let mut tiles = Tile::ALL.into_iter();
    for c in City::ALL {
        let state = g.city_mut(c);
        state.knights = BySeat(vec![0; players]);
        state.tile = if edicts.contains(&c) { tiles.next() } else { None };
    }
    for p in g.players.0.iter_mut() {
        p.gold = 5;
        p.supply = KNIGHTS;
        p.temple = 0;
        p.templars.clear();
        p.edicts.clear();
        p.vp.clear();
    }
    g.territory_gold = vec![0; Territory::ALL.len()];
    g.pope = crate::board::Space::start(1);
    g.step = Step::PopeStep;
    g
}

/// Puts `tile` on `city` with `knights` per seat, taking the knights from the supplies.
pub fn set_city(g: &mut TemplarsJourney, city: City, tile: Tile, knights: &[u32]) {
    let old = g.city(city).knights.0.clone();
    for (i, k) in old.iter().enumerate() {
        g.players[Seat(i as u8)].supply += k;
    }
    let n = g.players.len();
    let mut row = vec![0; n];
    for (i, k) in knights.iter().enumerate().take(n) {
        row[i] = *k;
        let p = &mut g.players[Seat(i as u8)];
        p.supply = p.supply.saturating_sub(*k);
    }
    let state = g.city_mut(city);
    state.tile = Some(tile);
    state.knights = BySeat(row);
}

/// Puts `seat`'s two Templars on `a` and `b`.
pub fn set_templars(g: &mut TemplarsJourney, seat: Seat, a: Territory, b: Territory) {
    g.players[seat].templars = vec![a, b];
}

/// Sets `seat`'s temple, taking the knights from the supply.
pub fn set_temple(g: &mut TemplarsJourney, seat: Seat, temple: u32) {
    let p = &mut g.players[seat];
    p.supply = (p.supply + p.temple).saturating_sub(temple);
    p.temple = temple;
}

/// An RNG whose next chance-marker tosses give `results` in order.
pub fn rng_tossing(results: &[Toss]) -> GameRng {
    for k in 0u64.. {
        let mut probe = GameRng::from_u64(k);
        let fits = results.iter().all(|want| {
            let got = if probe.coin() { Toss::Cross } else { Toss::Blank };
            got == *want
        });
        if fits {
            return GameRng::from_u64(k);
        }
    }
    GameRng::from_u64(0)
}

/// Knights of each player in supply, cities, temple and ships: always 19 (INV-1).
pub fn knight_totals(g: &TemplarsJourney) -> Vec<u64> {
    g.players.iter().map(|(s, _)| g.knight_total(s)).collect()
}

/// Runs the automatic steps from the current state (e.g. a forced Pope move set up by a test).
pub fn settle(g: &mut TemplarsJourney) -> Vec<crate::event::Event> {
    let mut events = Vec::new();
    g.settle(&mut events);
    events.into_iter().map(|e| e.event).collect()
}

/// Evaluates the city on `space` as a shipping round does (§7.1).
pub fn evaluate(g: &mut TemplarsJourney, space: EdictSpace) -> Vec<crate::event::Event> {
    let mut events = Vec::new();
    g.evaluate_city(space, &mut events);
    events.into_iter().map(|e| e.event).collect()
}

/// Scores the temple majority of shipping round `round`.
pub fn temple_majority(g: &mut TemplarsJourney, round: u8) -> Vec<crate::event::Event> {
    let mut events = Vec::new();
    g.temple_majority(round, &mut events);
    events.into_iter().map(|e| e.event).collect()
}

/// Runs the final scoring.
pub fn final_scoring(g: &mut TemplarsJourney) -> Vec<crate::event::Event> {
    let mut events = Vec::new();
    g.final_scoring(&mut events);
    events.into_iter().map(|e| e.event).collect()
}

/// Applies an action, panicking with the rule error and the legal list; returns the events.
pub fn act(g: &mut TemplarsJourney, seat: u8, action: crate::action::Action) -> Vec<crate::event::Event> {
    use game_core::Game;
    match g.apply(Seat(seat), &action) {
        Ok(events) => events.into_iter().map(|e| e.event).collect(),
        Err(e) => panic!("{action:?} by seat {seat} rejected: {e}; legal: {:?}", g.legal_actions(Seat(seat))),
    }
}

/// The legal actions of `seat`.
pub fn legal_actions(g: &TemplarsJourney, seat: u8) -> Vec<crate::action::Action> {
    use game_core::Game;
    g.legal_actions(Seat(seat))
}

/// The round-track space with this name (panics on a typo).
pub fn space(name: &str) -> crate::board::Space {
    match crate::board::Space::try_from(name.to_string()) {
        Ok(s) => s,
        Err(e) => panic!("no space {name:?}: {e:?}"),
    }
}

/// Each player's total VP.
pub fn vp(g: &TemplarsJourney) -> Vec<u32> {
    g.players.0.iter().map(|p| p.total_vp()).collect()
}

/// Each player's knights in the temple.
pub fn temples(g: &TemplarsJourney) -> Vec<u32> {
    g.players.0.iter().map(|p| p.temple).collect()
}

/// Each player's knights in `city`.
pub fn knights(g: &TemplarsJourney, city: City) -> Vec<u32> {
    g.city(city).knights.0.clone()
}
