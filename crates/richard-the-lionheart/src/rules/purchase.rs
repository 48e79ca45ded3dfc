//! Phase 3, purchases: one item per player at the round's cost, and the Neutral skill's trade.

use crate::action::Action;
use crate::board::{base_cost, Card, Character, EventCard, Faction, Purchase};
use crate::event::Event;
use crate::rules::contribute;
use crate::state::{RichardTheLionheart, Stage};
use game_core::Seat;

/// Starts Phase 3 with the round's first player.
pub fn start(game: &mut RichardTheLionheart) {
    for (_, p) in game.players.iter_mut() {
        p.traded = false;
    }
    game.turn = 0;
    begin_turn(game);
}

fn begin_turn(game: &mut RichardTheLionheart) {
    if game.turn >= game.players.len() {
        contribute::start(game);
    } else {
        game.stage = Stage::Purchase { seat: game.turn_seat(game.turn) };
    }
}

fn next_turn(game: &mut RichardTheLionheart) {
    game.turn += 1;
    begin_turn(game);
}

/// What `item` costs `seat` this round, with character and event modifiers (RUL-37).
pub fn cost(game: &RichardTheLionheart, seat: Seat, item: Purchase) -> u32 {
    let base = base_cost(item, game.round);
    let p = game.player(seat);
    match item {
        Purchase::RandomCard if p.is(Character::FriarTuck) => 0,
        Purchase::SpecificCard { .. } if p.is(Character::PrinceJohn) => base.saturating_sub(1).max(1),
        Purchase::PrestigePoint if p.is(Character::BishopOfEly) => base.saturating_sub(1).max(1),
        Purchase::Horse | Purchase::Ship if game.event_is(EventCard::E05) => base.saturating_sub(1).max(1),
        _ => base,
    }
}

/// D3.1: pass, or every affordable and available item.
pub fn actions(game: &RichardTheLionheart, seat: Seat) -> Vec<Action> {
    let p = game.player(seat);
    let mut items = Vec::new();
    if !game.provisions.is_empty() || game.reserve.total() > 0 {
        items.push(Purchase::RandomCard);
    }
    items.extend(game.reserve.present().map(|card| Purchase::SpecificCard { card }));
    items.push(Purchase::PrestigePoint);
    if !p.horse {
        items.push(Purchase::Horse);
    }
    if !p.ship {
        items.push(Purchase::Ship);
    }
    if !p.skill {
        items.push(Purchase::Skill);
    }
    let mut out: Vec<Action> = items
        .into_iter()
        .filter(|i| cost(game, seat, *i) <= p.coins)
        .map(|purchase| Action::Buy { purchase })
        .collect();
    out.push(Action::Decline);
    out
}

/// Applies D3.1, then offers the Neutral skill (D3.2) if it can be used.
pub fn play(game: &mut RichardTheLionheart, seat: Seat, action: Action) {
    match action {
        Action::Buy { purchase } => {
            let price = cost(game, seat, purchase);
            game.pay_coins(seat, price);
            game.say(Event::Bought { seat, purchase, cost: price });
            match purchase {
                Purchase::RandomCard => {
                    game.draw(seat, 1);
                }
                Purchase::SpecificCard { card } => {
                    game.take(seat, card);
                }
                Purchase::PrestigePoint => game.gain_prestige(seat, 1),
                Purchase::Horse => game.player_mut(seat).horse = true,
                Purchase::Ship => game.player_mut(seat).ship = true,
                Purchase::Skill => game.player_mut(seat).skill = true,
            }
        }
        _ => game.say(Event::Declined { seat }),
    }
    let p = game.player(seat);
    let can_trade =
        p.faction() == Faction::Neutral && p.skill && !p.traded && Card::ALL.iter().any(|c| p.hand.get(*c) >= 2);
    if can_trade {
        game.stage = Stage::Trade { seat };
    } else {
        next_turn(game);
    }
}

/// D3.2: the Neutral returns 2 cards of a type and draws 4, or declines.
pub fn trade(game: &mut RichardTheLionheart, seat: Seat, action: Action) {
    game.player_mut(seat).traded = true;
    match action {
        Action::Trade { card } => {
            game.say(Event::Traded { seat, card });
            game.give_back(seat, card, 2);
            game.draw(seat, 4);
        }
        _ => game.say(Event::Declined { seat }),
    }
    next_turn(game);
}
