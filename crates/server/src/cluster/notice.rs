//! Notices every node must hear (`chapterhouse.notice`): a lobby's new state (each node that
//! holds the lobby in memory takes it and tells its followers), a kick, a revoked token, and what
//! is said in a chat (a message, a mute, a rematch offer: every delivery of [`ChatRooms`]).
//!
//! [`ChatRooms`]: crate::chat::ChatRooms
//!
//! This is also the general "deliver to the followers of lobby X on every node" path: anything
//! published with [`Node::publish`] reaches [`Notice::apply`] on every other node, which hands it
//! to that node's local fan-out (the lobby's broadcast channel, the sessions, ...).

use super::Node;
use crate::chat::{Delivery, Room};
use crate::ids::{GameId, LobbyId};
use crate::lobby::registry::Kick;
use crate::lobby::Lobby;
use crate::state::AppState;
use bytes::Bytes;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

const SUBJECT: &str = "chapterhouse.notice";

/// Something every node must hear.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Notice {
    /// A lobby changed (already stored): its new state.
    Lobby {
        /// The lobby now.
        lobby: Box<Lobby>,
    },
    /// The host removed someone from a lobby.
    Kick {
        /// The lobby.
        lobby: LobbyId,
        /// What happened.
        kick: Kick,
    },
    /// A token was revoked (sign-out): sockets opened with it close.
    Revoked {
        /// The token's hash.
        token_hash: String,
    },
    /// A chat delivery (already stored where it is a message), for the room's followers on every
    /// node. The room is a lobby's or a game's: exactly one of the two is set.
    Chat {
        /// A lobby's chat.
        lobby: Option<LobbyId>,
        /// A game's chat.
        game: Option<GameId>,
        /// The message's id (none for notices such as a mute).
        id: Option<i64>,
        /// The JSON text frame the followers get.
        text: String,
    },
}

#[derive(Serialize, Deserialize)]
struct Envelope {
    origin: String,
    notice: Notice,
}

impl Node {
    /// Tells every other node. Sent before the caller answers its client; it arrives at the
    /// others within a NATS round trip (they do not confirm it: a node that misses it reloads the
    /// lobby from the store when it next loads it, and a revoked token is refused by the store).
    pub async fn publish(&self, notice: Notice) {
        let envelope = Envelope { origin: self.id.clone(), notice };
        let Ok(payload) = serde_json::to_vec(&envelope) else { return };
        if let Err(e) = self.nats.publish(SUBJECT, Bytes::from(payload)).await {
            tracing::warn!(error = %e, "notice not published");
        }
        let _ = self.nats.flush().await;
    }
}

impl Notice {
    /// Applies a notice from another node to this one.
    async fn apply(self, state: &AppState) {
        match self {
            Notice::Lobby { lobby } => state.lobbies.changed_elsewhere(*lobby).await,
            Notice::Kick { kick, .. } => state.lobbies.kicked_elsewhere(kick),
            Notice::Revoked { token_hash } => state.sessions.revoke(&token_hash),
            Notice::Chat { lobby, game, id, text } => {
                let room = match (lobby, game) {
                    (Some(lobby), None) => Room::Lobby(lobby),
                    (None, Some(game)) => Room::Game(game),
                    _ => return tracing::warn!("a chat notice names no room, or two"),
                };
                state.chat.publish_here(&room, Delivery { id, text: text.into() });
            }
        }
    }
}

pub(super) async fn start(node: Arc<Node>, state: AppState, stop: CancellationToken) -> anyhow::Result<()> {
    let mut notices = node.nats.subscribe(SUBJECT).await?;
    // Chat deliveries made here go out in the order they were made, one task publishing them.
    let (relay, mut said) = tokio::sync::mpsc::unbounded_channel::<(Room, Delivery)>();
    state.chat.relay_to(relay);
    let publisher = Arc::clone(&node);
    let publisher_stop = stop.clone();
    tokio::spawn(async move {
        loop {
            let (room, delivery) = tokio::select! {
                _ = publisher_stop.cancelled() => break,
                next = said.recv() => match next {
                    Some(next) => next,
                    None => break,
                },
            };
            let (lobby, game) = match room {
                Room::Lobby(lobby) => (Some(lobby), None),
                Room::Game(game) => (None, Some(game)),
            };
            let text = delivery.text.to_string();
            publisher.publish(Notice::Chat { lobby, game, id: delivery.id, text }).await;
        }
    });
    tokio::spawn(async move {
        while let Some(message) = super::next_or_stop(&mut notices, &stop).await {
            match serde_json::from_slice::<Envelope>(&message.payload) {
                Ok(envelope) if envelope.origin != node.id => envelope.notice.apply(&state).await,
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "unreadable notice"),
            }
        }
    });
    Ok(())
}
