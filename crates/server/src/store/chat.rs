//! Table chat: messages of a lobby's or a game's chat, and the host's mutes. Separate from the
//! action log (see `migrations/0004_chat.sql`).

use super::{int, opt_int, opt_text, text, Store, StoreError};
use crate::chat::{Author, ChatMessage, Room};
use crate::ids::{AccountId, GameId, LobbyId};
use sqlx::any::AnyRow;

fn message(row: &AnyRow) -> Result<ChatMessage, StoreError> {
    let room = match (opt_text(row, "lobby_id")?, opt_text(row, "game_id")?) {
        (Some(lobby), None) => Room::Lobby(LobbyId(lobby)),
        (None, Some(game)) => Room::Game(GameId(game)),
        _ => return Err(StoreError::Corrupt("chat message: not exactly one of lobby and game".into())),
    };
    Ok(ChatMessage {
        id: int(row, "id")?,
        room,
        from: Author {
            account: AccountId(text(row, "account_id")?),
            name: text(row, "name")?,
            seat: opt_int(row, "seat")?.and_then(|s| u64::try_from(s).ok()),
        },
        spectator: int(row, "spectator")? != 0,
        text: text(row, "text")?,
        at: int(row, "created_at")?,
    })
}

fn room_ids(room: &Room) -> (Option<&str>, Option<&str>) {
    match room {
        Room::Lobby(id) => (Some(id.as_str()), None),
        Room::Game(id) => (None, Some(id.as_str())),
    }
}

impl Store {
    /// Stores a chat message.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] when its id is taken; a database failure.
    pub async fn insert_chat(&self, msg: &ChatMessage) -> Result<(), StoreError> {
        let (lobby, game) = room_ids(&msg.room);
        sqlx::query(
            "insert into chat_messages (id, lobby_id, game_id, account_id, name, seat, spectator, text, created_at) \
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(msg.id)
        .bind(lobby)
        .bind(game)
        .bind(msg.from.account.as_str())
        .bind(&msg.from.name)
        .bind(msg.from.seat.and_then(|s| i64::try_from(s).ok()))
        .bind(i64::from(msg.spectator))
        .bind(&msg.text)
        .bind(msg.at)
        .execute(self.pool())
        .await
        .map_err(StoreError::from_insert)?;
        Ok(())
    }

    /// The last `limit` messages of a room, oldest first.
    ///
    /// # Errors
    /// When the database fails or a row is unreadable.
    pub async fn recent_chat(&self, room: &Room, limit: i64) -> Result<Vec<ChatMessage>, StoreError> {
        let column = match room {
            Room::Lobby(_) => "lobby_id",
            Room::Game(_) => "game_id",
        };
        let id = room.key().1;
        let rows = sqlx::query(&format!(
            "select id, lobby_id, game_id, account_id, name, seat, spectator, text, created_at \
             from chat_messages where {column} = $1 order by id desc limit $2"
        ))
        .bind(id)
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        let mut messages = rows.iter().map(message).collect::<Result<Vec<_>, _>>()?;
        messages.reverse();
        Ok(messages)
    }

    /// What a new follower of `room` is shown: [`Store::recent_chat`] and, with a lobby,
    /// [`Store::chat_mutes`] of it, read in one statement (every subscribe reads both, and a
    /// query's round trip costs more than its work).
    ///
    /// # Errors
    /// When the database fails or a row is unreadable.
    pub async fn chat_on_follow(
        &self,
        room: &Room,
        lobby: Option<&LobbyId>,
        limit: i64,
    ) -> Result<(Vec<ChatMessage>, Vec<AccountId>), StoreError> {
        let Some(lobby) = lobby else { return Ok((self.recent_chat(room, limit).await?, Vec::new())) };
        let column = match room {
            Room::Lobby(_) => "lobby_id",
            Room::Game(_) => "game_id",
        };
        // A mute is a row with `muted` = 1 and only its account and time set.
        let rows = sqlx::query(&format!(
            "select * from (select id, lobby_id, game_id, account_id, name, seat, spectator, text, created_at, \
             0 as muted from chat_messages where {column} = $1 order by id desc limit $2) recent \
             union all \
             select null, null, null, account_id, null, null, null, null, created_at, 1 \
             from chat_mutes where lobby_id = $3"
        ))
        .bind(room.key().1)
        .bind(limit)
        .bind(lobby.as_str())
        .fetch_all(self.pool())
        .await?;
        let (mut messages, mut mutes) = (Vec::new(), Vec::new());
        for row in &rows {
            if int(row, "muted")? == 0 {
                messages.push(message(row)?);
            } else {
                mutes.push((int(row, "created_at")?, text(row, "account_id")?));
            }
        }
        messages.sort_by_key(|m| m.id);
        mutes.sort();
        Ok((messages, mutes.into_iter().map(|(_, account)| AccountId(account)).collect()))
    }

    /// Mutes (or unmutes) `account` in lobby `lobby`'s chat and its game's.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn set_chat_mute(&self, lobby: &LobbyId, account: &AccountId, muted: bool) -> Result<(), StoreError> {
        if muted {
            sqlx::query(
                "insert into chat_mutes (lobby_id, account_id, created_at) values ($1, $2, $3) \
                 on conflict (lobby_id, account_id) do nothing",
            )
            .bind(lobby.as_str())
            .bind(account.as_str())
            .bind(crate::ids::now_ms())
            .execute(self.pool())
            .await?;
        } else {
            sqlx::query("delete from chat_mutes where lobby_id = $1 and account_id = $2")
                .bind(lobby.as_str())
                .bind(account.as_str())
                .execute(self.pool())
                .await?;
        }
        Ok(())
    }

    /// Whether `account` has written in lobby `lobby`'s chat or in the chat of its game `game`.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn wrote_in_chat(
        &self,
        lobby: &LobbyId,
        game: Option<&GameId>,
        account: &AccountId,
    ) -> Result<bool, StoreError> {
        let row = sqlx::query(
            "select 1 as wrote from chat_messages where account_id = $1 and (lobby_id = $2 or game_id = $3) limit 1",
        )
        .bind(account.as_str())
        .bind(lobby.as_str())
        .bind(game.map(GameId::as_str))
        .fetch_optional(self.pool())
        .await?;
        Ok(row.is_some())
    }

    /// The accounts muted in lobby `lobby`, in the order they were muted.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn chat_mutes(&self, lobby: &LobbyId) -> Result<Vec<AccountId>, StoreError> {
        let rows = sqlx::query("select account_id from chat_mutes where lobby_id = $1 order by created_at, account_id")
            .bind(lobby.as_str())
            .fetch_all(self.pool())
            .await?;
        rows.iter().map(|r| text(r, "account_id").map(AccountId)).collect()
    }
}
