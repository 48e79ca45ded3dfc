//! The invariants every reachable state keeps (spec §9, as far as a single state shows them):
//! valuables, tiles and cards conserved; storehouses and spaces within their printed sizes; every
//! seat, room, storehouse and passage in range; and a phase and step that agree with the rest of
//! the state and wait for someone who has a decision to make. A state read from JSON is refused
//! unless it passes (see `game_core::validated_state!` in `state.rs`). The checks never panic:
//! shapes and ranges are checked first, so the later ones may index freely.

use crate::action::Action;
use crate::board::{self, Card, Kind, Portal, STOREHOUSES};
use crate::event::Event;
use crate::rules;
use crate::state::{Phase, Place, SecretTreasures, Step};
use game_core::{Game, InvalidState, Seat};

/// Far above any reachable score or round; bounding them keeps later arithmetic from overflowing.
const SANITY_LIMIT: i64 = 1_000_000;

/// Checks every invariant, in order: shape, places, the board, valuables, tiles, the harbor,
/// cards, scores and the end, then the phase and its decision point.
///
/// # Errors
/// [`InvalidState`] naming the first invariant that does not hold.
pub(crate) fn validate(game: &SecretTreasures) -> Result<(), InvalidState> {
    shape(game)?;
    places(game)?;
    spaces(game)?;
    valuables(game)?;
    tiles(game)?;
    harbor(game)?;
    cards(game)?;
    scores_and_end(game)?;
    phase(game)?;
    decision_point(game)
}

fn ensure(holds: bool, reason: impl FnOnce() -> String) -> Result<(), InvalidState> {
    InvalidState::ensure(holds, reason)
}

/// The player count, one entry per seat everywhere, the start player and the phase's seat at the
/// table, 13 rooms of the printed layout, 6 storehouses, a passage for the door, Raphael exactly
/// in a 2-player game, and the setup log's start player.
fn shape(game: &SecretTreasures) -> Result<(), InvalidState> {
    let n = game.players();
    ensure((SecretTreasures::MIN_PLAYERS..=SecretTreasures::MAX_PLAYERS).contains(&n), || {
        format!("the player count is {n}, not 2 to 5")
    })?;
    ensure(n < 5 || game.options.stephanus, || "Stephanus is out of a 5-player game".into())?;
    let per_seat = [
        ("hands", game.hands.len()),
        ("piles", game.piles.len()),
        ("chosen", game.chosen.len()),
        ("tokens", game.tokens.len()),
        ("stocks", game.stocks.len()),
        ("reserves", game.reserves.len()),
        ("scores", game.scores.len()),
    ];
    for (name, len) in per_seat {
        ensure(len == n, || format!("{name} has {len} entries for {n} seats"))?;
    }
    ensure(game.start.index() < n, || format!("the start player {} is not at the table", game.start))?;
    if let Phase::PlaceRemigius { seat }
    | Phase::PlaceVitus { seat }
    | Phase::PlaceSeverus { seat }
    | Phase::ChooseRings { seat }
    | Phase::Turn { seat, .. } = game.phase
    {
        ensure(seat.index() < n, || format!("the phase waits for {seat}, who is not at the table"))?;
    }
    ensure(game.rooms.len() == board::LAYOUT.len(), || format!("there are {} rooms, not 13", game.rooms.len()))?;
    for ((spaces, layout), room) in game.rooms.iter().zip(board::LAYOUT).zip(1u8..) {
        let areas: Vec<u8> = spaces.areas.iter().map(|a| a.len().try_into().unwrap_or(u8::MAX)).collect();
        ensure(
            spaces.chalices.len() == usize::from(layout.chalices)
                && spaces.books.len() == usize::from(layout.books)
                && areas == layout.areas,
            || format!("the spaces of room {room} differ from the printed layout"),
        )?;
    }
    ensure(game.storehouses.len() == STOREHOUSES.len(), || {
        format!("there are {} storehouses, not 6", game.storehouses.len())
    })?;
    ensure(game.door < board::PASSAGES.len(), || format!("the door is on passage index {}, not 0..17", game.door))?;
    ensure(game.raphael.is_some() == (n == 2), || "Raphael plays exactly in a 2-player game".into())?;
    ensure(game.setup_log.first() == Some(&Event::StartPlayer { seat: game.start }), || {
        "the setup log does not begin with the start player".into()
    })
}

/// §9.7 and ranges: tokens and figures stand in real rooms, storehouses or portals; Vitus at the
/// main portal only with the first-game placement; Remigius and Vitus apart but in a forced crossing.
fn places(game: &SecretTreasures) -> Result<(), InvalidState> {
    for (seat, token) in game.tokens.iter() {
        let fine = match token {
            Place::Portal(_) => true,
            Place::Room(r) => board::is_room(*r),
            Place::Storehouse(s) => (1..=STOREHOUSES.len()).contains(&usize::from(*s)),
        };
        ensure(fine, || format!("{seat}'s token stands at {token:?}, which is not a place"))?;
    }
    for (name, room) in [("Remigius", game.remigius), ("Severus", game.severus)] {
        ensure(room.is_none_or(board::is_room), || format!("{name} stands in room {room:?}, which is not a room"))?;
    }
    match game.vitus {
        None => {}
        Some(Place::Room(r)) => ensure(board::is_room(r), || format!("Vitus stands in room {r}, which is not a room"))?,
        Some(Place::Portal(p)) => ensure(p == Portal::Main && game.options.first_game_placement, || {
            format!("Vitus stands at the {p:?} portal without the first-game placement")
        })?,
        Some(Place::Storehouse(_)) => return Err(InvalidState::new("Vitus stands in a storehouse")),
    }
    let forced_crossing = matches!(game.phase, Phase::Turn { step: Step::Remigius { forced: true, steps: 1, .. }, .. });
    if let (Some(r), Some(Place::Room(v))) = (game.remigius, game.vitus) {
        ensure(r != v || forced_crossing, || format!("Remigius and Vitus share room {r} outside a forced crossing"))?;
    }
    Ok(())
}

/// Every piece belongs to a seat and lies on a space of its kind; one ring type per ring area.
fn spaces(game: &SecretTreasures) -> Result<(), InvalidState> {
    let n = game.players();
    for (spaces, room) in game.rooms.iter().zip(1u8..) {
        ensure(spaces.pieces().all(|p| p.owner.index() < n), || format!("a piece in room {room} has no owner"))?;
        ensure(spaces.chalices.iter().flatten().all(|p| p.kind == Kind::Chalice), || {
            format!("a chalice space of room {room} holds something else")
        })?;
        ensure(spaces.books.iter().flatten().all(|p| p.kind == Kind::Book), || {
            format!("a book space of room {room} holds something else")
        })?;
        for (area, list) in spaces.areas.iter().enumerate() {
            let kinds: Vec<Kind> = list.iter().flatten().map(|p| p.kind).collect();
            ensure(kinds.iter().all(|k| k.ring().is_some() && Some(k) == kinds.first()), || {
                format!("ring area {} of room {room} holds {kinds:?}, not rings of one type", area + 1)
            })?;
        }
    }
    Ok(())
}

/// §9.1: each player's reserve, stock, board pieces and carried ring make up his 32 valuables.
fn valuables(game: &SecretTreasures) -> Result<(), InvalidState> {
    let carried = match &game.phase {
        Phase::Turn { step: Step::Benjamin { carrying: Some(c), .. }, .. } => Some((c.owner, Kind::from(c.ring))),
        _ => None,
    };
    for seat in game.seats() {
        for kind in Kind::ALL {
            let total = u32::from(game.reserves[seat].get(kind))
                + u32::from(game.stocks[seat].get(kind))
                + u32::from(game.on_board(seat, kind))
                + u32::from(carried == Some((seat, kind)));
            let expected = board::VALUABLES.get(kind);
            ensure(total == u32::from(expected), || {
                format!("{seat} has {total} {} valuables in all, not {expected}", kind.name())
            })?;
        }
    }
    Ok(())
}

/// §9.2: the bag, the storehouses and the removed tiles make up the game's tiles.
fn tiles(game: &SecretTreasures) -> Result<(), InvalidState> {
    let expected = if game.players() == 2 { board::TILES_TWO_PLAYERS } else { board::TILES };
    for kind in Kind::ALL {
        let in_play = game.bag.iter().chain(game.storehouses.iter().flatten()).filter(|t| **t == kind).count();
        let total = in_play + usize::from(game.removed.get(kind));
        ensure(total == usize::from(expected.get(kind)), || {
            format!("there are {total} {} tiles in all, not {}", kind.name(), expected.get(kind))
        })?;
    }
    Ok(())
}

/// §9.3: each storehouse within its boxes with at most one chalice; a storehouse holding a token
/// holds no tile, and no two tokens share one.
fn harbor(game: &SecretTreasures) -> Result<(), InvalidState> {
    for ((house, capacity), number) in game.storehouses.iter().zip(STOREHOUSES).zip(1u8..) {
        ensure(house.len() <= capacity, || {
            format!("storehouse {number} holds {} tiles in {capacity} boxes", house.len())
        })?;
        let chalices = house.iter().filter(|k| **k == Kind::Chalice).count();
        ensure(chalices <= 1, || format!("storehouse {number} holds {chalices} chalices"))?;
        let waiting = game.tokens.iter().filter(|(_, t)| **t == Place::Storehouse(number)).count();
        ensure(waiting <= 1, || format!("{waiting} tokens share storehouse {number}"))?;
        ensure(waiting == 0 || house.is_empty(), || format!("storehouse {number} holds a token and tiles"))?;
    }
    Ok(())
}

/// §9.8 and §9.9: each player's hand, pile and face-down card are his cards, once each; Raphael's
/// deck and display are two of each other card and one Bells, and his top is never The Bells.
/// Before the reveal of round 1 no pile has a card and only round 1 has face-down cards; from
/// round 2 on, between turns, The Bells is in every hand and never on top of a pile.
fn cards(game: &SecretTreasures) -> Result<(), InvalidState> {
    let full = game.full_hand();
    let before_reveal = matches!(
        game.phase,
        Phase::PlaceRemigius { .. }
            | Phase::PlaceVitus { .. }
            | Phase::PlaceSeverus { .. }
            | Phase::ChooseRings { .. }
            | Phase::FirstRound
    );
    for seat in game.seats() {
        let mut cards: Vec<Card> = game.hands[seat].iter().chain(&game.piles[seat]).copied().collect();
        cards.extend(game.chosen[seat]);
        cards.sort_unstable();
        ensure(cards == full, || {
            format!("{seat}'s hand, pile and face-down card are {cards:?}, not one of each card")
        })?;
        ensure(game.phase == Phase::FirstRound || game.chosen[seat].is_none(), || {
            format!("{seat} has a face-down card outside round 1")
        })?;
        ensure(!before_reveal || game.piles[seat].is_empty(), || {
            format!("{seat} has played cards before the round-1 reveal")
        })?;
    }
    if game.round >= 2 && matches!(game.phase, Phase::Turn { step: Step::Card | Step::Portal, .. }) {
        for seat in game.seats() {
            ensure(game.hands[seat].contains(&Card::Bells), || format!("{seat} lacks The Bells between turns"))?;
            ensure(game.piles[seat].last() != Some(&Card::Bells), || {
                format!("The Bells is on top of {seat}'s pile between turns")
            })?;
        }
    }
    if let Some(raphael) = &game.raphael {
        let mut expected: Vec<Card> = full.iter().filter(|c| **c != Card::Bells).flat_map(|c| [*c, *c]).collect();
        expected.push(Card::Bells);
        expected.sort_unstable();
        let mut cards: Vec<Card> = raphael.deck.iter().chain(&raphael.display).copied().collect();
        cards.sort_unstable();
        ensure(cards == expected, || "Raphael's deck and display are not two of each card and The Bells".into())?;
        ensure(raphael.top() != Some(Card::Bells), || "The Bells is on top of Raphael's display".into())?;
    }
    Ok(())
}

/// Scores are never negative, the end-of-game points come only at the end, and the end was
/// triggered once (who and how, with the final turns left) and is over when none is left.
fn scores_and_end(game: &SecretTreasures) -> Result<(), InvalidState> {
    let over = game.phase == Phase::Over;
    for (seat, s) in game.scores.iter() {
        let parts = [s.remigius, s.porticus, s.severus, s.stephanus, s.church, s.rooms];
        ensure(parts.iter().all(|p| (0..=SANITY_LIMIT).contains(p)), || {
            format!("{seat}'s score {s:?} is out of range")
        })?;
        ensure(over || (s.church == 0 && s.rooms == 0), || format!("{seat} has end-of-game points before the end"))?;
    }
    ensure(i64::from(game.round) <= SANITY_LIMIT && game.round >= 1, || {
        format!("round {} is out of range", game.round)
    })?;
    ensure(game.final_turns_left.is_some() == game.trigger.is_some(), || {
        "the final turns and the end trigger disagree".into()
    })?;
    if let Some((seat, _)) = game.trigger {
        ensure(seat.index() < game.players(), || format!("the end was triggered by {seat}, who is not at the table"))?;
    }
    if let Some(left) = game.final_turns_left {
        ensure(left <= game.players, || format!("{left} final turns are left at a table of {}", game.players))?;
    }
    ensure(!game.final_turn || game.final_turns_left.is_some(), || "a final turn before the end was triggered".into())?;
    ensure(over == (game.final_turns_left == Some(0)), || "the game is over exactly when no final turn is left".into())
}

/// The phase agrees with the figures, the round, the active seat's token and the card on top of
/// his pile, and every count in its step is in range.
fn phase(game: &SecretTreasures) -> Result<(), InvalidState> {
    let placed = (game.remigius.is_some(), game.vitus.is_some(), game.severus.is_some());
    let expected = match &game.phase {
        Phase::PlaceRemigius { .. } => (false, false, false),
        Phase::PlaceVitus { .. } => (true, false, false),
        Phase::PlaceSeverus { .. } => (true, true, false),
        _ => (true, true, true),
    };
    ensure(placed == expected, || format!("the figures placed {placed:?} do not fit the phase {:?}", game.phase))?;
    let Phase::Turn { seat, step } = &game.phase else {
        return ensure(game.phase == Phase::Over || game.round == 1, || {
            format!("{:?} belongs to round 1, not {}", game.phase, game.round)
        });
    };
    let seat = *seat;
    let token = game.tokens[seat];
    let top = game.piles[seat].last().copied();
    let resolving = |card: Card| ensure(top == Some(card), || format!("{seat} resolves {card:?} with {top:?} on top"));
    match step {
        Step::Portal => {
            ensure(matches!(token, Place::Storehouse(_)), || format!("{seat} leaves a harbor he is not in"))
        }
        Step::Card => ensure(!matches!(token, Place::Storehouse(_)), || format!("{seat} plays a card at the harbor")),
        Step::Move { card, steps, visited } => {
            resolving(*card)?;
            let movers = [Card::Anselmus, Card::Josua, Card::Lucas, Card::Stephanus, Card::Severus];
            ensure(movers.contains(card) && *steps < card.range(), || format!("{card:?} has made {steps} steps"))?;
            ensure(visited.iter().all(|r| board::is_room(*r)), || format!("{card:?} visited {visited:?}"))
        }
        Step::Stash { left } => {
            let limit = top.map_or(0, Card::stash_limit);
            ensure((1..=limit).contains(left), || format!("{seat} may stash {left} more after {top:?}"))
        }
        Step::Benjamin { steps, carrying, picked } => {
            resolving(Card::Benjamin)?;
            ensure(*steps <= Card::Benjamin.range(), || format!("Benjamin has made {steps} steps"))?;
            let Some(c) = carrying else { return Ok(()) };
            ensure(*picked && c.owner.index() < game.players() && board::is_room(c.from), || {
                format!("Benjamin carries {c:?}")
            })
        }
        Step::Storehouse => resolving(Card::Maria),
        Step::Door => resolving(Card::Porticus),
        Step::Remigius { start, steps, forced } => {
            resolving(Card::Remigius)?;
            ensure(board::is_room(*start) && *steps < Card::Remigius.range() && (!forced || *steps == 1), || {
                format!("Remigius's move from {start} is at step {steps} (forced {forced})")
            })
        }
    }
}

/// A running game waits for someone, and everyone it waits for has a real decision to make (not
/// only `Stop`, which the engine takes by itself).
fn decision_point(game: &SecretTreasures) -> Result<(), InvalidState> {
    let to_act: Vec<Seat> = rules::to_act(game);
    ensure((game.phase == Phase::Over) == to_act.is_empty(), || {
        format!("the phase {:?} waits for {to_act:?}", game.phase)
    })?;
    for seat in to_act {
        let legal = rules::legal_actions(game, seat);
        ensure(!legal.is_empty() && legal != [Action::Stop], || {
            format!("{seat} is waited for but has no decision to make: {legal:?}")
        })?;
    }
    Ok(())
}
