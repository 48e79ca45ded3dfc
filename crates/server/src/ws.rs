//! One WebSocket connection: authenticates by token, follows lobbies and games, and forwards
//! actions to their tables. Every request that fails is answered with an `error` message.

use crate::accounts::account_for;
use crate::error::ApiError;
use crate::http::AppState;
use crate::ids::{GameId, LobbyId};
use crate::protocol::{error_text, ClientMsg, ServerMsg, MAX_MESSAGE_BYTES};
use crate::store::Account;
use crate::table::{Command, ConnId, Outbox, TableHandle};
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use game_core::Viewer;
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

/// Frames above this are refused by the WebSocket layer itself (the socket is closed with 1009);
/// frames above [`MAX_MESSAGE_BYTES`] but below this get a `proto/too_large` error.
const HARD_FRAME_LIMIT: usize = 1024 * 1024;

/// Close code sent when the token is refused (4000 + 401).
pub const CLOSE_UNAUTHORIZED: u16 = 4401;

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
        let (out, mut outbox) = mpsc::unbounded_channel::<Arc<str>>();
        let mut conn = Connection {
            id: state.next_conn.fetch_add(1, Ordering::Relaxed),
            state: state.clone(),
            account,
            out,
            games: HashMap::new(),
            lobbies: HashMap::new(),
        };
        conn.send(
            ServerMsg::Welcome { account: conn.account.as_ref(), max_message_bytes: MAX_MESSAGE_BYTES }.to_text(),
        );
        let closing = state.sockets_closing.clone();
        loop {
            tokio::select! {
                frame = stream.next() => match frame {
                    Some(Ok(Message::Text(text))) => conn.handle(text.as_str()).await,
                    Some(Ok(Message::Binary(_))) => {
                        conn.send(error_text(&ApiError::Malformed("send text frames with JSON".into()), None, None));
                    }
                    Some(Ok(Message::Close(_))) | None => break,
                    Some(Ok(_)) => {}
                    Some(Err(e)) => {
                        tracing::debug!(conn = conn.id, error = %e, "socket read failed");
                        // A frame past the hard limit: say so with the standard close code.
                        if e.to_string().contains("too long") {
                            let frame = CloseFrame { code: axum::extract::ws::close_code::SIZE, reason: "proto/too_large".into() };
                            let _ = sink.send(Message::Close(Some(frame))).await;
                        }
                        break;
                    }
                },
                Some(text) = outbox.recv() => {
                    if sink.send(Message::Text(text.as_ref().into())).await.is_err() {
                        break;
                    }
                }
                _ = closing.cancelled() => {
                    while let Ok(text) = outbox.try_recv() {
                        let _ = sink.send(Message::Text(text.as_ref().into())).await;
                    }
                    let frame = CloseFrame { code: axum::extract::ws::close_code::AWAY, reason: "server shutting down".into() };
                    let _ = sink.send(Message::Close(Some(frame))).await;
                    // Wait briefly for the client's close reply, so the close handshake completes.
                    let _ = tokio::time::timeout(std::time::Duration::from_secs(2), async {
                        while let Some(Ok(frame)) = stream.next().await {
                            if matches!(frame, Message::Close(_)) { break; }
                        }
                    }).await;
                    break;
                }
            }
        }
        conn.close().await;
    }

    fn send(&self, text: Arc<str>) {
        let _ = self.out.send(text);
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
        if !lobby.may_see(self.account.as_ref().map(|a| &a.id), code.as_deref()) {
            return Err(ApiError::InviteRequired);
        }
        let lobby_json = serde_json::to_value(lobby.view(true)).unwrap_or_default();
        self.send(ServerMsg::Lobby { lobby: lobby_json }.to_text());
        let out = self.out.clone();
        let forward = tokio::spawn(async move {
            loop {
                match updates.recv().await {
                    Ok(text) => {
                        if out.send(text).is_err() {
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
            let (reply, answer) = oneshot::channel();
            if !table.send(Command::Action { seat, version, action: action.clone(), reply }).await {
                self.games.remove(game);
                continue;
            }
            // The answer comes after the commit; wait for it off the read loop.
            let out = self.out.clone();
            let game = game.clone();
            let shutting_down = self.state.shutdown.clone();
            tokio::spawn(async move {
                let text = match answer.await {
                    Ok(Ok(version)) => ServerMsg::Ack { req, game: &game, version }.to_text(),
                    Ok(Err(e)) => error_text(&e, req, Some(&game)),
                    Err(_) if shutting_down.is_cancelled() => error_text(&ApiError::ShuttingDown, req, Some(&game)),
                    Err(_) => error_text(&ApiError::Internal, req, Some(&game)),
                };
                let _ = out.send(text);
            });
            return Ok(());
        }
        Err(self.stopped())
    }
}
