//! The English rules texts (`texts/en.json`) checked against the engine itself.
//!
//! The web client, the docs and the game log look every id they meet up in this catalog, so a
//! missing entry shows a player a raw code such as `JE5` or `GH`. The expected ids come from the
//! engine's public API (cards, tracks, locations, characters, edicts, events, purchases, choices)
//! and from random playouts at every player count with both character options (every decision
//! point, every action type and every code a view or an action shows), so an id the engine gains
//! and the catalog lacks fails here, as does a catalog entry that names nothing the engine has.

use game_core::testing::texts::{
    check_every_change_is_reported, check_summary, english_catalog, json_id as id, section_texts,
};
use game_core::testing::visit_random_games;
use game_core::{Game, Viewer};
use richard_the_lionheart::board::Timing;
use richard_the_lionheart::state::Verdict;
use richard_the_lionheart::{
    Card, Character, CharacterAssignment, Choice, Edict, EventCard, Faction, Location, Options, Purchase,
    RichardTheLionheart, Side, Track,
};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// Random games per player count and character option: enough to meet every decision point and
/// action type, including the rare ones (Leopold's Captor, the Neutral's trade, Nottingham's edicts).
const GAMES_PER_SETUP: u64 = 8;
const MAX_STEPS: usize = 3_000;

/// The end conditions of `GameResult::condition`, in the rulebook's Order of Resolution.
const CONDITIONS: [u8; 5] = [1, 2, 3, 4, 5];

/// `StageView::phase`: setup, the four phases with decisions, and the end (5 and 6 never wait).
const PHASES: [u8; 6] = [0, 1, 2, 3, 4, 7];

/// View fields the catalog explains as `field:<name>`: the labels the client shows beside them.
const FIELDS: [&str; 30] = [
    "merchant",
    "mercenary",
    "reserve",
    "display",
    "provisions",
    "crusade",
    "events",
    "richard_edicts",
    "john_edicts",
    "neutral_edicts",
    "verdicts",
    "coins",
    "prestige",
    "hand",
    "first_player",
    "round",
    "mp",
    "path",
    "contributed",
    "captor_used",
    "third_card",
    "big_board",
    "candidates",
    "winners",
    "tie_break",
    "edict_points",
    "neutral_bonus",
    "base_prestige",
    "pending_allies",
    "stolen_here",
];

fn catalog() -> Value {
    english_catalog(richard_the_lionheart::TEXTS_EN)
}

/// The id inside a tagged value: a purchase's `item`, a choice's `kind`.
fn tag(value: impl Serialize, field: &str) -> String {
    let json = serde_json::to_value(value).unwrap_or_default();
    json.get(field).and_then(Value::as_str).unwrap_or_else(|| panic!("no {field} in {json}")).to_string()
}

const FACTIONS: [Faction; 3] = [Faction::Richard, Faction::John, Faction::Neutral];

/// Every term key the engine's public API can name.
fn expected_terms() -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    let mut add = |kind: &str, ids: Vec<String>| keys.extend(ids.into_iter().map(|i| format!("{kind}:{i}")));
    add("card", Card::ALL.iter().map(id).collect());
    add("track", [Track::RA, Track::SA, Track::KR, Track::KT].iter().map(id).collect());
    add("location", Location::ALL.iter().map(id).collect());
    add("character", Character::ALL.iter().map(id).collect());
    add("faction", FACTIONS.iter().map(id).collect());
    add("skill", FACTIONS.iter().map(id).collect());
    add("side", [Side::Richard, Side::John].iter().map(id).collect());
    add("edict", FACTIONS.iter().flat_map(|f| Edict::deck(*f)).map(id).collect());
    add("event", EventCard::ALL.iter().map(id).collect());
    let purchases = [
        Purchase::RandomCard,
        Purchase::SpecificCard { card: Card::RB },
        Purchase::PrestigePoint,
        Purchase::Horse,
        Purchase::Ship,
        Purchase::Skill,
    ];
    add("purchase", purchases.iter().map(|p| tag(p, "item")).collect());
    let choices = [
        Choice::Plain,
        Choice::Return { card: Card::RB },
        Choice::Take { card: Card::RB },
        Choice::Track { track: Track::RA },
        Choice::Clauses { treasure: true, king_return: true },
    ];
    add("choice", choices.iter().map(|c| tag(c, "kind")).collect());
    add("verdict", [Verdict::Red, Verdict::Green, Verdict::Stalemate].iter().map(id).collect());
    add("timing", [Timing::Round, Timing::End].iter().map(id).collect());
    add("condition", CONDITIONS.iter().map(u8::to_string).collect());
    add("phase", PHASES.iter().map(u8::to_string).collect());
    add("field", FIELDS.iter().map(|f| f.to_string()).collect());
    keys
}

/// What the random playouts met.
#[derive(Debug, Default)]
struct Seen {
    /// `stage.name` of every view: the decision points.
    steps: BTreeSet<String>,
    /// The `type` tag of every legal action.
    actions: BTreeSet<String>,
    /// Term keys built from the ids views and actions show.
    terms: BTreeSet<String>,
    /// Every object key in every view.
    fields: BTreeSet<String>,
}

/// The term kind of the id stored under `key` in a view or an action, if it is one.
fn kind_of(key: &str) -> Option<&'static str> {
    Some(match key {
        "card" => "card",
        "track" => "track",
        "location" | "start" | "to" | "path" | "merchant" | "mercenary" => "location",
        "character" => "character",
        "faction" => "faction",
        "side" | "winning_side" => "side",
        "edict" | "drawn_edict" => "edict",
        "discarded_events" => "event",
        "item" => "purchase",
        "banners" | "hourglasses" | "chests" => "verdict",
        "timing" => "timing",
        "condition" => "condition",
        "phase" => "phase",
        _ => return None,
    })
}

impl Seen {
    /// Collects every field name and every id, by the key it is stored under.
    fn walk(&mut self, value: &Value, fields: bool) {
        match value {
            Value::Object(map) => {
                // The active event is `{id, name, timing}`; a choice is tagged by `kind`.
                if let (Some(event), Some(_)) = (map.get("id").and_then(Value::as_str), map.get("timing")) {
                    self.terms.insert(format!("event:{event}"));
                }
                if let Some(choice) = map.get("kind").and_then(Value::as_str) {
                    self.terms.insert(format!("choice:{choice}"));
                }
                for (key, inner) in map {
                    if fields {
                        self.fields.insert(key.clone());
                    }
                    if let Some(kind) = kind_of(key) {
                        let ids = match inner {
                            Value::Array(items) => items.clone(),
                            Value::Null => Vec::new(),
                            other => vec![other.clone()],
                        };
                        for value in ids.iter().filter(|v| v.is_string() || v.is_number()) {
                            let text = value.as_str().map_or_else(|| value.to_string(), str::to_string);
                            self.terms.insert(format!("{kind}:{text}"));
                        }
                    }
                    self.walk(inner, fields);
                }
            }
            Value::Array(items) => items.iter().for_each(|v| self.walk(v, fields)),
            _ => {}
        }
    }

    fn game(&mut self, game: &RichardTheLionheart) {
        let to_act = game.to_act();
        // The acting seat sees its own secret draw (a Nottingham edict); the spectator the rest.
        for viewer in to_act.iter().map(|s| Viewer::Seat(*s)).chain([Viewer::Spectator]) {
            let view = serde_json::to_value(game.view(viewer)).unwrap_or_default();
            if let Some(step) = view.pointer("/stage/name").and_then(Value::as_str) {
                self.steps.insert(step.to_string());
            }
            self.walk(&view, true);
        }
        for seat in to_act {
            for action in game.legal_actions(seat) {
                let json = serde_json::to_value(action).unwrap_or_default();
                if let Some(tag) = json.get("type").and_then(Value::as_str) {
                    self.actions.insert(tag.to_string());
                }
                self.walk(&json, false);
            }
        }
    }
}

/// Plays the random games once for all tests, replaying each to look at every position.
fn seen() -> &'static Seen {
    static SEEN: OnceLock<Seen> = OnceLock::new();
    SEEN.get_or_init(|| {
        let mut seen = Seen::default();
        let configurations =
            [CharacterAssignment::Random, CharacterAssignment::Chosen].into_iter().flat_map(|characters| {
                (RichardTheLionheart::MIN_PLAYERS..=RichardTheLionheart::MAX_PLAYERS)
                    .map(move |players| (players, Options { characters }))
            });
        visit_random_games(configurations, GAMES_PER_SETUP, MAX_STEPS, |game: &RichardTheLionheart| seen.game(game));
        seen
    })
}

/// Everything wrong with `catalog` against the ids this engine has.
fn problems(catalog: &Value, seen: &Seen) -> Vec<String> {
    game_core::testing::texts::catalog_problems(catalog, &expected_terms(), &seen.steps, &seen.actions)
}

#[test]
fn the_catalog_describes_this_game_with_a_summary_of_six_to_twelve_sections() {
    check_summary(&catalog(), RichardTheLionheart::ID, RichardTheLionheart::NAME);
}

#[test]
fn every_code_step_and_action_has_a_complete_text_and_no_entry_is_unknown() {
    let seen = seen();
    let problems = problems(&catalog(), seen);
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn the_playouts_meet_only_ids_the_api_enumerates_and_every_explained_field() {
    let seen = seen();
    let expected = expected_terms();
    let unknown: Vec<_> = seen.terms.difference(&expected).collect();
    assert!(unknown.is_empty(), "views or actions show ids the test does not enumerate: {unknown:?}");
    let absent: Vec<_> = FIELDS.iter().filter(|f| !seen.fields.contains(**f)).collect();
    assert!(absent.is_empty(), "explained fields that no view has: {absent:?}");
    // Every phase number the test lists really occurs, so none of them is a made-up entry.
    for phase in PHASES {
        assert!(seen.terms.contains(&format!("phase:{phase}")), "phase {phase} never seen");
    }
    // The decision points D0.1–D4.1 of spec §4 (D2.2 and D2.3 share `move`) and the end.
    assert_eq!(seen.steps.len(), 14, "{:?}", seen.steps);
    assert_eq!(seen.actions.len(), 16, "{:?}", seen.actions);
}

#[test]
fn names_are_the_engine_and_rulebook_names() {
    let catalog = catalog();
    let name = |key: String| catalog["terms"][&key]["name"].as_str().unwrap_or_default().to_string();
    for card in Card::ALL {
        assert_eq!(name(format!("card:{}", id(card))), card.name());
    }
    // The issue found "King's Ransom" and "King's Time" on the table; the rulebook says otherwise.
    for track in [Track::RA, Track::SA, Track::KR, Track::KT] {
        assert_eq!(name(format!("track:{}", id(track))), track.name());
    }
    assert_eq!(name("track:KR".into()), "King's Return");
    assert_eq!(name("track:KT".into()), "King's Treasure");
    for location in Location::ALL {
        assert_eq!(name(format!("location:{}", id(location))), location.name());
    }
    for character in Character::ALL {
        // The engine writes "the Sheriff of Nottingham" for log sentences; a label drops the article.
        let engine = character.name().trim_start_matches("the ");
        assert_eq!(name(format!("character:{}", id(character))), engine);
    }
    for edict in FACTIONS.iter().flat_map(|f| Edict::deck(*f)) {
        assert_eq!(name(format!("edict:{}", id(edict))), edict.name());
    }
    for event in EventCard::ALL {
        assert_eq!(name(format!("event:{}", id(event))), event.name());
    }
}

#[test]
fn no_text_shows_a_raw_card_track_edict_or_event_code() {
    // The issue: players met "JE5", "RB/GH" and track codes with nothing to say what they mean.
    let mut codes: BTreeSet<String> = Card::ALL.iter().map(id).collect();
    codes.extend([Track::RA, Track::SA, Track::KR, Track::KT].iter().map(id));
    codes.extend(FACTIONS.iter().flat_map(|f| Edict::deck(*f)).map(id));
    codes.extend(EventCard::ALL.iter().map(id));
    for text in section_texts(&catalog()) {
        let shown: Vec<&str> =
            text.split(|c: char| !c.is_ascii_alphanumeric()).filter(|word| codes.contains(*word)).collect();
        assert!(shown.is_empty(), "{shown:?} in: {text}");
    }
}

#[test]
fn character_texts_state_their_faction_and_starting_coins() {
    let catalog = catalog();
    for character in Character::ALL {
        let text = catalog["terms"][format!("character:{}", id(character))]["text"].as_str().unwrap_or_default();
        let coins = format!("{} coins", character.starting_coins());
        assert!(text.contains(&coins), "{character:?}: {text}");
        let faction = match character.faction() {
            Faction::Richard => "Richard",
            Faction::John => "John",
            Faction::Neutral => "Neutral",
        };
        assert!(text.contains(faction), "{character:?}: {text}");
    }
}

#[test]
fn removing_any_entry_or_adding_an_unknown_one_is_reported() {
    let seen = seen();
    check_every_change_is_reported(&catalog(), "location:camelot", |c| problems(c, seen));
}
