//! The game contract: setup, who acts, legal actions, apply, views, events and the outcome.

use crate::rng::{GameRng, Seed};
use crate::seat::{Seat, SeatNames, Viewer};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

/// A game engine: a pure, deterministic value that moves from one decision point to the next.
///
/// The engine never waits, reads a clock or does I/O. All randomness comes from a [`GameRng`]
/// stored inside the state. Anything [`Game::legal_actions`] lists must apply; anything it does
/// not list must be rejected by [`Game::apply`] without changing the state.
pub trait Game: Clone + Debug + Serialize + DeserializeOwned + Send + Sync + 'static {
    /// The options a table chooses before the game starts.
    type Options: Clone + Debug + Default + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// One small step a player can take.
    type Action: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// What one viewer may see; every hidden thing removed.
    type View: Clone + Debug + PartialEq + Serialize;
    /// Something that happened, for the game log.
    type Event: GameEvent;

    /// The stable id of this game in the catalog, e.g. `"knights-templar"`.
    const ID: &'static str;
    /// The game's display name.
    const NAME: &'static str;
    /// The fewest players the game supports.
    const MIN_PLAYERS: usize;
    /// The most players the game supports.
    const MAX_PLAYERS: usize;

    /// The options a lobby can set, with their defaults, for the catalog.
    fn option_specs() -> Vec<crate::dynamic::OptionSpec> {
        Vec::new()
    }

    /// Sets up a game and plays every automatic step up to the first decision point.
    ///
    /// # Errors
    /// [`SetupError`] for an unsupported player count or options that do not fit it.
    fn setup(players: usize, options: &Self::Options, seed: Seed) -> Result<Self, SetupError>;

    /// What setup did, for the game log (e.g. a public draw deciding the first player).
    fn setup_events(&self) -> Vec<Event<Self::Event>> {
        Vec::new()
    }

    /// The number of players at the table.
    fn players(&self) -> usize;

    /// The seats whose input the game is waiting for now; empty once the game is over.
    fn to_act(&self) -> Vec<Seat>;

    /// The complete list of what `seat` may do now; empty if it is not waited for.
    fn legal_actions(&self, seat: Seat) -> Vec<Self::Action>;

    /// [`Game::legal_actions`] as compact JSON: exactly the text serde_json writes for the list
    /// (an engine may write it faster than serde does; `check_view_patches` compares the two at
    /// every step).
    fn legal_actions_json(&self, seat: Seat) -> String {
        // Plain data: serialisation cannot fail.
        serde_json::to_string(&self.legal_actions(seat)).unwrap_or_else(|_| "[]".to_string())
    }

    /// Validates and applies one action, then plays every automatic step that follows.
    ///
    /// # Errors
    /// A [`RuleError`] if the action is not legal for `seat` now; the state is then unchanged.
    fn apply(&mut self, seat: Seat, action: &Self::Action) -> Result<Vec<Event<Self::Event>>, RuleError>;

    /// What `viewer` may see.
    fn view(&self, viewer: Viewer) -> Self::View;

    /// [`Game::view`] as indexed compact JSON text: what a live table diffs, for every viewer,
    /// after every action. An engine may write it straight from its state, skipping the typed
    /// view, as long as the text is exactly that of `view` (the server's `view_patches` test
    /// checks it at every step of random games).
    fn view_text(&self, viewer: Viewer) -> crate::view_diff::ViewText {
        crate::view_diff::ViewText::serialize(&self.view(viewer))
    }

    /// Every viewer's [`Game::view_text`], in the order of `viewers`, as parts: what a live
    /// table asks for after each action. Views share most of their text (the board, the scores;
    /// what differs is a hand or a face-down card), so an engine may write the shared members
    /// once and give every viewer the same part for them
    /// ([`crate::view_diff::ViewParts`]): the table then diffs them once per action. Each
    /// view's parts joined must be exactly `view_text(viewer)` (checked by
    /// `check_view_patches`). The default writes each view whole, as one part.
    ///
    /// `cache` is the engine's memo from the previous call on this game (see
    /// [`crate::view_diff::ViewCache`]); the default ignores it.
    fn view_texts(
        &self,
        viewers: &[Viewer],
        cache: &mut crate::view_diff::ViewCache,
    ) -> Vec<crate::view_diff::ViewParts> {
        let _ = cache;
        viewers.iter().map(|viewer| crate::view_diff::ViewParts::whole(self.view_text(*viewer))).collect()
    }

    /// Whether this engine writes its viewers' patches itself ([`Game::view_patches`]).
    fn writes_patches(&self) -> bool {
        false
    }

    /// For an engine that [`Game::writes_patches`]: each viewer's RFC 6902 patch (its compact
    /// JSON text), in the order of `viewers`, from its view at the previous call with this
    /// `cache` to its view now, written from what changed in the state, with no view written;
    /// put into `patches` (cleared first, one per viewer). Each patch must be exactly what
    /// `json_patch::diff` gives between the two views as `Value`s (`check_view_patches`
    /// checks every viewer at every step). Each call makes now what the next call patches
    /// from, for every viewer, whichever viewers it was asked for. False, with nothing
    /// written, at the first call with a `cache` (there is nothing to patch from yet) and
    /// always by default. As with [`Game::write_canonical`], a `cache` is only ever used with
    /// the states of one game.
    fn view_patches(
        &self,
        viewers: &[Viewer],
        cache: &mut crate::view_diff::ViewCache,
        patches: &mut Vec<String>,
    ) -> bool {
        let _ = (viewers, cache);
        patches.clear();
        false
    }

    /// Appends the state's canonical JSON to `out`: exactly what `serde_json::to_writer` writes
    /// for it (the bytes [`crate::hash::state_hash`] hashes), which the default does. A live
    /// table hashes its state after every action, and most of a state does not change from one
    /// action to the next: an engine may keep in `cache` the JSON of members it wrote, with
    /// exactly the values it wrote them from, and copy it while they are unchanged (the same
    /// rules as for [`Game::view_texts`]; `check_view_patches` compares the two at every step).
    /// A `cache` is only ever used with the states of one game (a table makes its own afresh
    /// when it reloads its game), so what no rule changes after setup need not be compared.
    fn write_canonical(&self, out: &mut Vec<u8>, cache: &mut crate::view_diff::ViewCache) {
        let _ = cache;
        // Writing into a Vec cannot fail, and game states serialise.
        serde_json::to_writer(out, self).expect("game states serialise to JSON");
    }

    /// `None` while the game runs; the result once it has ended.
    fn outcome(&self) -> Option<Outcome>;

    /// A copy of this state in which everything `viewer` cannot see has been re-drawn at random
    /// (other hands, deck order, face-down cards, the RNG), consistently with what it can see.
    /// Used by the view non-interference test: the viewer's view must not change.
    fn scramble_hidden(&self, viewer: Viewer, rng: &mut GameRng) -> Self;

    /// Checks the invariants every reachable state of this game keeps (cards conserved, pieces
    /// counted, indices in range, a decision point consistent with the phase). A state read from
    /// JSON is checked with this before use (see [`validated_state!`](crate::validated_state)), so a
    /// corrupt or crafted state is refused instead of played.
    ///
    /// # Errors
    /// [`InvalidState`] naming the first invariant that does not hold.
    fn validate(&self) -> Result<(), InvalidState>;
}

/// A state that breaks one of its game's invariants: it cannot have been reached by play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid state: {0}")]
pub struct InvalidState(pub String);

impl InvalidState {
    /// An invalid-state error with this description.
    pub fn new(reason: impl Into<String>) -> Self {
        InvalidState(reason.into())
    }

    /// `Ok(())` when `holds`, otherwise this error with `reason` (built only on failure).
    ///
    /// # Errors
    /// [`InvalidState`] with `reason()` when `holds` is false.
    pub fn ensure(holds: bool, reason: impl FnOnce() -> String) -> Result<(), InvalidState> {
        if holds {
            Ok(())
        } else {
            Err(InvalidState(reason()))
        }
    }
}

/// Makes a game state's `Deserialize` refuse states that fail [`Game::validate`].
///
/// Put `#[serde(remote = "Self")]` on the state type beside its `Serialize`/`Deserialize` derives
/// (that turns the derives into inherent functions), then invoke this macro with the type: it
/// implements `Serialize` unchanged (same bytes, same hashes) and `Deserialize` as "read, then
/// validate".
#[macro_export]
macro_rules! validated_state {
    ($state:ty) => {
        impl ::serde::Serialize for $state {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                <$state>::serialize(self, serializer)
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $state {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                let state = <$state>::deserialize(deserializer)?;
                <$state as $crate::Game>::validate(&state).map_err(<D::Error as ::serde::de::Error>::custom)?;
                ::std::result::Result::Ok(state)
            }
        }
    };
}

/// An event type: serialisable for clients, and readable as a line of the game log.
pub trait GameEvent: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync {
    /// The event as a sentence, with seats named by `names`.
    fn describe(&self, names: &SeatNames) -> String;

    /// Appends the event's JSON to `out`, the very text `serde_json::to_string` writes for it,
    /// and returns `true`; or writes nothing and returns `false`, and the event goes through
    /// serde. A live table writes every event of every action: an engine may write its common
    /// ones by hand (and must test that the bytes are serde's: they are sent as they are).
    fn write_json(&self, out: &mut String) -> bool {
        let _ = out;
        false
    }
}

/// Who may see an event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "to", content = "seats")]
pub enum Audience {
    /// Every player and spectator.
    All,
    /// Only these seats.
    Only(Vec<Seat>),
}

impl Audience {
    /// Whether `viewer` may see an event with this audience.
    pub fn includes(&self, viewer: Viewer) -> bool {
        match (self, viewer) {
            (Audience::All, _) => true,
            (Audience::Only(seats), Viewer::Seat(s)) => seats.contains(&s),
            (Audience::Only(_), Viewer::Spectator) => false,
        }
    }
}

/// Something that happened, and who may see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event<E> {
    /// Who may see it.
    pub audience: Audience,
    /// What happened.
    pub event: E,
}

impl<E> Event<E> {
    /// An event everyone may see.
    pub fn public(event: E) -> Self {
        Event { audience: Audience::All, event }
    }

    /// An event only `seat` may see.
    pub fn private(seat: Seat, event: E) -> Self {
        Event { audience: Audience::Only(vec![seat]), event }
    }
}

/// The result of a finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Final score per seat.
    pub scores: Vec<i64>,
    /// Rank per seat: 1 for the winners; equal ranks for players the tie-break could not separate.
    pub ranks: Vec<u32>,
    /// The winning seats (several when the win is shared).
    pub winners: Vec<Seat>,
    /// The rule that decided ties, if one was needed.
    pub tie_break: Option<String>,
    /// The scoring breakdown, one line per scoring category.
    pub breakdown: Vec<ScoreLine>,
}

impl Outcome {
    /// An outcome where higher scores rank higher, equal scores share a rank, and the best share the win.
    pub fn from_scores(scores: Vec<i64>, breakdown: Vec<ScoreLine>) -> Outcome {
        let keys: Vec<Vec<i64>> = scores.iter().map(|s| vec![*s]).collect();
        Outcome::from_keys(scores, &keys, breakdown, None)
    }

    /// An outcome ranked by `keys` compared lexicographically (score first, then tie-breaks);
    /// seats with equal keys share a rank, and all seats with the best key win.
    pub fn from_keys(
        scores: Vec<i64>,
        keys: &[Vec<i64>],
        breakdown: Vec<ScoreLine>,
        tie_break: Option<String>,
    ) -> Outcome {
        let ranks: Vec<u32> = keys.iter().map(|k| 1 + keys.iter().filter(|other| *other > k).count() as u32).collect();
        let winners = ranks.iter().enumerate().filter(|(_, r)| **r == 1).map(|(i, _)| Seat(i as u8)).collect();
        Outcome { scores, ranks, winners, tie_break, breakdown }
    }
}

/// One scoring category with each seat's points in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreLine {
    /// What the points are for.
    pub label: String,
    /// Points per seat.
    pub points: Vec<i64>,
}

impl ScoreLine {
    /// A category named `label` with `points` per seat.
    pub fn new(label: impl Into<String>, points: Vec<i64>) -> Self {
        ScoreLine { label: label.into(), points }
    }
}

/// Why an action was rejected. The state is always left unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum RuleError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// There is no such seat at this table.
    #[error("there is no seat {seat} at this table")]
    NoSuchSeat {
        /// The seat named.
        seat: Seat,
    },
    /// The game is not waiting for this seat.
    #[error("it is not {seat}'s turn")]
    NotYourTurn {
        /// The seat that tried to act.
        seat: Seat,
    },
    /// The action is well-formed but not among the seat's legal actions now.
    #[error("that action is not legal now: {action}")]
    IllegalAction {
        /// The action, as JSON.
        action: String,
    },
    /// The action could not be read as an action of this game.
    #[error("that is not an action of this game: {reason}")]
    MalformedAction {
        /// What was wrong with it.
        reason: String,
    },
}

impl RuleError {
    /// The stable, namespaced error code clients see (`rule/...`).
    pub fn code(&self) -> &'static str {
        match self {
            RuleError::GameOver => "rule/game_over",
            RuleError::NoSuchSeat { .. } => "rule/no_such_seat",
            RuleError::NotYourTurn { .. } => "rule/not_your_turn",
            RuleError::IllegalAction { .. } => "rule/illegal_action",
            RuleError::MalformedAction { .. } => "rule/malformed_action",
        }
    }

    /// The usual validation every engine starts `apply` with: the game runs, the seat exists and
    /// is waited for, and the action is in its legal list.
    ///
    /// # Errors
    /// The matching [`RuleError`] when any of those fails.
    pub fn check<G: Game>(game: &G, seat: Seat, action: &G::Action) -> Result<(), RuleError> {
        if game.outcome().is_some() {
            return Err(RuleError::GameOver);
        }
        if seat.index() >= game.players() {
            return Err(RuleError::NoSuchSeat { seat });
        }
        if !game.to_act().contains(&seat) {
            return Err(RuleError::NotYourTurn { seat });
        }
        if !game.legal_actions(seat).contains(action) {
            return Err(RuleError::IllegalAction {
                action: serde_json::to_string(action).unwrap_or_else(|_| format!("{action:?}")),
            });
        }
        Ok(())
    }
}

/// Why a game could not be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum SetupError {
    /// The player count is outside the game's range.
    #[error("{game} is for {min} to {max} players, not {players}")]
    PlayerCount {
        /// The game id.
        game: String,
        /// The count asked for.
        players: usize,
        /// The fewest supported.
        min: usize,
        /// The most supported.
        max: usize,
    },
    /// The options are malformed or do not fit the player count.
    #[error("invalid options: {reason}")]
    InvalidOptions {
        /// What was wrong.
        reason: String,
    },
}

impl SetupError {
    /// The stable, namespaced error code clients see.
    pub fn code(&self) -> &'static str {
        match self {
            SetupError::PlayerCount { .. } => "game/bad_player_count",
            SetupError::InvalidOptions { .. } => "game/invalid_options",
        }
    }

    /// Checks `players` against the range of `G`.
    ///
    /// # Errors
    /// [`SetupError::PlayerCount`] when it is outside.
    pub fn check_players<G: Game>(players: usize) -> Result<(), SetupError> {
        if (G::MIN_PLAYERS..=G::MAX_PLAYERS).contains(&players) {
            Ok(())
        } else {
            Err(SetupError::PlayerCount { game: G::ID.to_string(), players, min: G::MIN_PLAYERS, max: G::MAX_PLAYERS })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_ranks_share_places_and_winners() {
        let o = Outcome::from_scores(vec![5, 7, 7, 1], vec![]);
        assert_eq!(o.ranks, vec![3, 1, 1, 4]);
        assert_eq!(o.winners, vec![Seat(1), Seat(2)]);
        let keyed = Outcome::from_keys(vec![7, 7], &[vec![7, 2], vec![7, 3]], vec![], Some("coins".into()));
        assert_eq!(keyed.winners, vec![Seat(1)]);
        assert_eq!(keyed.ranks, vec![2, 1]);
    }

    #[test]
    fn audiences_include_the_right_viewers() {
        assert!(Audience::All.includes(Viewer::Spectator));
        let only = Audience::Only(vec![Seat(1)]);
        assert!(only.includes(Viewer::Seat(Seat(1))));
        assert!(!only.includes(Viewer::Seat(Seat(0))));
        assert!(!only.includes(Viewer::Spectator));
    }
}
