//! Ratings: Glicko-2 (the `skillratings` crate) per registered account and game.
//!
//! A game counts when its lobby was created (or set) `rated` and every seat is a registered
//! account: games with bots or guests are unrated. Each finished rated game is one rating period
//! for each of its players. A game of more than two is split into pairwise results from the
//! placings: against every other player, a better rank is a win, an equal rank a draw, a worse one
//! a loss, and the player's new rating comes from all of those results at once, against the other
//! players' ratings from before the game. Two players are the ordinary one-game case.
//!
//! The same code rates a game when it ends (in the commit that records its result) and when
//! `chapterhouse ratings rebuild` replays every finished game in the order they finished, so the
//! two give the same numbers (see `store::ratings`).

use serde::Serialize;
use skillratings::glicko2::{glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// A player's rating in one game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// The rating (starts at 1500).
    pub rating: f64,
    /// The rating deviation (starts at 350; shrinks as games are played).
    pub deviation: f64,
    /// The volatility (starts at 0.06).
    pub volatility: f64,
    /// Rated games played.
    pub games: i64,
}

impl Default for Rating {
    fn default() -> Self {
        let start = Glicko2Rating::new();
        Rating { rating: start.rating, deviation: start.deviation, volatility: start.volatility, games: 0 }
    }
}

impl Rating {
    fn glicko(self) -> Glicko2Rating {
        Glicko2Rating { rating: self.rating, deviation: self.deviation, volatility: self.volatility }
    }
}

/// The ratings of a game's players after it, from their ratings before it and their ranks
/// (1 is best; equal ranks drew), seat by seat.
pub fn after_game(before: &[Rating], ranks: &[u32]) -> Vec<Rating> {
    let config = Glicko2Config::new();
    (0..before.len())
        .map(|me| {
            let results: Vec<(Glicko2Rating, Outcomes)> = (0..before.len())
                .filter(|&other| other != me)
                .map(|other| {
                    let outcome = match ranks.get(me).cmp(&ranks.get(other)) {
                        std::cmp::Ordering::Less => Outcomes::WIN,
                        std::cmp::Ordering::Equal => Outcomes::DRAW,
                        std::cmp::Ordering::Greater => Outcomes::LOSS,
                    };
                    (before[other].glicko(), outcome)
                })
                .collect();
            let next = glicko2_rating_period(&before[me].glicko(), &results, &config);
            Rating {
                rating: next.rating,
                deviation: next.deviation,
                volatility: next.volatility,
                games: before[me].games + 1,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_winner_gains_what_the_loser_drops_and_a_draw_between_equals_moves_no_one() {
        let start = Rating::default();
        let after = after_game(&[start, start], &[1, 2]);
        assert!(after[0].rating > 1500.0 && after[1].rating < 1500.0);
        assert!((after[0].rating - 1500.0 - (1500.0 - after[1].rating)).abs() < 1e-9);
        assert!(after.iter().all(|r| r.deviation < 350.0 && r.games == 1));
        let drawn = after_game(&[start, start], &[1, 1]);
        assert!((drawn[0].rating - 1500.0).abs() < 1e-9);
    }

    #[test]
    fn in_a_four_player_game_each_placing_beats_the_ones_below_it() {
        let start = Rating::default();
        let after = after_game(&[start; 4], &[3, 1, 4, 2]);
        let order: Vec<usize> = {
            let mut seats: Vec<usize> = (0..4).collect();
            seats.sort_by(|a, b| after[*b].rating.total_cmp(&after[*a].rating));
            seats
        };
        assert_eq!(order, [1, 3, 0, 2]);
    }
}
