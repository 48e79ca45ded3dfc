//! `/api/catalog/{game}/texts`: a game's rules texts, the JSON catalogs its engine crate ships
//! (`TEXTS_EN`, `TEXTS_DE`): names and rules text of every card, character, location, edict…, each
//! decision point and action in plain words, and a rules summary. The web client's tooltips, "now"
//! panel and rules page read it, so the table, the docs and the log share one wording.

use super::extract::Query;
use super::AppState;
use crate::catalog::TEXT_LANGUAGES;
use crate::error::ApiError;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use serde::Deserialize;

pub(super) fn routes() -> Router<AppState> {
    Router::new().route("/api/catalog/{game}/texts", get(texts))
}

#[derive(Deserialize)]
struct LangQuery {
    /// `en` (the default) or `de`.
    lang: Option<String>,
}

/// The texts of catalog game `game` in language `?lang=` (English without it), as the engine ships
/// them (already JSON).
///
/// # Errors
/// `game/unknown_game` when the catalog has no such game; `catalog/unknown_language` for a language
/// no engine ships (a client asking for one must hear so, not silently get English).
async fn texts(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Query(q): Query<LangQuery>,
) -> Result<impl IntoResponse, ApiError> {
    let lang = q.lang.unwrap_or_else(|| TEXT_LANGUAGES[0].to_string());
    if !TEXT_LANGUAGES.contains(&lang.as_str()) {
        return Err(ApiError::UnknownLanguage { lang, supported: TEXT_LANGUAGES });
    }
    let body = state.catalog.texts(&game, &lang).ok_or(ApiError::UnknownGame(game))?;
    Ok(([(header::CONTENT_TYPE, "application/json; charset=utf-8")], body))
}
