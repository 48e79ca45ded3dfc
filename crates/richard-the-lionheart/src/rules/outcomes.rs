//! Phase 5, the Outcomes of the Crusade: the draw of 2N cards (refilled from the Reserve on a
//! shortfall) and the three comparisons.

use crate::board::{Card, Cards, EventCard, Track};
use crate::event::Event;
use crate::rules::round;
use crate::state::{RichardTheLionheart, Verdict, Verdicts};

/// How many cards this round's Outcomes draw: 2N, +2 under E18.
pub fn need(game: &RichardTheLionheart) -> usize {
    2 * game.players.len() + if game.event_is(EventCard::E18) { 2 } else { 0 }
}

/// Draws the Outcomes, compares them, then goes on to Phases 6 and 7.
pub fn run(game: &mut RichardTheLionheart) {
    let need = need(game);
    let mut deck = std::mem::take(&mut game.crusade);
    game.rng.shuffle(&mut deck);
    let mut drawn = Vec::with_capacity(need);
    while drawn.len() < need {
        if let Some(c) = deck.pop() {
            drawn.push(c);
            continue;
        }
        let mut batch: Vec<Card> = game.reserve.present().collect();
        if batch.is_empty() {
            break;
        }
        for c in &batch {
            game.reserve.remove(*c, 1);
        }
        game.rng.shuffle(&mut batch);
        deck = batch;
    }
    game.crusade = deck;
    game.display = Cards::from_cards(&drawn);
    let verdicts = compare(game);
    game.verdicts = Some(verdicts);
    let shown = game.display;
    game.say(Event::Outcomes { drawn: shown, verdicts });
    round::end_of_round(game);
}

fn verdict(red: u8, green: u8) -> Verdict {
    match red.cmp(&green) {
        std::cmp::Ordering::Greater => Verdict::Red,
        std::cmp::Ordering::Less => Verdict::Green,
        std::cmp::Ordering::Equal => Verdict::Stalemate,
    }
}

/// The three comparisons of the display, applied to the tracks.
pub fn compare(game: &mut RichardTheLionheart) -> Verdicts {
    let d = game.display;
    let banners = verdict(d.get(Card::RB), d.get(Card::GB));
    let diff = d.get(Card::RB).abs_diff(d.get(Card::GB)) as i8;
    match banners {
        Verdict::Red => game.move_track(Track::RA, diff),
        Verdict::Green => game.move_track(Track::SA, diff),
        Verdict::Stalemate => {}
    }
    let hourglasses = verdict(d.get(Card::RH), d.get(Card::GH));
    match hourglasses {
        Verdict::Red => game.move_track(Track::KR, -2),
        Verdict::Green => {}
        Verdict::Stalemate => game.move_track(Track::KR, -1),
    }
    let chests = verdict(d.get(Card::RC), d.get(Card::GC));
    match chests {
        Verdict::Red => {}
        Verdict::Green => game.move_track(Track::KT, -2),
        Verdict::Stalemate => game.move_track(Track::KT, -1),
    }
    Verdicts { banners, hourglasses, chests }
}
