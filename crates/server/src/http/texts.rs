//! `/api/catalog/{game}/texts`: a game's rules texts, the JSON catalog its engine crate ships
//! (`TEXTS_EN`): names and rules text of every card, character, location, edict…, each decision
//! point and action in plain words, and a rules summary. The web client's tooltips, "now" panel and
//! rules page read it, so the table, the docs and the log share one wording.

use super::AppState;
use crate::error::ApiError;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

pub(super) fn routes() -> Router<AppState> {
    Router::new().route("/api/catalog/{game}/texts", get(texts))
}

/// The English texts of catalog game `game`, as the engine ships them (already JSON).
///
/// # Errors
/// `game/unknown_game` when the catalog has no such game.
async fn texts(State(state): State<AppState>, Path(game): Path<String>) -> Result<impl IntoResponse, ApiError> {
    let body = state.catalog.texts_en(&game).ok_or(ApiError::UnknownGame(game))?;
    Ok(([(header::CONTENT_TYPE, "application/json; charset=utf-8")], body))
}
