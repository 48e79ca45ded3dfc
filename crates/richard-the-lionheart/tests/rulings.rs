//! The §5 rulings without a scenario of their own in §8, and the edict table (§2.9).
#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use game_core::{Game, Seat};
use richard_the_lionheart::rules::{outcomes, purchase};
use richard_the_lionheart::score::{edict_points, victory_condition};
use richard_the_lionheart::state::Tracks;
use richard_the_lionheart::testing::{arrive, fixture, place_others, start_move, top};
use richard_the_lionheart::{Action, Card, Cards, Character, Choice, Edict, Location, Purchase, Side, Stage};
use Card::*;
use Character::*;
use Location::*;

#[test]
fn rul17_an_empty_provisions_deck_is_refilled_with_one_card_of_each_type_in_the_reserve() {
    let mut g = fixture(&[RobinHood, Sheriff]);
    g.provisions = vec![GC];
    g.reserve = cards(&[(RB, 2), (GH, 1)]);
    arrive(&mut g, A, Cambridge);
    play(&mut g, A, Action::Perform { choice: Choice::Plain });
    // 1 from the deck, then the refill batch {RB, GH}: 1 of it drawn, 1 left as the new deck.
    assert_eq!(g.player(A).hand.total(), 26);
    assert_eq!(g.player(A).hand.get(GC), 5);
    assert_eq!(g.provisions.len(), 1);
    assert_eq!(g.reserve, cards(&[(RB, 1)]));
    assert_eq!(g.player(A).coins, 8);
}

#[test]
fn rul17_draws_are_lost_when_the_reserve_is_empty_too() {
    let mut g = fixture(&[RobinHood, Sheriff]);
    g.provisions = vec![];
    g.reserve = Cards::default();
    arrive(&mut g, A, Cambridge);
    play(&mut g, A, Action::Perform { choice: Choice::Plain });
    assert_eq!((g.player(A).hand.total(), g.player(A).coins), (24, 8));
}

#[test]
fn rul18_a_missing_reserve_type_skips_the_take_and_cannot_be_bought() {
    let mut g = fixture(&[RobinHood, Sheriff]);
    g.reserve = cards(&[(RB, 0), (RC, 3), (GB, 3), (GC, 3), (RH, 3), (GH, 3)]);
    let d = top(&g, 3);
    arrive(&mut g, A, Canterbury);
    play(&mut g, A, Action::Perform { choice: Choice::Plain });
    // 3 GB paid; the RB take is skipped, the RC take happens.
    let mut expected = Cards::each(4);
    expected.0[GB.index()] = 1;
    expected.0[RC.index()] = 5;
    assert_eq!(g.player(A).hand, plus(expected, d));
    assert_eq!(g.reserve, cards(&[(RC, 2), (GB, 6), (GC, 3), (RH, 3), (GH, 3)]));
    let mut g = fixture(&[RobinHood, Sheriff]);
    g.reserve = cards(&[(RC, 3)]);
    purchase::start(&mut g);
    let buys: Vec<Action> = g
        .legal_actions(A)
        .into_iter()
        .filter(|a| matches!(a, Action::Buy { purchase: Purchase::SpecificCard { .. } }))
        .collect();
    assert_eq!(buys, vec![Action::Buy { purchase: Purchase::SpecificCard { card: RC } }]);
    rejected(&mut g, A, Action::Buy { purchase: Purchase::SpecificCard { card: GB } });
}

#[test]
fn rul18_the_outcomes_use_fewer_cards_when_the_crusade_deck_and_the_reserve_run_out() {
    let mut g = fixture(&[RobinHood, Sheriff, MaidMarion, PrinceJohn]);
    g.crusade = vec![GB, GB];
    g.reserve = cards(&[(RB, 1), (GH, 1)]);
    let before = all_cards(&g);
    outcomes::run(&mut g);
    // 2 + the batch {RB, GH}, then nothing more: 4 of the 8 cards are drawn. GB 2 vs RB 1: SA +1.
    assert_eq!((g.tracks.ra, g.tracks.sa, g.tracks.kr), (5, 6, 5));
    assert_eq!(g.crusade.len(), 0);
    assert_eq!(g.reserve, cards(&[(RB, 1), (GB, 2), (GH, 1)]), "the 4 revealed cards went back");
    assert_eq!(all_cards(&g), before);
}

#[test]
fn rul20_a_second_ship_or_skill_is_not_for_sale() {
    let mut g = fixture(&[RobinHood, Sheriff]);
    g.players[Seat(0)].coins = 20;
    g.players[Seat(0)].ship = true;
    g.players[Seat(0)].skill = true;
    purchase::start(&mut g);
    rejected(&mut g, A, Action::Buy { purchase: Purchase::Ship });
    rejected(&mut g, A, Action::Buy { purchase: Purchase::Skill });
    play(&mut g, A, Action::Buy { purchase: Purchase::Horse });
    assert!(g.player(A).horse);
}

#[test]
fn rul22_the_neutral_exchanges_its_edict_with_the_neutral_deck_at_nottingham() {
    let mut g = fixture(&[Marie, RobinHood, Sheriff, MaidMarion, Isabella]);
    g.players[Seat(0)].side = Side::Richard;
    g.players[Seat(0)].edict = Some(Edict::NE1);
    g.edicts.neutral = vec![Edict::NE2, Edict::NE5];
    let richard = g.edicts.richard.clone();
    arrive(&mut g, A, Nottingham);
    play(&mut g, A, Action::Perform { choice: Choice::Plain });
    assert_eq!(g.stage, Stage::KeepEdict { seat: A, drawn: Edict::NE5 });
    assert_eq!(
        g.legal_actions(A),
        vec![Action::KeepEdict { edict: Edict::NE1 }, Action::KeepEdict { edict: Edict::NE5 }]
    );
    play(&mut g, A, Action::KeepEdict { edict: Edict::NE1 });
    assert_eq!(g.player(A).edict, Some(Edict::NE1));
    assert_eq!(g.edicts.neutral, vec![Edict::NE5, Edict::NE2], "the drawn edict went to the bottom");
    assert_eq!(g.edicts.richard, richard);
    assert_eq!((g.player(A).prestige, g.player(A).coins), (1, 8));
}

#[test]
fn rul02_rul34_the_neutral_steals_from_its_enemies_only_and_is_robbed_by_its_enemies() {
    // Leopold sided with John passes Robin Hood (an enemy) and the Sheriff (an ally).
    let mut g = fixture(&[Leopold, RobinHood, Sheriff]);
    g.players[Seat(0)].side = Side::John;
    place_others(&mut g, &[(Seat(1), Cambridge), (Seat(2), Canterbury)]);
    start_move(&mut g, A, London);
    play(&mut g, A, Action::Step { to: Canterbury });
    assert!(!g.legal_actions(A).contains(&Action::Steal), "the Sheriff is Leopold's ally this round");
    let mut g = fixture(&[Leopold, RobinHood, Sheriff]);
    g.players[Seat(0)].side = Side::John;
    place_others(&mut g, &[(Seat(1), Cambridge), (Seat(2), Canterbury)]);
    start_move(&mut g, A, London);
    play(&mut g, A, Action::Step { to: Cambridge });
    assert!(g.legal_actions(A).contains(&Action::Steal), "Robin Hood is Leopold's enemy this round");
    // The Sheriff passing Leopold sided with Richard may rob him.
    let mut g = fixture(&[Sheriff, Leopold, RobinHood]);
    g.players[Seat(1)].side = Side::Richard;
    place_others(&mut g, &[(Seat(1), Cambridge)]);
    start_move(&mut g, A, London);
    play(&mut g, A, Action::Step { to: Cambridge });
    play(&mut g, A, Action::Steal);
    assert_eq!((g.player(A).hand.total(), g.player(Seat(1)).hand.total()), (25, 23));
}

#[test]
fn an_enemy_with_an_empty_hand_cannot_be_robbed() {
    let mut g = fixture(&[Sheriff, RobinHood]);
    g.players[Seat(1)].hand = Cards::default();
    place_others(&mut g, &[(Seat(1), Cambridge)]);
    start_move(&mut g, A, London);
    play(&mut g, A, Action::Step { to: Cambridge });
    assert!(!g.legal_actions(A).contains(&Action::Steal));
}

#[test]
fn bridgewater_4_6_with_an_empty_reserve_still_pays_the_point_and_asks_no_ally() {
    let mut g = fixture(&[RobinHood, MaidMarion, Sheriff, PrinceJohn]);
    g.reserve = Cards::default();
    arrive(&mut g, A, Bridgewater);
    assert_eq!(perform_choices(&g, A), vec![Choice::Plain]);
    play(&mut g, A, Action::Perform { choice: Choice::Plain });
    assert_eq!((g.player(A).coins, g.player(A).prestige), (5, 1));
    assert_eq!(g.stage, Stage::Place { seat: Seat(1) }, "no ally take: the next player travels");
}

const T: Tracks = Tracks { ra: 5, sa: 5, kr: 5, kt: 5 };

#[test]
fn edicts_score_their_printed_conditions_and_caps() {
    let mut p = fixture(&[RobinHood, Sheriff]).players[Seat(0)].clone();
    let at = |e: Edict, t: Tracks, p: &richard_the_lionheart::state::Player| edict_points(e, &t, p);
    assert_eq!(at(Edict::RE1, Tracks { ra: 7, ..T }, &p), 3);
    assert_eq!(at(Edict::RE1, Tracks { ra: 6, ..T }, &p), 0);
    assert_eq!(at(Edict::RE2, Tracks { kr: 3, ..T }, &p), 3);
    assert_eq!(at(Edict::RE2, Tracks { kr: 4, ..T }, &p), 0);
    assert_eq!(at(Edict::RE3, Tracks { kt: 5, ..T }, &p), 3);
    assert_eq!(at(Edict::RE3, Tracks { kt: 4, ..T }, &p), 0);
    assert_eq!(at(Edict::RE4, Tracks { sa: 3, ..T }, &p), 3);
    assert_eq!(at(Edict::RE4, Tracks { sa: 4, ..T }, &p), 0);
    assert_eq!(at(Edict::JE1, Tracks { sa: 7, ..T }, &p), 3);
    assert_eq!(at(Edict::JE1, Tracks { sa: 6, ..T }, &p), 0);
    assert_eq!(at(Edict::JE2, Tracks { kr: 5, ..T }, &p), 3);
    assert_eq!(at(Edict::JE2, Tracks { kr: 4, ..T }, &p), 0);
    assert_eq!(at(Edict::JE3, Tracks { kt: 3, ..T }, &p), 3);
    assert_eq!(at(Edict::JE3, Tracks { kt: 4, ..T }, &p), 0);
    assert_eq!(at(Edict::JE4, Tracks { ra: 3, ..T }, &p), 3);
    assert_eq!(at(Edict::JE4, Tracks { ra: 4, ..T }, &p), 0);
    assert_eq!(at(Edict::NE1, Tracks { ra: 7, sa: 5, ..T }, &p), 2);
    assert_eq!(at(Edict::NE1, Tracks { ra: 2, sa: 5, ..T }, &p), 0);
    assert_eq!(at(Edict::NE2, Tracks { kr: 5, ..T }, &p), 2);
    assert_eq!(at(Edict::NE2, Tracks { kr: 4, ..T }, &p), 0);
    assert_eq!(at(Edict::NE3, Tracks { kt: 5, ..T }, &p), 2);
    assert_eq!(at(Edict::NE3, Tracks { kt: 4, ..T }, &p), 0);
    // Hand-based edicts: 1 per card of the colour up to 4; 1 per 3 cards up to 3.
    p.hand = cards(&[(RB, 1), (RC, 2), (GB, 5)]);
    assert_eq!((at(Edict::RE5, T, &p), at(Edict::JE5, T, &p), at(Edict::NE5, T, &p)), (3, 4, 2));
    p.hand = Cards::each(4);
    assert_eq!((at(Edict::RE5, T, &p), at(Edict::JE5, T, &p), at(Edict::NE5, T, &p)), (4, 4, 3));
    p.hand = cards(&[(GH, 2)]);
    assert_eq!((at(Edict::RE5, T, &p), at(Edict::JE5, T, &p), at(Edict::NE5, T, &p)), (0, 2, 0));
    // Envoy of Europe: both upgrades to score, either to meet the Victory Condition.
    p.horse = true;
    assert_eq!(at(Edict::NE4, T, &p), 0);
    assert!(victory_condition(Edict::NE4, &T, &p));
    p.ship = true;
    assert_eq!(at(Edict::NE4, T, &p), 2);
    p.horse = false;
    p.ship = false;
    assert!(!victory_condition(Edict::NE4, &T, &p));
}

#[test]
fn neutral_victory_conditions_follow_the_table() {
    let mut p = fixture(&[Leopold, RobinHood, Sheriff]).players[Seat(0)].clone();
    assert!(victory_condition(Edict::NE1, &Tracks { ra: 8, sa: 5, ..T }, &p));
    assert!(!victory_condition(Edict::NE1, &Tracks { ra: 9, sa: 5, ..T }, &p));
    assert!(victory_condition(Edict::NE2, &Tracks { kr: 3, ..T }, &p));
    assert!(!victory_condition(Edict::NE2, &Tracks { kr: 2, ..T }, &p));
    assert!(victory_condition(Edict::NE3, &Tracks { kt: 3, ..T }, &p));
    assert!(!victory_condition(Edict::NE3, &Tracks { kt: 2, ..T }, &p));
    assert!(victory_condition(Edict::NE5, &T, &p), "4 of each type");
    p.hand = cards(&[(RB, 9), (RH, 1), (RC, 1), (GB, 1), (GH, 1)]);
    assert!(!victory_condition(Edict::NE5, &T, &p), "no GC");
    assert!(!victory_condition(Edict::RE1, &Tracks { ra: 10, ..T }, &p), "only Neutral edicts have one");
}
