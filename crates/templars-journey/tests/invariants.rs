//! The spec's section 9 invariants, checked after every action of random playouts: what a single
//! state shows through the engine's `validate`, what needs the history here.

use game_core::{BySeat, Game, GameRng, Seed};
use templars_journey::board::Mission;
use templars_journey::event::{Event, Favour};
use templars_journey::score::mission_points;
use templars_journey::state::{Step, TemplarsJourney};
use templars_journey::Options;

fn vps(g: &TemplarsJourney) -> Vec<u32> {
    g.players.0.iter().map(|p| p.total_vp()).collect()
}

/// Everything one state shows (INV-1, 3, 4, 6, 7, 9, 11, 12, 15 and more) is the engine's own
/// `validate`; the checks below need the history.
fn check_static(g: &TemplarsJourney, seed: u64) {
    if let Err(e) = g.validate() {
        panic!("seed {seed}: {e}");
    }
}

fn check_playout(players: usize, seed: u64) {
    let mut g = TemplarsJourney::setup(players, &Options::default(), Seed::from_u64(seed)).expect("setup");
    let mut rng = GameRng::from_u64(seed.wrapping_mul(31) + 7);
    let mut ships_after: Vec<Option<Vec<u32>>> = vec![None; 6];
    let mut setup_checked = false;
    let mut legs: Vec<u32> = Vec::new();
    let mut phases_in_leg = 0;
    // Favours used in the card action under way: (Taxes, New Chance).
    let mut favours_in_action = (0, 0);
    check_static(&g, seed);
    while g.outcome().is_none() {
        let to_act = g.to_act();
        let seat = *rng.choose(&to_act).expect("someone acts");
        let legal = g.legal_actions(seat);
        let action = rng.choose(&legal).expect("an action").clone();
        let before = g.clone();
        let events = g.apply(seat, &action).expect("legal applies");
        let events: Vec<Event> = events.into_iter().map(|e| e.event).collect();
        check_static(&g, seed);

        // INV-3 after setup: 4 knights each, at most 2 per city.
        if !setup_checked && !matches!(g.step, Step::SetupKnight { .. } | Step::SetupTemplar { .. }) {
            setup_checked = true;
            for (s, _) in g.players.iter() {
                let per_city: Vec<u32> = g.cities.iter().map(|c| c.of(s)).collect();
                assert_eq!(per_city.iter().sum::<u32>(), 4, "seed {seed}: INV-3 setup count");
                assert!(per_city.iter().all(|k| *k <= 2), "seed {seed}: INV-3 setup limit");
            }
        }
        // INV-4: shipped knights never change.
        for (i, seen) in ships_after.iter_mut().enumerate() {
            if g.evaluated[i] {
                let now = g.ships[i].0.clone();
                match seen {
                    Some(old) => assert_eq!(old, &now, "seed {seed}: INV-4 ship changed"),
                    None => *seen = Some(now),
                }
            }
        }
        // INV-5: VP never decrease and change only in shipping rounds and final scoring.
        let scoring = events.iter().any(|e| matches!(e, Event::ShippingRound { .. } | Event::GameEnded { .. }));
        for (a, b) in vps(&before).iter().zip(vps(&g)) {
            assert!(b >= *a, "seed {seed}: INV-5 VP decreased");
            if !scoring {
                assert_eq!(b, *a, "seed {seed}: INV-5 VP changed outside scoring");
            }
        }
        // INV-13: a temple shrinks only by a favour payment of 1 to 4 knights.
        for (s, p) in g.players.iter() {
            let old = before.players[s].temple;
            if p.temple < old {
                let paid: u32 = events
                    .iter()
                    .filter_map(|e| match e {
                        Event::FavourUsed { seat, cost, favour } if *seat == s => {
                            let expected = match favour {
                                Favour::NewChance => 1,
                                Favour::Taxes => 2,
                                Favour::Leader => 3,
                                Favour::Veto => 4,
                            };
                            assert_eq!(*cost, expected);
                            Some(*cost)
                        }
                        _ => None,
                    })
                    .sum();
                assert!(paid >= old - p.temple, "seed {seed}: INV-13 temple shrank without a favour");
            }
        }
        // INV-8: an exchange swaps exactly two unevaluated spaces; nothing else moves edicts
        // outside the shipping rounds and the final scoring.
        let exchanged = events.iter().any(|e| matches!(e, Event::EdictsExchanged { .. }));
        if !scoring {
            let changed: Vec<usize> = (0..7).filter(|i| before.edict_spaces[*i] != g.edict_spaces[*i]).collect();
            if exchanged {
                assert_eq!(changed.len(), 2, "seed {seed}: INV-8 {changed:?}");
                let (a, b) = (changed[0], changed[1]);
                assert_eq!((g.edict_spaces[a], g.edict_spaces[b]), (before.edict_spaces[b], before.edict_spaces[a]));
                assert!(g.edict_spaces[a].is_some() && g.edict_spaces[b].is_some(), "seed {seed}: INV-8");
            } else {
                assert!(changed.is_empty(), "seed {seed}: INV-8 edicts moved without an exchange");
            }
        }
        for e in &events {
            match e {
                Event::CardActionStarted { .. } => favours_in_action = (0, 0),
                // INV-12: Taxes at most once, New Chance at most twice per card action.
                Event::FavourUsed { favour: Favour::Taxes, .. } => {
                    favours_in_action.0 += 1;
                    assert!(favours_in_action.0 <= 1, "seed {seed}: INV-12 Taxes twice");
                }
                Event::FavourUsed { favour: Favour::NewChance, .. } => {
                    favours_in_action.1 += 1;
                    assert!(favours_in_action.1 <= 2, "seed {seed}: INV-12 New Chance thrice");
                }
                // INV-2: a take never exceeds the territory's gold.
                Event::GoldTaken { territory, amount, seat, .. } => {
                    assert!(*amount <= before.gold_at(*territory), "seed {seed}: INV-2 took {amount}");
                    assert!(g.players[*seat].gold >= *amount);
                }
                // INV-14: moves follow adjacency.
                Event::TemplarMoved { from, to, .. } => assert!(from.is_adjacent(*to), "seed {seed}: INV-14"),
                // INV-11: order and penalties.
                Event::CardsRevealed { cards, penalised, order } => {
                    phases_in_leg += 1;
                    assert_eq!(cards.len(), players);
                    let keys: Vec<(u8, usize)> = order.iter().map(|s| (cards[*s], before.cw(*s))).collect();
                    assert!(keys.windows(2).all(|w| w[0] < w[1]), "seed {seed}: INV-11 order {keys:?}");
                    let threshold = if players == 3 { 2 } else { 3 };
                    for (s, c) in cards.iter() {
                        let same = cards.0.iter().filter(|d| (*d - 1) / 2 == (c - 1) / 2).count();
                        let expect = matches!(c, 2 | 4 | 5) && same >= threshold;
                        assert_eq!(penalised.contains(&s), expect, "seed {seed}: INV-11 penalty");
                    }
                }
                Event::ShippingRound { .. } => {
                    legs.push(phases_in_leg);
                    phases_in_leg = 0;
                }
                // INV-18: mission points.
                Event::MissionScored { vp, mission } => {
                    assert!(vp.0.iter().all(|v| [0, 2, 4].contains(v)), "seed {seed}: INV-18 {mission:?}");
                    if vp.0.contains(&2) {
                        assert!(vp.0.contains(&4), "seed {seed}: INV-18 2 without 4");
                    }
                }
                _ => {}
            }
        }
        // INV-6: unevaluated spaces after shipping round l.
        let open = g.edict_spaces.iter().filter(|e| e.is_some()).count();
        if g.step != Step::GameOver {
            assert_eq!(open, 7 - 2 * legs.len(), "seed {seed}: INV-6 open spaces");
        }
    }
    // INV-10: 3 or 4 card phases per leg.
    assert_eq!(legs.len(), 3, "seed {seed}: three shipping rounds");
    assert!(legs.iter().all(|l| *l == 3 || *l == 4), "seed {seed}: INV-10 {legs:?}");
    assert!((9..=12).contains(&g.card_phases));
    // INV-19: winners.
    let o = g.outcome().expect("over");
    let best = o.winners.iter().map(|w| (o.scores[w.index()], g.players[*w].edicts.len())).collect::<Vec<_>>();
    assert!(!best.is_empty() && best.windows(2).all(|w| w[0] == w[1]), "seed {seed}: INV-19");
    for (s, p) in g.players.iter() {
        assert!((i64::from(p.total_vp()), p.edicts.len()) <= best[0], "seed {seed}: INV-19 {s} beats the winners");
    }
}

#[test]
fn the_section_9_invariants_hold_at_every_step_of_random_games() {
    for players in 3..=5 {
        for seed in 0..300 {
            check_playout(players, seed);
        }
    }
}

#[test]
fn the_mission_ranking_is_dense_and_rewards_only_the_eligible() {
    assert_eq!(mission_points(&BySeat(vec![Some(5), Some(5), Some(3), Some(1)]), false), BySeat(vec![4, 4, 2, 0]));
    assert_eq!(mission_points(&BySeat(vec![None, None, None]), false), BySeat(vec![0, 0, 0]));
    assert_eq!(Mission::ALL.len(), 8);
}
