//! Chapterhouse: the authoritative game server and its command-line tool.
//!
//! - [`chat`]: table chat: what may be written, who may read and write, the live rooms.
//! - [`catalog`]: every game the server hosts, behind one JSON interface.
//! - [`cli`]: the offline subcommands (`simulate`, `verify`, `engine`).
//! - [`cluster`]: cluster mode (`--nats-url`): table leases, routing between nodes over NATS.
//! - [`clock`]: the validated per-turn time limit and deadlines that cannot overflow.
//! - [`serve`]: the HTTP/WebSocket server (`chapterhouse serve`): config, start-up, shutdown.
//! - [`http`]: the router ([`http::app`]) and one module per HTTP resource.
//! - [`ws`]: one WebSocket connection: transport, lobby follow, game subscriptions and actions.
//! - [`metrics`]: Prometheus metrics and the `/metrics` route.
//! - [`outbox`]: a socket's bounded outgoing queue; a client that falls behind is closed.
//! - [`ratings`]: Glicko-2 ratings per game, and how a placing becomes pairwise results.
//! - [`protocol`]: the socket messages, [`protocol::ClientMsg`] and [`protocol::ServerMsg`].
//! - [`table`]: one task per live game; validation, write-ahead, per-viewer patches, bots, clocks.
//! - [`limits`]: rate limits and caps (sockets, subscriptions, lobby members).
//! - [`lobby`]: lobbies and their rules, kept live and persisted.
//! - [`replays`]: past positions of stored games (log and replay routes), bounded per request.
//! - [`state`]: [`state::AppState`], what every handler and socket may reach.
//! - [`access`]: who may see or act in a game (seats, spectators), for HTTP and the socket alike.
//! - [`accounts`]: guests, registered accounts (argon2id), bearer tokens.
//! - [`store`]: the PostgreSQL/SQLite store and its batching action writer.
//! - [`error`]: the one error type clients see, with stable codes.
//! - [`ids`]: typed ids.

pub mod access;
pub mod accounts;
pub mod catalog;
pub mod chat;
pub mod cli;
pub mod clock;
pub mod cluster;
pub mod error;
pub mod http;
pub mod ids;
pub mod limits;
pub mod lobby;
pub mod metrics;
pub mod outbox;
pub mod protocol;
pub mod ratings;
pub mod replays;
pub mod serve;
pub mod state;
pub mod store;
pub mod table;
pub mod ws;
