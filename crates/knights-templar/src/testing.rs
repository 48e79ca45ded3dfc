//! The test hook of spec §3 step 2: a setup whose shuffles are scripted instead of drawn from a
//! seed. Not part of the engine's contract: the server never calls it.

use crate::card::Card;
use crate::setup::setup_with_shuffles;
use crate::state::KnightsTemplar;
use game_core::{GameRng, SetupError};

/// A game whose setup shuffles are given by `shuffles`, in order. Each entry is the full deck
/// after that shuffle, top first.
///
/// # Errors
/// [`SetupError`] for an unsupported player count, or if a scripted deck is not a permutation
/// of the 95 cards or the script runs out.
pub fn setup_with_scripted_shuffles(players: usize, shuffles: Vec<Vec<Card>>) -> Result<KnightsTemplar, SetupError> {
    SetupError::check_players::<KnightsTemplar>(players)?;
    let sorted: Vec<Card> = Card::all().collect();
    for deck in &shuffles {
        let mut d = deck.clone();
        d.sort();
        if d != sorted {
            return Err(SetupError::InvalidOptions { reason: "a scripted deck must hold all 95 cards".into() });
        }
    }
    let mut script = shuffles.into_iter();
    setup_with_shuffles(players, GameRng::from_u64(0), |deck| match script.next() {
        Some(d) => {
            *deck = d;
            true
        }
        None => false,
    })
    .ok_or_else(|| SetupError::InvalidOptions { reason: "the scripted shuffles ran out".into() })
}
