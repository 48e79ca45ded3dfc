//! Following lobbies on a socket: the lobby now, then every change for as long as the socket's
//! account may still see it.

use super::Connection;
use crate::error::ApiError;
use crate::ids::LobbyId;
use crate::protocol::{lobby_error_text, ServerMsg};

impl Connection {
    pub(super) async fn subscribe_lobby(&mut self, id: LobbyId, code: Option<String>) -> Result<(), ApiError> {
        if !self.lobbies.contains_key(&id) {
            self.room_for_one_more()?;
        }
        let (lobby, mut updates) = self.state.lobbies.follow(&id).await?;
        let account = self.account.as_ref().map(|a| a.id.clone());
        lobby.may_follow(account.as_ref(), code.as_deref())?;
        let lobby_json = serde_json::to_value(lobby.view(true)).unwrap_or_default();
        self.send(ServerMsg::Lobby { lobby: lobby_json }.to_text());
        let out = self.out.clone();
        let lobby_id = id.clone();
        let forward = tokio::spawn(async move {
            loop {
                match updates.recv().await {
                    Ok(update) => {
                        // Checked on every change: a member the host removed (or, once the lobby
                        // turns private, a follower without its code) stops here, told why.
                        if let Err(e) = update.lobby.may_follow(account.as_ref(), code.as_deref()) {
                            out.send(lobby_error_text(&e, &lobby_id));
                            break;
                        }
                        if !out.send(update.text) {
                            break;
                        }
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
                }
            }
        });
        match self.lobbies.insert(id, forward) {
            Some(old) => old.abort(),
            None => crate::metrics::subscriptions(1.0),
        }
        Ok(())
    }

    pub(super) fn unsubscribe_lobby(&mut self, id: &LobbyId) {
        if let Some(forward) = self.lobbies.remove(id) {
            crate::metrics::subscriptions(-1.0);
            forward.abort();
        }
    }
}
