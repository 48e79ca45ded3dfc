//! One WebSocket connection: authenticates by token, follows lobbies and games, and forwards
//! actions to their tables. Every request that fails is answered with an `error` message.
//!
//! - [`frames`]: the WebSocket protocol itself (RFC 6455): the handshake's answer, reading and
//!   writing frames.
//! - [`transport`]: frame limits, close codes, the writer task and the closing handshake.
//! - [`lobby`]: following lobbies.
//! - [`game`]: game subscriptions and actions.
//! - [`chat`]: the chat of the lobbies and games followed; writing; the host's mute.
//!
//! A connection is two tasks: this one reads and handles the client's frames; a writer sends the
//! connection's bounded [`Outbox`] queue (see [`transport`]). A sender whose message has nothing
//! queued ahead of it writes it to the socket itself when the socket takes it at once (a table's
//! patch and ack, most of the time), so the writer task only runs for a client that is slow to
//! read. Signing out closes the sockets opened with that token ([`CLOSE_UNAUTHORIZED`]).

mod chat;
mod frames;
mod game;
mod lobby;
mod transport;

pub use transport::{CLOSE_SLOW_CONSUMER, CLOSE_UNAUTHORIZED};

use crate::accounts::{account_for, token_hash, SessionWatch};
use crate::chat::{Access, Room};
use crate::error::ApiError;
use crate::http::extract::{ClientIp, Query};
use crate::ids::{GameId, LobbyId};
use crate::limits::SocketRate;
use crate::outbox::{outbox_to, Direct, Frame, Outbox};
use crate::protocol::{error_text, ClientMsg, ServerMsg, MAX_MESSAGE_BYTES};
use crate::state::AppState;
use crate::store::Account;
use crate::table::{ConnId, TableHandle};
use axum::extract::ws::{close_code, CloseFrame, Message};
use axum::extract::{FromRequestParts, State};
use axum::http::HeaderMap;
use axum::response::IntoResponse;
use axum::response::Response;
use frames::{NotAnUpgrade, ReadError, Upgrade, WsConn};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;
use transport::{finish, linger, watch, write, End, Notice, Sink, Socket, Stream, Watched, HARD_FRAME_LIMIT};

/// The subprotocol every client offers (and the server selects).
pub const SUBPROTOCOL: &str = "chapterhouse";

/// A socket's read buffer, allocated when it opens (a general WebSocket library's default, 128 KiB,
/// made an idle socket cost ~141 KiB); client messages are small, and a larger frame (up to the
/// hard limit) still reads: the buffer grows for it, and shrinks back once it is read.
const READ_BUFFER: usize = 4 * 1024;

/// How much the writer gathers before it writes to the connection (a flush writes it anyway):
/// a patch and the ack behind it still leave in one write. The buffer is allocated on the first
/// message, and one that grew past this (a snapshot, a backlog) is given back once written.
const WRITE_BUFFER: usize = 16 * 1024;

/// The prefix of the subprotocol that carries a token: `chapterhouse.token.<token>`. Browsers
/// cannot set headers on a WebSocket, and a URL ends up in logs and proxies; the subprotocol
/// list is a header that neither keeps.
pub const TOKEN_SUBPROTOCOL_PREFIX: &str = "chapterhouse.token.";

#[derive(Deserialize)]
pub(crate) struct WsQuery {
    token: Option<String>,
}

/// The token a socket request carries: in its subprotocol list, or as a bearer token.
fn socket_token(headers: &HeaderMap) -> Option<String> {
    let offered = headers.get_all(axum::http::header::SEC_WEBSOCKET_PROTOCOL);
    let from_protocol = offered
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .find_map(|p| p.trim().strip_prefix(TOKEN_SUBPROTOCOL_PREFIX).map(str::to_string));
    from_protocol.or_else(|| {
        let value = headers.get(axum::http::header::AUTHORIZATION)?.to_str().ok()?;
        value.strip_prefix("Bearer ").map(|t| t.trim().to_string())
    })
}

/// A WebSocket upgrade request, checked (or why it is not one).
pub(crate) struct UpgradeRequest(Result<Upgrade, NotAnUpgrade>);

impl<S: Send + Sync> FromRequestParts<S> for UpgradeRequest {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut axum::http::request::Parts, _: &S) -> Result<Self, Self::Rejection> {
        let on_upgrade = parts.extensions.remove::<hyper::upgrade::OnUpgrade>();
        Ok(UpgradeRequest(Upgrade::check(&parts.method, &parts.headers, on_upgrade, SUBPROTOCOL)))
    }
}

/// `GET /ws`: upgrades to a WebSocket. The token comes as a subprotocol (or a bearer token);
/// one in the URL is refused, so that clients stop sending it where it is logged.
pub(crate) async fn upgrade(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Query(q): Query<WsQuery>,
    headers: HeaderMap,
    UpgradeRequest(ws): UpgradeRequest,
) -> Response {
    if q.token.is_some() {
        return ApiError::TokenInUrl.into_response();
    }
    let Ok(ws) = ws else { return ApiError::UpgradeRequired.into_response() };
    let slot = match state.limits.open_socket(ip) {
        Ok(slot) => slot,
        Err(e) => return e.into_response(),
    };
    let token = socket_token(&headers);
    let guard = state.sockets.token();
    let (response, on_upgrade) = ws.answer();
    tokio::spawn(async move {
        match on_upgrade.await {
            Ok(upgraded) => {
                let io = hyper_util::rt::TokioIo::new(upgraded);
                let socket = WsConn::new(io, &[], READ_BUFFER, WRITE_BUFFER, HARD_FRAME_LIMIT);
                Connection::run(state, socket, token).await;
            }
            Err(e) => tracing::debug!(error = %e, "WebSocket upgrade failed"),
        }
        drop((guard, slot));
    });
    response
}

struct Connection {
    id: ConnId,
    state: AppState,
    account: Option<Account>,
    out: Outbox,
    /// Looked up on every action: hashed with foldhash (seeded per process), not SipHash.
    games: HashMap<GameId, TableHandle, foldhash::fast::RandomState>,
    lobbies: HashMap<LobbyId, JoinHandle<()>>,
    rate: SocketRate,
    chats: HashMap<crate::chat::Room, chat::ChatFollow>,
}

impl Connection {
    async fn run(state: AppState, socket: WsConn, token: Option<String>) {
        let socket = Socket::new(socket);
        let mut stream = Stream::new(&socket);
        // Watched before the store is asked, so that a sign-out committed after the check is seen.
        let session = token.as_deref().map(|t| state.sessions.watch(&token_hash(t)));
        let account = match token {
            None => None,
            Some(token) => match account_for(&state, &token).await {
                Ok(account) => Some(account),
                Err(e) => {
                    let mut sink = Sink::new(&socket);
                    let _ = sink.send(Message::Text(error_text(&e, None, None))).await;
                    let frame = CloseFrame { code: CLOSE_UNAUTHORIZED, reason: e.code().into() };
                    let _ = sink.send(Message::Close(Some(frame))).await;
                    socket.drop_connection();
                    return;
                }
            },
        };
        let (out, queue) = outbox_to(state.socket_queue, Some(Arc::clone(&socket) as Arc<dyn Direct>));
        let id = state.next_conn.fetch_add(1, Ordering::Relaxed);
        let notices = watch(Watched {
            conn: id,
            revoked: session.as_ref().map(SessionWatch::revoked_signal),
            fell_behind: queue.overflow_signal(),
            closing: state.sockets_closing.clone(),
            kicks: state.lobbies.kicks(),
        });
        let (close, close_rx) = oneshot::channel();
        let writer = tokio::spawn(write(Arc::clone(&socket), queue, close_rx));
        let mut conn = Connection {
            id,
            rate: state.limits.socket_messages(),
            state,
            account,
            out,
            games: HashMap::default(),
            lobbies: HashMap::new(),
            chats: HashMap::new(),
        };
        conn.send(
            ServerMsg::Welcome { account: conn.account.as_ref(), max_message_bytes: MAX_MESSAGE_BYTES }.to_text(),
        );
        let end = conn.read(&mut stream, session.as_ref(), notices).await;
        conn.close().await;
        match end {
            End::ClientGone => writer.abort(),
            End::Close(frame) => {
                let _ = close.send(frame);
                finish(&mut stream, writer).await;
            }
            End::Refused(frame) => {
                let _ = close.send(frame);
                linger(writer).await;
            }
            End::FellBehind => {
                tracing::info!(conn = conn.id, "socket fell behind: backlog dropped, closing");
                finish(&mut stream, writer).await;
            }
        }
        // Senders that still hold the queue cannot keep the connection open.
        socket.drop_connection();
    }

    /// Handles the client's frames, and the [`Notice`]s about the connection, until the
    /// connection has to end.
    async fn read(
        &mut self,
        stream: &mut Stream,
        session: Option<&SessionWatch>,
        mut notices: mpsc::UnboundedReceiver<Notice>,
    ) -> End {
        loop {
            tokio::select! {
                biased;
                Some(notice) = notices.recv() => match notice {
                    Notice::Revoked => {
                        return self.revoked();
                    }
                    Notice::FellBehind => return End::FellBehind,
                    Notice::Kick(kick) => {
                        self.kicked_from_chat(&kick);
                        self.kicked(*kick).await;
                    }
                    Notice::Closing => {
                        let reason = "server shutting down".into();
                        return End::Close(CloseFrame { code: close_code::AWAY, reason });
                    }
                },
                frame = stream.next() => match frame {
                    Some(Ok(Message::Text(text))) => {
                        // The watcher may not have passed these on yet: nothing is handled after them.
                        if session.is_some_and(SessionWatch::is_revoked) {
                            return self.revoked();
                        }
                        if self.out.fell_behind() {
                            return End::FellBehind;
                        }
                        self.handle(text.as_str()).await;
                    }
                    Some(Ok(Message::Binary(_))) => {
                        self.fail(&ApiError::Malformed("send text frames with JSON".into()), None, None);
                    }
                    Some(Ok(Message::Close(_))) | None => return End::ClientGone,
                    Some(Ok(_)) => {}
                    Some(Err(e)) => {
                        tracing::debug!(conn = self.id, error = %e, "socket read failed");
                        let (code, reason) = match e {
                            // A frame past the hard limit: the standard close code says so.
                            ReadError::TooLong => (close_code::SIZE, "proto/too_large"),
                            // A text frame that is not UTF-8 (RFC 6455: close with 1007).
                            ReadError::NotUtf8 => (close_code::INVALID, "proto/malformed"),
                            ReadError::Protocol(_) => (close_code::PROTOCOL, "proto/malformed"),
                            ReadError::Io(_) => return End::ClientGone,
                        };
                        return End::Refused(CloseFrame { code, reason: reason.into() });
                    }
                },
            }
        }
    }

    /// Tells the client its token was revoked; the socket then closes with [`CLOSE_UNAUTHORIZED`].
    fn revoked(&self) -> End {
        self.fail(&ApiError::InvalidToken, None, None);
        let reason = ApiError::InvalidToken.code().into();
        End::Close(CloseFrame { code: CLOSE_UNAUTHORIZED, reason })
    }

    fn send(&self, text: Frame) {
        self.out.send(text);
    }

    fn fail(&self, error: &ApiError, req: Option<u64>, game: Option<&GameId>) {
        self.send(error_text(error, req, game));
    }

    /// Refuses a new subscription once the socket follows as many games and lobbies as allowed.
    fn room_for_one_more(&self) -> Result<(), ApiError> {
        let limit = self.state.limits.config.subscriptions_per_socket;
        if self.games.len() + self.lobbies.len() >= limit {
            return Err(ApiError::TooManySubscriptions { limit });
        }
        Ok(())
    }

    async fn close(&mut self) {
        self.chats.clear();
        for (_, forward) in self.lobbies.drain() {
            crate::metrics::subscriptions(-1.0);
            forward.abort();
        }
        self.unsubscribe_all().await;
    }

    async fn handle(&mut self, text: &str) {
        let msg = match ClientMsg::parse(text) {
            Ok(msg) => msg,
            Err((error, req)) => return self.fail(&error, req, None),
        };
        let account_rate = self.account.as_ref().map_or(Ok(()), |a| self.state.limits.account_message(&a.id));
        if let Err(e) = self.rate.check().and(account_rate) {
            return self.fail(&e, msg.req(), None);
        }
        match msg {
            ClientMsg::Ping { req } => self.send(ServerMsg::Pong { req }.to_text()),
            ClientMsg::SubscribeLobby { lobby, code, req } => {
                match self.subscribe_lobby(lobby.clone(), code.clone()).await {
                    Ok(()) => self.follow_chat(Room::Lobby(lobby.clone()), Access::Lobby(lobby), code).await,
                    Err(e) => self.fail(&e, req, None),
                }
            }
            ClientMsg::UnsubscribeLobby { lobby, .. } => {
                self.unfollow_chat(&Room::Lobby(lobby.clone()));
                self.unsubscribe_lobby(&lobby);
            }
            ClientMsg::Subscribe { game, last_version, code, req } => {
                match self.subscribe(&game, last_version, code.clone()).await {
                    Ok(()) => {
                        if let Some(table) = self.games.get(&game) {
                            let access = Access::Game(Arc::clone(&table.info));
                            self.follow_chat(Room::Game(game), access, code).await;
                        }
                    }
                    Err(e) => self.fail(&e, req, Some(&game)),
                }
            }
            ClientMsg::Unsubscribe { game, .. } => {
                self.unfollow_chat(&Room::Game(game.clone()));
                self.unsubscribe(&game).await;
            }
            ClientMsg::Chat { lobby, game, text, req } => {
                let about = game.clone();
                if let Err(e) = self.chat(lobby, game, &text).await {
                    self.fail(&e, req, about.as_ref());
                }
            }
            ClientMsg::ChatMute { lobby, account, muted, req } => {
                if let Err(e) = self.mute(lobby, account, muted).await {
                    self.fail(&e, req, None);
                }
            }
            ClientMsg::Action { game, version, action, req } => {
                if let Err(e) = self.action(&game, version, action.0, req).await {
                    self.fail(&e, req, Some(&game));
                }
            }
        }
    }
}
