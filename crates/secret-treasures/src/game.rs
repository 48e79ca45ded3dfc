//! The `game-core` contract for Templar: The Secret Treasures, hidden-information scrambling for
//! the non-interference test, and read-only accessors for tests and tools.

use crate::action::Action;
use crate::board::{Card, Kind, Pieces};
use crate::event::StEvent;
use crate::setup::{self, Options, SetupHooks};
use crate::state::{Phase, Place, Raphael, RoomSpaces, Score, SecretTreasures, Trigger};
use crate::view::View;
use game_core::{Event, Game, GameRng, OptionSpec, Outcome, RuleError, Seat, Seed, SetupError, Viewer};

impl Game for SecretTreasures {
    type Options = Options;
    type Action = Action;
    type View = View;
    type Event = StEvent;

    const ID: &'static str = "secret-treasures";
    const NAME: &'static str = "Templar: The Secret Treasures";
    const MIN_PLAYERS: usize = 2;
    const MAX_PLAYERS: usize = 5;

    fn option_specs() -> Vec<OptionSpec> {
        setup::option_specs()
    }

    fn setup(players: usize, options: &Options, seed: Seed) -> Result<Self, SetupError> {
        setup::setup(players, options, seed, SetupHooks::default())
    }

    fn setup_events(&self) -> Vec<Event<StEvent>> {
        self.setup_log.iter().cloned().map(Event::public).collect()
    }

    fn players(&self) -> usize {
        self.n()
    }

    fn to_act(&self) -> Vec<Seat> {
        self.waiting_for()
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        self.legal(seat)
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Event<StEvent>>, RuleError> {
        RuleError::check(self, seat, action)?;
        Ok(self.play(seat, *action))
    }

    fn view(&self, viewer: Viewer) -> View {
        self.make_view(viewer)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.final_outcome()
    }

    fn scramble_hidden(&self, viewer: Viewer, rng: &mut GameRng) -> Self {
        let mut copy = self.clone();
        copy.rng = GameRng::from_u64(u64::from(rng.next_u32()));
        rng.shuffle(&mut copy.bag);
        let first_round = self.phase == Phase::FirstRound;
        for seat in self.seats() {
            if viewer.is(seat) {
                continue;
            }
            if first_round {
                // The face-down choice is any card of the hand.
                if let Some(card) = copy.chosen[seat].take() {
                    let mut pool = std::mem::take(&mut copy.hands[seat]);
                    pool.push(card);
                    rng.shuffle(&mut pool);
                    copy.chosen[seat] = pool.pop();
                    pool.sort_unstable();
                    copy.hands[seat] = pool;
                }
                continue;
            }
            // Buried pile cards and the hand (The Bells always goes back to the hand) are interchangeable.
            let pile = &mut copy.piles[seat];
            let top = pile.pop();
            let buried = pile.len();
            let mut pool: Vec<Card> = std::mem::take(pile);
            let hand = std::mem::take(&mut copy.hands[seat]);
            let bells = hand.contains(&Card::Bells);
            pool.extend(hand.into_iter().filter(|c| *c != Card::Bells));
            rng.shuffle(&mut pool);
            let mut hand = pool.split_off(buried);
            pool.extend(top);
            copy.piles[seat] = pool;
            if bells {
                hand.push(Card::Bells);
            }
            hand.sort_unstable();
            copy.hands[seat] = hand;
        }
        if let Some(raphael) = copy.raphael.as_mut() {
            // His buried display cards and his deck are interchangeable; The Bells is always in the deck.
            let top = raphael.display.pop();
            let buried = raphael.display.len();
            let mut pool: Vec<Card> = std::mem::take(&mut raphael.display);
            let bells = raphael.deck.iter().filter(|c| **c == Card::Bells).count();
            pool.extend(raphael.deck.iter().copied().filter(|c| *c != Card::Bells));
            rng.shuffle(&mut pool);
            let mut deck = pool.split_off(buried.min(pool.len()));
            deck.extend(std::iter::repeat_n(Card::Bells, bells));
            rng.shuffle(&mut deck);
            pool.extend(top);
            raphael.display = pool;
            raphael.deck = deck;
        }
        copy
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

    /// The rooms of the passage holding the door.
    pub fn door(&self) -> [u8; 2] {
        self.door_rooms()
    }

    /// The spaces of a room 1..=13.
    pub fn spaces(&self, room: u8) -> Option<&RoomSpaces> {
        self.room(room)
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

    /// The number of rooms holding at least one piece of `seat`.
    pub fn rooms_of(&self, seat: Seat) -> usize {
        self.rooms_with_pieces(seat)
    }

    /// A player's pieces of `kind` on the board.
    pub fn on_board(&self, seat: Seat, kind: Kind) -> u8 {
        crate::score::on_board(self, seat, kind)
    }

    /// Whether `seat`'s token is in a storehouse.
    pub fn at_harbor(&self, seat: Seat) -> bool {
        matches!(self.token(seat), Some(Place::Storehouse(_)))
    }
}
