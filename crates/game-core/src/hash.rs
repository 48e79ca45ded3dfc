//! The canonical serialisation of a game state and its SHA-256.
//!
//! States serialise with serde_json in declaration order and contain no hash maps, so the bytes
//! (and the hash) are the same on every machine.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt;

/// The SHA-256 of a state's canonical JSON, as 64 hex digits.
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct StateHash(pub String);

impl fmt::Debug for StateHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "StateHash({})", self.0)
    }
}

impl fmt::Display for StateHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The canonical bytes of a state.
pub fn canonical_bytes<T: Serialize + ?Sized>(state: &T) -> Vec<u8> {
    // Game states are plain data (no maps with non-string keys), so serialisation cannot fail.
    serde_json::to_vec(state).expect("game states serialise to JSON")
}

/// The hash of a state's canonical bytes.
pub fn state_hash<T: Serialize + ?Sized>(state: &T) -> StateHash {
    StateHash(hex::encode(Sha256::digest(canonical_bytes(state))))
}
