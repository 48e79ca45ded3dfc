//! The one error type clients see: a stable, namespaced code, a sentence, and for HTTP one status mapping.
//!
//! Store and internal failures are logged where they happen and reach clients only as
//! `server/internal`, never with their text.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use game_core::{RuleError, SetupError};
use serde::Serialize;
use serde_json::json;

/// An error answered to a client, over HTTP or the socket.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ApiError {
    /// No bearer token was given where one is needed.
    #[error("this needs a bearer token: sign in first")]
    MissingToken,
    /// The token is unknown or was revoked.
    #[error("the token is unknown or has been revoked")]
    InvalidToken,
    /// Wrong name or password.
    #[error("wrong name or password")]
    BadCredentials,
    /// The name is registered already.
    #[error("the name {0:?} is already registered")]
    NameTaken(String),
    /// The display name is empty, too long or has control characters.
    #[error("a name is 1 to 32 characters without control characters")]
    InvalidName,
    /// The password is too short or too long.
    #[error("a password is 8 to 128 characters")]
    WeakPassword,

    /// Answering a rematch one was not invited to.
    #[error("you were not invited to this rematch")]
    NotInvited,
    /// No such account (or a guest's, asked for by someone else).
    #[error("no such account")]
    AccountNotFound,
    /// No such lobby.
    #[error("no such lobby")]
    LobbyNotFound,
    /// A private lobby or its game needs its invite code.
    #[error("this lobby is private: its invite code is needed")]
    InviteRequired,
    /// The requester is not a member of the lobby.
    #[error("join the lobby first")]
    NotMember,
    /// Only the host may do this.
    #[error("only the host may do this")]
    NotHost,
    /// The seat is occupied.
    #[error("seat {0} is taken")]
    SeatTaken(usize),
    /// The seat does not exist in this lobby.
    #[error("this lobby has no seat {0}")]
    NoSuchSeat(usize),
    /// The requester holds no seat.
    #[error("you hold no seat")]
    NotSeated,
    /// The requester was kicked from this lobby.
    #[error("you were removed from this lobby by its host")]
    Kicked,
    /// The lobby's game has started; seats and options are fixed.
    #[error("the game of this lobby has started")]
    LobbyStarted,
    /// No member with that account.
    #[error("no such member")]
    NoSuchMember,
    /// The host cannot kick themself.
    #[error("the host cannot kick themself")]
    CannotKickHost,
    /// A per-turn time limit outside the allowed range.
    #[error("a turn limit is a whole number of seconds from {min} to {max}")]
    InvalidTurnLimit {
        /// Shortest.
        min: u64,
        /// Longest.
        max: u64,
    },
    /// The lobby cannot start with this many players.
    #[error("this game needs {min} to {max} players; {seated} are seated")]
    BadPlayerCount {
        /// Fewest.
        min: usize,
        /// Most.
        max: usize,
        /// Seated now.
        seated: usize,
    },

    /// The catalog has no such game.
    #[error("unknown game {0:?}")]
    UnknownGame(String),
    /// A rules-texts language the engines ship no catalog for.
    #[error("no texts in language {lang:?}; the languages are {}", supported.join(", "))]
    UnknownLanguage {
        /// The language asked for.
        lang: String,
        /// The languages there are.
        supported: &'static [&'static str],
    },
    /// The game could not be set up (options or player count).
    #[error("{0}")]
    Setup(SetupError),
    /// No such game.
    #[error("no such game")]
    GameNotFound,
    /// The requester holds no seat in this game.
    #[error("you hold no seat in this game")]
    NotAPlayer,
    /// The action was sent for a version that is not the current one.
    #[error("the game is at version {current}, the action was for version {sent}")]
    StaleVersion {
        /// The game's version now.
        current: u64,
        /// The version the client sent.
        sent: u64,
    },
    /// The game is over; no more actions.
    #[error("the game is over")]
    GameFinished,
    /// The game's log did not replay at start-up; it is kept but not played.
    #[error("this game could not be restored and is closed")]
    GameBroken,
    /// Asked for something only a finished game has (a step-by-step replay).
    #[error("the game is still running")]
    GameRunning,
    /// A replay step beyond the game's last action.
    #[error("the game has {last} actions; there is no step {at}")]
    NoSuchStep {
        /// The step asked for.
        at: u64,
        /// The number of actions.
        last: u64,
    },
    /// The engine rejected the action.
    #[error("{0}")]
    Rule(RuleError),

    /// The message is not valid JSON or lacks fields.
    #[error("malformed message: {0}")]
    Malformed(String),
    /// The message type is unknown.
    #[error("unknown message type {0:?}")]
    UnknownType(String),
    /// The message is larger than allowed.
    #[error("the message has {size} bytes; the limit is {limit}")]
    TooLarge {
        /// Its size.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// A request body above the limit.
    #[error("the body is larger than the limit of {limit} bytes")]
    BodyTooLarge {
        /// The limit.
        limit: usize,
    },
    /// No such route.
    #[error("no such route")]
    NoRoute,
    /// The route exists, but not for this method.
    #[error("this route does not take that method")]
    MethodNotAllowed,
    /// A WebSocket route asked for without a WebSocket upgrade.
    #[error("this route takes a WebSocket upgrade")]
    UpgradeRequired,
    /// A socket token sent in the URL, where logs and proxies would keep it.
    #[error("send the token as a WebSocket subprotocol or an Authorization header, not in the URL")]
    TokenInUrl,

    /// Too many requests of this kind from this client; try again after `retry_after` seconds.
    #[error("too many requests: try again in {retry_after} s")]
    RateLimited {
        /// Seconds to wait.
        retry_after: u64,
    },
    /// This address (or the server) has as many sockets open as allowed.
    #[error("too many open sockets from this address")]
    TooManySockets,
    /// The socket follows as many games and lobbies as allowed.
    #[error("this socket follows as many games and lobbies as allowed ({limit}); unsubscribe from one first")]
    TooManySubscriptions {
        /// The limit.
        limit: usize,
    },
    /// The lobby has as many members as allowed.
    #[error("this lobby is full ({limit} members)")]
    LobbyFull {
        /// The limit.
        limit: usize,
    },
    /// The store is unreachable: actions are refused at once until it is back.
    #[error("the server cannot reach its database; try again shortly")]
    Unavailable,
    /// The server is shutting down and accepts no more actions.
    #[error("the server is shutting down")]
    ShuttingDown,
    /// Something failed on our side (logged, not echoed).
    #[error("internal error")]
    Internal,

    /// A chat message or mute was refused (`chat/...`).
    #[error("{0}")]
    Chat(crate::chat::ChatError),
}

impl ApiError {
    /// The stable code, e.g. `lobby/full`.
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::MissingToken => "auth/missing_token",
            ApiError::InvalidToken => "auth/invalid_token",
            ApiError::BadCredentials => "auth/bad_credentials",
            ApiError::NameTaken(_) => "auth/name_taken",
            ApiError::InvalidName => "auth/invalid_name",
            ApiError::WeakPassword => "auth/weak_password",
            ApiError::AccountNotFound => "account/not_found",
            ApiError::NotInvited => "rematch/not_invited",
            ApiError::LobbyNotFound => "lobby/not_found",
            ApiError::InviteRequired => "lobby/invite_required",
            ApiError::NotMember => "lobby/not_member",
            ApiError::NotHost => "lobby/not_host",
            ApiError::SeatTaken(_) => "lobby/seat_taken",
            ApiError::NoSuchSeat(_) => "lobby/no_such_seat",
            ApiError::NotSeated => "lobby/not_seated",
            ApiError::Kicked => "lobby/kicked",
            ApiError::LobbyStarted => "lobby/started",
            ApiError::NoSuchMember => "lobby/no_such_member",
            ApiError::CannotKickHost => "lobby/cannot_kick_host",
            ApiError::BadPlayerCount { .. } => "lobby/bad_player_count",
            ApiError::InvalidTurnLimit { .. } => "lobby/invalid_turn_limit",
            ApiError::UnknownGame(_) => "game/unknown_game",
            ApiError::UnknownLanguage { .. } => "catalog/unknown_language",
            ApiError::Setup(e) => e.code(),
            ApiError::GameNotFound => "game/not_found",
            ApiError::NotAPlayer => "game/not_a_player",
            ApiError::StaleVersion { .. } => "game/stale_version",
            ApiError::GameFinished => "game/finished",
            ApiError::GameBroken => "game/broken",
            ApiError::GameRunning => "game/running",
            ApiError::NoSuchStep { .. } => "game/no_such_step",
            ApiError::Rule(e) => e.code(),
            ApiError::Malformed(_) => "proto/malformed",
            ApiError::UnknownType(_) => "proto/unknown_type",
            ApiError::TooLarge { .. } => "proto/too_large",
            ApiError::NoRoute => "proto/no_route",
            ApiError::BodyTooLarge { .. } => "proto/too_large",
            ApiError::MethodNotAllowed => "proto/method_not_allowed",
            ApiError::UpgradeRequired => "proto/upgrade_required",
            ApiError::TokenInUrl => "auth/token_in_url",
            ApiError::RateLimited { .. } => "proto/rate_limited",
            ApiError::TooManySockets => "proto/too_many_sockets",
            ApiError::TooManySubscriptions { .. } => "proto/too_many_subscriptions",
            ApiError::LobbyFull { .. } => "lobby/full",
            ApiError::Unavailable => "server/unavailable",
            ApiError::ShuttingDown => "server/shutting_down",
            ApiError::Internal => "server/internal",
            ApiError::Chat(e) => e.code(),
        }
    }

    /// The HTTP status for this error.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::MissingToken | ApiError::InvalidToken | ApiError::BadCredentials => StatusCode::UNAUTHORIZED,
            ApiError::InviteRequired
            | ApiError::NotMember
            | ApiError::NotHost
            | ApiError::Kicked
            | ApiError::NotAPlayer
            | ApiError::NotInvited
            | ApiError::CannotKickHost => StatusCode::FORBIDDEN,
            ApiError::AccountNotFound
            | ApiError::LobbyNotFound
            | ApiError::GameNotFound
            | ApiError::NoRoute
            | ApiError::NoSuchMember => StatusCode::NOT_FOUND,
            ApiError::NameTaken(_)
            | ApiError::SeatTaken(_)
            | ApiError::NotSeated
            | ApiError::LobbyStarted
            | ApiError::StaleVersion { .. }
            | ApiError::GameFinished
            | ApiError::GameRunning
            | ApiError::GameBroken => StatusCode::CONFLICT,
            ApiError::InvalidName
            | ApiError::NoSuchStep { .. }
            | ApiError::WeakPassword
            | ApiError::NoSuchSeat(_)
            | ApiError::BadPlayerCount { .. }
            | ApiError::InvalidTurnLimit { .. }
            | ApiError::UnknownGame(_)
            | ApiError::UnknownLanguage { .. }
            | ApiError::Setup(_)
            | ApiError::Rule(_)
            | ApiError::Malformed(_)
            | ApiError::UnknownType(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::TooLarge { .. } | ApiError::BodyTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::UpgradeRequired => StatusCode::UPGRADE_REQUIRED,
            ApiError::TokenInUrl => StatusCode::BAD_REQUEST,
            ApiError::RateLimited { .. } | ApiError::TooManySockets => StatusCode::TOO_MANY_REQUESTS,
            ApiError::TooManySubscriptions { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::LobbyFull { .. } => StatusCode::CONFLICT,
            ApiError::ShuttingDown | ApiError::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Chat(e) => e.status(),
        }
    }

    /// The error as the JSON object clients receive: `{code, message}` plus details for some codes.
    pub fn body(&self) -> ErrorBody {
        let details = match self {
            ApiError::StaleVersion { current, sent } => Some(json!({"current_version": current, "sent_version": sent})),
            ApiError::BadPlayerCount { min, max, seated } => Some(json!({"min": min, "max": max, "seated": seated})),
            ApiError::InvalidTurnLimit { min, max } => Some(json!({"min": min, "max": max})),
            ApiError::UnknownLanguage { supported, .. } => Some(json!({"supported": supported})),
            ApiError::BodyTooLarge { limit } => Some(json!({"limit": limit})),
            ApiError::RateLimited { retry_after } => Some(json!({"retry_after": retry_after})),
            ApiError::TooManySubscriptions { limit } | ApiError::LobbyFull { limit } => Some(json!({"limit": limit})),
            ApiError::Chat(e) => e.details(),
            _ => None,
        };
        ErrorBody { code: self.code(), message: self.to_string(), details }
    }
}

/// The JSON shape of an error.
#[derive(Clone, Debug, Serialize)]
pub struct ErrorBody {
    /// The stable code.
    pub code: &'static str,
    /// A sentence for people.
    pub message: String,
    /// Machine-readable details, for some codes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<serde_json::Value>,
}

impl From<RuleError> for ApiError {
    fn from(e: RuleError) -> Self {
        ApiError::Rule(e)
    }
}

impl From<SetupError> for ApiError {
    fn from(e: SetupError) -> Self {
        ApiError::Setup(e)
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(e: crate::store::StoreError) -> Self {
        tracing::error!(error = %e, "store error");
        ApiError::Internal
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status(), Json(json!({ "error": self.body() }))).into_response();
        let retry_after = match &self {
            ApiError::RateLimited { retry_after } => Some(*retry_after),
            ApiError::TooManySockets | ApiError::Unavailable => Some(5),
            _ => None,
        };
        if let Some(seconds) = retry_after {
            response.headers_mut().insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
    }
}
