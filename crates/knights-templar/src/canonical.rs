//! The state's canonical JSON, written for its hash with a memo of the members that rarely change.
//!
//! A live table hashes the state after every action (the hash goes into the log). Of a four-player
//! state's ~1.6 KB of JSON, the RNG (used at setup only), the setup draws (written once) and the
//! discard pile (which most actions leave alone) are more than half, and their text is copied from
//! the memo while their values are the ones it was written from (compared in full). The bytes are
//! exactly `serde_json::to_writer`'s for [`KnightsTemplar`]: the members in declaration order, as
//! the derive writes them (`check_view_patches` compares the two hashes at every step of random
//! games, and `write_canonical_is_the_derived_json` below every member at every step).

use crate::state::{Discard, KnightsTemplar, SetupDraw};
use game_core::GameRng;
use serde::Serialize;

/// The members' text as last written, with the values it was written from.
#[derive(Default)]
pub(crate) struct HashMemo {
    rng: Kept<GameRng>,
    discard: Kept<Vec<Discard>>,
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
    /// Appends `value`'s JSON to `out`: the kept text if it was written from an equal value.
    fn write(&mut self, value: &T, out: &mut Vec<u8>) {
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

/// Writes `value`'s compact JSON (game data: it serialises).
fn json<T: Serialize + ?Sized>(value: &T, out: &mut Vec<u8>) {
    serde_json::to_writer(out, value).expect("game states serialise to JSON");
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
    out.extend_from_slice(br#"{"players":"#);
    json(players, out);
    out.extend_from_slice(br#","rng":"#);
    memo.rng.write(rng, out);
    out.extend_from_slice(br#","deck":"#);
    json(deck, out);
    out.extend_from_slice(br#","fate":"#);
    json(fate, out);
    out.extend_from_slice(br#","tableaus":"#);
    json(tableaus, out);
    out.extend_from_slice(br#","discard":"#);
    memo.discard.write(discard, out);
    out.extend_from_slice(br#","county_vp":"#);
    json(county_vp, out);
    out.extend_from_slice(br#","gm":"#);
    json(gm, out);
    out.extend_from_slice(br#","turn":"#);
    json(turn, out);
    out.extend_from_slice(br#","round":"#);
    json(round, out);
    out.extend_from_slice(br#","picked":"#);
    json(picked, out);
    out.extend_from_slice(br#","picker":"#);
    json(picker, out);
    out.extend_from_slice(br#","fate_picks":"#);
    json(fate_picks, out);
    out.extend_from_slice(br#","stage":"#);
    json(stage, out);
    out.extend_from_slice(br#","power_queue":"#);
    json(power_queue, out);
    out.extend_from_slice(br#","pending":"#);
    json(pending, out);
    out.extend_from_slice(br#","setup_draws":"#);
    memo.setup_draws.write(setup_draws, out);
    out.extend_from_slice(br#","end":"#);
    json(end, out);
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
