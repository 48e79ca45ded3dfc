//! Turn clocks: the validated per-turn time limit, and deadline arithmetic that cannot overflow.
//!
//! The limit comes from a lobby's host, so it is untrusted: it is checked once, at the edge, into
//! a [`TurnLimit`], and everything after that (the lobby, the stored game, the table's timers)
//! holds only that type.

use crate::error::ApiError;
use serde::{Deserialize, Serialize};
use std::time::Duration;
use tokio::time::Instant;

/// A per-turn time limit in seconds, within [`TurnLimit::MIN`]..=[`TurnLimit::MAX`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(from = "u64", into = "u64")]
pub struct TurnLimit(u32);

impl TurnLimit {
    /// The shortest limit: below it a bot would play a person's turns before they could answer.
    pub const MIN: u64 = 10;
    /// The longest limit, a week: slow correspondence play, and far from any clock overflow.
    pub const MAX: u64 = 7 * 24 * 3600;

    /// Checks a limit a client sent.
    ///
    /// # Errors
    /// `lobby/invalid_turn_limit` outside `MIN..=MAX`.
    pub fn new(seconds: u64) -> Result<TurnLimit, ApiError> {
        if (Self::MIN..=Self::MAX).contains(&seconds) {
            Ok(TurnLimit(seconds as u32))
        } else {
            Err(ApiError::InvalidTurnLimit { min: Self::MIN, max: Self::MAX })
        }
    }

    /// Checks a limit given as any JSON number (so that a negative, fractional or huge number
    /// gets the same clear error as one merely out of range).
    ///
    /// # Errors
    /// `lobby/invalid_turn_limit`.
    pub fn from_json(number: &serde_json::Number) -> Result<TurnLimit, ApiError> {
        number.as_u64().map_or(Err(ApiError::InvalidTurnLimit { min: Self::MIN, max: Self::MAX }), TurnLimit::new)
    }

    /// The limit in seconds.
    pub fn seconds(self) -> u64 {
        u64::from(self.0)
    }

    /// The limit as a duration.
    pub fn duration(self) -> Duration {
        Duration::from_secs(self.seconds())
    }
}

/// Stored values are trusted only this far: a value written before the range existed is brought
/// into it, so that an old lobby or game still loads and plays (with the nearest valid limit).
impl From<u64> for TurnLimit {
    fn from(seconds: u64) -> TurnLimit {
        TurnLimit(seconds.clamp(Self::MIN, Self::MAX) as u32)
    }
}

impl From<TurnLimit> for u64 {
    fn from(limit: TurnLimit) -> u64 {
        limit.seconds()
    }
}

/// `now + after`, or `None` when that instant cannot be represented (no deadline rather than a
/// panic: a timer that never fires is recoverable, a table that panics is not).
pub fn deadline(now: Instant, after: Duration) -> Option<Instant> {
    now.checked_add(after)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_limit_is_refused_outside_its_range_and_stored_values_are_brought_into_it() {
        assert_eq!(TurnLimit::new(0), Err(ApiError::InvalidTurnLimit { min: 10, max: 604_800 }));
        assert!(TurnLimit::new(u64::MAX).is_err());
        assert_eq!(TurnLimit::new(60).map(TurnLimit::seconds), Ok(60));
        let huge: serde_json::Number = serde_json::from_str("9223372036854775807").unwrap();
        assert!(TurnLimit::from_json(&huge).is_err());
        let negative: serde_json::Number = serde_json::from_str("-5").unwrap();
        assert!(TurnLimit::from_json(&negative).is_err());
        let stored: TurnLimit = serde_json::from_str("9223372036854775807").unwrap();
        assert_eq!(stored.seconds(), TurnLimit::MAX);
        assert_eq!(serde_json::to_string(&TurnLimit::new(90).unwrap()).unwrap(), "90");
    }

    #[test]
    fn a_deadline_past_the_clock_s_range_is_none_not_a_panic() {
        let now = Instant::now();
        assert!(deadline(now, Duration::from_secs(u64::MAX)).is_none());
        assert!(deadline(now, Duration::from_secs(1)).is_some());
    }
}
