//! The spec's decision points and section 5 rulings that the worked examples do not reach: setup
//! placements and ring choices, the Bells numbers, replenishment corner cases, deliveries,
//! Benjamin's feasibility test, Remigius's flips, Stephanus, Severus, and the 13-room trigger.

mod common;

use common::*;
use game_core::{Game, Seat};
use secret_treasures::state::Trigger;
use secret_treasures::testing::{setup_with, Scenario};
use secret_treasures::{board, Action, Card, Kind, Options, Phase, Pieces, Place, Portal, Ring, SecretTreasures};

#[test]
fn d1_to_d3_remigius_and_severus_anywhere_vitus_next_door_even_behind_the_door() {
    let mut g = setup_with(3, &Options::default(), 7, ANI, vec![]).expect("setup");
    assert_eq!(legal(&g, ALEX), rooms(&(1..=13).collect::<Vec<_>>()));
    assert!(legal(&g, ANI).is_empty() && legal(&g, FRANK).is_empty());
    act(&mut g, ALEX, Action::Room(13));
    // 9–13 holds the door, but Vitus may still be placed in 9.
    assert_eq!(legal(&g, FRANK), rooms(&[4, 8, 9, 12]));
    assert!(g.apply(FRANK, &Action::Room(13)).is_err(), "not in Remigius's own room");
    act(&mut g, FRANK, Action::Room(9));
    assert_eq!(legal(&g, ANI), rooms(&(1..=13).collect::<Vec<_>>()));
    act(&mut g, ANI, Action::Room(9));
    assert_eq!((g.remigius(), g.vitus(), g.severus()), (Some(13), Some(Place::Room(9)), Some(9)));

    // 4 and 5 players: the three seats to the start player's right, in turn.
    let mut four = setup_with(4, &Options::default(), 7, FRANK, vec![]).expect("setup");
    assert_eq!(*four.phase(), Phase::PlaceRemigius { seat: ANI });
    act(&mut four, ANI, Action::Room(1));
    assert_eq!(*four.phase(), Phase::PlaceVitus { seat: Seat(3) });
    act(&mut four, Seat(3), Action::Room(2));
    assert_eq!(*four.phase(), Phase::PlaceSeverus { seat: ALEX });
    let five = setup_with(5, &Options::default(), 7, Seat(0), vec![]).expect("setup");
    assert_eq!(*five.phase(), Phase::PlaceRemigius { seat: Seat(4) });
}

#[test]
fn d4_each_player_chooses_his_single_ring_clockwise_from_the_start_player() {
    let options = Options { first_game_placement: true, ..Options::default() };
    let mut g = setup_with(3, &options, 7, FRANK, vec![]).expect("setup");
    assert_eq!(*g.phase(), Phase::ChooseRings { seat: FRANK });
    assert_eq!(legal(&g, FRANK), vec![Action::Single(Ring::X), Action::Single(Ring::Y), Action::Single(Ring::Z)]);
    act(&mut g, FRANK, Action::Single(Ring::Y));
    assert_eq!(*g.phase(), Phase::ChooseRings { seat: ALEX });
    act(&mut g, ALEX, Action::Single(Ring::X));
    assert_eq!(*g.phase(), Phase::ChooseRings { seat: ANI });
    act(&mut g, ANI, Action::Single(Ring::Z));
    assert_eq!(*g.phase(), Phase::FirstRound);
    assert_eq!(g.to_act(), vec![ANI, FRANK, ALEX]);
    assert_eq!(g.stock(FRANK), Pieces::new(0, 0, 2, 1, 2));
    assert_eq!(g.reserve(FRANK), Pieces::new(5, 6, 5, 6, 5));
    assert_eq!(g.stock(ALEX), Pieces::new(0, 0, 1, 2, 2));
    assert_eq!(g.stock(ANI), Pieces::new(0, 0, 2, 2, 1));
    assert_eq!(g.reserve(ANI), Pieces::new(5, 6, 5, 5, 6));
}

#[test]
fn the_start_player_is_drawn_from_every_seat() {
    let mut seen = [false; 4];
    for seed in 0..64 {
        let g = SecretTreasures::setup(4, &Options::default(), game_core::Seed::from_u64(seed)).expect("setup");
        seen[g.start_player().index()] = true;
        assert_eq!(*g.phase(), Phase::PlaceRemigius { seat: g.start_player().next(4, 3) });
    }
    assert_eq!(seen, [true; 4]);
}

/// Ani's turn with every storehouse empty and `pile` on her pile.
fn empty_harbor(pile: Vec<Card>) -> Scenario {
    let mut s = Scenario::new(3).pile(ANI, pile);
    for i in 1..=6 {
        s = s.storehouse(i, vec![]);
    }
    s
}

fn harbor_total(g: &SecretTreasures) -> usize {
    (1..=6).map(|i| g.storehouse(i).len()).sum()
}

#[test]
fn the_bells_bring_the_number_of_the_card_played_before_it() {
    let numbers = [
        (Card::Anselmus, 3),
        (Card::Josua, 4),
        (Card::Lucas, 5),
        (Card::Benjamin, 5),
        (Card::Maria, 2),
        (Card::Stephanus, 4),
        (Card::Porticus, 5),
        (Card::Remigius, 3),
        (Card::Severus, 6),
    ];
    for (card, n) in numbers {
        // Only the top card counts, not the one buried under it.
        let buried = if card == Card::Maria { Card::Severus } else { Card::Maria };
        let mut g = empty_harbor(vec![buried, card]).build();
        let bag = g.bag().total();
        act(&mut g, ANI, Action::Card(Card::Bells));
        assert_eq!(harbor_total(&g), n, "after {card:?}");
        assert_eq!(g.bag().total(), bag - n as u32, "after {card:?}");
        assert!(g.pile(ANI).is_empty());
        assert_eq!(g.hand(ANI).len(), 10);
    }
}

#[test]
fn r1_the_bells_right_after_the_bells_bring_nothing() {
    // Ani's pile is empty: her previous card was The Bells.
    let mut g = empty_harbor(vec![]).build();
    let bag = g.bag();
    act(&mut g, ANI, Action::Card(Card::Bells));
    assert_eq!(harbor_total(&g), 0);
    assert_eq!(g.bag(), bag);
    assert_eq!(g.trigger(), None);
    assert!(choosing_card(&g, FRANK));
}

#[test]
fn a1_chalices_placed_earlier_in_the_same_replenishment_count() {
    let mut g = empty_harbor(vec![Card::Severus])
        .storehouse(2, vec![Kind::Chalice])
        .draws(vec![Kind::Chalice, Kind::Chalice, Kind::X, Kind::Chalice, Kind::Y, Kind::Z])
        .build();
    act(&mut g, ANI, Action::Card(Card::Bells));
    // Chalice → S1; the next chalice starts at S2 (a chalice) and goes on to S3; X → S4;
    // chalice → S5; Y → S6; Z wraps round to S1.
    assert_eq!(g.storehouse(1), [Kind::Chalice, Kind::Z]);
    assert_eq!(g.storehouse(2), [Kind::Chalice]);
    assert_eq!(g.storehouse(3), [Kind::Chalice]);
    assert_eq!(g.storehouse(4), [Kind::X]);
    assert_eq!(g.storehouse(5), [Kind::Chalice]);
    assert_eq!(g.storehouse(6), [Kind::Y]);

    // Only S1 has free boxes: the chalice placed there this time turns the second one away.
    let mut s = Scenario::new(3).pile(ANI, vec![Card::Anselmus]).storehouse(1, vec![]);
    for i in 2..=6 {
        s = s.storehouse(
            i,
            if i <= 3 { vec![Kind::X, Kind::Y, Kind::Z] } else { vec![Kind::X, Kind::Y, Kind::Z, Kind::Book] },
        );
    }
    let mut g = s.draws(vec![Kind::Chalice, Kind::Chalice, Kind::X, Kind::Y]).build();
    let removed = g.removed();
    act(&mut g, ANI, Action::Card(Card::Bells));
    assert_eq!(g.storehouse(1), [Kind::Chalice, Kind::X, Kind::Y], "N = 3 counts only placed tiles");
    assert_eq!(g.removed().chalice, removed.chalice + 1);
}

#[test]
fn r3_full_storehouses_are_skipped_and_the_pointer_wraps_round() {
    // N = 5 (Lucas). Only S2 (Frank waiting) and S4 (Alex waiting) have free boxes.
    let mut g = Scenario::new(3)
        .pile(ANI, vec![Card::Lucas])
        .storehouse(1, vec![Kind::X, Kind::Y, Kind::Z])
        .storehouse(2, vec![])
        .storehouse(3, vec![Kind::Book, Kind::X, Kind::Y])
        .storehouse(4, vec![])
        .storehouse(5, vec![Kind::X, Kind::Y, Kind::Z, Kind::Book])
        .storehouse(6, vec![Kind::X, Kind::Y, Kind::Z, Kind::Chalice])
        .token(FRANK, Place::Storehouse(2))
        .token(ALEX, Place::Storehouse(4))
        .draws(vec![Kind::Book, Kind::X, Kind::Y, Kind::Z, Kind::X])
        .build();
    let (frank, alex) = (g.stock(FRANK), g.stock(ALEX));
    let (bag, removed) = (g.bag().total(), g.removed().total());
    act(&mut g, ANI, Action::Card(Card::Bells));
    // Book → S2, X → S4, Y → S2 (S5, S6, S1 full), Z → S4, X → S2; then each receives his own.
    assert_eq!(g.stock(FRANK), Pieces::new(0, frank.book + 1, frank.x + 1, frank.y + 1, frank.z));
    assert_eq!(g.stock(ALEX), Pieces::new(0, 0, alex.x + 1, alex.y, alex.z + 1));
    assert!(g.storehouse(2).is_empty() && g.storehouse(4).is_empty());
    assert_eq!(g.bag().total(), bag - 5);
    assert_eq!(g.removed().total(), removed + 5);
    assert_eq!((g.token(FRANK), g.token(ALEX)), (Some(Place::Storehouse(2)), Some(Place::Storehouse(4))));
    assert_eq!(g.trigger(), None);
}

#[test]
fn r3_once_every_box_is_full_the_rest_of_the_bells_number_is_forfeited() {
    let mut s = Scenario::new(3).pile(ANI, vec![Card::Severus]);
    for i in 1..=6 {
        let mut tiles = vec![Kind::X, Kind::Y, Kind::Z];
        if i >= 4 {
            tiles.push(Kind::Book);
        }
        if i == 6 {
            tiles.pop();
        }
        s = s.storehouse(i, tiles);
    }
    let mut g = s.build();
    let bag = g.bag().total();
    act(&mut g, ANI, Action::Card(Card::Bells));
    assert_eq!(g.bag().total(), bag - 1, "one box was free: 1 of the 6 tiles arrives");
    assert_eq!(harbor_total(&g), 21);
    assert_eq!(g.trigger(), None);
}

#[test]
fn r8_leaving_the_harbor_by_the_main_portal_leads_into_room_1() {
    let mut g = Scenario::new(3).token(ANI, Place::Storehouse(4)).storehouse(4, vec![]).build();
    assert_eq!(legal(&g, ANI), vec![Action::Portal(Portal::Main), Action::Portal(Portal::Side)]);
    act(&mut g, ANI, Action::Portal(Portal::Main));
    assert_eq!(g.token(ANI), Some(Place::Portal(Portal::Main)));
    assert!(choosing_card(&g, ANI));
    act(&mut g, ANI, Action::Card(Card::Josua));
    assert_eq!(legal(&g, ANI), rooms(&[1]), "the first step enters the portal's room; no Stop");
    act(&mut g, ANI, Action::Room(1));
    assert_eq!(legal(&g, ANI), vec![Action::Room(2), Action::Room(3), Action::Room(11), Action::Stop]);
}

#[test]
fn r8_porticus_from_the_harbor_leaves_the_token_at_the_chosen_portal() {
    let mut g = Scenario::new(3).token(ANI, Place::Storehouse(4)).storehouse(4, vec![]).build();
    acts(&mut g, ANI, &[Action::Portal(Portal::Side), Action::Card(Card::Porticus), Action::Passage([1, 2])]);
    assert_eq!(g.token(ANI), Some(Place::Portal(Portal::Side)));
    assert_eq!(g.door(), [1, 2]);
    assert_eq!(g.score(ANI).porticus, 1);
    assert!(choosing_card(&g, FRANK));
}

#[test]
fn monks_are_offered_only_free_spaces_of_the_kinds_in_their_stock() {
    // Room 2: one chalice space (taken by Frank), one book space, one ring area of 3.
    let mut g = Scenario::new(3)
        .token(ANI, Place::Room(1))
        .stock(ANI, Pieces::new(1, 1, 0, 0, 1))
        .chalice(2, 1, FRANK, false)
        .build();
    act(&mut g, ANI, Action::Card(Card::Anselmus));
    act(&mut g, ANI, Action::Room(2));
    assert_eq!(legal(&g, ANI), vec![Action::StashBook, Action::StashRing { ring: Ring::Z, area: 1 }, Action::Stop]);
    act(&mut g, ANI, Action::StashBook);
    assert_eq!(legal(&g, ANI), vec![Action::StashRing { ring: Ring::Z, area: 1 }, Action::Stop]);
    act(&mut g, ANI, Action::StashRing { ring: Ring::Z, area: 1 });
    // Nothing left that fits: D9 is skipped, the turn is over after 2 of 3 stashes.
    assert!(choosing_card(&g, FRANK));
    assert_eq!(g.stock(ANI), Pieces::new(1, 0, 0, 0, 0));
    let room = g.spaces(2).expect("room 2");
    assert_eq!(room.books[0].map(|p| (p.owner, p.kind, p.scored)), Some((ANI, Kind::Book, false)));
    assert_eq!(room.areas[0][0].map(|p| (p.owner, p.kind, p.scored)), Some((ANI, Kind::Z, false)));

    // Lucas stashes at most 1, and may stash nothing.
    let mut g = Scenario::new(3).token(ANI, Place::Room(1)).build();
    acts(&mut g, ANI, &[Action::Card(Card::Lucas), Action::Room(3), Action::Stop]);
    act(&mut g, ANI, Action::StashRing { ring: Ring::X, area: 2 });
    assert!(choosing_card(&g, FRANK));
    assert_eq!(g.stock(ANI), Pieces::new(0, 0, 1, 2, 1));
    let mut g = Scenario::new(3).token(ANI, Place::Room(1)).build();
    acts(&mut g, ANI, &[Action::Card(Card::Lucas), Action::Room(3), Action::Room(5), Action::Room(6)]);
    assert_eq!(legal(&g, ANI).last(), Some(&Action::Stop), "the move ended after 3 steps; D9 follows");
    act(&mut g, ANI, Action::Stop);
    assert_eq!(g.rooms_of(ANI), 0);
    assert!(choosing_card(&g, FRANK));
}

#[test]
fn benjamin_is_not_offered_a_ring_he_could_not_stash_in_time() {
    // Two steps made (6 → 5 → 3), one left. Room 3's neighbours: 1 (Severus) and 5 (its only area
    // full of X). Frank's Y in 3.a1 could go nowhere.
    let blocked = Scenario::new(3)
        .token(ANI, Place::Room(6))
        .severus(1)
        .ring(3, 1, 1, FRANK, Ring::Y, false)
        .ring(5, 1, 1, ALEX, Ring::X, true)
        .ring(5, 1, 2, ALEX, Ring::X, true)
        .build();
    let mut g = blocked.clone();
    acts(&mut g, ANI, &[Action::Card(Card::Benjamin), Action::Room(5), Action::Room(3)]);
    assert_eq!(legal(&g, ANI), vec![Action::Room(1), Action::Room(5), Action::Stop]);

    // With a free space in room 5 the same pick-up is offered, and only room 5 is listed after it.
    let mut g = Scenario::new(3).token(ANI, Place::Room(6)).severus(1).ring(3, 1, 1, FRANK, Ring::Y, false).build();
    acts(&mut g, ANI, &[Action::Card(Card::Benjamin), Action::Room(5), Action::Room(3)]);
    let pickup = Action::Pickup { owner: FRANK, ring: Ring::Y, area: 1 };
    assert_eq!(legal(&g, ANI), vec![Action::Room(1), Action::Room(5), pickup, Action::Stop]);
    act(&mut g, ANI, pickup);
    assert_eq!(legal(&g, ANI), rooms(&[5]), "room 1 holds Severus; no Stop while carrying");
    act(&mut g, ANI, Action::Room(5));
    assert_eq!(legal(&g, ANI), vec![Action::Stash { area: 1 }]);
    act(&mut g, ANI, Action::Stash { area: 1 });
    assert!(choosing_card(&g, FRANK), "3 steps made and the ring stashed: the turn is over");
    assert_eq!(
        g.spaces(5).expect("room 5").areas[0][0].map(|p| (p.owner, p.kind, p.scored)),
        Some((FRANK, Kind::Y, false))
    );
}

#[test]
fn benjamin_takes_only_unscored_rings_may_take_his_own_and_picks_up_once() {
    let mut g = Scenario::new(3)
        .token(ANI, Place::Room(11))
        .ring(11, 1, 1, FRANK, Ring::X, true)
        .ring(11, 1, 2, ANI, Ring::X, false)
        .ring(11, 2, 1, ALEX, Ring::Z, false)
        .build();
    act(&mut g, ANI, Action::Card(Card::Benjamin));
    let own = Action::Pickup { owner: ANI, ring: Ring::X, area: 1 };
    let alexs = Action::Pickup { owner: ALEX, ring: Ring::Z, area: 2 };
    assert_eq!(legal(&g, ANI), vec![Action::Room(1), Action::Room(10), own, alexs], "no Stop before a step");
    act(&mut g, ANI, own);
    act(&mut g, ANI, Action::Room(10));
    act(&mut g, ANI, Action::Stash { area: 1 });
    // Back in room 11 after stashing: Alex's ring is there but a second pick-up is not allowed.
    act(&mut g, ANI, Action::Room(11));
    assert_eq!(legal(&g, ANI), vec![Action::Room(1), Action::Room(10), Action::Stop]);
    let room = g.spaces(11).expect("room 11");
    assert_eq!(room.areas[0][0].map(|p| (p.owner, p.scored)), Some((FRANK, true)), "the scored ring stays");
    assert_eq!(room.areas[0][1], None);
    assert_eq!(g.spaces(10).expect("room 10").areas[0][0].map(|p| (p.owner, p.kind)), Some((ANI, Kind::X)));
}

#[test]
fn remigius_pays_unscored_pieces_only_and_flips_the_lowest_unscored_ring() {
    let mut g = Scenario::new(3)
        .remigius(2)
        .vitus(Place::Room(1))
        .ring(10, 1, 1, ANI, Ring::X, true)
        .ring(10, 1, 2, ANI, Ring::X, false)
        .ring(10, 1, 3, ANI, Ring::X, false)
        .chalice(10, 1, FRANK, false)
        .book(10, 1, FRANK, true)
        .book(10, 2, FRANK, false)
        .build();
    acts(&mut g, ANI, &[Action::Card(Card::Remigius), Action::Room(10), Action::Stop]);
    assert_eq!(g.score(ANI).remigius, 4);
    assert_eq!(g.score(FRANK).remigius, 8);
    let room = g.spaces(10).expect("room 10");
    let sides: Vec<bool> = room.areas[0].iter().flatten().map(|p| p.scored).collect();
    assert_eq!(sides, vec![true, true, false]);
    assert!(room.chalices[0].expect("chalice").scored && room.books.iter().flatten().all(|p| p.scored));
    assert_eq!((g.remigius(), g.vitus()), (Some(10), Some(Place::Room(2))));
}

#[test]
fn stephanus_counts_every_other_token_and_figure_but_not_his_own_token() {
    let mut g = Scenario::new(4)
        .token(ANI, Place::Room(3))
        .token(FRANK, Place::Room(1))
        .token(ALEX, Place::Room(1))
        .token(Seat(3), Place::Room(2))
        .remigius(1)
        .vitus(Place::Room(2))
        .severus(11)
        .build();
    act(&mut g, ANI, Action::Card(Card::Stephanus));
    act(&mut g, ANI, Action::Room(1));
    act(&mut g, ANI, Action::Stop);
    assert_eq!(g.score(ANI).stephanus, 3, "Frank, Alex and Remigius");
    let mut alone = Scenario::new(3).token(ANI, Place::Room(3)).build();
    acts(&mut alone, ANI, &[Action::Card(Card::Stephanus), Action::Room(1), Action::Stop]);
    assert_eq!(points(&alone, ANI), 0);
}

#[test]
fn severus_moves_up_to_three_rooms_never_back_and_scores_one() {
    let mut g = Scenario::new(3).severus(6).build();
    act(&mut g, ANI, Action::Card(Card::Severus));
    assert_eq!(legal(&g, ANI), rooms(&[4, 5, 7]));
    act(&mut g, ANI, Action::Room(5));
    assert_eq!(legal(&g, ANI), vec![Action::Room(3), Action::Stop]);
    act(&mut g, ANI, Action::Room(3));
    assert_eq!(legal(&g, ANI), vec![Action::Room(1), Action::Stop]);
    act(&mut g, ANI, Action::Room(1));
    assert_eq!(g.severus(), Some(1));
    assert_eq!(g.score(ANI).severus, 1);
    assert!(choosing_card(&g, FRANK), "the move ended by itself after 3 rooms");
}

/// Ani owns pieces in rooms 1–12 and a second ring (Z) in room 8's second area.
fn twelve_rooms_and_a_spare() -> Scenario {
    let mut s = Scenario::new(3).severus(5).remigius(3).vitus(Place::Room(1));
    for room in 1..=6 {
        s = s.book(room, 1, ANI, false);
    }
    for room in 7..=11 {
        s = s.ring(room, 1, 1, ANI, Ring::X, false);
    }
    s.ring(12, 1, 1, ANI, Ring::Y, false).ring(8, 2, 1, ANI, Ring::Z, false)
}

#[test]
fn r11_the_13_room_trigger_is_checked_only_for_the_active_player_at_the_end_of_his_turn() {
    let mut g = twelve_rooms_and_a_spare().active(FRANK).token(FRANK, Place::Room(8)).build();
    act(&mut g, FRANK, Action::Card(Card::Benjamin));
    act(&mut g, FRANK, Action::Pickup { owner: ANI, ring: Ring::Z, area: 2 });
    acts(&mut g, FRANK, &[Action::Room(13), Action::Stash { area: 1 }, Action::Stop]);
    assert_eq!(g.rooms_of(ANI), 13, "Frank's Benjamin carried Ani's ring into her 13th room");
    assert_eq!(g.trigger(), None, "the trigger is for the active player only");
    acts(&mut g, ALEX, &[Action::Card(Card::Porticus), Action::Passage([1, 2])]);
    assert_eq!(g.trigger(), None);
    acts(&mut g, ANI, &[Action::Card(Card::Severus), Action::Room(6), Action::Stop]);
    assert_eq!(g.trigger(), Some((ANI, Trigger::AllRooms)));
    assert_eq!(g.final_turns_left(), Some(3));
    // Frank, Alex, then Ani play once more; then the game is over.
    acts(&mut g, FRANK, &[Action::Card(Card::Maria), Action::Storehouse(1)]);
    assert_eq!(g.final_turns_left(), Some(2));
    act(&mut g, ALEX, Action::Card(Card::Bells));
    assert!(g.outcome().is_none());
    act(&mut g, ANI, Action::Card(Card::Bells));
    assert!(g.outcome().is_some());
}

#[test]
fn final_scoring_counts_only_unscored_rings_in_the_church_and_every_room_with_a_piece() {
    // Ani: unscored rings in 8 and 13 (church), a scored ring in 12, a chalice in 13, a ring in 1.
    let mut g = Scenario::new(3)
        .final_turns(1)
        .ring(8, 1, 1, ANI, Ring::X, false)
        .ring(8, 1, 2, ANI, Ring::X, false)
        .ring(13, 3, 1, ANI, Ring::Y, false)
        .ring(12, 1, 1, ANI, Ring::Z, true)
        .chalice(13, 1, ANI, false)
        .ring(1, 1, 1, ANI, Ring::Z, false)
        .ring(13, 1, 1, FRANK, Ring::Z, false)
        .build();
    acts(&mut g, ANI, &[Action::Card(Card::Porticus), Action::Passage([1, 2])]);
    let outcome = g.outcome().expect("over after the last final turn");
    assert_eq!((g.score(ANI).church, g.score(ANI).rooms), (6, 0), "3 unscored church rings; 4 rooms");
    assert_eq!((g.score(FRANK).church, g.score(FRANK).rooms), (2, 0));
    assert_eq!(outcome.scores, vec![7, 2, 0]);
    assert_eq!(outcome.ranks, vec![1, 2, 3]);
    assert_eq!(outcome.breakdown.len(), 6);
    let table: Vec<i64> = (0..=13).map(board::rooms_bonus).collect();
    assert_eq!(table, vec![0, 0, 0, 0, 0, 0, 0, 4, 5, 6, 8, 11, 15, 20]);
}

#[test]
fn two_player_final_turns_end_without_a_last_reveal() {
    // The end is triggered; Frank (seat 1) closes round and game: Raphael reveals nothing more.
    let mut g = Scenario::new(2)
        .raphael(vec![Card::Remigius, Card::Severus, Card::Porticus], vec![Card::Maria])
        .active(FRANK)
        .final_turns(1)
        .build();
    acts(&mut g, FRANK, &[Action::Card(Card::Porticus), Action::Passage([1, 2])]);
    assert!(g.outcome().is_some());
    assert_eq!(g.raphael().expect("Raphael").display, vec![Card::Maria]);
}

#[test]
fn round_1_resolves_in_turn_order_and_a_later_maria_avoids_an_occupied_storehouse() {
    let options = Options { first_game_placement: true, ..Options::default() };
    let mut g = setup_with(3, &options, 11, FRANK, vec![]).expect("setup");
    for seat in [FRANK, ALEX, ANI] {
        act(&mut g, seat, Action::Single(Ring::X));
    }
    // Chosen in any order; resolved from the start player (Frank), then Alex, then Ani.
    act(&mut g, ANI, Action::Card(Card::Benjamin));
    act(&mut g, ALEX, Action::Card(Card::Maria));
    assert_eq!(*g.phase(), Phase::FirstRound);
    act(&mut g, FRANK, Action::Card(Card::Maria));
    assert_eq!(g.to_act(), vec![FRANK]);
    assert_eq!(legal(&g, FRANK), (1..=6).map(Action::Storehouse).collect::<Vec<_>>());
    act(&mut g, FRANK, Action::Storehouse(3));
    assert_eq!(g.to_act(), vec![ALEX]);
    assert_eq!(legal(&g, ALEX), [1, 2, 4, 5, 6].map(Action::Storehouse).to_vec(), "Frank waits in S3");
    act(&mut g, ALEX, Action::Storehouse(1));
    assert_eq!(legal(&g, ANI), rooms(&[1]), "Benjamin enters through the main portal");
    acts(&mut g, ANI, &[Action::Room(1), Action::Room(2), Action::Stop]);
    // Round 2 starts with Frank leaving the harbor; Maria is on top of two piles.
    assert_eq!(g.round(), 2);
    assert_eq!(legal(&g, FRANK), vec![Action::Portal(Portal::Main), Action::Portal(Portal::Side)]);
    act(&mut g, FRANK, Action::Portal(Portal::Side));
    let cards: Vec<Action> = legal(&g, FRANK);
    assert!(!cards.contains(&Action::Card(Card::Benjamin)) && !cards.contains(&Action::Card(Card::Maria)));
    assert_eq!(cards.len(), 8, "Frank's 9 cards minus Ani's top Benjamin");
}
