//! Table chat on a socket: the history and the live messages of every lobby and game the socket
//! follows, writing to them, and the host's mute (see [`crate::chat`] for the rules).

use super::Connection;
use crate::chat::{clean_text, Access, Author, ChatError, ChatMessage, Delivery, Room, HISTORY};
use crate::error::ApiError;
use crate::ids::{now_ms, AccountId, GameId, LobbyId};
use crate::lobby::registry::Kick;
use crate::outbox::Frame;
use crate::protocol::{error_text, lobby_error_text};
use serde_json::json;
use tokio::task::JoinHandle;

/// One room the socket reads: the task that forwards it, and what its access check needs.
pub(super) struct ChatFollow {
    forward: JoinHandle<()>,
    access: Access,
    code: Option<String>,
}

impl Drop for ChatFollow {
    fn drop(&mut self) {
        self.forward.abort();
    }
}

/// An error about a room, without a request: the room is named as the lobby and game errors name theirs.
fn room_error_text(error: &ApiError, room: &Room) -> Frame {
    match room {
        Room::Lobby(id) => lobby_error_text(error, id),
        Room::Game(id) => error_text(error, None, Some(id)),
    }
}

fn lobby_of(access: &Access) -> Option<LobbyId> {
    match access {
        Access::Lobby(id) => Some(id.clone()),
        Access::Game(info) => info.lobby.clone(),
    }
}

impl Connection {
    /// Starts reading `room` (after the lobby follow or game subscribe it belongs to succeeded):
    /// one `chat_history` with the recent messages and the muted accounts (unless there are none),
    /// then every new message.
    pub(super) async fn follow_chat(&mut self, room: Room, access: Access, code: Option<String>) {
        if self.chats.get(&room).is_some_and(|f| f.code == code) {
            return;
        }
        // Subscribed before the history is read, so that nothing said in between is missed; what
        // the history already holds is skipped below.
        let mut live = self.state.chat.subscribe(&room);
        let lobby = lobby_of(&access);
        let (history, muted) = if self.state.chat.is_quiet(&room) {
            (Vec::new(), Vec::new())
        } else {
            let ticket = self.state.chat.quiet_ticket();
            match self.state.store.chat_on_follow(&room, lobby.as_ref(), HISTORY).await {
                Ok((history, muted)) => {
                    if history.is_empty() && muted.is_empty() {
                        self.state.chat.mark_quiet(&room, ticket);
                    }
                    (history, muted)
                }
                Err(e) => {
                    tracing::error!(error = %e, "chat history unreadable");
                    (Vec::new(), Vec::new())
                }
            }
        };
        // Nothing is sent for a chat with nothing to show: a quiet table's followers get exactly
        // the messages they got before chat existed.
        if !history.is_empty() || !muted.is_empty() {
            let (key, id) = room.key();
            let mut message = json!({
                "type": "chat_history",
                "messages": history.iter().map(ChatMessage::to_json).collect::<Vec<_>>(),
                "muted": muted,
            });
            message[key] = json!(id);
            self.send(message.to_string().into());
        }
        let seen = history.last().map_or(i64::MIN, |m| m.id);
        let (state, out, account) = (self.state.clone(), self.out.clone(), self.account.as_ref().map(|a| a.id.clone()));
        let (check, check_code, check_room) = (access.clone(), code.clone(), room.clone());
        let forward = tokio::spawn(async move {
            loop {
                match live.recv().await {
                    Ok(delivery) => {
                        if delivery.id.is_some_and(|id| id <= seen) {
                            continue;
                        }
                        // Asked again for every message: a removed member, or a follower without the
                        // code of a lobby that turned private, reads nothing more.
                        if let Err(e) = check.check(&state, account.as_ref(), check_code.as_deref()).await {
                            out.send(room_error_text(&e, &check_room));
                            break;
                        }
                        if !out.send(delivery.text) {
                            break;
                        }
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
                }
            }
        });
        self.chats.insert(room, ChatFollow { forward, access, code });
    }

    /// Stops reading `room`.
    pub(super) fn unfollow_chat(&mut self, room: &Room) {
        self.chats.remove(room);
    }

    /// The host removed someone: if it is this socket's account, it stops reading the lobby's
    /// chat and its game's at once (the lobby and game messages tell it why).
    pub(super) fn kicked_from_chat(&mut self, kick: &Kick) {
        if self.account.as_ref().is_some_and(|a| a.id == kick.account) {
            self.unfollow_chat(&Room::Lobby(kick.lobby.clone()));
            if let Some(game) = &kick.game {
                self.unfollow_chat(&Room::Game(game.clone()));
            }
        }
    }

    /// Writes `text` to a lobby's or a game's chat.
    ///
    /// # Errors
    /// `chat/no_room`, `auth/missing_token`, `chat/empty`, `chat/control_character`,
    /// `chat/too_long`, `chat/not_following`, `proto/rate_limited`, `lobby/kicked`,
    /// `lobby/invite_required`, `chat/muted`, or a store failure.
    pub(super) async fn chat(
        &mut self,
        lobby: Option<LobbyId>,
        game: Option<GameId>,
        text: &str,
    ) -> Result<(), ApiError> {
        let room = match (lobby, game) {
            (Some(lobby), None) => Room::Lobby(lobby),
            (None, Some(game)) => Room::Game(game),
            _ => return Err(ChatError::NoRoom.into()),
        };
        let account = self.account.clone().ok_or(ApiError::MissingToken)?;
        let text = clean_text(text)?;
        let follow = self.chats.get(&room).ok_or(ChatError::NotFollowing)?;
        self.state.limits.chat(&account.id)?;
        let presence = follow.access.check(&self.state, Some(&account.id), follow.code.as_deref()).await?;
        if let Some(lobby) = &presence.lobby {
            if self.state.store.chat_mutes(lobby).await?.contains(&account.id) {
                return Err(ChatError::Muted.into());
            }
        }
        let message = ChatMessage {
            id: self.state.chat.next_id(),
            room,
            from: Author { account: account.id, name: account.name, seat: presence.seat },
            spectator: presence.spectator,
            text: text.to_string(),
            at: now_ms(),
        };
        let stored = self.state.store.insert_chat(&message).await;
        // Even when the store failed: it may have kept the message and lost the answer.
        self.state.chat.spoke(&message.room);
        stored?;
        let delivery = Delivery { id: Some(message.id), text: message.to_json().to_string().into() };
        self.state.chat.publish(&message.room, delivery);
        Ok(())
    }

    /// The host mutes (or unmutes) someone in the lobby's chat and its game's: a member, or a
    /// spectator who has written in either (a public game's watchers are no members, and the
    /// host must be able to silence one).
    /// Someone neither a member nor an author there is `lobby/no_such_member`.
    ///
    /// # Errors
    /// `auth/missing_token`, `lobby/not_found`, `lobby/not_host`, `chat/cannot_mute_host`,
    /// `lobby/no_such_member`, or a store failure.
    pub(super) async fn mute(&mut self, id: LobbyId, target: AccountId, muted: bool) -> Result<(), ApiError> {
        let account = self.account.as_ref().ok_or(ApiError::MissingToken)?;
        let lobby = self.state.lobbies.get(&id).await?;
        if lobby.host != account.id {
            return Err(ApiError::NotHost);
        }
        if target == lobby.host {
            return Err(ChatError::CannotMuteHost.into());
        }
        if !lobby.is_member(&target) && !self.state.store.wrote_in_chat(&id, lobby.game_id.as_ref(), &target).await? {
            return Err(ApiError::NoSuchMember);
        }
        let stored = self.state.store.set_chat_mute(&id, &target, muted).await;
        self.state.chat.mutes_changed();
        stored?;
        let notice = json!({"type": "chat_muted", "lobby": id, "account": target, "muted": muted});
        let lobby_room = Room::Lobby(id);
        if !self.chats.contains_key(&lobby_room) {
            // The host hears of it even without following the lobby.
            self.send(notice.to_string().into());
        }
        self.state.chat.publish(&lobby_room, Delivery { id: None, text: notice.to_string().into() });
        if let Some(game) = lobby.game_id {
            let mut notice = notice;
            notice["game"] = json!(game);
            self.state.chat.publish(&Room::Game(game), Delivery { id: None, text: notice.to_string().into() });
        }
        Ok(())
    }
}
