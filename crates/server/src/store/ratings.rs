//! Ratings in the store: updated in the commit that finishes a rated game, rebuilt from the
//! finished games, and read for the leaderboard and profiles (see [`crate::ratings`]).

use super::{int, text, Store, StoreError};
use crate::ids::{now_ms, AccountId, GameId};
use crate::ratings::{after_game, Rating};
use game_core::Outcome;
use serde::Serialize;
use sqlx::{AnyConnection, Connection, Row};

/// One line of a leaderboard or a profile.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatingRow {
    /// The account.
    pub account: AccountId,
    /// Its name.
    pub name: String,
    /// The catalog id of the game.
    pub game: String,
    /// The rating.
    #[serde(flatten)]
    pub rating: Rating,
}

fn real(row: &sqlx::any::AnyRow, col: &str) -> Result<f64, StoreError> {
    row.try_get::<f64, _>(col).map_err(|e| StoreError::Corrupt(format!("{col}: {e}")))
}

fn rating_row(row: &sqlx::any::AnyRow) -> Result<RatingRow, StoreError> {
    Ok(RatingRow {
        account: AccountId(text(row, "account_id")?),
        name: text(row, "name")?,
        game: text(row, "game")?,
        rating: Rating {
            rating: real(row, "rating")?,
            deviation: real(row, "deviation")?,
            volatility: real(row, "volatility")?,
            games: int(row, "games")?,
        },
    })
}

/// Rates finished game `game` if it counts (its lobby was rated, every player is registered),
/// on `conn` (the transaction that records its result, or a rebuild's).
///
/// # Errors
/// When the database fails.
pub(super) async fn rate_game(conn: &mut AnyConnection, game: &GameId, outcome: &Outcome) -> Result<(), StoreError> {
    let Some(row) =
        sqlx::query("select g.game, l.state from games g join lobbies l on l.id = g.lobby_id where g.id = $1")
            .bind(game.as_str())
            .fetch_optional(&mut *conn)
            .await?
    else {
        return Ok(());
    };
    let catalog_id = text(&row, "game")?;
    let lobby: serde_json::Value = serde_json::from_str(&text(&row, "state")?).unwrap_or_default();
    if lobby.get("rated").and_then(serde_json::Value::as_bool) != Some(true) {
        return Ok(());
    }
    let players = sqlx::query(
        "select p.account_id, a.kind from game_players p join accounts a on a.id = p.account_id \
         where p.game_id = $1 order by p.seat",
    )
    .bind(game.as_str())
    .fetch_all(&mut *conn)
    .await?;
    let mut accounts = Vec::with_capacity(players.len());
    for player in &players {
        if text(player, "kind")? != "registered" {
            return Ok(());
        }
        accounts.push(text(player, "account_id")?);
    }
    if accounts.len() < 2 || accounts.len() != outcome.ranks.len() {
        return Ok(());
    }
    let mut before = Vec::with_capacity(accounts.len());
    for account in &accounts {
        let row =
            sqlx::query("select rating, deviation, volatility, games from ratings where account_id = $1 and game = $2")
                .bind(account)
                .bind(&catalog_id)
                .fetch_optional(&mut *conn)
                .await?;
        before.push(match row {
            Some(r) => Rating {
                rating: real(&r, "rating")?,
                deviation: real(&r, "deviation")?,
                volatility: real(&r, "volatility")?,
                games: int(&r, "games")?,
            },
            None => Rating::default(),
        });
    }
    let now = now_ms();
    for (account, next) in accounts.iter().zip(after_game(&before, &outcome.ranks)) {
        sqlx::query(
            "insert into ratings (account_id, game, rating, deviation, volatility, games, updated_at) \
             values ($1, $2, $3, $4, $5, $6, $7) on conflict (account_id, game) do update set \
             rating = excluded.rating, deviation = excluded.deviation, volatility = excluded.volatility, \
             games = excluded.games, updated_at = excluded.updated_at",
        )
        .bind(account)
        .bind(&catalog_id)
        .bind(next.rating)
        .bind(next.deviation)
        .bind(next.volatility)
        .bind(next.games)
        .bind(now)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

impl Store {
    /// The best `limit` ratings of a game, highest first.
    ///
    /// # Errors
    /// When the database fails or a row is unreadable.
    pub async fn leaderboard(&self, game: &str, limit: i64) -> Result<Vec<RatingRow>, StoreError> {
        let rows = sqlx::query(
            "select r.account_id, a.name, r.game, r.rating, r.deviation, r.volatility, r.games \
             from ratings r join accounts a on a.id = r.account_id where r.game = $1 \
             order by r.rating desc, r.account_id limit $2",
        )
        .bind(game)
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        rows.iter().map(rating_row).collect()
    }

    /// An account's ratings, one per game it played rated.
    ///
    /// # Errors
    /// When the database fails or a row is unreadable.
    pub async fn ratings_of(&self, account: &AccountId) -> Result<Vec<RatingRow>, StoreError> {
        let rows = sqlx::query(
            "select r.account_id, a.name, r.game, r.rating, r.deviation, r.volatility, r.games \
             from ratings r join accounts a on a.id = r.account_id where r.account_id = $1 order by r.game",
        )
        .bind(account.as_str())
        .fetch_all(self.pool())
        .await?;
        rows.iter().map(rating_row).collect()
    }

    /// Recomputes every rating from the finished games, in the order they finished, in one
    /// commit. Returns how many games were read.
    ///
    /// # Errors
    /// When the database fails or a stored outcome is unreadable (nothing changes then).
    pub async fn rebuild_ratings(&self) -> Result<usize, StoreError> {
        let mut lease = self.pool().acquire().await?;
        let mut tx = lease.begin().await?;
        sqlx::query("delete from ratings").execute(&mut *tx).await?;
        let games = sqlx::query(
            "select id, outcome from games where status = 'finished' and outcome is not null \
             order by finished_at, id",
        )
        .fetch_all(&mut *tx)
        .await?;
        for row in &games {
            let outcome: Outcome = serde_json::from_str(&text(row, "outcome")?)
                .map_err(|e| StoreError::Corrupt(format!("outcome: {e}")))?;
            rate_game(&mut tx, &GameId(text(row, "id")?), &outcome).await?;
        }
        tx.commit().await?;
        lease.keep();
        Ok(games.len())
    }
}
