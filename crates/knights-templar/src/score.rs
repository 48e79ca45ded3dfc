//! Final scoring (spec §7): Legacy bonus, banked County VP, Treasures, minus Downfall.

use crate::card::CardType;
use crate::state::KnightsTemplar;
use game_core::{Outcome, ScoreLine, Seat};

impl KnightsTemplar {
    /// Each player's Legacy bonus (R19): 5 to the sole leader, 3 to each of tied leaders, with ≥ 1 Legacy.
    pub fn legacy_bonus(&self) -> Vec<i64> {
        let legacy: Vec<usize> = Seat::all(self.players).map(|s| self.count(s, CardType::Legacy)).collect();
        let best = legacy.iter().copied().max().unwrap_or(0);
        let leaders = legacy.iter().filter(|l| **l == best).count();
        legacy
            .iter()
            .map(|l| match (best, *l == best, leaders) {
                (0, _, _) | (_, false, _) => 0,
                (_, true, 1) => 5,
                _ => 3,
            })
            .collect()
    }

    /// The score breakdown and totals as they stand now.
    pub fn score_lines(&self) -> (Vec<i64>, Vec<ScoreLine>) {
        let seats: Vec<Seat> = Seat::all(self.players).collect();
        let legacy = self.legacy_bonus();
        let county: Vec<i64> = seats.iter().map(|s| i64::from(self.county_vp(*s))).collect();
        let treasure: Vec<i64> = seats.iter().map(|s| self.count(*s, CardType::Treasure) as i64).collect();
        let downfall: Vec<i64> = seats.iter().map(|s| -(self.count(*s, CardType::Downfall) as i64)).collect();
        let totals = (0..self.players).map(|i| legacy[i] + county[i] + treasure[i] + downfall[i]).collect();
        let lines = vec![
            ScoreLine::new("Legacy bonus", legacy),
            ScoreLine::new("County VP", county),
            ScoreLine::new("Treasures", treasure),
            ScoreLine::new("Downfall", downfall),
        ];
        (totals, lines)
    }

    /// The result once the game is over: every player with the highest total wins (R22).
    pub(crate) fn final_outcome(&self) -> Option<Outcome> {
        self.end?;
        let (totals, lines) = self.score_lines();
        Some(Outcome::from_scores(totals, lines))
    }
}
