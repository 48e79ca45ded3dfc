//! Final scoring (spec §7): Legacy bonus, banked County VP, Treasures, minus Downfall.

use crate::card::CardType;
use crate::state::KnightsTemplar;
use game_core::{BySeat, Outcome, ScoreLine};

impl KnightsTemplar {
    /// Each player's Legacy bonus (R19): 5 to the sole leader, 3 to each of tied leaders, with ≥ 1 Legacy.
    pub fn legacy_bonus(&self) -> BySeat<i64> {
        let mut bonus = BySeat::from_fn(self.players, |s| self.count(s, CardType::Legacy) as i64);
        let best = bonus.iter().map(|(_, l)| *l).max().unwrap_or(0);
        let leaders = bonus.iter().filter(|(_, l)| **l == best).count();
        // The counts become the bonuses in place (every view asks for the totals each action).
        for (_, l) in bonus.iter_mut() {
            *l = match (best, *l == best, leaders) {
                (0, _, _) | (_, false, _) => 0,
                (_, true, 1) => 5,
                _ => 3,
            };
        }
        bonus
    }

    /// Each player's total as it stands now: the sum of [`KnightsTemplar::score_lines`]' lines
    /// (every view shows it; the crate's invariant tests check the sum).
    pub fn score_totals(&self) -> BySeat<i64> {
        let mut totals = self.legacy_bonus();
        for (s, total) in totals.iter_mut() {
            *total += i64::from(self.county_vp(s)) + self.count(s, CardType::Treasure) as i64
                - self.count(s, CardType::Downfall) as i64;
        }
        totals
    }

    /// Each player's total, and the score breakdown, as they stand now.
    pub fn score_lines(&self) -> (BySeat<i64>, Vec<ScoreLine>) {
        let n = self.players;
        let legacy = self.legacy_bonus();
        let county = BySeat::from_fn(n, |s| i64::from(self.county_vp(s)));
        let treasure = BySeat::from_fn(n, |s| self.count(s, CardType::Treasure) as i64);
        let downfall = BySeat::from_fn(n, |s| -(self.count(s, CardType::Downfall) as i64));
        let totals = self.score_totals();
        let lines = vec![
            ScoreLine::new("Legacy bonus", legacy.0),
            ScoreLine::new("County VP", county.0),
            ScoreLine::new("Treasures", treasure.0),
            ScoreLine::new("Downfall", downfall.0),
        ];
        (totals, lines)
    }
}

/// The result once the game is over: every player with the highest total wins (R22).
pub(crate) fn outcome(game: &KnightsTemplar) -> Option<Outcome> {
    game.end?;
    let (totals, lines) = game.score_lines();
    Some(Outcome::from_scores(totals.0, lines))
}
