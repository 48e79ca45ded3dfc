//! The patches a table sends are exactly `json_patch::diff` of the viewer's previous and new
//! views: checked for every game of the catalog, every player count and every option value, for
//! every viewer at every step of random games.

use chapterhouse::catalog::Catalog;
use game_core::view_diff::check_view_patches;
use game_core::{OptionKind, Seed};
use serde_json::{json, Value};

/// The default options, then each option set to each of its other values in turn.
fn option_variants(defaults: &Value, kinds: &[(String, OptionKind)]) -> Vec<Value> {
    let mut variants = vec![defaults.clone()];
    for (key, kind) in kinds {
        let values: Vec<Value> = match kind {
            OptionKind::Bool { default } => vec![json!(!default)],
            OptionKind::Choice { choices, default } => {
                choices.iter().filter(|c| *c != default).map(|c| json!(c)).collect()
            }
        };
        for value in values {
            let mut options = defaults.clone();
            options[key.as_str()] = value;
            variants.push(options);
        }
    }
    variants
}

#[test]
fn every_patch_of_every_game_equals_json_patch_diff_of_the_views() {
    let catalog = Catalog::standard();
    for info in catalog.infos() {
        let descriptor = catalog.get(&info.id).expect("listed games exist");
        let kinds: Vec<(String, OptionKind)> = info.options.iter().map(|o| (o.key.clone(), o.kind.clone())).collect();
        let mut checked = 0;
        for players in info.min_players..=info.max_players {
            for (i, options) in option_variants(&info.default_options, &kinds).into_iter().enumerate() {
                // Some options do not fit some player counts: those are refused at setup.
                if descriptor.create(players, &options, Seed::from_u64(0)).is_err() {
                    continue;
                }
                let games = if i == 0 { 3 } else { 1 };
                checked += check_view_patches(descriptor, players, &options, games);
            }
        }
        assert!(checked > 1_000, "{}: only {checked} patches checked", info.id);
    }
}
