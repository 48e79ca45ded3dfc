//! `/api/leaderboard/{game}` and `/api/accounts/{id}/profile`: ratings per game, and an account's
//! page (its ratings, finished games with results, running games with "your turn" marks).

use super::extract::Body;
use super::extract::Path;
use crate::accounts::{Auth, MaybeAuth};
use crate::chat::{Delivery, Room};
use crate::error::ApiError;
use crate::ids::AccountId;
use crate::ids::{GameId, LobbyId};
use crate::state::AppState;
use crate::store::{AccountKind, GameStatus, PlayedGame};
use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

/// The most lines of a leaderboard, and games on a profile.
const LEADERBOARD: i64 = 100;
const PROFILE_GAMES: i64 = 200;

pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/leaderboard/{game}", get(leaderboard))
        .route("/api/accounts/{id}/profile", get(profile))
        .route("/api/games/{id}/rematch", post(rematch))
        .route("/api/lobbies/{id}/rematch", post(answer_rematch))
}

async fn leaderboard(State(state): State<AppState>, Path(game): Path<String>) -> Result<Json<Value>, ApiError> {
    if state.catalog.get(&game).is_none() {
        return Err(ApiError::UnknownGame(game));
    }
    let rows = state.store.leaderboard(&game, LEADERBOARD).await?;
    let ratings: Vec<Value> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            json!({"rank": i + 1, "account": r.account, "name": r.name, "rating": r.rating.rating,
                   "deviation": r.rating.deviation, "volatility": r.rating.volatility, "games": r.rating.games})
        })
        .collect();
    Ok(Json(json!({ "game": game, "ratings": ratings })))
}

/// The other players of a game, by name.
fn opponents(g: &PlayedGame) -> Vec<&str> {
    g.seats.iter().enumerate().filter(|(i, _)| *i != g.seat).map(|(_, n)| n.as_str()).collect()
}

async fn profile(
    State(state): State<AppState>,
    MaybeAuth(viewer): MaybeAuth,
    Path(id): Path<AccountId>,
) -> Result<Json<Value>, ApiError> {
    let account = state.store.account(&id).await?.ok_or(ApiError::AccountNotFound)?;
    let own = viewer.as_ref().is_some_and(|v| v.id == id);
    // A guest is no one to others: only the guest sees their own page.
    if account.kind == AccountKind::Guest && !own {
        return Err(ApiError::AccountNotFound);
    }
    let ratings: Vec<Value> = state
        .store
        .ratings_of(&id)
        .await?
        .iter()
        .map(|r| {
            json!({"game": r.game, "rating": r.rating.rating, "deviation": r.rating.deviation,
                   "volatility": r.rating.volatility, "games": r.rating.games})
        })
        .collect();
    let mut finished = Vec::new();
    let mut running = Vec::new();
    // Others see only the games anyone could watch; the account itself sees all of its own.
    for g in state.store.played_games(&id, PROFILE_GAMES).await?.into_iter().filter(|g| own || g.public) {
        match g.status {
            GameStatus::Finished => {
                let result = g.outcome.as_ref().map(|o| {
                    json!({"rank": o.ranks.get(g.seat), "score": o.scores.get(g.seat),
                           "won": o.winners.iter().any(|w| w.index() == g.seat)})
                });
                finished.push(json!({
                    "id": g.id, "game": g.game, "seat": g.seat, "seats": g.seats, "opponents": opponents(&g),
                    "result": result, "created_at": g.created_at, "finished_at": g.finished_at,
                    "replay": format!("#/replay/{}", g.id), "log": format!("/api/games/{}/log", g.id),
                }));
            }
            GameStatus::Running => {
                let seat = game_core::Seat(u8::try_from(g.seat).unwrap_or(u8::MAX));
                let your_turn = own && state.tables.get(&g.id).is_some_and(|t| t.info.waits_for(seat));
                running.push(json!({
                    "id": g.id, "game": g.game, "seat": g.seat, "seats": g.seats, "opponents": opponents(&g),
                    "created_at": g.created_at, "your_turn": your_turn,
                }));
            }
            GameStatus::Broken => {}
        }
    }
    Ok(Json(json!({ "account": account, "ratings": ratings, "finished": finished, "running": running })))
}

/// "Play again": the finished game's rematch lobby (created by the first player to ask), and a
/// `rematch` notice to everyone watching the game.
async fn rematch(
    State(state): State<AppState>,
    Auth(account): Auth,
    Path(id): Path<GameId>,
) -> Result<Json<Value>, ApiError> {
    let game = state.store.game(&id).await?.ok_or(ApiError::GameNotFound)?;
    let lobby = state.lobbies.rematch(&game, &account).await?;
    let notice = json!({"type": "rematch", "game": id, "lobby": lobby.id,
                        "by": {"account": account.id, "name": account.name}});
    state.chat.publish(&Room::Game(id), Delivery { id: None, text: notice.to_string().into() });
    Ok(Json(json!({ "lobby": lobby.view(true) })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnswerBody {
    accept: bool,
}

async fn answer_rematch(
    State(state): State<AppState>,
    Auth(account): Auth,
    Path(id): Path<LobbyId>,
    Body(body): Body<AnswerBody>,
) -> Result<Json<Value>, ApiError> {
    let lobby = state.lobbies.change(&id, |l| l.answer_rematch(&account, body.accept)).await?;
    Ok(Json(json!({ "lobby": lobby.view(lobby.is_member(&account.id)) })))
}
