//! Phase 1 (the event and the Neutral's side), Phase 6 (resolving the event) and Phase 7 (the end check).

use crate::action::Action;
use crate::board::{Character, EventCard, Faction, Side, Timing, Track};
use crate::event::Event;
use crate::rules::travel;
use crate::score;
use crate::state::{RichardTheLionheart, Stage, Verdict};
use game_core::Seat;

/// The Neutral's options at D1.1.
pub fn side_actions() -> Vec<Action> {
    vec![Action::ChooseSide { side: Side::Richard }, Action::ChooseSide { side: Side::John }]
}

/// The Neutral's seat, if there is one.
pub fn neutral(game: &RichardTheLionheart) -> Option<Seat> {
    game.players.iter().find(|(_, p)| p.faction() == Faction::Neutral).map(|(s, _)| s)
}

/// Phase 1: reveal the event, then wait for the Neutral (or go straight on).
pub fn start_round(game: &mut RichardTheLionheart) {
    let (round, first) = (game.round, game.first_player);
    game.say(Event::RoundStarted { round, first });
    for (_, p) in game.players.iter_mut() {
        p.contributed = 0;
        p.traded = false;
    }
    game.verdicts = None;
    game.active_event = game.events.pop();
    if let Some(event) = game.active_event {
        game.say(Event::EventRevealed { event });
    }
    match neutral(game) {
        Some(seat) => game.stage = Stage::ChooseSide { seat },
        None => after_side(game),
    }
}

/// D1.1 applied: the side, then Marie's Courtly Favour (automatic).
pub fn choose_side(game: &mut RichardTheLionheart, seat: Seat, side: Side) {
    let round = game.round;
    let p = game.player_mut(seat);
    let previous = p.previous_side.replace(side);
    p.side = side;
    let favour = p.is(Character::Marie) && round >= 2 && previous.is_some_and(|s| s != side);
    game.say(Event::SideChosen { seat, side });
    if favour {
        game.gain_coins(seat, 1);
    }
    after_side(game);
}

fn after_side(game: &mut RichardTheLionheart) {
    let leopold = game.players.iter().find(|(_, p)| p.is(Character::Leopold) && !p.captor_used).map(|(s, _)| s);
    match leopold {
        Some(seat) => game.stage = Stage::Captor { seat },
        None => travel::start(game),
    }
}

/// D1.2: Leopold raises the King's Return once per game.
pub fn use_captor(game: &mut RichardTheLionheart, seat: Seat) {
    game.player_mut(seat).captor_used = true;
    game.say(Event::CaptorUsed { seat });
    game.move_track(Track::KR, 1);
    travel::start(game);
}

/// Phases 6 and 7, after the Outcomes.
pub fn end_of_round(game: &mut RichardTheLionheart) {
    if let Some(event) = game.active_event {
        if event.timing() == Timing::End {
            let applied = resolve_event(game, event);
            game.say(Event::EventResolved { event, applied });
        }
        if game.big_board() {
            let (merchant, mercenary) = event.npc_locations();
            game.merchant = Some(merchant);
            game.mercenary = Some(mercenary);
            game.say(Event::NpcsMoved { merchant, mercenary });
        }
        game.discarded_events.push(event);
        game.active_event = None;
    }
    match end_condition(game) {
        Some(condition) => score::finish(game, condition),
        None => {
            let display = std::mem::take(&mut game.display);
            for c in display.present() {
                game.reserve.add(c, display.get(c));
            }
            game.round += 1;
            game.first_player = game.first_player.next(game.players.len(), 1);
            start_round(game);
        }
    }
}

/// The lowest end condition met (Order of Resolution), if any.
pub fn end_condition(game: &RichardTheLionheart) -> Option<u8> {
    let t = game.tracks;
    if t.ra >= 10 {
        Some(1)
    } else if t.sa >= 10 {
        Some(2)
    } else if t.kr == 0 {
        Some(3)
    } else if t.kt == 0 {
        Some(4)
    } else if game.round >= 10 {
        Some(5)
    } else {
        None
    }
}

fn seats_where(game: &RichardTheLionheart, f: impl Fn(Seat) -> bool) -> Vec<Seat> {
    Seat::all(game.players.len()).filter(|s| f(*s)).collect()
}

/// Applies an End event; returns whether its condition held.
fn resolve_event(game: &mut RichardTheLionheart, event: EventCard) -> bool {
    let t = game.tracks;
    let sided = |game: &RichardTheLionheart, side: Side| seats_where(game, |s| game.player(s).side == side);
    match event {
        EventCard::E01 => {
            let side = match t.ra.cmp(&t.sa) {
                std::cmp::Ordering::Greater => Side::Richard,
                std::cmp::Ordering::Less => Side::John,
                std::cmp::Ordering::Equal => return false,
            };
            for s in sided(game, side) {
                game.gain_prestige(s, 1);
            }
            true
        }
        EventCard::E02 => {
            let side = match game.verdicts.map(|v| v.banners) {
                Some(Verdict::Red) => Side::Richard,
                Some(Verdict::Green) => Side::John,
                _ => return false,
            };
            for s in sided(game, side) {
                game.gain_coins(s, 2);
            }
            true
        }
        EventCard::E07 => {
            for s in seats_where(game, |s| game.player(s).contributed >= 3) {
                game.gain_prestige(s, 1);
            }
            true
        }
        EventCard::E08 => {
            for s in seats_where(game, |s| game.player(s).coins >= 5) {
                game.pay_coins(s, 1);
            }
            true
        }
        EventCard::E09 => {
            if t.kr >= 6 {
                game.move_track(Track::KT, -1);
            }
            t.kr >= 6
        }
        EventCard::E10 => {
            game.move_track(Track::RA, -1);
            if let Some(s) = neutral(game) {
                game.gain_prestige(s, 1);
            }
            true
        }
        EventCard::E11 => {
            let holds = t.ra.abs_diff(t.sa) <= 1;
            if holds {
                game.move_track(Track::KR, -1);
            }
            holds
        }
        EventCard::E12 => {
            if t.sa > t.ra {
                game.move_track(Track::KR, 1);
            }
            t.sa > t.ra
        }
        EventCard::E13 => {
            if t.ra >= t.sa {
                game.move_track(Track::KT, 1);
            }
            t.ra >= t.sa
        }
        EventCard::E14 | EventCard::E15 => {
            let side = if event == EventCard::E14 { Side::John } else { Side::Richard };
            let paid = seats_where(game, |s| {
                let p = game.player(s);
                p.side == side && p.location.is_some_and(|l| l.colour() == side)
            });
            for s in paid {
                game.gain_coins(s, 1);
            }
            true
        }
        EventCard::E17 => {
            let fewest = game.players.iter().map(|(_, p)| p.prestige).min().unwrap_or(0);
            for s in seats_where(game, |s| game.player(s).prestige == fewest) {
                game.gain_prestige(s, 1);
            }
            true
        }
        // Round modifiers have no Phase 6 effect.
        EventCard::E03 | EventCard::E04 | EventCard::E05 | EventCard::E06 | EventCard::E16 | EventCard::E18 => false,
    }
}
