//! The German rules texts (`texts/de.json`) checked against the English catalog (`texts/en.json`).
//!
//! The web client shows the German catalog wherever it would show the English one, so a key missing
//! here is a raw code on a German screen, and a string left in English is a forgotten translation a
//! player notices. `texts.rs` already ties the English keys to the engine; this file ties the German
//! keys to the English ones, so together every id the engine shows has a German text.

use game_core::testing::texts::{player_texts, Translation};
use templars_journey::{TEXTS_DE, TEXTS_EN};

/// Strings that are rightly the same in both catalogs: proper names and words German shares with
/// English. Anything else equal to its English counterpart is an untranslated copy. Each entry must
/// still be used, so the list cannot quietly grow into a loophole.
const SAME_IN_BOTH: &[&str] = &[
    "Templars' Journey",
    "London",
    "Bretagne",
    "Paris",
    "Bordeaux",
    "Lyon",
    "Provence",
    "Barcelona",
    "Castilla",
    "Burgund",
    "Coeln",
    "Bayern",
    "Wien",
    "Lombardia",
    "Venezia",
    "Roma",
    "Napoli",
    "England",
    "Aragon",
    "Gold",
    "Mission",
    "Veto",
];

/// English words that never belong in a German sentence: a text containing one was left half
/// translated.
const ENGLISH_WORDS: [&str; 8] = ["the", "and", "of", "with", "your", "you", "player", "card"];

fn german() -> serde_json::Value {
    Translation::parse(TEXTS_EN, TEXTS_DE).tr
}

#[test]
fn the_german_catalog_has_the_english_keys_every_text_filled_in_short_and_nothing_left_in_english() {
    Translation::parse(TEXTS_EN, TEXTS_DE).check("de", SAME_IN_BOTH, &ENGLISH_WORDS);
}

/// Names exactly as the German rulebook of Templars' Journey prints them, so that a player who
/// learnt the game from the box finds the same words on screen.
const RULEBOOK_NAMES: [(&str, &str); 18] = [
    ("city:COE", "Coeln"),
    ("city:ROM", "Roma"),
    ("city:VEN", "Venezia"),
    ("edict:PAR", "Erlass von Paris"),
    ("country:FRA", "Frankreich"),
    ("country:HRE", "Heiliges Römisches Reich"),
    ("card:1", "Gold einsammeln – SICHER"),
    ("card:2", "Gold einsammeln – GEWAGT"),
    ("card:3", "Ritter einsetzen – SICHER"),
    ("card:4", "Ritter einsetzen – GEWAGT"),
    ("card:5", "Templer bewegen – GEWAGT"),
    ("card:6", "Templer bewegen – SICHER"),
    ("favour:new_chance", "Neue Chance"),
    ("favour:taxes", "Steuern"),
    ("favour:leader", "Anführer"),
    ("favour:veto", "Veto"),
    ("field:first_player", "Startspieler"),
    ("field:temple", "Tempel"),
];

/// Rulebook words the rules texts must use for the game's concepts (not a paraphrase of their own).
const RULEBOOK_WORDS: [&str; 14] = [
    "Erlass",
    "Erlassfeld",
    "Gebiet",
    "Stadtplättchen",
    "Rundenleiste",
    "Aktionsrunde",
    "Schiffsrunde",
    "Schlusswertung",
    "Chancenmarker",
    "Templerkreuz",
    "Strafaktion",
    "Gunst des Papstes",
    "Siegpunkte",
    "Vorrat",
];

#[test]
fn templars_journey_uses_the_names_of_its_german_rulebook() {
    let de = german();
    let wrong: Vec<String> = RULEBOOK_NAMES
        .iter()
        .filter(|(key, name)| de["terms"][*key]["name"] != *name)
        .map(|(key, name)| format!("{key}: expected {name:?}, found {}", de["terms"][*key]["name"]))
        .collect();
    assert!(wrong.is_empty(), "names differ from the German rulebook:\n{}", wrong.join("\n"));
    let all: String = player_texts(&de).into_iter().map(|(_, text)| text).collect::<Vec<_>>().join("\n");
    let missing: Vec<&&str> = RULEBOOK_WORDS.iter().filter(|word| !all.contains(*word)).collect();
    assert!(missing.is_empty(), "rulebook terms never used: {missing:?}");
    // The rulebook's word for an edict is "Erlass"; "Edikt" would be a second name for one thing.
    assert!(!all.contains("Edikt"), "de.json says \"Edikt\" where the rulebook says \"Erlass\"");
}
