//! The generic game-core harness on Knights Templar, for every player count 2–8.

use game_core::testing::{check_contract, check_playouts};
use knights_templar::{KnightsTemplar, Options};

#[test]
fn the_contract_holds_at_every_decision_point_for_every_player_count() {
    for players in 2..=8 {
        check_contract::<KnightsTemplar>(players, &Options::default(), 25, 2_000);
    }
}

#[test]
fn two_thousand_random_games_per_player_count_reach_an_outcome() {
    for players in 2..=8 {
        let summary = check_playouts::<KnightsTemplar>(players, &Options::default(), 2_000, 2_000);
        assert_eq!(summary.games, 2_000);
        // A game flips at least one Fate row; each pick is an action unless it was the only option.
        assert!(summary.actions / summary.games >= 5, "{players} players: {summary:?}");
        assert!(summary.score_range.0 >= -5, "nobody ends below -5: {summary:?}");
    }
}

#[test]
fn bad_player_counts_are_rejected_with_a_typed_error() {
    use game_core::{Game, Seed, SetupError};
    for players in [0, 1, 9, 100] {
        let err = KnightsTemplar::setup(players, &Options::default(), Seed::from_u64(1)).expect_err("rejected");
        assert!(matches!(err, SetupError::PlayerCount { min: 2, max: 8, .. }));
    }
}
