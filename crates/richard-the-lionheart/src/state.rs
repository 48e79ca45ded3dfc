//! The full game state (secret: decks, hands, edicts and the RNG) and the small operations on it.

use crate::board::{Card, Cards, Character, Edict, EventCard, Faction, Location, Side, Track};
use crate::event::Event;
use crate::setup::Options;
use game_core::{BySeat, GameRng, Seat};
use serde::{Deserialize, Serialize};

/// The four Crusade tracks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tracks {
    /// Richard's Army.
    pub ra: u8,
    /// Saladin's Army.
    pub sa: u8,
    /// King's Return.
    pub kr: u8,
    /// King's Treasure.
    pub kt: u8,
}

impl Default for Tracks {
    fn default() -> Self {
        Tracks { ra: 0, sa: 0, kr: 10, kt: 10 }
    }
}

impl Tracks {
    /// The value of a track.
    pub fn get(&self, track: Track) -> u8 {
        match track {
            Track::RA => self.ra,
            Track::SA => self.sa,
            Track::KR => self.kr,
            Track::KT => self.kt,
        }
    }

    /// Moves a track by `delta`, clamped to 0..=10 (RUL-09); returns the new value.
    pub fn bump(&mut self, track: Track, delta: i8) -> u8 {
        let slot = match track {
            Track::RA => &mut self.ra,
            Track::SA => &mut self.sa,
            Track::KR => &mut self.kr,
            Track::KT => &mut self.kt,
        };
        *slot = (i16::from(*slot) + i16::from(delta)).clamp(0, 10) as u8;
        *slot
    }
}

/// One player's stock.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The character (None only while characters are being chosen).
    pub character: Option<Character>,
    /// The side this round (the Neutral's last announced side).
    pub side: Side,
    /// The Neutral's side in the previous round (for Marie's Courtly Favour).
    pub previous_side: Option<Side>,
    /// Coins.
    pub coins: u32,
    /// Prestige Points.
    pub prestige: u32,
    /// The hand (secret).
    pub hand: Cards,
    /// The edict held (secret).
    pub edict: Option<Edict>,
    /// Owns the Horse.
    pub horse: bool,
    /// Owns the Ship.
    pub ship: bool,
    /// Owns the faction skill.
    pub skill: bool,
    /// Where the figure stands (None before round 1 placement).
    pub location: Option<Location>,
    /// Cards added to the Crusade deck this round (public).
    pub contributed: u8,
    /// Leopold's Captor of the King is spent.
    pub captor_used: bool,
    /// The Neutral skill was used in this Purchase phase.
    pub traded: bool,
}

impl Player {
    /// The character's faction (Richard for a seat still choosing).
    pub fn faction(&self) -> Faction {
        self.character.map_or(Faction::Richard, Character::faction)
    }

    /// Whether the player is this character.
    pub fn is(&self, character: Character) -> bool {
        self.character == Some(character)
    }
}

/// A move in progress (Phase 2, rounds 2–10).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Movement {
    /// Where the move started.
    pub start: Location,
    /// The locations entered, in order.
    pub path: Vec<Location>,
    /// Movement points left.
    pub mp: u8,
    /// Whether the player already stole at the current location.
    pub stolen_here: bool,
}

impl Movement {
    /// The figure's current location.
    pub fn current(&self) -> Location {
        self.path.last().copied().unwrap_or(self.start)
    }
}

/// The decision the game waits for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "stage", rename_all = "snake_case")]
pub enum Stage {
    /// D0.1: `seat` picks a character.
    ChooseCharacter {
        /// Who picks.
        seat: Seat,
    },
    /// D1.1: the Neutral announces its side.
    ChooseSide {
        /// The Neutral.
        seat: Seat,
    },
    /// D1.2: Leopold may use Captor of the King.
    Captor {
        /// Leopold.
        seat: Seat,
    },
    /// D2.1: round 1 placement.
    Place {
        /// Who places.
        seat: Seat,
    },
    /// D2.2/D2.3: a move in progress.
    Move {
        /// Who moves.
        seat: Seat,
        /// The move so far.
        movement: Movement,
    },
    /// D2.4: perform the location action or decline.
    LocationAction {
        /// The active player.
        seat: Seat,
    },
    /// D2.4b after the draw (Bridgewater 2–3p, Gloucester, Salisbury, York): which of the two
    /// printed card types to take from the Reserve.
    TakeChoice {
        /// The active player.
        seat: Seat,
    },
    /// D2.4e: Nottingham 4–6p, keep one of two edicts.
    KeepEdict {
        /// The active player.
        seat: Seat,
        /// The edict drawn (secret).
        drawn: Edict,
    },
    /// D2.5: allies of the active player take a card, in turn order.
    AllyTake {
        /// The active player.
        active: Seat,
        /// Allies still to decide; the first decides now.
        pending: Vec<Seat>,
    },
    /// D2.6: the faction skill's return.
    SkillReturn {
        /// The active player.
        seat: Seat,
    },
    /// D3.1: the purchase.
    Purchase {
        /// The buyer.
        seat: Seat,
    },
    /// D3.2: the Neutral skill's trade.
    Trade {
        /// The Neutral.
        seat: Seat,
    },
    /// D4.1: contributing, one card at a time.
    Contribute {
        /// The contributor.
        seat: Seat,
    },
    /// The game is over.
    Over,
}

impl Stage {
    /// The seat the game waits for, if any.
    pub fn seat(&self) -> Option<Seat> {
        match self {
            Stage::ChooseCharacter { seat }
            | Stage::ChooseSide { seat }
            | Stage::Captor { seat }
            | Stage::Place { seat }
            | Stage::Move { seat, .. }
            | Stage::LocationAction { seat }
            | Stage::TakeChoice { seat }
            | Stage::KeepEdict { seat, .. }
            | Stage::SkillReturn { seat }
            | Stage::Purchase { seat }
            | Stage::Trade { seat }
            | Stage::Contribute { seat } => Some(*seat),
            Stage::AllyTake { pending, .. } => pending.first().copied(),
            Stage::Over => None,
        }
    }
}

/// The result of one comparison in the Outcomes of the Crusade.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// More red cards.
    Red,
    /// More green cards.
    Green,
    /// Equal counts.
    Stalemate,
}

/// The three comparisons of the last Outcomes phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdicts {
    /// Banners.
    pub banners: Verdict,
    /// Hourglasses.
    pub hourglasses: Verdict,
    /// Chests.
    pub chests: Verdict,
}

/// How the game ended and who won.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// The end condition (1..=5, the Order of Resolution).
    pub condition: u8,
    /// The winning faction (None for condition 5).
    pub winning_side: Option<Side>,
    /// Prestige before edicts, per seat.
    pub base_prestige: BySeat<u32>,
    /// Edict points, per seat.
    pub edict_points: BySeat<u32>,
    /// The Neutral's +3 under condition 5, per seat.
    pub neutral_bonus: BySeat<u32>,
    /// Seats that could win.
    pub candidates: Vec<Seat>,
    /// Seats that won (several share a win).
    pub winners: Vec<Seat>,
    /// The tie-break that decided, if one was needed.
    pub tie_break: Option<String>,
}

/// The three edict decks; the top of a deck is its last element.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EdictDecks {
    /// Richard's deck.
    pub richard: Vec<Edict>,
    /// John's deck.
    pub john: Vec<Edict>,
    /// The Neutral deck.
    pub neutral: Vec<Edict>,
}

impl EdictDecks {
    /// The deck of a faction.
    pub fn deck_mut(&mut self, faction: Faction) -> &mut Vec<Edict> {
        match faction {
            Faction::Richard => &mut self.richard,
            Faction::John => &mut self.john,
            Faction::Neutral => &mut self.neutral,
        }
    }
}

/// The whole game. Fields are public for scenario tests; the server goes through [`game_core::Game`].
///
/// Reading one from JSON checks [`game_core::Game::validate`] (see `crate::validate`): a state
/// that play cannot reach is refused.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self")]
pub struct RichardTheLionheart {
    /// The options.
    pub options: Options,
    /// The players, by seat.
    pub players: BySeat<Player>,
    /// The Game Round (1..=10).
    pub round: u8,
    /// The first player of this round.
    pub first_player: Seat,
    /// The Crusade tracks.
    pub tracks: Tracks,
    /// The Provisions deck; the top is the last element (secret).
    pub provisions: Vec<Card>,
    /// The Reserve (face up).
    pub reserve: Cards,
    /// The Crusade deck (secret to all).
    pub crusade: Vec<Card>,
    /// The Outcomes display: cards drawn this round (public).
    pub display: Cards,
    /// The edict decks (secret).
    pub edicts: EdictDecks,
    /// The Event deck; the top is the last element (secret).
    pub events: Vec<EventCard>,
    /// This round's event.
    pub active_event: Option<EventCard>,
    /// Events already resolved.
    pub discarded_events: Vec<EventCard>,
    /// The Merchant's location (N ≥ 4, from round 2).
    pub merchant: Option<Location>,
    /// The Mercenary's location (N ≥ 4, from round 2).
    pub mercenary: Option<Location>,
    /// The comparisons of this round's Outcomes.
    pub verdicts: Option<Verdicts>,
    /// The decision the game waits for.
    pub stage: Stage,
    /// The position in turn order within the current phase.
    pub turn: usize,
    /// How the game ended.
    pub result: Option<GameResult>,
    /// The RNG (secret).
    pub rng: GameRng,
    /// Events produced by the action being applied; drained by `apply`.
    #[serde(skip)]
    pub(crate) log: Vec<game_core::Event<Event>>,
}

game_core::validated_state!(RichardTheLionheart);

impl RichardTheLionheart {
    /// A player's stock.
    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat]
    }

    /// A player's stock, mutably.
    pub fn player_mut(&mut self, seat: Seat) -> &mut Player {
        &mut self.players[seat]
    }

    /// Whether the 4–6 player side of the board is used.
    pub fn big_board(&self) -> bool {
        self.players.len() >= 4
    }

    /// The seat at position `i` in this round's turn order.
    pub fn turn_seat(&self, i: usize) -> Seat {
        self.first_player.next(self.players.len(), i)
    }

    /// The other seats on `seat`'s side this round, in turn order after `seat`.
    pub fn allies(&self, seat: Seat) -> Vec<Seat> {
        let (n, side) = (self.players.len(), self.player(seat).side);
        (1..n).map(|k| seat.next(n, k)).filter(|s| self.player(*s).side == side).collect()
    }

    /// The seat whose figure stands on `loc`, other than `except`.
    pub fn occupant(&self, loc: Location, except: Seat) -> Option<Seat> {
        Seat::all(self.players.len()).find(|s| *s != except && self.player(*s).location == Some(loc))
    }

    /// Whether this round's event is `e` (it is active from Phase 1 to Phase 6).
    pub fn event_is(&self, e: EventCard) -> bool {
        self.active_event == Some(e)
    }

    /// Records a public event.
    pub(crate) fn say(&mut self, e: Event) {
        self.log.push(game_core::Event::public(e));
    }

    /// Records an event only `seat` sees.
    pub(crate) fn tell(&mut self, seat: Seat, e: Event) {
        self.log.push(game_core::Event::private(seat, e));
    }

    /// Draws `n` cards from the Provisions deck into `seat`'s hand, refilling it from the
    /// Reserve when it runs out (RUL-17). Returns the cards drawn.
    pub fn draw(&mut self, seat: Seat, n: usize) -> Vec<Card> {
        let mut drawn = Vec::new();
        for _ in 0..n {
            if self.provisions.is_empty() {
                let mut batch: Vec<Card> = self.reserve.present().collect();
                for c in &batch {
                    self.reserve.remove(*c, 1);
                }
                self.rng.shuffle(&mut batch);
                self.provisions = batch;
            }
            match self.provisions.pop() {
                Some(c) => {
                    self.player_mut(seat).hand.add(c, 1);
                    drawn.push(c);
                }
                None => break,
            }
        }
        if !drawn.is_empty() {
            self.say(Event::Drew { seat, count: drawn.len() as u8 });
            self.tell(seat, Event::DrewCards { seat, cards: Cards::from_cards(&drawn) });
        }
        drawn
    }

    /// Moves one card of a type from the Reserve to `seat`'s hand, if the Reserve has one.
    pub fn take(&mut self, seat: Seat, card: Card) -> bool {
        if self.reserve.remove(card, 1) == 1 {
            self.player_mut(seat).hand.add(card, 1);
            self.say(Event::Took { seat, card });
            true
        } else {
            false
        }
    }

    /// Returns `n` cards of a type from `seat`'s hand to the Reserve (the caller checked they exist).
    pub fn give_back(&mut self, seat: Seat, card: Card, n: u8) {
        let moved = self.player_mut(seat).hand.remove(card, n);
        self.reserve.add(card, moved);
        if moved > 0 {
            self.say(Event::Returned { seat, card, count: moved });
        }
    }

    /// Adds coins to a player.
    pub fn gain_coins(&mut self, seat: Seat, n: u32) {
        self.player_mut(seat).coins += n;
        self.say(Event::Coins { seat, delta: n as i32 });
    }

    /// Removes coins from a player (never below 0).
    pub fn pay_coins(&mut self, seat: Seat, n: u32) {
        let p = self.player_mut(seat);
        let paid = p.coins.min(n);
        p.coins -= paid;
        if paid > 0 {
            self.say(Event::Coins { seat, delta: -(paid as i32) });
        }
    }

    /// Adds Prestige Points to a player.
    pub fn gain_prestige(&mut self, seat: Seat, n: u32) {
        self.player_mut(seat).prestige += n;
        self.say(Event::Prestige { seat, delta: n as i32 });
    }

    /// Moves a track, clamped, and records it.
    pub fn move_track(&mut self, track: Track, delta: i8) {
        let from = self.tracks.get(track);
        let to = self.tracks.bump(track, delta);
        self.say(Event::TrackMoved { track, from, to });
    }
}
