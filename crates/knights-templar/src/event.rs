//! What happened, as game-log lines; each event is public unless sent privately.

use crate::card::Card;
use crate::state::{EndReason, SetupHand};
use game_core::{GameEvent, Seat, SeatNames};
use serde::{Deserialize, Serialize};

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A Grand Master draw at setup.
    SetupDraw {
        /// 1 for the first draw.
        iteration: u32,
        /// Each candidate's cards and Mission count.
        hands: Vec<SetupHand>,
    },
    /// Setup found the first Grand Master.
    FirstGrandMaster {
        /// The Grand Master.
        seat: Seat,
    },
    /// A turn's Draw Phase flipped the Fate row.
    TurnStarted {
        /// The turn number.
        turn: u32,
        /// The Fate row.
        fate: Vec<Card>,
    },
    /// A player took a card from the Fate row.
    Picked {
        /// The picker.
        seat: Seat,
        /// The card.
        card: Card,
        /// True if it was the only option and taken automatically.
        automatic: bool,
    },
    /// The Grand Master nominated the next picker.
    Nominated {
        /// The Grand Master.
        gm: Seat,
        /// The nominee.
        seat: Seat,
        /// True if it was the only option.
        automatic: bool,
    },
    /// A card went into a tableau.
    Placed {
        /// The player.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// An Enemy discarded another player's card.
    Destroyed {
        /// Who played the Enemy.
        seat: Seat,
        /// The Enemy.
        enemy: Card,
        /// The card's former owner.
        owner: Seat,
        /// The discarded card.
        card: Card,
    },
    /// A Battle stole another player's card.
    Stole {
        /// Who played the Battle.
        seat: Seat,
        /// The Battle.
        battle: Card,
        /// The card's former owner.
        from: Seat,
        /// The stolen card.
        card: Card,
    },
    /// An Enemy or Battle found no card to target.
    NoTarget {
        /// Who played it.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// An Ally was played and drew this many cards (0–2).
    AllyDrew {
        /// Who played it.
        seat: Seat,
        /// The Ally.
        ally: Card,
        /// Cards drawn.
        count: u32,
    },
    /// The two Ally cards (private to the player).
    AllyCards {
        /// Who drew them.
        seat: Seat,
        /// The cards.
        cards: [Card; 2],
    },
    /// The Ally choice: one card played, the other discarded face down.
    AllyKept {
        /// The player.
        seat: Seat,
        /// The card played.
        card: Card,
    },
    /// The card discarded face down by an Ally choice (private to the player).
    AllyDiscarded {
        /// The player.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// The only card of a 1-card Ally draw.
    AllySingle {
        /// The player.
        seat: Seat,
        /// The card, played at once.
        card: Card,
    },
    /// The players who will make a Power draw this turn.
    PowerDrawers {
        /// In drawing order.
        seats: Vec<Seat>,
        /// Their Power count.
        power: u32,
    },
    /// A Power draw.
    PowerDraw {
        /// The drawer.
        seat: Seat,
        /// The card drawn, played at once.
        card: Card,
    },
    /// A Power draw found the deck empty.
    PowerDrawEmpty {
        /// The drawer.
        seat: Seat,
    },
    /// End Phase: who is Grand Master for the next turn.
    GrandMaster {
        /// The Grand Master.
        seat: Seat,
        /// Whether it changed.
        changed: bool,
    },
    /// End Phase: County VP.
    CountyPoint {
        /// The scorer, or none on a tie or with no Counties.
        seat: Option<Seat>,
    },
    /// The game ended.
    GameEnded {
        /// Why.
        reason: EndReason,
    },
}

fn list(cards: &[Card]) -> String {
    cards.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ")
}

impl GameEvent for Event {
    fn describe(&self, names: &SeatNames) -> String {
        let n = |s: &Seat| names.name(*s);
        match self {
            Event::SetupDraw { iteration, hands } => {
                let parts: Vec<String> = hands
                    .iter()
                    .map(|h| format!("{} drew {} ({} Missions)", n(&h.seat), list(&h.cards), h.missions))
                    .collect();
                format!("Grand Master draw {iteration}: {}", parts.join("; "))
            }
            Event::FirstGrandMaster { seat } => format!("{} is the first Grand Master", n(seat)),
            Event::TurnStarted { turn, fate } => format!("Turn {turn}: the Fate cards are {}", list(fate)),
            Event::Picked { seat, card, automatic } => {
                format!("{} took {}{}", n(seat), card, if *automatic { " (the last Fate card)" } else { "" })
            }
            Event::Nominated { gm, seat, automatic } => {
                if *automatic {
                    format!("{} picks next (the only one left)", n(seat))
                } else {
                    format!("{} chose {} to pick next", n(gm), n(seat))
                }
            }
            Event::Placed { seat, card } => format!("{} put {} ({:?}) in play", n(seat), card, card.kind()),
            Event::Destroyed { seat, enemy, owner, card } => {
                format!("{} played {enemy} and discarded {}'s {card}", n(seat), n(owner))
            }
            Event::Stole { seat, battle, from, card } => {
                format!("{} won {battle} and took {card} from {}", n(seat), n(from))
            }
            Event::NoTarget { seat, card } => format!("{}'s {card} found no card to target", n(seat)),
            Event::AllyDrew { seat, ally, count } => format!("{} played {ally} and drew {count} card(s)", n(seat)),
            Event::AllyCards { seat, cards } => format!("{} drew {} for the Ally", n(seat), list(cards)),
            Event::AllyKept { seat, card } => format!("{} played {card} and discarded the other face down", n(seat)),
            Event::AllyDiscarded { seat, card } => format!("{} discarded {card} face down", n(seat)),
            Event::AllySingle { seat, card } => format!("{} drew the last card, {card}, and played it", n(seat)),
            Event::PowerDrawers { seats, power } => {
                if seats.is_empty() {
                    "Nobody has Power cards: no Power draw".to_string()
                } else {
                    let who: Vec<_> = seats.iter().map(n).collect();
                    format!("Most Power ({power}): {} draw", who.join(", "))
                }
            }
            Event::PowerDraw { seat, card } => format!("{} drew {card} for Power", n(seat)),
            Event::PowerDrawEmpty { seat } => format!("The deck is empty: {} draws nothing", n(seat)),
            Event::GrandMaster { seat, changed } => {
                if *changed {
                    format!("{} becomes Grand Master", n(seat))
                } else {
                    format!("{} remains Grand Master", n(seat))
                }
            }
            Event::CountyPoint { seat: Some(s) } => format!("{} has the most Counties: +1 VP", n(s)),
            Event::CountyPoint { seat: None } => "No sole County leader: no VP".to_string(),
            Event::GameEnded { reason: EndReason::FiveDownfall } => {
                "A player has 5 Downfall cards: the game ends".to_string()
            }
            Event::GameEnded { reason: EndReason::DeckEmpty } => "The deck is empty: the game ends".to_string(),
        }
    }
}
