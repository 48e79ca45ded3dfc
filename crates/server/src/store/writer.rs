//! The store writer: one task that commits action appends, batching those that arrive together.
//!
//! Tables hand their appends over a channel and wait for the commit. Whatever is queued when
//! the writer is free goes into one commit (one statement, or one transaction when a game ends
//! in it), so under load many tables share one fsync instead of each paying for its own. The
//! writer keeps one connection for this. If a batch fails, its appends are retried one
//! by one so that one bad append cannot fail the others.
//!
//! Two failures need more than a retry:
//! - A commit whose reply was lost (the connection dropped after the database committed): the
//!   retry then conflicts on the primary key. The stored row is read back; if it is this very
//!   append (same seat, action and state hash) it *was* committed and is reported so.
//!   Otherwise the table's state is not what is stored ([`AppendError::Diverged`]).
//! - An unreachable database: the writer marks the store down and answers every append at once
//!   with [`AppendError::Unavailable`] (rather than each waiting out the pool's timeout in turn),
//!   probes it in the background, and takes appends again as soon as it answers.

use super::conns::Lease;
use super::{ActionRow, LeaseBook, Store, StoreError};
use sqlx::AnyConnection;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// The most appends committed together.
pub(super) const MAX_BATCH: usize = 256;

/// How long the writer waits for a connection before it takes the store for unreachable (the
/// pool's own timeout, 10 s, is for the readers).
const RECONNECT: Duration = Duration::from_secs(2);

/// How often an unreachable store is probed.
const PROBE_EVERY: Duration = Duration::from_millis(500);

struct Append {
    row: ActionRow,
    done: oneshot::Sender<Result<(), AppendError>>,
}

/// A handle to the writer task (cheap to clone).
#[derive(Clone, Debug)]
pub struct Writer {
    tx: mpsc::Sender<Append>,
    health: Health,
}

/// Why an append was not committed.
#[derive(Clone, Debug, thiserror::Error)]
pub enum AppendError {
    /// The writer has stopped (the server is shutting down).
    #[error("the store writer has stopped")]
    Stopped,
    /// The database cannot be reached; nothing was written.
    #[error("the store is unavailable")]
    Unavailable,
    /// Another action is stored under this one's sequence number: the table is not in step with
    /// the store and must be reloaded from it.
    #[error("a different action is stored at seq {seq}")]
    Diverged {
        /// The sequence number.
        seq: u64,
    },
    /// Cluster mode: this node no longer holds the game's lease; nothing was written (the new
    /// owner plays the game from the store).
    #[error("this node no longer owns the game")]
    NotOwner,
    /// The database refused or failed.
    #[error("append failed: {0}")]
    Failed(String),
}

/// Whether the store answers, shared by the writer and its handles.
#[derive(Clone, Debug, Default)]
pub struct Health {
    down: Arc<AtomicBool>,
    probing: Arc<AtomicBool>,
}

impl Health {
    /// Whether the store is known to be unreachable now.
    pub fn is_down(&self) -> bool {
        self.down.load(Ordering::SeqCst)
    }

    /// Marks the store down and starts probing it until it answers again.
    fn went_down(&self, store: &Store) {
        self.down.store(true, Ordering::SeqCst);
        if self.probing.swap(true, Ordering::SeqCst) {
            return;
        }
        tracing::error!("the store is unreachable: actions are refused until it answers again");
        let (health, store) = (self.clone(), store.clone());
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(PROBE_EVERY).await;
                if store.ping().await.is_ok() {
                    health.down.store(false, Ordering::SeqCst);
                    health.probing.store(false, Ordering::SeqCst);
                    tracing::info!("the store answers again");
                    return;
                }
            }
        });
    }
}

impl Writer {
    /// Starts the writer task on `store`. It runs until every handle is dropped, then finishes
    /// what is queued; await the returned handle to know that every accepted append is written.
    pub fn spawn(store: Store) -> (Writer, tokio::task::JoinHandle<()>) {
        Writer::spawn_fenced(store, None)
    }

    /// [`Writer::spawn`] for a cluster node: every append is refused unless the node holds the
    /// game's lease in `leases`, checked in the appending transaction.
    pub fn spawn_fenced(store: Store, leases: Option<Arc<LeaseBook>>) -> (Writer, tokio::task::JoinHandle<()>) {
        let (tx, rx) = mpsc::channel(4 * MAX_BATCH);
        let health = Health::default();
        let task = tokio::spawn(run(store, rx, health.clone(), leases));
        (Writer { tx, health }, task)
    }

    /// Whether the store answers (as far as the writer knows).
    pub fn health(&self) -> &Health {
        &self.health
    }

    /// Appends one action and waits until it is committed.
    ///
    /// # Errors
    /// [`AppendError`] if it was not committed.
    pub async fn append(&self, row: ActionRow) -> Result<(), AppendError> {
        if self.health.is_down() {
            return Err(AppendError::Unavailable);
        }
        let (done, wait) = oneshot::channel();
        self.tx.send(Append { row, done }).await.map_err(|_| AppendError::Stopped)?;
        wait.await.unwrap_or(Err(AppendError::Stopped))
    }
}

fn unreachable(e: &StoreError) -> bool {
    e.is_unreachable()
}

/// The writer's own connection, taken from the store's connections when there is none (one
/// that waited a second or more is tested first), waiting at most [`RECONNECT`] for it.
async fn connection<'a>(store: &Store, slot: &'a mut Option<Lease>) -> Result<&'a mut AnyConnection, StoreError> {
    if slot.is_none() {
        let taken = tokio::time::timeout(RECONNECT, store.pool().acquire()).await;
        *slot = Some(taken.map_err(|_| StoreError::Db(sqlx::Error::PoolTimedOut))??);
    }
    slot.as_deref_mut().ok_or(StoreError::Db(sqlx::Error::PoolClosed))
}

/// Whether a live connection to the store can be had within [`RECONNECT`]. The pool hands out
/// a connection used in the last second untested, and after a restart or an outage those are
/// dead: each is tested here, and closed if it does not answer.
async fn reconnects(store: &Store) -> bool {
    let live = async {
        loop {
            let Ok(mut conn) = store.pool().acquire().await else { return false };
            if sqlx::Connection::ping(&mut *conn).await.is_ok() {
                return true;
            }
            conn.close_on_drop();
        }
    };
    tokio::time::timeout(RECONNECT, live).await.unwrap_or(false)
}

async fn run(store: Store, mut rx: mpsc::Receiver<Append>, health: Health, leases: Option<Arc<LeaseBook>>) {
    let mut batch: Vec<Append> = Vec::with_capacity(MAX_BATCH);
    // Kept between batches: a connection taken from the pool per batch costs a round trip (the
    // pool's test) and a hand-back. After any failure it goes back, and the next batch takes
    // a tested one.
    let mut conn: Option<Lease> = None;
    while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
        if health.is_down() {
            for append in batch.drain(..) {
                let _ = append.done.send(Err(AppendError::Unavailable));
            }
            continue;
        }
        let started = std::time::Instant::now();
        let fence = leases.as_ref().map(|l| l.fence());
        let (committed, connected) = match connection(&store, &mut conn).await {
            Ok(c) => (Store::append_actions_on(c, batch.iter().map(|a| &a.row), fence.as_ref()).await, true),
            Err(e) => (Err(e), false),
        };
        if let Err(e) = &committed {
            conn = None;
            // The database could not be reached. Retrying one by one below would have each
            // append wait out the pool's timeout (a refused connection is retried until then)
            // to learn that it is gone: a connection that broke is replaced first, within
            // [`RECONNECT`], and handed back for the retries (none is sought again when none
            // could be had just now).
            if unreachable(e) && !(connected && reconnects(&store).await) {
                health.went_down(&store);
            }
        }
        crate::metrics::batch_committed(batch.len(), started.elapsed());
        if committed.is_ok() {
            for append in batch.drain(..) {
                let _ = append.done.send(Ok(()));
            }
            continue;
        }
        // One by one: an append that conflicts may have been committed by this very batch
        // (its reply lost), and one bad append must not fail the others.
        for append in batch.drain(..) {
            // Once one of them finds the store unreachable, the rest are answered at once: each
            // would otherwise wait out the pool's timeout in turn (a batch of 256 for most of an
            // hour, during which a stopping server waits for its tables).
            if health.is_down() {
                let _ = append.done.send(Err(AppendError::Unavailable));
                continue;
            }
            let result = append_one(&store, &append.row, fence.as_ref()).await;
            if matches!(result, Err(AppendError::Unavailable)) {
                health.went_down(&store);
            }
            let _ = append.done.send(result);
        }
    }
}

async fn append_one(store: &Store, row: &ActionRow, fence: Option<&super::Fence<'_>>) -> Result<(), AppendError> {
    let error = match store.append_actions_fenced(std::slice::from_ref(row), fence).await {
        Ok(()) => return Ok(()),
        Err(e) => e,
    };
    if let StoreError::Fenced(game) = &error {
        tracing::warn!(%game, seq = row.seq, "append refused: this node no longer holds the game's lease");
        return Err(AppendError::NotOwner);
    }
    if unreachable(&error) {
        tracing::error!(game = %row.game, seq = row.seq, error = %error, "action append failed: store unreachable");
        return Err(AppendError::Unavailable);
    }
    if matches!(error, StoreError::Conflict(_)) {
        match store.action_at(&row.game, row.seq).await {
            Ok(Some(stored))
                if stored.seat == row.seat && stored.action.get() == row.action.get() && stored.hash == row.hash =>
            {
                tracing::warn!(game = %row.game, seq = row.seq, "action found committed (its commit's reply was lost)");
                return Ok(());
            }
            Ok(Some(_)) => return Err(AppendError::Diverged { seq: row.seq }),
            Ok(None) => {}
            Err(e) if unreachable(&e) => return Err(AppendError::Unavailable),
            Err(_) => {}
        }
    }
    tracing::error!(game = %row.game, seq = row.seq, error = %error, "action append failed");
    Err(AppendError::Failed(error.to_string()))
}
