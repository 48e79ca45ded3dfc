//! A state read from JSON is validated before use: a genuine state round-trips byte for byte,
//! a crafted one is refused with the broken invariant named, and no stored number, however
//! odd, makes reading or then playing the state panic.

use game_core::testing::random_playout;
use game_core::{Game, Viewer};
use serde_json::Value;
use templars_journey::state::Step;
use templars_journey::{Options, TemplarsJourney};

/// The state of a random 4-player game after `actions` actions (or at its end).
fn state_after(seed: u64, actions: usize) -> TemplarsJourney {
    let p = random_playout::<TemplarsJourney>(4, &Options::default(), seed, 3_000, false);
    let mut g = game_core::testing::setup::<TemplarsJourney>(4, &Options::default(), seed);
    for (seat, action) in p.actions.iter().take(actions) {
        g.apply(*seat, action).expect("a recorded action applies");
    }
    g
}

fn refused(state: &Value, invariant: &str) {
    let text = serde_json::to_string(state).expect("JSON values serialise");
    match serde_json::from_str::<TemplarsJourney>(&text) {
        Ok(_) => panic!("a state breaking {invariant:?} was accepted"),
        Err(e) => assert!(e.to_string().contains(invariant), "refused for another reason than {invariant:?}: {e}"),
    }
}

#[test]
fn a_genuine_state_round_trips_byte_for_byte() {
    for actions in [0, 40, 120, usize::MAX] {
        let g = state_after(3, actions);
        let text = serde_json::to_string(&g).expect("states serialise");
        let back: TemplarsJourney = serde_json::from_str(&text).expect("a genuine state is accepted");
        assert_eq!(back, g);
        assert_eq!(serde_json::to_string(&back).expect("states serialise"), text);
    }
}

#[test]
fn crafted_states_are_refused_naming_the_broken_invariant() {
    let g = state_after(5, 60);
    assert!(g.outcome().is_none() && g.card_phases > 0, "the sample state is in play");
    let genuine = serde_json::to_value(&g).expect("states serialise");

    // A knight goes missing from a supply.
    let mut v = genuine.clone();
    let supply = v["players"][1]["supply"].as_u64().expect("a supply");
    v["players"][1]["supply"] = (supply + 1).into();
    refused(&v, "INV-1 knights");

    // An edict on the track is also won by a player: duplicated.
    let mut v = genuine.clone();
    let e7 = v["edict_spaces"][6].clone();
    v["players"][0]["edicts"].as_array_mut().expect("edicts").push(e7);
    refused(&v, "INV-6 edicts");

    // A tile on the board is also in the box.
    let mut v = genuine.clone();
    let tile = v["cities"].as_array().expect("cities").iter().find_map(|c| c["tile"].as_str()).expect("a tile").into();
    v["boxed_tiles"].as_array_mut().expect("boxed tiles").push(tile);
    refused(&v, "INV-7 tiles");

    // A player's mission is also in the box.
    let mut v = genuine.clone();
    v["boxed_missions"][0] = v["players"][2]["mission"].clone();
    refused(&v, "missions");

    // Out of range: the first-player marker on seat 9 of 4, a city table one short.
    let mut v = genuine.clone();
    v["first"] = 9.into();
    refused(&v, "first player");
    let mut v = genuine.clone();
    v["cities"].as_array_mut().expect("cities").pop();
    refused(&v, "cities: 8 entries");

    // A decision point that does not fit the phase: the Leader chain at a player without the marker.
    let flag_step = (0..)
        .map(|actions| state_after(5, actions))
        .find(|g| g.card_phases > 0 && matches!(g.step, Step::GreenFlag | Step::RedFlag))
        .expect("a flag step after a card phase");
    let mut v = serde_json::to_value(&flag_step).expect("states serialise");
    let other = (v["first"].as_u64().expect("a seat") + 1) % 4;
    v["step"] = serde_json::json!({"step": "leader", "holder": other, "received": true});
    refused(&v, "Leader favour");
}

/// Every numeric leaf of the JSON value, as a JSON pointer.
fn numbers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Number(_) => out.push(at),
        Value::Array(items) => items.iter().enumerate().for_each(|(i, x)| numbers(x, format!("{at}/{i}"), out)),
        Value::Object(map) => map.iter().for_each(|(k, x)| numbers(x, format!("{at}/{k}"), out)),
        _ => {}
    }
}

#[test]
fn odd_numbers_anywhere_in_a_stored_state_never_panic() {
    let odd: [Value; 7] = [0.into(), 1.into(), 3.into(), 20.into(), 255.into(), u32::MAX.into(), (-1).into()];
    let (mut accepted, mut tried) = (0, 0);
    for actions in [0, 12, 35, 90, usize::MAX] {
        let genuine = serde_json::to_value(state_after(7, actions)).expect("states serialise");
        let mut leaves = Vec::new();
        numbers(&genuine, String::new(), &mut leaves);
        for leaf in &leaves {
            for value in &odd {
                let mut v = genuine.clone();
                if let Some(slot) = v.pointer_mut(leaf) {
                    *slot = value.clone();
                }
                tried += 1;
                let Ok(mut g) = serde_json::from_value::<TemplarsJourney>(v) else { continue };
                accepted += 1;
                // Whatever is accepted can be played.
                for viewer in Viewer::all(g.players()) {
                    let _ = g.view(viewer);
                }
                let _ = g.outcome();
                if let Some(&seat) = g.to_act().first() {
                    if let Some(action) = g.legal_actions(seat).first().cloned() {
                        g.apply(seat, &action).expect("a listed action applies");
                    }
                }
            }
        }
    }
    println!("{accepted} of {tried} mutated states accepted");
    assert!(accepted > 0 && accepted < tried, "{accepted} of {tried} mutated states accepted");
}
