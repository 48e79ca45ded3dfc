//! The small steps a player can take: one decision each, as the spec's decision points list them.

use crate::board::{Card, Character, Edict, Location, Purchase, Side, Track};
use serde::{Deserialize, Serialize};

/// One decision of one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// D0.1: take a character (option `characters: "chosen"`).
    ChooseCharacter {
        /// The character.
        character: Character,
    },
    /// D1.1: the Neutral announces its side for this round.
    ChooseSide {
        /// The side.
        side: Side,
    },
    /// D1.2: Leopold uses Captor of the King (King's Return +1), once per game.
    UseCaptor,
    /// D2.1 (round 1): place the figure on an empty location.
    Place {
        /// The location.
        location: Location,
    },
    /// D2.2: move one segment.
    Step {
        /// The neighbouring location moved to.
        to: Location,
    },
    /// D2.3: spend the steal cost to take a random card from the enemy on this location.
    Steal,
    /// D2.2: end the move here.
    Stop,
    /// D2.4: perform the location action with the given choice.
    Perform {
        /// The choice the action needs.
        choice: Choice,
    },
    /// D2.4e (Nottingham 4–6p): the edict to keep; the other goes to the bottom of its deck.
    KeepEdict {
        /// The edict kept.
        edict: Edict,
    },
    /// D2.5: an ally of the active player takes a card from the Reserve.
    TakeCard {
        /// The type taken.
        card: Card,
    },
    /// D2.6 (faction skill): return a card from hand to the Reserve.
    ReturnCard {
        /// The type returned.
        card: Card,
    },
    /// D3.1: buy one item.
    Buy {
        /// What is bought.
        purchase: Purchase,
    },
    /// D3.2 (Neutral skill): return 2 cards of a type and draw 4.
    Trade {
        /// The type returned.
        card: Card,
    },
    /// D4.1: add one card face down to the Crusade deck.
    Contribute {
        /// The type added.
        card: Card,
    },
    /// D4.1: stop contributing (fewer than 2 cards cost 1 Prestige Point each).
    EndContribution,
    /// Decline an optional decision: the Captor, the location action, an ally take, the purchase, the trade.
    Decline,
}

/// The choice a location action needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Choice {
    /// The action has no choice.
    Plain,
    /// The type paid (Bristol 4–6p: four of it; Oxford: one of it).
    Return {
        /// The type.
        card: Card,
    },
    /// The type taken from the Reserve (Bridgewater, Grimsby 4–6p, Gloucester, Salisbury, York).
    Take {
        /// The type.
        card: Card,
    },
    /// The track moved (Bristol 2–3p, London, Shrewsbury, Sherwood 2–3p).
    Track {
        /// The track.
        track: Track,
    },
    /// Grimsby 2–3p: which clauses to perform (at least one).
    Clauses {
        /// Clause A: return 3 Full Chests, King's Treasure +1.
        treasure: bool,
        /// Clause B: return 3 Full Hourglasses, King's Return +1.
        king_return: bool,
    },
}
