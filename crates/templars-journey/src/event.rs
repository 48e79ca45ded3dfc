//! What happened, for the game log. Each event renders as a sentence with the players' names;
//! hidden things (missions, unrevealed cards) travel only in private events.

use crate::board::{City, EdictSpace, Mission, Space, Territory, Tile};
use game_core::{BySeat, GameEvent, Seat, SeatNames};
use serde::{Deserialize, Serialize};

/// Why a knight entered a city.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlaceCause {
    /// Setup placement.
    Setup,
    /// The green flag action of the first player.
    GreenFlag,
    /// Place knights SAFE, for 2 gold.
    Paid,
    /// Place knights SAFE, after a cross.
    Cross,
    /// Move a Templar SAFE on a green flag.
    SafeMove,
}

/// Why a knight was removed from a city.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RemoveCause {
    /// The red flag action of the first player.
    RedFlag,
    /// Place knights SAFE or its RISKY penalty, for 2 gold.
    Paid,
    /// Place knights SAFE, after a cross.
    Cross,
    /// Move a Templar SAFE on a red flag.
    SafeMove,
}

/// Why gold was taken from a territory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GoldCause {
    /// Collect gold SAFE.
    CollectSafe,
    /// Collect gold RISKY.
    CollectRisky,
    /// Collect gold penalty.
    CollectPenalty,
    /// The Taxes favour.
    Taxes,
    /// A Templar's risky move entered the territory.
    RiskyMove,
    /// The penalised move's single gold.
    PenaltyMove,
}

/// A favour of the Pope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Favour {
    /// Toss the chance marker again (1 knight).
    NewChance,
    /// Take 2 more gold (2 knights).
    Taxes,
    /// Pass the first-player marker (3 knights).
    Leader,
    /// Prevent an edict exchange (4 knights).
    Veto,
}

/// A side of the chance marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Toss {
    /// The Cross of the Templars.
    Cross,
    /// The blank side.
    Blank,
}

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The public part of setup.
    SetupDone {
        /// The edict on each edict space.
        edicts: Vec<(EdictSpace, City)>,
        /// The tile on each active city.
        tiles: Vec<(City, Tile)>,
        /// The face-up missions.
        face_up_missions: Vec<Mission>,
        /// The first player.
        first: Seat,
    },
    /// A player's own mission card (private).
    MissionDealt {
        /// The player.
        seat: Seat,
        /// The card.
        mission: Mission,
    },
    /// A knight entered a city from its owner's supply.
    KnightPlaced {
        /// The owner.
        seat: Seat,
        /// The city.
        city: City,
        /// Why.
        cause: PlaceCause,
    },
    /// A knight was removed from a city to its owner's temple.
    KnightRemoved {
        /// Who removed it.
        by: Seat,
        /// Its owner.
        owner: Seat,
        /// The city.
        city: City,
        /// Why.
        cause: RemoveCause,
    },
    /// A knight was exchanged for an own supply knight.
    KnightExchanged {
        /// Who exchanged.
        by: Seat,
        /// The owner of the knight sent to the temple.
        owner: Seat,
        /// The city.
        city: City,
    },
    /// A Templar was placed in setup.
    TemplarPlaced {
        /// The owner.
        seat: Seat,
        /// The territory.
        territory: Territory,
    },
    /// The Pope moved.
    PopeMoved {
        /// The first player, who moved him.
        seat: Seat,
        /// The new space.
        to: Space,
        /// Whether the move was forced.
        forced: bool,
    },
    /// A step was skipped because nothing could be done.
    Forfeited {
        /// The player.
        seat: Seat,
        /// What was forfeited.
        what: String,
    },
    /// A player declined an optional step.
    Declined {
        /// The player.
        seat: Seat,
        /// What was declined.
        what: String,
    },
    /// A player used a favour of the Pope.
    FavourUsed {
        /// The player.
        seat: Seat,
        /// The favour.
        favour: Favour,
        /// Temple knights returned to the supply.
        cost: u32,
    },
    /// The first-player marker was passed with the Leader favour.
    LeaderPassed {
        /// The payer.
        from: Seat,
        /// The new first player.
        to: Seat,
    },
    /// The marker holder accepted to be first player.
    LeaderAccepted {
        /// The player.
        seat: Seat,
    },
    /// A player has chosen a card (public: the card stays hidden).
    CardChosen {
        /// The player.
        seat: Seat,
    },
    /// The card a player chose (private to that player).
    CardChosenSecret {
        /// The player.
        seat: Seat,
        /// The card.
        card: u8,
    },
    /// All cards were revealed.
    CardsRevealed {
        /// The card of each seat.
        cards: BySeat<u8>,
        /// Players who carry out a penalty action.
        penalised: Vec<Seat>,
        /// The order of resolution.
        order: Vec<Seat>,
    },
    /// A player's card action begins.
    CardActionStarted {
        /// The player.
        seat: Seat,
        /// The card.
        card: u8,
        /// Whether it is the penalty action.
        penalty: bool,
    },
    /// Gold was taken from a territory.
    GoldTaken {
        /// The player.
        seat: Seat,
        /// The territory.
        territory: Territory,
        /// How much.
        amount: u32,
        /// Why.
        cause: GoldCause,
    },
    /// A knight was sacrificed to its owner's temple.
    Sacrificed {
        /// The player.
        seat: Seat,
        /// The city.
        city: City,
    },
    /// The city of a Place-knights action was chosen.
    CityChosen {
        /// The player.
        seat: Seat,
        /// The city.
        city: City,
    },
    /// The chance marker was thrown.
    Tossed {
        /// The player.
        seat: Seat,
        /// The result.
        result: Toss,
        /// Gold paid for it (0 with New Chance).
        paid: u32,
    },
    /// A Templar moved one step.
    TemplarMoved {
        /// The owner.
        seat: Seat,
        /// From.
        from: Territory,
        /// To.
        to: Territory,
    },
    /// An edict exchange was attempted.
    ExchangeAttempted {
        /// The player.
        seat: Seat,
        /// The edict of the city where the Templar stopped.
        edict: City,
        /// The edict it swaps with.
        with: City,
    },
    /// A player allowed an exchange.
    ExchangeAllowed {
        /// The player asked.
        seat: Seat,
    },
    /// Two edicts swapped spaces.
    EdictsExchanged {
        /// One edict and its new space.
        a: (City, EdictSpace),
        /// The other edict and its new space.
        b: (City, EdictSpace),
    },
    /// The exchange was vetoed.
    ExchangeVetoed {
        /// Who vetoed.
        by: Seat,
    },
    /// The first-player marker passed clockwise after a card phase.
    MarkerPassed {
        /// The new first player.
        to: Seat,
    },
    /// A shipping round begins.
    ShippingRound {
        /// 1 to 3.
        round: u8,
    },
    /// A player took an edict with the majority.
    EdictWon {
        /// The player.
        seat: Seat,
        /// The edict.
        edict: City,
        /// VP gained.
        vp: u32,
    },
    /// A tie removed an edict from the game.
    EdictRemoved {
        /// The edict.
        edict: City,
    },
    /// A completely occupied city gave 1 VP to each present player.
    FullCity {
        /// The city.
        city: City,
        /// The players present.
        seats: Vec<Seat>,
    },
    /// Knights were loaded onto a ship.
    ShipLoaded {
        /// The edict space of the ship.
        space: EdictSpace,
        /// The city they came from.
        city: City,
        /// Knights on the ship per seat.
        knights: BySeat<u32>,
        /// VP gained per seat.
        vp: BySeat<u32>,
    },
    /// Knights left in an evaluated city went to their temples.
    LeftToTemple {
        /// The city.
        city: City,
        /// Knights per seat.
        knights: BySeat<u32>,
    },
    /// A city tile left the game.
    TileRemoved {
        /// The city.
        city: City,
        /// The tile.
        tile: Tile,
    },
    /// The temple majority was scored.
    TempleMajority {
        /// The tied or sole leaders.
        seats: Vec<Seat>,
        /// VP each.
        vp: u32,
    },
    /// New gold was dealt to the territories.
    GoldDealt {
        /// Per territory with a city tile.
        with_city: u32,
        /// Per territory without one.
        without_city: u32,
    },
    /// The seventh city was scored.
    SeventhCity {
        /// The city.
        city: City,
        /// The majority winner, if any.
        winner: Option<Seat>,
        /// VP gained per seat (majority and knights together).
        vp: BySeat<u32>,
    },
    /// Gold was scored at the end.
    GoldScored {
        /// VP per seat.
        vp: BySeat<u32>,
    },
    /// All mission cards were revealed.
    MissionsRevealed {
        /// Each seat's mission.
        missions: BySeat<Mission>,
    },
    /// One mission card was scored.
    MissionScored {
        /// The card.
        mission: Mission,
        /// VP per seat.
        vp: BySeat<u32>,
    },
    /// The game ended.
    GameEnded {
        /// Final VP per seat.
        vp: BySeat<u32>,
        /// The winners.
        winners: Vec<Seat>,
    },
}

fn list(names: &SeatNames, seats: &[Seat]) -> String {
    let v: Vec<_> = seats.iter().map(|s| names.name(*s)).collect();
    match v.len() {
        0 => "nobody".to_string(),
        1 => v[0].to_string(),
        _ => format!("{} and {}", v[..v.len() - 1].join(", "), v[v.len() - 1]),
    }
}

fn per_seat(names: &SeatNames, values: &BySeat<u32>) -> String {
    values.iter().map(|(s, v)| format!("{} {v}", names.name(s))).collect::<Vec<_>>().join(", ")
}

fn gold_word(n: u32) -> String {
    format!("{n} gold")
}

impl GameEvent for Event {
    fn describe(&self, names: &SeatNames) -> String {
        let n = |s: &Seat| names.name(*s);
        match self {
            Event::SetupDone { edicts, tiles, face_up_missions, first } => {
                let e: Vec<String> = edicts.iter().map(|(s, c)| format!("{s:?} {c}")).collect();
                let t: Vec<String> =
                    tiles.iter().map(|(c, t)| format!("{c} {t:?} ({} knights)", t.capacity())).collect();
                let m: Vec<String> = face_up_missions.iter().map(|m| format!("{m:?}")).collect();
                format!(
                    "Edicts: {}. City tiles: {}. Face-up missions: {}. {} is first player.",
                    e.join(", "),
                    t.join(", "),
                    if m.is_empty() { "none".to_string() } else { m.join(", ") },
                    n(first)
                )
            }
            Event::MissionDealt { seat, mission } => {
                format!("{} received mission {mission:?}: {}", n(seat), mission.criterion())
            }
            Event::KnightPlaced { seat, city, cause } => {
                let how = match cause {
                    PlaceCause::Setup => "",
                    PlaceCause::GreenFlag => " (green flag)",
                    PlaceCause::Paid => " for 2 gold",
                    PlaceCause::Cross => " (cross)",
                    PlaceCause::SafeMove => " (safe move)",
                };
                format!("{} placed a knight in {city}{how}", n(seat))
            }
            Event::KnightRemoved { by, owner, city, cause } => {
                let how = match cause {
                    RemoveCause::RedFlag => " (red flag)",
                    RemoveCause::Paid => " for 2 gold",
                    RemoveCause::Cross => " (cross)",
                    RemoveCause::SafeMove => " (safe move)",
                };
                format!("{} removed {}'s knight from {city}{how}", n(by), n(owner))
            }
            Event::KnightExchanged { by, owner, city } => {
                format!("{} exchanged {}'s knight in {city} for one of their own for 2 gold", n(by), n(owner))
            }
            Event::TemplarPlaced { seat, territory } => format!("{} placed a Templar in {territory}", n(seat)),
            Event::PopeMoved { seat, to, forced } => {
                let flag = match to.flag() {
                    Some(crate::board::Flag::Green) => " (green flag)",
                    Some(crate::board::Flag::Red) => " (red flag)",
                    None => "",
                };
                let how = if *forced { " (the only way)" } else { "" };
                format!("{} moved the Pope to {to}{flag}{how}", n(seat))
            }
            Event::Forfeited { seat, what } => format!("{} forfeits {what}", n(seat)),
            Event::Declined { seat, what } => format!("{} declined {what}", n(seat)),
            Event::FavourUsed { seat, favour, cost } => {
                format!("{} used the favour {favour:?}, returning {cost} temple knights to the supply", n(seat))
            }
            Event::LeaderPassed { from, to } => {
                format!("{} passed the first-player marker to {}", n(from), n(to))
            }
            Event::LeaderAccepted { seat } => format!("{} is first player", n(seat)),
            Event::CardChosen { seat } => format!("{} has chosen a card", n(seat)),
            Event::CardChosenSecret { seat, card } => format!("{} chose card {card}", n(seat)),
            Event::CardsRevealed { cards, penalised, order } => {
                let c = per_seat(names, &cards.map(|_, c| u32::from(*c)));
                let pen = if penalised.is_empty() {
                    String::new()
                } else {
                    format!("; penalty for {}", list(names, penalised))
                };
                format!("Cards revealed: {c}{pen}; order {}", list(names, order))
            }
            Event::CardActionStarted { seat, card, penalty } => {
                let what = match card {
                    1 => "Collect gold (safe)",
                    2 => "Collect gold (risky)",
                    3 => "Place knights (safe)",
                    4 => "Place knights (risky)",
                    5 => "Move a Templar (risky)",
                    _ => "Move a Templar (safe)",
                };
                let pen = if *penalty { ": penalty action" } else { "" };
                format!("{} plays card {card}, {what}{pen}", n(seat))
            }
            Event::GoldTaken { seat, territory, amount, cause } => {
                let why = match cause {
                    GoldCause::CollectSafe | GoldCause::CollectRisky | GoldCause::CollectPenalty => "",
                    GoldCause::Taxes => " (taxes)",
                    GoldCause::RiskyMove | GoldCause::PenaltyMove => " with their Templar",
                };
                format!("{} took {} from {territory}{why}", n(seat), gold_word(*amount))
            }
            Event::Sacrificed { seat, city } => {
                format!("{} moved one of their knights from {city} to their temple", n(seat))
            }
            Event::CityChosen { seat, city } => format!("{} chose {city}", n(seat)),
            Event::Tossed { seat, result, paid } => {
                let side = match result {
                    Toss::Cross => "cross",
                    Toss::Blank => "blank",
                };
                let cost = if *paid > 0 { format!(" for {}", gold_word(*paid)) } else { " again".to_string() };
                format!("{} tossed the chance marker{cost}: {side}", n(seat))
            }
            Event::TemplarMoved { seat, from, to } => format!("{}'s Templar moved from {from} to {to}", n(seat)),
            Event::ExchangeAttempted { seat, edict, with } => {
                format!("{} wants to exchange the edict of {edict} for the edict of {with}", n(seat))
            }
            Event::ExchangeAllowed { seat } => format!("{} allows the exchange", n(seat)),
            Event::EdictsExchanged { a, b } => {
                format!("The edict of {} is now on {:?} and the edict of {} on {:?}", a.0, a.1, b.0, b.1)
            }
            Event::ExchangeVetoed { by } => format!("{} vetoed the edict exchange", n(by)),
            Event::MarkerPassed { to } => format!("The first-player marker passes to {}", n(to)),
            Event::ShippingRound { round } => format!("Shipping round {round} begins"),
            Event::EdictWon { seat, edict, vp } => {
                format!("{} has the most knights in {edict}, takes its edict and gains {vp} VP", n(seat))
            }
            Event::EdictRemoved { edict } => format!("Tie for the most knights in {edict}: its edict leaves the game"),
            Event::FullCity { city, seats } => {
                format!("{city} is completely occupied: {} gain 1 VP each", list(names, seats))
            }
            Event::ShipLoaded { space, city, knights, vp } => format!(
                "Knights from {city} boarded the ship of {space:?} ({}); VP: {}",
                per_seat(names, knights),
                per_seat(names, vp)
            ),
            Event::LeftToTemple { city, knights } => {
                format!("Knights left in {city} go to the temples ({})", per_seat(names, knights))
            }
            Event::TileRemoved { city, tile } => format!("The {tile:?} tile of {city} leaves the game"),
            Event::TempleMajority { seats, vp } => {
                format!("Most knights in the temple: {} gain {vp} VP each", list(names, seats))
            }
            Event::GoldDealt { with_city, without_city } => {
                format!("New gold: {with_city} to each territory with a city tile, {without_city} to each without")
            }
            Event::SeventhCity { city, winner, vp } => {
                let w = match winner {
                    Some(s) => format!("{} takes its edict", n(s)),
                    None => "nobody takes its edict".to_string(),
                };
                format!("{city} is the seventh city: {w}; VP: {}", per_seat(names, vp))
            }
            Event::GoldScored { vp } => format!("Gold scores: {}", per_seat(names, vp)),
            Event::MissionsRevealed { missions } => {
                let m: Vec<String> = missions.iter().map(|(s, m)| format!("{} {m:?}", names.name(s))).collect();
                format!("Missions revealed: {}", m.join(", "))
            }
            Event::MissionScored { mission, vp } => {
                format!("Mission {mission:?} ({}): {}", mission.criterion(), per_seat(names, vp))
            }
            Event::GameEnded { vp, winners } => {
                format!("The game is over ({}); {} won", per_seat(names, vp), list(names, winners))
            }
        }
    }
}
