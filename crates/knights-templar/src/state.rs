//! The full game state (secret: views are derived from it), its decision points, and read
//! access for tests and tools. A state read from JSON is validated before use ([`crate::validate`]).

use crate::card::{Card, CardType};
use game_core::{BySeat, GameRng, Seat};
use serde::{Deserialize, Serialize};

/// The decision the game waits for (spec §4.2), or none once the game is over.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Pending {
    /// DP1: `seat` picks a Fate card.
    Pick {
        /// The picker.
        seat: Seat,
    },
    /// DP2: the Grand Master nominates the next picker.
    Nominate,
    /// DP3/DP4: `resolver` chooses a card of another player to discard (Enemy) or steal (Battle).
    Target {
        /// Who played the Enemy or Battle.
        resolver: Seat,
        /// The card being resolved.
        card: Card,
    },
    /// DP5: `resolver` keeps one of the two cards drawn for an Ally; the other is discarded face down.
    AllyChoice {
        /// Who played the Ally.
        resolver: Seat,
        /// The two drawn cards (private to the resolver).
        cards: [Card; 2],
    },
    /// Transient while a card is being resolved; never the state between two actions.
    Resolving,
    /// The game is over.
    Over,
}

/// Where in the turn the game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Fate picks (S1–S5).
    Select,
    /// Power draws (S6, §4.4).
    PowerDraws,
    /// The game has ended.
    Over,
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// A player reached 5 Downfall cards (R17).
    FiveDownfall,
    /// The deck ran out (R18).
    DeckEmpty,
}

/// A card in the discard pile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Discard {
    /// The card.
    pub card: Card,
    /// Face-down discards are the unchosen Ally cards; only their discarder knows them.
    pub face_down_by: Option<Seat>,
}

/// One iteration of the Grand Master draw at setup (public).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupDraw {
    /// 1 for the first draw.
    pub iteration: u32,
    /// Each candidate's 10 cards and Mission count.
    pub hands: Vec<SetupHand>,
}

/// One candidate's cards in a setup draw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupHand {
    /// The candidate.
    pub seat: Seat,
    /// The 10 cards drawn.
    pub cards: Vec<Card>,
    /// How many of them are Missions.
    pub missions: u32,
}

/// The complete state of a game of Knights Templar.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
// The derives serialise as usual; `validated_state!` below makes `Deserialize` validate as well.
#[serde(remote = "Self")]
pub struct KnightsTemplar {
    pub(crate) players: usize,
    /// Used for the setup shuffles only; kept so the state is complete.
    pub(crate) rng: GameRng,
    /// Top first.
    pub(crate) deck: Vec<Card>,
    /// In flip order.
    pub(crate) fate: Vec<Card>,
    pub(crate) tableaus: BySeat<Vec<Card>>,
    pub(crate) discard: Vec<Discard>,
    pub(crate) county_vp: BySeat<u32>,
    pub(crate) gm: Seat,
    pub(crate) turn: u32,
    pub(crate) round: u32,
    /// Who has made a Fate pick this round, in order.
    pub(crate) picked: Vec<Seat>,
    /// The current Fate picker (meaningful in the Select stage).
    pub(crate) picker: Seat,
    /// Fate picks per player this turn.
    pub(crate) fate_picks: BySeat<u32>,
    pub(crate) stage: Stage,
    /// Power drawers still to draw this turn, in order (fixed snapshot, R13).
    pub(crate) power_queue: Vec<Seat>,
    pub(crate) pending: Pending,
    pub(crate) setup_draws: Vec<SetupDraw>,
    pub(crate) end: Option<EndReason>,
}

game_core::validated_state!(KnightsTemplar);

impl KnightsTemplar {
    /// The number of `kind` cards in `seat`'s tableau.
    pub fn count(&self, seat: Seat, kind: CardType) -> usize {
        self.tableaus.get(seat).map_or(0, |t| t.iter().filter(|c| c.kind() == kind).count())
    }

    /// The cards in `seat`'s tableau, in the order they arrived.
    pub fn tableau(&self, seat: Seat) -> &[Card] {
        self.tableaus.get(seat).map_or(&[], |t| t.as_slice())
    }

    /// The deck, top first (secret).
    pub fn deck(&self) -> &[Card] {
        &self.deck
    }

    /// The Fate row.
    pub fn fate(&self) -> &[Card] {
        &self.fate
    }

    /// The discard pile, oldest first.
    pub fn discard(&self) -> &[Discard] {
        &self.discard
    }

    /// The current Grand Master.
    pub fn grand_master(&self) -> Seat {
        self.gm
    }

    /// `seat`'s banked County VP.
    pub fn county_vp(&self, seat: Seat) -> u32 {
        self.county_vp.get(seat).copied().unwrap_or(0)
    }

    /// The decision the game waits for.
    pub fn pending(&self) -> &Pending {
        &self.pending
    }

    /// The turn number (1 for the first).
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// The round number within the Select Phase.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// How many Fate picks `seat` made this turn.
    pub fn fate_picks(&self, seat: Seat) -> u32 {
        self.fate_picks.get(seat).copied().unwrap_or(0)
    }

    /// Why the game ended, if it has.
    pub fn end_reason(&self) -> Option<EndReason> {
        self.end
    }

    /// The public Grand Master draws of setup.
    pub fn setup_draws(&self) -> &[SetupDraw] {
        &self.setup_draws
    }

    /// The seats called to pick in this round, in order: the Grand Master first, then each
    /// seat nominated. While the Select Phase waits for anything but a nomination, the last one
    /// is still picking (its pick, or the target or Ally choice of its card, is awaited);
    /// everyone before it has picked. A game that ended on a Fate pick (five Downfall cards)
    /// ends with its picker last.
    pub fn pick_order(&self) -> Vec<Seat> {
        self.pick_order_seats().collect()
    }

    /// [`Self::pick_order`] without building a list (the view memo compares it at every action).
    pub(crate) fn pick_order_seats(&self) -> impl Iterator<Item = Seat> + '_ {
        let picking = matches!(self.stage, Stage::Select | Stage::Over) && !self.picked.contains(&self.picker);
        self.picked.iter().copied().chain(picking.then_some(self.picker))
    }

    /// Whether `seat` has made its Fate pick in this round: taken its card and resolved it, or
    /// taken the card the game ended on.
    pub fn picked_this_round(&self, seat: Seat) -> bool {
        self.picked.contains(&seat) || (self.stage == Stage::Over && self.picker == seat)
    }

    /// The seats that have not picked in this round, in clockwise order from the GM.
    pub(crate) fn unpicked(&self) -> Vec<Seat> {
        (0..self.players).map(|i| self.gm.next(self.players, i)).filter(|s| !self.picked.contains(s)).collect()
    }

    /// Every card in the tableaus of players other than `resolver` (targets of an Enemy or Battle).
    pub(crate) fn targets(&self, resolver: Seat) -> Vec<Card> {
        self.tableaus.iter().filter(|(s, _)| *s != resolver).flat_map(|(_, t)| t.iter().copied()).collect()
    }

    /// The seat whose tableau holds `card`.
    pub(crate) fn owner(&self, card: Card) -> Option<Seat> {
        self.tableaus.iter().find(|(_, t)| t.contains(&card)).map(|(s, _)| s)
    }
}
