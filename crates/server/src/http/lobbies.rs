//! `/api/lobbies...`: create, list, look, join, seats, bots, kick, options, start.

use super::extract::{Path, Query, RawBody};
use super::Body;
use crate::accounts::{Auth, MaybeAuth};
use crate::chat::Room;
use crate::clock::TurnLimit;
use crate::error::ApiError;
use crate::ids::{AccountId, GameId, LobbyId};
use crate::lobby::registry::NewLobby;
use crate::lobby::{Lobby, LobbyView};
use crate::state::AppState;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/lobbies", post(create).get(list))
        .route("/api/lobbies/{id}", get(show))
        .route("/api/lobbies/{id}/join", post(join))
        .route("/api/lobbies/{id}/leave", post(leave))
        .route("/api/lobbies/{id}/seat", post(take_seat))
        .route("/api/lobbies/{id}/unseat", post(leave_seat))
        .route("/api/lobbies/{id}/bots", post(add_bot))
        .route("/api/lobbies/{id}/kick", post(kick))
        .route("/api/lobbies/{id}/options", post(configure))
        .route("/api/lobbies/{id}/start", post(start))
}

/// `{"lobby": …}`, written straight from the lobby's view (no `Value` built for it: every lobby
/// change answers with one, and a game's set-up is five of them).
fn view(lobby: &Lobby, for_members: bool) -> Response {
    Json(LobbyAnswer { lobby: lobby.view(for_members), game: None }).into_response()
}

/// The answer to a lobby change: the lobby, and the game it started.
#[derive(Serialize)]
struct LobbyAnswer<'a> {
    lobby: LobbyView<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<GameId>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateBody {
    game: String,
    #[serde(default)]
    options: Value,
    #[serde(default)]
    public: bool,
    #[serde(default)]
    turn_seconds: Option<serde_json::Number>,
    #[serde(default)]
    rated: bool,
}

async fn create(
    State(state): State<AppState>,
    Auth(account): Auth,
    Body(body): Body<CreateBody>,
) -> Result<Response, ApiError> {
    let turn_seconds = body.turn_seconds.as_ref().map(TurnLimit::from_json).transpose()?;
    state.limits.new_lobby(&account.id)?;
    let new = NewLobby { game: body.game, options: body.options, public: body.public, turn_seconds, rated: body.rated };
    // A new lobby's chat holds no message and no mute: its followers need not read it from the
    // store (unless something is said or muted before it is marked; see `ChatRooms::is_quiet`).
    let ticket = state.chat.quiet_ticket();
    let lobby = state.lobbies.create(&account, new).await?;
    state.chat.mark_quiet(&Room::Lobby(lobby.id.clone()), ticket);
    Ok(view(&lobby, true))
}

async fn list(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    let records = state.store.public_open_lobbies(100).await?;
    let lobbies: Vec<Value> = records
        .into_iter()
        .filter_map(|r| serde_json::from_str::<Lobby>(&r.state).ok())
        .map(|l| serde_json::to_value(l.view(false)).unwrap_or(Value::Null))
        .collect();
    Ok(Json(json!({ "lobbies": lobbies })))
}

#[derive(Deserialize)]
struct CodeQuery {
    code: Option<String>,
}

async fn show(
    State(state): State<AppState>,
    MaybeAuth(account): MaybeAuth,
    Path(id): Path<LobbyId>,
    Query(q): Query<CodeQuery>,
) -> Result<Response, ApiError> {
    let lobby = state.lobbies.get(&id).await?;
    let account = account.map(|a| a.id);
    if !lobby.may_see(account.as_ref(), q.code.as_deref()) {
        return Err(ApiError::InviteRequired);
    }
    let member = account.is_some_and(|a| lobby.is_member(&a)) || q.code.as_deref() == Some(&lobby.invite_code);
    Ok(view(&lobby, member))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct JoinBody {
    #[serde(default)]
    code: Option<String>,
    /// A free seat to take on joining: one stored change instead of a join and then a seat.
    #[serde(default)]
    seat: Option<usize>,
}

async fn join(
    State(state): State<AppState>,
    Auth(account): Auth,
    Path(id): Path<LobbyId>,
    RawBody(body): RawBody,
) -> Result<Response, ApiError> {
    // The body is optional: public lobbies need no code.
    let body: JoinBody = if body.iter().all(u8::is_ascii_whitespace) {
        JoinBody::default()
    } else {
        serde_json::from_slice(&body).map_err(|e| ApiError::Malformed(e.to_string()))?
    };
    let members = state.limits.config.members_per_lobby;
    // Both or neither: a seat that cannot be taken leaves the lobby as it was.
    let lobby = state
        .lobbies
        .change(&id, |l| {
            l.join(&account, body.code.as_deref(), members)?;
            body.seat.map_or(Ok(()), |seat| l.take_seat(&account, seat))
        })
        .await?;
    Ok(view(&lobby, true))
}

async fn leave(
    State(state): State<AppState>,
    Auth(account): Auth,
    Path(id): Path<LobbyId>,
) -> Result<Response, ApiError> {
    let lobby = state.lobbies.change(&id, |l| l.leave(&account.id)).await?;
    Ok(view(&lobby, false))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatBody {
    seat: usize,
}

async fn take_seat(
    State(state): State<AppState>,
    Auth(account): Auth,
    Path(id): Path<LobbyId>,
    Body(body): Body<SeatBody>,
) -> Result<Response, ApiError> {
    let lobby = state.lobbies.change(&id, |l| l.take_seat(&account, body.seat)).await?;
    Ok(view(&lobby, true))
}

async fn leave_seat(
    State(state): State<AppState>,
    Auth(account): Auth,
    Path(id): Path<LobbyId>,
) -> Result<Response, ApiError> {
    let lobby = state.lobbies.change(&id, |l| l.leave_seat(&account.id)).await?;
    Ok(view(&lobby, true))
}

async fn add_bot(
    State(state): State<AppState>,
    Auth(account): Auth,
    Path(id): Path<LobbyId>,
    Body(body): Body<SeatBody>,
) -> Result<Response, ApiError> {
    let lobby = state.lobbies.add_bot(&id, &account, body.seat).await?;
    Ok(view(&lobby, true))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KickBody {
    account: AccountId,
}

async fn kick(
    State(state): State<AppState>,
    Auth(account): Auth,
    Path(id): Path<LobbyId>,
    Body(body): Body<KickBody>,
) -> Result<Response, ApiError> {
    let lobby = state.lobbies.kick(&id, &account.id, &body.account).await?;
    Ok(view(&lobby, true))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OptionsBody {
    #[serde(default)]
    options: Option<Value>,
    #[serde(default)]
    public: Option<bool>,
    /// Absent: unchanged; null: no limit; a number: the limit in seconds.
    #[serde(default, deserialize_with = "some")]
    turn_seconds: Option<Option<serde_json::Number>>,
    #[serde(default)]
    rated: Option<bool>,
}

fn some<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<serde_json::Number>>, D::Error> {
    Option::<serde_json::Number>::deserialize(d).map(Some)
}

async fn configure(
    State(state): State<AppState>,
    Auth(account): Auth,
    Path(id): Path<LobbyId>,
    Body(body): Body<OptionsBody>,
) -> Result<Response, ApiError> {
    let current = state.lobbies.get(&id).await?;
    if current.host != account.id {
        return Err(ApiError::NotHost);
    }
    let options = match body.options {
        None => None,
        Some(options) => {
            let descriptor =
                state.catalog.get(&current.game).ok_or_else(|| ApiError::UnknownGame(current.game.clone()))?;
            Some(descriptor.normalize_options(&options)?)
        }
    };
    let turn_seconds = match &body.turn_seconds {
        None => None,
        Some(limit) => Some(limit.as_ref().map(TurnLimit::from_json).transpose()?),
    };
    let lobby = state
        .lobbies
        .change(&id, |l| {
            l.configure(&account.id, options, body.public, turn_seconds)?;
            match body.rated {
                Some(rated) => l.set_rated(&account.id, rated),
                None => Ok(()),
            }
        })
        .await?;
    Ok(view(&lobby, true))
}

async fn start(
    State(state): State<AppState>,
    Auth(account): Auth,
    Path(id): Path<LobbyId>,
) -> Result<Response, ApiError> {
    // A new game's chat holds no message, and the only mutes that apply to it are its lobby's:
    // if the lobby's chat is known to hold nothing, the game's players need not read theirs from
    // the store when they subscribe.
    let ticket = state.chat.quiet_ticket();
    let quiet = state.chat.is_quiet(&Room::Lobby(id.clone()));
    let (lobby, game): (Lobby, GameId) = state.lobbies.start(&id, &account).await?;
    if quiet {
        state.chat.mark_quiet(&Room::Game(game.clone()), ticket);
    }
    Ok(Json(LobbyAnswer { lobby: lobby.view(true), game: Some(game) }).into_response())
}
