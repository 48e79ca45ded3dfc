//! The German rules texts (`texts/de.json`) checked against the English catalog (`texts/en.json`).
//!
//! The web client shows the German catalog wherever it would show the English one, so a key missing
//! here is a raw code on a German screen, and a string left in English is a forgotten translation a
//! player notices. `texts.rs` already ties the English keys to the engine; this file ties the German
//! keys to the English ones, so together every id the engine shows has a German text.

use game_core::testing::texts::Translation;
use richard_the_lionheart::{TEXTS_DE, TEXTS_EN};

/// Strings that are rightly the same in both catalogs: proper names and words German shares with
/// English. Anything else equal to its English counterpart is an untranslated copy. Each entry must
/// still be used, so the list cannot quietly grow into a loophole.
const SAME_IN_BOTH: &[&str] = &[
    "Robin Hood",
    "Maid Marion",
    "Little John",
    "Isabella",
    "Leopold",
    "Bridgewater",
    "Bristol",
    "Cambridge",
    "Canterbury",
    "Cardiff",
    "Chester",
    "Gloucester",
    "Grimsby",
    "London",
    "Norwich",
    "Nottingham",
    "Oxford",
    "Salisbury",
    "Sherwood",
    "Shrewsbury",
    "York",
    "Reserve",
    "Hand",
];

/// English words that never belong in a German sentence: a text containing one was left half
/// translated.
const ENGLISH_WORDS: [&str; 8] = ["the", "and", "of", "with", "your", "you", "player", "card"];

#[test]
fn the_german_catalog_has_the_english_keys_every_text_filled_in_short_and_nothing_left_in_english() {
    Translation::parse(TEXTS_EN, TEXTS_DE).check("de", SAME_IN_BOTH, &ENGLISH_WORDS);
}
