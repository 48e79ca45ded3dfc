//! A state read from JSON is checked before use: crafted states that break an invariant are
//! refused with an error naming it, genuine states round-trip unchanged, and the bag cannot be
//! scripted from JSON.

use game_core::{state_hash, Game, GameRng, Seat, Seed};
use secret_treasures::{Options, SecretTreasures};
use serde_json::{json, Value};

/// A 3-player game after `steps` random actions.
fn game_after(players: usize, steps: usize) -> SecretTreasures {
    let mut g = SecretTreasures::setup(players, &Options::default(), Seed::from_u64(3)).expect("setup");
    let mut rng = GameRng::from_u64(3);
    for _ in 0..steps {
        let seat = *rng.choose(&g.to_act()).expect("someone acts");
        let action = *rng.choose(&g.legal_actions(seat)).expect("an action");
        g.apply(seat, &action).expect("legal");
    }
    g
}

/// The error reading `state` after `craft` changed its JSON.
fn refusal(g: &SecretTreasures, craft: impl FnOnce(&mut Value)) -> String {
    let mut value = serde_json::to_value(g).expect("states serialise");
    craft(&mut value);
    let json = serde_json::to_string(&value).expect("json");
    match serde_json::from_str::<SecretTreasures>(&json) {
        Ok(_) => panic!("a crafted state was accepted"),
        Err(e) => e.to_string(),
    }
}

fn assert_refused(g: &SecretTreasures, invariant: &str, craft: impl FnOnce(&mut Value)) {
    let error = refusal(g, craft);
    assert!(error.contains("invalid state") && error.contains(invariant), "expected {invariant:?}, got {error:?}");
}

#[test]
fn genuine_states_round_trip_byte_for_byte() {
    for (players, steps) in [(2, 0), (2, 150), (3, 40), (4, 300), (5, 90)] {
        let g = game_after(players, steps);
        assert_eq!(g.validate(), Ok(()));
        let json = serde_json::to_string(&g).expect("json");
        let back: SecretTreasures = serde_json::from_str(&json).expect("a genuine state reads back");
        assert_eq!(back, g);
        assert_eq!(serde_json::to_string(&back).expect("json"), json);
        assert_eq!(state_hash(&back), state_hash(&g));
    }
    let over = game_core::testing::random_playout::<SecretTreasures>(3, &Options::default(), 1, 50_000, false).game;
    let back: SecretTreasures = serde_json::from_str(&serde_json::to_string(&over).expect("json")).expect("reads");
    assert_eq!(back.outcome(), over.outcome());
}

#[test]
fn a_duplicated_card_is_refused() {
    let g = game_after(3, 60);
    assert_refused(&g, "P1's hand, pile and face-down card", |v| {
        let card = v["hands"][1][0].clone();
        v["hands"][1].as_array_mut().expect("a hand").push(card);
    });
    let two = game_after(2, 60);
    assert_refused(&two, "Raphael's deck and display", |v| {
        let card = v["raphael"]["deck"][0].clone();
        v["raphael"]["deck"].as_array_mut().expect("a deck").push(card);
    });
}

#[test]
fn a_missing_or_extra_piece_or_tile_is_refused() {
    let g = game_after(3, 60);
    assert!(g.reserve(Seat(0)).chalice > 0);
    assert_refused(&g, "P0 has 4 chalice valuables in all, not 5", |v| {
        v["reserves"][0]["chalice"] = json!(g.reserve(Seat(0)).chalice - 1);
    });
    assert_refused(&g, "book tiles in all, not 17", |v| {
        v["bag"].as_array_mut().expect("the bag").push(json!("book"));
    });
    assert_refused(&g, "chalice tiles in all", |v| v["removed"]["chalice"] = json!(255));
}

#[test]
fn out_of_range_indices_are_refused() {
    let g = game_after(4, 80);
    assert_refused(&g, "the door is on passage index 17", |v| v["door"] = json!(17));
    assert_refused(&g, "P2's token stands at Room(14)", |v| v["tokens"][2] = json!({"room": 14}));
    assert_refused(&g, "P1's token stands at Storehouse(7)", |v| v["tokens"][1] = json!({"storehouse": 7}));
    assert_refused(&g, "Severus stands in room Some(0)", |v| v["severus"] = json!(0));
    assert_refused(&g, "the phase waits for P9", |v| v["phase"] = json!({"phase": "place_severus", "seat": 9}));
    assert_refused(&g, "the player count is 7", |v| v["players"] = json!(7));
    assert_refused(&g, "hands has 3 entries for 4 seats", |v| {
        v["hands"].as_array_mut().expect("hands").pop();
    });
    assert_refused(&g, "there are 12 rooms", |v| {
        v["rooms"].as_array_mut().expect("rooms").pop();
    });
}

#[test]
fn a_phase_that_does_not_fit_the_state_is_refused() {
    let g = game_after(3, 60);
    assert_refused(&g, "the game is over exactly when no final turn is left", |v| {
        v["phase"] = json!({"phase": "over"})
    });
    assert_refused(&g, "has a face-down card outside round 1", |v| {
        let card = v["hands"][0][0].clone();
        v["hands"][0].as_array_mut().expect("a hand").remove(0);
        v["chosen"][0] = card;
    });
    assert_refused(&g, "the final turns and the end trigger disagree", |v| v["final_turns_left"] = json!(2));
}

#[test]
fn a_state_read_from_json_cannot_script_the_bag() {
    let g = game_after(3, 60);
    let mut value = serde_json::to_value(&g).expect("json");
    assert!(value.get("forced_draws").is_none(), "real games carry no draw script");
    value["forced_draws"] = json!(["chalice", "chalice", "chalice"]);
    let back: SecretTreasures = serde_json::from_value(value).expect("the unknown field is ignored");
    assert_eq!(back, g, "the script was not read");
}

/// Every leaf of `v` with its path.
fn leaves(v: &Value, path: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                path.push(json!(k));
                leaves(child, path, out);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                path.push(json!(i));
                leaves(child, path, out);
                path.pop();
            }
        }
        _ => out.push(path.clone()),
    }
}

fn slot<'a>(v: &'a mut Value, path: &[Value]) -> Option<&'a mut Value> {
    path.iter().try_fold(v, |v, key| match key {
        Value::String(k) => v.get_mut(k.as_str()),
        Value::Number(i) => v.get_mut(usize::try_from(i.as_u64()?).ok()?),
        _ => None,
    })
}

#[test]
fn no_hostile_value_anywhere_in_a_state_panics_the_reader_or_an_accepted_state() {
    let hostile =
        [json!(-1), json!(0), json!(1), json!(14), json!(255), json!(256), json!(u64::MAX), json!(""), json!(null)];
    let states = [game_after(2, 150), game_after(3, 12), game_after(5, 90)];
    let mut refused = 0;
    for g in &states {
        let value = serde_json::to_value(g).expect("json");
        let mut paths = Vec::new();
        leaves(&value, &mut Vec::new(), &mut paths);
        for path in &paths {
            for h in &hostile {
                let mut crafted = value.clone();
                let Some(leaf) = slot(&mut crafted, path) else { continue };
                *leaf = h.clone();
                let Ok(state) = serde_json::from_value::<SecretTreasures>(crafted) else {
                    refused += 1;
                    continue;
                };
                // Whatever is accepted is safe to play.
                for viewer in game_core::Viewer::all(state.players()) {
                    let _ = state.view(viewer);
                }
                for seat in state.to_act() {
                    let legal = state.legal_actions(seat);
                    let mut copy = state.clone();
                    copy.apply(seat, &legal[0]).expect("a listed action applies");
                }
            }
        }
    }
    assert!(refused > 1000, "only {refused} crafted states were refused");
}
