//! The spec's §9 invariants, checked at every decision point of random playouts.
#![allow(clippy::unwrap_used)]

use game_core::{Game, GameRng, Seat, Seed, Viewer};
use richard_the_lionheart::rules::{outcomes, travel};
use richard_the_lionheart::state::Movement;
use richard_the_lionheart::{
    Action, Card, Character, CharacterAssignment, Event, EventCard, Location, Options, RichardTheLionheart, Stage,
};

/// A move being followed from its first decision (invariant 5).
struct Move {
    seat: Seat,
    start: Location,
    mp: u8,
    water: bool,
    steal_cost: u8,
    path: Vec<Location>,
    steals: u8,
}

impl Move {
    fn begin(g: &RichardTheLionheart, seat: Seat, m: &Movement) -> Move {
        assert!(m.path.is_empty());
        let p = g.player(seat);
        let water = p.ship && !g.event_is(EventCard::E03);
        Move { seat, start: m.start, mp: m.mp, water, steal_cost: travel::steal_cost(g, seat), path: vec![], steals: 0 }
    }

    /// Follows one applied action; checks the steal at once.
    fn follow(&mut self, before: &RichardTheLionheart, action: Action, seed: u64) {
        match action {
            Action::Step { to } => self.path.push(to),
            Action::Steal => {
                let here = *self.path.last().expect("steals only after a step");
                let victim = before.occupant(here, self.seat).expect("a steal needs a figure here");
                let v = before.player(victim);
                assert_ne!(v.side, before.player(self.seat).side, "seed {seed}: stole from an ally");
                assert!(!v.is(Character::LittleJohn), "seed {seed}: stole from Little John");
                self.steals += 1;
            }
            _ => {}
        }
    }

    /// Checks the finished move against the state after it.
    fn finish(&self, after: &RichardTheLionheart, seed: u64) {
        let end = *self.path.last().expect("at least 1 segment");
        assert_eq!(after.player(self.seat).location, Some(end), "seed {seed}: the figure is where the move ended");
        assert_ne!(end, self.start, "seed {seed}: the move returned to its start");
        let mut seen = vec![self.start];
        for (i, to) in self.path.iter().enumerate() {
            let from = if i == 0 { self.start } else { self.path[i - 1] };
            assert!(from.neighbours(self.water).any(|n| n == *to), "seed {seed}: {from:?}→{to:?} is no segment");
            assert!(!seen.contains(to), "seed {seed}: {to:?} visited twice");
            seen.push(*to);
        }
        let spent = self.path.len() + usize::from(self.steals * self.steal_cost);
        assert!(spent <= usize::from(self.mp), "seed {seed}: {spent} MP spent of {}", self.mp);
        assert!(after.occupant(end, self.seat).is_none(), "seed {seed}: the move ended on an occupied location");
    }
}

/// The Crusade deck and the Reserve just before the Outcomes (invariant 15).
struct BeforeOutcomes {
    deck: usize,
    reserve: usize,
    need: usize,
}

fn check_outcomes(b: &BeforeOutcomes, after: &RichardTheLionheart, events: &[game_core::Event<Event>], seed: u64) {
    let added = events.iter().filter(|e| matches!(e.event, Event::AddedCard { .. })).count();
    let Some(drawn) = events.iter().find_map(|e| match &e.event {
        Event::Outcomes { drawn, .. } => Some(drawn.total()),
        _ => None,
    }) else {
        return;
    };
    let deck = b.deck + added;
    assert_eq!(drawn, b.need.min(deck + b.reserve), "seed {seed}: Outcomes drew the wrong number");
    let returned = if after.stage == Stage::Over { 0 } else { drawn };
    let refill = b.reserve + returned - after.reserve.total();
    assert_eq!(after.crusade.len() + drawn, deck + refill, "seed {seed}: the Crusade deck after Phase 5");
    if refill > 0 {
        assert!(deck < b.need && after.crusade.len() < 6, "seed {seed}: an unneeded refill");
    }
}

/// The invariants at one decision point: those a single state shows are `Game::validate`'s
/// (1, 3, 4, 6–9, 11 and the stage's consistency); the first player and the views need more.
fn check(g: &RichardTheLionheart, initial_first: Option<Seat>, seed: u64) {
    if let Err(e) = g.validate() {
        panic!("seed {seed}: {e}");
    }
    let (Some(initial_first), false) = (initial_first, g.stage == Stage::Over) else { return };
    let n = g.players();
    // 10. First player.
    assert_eq!(g.first_player, initial_first.next(n, usize::from(g.round) - 1));
    // 14. Views.
    for viewer in Viewer::all(n) {
        let v = g.view(viewer);
        for (_, p) in v.players.iter() {
            let own = viewer.is(p.seat);
            assert_eq!(p.hand.is_some(), own, "seed {seed}: hand visibility");
            assert_eq!(p.edict.is_some(), own, "seed {seed}: edict visibility");
        }
        let json = serde_json::to_string(&v).unwrap();
        assert!(!json.contains("\"rng\"") && !json.contains("\"provisions\":["));
    }
}

fn playout(players: usize, options: &Options, seed: u64) {
    let mut g = RichardTheLionheart::setup(players, options, Seed::from_u64(seed)).unwrap();
    let mut rng = GameRng::from_u64(seed);
    let mut initial_first = None;
    let mut moving: Option<Move> = None;
    while g.outcome().is_none() {
        if !matches!(g.stage, Stage::ChooseCharacter { .. }) {
            initial_first.get_or_insert(g.first_player);
        }
        check(&g, initial_first, seed);
        let seat = *rng.choose(&g.to_act()).unwrap();
        let legal = g.legal_actions(seat);
        assert!(legal.len() <= 40, "seed {seed}: {} legal actions", legal.len());
        let action = *rng.choose(&legal).unwrap();
        if let Stage::Move { seat, movement } = &g.stage {
            if moving.is_none() {
                moving = Some(Move::begin(&g, *seat, movement));
            }
        }
        let before_outcomes = matches!(g.stage, Stage::Contribute { .. }).then(|| BeforeOutcomes {
            deck: g.crusade.len(),
            reserve: g.reserve.total(),
            need: outcomes::need(&g),
        });
        let before = g.clone();
        let events = g.apply(seat, &action).unwrap();
        if let Some(m) = moving.as_mut() {
            m.follow(&before, action, seed);
            if !matches!(&g.stage, Stage::Move { seat: s, .. } if *s == m.seat) {
                m.finish(&g, seed);
                moving = None;
            }
        }
        if let Some(b) = before_outcomes {
            check_outcomes(&b, &g, &events, seed);
        }
    }
    check(&g, initial_first, seed);
    assert!(Seat::all(players).all(|s| g.legal_actions(s).is_empty()));
}

#[test]
fn the_section_nine_invariants_hold_at_every_step_of_random_games() {
    for players in 2..=6 {
        for seed in 0..60 {
            playout(players, &Options::default(), seed);
        }
        for seed in 0..10 {
            playout(players, &Options { characters: CharacterAssignment::Chosen }, seed);
        }
    }
}

#[test]
fn scrambling_for_a_viewer_really_redraws_what_they_cannot_see() {
    let g = RichardTheLionheart::setup(4, &Options::default(), Seed::from_u64(5)).unwrap();
    let mut rng = GameRng::from_u64(1);
    let s = g.scramble_hidden(Viewer::Seat(Seat(0)), &mut rng);
    assert_eq!(s.players[Seat(0)].hand, g.players[Seat(0)].hand);
    assert_ne!(s.provisions, g.provisions);
    assert!((1..4).any(|i| s.players[Seat(i)].hand != g.players[Seat(i)].hand));
    assert_ne!(s.events, g.events);
    assert_eq!(s.view(Viewer::Seat(Seat(0))), g.view(Viewer::Seat(Seat(0))));
}

#[test]
fn games_end_by_every_kind_of_condition_across_random_playouts() {
    let mut seen = [false; 5];
    for seed in 0..300 {
        let p = game_core::testing::random_playout::<RichardTheLionheart>(4, &Options::default(), seed, 3000, false);
        let c = p.game.result.as_ref().unwrap().condition;
        seen[usize::from(c) - 1] = true;
    }
    assert!(seen.iter().filter(|s| **s).count() >= 3, "conditions seen: {seen:?}");
}

#[test]
fn scrambling_redraws_the_crusade_deck_the_edicts_and_a_drawn_edict_but_nothing_the_viewer_sees() {
    use richard_the_lionheart::testing::{arrive, fixture};
    use richard_the_lionheart::Choice;
    let mut g = fixture(&[Character::RobinHood, Character::MaidMarion, Character::Sheriff, Character::PrinceJohn]);
    g.crusade = vec![Card::RB, Card::RB, Card::GC, Card::GH, Card::RH];
    arrive(&mut g, Seat(0), Location::Nottingham);
    g.apply(Seat(0), &Action::Perform { choice: Choice::Plain }).unwrap();
    let Stage::KeepEdict { drawn, .. } = g.stage else { panic!("Nottingham 4–6p asks which edict to keep") };
    let mut rng = GameRng::from_u64(3);
    let (mut crusade, mut drawn_changed, mut edicts_changed, mut hands_changed) = (false, false, false, false);
    for _ in 0..40 {
        // Marion (a Richard ally of the drawer) sees neither the drawn edict nor the decks.
        let viewer = Viewer::Seat(Seat(1));
        let s = g.scramble_hidden(viewer, &mut rng);
        assert_eq!(s.view(viewer), g.view(viewer));
        assert_eq!(
            (s.players[Seat(1)].hand, s.players[Seat(1)].edict),
            (g.players[Seat(1)].hand, g.players[Seat(1)].edict)
        );
        assert_eq!(s.crusade.len(), g.crusade.len());
        crusade |= Card::ALL
            .iter()
            .any(|t| s.crusade.iter().filter(|c| *c == t).count() != g.crusade.iter().filter(|c| *c == t).count());
        drawn_changed |= !matches!(s.stage, Stage::KeepEdict { drawn: d, .. } if d == drawn);
        edicts_changed |= [0, 2, 3].map(Seat).iter().any(|i| s.players[*i].edict != g.players[*i].edict);
        hands_changed |= [0, 2, 3].map(Seat).iter().all(|i| s.players[*i].hand != g.players[*i].hand);
        // The drawer keeps seeing its own draw.
        let own = g.scramble_hidden(Viewer::Seat(Seat(0)), &mut rng);
        assert_eq!(own.stage, g.stage);
        assert_eq!(own.players[Seat(0)].edict, g.players[Seat(0)].edict);
        assert_eq!(own.view(Viewer::Seat(Seat(0))), g.view(Viewer::Seat(Seat(0))));
        // A spectator sees no hand and no edict.
        let spec = g.scramble_hidden(Viewer::Spectator, &mut rng);
        assert_eq!(spec.view(Viewer::Spectator), g.view(Viewer::Spectator));
    }
    assert!(crusade, "the Crusade deck's contents are re-drawn");
    assert!(drawn_changed, "the drawn edict is re-drawn for others");
    assert!(edicts_changed, "other players' edicts are re-drawn");
    assert!(hands_changed, "other hands are re-drawn");
}
