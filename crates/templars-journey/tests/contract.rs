//! The generic `game-core` harness for 3, 4 and 5 players: the contract at every decision
//! point, and thousands of complete random games per player count.

use game_core::testing::{check_contract, check_playouts};
use templars_journey::{Options, TemplarsJourney};

const MAX_STEPS: usize = 3_000;

#[test]
fn the_contract_holds_for_3_players() {
    check_contract::<TemplarsJourney>(3, &Options::default(), 50, MAX_STEPS);
}

#[test]
fn the_contract_holds_for_4_players() {
    check_contract::<TemplarsJourney>(4, &Options::default(), 50, MAX_STEPS);
}

#[test]
fn the_contract_holds_for_5_players() {
    check_contract::<TemplarsJourney>(5, &Options::default(), 50, MAX_STEPS);
}

#[test]
fn two_thousand_random_games_end_for_each_player_count() {
    for players in 3..=5 {
        let summary = check_playouts::<TemplarsJourney>(players, &Options::default(), 2_000, MAX_STEPS);
        assert_eq!(summary.games, 2_000);
        assert!(summary.score_range.1 > 0, "{players} players: somebody scores");
        println!("{players} players: {summary:?}");
    }
}

use game_core::dynamic::Wrapped;
use game_core::{DynGame, Game, GameRng, Seat, SeatNames, Seed, Viewer};
use serde_json::json;
use templars_journey::action::Action;
use templars_journey::board::Mission;

fn play_until<F: Fn(&TemplarsJourney) -> bool>(seed: u64, players: usize, stop: F) -> TemplarsJourney {
    let mut g = TemplarsJourney::setup(players, &Options::default(), Seed::from_u64(seed)).expect("setup");
    let mut rng = GameRng::from_u64(seed);
    while !stop(&g) && g.outcome().is_none() {
        let to_act = g.to_act();
        let seat = *rng.choose(&to_act).expect("a seat");
        let action = rng.choose(&g.legal_actions(seat)).expect("an action").clone();
        g.apply(seat, &action).expect("legal");
    }
    g
}

#[test]
fn malformed_or_illegal_input_is_rejected_with_a_typed_error_and_no_change() {
    for seed in 0..20 {
        let g = play_until(seed, 4, |g| g.card_phases >= (seed % 10) as u32);
        let mut wrapped = Wrapped(g.clone());
        let before = wrapped.state_hash();
        let names = SeatNames::generic(4);
        let junk = [
            json!({"type": "pass_leader", "to": 200}),
            json!({"type": "pass_leader", "to": -1}),
            json!({"type": "choose_card", "card": 0}),
            json!({"type": "choose_card", "card": 255}),
            json!({"type": "choose_card", "card": 7}),
            json!({"type": "choose_card", "card": 1, "extra": true}),
            json!({"type": "place_knight", "city": "XYZ"}),
            json!({"type": "remove_knight", "city": "ROM", "owner": 99}),
            json!({"type": "exchange_knight", "city": "VEN", "owner": 3}),
            json!({"type": "move_pope", "to": "L9G1"}),
            json!({"type": "move_pope", "to": "Lé1"}),
            json!({"type": "move_pope", "to": "L1\u{1F600}"}),
            json!({"type": "choose_card", "card": 1.5}),
            json!({"type": "pass_leader", "to": 70000}),
            json!({"type": "move_pope", "to": "H1"}),
            json!({"type": "move_templar", "to": "ATLANTIS"}),
            json!({"type": "take_gold", "territory": "NAP"}),
            json!({"type": "exchange_edict", "with": "WIE"}),
            json!({"type": "veto"}),
            json!({"type": "new_chance"}),
            json!({"type": "sacrifice"}),
            json!({"type": 5}),
            json!([]),
            json!("toss"),
        ];
        for seat in 0..6u8 {
            for action in &junk {
                let legal = wrapped.legal_actions(Seat(seat));
                if legal.contains(action) {
                    continue;
                }
                assert!(wrapped.apply(Seat(seat), action, &names).is_err(), "{action} by {seat} accepted");
                assert_eq!(wrapped.state_hash(), before, "a rejected action changed the state");
            }
        }
        assert!(g.legal_actions(Seat(200)).is_empty());
        assert!(g.clone().apply(Seat(200), &Action::Toss).is_err());
    }
}

#[test]
fn no_player_or_spectator_sees_another_players_mission_or_hidden_card() {
    for seed in 0..30 {
        // Stop in the middle of a card choice with at least one card chosen.
        let g = play_until(
            seed,
            5,
            |g| matches!(&g.step, templars_journey::state::Step::ChooseCards { chosen } if chosen.0.iter().any(Option::is_some)),
        );
        let templars_journey::state::Step::ChooseCards { chosen } = &g.step else { continue };
        for viewer in Viewer::all(5) {
            let view = g.view(viewer);
            let text = serde_json::to_string(&view).expect("views serialise");
            let mut visible: Vec<Mission> = g.face_up_missions.clone();
            if let Viewer::Seat(s) = viewer {
                visible.push(g.players[s].mission);
                assert_eq!(view.my_card, chosen.0[s.index()]);
            } else {
                assert_eq!(view.my_card, None);
            }
            for m in Mission::ALL {
                let shown = text.contains(&format!("\"{m:?}\""));
                assert_eq!(shown, visible.contains(&m), "seed {seed}: {viewer:?} and mission {m:?}");
            }
            assert!(!text.contains("rng") && !text.contains("boxed"), "seed {seed}: secret fields leaked");
            for (_, p) in view.players.iter() {
                assert_eq!(p.has_chosen_card, Some(chosen.0[p.seat.index()].is_some()));
            }
        }
    }
}

#[test]
fn odd_strings_and_numbers_in_every_field_are_rejected_without_a_panic() {
    let g = play_until(3, 3, |g| g.card_phases >= 2);
    let mut wrapped = Wrapped(g);
    let before = wrapped.state_hash();
    let names = SeatNames::generic(3);
    let strings = ["", "é", "Lé1", "L1é", "Sé", "Hé", "ÿÿÿÿ", "L1G1\u{0}", "\u{1F600}\u{1F600}", "s1", "l1g1", "LON "];
    let numbers = [json!(-1), json!(256), json!(1e9), json!(0.5), json!("1"), json!(null)];
    let mut actions = Vec::new();
    for s in strings {
        for (kind, field) in [
            ("move_pope", "to"),
            ("place_knight", "city"),
            ("setup_templar", "territory"),
            ("take_gold", "territory"),
            ("exchange_edict", "with"),
            ("move_templar", "to"),
        ] {
            actions.push(json!({"type": kind, field: s}));
        }
        actions.push(json!({"type": s}));
    }
    for n in numbers {
        actions.push(json!({"type": "choose_card", "card": n.clone()}));
        actions.push(json!({"type": "remove_knight", "city": "ROM", "owner": n.clone()}));
        actions.push(json!({"type": "pass_leader", "to": n}));
    }
    for seat in 0..4u8 {
        for action in &actions {
            assert!(wrapped.apply(Seat(seat), action, &names).is_err(), "{action} by {seat} accepted");
            assert_eq!(wrapped.state_hash(), before);
        }
    }
}
