//! Scenario tests: every example of the rulebook and every check of the spec's section 8
//! (SC-01 to SC-18), each asserting the exact numbers a player would see.

use game_core::{BySeat, Game, GameEvent, Seat, SeatNames};
use templars_journey::action::Action::{self, *};
use templars_journey::board::{City as C, EdictSpace, Mission, Territory as T, Tile};
use templars_journey::event::{Event, Toss};
use templars_journey::state::{Prompt, Step, TemplarsJourney, VpSource};
use templars_journey::testing::{
    act, evaluate, final_scoring, knights, legal_actions, rng_tossing, scenario, set_city, set_templars, set_temple,
    settle, space, temple_majority, temples, vp,
};

fn sorted(mut v: Vec<Action>) -> Vec<Action> {
    v.sort_by_key(|a| format!("{a:?}"));
    v
}

fn set_gold(g: &mut TemplarsJourney, t: T, gold: u32) {
    g.territory_gold[t.index()] = gold;
}

/// A scenario where every Templar stands in Castilla (no city, no gold nearby).
fn base(players: usize, first: u8, edicts: [C; 7]) -> TemplarsJourney {
    let mut g = scenario(players, Seat(first), edicts);
    for i in 0..players {
        set_templars(&mut g, Seat(i as u8), T::Castilla, T::Castilla);
    }
    g
}

/// Jumps to the card choice (D8) with the Pope on `pope`.
fn at_card_choice(g: &mut TemplarsJourney, pope: &str) {
    g.pope = space(pope);
    g.step = Step::ChooseCards { chosen: BySeat(vec![None; g.players.len()]) };
}

fn choose(g: &mut TemplarsJourney, cards: &[u8]) -> Vec<Event> {
    let mut events = Vec::new();
    for (i, card) in cards.iter().enumerate() {
        events.extend(act(g, i as u8, ChooseCard { card: *card }));
    }
    events
}

fn revealed(events: &[Event]) -> (Vec<Seat>, Vec<Seat>) {
    events
        .iter()
        .find_map(|e| match e {
            Event::CardsRevealed { penalised, order, .. } => Some((order.clone(), penalised.clone())),
            _ => None,
        })
        .expect("the cards were revealed")
}

fn seats(v: &[u8]) -> Vec<Seat> {
    v.iter().map(|s| Seat(*s)).collect()
}

const EDICTS: [C; 7] = [C::Coeln, C::Venezia, C::London, C::Paris, C::Bordeaux, C::Lyon, C::Roma];

// SC-01 ------------------------------------------------------------------------------------

#[test]
fn sc01_lukas_places_a_knight_in_barcelona_on_the_green_flag() {
    // Seats: Lukas (blue) 0, Kirsten (red) 1, Leon (green) 2; Lukas is first player.
    let mut g = base(3, 0, [C::Barcelona, C::London, C::Paris, C::Bordeaux, C::Lyon, C::Coeln, C::Roma]);
    set_templars(&mut g, Seat(0), T::Barcelona, T::Castilla);
    set_city(&mut g, C::Barcelona, Tile::T2, &[0, 1, 1]);
    g.players[Seat(0)].supply = 15;
    assert_eq!(legal_actions(&g, 0), vec![MovePope { to: space("L1G1") }, MovePope { to: space("L1R1") }]);
    act(&mut g, 0, MovePope { to: space("L1G1") });
    assert_eq!(legal_actions(&g, 0), vec![PlaceKnight { city: C::Barcelona }, Decline]);
    let events = act(&mut g, 0, PlaceKnight { city: C::Barcelona });
    assert_eq!(knights(&g, C::Barcelona), vec![1, 1, 1]);
    assert_eq!(g.players[Seat(0)].supply, 14);
    assert!(matches!(g.step, Step::ChooseCards { .. }), "D6 skipped, D8 next: {:?}", g.step);
    let names = SeatNames(vec!["Lukas".into(), "Kirsten".into(), "Leon".into()]);
    assert_eq!(events[0].describe(&names), "Lukas placed a knight in Barcelona (green flag)");
}

// SC-02 ------------------------------------------------------------------------------------

#[test]
fn sc02_kirsten_removes_blues_knight_from_roma_on_the_red_flag() {
    // Seats: Lukas (blue) 0, Kirsten (red) 1, Leon (green) 2; Kirsten is first player.
    let mut g = base(3, 1, EDICTS);
    set_templars(&mut g, Seat(1), T::Roma, T::Napoli);
    set_city(&mut g, C::Roma, Tile::T4, &[1, 2, 1]);
    act(&mut g, 1, MovePope { to: space("L1R1") });
    assert_eq!(
        legal_actions(&g, 1),
        vec![RemoveKnight { city: C::Roma, owner: Seat(0) }, RemoveKnight { city: C::Roma, owner: Seat(2) }, Decline]
    );
    let events = act(&mut g, 1, RemoveKnight { city: C::Roma, owner: Seat(0) });
    assert_eq!(knights(&g, C::Roma), vec![0, 2, 1]);
    assert_eq!(temples(&g), vec![1, 0, 0]);
    let names = SeatNames(vec!["Blue".into(), "Kirsten".into(), "Green".into()]);
    assert_eq!(events[0].describe(&names), "Kirsten removed Blue's knight from Roma (red flag)");
}

// SC-03 ------------------------------------------------------------------------------------

#[test]
fn sc03a_a_green_flag_without_templars_at_a_city_is_forfeited() {
    let mut g = base(3, 0, EDICTS);
    set_templars(&mut g, Seat(0), T::Castilla, T::Napoli);
    let before = g.clone();
    let events = act(&mut g, 0, MovePope { to: space("L1G1") });
    assert!(events.iter().any(|e| matches!(e, Event::Forfeited { seat: Seat(0), .. })));
    // The state is unchanged except the Pope (and the step, now D8).
    assert_eq!((&g.cities, &g.players, &g.territory_gold), (&before.cities, &before.players, &before.territory_gold));
    assert_eq!((g.first, &g.edict_spaces), (before.first, &before.edict_spaces));
    assert_eq!(g.pope, space("L1G1"));
    assert!(matches!(g.step, Step::ChooseCards { .. }));
}

#[test]
fn sc03b_a_red_flag_with_only_own_knights_in_reach_is_forfeited() {
    let mut g = base(3, 0, EDICTS);
    set_templars(&mut g, Seat(0), T::Roma, T::Venezia);
    set_city(&mut g, C::Roma, Tile::T4, &[2, 0, 0]);
    set_city(&mut g, C::Venezia, Tile::T6, &[1, 0, 0]);
    let events = act(&mut g, 0, MovePope { to: space("L1R1") });
    assert!(events.iter().any(|e| matches!(e, Event::Forfeited { seat: Seat(0), .. })));
    assert_eq!((knights(&g, C::Roma), knights(&g, C::Venezia)), (vec![2, 0, 0], vec![1, 0, 0]));
    assert_eq!(temples(&g), vec![0, 0, 0]);
    assert!(matches!(g.step, Step::ChooseCards { .. }));
}

// SC-04 and SC-05 (a) ---------------------------------------------------------------------

#[test]
fn sc04_cards_resolve_in_number_order_with_ties_from_the_first_player() {
    // Seats: Blue 0, Orange 1, Red 2, Yellow 3, Green 4; Blue is first player.
    let mut g = base(5, 0, EDICTS);
    at_card_choice(&mut g, "L1G1");
    let events = choose(&mut g, &[2, 1, 5, 5, 6]);
    let (order, penalised) = revealed(&events);
    assert_eq!(order, seats(&[1, 0, 2, 3, 4]), "Orange, Blue, Red, Yellow, Green");
    // SC-05 (a): two gold cards do not trigger; three move cards penalise the risky 5s only.
    assert_eq!(penalised, seats(&[2, 3]));
    let started: Vec<(Seat, bool)> = events
        .iter()
        .filter_map(|e| match e {
            Event::CardActionStarted { seat, penalty, .. } => Some((*seat, *penalty)),
            _ => None,
        })
        .collect();
    assert_eq!(started[..3], [(Seat(1), false), (Seat(0), false), (Seat(2), true)]);
    // Red and Yellow may still move (penalty move), then Green; nothing else to decide.
    act(&mut g, 2, Stop);
    act(&mut g, 3, Stop);
    act(&mut g, 4, Stop);
    assert_eq!(g.first, Seat(1), "after A8 the marker is with Orange");
    assert_eq!(g.step, Step::PopeStep);
}

#[test]
fn sc04_variant_the_first_player_goes_first_among_tied_fives() {
    let mut g = base(5, 0, EDICTS);
    at_card_choice(&mut g, "L1G1");
    let (order, penalised) = revealed(&choose(&mut g, &[5, 1, 5, 5, 6]));
    assert_eq!(order, seats(&[1, 0, 2, 3, 4]), "Orange, then the 5s as Blue, Red, Yellow");
    assert_eq!(penalised, seats(&[0, 2, 3]));
}

// SC-05 ------------------------------------------------------------------------------------

fn penalised_for(cards: &[u8]) -> Vec<Seat> {
    let mut g = base(cards.len(), 0, EDICTS);
    at_card_choice(&mut g, "L1G1");
    revealed(&choose(&mut g, cards)).1
}

#[test]
fn sc05_penalty_thresholds_depend_on_the_player_count() {
    assert_eq!(penalised_for(&[2, 1, 6]), seats(&[0]), "(b) 3 players, two gold cards");
    assert_eq!(penalised_for(&[4, 4, 3, 5]), seats(&[0, 1]), "(c) 4 players, three place cards");
    assert_eq!(penalised_for(&[5, 6, 1, 1]), seats(&[]), "(d) 4 players, two move cards");
    assert_eq!(penalised_for(&[5, 6, 6]), seats(&[0]), "(e) 3 players, three move cards");
}

// SC-06 ------------------------------------------------------------------------------------

/// Lukas (0) has both Templars in Bordeaux; Red (1) and Green (2) stand in Napoli.
fn bordeaux(cards: &[u8]) -> TemplarsJourney {
    let mut g = base(3, 0, [C::Paris, C::Lyon, C::Bordeaux, C::Barcelona, C::London, C::Coeln, C::Venezia]);
    set_templars(&mut g, Seat(0), T::Bordeaux, T::Bordeaux);
    set_templars(&mut g, Seat(1), T::Napoli, T::Napoli);
    set_templars(&mut g, Seat(2), T::Napoli, T::Napoli);
    for (t, gold) in [
        (T::Bordeaux, 4),
        (T::Paris, 4),
        (T::Lyon, 2),
        (T::Barcelona, 5),
        (T::Bretagne, 3),
        (T::Castilla, 3),
        (T::Provence, 3),
    ] {
        set_gold(&mut g, t, gold);
    }
    at_card_choice(&mut g, "L1G1");
    choose(&mut g, cards);
    let expected = vec![
        TakeGold { territory: T::Paris },
        TakeGold { territory: T::Bordeaux },
        TakeGold { territory: T::Lyon },
        TakeGold { territory: T::Barcelona },
    ];
    assert_eq!(sorted(legal_actions(&g, 0)), sorted(expected), "D9: Bordeaux and its three neighbours");
    g
}

#[test]
fn sc06a_collect_gold_safe_takes_three_from_barcelona() {
    let mut g = bordeaux(&[1, 6, 6]);
    act(&mut g, 0, TakeGold { territory: T::Barcelona });
    assert_eq!(g.players[Seat(0)].gold, 8);
    assert_eq!(g.gold_at(T::Barcelona), 2);
}

#[test]
fn sc06b_collect_gold_safe_takes_only_what_lyon_has() {
    let mut g = bordeaux(&[1, 6, 6]);
    act(&mut g, 0, TakeGold { territory: T::Lyon });
    assert_eq!(g.players[Seat(0)].gold, 7);
    assert_eq!(g.gold_at(T::Lyon), 0);
}

#[test]
fn sc06c_collect_gold_risky_takes_all_of_barcelona() {
    let mut g = bordeaux(&[2, 3, 6]);
    act(&mut g, 0, TakeGold { territory: T::Barcelona });
    assert_eq!(g.players[Seat(0)].gold, 10);
    assert_eq!(g.gold_at(T::Barcelona), 0);
}

#[test]
fn sc06d_the_penalised_risky_collect_takes_two_then_sacrifices_a_knight() {
    let mut g = bordeaux(&[2, 1, 6]);
    set_city(&mut g, C::Paris, Tile::T1, &[1, 0, 0]);
    set_city(&mut g, C::Lyon, Tile::T2, &[2, 0, 0]);
    act(&mut g, 0, TakeGold { territory: T::Paris });
    assert_eq!(g.players[Seat(0)].gold, 7);
    assert_eq!(g.gold_at(T::Paris), 2);
    assert_eq!(legal_actions(&g, 0), vec![Sacrifice { city: C::Paris }, Sacrifice { city: C::Lyon }]);
    act(&mut g, 0, Sacrifice { city: C::Lyon });
    assert_eq!(knights(&g, C::Lyon), vec![1, 0, 0]);
    assert_eq!(temples(&g), vec![1, 0, 0]);
}

// SC-07 ------------------------------------------------------------------------------------

#[test]
fn sc07_kirsten_places_tosses_and_removes_in_venezia() {
    // Seats: Blue 0, Kirsten (red) 1, Green 2.
    let mut g = base(3, 0, EDICTS);
    set_templars(&mut g, Seat(1), T::Venezia, T::Napoli);
    set_city(&mut g, C::Venezia, Tile::T6, &[2, 1, 1]);
    g.players[Seat(1)].gold = 7;
    g.players[Seat(1)].supply = 10;
    at_card_choice(&mut g, "L1G1");
    choose(&mut g, &[6, 3, 6]);
    assert_eq!(legal_actions(&g, 1), vec![ChooseCity { city: C::Venezia }, Decline]);
    act(&mut g, 1, ChooseCity { city: C::Venezia });
    act(&mut g, 1, PlaceKnight { city: C::Venezia });
    assert_eq!(knights(&g, C::Venezia), vec![2, 2, 1]);
    g.rng = rng_tossing(&[Toss::Cross, Toss::Blank]);
    act(&mut g, 1, Toss);
    act(&mut g, 1, RemoveKnight { city: C::Venezia, owner: Seat(2) });
    assert_eq!(temples(&g), vec![0, 0, 1]);
    let events = act(&mut g, 1, Toss);
    assert!(events.contains(&Event::Tossed { seat: Seat(1), result: Toss::Blank, paid: 1 }));
    assert_eq!(
        g.step,
        Step::Card { seat: Seat(1), prompt: Prompt::SafeStep { city: C::Venezia, spent: 4, chances: 0 } }
    );
    assert_eq!(
        legal_actions(&g, 1),
        vec![PlaceKnight { city: C::Venezia }, RemoveKnight { city: C::Venezia, owner: Seat(0) }, Toss, Stop]
    );
    act(&mut g, 1, Stop);
    assert_eq!(knights(&g, C::Venezia), vec![2, 2, 0]);
    assert_eq!(g.players[Seat(1)].gold, 3);
    assert_eq!(g.players[Seat(1)].supply, 9);
}

// SC-08 ------------------------------------------------------------------------------------

#[test]
fn sc08_kirsten_exchanges_the_blue_and_green_knights_in_venezia() {
    let mut g = base(3, 0, EDICTS);
    set_templars(&mut g, Seat(1), T::Venezia, T::Napoli);
    set_city(&mut g, C::Venezia, Tile::T6, &[1, 1, 1]);
    g.players[Seat(1)].gold = 5;
    g.players[Seat(1)].supply = 10;
    at_card_choice(&mut g, "L1G1");
    choose(&mut g, &[6, 4, 6]);
    act(&mut g, 1, ChooseCity { city: C::Venezia });
    act(&mut g, 1, ExchangeKnight { city: C::Venezia, owner: Seat(0) });
    act(&mut g, 1, ExchangeKnight { city: C::Venezia, owner: Seat(2) });
    assert_eq!(knights(&g, C::Venezia), vec![0, 3, 0]);
    assert_eq!(temples(&g), vec![1, 0, 1]);
    assert_eq!(g.players[Seat(1)].gold, 1);
    assert_eq!(g.players[Seat(1)].supply, 8);
    assert!(matches!(g.step, Step::Card { seat: Seat(0), .. }), "only Stop was left: the action ended");
}

// SC-09 ------------------------------------------------------------------------------------

/// Leon (2) plays card 5 from Bordeaux; Blue (0) plays 1 and Red (1) plays 3 to no effect.
fn leon_moves(temples_br: [u32; 2]) -> TemplarsJourney {
    let mut g = base(3, 0, [C::London, C::Venezia, C::Bordeaux, C::Coeln, C::Paris, C::Lyon, C::Roma]);
    set_templars(&mut g, Seat(2), T::Bordeaux, T::Napoli);
    set_gold(&mut g, T::Lyon, 2);
    set_gold(&mut g, T::Bordeaux, 1);
    set_gold(&mut g, T::Paris, 3);
    set_temple(&mut g, Seat(0), temples_br[0]);
    set_temple(&mut g, Seat(1), temples_br[1]);
    at_card_choice(&mut g, "L1G1");
    choose(&mut g, &[1, 3, 5]);
    assert_eq!(
        legal_actions(&g, 2),
        vec![ChooseTemplar { territory: T::Bordeaux }, ChooseTemplar { territory: T::Napoli }]
    );
    act(&mut g, 2, ChooseTemplar { territory: T::Bordeaux });
    act(&mut g, 2, MoveTemplar { to: T::Lyon });
    act(&mut g, 2, MoveTemplar { to: T::Bordeaux });
    act(&mut g, 2, MoveTemplar { to: T::Paris });
    g
}

#[test]
fn sc09_leon_moves_through_lyon_and_bordeaux_to_paris_and_swaps_paris_with_coeln() {
    let mut g = leon_moves([0, 2]);
    assert_eq!(g.gold_at(T::Lyon), 1);
    assert_eq!(g.gold_at(T::Bordeaux), 0);
    assert_eq!(g.gold_at(T::Paris), 2);
    assert_eq!(g.players[Seat(2)].gold, 8);
    let mut expected: Vec<Action> = [C::London, C::Venezia, C::Bordeaux, C::Coeln, C::Lyon, C::Roma]
        .into_iter()
        .map(|with| ExchangeEdict { with })
        .collect();
    expected.push(Decline);
    assert_eq!(legal_actions(&g, 2), expected);
    act(&mut g, 2, ExchangeEdict { with: C::Coeln });
    assert_eq!(g.edict_on(EdictSpace::E2b), Some(C::Paris), "Paris is evaluated in shipping round 2");
    assert_eq!(g.edict_on(EdictSpace::E3a), Some(C::Coeln));
    assert_eq!(g.step, Step::PopeStep, "nobody could veto; the card phase is over");
}

// SC-10 ------------------------------------------------------------------------------------

#[test]
fn sc10_the_venezia_shipping_example_ends_at_red_6_blue_4_green_3() {
    // Seats: Blue 0 (first player), Red 1, Green 2.
    let mut g = base(3, 0, EDICTS);
    g.edict_spaces[EdictSpace::E1a.index()] = None;
    g.evaluated[EdictSpace::E1a.index()] = true;
    g.removed_edicts.push(C::Coeln);
    set_city(&mut g, C::Venezia, Tile::T6, &[2, 3, 2]);
    let events = evaluate(&mut g, EdictSpace::E1b);
    assert_eq!(vp(&g), vec![4, 6, 3], "Blue 4, Red 6, Green 3");
    assert_eq!(g.players[Seat(1)].edicts, vec![C::Venezia]);
    assert_eq!(g.ships[EdictSpace::E1b.index()].0, vec![2, 2, 1]);
    assert_eq!(temples(&g), vec![0, 1, 1]);
    assert!(events.contains(&Event::FullCity { city: C::Venezia, seats: seats(&[0, 1, 2]) }));
    assert_eq!(g.city(C::Venezia).tile, None);
    assert_eq!(g.boxed_tiles, vec![Tile::T6]);
    let venezia_before = g.gold_at(T::Venezia);
    g.deal_gold(1);
    assert_eq!(g.gold_at(T::Venezia), venezia_before + 1, "Venezia now counts as a territory without a city");
}

// SC-11 ------------------------------------------------------------------------------------

#[test]
fn sc11_the_temple_majority_is_shared_and_rounded_down() {
    // Seats: Blue 0, Red 1, Green 2; round 1 runs from a forced Pope move into H1.
    let mut g = base(3, 0, EDICTS);
    set_temple(&mut g, Seat(0), 1);
    set_temple(&mut g, Seat(1), 2);
    set_temple(&mut g, Seat(2), 2);
    g.pope = space("L1G3");
    g.step = Step::PopeStep;
    let events = settle(&mut g);
    assert!(events.contains(&Event::ShippingRound { round: 1 }));
    assert_eq!(vp(&g), vec![0, 1, 1]);
    assert_eq!(g.pope, space("S2"));
    // Round 2: Blue 3, Red 1, Green 0.
    set_temple(&mut g, Seat(0), 3);
    set_temple(&mut g, Seat(1), 1);
    set_temple(&mut g, Seat(2), 0);
    temple_majority(&mut g, 2);
    assert_eq!(vp(&g), vec![3, 1, 1]);
}

// SC-12 ------------------------------------------------------------------------------------

#[test]
fn sc12_new_gold_after_shipping_round_1_for_three_players() {
    let mut g = base(3, 0, [C::Coeln, C::Venezia, C::London, C::Paris, C::Bordeaux, C::Lyon, C::Barcelona]);
    set_gold(&mut g, T::Paris, 2);
    g.pope = space("L1G3");
    g.step = Step::PopeStep;
    let before = g.territory_gold.clone();
    settle(&mut g);
    for t in T::ALL {
        let plus = g.gold_at(t) - before[t.index()];
        let with_tile = [T::London, T::Paris, T::Bordeaux, T::Lyon, T::Barcelona].contains(&t);
        assert_eq!(plus, if with_tile { 4 } else { 1 }, "{t:?}");
    }
    assert_eq!(g.gold_at(T::Coeln), 1);
    assert_eq!(g.gold_at(T::Paris), 6);
    assert_eq!(g.deal_gold(2), (4, 2), "after shipping round 2 the rates are 4 and 2");
}

// SC-13 ------------------------------------------------------------------------------------

/// Plays a leg with the Pope steps `route` (all players play card 3 to no effect) and returns
/// the first players of each card phase and the events of the last action.
fn play_leg(g: &mut TemplarsJourney, route: &[&str]) -> (Vec<Seat>, Vec<Event>) {
    let mut firsts = Vec::new();
    let mut last = Vec::new();
    for to in route {
        let fp = g.first;
        act(g, fp.0, MovePope { to: space(to) });
        firsts.push(g.first);
        last = choose(g, &[3, 3, 3]);
    }
    (firsts, last)
}

#[test]
fn sc13_three_green_steps_give_three_card_phases_and_the_first_player_enters_the_harbour() {
    let mut g = base(3, 0, EDICTS);
    let (firsts, last) = play_leg(&mut g, &["L1G1", "L1G2", "L1G3"]);
    assert_eq!(firsts, seats(&[0, 1, 2]));
    assert_eq!(g.card_phases, 3);
    assert!(last.contains(&Event::MarkerPassed { to: Seat(0) }));
    assert!(last.contains(&Event::PopeMoved { seat: Seat(0), to: space("H1"), forced: true }));
    assert!(last.contains(&Event::ShippingRound { round: 1 }));
    assert_eq!(g.pope, space("S2"));
    assert_eq!(g.first, Seat(0));
    assert_eq!(legal_actions(&g, 0), vec![MovePope { to: space("L2G1") }, MovePope { to: space("L2R1") }]);
    // The rulebook's picture: the new round starts on the red flag.
    act(&mut g, 0, MovePope { to: space("L2R1") });
    assert_eq!(g.pope, space("L2R1"));
}

#[test]
fn sc13_the_outer_route_through_r3_forces_r4_and_a_fourth_card_phase() {
    let mut g = base(3, 0, EDICTS);
    let (firsts, last) = play_leg(&mut g, &["L1R1", "L1G2", "L1R3"]);
    assert_eq!(firsts, seats(&[0, 1, 2]));
    assert!(last.contains(&Event::PopeMoved { seat: Seat(0), to: space("L1R4"), forced: true }));
    assert_eq!(g.card_phases, 3);
    let last = choose(&mut g, &[3, 3, 3]);
    assert_eq!(g.card_phases, 4);
    assert!(last.contains(&Event::PopeMoved { seat: Seat(1), to: space("H1"), forced: true }));
    assert!(last.contains(&Event::ShippingRound { round: 1 }));
    assert_eq!(g.first, Seat(1));
}

#[test]
fn sc13_green_red_green_gives_three_card_phases() {
    let mut g = base(3, 0, EDICTS);
    play_leg(&mut g, &["L1G1", "L1R2", "L1G3"]);
    assert_eq!(g.card_phases, 3);
    assert_eq!(g.pope, space("S2"));
}

// SC-14 ------------------------------------------------------------------------------------

fn end_with_london(g: &mut TemplarsJourney) {
    for s in EdictSpace::ALL.into_iter().take(6) {
        g.edict_spaces[s.index()] = None;
        g.evaluated[s.index()] = true;
    }
    g.edict_spaces[EdictSpace::E7.index()] = Some(C::London);
    for c in [C::Coeln, C::Venezia, C::Paris, C::Bordeaux, C::Lyon, C::Roma] {
        g.city_mut(c).tile = None;
    }
}

#[test]
fn sc14_london_is_the_seventh_city() {
    // Seats: Blue 0, Red 1, Green 2. London: Blue 3, Red 1, Green 2.
    let mut g = base(3, 0, EDICTS);
    end_with_london(&mut g);
    set_city(&mut g, C::London, Tile::T4, &[3, 1, 2]);
    let events = final_scoring(&mut g);
    assert!(events.contains(&Event::SeventhCity { city: C::London, winner: Some(Seat(0)), vp: BySeat(vec![3, 0, 1]) }));
    assert_eq!(g.players[Seat(0)].vp.get(&VpSource::SeventhCityMajority), Some(&2));
    assert_eq!(g.players[Seat(0)].edicts, vec![C::London]);
    assert_eq!(knights(&g, C::London), vec![3, 1, 2], "the knights stay on London");
}

// SC-15 ------------------------------------------------------------------------------------

#[test]
fn sc15_final_scoring_ends_kirsten_34_lukas_28_leon_25() {
    // Seats: Kirsten (red) 0, Lukas (blue) 1, Leon (green) 2.
    let mut g = base(3, 0, EDICTS);
    end_with_london(&mut g);
    set_city(&mut g, C::London, Tile::T4, &[1, 3, 2]);
    for (i, points) in [15, 15, 16].into_iter().enumerate() {
        g.players[Seat(i as u8)].gain(VpSource::Ship, points);
    }
    g.players[Seat(0)].edicts = vec![C::Paris, C::Coeln, C::Venezia];
    g.players[Seat(1)].edicts = vec![C::Roma];
    g.players[Seat(2)].edicts = vec![C::Lyon, C::Bordeaux];
    for (i, gold) in [13, 9, 9].into_iter().enumerate() {
        g.players[Seat(i as u8)].gold = gold;
    }
    set_templars(&mut g, Seat(0), T::Roma, T::Napoli);
    set_templars(&mut g, Seat(1), T::Paris, T::Paris);
    set_templars(&mut g, Seat(2), T::Bordeaux, T::Wien);
    g.face_up_missions = vec![Mission::M1, Mission::M7];
    g.players[Seat(0)].mission = Mission::M6;
    g.players[Seat(1)].mission = Mission::M5;
    g.players[Seat(2)].mission = Mission::M8;
    g.boxed_missions = vec![Mission::M2, Mission::M3, Mission::M4];
    let events = final_scoring(&mut g);
    assert!(events.contains(&Event::SeventhCity { city: C::London, winner: Some(Seat(1)), vp: BySeat(vec![0, 3, 1]) }));
    assert!(events.contains(&Event::GoldScored { vp: BySeat(vec![3, 2, 2]) }));
    let missions: Vec<(Mission, Vec<u32>)> = events
        .iter()
        .filter_map(|e| match e {
            Event::MissionScored { mission, vp } => Some((*mission, vp.0.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        missions,
        vec![
            (Mission::M1, vec![4, 2, 2]),
            (Mission::M7, vec![4, 0, 0]),
            (Mission::M6, vec![4, 2, 0]),
            (Mission::M5, vec![2, 4, 0]),
            (Mission::M8, vec![2, 0, 4]),
        ]
    );
    assert_eq!(vp(&g), vec![34, 28, 25]);
    let outcome = g.outcome().expect("the game is over");
    assert_eq!(outcome.scores, vec![34, 28, 25]);
    assert_eq!(outcome.winners, seats(&[0]));
    assert!(g.to_act().is_empty());
}

#[test]
fn a_tie_in_vp_goes_to_the_most_edicts_and_then_is_shared() {
    let mut g = base(3, 0, EDICTS);
    g.step = Step::GameOver;
    for i in 0..3 {
        g.players[Seat(i)].gain(VpSource::Ship, 20);
    }
    g.players[Seat(1)].edicts = vec![C::Paris, C::Roma];
    g.players[Seat(2)].edicts = vec![C::Lyon];
    assert_eq!(g.outcome().expect("over").winners, seats(&[1]));
    g.players[Seat(2)].edicts.push(C::Bordeaux);
    let outcome = g.outcome().expect("over");
    assert_eq!(outcome.winners, seats(&[1, 2]), "still tied: a shared victory");
    assert_eq!(outcome.ranks, vec![3, 1, 1]);
}

// SC-16 ------------------------------------------------------------------------------------

#[test]
fn sc16_the_leader_marker_is_passed_twice_and_accepted_automatically() {
    // Seats: A 0 (first), B 1, C 2, D 3. Temples A 3, B 1, C 4, D 0.
    let mut g = base(4, 0, EDICTS);
    set_templars(&mut g, Seat(0), T::Paris, T::Castilla);
    for (i, t) in [3, 1, 4, 0].into_iter().enumerate() {
        set_temple(&mut g, Seat(i as u8), t);
    }
    act(&mut g, 0, MovePope { to: space("L1G1") });
    act(&mut g, 0, PlaceKnight { city: C::Paris });
    let supply_a = g.players[Seat(0)].supply;
    let supply_c = g.players[Seat(2)].supply;
    assert_eq!(
        legal_actions(&g, 0),
        vec![Decline, PassLeader { to: Seat(1) }, PassLeader { to: Seat(2) }, PassLeader { to: Seat(3) }]
    );
    act(&mut g, 0, PassLeader { to: Seat(2) });
    assert_eq!(
        legal_actions(&g, 2),
        vec![Accept, PassLeader { to: Seat(0) }, PassLeader { to: Seat(1) }, PassLeader { to: Seat(3) }]
    );
    let events = act(&mut g, 2, PassLeader { to: Seat(1) });
    assert!(events.contains(&Event::LeaderAccepted { seat: Seat(1) }));
    assert_eq!(temples(&g), vec![0, 1, 1, 0]);
    assert_eq!(g.players[Seat(0)].supply, supply_a + 3);
    assert_eq!(g.players[Seat(2)].supply, supply_c + 3);
    assert_eq!(g.first, Seat(1));
    assert_eq!(g.pope, space("L1G1"), "no new Pope move");
    assert!(matches!(g.step, Step::ChooseCards { .. }));
    let (order, _) = revealed(&choose(&mut g, &[3, 3, 3, 3]));
    assert_eq!(order, seats(&[1, 2, 3, 0]), "ties count from the new first player");
    act(&mut g, 0, Decline);
    assert_eq!(g.first, Seat(2), "after A8 the marker is with C");
}

// SC-17 ------------------------------------------------------------------------------------

#[test]
fn sc17_the_second_player_asked_vetoes_the_edict_exchange() {
    let mut g = leon_moves([4, 5]);
    let gold = g.players[Seat(2)].gold;
    let supply = g.players[Seat(1)].supply;
    act(&mut g, 2, ExchangeEdict { with: C::Coeln });
    assert_eq!(g.to_act(), seats(&[0]), "asked clockwise from the mover: seat 0 first");
    assert_eq!(legal_actions(&g, 0), vec![Allow, Veto]);
    act(&mut g, 0, Allow);
    assert_eq!(g.to_act(), seats(&[1]));
    act(&mut g, 1, Veto);
    assert_eq!(g.edict_on(EdictSpace::E2b), Some(C::Coeln));
    assert_eq!(g.edict_on(EdictSpace::E3a), Some(C::Paris));
    assert_eq!(temples(&g), vec![4, 1, 0]);
    assert_eq!(g.players[Seat(1)].supply, supply + 4);
    assert_eq!(g.players[Seat(2)].gold, gold, "the mover keeps the gold of the move");
}

#[test]
fn sc17_variant_a_first_veto_ends_the_asking() {
    let mut g = leon_moves([4, 5]);
    act(&mut g, 2, ExchangeEdict { with: C::Coeln });
    act(&mut g, 0, Veto);
    assert_eq!(temples(&g), vec![0, 5, 0]);
    assert_eq!(g.edict_on(EdictSpace::E3a), Some(C::Paris));
    assert_eq!(g.step, Step::PopeStep, "the other player is not asked");
}

// SC-18 ------------------------------------------------------------------------------------

#[test]
fn sc18a_taxes_take_two_more_gold_once() {
    let mut g = base(3, 0, EDICTS);
    set_templars(&mut g, Seat(0), T::Paris, T::Napoli);
    set_gold(&mut g, T::Paris, 5);
    set_gold(&mut g, T::Roma, 1);
    set_temple(&mut g, Seat(0), 2);
    let supply = g.players[Seat(0)].supply;
    at_card_choice(&mut g, "L1G1");
    choose(&mut g, &[1, 6, 6]);
    act(&mut g, 0, TakeGold { territory: T::Paris });
    assert_eq!(g.gold_at(T::Paris), 2);
    assert_eq!(legal_actions(&g, 0), vec![Taxes { territory: T::Paris }, Taxes { territory: T::Roma }, Decline]);
    act(&mut g, 0, Taxes { territory: T::Paris });
    assert_eq!(g.players[Seat(0)].gold, 10);
    assert_eq!(g.gold_at(T::Paris), 0);
    assert_eq!(g.players[Seat(0)].temple, 0);
    assert_eq!(g.players[Seat(0)].supply, supply + 2);
    assert!(matches!(g.step, Step::Card { seat: Seat(1), .. }), "Taxes is not offered again");
}

#[test]
fn sc18b_new_chance_is_offered_twice_per_card_action() {
    let mut g = base(3, 0, EDICTS);
    set_templars(&mut g, Seat(0), T::Venezia, T::Napoli);
    set_city(&mut g, C::Venezia, Tile::T6, &[0, 1, 0]);
    set_temple(&mut g, Seat(0), 3);
    g.players[Seat(0)].gold = 6;
    at_card_choice(&mut g, "L1G1");
    choose(&mut g, &[3, 6, 6]);
    act(&mut g, 0, ChooseCity { city: C::Venezia });
    g.rng = rng_tossing(&[Toss::Blank, Toss::Blank, Toss::Blank]);
    act(&mut g, 0, Toss);
    assert_eq!(legal_actions(&g, 0), vec![NewChance, Decline]);
    act(&mut g, 0, NewChance);
    assert_eq!(legal_actions(&g, 0), vec![NewChance, Decline]);
    let events = act(&mut g, 0, NewChance);
    assert!(events.contains(&Event::Tossed { seat: Seat(0), result: Toss::Blank, paid: 0 }));
    assert_eq!(
        g.step,
        Step::Card { seat: Seat(0), prompt: Prompt::SafeStep { city: C::Venezia, spent: 1, chances: 2 } }
    );
    assert_eq!(g.players[Seat(0)].temple, 1);
    assert_eq!(g.players[Seat(0)].gold, 5);
}

// Further rules without a rulebook example ------------------------------------------------

#[test]
fn a_safe_move_on_a_red_flag_removes_a_knight_where_the_templar_stops() {
    let mut g = base(3, 0, EDICTS);
    set_templars(&mut g, Seat(0), T::Napoli, T::Castilla);
    set_city(&mut g, C::Roma, Tile::T4, &[0, 2, 0]);
    at_card_choice(&mut g, "L1R1");
    choose(&mut g, &[6, 3, 3]);
    act(&mut g, 0, ChooseTemplar { territory: T::Napoli });
    act(&mut g, 0, MoveTemplar { to: T::Roma });
    act(&mut g, 0, Stop);
    assert_eq!(legal_actions(&g, 0), vec![RemoveKnight { city: C::Roma, owner: Seat(1) }, Decline]);
    act(&mut g, 0, RemoveKnight { city: C::Roma, owner: Seat(1) });
    assert_eq!(knights(&g, C::Roma), vec![0, 1, 0]);
    assert_eq!(temples(&g), vec![0, 1, 0]);
}

#[test]
fn the_penalised_risky_place_removes_for_two_gold_each_then_sacrifices() {
    // 3 players: two place cards trigger the penalty for the 4.
    let mut g = base(3, 0, EDICTS);
    set_templars(&mut g, Seat(0), T::Roma, T::Castilla);
    set_city(&mut g, C::Roma, Tile::T4, &[1, 2, 1]);
    at_card_choice(&mut g, "L1G1");
    choose(&mut g, &[4, 3, 6]);
    act(&mut g, 0, ChooseCity { city: C::Roma });
    act(&mut g, 0, RemoveKnight { city: C::Roma, owner: Seat(1) });
    act(&mut g, 0, RemoveKnight { city: C::Roma, owner: Seat(2) });
    // Gold 1 left: only Stop remains, so the sacrifice follows at once (only Roma holds a knight).
    assert_eq!(knights(&g, C::Roma), vec![0, 1, 0]);
    assert_eq!(temples(&g), vec![1, 1, 1]);
    assert_eq!(g.players[Seat(0)].gold, 1);
}

#[test]
fn the_penalised_risky_move_takes_one_gold_from_one_entered_territory_then_sacrifices() {
    let mut g = base(3, 0, EDICTS);
    set_templars(&mut g, Seat(0), T::Napoli, T::Castilla);
    set_gold(&mut g, T::Roma, 3);
    set_gold(&mut g, T::Lombardia, 2);
    set_city(&mut g, C::Venezia, Tile::T6, &[1, 0, 0]);
    set_city(&mut g, C::Coeln, Tile::T1, &[1, 0, 0]);
    at_card_choice(&mut g, "L1G1");
    choose(&mut g, &[5, 6, 3]);
    act(&mut g, 0, ChooseTemplar { territory: T::Napoli });
    act(&mut g, 0, MoveTemplar { to: T::Roma });
    act(&mut g, 0, MoveTemplar { to: T::Lombardia });
    act(&mut g, 0, Stop);
    assert_eq!(legal_actions(&g, 0), vec![TakeGold { territory: T::Lombardia }, TakeGold { territory: T::Roma }]);
    act(&mut g, 0, TakeGold { territory: T::Lombardia });
    assert_eq!((g.gold_at(T::Roma), g.gold_at(T::Lombardia)), (3, 1));
    assert_eq!(g.players[Seat(0)].gold, 6);
    assert_eq!(legal_actions(&g, 0), vec![Sacrifice { city: C::Coeln }, Sacrifice { city: C::Venezia }]);
    act(&mut g, 0, Sacrifice { city: C::Venezia });
    assert_eq!(temples(&g), vec![1, 0, 0]);
}

#[test]
fn setup_places_at_most_two_own_knights_per_city() {
    let mut g = base(3, 0, EDICTS);
    g.step = Step::SetupKnight { placed: 0 };
    set_city(&mut g, C::Coeln, Tile::T1, &[2, 0, 0]);
    assert!(!legal_actions(&g, 0).contains(&SetupKnight { city: C::Coeln }));
    assert!(legal_actions(&g, 0).contains(&SetupKnight { city: C::Venezia }));
    assert!(!legal_actions(&g, 0).contains(&SetupKnight { city: C::Barcelona }), "Barcelona's edict is boxed");
}
