//! The printed data: influence cards, the England map, characters, purchase costs, edicts and events.
//!
//! Values marked (R) in the spec are reconstructions; they are transcribed here unchanged.

use serde::{Deserialize, Serialize};

/// One of the six influence card types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Card {
    /// Richard's Banner (red).
    RB,
    /// Richard's (empty) Hourglass (red).
    RH,
    /// Richard's (full) Chest (red).
    RC,
    /// Saladin's Banner (green).
    GB,
    /// John's (full) Hourglass (green).
    GH,
    /// John's (empty) Chest (green).
    GC,
}

impl Card {
    /// All types, in the fixed type order RB, RH, RC, GB, GH, GC.
    pub const ALL: [Card; 6] = [Card::RB, Card::RH, Card::RC, Card::GB, Card::GH, Card::GC];

    /// The index of this type in [`Card::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The side whose colour this card has.
    pub fn side(self) -> Side {
        match self {
            Card::RB | Card::RH | Card::RC => Side::Richard,
            Card::GB | Card::GH | Card::GC => Side::John,
        }
    }

    /// The card's name as players say it.
    pub fn name(self) -> &'static str {
        match self {
            Card::RB => "Richard's Banner",
            Card::RH => "Empty Hourglass",
            Card::RC => "Full Chest",
            Card::GB => "Saladin's Banner",
            Card::GH => "Full Hourglass",
            Card::GC => "Empty Chest",
        }
    }
}

/// A multiset of influence cards, counted per type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Cards(pub [u8; 6]);

impl Cards {
    /// `n` cards of every type.
    pub fn each(n: u8) -> Cards {
        Cards([n; 6])
    }

    /// How many cards of `card`'s type.
    pub fn get(&self, card: Card) -> u8 {
        self.0[card.index()]
    }

    /// Adds `n` cards of a type.
    pub fn add(&mut self, card: Card, n: u8) {
        let slot = &mut self.0[card.index()];
        *slot = slot.saturating_add(n);
    }

    /// Removes up to `n` cards of a type; returns how many were removed.
    pub fn remove(&mut self, card: Card, n: u8) -> u8 {
        let slot = &mut self.0[card.index()];
        let taken = (*slot).min(n);
        *slot -= taken;
        taken
    }

    /// The total number of cards.
    pub fn total(&self) -> usize {
        self.0.iter().map(|&n| usize::from(n)).sum()
    }

    /// The types present, in type order.
    pub fn present(&self) -> impl Iterator<Item = Card> + '_ {
        Card::ALL.into_iter().filter(|c| self.get(*c) > 0)
    }

    /// The card at position `i` when the cards are laid out in type order (for uniform random picks).
    pub fn nth(&self, mut i: usize) -> Option<Card> {
        for c in Card::ALL {
            let n = usize::from(self.get(c));
            if i < n {
                return Some(c);
            }
            i -= n;
        }
        None
    }

    /// The cards laid out in type order.
    pub fn to_vec(&self) -> Vec<Card> {
        Card::ALL.into_iter().flat_map(|c| vec![c; usize::from(self.get(c))]).collect()
    }

    /// Counts a list of cards.
    pub fn from_cards(cards: &[Card]) -> Cards {
        let mut out = Cards::default();
        for c in cards {
            out.add(*c, 1);
        }
        out
    }
}

/// The two sides of the war; the Neutral picks one each round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// King Richard (red).
    #[default]
    Richard,
    /// King John (green).
    John,
}

impl Side {
    /// The side's colour word.
    pub fn name(self) -> &'static str {
        match self {
            Side::Richard => "Richard",
            Side::John => "John",
        }
    }
}

/// A character's deck: its faction, which also names its edict deck and faction skill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Faction {
    /// Richard's supporters.
    Richard,
    /// John's supporters.
    John,
    /// The Neutral (Leopold at 3 players, Marie at 5).
    Neutral,
}

impl Faction {
    /// The fixed side of a Richard or John character.
    pub fn fixed_side(self) -> Option<Side> {
        match self {
            Faction::Richard => Some(Side::Richard),
            Faction::John => Some(Side::John),
            Faction::Neutral => None,
        }
    }
}

/// The four Crusade tracks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Track {
    /// Richard's Army (0 → 10, Richard wins at 10).
    RA,
    /// Saladin's Army (0 → 10, John wins at 10).
    SA,
    /// King's Return (10 → 0, Richard wins at 0).
    KR,
    /// King's Treasure (10 → 0, John wins at 0).
    KT,
}

impl Track {
    /// The track's name.
    pub fn name(self) -> &'static str {
        match self {
            Track::RA => "Richard's Army",
            Track::SA => "Saladin's Army",
            Track::KR => "King's Return",
            Track::KT => "King's Treasure",
        }
    }
}

/// The sixteen locations of the England board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Location {
    /// Richard's special location (red).
    Bridgewater,
    /// Green (R).
    Bristol,
    /// Green (R).
    Cambridge,
    /// Red (R).
    Canterbury,
    /// Green (R).
    Cardiff,
    /// Green (R).
    Chester,
    /// Green (R).
    Gloucester,
    /// John's special location (green).
    Grimsby,
    /// Green (R).
    London,
    /// Red (R).
    Norwich,
    /// Green (R).
    Nottingham,
    /// Red (R).
    Oxford,
    /// Red (R).
    Salisbury,
    /// Red (R).
    Sherwood,
    /// Red (R).
    Shrewsbury,
    /// Red (R).
    York,
}

use Location::*;

impl Location {
    /// Every location, in alphabetical order.
    pub const ALL: [Location; 16] = [
        Bridgewater,
        Bristol,
        Cambridge,
        Canterbury,
        Cardiff,
        Chester,
        Gloucester,
        Grimsby,
        London,
        Norwich,
        Nottingham,
        Oxford,
        Salisbury,
        Sherwood,
        Shrewsbury,
        York,
    ];

    /// The index of this location in [`Location::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The side whose colour borders this location.
    pub fn colour(self) -> Side {
        match self {
            Bridgewater | Canterbury | Norwich | Oxford | Salisbury | Sherwood | Shrewsbury | York => Side::Richard,
            Bristol | Cambridge | Cardiff | Chester | Gloucester | Grimsby | London | Nottingham => Side::John,
        }
    }

    /// The printed name.
    pub fn name(self) -> &'static str {
        match self {
            Bridgewater => "Bridgewater",
            Bristol => "Bristol",
            Cambridge => "Cambridge",
            Canterbury => "Canterbury",
            Cardiff => "Cardiff",
            Chester => "Chester",
            Gloucester => "Gloucester",
            Grimsby => "Grimsby",
            London => "London",
            Norwich => "Norwich",
            Nottingham => "Nottingham",
            Oxford => "Oxford",
            Salisbury => "Salisbury",
            Sherwood => "Sherwood",
            Shrewsbury => "Shrewsbury",
            York => "York",
        }
    }

    /// The neighbours along road segments, and along water segments if `water` is allowed.
    pub fn neighbours(self, water: bool) -> impl Iterator<Item = Location> {
        SEGMENTS.iter().filter(move |s| water || !s.water).filter_map(move |s| {
            if s.a == self {
                Some(s.b)
            } else if s.b == self {
                Some(s.a)
            } else {
                None
            }
        })
    }
}

/// One undirected segment of the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Segment {
    /// One end.
    pub a: Location,
    /// The other end.
    pub b: Location,
    /// Whether it is a water segment (needs a Ship).
    pub water: bool,
}

const fn road(a: Location, b: Location) -> Segment {
    Segment { a, b, water: false }
}

const fn sea(a: Location, b: Location) -> Segment {
    Segment { a, b, water: true }
}

/// The 22 road and 6 water segments (R).
pub const SEGMENTS: [Segment; 28] = [
    road(Bridgewater, Bristol),
    road(Bridgewater, Salisbury),
    road(Bristol, Gloucester),
    road(Bristol, Salisbury),
    road(Cambridge, London),
    road(Cambridge, Norwich),
    road(Cambridge, Nottingham),
    road(Canterbury, London),
    road(Canterbury, Salisbury),
    road(Cardiff, Gloucester),
    road(Chester, Shrewsbury),
    road(Chester, York),
    road(Gloucester, Oxford),
    road(Gloucester, Shrewsbury),
    road(Grimsby, Sherwood),
    road(Grimsby, York),
    road(London, Salisbury),
    road(Nottingham, Oxford),
    road(Nottingham, Sherwood),
    road(Nottingham, Shrewsbury),
    road(Oxford, Salisbury),
    road(Sherwood, York),
    sea(Bridgewater, Cardiff),
    sea(Bristol, Cardiff),
    sea(Canterbury, Norwich),
    sea(Cardiff, Chester),
    sea(Grimsby, Norwich),
    sea(London, Oxford),
];

/// The ten characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Character {
    /// Richard; 3 coins; steals cost him 0 MP.
    RobinHood,
    /// Richard; 4 coins; her 3rd contributed card costs 1 less.
    MaidMarion,
    /// Richard; 4 coins; cannot be stolen from.
    LittleJohn,
    /// Richard; 5 coins; his random card purchase is free.
    FriarTuck,
    /// John; 5 coins; his specific card purchase costs 1 less (min 1).
    PrinceJohn,
    /// John; 3 coins; +1 coin after performing a green location's action.
    Sheriff,
    /// John; 4 coins; his Prestige Point purchase costs 1 less (min 1).
    BishopOfEly,
    /// John; 4 coins; takes both card types at Gloucester, Salisbury and York.
    Isabella,
    /// Neutral at 3 players; 4 coins; once per game may raise the King's Return.
    Leopold,
    /// Neutral at 5 players; 4 coins; +1 coin when she changes side.
    Marie,
}

impl Character {
    /// All characters.
    pub const ALL: [Character; 10] = [
        Character::RobinHood,
        Character::MaidMarion,
        Character::LittleJohn,
        Character::FriarTuck,
        Character::PrinceJohn,
        Character::Sheriff,
        Character::BishopOfEly,
        Character::Isabella,
        Character::Leopold,
        Character::Marie,
    ];

    /// The character's faction.
    pub fn faction(self) -> Faction {
        match self {
            Character::RobinHood | Character::MaidMarion | Character::LittleJohn | Character::FriarTuck => {
                Faction::Richard
            }
            Character::PrinceJohn | Character::Sheriff | Character::BishopOfEly | Character::Isabella => Faction::John,
            Character::Leopold | Character::Marie => Faction::Neutral,
        }
    }

    /// The starting coins (R).
    pub fn starting_coins(self) -> u32 {
        match self {
            Character::RobinHood | Character::Sheriff => 3,
            Character::FriarTuck | Character::PrinceJohn => 5,
            _ => 4,
        }
    }

    /// The printed name.
    pub fn name(self) -> &'static str {
        match self {
            Character::RobinHood => "Robin Hood",
            Character::MaidMarion => "Maid Marion",
            Character::LittleJohn => "Little John",
            Character::FriarTuck => "Friar Tuck",
            Character::PrinceJohn => "Prince John",
            Character::Sheriff => "the Sheriff of Nottingham",
            Character::BishopOfEly => "the Bishop of Ely",
            Character::Isabella => "Isabella",
            Character::Leopold => "Leopold",
            Character::Marie => "Marie of France",
        }
    }
}

/// The number of (Richard, John) characters and the Neutral character for `players`.
pub fn quotas(players: usize) -> (usize, usize, Option<Character>) {
    match players {
        3 => (1, 1, Some(Character::Leopold)),
        5 => (2, 2, Some(Character::Marie)),
        n => (n / 2, n / 2, None),
    }
}

/// Something that can be bought in the Purchase phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "item", rename_all = "snake_case")]
pub enum Purchase {
    /// The top card of the Provisions deck.
    RandomCard,
    /// One card of a chosen type from the Reserve.
    SpecificCard {
        /// The type.
        card: Card,
    },
    /// One Prestige Point.
    PrestigePoint,
    /// The Horse upgrade (4 MP).
    Horse,
    /// The Ship upgrade (water segments).
    Ship,
    /// The faction skill of the buyer's deck.
    Skill,
}

/// Base costs per round (index 0 = round 1) (R), except the random card (rulebook: 1).
const SPECIFIC: [u32; 10] = [2, 2, 2, 2, 3, 3, 3, 3, 4, 4];
const PRESTIGE: [u32; 10] = [3, 3, 3, 4, 4, 4, 5, 5, 5, 5];
const HORSE: [u32; 10] = [3, 3, 3, 3, 2, 2, 2, 2, 1, 1];
const SHIP: [u32; 10] = [4, 4, 4, 3, 3, 3, 2, 2, 2, 2];
const SKILL: [u32; 10] = [5, 5, 5, 4, 4, 4, 3, 3, 3, 3];

/// The printed cost of `item` in `round` (1..=10), before character and event modifiers.
pub fn base_cost(item: Purchase, round: u8) -> u32 {
    let i = usize::from(round.clamp(1, 10) - 1);
    match item {
        Purchase::RandomCard => 1,
        Purchase::SpecificCard { .. } => SPECIFIC[i],
        Purchase::PrestigePoint => PRESTIGE[i],
        Purchase::Horse => HORSE[i],
        Purchase::Ship => SHIP[i],
        Purchase::Skill => SKILL[i],
    }
}

/// The fifteen edict cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Edict {
    /// Lionheart Triumphant: +3 if RA ≥ 7.
    RE1,
    /// The King Comes Home: +3 if KR ≤ 3.
    RE2,
    /// The Treasury Holds: +3 if KT ≥ 5.
    RE3,
    /// Saladin Repelled: +3 if SA ≤ 3.
    RE4,
    /// Loyal Hearts: +1 per red card in hand, max 4.
    RE5,
    /// Saladin Triumphant: +3 if SA ≥ 7.
    JE1,
    /// The King Tarries: +3 if KR ≥ 5.
    JE2,
    /// Empty Coffers: +3 if KT ≤ 3.
    JE3,
    /// The Crusade Falters: +3 if RA ≤ 3.
    JE4,
    /// Loyal Sheriffs: +1 per green card in hand, max 4.
    JE5,
    /// Stalemate in the Holy Land.
    NE1,
    /// The Long Absence.
    NE2,
    /// A Treasury Undrained.
    NE3,
    /// Envoy of Europe.
    NE4,
    /// Keeper of Secrets.
    NE5,
}

impl Edict {
    /// The five edicts of a deck.
    pub fn deck(faction: Faction) -> [Edict; 5] {
        match faction {
            Faction::Richard => [Edict::RE1, Edict::RE2, Edict::RE3, Edict::RE4, Edict::RE5],
            Faction::John => [Edict::JE1, Edict::JE2, Edict::JE3, Edict::JE4, Edict::JE5],
            Faction::Neutral => [Edict::NE1, Edict::NE2, Edict::NE3, Edict::NE4, Edict::NE5],
        }
    }

    /// The deck this edict belongs to.
    pub fn faction(self) -> Faction {
        match self {
            Edict::RE1 | Edict::RE2 | Edict::RE3 | Edict::RE4 | Edict::RE5 => Faction::Richard,
            Edict::JE1 | Edict::JE2 | Edict::JE3 | Edict::JE4 | Edict::JE5 => Faction::John,
            _ => Faction::Neutral,
        }
    }

    /// The edict's name (R).
    pub fn name(self) -> &'static str {
        match self {
            Edict::RE1 => "Lionheart Triumphant",
            Edict::RE2 => "The King Comes Home",
            Edict::RE3 => "The Treasury Holds",
            Edict::RE4 => "Saladin Repelled",
            Edict::RE5 => "Loyal Hearts",
            Edict::JE1 => "Saladin Triumphant",
            Edict::JE2 => "The King Tarries",
            Edict::JE3 => "Empty Coffers",
            Edict::JE4 => "The Crusade Falters",
            Edict::JE5 => "Loyal Sheriffs",
            Edict::NE1 => "Stalemate in the Holy Land",
            Edict::NE2 => "The Long Absence",
            Edict::NE3 => "A Treasury Undrained",
            Edict::NE4 => "Envoy of Europe",
            Edict::NE5 => "Keeper of Secrets",
        }
    }
}

/// When an event acts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Timing {
    /// A modifier from the reveal to the end of Phase 5.
    Round,
    /// Resolved in Phase 6.
    End,
}

/// The eighteen Event of the Crusade cards (R).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum EventCard {
    /// Siege of Acre.
    E01,
    /// Battle of Arsuf.
    E02,
    /// Storm in the Channel.
    E03,
    /// Fair Winds.
    E04,
    /// Horse Fair.
    E05,
    /// Call to Arms.
    E06,
    /// Muster of the Levies.
    E07,
    /// The Saladin Tithe.
    E08,
    /// A King's Ransom.
    E09,
    /// Philip Returns to France.
    E10,
    /// Treaty of Jaffa.
    E11,
    /// The King Falls Ill.
    E12,
    /// Capture of Cyprus.
    E13,
    /// The Chancellor's Levy.
    E14,
    /// The Greenwood.
    E15,
    /// Pilgrims' Roads.
    E16,
    /// Royal Favour.
    E17,
    /// Reinforcements.
    E18,
}

impl EventCard {
    /// All events.
    pub const ALL: [EventCard; 18] = [
        EventCard::E01,
        EventCard::E02,
        EventCard::E03,
        EventCard::E04,
        EventCard::E05,
        EventCard::E06,
        EventCard::E07,
        EventCard::E08,
        EventCard::E09,
        EventCard::E10,
        EventCard::E11,
        EventCard::E12,
        EventCard::E13,
        EventCard::E14,
        EventCard::E15,
        EventCard::E16,
        EventCard::E17,
        EventCard::E18,
    ];

    /// The printed name (R).
    pub fn name(self) -> &'static str {
        match self {
            EventCard::E01 => "Siege of Acre",
            EventCard::E02 => "Battle of Arsuf",
            EventCard::E03 => "Storm in the Channel",
            EventCard::E04 => "Fair Winds",
            EventCard::E05 => "Horse Fair",
            EventCard::E06 => "Call to Arms",
            EventCard::E07 => "Muster of the Levies",
            EventCard::E08 => "The Saladin Tithe",
            EventCard::E09 => "A King's Ransom",
            EventCard::E10 => "Philip Returns to France",
            EventCard::E11 => "Treaty of Jaffa",
            EventCard::E12 => "The King Falls Ill",
            EventCard::E13 => "Capture of Cyprus",
            EventCard::E14 => "The Chancellor's Levy",
            EventCard::E15 => "The Greenwood",
            EventCard::E16 => "Pilgrims' Roads",
            EventCard::E17 => "Royal Favour",
            EventCard::E18 => "Reinforcements",
        }
    }

    /// Whether the event is a round modifier or is resolved in Phase 6.
    pub fn timing(self) -> Timing {
        match self {
            EventCard::E03 | EventCard::E04 | EventCard::E05 | EventCard::E06 | EventCard::E16 | EventCard::E18 => {
                Timing::Round
            }
            _ => Timing::End,
        }
    }

    /// Where the (Merchant, Mercenary) go in Phase 6 (N ≥ 4) (R).
    pub fn npc_locations(self) -> (Location, Location) {
        match self {
            EventCard::E01 => (London, York),
            EventCard::E02 => (Norwich, Nottingham),
            EventCard::E03 => (Bristol, Cambridge),
            EventCard::E04 => (Cardiff, Oxford),
            EventCard::E05 => (York, Canterbury),
            EventCard::E06 => (Canterbury, Gloucester),
            EventCard::E07 => (Gloucester, Norwich),
            EventCard::E08 => (Oxford, Chester),
            EventCard::E09 => (Cambridge, Sherwood),
            EventCard::E10 => (Grimsby, Bridgewater),
            EventCard::E11 => (Bridgewater, Bristol),
            EventCard::E12 => (Nottingham, Cardiff),
            EventCard::E13 => (Shrewsbury, Salisbury),
            EventCard::E14 => (Chester, Grimsby),
            EventCard::E15 => (Sherwood, Shrewsbury),
            EventCard::E16 => (Salisbury, London),
            EventCard::E17 => (London, Oxford),
            EventCard::E18 => (Norwich, Gloucester),
        }
    }
}
