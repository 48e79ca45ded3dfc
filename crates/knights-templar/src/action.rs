//! The actions a player can take: one per decision point (spec §4.2).

use crate::card::Card;
use game_core::Seat;
use serde::{Deserialize, Serialize};

/// One decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// DP1: take this card from the Fate row.
    Pick {
        /// The card.
        card: Card,
    },
    /// DP2 (Grand Master): this player picks next.
    Nominate {
        /// The player.
        seat: Seat,
    },
    /// DP3/DP4: discard (Enemy) or steal (Battle) this card of another player.
    Target {
        /// The card.
        card: Card,
    },
    /// DP5: play this one of the two Ally cards; the other is discarded face down.
    Keep {
        /// The card.
        card: Card,
    },
}

impl Action {
    /// Appends this action's compact JSON to `out`: the text serde_json writes for it (the tag,
    /// then the one field), without serde's map machinery (a seat to act gets its list after
    /// every action).
    pub(crate) fn write_json(&self, out: &mut String) {
        let (kind, key, n) = match *self {
            Action::Pick { card } => ("pick", "card", card.0),
            Action::Nominate { seat } => ("nominate", "seat", seat.0),
            Action::Target { card } => ("target", "card", card.0),
            Action::Keep { card } => ("keep", "card", card.0),
        };
        out.push_str(r#"{"type":""#);
        out.push_str(kind);
        out.push_str(r#"",""#);
        out.push_str(key);
        out.push_str(r#"":"#);
        game_core::view_diff::push_int(out, i64::from(n));
        out.push('}');
    }
}

/// `actions` as the compact JSON array serde_json writes for them.
pub(crate) fn list_json(actions: &[Action]) -> String {
    let mut out = String::with_capacity(2 + 28 * actions.len());
    out.push('[');
    for (i, action) in actions.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        action.write_json(&mut out);
    }
    out.push(']');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{KnightsTemplar, Options};
    use game_core::testing::{random_playout, setup};
    use game_core::Game;

    #[test]
    fn the_written_list_is_serdes_text() {
        let mut lists = 0;
        for players in KnightsTemplar::MIN_PLAYERS..=KnightsTemplar::MAX_PLAYERS {
            for seed in 0..4 {
                let options = Options::default();
                let playout = random_playout::<KnightsTemplar>(players, &options, seed, 100_000, false);
                let mut game: KnightsTemplar = setup(players, &options, seed);
                let mut check = |game: &KnightsTemplar| {
                    for seat in (0..players).map(|s| Seat(s as u8)) {
                        let legal = game.legal_actions(seat);
                        assert_eq!(game.legal_actions_json(seat), serde_json::to_string(&legal).unwrap());
                        lists += usize::from(!legal.is_empty());
                    }
                };
                check(&game);
                for (seat, action) in &playout.actions {
                    game.apply(*seat, action).expect("recorded action");
                    check(&game);
                }
            }
        }
        assert!(lists > 1_000, "only {lists} non-empty lists were compared");
    }
}
