//! The generic `game-core` harness for every player count and both character options.

use game_core::testing::{check_contract, check_playouts};
use richard_the_lionheart::{CharacterAssignment, Options, RichardTheLionheart};

const MAX_STEPS: usize = 3_000;

fn random() -> Options {
    Options { characters: CharacterAssignment::Random }
}

fn chosen() -> Options {
    Options { characters: CharacterAssignment::Chosen }
}

#[test]
fn the_contract_holds_for_every_player_count_with_random_characters() {
    for players in 2..=6 {
        check_contract::<RichardTheLionheart>(players, &random(), 20, MAX_STEPS);
    }
}

#[test]
fn the_contract_holds_for_every_player_count_with_chosen_characters() {
    for players in 2..=6 {
        check_contract::<RichardTheLionheart>(players, &chosen(), 6, MAX_STEPS);
    }
}

fn playouts(players: usize) {
    let summary = check_playouts::<RichardTheLionheart>(players, &random(), 2_000, MAX_STEPS);
    assert_eq!(summary.games, 2_000);
    assert!(summary.max_actions < MAX_STEPS);
}

#[test]
fn two_thousand_random_two_player_games_end() {
    playouts(2);
}

#[test]
fn two_thousand_random_three_player_games_end() {
    playouts(3);
}

#[test]
fn two_thousand_random_four_player_games_end() {
    playouts(4);
}

#[test]
fn two_thousand_random_five_player_games_end() {
    playouts(5);
}

#[test]
fn two_thousand_random_six_player_games_end() {
    playouts(6);
}

#[test]
fn two_thousand_random_games_with_chosen_characters_end() {
    let summary = check_playouts::<RichardTheLionheart>(5, &chosen(), 2_000, MAX_STEPS);
    assert_eq!(summary.games, 2_000);
}
