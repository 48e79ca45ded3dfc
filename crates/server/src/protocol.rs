//! The WebSocket messages, named by direction: [`ClientMsg`] (browser → server) and
//! [`ServerMsg`] (server → browser). Both are JSON objects tagged by `type`; docs/protocol.md
//! describes each with an example.

use crate::error::ApiError;
use crate::ids::{GameId, LobbyId};
use crate::store::Account;
use game_core::view_diff::{needs_no_escape, push_json_string, push_uint, push_uints};
use game_core::{Audience, DynEvent, EventJson, Outcome, Seat, Viewer};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;

/// The largest text frame the server reads; larger ones get `proto/too_large`.
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;

/// A message from a client.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// Asks for a `pong`.
    Ping {
        /// Echoed in the answer.
        #[serde(default)]
        req: Option<u64>,
    },
    /// Follows a lobby: its state now, then every change.
    SubscribeLobby {
        /// The lobby.
        lobby: LobbyId,
        /// The invite code, for a private lobby one is not a member of.
        #[serde(default)]
        code: Option<String>,
        /// Echoed in an error.
        #[serde(default)]
        req: Option<u64>,
    },
    /// Stops following a lobby.
    UnsubscribeLobby {
        /// The lobby.
        lobby: LobbyId,
        /// Echoed in an error.
        #[serde(default)]
        req: Option<u64>,
    },
    /// Follows a game: a snapshot, or the patches missed since `last_version`.
    Subscribe {
        /// The game.
        game: GameId,
        /// The last version this client holds, to resume.
        #[serde(default)]
        last_version: Option<u64>,
        /// The invite code, to watch a private game one does not play in.
        #[serde(default)]
        code: Option<String>,
        /// Echoed in an error.
        #[serde(default)]
        req: Option<u64>,
    },
    /// Stops following a game.
    Unsubscribe {
        /// The game.
        game: GameId,
        /// Echoed in an error.
        #[serde(default)]
        req: Option<u64>,
    },
    /// Plays an action in the seat this account holds.
    Action {
        /// The game.
        game: GameId,
        /// The version the client's view is at.
        version: u64,
        /// One of the seat's legal actions, as its JSON text.
        action: ActionText,
        /// Echoed in the `ack` or error.
        #[serde(default)]
        req: Option<u64>,
    },
    /// Writes to a lobby's or a game's chat (exactly one of `lobby` and `game`; see [`crate::chat`]).
    Chat {
        /// The lobby's chat.
        #[serde(default)]
        lobby: Option<LobbyId>,
        /// The game's chat.
        #[serde(default)]
        game: Option<GameId>,
        /// The message.
        text: String,
        /// Echoed in an error.
        #[serde(default)]
        req: Option<u64>,
    },
    /// The host mutes (or unmutes) a member in the lobby's chat and its game's.
    ChatMute {
        /// The lobby.
        lobby: LobbyId,
        /// The member.
        account: crate::ids::AccountId,
        /// True to mute, false to unmute.
        muted: bool,
        /// Echoed in an error.
        #[serde(default)]
        req: Option<u64>,
    },
}

/// An action's JSON text, as a client sent it: the table reads it straight into the game's own
/// action type (see `DynGame::apply_text`), with no `Value` built for it.
#[derive(Clone, Debug)]
pub struct ActionText(pub Box<RawValue>);

impl ActionText {
    /// The text.
    pub fn get(&self) -> &str {
        self.0.get()
    }
}

/// Equal when the two texts are the same JSON (key order and spaces aside).
impl PartialEq for ActionText {
    fn eq(&self, other: &Self) -> bool {
        let read = |text: &str| serde_json::from_str::<Value>(text).ok();
        self.get() == other.get() || read(self.get()) == read(other.get())
    }
}

impl<'de> Deserialize<'de> for ActionText {
    /// Inside the tagged [`ClientMsg`], serde reads the whole message before it knows the variant,
    /// so the text itself is gone: the JSON is read and written back compactly. The common case,
    /// an `action` message, keeps the client's text ([`ClientMsg::parse`]'s shortcut).
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        serde_json::value::to_raw_value(&value).map(ActionText).map_err(serde::de::Error::custom)
    }
}

/// An `action` message, read straight into its fields: the tagged [`ClientMsg`] reads every
/// message into an intermediate form first, the action included, and actions are most of what
/// clients send. It accepts exactly what [`ClientMsg::Action`] accepts.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionMsg {
    #[serde(rename = "type")]
    kind: ActionTag,
    game: GameId,
    version: u64,
    action: Box<RawValue>,
    #[serde(default)]
    req: Option<u64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum ActionTag {
    Action,
}

/// The `type`s of [`ClientMsg`].
pub const CLIENT_TYPES: &[&str] =
    &["ping", "subscribe_lobby", "unsubscribe_lobby", "subscribe", "unsubscribe", "action", "chat", "chat_mute"];

impl ClientMsg {
    /// The message's `req`, if it has one.
    pub fn req(&self) -> Option<u64> {
        match self {
            ClientMsg::Ping { req }
            | ClientMsg::SubscribeLobby { req, .. }
            | ClientMsg::UnsubscribeLobby { req, .. }
            | ClientMsg::Subscribe { req, .. }
            | ClientMsg::Unsubscribe { req, .. }
            | ClientMsg::Action { req, .. }
            | ClientMsg::Chat { req, .. }
            | ClientMsg::ChatMute { req, .. } => *req,
        }
    }

    /// Reads a text frame.
    ///
    /// # Errors
    /// `proto/too_large`, `proto/malformed` (not JSON, not an object, wrong fields) or
    /// `proto/unknown_type`; with the `req` of the message when it could be read.
    pub fn parse(text: &str) -> Result<ClientMsg, (ApiError, Option<u64>)> {
        if text.len() > MAX_MESSAGE_BYTES {
            return Err((ApiError::TooLarge { size: text.len(), limit: MAX_MESSAGE_BYTES }, None));
        }
        // The common case, a well-formed message, is read in one pass; only a message that does
        // not read is looked at again, to answer with its `req` and the precise reason.
        if let Some(msg) = read_action_as_sent(text) {
            return Ok(msg);
        }
        if let Ok(ActionMsg { kind: ActionTag::Action, game, version, action, req }) = serde_json::from_str(text) {
            return Ok(ClientMsg::Action { game, version, action: ActionText(action), req });
        }
        ClientMsg::parse_tagged(text)
    }

    /// [`ClientMsg::parse`] without its shortcut for actions.
    fn parse_tagged(text: &str) -> Result<ClientMsg, (ApiError, Option<u64>)> {
        if let Ok(msg) = serde_json::from_str::<ClientMsg>(text) {
            return Ok(msg);
        }
        let value: Value = serde_json::from_str(text).map_err(|e| (ApiError::Malformed(e.to_string()), None))?;
        let req = value.get("req").and_then(Value::as_u64);
        let kind = match value.get("type") {
            Some(Value::String(kind)) => kind.clone(),
            _ => return Err((ApiError::Malformed("a message is an object with a string \"type\"".into()), req)),
        };
        if !CLIENT_TYPES.contains(&kind.as_str()) {
            return Err((ApiError::UnknownType(kind), req));
        }
        serde_json::from_value(value).map_err(|e| (ApiError::Malformed(e.to_string()), req))
    }
}

/// An `action` message in the layout clients write it (the web client and the load generator:
/// `{"type":"action","game":"…","version":N,"action":…,"req":N}`, no spaces, `req` optional),
/// read by hand: serde's reading of [`ActionMsg`] spends most of its time matching keys and
/// driving visitors for four fields whose layout is known. The action itself is checked by serde
/// (the same reading `ActionMsg` gives it), so this returns exactly the message [`ActionMsg`]
/// reads, or `None` for anything laid out otherwise, which is then read as before.
fn read_action_as_sent(text: &str) -> Option<ClientMsg> {
    let rest = text.strip_prefix(r#"{"type":"action","game":""#)?;
    let (game, rest) = rest.split_once('"')?;
    // Text serde reads as it stands: no escape, no control character.
    if !needs_no_escape(game) {
        return None;
    }
    let (version, rest) = leading_u64(rest.strip_prefix(r#","version":"#)?)?;
    let rest = rest.strip_prefix(r#","action":"#)?;
    let mut reader = serde_json::Deserializer::from_str(rest);
    let action = <&RawValue>::deserialize(&mut reader).ok()?;
    let action_text = action.get();
    // A long action is left to the full reading: see MAX_ACTION_READ_HERE.
    if action_text.len() > MAX_ACTION_READ_HERE || !rest.starts_with(action_text) {
        return None;
    }
    let rest = &rest[action_text.len()..];
    let (req, rest) = match rest.strip_prefix(r#","req":"#) {
        Some(after) => {
            let (req, rest) = leading_u64(after)?;
            (Some(req), rest)
        }
        None => (None, rest),
    };
    (rest == "}").then(|| ClientMsg::Action {
        game: GameId(game.to_owned()),
        version,
        action: ActionText(action.to_owned()),
        req,
    })
}

/// The longest action text [`read_action_as_sent`] reads. serde_json refuses JSON nested 128
/// levels deep, counting the message's own object when it reads a whole message: an action
/// nested 127 levels deep is refused in a message but not by itself. That takes 254 bytes, so
/// up to this length the two readings agree.
const MAX_ACTION_READ_HERE: usize = 200;

/// The digits at the start of `text` as a `u64`, as serde_json reads a plain unsigned integer
/// (no leading zero, not above `u64::MAX`), and the text after them.
fn leading_u64(text: &str) -> Option<(u64, &str)> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let (number, rest) = text.split_at(digits);
    if number.len() > 1 && number.starts_with('0') {
        return None;
    }
    Some((number.parse().ok()?, rest))
}

/// An event as one viewer receives it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EventOut {
    /// The event as the engine reports it.
    pub data: Value,
    /// The event as a sentence.
    pub text: String,
    /// Whether only some seats see it.
    pub private: bool,
}

/// An event as one viewer receives it, borrowed from the engine's event: [`EventOut`]'s JSON
/// without a copy per viewer (a table writes it into every viewer's patch message).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct EventRef<'a> {
    /// The event as the engine reports it.
    pub data: &'a EventJson,
    /// The event as a sentence.
    pub text: &'a str,
    /// Whether only some seats see it.
    pub private: bool,
}

impl<'a> EventRef<'a> {
    /// Appends the JSON array of `events` as serde_json writes it (`[{"data":…,"text":…,"private":…},…]`),
    /// with only the text's characters escaped by serde_json (the keys are fixed).
    pub fn write_list<'b>(events: impl IntoIterator<Item = EventRef<'b>>, out: &mut String) {
        out.push('[');
        for (i, e) in events.into_iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(r#"{"data":"#);
            out.push_str(e.data.get());
            out.push_str(r#","text":"#);
            push_json_string(out, e.text);
            out.push_str(if e.private { r#","private":true}"# } else { r#","private":false}"# });
        }
        out.push(']');
    }

    /// The events of `events` that `viewer` may see.
    pub fn visible(events: &'a [DynEvent], viewer: Viewer) -> Vec<EventRef<'a>> {
        Self::seen(events, viewer).collect()
    }

    /// [`EventRef::visible`], one by one (the patch messages write them with no list).
    pub fn seen(events: &'a [DynEvent], viewer: Viewer) -> impl Iterator<Item = EventRef<'a>> {
        events.iter().filter(move |e| e.audience.includes(viewer)).map(|e| EventRef {
            data: &e.data,
            text: &e.text,
            private: e.audience != Audience::All,
        })
    }
}

impl EventOut {
    /// The events of `events` that `viewer` may see.
    pub fn visible(events: &[DynEvent], viewer: Viewer) -> Vec<EventOut> {
        EventRef::visible(events, viewer)
            .into_iter()
            .map(|e| EventOut {
                // The engine wrote it: it reads back.
                data: serde_json::from_str(e.data.get()).unwrap_or(Value::Null),
                text: e.text.to_owned(),
                private: e.private,
            })
            .collect()
    }
}

/// A table's turn clock: how long the people it waits for have left to move, in milliseconds from
/// when the message was sent (relative, so that a client's wrong clock does not matter).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Clock {
    /// The seats whose time runs (people the game waits for; bots have no clock).
    pub seats: Vec<Seat>,
    /// Milliseconds left.
    pub remaining_ms: u64,
}

/// A message to a client.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg<'a> {
    /// First message on every socket.
    Welcome {
        /// The signed-in account, or null for an anonymous spectator.
        account: Option<&'a Account>,
        /// The largest frame the server reads.
        max_message_bytes: usize,
    },
    /// Answer to `ping`.
    Pong {
        /// The ping's `req`.
        req: Option<u64>,
    },
    /// A lobby's whole state, on subscribe and after every change.
    Lobby {
        /// The lobby (see the HTTP lobby object).
        lobby: Value,
    },
    /// The full view of a game for this subscriber.
    Snapshot {
        /// The game.
        game: &'a GameId,
        /// The catalog id of the game played.
        catalog_id: &'a str,
        /// Actions applied so far.
        version: u64,
        /// The subscriber's seat, or null for a spectator.
        seat: Option<Seat>,
        /// Seat names.
        seats: &'a [String],
        /// What this subscriber may see.
        view: &'a Value,
        /// The seats the game waits for.
        to_act: &'a [Seat],
        /// This subscriber's legal actions now (empty for spectators and seats not waited for).
        legal_actions: &'a RawValue,
        /// SHA-256 of the seed, published before the first move.
        seed_commitment: &'a str,
        /// The seed, once the game is over.
        seed: Option<String>,
        /// The result, once the game is over.
        outcome: Option<&'a Outcome>,
        /// The turn clock of the seats the game waits for, when the table has one.
        #[serde(skip_serializing_if = "Option::is_none")]
        clock: Option<Clock>,
    },
    /// One version: the JSON Patch from this subscriber's previous view to its new one.
    Patch {
        /// The game.
        game: &'a GameId,
        /// The version this patch leads to.
        version: u64,
        /// The seat that acted.
        seat: Seat,
        /// RFC 6902 operations.
        patch: &'a json_patch::Patch,
        /// The events of this action this subscriber may see.
        events: &'a [EventRef<'a>],
        /// The seats the game waits for now.
        to_act: &'a [Seat],
        /// This subscriber's legal actions now.
        legal_actions: &'a RawValue,
        /// The seed, when this action ended the game.
        seed: Option<String>,
        /// The result, when this action ended the game.
        outcome: Option<&'a Outcome>,
        /// Set when the turn clock made this move: the seat's time ran out.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        by_clock: bool,
        /// The turn clock of the seats the game waits for now, when the table has one.
        #[serde(skip_serializing_if = "Option::is_none")]
        clock: Option<Clock>,
    },
    /// A resumed subscription is up to date (after any missed patches).
    Resumed {
        /// The game.
        game: &'a GameId,
        /// Its current version.
        version: u64,
        /// The turn clock now (the missed patches carry the clock as it was when each was sent).
        #[serde(skip_serializing_if = "Option::is_none")]
        clock: Option<Clock>,
    },
    /// The sender's action was committed (after its patch).
    Ack {
        /// The action's `req`.
        req: Option<u64>,
        /// The game.
        game: &'a GameId,
        /// The version the action made.
        version: u64,
    },
    /// A request failed.
    Error {
        /// The request's `req`, if it had one.
        req: Option<u64>,
        /// The game concerned, if any.
        #[serde(skip_serializing_if = "Option::is_none")]
        game: Option<&'a GameId>,
        /// Stable code.
        code: &'static str,
        /// A sentence.
        message: String,
        /// Details for some codes.
        #[serde(skip_serializing_if = "Option::is_none")]
        details: Option<Value>,
    },
}

impl ServerMsg<'_> {
    /// The message as a JSON text frame.
    pub fn to_text(&self) -> crate::outbox::Frame {
        // Every field is plain data: serialisation cannot fail.
        serde_json::to_string(self).unwrap_or_default().into()
    }
}

/// One action's patch messages, one per viewer: the text of [`ServerMsg::Patch`], assembled from
/// parts written once per action (the game, version, who waits, the clock, the result) and the
/// viewer's own (its patch and legal actions; its events, written once per distinct audience).
/// A table keeps one and starts it afresh ([`PatchFrames::start`]) for every action: its buffers
/// are reused from one action to the next.
#[derive(Default)]
pub struct PatchFrames {
    /// `{"type":"patch","game":…,"version":…,"seat":…,"patch":`
    head: String,
    /// `,"to_act":[…],"legal_actions":`
    middle: String,
    /// `,"seed":…,"outcome":…` and `by_clock` and `clock` when set, then `}`.
    tail: String,
    /// Where a value is serialised before it is copied into a part.
    scratch: Vec<u8>,
    /// The events' JSON by which of them the viewer sees: the first `events_used` are this
    /// action's, those after kept only for their buffers.
    events: Vec<(Vec<bool>, String)>,
    events_used: usize,
    /// The last message written this action and its events (their entry in `events`), with
    /// its patch and legal actions in `last_patch` and `last_legal`: viewers who see the same
    /// (most of those not to act) share its bytes.
    last: Option<(usize, crate::outbox::Frame)>,
    last_patch: String,
    last_legal: String,
}

impl PatchFrames {
    /// Starts the messages of an action: writes the parts every viewer's message shares.
    #[allow(clippy::too_many_arguments)]
    pub fn start(
        &mut self,
        game: &GameId,
        version: u64,
        seat: Seat,
        to_act: &[Seat],
        seed: Option<&str>,
        outcome: Option<&Outcome>,
        by_clock: bool,
        clock: Option<&Clock>,
    ) {
        let (head, middle, tail, scratch) = (&mut self.head, &mut self.middle, &mut self.tail, &mut self.scratch);
        head.clear();
        // The id, numbers and seats by hand (as serde_json writes them): this is every action's.
        head.push_str(r#"{"type":"patch","game":"#);
        push_json_string(head, game.as_str());
        head.push_str(r#","version":"#);
        push_uint(head, version);
        head.push_str(r#","seat":"#);
        push_uint(head, u64::from(seat.0));
        head.push_str(r#","patch":"#);
        middle.clear();
        middle.push_str(r#","to_act":"#);
        push_seats(middle, to_act);
        middle.push_str(r#","legal_actions":"#);
        tail.clear();
        tail.push_str(r#","seed":"#);
        push_opt_json_string(tail, seed);
        tail.push_str(r#","outcome":"#);
        match outcome {
            Some(outcome) => push_json(tail, scratch, outcome),
            None => tail.push_str("null"),
        }
        if by_clock {
            tail.push_str(r#","by_clock":true"#);
        }
        if let Some(clock) = clock {
            tail.push_str(r#","clock":"#);
            push_json(tail, scratch, clock);
        }
        tail.push('}');
        self.events_used = 0;
        self.last = None;
    }

    /// The message for `viewer`, whose RFC 6902 patch is `patch`, as compact JSON text.
    pub fn frame(
        &mut self,
        patch: &str,
        events: &[DynEvent],
        viewer: Viewer,
        legal_actions: &str,
    ) -> crate::outbox::Frame {
        // Which events the viewer sees, compared in place: most viewers share a text written
        // for another, and need no list of their own.
        let sees = |e: &DynEvent| e.audience.includes(viewer);
        let same = |seen: &[bool]| seen.len() == events.len() && seen.iter().zip(events).all(|(s, e)| *s == sees(e));
        let index = match self.events[..self.events_used].iter().position(|(seen, _)| same(seen)) {
            Some(i) => i,
            None => {
                if self.events_used == self.events.len() {
                    self.events.push((Vec::new(), String::with_capacity(128)));
                }
                let (seen, text) = &mut self.events[self.events_used];
                seen.clear();
                seen.extend(events.iter().map(sees));
                text.clear();
                EventRef::write_list(EventRef::seen(events, viewer), text);
                self.events_used += 1;
                self.events_used - 1
            }
        };
        if let Some((_, frame)) = self.last.as_ref().filter(|(e, _)| {
            *e == index && self.last_patch.as_str() == patch && self.last_legal.as_str() == legal_actions
        }) {
            return frame.clone();
        }
        let events = &self.events[index].1;
        let mut out = String::with_capacity(
            self.head.len()
                + patch.len()
                + events.len()
                + self.middle.len()
                + legal_actions.len()
                + self.tail.len()
                + 16,
        );
        out.push_str(&self.head);
        out.push_str(patch);
        out.push_str(r#","events":"#);
        out.push_str(events);
        out.push_str(&self.middle);
        out.push_str(legal_actions);
        out.push_str(&self.tail);
        let frame = crate::outbox::Frame::from(out);
        self.last_patch.clear();
        self.last_patch.push_str(patch);
        self.last_legal.clear();
        self.last_legal.push_str(legal_actions);
        self.last = Some((index, frame.clone()));
        frame
    }
}

/// Appends `seats` as serde_json writes them: an array of numbers.
fn push_seats(out: &mut String, seats: &[Seat]) {
    push_uints(out, seats.iter().map(|s| u64::from(s.0)));
}

/// Appends `n`, or `null`, as serde_json writes an `Option<u64>`.
fn push_opt_uint(out: &mut String, n: Option<u64>) {
    match n {
        Some(n) => push_uint(out, n),
        None => out.push_str("null"),
    }
}

/// Appends `text` as a JSON string, or `null`, as serde_json writes an `Option<&str>`.
fn push_opt_json_string(out: &mut String, text: Option<&str>) {
    match text {
        Some(text) => push_json_string(out, text),
        None => out.push_str("null"),
    }
}

/// Appends `value` as compact JSON, serialised first into `scratch` (a buffer the caller keeps).
fn push_json<T: Serialize + ?Sized>(out: &mut String, scratch: &mut Vec<u8>, value: &T) {
    scratch.clear();
    // Plain data: serialisation cannot fail, and serde_json writes UTF-8.
    if serde_json::to_writer(&mut *scratch, value).is_ok() {
        out.push_str(std::str::from_utf8(scratch).unwrap_or_default());
    }
}

/// The text of [`ServerMsg::Snapshot`], with the view and the legal actions given as JSON text
/// and copied in as they are: a snapshot goes out at every subscribe, and its view needs no
/// `Value` read and written again (the view's text is its parts joined, [`game_core::ViewParts::join`]).
pub struct SnapshotText<'a> {
    /// The game.
    pub game: &'a GameId,
    /// The catalog id of the game played.
    pub catalog_id: &'a str,
    /// Actions applied so far.
    pub version: u64,
    /// The subscriber's seat, or none for a spectator.
    pub seat: Option<Seat>,
    /// Seat names.
    pub seats: &'a [String],
    /// The view, as JSON text.
    pub view: &'a str,
    /// The seats the game waits for.
    pub to_act: &'a [Seat],
    /// The subscriber's legal actions, as a JSON array's text.
    pub legal_actions: &'a str,
    /// SHA-256 of the seed.
    pub seed_commitment: &'a str,
    /// The seed, once the game is over.
    pub seed: Option<String>,
    /// The result, once the game is over.
    pub outcome: Option<&'a Outcome>,
    /// The turn clock, when the table has one.
    pub clock: Option<Clock>,
}

impl SnapshotText<'_> {
    /// The message as a JSON text frame: the bytes `serde_json` writes for the
    /// [`ServerMsg::Snapshot`] of the same fields.
    pub fn to_text(&self) -> crate::outbox::Frame {
        let mut out = String::with_capacity(self.view.len() + self.legal_actions.len() + 256);
        let mut scratch = Vec::with_capacity(128);
        out.push_str(r#"{"type":"snapshot","game":"#);
        push_json_string(&mut out, self.game.as_str());
        out.push_str(r#","catalog_id":"#);
        push_json_string(&mut out, self.catalog_id);
        out.push_str(r#","version":"#);
        push_uint(&mut out, self.version);
        out.push_str(r#","seat":"#);
        push_opt_uint(&mut out, self.seat.map(|s| u64::from(s.0)));
        out.push_str(r#","seats":"#);
        push_json(&mut out, &mut scratch, self.seats);
        out.push_str(r#","view":"#);
        out.push_str(self.view);
        out.push_str(r#","to_act":"#);
        push_seats(&mut out, self.to_act);
        out.push_str(r#","legal_actions":"#);
        out.push_str(self.legal_actions);
        out.push_str(r#","seed_commitment":"#);
        push_json_string(&mut out, self.seed_commitment);
        out.push_str(r#","seed":"#);
        push_opt_json_string(&mut out, self.seed.as_deref());
        out.push_str(r#","outcome":"#);
        push_json(&mut out, &mut scratch, &self.outcome);
        if let Some(clock) = &self.clock {
            out.push_str(r#","clock":"#);
            push_json(&mut out, &mut scratch, clock);
        }
        out.push('}');
        out.into()
    }
}

/// The text of [`ServerMsg::Ack`] (sent with every accepted action), written by hand: the bytes
/// `serde_json` writes for it.
pub fn ack_text(req: Option<u64>, game: &GameId, version: u64) -> crate::outbox::Frame {
    let mut out = String::with_capacity(64 + game.as_str().len());
    out.push_str(r#"{"type":"ack","req":"#);
    push_opt_uint(&mut out, req);
    out.push_str(r#","game":"#);
    push_json_string(&mut out, game.as_str());
    out.push_str(r#","version":"#);
    push_uint(&mut out, version);
    out.push('}');
    out.into()
}

/// An error message.
pub fn error_text(error: &ApiError, req: Option<u64>, game: Option<&GameId>) -> crate::outbox::Frame {
    let body = error.body();
    ServerMsg::Error { req, game, code: body.code, message: body.message, details: body.details }.to_text()
}

/// An error about a lobby the socket follows, sent without a request (the follower was removed, or
/// may no longer see the lobby): `details` names the lobby.
pub fn lobby_error_text(error: &ApiError, lobby: &LobbyId) -> crate::outbox::Frame {
    let body = error.body();
    let details = Some(serde_json::json!({ "lobby": lobby }));
    ServerMsg::Error { req: None, game: None, code: body.code, message: body.message, details }.to_text()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_list_is_written_as_serde_writes_it() {
        let data = EventJson::of(&serde_json::json!({"type": "picked", "seat": 2}));
        let events = [
            EventRef { data: &data, text: "load2 took \"Teutonic\" Knights\n\u{1}é", private: false },
            EventRef { data: &data, text: "", private: true },
        ];
        for list in [&events[..0], &events[..1], &events[..]] {
            let mut written = String::new();
            EventRef::write_list(list.iter().copied(), &mut written);
            assert_eq!(written, serde_json::to_string(list).unwrap());
        }
    }

    /// `ClientMsg::parse` as it was before `read_action_as_sent`: serde's `ActionMsg`, then the
    /// tagged message.
    fn parse_with_serde(text: &str) -> Result<ClientMsg, (ApiError, Option<u64>)> {
        if let Ok(ActionMsg { kind: ActionTag::Action, game, version, action, req }) = serde_json::from_str(text) {
            return Ok(ClientMsg::Action { game, version, action: ActionText(action), req });
        }
        ClientMsg::parse_tagged(text)
    }

    #[test]
    fn an_action_in_the_clients_layout_is_read_by_hand_exactly_as_serde_reads_it() {
        // Each part of the message, and whether the hand reading should take it (with every
        // other part clean).
        let nested = |levels: usize| format!("{}{}", "[".repeat(levels), "]".repeat(levels));
        let long = format!(r#"{{"text":"{}"}}"#, "x".repeat(MAX_ACTION_READ_HERE));
        let games: &[(&str, bool)] = &[
            ("g1", true),
            ("3f6c1a2e-9b1d-4c55-8e1f-2a7b6c9d0e11", true),
            ("", true),
            ("é ü", true),
            (r#"a\"b"#, false),
            (r#"\u00e9"#, false),
            ("tab\there", false),
        ];
        let versions: &[(&str, bool)] = &[
            ("0", true),
            ("3", true),
            ("18446744073709551615", true),
            ("03", false),
            ("-1", false),
            ("1.0", false),
            ("1e3", false),
            ("18446744073709551616", false),
            (" 3", false),
            ("", false),
        ];
        let actions: Vec<(String, bool)> = vec![
            (r#"{"pick":12}"#.into(), true),
            (r#"[1,{"b":2,"a":1}]"#.into(), true),
            ("null".into(), true),
            ("1.5e3".into(), true),
            ("-0".into(), true),
            (r#""x""#.into(), true),
            (r#"{"a" : "\u00e9\n"}"#.into(), true),
            (nested(100), true),
            (nested(126), false),
            (nested(127), false),
            (nested(128), false),
            (long, false),
            (r#" {"a":1}"#.into(), false),
            (r#"{"a":}"#.into(), false),
            ("[".into(), false),
            ("tru".into(), false),
            ("01".into(), false),
        ];
        let reqs: &[(&str, bool)] = &[
            ("", true),
            (r#","req":7"#, true),
            (r#","req":0"#, true),
            (r#","req":null"#, false),
            (r#","req":07"#, false),
            (r#","req":-1"#, false),
            (r#","req":1.0"#, false),
            (r#","req":18446744073709551616"#, false),
        ];
        let tails: &[(&str, bool)] = &[("}", true), ("} ", false), ("}}", false), ("},", false), ("", false)];
        let (mut by_hand, mut read) = (0, 0);
        for (game, game_ok) in games {
            for (version, version_ok) in versions {
                for (action, action_ok) in &actions {
                    for (req, req_ok) in reqs {
                        for (tail, tail_ok) in tails {
                            let text = format!(
                                r#"{{"type":"action","game":"{game}","version":{version},"action":{action}{req}{tail}"#
                            );
                            let hand = read_action_as_sent(&text);
                            let serde = parse_with_serde(&text);
                            let clean = *game_ok && *version_ok && *action_ok && *req_ok && *tail_ok;
                            assert_eq!(hand.is_some(), clean, "{text}");
                            if let Some(hand) = &hand {
                                by_hand += 1;
                                let Ok(msg) = &serde else { panic!("serde refuses what was read by hand: {text}") };
                                assert_eq!(hand, msg, "{text}");
                                let (ClientMsg::Action { action: a, .. }, ClientMsg::Action { action: b, .. }) =
                                    (hand, msg)
                                else {
                                    panic!("not an action: {text}")
                                };
                                assert_eq!(a.get(), b.get(), "the client's text is kept as it was sent: {text}");
                            }
                            // The whole reading answers as before, accepted or refused.
                            let parsed = ClientMsg::parse(&text);
                            match (&parsed, &serde) {
                                (Ok(a), Ok(b)) => assert_eq!(a, b, "{text}"),
                                (Err((a, ra)), Err((b, rb))) => assert_eq!((a.code(), ra), (b.code(), rb), "{text}"),
                                _ => panic!("{text}: {parsed:?} against {serde:?}"),
                            }
                            read += usize::from(parsed.is_ok());
                        }
                    }
                }
            }
        }
        assert_eq!(by_hand, 4 * 3 * 8 * 3);
        assert!(read > by_hand, "some messages outside the layout are read by serde: {read}");
    }

    #[test]
    fn an_action_is_read_as_the_tagged_message_reads_it() {
        let texts = [
            r#"{"type":"action","game":"g1","version":3,"action":{"pick":12},"req":7}"#,
            r#"{"game":"g1","action":[1,{"b":2,"a":1}],"version":0,"type":"action"}"#,
            r#"{"type":"action","game":"g1","version":3,"action":null,"req":null}"#,
            r#"{"type":"action","game":"g1","version":3,"action":{"pick":12},"extra":1}"#,
            r#"{"type":"action","type":"action","game":"g1","version":3,"action":1}"#,
            r#"{"type":"action","game":"g1","version":-1,"action":1}"#,
            r#"{"type":"action","game":null,"version":3,"action":1}"#,
            r#"{"type":"action","game":"g1","action":1}"#,
            r#"{"type":"ping","game":"g1","version":3,"action":1}"#,
            r#"{"type":"ping","req":2}"#,
            r#"{"type":"Action","game":"g1","version":3,"action":1}"#,
        ];
        let mut read = 0;
        for text in texts {
            let tagged = ClientMsg::parse_tagged(text).ok();
            let parsed = ClientMsg::parse(text).ok();
            assert_eq!(parsed, tagged, "{text}");
            read += usize::from(parsed.is_some());
        }
        assert_eq!(read, 5, "the first three, the one with a repeated key (the last one wins) and the ping read");
    }

    /// An event every viewer sees, and one only seat 0 sees (with quotes to escape).
    fn two_events() -> [DynEvent; 2] {
        [
            DynEvent {
                data: EventJson::of(&serde_json::json!({"drew": 3})),
                text: "Ana drew".into(),
                audience: Audience::All,
            },
            DynEvent {
                data: EventJson::of(&serde_json::json!({"card": 7})),
                text: "Ana saw \"7\"".into(),
                audience: Audience::Only(vec![game_core::Seat(0)]),
            },
        ]
    }

    #[test]
    fn patch_frames_are_the_text_of_the_patch_message() {
        let game = GameId::random();
        let events = two_events();
        let patch: json_patch::Patch = serde_json::from_value(serde_json::json!([
            {"op": "replace", "path": "/turn", "value": 2},
            {"op": "add", "path": "/fate/a~1b", "value": true}
        ]))
        .unwrap();
        // The spectator's patch differs from the seats'.
        let other: json_patch::Patch =
            serde_json::from_value(serde_json::json!([{"op": "remove", "path": "/fate/x"}])).unwrap();
        let outcome = Outcome::from_scores(vec![3, 1], vec![]);
        let clock = Clock { seats: vec![game_core::Seat(1)], remaining_ms: 1500 };
        let legal =
            serde_json::to_string(&[serde_json::json!({"pick": 12}), serde_json::json!({"pass": true})]).unwrap();
        let (legal, none) = (RawValue::from_string(legal).unwrap(), RawValue::from_string("[]".into()).unwrap());
        // One set of buffers for every action, as a table keeps it.
        let mut frames = PatchFrames::default();
        for (seed, outcome, by_clock, clock, to_act, version) in [
            (None, None, false, None, &[game_core::Seat(1)][..], 9),
            (Some("00ff"), Some(&outcome), true, Some(&clock), &[][..], 10),
            (None, None, true, None, &[game_core::Seat(0), game_core::Seat(12)][..], 0),
            (Some("a\"b"), None, false, Some(&clock), &[game_core::Seat(1)][..], u64::MAX),
        ] {
            frames.start(&game, version, game_core::Seat(0), to_act, seed, outcome, by_clock, clock);
            // A viewer right after one who sees the same gets the same bytes, shared.
            let mut last: Option<(Viewer, crate::outbox::Frame)> = None;
            for viewer in [
                Viewer::Seat(game_core::Seat(0)),
                Viewer::Seat(game_core::Seat(0)),
                Viewer::Seat(game_core::Seat(1)),
                Viewer::Spectator,
                Viewer::Spectator,
                Viewer::Seat(game_core::Seat(0)),
            ] {
                let legal: &RawValue = if viewer == Viewer::Seat(game_core::Seat(1)) { &legal } else { &none };
                let patch = if viewer == Viewer::Spectator { &other } else { &patch };
                let expected = ServerMsg::Patch {
                    game: &game,
                    version,
                    seat: game_core::Seat(0),
                    patch,
                    events: &EventRef::visible(&events, viewer),
                    to_act,
                    legal_actions: legal,
                    seed: seed.map(str::to_string),
                    outcome,
                    by_clock,
                    clock: clock.cloned(),
                }
                .to_text();
                let frame = frames.frame(&serde_json::to_string(patch).unwrap(), &events, viewer, legal.get());
                assert_eq!(frame, expected);
                if let Some((before, shared)) = &last {
                    assert_eq!(*before == viewer, shared.as_str().as_ptr() == frame.as_str().as_ptr(), "{viewer:?}");
                }
                last = Some((viewer, frame));
            }
            assert_eq!(frames.events_used, 2, "the events are written once per audience");
        }
    }

    #[test]
    fn a_snapshot_is_the_text_of_the_snapshot_message() {
        let game = GameId::random();
        let seats = ["Ana \"A\"".to_string(), "Bo".to_string()];
        let view_text = r#"{"fate":{"a/b":[1,2]},"turn":2,"who":"é\n"}"#;
        let view: Value = serde_json::from_str(view_text).unwrap();
        let legal_text = r#"[{"pick":12},{"pass":true}]"#;
        let legal = RawValue::from_string(legal_text.into()).unwrap();
        let outcome = Outcome::from_scores(vec![3, 1], vec![]);
        let clock = Clock { seats: vec![game_core::Seat(1)], remaining_ms: 1500 };
        let to_act = [game_core::Seat(1)];
        for (seat, seed, outcome, clock) in [
            (Some(game_core::Seat(0)), None, None, None),
            (None, Some("00ff".to_string()), Some(&outcome), Some(clock.clone())),
            (Some(game_core::Seat(1)), None, None, Some(clock)),
        ] {
            let expected = ServerMsg::Snapshot {
                game: &game,
                catalog_id: "knights-templar",
                version: 7,
                seat,
                seats: &seats,
                view: &view,
                to_act: &to_act,
                legal_actions: &legal,
                seed_commitment: "c0ffee",
                seed: seed.clone(),
                outcome,
                clock: clock.clone(),
            }
            .to_text();
            let written = SnapshotText {
                game: &game,
                catalog_id: "knights-templar",
                version: 7,
                seat,
                seats: &seats,
                view: view_text,
                to_act: &to_act,
                legal_actions: legal_text,
                seed_commitment: "c0ffee",
                seed,
                outcome,
                clock,
            }
            .to_text();
            assert_eq!(written, expected);
        }
    }

    #[test]
    fn an_ack_is_the_text_of_the_ack_message() {
        let game = GameId::random();
        for (req, version) in [(None, 0), (Some(0), 1), (Some(7), 10), (Some(u64::MAX), u64::MAX)] {
            assert_eq!(ack_text(req, &game, version), ServerMsg::Ack { req, game: &game, version }.to_text());
        }
    }

    #[test]
    fn a_borrowed_event_is_written_as_an_owned_one() {
        let events = two_events();
        for viewer in [Viewer::Seat(game_core::Seat(0)), Viewer::Seat(game_core::Seat(1)), Viewer::Spectator] {
            assert_eq!(
                serde_json::to_value(EventRef::visible(&events, viewer)).unwrap(),
                serde_json::to_value(EventOut::visible(&events, viewer)).unwrap()
            );
        }
        assert_eq!(EventRef::visible(&events, Viewer::Seat(game_core::Seat(0))).len(), 2);
        assert_eq!(EventRef::visible(&events, Viewer::Spectator).len(), 1);
    }

    #[test]
    fn unknown_types_and_malformed_json_get_their_own_codes() {
        assert_eq!(ClientMsg::parse("{").map_err(|e| e.0.code()), Err("proto/malformed"));
        assert_eq!(ClientMsg::parse("[1]").map_err(|e| e.0.code()), Err("proto/malformed"));
        assert_eq!(
            ClientMsg::parse(r#"{"type":"dance","req":4}"#).map_err(|(e, req)| (e.code(), req)),
            Err(("proto/unknown_type", Some(4)))
        );
        assert_eq!(ClientMsg::parse(r#"{"type":"action","game":"g"}"#).map_err(|e| e.0.code()), Err("proto/malformed"));
        assert_eq!(ClientMsg::parse(r#"{"type":"ping","req":1}"#), Ok(ClientMsg::Ping { req: Some(1) }));
        let big = format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(MAX_MESSAGE_BYTES));
        assert_eq!(ClientMsg::parse(&big).map_err(|e| e.0.code()), Err("proto/too_large"));
    }
}
