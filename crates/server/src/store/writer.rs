//! The store writer: one task that commits action appends, batching those that arrive together.
//!
//! Tables hand their appends over a channel and wait for the commit. Whatever is queued when
//! the writer is free goes into one transaction, so under load many tables share one commit
//! (one fsync) instead of each paying for its own. If a batch fails, its appends are retried one
//! by one so that one bad append cannot fail the others.

use super::{ActionRow, Store, StoreError};
use tokio::sync::{mpsc, oneshot};

/// The most appends committed together.
const MAX_BATCH: usize = 256;

struct Append {
    row: ActionRow,
    done: oneshot::Sender<Result<(), String>>,
}

/// A handle to the writer task (cheap to clone).
#[derive(Clone, Debug)]
pub struct Writer {
    tx: mpsc::Sender<Append>,
}

/// Why an append was not committed.
#[derive(Debug, thiserror::Error)]
pub enum AppendError {
    /// The writer has stopped (the server is shutting down).
    #[error("the store writer has stopped")]
    Stopped,
    /// The database refused or failed.
    #[error("append failed: {0}")]
    Failed(String),
}

impl Writer {
    /// Starts the writer task on `store`. It runs until every handle is dropped, then finishes
    /// what is queued; await the returned handle to know that every accepted append is written.
    pub fn spawn(store: Store) -> (Writer, tokio::task::JoinHandle<()>) {
        let (tx, rx) = mpsc::channel(4 * MAX_BATCH);
        let task = tokio::spawn(run(store, rx));
        (Writer { tx }, task)
    }

    /// Appends one action and waits until it is committed.
    ///
    /// # Errors
    /// [`AppendError`] if it was not committed.
    pub async fn append(&self, row: ActionRow) -> Result<(), AppendError> {
        let (done, wait) = oneshot::channel();
        self.tx.send(Append { row, done }).await.map_err(|_| AppendError::Stopped)?;
        match wait.await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(AppendError::Failed(e)),
            Err(_) => Err(AppendError::Stopped),
        }
    }
}

async fn run(store: Store, mut rx: mpsc::Receiver<Append>) {
    let mut batch: Vec<Append> = Vec::with_capacity(MAX_BATCH);
    while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
        match store.append_actions(batch.iter().map(|a| &a.row)).await {
            Ok(()) => {
                for append in batch.drain(..) {
                    let _ = append.done.send(Ok(()));
                }
            }
            Err(e) if batch.len() == 1 => {
                report(&e);
                for append in batch.drain(..) {
                    let _ = append.done.send(Err(e.to_string()));
                }
            }
            Err(_) => {
                for append in batch.drain(..) {
                    let result = store.append_actions(std::slice::from_ref(&append.row)).await;
                    if let Err(e) = &result {
                        report(e);
                    }
                    let _ = append.done.send(result.map_err(|e| e.to_string()));
                }
            }
        }
    }
}

fn report(e: &StoreError) {
    tracing::error!(error = %e, "action append failed");
}
