//! Scenario checks S01–S14 (the rulebook's examples) and the end of the game (spec §7, §8.1).
#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use game_core::{BySeat, Game, Seat, Seed};
use richard_the_lionheart::rules::{outcomes, round, travel};
use richard_the_lionheart::state::Tracks;
use richard_the_lionheart::testing::{fixture, place_others, start_move};
use richard_the_lionheart::{
    Action, Card, Character, CharacterAssignment, Edict, EventCard, Faction, Location, Options, RichardTheLionheart,
    Side, Stage,
};
use Location::*;

fn duel() -> RichardTheLionheart {
    fixture(&[Character::RobinHood, Character::Sheriff])
}

#[test]
fn sergio_without_horse_or_ship_cannot_start_towards_oxford_and_moves_at_most_three_segments() {
    let mut g = duel();
    place_others(&mut g, &[]);
    start_move(&mut g, A, London);
    assert_eq!(steps(&g, A), vec![Cambridge, Canterbury, Salisbury]);
    rejected(&mut g, A, Action::Step { to: Oxford });
    assert_eq!(
        endpoints(&g, A),
        vec![
            Bridgewater,
            Bristol,
            Cambridge,
            Canterbury,
            Gloucester,
            Norwich,
            Nottingham,
            Oxford,
            Salisbury,
            Sherwood,
            Shrewsbury
        ]
    );
    play(&mut g, A, Action::Step { to: Cambridge });
    play(&mut g, A, Action::Step { to: Nottingham });
    play(&mut g, A, Action::Step { to: Sherwood });
    // MP 0: the stop is automatic and the location action is offered at Sherwood.
    assert_eq!(g.player(A).location, Some(Sherwood));
    assert_eq!(g.stage, Stage::LocationAction { seat: A });
}

#[test]
fn ruby_with_horse_and_ship_may_use_water_and_move_four_segments() {
    let mut g = duel();
    place_others(&mut g, &[]);
    g.players[Seat(0)].horse = true;
    g.players[Seat(0)].ship = true;
    start_move(&mut g, A, London);
    assert!(steps(&g, A).contains(&Oxford));
    let all: Vec<Location> = Location::ALL.into_iter().filter(|l| *l != London).collect();
    assert_eq!(endpoints(&g, A), all);
    for to in [Oxford, Gloucester, Cardiff, Chester] {
        play(&mut g, A, Action::Step { to });
    }
    assert_eq!(g.player(A).location, Some(Chester), "no 5th step: the move stopped at Chester");
    assert!(!matches!(g.stage, Stage::Move { .. }));
}

fn outcome_of(display: &[(Card, u8)], tracks: Tracks) -> Tracks {
    let mut g = duel();
    g.tracks = tracks;
    g.display = cards(display);
    outcomes::compare(&mut g);
    g.tracks
}

const MID: Tracks = Tracks { ra: 5, sa: 5, kr: 5, kt: 5 };

#[test]
fn two_red_and_four_green_banners_move_saladins_army_two_spaces() {
    let t = outcome_of(&[(Card::RB, 2), (Card::GB, 4)], Tracks { sa: 3, ..MID });
    assert_eq!((t.ra, t.sa), (5, 5));
}

#[test]
fn three_red_and_two_green_banners_move_richards_army_one_space() {
    let t = outcome_of(&[(Card::RB, 3), (Card::GB, 2)], Tracks { ra: 3, ..MID });
    assert_eq!((t.ra, t.sa), (4, 5));
}

#[test]
fn equal_or_absent_banners_are_a_stalemate() {
    let t = outcome_of(&[(Card::RB, 2), (Card::GB, 2)], MID);
    assert_eq!((t.ra, t.sa), (5, 5));
    let t = outcome_of(&[], MID);
    assert_eq!((t.ra, t.sa), (5, 5));
}

#[test]
fn hourglasses_and_chests_move_the_kings_tracks_as_the_rulebook_says() {
    let kr = |r, g| outcome_of(&[(Card::RH, r), (Card::GH, g)], Tracks { kr: 8, ..MID }).kr;
    assert_eq!([kr(3, 1), kr(1, 3), kr(2, 2), kr(0, 0)], [6, 8, 7, 7]);
    let kt = |r, g| outcome_of(&[(Card::RC, r), (Card::GC, g)], Tracks { kt: 8, ..MID }).kt;
    assert_eq!([kt(3, 1), kt(1, 3), kt(2, 2)], [8, 6, 7]);
}

fn chosen() -> Options {
    Options { characters: CharacterAssignment::Chosen }
}

#[test]
fn five_players_use_two_richard_two_john_characters_and_marie() {
    for seed in 0..40 {
        let g = RichardTheLionheart::setup(5, &Options::default(), Seed::from_u64(seed)).unwrap();
        let chars: Vec<Character> = g.players.iter().map(|(_, p)| p.character.unwrap()).collect();
        let count = |f: Faction| chars.iter().filter(|c| c.faction() == f).count();
        assert_eq!((count(Faction::Richard), count(Faction::John)), (2, 2));
        assert!(chars.contains(&Character::Marie));
        assert!(!chars.contains(&Character::Leopold));
        let g3 = RichardTheLionheart::setup(3, &Options::default(), Seed::from_u64(seed)).unwrap();
        assert!(g3.players.iter().any(|(_, p)| p.character == Some(Character::Leopold)));
    }
    let mut g = RichardTheLionheart::setup(5, &chosen(), Seed::from_u64(1)).unwrap();
    play(&mut g, Seat(0), Action::ChooseCharacter { character: Character::RobinHood });
    play(&mut g, Seat(1), Action::ChooseCharacter { character: Character::FriarTuck });
    rejected(&mut g, Seat(2), Action::ChooseCharacter { character: Character::LittleJohn });
    rejected(&mut g, Seat(2), Action::ChooseCharacter { character: Character::Leopold });
    play(&mut g, Seat(2), Action::ChooseCharacter { character: Character::Marie });
}

fn chosen_game(chars: &[Character]) -> RichardTheLionheart {
    let mut g = RichardTheLionheart::setup(chars.len(), &chosen(), Seed::from_u64(3)).unwrap();
    for (i, c) in chars.iter().enumerate() {
        play(&mut g, Seat(i as u8), Action::ChooseCharacter { character: *c });
    }
    g
}

#[test]
fn each_player_is_dealt_a_secret_edict_of_their_own_deck() {
    let g = chosen_game(&[Character::RobinHood, Character::Sheriff, Character::Leopold]);
    let decks: Vec<Faction> = g.players.iter().map(|(_, p)| p.edict.unwrap().faction()).collect();
    assert_eq!(decks, vec![Faction::Richard, Faction::John, Faction::Neutral]);
    assert_eq!((g.edicts.richard.len(), g.edicts.john.len(), g.edicts.neutral.len()), (4, 4, 4));
    let v = g.view(game_core::Viewer::Seat(Seat(0)));
    assert!(
        v.players[Seat(0)].edict.is_some() && v.players[Seat(1)].edict.is_none() && v.players[Seat(2)].edict.is_none()
    );

    let g = chosen_game(&[
        Character::RobinHood,
        Character::Sheriff,
        Character::Marie,
        Character::MaidMarion,
        Character::Isabella,
    ]);
    assert_eq!((g.edicts.richard.len(), g.edicts.john.len(), g.edicts.neutral.len()), (3, 3, 4));
    let g = chosen_game(&[Character::RobinHood, Character::Sheriff, Character::MaidMarion, Character::Isabella]);
    assert_eq!(g.edicts.neutral.len(), 0);
    assert!(g.players.iter().all(|(_, p)| p.edict.unwrap().faction() != Faction::Neutral));
}

fn richard_four() -> RichardTheLionheart {
    fixture(&[Character::RobinHood, Character::MaidMarion, Character::PrinceJohn, Character::Sheriff])
}

#[test]
fn richards_army_reaching_ten_makes_richards_faction_win() {
    let mut g = richard_four();
    g.tracks.ra = 8;
    g.players[Seat(0)].prestige = 5;
    g.players[Seat(1)].prestige = 3;
    g.players[Seat(2)].prestige = 10;
    g.crusade = vec![Card::RB, Card::RB, Card::RB, Card::RB, Card::GB, Card::GB, Card::RH, Card::GH];
    outcomes::run(&mut g);
    assert_eq!(g.tracks.ra, 10);
    let r = g.result.clone().unwrap();
    assert_eq!((r.condition, r.winning_side), (1, Some(Side::Richard)));
    // Robin's RE1 (RA ≥ 7) scores 3; Marion's RE2 (KR ≤ 3) does not (KR 4).
    assert_eq!(r.edict_points, BySeat(vec![3, 0, 0, 0]));
    assert_eq!(g.players[Seat(0)].prestige, 8);
    let o = g.outcome().unwrap();
    assert_eq!(o.winners, vec![Seat(0)], "Prince John's 10 PP do not count: John's faction lost");
    assert!(g.to_act().is_empty());
}

#[test]
fn the_kings_treasure_reaching_zero_makes_johns_faction_win() {
    let mut g = duel();
    g.tracks.kt = 2;
    g.crusade = vec![Card::RC, Card::GC, Card::GC, Card::GC];
    outcomes::run(&mut g);
    assert_eq!(g.tracks.kt, 0);
    let r = g.result.clone().unwrap();
    assert_eq!((r.condition, r.winning_side), (4, Some(Side::John)));
    assert_eq!(g.outcome().unwrap().winners, vec![Seat(1)]);
}

#[test]
fn round_one_places_figures_on_empty_locations_and_then_offers_the_action() {
    let mut g = duel();
    g.round = 1;
    place_others(&mut g, &[]);
    travel::start(&mut g);
    assert_eq!(g.stage, Stage::Place { seat: A });
    assert_eq!(g.legal_actions(A).len(), 16);
    play(&mut g, A, Action::Place { location: Cambridge });
    assert_eq!(g.stage, Stage::LocationAction { seat: A });
    play(&mut g, A, Action::Decline);
    assert_eq!(g.stage, Stage::Place { seat: Seat(1) });
    let offered = g.legal_actions(Seat(1));
    assert_eq!(offered.len(), 15);
    assert!(!offered.contains(&Action::Place { location: Cambridge }));
    assert!(offered.iter().all(|a| matches!(a, Action::Place { .. })), "no steals in round 1");
}

#[test]
fn illegal_paths_are_rejected_and_passing_through_an_occupied_location_is_allowed() {
    let mut g = duel();
    place_others(&mut g, &[(Seat(1), Cambridge)]);
    g.players[Seat(1)].hand = cards(&[]);
    start_move(&mut g, A, London);
    rejected(&mut g, A, Action::Stop); // 0 segments
    rejected(&mut g, A, Action::Step { to: Oxford }); // water without a Ship
    play(&mut g, A, Action::Step { to: Cambridge }); // passing through the Sheriff
    rejected(&mut g, A, Action::Stop); // ending on an occupied location
    rejected(&mut g, A, Action::Step { to: London }); // back to the start
    play(&mut g, A, Action::Step { to: Nottingham });
    rejected(&mut g, A, Action::Step { to: Cambridge }); // revisiting
    play(&mut g, A, Action::Stop);
    assert_eq!(g.player(A).location, Some(Nottingham));
}

#[test]
fn setup_deals_the_decks_and_hands_by_player_count() {
    let g = RichardTheLionheart::setup(6, &Options::default(), Seed::from_u64(9)).unwrap();
    assert_eq!(g.provisions.len(), 48);
    assert_eq!(g.reserve, richard_the_lionheart::Cards::each(24));
    assert_eq!(g.crusade.len(), 6);
    assert!(g.players.iter().all(|(_, p)| p.hand.total() == 7));
    let g = RichardTheLionheart::setup(5, &Options::default(), Seed::from_u64(9)).unwrap();
    assert_eq!(g.provisions.len(), 52);
    for (_, p) in g.players.iter() {
        let expected = if p.character == Some(Character::Marie) { 10 } else { 7 };
        assert_eq!(p.hand.total(), expected);
    }
    assert_eq!(all_cards(&g), 240);
}

#[test]
fn the_outcomes_draw_twice_the_player_count_and_two_more_under_reinforcements() {
    let all = [
        Character::RobinHood,
        Character::Sheriff,
        Character::MaidMarion,
        Character::Isabella,
        Character::LittleJohn,
        Character::PrinceJohn,
    ];
    for n in 2..=6 {
        for reinforcements in [false, true] {
            let mut g = fixture(&all[..n]);
            g.crusade = vec![Card::RH; 20];
            g.crusade.extend(vec![Card::GH; 20]);
            g.active_event = reinforcements.then_some(EventCard::E18);
            outcomes::run(&mut g);
            let need = 2 * n + if reinforcements { 2 } else { 0 };
            assert_eq!(g.crusade.len(), 40 - need, "{n} players, E18 {reinforcements}");
        }
    }
}

#[test]
fn a_short_crusade_deck_is_refilled_with_one_card_of_each_type_and_the_rest_carries_over() {
    let mut g = richard_four();
    g.crusade = vec![Card::RB, Card::RB, Card::RB];
    let before = all_cards(&g);
    outcomes::run(&mut g);
    // 3 from the deck, then a batch of 6 from the Reserve, 5 of them drawn: 1 carries over.
    assert_eq!(g.crusade.len(), 1);
    // Phase 7 returned the 8 revealed cards to the Reserve: 120 − 6 + 8.
    assert_eq!(g.reserve.total(), 122);
    assert_eq!(all_cards(&g), before);
    assert_eq!(g.round, 3);
}

#[test]
fn when_several_tracks_end_at_once_the_order_of_resolution_decides() {
    let mut g = duel();
    g.tracks = Tracks { ra: 10, sa: 10, kr: 0, kt: 0 };
    assert_eq!(round::end_condition(&g), Some(1));
    g.tracks.ra = 9;
    assert_eq!(round::end_condition(&g), Some(2));
    g.tracks.sa = 9;
    assert_eq!(round::end_condition(&g), Some(3));
    g.tracks.kr = 1;
    assert_eq!(round::end_condition(&g), Some(4));
    g.tracks.kt = 1;
    assert_eq!(round::end_condition(&g), None);
    g.round = 10;
    assert_eq!(round::end_condition(&g), Some(5));
}

fn after_ten_rounds(chars: &[Character]) -> RichardTheLionheart {
    let mut g = fixture(chars);
    g.round = 10;
    // Banners, hourglasses and chests all tied: KR and KT 5 → 4, armies unchanged.
    g.crusade = Card::ALL.iter().flat_map(|c| vec![*c; 2]).collect();
    g
}

#[test]
fn after_ten_rounds_the_neutral_gets_three_points_but_must_meet_its_victory_condition() {
    let chars = [Character::RobinHood, Character::Sheriff, Character::Leopold];
    let mut g = after_ten_rounds(&chars);
    g.players[Seat(0)].prestige = 6;
    g.players[Seat(1)].prestige = 4;
    g.players[Seat(2)].prestige = 5;
    g.players[Seat(2)].edict = Some(Edict::NE4); // needs a Horse or a Ship: Leopold has neither
    g.players[Seat(0)].edict = Some(Edict::RE4); // SA ≤ 3 fails: 0
    g.players[Seat(1)].edict = Some(Edict::JE4); // RA ≤ 3 fails: 0
    let mut won = g.clone();
    outcomes::run(&mut g);
    let r = g.result.clone().unwrap();
    assert_eq!((r.condition, r.winning_side), (5, None));
    assert_eq!(r.neutral_bonus, BySeat(vec![0, 0, 3]));
    assert_eq!(g.players[Seat(2)].prestige, 8);
    assert_eq!(r.candidates, vec![Seat(0), Seat(1)]);
    assert_eq!(g.outcome().unwrap().winners, vec![Seat(0)]);

    won.players[Seat(2)].ship = true;
    outcomes::run(&mut won);
    assert_eq!(won.outcome().unwrap().winners, vec![Seat(2)], "8 PP beats 6 once the condition holds");
}

#[test]
fn ties_go_to_the_most_coins_and_then_share_the_victory() {
    let chars = [Character::RobinHood, Character::MaidMarion, Character::Sheriff, Character::Isabella];
    let mut g = after_ten_rounds(&chars);
    for (_, p) in g.players.iter_mut() {
        p.prestige = 4;
        p.edict = Some(Edict::RE4); // SA 5: scores 0 for everyone
    }
    g.players[Seat(1)].coins = 9;
    let mut shared = g.clone();
    outcomes::run(&mut g);
    let o = g.outcome().unwrap();
    assert_eq!(o.winners, vec![Seat(1)]);
    assert!(o.tie_break.unwrap().contains("most coins"));

    shared.players[Seat(3)].coins = 9;
    outcomes::run(&mut shared);
    assert_eq!(shared.outcome().unwrap().winners, vec![Seat(1), Seat(3)]);
}
