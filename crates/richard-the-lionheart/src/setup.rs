//! The options, and setup by player count (rulebook steps I–XIV, spec §3) in the spec's fixed RNG
//! order, with the character picks (D0.1) under `chosen`.

use crate::board::{quotas, Card, Cards, Character, Edict, EventCard, Faction};
use crate::event::Event;
use crate::rules;
use crate::state::{EdictDecks, Player, RichardTheLionheart, Stage, Tracks};
use game_core::{BySeat, GameRng, Seat, Seed, SetupError};
use serde::{Deserialize, Serialize};

/// How characters are given out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CharacterAssignment {
    /// Dealt at random within the faction quotas.
    #[default]
    Random,
    /// Each seat in turn picks one (D0.1).
    Chosen,
}

/// The options a table chooses.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// How characters are given out.
    pub characters: CharacterAssignment,
}

const RICHARD_CHARACTERS: [Character; 4] =
    [Character::RobinHood, Character::MaidMarion, Character::LittleJohn, Character::FriarTuck];
const JOHN_CHARACTERS: [Character; 4] =
    [Character::PrinceJohn, Character::Sheriff, Character::BishopOfEly, Character::Isabella];

/// Sets up a game and runs it to the first decision (`Game::setup`).
///
/// # Errors
/// [`SetupError::PlayerCount`] outside 2..=6 players.
pub(crate) fn setup(players: usize, options: &Options, seed: Seed) -> Result<RichardTheLionheart, SetupError> {
    SetupError::check_players::<RichardTheLionheart>(players)?;
    let mut game = RichardTheLionheart {
        options: options.clone(),
        players: BySeat(vec![Player::default(); players]),
        round: 1,
        first_player: Seat(0),
        tracks: Tracks::default(),
        provisions: Vec::new(),
        reserve: Cards::default(),
        crusade: Vec::new(),
        display: Cards::default(),
        edicts: EdictDecks::default(),
        events: Vec::new(),
        active_event: None,
        discarded_events: Vec::new(),
        merchant: None,
        mercenary: None,
        verdicts: None,
        stage: Stage::Over,
        turn: 0,
        result: None,
        rng: GameRng::from_seed(seed),
        log: Vec::new(),
    };
    if options.characters == CharacterAssignment::Random {
        deal_characters(&mut game);
    }
    // Steps 5 and 6: the Crusade deck, the Provisions deck and the Reserve.
    let mut crusade = Card::ALL.to_vec();
    game.rng.shuffle(&mut crusade);
    game.crusade = crusade;
    let mut provisions: Vec<Card> = Card::ALL.iter().flat_map(|c| vec![*c; 15]).collect();
    game.rng.shuffle(&mut provisions);
    game.provisions = provisions;
    game.reserve = Cards::each(24);
    match options.characters {
        CharacterAssignment::Random => finish(&mut game),
        CharacterAssignment::Chosen => game.stage = Stage::ChooseCharacter { seat: Seat(0) },
    }
    game.log.clear();
    Ok(game)
}

/// Step 3 under `Random`: fill the quotas from shuffled faction piles, then shuffle the seats.
fn deal_characters(game: &mut RichardTheLionheart) {
    let (r, j, neutral) = quotas(game.players.len());
    let mut richard = RICHARD_CHARACTERS.to_vec();
    game.rng.shuffle(&mut richard);
    let mut john = JOHN_CHARACTERS.to_vec();
    game.rng.shuffle(&mut john);
    let mut chosen: Vec<Character> = richard.into_iter().take(r).chain(john.into_iter().take(j)).collect();
    chosen.extend(neutral);
    game.rng.shuffle(&mut chosen);
    for ((_, p), c) in game.players.iter_mut().zip(chosen) {
        p.character = Some(c);
    }
}

/// The characters `seat` may still choose under `Chosen` (D0.1).
pub fn choosable(game: &RichardTheLionheart) -> Vec<Character> {
    let (r, j, neutral) = quotas(game.players.len());
    let taken: Vec<Character> = game.players.iter().filter_map(|(_, p)| p.character).collect();
    let count = |f: Faction| taken.iter().filter(|c| c.faction() == f).count();
    Character::ALL
        .into_iter()
        .filter(|c| !taken.contains(c))
        .filter(|c| match c.faction() {
            Faction::Richard => count(Faction::Richard) < r,
            Faction::John => count(Faction::John) < j,
            Faction::Neutral => Some(*c) == neutral,
        })
        .collect()
}

/// D0.1: `seat` takes `character`; after the last seat, setup finishes.
pub fn choose(game: &mut RichardTheLionheart, seat: Seat, character: Character) {
    game.player_mut(seat).character = Some(character);
    game.say(Event::CharacterTaken { seat, character });
    let next = seat.index() + 1;
    if next < game.players.len() {
        game.stage = Stage::ChooseCharacter { seat: Seat(next as u8) };
    } else {
        finish(game);
    }
}

/// Steps 4 and 7–11, then the first round.
fn finish(game: &mut RichardTheLionheart) {
    for (_, p) in game.players.iter_mut() {
        let c = p.character.unwrap_or(Character::RobinHood);
        p.coins = c.starting_coins();
        p.side = c.faction().fixed_side().unwrap_or_default();
    }
    for faction in [Faction::Richard, Faction::John, Faction::Neutral] {
        let holders: Vec<Seat> = game.players.iter().filter(|(_, p)| p.faction() == faction).map(|(s, _)| s).collect();
        if faction == Faction::Neutral && holders.is_empty() {
            continue;
        }
        let mut deck: Vec<Edict> = Edict::deck(faction).to_vec();
        game.rng.shuffle(&mut deck);
        for s in holders {
            game.players[s].edict = deck.pop();
        }
        *game.edicts.deck_mut(faction) = deck;
    }
    let mut events = EventCard::ALL.to_vec();
    game.rng.shuffle(&mut events);
    game.events = events;
    for s in Seat::all(game.players.len()) {
        let size = if game.players[s].faction() == Faction::Neutral { 10 } else { 7 };
        for _ in 0..size {
            if let Some(c) = game.provisions.pop() {
                game.players[s].hand.add(c, 1);
            }
        }
    }
    game.first_player = Seat(game.rng.below(game.players.len()) as u8);
    rules::round::start_round(game);
}
