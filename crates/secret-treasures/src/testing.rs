//! Building scenario states from explicit parts, for the crate's scenario tests (not for play).
//!
//! A [`Scenario`] starts from the spec's base state: seat 0 is the start player and active in
//! round 2, Stephanus is in play, the board is empty, the door is on 9–13, every token is at the
//! main portal, Remigius is in room 5, Vitus in room 6 and Severus in room 7, every stock holds
//! X×2, Y×2, Z×1, hands are full and piles empty. `build` makes reserves and the bag consistent.

use crate::board::{self, Card, Kind, Pieces, Ring};
use crate::setup::{self, Options, SetupHooks};
use crate::state::{Piece, Place, RoomSpaces, SecretTreasures};
use game_core::{Game, Seat, Seed, SetupError};

/// A setup with a fixed start player and fixed first draws.
///
/// # Errors
/// As [`game_core::Game::setup`].
pub fn setup_with(
    players: usize,
    options: &Options,
    seed: u64,
    start: Seat,
    draws: Vec<Kind>,
) -> Result<SecretTreasures, SetupError> {
    setup::setup(players, options, Seed::from_u64(seed), SetupHooks { start: Some(start), draws })
}

/// A scenario under construction.
#[derive(Clone, Debug)]
pub struct Scenario {
    game: SecretTreasures,
    active: Seat,
}

impl Scenario {
    /// The base state for `players` players with Stephanus.
    ///
    /// # Panics
    /// For a player count outside 2–5.
    pub fn new(players: usize) -> Scenario {
        Scenario::with_options(players, &Options::default())
    }

    /// The base state with `options`.
    ///
    /// # Panics
    /// For a player count or options setup rejects.
    pub fn with_options(players: usize, options: &Options) -> Scenario {
        let mut game = match setup_with(players, options, 1, Seat(0), Vec::new()) {
            Ok(g) => g,
            Err(e) => panic!("scenario setup failed: {e}"),
        };
        game.round = 2;
        game.remigius = Some(5);
        game.vitus = Some(Place::Room(6));
        game.severus = Some(7);
        for seat in Seat::all(players) {
            game.stocks[seat] = Pieces::new(0, 0, 2, 2, 1);
        }
        Scenario { game, active: Seat(0) }
    }

    /// The active player (his turn starts at D6 or D7).
    pub fn active(mut self, seat: Seat) -> Self {
        self.active = seat;
        self
    }

    /// The round number.
    pub fn round(mut self, round: u32) -> Self {
        self.game.round = round;
        self
    }

    /// Where a token stands.
    pub fn token(mut self, seat: Seat, place: Place) -> Self {
        self.game.tokens[seat] = place;
        self
    }

    /// Remigius's room.
    pub fn remigius(mut self, room: u8) -> Self {
        self.game.remigius = Some(room);
        self
    }

    /// Vitus's place.
    pub fn vitus(mut self, place: Place) -> Self {
        self.game.vitus = Some(place);
        self
    }

    /// Severus's room.
    pub fn severus(mut self, room: u8) -> Self {
        self.game.severus = Some(room);
        self
    }

    /// The door, on the passage between two rooms.
    ///
    /// # Panics
    /// If the rooms share no passage.
    pub fn door(mut self, a: u8, b: u8) -> Self {
        self.game.door = board::passage_index(a, b).unwrap_or_else(|| panic!("no passage {a}-{b}"));
        self
    }

    /// A player's personal stock.
    pub fn stock(mut self, seat: Seat, stock: Pieces) -> Self {
        self.game.stocks[seat] = stock;
        self
    }

    fn place(
        mut self,
        room: u8,
        piece: Piece,
        slot: impl FnOnce(&mut RoomSpaces) -> Option<&mut Option<Piece>>,
    ) -> Self {
        let spaces = self.game.spaces_mut(room).unwrap_or_else(|| panic!("no room {room}"));
        let space = slot(spaces).unwrap_or_else(|| panic!("no such space in room {room}"));
        *space = Some(piece);
        self
    }

    /// A chalice on space `c{space}` of `room`.
    pub fn chalice(self, room: u8, space: usize, owner: Seat, scored: bool) -> Self {
        let piece = Piece { owner, kind: Kind::Chalice, scored };
        self.place(room, piece, |r| r.chalices.get_mut(space - 1))
    }

    /// A book on space `b{space}` of `room`.
    pub fn book(self, room: u8, space: usize, owner: Seat, scored: bool) -> Self {
        let piece = Piece { owner, kind: Kind::Book, scored };
        self.place(room, piece, |r| r.books.get_mut(space - 1))
    }

    /// A ring on space `a{area}.{space}` of `room`.
    pub fn ring(self, room: u8, area: usize, space: usize, owner: Seat, ring: Ring, scored: bool) -> Self {
        let piece = Piece { owner, kind: ring.into(), scored };
        self.place(room, piece, |r| r.areas.get_mut(area - 1).and_then(|a| a.get_mut(space - 1)))
    }

    /// The tiles of storehouse 1..=6.
    pub fn storehouse(mut self, number: usize, tiles: Vec<Kind>) -> Self {
        self.game.storehouses[number - 1] = tiles;
        self
    }

    /// A player's discard pile (top last); his hand is the rest of his cards.
    pub fn pile(mut self, seat: Seat, pile: Vec<Card>) -> Self {
        let mut hand = self.game.full_hand();
        hand.retain(|c| !pile.contains(c));
        self.game.hands[seat] = hand;
        self.game.piles[seat] = pile;
        self
    }

    /// A player's hand and pile exactly.
    pub fn cards(mut self, seat: Seat, hand: Vec<Card>, pile: Vec<Card>) -> Self {
        self.game.hands[seat] = hand;
        self.game.piles[seat] = pile;
        self
    }

    /// The tiles that have left the game (the bag is what remains).
    pub fn removed(mut self, removed: Pieces) -> Self {
        self.game.removed = removed;
        self
    }

    /// Raphael's deck (top last) and display pile (top last).
    pub fn raphael(mut self, deck: Vec<Card>, display: Vec<Card>) -> Self {
        self.game.raphael = Some(crate::state::Raphael { deck, display });
        self
    }

    /// The next tiles drawn from the bag, in order.
    pub fn draws(mut self, draws: Vec<Kind>) -> Self {
        self.game.forced_draws = draws;
        self
    }

    /// Starts the final turns with `left` turns to go, the current one being one of them.
    pub fn final_turns(mut self, left: u8) -> Self {
        self.game.final_turns_left = Some(left);
        self.game.final_turn = true;
        self
    }

    /// The finished scenario, with reserves and the bag made consistent with the rest.
    pub fn build(self) -> SecretTreasures {
        let Scenario { mut game, active } = self;
        let n = game.players();
        for seat in Seat::all(n) {
            let mut reserve = board::VALUABLES;
            for kind in Kind::ALL {
                let used = game.stocks[seat].get(kind) + game.on_board(seat, kind);
                for _ in 0..used {
                    reserve.take(kind);
                }
            }
            game.reserves[seat] = reserve;
        }
        let tiles = if n == 2 { board::TILES_TWO_PLAYERS } else { board::TILES };
        let mut bag = setup::tile_list(tiles);
        for tile in game.storehouses.iter().flatten().chain(setup::tile_list(game.removed).iter()) {
            if let Some(i) = bag.iter().position(|k| k == tile) {
                bag.swap_remove(i);
            }
        }
        bag.sort_unstable();
        game.bag = bag;
        let final_turn = game.final_turn;
        game.begin_turn(active);
        game.final_turn = final_turn;
        game
    }
}
