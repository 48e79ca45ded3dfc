//! What one viewer may see: the board, the harbor, every public stock and score, hand sizes and
//! top discards; the viewer's own hand and face-down choice; never the bag's order, Raphael's deck
//! order, other hands, buried pile cards, others' round-1 choices or the RNG. And the converse, for
//! the contract's non-interference test: a copy with everything hidden from a viewer re-drawn.

use crate::board::{self, Card, Kind, Pieces, STOREHOUSES};
use crate::setup::Options;
use crate::state::{Phase, Piece, Place, Score, SecretTreasures, Trigger};
use game_core::view_diff::{ViewParts, ViewText};
use game_core::{BySeat, Game, GameRng, Seat, Viewer};
use serde::Serialize;
use std::sync::Arc;

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
    pub seats: BySeat<SeatView>,
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

/// The view of `viewer`.
pub(crate) fn view(game: &SecretTreasures, viewer: Viewer) -> View {
    let own = own_seat(game, viewer);
    let seats = BySeat::from_fn(game.players(), |seat| SeatView {
        seat,
        token: game.tokens[seat],
        hand_size: game.hands[seat].len(),
        pile_size: game.piles[seat].len(),
        pile_top: game.piles[seat].last().copied(),
        has_chosen: game.chosen[seat].is_some(),
        stock: game.stocks[seat],
        reserve: game.reserves[seat],
        score: game.scores[seat],
        total: game.scores[seat].total(),
        rooms: game.rooms_of(seat),
    });
    View {
        viewer,
        options: game.options.clone(),
        players: game.players,
        start_player: game.start,
        round: game.round,
        phase: game.phase.clone(),
        to_act: crate::rules::to_act(game),
        seats,
        hand: own.map(|s| game.hands[s].clone()),
        my_choice: own.and_then(|s| game.chosen[s]),
        remigius: game.remigius,
        vitus: game.vitus,
        severus: game.severus,
        door: game.door(),
        rooms: game
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
        storehouses: game
            .storehouses
            .iter()
            .zip(STOREHOUSES)
            .zip(1..)
            .map(|((tiles, capacity), number)| StorehouseView { number, capacity, tiles: tiles.clone() })
            .collect(),
        bag: game.bag.len(),
        removed: game.removed,
        raphael: game.raphael.as_ref().map(|r| RaphaelView {
            deck_size: r.deck.len(),
            display_size: r.display.len(),
            top: r.top(),
        }),
        final_turns_left: game.final_turns_left,
        trigger: game.trigger,
        final_turn: game.final_turn,
    }
}

/// The seat whose hand and face-down choice `viewer` sees: its own, if it plays.
fn own_seat(game: &SecretTreasures, viewer: Viewer) -> Option<Seat> {
    match viewer {
        Viewer::Seat(s) if s.index() < game.players() => Some(s),
        _ => None,
    }
}

/// Every viewer's view text as parts in [`View`]'s field order (`Game::view_texts`). Only
/// `viewer`, the hand and the face-down choice differ between viewers: the board, the seats and
/// the rest are written once per action and every viewer gets the same parts for them, so that
/// a table diffs them once. The server's `view_patches` test checks that the parts join to the
/// view's text at every step.
pub(crate) fn view_texts(game: &SecretTreasures, viewers: &[Viewer]) -> Vec<ViewParts> {
    let public = view(game, Viewer::Spectator);
    let head = Arc::new(ViewText::serialize(&HeadRun {
        options: &public.options,
        players: public.players,
        start_player: public.start_player,
        round: public.round,
        phase: &public.phase,
        to_act: &public.to_act,
        seats: &public.seats,
    }));
    let board = Arc::new(ViewText::serialize(&BoardRun {
        remigius: public.remigius,
        vitus: &public.vitus,
        severus: public.severus,
        door: public.door,
        rooms: &public.rooms,
        storehouses: &public.storehouses,
        bag: public.bag,
        removed: &public.removed,
        raphael: &public.raphael,
        final_turns_left: public.final_turns_left,
        trigger: &public.trigger,
        final_turn: public.final_turn,
    }));
    let mut nothing_own: Option<Arc<ViewText>> = None;
    viewers
        .iter()
        .map(|&viewer| {
            let own = match own_seat(game, viewer) {
                Some(s) => {
                    let hand = Some(game.hands[s].clone());
                    Arc::new(ViewText::serialize_sized(&OwnRun { hand, my_choice: game.chosen[s] }, 128))
                }
                None => Arc::clone(nothing_own.get_or_insert_with(|| {
                    Arc::new(ViewText::serialize_sized(&OwnRun { hand: None, my_choice: None }, 32))
                })),
            };
            ViewParts::new([
                Arc::new(ViewText::serialize_sized(&ViewerRun { viewer }, 32)),
                Arc::clone(&head),
                own,
                Arc::clone(&board),
            ])
        })
        .collect()
}

// [`View`]'s fields in runs, in its field order, with its field names: joined, the runs are
// exactly the text of the whole `View`.

#[derive(Serialize)]
struct ViewerRun {
    viewer: Viewer,
}

#[derive(Serialize)]
struct HeadRun<'a> {
    options: &'a Options,
    players: u8,
    start_player: Seat,
    round: u32,
    phase: &'a Phase,
    to_act: &'a [Seat],
    seats: &'a BySeat<SeatView>,
}

#[derive(Serialize)]
struct OwnRun {
    hand: Option<Vec<Card>>,
    my_choice: Option<Card>,
}

#[derive(Serialize)]
struct BoardRun<'a> {
    remigius: Option<u8>,
    vitus: &'a Option<Place>,
    severus: Option<u8>,
    door: [u8; 2],
    rooms: &'a [RoomView],
    storehouses: &'a [StorehouseView],
    bag: usize,
    removed: &'a Pieces,
    raphael: &'a Option<RaphaelView>,
    final_turns_left: Option<u8>,
    trigger: &'a Option<(Seat, Trigger)>,
    final_turn: bool,
}

/// A copy of `game` in which everything hidden from `viewer` is re-drawn at random: other hands and
/// buried pile cards, others' face-down round-1 choices, Raphael's deck and buried display, the
/// bag's order and the RNG. The Bells stays where it must be (in hand, or in Raphael's deck).
pub(crate) fn scramble_hidden(game: &SecretTreasures, viewer: Viewer, rng: &mut GameRng) -> SecretTreasures {
    let mut copy = game.clone();
    copy.rng = GameRng::from_u64(u64::from(rng.next_u32()));
    rng.shuffle(&mut copy.bag);
    let first_round = game.phase == Phase::FirstRound;
    for seat in game.seats() {
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
