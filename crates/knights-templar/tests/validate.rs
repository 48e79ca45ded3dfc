//! A state read from JSON is validated before use: crafted states that break an invariant are
//! refused with the invariant named, and genuine states round-trip byte for byte.

use game_core::testing::random_playout;
use game_core::{Game, GameRng, Seed};
use knights_templar::{KnightsTemplar, Options};
use serde_json::{json, Value};

/// A state of `players` after `steps` random actions (fewer if the game ends first).
fn state_after(players: usize, seed: u64, steps: usize) -> KnightsTemplar {
    let mut g = KnightsTemplar::setup(players, &Options::default(), Seed::from_u64(seed)).expect("setup");
    let mut rng = GameRng::from_u64(seed);
    for _ in 0..steps {
        let Some(seat) = rng.choose(&g.to_act()).copied() else { break };
        let action = *rng.choose(&g.legal_actions(seat)).expect("a waited-for seat has an action");
        g.apply(seat, &action).expect("legal");
    }
    g
}

fn json_of(g: &KnightsTemplar) -> Value {
    serde_json::to_value(g).expect("states serialise")
}

/// The error `serde_json::from_str` gives for `state`, which must be refused.
fn refusal(state: &Value) -> String {
    match serde_json::from_str::<KnightsTemplar>(&state.to_string()) {
        Ok(_) => panic!("a crafted state was accepted: {state}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn genuine_states_round_trip_byte_for_byte() {
    for players in 2..=8 {
        let finished = random_playout::<KnightsTemplar>(players, &Options::default(), 3, 5_000, false).game;
        for g in [state_after(players, 1, 0), state_after(players, 2, 9), finished] {
            let text = serde_json::to_string(&g).expect("serialise");
            let back: KnightsTemplar = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{players}: {e}"));
            assert_eq!(back, g);
            assert_eq!(serde_json::to_string(&back).expect("serialise"), text, "the same bytes");
        }
    }
}

#[test]
fn a_duplicated_or_missing_card_is_refused_naming_conservation() {
    let state = json_of(&state_after(4, 5, 3));
    let mut duplicated = state.clone();
    duplicated["deck"][0] = duplicated["deck"][1].clone();
    let err = refusal(&duplicated);
    assert!(err.contains("I1 conservation") && err.contains("in 2 places"), "{err}");

    let mut missing = state.clone();
    missing["deck"].as_array_mut().expect("deck").remove(0);
    let err = refusal(&missing);
    assert!(err.contains("I1 conservation") && err.contains("in 0 places"), "{err}");

    for bad in [0, 96, 255] {
        let mut unknown = state.clone();
        unknown["deck"][0] = json!(bad);
        let err = refusal(&unknown);
        assert!(err.contains("I1 conservation") && err.contains("not a card id"), "{bad}: {err}");
    }
}

#[test]
fn a_card_in_the_wrong_zone_is_refused_naming_the_tableau_rule() {
    let mut state = json_of(&state_after(3, 7, 0));
    // Move an Enemy from the deck into P0's tableau: every card is still in one place.
    let deck = state["deck"].as_array_mut().expect("deck");
    let at = deck.iter().position(|c| *c == json!(75)).expect("Turks (75) is in the deck at setup");
    let turks = deck.remove(at);
    state["tableaus"][0].as_array_mut().expect("tableau").push(turks);
    let err = refusal(&state);
    assert!(err.contains("I2 tableau types") && err.contains("Turks"), "{err}");
}

#[test]
fn out_of_range_seats_and_counts_are_refused() {
    let state = json_of(&state_after(3, 11, 4));
    let cases: [(&str, Value, &str); 6] = [
        ("gm", json!(3), "seats: the Grand Master is P3"),
        ("players", json!(9), "seats: 9 players"),
        ("county_vp", json!([0, 0]), "seats: 2 County VP for 3 players"),
        ("turn", json!(0), "I13 turns"),
        ("county_vp", json!([40, 0, 0]), "I8 County VP"),
        ("picked", json!([0, 0]), "a player in Picked twice"),
    ];
    for (field, value, named) in cases {
        let mut crafted = state.clone();
        crafted[field] = value;
        let err = refusal(&crafted);
        assert!(err.contains(named), "{field}: {err}");
    }
}

#[test]
fn a_decision_point_that_does_not_fit_the_phase_is_refused() {
    let state = json_of(&state_after(4, 13, 2));
    let mut over_but_running = state.clone();
    over_but_running["pending"] = json!({"kind": "over"});
    assert!(refusal(&over_but_running).contains("decision point: the pending decision and the end disagree"));

    let mut resolving = state.clone();
    resolving["pending"] = json!({"kind": "resolving"});
    assert!(refusal(&resolving).contains("decision point: a resolution never lasts between two actions"));

    let mut ended = state.clone();
    ended["end"] = json!("deck_empty");
    assert!(refusal(&ended).contains("decision point"));
}

#[test]
fn hostile_values_anywhere_in_a_state_are_refused_or_read_without_a_panic() {
    let state = json_of(&state_after(5, 17, 6));
    let mut paths = Vec::new();
    leaves(&state, &mut Vec::new(), &mut paths);
    let mut refused = 0;
    for path in &paths {
        for hostile in [json!(0), json!(7), json!(200), json!(u32::MAX), json!(u64::MAX), json!(-1), json!(null)] {
            let mut crafted = state.clone();
            let slot = path.iter().try_fold(&mut crafted, |v, key| match key {
                Key::Field(k) => v.get_mut(k.as_str()),
                Key::Index(i) => v.get_mut(*i),
            });
            if let Some(slot) = slot {
                *slot = hostile;
            }
            match serde_json::from_str::<KnightsTemplar>(&crafted.to_string()) {
                Ok(g) => assert!(g.validate().is_ok()),
                Err(_) => refused += 1,
            }
        }
    }
    assert!(refused > paths.len(), "most hostile values are refused ({refused} of {})", paths.len() * 7);
}

#[derive(Clone)]
enum Key {
    Field(String),
    Index(usize),
}

fn leaves(v: &Value, prefix: &mut Vec<Key>, out: &mut Vec<Vec<Key>>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                prefix.push(Key::Field(k.clone()));
                leaves(child, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                prefix.push(Key::Index(i));
                leaves(child, prefix, out);
                prefix.pop();
            }
        }
        _ => out.push(prefix.clone()),
    }
}
