//! The options and setup (spec §3): the Grand Master draw, the game deck and the first Draw Phase.

use crate::card::{Card, CardType};
use crate::event::Event;
use crate::rules::Events;
use crate::state::{KnightsTemplar, Pending, SetupDraw, SetupHand, Stage};
use game_core::{BySeat, GameRng, Seat, Seed, SetupError};
use serde::{Deserialize, Serialize};

/// Knights Templar has no options.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {}

/// Sets up a game whose shuffles come from `seed`, up to the first decision point.
///
/// # Errors
/// [`SetupError`] for an unsupported player count.
pub(crate) fn setup(players: usize, _options: &Options, seed: Seed) -> Result<KnightsTemplar, SetupError> {
    SetupError::check_players::<KnightsTemplar>(players)?;
    let mut rng = GameRng::from_seed(seed);
    let mut game = setup_with_shuffles(players, GameRng::from_u64(0), |deck| {
        rng.shuffle(deck);
        true
    })
    .ok_or_else(|| SetupError::InvalidOptions { reason: "setup could not shuffle".into() })?;
    // The stored RNG continues from where the setup shuffles left it.
    game.rng = rng;
    Ok(game)
}

/// Setup (spec §3) with `shuffle` standing for every shuffle of the full deck, then the first
/// Draw Phase. Games pass the seeded RNG; tests pass scripted shuffles ([`crate::testing`]).
/// `shuffle` returns false when it has no shuffle left to give (a script ran out): setup then
/// fails. `rng` is stored in the state as it is.
pub(crate) fn setup_with_shuffles(
    players: usize,
    rng: GameRng,
    mut shuffle: impl FnMut(&mut Vec<Card>) -> bool,
) -> Option<KnightsTemplar> {
    let mut candidates: Vec<Seat> = Seat::all(players).collect();
    let mut setup_draws = Vec::new();
    let gm = loop {
        let mut deck: Vec<Card> = Card::all().collect();
        if !shuffle(&mut deck) {
            return None;
        }
        let iteration = setup_draws.len() as u32 + 1;
        let hands: Vec<SetupHand> = candidates
            .iter()
            .zip(deck.chunks(10))
            .map(|(seat, cards)| SetupHand {
                seat: *seat,
                cards: cards.to_vec(),
                missions: cards.iter().filter(|c| c.kind() == CardType::Mission).count() as u32,
            })
            .collect();
        let best = hands.iter().map(|h| h.missions).max().unwrap_or(0);
        let leaders: Vec<Seat> = hands.iter().filter(|h| h.missions == best).map(|h| h.seat).collect();
        setup_draws.push(SetupDraw { iteration, hands });
        if let [only] = leaders[..] {
            break only;
        }
        candidates = leaders;
    };
    let mut deck: Vec<Card> = Card::all().collect();
    if !shuffle(&mut deck) {
        return None;
    }
    let mut game = KnightsTemplar {
        players,
        rng,
        deck,
        fate: Vec::new(),
        tableaus: BySeat::from_fn(players, |_| Vec::new()),
        discard: Vec::new(),
        county_vp: BySeat::from_fn(players, |_| 0),
        gm,
        turn: 0,
        round: 0,
        picked: Vec::new(),
        picker: gm,
        fate_picks: BySeat::from_fn(players, |_| 0),
        stage: Stage::Select,
        power_queue: Vec::new(),
        pending: Pending::Resolving,
        setup_draws,
        end: None,
    };
    // The Draw Phase's events are not setup events: the log rebuilds setup's from `setup_draws`.
    let mut events = Events::new();
    game.draw_phase(&mut events);
    game.settle(&mut events);
    Some(game)
}

/// What setup did, for the game log: each public Grand Master draw, then the first Grand Master.
pub(crate) fn setup_events(game: &KnightsTemplar) -> Events {
    let mut events: Events = game
        .setup_draws
        .iter()
        .map(|d| game_core::Event::public(Event::SetupDraw { iteration: d.iteration, hands: d.hands.clone() }))
        .collect();
    if let Some(last) = game.setup_draws.last() {
        let best = last.hands.iter().map(|h| h.missions).max().unwrap_or(0);
        if let Some(gm) = last.hands.iter().find(|h| h.missions == best) {
            events.push(game_core::Event::public(Event::FirstGrandMaster { seat: gm.seat }));
        }
    }
    events
}
