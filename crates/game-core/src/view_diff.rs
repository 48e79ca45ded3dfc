//! JSON Patch between two views given as their compact JSON text, without building either view
//! as a `serde_json::Value`.
//!
//! A live table sends every subscriber, per action, the RFC 6902 patch from its previous view to
//! its new one. Building both views as `Value` trees and diffing them costs far more than the
//! engine's own work, yet most of a view does not change from one action to the next. Here the
//! old and new views are compared as text: a sub-tree whose bytes are equal is skipped with one
//! `memcmp`, and only the values that go into the patch are parsed.
//!
//! The result is exactly what [`json_patch::diff`] gives for the same two documents parsed as
//! `Value`s (same operations, same order, same paths, same values): objects are walked in sorted
//! key order (as `serde_json::Map` keeps them), arrays index by index with the same shifting of
//! removals. [`check_view_patches`] asserts this for every viewer at every step of random games.
//!
//! The texts must be compact JSON as `serde_json::to_string` writes it (no whitespace); that is
//! the only input the server gives. Equal bytes mean equal values for such text (serde_json
//! writes a given value one way only); the converse holds for the integers, strings, booleans and
//! nulls views are made of.

use crate::dynamic::GameDescriptor;
use crate::rng::{GameRng, Seed};
use crate::seat::{SeatNames, Viewer};
use json_patch::jsonptr::PointerBuf;
use json_patch::{AddOperation, Patch, PatchOperation, RemoveOperation, ReplaceOperation};
use serde_json::Value;
use std::borrow::Cow;

/// The patch from the view `old` to the view `new`, both compact JSON text.
///
/// Text that is not JSON (which no serialised view is) is diffed as a whole: the patch then
/// replaces the document with `new` parsed leniently (`null` if it does not parse).
pub fn diff_json(old: &str, new: &str) -> Patch {
    let mut patch = Patch(Vec::new());
    let mut pointer = PointerBuf::new();
    diff_at(old, new, &mut pointer, &mut patch);
    patch
}

fn diff_at(old: &str, new: &str, pointer: &mut PointerBuf, patch: &mut Patch) {
    if old == new {
        return;
    }
    match (old.as_bytes().first(), new.as_bytes().first()) {
        (Some(b'{'), Some(b'{')) => {
            if let (Some(left), Some(right)) = (object_members(old), object_members(new)) {
                return diff_object(&left, &right, pointer, patch);
            }
        }
        (Some(b'['), Some(b'[')) => {
            if let (Some(left), Some(right)) = (array_items(old), array_items(new)) {
                return diff_array(&left, &right, pointer, patch);
            }
        }
        _ => {}
    }
    // Scalars, or values of different types. Text that differs can still be an equal value
    // (`1.0` and `1.00`), and `json_patch::diff` compares values here: so do we.
    let right = parse(new);
    if parse(old) != right {
        patch.0.push(PatchOperation::Replace(ReplaceOperation { path: pointer.clone(), value: right }));
    }
}

fn diff_object(
    left: &[(Cow<'_, str>, &str)],
    right: &[(Cow<'_, str>, &str)],
    pointer: &mut PointerBuf,
    patch: &mut Patch,
) {
    // Both sorted by key: one merge walk finds the common, added and removed keys.
    let mut removed = Vec::new();
    let (mut i, mut j) = (0, 0);
    while j < right.len() {
        let (key, new) = (&right[j].0, right[j].1);
        match left.get(i).map(|(k, _)| k.as_ref().cmp(key.as_ref())) {
            Some(std::cmp::Ordering::Less) => {
                removed.push(i);
                i += 1;
                continue;
            }
            Some(std::cmp::Ordering::Equal) => {
                pointer.push_back(key.as_ref());
                diff_at(left[i].1, new, pointer, patch);
                pointer.pop_back();
                i += 1;
            }
            Some(std::cmp::Ordering::Greater) | None => {
                pointer.push_back(key.as_ref());
                patch.0.push(PatchOperation::Add(AddOperation { path: pointer.clone(), value: parse(new) }));
                pointer.pop_back();
            }
        }
        j += 1;
    }
    removed.extend(i..left.len());
    for index in removed {
        pointer.push_back(left[index].0.as_ref());
        patch.0.push(PatchOperation::Remove(RemoveOperation { path: pointer.clone() }));
        pointer.pop_back();
    }
}

fn diff_array(left: &[&str], right: &[&str], pointer: &mut PointerBuf, patch: &mut Patch) {
    // The same walk as json_patch: pairwise, then removals at the shifting end, or additions.
    let mut shift = 0usize;
    for index in 0..left.len().max(right.len()) {
        pointer.push_back(index - shift);
        match (left.get(index), right.get(index)) {
            (Some(old), Some(new)) => diff_at(old, new, pointer, patch),
            (Some(_), None) => {
                shift += 1;
                patch.0.push(PatchOperation::Remove(RemoveOperation { path: pointer.clone() }));
            }
            (None, Some(new)) => {
                patch.0.push(PatchOperation::Add(AddOperation { path: pointer.clone(), value: parse(new) }));
            }
            (None, None) => {}
        }
        pointer.pop_back();
    }
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

/// The members of a compact JSON object, sorted by (unescaped) key; `None` if it is not one.
fn object_members(text: &str) -> Option<Vec<(Cow<'_, str>, &str)>> {
    let bytes = text.as_bytes();
    let mut members = Vec::new();
    let mut at = 1;
    if bytes.get(at) == Some(&b'}') {
        return (at + 1 == bytes.len()).then_some(members);
    }
    loop {
        let key_end = value_end(bytes, at)?;
        let raw_key = text.get(at + 1..key_end - 1)?;
        let key = if raw_key.contains('\\') {
            Cow::Owned(serde_json::from_str::<String>(text.get(at..key_end)?).ok()?)
        } else {
            Cow::Borrowed(raw_key)
        };
        if bytes.get(key_end) != Some(&b':') {
            return None;
        }
        let end = value_end(bytes, key_end + 1)?;
        members.push((key, text.get(key_end + 1..end)?));
        match bytes.get(end) {
            Some(b',') => at = end + 1,
            Some(b'}') if end + 1 == bytes.len() => break,
            _ => return None,
        }
    }
    // Structs serialise in declaration order; `Value` objects (and so json_patch) in key order.
    if !members.windows(2).all(|w| w[0].0 < w[1].0) {
        members.sort_by(|a, b| a.0.cmp(&b.0));
    }
    Some(members)
}

/// The items of a compact JSON array; `None` if it is not one.
fn array_items(text: &str) -> Option<Vec<&str>> {
    let bytes = text.as_bytes();
    let mut items = Vec::new();
    let mut at = 1;
    if bytes.get(at) == Some(&b']') {
        return (at + 1 == bytes.len()).then_some(items);
    }
    loop {
        let end = value_end(bytes, at)?;
        items.push(text.get(at..end)?);
        match bytes.get(end) {
            Some(b',') => at = end + 1,
            Some(b']') if end + 1 == bytes.len() => return Some(items),
            _ => return None,
        }
    }
}

/// Where the value starting at `start` ends (one past its last byte).
fn value_end(bytes: &[u8], start: usize) -> Option<usize> {
    match bytes.get(start)? {
        b'"' => string_end(bytes, start),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut at = start;
            loop {
                match bytes.get(at)? {
                    b'"' => {
                        at = string_end(bytes, at)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(at + 1);
                        }
                    }
                    _ => {}
                }
                at += 1;
            }
        }
        _ => {
            let len =
                bytes[start..].iter().position(|b| matches!(b, b',' | b'}' | b']')).unwrap_or(bytes.len() - start);
            (len > 0).then_some(start + len)
        }
    }
}

/// One past the closing quote of the string starting at `start`.
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut at = start + 1;
    loop {
        match bytes.get(at)? {
            b'\\' => at += 2,
            b'"' => return Some(at + 1),
            _ => at += 1,
        }
    }
}

/// Plays `games` random games of `descriptor` (seeds `0..games`) through the JSON interface and,
/// after setup and every action, checks for every viewer that [`diff_json`] of its previous and
/// new view text is exactly `json_patch::diff` of the two views as values, and that applying it
/// to the previous view gives the new one. Returns the number of patches checked.
///
/// # Panics
/// On the first mismatch, naming the game, seed, step and viewer.
pub fn check_view_patches(descriptor: &dyn GameDescriptor, players: usize, options: &Value, games: u64) -> usize {
    let id = descriptor.info().id;
    let names = SeatNames::generic(players);
    let mut checked = 0;
    for seed in 0..games {
        let mut game = descriptor
            .create(players, options, Seed::from_u64(seed))
            .unwrap_or_else(|e| panic!("{id} ({players} players): setup failed: {e}"));
        let mut rng = GameRng::from_u64(seed ^ 0x7a7c_4e55);
        let viewers = Viewer::all(players);
        let mut texts: Vec<String> = viewers.iter().map(|v| game.view_json(*v)).collect();
        let mut step = 0;
        while game.outcome().is_none() {
            step += 1;
            assert!(step < 20_000, "{id} seed {seed}: no end");
            let to_act = game.to_act();
            let seat = *rng.choose(&to_act).unwrap_or_else(|| panic!("{id} seed {seed}: waits for nobody"));
            let legal = game.legal_actions(seat);
            let action = rng.choose(&legal).unwrap_or_else(|| panic!("{id} seed {seed}: no legal action")).clone();
            game.apply(seat, &action, &names).unwrap_or_else(|e| panic!("{id} seed {seed}: rejected {action}: {e}"));
            for (viewer, old_text) in viewers.iter().zip(texts.iter_mut()) {
                let new_text = game.view_json(*viewer);
                let (old, new) = (parse(old_text), parse(&new_text));
                assert_eq!(new, game.view(*viewer), "{id} seed {seed} step {step}: view_json is not the view");
                let fast = diff_json(old_text, &new_text);
                let reference = json_patch::diff(&old, &new);
                assert_eq!(
                    serde_json::to_string(&fast).ok(),
                    serde_json::to_string(&reference).ok(),
                    "{id} seed {seed} step {step} {viewer:?}: the patch differs from json_patch::diff"
                );
                let mut patched = old;
                json_patch::patch(&mut patched, &fast)
                    .unwrap_or_else(|e| panic!("{id} seed {seed} step {step} {viewer:?}: patch fails: {e}"));
                assert_eq!(patched, new, "{id} seed {seed} step {step} {viewer:?}: the patch does not give the view");
                *old_text = new_text;
                checked += 1;
            }
        }
    }
    checked
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn same_as_reference(old: &Value, new: &Value) {
        let fast = diff_json(&old.to_string(), &new.to_string());
        assert_eq!(fast, json_patch::diff(old, new), "{old} -> {new}");
    }

    #[test]
    fn patches_equal_json_patch_diff_on_edge_cases() {
        let cases = [
            (json!({"a": 1, "b": [1, 2, 3], "c": {"x": "y"}}), json!({"a": 2, "b": [1], "d": null})),
            (json!([1, [2, 3], {"k": "v"}]), json!([1, [2, 3, 4], {"k": "w", "l": []}, "new"])),
            (json!({"we\"ird/key~": 1, "z": "a,b}]"}), json!({"we\"ird/key~": 2, "z": "a,b}]\"", "\\": 1})),
            (json!({"a": {"b": 1}}), json!({"a": [1]})),
            (json!({}), json!({"a": {}})),
            (json!([]), json!([[]])),
            (json!("x"), json!({"a": 1})),
            (json!(null), json!(false)),
            (json!({"a": 1.5, "b": -3}), json!({"a": 1.25, "b": -3})),
            (json!({"b": 1, "a": 2}), json!({"a": 2})),
        ];
        for (old, new) in &cases {
            same_as_reference(old, new);
            same_as_reference(new, old);
        }
    }

    #[test]
    fn struct_fields_in_declaration_order_are_diffed_in_key_order() {
        // Structs serialise their fields in declaration order; the patch must still follow the
        // sorted key order a `Value` has.
        let old = r#"{"zeta":1,"alpha":[1,2],"mid":{"y":1,"b":2}}"#;
        let new = r#"{"zeta":2,"alpha":[1],"mid":{"y":3,"b":2,"a":0}}"#;
        let reference = json_patch::diff(&parse(old), &parse(new));
        assert_eq!(diff_json(old, new), reference);
        assert_eq!(reference.0.len(), 4);
    }

    #[test]
    fn equal_texts_give_an_empty_patch() {
        assert!(diff_json(r#"{"a":[1,2]}"#, r#"{"a":[1,2]}"#).0.is_empty());
    }
}
