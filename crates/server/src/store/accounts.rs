//! Accounts and bearer tokens.

use super::{int, opt_text, text, Backend, Store, StoreError};
use crate::ids::{now_ms, AccountId};
use serde::{Deserialize, Serialize};
use sqlx::any::AnyRow;
use sqlx::{AnyConnection, Connection};

/// What kind of account.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AccountKind {
    /// A display name only.
    Guest,
    /// A name and password.
    Registered,
    /// A bot seated by a host.
    Bot,
}

impl AccountKind {
    fn as_str(self) -> &'static str {
        match self {
            AccountKind::Guest => "guest",
            AccountKind::Registered => "registered",
            AccountKind::Bot => "bot",
        }
    }

    fn parse(s: &str) -> Result<Self, StoreError> {
        match s {
            "guest" => Ok(AccountKind::Guest),
            "registered" => Ok(AccountKind::Registered),
            "bot" => Ok(AccountKind::Bot),
            other => Err(StoreError::Corrupt(format!("account kind {other:?}"))),
        }
    }
}

/// An account as clients see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Account {
    /// Its id.
    pub id: AccountId,
    /// Its display name.
    pub name: String,
    /// Guest, registered or bot.
    pub kind: AccountKind,
}

impl Account {
    /// A new bot account named "Bot `number`", not yet stored: it goes into the store in the
    /// same commit as the seat it takes (see `insert_bot_on`).
    pub fn new_bot(number: usize) -> Account {
        Account { id: AccountId::random(), name: format!("Bot {number}"), kind: AccountKind::Bot }
    }
}

fn account(row: &AnyRow) -> Result<Account, StoreError> {
    Ok(Account {
        id: AccountId(text(row, "id")?),
        name: text(row, "name")?,
        kind: AccountKind::parse(&text(row, "kind")?)?,
    })
}

impl Store {
    /// Creates an account; `password_hash` only for registered ones, whose names must be unique
    /// (compared lowercased). With `token_hash`, the account's first sign-in token is stored with
    /// it, atomically: on PostgreSQL in one statement (one commit, one round trip), as a guest
    /// who arrives is nearly always about to use it.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] when the registered name exists.
    pub async fn create_account(
        &self,
        name: &str,
        kind: AccountKind,
        password_hash: Option<&str>,
        token_hash: Option<&str>,
    ) -> Result<Account, StoreError> {
        let id = AccountId::random();
        let name_key = (kind == AccountKind::Registered).then(|| name.to_lowercase());
        let created_at = now_ms();
        let account = |sql| {
            sqlx::query(sql)
                .bind(id.as_str())
                .bind(name)
                .bind(name_key.clone())
                .bind(kind.as_str())
                .bind(password_hash)
                .bind(created_at)
        };
        match (token_hash, self.backend()) {
            (None, _) => {
                account(INSERT_ACCOUNT).execute(self.pool()).await.map_err(StoreError::from_insert)?;
            }
            (Some(hash), Backend::Postgres) => {
                account(
                    "with account as (insert into accounts (id, name, name_key, kind, password_hash, created_at) \
                     values ($1, $2, $3, $4, $5, $6) returning id, created_at) \
                     insert into tokens (hash, account_id, created_at) select $7, id, created_at from account",
                )
                .bind(hash)
                .execute(self.pool())
                .await
                .map_err(StoreError::from_insert)?;
            }
            (Some(hash), Backend::Sqlite) => {
                let mut lease = self.pool().acquire().await?;
                let mut tx = lease.begin().await?;
                account(INSERT_ACCOUNT).execute(&mut *tx).await.map_err(StoreError::from_insert)?;
                sqlx::query("insert into tokens (hash, account_id, created_at) values ($1, $2, $3)")
                    .bind(hash)
                    .bind(id.as_str())
                    .bind(created_at)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                lease.keep();
            }
        }
        Ok(Account { id, name: name.to_string(), kind })
    }

    /// A registered account by name (any case), with its password hash.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn registered_account(&self, name: &str) -> Result<Option<(Account, String)>, StoreError> {
        let row = sqlx::query("select id, name, kind, password_hash from accounts where name_key = $1")
            .bind(name.to_lowercase())
            .fetch_optional(self.pool())
            .await?;
        match row {
            None => Ok(None),
            Some(row) => Ok(Some((account(&row)?, opt_text(&row, "password_hash")?.unwrap_or_default()))),
        }
    }

    /// Records a token (by its hash) for an account.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn insert_token(&self, token_hash: &str, account: &AccountId) -> Result<(), StoreError> {
        sqlx::query("insert into tokens (hash, account_id, created_at) values ($1, $2, $3)")
            .bind(token_hash)
            .bind(account.as_str())
            .bind(now_ms())
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// The account a live token belongs to: not revoked, and used within `idle_expiry`. Using
    /// it moves its expiry on (recorded at most once a minute, to keep reads cheap).
    ///
    /// # Errors
    /// When the database fails.
    pub async fn account_by_token(
        &self,
        token_hash: &str,
        idle_expiry: std::time::Duration,
    ) -> Result<Option<Account>, StoreError> {
        let now = now_ms();
        let cutoff = now.saturating_sub(i64::try_from(idle_expiry.as_millis()).unwrap_or(i64::MAX));
        let row = sqlx::query(
            "select a.id, a.name, a.kind, coalesce(t.last_used_at, t.created_at) as used \
             from tokens t join accounts a on a.id = t.account_id \
             where t.hash = $1 and t.revoked_at is null and coalesce(t.last_used_at, t.created_at) > $2",
        )
        .bind(token_hash)
        .bind(cutoff)
        .fetch_optional(self.pool())
        .await?;
        let Some(row) = row else { return Ok(None) };
        if int(&row, "used")? >= now - 60_000 {
            // Recorded within the minute (a token just issued, nearly always): nothing to move.
            return account(&row).map(Some);
        }
        sqlx::query("update tokens set last_used_at = $1 where hash = $2 and coalesce(last_used_at, created_at) < $3")
            .bind(now)
            .bind(token_hash)
            .bind(now - 60_000)
            .execute(self.pool())
            .await?;
        account(&row).map(Some)
    }

    /// Revokes every live token of an account ("sign out everywhere"); returns their hashes.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn revoke_all_tokens(&self, account: &AccountId) -> Result<Vec<String>, StoreError> {
        let mut lease = self.pool().acquire().await?;
        let mut tx = lease.begin().await?;
        let rows = sqlx::query("select hash from tokens where account_id = $1 and revoked_at is null")
            .bind(account.as_str())
            .fetch_all(&mut *tx)
            .await?;
        let hashes = rows.iter().map(|r| text(r, "hash")).collect::<Result<Vec<_>, _>>()?;
        sqlx::query("update tokens set revoked_at = $1 where account_id = $2 and revoked_at is null")
            .bind(now_ms())
            .bind(account.as_str())
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        lease.keep();
        Ok(hashes)
    }

    /// Deletes revoked tokens, tokens unused for `idle_expiry`, and then the guest accounts that
    /// no token, game or lobby refers to any more (nobody can sign in as them again). Returns how
    /// many tokens and guests went.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn purge_expired(&self, idle_expiry: std::time::Duration) -> Result<(u64, u64), StoreError> {
        let cutoff = now_ms().saturating_sub(i64::try_from(idle_expiry.as_millis()).unwrap_or(i64::MAX));
        let tokens =
            sqlx::query("delete from tokens where revoked_at is not null or coalesce(last_used_at, created_at) <= $1")
                .bind(cutoff)
                .execute(self.pool())
                .await?
                .rows_affected();
        let guests = sqlx::query(
            "delete from accounts where kind = 'guest' and created_at <= $1 \
             and not exists (select 1 from tokens t where t.account_id = accounts.id) \
             and not exists (select 1 from game_players p where p.account_id = accounts.id) \
             and not exists (select 1 from lobbies l where l.host = accounts.id)",
        )
        .bind(cutoff)
        .execute(self.pool())
        .await?
        .rows_affected();
        Ok((tokens, guests))
    }

    /// Revokes a token; true if it was live.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn revoke_token(&self, token_hash: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("update tokens set revoked_at = $1 where hash = $2 and revoked_at is null")
            .bind(now_ms())
            .bind(token_hash)
            .execute(self.pool())
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// How many live tokens an account has (for tests and diagnostics).
    ///
    /// # Errors
    /// When the database fails.
    pub async fn live_tokens(&self, account: &AccountId) -> Result<i64, StoreError> {
        let row = sqlx::query("select count(*) as n from tokens where account_id = $1 and revoked_at is null")
            .bind(account.as_str())
            .fetch_one(self.pool())
            .await?;
        int(&row, "n")
    }
}

/// One account row (its token, if any, goes in another statement).
const INSERT_ACCOUNT: &str =
    "insert into accounts (id, name, name_key, kind, password_hash, created_at) values ($1, $2, $3, $4, $5, $6)";

/// Stores a bot's account on `conn` (in the caller's transaction): bots have no password, no
/// token and no unique name.
pub(super) async fn insert_bot_on(conn: &mut AnyConnection, bot: &Account) -> Result<(), StoreError> {
    sqlx::query(INSERT_ACCOUNT)
        .bind(bot.id.as_str())
        .bind(bot.name.as_str())
        .bind(None::<String>)
        .bind(AccountKind::Bot.as_str())
        .bind(None::<String>)
        .bind(now_ms())
        .execute(conn)
        .await
        .map_err(StoreError::from_insert)?;
    Ok(())
}
