//! Which lobby a finished game's rematch was offered in (see `lobby::rematch`).

use super::{text, Store, StoreError};
use crate::ids::{now_ms, GameId, LobbyId};

impl Store {
    /// Records `lobby` as the rematch of `game`.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] when the game has a rematch already; a database failure.
    pub async fn insert_rematch(&self, game: &GameId, lobby: &LobbyId) -> Result<(), StoreError> {
        sqlx::query("insert into rematches (game_id, lobby_id, created_at) values ($1, $2, $3)")
            .bind(game.as_str())
            .bind(lobby.as_str())
            .bind(now_ms())
            .execute(self.pool())
            .await
            .map_err(StoreError::from_insert)?;
        Ok(())
    }

    /// The lobby of `game`'s rematch, if one was offered.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn rematch_lobby(&self, game: &GameId) -> Result<Option<LobbyId>, StoreError> {
        let row = sqlx::query("select lobby_id from rematches where game_id = $1")
            .bind(game.as_str())
            .fetch_optional(self.pool())
            .await?;
        row.map(|r| text(&r, "lobby_id").map(LobbyId)).transpose()
    }
}
