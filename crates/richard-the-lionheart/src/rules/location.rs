//! Phase 2 after the move: the location actions (both board sides), ally takes, the faction
//! skill, the Sheriff's Taxation and the Encounter.

use crate::action::{Action, Choice};
use crate::board::{Card, Character, Edict, Faction, Location, Side, Track};
use crate::event::Event;
use crate::rules::travel;
use crate::state::{RichardTheLionheart, Stage};
use game_core::Seat;

/// The figure has arrived: offer the action (D2.4) or go straight to the after-action steps.
pub fn arrive(game: &mut RichardTheLionheart, seat: Seat) {
    if options(game, seat).is_empty() {
        after_action(game, seat, false);
    } else {
        game.stage = Stage::LocationAction { seat };
    }
}

fn tracks(list: &[Track]) -> Vec<Choice> {
    list.iter().map(|&track| Choice::Track { track }).collect()
}

/// Whether `seat` and every ally can pay London's or Shrewsbury's coins (RUL-05).
fn levy_payable(game: &RichardTheLionheart, seat: Seat) -> bool {
    game.player(seat).coins >= 4 && game.allies(seat).iter().all(|a| game.player(*a).coins >= 1)
}

/// The ways `seat` may perform the action of its location now (empty: not offered).
pub fn options(game: &RichardTheLionheart, seat: Seat) -> Vec<Choice> {
    let p = game.player(seat);
    let Some(loc) = p.location else { return Vec::new() };
    let big = game.big_board();
    let hand = p.hand;
    let has = |c: Card, n: u8| hand.get(c) >= n;
    let any_take = || {
        let t: Vec<Choice> = game.reserve.present().map(|card| Choice::Take { card }).collect();
        if t.is_empty() {
            vec![Choice::Plain]
        } else {
            t
        }
    };
    match loc {
        Location::Bridgewater | Location::Grimsby => {
            let side = if loc == Location::Bridgewater { Side::Richard } else { Side::John };
            if p.side != side {
                Vec::new()
            } else if big {
                if p.coins >= 1 {
                    any_take()
                } else {
                    Vec::new()
                }
            } else if loc == Location::Bridgewater {
                vec![Choice::Plain]
            } else {
                let (a, b) = (has(Card::RC, 3), has(Card::GH, 3));
                let mut out = Vec::new();
                if a {
                    out.push(Choice::Clauses { treasure: true, king_return: false });
                }
                if b {
                    out.push(Choice::Clauses { treasure: false, king_return: true });
                }
                if a && b {
                    out.push(Choice::Clauses { treasure: true, king_return: true });
                }
                out
            }
        }
        Location::Bristol => {
            if big {
                Card::ALL.into_iter().filter(|c| has(*c, 4)).map(|card| Choice::Return { card }).collect()
            } else if p.coins >= 6 {
                tracks(&[Track::RA, Track::SA])
            } else {
                Vec::new()
            }
        }
        Location::Cambridge | Location::Nottingham => vec![Choice::Plain],
        Location::Canterbury => plain_if(has(Card::GB, if big { 2 } else { 3 })),
        Location::Chester => plain_if(has(Card::RB, if big { 2 } else { 3 })),
        Location::Cardiff => plain_if(has(Card::GH, 2) && has(Card::GC, 2)),
        Location::Norwich => plain_if(has(Card::RH, 2) && has(Card::RC, 2)),
        // The type is chosen after the draw (D2.4b, `Stage::TakeChoice`); Isabella takes both.
        Location::Gloucester | Location::Salisbury | Location::York => vec![Choice::Plain],
        Location::London | Location::Shrewsbury => {
            if !levy_payable(game, seat) {
                Vec::new()
            } else if loc == Location::London {
                tracks(&[Track::KR, Track::KT])
            } else {
                tracks(&[Track::RA, Track::SA])
            }
        }
        Location::Oxford => Card::ALL
            .into_iter()
            .filter(|c| c.side() == p.side && has(*c, 1))
            .map(|card| Choice::Return { card })
            .collect(),
        Location::Sherwood => {
            if !Card::ALL.iter().all(|c| has(*c, 1)) {
                Vec::new()
            } else if big {
                vec![Choice::Plain]
            } else {
                tracks(&[Track::RA, Track::SA])
            }
        }
    }
}

fn plain_if(ok: bool) -> Vec<Choice> {
    if ok {
        vec![Choice::Plain]
    } else {
        Vec::new()
    }
}

/// The two card types offered at Bridgewater 2–3p, Gloucester, Salisbury and York.
pub fn pair(loc: Location) -> [Card; 2] {
    match loc {
        Location::Salisbury => [Card::RC, Card::GC],
        Location::York => [Card::RH, Card::GH],
        _ => [Card::RB, Card::GB],
    }
}

/// D2.4: performs the action (costs first, then gains in printed order).
pub fn perform(game: &mut RichardTheLionheart, seat: Seat, choice: Choice) {
    let Some(loc) = game.player(seat).location else { return };
    let big = game.big_board();
    game.say(Event::Performed { seat, location: loc });
    let chosen_card = match choice {
        Choice::Take { card } | Choice::Return { card } => Some(card),
        _ => None,
    };
    let chosen_track = match choice {
        Choice::Track { track } => Some(track),
        _ => None,
    };
    match (loc, big) {
        (Location::Bridgewater | Location::Grimsby, true) => {
            game.pay_coins(seat, 1);
            game.gain_prestige(seat, 1);
            if let Some(card) = chosen_card {
                game.take(seat, card);
            }
            let allies = game.allies(seat);
            ask_allies(game, seat, allies);
            return;
        }
        (Location::Bridgewater, false) | (Location::Gloucester | Location::Salisbury | Location::York, _) => {
            game.gain_coins(seat, 1);
            game.draw(seat, 1);
            if game.player(seat).is(Character::Isabella) && loc != Location::Bridgewater {
                for card in pair(loc) {
                    game.take(seat, card);
                }
            } else if !take_options(game, seat).is_empty() {
                // D2.4b comes after the draw, in printed order: the player has seen the card drawn.
                game.stage = Stage::TakeChoice { seat };
                return;
            }
        }
        (Location::Bristol, true) => {
            if let Some(card) = chosen_card {
                game.give_back(seat, card, 4);
            }
            game.gain_prestige(seat, 3);
            game.gain_coins(seat, 3);
            game.draw(seat, 2);
        }
        (Location::Bristol, false) => {
            game.pay_coins(seat, 6);
            if let Some(track) = chosen_track {
                game.move_track(track, 1);
            }
        }
        (Location::Cambridge, _) => {
            game.gain_coins(seat, 2);
            game.draw(seat, 2);
        }
        (Location::Canterbury | Location::Chester, _) => {
            let (cost, gains) = if loc == Location::Canterbury {
                (Card::GB, [Card::RB, Card::RC])
            } else {
                (Card::RB, [Card::GB, Card::GC])
            };
            game.give_back(seat, cost, if big { 2 } else { 3 });
            for card in gains {
                game.take(seat, card);
            }
            game.draw(seat, if big { 2 } else { 3 });
            if big {
                game.gain_prestige(seat, 1);
            }
        }
        (Location::Cardiff | Location::Norwich, _) => {
            let cost = if loc == Location::Cardiff { [Card::GH, Card::GC] } else { [Card::RH, Card::RC] };
            for card in cost {
                game.give_back(seat, card, 2);
            }
            if big {
                game.gain_prestige(seat, 2);
            } else {
                game.draw(seat, 3);
            }
            game.gain_coins(seat, 3);
        }
        (Location::Grimsby, false) => {
            if let Choice::Clauses { treasure, king_return } = choice {
                if treasure {
                    game.give_back(seat, Card::RC, 3);
                }
                if king_return {
                    game.give_back(seat, Card::GH, 3);
                }
                if treasure {
                    game.move_track(Track::KT, 1);
                }
                if king_return {
                    game.move_track(Track::KR, 1);
                }
            }
        }
        (Location::London | Location::Shrewsbury, _) => {
            game.pay_coins(seat, 4);
            for ally in game.allies(seat) {
                game.pay_coins(ally, 1);
            }
            if let Some(track) = chosen_track {
                game.move_track(track, if loc == Location::London { 1 } else { -1 });
            }
        }
        (Location::Nottingham, true) => {
            let faction = game.player(seat).faction();
            match game.edicts.deck_mut(faction).pop() {
                Some(drawn) => {
                    game.stage = Stage::KeepEdict { seat, drawn };
                    return;
                }
                None => nottingham_gains(game, seat),
            }
        }
        (Location::Nottingham, false) => {
            game.gain_coins(seat, 2);
            game.draw(seat, 3);
        }
        (Location::Oxford, _) => {
            if let Some(card) = chosen_card {
                game.give_back(seat, card, 1);
            }
            game.gain_coins(seat, 4);
        }
        (Location::Sherwood, _) => {
            for card in Card::ALL {
                game.give_back(seat, card, 1);
            }
            if big {
                game.draw(seat, 2);
                game.gain_prestige(seat, 3);
                game.gain_coins(seat, 3);
            } else if let Some(track) = chosen_track {
                game.move_track(track, -1);
            }
        }
    }
    after_action(game, seat, true);
}

/// D2.4b after the draw: the printed types of `seat`'s location that the Reserve holds.
pub fn take_options(game: &RichardTheLionheart, seat: Seat) -> Vec<Card> {
    let Some(loc) = game.player(seat).location else { return Vec::new() };
    pair(loc).into_iter().filter(|c| game.reserve.get(*c) > 0).collect()
}

/// D2.4b applied: take the chosen type, then the after-action steps.
pub fn take_choice(game: &mut RichardTheLionheart, seat: Seat, card: Card) {
    game.take(seat, card);
    after_action(game, seat, true);
}

fn nottingham_gains(game: &mut RichardTheLionheart, seat: Seat) {
    game.gain_prestige(seat, 1);
    game.gain_coins(seat, 2);
}

/// D2.4e: keep one edict; the other goes to the bottom of its deck.
pub fn keep_edict(game: &mut RichardTheLionheart, seat: Seat, drawn: Edict, keep: Edict) {
    let held = game.player(seat).edict;
    let (kept, returned) = if keep == drawn { (drawn, held) } else { (keep, Some(drawn)) };
    game.player_mut(seat).edict = Some(kept);
    if let Some(r) = returned {
        let faction: Faction = r.faction();
        game.edicts.deck_mut(faction).insert(0, r);
    }
    game.say(Event::EdictExchanged { seat });
    game.tell(seat, Event::EdictKept { seat, edict: kept });
    nottingham_gains(game, seat);
    after_action(game, seat, true);
}

/// D2.5: the first pending ally answers with `action`; then the next ally is asked.
pub fn ally_take(game: &mut RichardTheLionheart, active: Seat, mut pending: Vec<Seat>, action: Action) {
    if !pending.is_empty() {
        let ally = pending.remove(0);
        match action {
            Action::TakeCard { card } => {
                game.take(ally, card);
            }
            _ => game.say(Event::Declined { seat: ally }),
        }
    }
    ask_allies(game, active, pending);
}

/// Asks the first of `pending` (skipped when the Reserve is empty); after the last, the active player goes on.
fn ask_allies(game: &mut RichardTheLionheart, active: Seat, mut pending: Vec<Seat>) {
    if game.reserve.total() == 0 {
        pending.clear();
    }
    if pending.is_empty() {
        after_action(game, active, true);
    } else {
        game.stage = Stage::AllyTake { active, pending };
    }
}

/// After the action (or its refusal): the faction skill, if it applies.
pub fn after_action(game: &mut RichardTheLionheart, seat: Seat, performed: bool) {
    let p = game.player(seat);
    let skill_applies =
        performed && p.skill && p.location.is_some_and(|l| p.faction().fixed_side() == Some(l.colour()));
    if skill_applies {
        game.say(Event::SkillUsed { seat });
        game.draw(seat, 1);
        if game.player(seat).hand.total() > 0 {
            game.stage = Stage::SkillReturn { seat };
            return;
        }
    }
    finish_action(game, seat, performed);
}

/// The Sheriff's Taxation and the Encounter, then the next player's travel.
pub fn finish_action(game: &mut RichardTheLionheart, seat: Seat, performed: bool) {
    let p = game.player(seat);
    let loc = p.location;
    if performed && p.is(Character::Sheriff) && loc.is_some_and(|l| l.colour() == Side::John) {
        game.gain_coins(seat, 1);
    }
    if game.big_board() && loc.is_some() {
        if game.merchant == loc {
            game.say(Event::MerchantMet { seat });
            game.gain_coins(seat, 2);
        }
        if game.mercenary == loc {
            game.say(Event::MercenaryMet { seat });
            game.draw(seat, 2);
        }
    }
    travel::end_turn(game);
}
