//! The seeded RNG that lives inside every game state, seeds, and seed commitments.
//!
//! All randomness of a game comes from one [`GameRng`] stored in its state, so that the same
//! seed and actions rebuild the same state bit for bit. The sampling algorithms here are our own
//! (rejection sampling, Fisher–Yates) so that no upgrade of a dependency can change a shuffle.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};
use std::fmt;
use std::str::FromStr;

/// A 256-bit game seed. Serialised as 64 lowercase hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seed(pub [u8; 32]);

impl Seed {
    /// A fresh seed from the operating system's CSPRNG.
    pub fn random() -> Seed {
        let mut bytes = [0u8; 32];
        rand_core::OsRng.fill_bytes(&mut bytes);
        Seed(bytes)
    }

    /// A seed derived from a small number, for tests, simulations and command-line use.
    pub fn from_u64(n: u64) -> Seed {
        let digest = Sha256::digest(n.to_le_bytes());
        Seed(digest.into())
    }

    /// The public commitment to this seed: the SHA-256 of its 32 bytes, in hex.
    pub fn commitment(&self) -> String {
        hex::encode(Sha256::digest(self.0))
    }

    /// The seed as 64 hex digits.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Seed({})", self.to_hex())
    }
}

/// A seed string that is not 64 hex digits.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a seed is 64 hex digits (or a decimal number for tests), got {0:?}")]
pub struct BadSeed(pub String);

impl FromStr for Seed {
    type Err = BadSeed;

    /// Parses 64 hex digits, or a decimal number (expanded with [`Seed::from_u64`]).
    fn from_str(s: &str) -> Result<Seed, BadSeed> {
        if s.len() == 64 {
            let mut bytes = [0u8; 32];
            hex::decode_to_slice(s, &mut bytes).map_err(|_| BadSeed(s.to_string()))?;
            return Ok(Seed(bytes));
        }
        s.parse::<u64>().map(Seed::from_u64).map_err(|_| BadSeed(s.to_string()))
    }
}

impl Serialize for Seed {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for Seed {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Seed, D::Error> {
        let s = String::deserialize(d)?;
        if s.len() != 64 {
            return Err(serde::de::Error::custom(BadSeed(s)));
        }
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// The deterministic RNG stored inside a game state (ChaCha20).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRng(ChaCha20Rng);

impl GameRng {
    /// The RNG for a game created with `seed`.
    pub fn from_seed(seed: Seed) -> GameRng {
        GameRng(ChaCha20Rng::from_seed(seed.0))
    }

    /// An RNG from a small number, for tests and bots.
    pub fn from_u64(n: u64) -> GameRng {
        GameRng::from_seed(Seed::from_u64(n))
    }

    /// The next raw 32-bit value.
    pub fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    /// A uniform number in `0..n` (unbiased, by rejection). `n` must be at least 1; 0 gives 0.
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let n = n as u64;
        // Largest multiple of n that fits in 2^32: values at or above it are re-drawn.
        let zone = (1u64 << 32) - ((1u64 << 32) % n);
        loop {
            let v = u64::from(self.0.next_u32());
            if v < zone {
                return (v % n) as usize;
            }
        }
    }

    /// A fair coin.
    pub fn coin(&mut self) -> bool {
        self.0.next_u32() & 1 == 1
    }

    /// Shuffles `items` in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }

    /// A uniformly chosen element, or `None` for an empty slice.
    pub fn choose<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            None
        } else {
            items.get(self.below(items.len()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_round_trips_through_hex_and_json() {
        let seed = Seed::from_u64(7);
        let parsed: Seed = seed.to_hex().parse().unwrap();
        assert_eq!(parsed, seed);
        let json = serde_json::to_string(&seed).unwrap();
        assert_eq!(serde_json::from_str::<Seed>(&json).unwrap(), seed);
        assert!("xyz".parse::<Seed>().is_err());
        assert_ne!(seed.commitment(), seed.to_hex());
    }

    #[test]
    fn the_same_seed_gives_the_same_shuffle_and_a_restored_rng_continues_identically() {
        let mut a = GameRng::from_u64(1);
        let mut b = GameRng::from_u64(1);
        let mut xs: Vec<u32> = (0..50).collect();
        let mut ys = xs.clone();
        a.shuffle(&mut xs);
        b.shuffle(&mut ys);
        assert_eq!(xs, ys);
        assert_ne!(xs, (0..50).collect::<Vec<_>>());
        let restored: GameRng = serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap();
        let mut a2 = restored;
        assert_eq!(a.next_u32(), a2.next_u32());
    }

    #[test]
    fn below_stays_in_range_and_reaches_every_value() {
        let mut rng = GameRng::from_u64(3);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            let v = rng.below(7);
            seen[v] = true;
        }
        assert!(seen.iter().all(|s| *s));
        assert_eq!(rng.below(0), 0);
    }
}
