//! Routing between nodes: a socket subscribes to and plays a game owned by another node.
//!
//! The non-owner keeps a forwarding table handle ([`forward`]) that the socket code uses like a
//! local table. It asks the owner over NATS request/reply (`chapterhouse.table.<owner>.<game>.<verb>`):
//! `sub`, `unsub`, `act`. The owner's table takes the remote socket as one more subscriber with an
//! ordinary bounded queue; one task per remote socket publishes that queue, in order, to the
//! socket's node (`chapterhouse.deliver.<node>`, the connection id in front), which queues each
//! message for the socket. So a remote viewer gets exactly what a local one would (its own view,
//! its ack right behind its own patch), computed once by the owner; the request's reply says only
//! whether the owner took the request (an owner that has lost the game says so, and the
//! forwarding handle steps aside for the game's new home).

use super::Node;
use crate::error::ApiError;
use crate::ids::GameId;
use crate::outbox::{outbox, Outbox};
use crate::protocol::error_text;
use crate::state::AppState;
use crate::table::{unsubscribed, Command, ConnId, TableInfo, Tables};
use bytes::Bytes;
use game_core::{Seat, Viewer};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// How many messages may wait for one remote socket on the owner before it is dropped as fallen
/// behind (its node's own queue for the socket applies the usual limit after that).
const REMOTE_QUEUE: usize = 4096;

/// The owner's side of one remote socket.
pub(super) struct RemoteConn {
    pub(super) id: ConnId,
    out: Outbox,
    pub(super) games: HashSet<GameId>,
}

/// A forwarded request.
#[derive(Debug, Serialize, Deserialize)]
struct Ask {
    node: String,
    conn: ConnId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    viewer: Option<Viewer>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    last_version: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seat: Option<Seat>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    version: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    action: Option<Box<serde_json::value::RawValue>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    req: Option<u64>,
}

const OK: &[u8] = b"ok";
const NOT_OWNER: &[u8] = b"not_owner";

/// Addressed to the owner alone: a node that does not hold the game never answers in its place,
/// and a dead owner's requests fail at once (NATS answers "no responders").
fn table_subject(owner: &str, game: &GameId, verb: &str) -> String {
    format!("chapterhouse.table.{owner}.{game}.{verb}")
}

fn deliver_subject(node: &str) -> String {
    format!("chapterhouse.deliver.{node}")
}

impl Node {
    /// Routes the owner's messages for local connection `conn` to its queue.
    fn deliver_to(&self, conn: ConnId, out: &Outbox) {
        if let Ok(mut deliveries) = self.deliveries.lock() {
            deliveries.insert(conn, out.clone());
        }
    }

    /// Asks `owner` to do `verb` for `game`; true if it took the request.
    async fn ask(&self, owner: &str, game: &GameId, verb: &str, ask: &Ask) -> bool {
        let Ok(payload) = serde_json::to_vec(ask) else { return false };
        match self.nats.request(table_subject(owner, game, verb), Bytes::from(payload)).await {
            Ok(reply) => reply.payload.as_ref() == OK,
            Err(e) => {
                tracing::warn!(%game, verb, error = %e, "the game's owner did not answer");
                false
            }
        }
    }

    /// The owner's queue for a remote socket, created with its publishing task on first use.
    fn remote_conn(self: &Arc<Self>, node: &str, conn: ConnId, game: &GameId) -> (ConnId, Outbox) {
        let Ok(mut conns) = self.remote_conns.lock() else {
            // Unreachable in practice (a poisoned lock): a queue nobody reads.
            return (0, outbox(1).0);
        };
        let key = (node.to_string(), conn);
        if let Some(remote) = conns.get_mut(&key) {
            remote.games.insert(game.clone());
            return (remote.id, remote.out.clone());
        }
        self.heard_if_new(node);
        let id = self.next_conn_id();
        let (out, mut reader) = outbox(REMOTE_QUEUE);
        let (nats, subject) = (self.nats.clone(), deliver_subject(node));
        let overflow = reader.overflow_signal();
        tokio::spawn(async move {
            let prefix = conn.to_be_bytes();
            loop {
                let text = tokio::select! {
                    text = reader.recv() => match text {
                        Some(text) => text,
                        None => break,
                    },
                    _ = overflow.cancelled() => break,
                };
                let mut payload = Vec::with_capacity(8 + text.len());
                payload.extend_from_slice(&prefix);
                payload.extend_from_slice(text.as_bytes());
                if nats.publish(subject.clone(), Bytes::from(payload)).await.is_err() {
                    break;
                }
            }
        });
        conns.insert(key, RemoteConn { id, out: out.clone(), games: HashSet::from([game.clone()]) });
        crate::metrics::remote_subscribers(conns.len());
        (id, out)
    }

    /// Forgets that a remote socket follows `game`; its owner-side id, if it was known.
    fn remote_conn_done(&self, node: &str, conn: ConnId, game: &GameId) -> Option<ConnId> {
        let mut conns = self.remote_conns.lock().ok()?;
        let key = (node.to_string(), conn);
        let remote = conns.get_mut(&key)?;
        let id = remote.id;
        remote.games.remove(game);
        if remote.games.is_empty() {
            conns.remove(&key);
            crate::metrics::remote_subscribers(conns.len());
        }
        Some(id)
    }
}

/// The subscribers a forwarding handle had when it stepped aside: they are subscribed again
/// wherever the game is now ([`rehome`]).
pub struct Rehome {
    game: GameId,
    subscribers: Vec<(ConnId, Viewer, Outbox)>,
}

/// Runs a forwarding handle for `info`'s game, owned by node `owner`, until the game moves (the
/// owner's lease changed or lapsed, or it refused a request), every handle is gone, or `stop`.
pub async fn forward(
    node: Arc<Node>,
    info: Arc<TableInfo>,
    owner: String,
    mut rx: mpsc::Receiver<Command>,
    stop: CancellationToken,
) -> Rehome {
    let game = info.id.clone();
    let mut subscribers: HashMap<ConnId, (Viewer, Outbox)> = HashMap::new();
    let mut check = tokio::time::interval(super::RENEW_EVERY);
    check.tick().await;
    let ask = |conn: ConnId| Ask {
        node: node.id.clone(),
        conn,
        viewer: None,
        last_version: None,
        seat: None,
        version: None,
        action: None,
        req: None,
    };
    let moved = loop {
        tokio::select! {
            // Stopped by this node's lease keeper (it lost NATS: the owner drops this node's
            // sockets), the subscribers are told to come back; at shutdown they just close.
            _ = stop.cancelled() => break !node.healthy(),
            command = rx.recv() => match command {
                None => break false,
                Some(Command::Subscribe { conn, viewer, last_version, out }) => {
                    node.deliver_to(conn, &out);
                    subscribers.insert(conn, (viewer, out));
                    let request = Ask { viewer: Some(viewer), last_version, ..ask(conn) };
                    if !node.ask(&owner, &game, "sub", &request).await {
                        break true;
                    }
                }
                Some(Command::Unsubscribe { conn, done }) => {
                    subscribers.remove(&conn);
                    node.ask(&owner, &game, "unsub", &ask(conn)).await;
                    unsubscribed(done);
                }
                Some(Command::Action { conn, seat, version, action, req, out }) => {
                    node.deliver_to(conn, &out);
                    let request = Ask { seat: Some(seat), version: Some(version), action: Some(action), req, ..ask(conn) };
                    if !node.ask(&owner, &game, "act", &request).await {
                        // Not played: the client may retry, and reaches the game's new home.
                        out.send(error_text(&ApiError::Unavailable, req, Some(&game)));
                        break true;
                    }
                }
            },
            _ = check.tick() => match node.store.lease_holder(&game).await {
                Ok(Some(holder)) if holder.live && holder.node == owner => {}
                Ok(_) => break true,
                Err(e) => tracing::warn!(%game, error = %e, "lease check failed"),
            },
        }
    };
    if moved {
        tracing::info!(%game, %owner, "the game moved from its owner");
    }
    // Commands still queued when the loop ended must not vanish unanswered (a client would wait
    // for its snapshot forever): subscriptions go with the others to the game's new home, and an
    // action is answered `server/unavailable` (not played; the client retries there).
    rx.close();
    while let Ok(command) = rx.try_recv() {
        match command {
            Command::Subscribe { conn, viewer, out, .. } => {
                node.deliver_to(conn, &out);
                subscribers.insert(conn, (viewer, out));
            }
            Command::Unsubscribe { conn, done } => {
                subscribers.remove(&conn);
                unsubscribed(done);
            }
            Command::Action { req, out, .. } => {
                out.send(error_text(&ApiError::Unavailable, req, Some(&game)));
            }
        }
    }
    let subscribers = if moved {
        subscribers.into_iter().map(|(conn, (viewer, out))| (conn, viewer, out)).collect()
    } else {
        Vec::new()
    };
    Rehome { game, subscribers }
}

/// Subscribes a moved game's subscribers wherever it is now (on this node if this node took it
/// over). They get a fresh snapshot; if the game has no home within a few seconds, an error.
pub async fn rehome(tables: Arc<Tables>, rehome: Rehome) {
    let Rehome { game, subscribers } = rehome;
    if subscribers.is_empty() {
        return;
    }
    for _ in 0..20 {
        // The new owner takes the game when the old lease lapses: give it a moment.
        tokio::time::sleep(Duration::from_millis(250)).await;
        let table = match tables.get_or_load(&game).await {
            Ok(table) => table,
            // This node is stopping: nothing to wait for (its sockets close).
            Err(ApiError::ShuttingDown) => return,
            Err(_) => continue,
        };
        for (conn, viewer, out) in &subscribers {
            let command = Command::Subscribe { conn: *conn, viewer: *viewer, last_version: None, out: out.clone() };
            if !table.send(command).await {
                break;
            }
        }
        return;
    }
    for (_, _, out) in subscribers {
        out.send(error_text(&ApiError::Unavailable, None, Some(&game)));
    }
}

/// A table of this node stopped because another node took its lease: its subscribers on this
/// node follow the game to its new owner ([`rehome`]), or are told to subscribe again if it
/// cannot be reached; those on other nodes are told to subscribe again at once (their node then
/// finds the new owner itself).
pub async fn rehome_stopped(
    node: Arc<Node>,
    tables: Arc<Tables>,
    game: GameId,
    subscribers: Vec<(ConnId, Viewer, Outbox)>,
) {
    let remote: HashSet<ConnId> =
        node.remote_conns.lock().map(|conns| conns.values().map(|c| c.id).collect()).unwrap_or_default();
    let (theirs, ours): (Vec<_>, Vec<_>) = subscribers.into_iter().partition(|(conn, _, _)| remote.contains(conn));
    for (_, _, out) in theirs {
        out.send(error_text(&ApiError::Unavailable, None, Some(&game)));
    }
    rehome(tables, Rehome { game, subscribers: ours }).await;
}

/// Starts the owner's side (answering `chapterhouse.table.<this node>.*.*`) and the deliveries to this node's
/// sockets (`chapterhouse.deliver.<node>`).
pub(super) async fn start(node: Arc<Node>, state: AppState, stop: CancellationToken) -> anyhow::Result<()> {
    let mut requests = node.nats.subscribe(format!("chapterhouse.table.{}.*.*", node.id)).await?;
    let mut deliveries = node.nats.subscribe(deliver_subject(&node.id)).await?;
    let (owner, tables, until) = (Arc::clone(&node), state.tables.clone(), stop.clone());
    tokio::spawn(async move {
        while let Some(message) = super::next_or_stop(&mut requests, &until).await {
            // One task per request: a forwarding handle waits for each answer before it sends the
            // next, so its requests are still handled in order.
            tokio::spawn(answer(Arc::clone(&owner), Arc::clone(&tables), message));
        }
    });
    tokio::spawn(async move {
        while let Some(message) = super::next_or_stop(&mut deliveries, &stop).await {
            deliver(&node, &message.payload);
        }
    });
    Ok(())
}

/// Queues one message from an owner for a local socket.
fn deliver(node: &Node, payload: &[u8]) {
    let Some((conn, text)) = payload.split_first_chunk::<8>() else { return };
    let conn = ConnId::from_be_bytes(*conn);
    let Ok(text) = std::str::from_utf8(text) else { return };
    let Ok(mut deliveries) = node.deliveries.lock() else { return };
    if let Some(out) = deliveries.get(&conn) {
        if !out.send(text.into()) {
            // The socket is gone or fell behind (it closes, and resubscribes when it reconnects).
            deliveries.remove(&conn);
        }
    }
}

/// The owner's answer to one forwarded request.
async fn answer(node: Arc<Node>, tables: Arc<Tables>, message: async_nats::Message) {
    let Some(reply) = message.reply.clone() else { return };
    let answer = handle(&node, &tables, &message).await;
    let _ = node.nats.publish(reply, Bytes::from_static(if answer { OK } else { NOT_OWNER })).await;
}

async fn handle(node: &Arc<Node>, tables: &Arc<Tables>, message: &async_nats::Message) -> bool {
    let mut parts = message.subject.as_str().split('.').skip(3);
    let (Some(game), Some(verb)) = (parts.next(), parts.next()) else { return false };
    let game = GameId(game.to_string());
    let Ok(ask) = serde_json::from_slice::<Ask>(&message.payload) else { return false };
    if node.leases.epoch(&game).is_none() {
        return false;
    }
    // Held here but not loaded (a finished game left idle, or one just taken over): load it.
    let table = match tables.get_or_load(&game).await {
        Ok(table) if !table.is_remote() => table,
        _ => return false,
    };
    match verb {
        "sub" => {
            let Some(viewer) = ask.viewer else { return false };
            let (conn, out) = node.remote_conn(&ask.node, ask.conn, &game);
            table.send(Command::Subscribe { conn, viewer, last_version: ask.last_version, out }).await
        }
        "unsub" => match node.remote_conn_done(&ask.node, ask.conn, &game) {
            Some(conn) => table.send(Command::Unsubscribe { conn, done: None }).await,
            None => true,
        },
        "act" => {
            let (Some(seat), Some(version), Some(action)) = (ask.seat, ask.version, ask.action) else { return false };
            let (conn, out) = node.remote_conn(&ask.node, ask.conn, &game);
            table.send(Command::Action { conn, seat, version, action, req: ask.req, out }).await
        }
        _ => false,
    }
}
