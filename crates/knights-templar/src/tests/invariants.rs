//! The spec's §9 invariants after every action of random playouts: every single-state invariant
//! through `validate()`, and here the ones that compare a state with the one before it.

use crate::state::KnightsTemplar;
use crate::{Action, Event};
use game_core::{BySeat, Game, GameRng, Seat, Seed};

/// The invariants between two consecutive states, after `validate()`.
fn check(g: &KnightsTemplar, seed: u64, prev: &KnightsTemplar, keeps: usize) {
    let n = g.players;
    if let Err(e) = g.validate() {
        panic!("seed {seed}: {e}");
    }
    // I4: monotonic zones.
    assert!(g.deck.len() <= prev.deck.len(), "seed {seed}: I4 the deck never grows");
    assert!(g.discard.len() >= prev.discard.len(), "seed {seed}: I4 the discard pile never shrinks");
    assert_eq!(g.discard[..prev.discard.len()], prev.discard[..], "seed {seed}: I4 discards stay");
    let face_down = g.discard.iter().filter(|d| d.face_down_by.is_some()).count();
    assert_eq!(face_down, keeps, "seed {seed}: I4 one face-down discard per Ally choice");
    if g.fate.len() > prev.fate.len() {
        assert!(g.turn > prev.turn, "seed {seed}: I4 the Fate row grows only in a Draw Phase");
    }
    // I8: County VP only grows, by at most 1 per End Phase, and never for two players at once.
    let vp_gain: u32 = Seat::all(n).map(|s| g.county_vp(s) - prev.county_vp(s)).sum();
    assert!(vp_gain <= 1 + g.turn.saturating_sub(prev.turn), "seed {seed}: I8 County VP per End Phase");
}

#[test]
fn invariants_hold_after_every_action_of_random_games_for_every_player_count() {
    for players in 2..=8 {
        for seed in 0..60u64 {
            let mut g = KnightsTemplar::setup(players, &Default::default(), Seed::from_u64(seed)).expect("setup");
            if let Err(e) = g.validate() {
                panic!("seed {seed}: setup: {e}");
            }
            let mut rng = GameRng::from_u64(seed);
            let mut keeps = 0;
            let mut fate_picks_this_turn = BySeat::from_fn(players, |_| 0u32);
            while g.outcome().is_none() {
                let prev = g.clone();
                let seat = *rng.choose(&g.to_act()).expect("someone acts");
                let action = *rng.choose(&g.legal_actions(seat)).expect("legal action");
                if matches!(action, Action::Keep { .. }) {
                    keeps += 1;
                }
                let events = g.apply(seat, &action).expect("legal");
                for e in &events {
                    match &e.event {
                        Event::Picked { seat, .. } => fate_picks_this_turn[*seat] += 1,
                        Event::TurnStarted { .. } => fate_picks_this_turn = BySeat::from_fn(players, |_| 0),
                        Event::GrandMaster { .. } if g.end_reason().is_none() || prev.turn == g.turn => {
                            // I6: at the End Phase the picks follow F = qN + r.
                            let picks: Vec<u32> = fate_picks_this_turn.iter().map(|(_, p)| *p).collect();
                            let f: u32 = picks.iter().sum();
                            let (q, r) = (f / players as u32, f % players as u32);
                            if r == 0 {
                                assert!(picks.iter().all(|p| *p == q), "seed {seed}: I6 {picks:?}");
                            } else {
                                let gm = prev.grand_master();
                                assert_eq!(fate_picks_this_turn[gm], q + 1, "seed {seed}: I6 the GM picks q+1");
                                let extra = picks.iter().filter(|p| **p == q + 1).count() as u32;
                                assert_eq!(extra, r, "seed {seed}: I6 r players pick q+1: {picks:?}");
                            }
                        }
                        _ => {}
                    }
                }
                check(&g, seed, &prev, keeps);
            }
            // I9: score arithmetic and the Legacy bonus sum.
            let (totals, lines) = g.score_lines();
            let legacy_sum: i64 = lines[0].points.iter().sum();
            assert!(legacy_sum == 0 || legacy_sum == 5 || (legacy_sum % 3 == 0 && legacy_sum >= 6), "seed {seed}: I9");
            for (s, t) in totals.iter() {
                assert_eq!(*t, lines.iter().map(|l| l.points[s.index()]).sum::<i64>(), "seed {seed}: I9 totals");
            }
        }
    }
}
