//! The actions a player can take: one per decision point (spec §4.2).

use crate::card::Card;
use game_core::Seat;
use serde::{Deserialize, Serialize};

/// One decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// DP1: take this card from the Fate row.
    Pick {
        /// The card.
        card: Card,
    },
    /// DP2 (Grand Master): this player picks next.
    Nominate {
        /// The player.
        seat: Seat,
    },
    /// DP3/DP4: discard (Enemy) or steal (Battle) this card of another player.
    Target {
        /// The card.
        card: Card,
    },
    /// DP5: play this one of the two Ally cards; the other is discarded face down.
    Keep {
        /// The card.
        card: Card,
    },
}
