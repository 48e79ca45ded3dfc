//! Rules beyond the worked examples: the door, forced crossings, Severus's eyes, the end triggers
//! and final turns, the final scoring, the harbor's edge cases, Raphael, options and the first game.

mod common;

use common::*;
use game_core::{Game, Seat, SetupError, Viewer};
use secret_treasures::state::Trigger;
use secret_treasures::testing::{setup_with, Scenario};
use secret_treasures::{Action, Card, Kind, Options, Phase, Pieces, Place, Ring, SecretTreasures};

#[test]
fn a_locked_door_stops_tokens_but_vitus_follows_through_it() {
    let mut g = Scenario::new(3).token(ANI, Place::Room(9)).remigius(13).vitus(Place::Room(8)).build();
    act(&mut g, ANI, Action::Card(Card::Lucas));
    assert_eq!(legal(&g, ANI), rooms(&[10, 12]), "9–13 holds the door");
    acts(&mut g, ANI, &[Action::Room(12), Action::Stop, Action::Stop]);
    act(&mut g, FRANK, Action::Card(Card::Remigius));
    assert_eq!(legal(&g, FRANK), rooms(&[4, 12]), "not 8 (Vitus), not 9 (door)");
    acts(&mut g, FRANK, &[Action::Room(4), Action::Stop]);
    assert_eq!((g.remigius(), g.vitus()), (Some(4), Some(Place::Room(13))));
}

#[test]
fn remigius_crosses_vituss_room_only_when_the_door_leaves_no_other_way() {
    let mut g = Scenario::new(3).remigius(3).vitus(Place::Room(1)).door(3, 5).severus(7).build();
    act(&mut g, ANI, Action::Card(Card::Remigius));
    assert_eq!(legal(&g, ANI), rooms(&[1]));
    act(&mut g, ANI, Action::Room(1));
    assert_eq!(legal(&g, ANI), rooms(&[2, 11]), "he may not stop in Vitus's room nor go back");
    act(&mut g, ANI, Action::Room(11));
    assert_eq!((g.remigius(), g.vitus()), (Some(11), Some(Place::Room(3))));
}

#[test]
fn severus_forbids_stashing_and_benjamin_in_his_room_but_not_entering_it() {
    let mut g = Scenario::new(3).token(ANI, Place::Room(2)).severus(4).build();
    act(&mut g, ANI, Action::Card(Card::Anselmus));
    act(&mut g, ANI, Action::Room(4));
    assert!(choosing_card(&g, FRANK), "nothing can be stashed under Severus's eyes: D9 was skipped");
    assert_eq!(g.stock(ANI), Pieces::new(0, 0, 2, 2, 1));

    let mut g = Scenario::new(3)
        .token(ANI, Place::Room(2))
        .severus(4)
        .ring(4, 1, 1, FRANK, Ring::X, false)
        .ring(1, 1, 1, FRANK, Ring::Y, false)
        .build();
    act(&mut g, ANI, Action::Card(Card::Benjamin));
    act(&mut g, ANI, Action::Room(4));
    assert!(legal(&g, ANI).iter().all(|a| !matches!(a, Action::Pickup { .. })));
    act(&mut g, ANI, Action::Room(2));
    act(&mut g, ANI, Action::Room(1));
    // Picked up in room 1 with no step left: no pick-up is offered, it could not be stashed.
    assert_eq!(g.token(ANI), Some(Place::Room(1)));
    assert!(choosing_card(&g, FRANK));
}

#[test]
fn benjamin_carrying_a_ring_may_cross_severuss_room_but_not_stash_there() {
    let mut g = Scenario::new(3).token(ANI, Place::Room(11)).severus(1).ring(11, 1, 1, FRANK, Ring::Z, false).build();
    act(&mut g, ANI, Action::Card(Card::Benjamin));
    act(&mut g, ANI, Action::Pickup { owner: FRANK, ring: Ring::Z, area: 1 });
    act(&mut g, ANI, Action::Room(1));
    let options = legal(&g, ANI);
    assert!(options.iter().all(|a| !matches!(a, Action::Stash { .. })), "{options:?}");
    act(&mut g, ANI, Action::Room(3));
    act(&mut g, ANI, Action::Stash { area: 1 });
    assert_eq!(g.spaces(3).expect("room 3").areas[0][0].map(|p| (p.owner, p.kind)), Some((FRANK, Kind::Z)));
}

#[test]
fn in_the_final_turns_benjamin_picks_up_only_his_own_rings() {
    let mut g = Scenario::new(3)
        .token(ANI, Place::Room(2))
        .ring(1, 1, 1, FRANK, Ring::X, false)
        .ring(1, 2, 1, ANI, Ring::Y, false)
        .final_turns(3)
        .build();
    act(&mut g, ANI, Action::Card(Card::Benjamin));
    act(&mut g, ANI, Action::Room(1));
    let pickups: Vec<Action> = legal(&g, ANI).into_iter().filter(|a| matches!(a, Action::Pickup { .. })).collect();
    assert_eq!(pickups, vec![Action::Pickup { owner: ANI, ring: Ring::Y, area: 2 }]);
}

#[test]
fn monks_never_go_back_and_anselmus_moves_exactly_one_room_then_stashes_three() {
    let mut g = Scenario::new(3).token(ANI, Place::Room(1)).stock(ANI, Pieces::new(1, 1, 2, 0, 0)).build();
    act(&mut g, ANI, Action::Card(Card::Anselmus));
    assert_eq!(legal(&g, ANI), rooms(&[2, 3, 11]), "no Stop before the first step");
    act(&mut g, ANI, Action::Room(2));
    assert_eq!(
        legal(&g, ANI),
        vec![Action::StashChalice, Action::StashBook, Action::StashRing { ring: Ring::X, area: 1 }, Action::Stop]
    );
    acts(&mut g, ANI, &[Action::StashChalice, Action::StashBook, Action::StashRing { ring: Ring::X, area: 1 }]);
    assert!(choosing_card(&g, FRANK));
    assert_eq!(g.stock(ANI), Pieces::new(0, 0, 1, 0, 0));
    assert_eq!(g.rooms_of(ANI), 1);

    act(&mut g, FRANK, Action::Card(Card::Lucas));
    acts(&mut g, FRANK, &[Action::Room(1), Action::Room(2)]);
    assert_eq!(legal(&g, FRANK), vec![Action::Room(4), Action::Room(10), Action::Stop], "room 1 was visited");
}

#[test]
fn marias_storehouse_may_be_empty_but_not_another_players_and_tiles_leave_even_without_a_valuable() {
    let mut g = Scenario::new(3)
        .token(FRANK, Place::Storehouse(3))
        .storehouse(1, vec![Kind::Chalice, Kind::Book, Kind::X])
        .stock(ANI, Pieces::new(5, 0, 2, 2, 1))
        .build();
    assert_eq!(g.reserve(ANI).chalice, 0);
    act(&mut g, ANI, Action::Card(Card::Maria));
    assert_eq!(legal(&g, ANI), [1, 2, 4, 5, 6].map(Action::Storehouse).to_vec());
    let removed = g.removed();
    act(&mut g, ANI, Action::Storehouse(1));
    assert_eq!(g.stock(ANI), Pieces::new(5, 1, 3, 2, 1), "no chalice left in the reserve");
    assert_eq!(g.removed(), Pieces::new(removed.chalice + 1, removed.book + 1, removed.x + 1, removed.y, removed.z));
}

/// Ani owns pieces in rooms 1–12 and stands in room 12.
fn twelve_rooms() -> SecretTreasures {
    let mut s = Scenario::new(3).token(ANI, Place::Room(12)).severus(5).remigius(3).vitus(Place::Room(1));
    for room in 1..=6 {
        s = s.book(room, 1, ANI, false);
    }
    for room in 7..=11 {
        s = s.ring(room, 1, 1, ANI, Ring::X, false);
    }
    s.ring(12, 1, 1, ANI, Ring::Y, false).build()
}

#[test]
fn owning_pieces_in_all_13_rooms_starts_one_last_turn_each_then_the_final_scoring() {
    let mut g = twelve_rooms();
    acts(&mut g, ANI, &[Action::Card(Card::Lucas), Action::Room(13), Action::Stop]);
    act(&mut g, ANI, Action::StashRing { ring: Ring::X, area: 1 });
    assert_eq!(g.trigger(), Some((ANI, Trigger::AllRooms)));
    assert_eq!(g.final_turns_left(), Some(3));
    acts(&mut g, FRANK, &[Action::Card(Card::Porticus), Action::Passage([1, 2])]);
    assert_eq!(g.final_turns_left(), Some(2));
    acts(&mut g, ALEX, &[Action::Card(Card::Severus), Action::Room(6), Action::Stop]);
    assert!(g.outcome().is_none());
    act(&mut g, ANI, Action::Card(Card::Bells));
    let outcome = g.outcome().expect("the game ended after Ani's last turn");
    // Ani: unscored rings in church rooms 8, 12, 13 (3 × 2) and 13 rooms (20).
    assert_eq!(g.score(ANI).church, 6);
    assert_eq!(g.score(ANI).rooms, 20);
    assert_eq!(outcome.scores, vec![26, 1, 1]);
    assert_eq!(outcome.winners, vec![ANI]);
    assert!(g.to_act().is_empty());
    assert_eq!(g.apply(FRANK, &Action::Stop), Err(game_core::RuleError::GameOver));
}

#[test]
fn the_rooms_table_and_a_shared_victory() {
    // Frank and Alex both in 7 rooms (4 each), Ani 1 for Porticus: the tie at the top shares the win.
    let mut s = Scenario::new(3).final_turns(1).severus(5);
    for room in 1..=7 {
        s = s.book(room, 1, FRANK, true);
    }
    for room in 1..=7 {
        s = s.ring(room, 1, 2, ALEX, Ring::Z, true);
    }
    let mut g = s.build();
    acts(&mut g, ANI, &[Action::Card(Card::Porticus), Action::Passage([1, 2])]);
    let outcome = g.outcome().expect("over");
    assert_eq!(outcome.scores, vec![1, 4, 4]);
    assert_eq!(outcome.winners, vec![FRANK, ALEX]);
    assert_eq!(outcome.ranks, vec![3, 1, 1]);
}

/// A scenario whose bag holds exactly `left` (books first, then rings X), with S1 empty.
fn small_bag(left: u8, full_harbor: bool) -> SecretTreasures {
    let s1 = if full_harbor { vec![Kind::X, Kind::Y, Kind::Z] } else { vec![] };
    let base = Scenario::new(3).pile(ANI, vec![Card::Anselmus]).storehouse(1, s1.clone()).build();
    let mut removed = base.bag();
    for _ in 0..left {
        removed.take(Kind::Book);
    }
    Scenario::new(3).pile(ANI, vec![Card::Anselmus]).storehouse(1, s1).removed(removed).build()
}

#[test]
fn the_bells_trigger_the_end_only_when_the_bag_runs_dry_with_tiles_owed_and_boxes_free() {
    let mut g = small_bag(1, false);
    act(&mut g, ANI, Action::Card(Card::Bells));
    assert_eq!(g.storehouse(1), [Kind::Book]);
    assert_eq!(g.trigger(), Some((ANI, Trigger::BagEmpty)));
    assert_eq!(g.final_turns_left(), Some(3));
    acts(&mut g, FRANK, &[Action::Card(Card::Porticus), Action::Passage([1, 2])]);
    acts(&mut g, ALEX, &[Action::Card(Card::Remigius), Action::Room(3), Action::Stop]);
    assert!(g.outcome().is_none());
    acts(&mut g, ANI, &[Action::Card(Card::Severus), Action::Room(8), Action::Stop]);
    assert!(g.outcome().is_some(), "Ani, the triggerer, played last");

    let mut exact = small_bag(3, false);
    act(&mut exact, ANI, Action::Card(Card::Bells));
    assert_eq!(exact.storehouse(1).len(), 3);
    assert_eq!(exact.bag().total(), 0);
    assert_eq!(exact.trigger(), None, "the bag emptied exactly on the last tile owed");

    let mut full = small_bag(0, true);
    act(&mut full, ANI, Action::Card(Card::Bells));
    assert_eq!(full.trigger(), None, "the harbor is full, not short of tiles");
}

#[test]
fn a_chalice_with_no_storehouse_free_of_chalices_leaves_the_game() {
    let mut s = Scenario::new(3).pile(ANI, vec![Card::Maria]).storehouse(1, vec![Kind::Chalice]);
    for i in 2..=6 {
        let mut tiles = vec![Kind::Chalice, Kind::X, Kind::Y];
        if i >= 4 {
            tiles.push(Kind::Z);
        }
        s = s.storehouse(i, tiles);
    }
    let mut g = s.draws(vec![Kind::Chalice, Kind::X, Kind::Y]).build();
    let removed = g.removed().chalice;
    act(&mut g, ANI, Action::Card(Card::Bells));
    assert_eq!(g.storehouse(1), [Kind::Chalice, Kind::X, Kind::Y], "Maria's 2 tiles, not counting the chalice");
    assert_eq!(g.removed().chalice, removed + 1);
}

#[test]
fn raphael_reveals_past_the_players_top_cards_and_blocks_his_own_top() {
    let mut g = Scenario::new(2).raphael(vec![Card::Remigius, Card::Severus, Card::Porticus], vec![]).build();
    acts(&mut g, ANI, &[Action::Card(Card::Porticus), Action::Passage([1, 2])]);
    assert!(g.raphael().expect("Raphael").display.is_empty());
    acts(&mut g, FRANK, &[Action::Card(Card::Severus), Action::Room(8), Action::Stop]);
    let raphael = g.raphael().expect("Raphael");
    assert_eq!(raphael.display, vec![Card::Porticus, Card::Severus, Card::Remigius]);
    assert!(!legal(&g, ANI).contains(&Action::Card(Card::Remigius)));

    let mut g = Scenario::new(2).raphael(vec![Card::Maria, Card::Josua, Card::Bells], vec![]).build();
    acts(&mut g, ANI, &[Action::Card(Card::Porticus), Action::Passage([1, 2])]);
    acts(&mut g, FRANK, &[Action::Card(Card::Severus), Action::Room(8), Action::Stop]);
    let raphael = g.raphael().expect("Raphael");
    let top = raphael.top().expect("a top card");
    assert!(top == Card::Maria || top == Card::Josua, "The Bells reshuffled, then a playable card: {top:?}");
    assert_eq!(raphael.deck.len() + raphael.display.len(), 3);
}

#[test]
fn options_are_validated() {
    let five = Options { stephanus: false, ..Options::default() };
    assert!(matches!(
        SecretTreasures::setup(5, &five, game_core::Seed::from_u64(1)),
        Err(SetupError::InvalidOptions { .. })
    ));
    for players in [0, 1, 6] {
        assert!(matches!(
            SecretTreasures::setup(players, &Options::default(), game_core::Seed::from_u64(1)),
            Err(SetupError::PlayerCount { .. })
        ));
    }
    let without = setup_with(4, &five, 1, ANI, vec![]).expect("4 players without Stephanus");
    assert_eq!(without.hand(ANI).len(), 9);
    assert!(serde_json::from_str::<Options>(r#"{"stefanus": false}"#).is_err());
    assert_eq!(serde_json::from_str::<Options>("{}").expect("defaults"), Options::default());
}

#[test]
fn in_a_first_game_vitus_waits_at_the_main_portal_until_remigius_first_moves() {
    let options = Options { first_game_placement: true, ..Options::default() };
    let mut g = setup_with(3, &options, 2, ANI, vec![]).expect("setup");
    assert_eq!(
        (g.severus(), g.remigius(), g.vitus()),
        (Some(13), Some(1), Some(Place::Portal(secret_treasures::Portal::Main)))
    );
    assert_eq!(*g.phase(), Phase::ChooseRings { seat: ANI });
    for seat in [ANI, FRANK, ALEX] {
        act(&mut g, seat, Action::Single(Ring::X));
    }
    assert_eq!(g.stock(FRANK), Pieces::new(0, 0, 1, 2, 2));
    act(&mut g, ANI, Action::Card(Card::Remigius));
    act(&mut g, FRANK, Action::Card(Card::Stephanus));
    act(&mut g, ALEX, Action::Card(Card::Bells));
    assert_eq!(legal(&g, ANI), rooms(&[2, 3, 11]));
    acts(&mut g, ANI, &[Action::Room(2), Action::Stop]);
    assert_eq!((g.remigius(), g.vitus()), (Some(2), Some(Place::Room(1))));
    act(&mut g, FRANK, Action::Room(1));
    act(&mut g, FRANK, Action::Stop);
    assert_eq!(g.score(FRANK).stephanus, 1, "Vitus only: Ani's and Alex's tokens are still at the portal");
}

#[test]
fn views_hide_hands_choices_the_bag_and_raphaels_deck() {
    let mut g = setup_with(2, &Options::default(), 4, ANI, vec![]).expect("setup");
    acts(&mut g, FRANK, &[Action::Room(1)]);
    acts(&mut g, ANI, &[Action::Room(2)]);
    acts(&mut g, FRANK, &[Action::Room(7)]);
    acts(&mut g, ANI, &[Action::Single(Ring::X)]);
    acts(&mut g, FRANK, &[Action::Single(Ring::X)]);
    act(&mut g, ANI, Action::Card(Card::Remigius));
    let spectator = serde_json::to_value(g.view(Viewer::Spectator)).expect("json");
    let frank = serde_json::to_value(g.view(Viewer::Seat(FRANK))).expect("json");
    for v in [&spectator, &frank] {
        let text = v.to_string();
        assert!(!text.contains("remigius\"]") && !text.contains("rng") && !text.contains("\"deck\""), "{text}");
        assert_eq!(v["my_choice"], serde_json::Value::Null);
        assert!(v["bag"].is_u64());
        assert!(v["raphael"]["deck_size"].is_u64());
    }
    assert_eq!(spectator["hand"], serde_json::Value::Null);
    assert_eq!(frank["hand"].as_array().map(Vec::len), Some(10));
    assert_eq!(frank["seats"][0]["has_chosen"], true);
    assert_eq!(frank["seats"][0]["hand_size"], 9);
    let ani = g.view(Viewer::Seat(ANI));
    assert_eq!(ani.my_choice, Some(Card::Remigius));
    assert_eq!(ani.hand.map(|h| h.len()), Some(9));
    let _ = Seat(0);
}

#[test]
fn events_read_as_sentences_and_the_round_1_choice_is_private() {
    use game_core::{Audience, GameEvent, SeatNames};
    let names = SeatNames(vec!["Ani".into(), "Frank".into(), "Alex".into()]);
    let mut g = Scenario::new(3).remigius(1).vitus(Place::Room(3)).severus(7).book(10, 1, ANI, false).build();
    act(&mut g, ANI, Action::Card(Card::Remigius));
    act(&mut g, ANI, Action::Room(2));
    let lines: Vec<String> = act(&mut g, ANI, Action::Room(10)).iter().map(|e| e.event.describe(&names)).collect();
    assert_eq!(lines, vec!["Remigius moved to room 10", "Vitus moved to room 1", "Ani scored 3 from Remigius"]);

    let mut g = first_game();
    let events = act(&mut g, FRANK, Action::Card(Card::Maria));
    assert_eq!(events[0].audience, Audience::All);
    assert_eq!(events[0].event.describe(&names), "Frank chose a card face down");
    assert_eq!(events[1].audience, Audience::Only(vec![FRANK]));
    assert_eq!(events[1].event.describe(&names), "Frank chose Maria face down");
}

fn first_game() -> SecretTreasures {
    let options = Options { first_game_placement: true, ..Options::default() };
    let mut g = setup_with(3, &options, 2, ANI, vec![]).expect("setup");
    for seat in [ANI, FRANK, ALEX] {
        act(&mut g, seat, Action::Single(Ring::Y));
    }
    g
}
