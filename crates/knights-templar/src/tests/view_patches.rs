//! The patches the engine writes itself (`view_patches`) against `json_patch::diff` of the views,
//! for every viewer at every step of many random games at every player count: more games than
//! the server's test of every engine runs, so that the rarer changes (a card laid face down, an
//! Ally choice, a Power draw, the game's end) come up many times.

use crate::state::{KnightsTemplar, Pending};
use crate::Options;
use game_core::dynamic::Descriptor;
use game_core::testing::{random_playout, setup};
use game_core::view_diff::check_view_patches;
use game_core::Game;

#[test]
fn the_engines_own_patches_are_json_patch_diff_of_the_views() {
    let descriptor = Descriptor::<KnightsTemplar>::new("test");
    let options = serde_json::to_value(Options::default()).expect("options serialise");
    let mut checked = 0;
    for players in KnightsTemplar::MIN_PLAYERS..=KnightsTemplar::MAX_PLAYERS {
        checked += check_view_patches(&descriptor, players, &options, 12);
    }
    assert!(checked > 20_000, "only {checked} patches checked");
}

/// The games of the test above come to every kind of change the patches must carry.
#[test]
fn random_games_lay_cards_face_down_and_make_ally_choices() {
    let (mut face_down, mut ally_choices, mut power_draws) = (0, 0, 0);
    for players in KnightsTemplar::MIN_PLAYERS..=KnightsTemplar::MAX_PLAYERS {
        for seed in 0..12 {
            let options = Options::default();
            let playout = random_playout::<KnightsTemplar>(players, &options, seed, 100_000, false);
            let mut game: KnightsTemplar = setup(players, &options, seed);
            for (seat, action) in &playout.actions {
                game.apply(*seat, action).expect("recorded action");
                face_down += usize::from(game.discard.iter().any(|d| d.face_down_by.is_some()));
                ally_choices += usize::from(matches!(game.pending, Pending::AllyChoice { .. }));
                power_draws += usize::from(!game.power_queue.is_empty());
            }
        }
    }
    assert!(face_down > 100 && ally_choices > 20 && power_draws > 20, "{face_down} {ally_choices} {power_draws}");
}
