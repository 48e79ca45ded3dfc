//! The 95 cards: ids 1–95 in the rules-text order, their names and types (spec §2.1–2.2).

use serde::{Deserialize, Serialize};
use std::fmt;

/// The nine card types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardType {
    /// L: tableau; majority bonus at game end.
    Legacy,
    /// A: discarded; draw 2, play 1.
    Ally,
    /// C: tableau; sole majority scores 1 VP each End Phase.
    County,
    /// T: tableau; 1 VP each at game end.
    Treasure,
    /// M: tableau; sole majority becomes Grand Master.
    Mission,
    /// P: tableau; majority draws at the end of the Select Phase.
    Power,
    /// B: discarded; steal a card.
    Battle,
    /// E: discarded; discard another player's card.
    Enemy,
    /// D: tableau; −1 VP each; 5 end the game.
    Downfall,
}

impl CardType {
    /// The type's name, as the rules write it ("Legacy", "Ally", ...).
    pub fn name(self) -> &'static str {
        match self {
            CardType::Legacy => "Legacy",
            CardType::Ally => "Ally",
            CardType::County => "County",
            CardType::Treasure => "Treasure",
            CardType::Mission => "Mission",
            CardType::Power => "Power",
            CardType::Battle => "Battle",
            CardType::Enemy => "Enemy",
            CardType::Downfall => "Downfall",
        }
    }

    /// Every type, in the rules-text order.
    pub const ALL: [CardType; 9] = [
        CardType::Legacy,
        CardType::Ally,
        CardType::County,
        CardType::Treasure,
        CardType::Mission,
        CardType::Power,
        CardType::Battle,
        CardType::Enemy,
        CardType::Downfall,
    ];

    /// Whether a played card of this type goes into the tableau (L, C, T, M, P, D).
    pub fn stays_in_play(self) -> bool {
        !matches!(self, CardType::Ally | CardType::Battle | CardType::Enemy)
    }
}

/// One card, by its id (1–95).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Card(pub u8);

/// Number of cards in the deck.
pub const DECK_SIZE: usize = 95;

const CARDS: [(CardType, &str); DECK_SIZE] = [
    (CardType::Legacy, "Myth"),
    (CardType::Legacy, "Legend"),
    (CardType::Legacy, "Mysteries"),
    (CardType::Legacy, "Speculation"),
    (CardType::Legacy, "Secrecy"),
    (CardType::Legacy, "Templar Architecture"),
    (CardType::Legacy, "Enigmas"),
    (CardType::Legacy, "Innovations"),
    (CardType::Legacy, "Freemasonry"),
    (CardType::Legacy, "Temple of Solomon"),
    (CardType::Ally, "Crusaders"),
    (CardType::Ally, "Saint Bernard"),
    (CardType::Ally, "King of France"),
    (CardType::Ally, "The Pope"),
    (CardType::Ally, "Teutonic Knights"),
    (CardType::Ally, "King of Jerusalem"),
    (CardType::Ally, "Richard the Lionheart"),
    (CardType::Ally, "Peter the Hermit"),
    (CardType::Ally, "Knights Hospitaller"),
    (CardType::Ally, "Benefactor"),
    (CardType::County, "County of Odessa"),
    (CardType::County, "Kingdom of Jerusalem"),
    (CardType::County, "Principality of Antioch"),
    (CardType::County, "Outremer"),
    (CardType::County, "County of Tripoli"),
    (CardType::County, "Cypress"),
    (CardType::County, "Armenia"),
    (CardType::County, "Crusader Kingdom"),
    (CardType::Treasure, "Skull of Sidon"),
    (CardType::Treasure, "Holy Grail"),
    (CardType::Treasure, "Ark of the Covenant"),
    (CardType::Treasure, "True Cross"),
    (CardType::Treasure, "Turnin Shroud"),
    (CardType::Treasure, "Lance of Longinus"),
    (CardType::Treasure, "Stone of Scone"),
    (CardType::Mission, "Take the Cross"),
    (CardType::Mission, "Oath of Allegiance"),
    (CardType::Mission, "Discipline"),
    (CardType::Mission, "Protect Pilgrims"),
    (CardType::Mission, "Poverty"),
    (CardType::Mission, "Chastity"),
    (CardType::Mission, "Obedience"),
    (CardType::Mission, "Bravery"),
    (CardType::Mission, "Monastic Order"),
    (CardType::Mission, "Fight Infidels"),
    (CardType::Mission, "Brotherhood"),
    (CardType::Mission, "Order of the Temple"),
    (CardType::Mission, "Champions of Christianity"),
    (CardType::Mission, "Vows"),
    (CardType::Mission, "Pious Soldiers"),
    (CardType::Mission, "Humble Knights"),
    (CardType::Power, "Politics"),
    (CardType::Power, "International Banking"),
    (CardType::Power, "Diplomacy"),
    (CardType::Power, "Recognition & Confidence"),
    (CardType::Power, "Industry & Agriculture"),
    (CardType::Power, "Respected"),
    (CardType::Power, "Collect Taxes"),
    (CardType::Power, "Business Enterprises"),
    (CardType::Power, "Great Wealth"),
    (CardType::Power, "Influence"),
    (CardType::Power, "Military Professionalism"),
    (CardType::Power, "Elite Warriors"),
    (CardType::Power, "Knowledge"),
    (CardType::Power, "Papal Privileges"),
    (CardType::Power, "Crusader Castles"),
    (CardType::Power, "Fleets & Shipyards"),
    (CardType::Battle, "Montgisard"),
    (CardType::Battle, "Ascalon"),
    (CardType::Battle, "Arsuf"),
    (CardType::Battle, "Damietta"),
    (CardType::Battle, "Hattin"),
    (CardType::Battle, "Mansura"),
    (CardType::Battle, "Siege"),
    (CardType::Enemy, "Turks"),
    (CardType::Enemy, "Arabs"),
    (CardType::Enemy, "Saracens"),
    (CardType::Enemy, "Infidels"),
    (CardType::Enemy, "Muslims"),
    (CardType::Enemy, "Saladin"),
    (CardType::Enemy, "Mamluks"),
    (CardType::Enemy, "Mongols"),
    (CardType::Downfall, "Scapegoats"),
    (CardType::Downfall, "Pride & Greed"),
    (CardType::Downfall, "Inquisition"),
    (CardType::Downfall, "Envy"),
    (CardType::Downfall, "Persecution"),
    (CardType::Downfall, "Arrests & Trials"),
    (CardType::Downfall, "Condemnation"),
    (CardType::Downfall, "Bloody Repression"),
    (CardType::Downfall, "Fall From Grace"),
    (CardType::Downfall, "Occultism"),
    (CardType::Downfall, "Accusations"),
    (CardType::Downfall, "Criticism"),
    (CardType::Downfall, "Blasphemy"),
];

impl Card {
    /// Every card, in id order.
    pub fn all() -> impl Iterator<Item = Card> {
        (1..=DECK_SIZE as u8).map(Card)
    }

    /// Whether the id names a real card.
    pub fn is_valid(self) -> bool {
        (1..=DECK_SIZE as u8).contains(&self.0)
    }

    fn data(self) -> (CardType, &'static str) {
        CARDS.get(usize::from(self.0).wrapping_sub(1)).copied().unwrap_or((CardType::Downfall, "?"))
    }

    /// The card's type.
    pub fn kind(self) -> CardType {
        self.data().0
    }

    /// The card's printed name.
    pub fn name(self) -> &'static str {
        self.data().1
    }

    /// The card with this exact name.
    pub fn named(name: &str) -> Option<Card> {
        Card::all().find(|c| c.name() == name)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deck_has_the_spec_counts_of_each_type() {
        let count = |t| Card::all().filter(|c| c.kind() == t).count();
        let expected = [10, 10, 8, 7, 16, 16, 7, 8, 13];
        for (t, n) in CardType::ALL.iter().zip(expected) {
            assert_eq!(count(*t), n, "{t:?}");
        }
        assert_eq!(Card::all().count(), 95);
        assert_eq!(Card::named("Turnin Shroud"), Some(Card(33)));
        assert_eq!(Card::named("Blasphemy"), Some(Card(95)));
        assert!(!Card(0).is_valid() && !Card(96).is_valid());
        for kind in CardType::ALL {
            assert_eq!(kind.name(), format!("{kind:?}"), "the name is the variant's");
        }
    }
}
