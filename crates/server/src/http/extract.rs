//! Request extractors whose every rejection is the documented JSON error: axum's own answer
//! bad queries, paths and bodies in plain text, which a client cannot tell apart from a proxy's.

use crate::error::ApiError;
use axum::extract::rejection::{BytesRejection, JsonRejection, PathRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::Json;
use serde::de::DeserializeOwned;

/// The largest request body the API reads (the same limit as a socket message); larger bodies
/// get `413 proto/too_large`. No request of the API needs more than a few hundred bytes.
pub const MAX_BODY_BYTES: usize = crate::protocol::MAX_MESSAGE_BYTES;

/// A JSON body whose rejection is `proto/malformed` (or `proto/too_large`).
pub struct Body<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(Body(value)),
            Err(JsonRejection::MissingJsonContentType(_)) => {
                Err(ApiError::Malformed("send the body as application/json".into()))
            }
            Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => Err(too_large()),
            Err(e) => Err(ApiError::Malformed(e.body_text())),
        }
    }
}

/// A body that may be empty: its bytes, with the size limit's rejection as `proto/too_large`.
pub struct RawBody(pub axum::body::Bytes);

impl<S: Send + Sync> FromRequest<S> for RawBody {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::body::Bytes::from_request(req, state).await {
            Ok(bytes) => Ok(RawBody(bytes)),
            Err(e @ BytesRejection::FailedToBufferBody(_)) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                Err(too_large())
            }
            Err(e) => Err(ApiError::Malformed(e.body_text())),
        }
    }
}

/// Path parameters; an undecodable path is `proto/malformed`.
pub struct Path<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for Path<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => Ok(Path(value)),
            Err(e) => Err(path_error(&e)),
        }
    }
}

/// A query string; a bad one (a wrong type, a repeated key) is `proto/malformed`.
pub struct Query<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Query<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(value)) => Ok(Query(value)),
            Err(e) => Err(query_error(&e)),
        }
    }
}

fn too_large() -> ApiError {
    ApiError::BodyTooLarge { limit: MAX_BODY_BYTES }
}

fn path_error(e: &PathRejection) -> ApiError {
    ApiError::Malformed(e.body_text())
}

fn query_error(e: &QueryRejection) -> ApiError {
    ApiError::Malformed(e.body_text())
}

/// The address of the client: the peer, or with `--trust-forwarded-for` (a reverse proxy in
/// front) the last address the proxy appended to `X-Forwarded-For`.
pub struct ClientIp(pub std::net::IpAddr);

impl FromRequestParts<crate::state::AppState> for ClientIp {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &crate::state::AppState) -> Result<Self, Self::Rejection> {
        Ok(ClientIp(client_ip(parts, state.trust_forwarded_for)))
    }
}

/// See [`ClientIp`]; a request without a peer address (a test calling the router directly)
/// counts as the unspecified address.
pub fn client_ip(parts: &Parts, trust_forwarded_for: bool) -> std::net::IpAddr {
    if trust_forwarded_for {
        let forwarded = parts.headers.get_all("x-forwarded-for").iter().filter_map(|v| v.to_str().ok()).next_back();
        // The last entry is the one our proxy wrote; earlier ones are whatever the client claimed.
        if let Some(ip) = forwarded.and_then(|v| v.rsplit(',').next()).and_then(|ip| ip.trim().parse().ok()) {
            return ip;
        }
    }
    parts
        .extensions
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map_or(std::net::IpAddr::from([0, 0, 0, 0]), |info| info.0.ip())
}
