//! The spec's section 9 invariants, checked after every action of random playouts.

use game_core::{Game, GameRng, Seat, Viewer};
use secret_treasures::state::{Place, Score};
use secret_treasures::{Action, Event, Kind, Options, Phase, Pieces, SecretTreasures, Step};

/// A space: (room, list, index); lists are chalices, books, then the ring areas.
type Space = (u8, usize, usize);

/// Every piece on the board with its space, owner, kind and side.
fn board_pieces(g: &SecretTreasures) -> Vec<(Space, (Seat, Kind, bool))> {
    let mut all = Vec::new();
    for room in 1..=13u8 {
        let spaces = g.spaces(room).expect("room");
        let lists: Vec<&Vec<Option<secret_treasures::state::Piece>>> =
            [&spaces.chalices, &spaces.books].into_iter().chain(spaces.areas.iter()).collect();
        for (l, list) in lists.iter().enumerate() {
            for (i, p) in list.iter().enumerate() {
                if let Some(p) = p {
                    all.push(((room, l, i), (p.owner, p.kind, p.scored)));
                }
            }
        }
    }
    all
}

fn carried(g: &SecretTreasures) -> Option<(Seat, Kind)> {
    match g.phase() {
        Phase::Turn { step: Step::Benjamin { carrying: Some(c), .. }, .. } => Some((c.owner, c.ring.into())),
        _ => None,
    }
}

fn check_state(g: &SecretTreasures, before: Option<&SecretTreasures>, events: &[Event]) {
    // §9.1–9.4, 9.7, the state parts of 9.8–9.10, counts, ranges and the decision point.
    if let Err(e) = g.validate() {
        panic!("{e}\n{}", serde_json::to_string(g).expect("json"));
    }
    let seats: Vec<Seat> = Seat::all(g.players()).collect();
    // 9. Raphael's top differs from both players' tops at the moment of the reveal.
    if let Some(r) = g.raphael() {
        if events.iter().any(|e| matches!(e, Event::RaphaelRevealed { .. })) {
            let top = r.top().expect("a revealed top");
            assert!(seats.iter().all(|s| g.pile(*s).last() != Some(&top)), "Raphael's top matches a player's");
        }
    }
    // 11. Views.
    for &seat in &seats {
        let view = g.view(Viewer::Seat(seat));
        assert_eq!(view.hand.as_deref(), Some(g.hand(seat)));
        let json = serde_json::to_string(&view).expect("json");
        assert!(!json.contains("\"rng\"") && !json.contains("\"deck\""));
    }
    assert_eq!(g.view(Viewer::Spectator).hand, None);

    let Some(before) = before else { return };
    // 7. Vitus stands at the main portal only before Remigius first moves (first-game placement).
    if let Some(Place::Portal(_)) = g.vitus() {
        assert!(matches!(before.vitus(), Some(Place::Portal(_))), "Vitus went back out to the portal");
    }
    // 5. Scored pieces never move nor turn back; nobody's pieces on the board decrease.
    let now = board_pieces(g);
    for (at, piece) in board_pieces(before) {
        if piece.2 {
            assert!(now.contains(&(at, piece)), "a scored piece moved or turned: {at:?}");
        }
    }
    for &seat in &seats {
        let count = |x: &SecretTreasures| {
            board_pieces(x).iter().filter(|(_, p)| p.0 == seat).count()
                + usize::from(carried(x).is_some_and(|c| c.0 == seat))
        };
        assert!(count(g) >= count(before), "{seat}'s pieces on the board decreased");
    }
    // 6. Scores never decrease, by source.
    for &seat in &seats {
        let (a, b): (Score, Score) = (before.score(seat), g.score(seat));
        assert!(b.remigius >= a.remigius && b.porticus >= a.porticus && b.severus >= a.severus);
        assert!(b.stephanus >= a.stephanus && b.church >= a.church && b.rooms >= a.rooms);
    }
    // 8. A played card differs from every other top and Raphael's top at the moment it is played.
    for e in events {
        if let Event::CardPlayed { seat, card } = e {
            for other in seats.iter().filter(|s| *s != seat) {
                assert_ne!(before.pile(*other).last(), Some(card), "{seat} played {card:?} on top of {other}'s");
            }
            assert_ne!(before.raphael().and_then(|r| r.top()), Some(*card));
        }
    }
    // 10. The trigger is set at most once.
    if before.final_turns_left().is_some() {
        assert_eq!(before.trigger(), g.trigger());
    }
}

fn playout(players: usize, options: &Options, seed: u64) {
    let mut g = SecretTreasures::setup(players, options, game_core::Seed::from_u64(seed)).expect("setup");
    let mut rng = GameRng::from_u64(seed);
    check_state(&g, None, &[]);
    let mut turns_after_trigger: Option<usize> = None;
    let mut steps = 0;
    while g.outcome().is_none() {
        steps += 1;
        assert!(steps < 50_000, "seed {seed}: no end");
        let seat = *rng.choose(&g.to_act()).expect("someone acts");
        let action: Action = *rng.choose(&g.legal_actions(seat)).expect("an action");
        let before = g.clone();
        let events: Vec<Event> = g.apply(seat, &action).expect("legal").into_iter().map(|e| e.event).collect();
        for e in &events {
            match e {
                Event::EndTriggered { .. } => {
                    assert!(turns_after_trigger.is_none(), "triggered twice");
                    turns_after_trigger = Some(0);
                }
                Event::CardPlayed { .. } => {
                    if let Some(t) = turns_after_trigger.as_mut() {
                        // The triggering turn's card came before its trigger; the Bells trigger
                        // comes after its own CardPlayed in the same event list.
                        *t += 1;
                    }
                }
                _ => {}
            }
        }
        // A Bells trigger: its own CardPlayed precedes the trigger in the same list, so it is not counted.
        check_state(&g, Some(&before), &events);
    }
    // 10. After the trigger the game lasts exactly n more turns.
    assert_eq!(turns_after_trigger, Some(players), "seed {seed}: turns after the trigger");
}

#[test]
fn the_section_9_invariants_hold_at_every_step_of_random_games() {
    for players in 2..=5 {
        for stephanus in [true, false] {
            if players == 5 && !stephanus {
                continue;
            }
            let options = Options { stephanus, first_game_placement: players % 2 == 0 };
            for seed in 0..12 {
                playout(players, &options, seed);
            }
        }
    }
}

#[test]
fn pieces_count_matches_the_reserve_at_setup() {
    let g = SecretTreasures::setup(3, &Options::default(), game_core::Seed::from_u64(1)).expect("setup");
    assert_eq!(g.reserve(Seat(0)), Pieces::new(5, 6, 7, 7, 7));
}
