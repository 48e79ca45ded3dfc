//! What happened, for the game log; secret details go in private events only.

use crate::board::{Card, Cards, Character, Edict, EventCard, Location, Purchase, Side, Track};
use crate::state::Verdicts;
use game_core::{GameEvent, Seat, SeatNames};
use serde::{Deserialize, Serialize};

/// One line of the game log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A seat plays a character.
    CharacterTaken {
        /// The seat.
        seat: Seat,
        /// The character.
        character: Character,
    },
    /// The first player token was given at random.
    FirstPlayer {
        /// The first player.
        seat: Seat,
    },
    /// A round begins.
    RoundStarted {
        /// The round.
        round: u8,
        /// Its first player.
        first: Seat,
    },
    /// The round's event was revealed.
    EventRevealed {
        /// The event.
        event: EventCard,
    },
    /// The Neutral announced a side.
    SideChosen {
        /// The Neutral.
        seat: Seat,
        /// The side.
        side: Side,
    },
    /// Leopold used Captor of the King.
    CaptorUsed {
        /// Leopold.
        seat: Seat,
    },
    /// A figure was placed (round 1).
    Placed {
        /// Who.
        seat: Seat,
        /// Where.
        location: Location,
    },
    /// A figure moved one segment.
    Stepped {
        /// Who.
        seat: Seat,
        /// Where to.
        to: Location,
    },
    /// A card was stolen while passing through.
    Stole {
        /// The mover.
        thief: Seat,
        /// The enemy passed.
        victim: Seat,
    },
    /// The type of the stolen card (thief and victim only).
    StolenCard {
        /// The mover.
        thief: Seat,
        /// The enemy passed.
        victim: Seat,
        /// The card.
        card: Card,
    },
    /// A move ended.
    Stopped {
        /// Who.
        seat: Seat,
        /// Where.
        location: Location,
    },
    /// A player had no legal move and stayed (RUL-23).
    Stuck {
        /// Who.
        seat: Seat,
    },
    /// A location action was performed.
    Performed {
        /// Who.
        seat: Seat,
        /// Where.
        location: Location,
    },
    /// An optional decision was declined.
    Declined {
        /// Who.
        seat: Seat,
    },
    /// Cards were drawn from the Provisions deck (count only).
    Drew {
        /// Who.
        seat: Seat,
        /// How many.
        count: u8,
    },
    /// The cards drawn (the drawer only).
    DrewCards {
        /// Who.
        seat: Seat,
        /// Which.
        cards: Cards,
    },
    /// A card was taken from the Reserve.
    Took {
        /// Who.
        seat: Seat,
        /// Which type.
        card: Card,
    },
    /// Cards were returned to the Reserve.
    Returned {
        /// Who.
        seat: Seat,
        /// Which type.
        card: Card,
        /// How many.
        count: u8,
    },
    /// Coins changed.
    Coins {
        /// Whose.
        seat: Seat,
        /// By how much.
        delta: i32,
    },
    /// Prestige changed.
    Prestige {
        /// Whose.
        seat: Seat,
        /// By how much.
        delta: i32,
    },
    /// A track moved (from and to may be equal when clamped).
    TrackMoved {
        /// The track.
        track: Track,
        /// Old value.
        from: u8,
        /// New value.
        to: u8,
    },
    /// An edict was exchanged at Nottingham.
    EdictExchanged {
        /// Who.
        seat: Seat,
    },
    /// The edict kept (that player only).
    EdictKept {
        /// Who.
        seat: Seat,
        /// Which.
        edict: Edict,
    },
    /// The faction skill drew a card.
    SkillUsed {
        /// Who.
        seat: Seat,
    },
    /// The Merchant paid a player.
    MerchantMet {
        /// Who.
        seat: Seat,
    },
    /// The Mercenary gave a player cards.
    MercenaryMet {
        /// Who.
        seat: Seat,
    },
    /// A purchase.
    Bought {
        /// Who.
        seat: Seat,
        /// What.
        purchase: Purchase,
        /// For how many coins.
        cost: u32,
    },
    /// The Neutral skill traded 2 cards for 4.
    Traded {
        /// Who.
        seat: Seat,
        /// The type returned.
        card: Card,
    },
    /// A card went face down into the Crusade deck.
    AddedCard {
        /// Who.
        seat: Seat,
    },
    /// A contribution ended.
    Contributed {
        /// Who.
        seat: Seat,
        /// How many cards.
        count: u8,
    },
    /// The Outcomes of the Crusade.
    Outcomes {
        /// The cards revealed.
        drawn: Cards,
        /// The comparisons.
        verdicts: Verdicts,
    },
    /// The event was resolved.
    EventResolved {
        /// The event.
        event: EventCard,
        /// Whether its condition held.
        applied: bool,
    },
    /// The Merchant and Mercenary moved.
    NpcsMoved {
        /// The Merchant's location.
        merchant: Location,
        /// The Mercenary's location.
        mercenary: Location,
    },
    /// An edict was revealed and scored at the end.
    EdictScored {
        /// Whose.
        seat: Seat,
        /// Which.
        edict: Edict,
        /// Points.
        points: u32,
    },
    /// The game ended.
    GameEnded {
        /// The end condition (1..=5).
        condition: u8,
        /// The winning faction, if any.
        winning_side: Option<Side>,
        /// The winners.
        winners: Vec<Seat>,
    },
}

fn cards_text(cards: &Cards) -> String {
    let parts: Vec<String> = cards.present().map(|c| format!("{} {}", cards.get(c), c.name())).collect();
    if parts.is_empty() {
        "nothing".into()
    } else {
        parts.join(", ")
    }
}

fn purchase_text(p: &Purchase) -> String {
    match p {
        Purchase::RandomCard => "a random card".into(),
        Purchase::SpecificCard { card } => format!("a {}", card.name()),
        Purchase::PrestigePoint => "a Prestige Point".into(),
        Purchase::Horse => "the Horse".into(),
        Purchase::Ship => "the Ship".into(),
        Purchase::Skill => "the faction skill".into(),
    }
}

impl GameEvent for Event {
    fn describe(&self, names: &SeatNames) -> String {
        let n = |s: &Seat| names.name(*s);
        match self {
            Event::CharacterTaken { seat, character } => format!("{} plays {}", n(seat), character.name()),
            Event::FirstPlayer { seat } => format!("{} takes the First Player token", n(seat)),
            Event::RoundStarted { round, first } => format!("Round {round} begins; {} plays first", n(first)),
            Event::EventRevealed { event } => format!("Event of the Crusade: {}", event.name()),
            Event::SideChosen { seat, side } => format!("{} supports {} this round", n(seat), side.name()),
            Event::CaptorUsed { seat } => format!("{} holds the King captive: King's Return +1", n(seat)),
            Event::Placed { seat, location } => format!("{} placed their figure on {}", n(seat), location.name()),
            Event::Stepped { seat, to } => format!("{} moved to {}", n(seat), to.name()),
            Event::Stole { thief, victim } => format!("{} drew a card from {}'s hand", n(thief), n(victim)),
            Event::StolenCard { thief, victim, card } => {
                format!("The card {} took from {} was a {}", n(thief), n(victim), card.name())
            }
            Event::Stopped { seat, location } => format!("{} stopped at {}", n(seat), location.name()),
            Event::Stuck { seat } => format!("{} has no legal move and stays", n(seat)),
            Event::Performed { seat, location } => {
                format!("{} performed the action of {}", n(seat), location.name())
            }
            Event::Declined { seat } => format!("{} declined", n(seat)),
            Event::Drew { seat, count } => format!("{} drew {count} card(s) from the Provisions deck", n(seat)),
            Event::DrewCards { seat, cards } => format!("{} drew {}", n(seat), cards_text(cards)),
            Event::Took { seat, card } => format!("{} took a {} from the Reserve", n(seat), card.name()),
            Event::Returned { seat, card, count } => {
                format!("{} returned {count} {} to the Reserve", n(seat), card.name())
            }
            Event::Coins { seat, delta } if *delta >= 0 => format!("{} gained {delta} coin(s)", n(seat)),
            Event::Coins { seat, delta } => format!("{} paid {} coin(s)", n(seat), -delta),
            Event::Prestige { seat, delta } if *delta >= 0 => {
                format!("{} gained {delta} Prestige Point(s)", n(seat))
            }
            Event::Prestige { seat, delta } => format!("{} lost {} Prestige Point(s)", n(seat), -delta),
            Event::TrackMoved { track, from, to } => format!("{} moved from {from} to {to}", track.name()),
            Event::EdictExchanged { seat } => format!("{} exchanged an edict", n(seat)),
            Event::EdictKept { seat, edict } => format!("{} kept the edict {}", n(seat), edict.name()),
            Event::SkillUsed { seat } => format!("{} used their faction skill", n(seat)),
            Event::MerchantMet { seat } => format!("{} met the Merchant", n(seat)),
            Event::MercenaryMet { seat } => format!("{} met the Mercenary", n(seat)),
            Event::Bought { seat, purchase, cost } => {
                format!("{} bought {} for {cost} coin(s)", n(seat), purchase_text(purchase))
            }
            Event::Traded { seat, card } => format!("{} traded 2 {} for 4 random cards", n(seat), card.name()),
            Event::AddedCard { seat } => format!("{} added a card to the Crusade deck", n(seat)),
            Event::Contributed { seat, count } => format!("{} contributed {count} card(s) to the Crusade", n(seat)),
            Event::Outcomes { drawn, verdicts } => format!(
                "The Crusade reveals {}: banners {:?}, hourglasses {:?}, chests {:?}",
                cards_text(drawn),
                verdicts.banners,
                verdicts.hourglasses,
                verdicts.chests
            ),
            Event::EventResolved { event, applied } => {
                if *applied {
                    format!("{} takes effect", event.name())
                } else {
                    format!("{} has no effect", event.name())
                }
            }
            Event::NpcsMoved { merchant, mercenary } => {
                format!("The Merchant goes to {} and the Mercenary to {}", merchant.name(), mercenary.name())
            }
            Event::EdictScored { seat, edict, points } => {
                format!("{} reveals {} for {points} Prestige Point(s)", n(seat), edict.name())
            }
            Event::GameEnded { condition, winning_side, winners } => {
                let who: Vec<_> = winners.iter().map(n).collect();
                let why = match winning_side {
                    Some(side) => format!("{}'s faction wins (condition {condition})", side.name()),
                    None => "the Crusade is over after 10 rounds".to_string(),
                };
                format!("Game over: {why}; winner(s): {}", who.join(", "))
            }
        }
    }
}
