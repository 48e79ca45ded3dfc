//! The options a table chooses, and setting up a game: start player, hands, Raphael's deck, the
//! harbor stocked from the bag (at most one chalice per storehouse), the door, the figures.

use crate::board::{self, Card, Kind, Pieces, Portal, STOREHOUSES};
use crate::event::Event;
use crate::state::{Phase, Place, Raphael, RoomSpaces, Score, SecretTreasures};
use game_core::{BySeat, GameRng, OptionKind, OptionSpec, Seat, Seed, SetupError};
use serde::{Deserialize, Serialize};

/// The options of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Whether Stephanus, the Illustrator, is in the hands (required with 5 players).
    pub stephanus: bool,
    /// The suggested first-game placement: Severus in 13, Remigius in 1, Vitus at the main portal.
    pub first_game_placement: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { stephanus: true, first_game_placement: false }
    }
}

/// The options a lobby can set.
pub(crate) fn option_specs() -> Vec<OptionSpec> {
    vec![
        OptionSpec {
            key: "stephanus".into(),
            label: "Play with Stephanus".into(),
            help: "Stephanus, the Illustrator, scores for the characters around him. He may be left out with 2 to 4 \
                   players for a more challenging game; with 5 players he must be in."
                .into(),
            kind: OptionKind::Bool { default: true },
        },
        OptionSpec {
            key: "first_game_placement".into(),
            label: "First-game placement".into(),
            help: "Severus starts in room 13, Remigius in room 1 and Vitus in front of the main portal, instead of \
                   the players placing them."
                .into(),
            kind: OptionKind::Bool { default: false },
        },
    ]
}

/// Test hooks for setup, set only by [`crate::testing`]: a fixed start player and fixed first
/// draws from the bag. Real games use the default (none).
#[derive(Clone, Debug, Default)]
pub(crate) struct SetupHooks {
    /// The start player instead of a random one.
    pub(crate) start: Option<Seat>,
    /// The first tiles drawn from the bag, in order.
    pub(crate) draws: Vec<Kind>,
}

/// Sets up a game.
///
/// # Errors
/// [`SetupError`] for a player count outside 2–5, or for leaving Stephanus out with 5 players.
pub(crate) fn setup(
    players: usize,
    options: &Options,
    seed: Seed,
    hooks: SetupHooks,
) -> Result<SecretTreasures, SetupError> {
    SetupError::check_players::<SecretTreasures>(players)?;
    if players == 5 && !options.stephanus {
        return Err(SetupError::InvalidOptions { reason: "Stephanus must be in play in a 5-player game".into() });
    }
    let mut rng = GameRng::from_seed(seed);
    let start = match hooks.start {
        Some(s) if s.index() < players => s,
        _ => Seat(rng.below(players) as u8),
    };
    let mut log = vec![Event::StartPlayer { seat: start }];
    let tiles = if players == 2 { board::TILES_TWO_PLAYERS } else { board::TILES };
    let mut game = SecretTreasures {
        options: options.clone(),
        players: players as u8,
        rng,
        start,
        round: 1,
        phase: Phase::Over,
        final_turn: false,
        final_turns_left: None,
        trigger: None,
        hands: BySeat::from_fn(players, |_| Vec::new()),
        piles: BySeat::from_fn(players, |_| Vec::new()),
        chosen: BySeat::from_fn(players, |_| None),
        tokens: BySeat::from_fn(players, |_| Place::Portal(Portal::Main)),
        remigius: None,
        vitus: None,
        severus: None,
        door: board::DOOR_START,
        rooms: (1..=board::ROOMS).map(RoomSpaces::empty).collect(),
        stocks: BySeat::from_fn(players, |_| Pieces::default()),
        reserves: BySeat::from_fn(players, |_| board::VALUABLES),
        bag: tile_list(tiles),
        storehouses: vec![Vec::new(); STOREHOUSES.len()],
        removed: Pieces::default(),
        scores: BySeat::from_fn(players, |_| Score::default()),
        raphael: None,
        forced_draws: hooks.draws,
        setup_log: Vec::new(),
    };
    let hand = game.full_hand();
    for seat in Seat::all(players) {
        game.hands[seat] = hand.clone();
    }
    if players == 2 {
        let mut deck: Vec<Card> = hand.iter().filter(|c| **c != Card::Bells).flat_map(|c| [*c, *c]).collect();
        deck.push(Card::Bells);
        game.rng.shuffle(&mut deck);
        game.raphael = Some(Raphael { deck, display: Vec::new() });
    }
    stock_harbor(&mut game, &mut log);
    if options.first_game_placement {
        game.severus = Some(13);
        game.remigius = Some(1);
        game.vitus = Some(Place::Portal(Portal::Main));
        log.push(Event::FirstGamePlacement);
        game.phase = Phase::ChooseRings { seat: start };
    } else {
        game.phase = Phase::PlaceRemigius { seat: start.next(players, players - 1) };
    }
    game.setup_log = log;
    Ok(game)
}

/// Every tile of a count, as a bag.
pub(crate) fn tile_list(tiles: Pieces) -> Vec<Kind> {
    Kind::ALL.iter().flat_map(|k| std::iter::repeat_n(*k, usize::from(tiles.get(*k)))).collect()
}

/// Fills S1..S6 in order; a second chalice for a storehouse is set aside and goes back to the bag
/// as soon as the next tile is placed.
fn stock_harbor(game: &mut SecretTreasures, log: &mut Vec<Event>) {
    for (i, capacity) in STOREHOUSES.iter().enumerate() {
        let number = i as u8 + 1;
        let mut aside = 0;
        while game.storehouses.get(i).is_some_and(|s| s.len() < *capacity) {
            let Some(tile) = game.draw() else { break };
            let has_chalice = game.storehouses.get(i).is_some_and(|s| s.contains(&Kind::Chalice));
            if tile == Kind::Chalice && has_chalice {
                aside += 1;
                log.push(Event::ChaliceSetAside { storehouse: number });
                continue;
            }
            if let Some(s) = game.storehouses.get_mut(i) {
                s.push(tile);
            }
            log.push(Event::TileDrawn { storehouse: number, tile });
            game.bag.extend(std::iter::repeat_n(Kind::Chalice, aside));
            aside = 0;
        }
        game.bag.extend(std::iter::repeat_n(Kind::Chalice, aside));
    }
}
