//! Accounts and bearer tokens.

use super::{int, opt_text, text, Store, StoreError};
use crate::ids::{now_ms, AccountId};
use serde::{Deserialize, Serialize};
use sqlx::any::AnyRow;

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

fn account(row: &AnyRow) -> Result<Account, StoreError> {
    Ok(Account {
        id: AccountId(text(row, "id")?),
        name: text(row, "name")?,
        kind: AccountKind::parse(&text(row, "kind")?)?,
    })
}

impl Store {
    /// Creates an account; `password_hash` only for registered ones, whose names must be unique
    /// (compared lowercased).
    ///
    /// # Errors
    /// [`StoreError::Conflict`] when the registered name exists.
    pub async fn create_account(
        &self,
        name: &str,
        kind: AccountKind,
        password_hash: Option<&str>,
    ) -> Result<Account, StoreError> {
        let id = AccountId::random();
        let name_key = (kind == AccountKind::Registered).then(|| name.to_lowercase());
        sqlx::query(
            "insert into accounts (id, name, name_key, kind, password_hash, created_at) values ($1, $2, $3, $4, $5, $6)",
        )
        .bind(id.as_str())
        .bind(name)
        .bind(name_key)
        .bind(kind.as_str())
        .bind(password_hash)
        .bind(now_ms())
        .execute(self.pool())
        .await
        .map_err(StoreError::from_insert)?;
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

    /// The account a live (unrevoked) token belongs to.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn account_by_token(&self, token_hash: &str) -> Result<Option<Account>, StoreError> {
        let row = sqlx::query(
            "select a.id, a.name, a.kind from tokens t join accounts a on a.id = t.account_id \
             where t.hash = $1 and t.revoked_at is null",
        )
        .bind(token_hash)
        .fetch_optional(self.pool())
        .await?;
        row.as_ref().map(account).transpose()
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
