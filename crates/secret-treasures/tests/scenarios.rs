//! The rulebook's examples and the spec's section 8 checks, on the reconstructed board, with exact
//! positions and scores.

mod common;

use common::*;
use game_core::{Game, Seat, Viewer};
use secret_treasures::testing::{setup_with, Scenario};
use secret_treasures::{Action, Card, Kind, Options, Phase, Pieces, Place, Portal, Ring, Step};

#[test]
fn s1_franks_josua_stashes_only_rings_of_the_areas_type() {
    let mut g = Scenario::new(3)
        .active(FRANK)
        .token(FRANK, Place::Room(1))
        .stock(FRANK, Pieces::new(0, 0, 2, 2, 1))
        .ring(2, 1, 1, ALEX, Ring::X, false)
        .severus(7)
        .build();
    act(&mut g, FRANK, Action::Card(Card::Josua));
    act(&mut g, FRANK, Action::Room(2));
    assert_eq!(legal(&g, FRANK), vec![Action::Room(4), Action::Room(10), Action::Stop]);
    act(&mut g, FRANK, Action::Stop);
    let x_in_a1 = Action::StashRing { ring: Ring::X, area: 1 };
    assert_eq!(legal(&g, FRANK), vec![x_in_a1, Action::Stop]);
    act(&mut g, FRANK, x_in_a1);
    act(&mut g, FRANK, x_in_a1);
    let area = &g.spaces(2).expect("room 2").areas[0];
    let owners: Vec<(Seat, Kind, bool)> = area.iter().flatten().map(|p| (p.owner, p.kind, p.scored)).collect();
    assert_eq!(owners, vec![(ALEX, Kind::X, false), (FRANK, Kind::X, false), (FRANK, Kind::X, false)]);
    assert_eq!(g.stock(FRANK), Pieces::new(0, 0, 0, 2, 1));
    assert!(choosing_card(&g, ALEX), "the stash ended by itself after 2 pieces");
    assert_eq!([points(&g, ANI), points(&g, FRANK), points(&g, ALEX)], [0, 0, 0]);
}

#[test]
fn s2_anis_benjamin_carries_franks_ring_to_another_room() {
    let mut g = Scenario::new(3).token(ANI, Place::Room(3)).ring(1, 1, 1, FRANK, Ring::Y, false).severus(7).build();
    act(&mut g, ANI, Action::Card(Card::Benjamin));
    assert_eq!(legal(&g, ANI), rooms(&[1, 5]));
    act(&mut g, ANI, Action::Room(1));
    let pickup = Action::Pickup { owner: FRANK, ring: Ring::Y, area: 1 };
    assert_eq!(legal(&g, ANI), vec![Action::Room(2), Action::Room(3), Action::Room(11), pickup, Action::Stop]);
    act(&mut g, ANI, pickup);
    assert_eq!(legal(&g, ANI), rooms(&[2, 3, 11]), "no Stop while carrying");
    act(&mut g, ANI, Action::Room(2));
    assert_eq!(
        legal(&g, ANI),
        vec![Action::Room(4), Action::Room(10), Action::Stash { area: 1 }],
        "room 1 is the pick-up room and the last step; no Stop"
    );
    act(&mut g, ANI, Action::Stash { area: 1 });
    act(&mut g, ANI, Action::Room(10));
    let moved = g.spaces(2).expect("room 2").areas[0][0].expect("a ring in 2.a1");
    assert_eq!((moved.owner, moved.kind, moved.scored), (FRANK, Kind::Y, false));
    assert!(g.spaces(1).expect("room 1").areas[0].iter().all(Option::is_none));
    assert_eq!(g.token(ANI), Some(Place::Room(10)));
    assert!(choosing_card(&g, FRANK), "the turn is over after 3 steps");
    assert_eq!([points(&g, ANI), points(&g, FRANK)], [0, 0]);
    // 1.a1 is free for any type again.
    let mut g2 = g.clone();
    act(&mut g2, FRANK, Action::Card(Card::Anselmus));
    act(&mut g2, FRANK, Action::Room(1));
    assert!(legal(&g2, FRANK).contains(&Action::StashRing { ring: Ring::X, area: 1 }));
}

#[test]
fn s3_alexs_maria_takes_the_storehouse_and_returns_through_the_side_portal() {
    let mut g = Scenario::new(3)
        .active(ALEX)
        .token(ALEX, Place::Room(6))
        .storehouse(2, vec![Kind::Book, Kind::X, Kind::Z])
        .build();
    let stock = g.stock(ALEX);
    let reserve = g.reserve(ALEX);
    let removed = g.removed().chalice as u32 + g.removed().book as u32 + g.removed().x as u32 + g.removed().z as u32;
    act(&mut g, ALEX, Action::Card(Card::Maria));
    assert_eq!(legal(&g, ALEX), (1..=6).map(Action::Storehouse).collect::<Vec<_>>());
    act(&mut g, ALEX, Action::Storehouse(2));
    assert_eq!(g.stock(ALEX), Pieces::new(0, stock.book + 1, stock.x + 1, stock.y, stock.z + 1));
    assert_eq!(g.reserve(ALEX), Pieces::new(5, reserve.book - 1, reserve.x - 1, reserve.y, reserve.z - 1));
    assert!(g.storehouse(2).is_empty());
    assert_eq!(g.removed().total(), removed + 3);
    assert_eq!(g.token(ALEX), Some(Place::Storehouse(2)));
    // Ani may not play Maria (Alex's top card); Frank's Maria may not choose storehouse 2.
    assert!(!legal(&g, ANI).contains(&Action::Card(Card::Maria)));
    let before = g.clone();
    assert!(g.apply(ANI, &Action::Card(Card::Maria)).is_err());
    assert_eq!(g, before, "a rejected card leaves the state untouched");
    acts(&mut g, ANI, &[Action::Card(Card::Porticus), Action::Passage([1, 2])]);
    act(&mut g, FRANK, Action::Card(Card::Josua));
    act(&mut g, FRANK, Action::Room(1));
    act(&mut g, FRANK, Action::Stop);
    act(&mut g, FRANK, Action::Stop);
    assert_eq!(legal(&g, ALEX), vec![Action::Portal(Portal::Main), Action::Portal(Portal::Side)]);
    act(&mut g, ALEX, Action::Portal(Portal::Side));
    act(&mut g, ALEX, Action::Card(Card::Lucas));
    assert_eq!(legal(&g, ALEX), rooms(&[9]));
}

#[test]
fn s4_anis_bells_brings_three_tiles_and_frank_receives_the_chalice() {
    let mut g = Scenario::new(3)
        .pile(ANI, vec![Card::Anselmus])
        .storehouse(1, vec![Kind::X, Kind::Y, Kind::Z])
        .storehouse(2, vec![Kind::Book, Kind::X, Kind::Y])
        .storehouse(3, vec![Kind::Book])
        .storehouse(4, vec![Kind::Chalice, Kind::Y])
        .storehouse(5, vec![])
        .storehouse(6, vec![Kind::X, Kind::Z])
        .token(FRANK, Place::Storehouse(5))
        .draws(vec![Kind::Z, Kind::Chalice, Kind::Book])
        .build();
    let bag = g.bag().total();
    let removed = g.removed().total();
    act(&mut g, ANI, Action::Card(Card::Bells));
    assert_eq!(g.storehouse(1), [Kind::X, Kind::Y, Kind::Z]);
    assert_eq!(g.storehouse(2), [Kind::Book, Kind::X, Kind::Y]);
    assert_eq!(g.storehouse(3), [Kind::Book, Kind::Z]);
    assert_eq!(g.storehouse(4), [Kind::Chalice, Kind::Y]);
    assert!(g.storehouse(5).is_empty(), "Frank took the chalice placed in S5");
    assert_eq!(g.storehouse(6), [Kind::X, Kind::Z, Kind::Book]);
    assert_eq!(g.reserve(FRANK).chalice, 4);
    assert_eq!(g.stock(FRANK).chalice, 1);
    assert_eq!(g.bag().total(), bag - 3);
    assert_eq!(g.removed().total(), removed + 1);
    assert_eq!(g.final_turns_left(), None);
    assert!(g.pile(ANI).is_empty());
    assert_eq!(g.hand(ANI), Card::ALL);
    assert_eq!(g.token(FRANK), Some(Place::Storehouse(5)), "Frank stays in his storehouse");
}

#[test]
fn s5_franks_porticus_locks_the_passage_next_to_ani() {
    let mut g = Scenario::new(3).active(FRANK).token(ANI, Place::Room(2)).build();
    act(&mut g, FRANK, Action::Card(Card::Porticus));
    let options = legal(&g, FRANK);
    assert_eq!(options.len(), 16);
    assert!(!options.contains(&Action::Passage([9, 13])));
    act(&mut g, FRANK, Action::Passage([2, 4]));
    assert_eq!(g.door(), [2, 4]);
    assert_eq!(points(&g, FRANK), 1);
    act(&mut g, ALEX, Action::Card(Card::Severus));
    act(&mut g, ALEX, Action::Room(6));
    act(&mut g, ALEX, Action::Stop);
    act(&mut g, ANI, Action::Card(Card::Josua));
    assert_eq!(legal(&g, ANI), vec![Action::Room(1), Action::Room(10)]);
}

#[test]
fn s6_anis_remigius_scores_7_for_ani_and_2_for_frank() {
    let mut g = Scenario::new(3)
        .remigius(1)
        .vitus(Place::Room(3))
        .severus(7)
        .book(10, 1, ANI, false)
        .ring(10, 1, 1, ANI, Ring::X, false)
        .ring(10, 1, 2, ANI, Ring::X, false)
        .ring(10, 1, 3, FRANK, Ring::X, false)
        .chalice(10, 1, ALEX, true)
        .build();
    act(&mut g, ANI, Action::Card(Card::Remigius));
    assert_eq!(legal(&g, ANI), rooms(&[2, 11]), "room 3 is Vitus's");
    act(&mut g, ANI, Action::Room(2));
    assert_eq!(legal(&g, ANI), vec![Action::Room(4), Action::Room(10), Action::Stop]);
    act(&mut g, ANI, Action::Room(10));
    assert_eq!(g.remigius(), Some(10));
    assert_eq!(g.vitus(), Some(Place::Room(1)));
    assert_eq!([points(&g, ANI), points(&g, FRANK), points(&g, ALEX)], [7, 2, 0]);
    let room = g.spaces(10).expect("room 10");
    assert!(room.books[0].expect("Ani's book").scored);
    let sides: Vec<bool> = room.areas[0].iter().flatten().map(|p| p.scored).collect();
    assert_eq!(sides, vec![true, false, true], "Ani flips exactly one ring, Frank his only one");
    assert!(room.chalices[0].expect("Alex's chalice").scored);
}

#[test]
fn s7_anis_severus_blocks_franks_remigius() {
    let mut g =
        Scenario::new(3).severus(4).door(5, 6).remigius(12).vitus(Place::Room(9)).chalice(13, 1, FRANK, false).build();
    act(&mut g, ANI, Action::Card(Card::Severus));
    assert_eq!(legal(&g, ANI), rooms(&[2, 6, 13]));
    act(&mut g, ANI, Action::Room(13));
    act(&mut g, ANI, Action::Stop);
    assert_eq!(points(&g, ANI), 1);
    act(&mut g, FRANK, Action::Card(Card::Remigius));
    assert_eq!(legal(&g, FRANK), rooms(&[13]), "9 is Vitus's room");
    act(&mut g, FRANK, Action::Room(13));
    assert_eq!(legal(&g, FRANK), vec![Action::Room(4), Action::Room(8), Action::Stop]);
    act(&mut g, FRANK, Action::Stop);
    assert_eq!(g.remigius(), Some(13));
    assert_eq!(g.vitus(), Some(Place::Room(12)));
    assert_eq!([points(&g, ANI), points(&g, FRANK), points(&g, ALEX)], [1, 0, 0]);
    assert!(!g.spaces(13).expect("room 13").chalices[0].expect("Frank's chalice").scored);
}

fn stephanus_scenario() -> secret_treasures::SecretTreasures {
    Scenario::new(3)
        .token(ANI, Place::Room(5))
        .token(FRANK, Place::Room(6))
        .severus(6)
        .remigius(6)
        .vitus(Place::Room(7))
        .token(ALEX, Place::Storehouse(3))
        .storehouse(3, vec![])
        .build()
}

#[test]
fn s8_anis_stephanus_scores_the_three_other_characters() {
    let mut g = stephanus_scenario();
    act(&mut g, ANI, Action::Card(Card::Stephanus));
    assert_eq!(legal(&g, ANI), rooms(&[3, 6]));
    act(&mut g, ANI, Action::Room(6));
    assert_eq!(legal(&g, ANI), vec![Action::Room(4), Action::Room(7), Action::Stop]);
    act(&mut g, ANI, Action::Stop);
    assert_eq!(points(&g, ANI), 3);
    assert_eq!(g.score(ANI).stephanus, 3);

    let mut control = stephanus_scenario();
    act(&mut control, ANI, Action::Card(Card::Stephanus));
    act(&mut control, ANI, Action::Room(6));
    act(&mut control, ANI, Action::Room(7));
    assert_eq!(points(&control, ANI), 1, "only Vitus in room 7");
}

#[test]
fn s9_setup_stocks_one_chalice_per_storehouse_and_the_right_players_place() {
    let g = setup_with(3, &Options::default(), 5, ANI, vec![Kind::Chalice, Kind::Chalice, Kind::Book, Kind::X])
        .expect("setup");
    assert_eq!(g.storehouse(1), [Kind::Chalice, Kind::Book, Kind::X]);
    let events: Vec<_> = g.setup_events().into_iter().map(|e| e.event).collect();
    use secret_treasures::Event::*;
    assert_eq!(
        events[1..5],
        [
            TileDrawn { storehouse: 1, tile: Kind::Chalice },
            ChaliceSetAside { storehouse: 1 },
            TileDrawn { storehouse: 1, tile: Kind::Book },
            TileDrawn { storehouse: 1, tile: Kind::X },
        ]
    );
    // 87 tiles after S1 (90 − 3); 69 after all 21 boxes; the set-aside chalice is back in the bag.
    assert_eq!(g.bag().total(), 69);
    let harbor_chalices: usize = (1..=6).map(|i| g.storehouse(i).iter().filter(|k| **k == Kind::Chalice).count()).sum();
    assert_eq!(g.bag().chalice as usize + harbor_chalices, 13);
    for i in 1..=6 {
        assert!(g.storehouse(i).iter().filter(|k| **k == Kind::Chalice).count() <= 1);
        assert_eq!(g.storehouse(i).len(), [3, 3, 3, 4, 4, 4][usize::from(i) - 1]);
    }

    let mut g = g;
    assert_eq!(*g.phase(), Phase::PlaceRemigius { seat: ALEX });
    act(&mut g, ALEX, Action::Room(4));
    assert_eq!(*g.phase(), Phase::PlaceVitus { seat: FRANK });
    assert_eq!(legal(&g, FRANK), rooms(&[2, 6, 13]));
    act(&mut g, FRANK, Action::Room(13));
    assert_eq!(*g.phase(), Phase::PlaceSeverus { seat: ANI });
    act(&mut g, ANI, Action::Room(13));
    assert_eq!((g.remigius(), g.vitus(), g.severus()), (Some(4), Some(Place::Room(13)), Some(13)));
    assert_eq!(*g.phase(), Phase::ChooseRings { seat: ANI });

    let mut two = setup_with(2, &Options::default(), 5, ANI, vec![]).expect("setup");
    assert_eq!(*two.phase(), Phase::PlaceRemigius { seat: FRANK });
    act(&mut two, FRANK, Action::Room(1));
    assert_eq!(*two.phase(), Phase::PlaceVitus { seat: ANI });
    act(&mut two, ANI, Action::Room(2));
    assert_eq!(*two.phase(), Phase::PlaceSeverus { seat: FRANK });
}

/// A 3-player game set up with the first-game placement and everyone's rings chosen (single Z).
fn first_round_game() -> secret_treasures::SecretTreasures {
    let options = Options { first_game_placement: true, ..Options::default() };
    let mut g = setup_with(3, &options, 9, ANI, vec![]).expect("setup");
    for seat in [ANI, FRANK, ALEX] {
        act(&mut g, seat, Action::Single(Ring::Z));
    }
    g
}

#[test]
fn s10_the_first_round_is_simultaneous_and_hidden_then_resolves_in_turn_order() {
    let mut g = first_round_game();
    assert_eq!(g.stock(ANI), Pieces::new(0, 0, 2, 2, 1));
    assert_eq!(g.to_act(), vec![ANI, FRANK, ALEX]);
    act(&mut g, ANI, Action::Card(Card::Lucas));
    act(&mut g, FRANK, Action::Card(Card::Lucas));
    assert_eq!(g.to_act(), vec![ALEX]);
    let view = g.view(Viewer::Seat(ALEX));
    assert!(view.seats[ANI].has_chosen && view.seats[FRANK].has_chosen && !view.seats[ALEX].has_chosen);
    assert_eq!(view.my_choice, None);
    assert_eq!(view.seats[ANI].pile_top, None);
    assert_eq!(view.seats[ANI].hand_size, 9);
    assert_eq!(g.view(Viewer::Seat(ANI)).my_choice, Some(Card::Lucas));
    act(&mut g, ALEX, Action::Card(Card::Bells));

    assert_eq!(
        *g.phase(),
        Phase::Turn { seat: ANI, step: Step::Move { card: Card::Lucas, steps: 0, visited: vec![] } }
    );
    assert_eq!(legal(&g, ANI), rooms(&[1]));
    acts(&mut g, ANI, &[Action::Room(1), Action::Stop, Action::Stop]);
    assert_eq!(legal(&g, FRANK), rooms(&[1]));
    let bag = g.bag().total();
    acts(&mut g, FRANK, &[Action::Room(1), Action::Stop, Action::Stop]);
    // Alex's Bells resolved by itself: no previous card, so no tiles.
    assert_eq!(g.bag().total(), bag);
    assert!(g.pile(ALEX).is_empty());
    assert_eq!(g.hand(ALEX).len(), 10);
    assert_eq!(g.round(), 2);

    let cards = |g: &secret_treasures::SecretTreasures, seat| -> Vec<Card> {
        legal(g, seat).into_iter().filter_map(|a| if let Action::Card(c) = a { Some(c) } else { None }).collect()
    };
    assert_eq!(cards(&g, ANI).len(), 9);
    assert!(!cards(&g, ANI).contains(&Card::Lucas));
    acts(&mut g, ANI, &[Action::Card(Card::Josua), Action::Room(2), Action::Stop, Action::Stop]);
    assert_eq!(cards(&g, FRANK).len(), 8);
    assert!(!cards(&g, FRANK).contains(&Card::Josua));
    acts(&mut g, FRANK, &[Action::Card(Card::Severus), Action::Room(8), Action::Stop]);
    let alex = cards(&g, ALEX);
    assert_eq!(alex.len(), 8);
    assert!(!alex.contains(&Card::Josua) && !alex.contains(&Card::Severus));
    assert!(alex.contains(&Card::Lucas), "Lucas is no longer on top of any pile");
}

#[test]
fn s11_the_two_player_game_has_60_tiles_and_raphael_reveals_from_round_2() {
    for (stephanus, deck) in [(true, 19), (false, 17)] {
        let options = Options { stephanus, ..Options::default() };
        let mut g = setup_with(2, &options, 3, ANI, vec![]).expect("setup");
        assert_eq!(g.bag().total(), 39);
        let mut all = g.bag();
        for i in 1..=6 {
            for t in g.storehouse(i) {
                all.add(*t);
            }
        }
        assert_eq!(all, Pieces::new(9, 12, 13, 13, 13));
        let raphael = g.raphael().expect("Raphael plays");
        assert_eq!((raphael.deck.len(), raphael.display.len()), (deck, 0));
        let mut cards = raphael.deck.clone();
        cards.sort_unstable();
        let mut expected: Vec<Card> =
            g.hand(ANI).iter().filter(|c| **c != Card::Bells).flat_map(|c| [*c, *c]).collect();
        expected.push(Card::Bells);
        assert_eq!(cards, expected, "2 of each character in play and 1 Bells");
        assert_eq!(g.hand(ANI).len(), deck / 2 + 1);

        // Setup decisions, then round 1 (no reveal), then round 2 (a reveal).
        act(&mut g, FRANK, Action::Room(1));
        act(&mut g, ANI, Action::Room(2));
        act(&mut g, FRANK, Action::Room(7));
        act(&mut g, ANI, Action::Single(Ring::X));
        act(&mut g, FRANK, Action::Single(Ring::Y));
        act(&mut g, ANI, Action::Card(Card::Porticus));
        act(&mut g, FRANK, Action::Card(Card::Porticus));
        act(&mut g, ANI, Action::Passage([1, 2]));
        act(&mut g, FRANK, Action::Passage([1, 3]));
        assert_eq!(g.round(), 2);
        assert!(g.raphael().expect("Raphael").display.is_empty(), "no reveal after round 1");
        acts(&mut g, ANI, &[Action::Card(Card::Severus), Action::Room(6), Action::Stop]);
        acts(&mut g, FRANK, &[Action::Card(Card::Maria), Action::Storehouse(1)]);
        let raphael = g.raphael().expect("Raphael");
        let top = raphael.top().expect("a revealed card");
        assert_ne!(top, Card::Bells);
        assert!(top != Card::Severus && top != Card::Maria, "Raphael's top differs from both tops");
        assert_eq!(raphael.deck.len() + raphael.display.len(), deck);
        assert!(!legal(&g, ANI).contains(&Action::Card(top)) || g.at_harbor(ANI));
    }
}
