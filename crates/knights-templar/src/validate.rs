//! The invariants every reachable state keeps (spec §9), checked by `Game::validate` and so on
//! every state read from JSON. Each failure names its invariant; no input makes these checks panic.
//!
//! Invariants about history (I4 monotonic zones, I6 pick counts over a whole turn, I7, I8 "only
//! at E2", I9–I12) cannot be seen in one state; the invariants test checks them between states.

use crate::card::{Card, CardType, DECK_SIZE};
use crate::rules::fate_size;
use crate::state::{EndReason, KnightsTemplar, Pending, Stage};
use game_core::{Game, InvalidState, Seat};

/// Checks every single-state invariant, seats and counts first so that the later checks can
/// rely on them.
pub(crate) fn validate(game: &KnightsTemplar) -> Result<(), InvalidState> {
    seats(game)?;
    conservation(game)?;
    tableau_types(game)?;
    decision_point(game)?;
    counts(game)?;
    setup_draws(game)
}

/// The player count is supported, per-seat data has one entry per seat, and every seat named
/// anywhere exists.
fn seats(game: &KnightsTemplar) -> Result<(), InvalidState> {
    let n = game.players;
    InvalidState::ensure((KnightsTemplar::MIN_PLAYERS..=KnightsTemplar::MAX_PLAYERS).contains(&n), || {
        format!("seats: {n} players is outside 2–8 (R1)")
    })?;
    for (what, len) in
        [("tableaus", game.tableaus.len()), ("County VP", game.county_vp.len()), ("Fate picks", game.fate_picks.len())]
    {
        InvalidState::ensure(len == n, || format!("seats: {len} {what} for {n} players"))?;
    }
    let pending_seat = match &game.pending {
        Pending::Pick { seat } => Some(*seat),
        Pending::Target { resolver, .. } | Pending::AllyChoice { resolver, .. } => Some(*resolver),
        Pending::Nominate | Pending::Resolving | Pending::Over => None,
    };
    let named = [("the Grand Master", Some(game.gm)), ("the picker", Some(game.picker)), ("the decider", pending_seat)]
        .into_iter()
        .filter_map(|(what, seat)| seat.map(|s| (what, s)))
        .chain(game.picked.iter().map(|s| ("Picked", *s)))
        .chain(game.power_queue.iter().map(|s| ("the Power drawers", *s)))
        .chain(game.discard.iter().filter_map(|d| d.face_down_by).map(|s| ("a face-down discarder", s)))
        .chain(game.setup_draws.iter().flat_map(|d| d.hands.iter().map(|h| ("a setup candidate", h.seat))));
    for (what, seat) in named {
        InvalidState::ensure(seat.index() < n, || format!("seats: {what} is {seat}, not a seat of {n} players"))?;
    }
    Ok(())
}

/// I1: each of the 95 cards is in exactly one zone (deck, Fate row, a tableau, the discard pile
/// or the Ally reveal), and nothing else is.
pub(crate) fn conservation(game: &KnightsTemplar) -> Result<(), InvalidState> {
    let ally: &[Card] = match &game.pending {
        Pending::AllyChoice { cards, .. } => cards,
        _ => &[],
    };
    let zones = game
        .deck
        .iter()
        .chain(&game.fate)
        .chain(game.tableaus.0.iter().flatten())
        .chain(game.discard.iter().map(|d| &d.card))
        .chain(ally);
    let mut seen = [0usize; DECK_SIZE + 1];
    for card in zones {
        InvalidState::ensure(card.is_valid(), || format!("I1 conservation: {} is not a card id (1–95)", card.0))?;
        seen[usize::from(card.0)] += 1;
    }
    for card in Card::all() {
        let times = seen[usize::from(card.0)];
        InvalidState::ensure(times == 1, || {
            format!("I1 conservation: {card} (#{}) is in {times} places, not exactly one", card.0)
        })?;
    }
    Ok(())
}

/// I2: tableaus hold only Legacy, County, Treasure, Mission, Power and Downfall cards.
fn tableau_types(game: &KnightsTemplar) -> Result<(), InvalidState> {
    for (seat, tableau) in game.tableaus.iter() {
        for card in tableau {
            InvalidState::ensure(card.kind().stays_in_play(), || {
                format!("I2 tableau types: {seat}'s tableau holds {card}, a {:?}", card.kind())
            })?;
        }
    }
    Ok(())
}

/// The pending decision fits the stage and the end (§4.2), waits only where a real choice
/// exists (I14), and the Ally reveal exists only while DP5 is pending (I3).
fn decision_point(game: &KnightsTemplar) -> Result<(), InvalidState> {
    let over = game.end.is_some();
    let (stage, pending) = (game.stage, &game.pending);
    let fails = |what: &str| format!("decision point: {what} ({pending:?} in stage {stage:?})");
    InvalidState::ensure((stage == Stage::Over) == over, || fails("the stage and the end disagree"))?;
    InvalidState::ensure(matches!(pending, Pending::Over) == over, || {
        fails("the pending decision and the end disagree")
    })?;
    let last_discard = game.discard.last().filter(|d| d.face_down_by.is_none()).map(|d| d.card);
    match pending {
        Pending::Over => {}
        Pending::Resolving => return Err(InvalidState(fails("a resolution never lasts between two actions"))),
        Pending::Pick { seat } => {
            InvalidState::ensure(stage == Stage::Select, || fails("a Fate pick outside the Select Phase"))?;
            InvalidState::ensure(*seat == game.picker, || fails("the decider is not the picker"))?;
            InvalidState::ensure(!game.picked.contains(seat), || fails("the picker has already picked this round"))?;
            InvalidState::ensure(!game.picked.is_empty() || *seat == game.gm, || fails("a round opens with the GM"))?;
            InvalidState::ensure(game.fate.len() >= 2, || fails("I14 a Fate pick with fewer than 2 cards"))?;
        }
        Pending::Nominate => {
            InvalidState::ensure(stage == Stage::Select, || fails("a nomination outside the Select Phase"))?;
            InvalidState::ensure(!game.fate.is_empty(), || fails("a nomination with an empty Fate row"))?;
            InvalidState::ensure(game.unpicked().len() >= 2, || {
                fails("I14 a nomination with fewer than 2 candidates")
            })?;
        }
        Pending::Target { resolver, card } => {
            InvalidState::ensure(stage != Stage::Select || *resolver == game.picker, || fails("not the picker's"))?;
            InvalidState::ensure(matches!(card.kind(), CardType::Enemy | CardType::Battle), || {
                fails("a target for a card that is not an Enemy or Battle")
            })?;
            InvalidState::ensure(last_discard == Some(*card), || fails("the resolved card is not the last discard"))?;
            InvalidState::ensure(game.targets(*resolver).len() >= 2, || fails("I14 fewer than 2 targets"))?;
        }
        Pending::AllyChoice { resolver, .. } => {
            InvalidState::ensure(stage != Stage::Select || *resolver == game.picker, || fails("not the picker's"))?;
            InvalidState::ensure(last_discard.is_some_and(|c| c.kind() == CardType::Ally), || {
                fails("I3 an Ally reveal without an Ally on the discard pile")
            })?;
        }
    }
    match stage {
        Stage::Select => InvalidState::ensure(game.power_queue.is_empty(), || fails("Power drawers outside S6"))?,
        Stage::PowerDraws => {
            InvalidState::ensure(game.fate.is_empty(), || fails("Power draws before the Fate row is empty"))?;
            InvalidState::ensure(matches!(pending, Pending::Target { .. } | Pending::AllyChoice { .. }), || {
                fails("Power draws wait only for a target or an Ally choice")
            })?;
        }
        Stage::Over => InvalidState::ensure(game.power_queue.is_empty(), || fails("Power drawers after the end"))?,
    }
    let distinct = |seats: &[Seat]| seats.iter().enumerate().all(|(i, s)| !seats[..i].contains(s));
    InvalidState::ensure(distinct(&game.picked), || fails("I6 a player in Picked twice"))?;
    InvalidState::ensure(distinct(&game.power_queue), || fails("I7 a player among the Power drawers twice"))?;
    let opened_by_other = matches!(game.picked.first(), Some(first) if *first != game.gm);
    InvalidState::ensure(over || !opened_by_other, || fails("I6 the round was not opened by the GM"))?;
    Ok(())
}

/// Counts: Downfall ceiling (I5), end conditions (I15), pick counts within the turn (I6),
/// County VP (I8) and turns (I13).
fn counts(game: &KnightsTemplar) -> Result<(), InvalidState> {
    let n = game.players;
    // `seats` has checked the player count, so X ≥ 6; `max` only guards the division.
    let x = fate_size(n).max(1);
    let downfall: Vec<usize> = Seat::all(n).map(|s| game.count(s, CardType::Downfall)).collect();
    let at_five = downfall.iter().filter(|d| **d == 5).count();
    let most = downfall.iter().copied().max().unwrap_or(0);
    match game.end {
        None => InvalidState::ensure(most <= 4, || format!("I5 Downfall: {most} Downfall cards while the game runs"))?,
        Some(_) => InvalidState::ensure(most <= 5 && at_five <= 1, || {
            format!("I5 Downfall: {downfall:?} Downfall cards at the end")
        })?,
    }
    match game.end {
        Some(EndReason::FiveDownfall) => {
            InvalidState::ensure(at_five == 1, || "I15 end: a Downfall end with nobody at 5".to_string())?
        }
        Some(EndReason::DeckEmpty) => {
            InvalidState::ensure(game.deck.is_empty(), || "I15 end: a deck-empty end with cards left".to_string())?
        }
        None => {}
    }
    InvalidState::ensure(game.turn >= 1 && game.turn as usize <= DECK_SIZE.div_ceil(x), || {
        format!("I13 turns: turn {} outside 1–{}", game.turn, DECK_SIZE.div_ceil(x))
    })?;
    InvalidState::ensure(game.round >= 1, || "I6 picks: round 0".to_string())?;
    InvalidState::ensure(game.fate.len() <= x, || format!("I6 picks: {} Fate cards, more than {x}", game.fate.len()))?;
    let picks: u64 = game.fate_picks.iter().map(|(_, p)| u64::from(*p)).sum();
    InvalidState::ensure(picks + game.fate.len() as u64 <= x as u64, || {
        format!("I6 picks: {picks} Fate picks and {} Fate cards left, more than {x} flipped", game.fate.len())
    })?;
    for (seat, p) in game.fate_picks.iter() {
        InvalidState::ensure(*p <= game.round, || {
            format!("I6 picks: {seat} made {p} Fate picks in {} rounds", game.round)
        })?;
    }
    let vp: u64 = game.county_vp.iter().map(|(_, v)| u64::from(*v)).sum();
    InvalidState::ensure(vp <= u64::from(game.turn), || {
        format!("I8 County VP: {vp} County VP after {} End Phases at most", game.turn)
    })?;
    Ok(())
}

/// The public Grand Master draws (§3 step 4): numbered from 1, 10 cards per candidate with
/// their Mission count, every player a candidate first, then only the tied leaders, until one
/// leads alone.
fn setup_draws(game: &KnightsTemplar) -> Result<(), InvalidState> {
    let draws = &game.setup_draws;
    InvalidState::ensure(!draws.is_empty(), || "setup draws: none".to_string())?;
    let mut candidates: Vec<Seat> = Seat::all(game.players).collect();
    for (i, draw) in draws.iter().enumerate() {
        let fails = |what: &str| format!("setup draws: draw {}: {what}", i + 1);
        InvalidState::ensure(draw.iteration as usize == i + 1, || fails("numbered out of order"))?;
        let seats: Vec<Seat> = draw.hands.iter().map(|h| h.seat).collect();
        InvalidState::ensure(seats == candidates, || fails("not drawn by the candidates"))?;
        for hand in &draw.hands {
            let missions = hand.cards.iter().filter(|c| c.kind() == CardType::Mission).count();
            InvalidState::ensure(hand.cards.len() == 10 && hand.cards.iter().all(|c| c.is_valid()), || {
                fails("a hand is not 10 cards")
            })?;
            InvalidState::ensure(missions == hand.missions as usize, || fails("a Mission count is wrong"))?;
        }
        let best = draw.hands.iter().map(|h| h.missions).max().unwrap_or(0);
        candidates = draw.hands.iter().filter(|h| h.missions == best).map(|h| h.seat).collect();
        let last = i + 1 == draws.len();
        InvalidState::ensure((candidates.len() == 1) == last, || fails("a sole leader must end the draws"))?;
    }
    Ok(())
}
