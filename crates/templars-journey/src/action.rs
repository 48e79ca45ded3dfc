//! The small steps a player can take. Each decision point of the spec (D1 to D25) offers a few
//! of these; the same shape may mean different costs at different points (a `place_knight`
//! costs 2 gold in a Place-knights step, nothing after a cross).

use crate::board::{City, Space, Territory};
use game_core::Seat;
use serde::{Deserialize, Serialize};

/// One action, as sent by a client: `{"type": "...", ...}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// D1: place a setup knight in a city.
    SetupKnight {
        /// The city.
        city: City,
    },
    /// D2: place a Templar in a territory.
    SetupTemplar {
        /// The territory.
        territory: Territory,
    },
    /// D3: move the Pope to the next space.
    MovePope {
        /// The space.
        to: Space,
    },
    /// Place one own knight from the supply in a city (D4 green flag, D13 for 2 gold, D14 after
    /// a cross, D22 after a safe move).
    PlaceKnight {
        /// The city.
        city: City,
    },
    /// Remove one opponent knight from a city to its owner's temple (D5 red flag, D13 for 2
    /// gold, D14 after a cross, D19 penalty for 2 gold, D22 after a safe move).
    RemoveKnight {
        /// The city.
        city: City,
        /// The owner of the knight.
        owner: Seat,
    },
    /// D17: pay 2 to exchange an own supply knight for an opponent knight in the city.
    ExchangeKnight {
        /// The city.
        city: City,
        /// The owner of the knight sent to the temple.
        owner: Seat,
    },
    /// D13: pay 1 and throw the chance marker.
    Toss,
    /// D15: New Chance: pay 1 temple knight and throw again.
    NewChance,
    /// Leave an optional decision (D4, D5, D6, D10, D12, D15, D16, D18, D22, D23).
    Decline,
    /// End a repeated step (D13, D17, D19, D21).
    Stop,
    /// D14: use neither a place nor a remove after a cross.
    Forgo,
    /// D7: keep the first-player marker.
    Accept,
    /// D6/D7: Leader favour: pay 3 temple knights and pass the first-player marker.
    PassLeader {
        /// The new first player.
        to: Seat,
    },
    /// D8: choose an action card (1 to 6), hidden until all have chosen.
    ChooseCard {
        /// The card number.
        card: u8,
    },
    /// D9 (collect gold) and D25 (penalised move): take gold from a territory.
    TakeGold {
        /// The territory.
        territory: Territory,
    },
    /// D10: Taxes favour: pay 2 temple knights and take up to 2 gold from a territory.
    Taxes {
        /// The territory.
        territory: Territory,
    },
    /// D11: move one own knight from a city to the own temple.
    Sacrifice {
        /// The city.
        city: City,
    },
    /// D12, D16, D18: choose the city of a Place-knights action.
    ChooseCity {
        /// The city.
        city: City,
    },
    /// D20: choose the Templar to move, by its territory.
    ChooseTemplar {
        /// The territory the Templar stands in.
        territory: Territory,
    },
    /// D21: move the Templar one step to an adjacent territory.
    MoveTemplar {
        /// The territory entered.
        to: Territory,
    },
    /// D23: swap the edict of the city where the Templar stopped with another edict on the track.
    ExchangeEdict {
        /// The other edict.
        with: City,
    },
    /// D24: let the edict exchange happen.
    Allow,
    /// D24: Veto favour: pay 4 temple knights and prevent the edict exchange.
    Veto,
}
