//! Hidden information (spec §6): what each view and each log event shows, and to whom.
#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use game_core::{Audience, Game, Seat, Viewer};
use richard_the_lionheart::rules::{contribute, outcomes};
use richard_the_lionheart::testing::{arrive, fixture, place_others, start_move};
use richard_the_lionheart::{Action, Card, Character, Choice, Edict, Event, Stage};
use Character::*;

fn public(events: &[game_core::Event<Event>]) -> Vec<&Event> {
    events.iter().filter(|e| e.audience == Audience::All).map(|e| &e.event).collect()
}

#[test]
fn a_stolen_cards_type_is_told_to_the_thief_and_the_victim_only() {
    let mut g = fixture(&[Sheriff, RobinHood, Leopold]);
    place_others(&mut g, &[(Seat(1), richard_the_lionheart::Location::Cambridge)]);
    start_move(&mut g, A, richard_the_lionheart::Location::London);
    play(&mut g, A, Action::Step { to: richard_the_lionheart::Location::Cambridge });
    let events = g.apply(A, &Action::Steal).unwrap();
    assert!(public(&events).contains(&&Event::Stole { thief: A, victim: Seat(1) }));
    let secret: Vec<&game_core::Event<Event>> =
        events.iter().filter(|e| matches!(e.event, Event::StolenCard { .. })).collect();
    assert_eq!(secret.len(), 1);
    assert_eq!(secret[0].audience, Audience::Only(vec![A, Seat(1)]));
    // Leopold's view shows the two hand sizes, not their contents.
    let v = g.view(Viewer::Seat(Seat(2)));
    assert_eq!((v.players[Seat(0)].hand_count, v.players[Seat(1)].hand_count), (25, 23));
    assert_eq!((v.players[Seat(0)].hand, v.players[Seat(1)].hand), (None, None));
    assert!(v.players[Seat(2)].hand.is_some());
}

#[test]
fn drawn_cards_are_shown_to_the_drawer_and_counted_for_everyone_else() {
    let mut g = fixture(&[RobinHood, Sheriff]);
    arrive(&mut g, A, richard_the_lionheart::Location::Cambridge);
    let events = g.apply(A, &Action::Perform { choice: Choice::Plain }).unwrap();
    assert!(public(&events).contains(&&Event::Drew { seat: A, count: 2 }));
    let private: Vec<&game_core::Event<Event>> =
        events.iter().filter(|e| matches!(e.event, Event::DrewCards { .. })).collect();
    assert_eq!(private.len(), 1);
    assert_eq!(private[0].audience, Audience::Only(vec![A]));
}

#[test]
fn contributions_reveal_only_their_number() {
    let mut g = fixture(&[RobinHood, Sheriff]);
    contribute::start(&mut g);
    let mut events = g.apply(A, &Action::Contribute { card: Card::GC }).unwrap();
    events.extend(g.apply(A, &Action::Contribute { card: Card::RH }).unwrap());
    events.extend(g.apply(A, &Action::EndContribution).unwrap());
    for e in &events {
        let json = serde_json::to_string(&e.event).unwrap();
        assert!(!json.contains("\"card\""), "{json} names a contributed card");
        assert_eq!(e.audience, Audience::All);
    }
    for viewer in Viewer::all(2) {
        let v = g.view(viewer);
        assert_eq!((v.players[Seat(0)].contributed, v.decks.crusade), (2, 2));
        let json = serde_json::to_string(&v).unwrap();
        assert!(!json.contains("\"crusade\":["), "no Crusade deck contents in a view");
    }
}

#[test]
fn the_nottingham_exchange_is_public_but_the_edicts_are_not() {
    let mut g = fixture(&[RobinHood, MaidMarion, Sheriff, PrinceJohn]);
    g.players[Seat(0)].edict = Some(Edict::RE1);
    g.edicts.richard = vec![Edict::RE3, Edict::RE5, Edict::RE4];
    arrive(&mut g, A, richard_the_lionheart::Location::Nottingham);
    let events = g.apply(A, &Action::Perform { choice: Choice::Plain }).unwrap();
    assert!(events.iter().all(|e| !serde_json::to_string(&e.event).unwrap().contains("RE4")));
    assert_eq!(g.view(Viewer::Seat(A)).stage.drawn_edict, Some(Edict::RE4));
    for viewer in [Viewer::Seat(Seat(1)), Viewer::Seat(Seat(2)), Viewer::Spectator] {
        let v = g.view(viewer);
        assert_eq!(v.stage.drawn_edict, None);
        assert_eq!(v.players[Seat(0)].edict, None);
        assert_eq!(v.decks.richard_edicts, 2);
    }
    let events = g.apply(A, &Action::KeepEdict { edict: Edict::RE4 }).unwrap();
    for e in &events {
        let json = serde_json::to_string(&e.event).unwrap();
        if json.contains("RE4") || json.contains("RE1") {
            assert_eq!(e.audience, Audience::Only(vec![A]), "{json}");
        }
    }
    assert!(public(&events).contains(&&Event::EdictExchanged { seat: A }));
    assert_eq!(g.view(Viewer::Seat(A)).players[Seat(0)].edict, Some(Edict::RE4));
}

#[test]
fn every_edict_is_revealed_at_the_end_and_not_before() {
    let mut g = fixture(&[RobinHood, Sheriff, Leopold]);
    let v = g.view(Viewer::Spectator);
    assert!(v.players.iter().all(|(_, p)| p.edict.is_none() && p.hand.is_none()));
    g.round = 10;
    g.crusade = Card::ALL.to_vec();
    outcomes::run(&mut g);
    assert_eq!(g.stage, Stage::Over);
    for viewer in Viewer::all(3) {
        let v = g.view(viewer);
        let edicts: Vec<Option<Edict>> = v.players.iter().map(|(_, p)| p.edict).collect();
        assert_eq!(edicts, g.players.iter().map(|(_, p)| p.edict).collect::<Vec<_>>());
        assert!(edicts.iter().all(Option::is_some));
        assert!(v.result.is_some());
    }
}

#[test]
fn costs_in_views_apply_the_viewers_character_and_the_public_event() {
    let mut g = fixture(&[MaidMarion, PrinceJohn]);
    g.round = 1;
    g.active_event = Some(richard_the_lionheart::EventCard::E05);
    let spectator = g.view(Viewer::Spectator).costs;
    assert_eq!(
        (spectator.specific_card, spectator.horse, spectator.ship, spectator.third_card),
        (2, 2, 3, 2),
        "Horse Fair lowers the Horse and the Ship for everyone"
    );
    let john = g.view(Viewer::Seat(Seat(1))).costs;
    assert_eq!((john.specific_card, john.horse, john.third_card), (1, 2, 2));
    g.active_event = Some(richard_the_lionheart::EventCard::E06);
    assert_eq!(g.view(Viewer::Spectator).costs.third_card, 1);
    assert_eq!(g.view(Viewer::Seat(A)).costs.third_card, 0, "Maid Marion under Call to Arms");
    assert_eq!(g.view(Viewer::Seat(A)).costs.horse, 3);
}
