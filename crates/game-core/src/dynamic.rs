//! The object-safe JSON face of a game, so the server and tools can hold any game behind one
//! interface, and the catalog entry that creates such games.

use crate::game::{Audience, Game, GameEvent, Outcome, RuleError, SetupError};
use crate::hash::{state_hash, StateHash};
use crate::rng::Seed;
use crate::seat::{Seat, SeatNames, Viewer};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;
use std::marker::PhantomData;

/// What the catalog says about a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameInfo {
    /// Stable id, e.g. `"knights-templar"`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Fewest players.
    pub min_players: usize,
    /// Most players.
    pub max_players: usize,
    /// The options a lobby can set.
    pub options: Vec<OptionSpec>,
    /// The options a lobby starts with.
    pub default_options: Value,
    /// The engine's version; a log records it, since a seed fixes shuffles only within one version.
    pub engine_version: String,
}

/// One option a lobby can set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OptionSpec {
    /// The JSON key in the options object.
    pub key: String,
    /// A short label for a form.
    pub label: String,
    /// What it does, and when it is allowed.
    pub help: String,
    /// Its type and default.
    pub kind: OptionKind,
}

/// The type of an option, with its default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum OptionKind {
    /// On or off.
    Bool {
        /// The default.
        default: bool,
    },
    /// One of several strings.
    Choice {
        /// The allowed values.
        choices: Vec<String>,
        /// The default.
        default: String,
    },
}

/// An event as JSON, with its audience and its text.
#[derive(Clone, Debug, Serialize)]
pub struct DynEvent {
    /// Who may see it.
    pub audience: Audience,
    /// The event as the engine reports it, as compact JSON text written straight from the typed
    /// event (no `Value` built: each object's members come in the event's own order).
    pub data: EventJson,
    /// The event as a sentence.
    pub text: String,
}

impl PartialEq for DynEvent {
    fn eq(&self, other: &DynEvent) -> bool {
        self.audience == other.audience && self.data == other.data && self.text == other.text
    }
}

/// An event's compact JSON text: serde's text of the typed event, or the same bytes written by
/// its engine ([`GameEvent::write_json`]). Unlike a `RawValue`, it is made without reading the
/// text again: serde_json makes a `RawValue` from text only by parsing it, which cost more than
/// writing the event through serde.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventJson(Box<str>);

impl EventJson {
    /// `value`'s compact JSON, written by serde.
    #[must_use]
    pub fn of<T: Serialize + ?Sized>(value: &T) -> EventJson {
        // Plain data: serialisation cannot fail.
        EventJson(serde_json::to_string(value).unwrap_or_else(|_| "null".to_owned()).into_boxed_str())
    }

    /// The text.
    #[must_use]
    pub fn get(&self) -> &str {
        &self.0
    }
}

impl Serialize for EventJson {
    /// Into another value through serde (the tables copy the text into their messages instead):
    /// as the JSON the text is, read once here.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let raw: &RawValue = serde_json::from_str(&self.0).map_err(serde::ser::Error::custom)?;
        raw.serialize(serializer)
    }
}

/// Any game behind one JSON interface.
pub trait DynGame: Send + Sync {
    /// The catalog id of the game.
    fn game_id(&self) -> &'static str;
    /// The number of players.
    fn players(&self) -> usize;
    /// The seats the game waits for.
    fn to_act(&self) -> Vec<Seat>;
    /// The legal actions of `seat`, as JSON.
    fn legal_actions(&self, seat: Seat) -> Vec<Value>;
    /// The same actions as one compact JSON array, written straight from the typed actions (no
    /// `Value` built: each object's members come in the action's own order, not sorted). Equal
    /// lists give equal texts.
    fn legal_actions_json(&self, seat: Seat) -> String;
    /// Applies a JSON action; events are rendered with `names`.
    ///
    /// # Errors
    /// [`RuleError::MalformedAction`] if the JSON is not an action of this game, otherwise the
    /// engine's rejection. The state is unchanged on error.
    fn apply(&mut self, seat: Seat, action: &Value, names: &SeatNames) -> Result<Vec<DynEvent>, RuleError>;
    /// [`DynGame::apply`] on an action's JSON text, as a client sends it: accepts and rejects
    /// exactly what `apply` does for the parsed text. Returns the events and the action's text
    /// to store (the engine's own text for it, as its legal actions list it). The state is
    /// unchanged on error.
    ///
    /// # Errors
    /// As [`DynGame::apply`]; text that is not JSON is [`RuleError::MalformedAction`].
    fn apply_text(
        &mut self,
        seat: Seat,
        action: &str,
        names: &SeatNames,
    ) -> Result<(Vec<DynEvent>, Box<RawValue>), RuleError> {
        let value: Value = serde_json::from_str(action).map_err(malformed)?;
        let stored = serde_json::value::to_raw_value(&value).map_err(malformed)?;
        let events = self.apply(seat, &value, names)?;
        Ok((events, stored))
    }
    /// What `viewer` may see, as JSON.
    fn view(&self, viewer: Viewer) -> Value;
    /// What `viewer` may see, as compact JSON text (the same document as [`DynGame::view`],
    /// written straight from the typed view without building a `Value`).
    fn view_json(&self, viewer: Viewer) -> String {
        self.view(viewer).to_string()
    }
    /// [`DynGame::view_json`] with its structural index, for [`crate::view_diff::diff_texts`].
    fn view_text(&self, viewer: Viewer) -> crate::view_diff::ViewText {
        crate::view_diff::ViewText::new(self.view_json(viewer))
    }
    /// Every viewer's [`DynGame::view_text`], in the order of `viewers`, as parts (see
    /// [`crate::Game::view_texts`]).
    fn view_texts(
        &self,
        viewers: &[Viewer],
        cache: &mut crate::view_diff::ViewCache,
    ) -> Vec<crate::view_diff::ViewParts>;
    /// See [`crate::Game::writes_patches`].
    fn writes_patches(&self) -> bool;
    /// See [`crate::Game::view_patches`].
    fn view_patches(
        &self,
        viewers: &[Viewer],
        cache: &mut crate::view_diff::ViewCache,
        patches: &mut Vec<String>,
    ) -> bool;
    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// The hash of the full state.
    fn state_hash(&self) -> StateHash;
    /// [`DynGame::state_hash`], written with the engine's memo from the previous call on this
    /// game (see [`crate::Game::write_canonical`]): the same hash.
    fn state_hash_cached(&self, cache: &mut crate::view_diff::ViewCache) -> StateHash;
    /// The full state as JSON (secret: for the engine driver and debugging, never for players).
    fn state(&self) -> Value;
    /// What setup did, for the game log.
    fn setup_events(&self, names: &SeatNames) -> Vec<DynEvent>;
    /// A boxed copy.
    fn clone_box(&self) -> Box<dyn DynGame>;
}

impl Clone for Box<dyn DynGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

fn dyn_events<E: GameEvent>(events: Vec<crate::game::Event<E>>, names: &SeatNames) -> Vec<DynEvent> {
    events
        .into_iter()
        .map(|e| DynEvent { text: e.event.describe(names), data: event_json(&e.event), audience: e.audience })
        .collect()
}

/// `event`'s JSON: as its engine writes it by hand ([`GameEvent::write_json`]), or through serde.
fn event_json<E: GameEvent>(event: &E) -> EventJson {
    // Room for a common event's text (a kind and a few numbers), so that it is not grown
    // step by step.
    let mut text = String::with_capacity(96);
    if event.write_json(&mut text) {
        return EventJson(text.into_boxed_str());
    }
    EventJson::of(event)
}

fn malformed(e: serde_json::Error) -> RuleError {
    RuleError::MalformedAction { reason: e.to_string() }
}

/// The typed action `action` reads as, if `action` is exactly that action's JSON.
fn read_exact<G: Game>(action: &Value) -> Result<G::Action, RuleError> {
    // Read straight from the borrowed JSON: no copy of the action.
    let parsed = G::Action::deserialize(action).map_err(malformed)?;
    // serde lets unknown keys through in some shapes (unit variants of tagged enums): only the
    // exact JSON of an action is accepted, so nothing unread is ever stored in a game's log.
    if serde_json::to_value(&parsed).ok().as_ref() != Some(action) {
        return Err(RuleError::MalformedAction {
            reason: "the action has keys or values this game does not read; send it exactly as listed".into(),
        });
    }
    Ok(parsed)
}

/// Wraps a typed game as a [`DynGame`].
#[derive(Clone, Debug)]
pub struct Wrapped<G: Game>(pub G);

impl<G: Game> DynGame for Wrapped<G> {
    fn game_id(&self) -> &'static str {
        G::ID
    }

    fn players(&self) -> usize {
        self.0.players()
    }

    fn to_act(&self) -> Vec<Seat> {
        self.0.to_act()
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Value> {
        self.0.legal_actions(seat).iter().filter_map(|a| serde_json::to_value(a).ok()).collect()
    }

    fn legal_actions_json(&self, seat: Seat) -> String {
        self.0.legal_actions_json(seat)
    }

    fn apply(&mut self, seat: Seat, action: &Value, names: &SeatNames) -> Result<Vec<DynEvent>, RuleError> {
        let parsed = read_exact::<G>(action)?;
        let events = self.0.apply(seat, &parsed)?;
        Ok(dyn_events(events, names))
    }

    fn apply_text(
        &mut self,
        seat: Seat,
        action: &str,
        names: &SeatNames,
    ) -> Result<(Vec<DynEvent>, Box<RawValue>), RuleError> {
        // A client sends an action as its legal actions list it, which is serde's text for the
        // typed action: read it straight into the type and compare the texts, with no `Value`.
        // Anything else (another key order, spaces, unknown keys) is read as `apply` reads it.
        // (`to_raw_value` wraps serde's own output without reading it again.)
        let fast = serde_json::from_str::<G::Action>(action)
            .ok()
            .and_then(|parsed| Some((serde_json::value::to_raw_value(&parsed).ok()?, parsed)))
            .filter(|(stored, _)| stored.get() == action);
        let (stored, parsed) = match fast {
            Some(exact) => exact,
            None => {
                let value: Value = serde_json::from_str(action).map_err(malformed)?;
                let parsed = read_exact::<G>(&value)?;
                (serde_json::value::to_raw_value(&parsed).map_err(malformed)?, parsed)
            }
        };
        let events = self.0.apply(seat, &parsed)?;
        Ok((dyn_events(events, names), stored))
    }

    fn view(&self, viewer: Viewer) -> Value {
        serde_json::to_value(self.0.view(viewer)).unwrap_or(Value::Null)
    }

    fn view_json(&self, viewer: Viewer) -> String {
        serde_json::to_string(&self.0.view(viewer)).unwrap_or_else(|_| "null".to_string())
    }

    fn view_text(&self, viewer: Viewer) -> crate::view_diff::ViewText {
        self.0.view_text(viewer)
    }

    fn view_texts(
        &self,
        viewers: &[Viewer],
        cache: &mut crate::view_diff::ViewCache,
    ) -> Vec<crate::view_diff::ViewParts> {
        self.0.view_texts(viewers, cache)
    }

    fn writes_patches(&self) -> bool {
        self.0.writes_patches()
    }

    fn view_patches(
        &self,
        viewers: &[Viewer],
        cache: &mut crate::view_diff::ViewCache,
        patches: &mut Vec<String>,
    ) -> bool {
        self.0.view_patches(viewers, cache, patches)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }

    fn state_hash(&self) -> StateHash {
        state_hash(&self.0)
    }

    fn state_hash_cached(&self, cache: &mut crate::view_diff::ViewCache) -> StateHash {
        crate::hash::hash_written(|buf| self.0.write_canonical(buf, cache))
    }

    fn state(&self) -> Value {
        serde_json::to_value(&self.0).unwrap_or(Value::Null)
    }

    fn setup_events(&self, names: &SeatNames) -> Vec<DynEvent> {
        dyn_events(self.0.setup_events(), names)
    }

    fn clone_box(&self) -> Box<dyn DynGame> {
        Box::new(self.clone())
    }
}

/// A catalog entry: describes a game and creates instances of it.
pub trait GameDescriptor: Send + Sync {
    /// What the catalog says about the game.
    fn info(&self) -> GameInfo;

    /// Parses and validates options given as JSON (missing keys take their defaults).
    ///
    /// # Errors
    /// [`SetupError::InvalidOptions`] for unknown keys or wrong types.
    fn normalize_options(&self, options: &Value) -> Result<Value, SetupError>;

    /// Sets up a new game.
    ///
    /// # Errors
    /// [`SetupError`] for a bad player count or options.
    fn create(&self, players: usize, options: &Value, seed: Seed) -> Result<Box<dyn DynGame>, SetupError>;
}

/// The catalog entry of a typed game `G`.
pub struct Descriptor<G: Game> {
    version: &'static str,
    _game: PhantomData<fn() -> G>,
}

impl<G: Game> Descriptor<G> {
    /// The entry for `G`, whose crate has version `version` (pass `env!("CARGO_PKG_VERSION")`).
    pub const fn new(version: &'static str) -> Self {
        Descriptor { version, _game: PhantomData }
    }

    fn parse_options(options: &Value) -> Result<G::Options, SetupError> {
        let options = if options.is_null() { Value::Object(Default::default()) } else { options.clone() };
        serde_json::from_value(options).map_err(|e| SetupError::InvalidOptions { reason: e.to_string() })
    }
}

impl<G: Game> GameDescriptor for Descriptor<G> {
    fn info(&self) -> GameInfo {
        GameInfo {
            id: G::ID.to_string(),
            name: G::NAME.to_string(),
            min_players: G::MIN_PLAYERS,
            max_players: G::MAX_PLAYERS,
            options: G::option_specs(),
            default_options: serde_json::to_value(G::Options::default()).unwrap_or(Value::Null),
            engine_version: self.version.to_string(),
        }
    }

    fn normalize_options(&self, options: &Value) -> Result<Value, SetupError> {
        let parsed = Self::parse_options(options)?;
        serde_json::to_value(parsed).map_err(|e| SetupError::InvalidOptions { reason: e.to_string() })
    }

    fn create(&self, players: usize, options: &Value, seed: Seed) -> Result<Box<dyn DynGame>, SetupError> {
        SetupError::check_players::<G>(players)?;
        let options = Self::parse_options(options)?;
        Ok(Box::new(Wrapped(G::setup(players, &options, seed)?)))
    }
}
