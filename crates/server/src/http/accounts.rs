//! `/api/guest`, `/api/register`, `/api/login`, `/api/logout`, `/api/me`, `/api/me/games`.

use super::extract::ClientIp;
use super::Body;
use crate::accounts::{bearer, check_name, new_token, token_hash, Auth};
use crate::error::ApiError;
use crate::state::AppState;
use crate::store::{Account, AccountKind, GameStatus, GameSummary, StoreError};
use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/guest", post(guest))
        .route("/api/register", post(register))
        .route("/api/login", post(login))
        .route("/api/logout", post(logout))
        .route("/api/logout/all", post(logout_everywhere))
        .route("/api/me", get(me))
        .route("/api/me/games", get(my_games))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GuestBody {
    name: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    name: String,
    password: String,
}

#[derive(Serialize)]
struct Session {
    account: Account,
    token: String,
}

async fn session(state: &AppState, account: Account) -> Result<Json<Session>, ApiError> {
    let token = new_token();
    let hash = token_hash(&token);
    state.store.insert_token(&hash, &account.id).await?;
    state.sessions.issued(hash, &account);
    Ok(Json(Session { account, token }))
}

async fn guest(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Body(body): Body<GuestBody>,
) -> Result<Json<Session>, ApiError> {
    let name = check_name(&body.name)?;
    state.limits.new_account(ip)?;
    let token = new_token();
    let hash = token_hash(&token);
    let account = state.store.create_account(&name, AccountKind::Guest, None, Some(&hash)).await?;
    state.sessions.issued(hash, &account);
    Ok(Json(Session { account, token }))
}

async fn register(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Body(body): Body<Credentials>,
) -> Result<Json<Session>, ApiError> {
    let name = check_name(&body.name)?;
    state.limits.new_account(ip)?;
    let phc = state.passwords.hash(body.password).await?;
    let token = new_token();
    let hash = token_hash(&token);
    let created = state.store.create_account(&name, AccountKind::Registered, Some(&phc), Some(&hash)).await;
    let account = match created {
        Err(StoreError::Conflict(_)) => return Err(ApiError::NameTaken(name)),
        other => other?,
    };
    state.sessions.issued(hash, &account);
    Ok(Json(Session { account, token }))
}

async fn login(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Body(body): Body<Credentials>,
) -> Result<Json<Session>, ApiError> {
    state.limits.sign_in(ip, &body.name)?;
    let found = state.store.registered_account(body.name.trim()).await?;
    let (account, phc) = match found {
        Some((account, phc)) => (Some(account), Some(phc)),
        None => (None, None),
    };
    // An unknown name costs the same verification as a known one (see `Passwords`).
    let ok = state.passwords.verify(body.password, phc).await?;
    match account {
        Some(account) if ok => session(&state, account).await,
        _ => Err(ApiError::BadCredentials),
    }
}

/// The raw token of a request (for sign-out).
struct Token(String);

impl FromRequestParts<AppState> for Token {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &AppState) -> Result<Self, Self::Rejection> {
        bearer(parts).map(Token).ok_or(ApiError::MissingToken)
    }
}

async fn logout(State(state): State<AppState>, Token(token): Token) -> Result<StatusCode, ApiError> {
    let hash = token_hash(&token);
    if state.store.revoke_token(&hash).await? {
        // Sockets opened with this token stop acting for the account before the answer goes out.
        state.sessions.revoke(&hash);
        revoked_elsewhere(&state, hash).await;
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::InvalidToken)
    }
}

/// Revokes every token of the account, and closes every socket opened with one.
async fn logout_everywhere(State(state): State<AppState>, Auth(account): Auth) -> Result<StatusCode, ApiError> {
    for hash in state.store.revoke_all_tokens(&account.id).await? {
        state.sessions.revoke(&hash);
        revoked_elsewhere(&state, hash).await;
    }
    Ok(StatusCode::NO_CONTENT)
}

/// Cluster mode: the other nodes close their sockets opened with the token too.
async fn revoked_elsewhere(state: &AppState, token_hash: String) {
    if let Some(cluster) = state.tables.cluster() {
        cluster.publish(crate::cluster::notice::Notice::Revoked { token_hash }).await;
    }
}

async fn me(Auth(account): Auth) -> Json<Account> {
    Json(account)
}

#[derive(Serialize)]
struct GameList {
    games: Vec<GameSummary>,
}

async fn my_games(State(state): State<AppState>, Auth(account): Auth) -> Result<Json<GameList>, ApiError> {
    let mut games = state.store.games_of(&account.id, 200).await?;
    let mut elsewhere = Vec::new();
    for g in games.iter_mut().filter(|g| g.status == GameStatus::Running) {
        match state.tables.get(&g.id) {
            Some(t) if !t.is_remote() => g.your_turn = t.info.waits_for(g.seat),
            _ => elsewhere.push((g.id.clone(), g.seat)),
        }
    }
    // Cluster mode: only a game's owner knows whose turn it is; ask the other nodes.
    if let Some(cluster) = state.tables.cluster() {
        let waiting = cluster.waiting_elsewhere(elsewhere).await;
        for g in games.iter_mut().filter(|g| waiting.contains(&g.id)) {
            g.your_turn = true;
        }
    }
    Ok(Json(GameList { games }))
}
