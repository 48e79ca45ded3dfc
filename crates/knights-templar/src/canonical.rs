//! The state's canonical JSON, written for its hash with a memo of the members that rarely change.
//!
//! A live table hashes the state after every action (the hash goes into the log). Of a four-player
//! state's ~1.6 KB of JSON, the RNG (used at setup only), the setup draws (written once), the deck,
//! the Fate row, the tableaus and the discard pile (which most actions leave alone, or change one of)
//! are nearly all, and their text is copied from the memo while their values are the ones it was
//! written from (compared in full: a comparison of a few dozen card numbers is far cheaper than
//! writing them). The bytes are
//! exactly `serde_json::to_writer`'s for [`KnightsTemplar`]: the members in declaration order, as
//! the derive writes them (`check_view_patches` compares the two hashes at every step of random
//! games, and `write_canonical_is_the_derived_json` below every member at every step).

use crate::card::Card;
use crate::state::{Discard, KnightsTemplar, SetupDraw};
use game_core::view_diff::push_uint_bytes;
use game_core::BySeat;
use game_core::GameRng;
use serde::Serialize;

/// The members' text as last written, with the values it was written from. A memo is kept for
/// the states of one game (a table's, from one action to the next): the setup draws, fixed at
/// setup, are written once and not compared again.
#[derive(Default)]
pub(crate) struct HashMemo {
    rng: Kept<GameRng>,
    deck: Kept<Vec<Card>>,
    fate: Kept<Vec<Card>>,
    tableaus: Kept<BySeat<Vec<Card>>>,
    discard: KeptList<Discard>,
    setup_draws: Kept<Vec<SetupDraw>>,
}

/// A value and its JSON, once written.
struct Kept<T> {
    value: Option<T>,
    json: Vec<u8>,
}

impl<T> Default for Kept<T> {
    fn default() -> Self {
        Kept { value: None, json: Vec::new() }
    }
}

impl<T: Serialize + PartialEq + Clone> Kept<T> {
    /// Appends `head` and `value`'s JSON to `out`: the kept text if it was written from an equal
    /// value.
    fn write(&mut self, out: &mut Vec<u8>, head: &str, value: &T) {
        out.extend_from_slice(head.as_bytes());
        if self.value.as_ref() != Some(value) {
            self.json.clear();
            json(value, &mut self.json);
            match &mut self.value {
                Some(kept) => kept.clone_from(value),
                None => self.value = Some(value.clone()),
            }
        }
        out.extend_from_slice(&self.json);
    }
}

impl<T: Serialize + PartialEq + Clone + std::fmt::Debug> Kept<T> {
    /// [`Kept::write`] for a member that never changes once the game is set up: written the
    /// first time, then copied without comparing the value again (the memo is of one game:
    /// [`HashMemo`]). Debug builds, which the tests run, still compare it every time.
    fn write_fixed(&mut self, out: &mut Vec<u8>, head: &str, value: &T) {
        match &self.value {
            Some(kept) => {
                debug_assert_eq!(kept, value, "a member fixed at setup changed");
                out.extend_from_slice(head.as_bytes());
                out.extend_from_slice(&self.json);
            }
            None => self.write(out, head, value),
        }
    }
}

/// A list and its JSON, once written: a list that grew at its end (a discard pile during a round)
/// has only the new items written, after the text of the old ones.
struct KeptList<T> {
    value: Vec<T>,
    json: Vec<u8>,
}

impl<T> Default for KeptList<T> {
    fn default() -> Self {
        KeptList { value: Vec::new(), json: b"[]".to_vec() }
    }
}

impl<T: Serialize + PartialEq + Clone> KeptList<T> {
    /// Appends `head` and `list`'s JSON to `out`, as [`Kept::write`].
    fn write(&mut self, out: &mut Vec<u8>, head: &str, list: &[T]) {
        out.extend_from_slice(head.as_bytes());
        let kept = self.value.len();
        if list.len() < kept || list[..kept] != self.value[..] {
            // Not the old list with more at its end: written afresh.
            self.value.clear();
            self.json.clear();
            self.json.push(b'[');
        } else {
            // `[a,b]` becomes `[a,b` for what follows.
            self.json.pop();
        }
        for item in &list[self.value.len()..] {
            if !self.value.is_empty() {
                self.json.push(b',');
            }
            json(item, &mut self.json);
            self.value.push(item.clone());
        }
        self.json.push(b']');
        out.extend_from_slice(&self.json);
    }
}

/// Writes `value`'s compact JSON (game data: it serialises).
fn json<T: Serialize + ?Sized>(value: &T, out: &mut Vec<u8>) {
    serde_json::to_writer(out, value).expect("game states serialise to JSON");
}

/// Appends `head` (the punctuation and the key before a member's value) and `value`'s JSON.
fn member<T: Serialize + ?Sized>(out: &mut Vec<u8>, head: &str, value: &T) {
    out.extend_from_slice(head.as_bytes());
    json(value, out);
}

/// Appends `head` and the number `n` (as serde_json writes an unsigned integer).
fn number(out: &mut Vec<u8>, head: &str, n: u64) {
    out.extend_from_slice(head.as_bytes());
    push_uint_bytes(out, n);
}

/// Appends `head` and the array of `numbers`.
fn numbers(out: &mut Vec<u8>, head: &str, numbers: impl Iterator<Item = u64>) {
    out.extend_from_slice(head.as_bytes());
    out.push(b'[');
    for (i, n) in numbers.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        push_uint_bytes(out, n);
    }
    out.push(b']');
}

/// Appends `game`'s canonical JSON to `out`.
pub(crate) fn write(game: &KnightsTemplar, out: &mut Vec<u8>, memo: &mut HashMemo) {
    // Every member, in the struct's declaration order (the pattern names them all: a member
    // added to the struct does not compile here until it is written too).
    let KnightsTemplar {
        players,
        rng,
        deck,
        fate,
        tableaus,
        discard,
        county_vp,
        gm,
        turn,
        round,
        picked,
        picker,
        fate_picks,
        stage,
        power_queue,
        pending,
        setup_draws,
        end,
    } = game;
    // The members that are numbers or lists of numbers are written here, as serde_json writes
    // them; the others through serde.
    number(out, r#"{"players":"#, *players as u64);
    memo.rng.write(out, r#","rng":"#, rng);
    memo.deck.write(out, r#","deck":"#, deck);
    memo.fate.write(out, r#","fate":"#, fate);
    memo.tableaus.write(out, r#","tableaus":"#, tableaus);
    memo.discard.write(out, r#","discard":"#, discard);
    numbers(out, r#","county_vp":"#, county_vp.0.iter().map(|&n| u64::from(n)));
    number(out, r#","gm":"#, u64::from(gm.0));
    number(out, r#","turn":"#, u64::from(*turn));
    number(out, r#","round":"#, u64::from(*round));
    numbers(out, r#","picked":"#, picked.iter().map(|s| u64::from(s.0)));
    number(out, r#","picker":"#, u64::from(picker.0));
    numbers(out, r#","fate_picks":"#, fate_picks.0.iter().map(|&n| u64::from(n)));
    member(out, r#","stage":"#, stage);
    numbers(out, r#","power_queue":"#, power_queue.iter().map(|s| u64::from(s.0)));
    member(out, r#","pending":"#, pending);
    // Written at setup and never changed by any rule (see `setup::setup`).
    memo.setup_draws.write_fixed(out, r#","setup_draws":"#, setup_draws);
    member(out, r#","end":"#, end);
    out.push(b'}');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Options;
    use game_core::testing::{random_playout, setup};
    use game_core::Game;

    #[test]
    fn write_canonical_is_the_derived_json() {
        for players in KnightsTemplar::MIN_PLAYERS..=KnightsTemplar::MAX_PLAYERS {
            for seed in 0..6 {
                let options = Options::default();
                let playout = random_playout::<KnightsTemplar>(players, &options, seed, 100_000, false);
                let mut game: KnightsTemplar = setup(players, &options, seed);
                // One memo for the whole game, as a table keeps it.
                let mut memo = HashMemo::default();
                let mut check = |game: &KnightsTemplar, step: usize| {
                    let mut out = Vec::new();
                    write(game, &mut out, &mut memo);
                    let expected = serde_json::to_vec(game).expect("serialises");
                    assert!(
                        out == expected,
                        "{players} players, seed {seed}, step {step}:\n{}\n{}",
                        String::from_utf8_lossy(&out),
                        String::from_utf8_lossy(&expected)
                    );
                };
                check(&game, 0);
                for (step, (seat, action)) in playout.actions.iter().enumerate() {
                    game.apply(*seat, action).expect("recorded action");
                    check(&game, step + 1);
                }
            }
        }
    }
}
