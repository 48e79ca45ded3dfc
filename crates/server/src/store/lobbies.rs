//! Lobbies: one JSON document each, with the columns the listing needs.

use super::accounts::insert_bot_on;
use super::{int, text, Account, Store, StoreError};
use crate::ids::{now_ms, AccountId, LobbyId};
use crate::lobby::LobbyStatus;
use sqlx::{AnyConnection, Connection};

/// A stored lobby.
#[derive(Clone, Debug, PartialEq)]
pub struct LobbyRecord {
    /// Its id.
    pub id: LobbyId,
    /// The catalog id of its game.
    pub game: String,
    /// Listed publicly.
    pub public: bool,
    /// Open or started.
    pub status: LobbyStatus,
    /// Its host.
    pub host: AccountId,
    /// The whole lobby state (see `lobby::Lobby`), as its JSON text.
    pub state: String,
}

fn record(row: &sqlx::any::AnyRow) -> Result<LobbyRecord, StoreError> {
    Ok(LobbyRecord {
        id: LobbyId(text(row, "id")?),
        game: text(row, "game")?,
        public: int(row, "public")? != 0,
        status: LobbyStatus::parse(&text(row, "status")?)?,
        host: AccountId(text(row, "host")?),
        state: text(row, "state")?,
    })
}

impl Store {
    /// Inserts a new lobby.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn insert_lobby(&self, lobby: &LobbyRecord) -> Result<(), StoreError> {
        let mut lease = self.pool().acquire().await?;
        insert_lobby_on(&mut lease, lobby).await?;
        lease.keep();
        Ok(())
    }

    /// Saves a lobby's new state with the accounts of the `bots` it newly seats, in one commit;
    /// with `expected`, only if the stored state is still that (cluster mode: two nodes changing
    /// one lobby at once cannot both win). False, and nothing stored, when it was not.
    ///
    /// # Errors
    /// When the database fails (nothing is stored then).
    pub async fn update_lobby_with(
        &self,
        lobby: &LobbyRecord,
        expected: Option<&str>,
        bots: &[Account],
    ) -> Result<bool, StoreError> {
        if bots.is_empty() {
            let mut lease = self.pool().acquire().await?;
            let written = update_lobby_on(&mut lease, lobby, expected).await?;
            lease.keep();
            return Ok(written);
        }
        let mut lease = self.pool().acquire().await?;
        let mut tx = lease.begin().await?;
        for bot in bots {
            insert_bot_on(&mut tx, bot).await?;
        }
        if !update_lobby_on(&mut tx, lobby, expected).await? {
            // Dropped without a commit: the bots' accounts go with it.
            return Ok(false);
        }
        tx.commit().await?;
        lease.keep();
        Ok(true)
    }

    /// One lobby.
    ///
    /// # Errors
    /// When the database fails or the row is unreadable.
    pub async fn lobby(&self, id: &LobbyId) -> Result<Option<LobbyRecord>, StoreError> {
        let row = sqlx::query("select id, game, public, status, host, state from lobbies where id = $1")
            .bind(id.as_str())
            .fetch_optional(self.pool())
            .await?;
        row.as_ref().map(record).transpose()
    }

    /// The newest public lobbies that have not started, newest first.
    ///
    /// # Errors
    /// When the database fails or a row is unreadable.
    pub async fn public_open_lobbies(&self, limit: i64) -> Result<Vec<LobbyRecord>, StoreError> {
        let rows = sqlx::query(
            "select id, game, public, status, host, state from lobbies where public = 1 and status = 'open' \
             order by created_at desc limit $1",
        )
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        rows.iter().map(record).collect()
    }
}

impl LobbyStatus {
    /// The status column's value.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            LobbyStatus::Open => "open",
            LobbyStatus::Started => "started",
        }
    }

    fn parse(s: &str) -> Result<LobbyStatus, StoreError> {
        match s {
            "open" => Ok(LobbyStatus::Open),
            "started" => Ok(LobbyStatus::Started),
            other => Err(StoreError::Corrupt(format!("status: unknown lobby status {other:?}"))),
        }
    }
}

/// Writes a lobby's new state on `conn`; with `expected`, only over that stored state. Whether
/// it was written.
async fn update_lobby_on(
    conn: &mut AnyConnection,
    lobby: &LobbyRecord,
    expected: Option<&str>,
) -> Result<bool, StoreError> {
    const SET: &str =
        "update lobbies set public = $1, status = $2, host = $3, state = $4, updated_at = $5 where id = $6";
    const SET_OVER: &str = "update lobbies set public = $1, status = $2, host = $3, state = $4, updated_at = $5 \
                            where id = $6 and state = $7";
    let mut query = sqlx::query(if expected.is_some() { SET_OVER } else { SET })
        .bind(i64::from(lobby.public))
        .bind(lobby.status.as_str())
        .bind(lobby.host.as_str())
        .bind(lobby.state.as_str())
        .bind(now_ms())
        .bind(lobby.id.as_str());
    if let Some(expected) = expected {
        query = query.bind(expected);
    }
    let done = query.execute(conn).await?;
    Ok(expected.is_none() || done.rows_affected() == 1)
}

/// Inserts a new lobby on `conn` (alone, or in the caller's transaction).
pub(super) async fn insert_lobby_on(conn: &mut AnyConnection, lobby: &LobbyRecord) -> Result<(), StoreError> {
    let now = now_ms();
    sqlx::query(
        "insert into lobbies (id, game, public, status, host, state, created_at, updated_at) \
         values ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(lobby.id.as_str())
    .bind(&lobby.game)
    .bind(i64::from(lobby.public))
    .bind(lobby.status.as_str())
    .bind(lobby.host.as_str())
    .bind(lobby.state.as_str())
    .bind(now)
    .bind(now)
    .execute(conn)
    .await
    .map_err(StoreError::from_insert)?;
    Ok(())
}
