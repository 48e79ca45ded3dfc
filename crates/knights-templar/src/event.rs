//! What happened, as game-log lines; each event is public unless sent privately.

use crate::card::Card;
use crate::state::{EndReason, SetupHand};
use game_core::view_diff::{push_uint, push_uints};
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

/// `pieces` joined: a sentence of names and fixed words. Events are described at every action,
/// and this costs a fraction of what `format!` does for the same text.
fn sentence<const N: usize>(pieces: [&str; N]) -> String {
    let mut text = String::with_capacity(pieces.iter().map(|p| p.len()).sum());
    for piece in pieces {
        text.push_str(piece);
    }
    text
}

/// The head of an event's JSON: `{"type":"kind"` (the members follow, each with its comma).
fn open(out: &mut String, kind: &str) {
    out.push_str(r#"{"type":""#);
    out.push_str(kind);
    out.push('"');
}

/// `,"key":` before a member's value.
fn key(out: &mut String, key: &str) {
    out.push_str(",\"");
    out.push_str(key);
    out.push_str("\":");
}

/// A member whose value is a number (a seat, a card, a count).
fn number(out: &mut String, name: &str, n: impl Into<u64>) {
    key(out, name);
    push_uint(out, n.into());
}

/// A member whose value is `true` or `false`.
fn flag(out: &mut String, name: &str, value: bool) {
    key(out, name);
    out.push_str(if value { "true" } else { "false" });
}

/// A member whose value is an array of numbers.
fn numbers(out: &mut String, name: &str, items: impl Iterator<Item = u8>) {
    key(out, name);
    push_uints(out, items.map(u64::from));
}

/// The whole of an event of `kind` made of a seat and a card.
fn seat_card(out: &mut String, kind: &str, seat: Seat, card: Card) {
    open(out, kind);
    number(out, "seat", seat.0);
    number(out, "card", card.0);
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
            Event::FirstGrandMaster { seat } => sentence([&n(seat), " is the first Grand Master"]),
            Event::TurnStarted { turn, fate } => format!("Turn {turn}: the Fate cards are {}", list(fate)),
            Event::Picked { seat, card, automatic } => {
                sentence([&n(seat), " took ", card.name(), if *automatic { " (the last Fate card)" } else { "" }])
            }
            Event::Nominated { gm, seat, automatic } => {
                if *automatic {
                    sentence([&n(seat), " picks next (the only one left)"])
                } else {
                    sentence([&n(gm), " chose ", &n(seat), " to pick next"])
                }
            }
            Event::Placed { seat, card } => {
                sentence([&n(seat), " put ", card.name(), " (", card.kind().name(), ") in play"])
            }
            Event::Destroyed { seat, enemy, owner, card } => {
                sentence([&n(seat), " played ", enemy.name(), " and discarded ", &n(owner), "'s ", card.name()])
            }
            Event::Stole { seat, battle, from, card } => {
                sentence([&n(seat), " won ", battle.name(), " and took ", card.name(), " from ", &n(from)])
            }
            Event::NoTarget { seat, card } => sentence([&n(seat), "'s ", card.name(), " found no card to target"]),
            Event::AllyDrew { seat, ally, count } => format!("{} played {ally} and drew {count} card(s)", n(seat)),
            Event::AllyCards { seat, cards } => format!("{} drew {} for the Ally", n(seat), list(cards)),
            Event::AllyKept { seat, card } => {
                sentence([&n(seat), " played ", card.name(), " and discarded the other face down"])
            }
            Event::AllyDiscarded { seat, card } => sentence([&n(seat), " discarded ", card.name(), " face down"]),
            Event::AllySingle { seat, card } => {
                sentence([&n(seat), " drew the last card, ", card.name(), ", and played it"])
            }
            Event::PowerDrawers { seats, power } => {
                if seats.is_empty() {
                    "Nobody has Power cards: no Power draw".to_string()
                } else {
                    let who: Vec<_> = seats.iter().map(n).collect();
                    format!("Most Power ({power}): {} draw", who.join(", "))
                }
            }
            Event::PowerDraw { seat, card } => sentence([&n(seat), " drew ", card.name(), " for Power"]),
            Event::PowerDrawEmpty { seat } => sentence(["The deck is empty: ", &n(seat), " draws nothing"]),
            Event::GrandMaster { seat, changed } => {
                sentence([&n(seat), if *changed { " becomes Grand Master" } else { " remains Grand Master" }])
            }
            Event::CountyPoint { seat: Some(s) } => sentence([&n(s), " has the most Counties: +1 VP"]),
            Event::CountyPoint { seat: None } => "No sole County leader: no VP".to_string(),
            Event::GameEnded { reason: EndReason::FiveDownfall } => {
                "A player has 5 Downfall cards: the game ends".to_string()
            }
            Event::GameEnded { reason: EndReason::DeckEmpty } => "The deck is empty: the game ends".to_string(),
        }
    }

    /// Every event but the rare two (the setup draws, the game's end), written as serde writes
    /// the enum: its tag first, then the variant's members in declaration order.
    fn write_json(&self, out: &mut String) -> bool {
        match self {
            Event::SetupDraw { .. } | Event::GameEnded { .. } => return false,
            Event::FirstGrandMaster { seat } => {
                open(out, "first_grand_master");
                number(out, "seat", seat.0);
            }
            Event::TurnStarted { turn, fate } => {
                open(out, "turn_started");
                number(out, "turn", *turn);
                numbers(out, "fate", fate.iter().map(|c| c.0));
            }
            Event::Picked { seat, card, automatic } => {
                open(out, "picked");
                number(out, "seat", seat.0);
                number(out, "card", card.0);
                flag(out, "automatic", *automatic);
            }
            Event::Nominated { gm, seat, automatic } => {
                open(out, "nominated");
                number(out, "gm", gm.0);
                number(out, "seat", seat.0);
                flag(out, "automatic", *automatic);
            }
            Event::Placed { seat, card } => seat_card(out, "placed", *seat, *card),
            Event::Destroyed { seat, enemy, owner, card } => {
                open(out, "destroyed");
                number(out, "seat", seat.0);
                number(out, "enemy", enemy.0);
                number(out, "owner", owner.0);
                number(out, "card", card.0);
            }
            Event::Stole { seat, battle, from, card } => {
                open(out, "stole");
                number(out, "seat", seat.0);
                number(out, "battle", battle.0);
                number(out, "from", from.0);
                number(out, "card", card.0);
            }
            Event::NoTarget { seat, card } => seat_card(out, "no_target", *seat, *card),
            Event::AllyDrew { seat, ally, count } => {
                open(out, "ally_drew");
                number(out, "seat", seat.0);
                number(out, "ally", ally.0);
                number(out, "count", *count);
            }
            Event::AllyCards { seat, cards } => {
                open(out, "ally_cards");
                number(out, "seat", seat.0);
                numbers(out, "cards", cards.iter().map(|c| c.0));
            }
            Event::AllyKept { seat, card } => seat_card(out, "ally_kept", *seat, *card),
            Event::AllyDiscarded { seat, card } => seat_card(out, "ally_discarded", *seat, *card),
            Event::AllySingle { seat, card } => seat_card(out, "ally_single", *seat, *card),
            Event::PowerDrawers { seats, power } => {
                open(out, "power_drawers");
                numbers(out, "seats", seats.iter().map(|s| s.0));
                number(out, "power", *power);
            }
            Event::PowerDraw { seat, card } => seat_card(out, "power_draw", *seat, *card),
            Event::PowerDrawEmpty { seat } => {
                open(out, "power_draw_empty");
                number(out, "seat", seat.0);
            }
            Event::GrandMaster { seat, changed } => {
                open(out, "grand_master");
                number(out, "seat", seat.0);
                flag(out, "changed", *changed);
            }
            Event::CountyPoint { seat } => {
                open(out, "county_point");
                key(out, "seat");
                match seat {
                    Some(s) => push_uint(out, u64::from(s.0)),
                    None => out.push_str("null"),
                }
            }
        }
        out.push('}');
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::KnightsTemplar;
    use game_core::testing::{random_playout, setup};
    use game_core::Game;

    /// Every kind of event, with the sentence it reads as.
    #[test]
    fn every_event_reads_as_its_sentence() {
        let names = SeatNames(vec!["Ana".into(), "Bo \"the Bold\"".into(), "Céline".into()]);
        let sentences: Vec<String> = every_kind().iter().map(|e| e.describe(&names)).collect();
        assert_eq!(sentences, EXPECTED);
    }

    /// The JSON written by hand is serde's, byte for byte: for every kind of event, and for every
    /// event of random games at every player count. The two kinds left to serde write nothing.
    #[test]
    fn every_event_written_by_hand_is_serdes_json() {
        let same = |event: &Event| {
            let mut text = String::new();
            let by_hand = event.write_json(&mut text);
            let serde = serde_json::to_string(event).expect("serialises");
            match event {
                Event::SetupDraw { .. } | Event::GameEnded { .. } => assert!(!by_hand && text.is_empty(), "{serde}"),
                _ => assert!(by_hand && text == serde, "{text}\n{serde}"),
            }
        };
        every_kind().iter().for_each(same);
        let mut checked = 0;
        for players in KnightsTemplar::MIN_PLAYERS..=KnightsTemplar::MAX_PLAYERS {
            for seed in 0..4 {
                let options = crate::Options::default();
                let playout = random_playout::<KnightsTemplar>(players, &options, seed, 100_000, false);
                let mut game: KnightsTemplar = setup(players, &options, seed);
                let mut events: Vec<Event> = game.setup_events().into_iter().map(|e| e.event).collect();
                for (seat, action) in &playout.actions {
                    events.extend(game.apply(*seat, action).expect("recorded action").into_iter().map(|e| e.event));
                }
                events.iter().for_each(same);
                checked += events.len();
            }
        }
        assert!(checked > 1_000, "{checked} events");
    }

    /// One event of every kind, and both values of each flag and option.
    fn every_kind() -> Vec<Event> {
        let (a, b, c) = (Seat(0), Seat(1), Seat(2));
        let hand = |seat, cards: &[u8], missions| SetupHand {
            seat,
            cards: cards.iter().map(|&i| Card(i)).collect(),
            missions,
        };
        let events = [
            Event::SetupDraw { iteration: 2, hands: vec![hand(a, &[1, 2], 1), hand(b, &[33], 0)] },
            Event::FirstGrandMaster { seat: b },
            Event::TurnStarted { turn: 4, fate: vec![Card(3), Card(95)] },
            Event::Picked { seat: a, card: Card(33), automatic: false },
            Event::Picked { seat: c, card: Card(95), automatic: true },
            Event::Nominated { gm: a, seat: b, automatic: false },
            Event::Nominated { gm: a, seat: c, automatic: true },
            Event::Placed { seat: b, card: Card(1) },
            Event::Destroyed { seat: a, enemy: Card(90), owner: c, card: Card(2) },
            Event::Stole { seat: c, battle: Card(80), from: b, card: Card(33) },
            Event::NoTarget { seat: b, card: Card(90) },
            Event::AllyDrew { seat: a, ally: Card(20), count: 2 },
            Event::AllyCards { seat: a, cards: [Card(1), Card(2)] },
            Event::AllyKept { seat: a, card: Card(1) },
            Event::AllyDiscarded { seat: a, card: Card(2) },
            Event::AllySingle { seat: c, card: Card(33) },
            Event::PowerDrawers { seats: vec![], power: 0 },
            Event::PowerDrawers { seats: vec![a, c], power: 3 },
            Event::PowerDraw { seat: c, card: Card(60) },
            Event::PowerDrawEmpty { seat: b },
            Event::GrandMaster { seat: a, changed: true },
            Event::GrandMaster { seat: a, changed: false },
            Event::CountyPoint { seat: Some(b) },
            Event::CountyPoint { seat: None },
            Event::GameEnded { reason: EndReason::FiveDownfall },
            Event::GameEnded { reason: EndReason::DeckEmpty },
            // A seat the names do not cover.
            Event::Picked { seat: Seat(7), card: Card(1), automatic: false },
        ];
        events.to_vec()
    }

    const EXPECTED: [&str; 27] = [
        "Grand Master draw 2: Ana drew Myth, Legend (1 Missions); Bo \"the Bold\" drew Turnin Shroud (0 Missions)",
        "Bo \"the Bold\" is the first Grand Master",
        "Turn 4: the Fate cards are Mysteries, Blasphemy",
        "Ana took Turnin Shroud",
        "Céline took Blasphemy (the last Fate card)",
        "Ana chose Bo \"the Bold\" to pick next",
        "Céline picks next (the only one left)",
        "Bo \"the Bold\" put Myth (Legacy) in play",
        "Ana played Bloody Repression and discarded Céline's Legend",
        "Céline won Saladin and took Turnin Shroud from Bo \"the Bold\"",
        "Bo \"the Bold\"'s Bloody Repression found no card to target",
        "Ana played Benefactor and drew 2 card(s)",
        "Ana drew Myth, Legend for the Ally",
        "Ana played Myth and discarded the other face down",
        "Ana discarded Legend face down",
        "Céline drew the last card, Turnin Shroud, and played it",
        "Nobody has Power cards: no Power draw",
        "Most Power (3): Ana, Céline draw",
        "Céline drew Great Wealth for Power",
        "The deck is empty: Bo \"the Bold\" draws nothing",
        "Ana becomes Grand Master",
        "Ana remains Grand Master",
        "Bo \"the Bold\" has the most Counties: +1 VP",
        "No sole County leader: no VP",
        "A player has 5 Downfall cards: the game ends",
        "The deck is empty: the game ends",
        "P7 took Myth",
    ];
}
