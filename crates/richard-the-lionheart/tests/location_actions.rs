//! Scenario checks LA01–LA32: every location action in its 2–3 and 4–6 player version (spec §8.2).
#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use game_core::{Game, Seat};
use richard_the_lionheart::testing::{arrive, fixture, top};
use richard_the_lionheart::{
    Action, Card, Cards, Character, Choice, Edict, Location, RichardTheLionheart, Side, Stage, Track,
};
use Card::*;
use Character::*;
use Location::*;

fn big() -> RichardTheLionheart {
    fixture(&[RobinHood, MaidMarion, Sheriff, PrinceJohn])
}

fn small() -> RichardTheLionheart {
    fixture(&[RobinHood, Sheriff])
}

fn small_john() -> RichardTheLionheart {
    fixture(&[Sheriff, RobinHood])
}

/// Performs `choice` at `loc` as seat 0 and returns the game and the cards the draws gave.
fn perform(mut g: RichardTheLionheart, loc: Location, choice: Choice, draws: usize) -> (RichardTheLionheart, Cards) {
    let drawn = top(&g, draws);
    arrive(&mut g, A, loc);
    play(&mut g, A, Action::Perform { choice });
    (g, drawn)
}

/// Performs the action at `loc` (Bridgewater 2–3p, Gloucester, Salisbury, York): a coin and a
/// draw, then — having seen the card drawn — the choice of `card` (D2.4b).
fn perform_then_take(mut g: RichardTheLionheart, loc: Location, card: Card) -> (RichardTheLionheart, Cards) {
    let drawn = top(&g, 1);
    arrive(&mut g, A, loc);
    assert_eq!(perform_choices(&g, A), vec![Choice::Plain], "the type is not chosen before the draw");
    play(&mut g, A, Action::Perform { choice: Choice::Plain });
    assert_eq!(g.stage, Stage::TakeChoice { seat: A });
    assert_eq!(g.player(A).hand, plus(Cards::each(4), drawn), "the card is drawn before the choice");
    assert_eq!(g.player(A).coins, 7);
    let [x, y] = richard_the_lionheart::rules::location::pair(loc);
    assert_eq!(g.legal_actions(A), vec![Action::TakeCard { card: x }, Action::TakeCard { card: y }]);
    play(&mut g, A, Action::TakeCard { card });
    (g, drawn)
}

fn hand(list: &[(Card, u8)]) -> Cards {
    let mut c = Cards::each(4);
    for (t, n) in list {
        c.0[t.index()] = *n;
    }
    c
}

fn reserve(list: &[(Card, u8)]) -> Cards {
    let mut c = Cards::each(20);
    for (t, n) in list {
        c.0[t.index()] = *n;
    }
    c
}

fn not_offered(mut g: RichardTheLionheart, loc: Location) {
    arrive(&mut g, A, loc);
    assert!(perform_choices(&g, A).is_empty(), "{loc:?} should not be offered");
    assert_ne!(g.stage, Stage::LocationAction { seat: A });
}

#[test]
fn bridgewater_4_6_gives_the_richard_player_a_point_and_a_card_and_each_ally_a_card() {
    let mut g = big();
    arrive(&mut g, A, Bridgewater);
    play(&mut g, A, Action::Perform { choice: Choice::Take { card: GH } });
    assert_eq!(g.stage, Stage::AllyTake { active: A, pending: vec![Seat(1)] });
    play(&mut g, Seat(1), Action::TakeCard { card: RB });
    let a = g.player(A);
    assert_eq!((a.coins, a.prestige, a.hand), (5, 1, hand(&[(GH, 5)])));
    assert_eq!(g.player(Seat(1)).hand, hand(&[(RB, 5)]));
    assert_eq!(g.reserve, reserve(&[(GH, 19), (RB, 19)]));
    assert!(!matches!(g.stage, Stage::AllyTake { .. }), "John players are not asked");
    assert_eq!(g.player(Seat(2)).hand, Cards::each(4));
}

#[test]
fn bridgewater_4_6_is_not_offered_to_john_or_to_a_richard_player_without_coins() {
    not_offered(fixture(&[PrinceJohn, RobinHood, Sheriff, MaidMarion]), Bridgewater);
    let mut g = big();
    g.players[Seat(0)].coins = 0;
    not_offered(g, Bridgewater);
}

#[test]
fn bridgewater_2_3_gives_a_coin_a_draw_and_a_chosen_banner() {
    let (g, d) = perform_then_take(small(), Bridgewater, GB);
    let a = g.player(A);
    assert_eq!(a.coins, 7);
    assert_eq!(a.hand, plus(hand(&[(GB, 5)]), d));
    assert_eq!(g.reserve, reserve(&[(GB, 19)]));
    assert_ne!(g.stage, Stage::TakeChoice { seat: A });
}

#[test]
fn a_take_the_reserve_cannot_provide_is_not_offered_and_with_neither_type_it_is_skipped() {
    let mut g = small();
    g.reserve = reserve(&[(RB, 0)]);
    arrive(&mut g, A, Gloucester);
    play(&mut g, A, Action::Perform { choice: Choice::Plain });
    assert_eq!(g.legal_actions(A), vec![Action::TakeCard { card: GB }]);
    let mut g = small();
    g.reserve = reserve(&[(RC, 0), (GC, 0)]);
    arrive(&mut g, A, Salisbury);
    play(&mut g, A, Action::Perform { choice: Choice::Plain });
    assert_ne!(g.stage, Stage::TakeChoice { seat: A });
    assert_eq!((g.player(A).coins, g.player(A).hand.total()), (7, 25));
}

#[test]
fn bridgewater_2_3_is_not_offered_to_john() {
    not_offered(small_john(), Bridgewater);
}

#[test]
fn bristol_4_6_trades_four_of_a_kind_for_points_coins_and_cards() {
    let (g, d) = perform(big(), Bristol, Choice::Return { card: RH }, 2);
    let a = g.player(A);
    assert_eq!(a.hand, plus(hand(&[(RH, 0)]), d));
    assert_eq!(g.reserve, reserve(&[(RH, 24)]));
    assert_eq!((a.prestige, a.coins), (3, 9));
}

#[test]
fn bristol_4_6_is_not_offered_without_four_of_a_kind() {
    let mut g = big();
    g.players[Seat(0)].hand = Cards::each(3);
    not_offered(g, Bristol);
}

#[test]
fn bristol_2_3_buys_an_army_space_for_six_coins() {
    let (g, _) = perform(small(), Bristol, Choice::Track { track: Track::SA }, 0);
    assert_eq!((g.player(A).coins, g.tracks.sa), (0, 6));
    let mut poor = small();
    poor.players[Seat(0)].coins = 5;
    not_offered(poor, Bristol);
    let mut full = small();
    full.tracks.ra = 10;
    let (g, _) = perform(full, Bristol, Choice::Track { track: Track::RA }, 0);
    assert_eq!((g.player(A).coins, g.tracks.ra), (0, 10));
}

#[test]
fn cambridge_gives_two_coins_and_two_cards_on_both_boards() {
    for g in [big(), small()] {
        let (g, d) = perform(g, Cambridge, Choice::Plain, 2);
        assert_eq!(g.player(A).coins, 8);
        assert_eq!(g.player(A).hand, plus(Cards::each(4), d));
    }
}

#[test]
fn canterbury_4_6_trades_two_green_banners() {
    let (g, d) = perform(big(), Canterbury, Choice::Plain, 2);
    assert_eq!(g.player(A).hand, plus(hand(&[(GB, 2), (RB, 5), (RC, 5)]), d));
    assert_eq!(g.reserve, reserve(&[(GB, 22), (RB, 19), (RC, 19)]));
    assert_eq!(g.player(A).prestige, 1);
}

#[test]
fn canterbury_2_3_trades_three_green_banners() {
    let (g, d) = perform(small(), Canterbury, Choice::Plain, 3);
    assert_eq!(g.player(A).hand, plus(hand(&[(GB, 1), (RB, 5), (RC, 5)]), d));
    assert_eq!(g.reserve, reserve(&[(GB, 23), (RB, 19), (RC, 19)]));
    assert_eq!(g.player(A).prestige, 0);
}

#[test]
fn cardiff_4_6_pays_points_and_coins() {
    let (g, _) = perform(big(), Cardiff, Choice::Plain, 0);
    assert_eq!(g.player(A).hand, hand(&[(GH, 2), (GC, 2)]));
    assert_eq!(g.reserve, reserve(&[(GH, 22), (GC, 22)]));
    assert_eq!((g.player(A).prestige, g.player(A).coins), (2, 9));
}

#[test]
fn cardiff_2_3_pays_cards_and_coins() {
    let (g, d) = perform(small(), Cardiff, Choice::Plain, 3);
    assert_eq!(g.player(A).hand, plus(hand(&[(GH, 2), (GC, 2)]), d));
    assert_eq!((g.player(A).prestige, g.player(A).coins), (0, 9));
}

#[test]
fn chester_4_6_trades_two_red_banners() {
    let (g, d) = perform(big(), Chester, Choice::Plain, 2);
    assert_eq!(g.player(A).hand, plus(hand(&[(RB, 2), (GB, 5), (GC, 5)]), d));
    assert_eq!(g.reserve, reserve(&[(RB, 22), (GB, 19), (GC, 19)]));
    assert_eq!(g.player(A).prestige, 1);
}

#[test]
fn chester_2_3_trades_three_red_banners() {
    let (g, d) = perform(small(), Chester, Choice::Plain, 3);
    assert_eq!(g.player(A).hand, plus(hand(&[(RB, 1), (GB, 5), (GC, 5)]), d));
    assert_eq!(g.reserve, reserve(&[(RB, 23), (GB, 19), (GC, 19)]));
}

#[test]
fn gloucester_gives_a_coin_a_card_and_a_banner_and_isabella_both_banners() {
    for g in [big(), small()] {
        let (g, d) = perform_then_take(g, Gloucester, RB);
        assert_eq!(g.player(A).coins, 7);
        assert_eq!(g.player(A).hand, plus(hand(&[(RB, 5)]), d));
        assert_eq!(g.reserve, reserve(&[(RB, 19)]));
    }
    let isabella = fixture(&[Isabella, RobinHood]);
    let mut probe = isabella.clone();
    arrive(&mut probe, A, Gloucester);
    assert_eq!(perform_choices(&probe, A), vec![Choice::Plain]);
    let (g, d) = perform(isabella, Gloucester, Choice::Plain, 1);
    assert_eq!(g.player(A).hand, plus(hand(&[(RB, 5), (GB, 5)]), d));
    assert_eq!(g.reserve, reserve(&[(RB, 19), (GB, 19)]));
    assert_eq!(g.player(A).coins, 7);
    assert_ne!(g.stage, Stage::TakeChoice { seat: A }, "Heiress: no choice");
    for loc in [Salisbury, York] {
        let (g, d) = perform(fixture(&[Isabella, RobinHood]), loc, Choice::Plain, 1);
        let [x, y] = richard_the_lionheart::rules::location::pair(loc);
        assert_eq!(g.player(A).hand, plus(hand(&[(x, 5), (y, 5)]), d));
    }
}

#[test]
fn grimsby_4_6_gives_the_john_player_a_point_and_a_card_and_each_john_ally_a_card() {
    let mut g = fixture(&[PrinceJohn, RobinHood, Sheriff, MaidMarion, Marie]);
    g.players[Seat(4)].side = Side::John;
    arrive(&mut g, A, Grimsby);
    play(&mut g, A, Action::Perform { choice: Choice::Take { card: RC } });
    assert_eq!(g.stage, Stage::AllyTake { active: A, pending: vec![Seat(2), Seat(4)] });
    play(&mut g, Seat(2), Action::Decline);
    play(&mut g, Seat(4), Action::TakeCard { card: GB });
    let a = g.player(A);
    assert_eq!((a.coins, a.prestige, a.hand), (5, 1, hand(&[(RC, 5)])));
    assert_eq!(g.player(Seat(4)).hand, hand(&[(GB, 5)]));
    assert_eq!(g.player(Seat(2)).hand, Cards::each(4));
    assert_eq!(g.reserve, reserve(&[(RC, 19), (GB, 19)]));
}

#[test]
fn grimsby_4_6_is_not_offered_to_richard() {
    not_offered(big(), Grimsby);
}

#[test]
fn grimsby_2_3_raises_the_kings_tracks_for_three_cards_each() {
    let (g, _) = perform(small_john(), Grimsby, Choice::Clauses { treasure: true, king_return: true }, 0);
    assert_eq!(g.player(A).hand, hand(&[(RC, 1), (GH, 1)]));
    assert_eq!(g.reserve, reserve(&[(RC, 23), (GH, 23)]));
    assert_eq!((g.tracks.kt, g.tracks.kr), (6, 6));
    let (g, _) = perform(small_john(), Grimsby, Choice::Clauses { treasure: false, king_return: true }, 0);
    assert_eq!(g.player(A).hand, hand(&[(GH, 1)]));
    assert_eq!((g.tracks.kr, g.tracks.kt), (6, 5));
    let mut poor = small_john();
    poor.players[Seat(0)].hand = hand(&[(GH, 2), (RC, 2)]);
    not_offered(poor, Grimsby);
}

fn john_four() -> RichardTheLionheart {
    fixture(&[PrinceJohn, RobinHood, Sheriff, MaidMarion])
}

#[test]
fn london_costs_four_coins_and_one_from_each_ally() {
    let mut g = john_four();
    g.players[Seat(2)].coins = 2;
    let (g, _) = perform(g, London, Choice::Track { track: Track::KT }, 0);
    assert_eq!((g.player(A).coins, g.player(Seat(2)).coins, g.tracks.kt), (2, 1, 6));
    assert_eq!(g.player(Seat(1)).coins, 6, "enemies pay nothing");
}

#[test]
fn london_is_not_offered_when_an_ally_has_no_coin() {
    let mut g = john_four();
    g.players[Seat(2)].coins = 0;
    let before = (g.tracks, g.players.iter().map(|(_, p)| p.coins).collect::<Vec<_>>());
    arrive(&mut g, A, London);
    assert!(perform_choices(&g, A).is_empty());
    assert_eq!((g.tracks, g.players.iter().map(|(_, p)| p.coins).collect::<Vec<_>>()), before);
}

#[test]
fn london_with_two_players_costs_only_four_coins() {
    let (g, _) = perform(small(), London, Choice::Track { track: Track::KR }, 0);
    assert_eq!((g.player(A).coins, g.tracks.kr), (2, 6));
    let mut poor = small();
    poor.players[Seat(0)].coins = 3;
    not_offered(poor, London);
}

#[test]
fn norwich_4_6_pays_points_and_coins() {
    let (g, _) = perform(big(), Norwich, Choice::Plain, 0);
    assert_eq!(g.player(A).hand, hand(&[(RH, 2), (RC, 2)]));
    assert_eq!(g.reserve, reserve(&[(RH, 22), (RC, 22)]));
    assert_eq!((g.player(A).prestige, g.player(A).coins), (2, 9));
}

#[test]
fn norwich_2_3_pays_cards_and_coins() {
    let (g, d) = perform(small(), Norwich, Choice::Plain, 3);
    assert_eq!(g.player(A).hand, plus(hand(&[(RH, 2), (RC, 2)]), d));
    assert_eq!(g.player(A).coins, 9);
}

#[test]
fn nottingham_4_6_exchanges_an_edict_then_pays_a_point_and_two_coins() {
    let mut g = big();
    g.players[Seat(0)].edict = Some(Edict::RE1);
    g.edicts.richard = vec![Edict::RE3, Edict::RE5, Edict::RE4];
    arrive(&mut g, A, Nottingham);
    play(&mut g, A, Action::Perform { choice: Choice::Plain });
    assert_eq!(g.stage, Stage::KeepEdict { seat: A, drawn: Edict::RE4 });
    let other = g.view(game_core::Viewer::Seat(Seat(1)));
    assert_eq!(other.stage.drawn_edict, None, "the drawn edict is secret");
    play(&mut g, A, Action::KeepEdict { edict: Edict::RE4 });
    assert_eq!(g.player(A).edict, Some(Edict::RE4));
    assert_eq!(g.edicts.richard, vec![Edict::RE1, Edict::RE3, Edict::RE5]);
    assert_eq!((g.player(A).prestige, g.player(A).coins), (1, 8));
}

#[test]
fn nottingham_2_3_gives_two_coins_and_three_cards() {
    let (g, d) = perform(small(), Nottingham, Choice::Plain, 3);
    assert_eq!(g.player(A).coins, 8);
    assert_eq!(g.player(A).hand, plus(Cards::each(4), d));
}

#[test]
fn oxford_sells_one_card_of_the_players_side_for_four_coins() {
    for g in [big(), small()] {
        let (g, _) = perform(g, Oxford, Choice::Return { card: RC }, 0);
        assert_eq!(g.player(A).hand, hand(&[(RC, 3)]));
        assert_eq!(g.reserve, reserve(&[(RC, 21)]));
        assert_eq!(g.player(A).coins, 10);
    }
    let mut g = fixture(&[Leopold, RobinHood, Sheriff]);
    g.players[Seat(0)].side = Side::John;
    arrive(&mut g, A, Oxford);
    assert_eq!(
        perform_choices(&g, A),
        vec![Choice::Return { card: GB }, Choice::Return { card: GH }, Choice::Return { card: GC }]
    );
}

#[test]
fn oxford_is_not_offered_without_a_card_of_the_players_side() {
    let mut g = small();
    g.players[Seat(0)].hand = hand(&[(RB, 0), (RH, 0), (RC, 0)]);
    not_offered(g, Oxford);
}

#[test]
fn salisbury_gives_a_coin_a_card_and_a_chest() {
    for g in [big(), small()] {
        let (g, d) = perform_then_take(g, Salisbury, GC);
        assert_eq!(g.player(A).coins, 7);
        assert_eq!(g.player(A).hand, plus(hand(&[(GC, 5)]), d));
        assert_eq!(g.reserve, reserve(&[(GC, 19)]));
    }
}

#[test]
fn sherwood_4_6_trades_one_of_each_type_for_cards_points_and_coins() {
    let (g, d) = perform(big(), Sherwood, Choice::Plain, 2);
    assert_eq!(g.player(A).hand, plus(Cards::each(3), d));
    assert_eq!(g.reserve, Cards::each(21));
    assert_eq!((g.player(A).prestige, g.player(A).coins), (3, 9));
}

#[test]
fn sherwood_2_3_trades_one_of_each_type_to_lower_an_army() {
    let (g, _) = perform(small(), Sherwood, Choice::Track { track: Track::RA }, 0);
    assert_eq!((g.player(A).hand, g.tracks.ra), (Cards::each(3), 4));
    let mut low = small();
    low.tracks.ra = 0;
    let (g, _) = perform(low, Sherwood, Choice::Track { track: Track::RA }, 0);
    assert_eq!((g.player(A).hand, g.tracks.ra), (Cards::each(3), 0));
}

#[test]
fn shrewsbury_costs_four_coins_and_one_from_each_ally_to_lower_an_army() {
    let mut g = big();
    g.players[Seat(1)].coins = 1;
    let (g, _) = perform(g, Shrewsbury, Choice::Track { track: Track::SA }, 0);
    assert_eq!((g.player(A).coins, g.player(Seat(1)).coins, g.tracks.sa), (2, 0, 4));
}

#[test]
fn york_gives_a_coin_a_card_and_an_hourglass() {
    for g in [big(), small()] {
        let (g, d) = perform_then_take(g, York, RH);
        assert_eq!(g.player(A).coins, 7);
        assert_eq!(g.player(A).hand, plus(hand(&[(RH, 5)]), d));
        assert_eq!(g.reserve, reserve(&[(RH, 19)]));
    }
}
