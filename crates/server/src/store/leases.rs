//! Table leases (cluster mode only, PostgreSQL): which node owns each live game, and the fencing
//! epoch its appends are checked against (see `migrations/0007_table_leases.sql`).
//!
//! Every time in these queries is the database's clock, so the nodes' clocks need not agree.

use super::{int, text, Store, StoreError};
use crate::ids::GameId;
use std::collections::HashMap;
use std::sync::Mutex;

/// The database's clock in unix milliseconds (PostgreSQL: leases exist only in cluster mode).
const DB_NOW: &str = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

/// The leases one node holds: game → epoch. The store writer checks each append against it, in the
/// append's own transaction.
#[derive(Debug)]
pub struct LeaseBook {
    node: String,
    held: Mutex<HashMap<GameId, u64>>,
}

impl LeaseBook {
    /// An empty book for `node` (unique per process: a restarted node is a new node).
    pub fn new(node: String) -> LeaseBook {
        LeaseBook { node, held: Mutex::new(HashMap::new()) }
    }

    /// This node's id.
    pub fn node(&self) -> &str {
        &self.node
    }

    /// The epoch this node holds `game` at, if it holds it.
    pub fn epoch(&self, game: &GameId) -> Option<u64> {
        self.held.lock().ok()?.get(game).copied()
    }

    /// Records a lease taken.
    pub fn hold(&self, game: GameId, epoch: u64) {
        if let Ok(mut held) = self.held.lock() {
            held.insert(game, epoch);
        }
    }

    /// Forgets a lease; true if it was held.
    pub fn drop_lease(&self, game: &GameId) -> bool {
        self.held.lock().map(|mut h| h.remove(game).is_some()).unwrap_or(false)
    }

    /// Every game held now.
    pub fn games(&self) -> Vec<GameId> {
        self.held.lock().map(|h| h.keys().cloned().collect()).unwrap_or_default()
    }

    /// Forgets every lease; returns the games that were held.
    pub fn clear(&self) -> Vec<GameId> {
        self.held.lock().map(|mut h| h.drain().map(|(g, _)| g).collect()).unwrap_or_default()
    }
}

/// What an append is checked against: this node's id and the epochs of the leases it holds.
#[derive(Debug)]
pub struct Fence<'a> {
    /// The node.
    pub node: &'a str,
    /// Its leases now.
    pub epochs: HashMap<GameId, u64>,
}

impl Fence<'_> {
    /// The epoch the node holds `game` at.
    pub fn epoch(&self, game: &GameId) -> Option<u64> {
        self.epochs.get(game).copied()
    }
}

impl LeaseBook {
    /// The fence for one append batch: the leases held now.
    pub fn fence(&self) -> Fence<'_> {
        Fence { node: &self.node, epochs: self.held.lock().map(|h| h.clone()).unwrap_or_default() }
    }
}

/// Who holds a game's lease.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaseHolder {
    /// The node.
    pub node: String,
    /// The epoch it took the lease at.
    pub epoch: u64,
    /// Whether the lease is still running (not expired).
    pub live: bool,
}

impl Store {
    /// Takes the lease of `game` for `node` if nobody holds it, it has expired, or `node` holds it
    /// already (the epoch moves on all the same); returns the new epoch, or `None` when another
    /// node holds it.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn acquire_lease(&self, game: &GameId, node: &str, ttl_ms: i64) -> Result<Option<u64>, StoreError> {
        let sql = format!(
            "insert into table_leases (game, node, epoch, expires_at) values ($1, $2, 1, {DB_NOW} + $3) \
             on conflict (game) do update set node = excluded.node, epoch = table_leases.epoch + 1, \
             expires_at = excluded.expires_at \
             where table_leases.expires_at < {DB_NOW} or table_leases.node = excluded.node returning epoch"
        );
        let row = sqlx::query(&sql).bind(game.as_str()).bind(node).bind(ttl_ms).fetch_optional(self.pool()).await?;
        row.map(|r| Ok(int(&r, "epoch")? as u64)).transpose()
    }

    /// Extends every lease `node` still holds; returns them with their epochs. A lease that another
    /// node took over is not among them (its node changed), even if this one had let it expire.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn renew_leases(&self, node: &str, ttl_ms: i64) -> Result<HashMap<GameId, u64>, StoreError> {
        // The rows are locked in game order, as the store writer's fence locks them: a renewal
        // and an append of several games never wait for each other in a cycle (a deadlock).
        let sql = format!(
            "update table_leases set expires_at = {DB_NOW} + $2 where node = $1 and game in \
             (select game from table_leases where node = $1 order by game for no key update) returning game, epoch"
        );
        let rows = sqlx::query(&sql).bind(node).bind(ttl_ms).fetch_all(self.pool()).await?;
        rows.iter().map(|r| Ok((GameId(text(r, "game")?), int(r, "epoch")? as u64))).collect()
    }

    /// Gives up the leases of `node` on games that are no longer running (nothing more is appended
    /// to them); returns those games.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn release_finished_leases(&self, node: &str) -> Result<Vec<GameId>, StoreError> {
        let rows = sqlx::query(
            "delete from table_leases l using games g where l.node = $1 and g.id = l.game \
             and g.status <> 'running' returning l.game",
        )
        .bind(node)
        .fetch_all(self.pool())
        .await?;
        rows.iter().map(|r| Ok(GameId(text(r, "game")?))).collect()
    }

    /// Gives up every lease of `node` (a graceful shutdown: others take its games at once).
    ///
    /// # Errors
    /// When the database fails.
    pub async fn release_leases(&self, node: &str) -> Result<(), StoreError> {
        sqlx::query("delete from table_leases where node = $1").bind(node).execute(self.pool()).await?;
        Ok(())
    }

    /// Who holds the lease of `game`, if anyone ever did.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn lease_holder(&self, game: &GameId) -> Result<Option<LeaseHolder>, StoreError> {
        let sql = format!(
            "select node, epoch, case when expires_at >= {DB_NOW} then 1 else 0 end as live \
             from table_leases where game = $1"
        );
        let row = sqlx::query(&sql).bind(game.as_str()).fetch_optional(self.pool()).await?;
        row.map(|r| {
            Ok(LeaseHolder { node: text(&r, "node")?, epoch: int(&r, "epoch")? as u64, live: int(&r, "live")? == 1 })
        })
        .transpose()
    }

    /// The nodes holding live leases on any of `games` (games nobody holds live are left out).
    ///
    /// # Errors
    /// When the database fails.
    pub async fn live_lease_holders(&self, games: &[GameId]) -> Result<HashMap<GameId, String>, StoreError> {
        if games.is_empty() {
            return Ok(HashMap::new());
        }
        let places: Vec<String> = (1..=games.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "select game, node from table_leases where game in ({}) and expires_at >= {DB_NOW}",
            places.join(", ")
        );
        let mut query = sqlx::query(&sql);
        for game in games {
            query = query.bind(game.as_str());
        }
        let rows = query.fetch_all(self.pool()).await?;
        rows.iter().map(|r| Ok((GameId(text(r, "game")?), text(r, "node")?))).collect()
    }

    /// Running games whose lease is missing or expired (their node died or let go): at most `limit`.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn orphaned_games(&self, limit: i64) -> Result<Vec<GameId>, StoreError> {
        let sql = format!(
            "select g.id from games g left join table_leases l on l.game = g.id \
             where g.status = 'running' and (l.game is null or l.expires_at < {DB_NOW}) limit $1"
        );
        let rows = sqlx::query(&sql).bind(limit).fetch_all(self.pool()).await?;
        rows.iter().map(|r| Ok(GameId(text(r, "id")?))).collect()
    }
}
