//! No input panics the engine: out-of-range rooms, storehouses, areas, seats and passages are
//! rejected with the state untouched, at every step of random games.

use game_core::{Game, GameRng, RuleError, Seat, Seed, Viewer};
use secret_treasures::{Action, Card, Options, Portal, Ring, SecretTreasures};

fn hostile_actions() -> Vec<Action> {
    let mut all = vec![Action::Stop, Action::StashChalice, Action::StashBook];
    for n in [0u8, 14, 200, 255] {
        all.push(Action::Room(n));
        all.push(Action::Storehouse(n));
        all.push(Action::Stash { area: n });
        all.push(Action::StashRing { ring: Ring::X, area: n });
        all.push(Action::Pickup { owner: Seat(n), ring: Ring::Y, area: 1 });
        all.push(Action::Passage([n, 1]));
    }
    all.extend([Action::Passage([1, 1]), Action::Passage([13, 9]), Action::Passage([1, 13])]);
    all.extend(Card::ALL.iter().map(|c| Action::Card(*c)));
    all.extend([Action::Portal(Portal::Main), Action::Portal(Portal::Side), Action::Single(Ring::Z)]);
    all
}

#[test]
fn hostile_actions_are_rejected_without_a_change_at_every_step() {
    let hostile = hostile_actions();
    for players in [2, 3, 5] {
        for seed in 0..4 {
            let mut g = SecretTreasures::setup(players, &Options::default(), Seed::from_u64(seed)).expect("setup");
            let mut rng = GameRng::from_u64(seed);
            while g.outcome().is_none() {
                for seat in (0..=players as u8 + 1).map(Seat) {
                    let legal = g.legal_actions(seat);
                    for a in &hostile {
                        if legal.contains(a) {
                            continue;
                        }
                        let mut copy = g.clone();
                        assert!(copy.apply(seat, a).is_err(), "{a:?} by {seat} applied");
                        assert_eq!(copy, g);
                    }
                    let _ = g.view(Viewer::Seat(seat));
                }
                let seat = *rng.choose(&g.to_act()).expect("someone acts");
                let action = *rng.choose(&g.legal_actions(seat)).expect("an action");
                g.apply(seat, &action).expect("legal");
            }
            assert_eq!(g.apply(Seat(0), &Action::Stop), Err(RuleError::GameOver));
        }
    }
}
