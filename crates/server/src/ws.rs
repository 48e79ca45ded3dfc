//! One WebSocket connection: authenticates by token, follows lobbies and games, and forwards
//! actions to their tables. Every request that fails is answered with an `error` message.
//!
//! A connection is two tasks: this one reads and handles the client's frames; a writer sends the
//! connection's bounded [`Outbox`] queue. A client that stops reading fills the queue; its writer
//! then drops the backlog and closes the socket with [`CLOSE_SLOW_CONSUMER`], while the tables
//! and everyone else carry on. Signing out closes the sockets opened with that token
//! ([`CLOSE_UNAUTHORIZED`]).

use crate::accounts::{account_for, token_hash, SessionWatch};
use crate::error::ApiError;
use crate::http::AppState;
use crate::ids::{GameId, LobbyId};
use crate::outbox::{outbox, Outbox, OutboxReader};
use crate::protocol::{error_text, lobby_error_text, ClientMsg, ServerMsg, MAX_MESSAGE_BYTES};
use crate::store::Account;
use crate::table::{Command, ConnId, TableHandle};
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use game_core::Viewer;
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

/// Frames above this are refused by the WebSocket layer itself (the socket is closed with 1009);
/// frames above [`MAX_MESSAGE_BYTES`] but below this get a `proto/too_large` error.
const HARD_FRAME_LIMIT: usize = 1024 * 1024;

/// Close code sent when the token is refused or revoked (4000 + 401).
pub const CLOSE_UNAUTHORIZED: u16 = 4401;

/// Close code sent to a client that fell behind: its queue overflowed (4000 + 408, it did not
/// take its messages in time). The reason is `proto/slow_consumer`.
pub const CLOSE_SLOW_CONSUMER: u16 = 4408;

/// How long a closing socket may take to write what it still owes, its close frame included.
const CLOSE_GRACE: Duration = Duration::from_secs(10);

/// How long to wait for the client's answer to our close frame.
const CLOSE_REPLY: Duration = Duration::from_secs(2);

type Sink = SplitSink<WebSocket, Message>;
type Stream = SplitStream<WebSocket>;

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

/// Why a connection ends.
enum End {
    /// The client closed it or went away.
    ClientGone,
    /// The server closes it with this frame, after the messages already queued.
    Close(CloseFrame),
    /// Its queue overflowed: the writer dropped the backlog and closes it.
    FellBehind,
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
        for (_, table) in self.games.drain() {
            table.send(Command::Unsubscribe { conn: self.id }).await;
        }
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
            ClientMsg::UnsubscribeLobby { lobby, .. } => {
                if let Some(forward) = self.lobbies.remove(&lobby) {
                    forward.abort();
                }
            }
            ClientMsg::Subscribe { game, last_version, code, req } => {
                if let Err(e) = self.subscribe(&game, last_version, code).await {
                    self.fail(&e, req, Some(&game));
                }
            }
            ClientMsg::Unsubscribe { game, .. } => {
                if let Some(table) = self.games.remove(&game) {
                    table.send(Command::Unsubscribe { conn: self.id }).await;
                }
            }
            ClientMsg::Action { game, version, action, req } => {
                if let Err(e) = self.action(&game, version, action, req).await {
                    self.fail(&e, req, Some(&game));
                }
            }
        }
    }

    async fn subscribe_lobby(&mut self, id: LobbyId, code: Option<String>) -> Result<(), ApiError> {
        let (lobby, mut updates) = self.state.lobbies.follow(&id).await?;
        let account = self.account.as_ref().map(|a| a.id.clone());
        lobby.may_follow(account.as_ref(), code.as_deref())?;
        let lobby_json = serde_json::to_value(lobby.view(true)).unwrap_or_default();
        self.send(ServerMsg::Lobby { lobby: lobby_json }.to_text());
        let out = self.out.clone();
        let lobby_id = id.clone();
        let forward = tokio::spawn(async move {
            loop {
                match updates.recv().await {
                    Ok(update) => {
                        // Checked on every change: a member the host removed (or, once the lobby
                        // turns private, a follower without its code) stops here, told why.
                        if let Err(e) = update.lobby.may_follow(account.as_ref(), code.as_deref()) {
                            out.send(lobby_error_text(&e, &lobby_id));
                            break;
                        }
                        if !out.send(update.text) {
                            break;
                        }
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
                }
            }
        });
        if let Some(old) = self.lobbies.insert(id, forward) {
            old.abort();
        }
        Ok(())
    }

    async fn table(&mut self, game: &GameId) -> Result<TableHandle, ApiError> {
        match self.games.get(game) {
            Some(handle) => Ok(handle.clone()),
            None => self.state.tables.get_or_load(game).await,
        }
    }

    async fn viewer(&self, table: &TableHandle, code: Option<&str>) -> Result<Viewer, ApiError> {
        let info = &table.info;
        let account = self.account.as_ref().map(|a| &a.id);
        if let Some(seat) = account.and_then(|a| info.seat_of(a)) {
            return Ok(Viewer::Seat(seat));
        }
        if info.public || (code.is_some() && code == info.invite_code.as_deref()) {
            return Ok(Viewer::Spectator);
        }
        if let (Some(lobby), Some(account)) = (&info.lobby, account) {
            if self.state.lobbies.is_member(lobby, account).await {
                return Ok(Viewer::Spectator);
            }
        }
        Err(ApiError::InviteRequired)
    }

    async fn subscribe(
        &mut self,
        game: &GameId,
        last_version: Option<u64>,
        code: Option<String>,
    ) -> Result<(), ApiError> {
        // A table that stopped (a finished game left idle) is loaded again once.
        for _ in 0..2 {
            let table = self.table(game).await?;
            let viewer = self.viewer(&table, code.as_deref()).await?;
            let command = Command::Subscribe { conn: self.id, viewer, last_version, out: self.out.clone() };
            if table.send(command).await {
                self.games.insert(game.clone(), table);
                return Ok(());
            }
            self.games.remove(game);
        }
        Err(self.stopped())
    }

    fn stopped(&self) -> ApiError {
        if self.state.shutdown.is_cancelled() {
            ApiError::ShuttingDown
        } else {
            ApiError::Internal
        }
    }

    async fn action(
        &mut self,
        game: &GameId,
        version: u64,
        action: serde_json::Value,
        req: Option<u64>,
    ) -> Result<(), ApiError> {
        let account = self.account.as_ref().ok_or(ApiError::MissingToken)?.id.clone();
        for _ in 0..2 {
            let table = self.table(game).await?;
            let seat = table.info.seat_of(&account).ok_or(ApiError::NotAPlayer)?;
            // The table answers on this socket's queue itself, right behind the mover's patch.
            let command = Command::Action { seat, version, action: action.clone(), req, out: self.out.clone() };
            if !table.send(command).await {
                self.games.remove(game);
                continue;
            }
            return Ok(());
        }
        Err(self.stopped())
    }
}

/// Resolves when the socket's token is revoked; never for an anonymous socket.
async fn revoked(session: Option<&SessionWatch>) {
    match session {
        Some(session) => session.revoked().await,
        None => std::future::pending().await,
    }
}

fn text_frame(text: &str) -> Message {
    Message::Text(text.into())
}

/// Writes the connection's queue to the client until told to close (then what is queued goes out
/// first), or until the queue overflows: then the backlog is dropped and the socket is closed
/// with [`CLOSE_SLOW_CONSUMER`].
async fn write(mut sink: Sink, mut queue: OutboxReader, mut close: oneshot::Receiver<CloseFrame>) {
    let fell_behind = queue.overflow_signal();
    loop {
        tokio::select! {
            biased;
            _ = fell_behind.cancelled() => {
                queue.discard();
                let frame = CloseFrame { code: CLOSE_SLOW_CONSUMER, reason: "proto/slow_consumer".into() };
                let _ = tokio::time::timeout(CLOSE_GRACE, sink.send(Message::Close(Some(frame)))).await;
                return;
            }
            frame = &mut close => {
                if let Ok(frame) = frame {
                    let _ = tokio::time::timeout(CLOSE_GRACE, async {
                        while let Some(text) = queue.try_recv() {
                            sink.send(text_frame(&text)).await?;
                        }
                        sink.send(Message::Close(Some(frame))).await
                    })
                    .await;
                }
                return;
            }
            text = queue.recv() => {
                let Some(text) = text else { return };
                // What is queued together (a patch and the ack behind it) goes out in one write.
                let send_queued = async {
                    sink.feed(text_frame(&text)).await?;
                    while let Some(more) = queue.try_recv() {
                        sink.feed(text_frame(&more)).await?;
                    }
                    sink.flush().await
                };
                tokio::select! {
                    sent = send_queued => if sent.is_err() { return },
                    // A client that stopped reading: stop waiting on it (the frame stays buffered
                    // whole, ahead of the close frame), so that the overflow is handled above.
                    _ = fell_behind.cancelled() => {}
                }
            }
        }
    }
}

/// Waits until the writer has sent its close frame (or given up), discarding what the client still
/// sends meanwhile (closing with unread data would reset the connection and lose the close frame),
/// then briefly for the client's answer.
async fn finish(stream: &mut Stream, mut writer: JoinHandle<()>) {
    let written = tokio::select! {
        _ = &mut writer => true,
        _ = until_closed(stream) => false,
        _ = tokio::time::sleep(CLOSE_GRACE + CLOSE_REPLY) => false,
    };
    if written {
        let _ = tokio::time::timeout(CLOSE_REPLY, until_closed(stream)).await;
    } else {
        let _ = tokio::time::timeout(CLOSE_REPLY, &mut writer).await;
        writer.abort();
    }
}

/// Reads until the client's close frame or the end of the stream.
async fn until_closed(stream: &mut Stream) {
    while let Some(Ok(frame)) = stream.next().await {
        if matches!(frame, Message::Close(_)) {
            return;
        }
    }
}
