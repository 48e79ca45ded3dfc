//! Rules without a rulebook example: edge cases of the decision points (spec §4.4), the rulings
//! of §5, scoring corner cases of §7, and the re-draw of hidden information (§6).

use game_core::{BySeat, Game, GameRng, Seat, Viewer};
use templars_journey::action::Action::*;
use templars_journey::board::{City as C, EdictSpace, Mission, Territory as T, Tile};
use templars_journey::event::{Event, Toss};
use templars_journey::state::{Prompt, Step, TemplarsJourney, VpSource};
use templars_journey::testing::{
    act, evaluate, final_scoring, knight_totals, knights, legal_actions, rng_tossing, scenario, set_city, set_templars,
    set_temple, settle, space, temples, vp,
};

const EDICTS: [C; 7] = [C::Coeln, C::Venezia, C::London, C::Paris, C::Bordeaux, C::Lyon, C::Roma];

/// Every Templar in Castilla (no city, no gold within reach), Pope on `S1`.
fn base(players: usize, first: u8) -> TemplarsJourney {
    let mut g = scenario(players, Seat(first), EDICTS);
    for i in 0..players {
        set_templars(&mut g, Seat(i as u8), T::Castilla, T::Castilla);
    }
    g
}

/// Jumps to the card choice with the Pope on `pope` and plays `cards` (seat order).
fn play_cards(g: &mut TemplarsJourney, pope: &str, cards: &[u8]) -> Vec<Event> {
    g.pope = space(pope);
    g.step = Step::ChooseCards { chosen: BySeat(vec![None; g.players.len()]) };
    let mut events = Vec::new();
    for (i, card) in cards.iter().enumerate() {
        events.extend(act(g, i as u8, ChooseCard { card: *card }));
    }
    events
}

fn acting(g: &TemplarsJourney) -> Option<Seat> {
    match &g.step {
        Step::Card { seat, .. } => Some(*seat),
        _ => None,
    }
}

/// Marks the first `k` edict spaces evaluated and removes their cities' tiles.
fn evaluated_up_to(g: &mut TemplarsJourney, k: usize) {
    for s in EdictSpace::ALL.into_iter().take(k) {
        if let Some(c) = g.edict_on(s) {
            g.city_mut(c).tile = None;
        }
        g.edict_spaces[s.index()] = None;
        g.evaluated[s.index()] = true;
    }
}

// Flag steps and the Leader window ----------------------------------------------------------

#[test]
fn rl7_the_leader_window_opens_after_a_declined_or_forfeited_flag_step() {
    // Declined: A could place in Paris but declines; with 3 temple knights D6 still opens.
    let mut g = base(3, 0);
    set_templars(&mut g, Seat(0), T::Paris, T::Castilla);
    set_temple(&mut g, Seat(0), 3);
    act(&mut g, 0, MovePope { to: space("L1G1") });
    assert_eq!(legal_actions(&g, 0), vec![PlaceKnight { city: C::Paris }, Decline]);
    let events = act(&mut g, 0, Decline);
    assert!(events.contains(&Event::Declined { seat: Seat(0), what: "the green flag action".into() }));
    assert_eq!(g.step, Step::Leader { holder: Seat(0), received: false });
    assert_eq!(legal_actions(&g, 0), vec![Decline, PassLeader { to: Seat(1) }, PassLeader { to: Seat(2) }]);
    // Forfeited: nothing to remove on the red flag; D6 opens all the same.
    let mut g = base(3, 0);
    set_temple(&mut g, Seat(0), 3);
    let events = act(&mut g, 0, MovePope { to: space("L1R1") });
    assert!(events.iter().any(|e| matches!(e, Event::Forfeited { seat: Seat(0), .. })));
    assert_eq!(g.step, Step::Leader { holder: Seat(0), received: false });
}

#[test]
fn the_leader_marker_may_go_back_to_an_earlier_passer_and_the_marker_pass_follows_the_holder() {
    let mut g = base(3, 0);
    for s in 0..3 {
        set_temple(&mut g, Seat(s), 3);
    }
    act(&mut g, 0, MovePope { to: space("L1R1") });
    act(&mut g, 0, PassLeader { to: Seat(2) });
    act(&mut g, 2, PassLeader { to: Seat(0) });
    // A has 0 temple knights now: A accepts automatically.
    assert_eq!(g.first, Seat(0));
    assert_eq!(temples(&g), vec![0, 3, 0]);
    assert!(matches!(g.step, Step::ChooseCards { .. }));
    assert_eq!(g.pope, space("L1R1"));
    play_cards(&mut g, "L1R1", &[3, 3, 3]);
    assert_eq!(g.first, Seat(1), "A8 passes the marker from A to its left neighbour");
}

#[test]
fn the_green_flag_offers_no_full_city_and_nothing_without_supply() {
    let mut g = base(3, 0);
    set_templars(&mut g, Seat(0), T::Coeln, T::Venezia);
    set_city(&mut g, C::Coeln, Tile::T1, &[0, 2, 2]);
    act(&mut g, 0, MovePope { to: space("L1G1") });
    assert_eq!(legal_actions(&g, 0), vec![PlaceKnight { city: C::Venezia }, Decline], "Coeln (4 of 4) is full");
    let mut g = base(3, 0);
    set_templars(&mut g, Seat(0), T::Coeln, T::Venezia);
    g.players[Seat(0)].supply = 0;
    let events = act(&mut g, 0, MovePope { to: space("L1G1") });
    assert!(events.iter().any(|e| matches!(e, Event::Forfeited { seat: Seat(0), .. })));
    assert!(matches!(g.step, Step::ChooseCards { .. }));
}

// Collect gold, Taxes and the sacrifice ------------------------------------------------------

#[test]
fn the_penalised_risky_collect_may_use_taxes_before_the_sacrifice() {
    let mut g = base(3, 0);
    set_templars(&mut g, Seat(0), T::Paris, T::Castilla);
    g.territory_gold[T::Paris.index()] = 5;
    g.territory_gold[T::Bretagne.index()] = 1;
    set_temple(&mut g, Seat(0), 2);
    set_city(&mut g, C::Paris, Tile::T4, &[1, 0, 0]);
    play_cards(&mut g, "L1G1", &[2, 1, 6]);
    // Seat 1 (card 1) has no gold within reach and forfeits; seat 0 goes next, penalised.
    assert_eq!(acting(&g), Some(Seat(0)));
    act(&mut g, 0, TakeGold { territory: T::Paris });
    assert_eq!((g.players[Seat(0)].gold, g.gold_at(T::Paris)), (7, 3), "the penalty takes 2");
    assert_eq!(legal_actions(&g, 0), vec![Taxes { territory: T::Bretagne }, Taxes { territory: T::Paris }, Decline]);
    act(&mut g, 0, Taxes { territory: T::Bretagne });
    assert_eq!((g.players[Seat(0)].gold, g.gold_at(T::Bretagne)), (8, 0), "Taxes take what is there");
    // The sacrifice comes last; the only city with an own knight is chosen automatically.
    assert_eq!(knights(&g, C::Paris), vec![0, 0, 0]);
    assert_eq!(temples(&g), vec![1, 0, 0], "2 paid for Taxes, 1 sacrificed");
    assert_eq!(acting(&g), Some(Seat(2)));
}

#[test]
fn a_penalty_without_own_knights_in_cities_skips_the_sacrifice_and_a_forfeited_take_still_sacrifices() {
    // No gold in reach and no own knight anywhere: the whole penalty passes without a prompt.
    let mut g = base(3, 0);
    let events = play_cards(&mut g, "L1G1", &[2, 2, 6]);
    assert_eq!(temples(&g), vec![0, 0, 0]);
    assert_eq!(acting(&g), Some(Seat(2)));
    // Every skip is logged (spec §4.0): the gold take and the sacrifice of both penalised players.
    let forfeits: Vec<(Seat, String)> = events
        .iter()
        .filter_map(|e| match e {
            Event::Forfeited { seat, what } => Some((*seat, what.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        forfeits,
        vec![
            (Seat(0), "the gold take: no gold within reach".to_string()),
            (Seat(0), "the sacrifice: no own knight in any city".to_string()),
            (Seat(1), "the gold take: no gold within reach".to_string()),
            (Seat(1), "the sacrifice: no own knight in any city".to_string()),
        ]
    );
    // No gold in reach, but knights in two cities: the sacrifice still happens (RL-6).
    let mut g = base(3, 0);
    set_city(&mut g, C::Roma, Tile::T4, &[1, 0, 0]);
    set_city(&mut g, C::Paris, Tile::T2, &[1, 0, 0]);
    play_cards(&mut g, "L1G1", &[2, 1, 6]);
    assert_eq!(legal_actions(&g, 0), vec![Sacrifice { city: C::Paris }, Sacrifice { city: C::Roma }]);
    act(&mut g, 0, Sacrifice { city: C::Roma });
    assert_eq!(temples(&g), vec![1, 0, 0]);
    assert_eq!(g.players[Seat(0)].gold, 5, "no gold was taken");
}

// Place knights ---------------------------------------------------------------------------

#[test]
fn place_safe_stops_at_six_gold_and_tosses_only_while_a_toss_can_pay_off() {
    let mut g = base(3, 0);
    set_templars(&mut g, Seat(0), T::Roma, T::Castilla);
    set_city(&mut g, C::Roma, Tile::T7, &[0, 1, 0]);
    g.players[Seat(0)].gold = 10;
    play_cards(&mut g, "L1G1", &[3, 6, 6]);
    act(&mut g, 0, ChooseCity { city: C::Roma });
    act(&mut g, 0, PlaceKnight { city: C::Roma });
    act(&mut g, 0, RemoveKnight { city: C::Roma, owner: Seat(1) });
    g.rng = rng_tossing(&[Toss::Blank]);
    act(&mut g, 0, Toss);
    // Spent 5 of 6: a knight (2) no longer fits, a toss (1) does.
    assert_eq!(g.step, Step::Card { seat: Seat(0), prompt: Prompt::SafeStep { city: C::Roma, spent: 5, chances: 0 } });
    assert_eq!(legal_actions(&g, 0), vec![Toss, Stop]);
    g.rng = rng_tossing(&[Toss::Cross]);
    act(&mut g, 0, Toss);
    // The cross after the sixth gold is free; then only Stop is left and the action ends.
    assert_eq!(legal_actions(&g, 0), vec![PlaceKnight { city: C::Roma }, Forgo]);
    act(&mut g, 0, PlaceKnight { city: C::Roma });
    assert_eq!(knights(&g, C::Roma), vec![2, 0, 0]);
    assert_eq!(g.players[Seat(0)].gold, 4, "exactly 6 gold spent");
    assert_eq!(temples(&g), vec![0, 1, 0]);
    assert_eq!(acting(&g), Some(Seat(1)));
}

#[test]
fn place_safe_offers_no_city_where_only_a_useless_toss_or_nothing_is_possible() {
    // Roma is full of own knights (nothing to place, nobody to remove): no city, D12 skipped.
    let mut g = base(3, 0);
    set_templars(&mut g, Seat(0), T::Roma, T::Castilla);
    set_city(&mut g, C::Roma, Tile::T1, &[4, 0, 0]);
    let events = play_cards(&mut g, "L1G1", &[3, 6, 6]);
    assert_eq!(acting(&g), Some(Seat(1)), "D12 had only Decline");
    assert!(events.contains(&Event::Forfeited {
        seat: Seat(0),
        what: "Place knights (safe): no city where anything can be done".into()
    }));
    assert_eq!(g.players[Seat(0)].gold, 5);
    // With 1 gold a toss is the only paid option, and it is offered.
    let mut g = base(3, 0);
    set_templars(&mut g, Seat(0), T::Roma, T::Castilla);
    set_city(&mut g, C::Roma, Tile::T1, &[1, 0, 0]);
    g.players[Seat(0)].gold = 1;
    play_cards(&mut g, "L1G1", &[3, 6, 6]);
    act(&mut g, 0, ChooseCity { city: C::Roma });
    assert_eq!(legal_actions(&g, 0), vec![Toss, Stop]);
}

#[test]
fn place_risky_exchanges_in_a_full_city_at_most_three_times() {
    let mut g = base(4, 0);
    set_templars(&mut g, Seat(0), T::Lyon, T::Castilla);
    set_city(&mut g, C::Lyon, Tile::T1, &[0, 2, 1, 1]);
    g.players[Seat(0)].gold = 9;
    play_cards(&mut g, "L1G1", &[4, 6, 6, 1]);
    act(&mut g, 0, ChooseCity { city: C::Lyon });
    act(&mut g, 0, ExchangeKnight { city: C::Lyon, owner: Seat(1) });
    act(&mut g, 0, ExchangeKnight { city: C::Lyon, owner: Seat(1) });
    assert_eq!(
        legal_actions(&g, 0),
        vec![ExchangeKnight { city: C::Lyon, owner: Seat(2) }, ExchangeKnight { city: C::Lyon, owner: Seat(3) }, Stop]
    );
    act(&mut g, 0, ExchangeKnight { city: C::Lyon, owner: Seat(3) });
    // Three exchanges made: Green's knight stays, the action ends by itself.
    assert_eq!(knights(&g, C::Lyon), vec![3, 0, 1, 0], "the city stays full at 4");
    assert_eq!(temples(&g), vec![0, 2, 0, 1]);
    assert_eq!(g.players[Seat(0)].gold, 3);
    assert_eq!(g.players[Seat(0)].supply, 16);
    assert_ne!(acting(&g), Some(Seat(0)));
}

#[test]
fn the_place_penalty_removes_only_in_own_templar_cities_then_sacrifices_anywhere() {
    // 3 players: cards 4 and 3 make two place cards, so the 4 is penalised.
    let mut g = base(3, 0);
    set_templars(&mut g, Seat(0), T::Roma, T::Venezia);
    set_city(&mut g, C::Roma, Tile::T4, &[0, 1, 0]);
    set_city(&mut g, C::Venezia, Tile::T6, &[1, 0, 0]);
    set_city(&mut g, C::Paris, Tile::T2, &[1, 3, 0]);
    set_city(&mut g, C::Lyon, Tile::T3, &[0, 0, 2]);
    play_cards(&mut g, "L1G1", &[4, 3, 6]);
    assert_eq!(legal_actions(&g, 0), vec![ChooseCity { city: C::Roma }, Decline], "not Paris or Lyon: no own Templar");
    act(&mut g, 0, ChooseCity { city: C::Roma });
    act(&mut g, 0, RemoveKnight { city: C::Roma, owner: Seat(1) });
    // Nobody left to remove in Roma: the sacrifice from any own city follows.
    assert_eq!(legal_actions(&g, 0), vec![Sacrifice { city: C::Paris }, Sacrifice { city: C::Venezia }]);
    act(&mut g, 0, Sacrifice { city: C::Paris });
    assert_eq!(knights(&g, C::Paris), vec![0, 3, 0]);
    assert_eq!(temples(&g), vec![1, 1, 0]);
    assert_eq!(g.players[Seat(0)].gold, 3);
}

// Move a Templar -------------------------------------------------------------------------

#[test]
fn the_risky_move_may_exchange_with_the_seventh_city_edict() {
    let mut g = base(3, 0);
    set_templars(&mut g, Seat(0), T::Bretagne, T::Castilla);
    // 3 players: a second move card would penalise the 5.
    play_cards(&mut g, "L1G1", &[5, 1, 3]);
    act(&mut g, 0, ChooseTemplar { territory: T::Bretagne });
    act(&mut g, 0, MoveTemplar { to: T::London });
    act(&mut g, 0, Stop);
    // London is on E2a; Roma is the seventh city.
    assert!(legal_actions(&g, 0).contains(&ExchangeEdict { with: C::Roma }));
    assert!(!legal_actions(&g, 0).contains(&ExchangeEdict { with: C::London }));
    assert_eq!(legal_actions(&g, 0).len(), 7, "6 other edicts on the track and Decline");
    act(&mut g, 0, ExchangeEdict { with: C::Roma });
    assert_eq!(g.edict_on(EdictSpace::E7), Some(C::London));
    assert_eq!(g.edict_on(EdictSpace::E2a), Some(C::Roma));
    assert_eq!(g.city(C::London).tile, Some(Tile::T1), "tiles and knights do not move");
}

#[test]
fn the_risky_move_offers_no_exchange_where_the_city_is_not_on_the_track() {
    // Barcelona's edict is boxed (not in EDICTS): the move just ends.
    let mut g = base(3, 0);
    set_templars(&mut g, Seat(0), T::Provence, T::Castilla);
    g.territory_gold[T::Barcelona.index()] = 2;
    g.territory_gold[T::Provence.index()] = 2;
    g.players[Seat(1)].templars = vec![T::Napoli, T::Napoli];
    play_cards(&mut g, "L1G1", &[5, 1, 3]);
    act(&mut g, 0, ChooseTemplar { territory: T::Provence });
    act(&mut g, 0, MoveTemplar { to: T::Barcelona });
    act(&mut g, 0, Stop);
    assert_eq!(g.players[Seat(0)].gold, 6, "1 gold for entering Barcelona");
    assert_eq!((g.gold_at(T::Barcelona), g.gold_at(T::Provence)), (1, 2));
    assert_eq!(g.step, Step::PopeStep, "no D23: the card phase is over");
    // An evaluated city is off the track too.
    let mut g = base(3, 0);
    evaluated_up_to(&mut g, 1);
    set_templars(&mut g, Seat(0), T::Bayern, T::Castilla);
    play_cards(&mut g, "L1G1", &[5, 1, 3]);
    act(&mut g, 0, ChooseTemplar { territory: T::Bayern });
    act(&mut g, 0, MoveTemplar { to: T::Coeln });
    act(&mut g, 0, Stop);
    assert_eq!(g.step, Step::PopeStep);
}

#[test]
fn the_safe_move_on_a_green_flag_places_in_the_final_city_only_if_it_has_room() {
    let mut g = base(3, 0);
    set_templars(&mut g, Seat(0), T::Napoli, T::Castilla);
    set_city(&mut g, C::Roma, Tile::T4, &[0, 3, 2]);
    set_city(&mut g, C::Venezia, Tile::T6, &[0, 1, 0]);
    play_cards(&mut g, "L1G2", &[6, 3, 3]);
    act(&mut g, 0, ChooseTemplar { territory: T::Napoli });
    act(&mut g, 0, MoveTemplar { to: T::Roma });
    act(&mut g, 0, MoveTemplar { to: T::Venezia });
    act(&mut g, 0, Stop);
    assert_eq!(legal_actions(&g, 0), vec![PlaceKnight { city: C::Venezia }, Decline]);
    act(&mut g, 0, PlaceKnight { city: C::Venezia });
    assert_eq!(knights(&g, C::Venezia), vec![1, 1, 0]);
    // Stopping in full Roma (6 of 6) offers nothing.
    let mut g = base(3, 0);
    set_templars(&mut g, Seat(0), T::Napoli, T::Castilla);
    set_city(&mut g, C::Roma, Tile::T4, &[0, 3, 3]);
    play_cards(&mut g, "L1G2", &[6, 3, 3]);
    act(&mut g, 0, ChooseTemplar { territory: T::Napoli });
    act(&mut g, 0, MoveTemplar { to: T::Roma });
    act(&mut g, 0, Stop);
    assert_eq!(g.step, Step::PopeStep, "no D22 prompt; the 3s of the others do nothing");
    assert_eq!(knights(&g, C::Roma), vec![0, 3, 3]);
}

#[test]
fn a_move_stops_by_itself_after_three_steps_and_never_crosses_the_alps() {
    let mut g = base(3, 0);
    set_templars(&mut g, Seat(0), T::Bayern, T::Castilla);
    play_cards(&mut g, "L1G1", &[6, 3, 3]);
    act(&mut g, 0, ChooseTemplar { territory: T::Bayern });
    assert_eq!(
        legal_actions(&g, 0),
        vec![MoveTemplar { to: T::Burgund }, MoveTemplar { to: T::Coeln }, MoveTemplar { to: T::Wien }, Stop],
        "no Lombardia or Venezia across the Alps"
    );
    act(&mut g, 0, MoveTemplar { to: T::Wien });
    act(&mut g, 0, MoveTemplar { to: T::Bayern });
    act(&mut g, 0, MoveTemplar { to: T::Burgund });
    assert_eq!(g.players[Seat(0)].templars, vec![T::Burgund, T::Castilla]);
    assert_eq!(g.step, Step::PopeStep, "Burgund has no city: the action ended after step 3 (the 3s do nothing)");
}

// Shipping and final scoring -------------------------------------------------------------

#[test]
fn rl20_a_tied_city_loses_its_edict_but_scores_full_city_and_ship() {
    let mut g = base(3, 1);
    set_city(&mut g, C::Coeln, Tile::T1, &[2, 2, 0]);
    evaluate(&mut g, EdictSpace::E1a);
    assert_eq!(g.removed_edicts, vec![C::Coeln]);
    assert!(g.players.0.iter().all(|p| p.edicts.is_empty()));
    // Full (4 of 4): +1 each; ship of 4 loads 2 and 2: +1 +2 each.
    assert_eq!(vp(&g), vec![4, 4, 0]);
    assert_eq!(g.ships[EdictSpace::E1a.index()].0, vec![2, 2, 0]);
    assert_eq!(temples(&g), vec![0, 0, 0]);
}

#[test]
fn an_empty_city_loses_its_edict_and_scores_nothing() {
    let mut g = base(3, 0);
    evaluate(&mut g, EdictSpace::E1a);
    assert_eq!(g.removed_edicts, vec![C::Coeln]);
    assert_eq!(vp(&g), vec![0, 0, 0]);
    assert_eq!(g.city(C::Coeln).tile, None);
    assert_eq!(g.boxed_tiles, vec![Tile::T5], "tiles T1..T7 lie on the in-play cities in canonical order");
}

#[test]
fn loading_ties_go_by_clockwise_distance_from_the_first_player_and_leftovers_go_to_the_temple() {
    // First player seat 2: ties between seats 0 and 1 go to seat 0 (cw 1) before seat 1 (cw 2).
    let mut g = base(3, 2);
    set_city(&mut g, C::Coeln, Tile::T7, &[3, 3, 1]);
    evaluate(&mut g, EdictSpace::E1a);
    // Order 0, 1, 2 with a ship of 4: 0, 1, 2, 0.
    assert_eq!(g.ships[EdictSpace::E1a.index()].0, vec![2, 1, 1]);
    assert_eq!(temples(&g), vec![1, 2, 0]);
    // Tie 3-3: no edict; city not full (7 of 8); ship VP 3, 2, 2.
    assert_eq!(vp(&g), vec![3, 2, 2]);
    assert_eq!(knight_totals(&g), vec![19, 19, 19]);
}

#[test]
fn the_seventh_city_tie_removes_its_edict_but_still_pays_one_vp_per_two_knights() {
    let mut g = base(3, 0);
    evaluated_up_to(&mut g, 6);
    set_city(&mut g, C::Roma, Tile::T4, &[2, 2, 1]);
    g.players[Seat(0)].gold = 3;
    g.players[Seat(1)].gold = 4;
    g.players[Seat(2)].gold = 11;
    final_scoring(&mut g);
    assert_eq!(g.removed_edicts, vec![C::Roma]);
    assert_eq!(g.seventh_city, Some(C::Roma));
    let src = |s: u8, v: VpSource| g.players[Seat(s)].vp.get(&v).copied().unwrap_or(0);
    assert_eq!([0, 1, 2].map(|s| src(s, VpSource::SeventhCityKnights)), [1, 1, 0]);
    assert_eq!([0, 1, 2].map(|s| src(s, VpSource::SeventhCityMajority)), [0, 0, 0]);
    assert_eq!([0, 1, 2].map(|s| src(s, VpSource::Gold)), [0, 1, 2]);
    assert_eq!(knights(&g, C::Roma), vec![2, 2, 1], "a full seventh city gives no full-city VP");
    assert_eq!([0, 1, 2].map(|s| src(s, VpSource::FullCity)), [0, 0, 0]);
}

#[test]
fn shipping_round_3_gives_four_for_the_temple_and_ends_the_game_without_new_gold() {
    let mut g = base(3, 0);
    evaluated_up_to(&mut g, 4);
    set_temple(&mut g, Seat(1), 3);
    set_temple(&mut g, Seat(2), 1);
    g.pope = space("L3G3");
    g.step = Step::PopeStep;
    let gold_before = g.territory_gold.clone();
    let events = settle(&mut g);
    assert!(events.contains(&Event::ShippingRound { round: 3 }));
    assert_eq!(g.players[Seat(1)].vp.get(&VpSource::TempleMajority), Some(&4));
    assert_eq!(g.step, Step::GameOver);
    assert_eq!(g.territory_gold, gold_before, "no gold deal after shipping round 3");
    assert!(!events.iter().any(|e| matches!(e, Event::GoldDealt { .. })));
    assert!(g.outcome().is_some());
    assert!(g.to_act().is_empty());
}

#[test]
fn the_gold_deals_after_round_2_for_four_and_five_players_judge_tiles_after_the_evaluation() {
    for (players, with, without) in [(4, 5, 3), (5, 6, 4), (3, 4, 2)] {
        let mut g = base(players, 0);
        evaluated_up_to(&mut g, 2);
        g.pope = space("L2G3");
        g.step = Step::PopeStep;
        let before = g.territory_gold.clone();
        settle(&mut g);
        assert_eq!(g.pope, space("S3"));
        // Round 2 evaluates London (E2a) and Paris (E2b): only Bordeaux, Lyon and Roma keep tiles.
        for t in T::ALL {
            let tiled = [T::Bordeaux, T::Lyon, T::Roma].contains(&t);
            let plus = g.gold_at(t) - before[t.index()];
            assert_eq!(plus, if tiled { with } else { without }, "{players}p {t:?}");
        }
    }
}

#[test]
fn missions_measure_ships_temple_seventh_city_and_templar_distance() {
    let mut g = base(4, 0);
    evaluated_up_to(&mut g, 6);
    g.ships[0] = BySeat(vec![1, 0, 0, 0]);
    g.ships[3] = BySeat(vec![2, 1, 0, 0]);
    g.ships[5] = BySeat(vec![1, 0, 0, 0]);
    set_temple(&mut g, Seat(2), 4);
    set_city(&mut g, C::Roma, Tile::T4, &[0, 1, 3, 0]);
    set_templars(&mut g, Seat(0), T::London, T::Napoli);
    set_templars(&mut g, Seat(3), T::Wien, T::Wien);
    g.players[Seat(1)].edicts = vec![C::Coeln, C::Wien, C::Paris];
    g.players[Seat(3)].edicts = vec![C::Lyon, C::Bordeaux];
    final_scoring(&mut g);
    let m = |mission: Mission| -> Vec<Option<u32>> { (0..4).map(|s| g.mission_measure(mission, Seat(s))).collect() };
    assert_eq!(m(Mission::M2), vec![Some(3), Some(1), None, None], "ships, not knights");
    assert_eq!(m(Mission::M3), vec![None, None, Some(4), None]);
    assert_eq!(m(Mission::M4), vec![None, Some(1), Some(3), None], "Roma is the seventh city");
    assert_eq!(m(Mission::M5), vec![Some(5), Some(0), Some(0), Some(0)], "always ranked, 0 allowed");
    assert_eq!(m(Mission::M6), vec![None, Some(2), Some(1), Some(1)], "seat 2 won the Roma edict");
    assert_eq!(m(Mission::M7), vec![None, Some(2), None, None]);
    assert_eq!(m(Mission::M8), vec![None, Some(1), None, Some(2)]);
}

// Hidden information -----------------------------------------------------------------------

#[test]
fn scramble_hidden_redraws_every_hidden_thing_and_keeps_the_visible_ones() {
    let mut g = base(3, 0);
    g.face_up_missions = vec![Mission::M1, Mission::M2];
    g.boxed_missions = vec![Mission::M3, Mission::M4, Mission::M5];
    for (s, m) in [Mission::M6, Mission::M7, Mission::M8].into_iter().enumerate() {
        g.players[Seat(s as u8)].mission = m;
    }
    g.pope = space("L1G1");
    g.step = Step::ChooseCards { chosen: BySeat(vec![Some(2), Some(5), None]) };
    let mut rng = GameRng::from_u64(1);
    let (mut missions_moved, mut boxed_moved, mut card_moved, mut rng_moved) = (false, false, false, false);
    for _ in 0..64 {
        let s = g.scramble_hidden(Viewer::Seat(Seat(0)), &mut rng);
        assert_eq!(s.players[Seat(0)].mission, Mission::M6, "the viewer's own mission stays");
        assert_eq!(s.face_up_missions, g.face_up_missions);
        let mut all: Vec<Mission> = s.players.0.iter().map(|p| p.mission).chain(s.boxed_missions.clone()).collect();
        all.extend(&s.face_up_missions);
        all.sort();
        assert_eq!(all, Mission::ALL.to_vec(), "a re-deal, not new cards");
        missions_moved |= s.players[Seat(1)].mission != Mission::M7;
        boxed_moved |= s.boxed_missions != g.boxed_missions;
        let Step::ChooseCards { chosen } = &s.step else { panic!("still choosing") };
        assert_eq!(chosen.0[0], Some(2), "the viewer's own card stays");
        assert_eq!(chosen.0[2], None, "who has not chosen is public");
        assert!(chosen.0[1].is_some_and(|c| (1..=6).contains(&c)));
        card_moved |= chosen.0[1] != Some(5);
        rng_moved |= s.rng != g.rng;
        assert_eq!(s.view(Viewer::Seat(Seat(0))), g.view(Viewer::Seat(Seat(0))));
    }
    assert!(missions_moved && boxed_moved && card_moved && rng_moved);
    // A spectator sees no mission: all five re-dealt among players and box.
    let s = g.scramble_hidden(Viewer::Spectator, &mut rng);
    let Step::ChooseCards { chosen } = &s.step else { panic!("still choosing") };
    assert!(chosen.0[0].is_some() && chosen.0[2].is_none());
    assert_eq!(s.view(Viewer::Spectator), g.view(Viewer::Spectator));
    // Others' chosen cards and missions are really absent from the view.
    let view = g.view(Viewer::Seat(Seat(0)));
    assert_eq!(view.my_card, Some(2));
    assert_eq!(view.players.iter().map(|(_, p)| p.mission).collect::<Vec<_>>(), vec![Some(Mission::M6), None, None]);
    assert_eq!(
        view.players.iter().map(|(_, p)| p.has_chosen_card).collect::<Vec<_>>(),
        vec![Some(true), Some(true), Some(false)]
    );
}
