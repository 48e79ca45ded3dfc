//! The printed board and cards as data: territories, countries, adjacency, cities and their
//! edicts, city tiles, the round track, edict spaces with their ships, and the mission cards.
//!
//! Values marked (R) in the spec are reconstructions (the printed board is not available); they
//! are transcribed here unchanged so that the crate builds from its own repository.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One of the 16 territories of the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Territory {
    /// London (city).
    #[serde(rename = "LON")]
    London,
    /// Bretagne (R).
    #[serde(rename = "BRE")]
    Bretagne,
    /// Paris (city).
    #[serde(rename = "PAR")]
    Paris,
    /// Bordeaux (city).
    #[serde(rename = "BOR")]
    Bordeaux,
    /// Lyon (city).
    #[serde(rename = "LYO")]
    Lyon,
    /// Provence (R).
    #[serde(rename = "PRO")]
    Provence,
    /// Barcelona (city).
    #[serde(rename = "BAR")]
    Barcelona,
    /// Castilla (R).
    #[serde(rename = "CAS")]
    Castilla,
    /// Burgund (R).
    #[serde(rename = "BUR")]
    Burgund,
    /// Coeln (city).
    #[serde(rename = "COE")]
    Coeln,
    /// Bayern (R).
    #[serde(rename = "BAY")]
    Bayern,
    /// Wien (R, city).
    #[serde(rename = "WIE")]
    Wien,
    /// Lombardia (R).
    #[serde(rename = "LOM")]
    Lombardia,
    /// Venezia (city).
    #[serde(rename = "VEN")]
    Venezia,
    /// Roma (city).
    #[serde(rename = "ROM")]
    Roma,
    /// Napoli (R).
    #[serde(rename = "NAP")]
    Napoli,
}

use Territory::*;

impl Territory {
    /// All territories, in the spec's table order.
    pub const ALL: [Territory; 16] = [
        London, Bretagne, Paris, Bordeaux, Lyon, Provence, Barcelona, Castilla, Burgund, Coeln, Bayern, Wien,
        Lombardia, Venezia, Roma, Napoli,
    ];

    /// The position of this territory in [`Territory::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The three-letter id used in JSON, e.g. `"LON"`.
    pub fn id(self) -> &'static str {
        match self {
            London => "LON",
            Bretagne => "BRE",
            Paris => "PAR",
            Bordeaux => "BOR",
            Lyon => "LYO",
            Provence => "PRO",
            Barcelona => "BAR",
            Castilla => "CAS",
            Burgund => "BUR",
            Coeln => "COE",
            Bayern => "BAY",
            Wien => "WIE",
            Lombardia => "LOM",
            Venezia => "VEN",
            Roma => "ROM",
            Napoli => "NAP",
        }
    }

    /// The display name.
    pub fn name(self) -> &'static str {
        match self {
            London => "London",
            Bretagne => "Bretagne",
            Paris => "Paris",
            Bordeaux => "Bordeaux",
            Lyon => "Lyon",
            Provence => "Provence",
            Barcelona => "Barcelona",
            Castilla => "Castilla",
            Burgund => "Burgund",
            Coeln => "Coeln",
            Bayern => "Bayern",
            Wien => "Wien",
            Lombardia => "Lombardia",
            Venezia => "Venezia",
            Roma => "Roma",
            Napoli => "Napoli",
        }
    }

    /// The country the territory belongs to (R).
    pub fn country(self) -> Country {
        match self {
            London => Country::England,
            Bretagne | Paris | Bordeaux | Lyon | Provence => Country::France,
            Barcelona | Castilla => Country::Aragon,
            Burgund | Coeln | Bayern | Wien => Country::HolyRomanEmpire,
            Lombardia | Venezia | Roma | Napoli => Country::Italy,
        }
    }

    /// The city space in this territory, if it has one.
    pub fn city(self) -> Option<City> {
        City::ALL.into_iter().find(|c| c.territory() == self)
    }

    /// The territories adjacent to this one: a land border the Alps do not block, or a sea line.
    pub fn neighbours(self) -> &'static [Territory] {
        match self {
            London => &[Bretagne, Paris, Coeln],
            Bretagne => &[London, Paris],
            Paris => &[London, Bretagne, Bordeaux, Lyon, Burgund, Coeln],
            Bordeaux => &[Paris, Lyon, Barcelona],
            Lyon => &[Paris, Bordeaux, Provence, Burgund],
            Provence => &[Lyon, Barcelona, Lombardia],
            Barcelona => &[Bordeaux, Provence, Castilla, Roma],
            Castilla => &[Barcelona],
            Burgund => &[Paris, Lyon, Coeln, Bayern],
            Coeln => &[London, Paris, Burgund, Bayern],
            Bayern => &[Burgund, Coeln, Wien],
            Wien => &[Bayern, Venezia],
            Lombardia => &[Provence, Venezia, Roma],
            Venezia => &[Wien, Lombardia, Roma],
            Roma => &[Barcelona, Lombardia, Venezia, Napoli],
            Napoli => &[Roma],
        }
    }

    /// Whether `other` is adjacent to this territory.
    pub fn is_adjacent(self, other: Territory) -> bool {
        self.neighbours().contains(&other)
    }

    /// The shortest-path distance to `other` along adjacency edges (0 for the same territory).
    pub fn distance(self, other: Territory) -> u32 {
        let mut dist = [u32::MAX; 16];
        dist[self.index()] = 0;
        let mut queue = vec![self];
        let mut head = 0;
        while let Some(&t) = queue.get(head) {
            head += 1;
            for &n in t.neighbours() {
                if dist[n.index()] == u32::MAX {
                    dist[n.index()] = dist[t.index()] + 1;
                    queue.push(n);
                }
            }
        }
        dist[other.index()]
    }
}

impl fmt::Display for Territory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The countries of the map (R). They matter only through edicts (missions M6 to M8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Country {
    /// England.
    #[serde(rename = "ENG")]
    England,
    /// France.
    #[serde(rename = "FRA")]
    France,
    /// Aragon.
    #[serde(rename = "ARA")]
    Aragon,
    /// The Holy Roman Empire.
    #[serde(rename = "HRE")]
    HolyRomanEmpire,
    /// Italy.
    #[serde(rename = "ITA")]
    Italy,
}

/// One of the 9 city spaces; a city's edict has the same id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum City {
    /// London.
    #[serde(rename = "LON")]
    London,
    /// Paris.
    #[serde(rename = "PAR")]
    Paris,
    /// Bordeaux.
    #[serde(rename = "BOR")]
    Bordeaux,
    /// Lyon.
    #[serde(rename = "LYO")]
    Lyon,
    /// Barcelona.
    #[serde(rename = "BAR")]
    Barcelona,
    /// Coeln.
    #[serde(rename = "COE")]
    Coeln,
    /// Wien (R).
    #[serde(rename = "WIE")]
    Wien,
    /// Venezia.
    #[serde(rename = "VEN")]
    Venezia,
    /// Roma.
    #[serde(rename = "ROM")]
    Roma,
}

impl City {
    /// All cities in canonical order (setup assigns tiles in this order).
    pub const ALL: [City; 9] = [
        City::London,
        City::Paris,
        City::Bordeaux,
        City::Lyon,
        City::Barcelona,
        City::Coeln,
        City::Wien,
        City::Venezia,
        City::Roma,
    ];

    /// The position of this city in [`City::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The territory the city lies in.
    pub fn territory(self) -> Territory {
        match self {
            City::London => London,
            City::Paris => Paris,
            City::Bordeaux => Bordeaux,
            City::Lyon => Lyon,
            City::Barcelona => Barcelona,
            City::Coeln => Coeln,
            City::Wien => Wien,
            City::Venezia => Venezia,
            City::Roma => Roma,
        }
    }

    /// The country of the city and of its edict.
    pub fn country(self) -> Country {
        self.territory().country()
    }

    /// The display name.
    pub fn name(self) -> &'static str {
        self.territory().name()
    }
}

impl fmt::Display for City {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One of the 7 city tiles. A tile carries only a knight capacity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Tile {
    /// Capacity 4.
    T1,
    /// Capacity 5.
    T2,
    /// Capacity 5.
    T3,
    /// Capacity 6.
    T4,
    /// Capacity 6.
    T5,
    /// Capacity 7.
    T6,
    /// Capacity 8.
    T7,
}

impl Tile {
    /// All tiles.
    pub const ALL: [Tile; 7] = [Tile::T1, Tile::T2, Tile::T3, Tile::T4, Tile::T5, Tile::T6, Tile::T7];

    /// How many knights the city holds when completely occupied (R).
    pub fn capacity(self) -> u32 {
        match self {
            Tile::T1 => 4,
            Tile::T2 | Tile::T3 => 5,
            Tile::T4 | Tile::T5 => 6,
            Tile::T6 => 7,
            Tile::T7 => 8,
        }
    }
}

/// An edict space on the round track; each of the first six has a ship.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum EdictSpace {
    /// Shipping round 1, first city.
    E1a,
    /// Shipping round 1, second city.
    E1b,
    /// Shipping round 2, first city.
    E2a,
    /// Shipping round 2, second city.
    E2b,
    /// Shipping round 3, first city.
    E3a,
    /// Shipping round 3, second city.
    E3b,
    /// The seventh city, scored at the end; no ship.
    E7,
}

impl EdictSpace {
    /// All edict spaces, in the order setup fills them.
    pub const ALL: [EdictSpace; 7] = [
        EdictSpace::E1a,
        EdictSpace::E1b,
        EdictSpace::E2a,
        EdictSpace::E2b,
        EdictSpace::E3a,
        EdictSpace::E3b,
        EdictSpace::E7,
    ];

    /// The position of this space in [`EdictSpace::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The capacity of this space's ship (R); 0 for the seventh city.
    pub fn ship_capacity(self) -> u32 {
        match self {
            EdictSpace::E1a => 4,
            EdictSpace::E1b | EdictSpace::E2a => 5,
            EdictSpace::E2b | EdictSpace::E3a => 6,
            EdictSpace::E3b => 7,
            EdictSpace::E7 => 0,
        }
    }

    /// The two spaces evaluated in shipping round `round` (1 to 3).
    pub fn of_round(round: u8) -> [EdictSpace; 2] {
        match round {
            1 => [EdictSpace::E1a, EdictSpace::E1b],
            2 => [EdictSpace::E2a, EdictSpace::E2b],
            _ => [EdictSpace::E3a, EdictSpace::E3b],
        }
    }
}

/// The flag of an action space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Flag {
    /// Inner route: place a knight.
    Green,
    /// Outer route: remove a knight.
    Red,
}

/// Where the Pope stands within one leg of the round track.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Spot {
    /// The start space `S{l}`.
    Start,
    /// Inner route, step 1.
    G1,
    /// Inner route, step 2.
    G2,
    /// Inner route, step 3 (then the harbour).
    G3,
    /// Outer route, step 1.
    R1,
    /// Outer route, step 2.
    R2,
    /// Outer route, step 3 (then `R4`).
    R3,
    /// Outer route, step 4 (then the harbour).
    R4,
    /// The ship space `H{l}`.
    Harbour,
}

/// A space of the round track: a leg (1 to 3) and a spot in it. In JSON: `"S1"`, `"L1G2"`,
/// `"L2R4"`, `"H3"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Space {
    /// The leg, 1 to 3.
    pub leg: u8,
    /// The spot within the leg.
    pub spot: Spot,
}

impl Space {
    /// The start space of `leg`.
    pub fn start(leg: u8) -> Space {
        Space { leg, spot: Spot::Start }
    }

    /// The flag of this space, if it is an action space.
    pub fn flag(self) -> Option<Flag> {
        match self.spot {
            Spot::G1 | Spot::G2 | Spot::G3 => Some(Flag::Green),
            Spot::R1 | Spot::R2 | Spot::R3 | Spot::R4 => Some(Flag::Red),
            Spot::Start | Spot::Harbour => None,
        }
    }

    /// The spaces the Pope may move to next, and whether the move is a choice (D3) or forced.
    pub fn next(self) -> (Vec<Space>, bool) {
        let at = |spot| Space { leg: self.leg, spot };
        match self.spot {
            Spot::Start => (vec![at(Spot::G1), at(Spot::R1)], true),
            Spot::G1 | Spot::R1 => (vec![at(Spot::G2), at(Spot::R2)], true),
            Spot::G2 | Spot::R2 => (vec![at(Spot::G3), at(Spot::R3)], true),
            Spot::G3 | Spot::R4 => (vec![at(Spot::Harbour)], false),
            Spot::R3 => (vec![at(Spot::R4)], false),
            Spot::Harbour => (Vec::new(), false),
        }
    }
}

impl fmt::Display for Space {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let l = self.leg;
        match self.spot {
            Spot::Start => write!(f, "S{l}"),
            Spot::Harbour => write!(f, "H{l}"),
            spot => write!(f, "L{l}{spot:?}"),
        }
    }
}

impl From<Space> for String {
    fn from(s: Space) -> String {
        s.to_string()
    }
}

impl TryFrom<String> for Space {
    type Error = String;

    fn try_from(s: String) -> Result<Space, String> {
        let bad = || format!("not a round-track space: {s:?}");
        let bytes = s.as_bytes();
        let leg_at = |i: usize| -> Result<u8, String> {
            match bytes.get(i) {
                Some(b @ b'1'..=b'3') => Ok(b - b'0'),
                _ => Err(bad()),
            }
        };
        let space = match (bytes.len(), bytes.first()) {
            (2, Some(b'S')) => Space::start(leg_at(1)?),
            (2, Some(b'H')) => Space { leg: leg_at(1)?, spot: Spot::Harbour },
            (4, Some(b'L')) => {
                // `get` rather than slicing: a multi-byte character must not panic here.
                let spot = match s.get(2..) {
                    Some("G1") => Spot::G1,
                    Some("G2") => Spot::G2,
                    Some("G3") => Spot::G3,
                    Some("R1") => Spot::R1,
                    Some("R2") => Spot::R2,
                    Some("R3") => Spot::R3,
                    Some("R4") => Spot::R4,
                    _ => return Err(bad()),
                };
                Space { leg: leg_at(1)?, spot }
            }
            _ => return Err(bad()),
        };
        Ok(space)
    }
}

/// One of the 8 mission cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Mission {
    /// The most gold.
    M1,
    /// The most ships boarded by at least one own knight.
    M2,
    /// The most knights in the temple.
    M3,
    /// The most knights in the seventh city.
    M4,
    /// The smallest distance between the own Templars.
    M5,
    /// The most edicts from different countries.
    M6,
    /// The most edicts from the Holy Roman Empire.
    M7,
    /// The most edicts from France.
    M8,
}

impl Mission {
    /// All missions.
    pub const ALL: [Mission; 8] =
        [Mission::M1, Mission::M2, Mission::M3, Mission::M4, Mission::M5, Mission::M6, Mission::M7, Mission::M8];

    /// What the card asks for.
    pub fn criterion(self) -> &'static str {
        match self {
            Mission::M1 => "the most gold",
            Mission::M2 => "the most ships boarded by at least one own knight",
            Mission::M3 => "the most knights in the temple",
            Mission::M4 => "the most knights in the seventh city",
            Mission::M5 => "the smallest distance between own Templars",
            Mission::M6 => "the most edicts from different countries",
            Mission::M7 => "the most edicts from the Holy Roman Empire",
            Mission::M8 => "the most edicts from France",
        }
    }
}

/// Gold dealt to a territory with / without a city tile, for `players` and a deal moment:
/// 0 = setup, 1 = after shipping round 1, 2 = after shipping round 2.
pub fn gold_rate(players: usize, moment: u8) -> (u32, u32) {
    let base = match players {
        3 => (4, 1),
        4 => (5, 2),
        _ => (6, 3),
    };
    if moment == 2 {
        (base.0, base.1 + 1)
    } else {
        base
    }
}

/// Knights each player owns besides the score marker.
pub const KNIGHTS: u32 = 19;
/// Starting gold of each player.
pub const START_GOLD: u32 = 5;
/// Knights each player places in setup.
pub const SETUP_KNIGHTS: usize = 4;
/// Most own knights per city during setup.
pub const SETUP_CITY_LIMIT: u32 = 2;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjacency_is_symmetric_and_has_25_edges() {
        let mut edges = 0;
        for t in Territory::ALL {
            for &n in t.neighbours() {
                assert!(n.neighbours().contains(&t), "{t:?}-{n:?} not symmetric");
                edges += 1;
            }
        }
        assert_eq!(edges, 50);
    }

    #[test]
    fn the_alps_block_lombardia_from_the_north() {
        for (a, b) in [(Lyon, Lombardia), (Burgund, Lombardia), (Bayern, Lombardia), (Bayern, Venezia)] {
            assert!(!a.is_adjacent(b));
        }
        assert_eq!(Bordeaux.neighbours(), &[Paris, Lyon, Barcelona]);
    }

    #[test]
    fn spaces_round_trip_through_their_names() {
        for name in ["S1", "L1G1", "L2R4", "H3", "L3G3"] {
            let s = Space::try_from(name.to_string()).expect("a valid space");
            assert_eq!(s.to_string(), name);
        }
        for bad in ["S4", "L1G4", "X1", "", "L0G1", "H", "L1R5x"] {
            assert!(Space::try_from(bad.to_string()).is_err(), "{bad}");
        }
    }

    #[test]
    fn space_names_with_multi_byte_characters_are_rejected_without_a_panic() {
        // "Lé1" is 4 bytes with a character boundary inside byte 2: slicing used to panic.
        for bad in ["Lé1", "L1é", "Sé", "Hé", "é1G1", "L\u{2603}", "\u{1F600}"] {
            assert!(Space::try_from(bad.to_string()).is_err(), "{bad}");
        }
        let parsed: Result<crate::action::Action, _> = serde_json::from_str(r#"{"type":"move_pope","to":"Lé1"}"#);
        assert!(parsed.is_err());
    }

    #[test]
    fn tile_capacities_total_41() {
        assert_eq!(Tile::ALL.iter().map(|t| t.capacity()).sum::<u32>(), 41);
    }
}
