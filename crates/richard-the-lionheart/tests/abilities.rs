//! Scenario checks SK01–SK11 (abilities, skills, purchases, contributions) and the events.
#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use game_core::{Game, Seat};
use richard_the_lionheart::rules::{contribute, purchase, round};
use richard_the_lionheart::testing::{arrive, fixture, place_others, start_move, top};
use richard_the_lionheart::{
    Action, Card, Cards, Character, Choice, EventCard, Location, Purchase, RichardTheLionheart, Side, Stage,
};
use Character::*;
use Location::*;

#[test]
fn the_richard_skill_draws_and_returns_a_card_after_a_red_location() {
    let mut g = fixture(&[RobinHood, MaidMarion, Sheriff, PrinceJohn]);
    g.players[Seat(0)].skill = true;
    arrive(&mut g, A, Canterbury);
    play(&mut g, A, Action::Perform { choice: Choice::Plain });
    assert_eq!(g.stage, Stage::SkillReturn { seat: A });
    assert_eq!(g.player(A).hand.total(), 27);
    let gc_before = g.reserve.get(Card::GC);
    play(&mut g, A, Action::ReturnCard { card: Card::GC });
    assert_eq!(g.player(A).hand.total(), 26, "the LA09 hand size");
    assert_eq!(g.reserve.get(Card::GC), gc_before + 1);
}

#[test]
fn the_john_skill_does_nothing_at_a_red_location() {
    let mut g = fixture(&[PrinceJohn, RobinHood, Sheriff, MaidMarion]);
    g.players[Seat(0)].skill = true;
    arrive(&mut g, A, Canterbury);
    play(&mut g, A, Action::Perform { choice: Choice::Plain });
    assert_ne!(g.stage, Stage::SkillReturn { seat: A });
    assert_eq!(g.player(A).hand.total(), 26);
}

#[test]
fn the_sheriff_taxes_green_locations_he_acts_at() {
    let mut g = fixture(&[Sheriff, RobinHood]);
    arrive(&mut g, A, Cambridge);
    play(&mut g, A, Action::Perform { choice: Choice::Plain });
    assert_eq!(g.player(A).coins, 9);
    let mut g = fixture(&[Sheriff, RobinHood]);
    arrive(&mut g, A, Cambridge);
    play(&mut g, A, Action::Decline);
    assert_eq!(g.player(A).coins, 6);
}

#[test]
fn the_merchant_and_the_mercenary_reward_whoever_ends_there_even_without_an_action() {
    let mut g = fixture(&[RobinHood, MaidMarion, Sheriff, PrinceJohn]);
    g.merchant = Some(Cambridge);
    g.mercenary = Some(York);
    arrive(&mut g, A, Cambridge);
    play(&mut g, A, Action::Decline);
    assert_eq!(g.player(A).coins, 8);
    let mut g2 = fixture(&[RobinHood, MaidMarion, Sheriff, PrinceJohn]);
    g2.mercenary = Some(York);
    let d = top(&g2, 2);
    arrive(&mut g2, A, York);
    play(&mut g2, A, Action::Decline);
    assert_eq!(g2.player(A).hand, plus(Cards::each(4), d));
}

fn buy_actions(g: &RichardTheLionheart, seat: Seat) -> Vec<Purchase> {
    g.legal_actions(seat)
        .into_iter()
        .filter_map(|a| match a {
            Action::Buy { purchase } => Some(purchase),
            _ => None,
        })
        .collect()
}

#[test]
fn round_one_costs_and_one_purchase_per_phase() {
    let mut g = fixture(&[RobinHood, Sheriff, FriarTuck, PrinceJohn]);
    g.round = 1;
    let costs: Vec<u32> = [
        Purchase::SpecificCard { card: Card::RB },
        Purchase::PrestigePoint,
        Purchase::Horse,
        Purchase::Ship,
        Purchase::Skill,
        Purchase::RandomCard,
    ]
    .iter()
    .map(|p| purchase::cost(&g, A, *p))
    .collect();
    assert_eq!(costs, vec![2, 3, 3, 4, 5, 1]);
    assert_eq!(purchase::cost(&g, Seat(2), Purchase::RandomCard), 0);
    g.players[Seat(0)].horse = true;
    purchase::start(&mut g);
    assert!(!buy_actions(&g, A).contains(&Purchase::Horse));
    rejected(&mut g, A, Action::Buy { purchase: Purchase::Horse });
    play(&mut g, A, Action::Buy { purchase: Purchase::Ship });
    assert_eq!((g.player(A).coins, g.player(A).ship), (2, true));
    rejected(&mut g, A, Action::Buy { purchase: Purchase::PrestigePoint });
    assert_eq!(g.stage, Stage::Purchase { seat: Seat(1) });
}

#[test]
fn prince_john_and_the_bishop_pay_one_coin_less() {
    let mut g = fixture(&[PrinceJohn, BishopOfEly, RobinHood, MaidMarion]);
    g.round = 9;
    assert_eq!(purchase::cost(&g, A, Purchase::SpecificCard { card: Card::GB }), 3);
    g.round = 1;
    assert_eq!(purchase::cost(&g, Seat(1), Purchase::PrestigePoint), 2);
}

#[test]
fn the_neutral_skill_trades_two_equal_cards_for_four_once_per_phase() {
    let mut g = fixture(&[Leopold, RobinHood, Sheriff]);
    g.players[Seat(0)].skill = true;
    g.players[Seat(0)].hand = common::cards(&[(Card::GH, 2)]);
    purchase::start(&mut g);
    play(&mut g, A, Action::Decline);
    assert_eq!(g.stage, Stage::Trade { seat: A });
    let d = top(&g, 4);
    play(&mut g, A, Action::Trade { card: Card::GH });
    assert_eq!(g.player(A).hand, d);
    assert_eq!(g.reserve.get(Card::GH), 22);
    rejected(&mut g, A, Action::Trade { card: Card::GH });
    assert_eq!(g.stage, Stage::Purchase { seat: Seat(1) });
}

fn contribute_three(chars: &[Character], coins: u32, event: Option<EventCard>) -> RichardTheLionheart {
    let mut g = fixture(chars);
    g.players[Seat(0)].coins = coins;
    g.active_event = event;
    contribute::start(&mut g);
    for c in [Card::RB, Card::GB, Card::RC] {
        play(&mut g, A, Action::Contribute { card: c });
    }
    g
}

#[test]
fn a_third_contributed_card_costs_two_coins_less_for_marion_and_under_call_to_arms() {
    for (chars, coins, event) in [
        ([RobinHood, Sheriff], 2, None),
        ([MaidMarion, Sheriff], 1, None),
        ([RobinHood, Sheriff], 1, Some(EventCard::E06)),
    ] {
        let g = contribute_three(&chars, coins, event);
        assert_eq!(g.player(A).coins, 0);
        assert_eq!(g.crusade.len(), 3);
        assert_eq!(g.stage, Stage::Contribute { seat: Seat(1) });
    }
    let mut g = fixture(&[RobinHood, Sheriff]);
    g.players[Seat(0)].coins = 1;
    contribute::start(&mut g);
    play(&mut g, A, Action::Contribute { card: Card::RB });
    play(&mut g, A, Action::Contribute { card: Card::RB });
    rejected(&mut g, A, Action::Contribute { card: Card::RB });
}

#[test]
fn each_missing_contribution_costs_a_prestige_point_but_never_below_zero() {
    let mut g = fixture(&[RobinHood, Sheriff]);
    g.players[Seat(0)].prestige = 2;
    g.players[Seat(1)].prestige = 1;
    contribute::start(&mut g);
    play(&mut g, A, Action::Contribute { card: Card::RH });
    play(&mut g, A, Action::EndContribution);
    assert_eq!(g.player(A).prestige, 1);
    play(&mut g, Seat(1), Action::EndContribution);
    // The round went on (Outcomes...), the Sheriff lost only the 1 point he had.
    assert_eq!(g.player(Seat(1)).prestige, 0);
}

#[test]
fn marie_gains_a_coin_only_when_she_changes_side() {
    let mut g = fixture(&[Marie, RobinHood, Sheriff, MaidMarion, Isabella]);
    let mut coins = vec![];
    for (r, side) in [(3, Side::Richard), (4, Side::John), (5, Side::John)] {
        g.round = r;
        round::start_round(&mut g);
        play(&mut g, A, Action::ChooseSide { side });
        coins.push(g.player(A).coins);
    }
    assert_eq!(coins, vec![6, 7, 7]);
}

#[test]
fn little_john_cannot_be_robbed_but_others_can() {
    let mut g = fixture(&[Sheriff, LittleJohn]);
    place_others(&mut g, &[(Seat(1), Cambridge)]);
    start_move(&mut g, A, London);
    play(&mut g, A, Action::Step { to: Cambridge });
    assert!(!g.legal_actions(A).contains(&Action::Steal));

    let mut g = fixture(&[Sheriff, RobinHood]);
    place_others(&mut g, &[(Seat(1), Cambridge)]);
    start_move(&mut g, A, London);
    play(&mut g, A, Action::Step { to: Cambridge });
    play(&mut g, A, Action::Steal);
    assert_eq!((g.player(A).hand.total(), g.player(Seat(1)).hand.total()), (25, 23));
    let Stage::Move { movement, .. } = &g.stage else { panic!("still moving") };
    assert_eq!(movement.mp, 1, "the steal cost 1 MP");
    assert!(!g.legal_actions(A).contains(&Action::Steal), "one steal per location");
}

#[test]
fn robin_hood_steals_for_free() {
    let mut g = fixture(&[RobinHood, Sheriff]);
    place_others(&mut g, &[(Seat(1), Cambridge)]);
    start_move(&mut g, A, London);
    play(&mut g, A, Action::Step { to: Cambridge });
    play(&mut g, A, Action::Steal);
    let Stage::Move { movement, .. } = &g.stage else { panic!("still moving") };
    assert_eq!(movement.mp, 2);
}

#[test]
fn storm_in_the_channel_closes_the_water_and_fair_winds_add_a_step_to_ships() {
    let mut g = fixture(&[RobinHood, Sheriff]);
    place_others(&mut g, &[]);
    g.players[Seat(0)].ship = true;
    g.active_event = Some(EventCard::E03);
    start_move(&mut g, A, London);
    assert!(!steps(&g, A).contains(&Oxford));
    g.active_event = Some(EventCard::E04);
    start_move(&mut g, A, London);
    let Stage::Move { movement, .. } = &g.stage else { panic!("moving") };
    assert_eq!(movement.mp, 4);
}

#[test]
fn horse_fair_lowers_the_horse_and_ship_but_not_below_one() {
    let mut g = fixture(&[RobinHood, Sheriff]);
    g.active_event = Some(EventCard::E05);
    g.round = 1;
    assert_eq!(purchase::cost(&g, A, Purchase::Horse), 2);
    assert_eq!(purchase::cost(&g, A, Purchase::Ship), 3);
    g.round = 10;
    assert_eq!(purchase::cost(&g, A, Purchase::Horse), 1);
}

fn end_event(event: EventCard, setup: impl Fn(&mut RichardTheLionheart)) -> RichardTheLionheart {
    let mut g = fixture(&[RobinHood, Sheriff, Leopold]);
    g.players[Seat(2)].side = Side::John;
    g.active_event = Some(event);
    // All three comparisons tied: KR and KT drop by 1 each, the armies stay.
    g.crusade = vec![Card::RB, Card::GB, Card::RH, Card::GH, Card::RC, Card::GC];
    setup(&mut g);
    richard_the_lionheart::rules::outcomes::run(&mut g);
    g
}

#[test]
fn end_events_apply_after_the_outcomes() {
    let g = end_event(EventCard::E01, |g| g.tracks.ra = 7);
    assert_eq!(g.players.iter().map(|(_, p)| p.prestige).collect::<Vec<_>>(), vec![1, 0, 0]);
    let g = end_event(EventCard::E10, |_| {});
    assert_eq!((g.tracks.ra, g.player(Seat(2)).prestige), (4, 1));
    let g = end_event(EventCard::E11, |_| {});
    assert_eq!(g.tracks.kr, 3, "tie: 5 → 4, then Treaty of Jaffa 4 → 3");
    let g = end_event(EventCard::E08, |g| g.players[Seat(1)].coins = 4);
    assert_eq!(g.players.iter().map(|(_, p)| p.coins).collect::<Vec<_>>(), vec![5, 4, 5]);
    let g = end_event(EventCard::E17, |g| g.players[Seat(0)].prestige = 2);
    assert_eq!(g.players.iter().map(|(_, p)| p.prestige).collect::<Vec<_>>(), vec![2, 1, 1]);
    let g = end_event(EventCard::E15, |g| {
        g.players[Seat(0)].location = Some(York);
        g.players[Seat(1)].location = Some(Sherwood);
    });
    assert_eq!(g.players.iter().map(|(_, p)| p.coins).collect::<Vec<_>>(), vec![7, 6, 6]);
    assert_eq!(g.discarded_events, vec![EventCard::E15]);
}

#[test]
fn the_skill_and_the_taxation_follow_the_card_chosen_after_the_draw() {
    // Robin Hood with Richard's skill at York (red): coin, draw, choose, then the skill.
    let mut g = fixture(&[RobinHood, Sheriff]);
    g.players[Seat(0)].skill = true;
    arrive(&mut g, A, York);
    play(&mut g, A, Action::Perform { choice: Choice::Plain });
    assert_eq!(g.stage, Stage::TakeChoice { seat: A });
    play(&mut g, A, Action::TakeCard { card: Card::GH });
    assert_eq!(g.stage, Stage::SkillReturn { seat: A });
    assert_eq!(g.player(A).hand.total(), 27);
    play(&mut g, A, Action::ReturnCard { card: Card::RB });
    assert_eq!((g.player(A).hand.total(), g.player(A).coins), (26, 7));
    // The Sheriff at Gloucester (green): +1 coin from the action, +1 Taxation after the take.
    let mut g = fixture(&[Sheriff, RobinHood]);
    arrive(&mut g, A, Gloucester);
    play(&mut g, A, Action::Perform { choice: Choice::Plain });
    assert_eq!(g.player(A).coins, 7, "no Taxation before the action is over");
    play(&mut g, A, Action::TakeCard { card: Card::GB });
    assert_eq!(g.player(A).coins, 8);
}
