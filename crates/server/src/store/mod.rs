//! The store: accounts, tokens, lobbies, games and their action logs, on PostgreSQL or SQLite.
//!
//! One query set serves both backends through sqlx's `Any` driver (the schema keeps to text and
//! bigint columns, see `migrations/`). Action appends go through the [`writer`] task, which
//! commits many tables' appends in one transaction when they arrive together.

mod accounts;
mod chat;
mod conns;
mod games;
mod leases;
mod lobbies;
mod profiles;
mod ratings;
mod rematch;
pub mod writer;

pub use accounts::{Account, AccountKind};
pub use games::{ActionRow, GameRecord, GameStatus, GameSummary, NewGame};
pub use leases::{Fence, LeaseBook, LeaseHolder};
pub use lobbies::LobbyRecord;
pub use profiles::PlayedGame;
pub use ratings::RatingRow;

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::AnyPool;
use sqlx::{Executor, Row};
use std::time::Duration;

/// Why a store operation failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A unique constraint was violated (e.g. a registered name, or an action seq written twice).
    #[error("conflict: {0}")]
    Conflict(String),
    /// A stored value could not be read back.
    #[error("corrupt row: {0}")]
    Corrupt(String),
    /// The database failed.
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    /// Cluster mode: this node no longer holds the game's lease (another node took it over).
    #[error("not the owner of game {0} any more")]
    Fenced(crate::ids::GameId),
    /// Migrations failed.
    #[error("migrations: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

impl StoreError {
    /// Whether the database could not be reached (rather than refused or failed this request).
    pub fn is_unreachable(&self) -> bool {
        matches!(
            self,
            StoreError::Db(
                sqlx::Error::Io(_) | sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::Protocol(_)
            )
        )
    }

    fn from_insert(e: sqlx::Error) -> StoreError {
        match &e {
            sqlx::Error::Database(db) if db.is_unique_violation() => StoreError::Conflict(db.message().to_string()),
            _ => StoreError::Db(e),
        }
    }
}

/// The database behind the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    /// PostgreSQL.
    Postgres,
    /// An embedded SQLite file.
    Sqlite,
}

/// A handle to the store (cheap to clone).
#[derive(Clone, Debug)]
pub struct Store {
    conns: conns::Conns,
    backend: Backend,
}

/// Runs the migrations on `pool`: `migrations/`, one dialect for both backends, then on
/// PostgreSQL its own part (`migrations/postgres`: what SQLite cannot say, such as statement-level
/// triggers). Both sets share sqlx's table of applied versions, so each is told to let pass the
/// versions it does not know; a version neither knows (a database migrated by a newer server) is
/// refused here, as sqlx refuses it for one set. Their numbers never meet: PostgreSQL's start at
/// 10001.
async fn migrate(pool: &AnyPool, backend: &Backend) -> Result<(), StoreError> {
    use sqlx::migrate::Migrate;
    let mut sets = vec![sqlx::migrate!("../../migrations")];
    if *backend == Backend::Postgres {
        sets.push(sqlx::migrate!("../../migrations/postgres"));
    }
    let known: std::collections::HashSet<i64> = sets.iter().flat_map(|set| set.iter()).map(|m| m.version).collect();
    // Under sqlx's migration lock, as its own runs are: nodes of a cluster start together.
    let mut conn = pool.acquire().await?;
    conn.lock().await?;
    let applied = async {
        conn.ensure_migrations_table().await?;
        conn.list_applied_migrations().await
    }
    .await;
    conn.unlock().await?;
    drop(conn);
    if let Some(unknown) = applied?.iter().find(|m| !known.contains(&m.version)) {
        return Err(sqlx::migrate::MigrateError::VersionMissing(unknown.version).into());
    }
    for mut set in sets {
        set.set_ignore_missing(true);
        set.run(pool).await?;
    }
    Ok(())
}

impl Store {
    /// Connects to `url` (`postgres://...` or `sqlite:...`; a missing SQLite file is created) and runs
    /// the migrations.
    ///
    /// # Errors
    /// When the database cannot be reached or migrated.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let (url, backend) = normalize_url(url);
        // sqlx pings every connection it returns to the pool, and by default again when it hands
        // one out: a busy server paid two round trips per query. A connection released within
        // the last second was alive then; only one idle for longer is pinged before use (a
        // restarted database or a cut link is found there, as before).
        let options = AnyPoolOptions::new()
            .acquire_timeout(Duration::from_secs(10))
            .test_before_acquire(false)
            .before_acquire(|conn, meta| {
                Box::pin(async move {
                    if meta.idle_for < Duration::from_secs(1) {
                        return Ok(true);
                    }
                    Ok(sqlx::Connection::ping(conn).await.is_ok())
                })
            });
        let pool = match backend {
            Backend::Postgres => options.max_connections(16).connect(&url).await?,
            Backend::Sqlite => {
                options
                    .max_connections(8)
                    .after_connect(|conn, _| {
                        Box::pin(async move {
                            // WAL lets readers run beside the writer; NORMAL sync in WAL mode is durable
                            // against a killed process (only an OS crash can lose the last commits).
                            conn.execute("PRAGMA journal_mode = WAL").await?;
                            conn.execute("PRAGMA synchronous = NORMAL").await?;
                            conn.execute("PRAGMA busy_timeout = 10000").await?;
                            conn.execute("PRAGMA foreign_keys = ON").await?;
                            Ok(())
                        })
                    })
                    .connect(&url)
                    .await?
            }
        };
        migrate(&pool, &backend).await?;
        Ok(Store { conns: conns::Conns::new(pool), backend })
    }

    /// Which database this is.
    pub fn backend(&self) -> &Backend {
        &self.backend
    }

    /// Checks that the database answers.
    ///
    /// # Errors
    /// When it does not.
    pub async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("select 1").execute(&self.conns).await?;
        Ok(())
    }

    /// Closes every connection, waiting for those in use.
    pub async fn close(&self) {
        self.conns.close().await;
    }

    /// The connections every store call runs on (see [`conns`]).
    pub(crate) fn pool(&self) -> &conns::Conns {
        &self.conns
    }
}

/// The URL sqlx should open, and its backend. SQLite URLs get `mode=rwc` so a missing file is created.
fn normalize_url(url: &str) -> (String, Backend) {
    if url.starts_with("postgres:") || url.starts_with("postgresql:") {
        let mut url = url.to_string();
        if !url.contains("statement-cache-capacity=") {
            // The writer's multi-row insert is one prepared statement per batch size (up to
            // `INSERT_CHUNK` of them): with sqlx's default of 100 they would push each other
            // (and every other query) out of the cache, and each batch would be prepared again.
            url.push(if url.contains('?') { '&' } else { '?' });
            url.push_str("statement-cache-capacity=256");
        }
        return (url, Backend::Postgres);
    }
    let mut url = if url.starts_with("sqlite:") { url.to_string() } else { format!("sqlite://{url}") };
    if !url.contains("mode=") {
        url.push(if url.contains('?') { '&' } else { '?' });
        url.push_str("mode=rwc");
    }
    (url, Backend::Sqlite)
}

fn text(row: &AnyRow, col: &str) -> Result<String, StoreError> {
    row.try_get::<String, _>(col).map_err(|e| StoreError::Corrupt(format!("{col}: {e}")))
}

fn opt_text(row: &AnyRow, col: &str) -> Result<Option<String>, StoreError> {
    row.try_get::<Option<String>, _>(col).map_err(|e| StoreError::Corrupt(format!("{col}: {e}")))
}

fn int(row: &AnyRow, col: &str) -> Result<i64, StoreError> {
    row.try_get::<i64, _>(col).map_err(|e| StoreError::Corrupt(format!("{col}: {e}")))
}

fn opt_int(row: &AnyRow, col: &str) -> Result<Option<i64>, StoreError> {
    row.try_get::<Option<i64>, _>(col).map_err(|e| StoreError::Corrupt(format!("{col}: {e}")))
}

/// A JSON column kept as its text (checked to be JSON).
fn raw_json(row: &AnyRow, col: &str) -> Result<Box<serde_json::value::RawValue>, StoreError> {
    serde_json::value::RawValue::from_string(text(row, col)?).map_err(|e| StoreError::Corrupt(format!("{col}: {e}")))
}

fn json(row: &AnyRow, col: &str) -> Result<serde_json::Value, StoreError> {
    serde_json::from_str(&text(row, col)?).map_err(|e| StoreError::Corrupt(format!("{col}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_urls_create_missing_files_and_postgres_urls_pass_through() {
        assert_eq!(normalize_url("chapterhouse.db"), ("sqlite://chapterhouse.db?mode=rwc".into(), Backend::Sqlite));
        assert_eq!(normalize_url("sqlite:x.db?mode=ro").0, "sqlite:x.db?mode=ro");
        assert_eq!(
            normalize_url("postgres://u@h/db"),
            ("postgres://u@h/db?statement-cache-capacity=256".into(), Backend::Postgres)
        );
        assert_eq!(
            normalize_url("postgres://u@h/db?sslmode=disable").0,
            "postgres://u@h/db?sslmode=disable&statement-cache-capacity=256"
        );
        assert_eq!(
            normalize_url("postgres://u@h/db?statement-cache-capacity=9").0,
            "postgres://u@h/db?statement-cache-capacity=9"
        );
    }
}
