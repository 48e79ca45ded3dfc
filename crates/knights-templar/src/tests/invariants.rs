//! The spec's §9 invariants, checked after every action of random playouts.

use crate::card::CardType;
use crate::state::{KnightsTemplar, Pending};
use crate::{Action, KtEvent};
use game_core::{Game, GameRng, Seat, Seed};

fn check(g: &KnightsTemplar, seed: u64, prev: &KnightsTemplar, keeps: usize) {
    let n = g.players;
    assert!(g.cards_conserved(), "seed {seed}: I1 every card in exactly one zone");
    for s in Seat::all(n) {
        assert!(g.tableau(s).iter().all(|c| c.kind().stays_in_play()), "seed {seed}: I2 tableau types");
    }
    // I3: the Ally reveal exists exactly while DP5 is pending (it lives in the pending decision).
    // I4: monotonic zones.
    assert!(g.deck.len() <= prev.deck.len(), "seed {seed}: I4 the deck never grows");
    assert!(g.discard.len() >= prev.discard.len(), "seed {seed}: I4 the discard pile never shrinks");
    assert_eq!(g.discard[..prev.discard.len()], prev.discard[..], "seed {seed}: I4 discards stay");
    let face_down = g.discard.iter().filter(|d| d.face_down_by.is_some()).count();
    assert_eq!(face_down, keeps, "seed {seed}: I4 one face-down discard per Ally choice");
    if g.fate.len() > prev.fate.len() {
        assert!(g.turn > prev.turn, "seed {seed}: I4 the Fate row grows only in a Draw Phase");
    }
    // I5: Downfall ceiling.
    let downfall: Vec<usize> = Seat::all(n).map(|s| g.count(s, CardType::Downfall)).collect();
    if g.outcome().is_none() {
        assert!(downfall.iter().all(|d| *d <= 4), "seed {seed}: I5 at most 4 Downfall while running");
    } else {
        assert!(downfall.iter().all(|d| *d <= 5), "seed {seed}: I5 nobody above 5");
        assert!(downfall.iter().filter(|d| **d == 5).count() <= 1, "seed {seed}: I5 at most one player at 5");
    }
    // I8: County VP only grows, by at most 1 per End Phase, and never for two players at once.
    let vp_gain: u32 = Seat::all(n).map(|s| g.county_vp(s) - prev.county_vp(s)).sum();
    assert!(vp_gain <= 1 + g.turn.saturating_sub(prev.turn), "seed {seed}: I8 County VP per End Phase");
    let total_vp: u32 = Seat::all(n).map(|s| g.county_vp(s)).sum();
    assert!(total_vp <= g.turn, "seed {seed}: I8 County VP ≤ completed End Phases");
    // I14: every wait has at least 2 legal options.
    for s in g.to_act() {
        assert!(g.legal_actions(s).len() >= 2, "seed {seed}: I14 a wait with a single option: {:?}", g.pending);
    }
    // I13: turns are bounded.
    assert!(g.turn as usize <= 95usize.div_ceil(crate::rules::fate_size(n)), "seed {seed}: I13 turn count");
}

#[test]
fn invariants_hold_after_every_action_of_random_games_for_every_player_count() {
    for players in 2..=8 {
        for seed in 0..60u64 {
            let mut g = KnightsTemplar::setup(players, &Default::default(), Seed::from_u64(seed)).expect("setup");
            let mut rng = GameRng::from_u64(seed);
            let mut keeps = 0;
            let mut fate_picks_this_turn = vec![0u32; players];
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
                        KtEvent::Picked { seat, .. } => fate_picks_this_turn[seat.index()] += 1,
                        KtEvent::TurnStarted { .. } => fate_picks_this_turn = vec![0; players],
                        KtEvent::GrandMaster { .. } if g.end_reason().is_none() || prev.turn == g.turn => {
                            // I6: at the End Phase the picks follow F = qN + r.
                            let f: u32 = fate_picks_this_turn.iter().sum();
                            let (q, r) = (f / players as u32, f % players as u32);
                            let gm = prev.grand_master().index();
                            if r == 0 {
                                assert!(
                                    fate_picks_this_turn.iter().all(|p| *p == q),
                                    "seed {seed}: I6 {fate_picks_this_turn:?}"
                                );
                            } else {
                                assert_eq!(fate_picks_this_turn[gm], q + 1, "seed {seed}: I6 the GM picks q+1");
                                let extra = fate_picks_this_turn.iter().filter(|p| **p == q + 1).count() as u32;
                                assert_eq!(extra, r, "seed {seed}: I6 r players pick q+1: {fate_picks_this_turn:?}");
                            }
                        }
                        _ => {}
                    }
                }
                check(&g, seed, &prev, keeps);
                if let Pending::AllyChoice { cards, .. } = &g.pending {
                    assert_ne!(cards[0], cards[1], "seed {seed}: I3 two distinct Ally cards");
                }
            }
            // I9: score arithmetic and the Legacy bonus sum.
            let (totals, lines) = g.score_lines();
            let legacy_sum: i64 = lines[0].points.iter().sum();
            assert!(legacy_sum == 0 || legacy_sum == 5 || (legacy_sum % 3 == 0 && legacy_sum >= 6), "seed {seed}: I9");
            for (i, t) in totals.iter().enumerate() {
                assert_eq!(*t, lines.iter().map(|l| l.points[i]).sum::<i64>(), "seed {seed}: I9 totals");
            }
        }
    }
}
