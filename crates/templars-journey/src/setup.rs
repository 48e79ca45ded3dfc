//! Options and setup: the random draws of edicts, tiles, missions and the first player, the
//! gold deal, and the start of the knight-placement rounds.

use crate::board::{gold_rate, City, EdictSpace, Mission, Space, Territory, Tile, KNIGHTS, START_GOLD};
use crate::event::Event;
use crate::state::{CityState, PlayerState, Step, TemplarsJourney};
use game_core::{BySeat, GameRng, Seat, Seed, SetupError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The options of a table. Templars' Journey has none (so the lobby offers none: the default
/// `Game::option_specs`); unknown keys are rejected.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {}

/// Sets up a game for `players` seats and plays up to the first decision point (`Game::setup`).
///
/// # Errors
/// [`SetupError::PlayerCount`] unless 3 to 5 players.
pub(crate) fn setup(players: usize, options: &Options, seed: Seed) -> Result<TemplarsJourney, SetupError> {
    SetupError::check_players::<TemplarsJourney>(players)?;
    let mut rng = GameRng::from_seed(seed);

    let mut edicts = City::ALL;
    rng.shuffle(&mut edicts);
    let boxed_edicts = edicts[..2].to_vec();
    let edict_spaces: Vec<Option<City>> = edicts[2..].iter().copied().map(Some).collect();

    let mut tiles = Tile::ALL;
    rng.shuffle(&mut tiles);
    let mut tile_iter = tiles.into_iter();
    let cities: Vec<CityState> = City::ALL
        .into_iter()
        .map(|c| CityState {
            tile: if boxed_edicts.contains(&c) { None } else { tile_iter.next() },
            knights: BySeat(vec![0; players]),
        })
        .collect();

    let mut missions = Mission::ALL;
    rng.shuffle(&mut missions);
    let boxed_missions = missions[..3].to_vec();
    let dealt = &missions[3..3 + players];
    let face_up_missions = missions[3 + players..].to_vec();

    let first = Seat(rng.below(players) as u8);

    let player_states = BySeat::from_fn(players, |s| PlayerState {
        gold: START_GOLD,
        supply: KNIGHTS,
        temple: 0,
        vp: BTreeMap::new(),
        templars: Vec::new(),
        edicts: Vec::new(),
        mission: dealt[s.index()],
    });

    let mut game = TemplarsJourney {
        options: options.clone(),
        rng,
        players: player_states,
        first,
        pope: Space::start(1),
        territory_gold: vec![0; Territory::ALL.len()],
        cities,
        edict_spaces,
        evaluated: vec![false; EdictSpace::ALL.len()],
        ships: vec![BySeat(vec![0; players]); 6],
        boxed_edicts,
        removed_edicts: Vec::new(),
        boxed_tiles: Vec::new(),
        face_up_missions,
        boxed_missions,
        card_phase: None,
        seventh_city: None,
        card_phases: 0,
        leg_card_phases: 0,
        step: Step::SetupKnight { placed: 0 },
    };
    game.deal_gold(0);
    let mut ignored = Vec::new();
    game.settle(&mut ignored);
    Ok(game)
}

/// The public record of setup, and each player's mission privately (`Game::setup_events`).
pub(crate) fn setup_events(game: &TemplarsJourney) -> Vec<game_core::Event<Event>> {
    let edicts = EdictSpace::ALL
        .into_iter()
        .filter_map(|s| game.edict_spaces.get(s.index()).copied().flatten().map(|c| (s, c)))
        .collect();
    let tiles = City::ALL.into_iter().filter_map(|c| game.city(c).tile.map(|t| (c, t))).collect();
    let mut events = vec![game_core::Event::public(Event::SetupDone {
        edicts,
        tiles,
        face_up_missions: game.face_up_missions.clone(),
        first: game.first,
    })];
    for (seat, p) in game.players.iter() {
        events.push(game_core::Event::private(seat, Event::MissionDealt { seat, mission: p.mission }));
    }
    events
}

impl TemplarsJourney {
    /// Deals gold to every territory at the rate of `moment` (0 setup, 1 and 2 after shipping
    /// rounds 1 and 2), judged by the tiles present now; returns the two rates.
    pub fn deal_gold(&mut self, moment: u8) -> (u32, u32) {
        let (with, without) = gold_rate(self.players.len(), moment);
        for t in Territory::ALL {
            let has_tile = t.city().is_some_and(|c| self.city(c).tile.is_some());
            self.territory_gold[t.index()] += if has_tile { with } else { without };
        }
        (with, without)
    }
}
