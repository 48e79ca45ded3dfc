//! The small steps a player sends: every composite turn is broken into these, so that the list of
//! legal actions at any moment stays short.

use crate::board::{Card, Portal, Ring};
use game_core::Seat;
use serde::{Deserialize, Serialize};

/// One step of a decision. Areas are numbered from 1 (`a1`), storehouses 1..=6, rooms 1..=13.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// A room: placing a figure (D1–D3) or one step of a move (D8, D10, D13, D14).
    Room(u8),
    /// D4: the ring type the player starts with only once (he gets two of each other type).
    Single(Ring),
    /// D5/D7: play this card.
    Card(Card),
    /// D6: leave the storehouse and stand in front of this portal.
    Portal(Portal),
    /// D9: stash a chalice from the stock in the current room.
    StashChalice,
    /// D9: stash a book from the stock in the current room.
    StashBook,
    /// D9: stash a ring of this type from the stock in ring area `area` of the current room.
    StashRing {
        /// The ring type.
        ring: Ring,
        /// The ring area, from 1.
        area: u8,
    },
    /// D10: Benjamin picks up an unscored ring of `owner` from `area` of the current room.
    Pickup {
        /// The ring's owner.
        owner: Seat,
        /// Its type.
        ring: Ring,
        /// The ring area, from 1.
        area: u8,
    },
    /// D10: Benjamin stashes the ring he carries in `area` of the current room.
    Stash {
        /// The ring area, from 1.
        area: u8,
    },
    /// D11: Maria goes to this storehouse (1..=6).
    Storehouse(u8),
    /// D12: Porticus moves the door onto the passage between these two rooms (lower first).
    Passage([u8; 2]),
    /// End the current move or stash early.
    Stop,
}
