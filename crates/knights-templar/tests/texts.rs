//! The English rules texts (`texts/en.json`) checked against the engine itself.
//!
//! The web client, the docs and the game log look every id they meet up in this catalog, so a
//! missing entry shows a player a raw code. The expected ids come from the engine's public API
//! (every card, every card type) and from random playouts at every player count (every decision
//! point, every action type and every code a view shows), so an id the engine gains and the
//! catalog lacks fails here, as does a catalog entry that names nothing the engine has.

use game_core::testing::texts::{check_every_change_is_reported, check_summary, english_catalog, json_id as id};
use game_core::testing::visit_random_games;
use game_core::{Game, Viewer};
use knights_templar::{Card, CardType, EndReason, KnightsTemplar, Options, Stage, TEXTS_EN};
use serde_json::Value;
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// Random games per player count: enough to meet every decision point and action type.
const GAMES_PER_COUNT: u64 = 6;
const MAX_STEPS: usize = 2_000;

/// View fields the catalog explains as `field:<name>`: the labels the client shows beside them.
const FIELDS: [&str; 14] = [
    "grand_master",
    "fate",
    "deck_count",
    "discard",
    "tableau",
    "county_vp",
    "fate_picks",
    "picked_this_round",
    "score_now",
    "power_queue",
    "setup_draws",
    "round",
    "turn",
    "face_down",
];

fn catalog() -> Value {
    english_catalog(TEXTS_EN)
}

/// Every term key the engine's public API can name.
fn expected_terms() -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    keys.extend(Card::all().map(|c| format!("card:{}", id(c))));
    keys.extend(CardType::ALL.iter().map(|t| format!("type:{}", id(t))));
    keys.extend([Stage::Select, Stage::PowerDraws, Stage::Over].iter().map(|s| format!("stage:{}", id(s))));
    keys.extend([EndReason::FiveDownfall, EndReason::DeckEmpty].iter().map(|r| format!("end:{}", id(r))));
    keys.extend(FIELDS.iter().map(|f| format!("field:{f}")));
    keys
}

/// What the random playouts met.
#[derive(Debug, Default)]
struct Seen {
    /// `pending.kind` of every view: the decision points.
    steps: BTreeSet<String>,
    /// The `type` tag of every legal action.
    actions: BTreeSet<String>,
    /// Term keys built from the ids views show.
    terms: BTreeSet<String>,
    /// Every object key in every view.
    fields: BTreeSet<String>,
}

impl Seen {
    fn view(&mut self, view: &Value) {
        if let Some(stage) = view.get("stage").and_then(Value::as_str) {
            self.terms.insert(format!("stage:{stage}"));
        }
        if let Some(end) = view.get("end").and_then(Value::as_str) {
            self.terms.insert(format!("end:{end}"));
        }
        for draw in view.get("setup_draws").and_then(Value::as_array).into_iter().flatten() {
            for hand in draw.get("hands").and_then(Value::as_array).into_iter().flatten() {
                for card in hand.get("cards").and_then(Value::as_array).into_iter().flatten() {
                    self.terms.insert(format!("card:{card}"));
                }
            }
        }
        self.walk(view);
    }

    /// Collects every field name, and every card shown as `{id, name, kind}`.
    fn walk(&mut self, value: &Value) {
        match value {
            Value::Object(map) => {
                if let (Some(card), Some(kind)) = (map.get("id"), map.get("kind").and_then(Value::as_str)) {
                    self.terms.insert(format!("card:{card}"));
                    self.terms.insert(format!("type:{kind}"));
                }
                for (key, inner) in map {
                    self.fields.insert(key.clone());
                    self.walk(inner);
                }
            }
            Value::Array(items) => items.iter().for_each(|v| self.walk(v)),
            _ => {}
        }
    }

    fn game(&mut self, game: &KnightsTemplar) {
        for viewer in Viewer::all(game.players()) {
            let view = game.view(viewer);
            self.view(&serde_json::to_value(&view).unwrap_or_default());
            // The view JSON sends bare card ids, the scores and `pick_order` at the top level, and
            // leaves derived fields out; the client rebuilds the typed shape (cards with their
            // type, each seat's score now, Fate picks and pick flag) and labels it with these
            // texts, so the typed parts are looked at as well.
            let pending = serde_json::to_value(&view.pending).unwrap_or_default();
            if let Some(kind) = pending.get("kind").and_then(Value::as_str) {
                self.steps.insert(kind.to_string());
            }
            self.walk(&pending);
            self.walk(&serde_json::to_value(&view.seats).unwrap_or_default());
            self.walk(&serde_json::to_value(&view.fate).unwrap_or_default());
        }
        for seat in game.to_act() {
            for action in game.legal_actions(seat) {
                let json = serde_json::to_value(action).unwrap_or_default();
                if let Some(tag) = json.get("type").and_then(Value::as_str) {
                    self.actions.insert(tag.to_string());
                }
            }
        }
    }
}

/// Plays the random games once for all tests, replaying each to look at every position.
fn seen() -> &'static Seen {
    static SEEN: OnceLock<Seen> = OnceLock::new();
    SEEN.get_or_init(|| {
        let mut seen = Seen::default();
        let counts = KnightsTemplar::MIN_PLAYERS..=KnightsTemplar::MAX_PLAYERS;
        let configurations = counts.map(|players| (players, Options::default()));
        visit_random_games(configurations, GAMES_PER_COUNT, MAX_STEPS, |game: &KnightsTemplar| seen.game(game));
        seen
    })
}

/// Everything wrong with `catalog` against the ids this engine has.
fn problems(catalog: &Value, seen: &Seen) -> Vec<String> {
    game_core::testing::texts::catalog_problems(catalog, &expected_terms(), &seen.steps, &seen.actions)
}

#[test]
fn the_catalog_describes_this_game_with_a_summary_of_six_to_twelve_sections() {
    check_summary(&catalog(), KnightsTemplar::ID, KnightsTemplar::NAME);
}

#[test]
fn every_card_type_code_step_and_action_has_a_complete_text_and_no_entry_is_unknown() {
    let seen = seen();
    let problems = problems(&catalog(), seen);
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn the_playouts_meet_only_ids_the_api_enumerates_and_every_explained_field() {
    let seen = seen();
    let expected = expected_terms();
    let unknown: Vec<_> = seen.terms.difference(&expected).collect();
    assert!(unknown.is_empty(), "views show ids the test does not enumerate: {unknown:?}");
    let absent: Vec<_> = FIELDS.iter().filter(|f| !seen.fields.contains(**f)).collect();
    assert!(absent.is_empty(), "explained fields that no view has: {absent:?}");
    // The five decision points of spec §4.2 (two share `target`) and the end.
    assert_eq!(seen.steps.len(), 5, "{:?}", seen.steps);
    assert_eq!(seen.actions.len(), 4, "{:?}", seen.actions);
}

#[test]
fn names_are_the_printed_card_and_type_names() {
    let catalog = catalog();
    let name = |key: String| catalog["terms"][&key]["name"].as_str().unwrap_or_default().to_string();
    for card in Card::all() {
        assert_eq!(name(format!("card:{}", id(card))), card.name(), "card {}", card.0);
    }
    for (kind, printed) in CardType::ALL
        .iter()
        .zip(["Legacy", "Ally", "County", "Treasure", "Mission", "Power", "Battle", "Enemy", "Downfall"])
    {
        assert_eq!(name(format!("type:{}", id(kind))), printed);
    }
    // Each card's short text starts with its type, so a tooltip says what kind of card it is.
    for card in Card::all() {
        let short = catalog["terms"][format!("card:{}", id(card))]["short"].as_str().unwrap_or_default();
        let kind = name(format!("type:{}", id(card.kind())));
        assert!(short.starts_with(&format!("{kind}:")), "card {}: {short}", card.0);
    }
}

#[test]
fn removing_any_entry_or_adding_an_unknown_one_is_reported() {
    let seen = seen();
    check_every_change_is_reported(&catalog(), "card:0", |c| problems(c, seen));
}
