//! Checks of a translated rules-text catalog (`texts/<lang>.json`) against the English one, shared
//! by every engine crate's tests: the same keys at every level, every text filled in, tooltip
//! lines short, nothing left in English.

use serde_json::Map;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// The longest `short` text: it must fit one line of a tooltip.
pub const SHORT_MAX_CHARS: usize = 90;

/// An English catalog and its translation, parsed.
pub struct Translation {
    /// The English catalog.
    pub en: Value,
    /// The translated catalog.
    pub tr: Value,
}

impl Translation {
    /// Parses both catalogs.
    ///
    /// # Panics
    /// If either is not JSON.
    pub fn parse(en: &str, tr: &str) -> Translation {
        let parse = |which: &str, text: &str| -> Value {
            serde_json::from_str(text).unwrap_or_else(|e| panic!("the {which} catalog is not valid JSON: {e}"))
        };
        Translation { en: parse("English", en), tr: parse("translated", tr) }
    }

    /// Every place where the two catalogs' shapes differ: a key in one and not the other, a list
    /// of another length, or a text where the other has something else.
    pub fn shape_differences(&self) -> Vec<String> {
        let mut out = Vec::new();
        shape_differences("", &self.en, &self.tr, &mut out);
        out
    }

    /// Runs every check for the translation into `lang`, panicking with all findings of the first
    /// check that fails. `same_in_both` lists the strings that are rightly equal in both catalogs
    /// (proper names); each must be used, so the list cannot grow into a loophole. A text that
    /// contains one of `english_words` was left half translated.
    ///
    /// # Panics
    /// When a check fails.
    pub fn check(&self, lang: &str, same_in_both: &[&str], english_words: &[&str]) {
        assert_eq!(self.tr["lang"], lang, "the translation must say \"lang\": \"{lang}\"");
        assert_eq!(self.tr["game"], self.en["game"], "the translation names another game than en.json");
        let differences = self.shape_differences();
        assert!(differences.is_empty(), "the catalogs differ in shape:\n{}", differences.join("\n"));
        let empty: Vec<String> =
            all_texts(&self.tr).into_iter().filter(|(_, s)| s.trim().is_empty()).map(|(path, _)| path).collect();
        assert!(empty.is_empty(), "empty texts: {empty:?}");
        let long: Vec<String> = self.tr["terms"]
            .as_object()
            .unwrap_or_else(|| panic!("the translation has no terms object"))
            .iter()
            .filter_map(|(key, term)| {
                let short = term["short"].as_str().unwrap_or_default();
                let chars = short.chars().count();
                (chars > SHORT_MAX_CHARS).then(|| format!("{key} ({chars} chars): {short}"))
            })
            .collect();
        assert!(long.is_empty(), "short texts over {SHORT_MAX_CHARS} characters:\n{}", long.join("\n"));
        let english: BTreeMap<String, String> = player_texts(&self.en).into_iter().collect();
        let copies: Vec<(String, String)> =
            player_texts(&self.tr).into_iter().filter(|(path, text)| english.get(path) == Some(text)).collect();
        let untranslated: Vec<String> = copies
            .iter()
            .filter(|(_, text)| !same_in_both.contains(&text.as_str()))
            .map(|(path, text)| format!("{path}: {text}"))
            .collect();
        assert!(untranslated.is_empty(), "left in English:\n{}", untranslated.join("\n"));
        let unused: Vec<&&str> = same_in_both.iter().filter(|name| !copies.iter().any(|(_, t)| t == *name)).collect();
        assert!(unused.is_empty(), "same_in_both lists strings no entry shares with en.json: {unused:?}");
        let half_translated: Vec<String> = player_texts(&self.tr)
            .into_iter()
            .filter(|(_, text)| {
                let words: Vec<String> = text.split(|c: char| !c.is_alphabetic()).map(str::to_lowercase).collect();
                english_words.iter().any(|english| words.iter().any(|w| w == english))
            })
            .map(|(path, text)| format!("{path}: {text}"))
            .collect();
        assert!(half_translated.is_empty(), "English words in the translation:\n{}", half_translated.join("\n"));
    }
}

fn shape_differences(path: &str, en: &Value, tr: &Value, out: &mut Vec<String>) {
    match (en, tr) {
        (Value::Object(en), Value::Object(tr)) => {
            for key in en.keys().filter(|k| !tr.contains_key(*k)) {
                out.push(format!("{path}/{key}: missing in the translation"));
            }
            for key in tr.keys().filter(|k| !en.contains_key(*k)) {
                out.push(format!("{path}/{key}: not in en.json"));
            }
            for (key, en_value) in en {
                if let Some(tr_value) = tr.get(key) {
                    shape_differences(&format!("{path}/{key}"), en_value, tr_value, out);
                }
            }
        }
        (Value::Array(en), Value::Array(tr)) => {
            if en.len() != tr.len() {
                out.push(format!("{path}: {} entries in en.json, {} in the translation", en.len(), tr.len()));
            }
            for (i, (en_value, tr_value)) in en.iter().zip(tr).enumerate() {
                shape_differences(&format!("{path}/{i}"), en_value, tr_value, out);
            }
        }
        (Value::String(_), Value::String(_)) => {}
        _ => out.push(format!("{path}: en.json has {en}, the translation has {tr}")),
    }
}

fn collect_texts(path: &str, value: &Value, out: &mut Vec<(String, String)>) {
    match value {
        Value::Object(map) => map.iter().for_each(|(k, v)| collect_texts(&format!("{path}/{k}"), v, out)),
        Value::Array(list) => list.iter().enumerate().for_each(|(i, v)| collect_texts(&format!("{path}/{i}"), v, out)),
        Value::String(s) => out.push((path.to_owned(), s.clone())),
        _ => {}
    }
}

/// Every text of a catalog with its path (`/terms/card:1/name`), in file order.
pub fn all_texts(value: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    collect_texts("", value, &mut out);
    out
}

/// The texts a player reads: everything but the `game` id and the `lang` tag.
pub fn player_texts(value: &Value) -> Vec<(String, String)> {
    all_texts(value).into_iter().filter(|(path, _)| path != "/game" && path != "/lang").collect()
}

/// The object `name` of a catalog.
///
/// # Panics
/// If the catalog has no such object.
pub fn object<'a>(catalog: &'a Value, name: &str) -> &'a Map<String, Value> {
    catalog.get(name).and_then(Value::as_object).unwrap_or_else(|| panic!("the catalog has no `{name}` object"))
}

/// The keys of a catalog section.
pub fn keys(map: &Map<String, Value>) -> BTreeSet<String> {
    map.keys().cloned().collect()
}

/// One catalog section against the ids the engine has: what is missing and what is unknown.
fn compare(problems: &mut Vec<String>, section: &str, have: &BTreeSet<String>, want: &BTreeSet<String>) {
    for missing in want.difference(have) {
        problems.push(format!("{section}: no entry for `{missing}`"));
    }
    for unknown in have.difference(want) {
        problems.push(format!("{section}: `{unknown}` names nothing the engine has"));
    }
}

/// Everything wrong with an English catalog against the ids its engine has: missing or unknown
/// `terms`, `steps` and `actions` keys, entries without exactly their fields, and `short` texts
/// longer than one tooltip line.
pub fn catalog_problems(
    catalog: &Value,
    terms_wanted: &BTreeSet<String>,
    steps_wanted: &BTreeSet<String>,
    actions_wanted: &BTreeSet<String>,
) -> Vec<String> {
    let mut problems = Vec::new();
    let terms = object(catalog, "terms");
    let steps = object(catalog, "steps");
    let actions = object(catalog, "actions");
    compare(&mut problems, "terms", &keys(terms), terms_wanted);
    compare(&mut problems, "steps", &keys(steps), steps_wanted);
    compare(&mut problems, "actions", &keys(actions), actions_wanted);
    for (section, map, fields) in [
        ("terms", terms, &["name", "short", "text"][..]),
        ("steps", steps, &["title", "text"]),
        ("actions", actions, &["name", "text"]),
    ] {
        for (key, entry) in map {
            let entry_keys: BTreeSet<&str> =
                entry.as_object().map(|m| m.keys().map(String::as_str).collect()).unwrap_or_default();
            if entry_keys != fields.iter().copied().collect() {
                problems.push(format!("{section}: `{key}` has the fields {entry_keys:?}, not {fields:?}"));
            }
            for field in fields {
                if entry.get(*field).and_then(Value::as_str).is_none_or(|s| s.trim().is_empty()) {
                    problems.push(format!("{section}: `{key}` has no {field}"));
                }
            }
        }
    }
    for (key, entry) in terms {
        let short = entry.get("short").and_then(Value::as_str).unwrap_or_default();
        if short.chars().count() > SHORT_MAX_CHARS || short.contains('\n') {
            problems.push(format!("terms: `{key}` short text is not one line of at most {SHORT_MAX_CHARS} chars"));
        }
    }
    problems
}

/// An engine's English catalog (`texts/en.json`), parsed.
///
/// # Panics
/// If it is not JSON.
pub fn english_catalog(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("texts/en.json is not valid JSON: {e}"))
}

/// A value's id as a view writes it: strings as they are, numbers in decimal.
///
/// # Panics
/// If the value is neither.
pub fn json_id(value: impl serde::Serialize) -> String {
    match serde_json::to_value(value) {
        Ok(Value::String(s)) => s,
        Ok(Value::Number(n)) => n.to_string(),
        other => panic!("not an id: {other:?}"),
    }
}

/// Checks a catalog's top level: exactly its sections, the game's `id` and `name`, English, and a
/// summary of six to twelve sections, each a heading and a body.
///
/// # Panics
/// On the first thing wrong.
pub fn check_summary(catalog: &Value, id: &str, name: &str) {
    let top: BTreeSet<&str> = catalog.as_object().map(|m| m.keys().map(String::as_str).collect()).unwrap_or_default();
    assert_eq!(top, ["actions", "game", "lang", "name", "steps", "summary", "terms"].into_iter().collect());
    assert_eq!(catalog["game"], id);
    assert_eq!(catalog["lang"], "en");
    assert_eq!(catalog["name"], name);
    let summary = catalog["summary"].as_array().map(Vec::as_slice).unwrap_or_default();
    assert!((6..=12).contains(&summary.len()), "{} summary sections", summary.len());
    for section in summary {
        let text = |f: &str| section.get(f).and_then(Value::as_str).unwrap_or_default().trim().to_string();
        assert!(!text("heading").is_empty() && !text("body").is_empty(), "incomplete summary section {section}");
        assert_eq!(section.as_object().map(Map::len), Some(2), "unknown summary fields in {section}");
    }
}

/// Every text of the summary, the terms, the steps and the actions (what a player reads).
pub fn section_texts(catalog: &Value) -> Vec<String> {
    ["summary", "terms", "steps", "actions"]
        .iter()
        .flat_map(|section| all_texts(&catalog[*section]))
        .map(|(_, text)| text)
        .collect()
}

/// Checks that `problems` notices every entry of `terms`, `steps` and `actions` removed from
/// `full` (a problem names its key), and an entry `unknown` that names nothing added to each.
///
/// # Panics
/// On the first change that went unnoticed.
pub fn check_every_change_is_reported(full: &Value, unknown: &str, problems: impl Fn(&Value) -> Vec<String>) {
    for section in ["terms", "steps", "actions"] {
        for key in keys(object(full, section)) {
            let mut cut = full.clone();
            if let Some(map) = cut.get_mut(section).and_then(Value::as_object_mut) {
                map.remove(&key);
            }
            let found = problems(&cut);
            assert!(found.iter().any(|p| p.contains(&format!("`{key}`"))), "removing {section} `{key}` went unnoticed");
        }
        let mut extra = full.clone();
        if let Some(map) = extra.get_mut(section).and_then(Value::as_object_mut) {
            map.insert(unknown.into(), Value::Object(Map::new()));
        }
        assert!(problems(&extra).iter().any(|p| p.contains(&format!("`{unknown}` names nothing"))), "{section}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EN: &str = r#"{"game":"g","lang":"en","terms":{"card:1":{"name":"Crusade","short":"A war","text":"Go."}}}"#;

    #[test]
    fn a_faithful_translation_passes_and_each_fault_is_named() {
        let good =
            r#"{"game":"g","lang":"de","terms":{"card:1":{"name":"Kreuzzug","short":"Ein Krieg","text":"Los."}}}"#;
        Translation::parse(EN, good).check("de", &[], &["the"]);
        let missing = r#"{"game":"g","lang":"de","terms":{"card:1":{"name":"Kreuzzug","short":"Ein Krieg"}}}"#;
        assert_eq!(
            Translation::parse(EN, missing).shape_differences(),
            vec!["/terms/card:1/text: missing in the translation"]
        );
        for bad in [
            r#"{"game":"g","lang":"de","terms":{"card:1":{"name":"Crusade","short":"Ein Krieg","text":"Los."}}}"#,
            r#"{"game":"g","lang":"de","terms":{"card:1":{"name":"Kreuzzug","short":"the Krieg","text":"Los."}}}"#,
            r#"{"game":"g","lang":"de","terms":{"card:1":{"name":"Kreuzzug","short":"","text":"Los."}}}"#,
            r#"{"game":"g","lang":"en","terms":{"card:1":{"name":"Kreuzzug","short":"Ein Krieg","text":"Los."}}}"#,
        ] {
            let t = Translation::parse(EN, bad);
            assert!(std::panic::catch_unwind(|| t.check("de", &[], &["the"])).is_err(), "refused: {bad}");
        }
    }
}
