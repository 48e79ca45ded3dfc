//! The HTTP face of the server: [`app`] builds the router from one resource module per concern,
//! plus the WebSocket endpoint and the static web client.

mod accounts;
mod games;
mod lobbies;
mod texts;

use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request, State};
use axum::routing::get;
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde_json::json;

/// The whole router: `/healthz`, `/api/...`, `/ws`, and the web client at `/`.
pub fn app(state: AppState) -> Router {
    let web = tower_http::services::ServeDir::new(&state.web_dir).append_index_html_on_directories(true);
    Router::new()
        .route("/healthz", get(healthz))
        .route("/api/catalog", get(catalog))
        .merge(accounts::routes())
        .merge(lobbies::routes())
        .merge(games::routes())
        .merge(texts::routes())
        .route("/api/{*rest}", axum::routing::any(|| async { ApiError::NoRoute }))
        .route("/ws", get(crate::ws::upgrade))
        .fallback_service(web)
        .layer(tower_http::trace::TraceLayer::new_for_http())
        .with_state(state)
}

async fn healthz(State(state): State<AppState>) -> Result<Json<serde_json::Value>, ApiError> {
    state.store.ping().await?;
    Ok(Json(json!({"status": "ok", "live_tables": state.tables.live()})))
}

async fn catalog(State(state): State<AppState>) -> Json<serde_json::Value> {
    Json(json!({ "games": state.catalog.infos() }))
}

/// A JSON body whose rejection is our `proto/malformed` error.
pub struct Body<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(Body(value)),
            Err(JsonRejection::MissingJsonContentType(_)) => {
                Err(ApiError::Malformed("send the body as application/json".into()))
            }
            Err(e) => Err(ApiError::Malformed(e.body_text())),
        }
    }
}
