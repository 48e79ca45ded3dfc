//! The HTTP face of the server: [`app`] builds the router from one resource module per concern,
//! plus the WebSocket endpoint and the static web client.

mod accounts;
pub mod extract;
mod games;
mod lobbies;
mod social;
mod texts;

pub use extract::{Body, MAX_BODY_BYTES};

use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::header;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::json;

/// The whole router: `/healthz`, `/api/...`, `/ws`, and the web client at `/`.
pub fn app(state: AppState) -> Router {
    let web = tower_http::compression::Compression::new(
        tower_http::services::ServeDir::new(&state.web_dir).append_index_html_on_directories(true),
    );
    Router::new()
        .route("/healthz", get(healthz))
        .route("/metrics", get(crate::metrics::scrape))
        .route("/api/catalog", get(catalog))
        .merge(accounts::routes())
        .merge(lobbies::routes())
        .merge(games::routes())
        .merge(social::routes())
        .merge(texts::routes())
        .route("/api/{*rest}", axum::routing::any(|| async { ApiError::NoRoute }))
        .route("/ws", get(crate::ws::upgrade))
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed })
        .fallback_service(web)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(axum::middleware::map_response(cache_control))
        .layer(security_headers(header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY))
        .layer(security_headers(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(security_headers(header::X_FRAME_OPTIONS, "DENY"))
        .layer(security_headers(header::REFERRER_POLICY, "no-referrer"))
        .layer(tower_http::trace::TraceLayer::new_for_http().make_span_with(span_without_query))
        .with_state(state)
}

async fn healthz(State(state): State<AppState>) -> Result<Json<serde_json::Value>, ApiError> {
    // Cluster mode: a node that cannot prove its leases is out of service (a load balancer
    // sends its clients elsewhere) until it renews them again.
    if state.tables.cluster().is_some_and(|c| !c.healthy()) {
        return Err(ApiError::Unavailable);
    }
    state.store.ping().await?;
    Ok(Json(json!({"status": "ok", "live_tables": state.tables.live(), "live_lobbies": state.lobbies.live()})))
}

async fn catalog(State(state): State<AppState>) -> Json<serde_json::Value> {
    Json(json!({ "games": state.catalog.infos() }))
}

/// The span of a request: its method and path, never its query string, which can hold secrets
/// (invite codes; an old client's socket token) that must not reach the logs.
fn span_without_query(req: &Request) -> tracing::Span {
    tracing::debug_span!("request", method = %req.method(), path = %req.uri().path())
}

/// The web client loads only its own scripts, styles and sockets, runs no inline code, and is
/// never framed (clickjacking). `data:` images: the page's icon is inline.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
     frame-ancestors 'none'";

fn security_headers(
    name: header::HeaderName,
    value: &'static str,
) -> tower_http::set_header::SetResponseHeaderLayer<header::HeaderValue> {
    tower_http::set_header::SetResponseHeaderLayer::if_not_present(name, header::HeaderValue::from_static(value))
}

/// Caching: API answers and errors are never cached (they hold per-user data); the page itself is always
/// revalidated (so a new client is picked up at once); its scripts, styles and images may be kept
/// ten minutes (their names carry no version, so not longer).
async fn cache_control(mut response: axum::response::Response) -> axum::response::Response {
    let success = response.status().is_success();
    let headers = response.headers_mut();
    if headers.contains_key(header::CACHE_CONTROL) {
        return response;
    }
    let is = |prefix: &str| {
        headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| v.starts_with(prefix))
    };
    let policy = if !success || is("application/json") || is("text/plain") {
        "no-store"
    } else if is("text/html") {
        "no-cache"
    } else {
        "public, max-age=600"
    };
    headers.insert(header::CACHE_CONTROL, header::HeaderValue::from_static(policy));
    response
}
