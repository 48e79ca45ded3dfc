//! A state read from JSON is validated before use (`game_core::validated_state!`): a genuine
//! state round-trips byte for byte, a crafted one is refused with the broken invariant named, and
//! no input makes reading panic.
#![allow(clippy::unwrap_used)]

use game_core::{state_hash, Game, GameRng, Seed};
use richard_the_lionheart::{CharacterAssignment, Options, RichardTheLionheart};
use serde_json::{json, Value};

/// A random game of `players` after `steps` actions (or at its end).
fn played(players: usize, characters: CharacterAssignment, seed: u64, steps: usize) -> RichardTheLionheart {
    let mut g = RichardTheLionheart::setup(players, &Options { characters }, Seed::from_u64(seed)).unwrap();
    let mut rng = GameRng::from_u64(seed);
    for _ in 0..steps {
        let Some(seat) = rng.choose(&g.to_act()).copied() else { break };
        let action = *rng.choose(&g.legal_actions(seat)).unwrap();
        g.apply(seat, &action).unwrap();
    }
    g
}

/// A 4-player game in round 2 or later, as JSON.
fn saved() -> Value {
    serde_json::to_value(played(4, CharacterAssignment::Random, 11, 120)).unwrap()
}

fn refusal(state: &Value) -> String {
    match serde_json::from_str::<RichardTheLionheart>(&state.to_string()) {
        Ok(_) => panic!("a crafted state was accepted"),
        Err(e) => e.to_string(),
    }
}

#[track_caller]
fn assert_refused(state: &Value, invariant: &str) {
    let error = refusal(state);
    assert!(error.contains("invalid state") && error.contains(invariant), "expected {invariant:?}, got {error}");
}

#[test]
fn genuine_states_round_trip_byte_for_byte() {
    for players in 2..=6 {
        for characters in [CharacterAssignment::Random, CharacterAssignment::Chosen] {
            for steps in [0, 1, 30, 150, 10_000] {
                let g = played(players, characters, 5, steps);
                let json = serde_json::to_string(&g).unwrap();
                let back: RichardTheLionheart = serde_json::from_str(&json).unwrap();
                assert_eq!(serde_json::to_string(&back).unwrap(), json);
                assert_eq!(state_hash(&back), state_hash(&g));
                assert_eq!(back, g);
            }
        }
    }
}

#[test]
fn the_test_states_are_what_they_claim() {
    let s = saved();
    assert!(s["round"].as_u64().unwrap() >= 2, "a state after round 1");
    assert!(s["players"][1]["edict"].is_string());
    assert!(s["stage"]["seat"].is_u64(), "a decision of one seat: {}", s["stage"]);
}

#[test]
fn a_duplicated_card_is_refused() {
    let mut s = saved();
    let rb = s["players"][0]["hand"][0].as_u64().unwrap();
    s["players"][0]["hand"][0] = json!(rb + 1);
    assert_refused(&s, "cards: 41 RB cards");
}

#[test]
fn a_card_missing_from_the_provisions_deck_is_refused() {
    let mut s = saved();
    s["provisions"].as_array_mut().unwrap().pop();
    assert_refused(&s, "cards:");
}

#[test]
fn a_missing_edict_is_refused() {
    let mut s = saved();
    s["players"][1]["edict"] = Value::Null;
    assert_refused(&s, "edicts:");
}

#[test]
fn an_edict_held_twice_is_refused() {
    let mut s = saved();
    let held = s["players"][0]["edict"].clone();
    let deck = if s["players"][0]["character"] == json!("robin_hood")
        || s["players"][0]["character"] == json!("maid_marion")
        || s["players"][0]["character"] == json!("little_john")
        || s["players"][0]["character"] == json!("friar_tuck")
    {
        "richard"
    } else {
        "john"
    };
    s["edicts"][deck][0] = held;
    assert_refused(&s, "edicts:");
}

#[test]
fn a_duplicated_event_is_refused() {
    let mut s = saved();
    let first = s["discarded_events"][0].clone();
    s["events"][0] = first;
    assert_refused(&s, "events:");
}

#[test]
fn out_of_range_seats_and_values_are_refused() {
    let mut s = saved();
    s["first_player"] = json!(4);
    assert_refused(&s, "seats: P4");

    let mut s = saved();
    s["stage"]["seat"] = json!(9);
    assert_refused(&s, "seats: P9");

    let mut s = saved();
    s["tracks"]["ra"] = json!(11);
    assert_refused(&s, "tracks:");

    let mut s = saved();
    s["round"] = json!(0);
    assert_refused(&s, "tracks: game round 0");

    let mut s = saved();
    s["players"] = json!([]);
    assert_refused(&s, "players: 0 seats");
}

#[test]
fn two_figures_on_one_location_are_refused() {
    let mut s = saved();
    s["players"][1]["location"] = s["players"][0]["location"].clone();
    assert_refused(&s, "occupancy:");
}

#[test]
fn a_character_played_twice_is_refused() {
    let mut s = saved();
    s["players"][1]["character"] = s["players"][0]["character"].clone();
    assert_refused(&s, "characters: a character played by two seats");
}

#[test]
fn a_decision_for_the_wrong_seat_is_refused() {
    let mut s = saved();
    let seat = s["stage"]["seat"].as_u64().unwrap();
    s["stage"]["seat"] = json!((seat + 1) % 4);
    assert_refused(&s, "stage:");
}

/// Every leaf of `v`, as a JSON pointer.
fn leaves(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => m.iter().for_each(|(k, c)| leaves(c, format!("{at}/{k}"), out)),
        Value::Array(a) => a.iter().enumerate().for_each(|(i, c)| leaves(c, format!("{at}/{i}"), out)),
        _ => out.push(at),
    }
}

#[test]
fn reading_a_hostile_state_never_panics() {
    let hostile = [json!(0), json!(1), json!(4), json!(10), json!(11), json!(255), json!(-1), json!(null), json!("x")];
    let mut rng = GameRng::from_u64(9);
    for (players, steps) in [(3, 0), (4, 120), (5, 300), (6, 10_000)] {
        let base = serde_json::to_value(played(players, CharacterAssignment::Chosen, 2, steps)).unwrap();
        let mut paths = Vec::new();
        leaves(&base, String::new(), &mut paths);
        for _ in 0..400 {
            let mut s = base.clone();
            for _ in 0..1 + rng.below(3) {
                let path = &paths[rng.below(paths.len())];
                if let Some(slot) = s.pointer_mut(path) {
                    *slot = hostile[rng.below(hostile.len())].clone();
                }
            }
            // Accepted (the mutation kept every invariant) or refused: never a panic.
            let _ = serde_json::from_str::<RichardTheLionheart>(&s.to_string());
        }
    }
}
