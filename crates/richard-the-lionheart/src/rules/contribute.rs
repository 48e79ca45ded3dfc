//! Phase 4, contributing to the Crusade: one face-down card at a time, a 3rd for coins, and a
//! Prestige Point lost per missing card.

use crate::action::Action;
use crate::board::{Character, EventCard};
use crate::event::Event;
use crate::rules::outcomes;
use crate::state::{RichardTheLionheart, Stage};
use game_core::Seat;

/// Starts Phase 4 with the round's first player.
pub fn start(game: &mut RichardTheLionheart) {
    game.turn = 0;
    begin_turn(game);
}

fn begin_turn(game: &mut RichardTheLionheart) {
    if game.turn >= game.players.len() {
        outcomes::run(game);
    } else {
        game.stage = Stage::Contribute { seat: game.turn_seat(game.turn) };
    }
}

/// The cost of the 3rd card for `seat` this round (Maid Marion −1, E06 −1, floor 0).
pub fn third_card_cost(game: &RichardTheLionheart, seat: Seat) -> u32 {
    let discount = u32::from(game.player(seat).is(Character::MaidMarion)) + u32::from(game.event_is(EventCard::E06));
    2u32.saturating_sub(discount)
}

/// D4.1: add a card of any type in hand (the 3rd only if affordable), or end.
pub fn actions(game: &RichardTheLionheart, seat: Seat) -> Vec<Action> {
    let p = game.player(seat);
    let may_add = p.contributed < 2 || (p.contributed == 2 && p.coins >= third_card_cost(game, seat));
    let mut out = Vec::new();
    if may_add {
        out.extend(p.hand.present().map(|card| Action::Contribute { card }));
    }
    out.push(Action::EndContribution);
    out
}

/// Applies one card or the end of the contribution.
pub fn play(game: &mut RichardTheLionheart, seat: Seat, action: Action) {
    if let Action::Contribute { card } = action {
        if game.player_mut(seat).hand.remove(card, 1) == 1 {
            game.crusade.push(card);
            game.player_mut(seat).contributed += 1;
            game.say(Event::AddedCard { seat });
        }
        if game.player(seat).contributed < 3 {
            return;
        }
    }
    finish(game, seat);
}

fn finish(game: &mut RichardTheLionheart, seat: Seat) {
    let k = game.player(seat).contributed;
    if k >= 3 {
        let price = third_card_cost(game, seat);
        game.pay_coins(seat, price);
    }
    game.say(Event::Contributed { seat, count: k });
    let missing = u32::from(2u8.saturating_sub(k));
    let lost = game.player(seat).prestige.min(missing);
    if lost > 0 {
        game.player_mut(seat).prestige -= lost;
        game.say(Event::Prestige { seat, delta: -(lost as i32) });
    }
    game.turn += 1;
    begin_turn(game);
}
