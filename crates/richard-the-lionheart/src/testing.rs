//! Helpers that build scenario states from explicit parts, for the scenario tests.
//!
//! Not part of the engine's contract: the server never calls these.

use crate::board::{Card, Cards, Character, Edict, Faction, Location};
use crate::rules::{location, travel};
use crate::setup::{CharacterAssignment, Options};
use crate::state::{RichardTheLionheart, Tracks};
use game_core::{Game, Seat, Seed};

/// The spec's fixture F: `characters` by seat, round 2, seat 0 first, every player with 6 coins,
/// 0 PP, 4 cards of each type and no upgrades; the Reserve holds 20 of each type; the
/// Provisions deck holds 30 cards (5 of each type, shuffled); tracks RA 5, SA 5, KR 5, KT 5;
/// no active event; the Merchant and Mercenary off the board; no figure placed.
pub fn fixture(characters: &[Character]) -> RichardTheLionheart {
    let n = characters.len();
    let options = Options { characters: CharacterAssignment::Random };
    let mut g = match RichardTheLionheart::setup(n, &options, Seed::from_u64(7)) {
        Ok(g) => g,
        Err(e) => panic!("fixture setup failed: {e}"),
    };
    let mut next_edict = [0usize; 3];
    for ((_, p), c) in g.players.iter_mut().zip(characters) {
        p.character = Some(*c);
        p.side = c.faction().fixed_side().unwrap_or_default();
        p.previous_side = None;
        p.coins = 6;
        p.prestige = 0;
        p.hand = Cards::each(4);
        p.horse = false;
        p.ship = false;
        p.skill = false;
        p.location = None;
        p.contributed = 0;
        p.captor_used = false;
        let f = c.faction() as usize;
        p.edict = Edict::deck(c.faction()).get(next_edict[f]).copied();
        next_edict[f] += 1;
    }
    for f in [Faction::Richard, Faction::John, Faction::Neutral] {
        let used = next_edict[f as usize];
        *g.edicts.deck_mut(f) = Edict::deck(f).iter().skip(used).rev().copied().collect();
    }
    g.round = 2;
    g.first_player = Seat(0);
    g.tracks = Tracks { ra: 5, sa: 5, kr: 5, kt: 5 };
    g.reserve = Cards::each(20);
    let mut provisions: Vec<Card> = Card::ALL.iter().flat_map(|c| vec![*c; 5]).collect();
    g.rng.shuffle(&mut provisions);
    g.provisions = provisions;
    g.crusade = Vec::new();
    g.display = Cards::default();
    g.active_event = None;
    g.merchant = None;
    g.mercenary = None;
    g.verdicts = None;
    g.result = None;
    g.log.clear();
    g
}

/// The top `n` cards of the Provisions deck, counted (what the next draws of `n` will give).
pub fn top(game: &RichardTheLionheart, n: usize) -> Cards {
    let len = game.provisions.len();
    Cards::from_cards(&game.provisions[len.saturating_sub(n)..])
}

/// Makes `seat` the player in turn in Phase 2 and lands its figure on `loc` (as after a stop).
pub fn arrive(game: &mut RichardTheLionheart, seat: Seat, loc: Location) {
    let n = game.players.len();
    game.turn = (seat.index() + n - game.first_player.index()) % n;
    game.player_mut(seat).location = Some(loc);
    location::arrive(game, seat);
}

/// Makes `seat` the player in turn in Phase 2, standing on `from`, and starts its move.
pub fn start_move(game: &mut RichardTheLionheart, seat: Seat, from: Location) {
    let n = game.players.len();
    game.turn = (seat.index() + n - game.first_player.index()) % n;
    game.player_mut(seat).location = Some(from);
    travel::begin_turn(game);
}

/// Sets the figures of the other seats: `(seat, location)`; all others leave the board.
pub fn place_others(game: &mut RichardTheLionheart, figures: &[(Seat, Location)]) {
    for (_, p) in game.players.iter_mut() {
        p.location = None;
    }
    for (s, l) in figures {
        game.player_mut(*s).location = Some(*l);
    }
}
