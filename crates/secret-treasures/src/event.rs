//! What happened, for the game log: each event reads as a sentence and is either public or private
//! to one seat (only the owner hears which card he chose face down in round 1).

use crate::board::{Card, Kind, Portal, Ring};
use crate::state::Trigger;
use game_core::{GameEvent, Seat, SeatNames};
use serde::{Deserialize, Serialize};

/// A non-player figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Figure {
    /// Abbot Remigius.
    Remigius,
    /// The spy Vitus.
    Vitus,
    /// Prior Severus.
    Severus,
}

impl Figure {
    fn name(self) -> &'static str {
        match self {
            Figure::Remigius => "Remigius",
            Figure::Vitus => "Vitus",
            Figure::Severus => "Severus",
        }
    }
}

/// What earned points during play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Remigius scored a room.
    Remigius,
    /// Porticus moved the door.
    Porticus,
    /// Severus moved.
    Severus,
    /// Stephanus counted the characters.
    Stephanus,
}

/// Something that happened in a game of Templar: The Secret Treasures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum Event {
    /// The start player was drawn.
    StartPlayer { seat: Seat },
    /// A tile was drawn from the bag into a storehouse (setup or The Bells).
    TileDrawn { storehouse: u8, tile: Kind },
    /// At setup a second chalice for a storehouse was set aside and later returned to the bag.
    ChaliceSetAside { storehouse: u8 },
    /// The suggested first-game placement was used.
    FirstGamePlacement,
    /// A player placed a figure at setup.
    FigurePlaced { seat: Seat, figure: Figure, room: u8 },
    /// A player chose his starting rings.
    RingsChosen { seat: Seat, single: Ring },
    /// A player chose his round-1 card face down.
    CardChosen { seat: Seat },
    /// Private: the card a player chose face down.
    YouChose { seat: Seat, card: Card },
    /// The round-1 cards were revealed.
    CardsRevealed { cards: Vec<(Seat, Card)> },
    /// A player played a card.
    CardPlayed { seat: Seat, card: Card },
    /// A player left his storehouse for a portal.
    LeftStorehouse { seat: Seat, portal: Portal },
    /// A player's token moved one room.
    TokenMoved { seat: Seat, room: u8 },
    /// A figure moved one room.
    FigureMoved { figure: Figure, room: u8 },
    /// A player stashed a piece from his stock.
    Stashed { seat: Seat, kind: Kind, room: u8, area: Option<u8> },
    /// Benjamin picked up a ring.
    PickedUp { seat: Seat, owner: Seat, ring: Ring, room: u8, area: u8 },
    /// Benjamin stashed the ring he carried.
    RingMoved { seat: Seat, owner: Seat, ring: Ring, room: u8, area: u8 },
    /// Maria took a storehouse's tiles; `received` are the valuables the reserve could give.
    TookTiles { seat: Seat, storehouse: u8, tiles: Vec<Kind>, received: Vec<Kind> },
    /// A player waiting in a storehouse received the new tiles.
    Delivered { seat: Seat, storehouse: u8, tiles: Vec<Kind>, received: Vec<Kind> },
    /// A chalice found no storehouse and left the game.
    ChaliceRemoved,
    /// Porticus moved the door.
    DoorMoved { seat: Seat, from: [u8; 2], to: [u8; 2] },
    /// A player scored points.
    Scored { seat: Seat, points: i64, source: Source },
    /// Severus stood in the room Remigius reached: nothing was scored.
    ScoringBlocked { room: u8 },
    /// A player took his played cards back.
    TookBackCards { seat: Seat, cards: u8 },
    /// The end was triggered; every player takes one more turn.
    EndTriggered { seat: Seat, trigger: Trigger },
    /// Raphael revealed a card.
    RaphaelRevealed { card: Card },
    /// Raphael's cards were shuffled together.
    RaphaelShuffled,
    /// End scoring of one player.
    FinalScore { seat: Seat, church: i64, rooms: u8, rooms_bonus: i64, total: i64 },
    /// The game ended.
    GameOver { winners: Vec<Seat> },
}

fn list(kinds: &[Kind]) -> String {
    if kinds.is_empty() {
        return "nothing".to_string();
    }
    kinds.iter().map(|k| k.name()).collect::<Vec<_>>().join(", ")
}

fn ring_name(ring: Ring) -> &'static str {
    Kind::from(ring).name()
}

impl GameEvent for Event {
    fn describe(&self, names: &SeatNames) -> String {
        let n = |s: &Seat| names.name(*s);
        match self {
            Event::StartPlayer { seat } => format!("{} is the start player", n(seat)),
            Event::TileDrawn { storehouse, tile } => {
                format!("A {} arrived in storehouse {storehouse}", tile.name())
            }
            Event::ChaliceSetAside { storehouse } => {
                format!("A second chalice for storehouse {storehouse} was set aside")
            }
            Event::FirstGamePlacement => {
                "First-game placement: Severus in room 13, Remigius in room 1, Vitus at the main portal".to_string()
            }
            Event::FigurePlaced { seat, figure, room } => {
                format!("{} placed {} in room {room}", n(seat), figure.name())
            }
            Event::RingsChosen { seat, single } => {
                format!("{} starts with a single {} and two of each other ring", n(seat), ring_name(*single))
            }
            Event::CardChosen { seat } => format!("{} chose a card face down", n(seat)),
            Event::YouChose { seat, card } => format!("{} chose {} face down", n(seat), card.name()),
            Event::CardsRevealed { cards } => {
                let parts: Vec<String> = cards.iter().map(|(s, c)| format!("{} {}", n(s), c.name())).collect();
                format!("The cards are revealed: {}", parts.join(", "))
            }
            Event::CardPlayed { seat, card } => format!("{} played {}", n(seat), card.name()),
            Event::LeftStorehouse { seat, portal } => {
                let p = match portal {
                    Portal::Main => "main",
                    Portal::Side => "side",
                };
                format!("{} came back from the harbor to the {p} portal", n(seat))
            }
            Event::TokenMoved { seat, room } => format!("{} moved to room {room}", n(seat)),
            Event::FigureMoved { figure, room } => format!("{} moved to room {room}", figure.name()),
            Event::Stashed { seat, kind, room, area } => match area {
                Some(a) => format!("{} stashed a {} in room {room}, ring area {a}", n(seat), kind.name()),
                None => format!("{} stashed a {} in room {room}", n(seat), kind.name()),
            },
            Event::PickedUp { seat, owner, ring, room, area } => {
                format!("{} picked up {}'s {} in room {room}, ring area {area}", n(seat), n(owner), ring_name(*ring))
            }
            Event::RingMoved { seat, owner, ring, room, area } => {
                format!("{} stashed {}'s {} in room {room}, ring area {area}", n(seat), n(owner), ring_name(*ring))
            }
            Event::TookTiles { seat, storehouse, tiles, received } => {
                format!("{} took {} from storehouse {storehouse} and gained {}", n(seat), list(tiles), list(received))
            }
            Event::Delivered { seat, storehouse, tiles, received } => {
                format!("{} received {} in storehouse {storehouse} and gained {}", n(seat), list(tiles), list(received))
            }
            Event::ChaliceRemoved => "A chalice found no storehouse and left the game".to_string(),
            Event::DoorMoved { seat, from, to } => {
                format!("{} moved the door from {}–{} to {}–{}", n(seat), from[0], from[1], to[0], to[1])
            }
            Event::Scored { seat, points, source } => {
                let why = match source {
                    Source::Remigius => "from Remigius",
                    Source::Porticus => "for Porticus",
                    Source::Severus => "for Severus",
                    Source::Stephanus => "from Stephanus's admirers",
                };
                format!("{} scored {points} {why}", n(seat))
            }
            Event::ScoringBlocked { room } => {
                format!("Severus is in room {room}: Remigius scores nothing there")
            }
            Event::TookBackCards { seat, cards } => format!("{} took back {cards} cards", n(seat)),
            Event::EndTriggered { seat, trigger } => match trigger {
                Trigger::BagEmpty => {
                    format!("{} could not fully replenish the harbor: every player takes one last turn", n(seat))
                }
                Trigger::AllRooms => {
                    format!("{} has valuables in all 13 rooms: every player takes one last turn", n(seat))
                }
            },
            Event::RaphaelRevealed { card } => format!("Raphael revealed {}", card.name()),
            Event::RaphaelShuffled => "Raphael shuffled his cards".to_string(),
            Event::FinalScore { seat, church, rooms, rooms_bonus, total } => format!(
                "{} scored {church} for church rings and {rooms_bonus} for {rooms} rooms: {total} in all",
                n(seat)
            ),
            Event::GameOver { winners } => {
                let w: Vec<_> = winners.iter().map(n).collect();
                format!("The game is over. Winner: {}", w.join(" and "))
            }
        }
    }
}
