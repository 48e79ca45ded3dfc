//! The spec's §9 invariants, checked at every decision point of random playouts.
#![allow(clippy::unwrap_used)]

use game_core::{Game, GameRng, Seat, Seed, Viewer};
use richard_the_lionheart::{Card, CharacterAssignment, Faction, Options, RichardTheLionheart, Stage};

fn check(g: &RichardTheLionheart, initial_first: Seat, seed: u64) {
    let n = g.n();
    // 1. Cards.
    for t in Card::ALL {
        let total = g.provisions.iter().chain(&g.crusade).filter(|c| **c == t).count()
            + usize::from(g.reserve.get(t))
            + usize::from(g.display.get(t))
            + g.players.iter().map(|p| usize::from(p.hand.get(t))).sum::<usize>();
        assert_eq!(total, 40, "seed {seed}: type {t:?} is not conserved");
    }
    // 3. Tracks.
    let t = g.tracks;
    assert!(t.ra <= 10 && t.sa <= 10 && t.kr <= 10 && t.kt <= 10);
    assert!((1..=10).contains(&g.round));
    // 4. Occupancy.
    let mut locs: Vec<_> = g.players.iter().filter_map(|p| p.location).collect();
    let placed = locs.len();
    locs.sort();
    locs.dedup();
    assert_eq!(locs.len(), placed, "seed {seed}: two figures share a location");
    if g.stage == Stage::Over {
        return;
    }
    if matches!(g.stage, Stage::ChooseCharacter { .. }) {
        return;
    }
    // 7. Edicts.
    for f in [Faction::Richard, Faction::John, Faction::Neutral] {
        let held = g.players.iter().filter(|p| p.faction() == f).count();
        for p in g.players.iter().filter(|p| p.faction() == f) {
            assert_eq!(p.edict.map(|e| e.faction()), Some(f), "seed {seed}: wrong edict deck");
        }
        let drawn = matches!(&g.stage, Stage::KeepEdict { drawn, .. } if drawn.faction() == f);
        let deck = match f {
            Faction::Richard => g.edicts.richard.len(),
            Faction::John => g.edicts.john.len(),
            Faction::Neutral => g.edicts.neutral.len(),
        };
        if held > 0 {
            assert_eq!(held + deck + usize::from(drawn), 5, "seed {seed}: edicts of {f:?}");
        }
    }
    // 8. Events.
    assert_eq!(g.events.len() + g.discarded_events.len() + usize::from(g.active_event.is_some()), 18);
    assert!(g.active_event.is_some(), "seed {seed}: an event is active from Phase 1 to Phase 6");
    // 9. Sides.
    let neutrals = g.players.iter().filter(|p| p.faction() == Faction::Neutral).count();
    assert_eq!(neutrals == 1, n == 3 || n == 5);
    // 10. First player.
    assert_eq!(g.first_player, initial_first.next(n, usize::from(g.round) - 1));
    // 11. NPC figures.
    if n <= 3 || g.round == 1 {
        assert!(g.merchant.is_none() && g.mercenary.is_none());
    } else {
        assert!(g.merchant.is_some() && g.merchant != g.mercenary);
    }
    // 14. Views.
    for viewer in Viewer::all(n) {
        let v = g.view(viewer);
        for p in &v.players {
            let own = viewer.is(p.seat);
            assert_eq!(p.hand.is_some(), own, "seed {seed}: hand visibility");
            assert_eq!(p.edict.is_some(), own, "seed {seed}: edict visibility");
        }
        let json = serde_json::to_string(&v).unwrap();
        assert!(!json.contains("\"rng\"") && !json.contains("\"provisions\":["));
    }
}

fn playout(players: usize, options: &Options, seed: u64) {
    let mut g = RichardTheLionheart::setup(players, options, Seed::from_u64(seed)).unwrap();
    let mut rng = GameRng::from_u64(seed);
    let mut initial_first = None;
    while g.outcome().is_none() {
        if !matches!(g.stage, Stage::ChooseCharacter { .. }) {
            let first = *initial_first.get_or_insert(g.first_player);
            check(&g, first, seed);
        }
        let seat = *rng.choose(&g.to_act()).unwrap();
        let legal = g.legal_actions(seat);
        assert!(legal.len() <= 40, "seed {seed}: {} legal actions", legal.len());
        let action = *rng.choose(&legal).unwrap();
        g.apply(seat, &action).unwrap();
    }
    check(&g, initial_first.unwrap(), seed);
    assert!(Seat::all(players).all(|s| g.legal_actions(s).is_empty()));
}

#[test]
fn the_section_nine_invariants_hold_at_every_step_of_random_games() {
    for players in 2..=6 {
        for seed in 0..60 {
            playout(players, &Options::default(), seed);
        }
        for seed in 0..10 {
            playout(players, &Options { characters: CharacterAssignment::Chosen }, seed);
        }
    }
}

#[test]
fn scrambling_for_a_viewer_really_redraws_what_they_cannot_see() {
    let g = RichardTheLionheart::setup(4, &Options::default(), Seed::from_u64(5)).unwrap();
    let mut rng = GameRng::from_u64(1);
    let s = g.scramble_hidden(Viewer::Seat(Seat(0)), &mut rng);
    assert_eq!(s.players[0].hand, g.players[0].hand);
    assert_ne!(s.provisions, g.provisions);
    assert!((1..4).any(|i| s.players[i].hand != g.players[i].hand));
    assert_ne!(s.events, g.events);
    assert_eq!(s.view(Viewer::Seat(Seat(0))), g.view(Viewer::Seat(Seat(0))));
}

#[test]
fn games_end_by_every_kind_of_condition_across_random_playouts() {
    let mut seen = [false; 5];
    for seed in 0..300 {
        let p = game_core::testing::random_playout::<RichardTheLionheart>(4, &Options::default(), seed, 3000, false);
        let c = p.game.result.as_ref().unwrap().condition;
        seen[usize::from(c) - 1] = true;
    }
    assert!(seen.iter().filter(|s| **s).count() >= 3, "conditions seen: {seen:?}");
}
