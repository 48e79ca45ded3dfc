//! Which lobby a finished game's rematch was offered in (see `lobby::rematch`).

use super::accounts::insert_bot_on;
use super::lobbies::insert_lobby_on;
use super::{text, Account, LobbyRecord, Store, StoreError};
use crate::ids::{now_ms, GameId, LobbyId};
use sqlx::Connection;

impl Store {
    /// Stores `lobby` as the rematch of `game`, with the accounts of the `bots` seated in it, all
    /// in one commit: when the game has a rematch already (another player asked at the same
    /// moment and was first), none of them is stored.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] when the game has a rematch already; a database failure.
    pub async fn insert_rematch_lobby(
        &self,
        game: &GameId,
        lobby: &LobbyRecord,
        bots: &[Account],
    ) -> Result<(), StoreError> {
        let mut lease = self.pool().acquire().await?;
        let mut tx = lease.begin().await?;
        for bot in bots {
            insert_bot_on(&mut tx, bot).await?;
        }
        insert_lobby_on(&mut tx, lobby).await?;
        sqlx::query("insert into rematches (game_id, lobby_id, created_at) values ($1, $2, $3)")
            .bind(game.as_str())
            .bind(lobby.id.as_str())
            .bind(now_ms())
            .execute(&mut *tx)
            .await
            .map_err(StoreError::from_insert)?;
        tx.commit().await?;
        lease.keep();
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
