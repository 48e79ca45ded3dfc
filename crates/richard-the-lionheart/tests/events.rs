//! The Event of the Crusade cards (spec §2.10) not covered in `abilities.rs`, Phase 6 (the NPC
//! figures) and Phase 7 (the Reserve, the round and the first player), and Leopold's Captor.
#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use game_core::{Game, Seat};
use richard_the_lionheart::rules::{contribute, outcomes, round};
use richard_the_lionheart::testing::{fixture, place_others, start_move};
use richard_the_lionheart::{Action, Card, Character, EventCard, Location, RichardTheLionheart, Side, Stage, Track};
use Card::*;
use Character::*;
use Location::*;

/// Robin Hood (Richard), the Sheriff (John), Leopold sided with John; `event` active; the
/// Crusade deck is exactly `crusade` (6 cards: the 3-player draw); `setup` runs last.
fn resolve(event: EventCard, crusade: [Card; 6], setup: impl Fn(&mut RichardTheLionheart)) -> RichardTheLionheart {
    let mut g = fixture(&[RobinHood, Sheriff, Leopold]);
    g.players[Seat(2)].side = Side::John;
    g.active_event = Some(event);
    g.crusade = crusade.to_vec();
    setup(&mut g);
    outcomes::run(&mut g);
    assert_eq!(g.discarded_events.last(), Some(&event));
    g
}

/// Every comparison tied: KR and KT −1, the armies stay.
const TIED: [Card; 6] = [RB, GB, RH, GH, RC, GC];

fn coins(g: &RichardTheLionheart) -> Vec<u32> {
    g.players.iter().map(|(_, p)| p.coins).collect()
}

fn prestige(g: &RichardTheLionheart) -> Vec<u32> {
    g.players.iter().map(|(_, p)| p.prestige).collect()
}

#[test]
fn battle_of_arsuf_pays_two_coins_to_the_side_of_the_winning_banner_and_nothing_on_a_stalemate() {
    // 1 RB vs 2 GB: Saladin wins the battle; the Sheriff and Leopold (sided John) gain 2.
    let g = resolve(EventCard::E02, [RB, GB, GB, RH, GH, RC], |_| {});
    assert_eq!((g.tracks.ra, g.tracks.sa), (5, 6));
    assert_eq!(coins(&g), vec![6, 8, 8]);
    // 2 RB vs 1 GB with Leopold sided with Richard: Robin and Leopold gain 2.
    let g = resolve(EventCard::E02, [RB, RB, GB, RH, GH, RC], |g| g.players[Seat(2)].side = Side::Richard);
    assert_eq!(coins(&g), vec![8, 6, 8]);
    let g = resolve(EventCard::E02, TIED, |_| {});
    assert_eq!(coins(&g), vec![6, 6, 6]);
}

#[test]
fn muster_of_the_levies_rewards_only_players_who_added_three_cards() {
    let g = resolve(EventCard::E07, TIED, |g| {
        g.players[Seat(0)].contributed = 3;
        g.players[Seat(1)].contributed = 2;
    });
    assert_eq!(prestige(&g), vec![1, 0, 0]);
}

#[test]
fn a_kings_ransom_reads_the_kings_return_after_the_outcomes() {
    // KR 7 → 6 after the tied hourglasses: the condition KR ≥ 6 holds, KT 5 → 4 → 3.
    let g = resolve(EventCard::E09, TIED, |g| g.tracks.kr = 7);
    assert_eq!((g.tracks.kr, g.tracks.kt), (6, 3));
    // KR 6 → 5: it no longer holds.
    let g = resolve(EventCard::E09, TIED, |g| g.tracks.kr = 6);
    assert_eq!((g.tracks.kr, g.tracks.kt), (5, 4));
}

#[test]
fn the_king_falls_ill_only_when_saladin_leads() {
    let g = resolve(EventCard::E12, TIED, |g| g.tracks.sa = 6);
    assert_eq!(g.tracks.kr, 5, "5 → 4 (tie) → 5");
    let g = resolve(EventCard::E12, TIED, |_| {});
    assert_eq!(g.tracks.kr, 4, "RA = SA: no effect");
}

#[test]
fn capture_of_cyprus_refills_the_treasure_unless_saladin_leads() {
    let g = resolve(EventCard::E13, TIED, |_| {});
    assert_eq!(g.tracks.kt, 5, "RA = SA: 5 → 4 (tie) → 5");
    let g = resolve(EventCard::E13, TIED, |g| g.tracks.sa = 6);
    assert_eq!(g.tracks.kt, 4);
}

#[test]
fn treaty_of_jaffa_needs_the_armies_within_one_space() {
    let g = resolve(EventCard::E11, TIED, |g| g.tracks.ra = 7);
    assert_eq!(g.tracks.kr, 4, "|7 − 5| = 2: no effect");
    let g = resolve(EventCard::E11, TIED, |g| g.tracks.ra = 6);
    assert_eq!(g.tracks.kr, 3);
}

#[test]
fn siege_of_acre_does_nothing_when_the_armies_are_level_and_rewards_john_when_saladin_leads() {
    let g = resolve(EventCard::E01, TIED, |_| {});
    assert_eq!(prestige(&g), vec![0, 0, 0]);
    let g = resolve(EventCard::E01, TIED, |g| g.tracks.sa = 7);
    assert_eq!(prestige(&g), vec![0, 1, 1]);
}

#[test]
fn the_chancellors_levy_pays_john_players_standing_on_green_locations() {
    let g = resolve(EventCard::E14, TIED, |g| {
        g.players[Seat(0)].location = Some(London); // green, but Robin is Richard's
        g.players[Seat(1)].location = Some(Cambridge); // green: the Sheriff gains 1
        g.players[Seat(2)].location = Some(York); // red: Leopold (sided John) gains nothing
    });
    assert_eq!(coins(&g), vec![6, 7, 6]);
    let g = resolve(EventCard::E14, TIED, |g| g.players[Seat(2)].location = Some(Grimsby));
    assert_eq!(coins(&g), vec![6, 6, 7]);
}

#[test]
fn the_saladin_tithe_takes_a_coin_from_five_coins_up() {
    let g = resolve(EventCard::E08, TIED, |g| {
        g.players[Seat(0)].coins = 5;
        g.players[Seat(1)].coins = 4;
        g.players[Seat(2)].coins = 0;
    });
    assert_eq!(coins(&g), vec![4, 4, 0]);
}

#[test]
fn royal_favour_gives_a_point_to_every_player_tied_for_fewest() {
    let g = resolve(EventCard::E17, TIED, |g| {
        g.players[Seat(0)].prestige = 3;
        g.players[Seat(1)].prestige = 3;
        g.players[Seat(2)].prestige = 4;
    });
    assert_eq!(prestige(&g), vec![4, 4, 4]);
}

#[test]
fn round_events_do_nothing_in_phase_six() {
    for e in [EventCard::E03, EventCard::E04, EventCard::E05, EventCard::E06, EventCard::E16] {
        let g = resolve(e, TIED, |_| {});
        assert_eq!((coins(&g), prestige(&g)), (vec![6, 6, 6], vec![0, 0, 0]), "{e:?}");
        assert_eq!((g.tracks.ra, g.tracks.sa, g.tracks.kr, g.tracks.kt), (5, 5, 4, 4), "{e:?}");
    }
}

#[test]
fn pilgrims_roads_make_steals_free_for_everyone() {
    let mut g = fixture(&[Sheriff, MaidMarion]);
    place_others(&mut g, &[(Seat(1), Cambridge)]);
    g.active_event = Some(EventCard::E16);
    start_move(&mut g, A, London);
    play(&mut g, A, Action::Step { to: Cambridge });
    play(&mut g, A, Action::Steal);
    let Stage::Move { movement, .. } = &g.stage else { panic!("still moving") };
    assert_eq!(movement.mp, 2, "the steal cost 0 MP");
    assert_eq!((g.player(A).hand.total(), g.player(Seat(1)).hand.total()), (25, 23));
}

#[test]
fn a_steal_is_not_offered_when_it_would_leave_no_legal_end() {
    // London → Cambridge (the enemy) leaves 2 MP; stealing leaves 1, and Cambridge's empty
    // neighbours are still one step away: offered. From Nottingham with 1 MP left it is not.
    let mut g = fixture(&[Sheriff, MaidMarion]);
    place_others(&mut g, &[(Seat(1), Nottingham)]);
    start_move(&mut g, A, London);
    play(&mut g, A, Action::Step { to: Cambridge });
    play(&mut g, A, Action::Step { to: Nottingham });
    assert!(!g.legal_actions(A).contains(&Action::Steal), "1 MP left: a steal would strand the Sheriff");
    assert!(g.legal_actions(A).iter().all(|a| matches!(a, Action::Step { .. })));
}

#[test]
fn call_to_arms_with_maid_marion_makes_the_third_card_free() {
    let mut g = fixture(&[MaidMarion, Sheriff]);
    g.players[Seat(0)].coins = 0;
    g.active_event = Some(EventCard::E06);
    assert_eq!(contribute::third_card_cost(&g, A), 0);
    contribute::start(&mut g);
    for c in [RB, RB, RB] {
        play(&mut g, A, Action::Contribute { card: c });
    }
    assert_eq!((g.player(A).coins, g.player(A).contributed, g.crusade.len()), (0, 3, 3));
    assert_eq!(g.stage, Stage::Contribute { seat: Seat(1) });
}

#[test]
fn phase_six_moves_the_merchant_and_mercenary_with_four_players_only() {
    let mut g = fixture(&[RobinHood, Sheriff, MaidMarion, PrinceJohn]);
    g.active_event = Some(EventCard::E01);
    g.crusade = [TIED, TIED].concat()[..8].to_vec();
    outcomes::run(&mut g);
    assert_eq!((g.merchant, g.mercenary), (Some(London), Some(York)));
    let g = resolve(EventCard::E01, TIED, |_| {});
    assert_eq!((g.merchant, g.mercenary), (None, None));
}

#[test]
fn phase_seven_returns_the_display_advances_the_round_and_passes_the_first_player() {
    let mut g = fixture(&[RobinHood, Sheriff, MaidMarion, PrinceJohn]);
    g.first_player = Seat(3);
    g.crusade = vec![RB, RB, RB, RB, RB, GB, GB, GB, GH];
    let reserve = g.reserve;
    outcomes::run(&mut g);
    // 8 of the 9 were drawn and returned; 1 stays in the Crusade deck for the next round.
    assert_eq!(g.crusade.len(), 1);
    assert_eq!(g.reserve.total(), reserve.total() + 8);
    assert_eq!(g.display.total(), 0);
    assert_eq!((g.round, g.first_player), (3, Seat(0)));
    assert!(g.verdicts.is_none());
    assert_eq!(g.stage, Stage::Place { seat: Seat(0) }, "the fixture's figures are off the board");
}

#[test]
fn leopold_may_raise_the_kings_return_once_per_game() {
    let mut g = fixture(&[Leopold, RobinHood, Sheriff]);
    g.tracks.kr = 9;
    round::start_round(&mut g);
    play(&mut g, A, Action::ChooseSide { side: Side::John });
    assert_eq!(g.stage, Stage::Captor { seat: A });
    play(&mut g, A, Action::UseCaptor);
    assert_eq!(g.tracks.kr, 10);
    assert!(g.player(A).captor_used);
    round::start_round(&mut g);
    play(&mut g, A, Action::ChooseSide { side: Side::Richard });
    assert!(!matches!(g.stage, Stage::Captor { .. }), "spent");
    // Declining keeps it for later.
    let mut g = fixture(&[Leopold, RobinHood, Sheriff]);
    round::start_round(&mut g);
    play(&mut g, A, Action::ChooseSide { side: Side::John });
    play(&mut g, A, Action::Decline);
    assert_eq!(g.tracks.kr, 5);
    round::start_round(&mut g);
    play(&mut g, A, Action::ChooseSide { side: Side::John });
    assert_eq!(g.stage, Stage::Captor { seat: A });
}

#[test]
fn tracks_clamp_at_both_ends() {
    let mut g = fixture(&[RobinHood, Sheriff]);
    g.tracks.sa = 9;
    g.tracks.kr = 1;
    g.tracks.kt = 1;
    g.display = cards(&[(GB, 4), (RH, 2), (GC, 3)]);
    outcomes::compare(&mut g);
    assert_eq!((g.tracks.sa, g.tracks.kr, g.tracks.kt), (10, 0, 0));
    g.move_track(Track::KR, -1);
    assert_eq!(g.tracks.kr, 0);
}
