//! The generic `game-core` harness: contract checks at every decision point, and thousands of
//! complete random playouts, for every player count with and without Stephanus.

use game_core::testing::{check_contract, check_playouts};
use secret_treasures::{Options, SecretTreasures};

const MAX_STEPS: usize = 50_000;

fn configurations() -> Vec<(usize, Options)> {
    let mut configs = Vec::new();
    for players in 2..=5 {
        configs.push((players, Options::default()));
        if players < 5 {
            configs.push((players, Options { stephanus: false, ..Options::default() }));
        }
    }
    configs
}

#[test]
fn the_contract_holds_for_every_player_count_with_and_without_stephanus() {
    for (players, options) in configurations() {
        check_contract::<SecretTreasures>(players, &options, 20, MAX_STEPS);
    }
}

#[test]
fn the_contract_holds_with_the_first_game_placement() {
    for players in 2..=5 {
        let options = Options { first_game_placement: true, ..Options::default() };
        check_contract::<SecretTreasures>(players, &options, 10, MAX_STEPS);
    }
}

#[test]
fn two_thousand_random_games_end_for_every_configuration() {
    for (players, options) in configurations() {
        let summary = check_playouts::<SecretTreasures>(players, &options, 2_000, MAX_STEPS);
        assert_eq!(summary.games, 2_000);
        assert!(summary.score_range.1 > 0, "{players} players: somebody scores");
    }
}
