//! The full game state: plain serde data, with the seeded RNG inside. Every hidden thing (hands,
//! buried piles, round-1 choices, the bag, Raphael's deck, the RNG) lives here; views filter it.
//! Reading a state from JSON checks its invariants (`validate`) before it can be used.

use crate::board::{self, Card, Kind, Pieces, Portal, Ring, LAYOUT};
use crate::event::Event;
use crate::setup::Options;
use game_core::{BySeat, Game, GameRng, Seat};
use serde::{Deserialize, Serialize};

/// Where a player token, or Vitus, stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Place {
    /// In front of a portal, outside the abbey.
    Portal(Portal),
    /// In a room 1..=13.
    Room(u8),
    /// In a storehouse 1..=6 at the harbor (after Maria).
    Storehouse(u8),
}

impl Place {
    /// The room, if this place is a room.
    pub fn room(self) -> Option<u8> {
        match self {
            Place::Room(r) => Some(r),
            _ => None,
        }
    }
}

/// A player's valuable lying on a space of the abbey.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Piece {
    /// Its owner.
    pub owner: Seat,
    /// What it is.
    pub kind: Kind,
    /// Whether its scored side is up.
    pub scored: bool,
}

/// The spaces of one room and what lies on them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomSpaces {
    /// Chalice spaces c1, c2, ...
    pub chalices: Vec<Option<Piece>>,
    /// Book spaces b1, b2, ...
    pub books: Vec<Option<Piece>>,
    /// Ring areas a1, a2, ..., each a list of spaces.
    pub areas: Vec<Vec<Option<Piece>>>,
}

impl RoomSpaces {
    /// The empty spaces of room `room` (1..=13); an empty room with no spaces for anything else.
    pub fn empty(room: u8) -> RoomSpaces {
        let layout = LAYOUT.get(usize::from(room).wrapping_sub(1));
        let (c, b, areas) = layout.map_or((0, 0, &[][..]), |l| (l.chalices, l.books, l.areas));
        RoomSpaces {
            chalices: vec![None; usize::from(c)],
            books: vec![None; usize::from(b)],
            areas: areas.iter().map(|n| vec![None; usize::from(*n)]).collect(),
        }
    }

    /// Every piece in the room.
    pub fn pieces(&self) -> impl Iterator<Item = &Piece> {
        self.chalices.iter().chain(self.books.iter()).chain(self.areas.iter().flatten()).flatten()
    }

    /// The ring type of area `area` (0-based): set by any ring in it, scored or not.
    pub fn area_type(&self, area: usize) -> Option<Ring> {
        self.areas.get(area)?.iter().flatten().find_map(|p| p.kind.ring())
    }

    /// Whether a ring of type `ring` may be stashed in area `area` (0-based).
    pub fn accepts_ring(&self, area: usize, ring: Ring) -> bool {
        let Some(spaces) = self.areas.get(area) else { return false };
        spaces.iter().any(Option::is_none) && self.area_type(area).is_none_or(|t| t == ring)
    }

    /// Whether one of the chalice (or book) spaces is empty.
    pub fn has_free(&self, kind: Kind) -> bool {
        match kind {
            Kind::Chalice => self.chalices.iter().any(Option::is_none),
            Kind::Book => self.books.iter().any(Option::is_none),
            _ => false,
        }
    }
}

/// A player's points so far, by source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    /// From Remigius scoring rooms.
    pub remigius: i64,
    /// From Porticus.
    pub porticus: i64,
    /// From Severus.
    pub severus: i64,
    /// From Stephanus.
    pub stephanus: i64,
    /// End: unscored rings in the church.
    pub church: i64,
    /// End: the rooms bonus.
    pub rooms: i64,
}

impl Score {
    /// All points.
    pub fn total(&self) -> i64 {
        self.remigius + self.porticus + self.severus + self.stephanus + self.church + self.rooms
    }
}

/// Why the final turns began.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trigger {
    /// The Bells could not fully replenish the harbor: the bag ran empty.
    BagEmpty,
    /// A player has pieces in all 13 rooms.
    AllRooms,
}

/// The ring Benjamin is carrying.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Carried {
    /// Its owner.
    pub owner: Seat,
    /// Its type.
    pub ring: Ring,
    /// The room it was picked up in; it must be stashed elsewhere.
    pub from: u8,
}

/// Where in a turn the active player is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "step")]
pub enum Step {
    /// D6: leave the storehouse through a portal.
    Portal,
    /// D7: play a card.
    Card,
    /// D8/D14: move the token (monks, Stephanus) or Severus one room at a time.
    Move {
        /// The card being resolved.
        card: Card,
        /// Steps made so far.
        steps: u8,
        /// Rooms that may not be entered again (the start room and every room entered).
        visited: Vec<u8>,
    },
    /// D9: stash pieces after a monk's move.
    Stash {
        /// How many more may be stashed.
        left: u8,
    },
    /// D10: Benjamin's steps, pick-up and stash.
    Benjamin {
        /// Steps made so far.
        steps: u8,
        /// The ring being carried.
        carrying: Option<Carried>,
        /// Whether a ring has been picked up this turn.
        picked: bool,
    },
    /// D11: Maria's storehouse.
    Storehouse,
    /// D12: Porticus's passage.
    Door,
    /// D13: Remigius's steps.
    Remigius {
        /// His start room.
        start: u8,
        /// Steps made so far.
        steps: u8,
        /// Whether the first step was a forced crossing of Vitus's room.
        forced: bool,
    },
}

/// The phase of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "phase")]
pub enum Phase {
    /// D1: the placer puts Remigius in any room.
    PlaceRemigius {
        /// Who places.
        seat: Seat,
    },
    /// D2: the placer puts Vitus next to Remigius.
    PlaceVitus {
        /// Who places.
        seat: Seat,
    },
    /// D3: the placer puts Severus in any room.
    PlaceSeverus {
        /// Who places.
        seat: Seat,
    },
    /// D4: a player chooses the ring type he starts with only once.
    ChooseRings {
        /// Who chooses.
        seat: Seat,
    },
    /// D5: everyone chooses a card face down.
    FirstRound,
    /// A player's turn.
    Turn {
        /// The active player.
        seat: Seat,
        /// Where in the turn.
        #[serde(flatten)]
        step: Step,
    },
    /// The game is over and scored.
    Over,
}

/// Raphael, the imaginary third player of the 2-player game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Raphael {
    /// His face-down deck (the order is hidden; the last card is the top).
    pub deck: Vec<Card>,
    /// His display pile (the last card is the top).
    pub display: Vec<Card>,
}

impl Raphael {
    /// The top of his display pile.
    pub fn top(&self) -> Option<Card> {
        self.display.last().copied()
    }
}

/// A game of Templar: The Secret Treasures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self")]
pub struct SecretTreasures {
    pub(crate) options: Options,
    pub(crate) players: u8,
    pub(crate) rng: GameRng,
    pub(crate) start: Seat,
    pub(crate) round: u32,
    pub(crate) phase: Phase,
    /// Whether the current turn is one of the final turns (it began after a trigger).
    pub(crate) final_turn: bool,
    pub(crate) final_turns_left: Option<u8>,
    pub(crate) trigger: Option<(Seat, Trigger)>,
    pub(crate) hands: BySeat<Vec<Card>>,
    pub(crate) piles: BySeat<Vec<Card>>,
    /// The hidden round-1 choices.
    pub(crate) chosen: BySeat<Option<Card>>,
    pub(crate) tokens: BySeat<Place>,
    pub(crate) remigius: Option<u8>,
    pub(crate) vitus: Option<Place>,
    pub(crate) severus: Option<u8>,
    /// Index into [`board::PASSAGES`].
    pub(crate) door: usize,
    /// Rooms 1..=13 at indices 0..=12.
    pub(crate) rooms: Vec<RoomSpaces>,
    pub(crate) stocks: BySeat<Pieces>,
    pub(crate) reserves: BySeat<Pieces>,
    pub(crate) bag: Vec<Kind>,
    pub(crate) storehouses: Vec<Vec<Kind>>,
    pub(crate) removed: Pieces,
    pub(crate) scores: BySeat<Score>,
    pub(crate) raphael: Option<Raphael>,
    /// Test hook, set only by [`crate::testing`]: the next draws from the bag, in order. Never
    /// serialised, so a state read from JSON cannot script the bag, and real games (where it is
    /// always empty) hash as before.
    #[serde(skip)]
    pub(crate) forced_draws: Vec<Kind>,
    /// What setup did, for the log.
    pub(crate) setup_log: Vec<Event>,
}

game_core::validated_state!(SecretTreasures);

impl SecretTreasures {
    /// The seats in turn order from seat 0.
    pub(crate) fn seats(&self) -> impl Iterator<Item = Seat> {
        Seat::all(self.players())
    }

    pub(crate) fn spaces_mut(&mut self, room: u8) -> Option<&mut RoomSpaces> {
        self.rooms.get_mut(usize::from(room).wrapping_sub(1))
    }

    /// Draws a tile from the bag (the test hook first), or `None` if the bag is empty.
    pub(crate) fn draw(&mut self) -> Option<Kind> {
        if !self.forced_draws.is_empty() {
            let kind = self.forced_draws.remove(0);
            if let Some(i) = self.bag.iter().position(|k| *k == kind) {
                return Some(self.bag.swap_remove(i));
            }
        }
        if self.bag.is_empty() {
            return None;
        }
        let i = self.rng.below(self.bag.len());
        Some(self.bag.swap_remove(i))
    }

    /// The room the active token or Severus moves from, for a move card.
    pub(crate) fn mover_place(&self, seat: Seat, card: Card) -> Option<Place> {
        if card == Card::Severus {
            self.severus.map(Place::Room)
        } else {
            self.tokens.get(seat).copied()
        }
    }

    /// The top card of every pile other than `seat`'s, and Raphael's top.
    pub(crate) fn blocked_cards(&self, seat: Seat) -> Vec<Card> {
        let mut blocked: Vec<Card> =
            self.piles.iter().filter(|(s, _)| *s != seat).filter_map(|(_, p)| p.last().copied()).collect();
        if let Some(top) = self.raphael.as_ref().and_then(Raphael::top) {
            blocked.push(top);
        }
        blocked
    }

    /// The cards a player holds in a full hand.
    pub(crate) fn full_hand(&self) -> Vec<Card> {
        Card::ALL.iter().copied().filter(|c| self.options.stephanus || *c != Card::Stephanus).collect()
    }
}

/// Read-only accessors, for tests and tools.
impl SecretTreasures {
    /// The options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The phase, with the progress of the current turn.
    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// The round number, from 1.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// The start player.
    pub fn start_player(&self) -> Seat {
        self.start
    }

    /// A player's points by source (`Score::default()` for a seat not at the table).
    pub fn score(&self, seat: Seat) -> Score {
        self.scores.get(seat).copied().unwrap_or_default()
    }

    /// Where a player's token stands.
    pub fn token(&self, seat: Seat) -> Option<Place> {
        self.tokens.get(seat).copied()
    }

    /// Remigius's room.
    pub fn remigius(&self) -> Option<u8> {
        self.remigius
    }

    /// Vitus's place.
    pub fn vitus(&self) -> Option<Place> {
        self.vitus
    }

    /// Severus's room.
    pub fn severus(&self) -> Option<u8> {
        self.severus
    }

    /// The two rooms of the passage holding the door.
    pub fn door(&self) -> [u8; 2] {
        board::PASSAGES.get(self.door).copied().unwrap_or([9, 13])
    }

    /// The spaces of a room 1..=13.
    pub fn spaces(&self, room: u8) -> Option<&RoomSpaces> {
        self.rooms.get(usize::from(room).wrapping_sub(1))
    }

    /// A player's personal stock.
    pub fn stock(&self, seat: Seat) -> Pieces {
        self.stocks.get(seat).copied().unwrap_or_default()
    }

    /// A player's reserve.
    pub fn reserve(&self, seat: Seat) -> Pieces {
        self.reserves.get(seat).copied().unwrap_or_default()
    }

    /// The tiles in storehouse 1..=6.
    pub fn storehouse(&self, number: u8) -> &[Kind] {
        self.storehouses.get(usize::from(number).wrapping_sub(1)).map_or(&[], Vec::as_slice)
    }

    /// The tiles left in the bag, by kind.
    pub fn bag(&self) -> Pieces {
        let mut count = Pieces::default();
        for tile in &self.bag {
            count.add(*tile);
        }
        count
    }

    /// The tiles that have left the game, by kind.
    pub fn removed(&self) -> Pieces {
        self.removed
    }

    /// A player's hand.
    pub fn hand(&self, seat: Seat) -> &[Card] {
        self.hands.get(seat).map_or(&[], Vec::as_slice)
    }

    /// A player's discard pile, top last.
    pub fn pile(&self, seat: Seat) -> &[Card] {
        self.piles.get(seat).map_or(&[], Vec::as_slice)
    }

    /// Raphael, in a 2-player game.
    pub fn raphael(&self) -> Option<&Raphael> {
        self.raphael.as_ref()
    }

    /// The final turns left once the end has been triggered.
    pub fn final_turns_left(&self) -> Option<u8> {
        self.final_turns_left
    }

    /// Who triggered the end, and how.
    pub fn trigger(&self) -> Option<(Seat, Trigger)> {
        self.trigger
    }

    /// The number of rooms holding at least one piece of `seat`, scored or not.
    pub fn rooms_of(&self, seat: Seat) -> usize {
        self.rooms.iter().filter(|r| r.pieces().any(|p| p.owner == seat)).count()
    }

    /// A player's pieces of `kind` on the board.
    pub fn on_board(&self, seat: Seat, kind: Kind) -> u8 {
        self.rooms.iter().flat_map(|r| r.pieces()).filter(|p| p.owner == seat && p.kind == kind).count() as u8
    }

    /// Whether `seat`'s token is in a storehouse.
    pub fn at_harbor(&self, seat: Seat) -> bool {
        matches!(self.token(seat), Some(Place::Storehouse(_)))
    }
}
