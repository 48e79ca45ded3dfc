//! The German rules texts (`texts/de.json`) checked against the English catalog (`texts/en.json`).
//!
//! The web client shows the German catalog wherever it would show the English one, so a key missing
//! here is a raw code on a German screen, and a string left in English is a forgotten translation a
//! player notices. `texts.rs` already ties the English keys to the engine; this file ties the German
//! keys to the English ones, so together every id the engine shows has a German text.

use serde_json::Value;
use templars_journey::{TEXTS_DE, TEXTS_EN};

/// The longest `short` text: it must fit one line of a tooltip.
const SHORT_MAX_CHARS: usize = 90;

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

fn catalog(file: &str, text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("texts/{file} is not valid JSON: {e}"))
}

fn german() -> Value {
    catalog("de.json", TEXTS_DE)
}

fn english() -> Value {
    catalog("en.json", TEXTS_EN)
}

/// Walks both catalogs in step and reports every place where their shapes differ: a key in one
/// and not the other, a list of a different length, or a text where the other has something else.
fn shape_differences(path: &str, en: &Value, de: &Value, out: &mut Vec<String>) {
    match (en, de) {
        (Value::Object(en), Value::Object(de)) => {
            for key in en.keys().filter(|k| !de.contains_key(*k)) {
                out.push(format!("{path}/{key}: missing in de.json"));
            }
            for key in de.keys().filter(|k| !en.contains_key(*k)) {
                out.push(format!("{path}/{key}: not in en.json"));
            }
            for (key, en_value) in en {
                if let Some(de_value) = de.get(key) {
                    shape_differences(&format!("{path}/{key}"), en_value, de_value, out);
                }
            }
        }
        (Value::Array(en), Value::Array(de)) => {
            if en.len() != de.len() {
                out.push(format!("{path}: {} entries in en.json, {} in de.json", en.len(), de.len()));
            }
            for (i, (en_value, de_value)) in en.iter().zip(de).enumerate() {
                shape_differences(&format!("{path}/{i}"), en_value, de_value, out);
            }
        }
        (Value::String(_), Value::String(_)) => {}
        _ => out.push(format!("{path}: en.json has {en}, de.json has {de}")),
    }
}

/// Every text of a catalog with its path (`/terms/card:1/name`), in file order.
fn texts(path: &str, value: &Value, out: &mut Vec<(String, String)>) {
    match value {
        Value::Object(map) => map.iter().for_each(|(k, v)| texts(&format!("{path}/{k}"), v, out)),
        Value::Array(list) => list.iter().enumerate().for_each(|(i, v)| texts(&format!("{path}/{i}"), v, out)),
        Value::String(s) => out.push((path.to_owned(), s.clone())),
        _ => {}
    }
}

fn all_texts(value: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    texts("", value, &mut out);
    out
}

/// The texts a player reads: everything but the `game` id and the `lang` tag.
fn player_texts(value: &Value) -> Vec<(String, String)> {
    all_texts(value).into_iter().filter(|(path, _)| path != "/game" && path != "/lang").collect()
}

#[test]
fn the_german_catalog_is_tagged_german_for_the_same_game() {
    let (en, de) = (english(), german());
    assert_eq!(de["lang"], "de", "de.json must say \"lang\": \"de\"");
    assert_eq!(de["game"], en["game"], "de.json names another game than en.json");
}

#[test]
fn the_german_catalog_has_exactly_the_english_keys_at_every_level() {
    let mut differences = Vec::new();
    shape_differences("", &english(), &german(), &mut differences);
    assert!(differences.is_empty(), "de.json and en.json differ in shape:\n{}", differences.join("\n"));
}

#[test]
fn every_german_text_is_filled_in() {
    let empty: Vec<String> =
        all_texts(&german()).into_iter().filter(|(_, s)| s.trim().is_empty()).map(|(path, _)| path).collect();
    assert!(empty.is_empty(), "empty texts in de.json: {empty:?}");
}

#[test]
fn every_german_short_text_fits_one_tooltip_line() {
    let de = german();
    let terms = de["terms"].as_object().unwrap_or_else(|| panic!("de.json has no terms object"));
    let long: Vec<String> = terms
        .iter()
        .filter_map(|(key, term)| {
            let short = term["short"].as_str().unwrap_or_default();
            let chars = short.chars().count();
            (chars > SHORT_MAX_CHARS).then(|| format!("{key} ({chars} chars): {short}"))
        })
        .collect();
    assert!(long.is_empty(), "short texts over {SHORT_MAX_CHARS} characters:\n{}", long.join("\n"));
}

#[test]
fn no_german_text_is_a_copy_of_the_english_one() {
    let english: std::collections::BTreeMap<String, String> = player_texts(&english()).into_iter().collect();
    let copies: Vec<(String, String)> =
        player_texts(&german()).into_iter().filter(|(path, de)| english.get(path) == Some(de)).collect();
    let untranslated: Vec<String> = copies
        .iter()
        .filter(|(_, text)| !SAME_IN_BOTH.contains(&text.as_str()))
        .map(|(path, text)| format!("{path}: {text}"))
        .collect();
    assert!(untranslated.is_empty(), "left in English in de.json:\n{}", untranslated.join("\n"));
    let unused: Vec<&&str> = SAME_IN_BOTH.iter().filter(|name| !copies.iter().any(|(_, text)| text == *name)).collect();
    assert!(unused.is_empty(), "SAME_IN_BOTH lists strings no entry shares with en.json: {unused:?}");
}

#[test]
fn no_german_text_contains_english_words() {
    let half_translated: Vec<String> = player_texts(&german())
        .into_iter()
        .filter(|(_, text)| {
            let words: Vec<String> = text.split(|c: char| !c.is_alphabetic()).map(str::to_lowercase).collect();
            ENGLISH_WORDS.iter().any(|english| words.iter().any(|w| w == english))
        })
        .map(|(path, text)| format!("{path}: {text}"))
        .collect();
    assert!(half_translated.is_empty(), "English words in de.json:\n{}", half_translated.join("\n"));
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
