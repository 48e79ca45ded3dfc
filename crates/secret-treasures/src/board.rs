//! The printed components: the abbey map (rooms, passages, portals, church, hiding places), the
//! harbor, the tiles and valuables, the cards with their Bells numbers, and the scoring tables.
//!
//! Everything marked (R) in the spec is a reconstruction of a printed value that is not available;
//! it all lives here so that it can be replaced if the printed values turn up.

use serde::{Deserialize, Serialize};

/// The number of rooms in the abbey (rooms are numbered 1..=13).
pub const ROOMS: u8 = 13;

/// The passages between rooms, numbered 1..=17 in this order (R).
pub const PASSAGES: [[u8; 2]; 17] = [
    [1, 2],
    [1, 3],
    [1, 11],
    [2, 4],
    [2, 10],
    [3, 5],
    [4, 6],
    [4, 13],
    [5, 6],
    [6, 7],
    [7, 8],
    [8, 13],
    [9, 10],
    [9, 12],
    [9, 13],
    [10, 11],
    [12, 13],
];

/// The index in [`PASSAGES`] of the passage 9–13, where the door starts (rulebook).
pub const DOOR_START: usize = 14;

/// The church rooms, whose unscored rings score 2 each at the end (R).
pub const CHURCH: [u8; 3] = [8, 12, 13];

/// The hiding places of one room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoomLayout {
    /// Chalice spaces.
    pub chalices: u8,
    /// Book spaces.
    pub books: u8,
    /// Ring areas, with the number of spaces of each.
    pub areas: &'static [u8],
}

/// The hiding places of rooms 1..=13, in room order (R).
pub const LAYOUT: [RoomLayout; 13] = [
    RoomLayout { chalices: 0, books: 1, areas: &[2, 2] },
    RoomLayout { chalices: 1, books: 1, areas: &[3] },
    RoomLayout { chalices: 0, books: 2, areas: &[2, 2] },
    RoomLayout { chalices: 1, books: 1, areas: &[2, 3] },
    RoomLayout { chalices: 1, books: 2, areas: &[2] },
    RoomLayout { chalices: 1, books: 1, areas: &[3, 2] },
    RoomLayout { chalices: 0, books: 2, areas: &[3] },
    RoomLayout { chalices: 2, books: 0, areas: &[2, 2] },
    RoomLayout { chalices: 1, books: 1, areas: &[2, 2] },
    RoomLayout { chalices: 1, books: 2, areas: &[3] },
    RoomLayout { chalices: 0, books: 2, areas: &[2, 2] },
    RoomLayout { chalices: 1, books: 0, areas: &[3, 3] },
    RoomLayout { chalices: 2, books: 1, areas: &[3, 3, 3] },
];

/// Whether `room` is a room of the abbey.
pub fn is_room(room: u8) -> bool {
    (1..=ROOMS).contains(&room)
}

/// Whether `room` is one of the church rooms.
pub fn is_church(room: u8) -> bool {
    CHURCH.contains(&room)
}

/// The passages of `room`: (passage index, the room on the other side), in passage order.
pub fn passages_of(room: u8) -> impl Iterator<Item = (usize, u8)> {
    PASSAGES.iter().enumerate().filter_map(move |(i, [a, b])| {
        if *a == room {
            Some((i, *b))
        } else if *b == room {
            Some((i, *a))
        } else {
            None
        }
    })
}

/// The rooms reachable from `room` in one step while the door is on passage `door`, ascending.
pub fn open_neighbours(room: u8, door: usize) -> Vec<u8> {
    let mut rooms: Vec<u8> = passages_of(room).filter(|(p, _)| *p != door).map(|(_, r)| r).collect();
    rooms.sort_unstable();
    rooms
}

/// Whether two rooms share a passage (whether or not the door is on it).
pub fn adjacent(a: u8, b: u8) -> bool {
    passages_of(a).any(|(_, r)| r == b)
}

/// The index in [`PASSAGES`] of the passage between `a` and `b`, in either order.
pub fn passage_index(a: u8, b: u8) -> Option<usize> {
    PASSAGES.iter().position(|p| *p == [a, b] || *p == [b, a])
}

/// One of the two portals in front of the abbey.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Portal {
    /// The main portal, opening into room 1 (R).
    Main,
    /// The side portal, opening into room 9 (R).
    Side,
}

impl Portal {
    /// The room this portal opens into (R).
    pub fn room(self) -> u8 {
        match self {
            Portal::Main => 1,
            Portal::Side => 9,
        }
    }
}

/// A signet ring type (the printed symbols are unknown; these are labels).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ring {
    /// The first ring type.
    X,
    /// The second ring type.
    Y,
    /// The third ring type.
    Z,
}

impl Ring {
    /// All ring types in canonical order.
    pub const ALL: [Ring; 3] = [Ring::X, Ring::Y, Ring::Z];
}

/// The kind of a valuable or a harbor tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A chalice.
    Chalice,
    /// A book.
    Book,
    /// A signet ring of type X.
    X,
    /// A signet ring of type Y.
    Y,
    /// A signet ring of type Z.
    Z,
}

impl Kind {
    /// All kinds in canonical order.
    pub const ALL: [Kind; 5] = [Kind::Chalice, Kind::Book, Kind::X, Kind::Y, Kind::Z];

    /// The ring type, if this is a ring.
    pub fn ring(self) -> Option<Ring> {
        match self {
            Kind::X => Some(Ring::X),
            Kind::Y => Some(Ring::Y),
            Kind::Z => Some(Ring::Z),
            Kind::Chalice | Kind::Book => None,
        }
    }

    /// The victory points an unscored piece of this kind earns when Remigius scores it.
    pub fn points(self) -> i64 {
        match self {
            Kind::Chalice => 5,
            Kind::Book => 3,
            Kind::X | Kind::Y | Kind::Z => 2,
        }
    }

    /// The kind's name for log lines.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Chalice => "chalice",
            Kind::Book => "book",
            Kind::X => "ring X",
            Kind::Y => "ring Y",
            Kind::Z => "ring Z",
        }
    }
}

impl From<Ring> for Kind {
    fn from(ring: Ring) -> Kind {
        match ring {
            Ring::X => Kind::X,
            Ring::Y => Kind::Y,
            Ring::Z => Kind::Z,
        }
    }
}

/// A count of valuables or tiles of each kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pieces {
    /// Chalices.
    pub chalice: u8,
    /// Books.
    pub book: u8,
    /// Rings of type X.
    pub x: u8,
    /// Rings of type Y.
    pub y: u8,
    /// Rings of type Z.
    pub z: u8,
}

impl Pieces {
    /// A count from chalices, books and the three ring types.
    pub const fn new(chalice: u8, book: u8, x: u8, y: u8, z: u8) -> Pieces {
        Pieces { chalice, book, x, y, z }
    }

    /// How many of `kind`.
    pub fn get(&self, kind: Kind) -> u8 {
        match kind {
            Kind::Chalice => self.chalice,
            Kind::Book => self.book,
            Kind::X => self.x,
            Kind::Y => self.y,
            Kind::Z => self.z,
        }
    }

    fn slot(&mut self, kind: Kind) -> &mut u8 {
        match kind {
            Kind::Chalice => &mut self.chalice,
            Kind::Book => &mut self.book,
            Kind::X => &mut self.x,
            Kind::Y => &mut self.y,
            Kind::Z => &mut self.z,
        }
    }

    /// Adds one of `kind`.
    pub fn add(&mut self, kind: Kind) {
        let slot = self.slot(kind);
        *slot = slot.saturating_add(1);
    }

    /// Takes one of `kind`; false (and no change) if there is none.
    pub fn take(&mut self, kind: Kind) -> bool {
        let slot = self.slot(kind);
        if *slot == 0 {
            return false;
        }
        *slot -= 1;
        true
    }

    /// The total number of pieces.
    pub fn total(&self) -> u32 {
        Kind::ALL.iter().map(|k| u32::from(self.get(*k))).sum()
    }
}

/// Each player's valuables: 5 chalices, 6 books, 7 rings of each type.
pub const VALUABLES: Pieces = Pieces::new(5, 6, 7, 7, 7);

/// The harbor tiles of a 3–5 player game.
pub const TILES: Pieces = Pieces::new(13, 17, 20, 20, 20);

/// The harbor tiles of a 2-player game (4 chalices, 5 books and 7 rings of each type removed).
pub const TILES_TWO_PLAYERS: Pieces = Pieces::new(9, 12, 13, 13, 13);

/// The boxes of storehouses S1..S6 in clockwise order; S1 bears the ship icon.
pub const STOREHOUSES: [usize; 6] = [3, 3, 3, 4, 4, 4];

/// A card: nine characters and The Bells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Card {
    /// Monk: exactly 1 room, stash up to 3.
    Anselmus,
    /// Monk: up to 2 rooms, stash up to 2.
    Josua,
    /// Monk: up to 3 rooms, stash up to 1.
    Lucas,
    /// Novice: up to 3 rooms, may carry one unscored ring to another room.
    Benjamin,
    /// Messenger: to a storehouse, take its tiles.
    Maria,
    /// Illustrator: up to 2 rooms, score the other characters there.
    Stephanus,
    /// Porter: move the door, +1.
    Porticus,
    /// Abbot: move Remigius up to 2 rooms and score the room.
    Remigius,
    /// Prior: move Severus up to 3 rooms, +1.
    Severus,
    /// The Bells: new tiles at the harbor, take the played cards back.
    Bells,
}

impl Card {
    /// Every card in canonical order.
    pub const ALL: [Card; 10] = [
        Card::Anselmus,
        Card::Josua,
        Card::Lucas,
        Card::Benjamin,
        Card::Maria,
        Card::Stephanus,
        Card::Porticus,
        Card::Remigius,
        Card::Severus,
        Card::Bells,
    ];

    /// The number in the card's top-right corner: tiles The Bells brings after this card (R except Anselmus).
    pub fn bells_number(self) -> usize {
        match self {
            Card::Anselmus => 3,
            Card::Josua => 4,
            Card::Lucas => 5,
            Card::Benjamin => 5,
            Card::Maria => 2,
            Card::Stephanus => 4,
            Card::Porticus => 5,
            Card::Remigius => 3,
            Card::Severus => 6,
            Card::Bells => 0,
        }
    }

    /// The most rooms this card moves its figure or token (0 for cards that move nothing step by step).
    pub fn range(self) -> u8 {
        match self {
            Card::Anselmus => 1,
            Card::Josua | Card::Stephanus | Card::Remigius => 2,
            Card::Lucas | Card::Benjamin | Card::Severus => 3,
            Card::Maria | Card::Porticus | Card::Bells => 0,
        }
    }

    /// How many pieces a monk may stash after moving (0 for other cards).
    pub fn stash_limit(self) -> u8 {
        match self {
            Card::Anselmus => 3,
            Card::Josua => 2,
            Card::Lucas => 1,
            _ => 0,
        }
    }

    /// The card's name as printed.
    pub fn name(self) -> &'static str {
        match self {
            Card::Anselmus => "Anselmus",
            Card::Josua => "Josua",
            Card::Lucas => "Lucas",
            Card::Benjamin => "Benjamin",
            Card::Maria => "Maria",
            Card::Stephanus => "Stephanus",
            Card::Porticus => "Porticus",
            Card::Remigius => "Remigius",
            Card::Severus => "Severus",
            Card::Bells => "The Bells",
        }
    }
}

/// The rooms bonus at the end: points for the number of rooms holding at least one of a player's pieces.
pub fn rooms_bonus(rooms: usize) -> i64 {
    match rooms {
        0..=6 => 0,
        7 => 4,
        8 => 5,
        9 => 6,
        10 => 8,
        11 => 11,
        12 => 15,
        _ => 20,
    }
}

/// Points for each unscored ring in a church room at the end.
pub const CHURCH_RING_POINTS: i64 = 2;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_map_has_83_spaces_in_23_ring_areas_and_every_room_two_passages() {
        let spaces: usize = LAYOUT
            .iter()
            .map(|l| {
                usize::from(l.chalices) + usize::from(l.books) + l.areas.iter().map(|a| usize::from(*a)).sum::<usize>()
            })
            .sum();
        assert_eq!(spaces, 83);
        assert_eq!(LAYOUT.iter().map(|l| l.areas.len()).sum::<usize>(), 23);
        for room in 1..=ROOMS {
            assert!(passages_of(room).count() >= 2, "room {room}");
        }
    }

    #[test]
    fn the_abbey_stays_connected_wherever_the_door_is() {
        for (door, passage) in PASSAGES.iter().enumerate() {
            let mut seen = vec![1u8];
            let mut frontier = vec![1u8];
            while let Some(r) = frontier.pop() {
                for n in open_neighbours(r, door) {
                    if !seen.contains(&n) {
                        seen.push(n);
                        frontier.push(n);
                    }
                }
            }
            assert_eq!(seen.len(), 13, "door on {passage:?}");
        }
    }

    #[test]
    fn remigius_always_has_a_move_and_a_forced_crossing_always_leads_on() {
        for door in 0..PASSAGES.len() {
            for home in 1..=ROOMS {
                let open = open_neighbours(home, door);
                assert!(!open.is_empty(), "a token in {home} is stuck with the door on {door}");
                for vitus in passages_of(home).map(|(_, r)| r) {
                    if open.iter().any(|r| *r != vitus) {
                        continue;
                    }
                    assert!(open.contains(&vitus));
                    let onward: Vec<u8> = open_neighbours(vitus, door).into_iter().filter(|r| *r != home).collect();
                    assert!(!onward.is_empty(), "Remigius in {home}, Vitus in {vitus}, door {door}");
                    assert_eq!(passages_of(home).count(), 2, "a forced crossing happens only in a 2-passage room");
                }
            }
        }
    }
}
