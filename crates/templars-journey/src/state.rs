//! The full game state (secret: it holds every hidden thing and the RNG), the decision point
//! the game waits at, and the small queries the rules ask of the state.

use crate::board::{City, EdictSpace, Flag, Mission, Space, Territory, Tile};
use crate::setup::Options;
use game_core::{BySeat, GameRng, Seat};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Where victory points came from, for the score breakdown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VpSource {
    /// Most knights in an evaluated city (2).
    CityMajority,
    /// Present in a completely occupied city (1).
    FullCity,
    /// Present on a ship (1) and per own knight on it (1 each).
    Ship,
    /// Most knights in the temple after a shipping round.
    TempleMajority,
    /// Most knights in the seventh city (2).
    SeventhCityMajority,
    /// 1 per 2 own knights in the seventh city.
    SeventhCityKnights,
    /// 1 per 4 gold at the end.
    Gold,
    /// Mission cards (4 for the best, 2 for the second best).
    Missions,
}

impl VpSource {
    /// All sources, in scoring order.
    pub const ALL: [VpSource; 8] = [
        VpSource::CityMajority,
        VpSource::FullCity,
        VpSource::Ship,
        VpSource::TempleMajority,
        VpSource::SeventhCityMajority,
        VpSource::SeventhCityKnights,
        VpSource::Gold,
        VpSource::Missions,
    ];

    /// A label for the score breakdown.
    pub fn label(self) -> &'static str {
        match self {
            VpSource::CityMajority => "City majority",
            VpSource::FullCity => "Full city",
            VpSource::Ship => "Ships",
            VpSource::TempleMajority => "Temple majority",
            VpSource::SeventhCityMajority => "Seventh city majority",
            VpSource::SeventhCityKnights => "Seventh city knights",
            VpSource::Gold => "Gold",
            VpSource::Missions => "Missions",
        }
    }
}

/// One player's pieces and holdings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerState {
    /// Gold owned.
    pub gold: u32,
    /// Knights in the personal supply.
    pub supply: u32,
    /// Knights in the temple on the player board.
    pub temple: u32,
    /// Victory points by source.
    pub vp: BTreeMap<VpSource, u32>,
    /// The territories of the player's Templars (0 to 2 entries; 2 after setup).
    pub templars: Vec<Territory>,
    /// Edicts won.
    pub edicts: Vec<City>,
    /// The secret mission card.
    pub mission: Mission,
}

impl PlayerState {
    /// Total victory points.
    pub fn total_vp(&self) -> u32 {
        self.vp.values().sum()
    }

    /// Adds `points` from `source`.
    pub fn gain(&mut self, source: VpSource, points: u32) {
        if points > 0 {
            *self.vp.entry(source).or_insert(0) += points;
        }
    }
}

/// A city space: its tile (none once boxed or evaluated) and the knights in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CityState {
    /// The tile, while the city is active.
    pub tile: Option<Tile>,
    /// Knights per seat.
    pub knights: BySeat<u32>,
}

impl CityState {
    /// Knights of all colours together.
    pub fn total(&self) -> u32 {
        self.knights.0.iter().sum()
    }

    /// Whether the city is active and has room for another knight.
    pub fn has_room(&self) -> bool {
        self.tile.is_some_and(|t| self.total() < t.capacity())
    }

    /// Knights of `seat` here (0 for an unknown seat).
    pub fn of(&self, seat: Seat) -> u32 {
        self.knights.get(seat).copied().unwrap_or(0)
    }
}

/// How a Move-a-Templar card action is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveKind {
    /// Card 6.
    Safe,
    /// Card 5, not penalised.
    Risky,
    /// Card 5, penalised.
    Penalty,
}

/// How much gold a Collect-gold card action takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GoldTake {
    /// Card 1: 3 gold.
    Safe,
    /// Card 2: all the gold.
    Risky,
    /// Card 2 penalised: 2 gold, then the sacrifice.
    Penalty,
}

impl GoldTake {
    /// The amount taken from a territory holding `available` gold.
    pub fn amount(self, available: u32) -> u32 {
        match self {
            GoldTake::Safe => available.min(3),
            GoldTake::Risky => available,
            GoldTake::Penalty => available.min(2),
        }
    }
}

/// A decision point inside one player's card action (D9 to D25 of the spec).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "prompt", rename_all = "snake_case")]
pub enum Prompt {
    /// D9: the territory to collect gold from.
    GoldSource {
        /// Safe, risky or penalty amount.
        take: GoldTake,
    },
    /// D10: the Taxes favour.
    Taxes {
        /// Whether the sacrifice follows.
        penalty: bool,
    },
    /// D11: the city a knight is sacrificed from.
    Sacrifice,
    /// D12: the city of a Place-knights SAFE action.
    SafeCity,
    /// D13: place, remove, toss or stop.
    SafeStep {
        /// The chosen city.
        city: City,
        /// Gold paid so far (at most 6).
        spent: u32,
        /// New Chance uses so far (at most 2).
        chances: u32,
    },
    /// D14: the toss showed the cross.
    CrossResult {
        /// The chosen city.
        city: City,
        /// Gold paid so far.
        spent: u32,
        /// New Chance uses so far.
        chances: u32,
    },
    /// D15: the toss showed the blank side.
    NewChance {
        /// The chosen city.
        city: City,
        /// Gold paid so far.
        spent: u32,
        /// New Chance uses so far.
        chances: u32,
    },
    /// D16: the city of a Place-knights RISKY action.
    RiskyCity,
    /// D17: exchange or stop.
    RiskyStep {
        /// The chosen city.
        city: City,
        /// Exchanges made (at most 3).
        done: u32,
    },
    /// D18: the city of the Place-knights penalty.
    PenaltyCity,
    /// D19: remove or stop.
    PenaltyStep {
        /// The chosen city.
        city: City,
        /// Removals made (at most 3).
        done: u32,
    },
    /// D20: which Templar moves.
    ChooseTemplar {
        /// Card 6, card 5, or card 5 penalised.
        kind: MoveKind,
    },
    /// D21: the next step of the move, or stop.
    MoveStep {
        /// Card 6, card 5, or card 5 penalised.
        kind: MoveKind,
        /// Which of the player's Templars moves (0 or 1).
        templar: usize,
        /// Steps taken (at most 3).
        steps: u32,
        /// Territories entered so far, in order.
        entered: Vec<Territory>,
    },
    /// D22: the Move-SAFE effect in the city where the Templar stopped.
    SafeEffect {
        /// The city.
        city: City,
    },
    /// D23: the edict exchange after a Move-RISKY action.
    EdictExchange {
        /// The city where the Templar stopped.
        city: City,
    },
    /// D24: a player with 4 temple knights may veto the exchange.
    Veto {
        /// The edict of the city where the Templar stopped.
        city: City,
        /// The edict it would swap with.
        target: City,
        /// The player asked now.
        asked: Seat,
        /// Players still to ask after this one.
        later: Vec<Seat>,
    },
    /// D25: the one territory the penalised move takes 1 gold from.
    PenaltyGold {
        /// Territories entered during the move.
        entered: Vec<Territory>,
    },
}

/// The revealed cards of the current action and their order of resolution.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardPhase {
    /// The card each seat played (1 to 6).
    pub cards: BySeat<u8>,
    /// Whether each seat carries out the penalty action.
    pub penalised: BySeat<bool>,
    /// Seats in order of resolution.
    pub order: Vec<Seat>,
    /// How many card actions have been completed.
    pub resolved: usize,
}

/// The decision point the game waits at.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Step {
    /// D1: setup knight placement number `placed` (0-based, 4 laps).
    SetupKnight {
        /// Placements made so far.
        placed: usize,
    },
    /// D2: setup Templar placement number `placed` (0-based, 2 laps).
    SetupTemplar {
        /// Placements made so far.
        placed: usize,
    },
    /// A1/D3: the first player moves the Pope (automatic when forced).
    PopeStep,
    /// D4: the first player may place a knight.
    GreenFlag,
    /// D5: the first player may remove an opponent's knight.
    RedFlag,
    /// D6/D7: the holder of the first-player marker may pass it on for 3 temple knights.
    Leader {
        /// The player who holds the marker now.
        holder: Seat,
        /// False for the player who moved the Pope (D6), true for a receiver (D7).
        received: bool,
    },
    /// D8: every player chooses a card, hidden.
    ChooseCards {
        /// The hidden choices so far.
        chosen: BySeat<Option<u8>>,
    },
    /// A card action in progress.
    Card {
        /// The acting player.
        seat: Seat,
        /// What they decide now.
        prompt: Prompt,
    },
    /// The game has ended.
    GameOver,
}

/// The whole state of a game of Templars' Journey.
///
/// Fields are public plain data for tools and tests; the engine keeps them consistent only
/// through [`game_core::Game::apply`]. Reading one from JSON checks [`game_core::Game::validate`]
/// (the derives serve the checked `Serialize`/`Deserialize` of [`game_core::validated_state!`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(remote = "Self")]
pub struct TemplarsJourney {
    /// The options the game was set up with.
    pub options: Options,
    /// The seeded RNG every random draw comes from.
    pub rng: GameRng,
    /// The players, by seat.
    pub players: BySeat<PlayerState>,
    /// The holder of the first-player marker.
    pub first: Seat,
    /// Where the Pope stands.
    pub pope: Space,
    /// Gold lying in each territory, indexed like [`Territory::ALL`].
    pub territory_gold: Vec<u32>,
    /// The 9 city spaces, indexed like [`City::ALL`].
    pub cities: Vec<CityState>,
    /// The edict on each edict space, indexed like [`EdictSpace::ALL`]; `None` once evaluated.
    pub edict_spaces: Vec<Option<City>>,
    /// Whether each edict space has been evaluated.
    pub evaluated: Vec<bool>,
    /// The knights on the ship of each of the first six edict spaces.
    pub ships: Vec<BySeat<u32>>,
    /// The two edicts returned to the box at setup (never shown).
    pub boxed_edicts: Vec<City>,
    /// Edicts removed from the game after a tie.
    pub removed_edicts: Vec<City>,
    /// Tiles returned to the box after their city was evaluated.
    pub boxed_tiles: Vec<Tile>,
    /// Mission cards face up next to the board.
    pub face_up_missions: Vec<Mission>,
    /// The three mission cards returned to the box (never shown).
    pub boxed_missions: Vec<Mission>,
    /// The cards of the current (or last) card phase, once revealed.
    pub card_phase: Option<CardPhase>,
    /// The seventh city, once final scoring has taken its edict off the track.
    pub seventh_city: Option<City>,
    /// Card phases played so far in the game.
    pub card_phases: u32,
    /// Card phases played in the current leg.
    pub leg_card_phases: u32,
    /// The decision point the game waits at.
    pub step: Step,
}

game_core::validated_state!(TemplarsJourney);

impl TemplarsJourney {
    /// Knights of `seat` in the supply, the cities, the temple and on the ships: always 19
    /// (INV-1). Counted wide, so any stored numbers add up without overflow.
    pub fn knight_total(&self, seat: Seat) -> u64 {
        let Some(p) = self.players.get(seat) else { return 0 };
        let cities: u64 = self.cities.iter().map(|c| u64::from(c.of(seat))).sum();
        let ships: u64 = self.ships.iter().map(|b| u64::from(b.get(seat).copied().unwrap_or(0))).sum();
        u64::from(p.supply) + u64::from(p.temple) + cities + ships
    }

    /// The state of `city`.
    pub fn city(&self, city: City) -> &CityState {
        &self.cities[city.index()]
    }

    /// The state of `city`, mutably.
    pub fn city_mut(&mut self, city: City) -> &mut CityState {
        &mut self.cities[city.index()]
    }

    /// Gold lying in `t`.
    pub fn gold_at(&self, t: Territory) -> u32 {
        self.territory_gold[t.index()]
    }

    /// The edict on `space`, if it is still on the track.
    pub fn edict_on(&self, space: EdictSpace) -> Option<City> {
        self.edict_spaces[space.index()]
    }

    /// The unevaluated edict space holding `edict`, if it is on the track.
    pub fn space_of(&self, edict: City) -> Option<EdictSpace> {
        EdictSpace::ALL.into_iter().find(|s| self.edict_on(*s) == Some(edict))
    }

    /// cw(p): seats clockwise from the first player, who has 0.
    pub fn cw(&self, seat: Seat) -> usize {
        let n = self.players.len();
        (seat.index() + n - self.first.index() % n) % n
    }

    /// Territories holding at least one of `seat`'s Templars, without repeats.
    pub fn own_territories(&self, seat: Seat) -> Vec<Territory> {
        let mut out: Vec<Territory> = Vec::new();
        for &t in &self.players[seat].templars {
            if !out.contains(&t) {
                out.push(t);
            }
        }
        out.sort();
        out
    }

    /// Reach(p): own-Templar territories and every territory adjacent to one of them.
    pub fn reach(&self, seat: Seat) -> Vec<Territory> {
        let own = self.own_territories(seat);
        Territory::ALL.into_iter().filter(|t| own.contains(t) || own.iter().any(|o| o.is_adjacent(*t))).collect()
    }

    /// Active cities in `seat`'s own-Templar territories, in canonical order.
    pub fn own_active_cities(&self, seat: Seat) -> Vec<City> {
        let own = self.own_territories(seat);
        City::ALL.into_iter().filter(|c| own.contains(&c.territory()) && self.city(*c).tile.is_some()).collect()
    }

    /// Opponents of `seat` with at least one knight in `city`, in seat order.
    pub fn opponents_in(&self, seat: Seat, city: City) -> Vec<Seat> {
        self.city(city).knights.iter().filter(|(s, k)| *s != seat && **k > 0).map(|(s, _)| s).collect()
    }

    /// Cities where `seat` has at least one knight.
    pub fn cities_with_own(&self, seat: Seat) -> Vec<City> {
        City::ALL.into_iter().filter(|c| self.city(*c).of(seat) > 0).collect()
    }

    /// The flag of the Pope's space (during a card phase always an action space).
    pub fn flag(&self) -> Option<Flag> {
        self.pope.flag()
    }

    /// Moves one of `owner`'s knights from `city` to their temple.
    pub fn knight_to_temple(&mut self, city: City, owner: Seat) {
        let c = self.city_mut(city);
        if let Some(k) = c.knights.0.get_mut(owner.index()) {
            if *k > 0 {
                *k -= 1;
                self.players[owner].temple += 1;
            }
        }
    }

    /// Moves one of `seat`'s supply knights into `city`.
    pub fn knight_from_supply(&mut self, city: City, seat: Seat) {
        if self.players[seat].supply > 0 {
            self.players[seat].supply -= 1;
            if let Some(k) = self.city_mut(city).knights.0.get_mut(seat.index()) {
                *k += 1;
            }
        }
    }

    /// Takes up to `amount` gold from territory `t` for `seat`; returns what was taken.
    pub fn take_gold(&mut self, seat: Seat, t: Territory, amount: u32) -> u32 {
        let taken = amount.min(self.territory_gold[t.index()]);
        self.territory_gold[t.index()] -= taken;
        self.players[seat].gold += taken;
        taken
    }

    /// Moves `count` knights of `seat` from the temple to the supply (a favour payment).
    pub fn pay_favour(&mut self, seat: Seat, count: u32) {
        let p = &mut self.players[seat];
        let paid = count.min(p.temple);
        p.temple -= paid;
        p.supply += paid;
    }
}
