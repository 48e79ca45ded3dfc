//! Table chat: what may be written, who may read and write a lobby's or a game's chat, and the
//! live rooms that carry new messages to followers.
//!
//! Chat is kept apart from the game: its rows live in their own table (see `store::chat`), never
//! in the action log, so a game's verifiable log and its hashes do not change. Who may read a
//! room is who may follow the lobby or watch the game ([`crate::lobby::Lobby::may_follow`],
//! [`crate::access`]), checked again for every message delivered, so a member the host removed
//! (or a follower without the code of a lobby that turned private) stops reading at once.

use crate::error::ApiError;
use crate::ids::{AccountId, GameId, LobbyId};
use crate::outbox::Frame;
use crate::state::AppState;
use crate::table::TableInfo;
use serde::Serialize;
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// The most characters of one message, after trimming.
pub const MAX_CHARS: usize = 500;

/// How many recent messages come with a follow or a subscribe.
pub const HISTORY: i64 = 50;

/// Why a chat message or a mute was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChatError {
    /// Nothing left after trimming.
    #[error("the message is empty")]
    Empty,
    /// Longer than [`MAX_CHARS`] after trimming.
    #[error("a message is at most {limit} characters; this one has {chars}")]
    TooLong {
        /// The limit.
        limit: usize,
        /// The message's length.
        chars: usize,
    },
    /// A control character (a line break included): chat is one line of plain text.
    #[error("a message may not hold control characters (line breaks included)")]
    ControlCharacter,
    /// The message names neither a lobby nor a game, or both.
    #[error("a chat message names exactly one of \"lobby\" and \"game\"")]
    NoRoom,
    /// The socket does not follow that lobby or game.
    #[error("follow the lobby (subscribe_lobby) or watch the game (subscribe) before writing to its chat")]
    NotFollowing,
    /// The host of the lobby muted this account.
    #[error("the host has muted you in this lobby")]
    Muted,
    /// The host tried to mute themself.
    #[error("the host cannot be muted")]
    CannotMuteHost,
}

impl ChatError {
    /// The stable code, e.g. `chat/too_long`.
    pub fn code(&self) -> &'static str {
        match self {
            ChatError::Empty => "chat/empty",
            ChatError::TooLong { .. } => "chat/too_long",
            ChatError::ControlCharacter => "chat/control_character",
            ChatError::NoRoom => "chat/no_room",
            ChatError::NotFollowing => "chat/not_following",
            ChatError::Muted => "chat/muted",
            ChatError::CannotMuteHost => "chat/cannot_mute_host",
        }
    }

    /// The HTTP status the code stands for (the socket carries only the code).
    pub fn status(&self) -> axum::http::StatusCode {
        use axum::http::StatusCode;
        match self {
            ChatError::Empty | ChatError::TooLong { .. } | ChatError::ControlCharacter | ChatError::NoRoom => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            ChatError::NotFollowing => StatusCode::CONFLICT,
            ChatError::Muted | ChatError::CannotMuteHost => StatusCode::FORBIDDEN,
        }
    }

    /// Machine-readable details, for the codes that have them.
    pub fn details(&self) -> Option<Value> {
        match self {
            ChatError::TooLong { limit, chars } => Some(json!({"limit": limit, "chars": chars})),
            _ => None,
        }
    }
}

impl From<ChatError> for ApiError {
    fn from(e: ChatError) -> Self {
        ApiError::Chat(e)
    }
}

/// The message a client wrote, trimmed, if it may be posted.
///
/// # Errors
/// `chat/empty`, `chat/control_character`, `chat/too_long`.
pub fn clean_text(text: &str) -> Result<&str, ChatError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ChatError::Empty);
    }
    if text.chars().any(char::is_control) {
        return Err(ChatError::ControlCharacter);
    }
    let chars = text.chars().count();
    if chars > MAX_CHARS {
        return Err(ChatError::TooLong { limit: MAX_CHARS, chars });
    }
    Ok(text)
}

/// A chat: a lobby's or a game's.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Room {
    /// A lobby's chat.
    Lobby(LobbyId),
    /// A game's chat.
    Game(GameId),
}

impl Room {
    /// The room's field in a message: `"lobby": id` or `"game": id`.
    pub fn key(&self) -> (&'static str, &str) {
        match self {
            Room::Lobby(id) => ("lobby", id.as_str()),
            Room::Game(id) => ("game", id.as_str()),
        }
    }
}

/// Who wrote a message, as every reader sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Author {
    /// Their account.
    pub account: AccountId,
    /// Their display name when they wrote.
    pub name: String,
    /// Their seat (the game's seat in a game's chat, the lobby's seat in a lobby's), or null.
    pub seat: Option<u64>,
}

/// One stored message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatMessage {
    /// Increasing with time: the order of the room's messages.
    pub id: i64,
    /// The room.
    pub room: Room,
    /// The author.
    pub from: Author,
    /// Whether the author wrote as a spectator (not a member of the lobby; no seat in the game).
    pub spectator: bool,
    /// The trimmed text.
    pub text: String,
    /// When, in unix milliseconds.
    pub at: i64,
}

impl ChatMessage {
    /// The message as clients receive it (also inside `chat_history`).
    pub fn to_json(&self) -> Value {
        let (key, id) = self.room.key();
        let mut value = json!({
            "type": "chat", "id": self.id, "from": self.from, "spectator": self.spectator,
            "text": self.text, "at": self.at,
        });
        value[key] = Value::String(id.to_string());
        value
    }
}

/// Where a reader or writer stands in a room: their seat, whether they are a spectator, and the
/// lobby whose host's mutes apply (a game's chat follows the lobby it came from).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Presence {
    /// Their seat, if any.
    pub seat: Option<u64>,
    /// Not a member of the lobby, or no seat in the game.
    pub spectator: bool,
    /// The lobby whose mutes apply.
    pub lobby: Option<LobbyId>,
}

/// What the access check of a room needs: for a game, its fixed facts (taken from the table the
/// socket subscribed to).
#[derive(Clone)]
pub enum Access {
    /// A lobby's chat: the lobby's own rule.
    Lobby(LobbyId),
    /// A game's chat: who may watch the game.
    Game(Arc<TableInfo>),
}

impl Access {
    /// Whether `account`, having given `code`, may read this room now, and as whom.
    ///
    /// # Errors
    /// `lobby/not_found`, `lobby/kicked`, `lobby/invite_required`.
    pub async fn check(
        &self,
        state: &AppState,
        account: Option<&AccountId>,
        code: Option<&str>,
    ) -> Result<Presence, ApiError> {
        match self {
            Access::Lobby(id) => {
                let lobby = state.lobbies.get(id).await?;
                lobby.may_follow(account, code)?;
                let member = account.is_some_and(|a| lobby.is_member(a));
                let seat = account.and_then(|a| {
                    lobby.seats.iter().position(|s| s.as_ref().is_some_and(|h| &h.account == a && !h.bot))
                });
                Ok(Presence { seat: seat.map(|s| s as u64), spectator: !member, lobby: Some(id.clone()) })
            }
            Access::Game(info) => {
                let viewer = info.access().viewer(&state.lobbies, account, code).await?;
                let seat = match viewer {
                    game_core::Viewer::Seat(seat) => Some(u64::from(seat.0)),
                    game_core::Viewer::Spectator => None,
                };
                Ok(Presence { seat, spectator: seat.is_none(), lobby: info.lobby.clone() })
            }
        }
    }
}

/// Something a room's followers receive: a message (with its id, so a follower can skip what its
/// history already held) or a notice such as a mute.
#[derive(Clone, Debug)]
pub struct Delivery {
    /// The message's id; `None` for notices.
    pub id: Option<i64>,
    /// The JSON text frame.
    pub text: Frame,
}

/// The live rooms: one broadcast channel per room someone follows.
#[derive(Debug, Default)]
pub struct ChatRooms {
    rooms: Mutex<LiveRooms>,
    last_id: AtomicI64,
    /// In cluster mode, where every delivery also goes so that the other nodes' followers get it
    /// (see `cluster::notice`); unset on a single server.
    relay: std::sync::OnceLock<tokio::sync::mpsc::UnboundedSender<(Room, Delivery)>>,
    /// The rooms known to hold no message and no mute (see [`ChatRooms::is_quiet`]).
    quiet: Mutex<QuietRooms>,
}

/// The broadcast channel of every room someone followed, and how many there may be before those
/// nobody follows any more are dropped.
#[derive(Debug, Default)]
struct LiveRooms {
    channels: HashMap<Room, broadcast::Sender<Delivery>>,
    /// When `channels` holds this many, rooms nobody follows are dropped (then this becomes twice
    /// what is left, and at least [`MIN_PRUNE`]): each subscribe costs O(1) on average, where
    /// dropping them at every subscribe cost O(rooms), O(sockets²) for a server filling up.
    prune_at: usize,
}

/// Fewer live rooms than this are never pruned.
const MIN_PRUNE: usize = 64;

/// Rooms whose store was read and found to hold nothing to show a new follower, and a count of
/// the messages and mute changes since the server started: a room is marked quiet only if
/// nothing was said or muted anywhere while its store was read.
#[derive(Debug, Default)]
struct QuietRooms {
    changes: u64,
    rooms: HashSet<Room>,
}

/// At most this many quiet rooms are remembered; then they are forgotten all at once (and read
/// from the store again).
const MAX_QUIET: usize = 65_536;

/// How many deliveries may wait for one slow follower before it skips some.
const ROOM_BUFFER: usize = 64;

impl ChatRooms {
    /// A receiver of everything said in `room` from now on.
    pub fn subscribe(&self, room: &Room) -> broadcast::Receiver<Delivery> {
        let mut rooms = self.rooms.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        // Rooms nobody follows any more are dropped here, once their number has doubled, so the
        // map does not grow beyond twice the rooms followed.
        if rooms.channels.len() >= rooms.prune_at {
            rooms.channels.retain(|_, tx| tx.receiver_count() > 0);
            rooms.prune_at = (2 * rooms.channels.len()).max(MIN_PRUNE);
        }
        rooms.channels.entry(room.clone()).or_insert_with(|| broadcast::channel(ROOM_BUFFER).0).subscribe()
    }

    /// How many rooms have a channel (followed, or not yet pruned).
    #[cfg(test)]
    fn channels(&self) -> usize {
        self.rooms.lock().unwrap_or_else(std::sync::PoisonError::into_inner).channels.len()
    }

    /// Sends to everyone following `room`: on this server, and through the relay (cluster mode) on
    /// every other node.
    pub fn publish(&self, room: &Room, delivery: Delivery) {
        if let Some(relay) = self.relay.get() {
            let _ = relay.send((room.clone(), delivery.clone()));
        }
        self.publish_here(room, delivery);
    }

    /// Sends to the followers of `room` on this server only (a delivery relayed from another node).
    pub fn publish_here(&self, room: &Room, delivery: Delivery) {
        let rooms = self.rooms.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(tx) = rooms.channels.get(room) {
            let _ = tx.send(delivery);
        }
    }

    /// From now on every delivery also goes to `relay`, in order (cluster mode). Set once.
    pub fn relay_to(&self, relay: tokio::sync::mpsc::UnboundedSender<(Room, Delivery)>) {
        let _ = self.relay.set(relay);
    }

    /// Whether `room` is known to hold no message and no mute, so that a new follower need not
    /// read its history from the store (every player reads it when subscribing to a game, and
    /// most games' chats stay empty). Only a single server knows: in cluster mode another node
    /// may write to any room, and this is always false.
    pub fn is_quiet(&self, room: &Room) -> bool {
        self.relay.get().is_none() && self.quiet_rooms().rooms.contains(room)
    }

    /// Taken before reading a room's history from the store; give it to
    /// [`ChatRooms::mark_quiet`] if the store held nothing.
    pub fn quiet_ticket(&self) -> u64 {
        self.quiet_rooms().changes
    }

    /// Remembers that `room` holds no message and no mute, as the store said when read after
    /// `ticket` was taken, unless something was said or muted since (the read may have missed it).
    pub fn mark_quiet(&self, room: &Room, ticket: u64) {
        let mut quiet = self.quiet_rooms();
        if quiet.changes != ticket {
            return;
        }
        if quiet.rooms.len() >= MAX_QUIET {
            quiet.rooms.clear();
        }
        quiet.rooms.insert(room.clone());
    }

    /// A message to `room` was stored: it is no longer quiet. Call it before the message is
    /// published, so that a follower that reads the store later finds it there.
    pub fn spoke(&self, room: &Room) {
        let mut quiet = self.quiet_rooms();
        quiet.changes += 1;
        quiet.rooms.remove(room);
    }

    /// A mute was set or lifted (in a lobby's room and its game's): no room is known quiet.
    pub fn mutes_changed(&self) {
        let mut quiet = self.quiet_rooms();
        quiet.changes += 1;
        quiet.rooms.clear();
    }

    fn quiet_rooms(&self) -> std::sync::MutexGuard<'_, QuietRooms> {
        self.quiet.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A new message id: microseconds since the epoch, and always above the last one given, so
    /// that ids order a room's messages even within one millisecond and across restarts.
    pub fn next_id(&self) -> i64 {
        let now = crate::ids::now_ms().saturating_mul(1000);
        let mut last = self.last_id.load(Ordering::Relaxed);
        loop {
            let next = now.max(last + 1);
            match self.last_id.compare_exchange(last, next, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return next,
                Err(seen) => last = seen,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_trimmed_and_empty_long_or_multi_line_text_is_refused() {
        assert_eq!(clean_text("  hello  "), Ok("hello"));
        assert_eq!(clean_text(" \t "), Err(ChatError::Empty));
        assert_eq!(clean_text("a\nb"), Err(ChatError::ControlCharacter));
        assert_eq!(clean_text("bell\u{7}"), Err(ChatError::ControlCharacter));
        let just_right = "é".repeat(MAX_CHARS);
        assert_eq!(clean_text(&format!(" {just_right} ")), Ok(just_right.as_str()), "characters, not bytes, count");
        assert_eq!(clean_text(&"x".repeat(MAX_CHARS + 1)), Err(ChatError::TooLong { limit: MAX_CHARS, chars: 501 }));
    }

    #[test]
    fn a_room_is_quiet_only_if_nothing_was_said_or_muted_while_its_store_was_read() {
        let rooms = ChatRooms::default();
        let (a, b) = (Room::Game(GameId("a".into())), Room::Lobby(LobbyId("b".into())));
        assert!(!rooms.is_quiet(&a), "unknown until read");
        let ticket = rooms.quiet_ticket();
        rooms.mark_quiet(&a, ticket);
        assert!(rooms.is_quiet(&a) && !rooms.is_quiet(&b));

        // A message stored while `b` was read: the read may have missed it.
        let ticket = rooms.quiet_ticket();
        rooms.spoke(&b);
        rooms.mark_quiet(&b, ticket);
        assert!(!rooms.is_quiet(&b));

        rooms.spoke(&a);
        assert!(!rooms.is_quiet(&a), "a message ends the quiet");

        let ticket = rooms.quiet_ticket();
        rooms.mark_quiet(&a, ticket);
        rooms.mark_quiet(&b, ticket);
        rooms.mutes_changed();
        assert!(!rooms.is_quiet(&a) && !rooms.is_quiet(&b), "a mute shows in every room of its lobby");

        // In cluster mode other nodes write to the rooms: nothing is known quiet.
        let ticket = rooms.quiet_ticket();
        rooms.mark_quiet(&a, ticket);
        rooms.relay_to(tokio::sync::mpsc::unbounded_channel().0);
        assert!(!rooms.is_quiet(&a));
    }

    #[test]
    fn rooms_nobody_follows_are_dropped_once_they_outnumber_those_followed() {
        let rooms = ChatRooms::default();
        let room = |n: usize| Room::Game(GameId(format!("g{n}")));
        // 100 rooms followed for good, then 10,000 followed once and left.
        let kept: Vec<_> = (0..100).map(|n| rooms.subscribe(&room(n))).collect();
        for n in 100..10_100 {
            drop(rooms.subscribe(&room(n)));
            assert!(rooms.channels() <= 2 * kept.len() + 1, "{} channels after room {n}", rooms.channels());
        }
        // The followed rooms still deliver.
        let mut first = kept.into_iter().next().expect("followed");
        rooms.publish(&room(0), Delivery { id: Some(1), text: Frame::from("hi".to_owned()) });
        assert_eq!(first.try_recv().map(|d| d.id), Ok(Some(1)));
        // Once nobody follows anything, few rooms are left.
        drop(first);
        for n in 20_000..20_300 {
            drop(rooms.subscribe(&room(n)));
        }
        assert!(rooms.channels() <= MIN_PRUNE, "{} channels", rooms.channels());
    }

    #[test]
    fn message_ids_increase_even_when_asked_for_within_one_microsecond() {
        let rooms = ChatRooms::default();
        let ids: Vec<i64> = (0..1000).map(|_| rooms.next_id()).collect();
        assert!(ids.windows(2).all(|w| w[0] < w[1]));
    }
}
