//! The store's connections: sqlx's pool, with the connections last used kept at hand.
//!
//! sqlx's pool tests every connection handed back to it with a round trip (a `Sync` on
//! PostgreSQL, a call into the worker thread on SQLite), whatever the query did. Most store calls
//! are one short statement, so that test was a second round trip for nearly each of them
//! (docs/performance.md). Here a connection whose work succeeded and left nothing pending is
//! kept checked out, in a small stack, and the next caller takes it from there without the test.
//! What could have left a connection unfit goes back to sqlx as before and is tested there:
//!
//! - an error (the connection may be broken, or a statement half-read);
//! - work dropped mid-way (a cancelled request: the [`Lease`] is dropped, not kept);
//! - anything still queued on it (a transaction dropped without commit queues its rollback).
//!
//! A connection that waited in the stack for a second or more is tested before use, as the pool
//! tests one that waited there: after a database restart the first caller gets a live one.
//!
//! Every connection the store uses is taken here, and at most as many are out of sqlx's pool
//! (in use or kept) as the pool may open: a caller finding none kept and no room waits for one
//! to be kept or handed back. A request to the pool is never abandoned half-way (one dropped
//! while it opened a connection would waste that connection).

use futures_util::future::BoxFuture;
use futures_util::stream::{self, BoxStream, StreamExt, TryStreamExt};
use sqlx::any::{AnyQueryResult, AnyRow};
use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyConnection, AnyPool, Connection, Describe, Either, Execute, Executor};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Notify;

/// A connection kept this long or longer is tested before it is used again.
const TEST_AFTER: Duration = Duration::from_secs(1);

/// The pool and the connections kept from it (cheap to clone).
#[derive(Clone, Debug)]
pub(crate) struct Conns {
    kept: Arc<Kept>,
}

#[derive(Debug)]
struct Kept {
    pool: AnyPool,
    /// Connections free to use, the most recently used last, with when each was kept.
    stack: Mutex<Vec<(PoolConnection<Any>, Instant)>>,
    /// Connections out of sqlx's pool: kept here or in use.
    out: AtomicUsize,
    /// The most that may be out (the pool's size limit).
    most: usize,
    /// Signalled when a connection is kept or handed back to the pool.
    changed: Notify,
}

impl Kept {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(PoolConnection<Any>, Instant)>> {
        // A poisoned lock only means a panic elsewhere while pushing or popping: the stack is
        // still a valid list of connections.
        self.stack.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Hands `conn` back to sqlx's pool (which tests it) or closes it, as it was marked: room
    /// for another.
    fn hand_back(&self, conn: PoolConnection<Any>) {
        drop(conn);
        self.room_freed();
    }

    fn room_freed(&self) {
        self.out.fetch_sub(1, Ordering::AcqRel);
        self.changed.notify_one();
    }
}

/// Room for one more connection out of the pool, given back when dropped unless `taken`.
struct Room<'a> {
    kept: &'a Kept,
    taken: bool,
}

impl Drop for Room<'_> {
    fn drop(&mut self) {
        if !self.taken {
            self.kept.room_freed();
        }
    }
}

impl Conns {
    pub(crate) fn new(pool: AnyPool) -> Conns {
        let most = pool.options().get_max_connections() as usize;
        let kept = Kept { pool, stack: Mutex::default(), out: AtomicUsize::new(0), most, changed: Notify::new() };
        Conns { kept: Arc::new(kept) }
    }

    /// sqlx's pool itself, for the tests: everything else goes through [`Conns::acquire`].
    #[cfg(test)]
    fn pool(&self) -> &AnyPool {
        &self.kept.pool
    }

    /// A connection for a piece of work; call [`Lease::keep`] when the work succeeded.
    ///
    /// # Errors
    /// When the pool gives none (timed out, closed, or the database refuses new connections).
    pub(crate) async fn acquire(&self) -> Result<Lease, sqlx::Error> {
        loop {
            let changed = self.kept.changed.notified();
            tokio::pin!(changed);
            // Registered before looking, so a connection kept or handed back meanwhile wakes us.
            changed.as_mut().enable();
            if let Some(conn) = self.pop().await {
                return Ok(self.lease(conn));
            }
            let most = self.kept.most;
            if self.kept.out.fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| (n < most).then_some(n + 1)).is_ok()
            {
                let mut room = Room { kept: &self.kept, taken: false };
                let conn = self.kept.pool.acquire().await?;
                room.taken = true;
                return Ok(self.lease(conn));
            }
            changed.await;
        }
    }

    fn lease(&self, conn: PoolConnection<Any>) -> Lease {
        Lease { kept: Arc::clone(&self.kept), conn: Some(conn) }
    }

    /// The most recently kept connection that is still fit (tested if it waited long), if any.
    async fn pop(&self) -> Option<PoolConnection<Any>> {
        loop {
            let (mut conn, since) = self.kept.lock().pop()?;
            if since.elapsed() < TEST_AFTER || conn.ping().await.is_ok() {
                return Some(conn);
            }
            // Dead (a restarted database, a cut link): closed, not handed back.
            conn.close_on_drop();
            self.kept.hand_back(conn);
        }
    }

    /// Closes the pool, handing every kept connection back to it first (closing waits for all
    /// that are out).
    pub(crate) async fn close(&self) {
        // Marks the pool closed at once: from then on nothing is kept (see `Lease::keep`).
        let closing = self.kept.pool.close();
        tokio::pin!(closing);
        loop {
            // Anything kept by work that checked for closing just before it began goes too.
            let kept: Vec<_> = std::mem::take(&mut *self.kept.lock());
            for (conn, _) in kept {
                self.kept.hand_back(conn);
            }
            tokio::select! {
                () = &mut closing => return,
                () = tokio::time::sleep(Duration::from_millis(20)) => {}
            }
        }
    }
}

/// A connection in use: [`Lease::keep`] after the work succeeded keeps it for the next caller;
/// dropped without that, it goes back to sqlx's pool, which tests it.
#[derive(Debug)]
pub(crate) struct Lease {
    kept: Arc<Kept>,
    conn: Option<PoolConnection<Any>>,
}

impl Lease {
    /// The work on this connection succeeded: keep it at hand, unless something is still queued
    /// on it (a rollback) or the store is closing; then sqlx's hand-back flushes and tests it.
    pub(crate) fn keep(mut self) {
        let fit = self.conn.as_ref().is_some_and(|c| !c.should_flush()) && !self.kept.pool.is_closed();
        if let Some(conn) = self.conn.take_if(|_| fit) {
            self.kept.lock().push((conn, Instant::now()));
            self.kept.changed.notify_one();
        }
        // Otherwise the lease is dropped here, and its connection handed back.
    }

    /// Closes the connection instead of handing it back (it failed a test).
    pub(crate) fn close_on_drop(&mut self) {
        if let Some(conn) = self.conn.as_mut() {
            conn.close_on_drop();
        }
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        if let Some(conn) = self.conn.take() {
            self.kept.hand_back(conn);
        }
    }
}

impl std::ops::Deref for Lease {
    type Target = AnyConnection;

    fn deref(&self) -> &AnyConnection {
        // Only `keep` and `drop` take the connection, and both end the lease.
        self.conn.as_deref().unwrap_or_else(|| unreachable!("a lease holds its connection until it ends"))
    }
}

impl std::ops::DerefMut for Lease {
    fn deref_mut(&mut self) -> &mut AnyConnection {
        self.conn.as_deref_mut().unwrap_or_else(|| unreachable!("a lease holds its connection until it ends"))
    }
}

/// One statement on a kept connection (or a new one), as `&AnyPool` runs it: the rows are read
/// whole, then the connection is kept if the statement succeeded.
impl<'c> Executor<'c> for &'c Conns {
    type Database = Any;

    fn fetch_many<'e, 'q: 'e, E>(self, query: E) -> BoxStream<'e, Result<Either<AnyQueryResult, AnyRow>, sqlx::Error>>
    where
        'c: 'e,
        E: 'q + Execute<'q, Any>,
    {
        stream::once(async move {
            let mut lease = self.acquire().await?;
            let steps: Vec<_> = lease.fetch_many(query).try_collect().await?;
            lease.keep();
            Ok::<_, sqlx::Error>(stream::iter(steps.into_iter().map(Ok)))
        })
        .try_flatten()
        .boxed()
    }

    fn fetch_optional<'e, 'q: 'e, E>(self, query: E) -> BoxFuture<'e, Result<Option<AnyRow>, sqlx::Error>>
    where
        'c: 'e,
        E: 'q + Execute<'q, Any>,
    {
        Box::pin(async move {
            let mut lease = self.acquire().await?;
            let row = lease.fetch_optional(query).await?;
            lease.keep();
            Ok(row)
        })
    }

    fn prepare_with<'e, 'q: 'e>(
        self,
        sql: &'q str,
        parameters: &'e [sqlx::any::AnyTypeInfo],
    ) -> BoxFuture<'e, Result<sqlx::any::AnyStatement<'q>, sqlx::Error>>
    where
        'c: 'e,
    {
        Box::pin(async move { self.acquire().await?.prepare_with(sql, parameters).await })
    }

    fn describe<'e, 'q: 'e>(self, sql: &'q str) -> BoxFuture<'e, Result<Describe<Any>, sqlx::Error>>
    where
        'c: 'e,
    {
        Box::pin(async move { self.acquire().await?.describe(sql).await })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // tests: a panic is the failure report

    use super::*;
    use sqlx::any::AnyPoolOptions;

    /// Connections to a fresh SQLite file, and to the PostgreSQL of `DATABASE_URL` when it is set
    /// (required under `CI=true`). The tests only use temporary tables, which no other
    /// connection sees, so they may share that database with other tests.
    async fn backends(max: u32) -> Vec<(Conns, &'static str, tempfile::TempDir)> {
        sqlx::any::install_default_drivers();
        let dir = tempfile::tempdir().unwrap();
        let options = || AnyPoolOptions::new().max_connections(max).acquire_timeout(Duration::from_secs(30));
        let sqlite = format!("sqlite://{}?mode=rwc", dir.path().join("t.db").display());
        let mut all = vec![(Conns::new(options().connect(&sqlite).await.unwrap()), "sqlite", dir)];
        match std::env::var("DATABASE_URL") {
            Ok(url) => {
                let pool = options().connect(&url).await.unwrap();
                all.push((Conns::new(pool), "postgres", tempfile::tempdir().unwrap()));
            }
            Err(_) => assert_ne!(std::env::var("CI").as_deref(), Ok("true"), "CI=true needs DATABASE_URL"),
        }
        all
    }

    fn kept(conns: &Conns) -> usize {
        conns.kept.lock().len()
    }

    #[tokio::test]
    async fn work_that_succeeded_keeps_its_connection_for_the_next_statement() {
        for (conns, backend, _dir) in backends(2).await {
            // Two connections idle in the pool: one handed back there would not be the next one
            // the pool hands out (it hands out the longest idle first).
            drop((conns.pool().acquire().await.unwrap(), conns.pool().acquire().await.unwrap()));
            let mut lease = conns.acquire().await.unwrap();
            sqlx::query("create temporary table here (x integer)").execute(&mut *lease).await.unwrap();
            lease.keep();
            assert_eq!(kept(&conns), 1, "{backend}");
            // Only the connection that made it sees a temporary table.
            sqlx::query("insert into here values (1)").execute(&conns).await.unwrap();
            let row = sqlx::query("select count(*) as n from here").fetch_one(&conns).await.unwrap();
            assert_eq!(sqlx::Row::try_get::<i64, _>(&row, "n").unwrap(), 1, "{backend}");
            assert_eq!(kept(&conns), 1, "{backend}");
            conns.close().await;
        }
    }

    #[tokio::test]
    async fn a_failed_statement_or_an_unkept_lease_goes_back_to_the_pool() {
        for (conns, backend, _dir) in backends(2).await {
            sqlx::query("select 1").execute(&conns).await.unwrap();
            assert_eq!(kept(&conns), 1, "{backend}");
            let failed = sqlx::query("select * from no_such_table").execute(&conns).await;
            assert!(failed.is_err(), "{backend}");
            assert_eq!(kept(&conns), 0, "{backend}: a connection whose statement failed is not kept");
            let lease = conns.acquire().await.unwrap();
            drop(lease);
            assert_eq!(kept(&conns), 0, "{backend}: a lease dropped without keep is not kept");
            conns.close().await;
        }
    }

    #[tokio::test]
    async fn a_transaction_dropped_without_commit_leaves_nothing_behind() {
        for (conns, backend, _dir) in backends(1).await {
            let mut lease = conns.acquire().await.unwrap();
            sqlx::query("create temporary table t (x integer)").execute(&mut *lease).await.unwrap();
            let mut tx = lease.begin().await.unwrap();
            sqlx::query("insert into t values (1)").execute(&mut *tx).await.unwrap();
            drop(tx);
            lease.keep();
            if backend == "postgres" {
                // The rollback is still queued on the connection: sqlx's hand-back sends it.
                assert_eq!(kept(&conns), 0, "{backend}");
            }
            // One connection in all: this is the same one, and the row is gone.
            let row = sqlx::query("select count(*) as n from t").fetch_one(&conns).await.unwrap();
            assert_eq!(sqlx::Row::try_get::<i64, _>(&row, "n").unwrap(), 0, "{backend}");
            conns.close().await;
        }
    }

    #[tokio::test]
    async fn a_caller_waiting_on_an_exhausted_pool_gets_a_connection_kept_meanwhile() {
        for (conns, backend, _dir) in backends(1).await {
            let lease = conns.acquire().await.unwrap();
            let waiting = {
                let conns = conns.clone();
                tokio::spawn(async move { sqlx::query("select 1").execute(&conns).await.map(|_| ()) })
            };
            tokio::time::sleep(Duration::from_millis(50)).await;
            assert!(!waiting.is_finished(), "{backend}: the only connection is in use");
            lease.keep();
            // Well within the pool's 30 s acquire timeout, which the waiter would otherwise see out.
            let done = tokio::time::timeout(Duration::from_secs(5), waiting).await;
            assert!(matches!(done, Ok(Ok(Ok(())))), "{backend}: {done:?}");
            conns.close().await;
        }
    }

    #[tokio::test]
    async fn a_connection_to_hold_on_to_is_taken_from_those_kept_when_the_pool_is_exhausted() {
        for (conns, backend, _dir) in backends(1).await {
            sqlx::query("select 1").execute(&conns).await.unwrap();
            assert_eq!(kept(&conns), 1, "{backend}: the pool's only connection is kept");
            let owned = tokio::time::timeout(Duration::from_secs(5), conns.acquire()).await;
            assert!(matches!(owned, Ok(Ok(_))), "{backend}: {owned:?}");
            drop(owned); // closing waits for every connection out of the pool
            conns.close().await;
        }
    }

    #[tokio::test]
    async fn closing_hands_kept_connections_back() {
        for (conns, backend, _dir) in backends(2).await {
            let (a, b) = (conns.acquire().await.unwrap(), conns.acquire().await.unwrap());
            a.keep();
            b.keep();
            assert_eq!(kept(&conns), 2, "{backend}");
            let closed = tokio::time::timeout(Duration::from_secs(5), conns.close()).await;
            assert!(closed.is_ok(), "{backend}: closing waited for the kept connections");
            assert!(conns.acquire().await.is_err(), "{backend}: the pool is closed");
        }
    }

    #[tokio::test]
    async fn a_kept_connection_that_died_is_replaced_before_use() {
        let Some((conns, _, _dir)) = backends(2).await.into_iter().find(|(_, b, _)| *b == "postgres") else {
            return; // PostgreSQL only: a backend can be ended from outside (CI always has one).
        };
        let mut lease = conns.acquire().await.unwrap();
        let row = sqlx::query("select pg_backend_pid() as pid").fetch_one(&mut *lease).await.unwrap();
        let pid: i32 = sqlx::Row::try_get(&row, "pid").unwrap();
        lease.keep();
        let mut other = conns.pool().acquire().await.unwrap();
        sqlx::query("select pg_terminate_backend($1)").bind(pid).execute(&mut *other).await.unwrap();
        drop(other);
        // Kept longer than TEST_AFTER: tested before use, found dead, replaced.
        tokio::time::sleep(TEST_AFTER + Duration::from_millis(200)).await;
        let row = sqlx::query("select pg_backend_pid() as pid").fetch_one(&conns).await.unwrap();
        let now: i32 = sqlx::Row::try_get(&row, "pid").unwrap();
        assert_ne!(now, pid);
        conns.close().await;
    }
}
