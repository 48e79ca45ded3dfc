//! What one viewer may see: the board, the harbor, every public stock and score, hand sizes and
//! top discards; the viewer's own hand and face-down choice; never the bag's order, Raphael's deck
//! order, other hands, buried pile cards, others' round-1 choices or the RNG.

use crate::board::{self, Card, Kind, Pieces, STOREHOUSES};
use crate::setup::Options;
use crate::state::{Phase, Piece, Place, Score, SecretTreasures, Trigger};
use game_core::{Seat, Viewer};
use serde::Serialize;

/// A viewer's view of the game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    /// Who is looking.
    pub viewer: Viewer,
    /// The options of the game.
    pub options: Options,
    /// The number of players.
    pub players: u8,
    /// The start player.
    pub start_player: Seat,
    /// The round number, from 1.
    pub round: u32,
    /// The phase, with the progress of the current turn (all public).
    pub phase: Phase,
    /// The seats the game waits for.
    pub to_act: Vec<Seat>,
    /// Each player's public situation.
    pub seats: Vec<SeatView>,
    /// The viewer's own hand (none for spectators).
    pub hand: Option<Vec<Card>>,
    /// The viewer's own face-down round-1 card, while it is still hidden from the others.
    pub my_choice: Option<Card>,
    /// Remigius's room (none before he is placed).
    pub remigius: Option<u8>,
    /// Vitus's place: a room, or the main portal in a first game before Remigius moves.
    pub vitus: Option<Place>,
    /// Severus's room.
    pub severus: Option<u8>,
    /// The two rooms of the passage holding the door.
    pub door: [u8; 2],
    /// The 13 rooms and what lies in them.
    pub rooms: Vec<RoomView>,
    /// The six storehouses.
    pub storehouses: Vec<StorehouseView>,
    /// How many tiles are left in the bag.
    pub bag: usize,
    /// The tiles that have left the game.
    pub removed: Pieces,
    /// Raphael (2-player game only).
    pub raphael: Option<RaphaelView>,
    /// Turns left once the end has been triggered.
    pub final_turns_left: Option<u8>,
    /// Who triggered the end, and how.
    pub trigger: Option<(Seat, Trigger)>,
    /// Whether the current turn is one of the final turns (Benjamin may then take only his own rings).
    pub final_turn: bool,
}

/// One player's public situation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatView {
    /// The seat.
    pub seat: Seat,
    /// Where his token stands.
    pub token: Place,
    /// Cards in hand.
    pub hand_size: usize,
    /// Cards in his discard pile.
    pub pile_size: usize,
    /// The visible top card of his pile.
    pub pile_top: Option<Card>,
    /// Round 1: whether he has chosen his face-down card.
    pub has_chosen: bool,
    /// His personal stock, unscored side up.
    pub stock: Pieces,
    /// His reserve.
    pub reserve: Pieces,
    /// His points by source.
    pub score: Score,
    /// His points in all.
    pub total: i64,
    /// The rooms holding at least one of his pieces.
    pub rooms: usize,
}

/// One room.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RoomView {
    /// The room number.
    pub room: u8,
    /// Whether it is a church room.
    pub church: bool,
    /// Its chalice spaces.
    pub chalices: Vec<Option<Piece>>,
    /// Its book spaces.
    pub books: Vec<Option<Piece>>,
    /// Its ring areas.
    pub areas: Vec<Vec<Option<Piece>>>,
}

/// One storehouse.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StorehouseView {
    /// Its number, 1..=6 clockwise (1 bears the ship).
    pub number: u8,
    /// Its boxes.
    pub capacity: usize,
    /// The tiles in it.
    pub tiles: Vec<Kind>,
}

/// Raphael's public situation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RaphaelView {
    /// Cards in his face-down deck.
    pub deck_size: usize,
    /// Cards in his display pile.
    pub display_size: usize,
    /// His visible top card, which neither player may play.
    pub top: Option<Card>,
}

impl SecretTreasures {
    /// The view of `viewer`.
    pub(crate) fn make_view(&self, viewer: Viewer) -> View {
        let own = match viewer {
            Viewer::Seat(s) if s.index() < self.n() => Some(s),
            _ => None,
        };
        let seats = self
            .seats()
            .map(|seat| SeatView {
                seat,
                token: self.tokens[seat],
                hand_size: self.hands[seat].len(),
                pile_size: self.piles[seat].len(),
                pile_top: self.piles[seat].last().copied(),
                has_chosen: self.chosen[seat].is_some(),
                stock: self.stocks[seat],
                reserve: self.reserves[seat],
                score: self.scores[seat],
                total: self.scores[seat].total(),
                rooms: self.rooms_with_pieces(seat),
            })
            .collect();
        View {
            viewer,
            options: self.options.clone(),
            players: self.players,
            start_player: self.start,
            round: self.round,
            phase: self.phase.clone(),
            to_act: self.waiting_for(),
            seats,
            hand: own.map(|s| self.hands[s].clone()),
            my_choice: own.and_then(|s| self.chosen[s]),
            remigius: self.remigius,
            vitus: self.vitus,
            severus: self.severus,
            door: self.door_rooms(),
            rooms: self
                .rooms
                .iter()
                .zip(1..)
                .map(|(r, room)| RoomView {
                    room,
                    church: board::is_church(room),
                    chalices: r.chalices.clone(),
                    books: r.books.clone(),
                    areas: r.areas.clone(),
                })
                .collect(),
            storehouses: self
                .storehouses
                .iter()
                .zip(STOREHOUSES)
                .zip(1..)
                .map(|((tiles, capacity), number)| StorehouseView { number, capacity, tiles: tiles.clone() })
                .collect(),
            bag: self.bag.len(),
            removed: self.removed,
            raphael: self.raphael.as_ref().map(|r| RaphaelView {
                deck_size: r.deck.len(),
                display_size: r.display.len(),
                top: r.top(),
            }),
            final_turns_left: self.final_turns_left,
            trigger: self.trigger,
            final_turn: self.final_turn,
        }
    }
}
