//! One WebSocket connection: authenticates by token, follows lobbies and games, and forwards
//! actions to their tables. Every request that fails is answered with an `error` message.
//!
//! - [`transport`]: frame limits, close codes, the writer task and the closing handshake.
//! - [`lobby`]: following lobbies.
//! - [`game`]: game subscriptions and actions.
//!
//! A connection is two tasks: this one reads and handles the client's frames; a writer sends the
//! connection's bounded [`Outbox`] queue (see [`transport`]). Signing out closes the sockets
//! opened with that token ([`CLOSE_UNAUTHORIZED`]).

mod game;
mod lobby;
mod transport;

pub use transport::{CLOSE_SLOW_CONSUMER, CLOSE_UNAUTHORIZED};

use crate::accounts::{account_for, token_hash, SessionWatch};
use crate::error::ApiError;
use crate::ids::{GameId, LobbyId};
use crate::outbox::{outbox, Outbox};
use crate::protocol::{error_text, ClientMsg, ServerMsg, MAX_MESSAGE_BYTES};
use crate::state::AppState;
use crate::store::Account;
use crate::table::{ConnId, TableHandle};
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use transport::{finish, revoked, write, End, Stream, HARD_FRAME_LIMIT};

#[derive(Deserialize)]
pub(crate) struct WsQuery {
    token: Option<String>,
}

/// `GET /ws[?token=...]`: upgrades to a WebSocket.
pub(crate) async fn upgrade(
    ws: WebSocketUpgrade,
    State(state): State<AppState>,
    Query(q): Query<WsQuery>,
    headers: HeaderMap,
) -> Response {
    let token = q.token.or_else(|| {
        let value = headers.get(axum::http::header::AUTHORIZATION)?.to_str().ok()?;
        value.strip_prefix("Bearer ").map(|t| t.trim().to_string())
    });
    let guard = state.sockets.token();
    ws.max_message_size(HARD_FRAME_LIMIT).max_frame_size(HARD_FRAME_LIMIT).on_upgrade(move |socket| async move {
        Connection::run(state, socket, token).await;
        drop(guard);
    })
}

struct Connection {
    id: ConnId,
    state: AppState,
    account: Option<Account>,
    out: Outbox,
    games: HashMap<GameId, TableHandle>,
    lobbies: HashMap<LobbyId, JoinHandle<()>>,
}

impl Connection {
    async fn run(state: AppState, socket: WebSocket, token: Option<String>) {
        let (mut sink, mut stream) = socket.split();
        // Watched before the store is asked, so that a sign-out committed after the check is seen.
        let session = token.as_deref().map(|t| state.sessions.watch(&token_hash(t)));
        let account = match token {
            None => None,
            Some(token) => match account_for(&state, &token).await {
                Ok(account) => Some(account),
                Err(e) => {
                    let _ = sink.send(Message::Text(error_text(&e, None, None).as_ref().into())).await;
                    let frame = CloseFrame { code: CLOSE_UNAUTHORIZED, reason: e.code().into() };
                    let _ = sink.send(Message::Close(Some(frame))).await;
                    return;
                }
            },
        };
        let (out, queue) = outbox(state.socket_queue);
        let fell_behind = queue.overflow_signal();
        let (close, close_rx) = oneshot::channel();
        let writer = tokio::spawn(write(sink, queue, close_rx));
        let mut conn = Connection {
            id: state.next_conn.fetch_add(1, Ordering::Relaxed),
            state,
            account,
            out,
            games: HashMap::new(),
            lobbies: HashMap::new(),
        };
        conn.send(
            ServerMsg::Welcome { account: conn.account.as_ref(), max_message_bytes: MAX_MESSAGE_BYTES }.to_text(),
        );
        let end = conn.read(&mut stream, session.as_ref(), &fell_behind).await;
        conn.close().await;
        match end {
            End::ClientGone => writer.abort(),
            End::Close(frame) => {
                let _ = close.send(frame);
                finish(&mut stream, writer).await;
            }
            End::FellBehind => {
                tracing::info!(conn = conn.id, "socket fell behind: backlog dropped, closing");
                finish(&mut stream, writer).await;
            }
        }
    }

    /// Handles the client's frames until the connection has to end.
    async fn read(
        &mut self,
        stream: &mut Stream,
        session: Option<&SessionWatch>,
        fell_behind: &CancellationToken,
    ) -> End {
        let closing = self.state.sockets_closing.clone();
        loop {
            tokio::select! {
                biased;
                _ = revoked(session) => {
                    self.fail(&ApiError::InvalidToken, None, None);
                    let reason = ApiError::InvalidToken.code().into();
                    return End::Close(CloseFrame { code: CLOSE_UNAUTHORIZED, reason });
                }
                _ = fell_behind.cancelled() => return End::FellBehind,
                _ = closing.cancelled() => {
                    let reason = "server shutting down".into();
                    return End::Close(CloseFrame { code: axum::extract::ws::close_code::AWAY, reason });
                }
                frame = stream.next() => match frame {
                    Some(Ok(Message::Text(text))) => self.handle(text.as_str()).await,
                    Some(Ok(Message::Binary(_))) => {
                        self.fail(&ApiError::Malformed("send text frames with JSON".into()), None, None);
                    }
                    Some(Ok(Message::Close(_))) | None => return End::ClientGone,
                    Some(Ok(_)) => {}
                    Some(Err(e)) => {
                        tracing::debug!(conn = self.id, error = %e, "socket read failed");
                        // A frame past the hard limit: say so with the standard close code.
                        if e.to_string().contains("too long") {
                            let reason = "proto/too_large".into();
                            return End::Close(CloseFrame { code: axum::extract::ws::close_code::SIZE, reason });
                        }
                        return End::ClientGone;
                    }
                },
            }
        }
    }

    fn send(&self, text: Arc<str>) {
        self.out.send(text);
    }

    fn fail(&self, error: &ApiError, req: Option<u64>, game: Option<&GameId>) {
        self.send(error_text(error, req, game));
    }

    async fn close(&mut self) {
        for (_, forward) in self.lobbies.drain() {
            forward.abort();
        }
        self.unsubscribe_all().await;
    }

    async fn handle(&mut self, text: &str) {
        let msg = match ClientMsg::parse(text) {
            Ok(msg) => msg,
            Err((error, req)) => return self.fail(&error, req, None),
        };
        match msg {
            ClientMsg::Ping { req } => self.send(ServerMsg::Pong { req }.to_text()),
            ClientMsg::SubscribeLobby { lobby, code, req } => {
                if let Err(e) = self.subscribe_lobby(lobby, code).await {
                    self.fail(&e, req, None);
                }
            }
            ClientMsg::UnsubscribeLobby { lobby, .. } => self.unsubscribe_lobby(&lobby),
            ClientMsg::Subscribe { game, last_version, code, req } => {
                if let Err(e) = self.subscribe(&game, last_version, code).await {
                    self.fail(&e, req, Some(&game));
                }
            }
            ClientMsg::Unsubscribe { game, .. } => self.unsubscribe(&game).await,
            ClientMsg::Action { game, version, action, req } => {
                if let Err(e) = self.action(&game, version, action, req).await {
                    self.fail(&e, req, Some(&game));
                }
            }
        }
    }
}
