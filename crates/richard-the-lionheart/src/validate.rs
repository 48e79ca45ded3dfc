//! The invariants every reachable state keeps (spec §9), checked by `Game::validate` and so on
//! every state read from JSON: a state that play cannot reach is refused before it is used.
//!
//! Only what a single state shows is checked here; what needs the history (the first player of
//! round 1, a finished move, the Outcomes' accounting) stays in `tests/invariants.rs`.

use crate::board::{quotas, Card, Character, Edict, EventCard, Faction, Location};
use crate::state::{Player, RichardTheLionheart, Stage};
use game_core::{InvalidState, Seat};

/// The influence cards of each type (spec §2.1).
const CARDS_PER_TYPE: usize = 40;
/// The most movement points a move can start with: 3, +1 Horse, +1 Ship under E04.
const MAX_MP: u8 = 5;

/// Checks every invariant, in the order of spec §9 (`Game::validate`).
///
/// # Errors
/// [`InvalidState`] naming the first invariant that does not hold.
pub(crate) fn validate(game: &RichardTheLionheart) -> Result<(), InvalidState> {
    let n = game.players.len();
    InvalidState::ensure((2..=6).contains(&n), || format!("players: {n} seats, the game is for 2 to 6"))?;
    seats_in_range(game)?;
    cards(game)?;
    tracks(game)?;
    occupancy(game)?;
    characters(game)?;
    if matches!(game.stage, Stage::ChooseCharacter { .. }) {
        return before_setup_ends(game);
    }
    edicts(game)?;
    events(game)?;
    npcs(game)?;
    stage(game)?;
    result(game)
}

fn seat_ok(game: &RichardTheLionheart, seat: Seat) -> bool {
    seat.index() < game.players.len()
}

/// Every seat the state names is at the table.
fn seats_in_range(game: &RichardTheLionheart) -> Result<(), InvalidState> {
    let n = game.players.len();
    let mut named = vec![game.first_player];
    named.extend(game.stage.seat());
    if let Stage::AllyTake { active, pending } = &game.stage {
        InvalidState::ensure(!pending.is_empty(), || "stage: an ally take with no ally to ask".to_string())?;
        named.push(*active);
        named.extend(pending);
    }
    if let Some(r) = &game.result {
        named.extend(&r.candidates);
        named.extend(&r.winners);
    }
    if let Some(s) = named.iter().find(|s| !seat_ok(game, **s)) {
        return Err(InvalidState(format!("seats: {s} is not at a table of {n}")));
    }
    InvalidState::ensure(game.turn <= n, || format!("turn: position {} in a turn order of {n}", game.turn))
}

/// §9.1: the 240 influence cards, 40 of each type, are all somewhere.
fn cards(game: &RichardTheLionheart) -> Result<(), InvalidState> {
    for t in Card::ALL {
        let in_decks = game.provisions.iter().chain(&game.crusade).filter(|c| **c == t).count();
        let in_hands: usize = game.players.iter().map(|(_, p)| usize::from(p.hand.get(t))).sum();
        let total = in_decks + in_hands + usize::from(game.reserve.get(t)) + usize::from(game.display.get(t));
        InvalidState::ensure(total == CARDS_PER_TYPE, || {
            format!("cards: {total} {t:?} cards in play instead of {CARDS_PER_TYPE} (cards are conserved)")
        })?;
    }
    Ok(())
}

/// §9.3: the tracks and the Game Round stay on their printed range.
fn tracks(game: &RichardTheLionheart) -> Result<(), InvalidState> {
    let t = game.tracks;
    InvalidState::ensure(t.ra <= 10 && t.sa <= 10 && t.kr <= 10 && t.kt <= 10, || {
        format!("tracks: RA {} SA {} KR {} KT {} past 10", t.ra, t.sa, t.kr, t.kt)
    })?;
    InvalidState::ensure((1..=10).contains(&game.round), || format!("tracks: game round {} outside 1..=10", game.round))
}

/// §9.4: no two figures share a location; after round 1's Phase 2 every figure is on the board.
fn occupancy(game: &RichardTheLionheart) -> Result<(), InvalidState> {
    let mut locations: Vec<Location> = game.players.iter().filter_map(|(_, p)| p.location).collect();
    let placed = locations.len();
    locations.sort();
    locations.dedup();
    InvalidState::ensure(locations.len() == placed, || "occupancy: two figures share a location".to_string())?;
    let after_travel =
        matches!(game.stage, Stage::Purchase { .. } | Stage::Trade { .. } | Stage::Contribute { .. } | Stage::Over);
    InvalidState::ensure(!(after_travel || game.round >= 2) || placed == game.players.len(), || {
        format!("occupancy: {placed} of {} figures on the board after Phase 2 of round 1", game.players.len())
    })
}

/// §9.6 and §9.9: distinct characters within the faction quotas, sides fixed by faction, one
/// skill token per player within the supply.
fn characters(game: &RichardTheLionheart) -> Result<(), InvalidState> {
    let n = game.players.len();
    let chosen: Vec<Character> = game.players.iter().filter_map(|(_, p)| p.character).collect();
    let count = |f: Faction| chosen.iter().filter(|c| c.faction() == f).count();
    let picked = chosen.len();
    let mut distinct = chosen.clone();
    distinct.sort();
    distinct.dedup();
    InvalidState::ensure(distinct.len() == picked, || "characters: a character played by two seats".to_string())?;
    let (r, j, neutral) = quotas(n);
    let neutrals = count(Faction::Neutral);
    InvalidState::ensure(count(Faction::Richard) <= r && count(Faction::John) <= j, || {
        format!("characters: more than {r} Richard or {j} John characters at a table of {n}")
    })?;
    InvalidState::ensure(chosen.iter().all(|c| c.faction() != Faction::Neutral || Some(*c) == neutral), || {
        format!("characters: a Neutral character the table of {n} does not use")
    })?;
    for (f, max) in [(Faction::Richard, 3), (Faction::John, 3), (Faction::Neutral, 1)] {
        let skills = game.players.iter().filter(|(_, p)| p.skill && p.faction() == f).count();
        InvalidState::ensure(skills <= max, || format!("upgrades: {skills} {f:?} skill tokens, {max} printed"))?;
    }
    if matches!(game.stage, Stage::ChooseCharacter { .. }) {
        return Ok(());
    }
    InvalidState::ensure(picked == n, || format!("characters: {} of {n} seats without a character", n - picked))?;
    InvalidState::ensure(
        count(Faction::Richard) == r && count(Faction::John) == j && neutral.is_some() == (neutrals == 1),
        || format!("sides: the factions do not follow the quotas of a table of {n}"),
    )?;
    for (seat, p) in game.players.iter() {
        let fixed = p.faction().fixed_side();
        InvalidState::ensure(fixed.is_none() || fixed == Some(p.side), || {
            format!("sides: {seat} is not on its faction's side")
        })?;
    }
    Ok(())
}

/// Under `chosen`, seats pick in order before anything else is dealt.
fn before_setup_ends(game: &RichardTheLionheart) -> Result<(), InvalidState> {
    let picked = game.players.iter().filter(|(_, p)| p.character.is_some()).count();
    let in_order = game.players.iter().all(|(s, p)| p.character.is_some() == (s.index() < picked));
    InvalidState::ensure(game.stage.seat() == Some(Seat(picked as u8)) && in_order, || {
        format!("stage: seats pick characters in order, but {picked} picked and {:?} is picking", game.stage.seat())
    })?;
    let dealt = game.players.iter().any(|(_, p)| p.edict.is_some() || p.hand.total() > 0 || p.location.is_some())
        || game.edicts.richard.len() + game.edicts.john.len() + game.edicts.neutral.len() > 0
        || !game.events.is_empty()
        || !game.discarded_events.is_empty()
        || game.active_event.is_some()
        || game.round != 1
        || game.result.is_some();
    InvalidState::ensure(!dealt, || "stage: characters are still being chosen, but play has begun".to_string())
}

/// §9.7: each player holds one edict of their deck; held, deck and drawn make each deck in use.
fn edicts(game: &RichardTheLionheart) -> Result<(), InvalidState> {
    for f in [Faction::Richard, Faction::John, Faction::Neutral] {
        let holders: Vec<&Player> = game.players.iter().filter(|(_, p)| p.faction() == f).map(|(_, p)| p).collect();
        for p in &holders {
            InvalidState::ensure(p.edict.map(Edict::faction) == Some(f), || {
                format!("edicts: a {f:?} player does not hold exactly one {f:?} edict")
            })?;
        }
        let mut all: Vec<Edict> = holders.iter().filter_map(|p| p.edict).collect();
        all.extend(match f {
            Faction::Richard => &game.edicts.richard,
            Faction::John => &game.edicts.john,
            Faction::Neutral => &game.edicts.neutral,
        });
        if let Stage::KeepEdict { drawn, .. } = game.stage {
            if drawn.faction() == f {
                all.push(drawn);
            }
        }
        all.sort();
        let mut expected = if holders.is_empty() { Vec::new() } else { Edict::deck(f).to_vec() };
        expected.sort();
        InvalidState::ensure(all == expected, || {
            format!("edicts: the {f:?} edicts held, in the deck and drawn are {all:?}, not {expected:?}")
        })?;
    }
    Ok(())
}

/// §9.8: the 18 events are each once in the deck, the discards or active; one is active until
/// the end, and one was discarded per finished round.
fn events(game: &RichardTheLionheart) -> Result<(), InvalidState> {
    let mut all: Vec<EventCard> = game.events.iter().chain(&game.discarded_events).copied().collect();
    all.extend(game.active_event);
    all.sort();
    let mut printed = EventCard::ALL.to_vec();
    printed.sort();
    InvalidState::ensure(all == printed, || {
        format!("events: deck, discards and active hold {} cards, not the 18 printed once each", all.len())
    })?;
    let over = game.stage == Stage::Over;
    InvalidState::ensure(game.active_event.is_some() != over, || {
        "events: an event is active from Phase 1 to Phase 6, and none after the end".to_string()
    })?;
    let finished = usize::from(game.round) - usize::from(!over);
    InvalidState::ensure(game.discarded_events.len() == finished, || {
        format!("events: {} discarded in round {}", game.discarded_events.len(), game.round)
    })
}

/// §9.11: the Merchant and the Mercenary are off the board with 2–3 players and in round 1, and
/// on two different locations otherwise.
fn npcs(game: &RichardTheLionheart) -> Result<(), InvalidState> {
    if game.stage == Stage::Over {
        return Ok(());
    }
    let off = !game.big_board() || game.round == 1;
    let ok = if off {
        game.merchant.is_none() && game.mercenary.is_none()
    } else {
        game.merchant.is_some() && game.mercenary.is_some() && game.merchant != game.mercenary
    };
    InvalidState::ensure(ok, || {
        format!(
            "npcs: the Merchant at {:?} and the Mercenary at {:?} in round {}",
            game.merchant, game.mercenary, game.round
        )
    })
}

/// The decision waited for fits the phase: the right seat, and nothing left over from Phase 5.
fn stage(game: &RichardTheLionheart) -> Result<(), InvalidState> {
    let over = game.stage == Stage::Over;
    InvalidState::ensure(over || (game.display.total() == 0 && game.verdicts.is_none()), || {
        "stage: the Outcomes display is returned before the next decision".to_string()
    })?;
    InvalidState::ensure(game.result.is_some() == over, || {
        "stage: a result exactly when the game is over".to_string()
    })?;
    for (seat, p) in game.players.iter() {
        InvalidState::ensure(p.contributed <= 3, || format!("stage: {seat} contributed {} cards", p.contributed))?;
    }
    let in_turn = |seat: Seat| game.turn < game.players.len() && seat == game.turn_seat(game.turn);
    let player = |seat: Seat| game.players.get(seat);
    let is_neutral = |seat: Seat| player(seat).is_some_and(|p| p.faction() == Faction::Neutral);
    let ok = match &game.stage {
        Stage::ChooseCharacter { .. } | Stage::Over => true,
        Stage::ChooseSide { seat } => is_neutral(*seat),
        Stage::Captor { seat } => player(*seat).is_some_and(|p| p.is(Character::Leopold) && !p.captor_used),
        Stage::Place { seat } => {
            game.round == 1 && in_turn(*seat) && player(*seat).is_some_and(|p| p.location.is_none())
        }
        Stage::Move { seat, movement } => in_turn(*seat) && movement_ok(game, *seat, movement),
        Stage::LocationAction { seat } | Stage::TakeChoice { seat } | Stage::SkillReturn { seat } => in_turn(*seat),
        Stage::KeepEdict { seat, drawn } => {
            in_turn(*seat) && player(*seat).is_some_and(|p| p.faction() == drawn.faction())
        }
        Stage::AllyTake { active, pending } => in_turn(*active) && !pending.contains(active),
        Stage::Purchase { seat } | Stage::Contribute { seat } => in_turn(*seat),
        Stage::Trade { seat } => in_turn(*seat) && is_neutral(*seat),
    };
    InvalidState::ensure(ok, || format!("stage: {:?} does not fit the turn order or the seat's role", game.stage))
}

/// §9.5 so far: a move starts where the figure stands and is a simple path along segments.
fn movement_ok(game: &RichardTheLionheart, seat: Seat, m: &crate::state::Movement) -> bool {
    let Some(p) = game.players.get(seat) else { return false };
    let water = p.ship && !game.event_is(EventCard::E03);
    let mut seen = vec![m.start];
    let mut from = m.start;
    for to in &m.path {
        if seen.contains(to) || !from.neighbours(water).any(|l| l == *to) {
            return false;
        }
        seen.push(*to);
        from = *to;
    }
    p.location == Some(m.start) && m.mp <= MAX_MP
}

/// §7: at the end, one score line per seat and winners among the candidates.
fn result(game: &RichardTheLionheart) -> Result<(), InvalidState> {
    let Some(r) = &game.result else { return Ok(()) };
    let n = game.players.len();
    InvalidState::ensure(
        r.base_prestige.len() == n && r.edict_points.len() == n && r.neutral_bonus.len() == n,
        || format!("result: score lines of another table than {n} seats"),
    )?;
    InvalidState::ensure((1..=5).contains(&r.condition), || format!("result: end condition {}", r.condition))?;
    InvalidState::ensure(r.winners.iter().all(|w| r.candidates.contains(w)), || {
        "result: a winner who could not win".to_string()
    })
}
