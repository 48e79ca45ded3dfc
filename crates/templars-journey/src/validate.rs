//! The invariants every reachable state keeps (spec §9), checked by `Game::validate` and so on
//! every state read from JSON: a state that play cannot reach is refused before it is used.
//!
//! Only what a single state shows is checked here, shape first so that no later check can index
//! out of range. What needs the history (VP and shipped knights that never change back, an
//! exchange that swaps exactly two edicts, 3 or 4 card phases per leg, the favours used in one
//! card action, the first setup placements) stays in `tests/invariants.rs`.

use crate::action::Action;
use crate::board::{gold_rate, City, EdictSpace, Mission, Space, Spot, Territory, Tile, KNIGHTS, START_GOLD};
use crate::board::{Flag, SETUP_CITY_LIMIT, SETUP_KNIGHTS};
use crate::rules::{self, MOVE_STEPS, NEW_CHANCE_LIMIT, RISKY_LIMIT, SAFE_SPEND_LIMIT};
use crate::state::{GoldTake, MoveKind, Prompt, Step, TemplarsJourney, VpSource};
use game_core::{Game, InvalidState, Seat};

/// Card phases in a whole game at most (3 legs of at most 4).
const MAX_CARD_PHASES: u32 = 12;
/// Card phases in one leg at most.
const MAX_LEG_CARD_PHASES: u32 = 4;
/// Mission cards returned to the box at setup.
const BOXED_MISSIONS: usize = 3;
/// Edicts returned to the box at setup.
const BOXED_EDICTS: usize = 2;

/// Checks every invariant (`Game::validate`).
///
/// # Errors
/// [`InvalidState`] naming the first invariant that does not hold.
pub(crate) fn validate(game: &TemplarsJourney) -> Result<(), InvalidState> {
    shape(game)?;
    knights(game)?;
    ships(game)?;
    edicts(game)?;
    tiles(game)?;
    missions(game)?;
    gold(game)?;
    round_track(game)?;
    templars(game)?;
    victory_points(game)?;
    card_phase(game)?;
    step(game)?;
    prompts(game)
}

fn seat_ok(game: &TemplarsJourney, seat: Seat) -> bool {
    seat.index() < game.players.len()
}

/// Counts and lengths: the seats, the board's tables, and every seat named in the state.
fn shape(game: &TemplarsJourney) -> Result<(), InvalidState> {
    let n = game.players.len();
    let (min, max) = (TemplarsJourney::MIN_PLAYERS, TemplarsJourney::MAX_PLAYERS);
    InvalidState::ensure((min..=max).contains(&n), || format!("players: {n} seats, the game is for {min} to {max}"))?;
    let tables = [
        ("cities", game.cities.len(), City::ALL.len()),
        ("territory_gold", game.territory_gold.len(), Territory::ALL.len()),
        ("edict_spaces", game.edict_spaces.len(), EdictSpace::ALL.len()),
        ("evaluated", game.evaluated.len(), EdictSpace::ALL.len()),
        ("ships", game.ships.len(), EdictSpace::ALL.len() - 1),
    ];
    for (name, len, expected) in tables {
        InvalidState::ensure(len == expected, || format!("{name}: {len} entries, not {expected}"))?;
    }
    for (c, city) in City::ALL.into_iter().zip(&game.cities) {
        let len = city.knights.len();
        InvalidState::ensure(len == n, || format!("cities: {c} counts knights for {len} seats, not {n}"))?;
    }
    for (s, ship) in EdictSpace::ALL.into_iter().zip(&game.ships) {
        let len = ship.len();
        InvalidState::ensure(len == n, || format!("ships: the ship of {s:?} counts knights for {len} seats, not {n}"))?;
    }
    InvalidState::ensure(seat_ok(game, game.first), || format!("first player: {} is not a seat", game.first))
}

/// INV-1 (19 knights each) and INV-3 (cities within capacity, only active cities hold knights,
/// at most 2 per player and city during setup).
fn knights(game: &TemplarsJourney) -> Result<(), InvalidState> {
    for (seat, _) in game.players.iter() {
        let total = game.knight_total(seat);
        InvalidState::ensure(total == u64::from(KNIGHTS), || {
            format!("INV-1 knights: {seat} has {total} in supply, cities, temple and ships, not {KNIGHTS}")
        })?;
    }
    let setup = matches!(game.step, Step::SetupKnight { .. } | Step::SetupTemplar { .. });
    for c in City::ALL {
        let city = game.city(c);
        let total = city.total();
        match city.tile {
            Some(tile) => InvalidState::ensure(total <= tile.capacity(), || {
                format!("INV-3 cities: {c} holds {total} knights, its tile {tile:?} only {}", tile.capacity())
            })?,
            None => InvalidState::ensure(total == 0, || format!("INV-3 cities: the inactive city {c} holds knights"))?,
        }
        if setup {
            for (seat, k) in city.knights.iter() {
                InvalidState::ensure(*k <= SETUP_CITY_LIMIT, || {
                    format!("INV-3 cities: {seat} placed {k} knights in {c} during setup, at most {SETUP_CITY_LIMIT}")
                })?;
            }
        }
    }
    Ok(())
}

/// INV-4: ships within capacity, and empty until their shipping round.
fn ships(game: &TemplarsJourney) -> Result<(), InvalidState> {
    for (space, ship) in EdictSpace::ALL.into_iter().zip(&game.ships) {
        let total: u32 = ship.0.iter().sum();
        InvalidState::ensure(total <= space.ship_capacity(), || {
            format!("INV-4 ships: the ship of {space:?} holds {total} knights, more than {}", space.ship_capacity())
        })?;
        InvalidState::ensure(game.evaluated[space.index()] || total == 0, || {
            format!("INV-4 ships: the ship of {space:?} is loaded before its shipping round")
        })?;
    }
    Ok(())
}

/// INV-6: each edict in exactly one place (2 in the box), and an edict space holds its edict
/// exactly while it is unevaluated.
fn edicts(game: &TemplarsJourney) -> Result<(), InvalidState> {
    let boxed = game.boxed_edicts.len();
    InvalidState::ensure(boxed == BOXED_EDICTS, || {
        format!("INV-6 edicts: {boxed} edicts in the box, not {BOXED_EDICTS}")
    })?;
    let mut places: Vec<City> = game.boxed_edicts.clone();
    places.extend(game.edict_spaces.iter().flatten());
    places.extend(&game.removed_edicts);
    for (_, p) in game.players.iter() {
        places.extend(&p.edicts);
    }
    places.sort();
    InvalidState::ensure(places == City::ALL, || {
        format!(
            "INV-6 edicts: the edicts in the box, on the track, removed and won are {places:?}, not each edict once"
        )
    })?;
    for space in EdictSpace::ALL {
        let (edict, evaluated) = (game.edict_on(space), game.evaluated[space.index()]);
        InvalidState::ensure(edict.is_some() != evaluated, || {
            format!("INV-6 edicts: {space:?} holds {edict:?} but evaluated is {evaluated}")
        })?;
    }
    Ok(())
}

/// INV-7: each tile once, on the board or in the box; a city is active exactly while its edict
/// is on the track, and only the seventh city once the game is over.
fn tiles(game: &TemplarsJourney) -> Result<(), InvalidState> {
    let mut all: Vec<Tile> = game.cities.iter().filter_map(|c| c.tile).collect();
    all.extend(&game.boxed_tiles);
    all.sort();
    InvalidState::ensure(all == Tile::ALL, || {
        format!("INV-7 tiles: the tiles on the board and in the box are {all:?}, not each tile once")
    })?;
    if game.step == Step::GameOver {
        let active: Vec<City> = City::ALL.into_iter().filter(|c| game.city(*c).tile.is_some()).collect();
        let seventh: Vec<City> = game.seventh_city.into_iter().collect();
        InvalidState::ensure(active == seventh, || {
            format!("INV-7 tiles: at the end the active cities are {active:?}, not the seventh city {seventh:?}")
        })
    } else {
        for c in City::ALL {
            let (active, on_track) = (game.city(c).tile.is_some(), game.space_of(c).is_some());
            InvalidState::ensure(active == on_track, || {
                format!("INV-7 tiles: {c} is active: {active}, but its edict on the track: {on_track}")
            })?;
        }
        Ok(())
    }
}

/// Setup step 7: each mission once, 3 in the box, one per player, the rest face up.
fn missions(game: &TemplarsJourney) -> Result<(), InvalidState> {
    let boxed = game.boxed_missions.len();
    InvalidState::ensure(boxed == BOXED_MISSIONS, || {
        format!("missions: {boxed} mission cards in the box, not {BOXED_MISSIONS}")
    })?;
    let mut all: Vec<Mission> = game.face_up_missions.clone();
    all.extend(&game.boxed_missions);
    all.extend(game.players.0.iter().map(|p| p.mission));
    all.sort();
    InvalidState::ensure(all == Mission::ALL, || {
        format!("missions: the face-up, boxed and dealt missions are {all:?}, not each mission once")
    })
}

/// INV-2: gold in players' hands and territories never exceeds what was dealt so far (the
/// common supply takes payments back; it never gives more).
fn gold(game: &TemplarsJourney) -> Result<(), InvalidState> {
    let n = game.players.len();
    let deals = if game.step == Step::GameOver { 3 } else { game.pope.leg.clamp(1, 3) };
    let dealt: u64 = (0..deals)
        .map(|moment| {
            let (with, without) = gold_rate(n, moment);
            u64::from(with.max(without)) * Territory::ALL.len() as u64
        })
        .sum::<u64>()
        + u64::from(START_GOLD) * n as u64;
    let held: u64 = game.players.0.iter().map(|p| u64::from(p.gold)).sum::<u64>()
        + game.territory_gold.iter().map(|g| u64::from(*g)).sum::<u64>();
    InvalidState::ensure(held <= dealt, || format!("INV-2 gold: {held} gold in play, more than the {dealt} dealt"))
}

/// The Pope's space against the decision point and the evaluated edict spaces: 2 per shipping
/// round before the current leg (INV-6), all of them once the game is over.
fn round_track(game: &TemplarsJourney) -> Result<(), InvalidState> {
    let pope = game.pope;
    let over = game.step == Step::GameOver;
    let fits = match &game.step {
        Step::SetupKnight { .. } | Step::SetupTemplar { .. } => pope == Space::start(1),
        Step::PopeStep => pope.spot != Spot::Harbour,
        Step::GreenFlag => pope.flag() == Some(Flag::Green),
        Step::RedFlag => pope.flag() == Some(Flag::Red),
        Step::Leader { .. } | Step::ChooseCards { .. } | Step::Card { .. } => pope.flag().is_some(),
        Step::GameOver => pope == Space { leg: 3, spot: Spot::Harbour },
    };
    InvalidState::ensure(fits, || format!("round track: the Pope on {pope} does not fit the step {:?}", game.step))?;
    let expected = if over { EdictSpace::ALL.len() } else { 2 * usize::from(pope.leg.saturating_sub(1)) };
    for space in EdictSpace::ALL {
        let evaluated = game.evaluated[space.index()];
        InvalidState::ensure(evaluated == (space.index() < expected), || {
            format!("INV-6 edicts: {space:?} evaluated: {evaluated}, with the Pope on {pope}")
        })?;
    }
    InvalidState::ensure(game.seventh_city.is_some() == over, || {
        format!("final scoring: the seventh city is {:?} with the step {:?}", game.seventh_city, game.step)
    })?;
    let (all, leg) = (game.card_phases, game.leg_card_phases);
    InvalidState::ensure(all <= MAX_CARD_PHASES && leg <= MAX_LEG_CARD_PHASES && leg <= all, || {
        format!("INV-10 actions: {all} card phases in the game and {leg} in this leg")
    })
}

/// INV-9: no Templar before the Templar placement, 2 each after it.
fn templars(game: &TemplarsJourney) -> Result<(), InvalidState> {
    let placed: usize = game.players.0.iter().map(|p| p.templars.len()).sum();
    let n = game.players.len();
    match game.step {
        Step::SetupKnight { placed: knights } => {
            let in_cities: u64 = City::ALL.into_iter().map(|c| u64::from(game.city(c).total())).sum();
            InvalidState::ensure(knights < SETUP_KNIGHTS * n && in_cities == knights as u64, || {
                format!("INV-3 cities: setup placement {knights} with {in_cities} knights in the cities")
            })?;
            InvalidState::ensure(placed == 0, || format!("INV-9 pieces: {placed} Templars before their placement"))
        }
        Step::SetupTemplar { placed: templars } => {
            for (seat, _) in game.players.iter() {
                let in_cities: u32 = game.cities.iter().map(|c| c.of(seat)).sum();
                InvalidState::ensure(in_cities == SETUP_KNIGHTS as u32, || {
                    format!("INV-3 cities: {seat} has {in_cities} knights in cities after setup, not {SETUP_KNIGHTS}")
                })?;
            }
            InvalidState::ensure(templars < 2 * n && placed == templars, || {
                format!("INV-9 pieces: Templar placement {templars} with {placed} Templars placed")
            })
        }
        _ => {
            for (seat, p) in game.players.iter() {
                let count = p.templars.len();
                InvalidState::ensure(count == 2, || format!("INV-9 pieces: {seat} has {count} Templars, not 2"))?;
            }
            Ok(())
        }
    }
}

/// INV-5: VP come only from shipping rounds and the final scoring; an edict majority is worth
/// 2 VP per edict won.
fn victory_points(game: &TemplarsJourney) -> Result<(), InvalidState> {
    let shipped = game.evaluated.iter().any(|e| *e);
    let over = game.step == Step::GameOver;
    for (seat, p) in game.players.iter() {
        let total: u64 = p.vp.values().map(|v| u64::from(*v)).sum();
        InvalidState::ensure(total <= u64::from(u32::MAX), || format!("INV-5 VP: {seat} has {total} VP"))?;
        InvalidState::ensure(shipped || total == 0, || format!("INV-5 VP: {seat} has VP before any shipping round"))?;
        let late = [VpSource::SeventhCityMajority, VpSource::SeventhCityKnights, VpSource::Gold, VpSource::Missions];
        InvalidState::ensure(over || late.iter().all(|s| !p.vp.contains_key(s)), || {
            format!("INV-5 VP: {seat} has final-scoring VP before the end")
        })?;
        let majority = |s: VpSource| u64::from(p.vp.get(&s).copied().unwrap_or(0));
        let (won, vp) = (p.edicts.len(), majority(VpSource::CityMajority) + majority(VpSource::SeventhCityMajority));
        InvalidState::ensure(vp == 2 * won as u64, || {
            format!("INV-5 VP: {seat} won {won} edicts but has {vp} majority VP")
        })?;
    }
    Ok(())
}

/// INV-11: the revealed cards (1 to 6, one per seat), their penalties and order of resolution.
fn card_phase(game: &TemplarsJourney) -> Result<(), InvalidState> {
    let n = game.players.len();
    let Some(phase) = &game.card_phase else {
        let fits = matches!(game.step, Step::SetupKnight { .. } | Step::SetupTemplar { .. } | Step::ChooseCards { .. })
            || (game.card_phases == 0 && !matches!(game.step, Step::Card { .. } | Step::GameOver));
        return InvalidState::ensure(fits, || format!("INV-11 card phase: none with the step {:?}", game.step));
    };
    InvalidState::ensure(
        !matches!(game.step, Step::SetupKnight { .. } | Step::SetupTemplar { .. } | Step::ChooseCards { .. }),
        || format!("INV-11 card phase: revealed cards with the step {:?}", game.step),
    )?;
    let (cards, penalised) = (phase.cards.len(), phase.penalised.len());
    InvalidState::ensure(cards == n && penalised == n, || {
        format!("INV-11 card phase: {cards} cards and {penalised} penalties for {n} seats")
    })?;
    InvalidState::ensure(phase.cards.0.iter().all(|c| (1..=6).contains(c)), || {
        format!("INV-11 card phase: cards {:?} are not all 1 to 6", phase.cards)
    })?;
    InvalidState::ensure(phase.penalised == rules::penalties(&phase.cards), || {
        format!("INV-11 card phase: penalties {:?} do not follow from the cards {:?}", phase.penalised, phase.cards)
    })?;
    let mut order = phase.order.clone();
    order.sort();
    InvalidState::ensure(order.iter().copied().eq(Seat::all(n)), || {
        format!("INV-11 card phase: the order {:?} is not every seat once", phase.order)
    })?;
    let resolved = phase.resolved;
    match game.step {
        Step::Card { seat, .. } => {
            InvalidState::ensure(phase.order == game.resolution_order(&phase.cards), || {
                format!("INV-11 card phase: the order {:?} is not by card and cw", phase.order)
            })?;
            InvalidState::ensure(phase.order.get(resolved) == Some(&seat), || {
                format!("INV-11 card phase: {seat} acts, but {resolved} card actions are resolved")
            })
        }
        _ => InvalidState::ensure(resolved == n, || {
            format!("INV-11 card phase: {resolved} of {n} card actions resolved outside the card phase")
        }),
    }
}

/// The decision point itself: seats in range, hidden choices 1 to 6, the Leader chain at the
/// marker holder, and a card prompt that belongs to the card being resolved (INV-12 limits).
fn step(game: &TemplarsJourney) -> Result<(), InvalidState> {
    let n = game.players.len();
    match &game.step {
        Step::SetupKnight { .. } | Step::SetupTemplar { .. } | Step::PopeStep => Ok(()),
        Step::GreenFlag | Step::RedFlag | Step::GameOver => Ok(()),
        Step::Leader { holder, .. } => InvalidState::ensure(*holder == game.first, || {
            format!("step: {holder} decides on the Leader favour but {} holds the marker", game.first)
        }),
        Step::ChooseCards { chosen } => {
            let len = chosen.len();
            InvalidState::ensure(len == n, || format!("step: card choices for {len} seats, not {n}"))?;
            InvalidState::ensure(chosen.0.iter().flatten().all(|c| (1..=6).contains(c)), || {
                "step: a chosen card is not 1 to 6".to_string()
            })?;
            InvalidState::ensure(chosen.0.iter().any(Option::is_none), || {
                "step: every card is chosen but none is revealed".to_string()
            })
        }
        Step::Card { seat, prompt } => card_prompt(game, *seat, prompt),
    }
}

fn card_prompt(game: &TemplarsJourney, seat: Seat, prompt: &Prompt) -> Result<(), InvalidState> {
    // `card_phase` has checked that the seat is the one resolving now.
    let (card, penalty) = match &game.card_phase {
        Some(phase) => (phase.cards.get(seat).copied(), phase.penalised.get(seat).copied().unwrap_or(false)),
        None => (None, false),
    };
    let belongs = match (card, prompt) {
        (Some(1), Prompt::GoldSource { take }) => *take == GoldTake::Safe,
        (Some(2), Prompt::GoldSource { take }) => *take == if penalty { GoldTake::Penalty } else { GoldTake::Risky },
        (Some(1 | 2), Prompt::Taxes { penalty: p }) => *p == penalty,
        (Some(3), Prompt::SafeCity | Prompt::SafeStep { .. } | Prompt::CrossResult { .. }) => true,
        (Some(3), Prompt::NewChance { .. }) => true,
        (Some(4), Prompt::RiskyCity | Prompt::RiskyStep { .. }) => !penalty,
        (Some(4), Prompt::PenaltyCity | Prompt::PenaltyStep { .. }) => penalty,
        (Some(2 | 4 | 5), Prompt::Sacrifice) => penalty,
        (Some(5 | 6), Prompt::ChooseTemplar { kind } | Prompt::MoveStep { kind, .. }) => {
            *kind
                == match (card, penalty) {
                    (Some(6), _) => MoveKind::Safe,
                    (_, false) => MoveKind::Risky,
                    (_, true) => MoveKind::Penalty,
                }
        }
        (Some(5), Prompt::EdictExchange { .. } | Prompt::Veto { .. }) => !penalty,
        (Some(5), Prompt::PenaltyGold { .. }) => penalty,
        (Some(6), Prompt::SafeEffect { .. }) => true,
        _ => false,
    };
    InvalidState::ensure(belongs, || format!("step: {seat} resolves card {card:?} (penalty {penalty}) at {prompt:?}"))?;
    let active = |c: &City| game.city(*c).tile.is_some();
    let on_track = |c: &City| game.space_of(*c).is_some();
    let holds = match prompt {
        Prompt::SafeStep { city, spent, chances }
        | Prompt::CrossResult { city, spent, chances }
        | Prompt::NewChance { city, spent, chances } => {
            active(city) && *spent <= SAFE_SPEND_LIMIT && *chances <= NEW_CHANCE_LIMIT
        }
        Prompt::RiskyStep { city, done } | Prompt::PenaltyStep { city, done } => active(city) && *done <= RISKY_LIMIT,
        Prompt::MoveStep { templar, steps, entered, .. } => {
            *templar < game.players[seat].templars.len() && *steps < MOVE_STEPS && entered.len() == *steps as usize
        }
        Prompt::SafeEffect { city } => active(city),
        Prompt::EdictExchange { city } => on_track(city),
        Prompt::Veto { city, target, asked, later } => {
            let other = |s: &Seat| seat_ok(game, *s) && *s != seat;
            on_track(city) && on_track(target) && other(asked) && later.iter().all(other)
        }
        Prompt::PenaltyGold { entered } => entered.len() <= MOVE_STEPS as usize,
        Prompt::GoldSource { .. } | Prompt::Taxes { .. } | Prompt::Sacrifice | Prompt::SafeCity => true,
        Prompt::RiskyCity | Prompt::PenaltyCity | Prompt::ChooseTemplar { .. } => true,
    };
    InvalidState::ensure(holds, || format!("INV-12 limits: {seat} is at {prompt:?}"))
}

/// INV-15: someone is asked until the game is over, every prompt lists an option, and an
/// optional prompt lists a way out.
fn prompts(game: &TemplarsJourney) -> Result<(), InvalidState> {
    let to_act = rules::to_act(game);
    InvalidState::ensure(!to_act.is_empty() || game.step == Step::GameOver, || {
        format!("INV-15 prompts: nobody is asked at {:?}", game.step)
    })?;
    for seat in to_act {
        let legal = rules::legal_actions(game, seat);
        InvalidState::ensure(!legal.is_empty(), || format!("INV-15 prompts: {seat} has no option at {:?}", game.step))?;
        let way_out = legal
            .iter()
            .any(|a| matches!(a, Action::Decline | Action::Stop | Action::Allow | Action::Accept | Action::Forgo));
        InvalidState::ensure(!game.is_optional() || way_out, || {
            format!("INV-15 prompts: {seat} has no way out of the optional {:?}", game.step)
        })?;
    }
    Ok(())
}
