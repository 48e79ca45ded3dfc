//! [`AppState`]: everything a request handler or a socket may reach. It lives beside the modules
//! that use it (HTTP routes, sockets, account extractors) rather than inside any of them, so none
//! of them imports another to get it.

use crate::accounts::{Passwords, Sessions};
use crate::catalog::Catalog;
use crate::limits::Limits;
use crate::lobby::registry::Lobbies;
use crate::replays::Replays;
use crate::store::Store;
use crate::table::Tables;
use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// Everything a request handler may reach (cheap to clone).
#[derive(Clone)]
pub struct AppState {
    /// The store.
    pub store: Store,
    /// The games this build hosts.
    pub catalog: Arc<Catalog>,
    /// Live lobbies.
    pub lobbies: Arc<Lobbies>,
    /// Live tables.
    pub tables: Arc<Tables>,
    /// Cancelled when the server starts shutting down: tables stop taking actions.
    pub shutdown: CancellationToken,
    /// Cancelled once tables have stopped: sockets flush and close.
    pub sockets_closing: CancellationToken,
    /// Tracks socket tasks, so shutdown can wait for their close frames.
    pub sockets: TaskTracker,
    /// Numbers socket connections.
    pub next_conn: Arc<AtomicU64>,
    /// The tokens of open sockets, so that a sign-out reaches them.
    pub sessions: Arc<Sessions>,
    /// How many messages may wait for one socket before it is closed as fallen behind.
    pub socket_queue: usize,
    /// Where the web client's files are.
    pub web_dir: PathBuf,
    /// Rate limits and caps.
    pub limits: Arc<Limits>,
    /// Bounded password hashing.
    pub passwords: Arc<Passwords>,
    /// Bounded replays of stored games, kept for finished ones.
    pub replays: Arc<Replays>,
    /// Whether `X-Forwarded-For` names the client (a reverse proxy in front).
    pub trust_forwarded_for: bool,
    /// The live chat rooms.
    pub chat: Arc<crate::chat::ChatRooms>,
}
