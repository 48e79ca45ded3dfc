//! Phase 2, travel: round-1 placement, and moves one segment at a time with steals on the way.

use crate::action::Action;
use crate::board::{Character, EventCard, Location};
use crate::event::Event;
use crate::rules::{location, purchase};
use crate::state::{Movement, RichardTheLionheart, Stage};
use game_core::{Audience, Seat};

fn bit(l: Location) -> u16 {
    1 << l.index()
}

/// Starts Phase 2 with the round's first player.
pub fn start(game: &mut RichardTheLionheart) {
    game.turn = 0;
    begin_turn(game);
}

/// The travel turn of the player at `game.turn`, or the Purchase phase after the last one.
pub fn begin_turn(game: &mut RichardTheLionheart) {
    if game.turn >= game.players.len() {
        purchase::start(game);
        return;
    }
    let seat = game.turn_seat(game.turn);
    let Some(start) = game.player(seat).location else {
        game.stage = Stage::Place { seat };
        return;
    };
    let p = game.player(seat);
    let mp = 3 + u8::from(p.horse) + u8::from(p.ship && game.event_is(EventCard::E04));
    let movement = Movement { start, path: Vec::new(), mp, stolen_here: false };
    if move_actions(game, seat, &movement).is_empty() {
        // RUL-23: no legal move; the figure stays, with no action and no encounter.
        game.say(Event::Stuck { seat });
        end_turn(game);
        return;
    }
    game.stage = Stage::Move { seat, movement };
}

/// Ends the current player's travel turn.
pub fn end_turn(game: &mut RichardTheLionheart) {
    game.turn += 1;
    begin_turn(game);
}

/// Whether `seat` may use water segments now.
pub fn water(game: &RichardTheLionheart, seat: Seat) -> bool {
    game.player(seat).ship && !game.event_is(EventCard::E03)
}

/// The MP a steal costs `seat` now.
pub fn steal_cost(game: &RichardTheLionheart, seat: Seat) -> u8 {
    if game.player(seat).is(Character::RobinHood) || game.event_is(EventCard::E16) {
        0
    } else {
        1
    }
}

/// The locations occupied by figures other than `seat`'s.
fn occupied(game: &RichardTheLionheart, seat: Seat) -> u16 {
    game.players.iter().filter(|(s, _)| *s != seat).filter_map(|(_, p)| p.location).fold(0, |m, l| m | bit(l))
}

/// Whether a move standing on `cur` can still end legally: stop here (if it is not the start and
/// is empty) or continue along unvisited segments within `mp`.
fn finishable(cur: Location, start: Location, visited: u16, mp: u8, occupied: u16, water: bool) -> bool {
    if cur != start && occupied & bit(cur) == 0 {
        return true;
    }
    if mp == 0 {
        return false;
    }
    cur.neighbours(water)
        .any(|n| visited & bit(n) == 0 && finishable(n, start, visited | bit(n), mp - 1, occupied, water))
}

fn visited_mask(m: &Movement) -> u16 {
    m.path.iter().fold(bit(m.start), |acc, l| acc | bit(*l))
}

/// The enemy `seat` could steal from at the current location of `m`, if a steal is legal.
fn steal_target(game: &RichardTheLionheart, seat: Seat, m: &Movement) -> Option<Seat> {
    if m.stolen_here || m.path.is_empty() {
        return None;
    }
    let cur = m.current();
    let victim = game.occupant(cur, seat)?;
    let v = game.player(victim);
    if v.side == game.player(seat).side || v.hand.total() == 0 || v.is(Character::LittleJohn) {
        return None;
    }
    let cost = steal_cost(game, seat);
    let mp = m.mp.checked_sub(cost)?;
    finishable(cur, m.start, visited_mask(m), mp, occupied(game, seat), water(game, seat)).then_some(victim)
}

/// D2.2/D2.3: the steps, the steal and the stop available to `seat`.
pub fn move_actions(game: &RichardTheLionheart, seat: Seat, m: &Movement) -> Vec<Action> {
    let occ = occupied(game, seat);
    let water = water(game, seat);
    let visited = visited_mask(m);
    let cur = m.current();
    let mut out = Vec::new();
    if m.mp >= 1 {
        for n in cur.neighbours(water) {
            if visited & bit(n) == 0 && finishable(n, m.start, visited | bit(n), m.mp - 1, occ, water) {
                out.push(Action::Step { to: n });
            }
        }
    }
    if steal_target(game, seat, m).is_some() {
        out.push(Action::Steal);
    }
    if !m.path.is_empty() && occ & bit(cur) == 0 {
        out.push(Action::Stop);
    }
    out
}

/// D2.1: round-1 placement.
pub fn place(game: &mut RichardTheLionheart, seat: Seat, location: Location) {
    game.player_mut(seat).location = Some(location);
    game.say(Event::Placed { seat, location });
    location::arrive(game, seat);
}

/// Applies a step, a steal or a stop.
pub fn play(game: &mut RichardTheLionheart, seat: Seat, mut m: Movement, action: Action) {
    match action {
        Action::Step { to } => {
            m.mp = m.mp.saturating_sub(1);
            m.path.push(to);
            m.stolen_here = false;
            game.say(Event::Stepped { seat, to });
            if m.mp == 0 {
                stop(game, seat, &m);
            } else {
                game.stage = Stage::Move { seat, movement: m };
            }
        }
        Action::Steal => {
            let Some(victim) = steal_target(game, seat, &m) else { return };
            m.mp = m.mp.saturating_sub(steal_cost(game, seat));
            m.stolen_here = true;
            let hand = game.player(victim).hand;
            let i = game.rng.below(hand.total());
            if let Some(card) = hand.nth(i) {
                game.player_mut(victim).hand.remove(card, 1);
                game.player_mut(seat).hand.add(card, 1);
                game.say(Event::Stole { thief: seat, victim });
                game.log.push(game_core::Event {
                    audience: Audience::Only(vec![seat, victim]),
                    event: Event::StolenCard { thief: seat, victim, card },
                });
            }
            game.stage = Stage::Move { seat, movement: m };
        }
        Action::Stop => stop(game, seat, &m),
        _ => {}
    }
}

fn stop(game: &mut RichardTheLionheart, seat: Seat, m: &Movement) {
    let location = m.current();
    game.player_mut(seat).location = Some(location);
    game.say(Event::Stopped { seat, location });
    location::arrive(game, seat);
}
