//! Section 6: each view shows exactly what its viewer may see, and `scramble_hidden` really re-draws
//! everything hidden from that viewer (other hands and buried piles, face-down round-1 choices,
//! Raphael's deck and buried display, the bag's order, the RNG). Without the second half the
//! contract's non-interference check would prove nothing.

mod common;

use common::*;
use game_core::{Game, GameRng, Seat, Viewer};
use secret_treasures::testing::setup_with;
use secret_treasures::{Action, Card, Options, Ring, SecretTreasures};
use serde_json::Value;

/// A 2-player game played deterministically (always the first legal action) into round 5.
fn two_player_midgame() -> SecretTreasures {
    let mut g = setup_with(2, &Options::default(), 4, ANI, vec![]).expect("setup");
    while g.round() < 5 {
        let seat = g.to_act()[0];
        let action = legal(&g, seat)[0];
        act(&mut g, seat, action);
    }
    g
}

fn state(g: &SecretTreasures) -> Value {
    serde_json::to_value(g).expect("state serialises")
}

fn sorted(mut cards: Vec<Card>) -> Vec<Card> {
    cards.sort_unstable();
    cards
}

fn all_keys(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                out.push(k.clone());
                all_keys(v, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| all_keys(v, out)),
        _ => {}
    }
}

#[test]
fn scramble_hidden_redraws_other_hands_buried_piles_raphaels_deck_the_bag_and_the_rng() {
    let g = two_player_midgame();
    assert!(g.pile(FRANK).len() >= 2, "Frank has buried cards: {:?}", g.pile(FRANK));
    let raphael = g.raphael().expect("Raphael");
    assert!(raphael.deck.len() >= 3 && raphael.display.len() >= 2, "Raphael has buried display cards");
    let before = state(&g);
    let mut changed = [false; 5];
    for i in 0..40 {
        let mut rng = GameRng::from_u64(i);
        let s = g.scramble_hidden(Viewer::Seat(ANI), &mut rng);
        assert_eq!(s.view(Viewer::Seat(ANI)), g.view(Viewer::Seat(ANI)));
        assert_eq!(s.legal_actions(ANI), g.legal_actions(ANI));
        // The viewer's own cards are untouched.
        assert_eq!((s.hand(ANI), s.pile(ANI)), (g.hand(ANI), g.pile(ANI)));
        // Frank's public card facts stay; his hidden cards are re-dealt among hand and buried pile.
        assert_eq!(s.pile(FRANK).last(), g.pile(FRANK).last());
        assert_eq!((s.pile(FRANK).len(), s.hand(FRANK).len()), (g.pile(FRANK).len(), g.hand(FRANK).len()));
        let cards = |x: &SecretTreasures| sorted([x.hand(FRANK), x.pile(FRANK)].concat());
        assert_eq!(cards(&s), cards(&g));
        assert!(s.hand(FRANK).contains(&Card::Bells));
        changed[0] |= s.hand(FRANK) != g.hand(FRANK);
        // Raphael: top and sizes stay, the order of his deck and his buried cards change.
        let (r, r0) = (s.raphael().expect("Raphael"), g.raphael().expect("Raphael"));
        assert_eq!((r.top(), r.deck.len(), r.display.len()), (r0.top(), r0.deck.len(), r0.display.len()));
        assert_eq!(
            sorted([r.deck.clone(), r.display.clone()].concat()),
            sorted([r0.deck.clone(), r0.display.clone()].concat())
        );
        changed[1] |= r.deck != r0.deck;
        changed[2] |= r.display != r0.display;
        // The bag keeps its composition (derivable from public facts) but not its order; the RNG is new.
        let after = state(&s);
        assert_eq!(s.bag(), g.bag());
        changed[3] |= after["bag"] != before["bag"];
        changed[4] |= after["rng"] != before["rng"];
    }
    assert_eq!(changed, [true; 5], "hand, deck, display, bag order, rng");

    // A spectator sees no hand: both are re-dealt.
    let mut moved = [false; 2];
    for i in 0..40 {
        let s = g.scramble_hidden(Viewer::Spectator, &mut GameRng::from_u64(i));
        assert_eq!(s.view(Viewer::Spectator), g.view(Viewer::Spectator));
        moved[0] |= s.hand(ANI) != g.hand(ANI);
        moved[1] |= s.hand(FRANK) != g.hand(FRANK);
    }
    assert_eq!(moved, [true, true]);
}

#[test]
fn scramble_hidden_redraws_the_face_down_round_1_choices_of_the_others_only() {
    let options = Options { first_game_placement: true, ..Options::default() };
    let mut g = setup_with(3, &options, 9, ANI, vec![]).expect("setup");
    for seat in [ANI, FRANK, ALEX] {
        act(&mut g, seat, Action::Single(Ring::Z));
    }
    act(&mut g, ANI, Action::Card(Card::Lucas));
    act(&mut g, FRANK, Action::Card(Card::Maria));
    let chosen = |g: &SecretTreasures, seat: Seat| state(g)["chosen"][seat.index()].clone();
    let mut redrawn = false;
    for i in 0..40 {
        let s = g.scramble_hidden(Viewer::Seat(ALEX), &mut GameRng::from_u64(i));
        assert_eq!(s.view(Viewer::Seat(ALEX)), g.view(Viewer::Seat(ALEX)));
        assert_eq!(s.to_act(), vec![ALEX]);
        for seat in [ANI, FRANK] {
            assert!(chosen(&s, seat).is_string(), "still chosen");
            assert_eq!(s.hand(seat).len(), 9);
            let mut cards: Vec<Card> = s.hand(seat).to_vec();
            cards.push(serde_json::from_value(chosen(&s, seat)).expect("a card"));
            assert_eq!(sorted(cards), sorted(Card::ALL.to_vec()));
        }
        redrawn |= chosen(&s, ANI) != chosen(&g, ANI);
        // Ani's own choice is hers: scrambling for her keeps it.
        let own = g.scramble_hidden(Viewer::Seat(ANI), &mut GameRng::from_u64(i));
        assert_eq!(chosen(&own, ANI), serde_json::json!("lucas"));
        assert_eq!(own.view(Viewer::Seat(ANI)).my_choice, Some(Card::Lucas));
    }
    assert!(redrawn, "Ani's face-down card is re-drawn for Alex");
}

#[test]
fn each_view_shows_every_public_fact_and_nothing_hidden() {
    let g = two_player_midgame();
    for viewer in Viewer::all(2) {
        let view = g.view(viewer);
        assert_eq!(view.hand.as_deref(), if let Viewer::Seat(s) = viewer { Some(g.hand(s)) } else { None });
        assert_eq!(view.seats.len(), 2);
        for (s, seat) in view.seats.iter() {
            assert_eq!(seat.seat, s);
            assert_eq!(seat.token, g.token(s).expect("token"));
            assert_eq!(
                (seat.hand_size, seat.pile_size, seat.pile_top),
                (g.hand(s).len(), g.pile(s).len(), g.pile(s).last().copied())
            );
            assert_eq!((seat.stock, seat.reserve, seat.score), (g.stock(s), g.reserve(s), g.score(s)));
            assert_eq!(seat.rooms, g.rooms_of(s));
        }
        assert_eq!(view.bag as u32, g.bag().total());
        assert_eq!(view.removed, g.removed());
        assert_eq!(
            (view.remigius, view.vitus, view.severus, view.door),
            (g.remigius(), g.vitus(), g.severus(), g.door())
        );
        for (i, house) in view.storehouses.iter().enumerate() {
            assert_eq!(house.tiles, g.storehouse(i as u8 + 1));
        }
        let r = g.raphael().expect("Raphael");
        let rv = view.raphael.as_ref().expect("Raphael's view");
        assert_eq!((rv.top, rv.deck_size, rv.display_size), (r.top(), r.deck.len(), r.display.len()));
        let mut keys = Vec::new();
        all_keys(&serde_json::to_value(&view).expect("json"), &mut keys);
        for hidden in ["hands", "chosen", "deck", "display", "rng", "forced_draws", "setup_log"] {
            assert!(!keys.iter().any(|k| k == hidden), "{viewer:?}'s view has {hidden}");
        }
        assert!(serde_json::to_value(&view).expect("json")["bag"].is_u64(), "the bag is a count only");
    }
}
