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
///
/// The JSON is streamed into the hasher as it is written, through a small buffer, so no copy of
/// the whole state is ever built; the bytes hashed are exactly [`canonical_bytes`], so the hash
/// is the same as it always was and old logs still verify.
pub fn state_hash<T: Serialize + ?Sized>(state: &T) -> StateHash {
    let mut sink = HashSink { hasher: Sha256::new(), buf: [0; SINK_BUFFER], len: 0 };
    // Writing into the sink cannot fail, and game states serialise (see canonical_bytes).
    serde_json::to_writer(&mut sink, state).expect("game states serialise to JSON");
    let mut hasher = sink.hasher;
    hasher.update(&sink.buf[..sink.len]);
    StateHash(hex::encode(hasher.finalize()))
}

/// serde_json writes many pieces of a few bytes; gathering them before hashing costs less than
/// a hasher call for each.
const SINK_BUFFER: usize = 1024;

struct HashSink {
    hasher: Sha256,
    buf: [u8; SINK_BUFFER],
    len: usize,
}

impl std::io::Write for HashSink {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if self.len + bytes.len() > SINK_BUFFER {
            self.hasher.update(&self.buf[..self.len]);
            self.len = 0;
            if bytes.len() > SINK_BUFFER {
                self.hasher.update(bytes);
                return Ok(bytes.len());
            }
        }
        self.buf[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_streamed_hash_is_the_hash_of_the_canonical_bytes() {
        let long = "x".repeat(3 * SINK_BUFFER + 7);
        let values =
            [json!(null), json!({"a": [1, 2, {"b": "c"}], "d": long}), json!((0..2_000).collect::<Vec<u32>>())];
        for value in values {
            let expected = hex::encode(Sha256::digest(canonical_bytes(&value)));
            assert_eq!(state_hash(&value).0, expected);
        }
        // A fixed value, so that a change of the canonical form itself is noticed too.
        assert_eq!(state_hash(&json!({"seat": 1})).0, hex::encode(Sha256::digest(br#"{"seat":1}"#)),);
    }
}
