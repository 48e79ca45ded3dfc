//! What an account's page shows: one account by id, and the games it played with what its page
//! needs of each (see `http::social`).

use super::{int, json, opt_int, opt_text, text, Account, AccountKind, GameStatus, Store, StoreError};
use crate::ids::{AccountId, GameId};
use game_core::Outcome;

/// A game one account played, as its page lists it.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The game.
    pub id: GameId,
    /// The catalog id.
    pub game: String,
    /// The seat the account held.
    pub seat: usize,
    /// Seat names.
    pub seats: Vec<String>,
    /// Running, finished or broken.
    pub status: GameStatus,
    /// The result once finished.
    pub outcome: Option<Outcome>,
    /// Whether anyone may watch it.
    pub public: bool,
    /// Start time (unix ms).
    pub created_at: i64,
    /// End time (unix ms), once finished.
    pub finished_at: Option<i64>,
}

impl Store {
    /// One account.
    ///
    /// # Errors
    /// When the database fails or the row is unreadable.
    pub async fn account(&self, id: &AccountId) -> Result<Option<Account>, StoreError> {
        let row = sqlx::query("select id, name, kind from accounts where id = $1")
            .bind(id.as_str())
            .fetch_optional(self.pool())
            .await?;
        row.map(|r| {
            Ok(Account {
                id: AccountId(text(&r, "id")?),
                name: text(&r, "name")?,
                kind: match text(&r, "kind")?.as_str() {
                    "registered" => AccountKind::Registered,
                    "bot" => AccountKind::Bot,
                    _ => AccountKind::Guest,
                },
            })
        })
        .transpose()
    }

    /// The games `account` played, newest first, at most `limit`.
    ///
    /// # Errors
    /// When the database fails or a row is unreadable.
    pub async fn played_games(&self, account: &AccountId, limit: i64) -> Result<Vec<PlayedGame>, StoreError> {
        let rows = sqlx::query(
            "select g.id, g.game, p.seat, g.seats, g.status, g.outcome, g.public, g.created_at, g.finished_at \
             from game_players p join games g on g.id = p.game_id where p.account_id = $1 \
             order by g.created_at desc, g.id limit $2",
        )
        .bind(account.as_str())
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        let corrupt = |col: &str, e: serde_json::Error| StoreError::Corrupt(format!("{col}: {e}"));
        rows.iter()
            .map(|r| {
                Ok(PlayedGame {
                    id: GameId(text(r, "id")?),
                    game: text(r, "game")?,
                    seat: usize::try_from(int(r, "seat")?).map_err(|e| StoreError::Corrupt(format!("seat: {e}")))?,
                    seats: serde_json::from_value(json(r, "seats")?).map_err(|e| corrupt("seats", e))?,
                    status: GameStatus::parse(&text(r, "status")?)?,
                    outcome: match opt_text(r, "outcome")? {
                        Some(o) => Some(serde_json::from_str(&o).map_err(|e| corrupt("outcome", e))?),
                        None => None,
                    },
                    public: int(r, "public")? != 0,
                    created_at: int(r, "created_at")?,
                    finished_at: opt_int(r, "finished_at")?,
                })
            })
            .collect()
    }
}
