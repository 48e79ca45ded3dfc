//! The spec's §8 scenario checks S1–S14, one test each (variants inside).

use super::{act, c, cards, names, pick, Given};
use crate::state::{EndReason, KnightsTemplar, Pending, Stage};
use crate::view::PendingView;
use crate::{Action, CardType, Event};
use game_core::{Game, Seat, Viewer};

fn picks_by(events: &[game_core::Event<Event>], seat: u8) -> usize {
    events.iter().filter(|e| matches!(e.event, Event::Picked { seat: s, .. } if s == Seat(seat))).count()
}

#[test]
fn s1_each_type_goes_to_its_pickers_tableau_in_a_two_player_turn() {
    let mut g = Given {
        players: 2,
        fate: vec!["Myth", "Legend", "Outremer", "Holy Grail", "Poverty", "Politics", "Envy"],
        deck: vec!["Stone of Scone"],
        ..Given::default()
    }
    .picking(0);
    let script = [(0, "Holy Grail"), (1, "Envy"), (0, "Myth"), (1, "Outremer"), (0, "Poverty"), (1, "Politics")];
    for (i, (seat, card)) in script.iter().enumerate() {
        // Never a nomination prompt with 2 players; P0 opens rounds 2 and 3.
        assert_eq!(g.to_act(), vec![Seat(*seat)], "step {i}");
        assert!(matches!(g.pending(), Pending::Pick { .. }), "step {i}: {:?}", g.pending());
        if i == 2 || i == 4 {
            assert_eq!(*seat, 0, "the GM opens each round");
        }
        pick(&mut g, *seat, card);
    }
    // Round 4: Legend was taken automatically by P0; Power: P1 drew Stone of Scone.
    assert_eq!(names(&g, 0), vec!["Holy Grail", "Myth", "Poverty", "Legend"]);
    assert_eq!(names(&g, 1), vec!["Envy", "Outremer", "Politics", "Stone of Scone"]);
    assert_eq!(g.grand_master(), Seat(0), "P0 with 1 Mission stays GM");
    assert_eq!(g.county_vp(Seat(1)), 1);
    assert_eq!(g.county_vp(Seat(0)), 0);
    assert_eq!(g.turn(), 2, "turn 2 begins");
    assert_eq!(g.fate().len(), 7);
}

#[test]
fn s2_an_enemy_targets_only_other_players_cards_and_discards_face_up() {
    let mut g = Given {
        players: 3,
        fate: vec!["Turks", "Legend", "Holy Grail"],
        tableaus: vec![vec!["Myth"], vec!["Outremer"], vec!["Politics", "Envy"]],
        picked: vec![0],
        ..Given::default()
    }
    .picking(1);
    pick(&mut g, 1, "Turks");
    let mut options = g.legal_actions(Seat(1));
    options.sort_by_key(|a| format!("{a:?}"));
    let mut expected: Vec<Action> =
        cards(&["Myth", "Politics", "Envy"]).into_iter().map(|card| Action::Target { card }).collect();
    expected.sort_by_key(|a| format!("{a:?}"));
    assert_eq!(options, expected, "P1's own Outremer is not an option");
    act(&mut g, 1, Action::Target { card: c("Politics") });
    let tail: Vec<_> = g.discard().iter().rev().take(2).map(|d| (d.card.name(), d.face_down_by.is_none())).collect();
    assert_eq!(tail, vec![("Politics", true), ("Turks", true)]);
    assert_eq!(names(&g, 2), vec!["Envy"]);
    assert_eq!(g.to_act(), vec![Seat(2)], "P2 is nominated automatically");
    assert_eq!(g.pending(), &Pending::Pick { seat: Seat(2) });
}

#[test]
fn s3_a_battle_steals_a_mission_but_the_gm_changes_only_at_the_end_phase() {
    let mut g = Given {
        players: 3,
        fate: vec!["Hattin", "Legend", "Mysteries", "Holy Grail", "Outremer"],
        tableaus: vec![vec!["Poverty", "Chastity", "Myth"], vec!["Vows"], vec![]],
        picked: vec![0],
        ..Given::default()
    }
    .picking(1);
    pick(&mut g, 1, "Hattin");
    let options: Vec<Action> = g.legal_actions(Seat(1));
    assert_eq!(
        options,
        cards(&["Poverty", "Chastity", "Myth"]).into_iter().map(|card| Action::Target { card }).collect::<Vec<_>>()
    );
    act(&mut g, 1, Action::Target { card: c("Poverty") });
    assert_eq!(names(&g, 0), vec!["Chastity", "Myth"]);
    assert_eq!(names(&g, 1), vec!["Vows", "Poverty"]);
    let last = g.discard().last().map(|d| (d.card.name(), d.face_down_by));
    assert_eq!(last, Some(("Hattin", None)));
    // P2 picks (nominated automatically), then round 2 opens with P0 who also nominates.
    pick(&mut g, 2, "Legend");
    assert_eq!(g.grand_master(), Seat(0));
    assert_eq!(g.to_act(), vec![Seat(0)], "P0 still picks first in round 2");
    pick(&mut g, 0, "Mysteries");
    assert_eq!(g.pending(), &Pending::Nominate);
    assert_eq!(g.to_act(), vec![Seat(0)], "P0 still makes the nominations");
    act(&mut g, 0, Action::Nominate { seat: Seat(2) });
    pick(&mut g, 2, "Holy Grail");
    // P1 takes Outremer automatically; no Power cards; End Phase: P1 has 2 Missions to P0's 1.
    assert_eq!(g.turn(), 2);
    assert_eq!(g.grand_master(), Seat(1));
}

#[test]
fn s4_a_single_target_is_stolen_without_a_prompt_even_a_downfall() {
    let mut g = Given {
        players: 3,
        fate: vec!["Siege", "Legend", "Holy Grail"],
        tableaus: vec![vec!["Scapegoats"], vec![], vec!["Myth"]],
        picked: vec![0, 1],
        ..Given::default()
    }
    .picking(2);
    pick(&mut g, 2, "Siege");
    assert_eq!(names(&g, 2), vec!["Myth", "Scapegoats"]);
    assert!(names(&g, 0).is_empty());
    assert_eq!(g.count(Seat(2), CardType::Downfall), 1);
    assert_eq!(g.count(Seat(0), CardType::Downfall), 0);
    assert!(!matches!(g.pending(), Pending::Target { .. }), "no DP4 prompt");
}

#[test]
fn s5_an_ally_shows_its_two_cards_only_to_its_player_and_discards_the_other_face_down() {
    let mut g = Given {
        players: 2,
        fate: vec!["Crusaders", "Legend", "Armenia"],
        deck: vec!["Envy", "Holy Grail", "Myth"],
        picked: vec![0],
        ..Given::default()
    }
    .picking(1);
    let deck_before = g.view(Viewer::Seat(Seat(0))).deck_count;
    pick(&mut g, 1, "Crusaders");
    assert_eq!(g.discard().last().map(|d| (d.card.name(), d.face_down_by)), Some(("Crusaders", None)));
    let mine = g.view(Viewer::Seat(Seat(1)));
    let theirs = g.view(Viewer::Seat(Seat(0)));
    match (&mine.pending, &theirs.pending) {
        (PendingView::AllyChoice { cards: Some(mine), .. }, PendingView::AllyChoice { resolver, cards: None }) => {
            assert_eq!(mine.map(|c| c.name), ["Envy", "Holy Grail"]);
            assert_eq!(*resolver, Seat(1));
        }
        other => panic!("unexpected pending views {other:?}"),
    }
    assert_eq!(theirs.deck_count, deck_before - 2);
    assert!(!serde_json::to_string(&theirs).unwrap_or_default().contains("Envy"), "P0 never sees Envy");

    act(&mut g, 1, Action::Keep { card: c("Holy Grail") });
    assert_eq!(names(&g, 1), vec!["Holy Grail"]);
    assert_eq!(g.discard().last().map(|d| (d.card.name(), d.face_down_by)), Some(("Envy", Some(Seat(1)))));
    let theirs = g.view(Viewer::Seat(Seat(0)));
    let face_down: Vec<_> = theirs.discard.iter().filter(|d| d.face_down).collect();
    assert_eq!(face_down.len(), 1);
    assert_eq!(face_down[0].card, None, "P0 sees one face-down card, not its identity");
    let mine = g.view(Viewer::Seat(Seat(1)));
    assert_eq!(mine.discard.iter().find(|d| d.face_down).and_then(|d| d.card).map(|c| c.name), Some("Envy"));
    assert_eq!(g.deck().first().map(|c| c.name()), Some("Myth"));
}

#[test]
fn s6_an_ally_chain_into_an_enemy_is_one_fate_pick() {
    let mut g = Given {
        players: 2,
        fate: vec!["Saint Bernard", "Legend", "Armenia"],
        deck: vec!["The Pope", "Myth", "Mamluks", "Poverty", "Outremer"],
        tableaus: vec![vec!["Politics"], vec![]],
        picked: vec![0],
        ..Given::default()
    }
    .picking(1);
    let deck_before = g.deck().len();
    let discard_before = g.discard().len();
    pick(&mut g, 1, "Saint Bernard");
    act(&mut g, 1, Action::Keep { card: c("The Pope") });
    act(&mut g, 1, Action::Keep { card: c("Mamluks") });
    assert!(names(&g, 0).is_empty(), "Mamluks' only target, Politics, is discarded");
    assert_eq!(g.deck().len(), deck_before - 4);
    assert_eq!(g.deck().first().map(|c| c.name()), Some("Outremer"));
    let added: Vec<(&str, bool)> =
        g.discard()[discard_before..].iter().map(|d| (d.card.name(), d.face_down_by.is_some())).collect();
    assert_eq!(
        added,
        vec![
            ("Saint Bernard", false),
            ("Myth", true),
            ("The Pope", false),
            ("Poverty", true),
            ("Mamluks", false),
            ("Politics", false)
        ]
    );
    assert_eq!(g.fate_picks(Seat(1)), 1, "one Fate pick this turn");
}

#[test]
fn s7_the_gm_nominates_each_next_picker_in_a_four_player_turn() {
    let mut g = Given {
        players: 4,
        fate: vec!["Myth", "Legend", "Mysteries", "Outremer", "Armenia", "Holy Grail", "Poverty", "Vows", "Politics"],
        ..Given::default()
    }
    .picking(0);
    let mut events = Vec::new();
    events.extend(pick(&mut g, 0, "Myth"));
    assert_eq!(g.legal_actions(Seat(0)), [1, 2, 3].map(|s| Action::Nominate { seat: Seat(s) }).to_vec());
    events.extend(act(&mut g, 0, Action::Nominate { seat: Seat(2) }));
    events.extend(pick(&mut g, 2, "Legend"));
    assert_eq!(g.legal_actions(Seat(0)), [1, 3].map(|s| Action::Nominate { seat: Seat(s) }).to_vec());
    events.extend(act(&mut g, 0, Action::Nominate { seat: Seat(3) }));
    events.extend(pick(&mut g, 3, "Mysteries"));
    assert_eq!(g.to_act(), vec![Seat(1)], "P1 is nominated automatically");
    events.extend(pick(&mut g, 1, "Outremer"));
    assert_eq!(g.pending(), &Pending::Pick { seat: Seat(0) }, "round 2 opens with P0 at DP1");
    events.extend(pick(&mut g, 0, "Armenia"));
    events.extend(act(&mut g, 0, Action::Nominate { seat: Seat(1) }));
    events.extend(pick(&mut g, 1, "Holy Grail"));
    events.extend(act(&mut g, 0, Action::Nominate { seat: Seat(3) }));
    events.extend(pick(&mut g, 3, "Poverty"));
    // P2 takes Vows automatically; round 3: P0 takes Politics automatically; the Select Phase ends.
    events.extend(pick(&mut g, 2, "Vows"));
    assert!(names(&g, 0).contains(&"Politics"));
    assert_eq!(g.turn(), 2, "the Select Phase ended and the next turn began");
    assert_eq!([0, 1, 2, 3].map(|s| picks_by(&events, s)), [3, 2, 2, 2]);
}

fn power_scenario(deck: Vec<&'static str>, power: [usize; 4]) -> KnightsTemplar {
    let pool = ["Politics", "International Banking", "Diplomacy", "Respected", "Influence"];
    let mut next = pool.iter();
    let tableaus: Vec<Vec<&'static str>> = power
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let mut t: Vec<&'static str> = (0..*n).filter_map(|_| next.next().copied()).collect();
            if i == 1 {
                t.push("Skull of Sidon");
            }
            t
        })
        .collect();
    let mut g = Given { players: 4, gm: 2, deck, tableaus, ..Given::default() }.build();
    let mut events = Vec::new();
    g.start_power_draws(&mut events);
    g.settle(&mut events);
    g
}

#[test]
fn s8_tied_power_leaders_draw_clockwise_from_the_gm() {
    let g = power_scenario(vec!["Myth", "Outremer"], [2, 0, 1, 2]);
    assert_eq!(names(&g, 3), vec!["Respected", "Influence", "Myth"]);
    assert_eq!(names(&g, 0), vec!["Politics", "International Banking", "Outremer"]);
    assert_eq!(g.count(Seat(2), CardType::Power), 1, "P2 with 1 Power does not draw");

    let nobody = power_scenario(vec!["Myth"], [0, 0, 0, 0]);
    assert!(!names(&nobody, 0).contains(&"Myth") && !names(&nobody, 3).contains(&"Myth"));
    assert!(nobody.fate().contains(&c("Myth")), "Myth is flipped into the next turn's Fate row instead");

    let enemy = power_scenario(vec!["Turks", "Outremer"], [2, 0, 1, 2]);
    assert_eq!(enemy.to_act(), vec![Seat(3)]);
    let expected: Vec<Action> =
        [0u8, 1, 2].iter().flat_map(|s| enemy.tableau(Seat(*s)).to_vec()).map(|card| Action::Target { card }).collect();
    assert_eq!(enemy.legal_actions(Seat(3)), expected, "every card of P0, P1 and P2");
}

fn end_phase_with(missions: [usize; 3], counties: [usize; 3], gm: u8) -> KnightsTemplar {
    let mission_pool =
        ["Take the Cross", "Oath of Allegiance", "Discipline", "Protect Pilgrims", "Poverty", "Chastity"];
    let county_pool = [
        "County of Odessa",
        "Kingdom of Jerusalem",
        "Principality of Antioch",
        "Outremer",
        "County of Tripoli",
        "Cypress",
    ];
    let (mut m, mut cty) = (mission_pool.iter(), county_pool.iter());
    let tableaus: Vec<Vec<&'static str>> = (0..3)
        .map(|i| {
            let mut t: Vec<&'static str> = (0..missions[i]).filter_map(|_| m.next().copied()).collect();
            t.extend((0..counties[i]).filter_map(|_| cty.next().copied()));
            t
        })
        .collect();
    let mut g = Given { players: 3, gm, tableaus, ..Given::default() }.build();
    let mut events = Vec::new();
    g.end_phase(&mut events);
    g
}

#[test]
fn s9_a_tie_for_most_missions_keeps_the_previous_gm() {
    assert_eq!(end_phase_with([2, 2, 1], [0; 3], 1).grand_master(), Seat(1));
    assert_eq!(end_phase_with([3, 2, 1], [0; 3], 1).grand_master(), Seat(0));
    assert_eq!(end_phase_with([1, 2, 0], [0; 3], 1).grand_master(), Seat(1));
    // The previous GM stays even when not among the tied players.
    assert_eq!(end_phase_with([2, 0, 2], [0; 3], 1).grand_master(), Seat(1));
}

#[test]
fn s10_only_a_sole_county_leader_scores_and_banked_vp_is_kept() {
    let vp = |g: &KnightsTemplar| [0u8, 1, 2].map(|s| g.county_vp(Seat(s)));
    assert_eq!(vp(&end_phase_with([0; 3], [3, 2, 0], 0)), [1, 0, 0]);
    assert_eq!(vp(&end_phase_with([0; 3], [2, 2, 1], 0)), [0, 0, 0]);
    assert_eq!(vp(&end_phase_with([0; 3], [0, 0, 0], 0)), [0, 0, 0]);

    // (d) P0 has banked 4 and loses its only County to an Enemy: still 4.
    let mut g = Given {
        players: 3,
        fate: vec!["Saracens", "Legend", "Myth"],
        tableaus: vec![vec!["Armenia"], vec![], vec![]],
        picked: vec![0],
        ..Given::default()
    }
    .build();
    g.county_vp[Seat(0)] = 4;
    g.picker = Seat(1);
    g.pending = Pending::Pick { seat: Seat(1) };
    pick(&mut g, 1, "Saracens");
    assert_eq!(g.count(Seat(0), CardType::County), 0);
    assert_eq!(g.county_vp(Seat(0)), 4);
}

fn final_scores(legacy: [usize; 3], treasure: [usize; 3], downfall: [usize; 3], county: [u32; 3]) -> KnightsTemplar {
    let pools: [&[&'static str]; 3] = [
        &["Myth", "Legend", "Mysteries", "Speculation", "Secrecy", "Templar Architecture", "Enigmas", "Innovations"],
        &["Skull of Sidon", "Holy Grail", "Ark of the Covenant", "True Cross", "Turnin Shroud", "Lance of Longinus"],
        &["Scapegoats", "Pride & Greed", "Inquisition", "Envy"],
    ];
    let mut iters = pools.map(|p| p.iter());
    let tableaus: Vec<Vec<&'static str>> = (0..3)
        .map(|i| {
            let mut t = Vec::new();
            for (kind, count) in [legacy[i], treasure[i], downfall[i]].iter().enumerate() {
                t.extend((0..*count).filter_map(|_| iters[kind].next().copied()));
            }
            t
        })
        .collect();
    let mut g = Given { players: 3, tableaus, ..Given::default() }.build();
    for (i, vp) in county.iter().enumerate() {
        g.county_vp[Seat(i as u8)] = *vp;
    }
    g.stage = Stage::Over;
    g.pending = Pending::Over;
    g.end = Some(EndReason::DeckEmpty);
    g
}

#[test]
fn s11_tied_legacy_leaders_score_three_and_totals_add_up() {
    let g = final_scores([3, 3, 1], [2, 0, 4], [1, 0, 2], [2, 1, 3]);
    let o = g.outcome().expect("the game is over");
    assert_eq!(o.scores, vec![6, 4, 5]);
    assert_eq!(o.winners, vec![Seat(0)]);
    assert_eq!(o.breakdown[0].points, vec![3, 3, 0], "Legacy bonus");
    assert_eq!(o.breakdown[3].points, vec![-1, 0, -2], "Downfall");

    let g = final_scores([3, 4, 1], [2, 0, 4], [1, 0, 2], [2, 1, 3]);
    let o = g.outcome().expect("over");
    assert_eq!(o.scores, vec![3, 6, 5]);
    assert_eq!(o.winners, vec![Seat(1)]);

    let g = final_scores([0, 0, 0], [2, 0, 4], [1, 0, 2], [2, 1, 3]);
    let o = g.outcome().expect("over");
    assert_eq!(o.breakdown[0].points, vec![0, 0, 0], "no Legacy, no bonus");
    assert_eq!(o.scores, vec![3, 1, 5]);
}

#[test]
fn s12_a_fifth_downfall_ends_the_game_at_once() {
    let mut g = Given {
        players: 3,
        fate: vec!["Inquisition", "Myth", "Politics"],
        tableaus: vec![vec![], vec!["Scapegoats", "Envy", "Persecution", "Criticism"], vec![]],
        picked: vec![0],
        round: 2,
        ..Given::default()
    }
    .build();
    g.county_vp[Seat(2)] = 1;
    g.picker = Seat(1);
    g.pending = Pending::Pick { seat: Seat(1) };
    pick(&mut g, 1, "Inquisition");
    assert_eq!(g.end_reason(), Some(EndReason::FiveDownfall));
    assert!(g.to_act().is_empty());
    assert_eq!(g.fate(), cards(&["Myth", "Politics"]).as_slice(), "the rest stays in the Fate row");
    assert_eq!(g.grand_master(), Seat(0), "no End Phase");
    assert_eq!([0u8, 1, 2].map(|s| g.county_vp(Seat(s))), [0, 0, 1], "no County VP");
    assert_eq!(g.round(), 2, "no round 3");
    let o = g.outcome().expect("over");
    assert_eq!(o.breakdown[3].points[1], -5);
}

#[test]
fn s13_a_short_last_fate_row_is_played_out_and_the_empty_deck_ends_the_game() {
    let mut g = Given {
        players: 3,
        deck: vec!["Myth", "Legend", "Outremer", "Poverty", "Politics"],
        rest_in_deck: false,
        ..Given::default()
    }
    .build();
    let mut events = Vec::new();
    g.draw_phase(&mut events);
    g.settle(&mut events);
    assert_eq!(g.fate().len(), 5);
    assert!(g.deck().is_empty());
    pick(&mut g, 0, "Poverty");
    act(&mut g, 0, Action::Nominate { seat: Seat(2) });
    pick(&mut g, 2, "Politics");
    pick(&mut g, 1, "Outremer");
    pick(&mut g, 0, "Myth");
    assert_eq!(g.legal_actions(Seat(0)).len(), 2, "still a decision with one card left");
    act(&mut g, 0, Action::Nominate { seat: Seat(1) });
    // P1 takes Legend automatically; no Power draw from an empty deck; the End Phase ends the game.
    assert_eq!(names(&g, 1), vec!["Outremer", "Legend"]);
    assert_eq!(names(&g, 2), vec!["Politics"]);
    assert_eq!(g.grand_master(), Seat(0));
    assert_eq!(g.county_vp(Seat(1)), 1);
    assert_eq!(g.end_reason(), Some(EndReason::DeckEmpty));
    let o = g.outcome().expect("over");
    assert_eq!(o.breakdown[0].points, vec![3, 3, 0]);
    assert_eq!(o.scores, vec![3, 4, 0]);
    assert_eq!(o.winners, vec![Seat(1)]);
}

/// A deck (top first) with `missions` Missions in the 10-card block starting at `block`.
fn deck_with_blocks(blocks: &[usize]) -> Vec<crate::Card> {
    let missions: Vec<crate::Card> = crate::Card::all().filter(|c| c.kind() == CardType::Mission).collect();
    let others: Vec<crate::Card> = crate::Card::all().filter(|c| c.kind() != CardType::Mission).collect();
    let (mut m, mut o) = (missions.into_iter(), others.into_iter());
    let mut deck = Vec::new();
    for count in blocks {
        for i in 0..10 {
            let card = if i < *count { m.next() } else { o.next() };
            deck.extend(card);
        }
    }
    deck.extend(m);
    deck.extend(o);
    deck
}

#[test]
fn s14_setup_with_a_sole_mission_leader_takes_one_draw() {
    let first = deck_with_blocks(&[3, 1]);
    let game_deck: Vec<crate::Card> = crate::Card::all().collect::<Vec<_>>().into_iter().rev().collect();
    let g = crate::testing::setup_with_scripted_shuffles(2, vec![first.clone(), game_deck.clone()]).expect("setup");
    assert_eq!(g.grand_master(), Seat(0));
    let draws = g.setup_draws();
    assert_eq!(draws.len(), 1);
    assert_eq!(draws[0].hands[0].cards, first[..10].to_vec());
    assert_eq!(draws[0].hands[1].cards, first[10..20].to_vec());
    assert_eq!((draws[0].hands[0].missions, draws[0].hands[1].missions), (3, 1));
    // The public log shows both blocks and their counts.
    let setup_log = g.setup_events();
    assert!(matches!(&setup_log[0].event, Event::SetupDraw { hands, .. } if hands.len() == 2));
    assert!(g.view(Viewer::Spectator).setup_draws == draws);
    // All 95 cards were reshuffled; turn 1 flipped 7 of them; P0 picks first.
    assert_eq!(g.fate(), &game_deck[..7]);
    assert_eq!(g.deck().len(), 88);
    assert_eq!(g.to_act(), vec![Seat(0)]);
}

#[test]
fn s14b_tied_candidates_redraw_alone_until_one_leads() {
    // 3 players: P0 and P2 tie at 2, P1 has 1; the redraw is only between P0 and P2.
    let first = deck_with_blocks(&[2, 1, 2]);
    let second = deck_with_blocks(&[0, 1]);
    let game_deck: Vec<crate::Card> = crate::Card::all().collect();
    let g = crate::testing::setup_with_scripted_shuffles(3, vec![first, second.clone(), game_deck]).expect("setup");
    let draws = g.setup_draws();
    assert_eq!(draws.len(), 2);
    let candidates: Vec<Seat> = draws[1].hands.iter().map(|h| h.seat).collect();
    assert_eq!(candidates, vec![Seat(0), Seat(2)]);
    assert_eq!(draws[1].hands[1].cards, second[10..20].to_vec(), "P2 takes the second block");
    assert_eq!(g.grand_master(), Seat(2));
    assert!(
        crate::testing::setup_with_scripted_shuffles(3, vec![deck_with_blocks(&[2, 1, 2])]).is_err(),
        "script ran out"
    );
}

#[test]
fn a_rejected_action_changes_nothing_and_names_the_reason() {
    let mut g = Given { players: 3, fate: vec!["Myth", "Legend"], ..Given::default() }.picking(0);
    let before = g.clone();
    assert_eq!(
        g.apply(Seat(1), &Action::Pick { card: c("Myth") }),
        Err(game_core::RuleError::NotYourTurn { seat: Seat(1) })
    );
    assert!(matches!(
        g.apply(Seat(0), &Action::Pick { card: c("Holy Grail") }),
        Err(game_core::RuleError::IllegalAction { .. })
    ));
    assert!(g.apply(Seat(0), &Action::Pick { card: crate::Card(200) }).is_err());
    assert!(g.apply(Seat(9), &Action::Pick { card: c("Myth") }).is_err());
    assert_eq!(g, before);
}

#[test]
fn r12_an_ally_with_one_card_left_plays_it_at_once_and_with_none_does_nothing() {
    let mut g = Given {
        players: 2,
        fate: vec!["Crusaders", "Legend", "Armenia"],
        deck: vec!["Holy Grail"],
        picked: vec![0],
        rest_in_deck: false,
        ..Given::default()
    }
    .picking(1);
    pick(&mut g, 1, "Crusaders");
    assert_eq!(names(&g, 1), vec!["Holy Grail"], "the single card is played for P1");
    assert!(g.deck().is_empty());
    assert_eq!(g.pending(), &Pending::Pick { seat: Seat(0) }, "no Ally choice; round 2 opens");

    let mut g = Given {
        players: 2,
        fate: vec!["Crusaders", "Legend", "Armenia"],
        picked: vec![0],
        rest_in_deck: false,
        ..Given::default()
    }
    .picking(1);
    let discards = g.discard().len();
    pick(&mut g, 1, "Crusaders");
    assert!(names(&g, 1).is_empty(), "an empty deck gives nothing");
    assert_eq!(g.discard().len(), discards + 1);
    assert_eq!(g.discard().last().map(|d| (d.card.name(), d.face_down_by)), Some(("Crusaders", None)));
}

#[test]
fn r24_face_down_discards_stay_hidden_after_the_game_ends() {
    let mut checked = 0;
    for seed in 0..40 {
        let p = game_core::testing::random_playout::<KnightsTemplar>(3, &Default::default(), seed, 5_000, false);
        let g = p.game;
        assert!(g.outcome().is_some());
        let hidden: Vec<_> = g.discard().iter().filter(|d| d.face_down_by.is_some()).collect();
        if hidden.is_empty() {
            continue;
        }
        checked += 1;
        let spectator = g.view(Viewer::Spectator);
        assert!(spectator.discard.iter().filter(|d| d.face_down).all(|d| d.card.is_none()), "seed {seed}");
        for d in hidden {
            let owner = d.face_down_by.expect("face down");
            let other = Seat((owner.0 + 1) % 3);
            let json = serde_json::to_value(g.view(Viewer::Seat(other))).expect("json");
            let shown = json["discard"].as_array().expect("discard").iter().filter(|x| x["face_down"] == true);
            assert!(shown.clone().all(|x| x["card"].is_null() || x["card"] != d.card.0), "seed {seed}");
        }
    }
    assert!(checked > 0, "some games had Ally choices");
}
