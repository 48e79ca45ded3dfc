//! `/api/games/{id}`, `/api/games/{id}/log` and `/api/games/{id}/replay`: a game's summary, its
//! log (complete and verifiable once the game is over; filtered to the requester's view while it
//! runs), and the position after any step as the requester saw it, for the replay viewer.

use super::extract::{Path, Query};
use crate::accounts::MaybeAuth;
use crate::catalog::Catalog;
use crate::error::ApiError;
use crate::ids::{AccountId, GameId};
use crate::protocol::EventOut;
use crate::state::AppState;
use crate::store::{ActionRow, GameRecord};
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use game_core::replay::{self, HashCheck, ReplayStart};
use game_core::{DynEvent, DynGame, LogEntry, Seat, Viewer};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// The format tag of a log filtered to one viewer (a running game).
pub const PARTIAL_LOG_FORMAT: &str = "chapterhouse-partial-log/1";

pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/games/{id}", get(show))
        .route("/api/games/{id}/log", get(log))
        .route("/api/games/{id}/replay", get(replay))
}

#[derive(Deserialize)]
struct CodeQuery {
    code: Option<String>,
}

/// The stored game `id` and who is asking, as which viewer.
async fn game_and_viewer(
    state: &AppState,
    id: &GameId,
    account: Option<&AccountId>,
    code: Option<&str>,
) -> Result<(GameRecord, Viewer), ApiError> {
    let record = match state.store.game(id).await {
        Ok(record) => record.ok_or(ApiError::GameNotFound)?,
        Err(crate::store::StoreError::Corrupt(_)) => return Err(ApiError::GameBroken),
        Err(e) => return Err(e.into()),
    };
    let viewer = record.setup.access().viewer(&state.lobbies, account, code).await?;
    Ok((record, viewer))
}

async fn show(
    State(state): State<AppState>,
    MaybeAuth(account): MaybeAuth,
    Path(id): Path<GameId>,
    Query(q): Query<CodeQuery>,
) -> Result<Json<Value>, ApiError> {
    let (record, viewer) = game_and_viewer(&state, &id, account.as_ref().map(|a| &a.id), q.code.as_deref()).await?;
    let s = &record.setup;
    // Whether the asker hosts the game's lobby (and so mutes in the game's chat too).
    let you_host = match (&account, &s.lobby) {
        (Some(account), Some(lobby)) => state.lobbies.get(lobby).await.is_ok_and(|l| l.host == account.id),
        _ => false,
    };
    Ok(Json(json!({
        "game": {
            "id": s.id,
            "catalog_id": s.game,
            "engine_version": s.engine_version,
            "options": s.options,
            "seats": s.seats,
            "bots": s.bots,
            "lobby": s.lobby,
            "status": record.status,
            "seed_commitment": s.seed.commitment(),
            "seed": record.finished().then(|| s.seed.to_hex()),
            "outcome": record.outcome,
            "your_seat": match viewer { Viewer::Seat(seat) => Some(seat), Viewer::Spectator => None },
            "you_host": you_host,
        }
    })))
}

/// One action as a viewer of a running game may see it.
#[derive(Serialize)]
struct PartialEntry {
    seq: u64,
    seat: Seat,
    /// The action itself only for the viewer's own seat.
    action: Option<Value>,
    events: Vec<EventOut>,
    /// Set when the turn clock made this move (the seat's time ran out).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    by_clock: bool,
}

async fn log(
    State(state): State<AppState>,
    MaybeAuth(account): MaybeAuth,
    Path(id): Path<GameId>,
    Query(q): Query<CodeQuery>,
) -> Result<Json<Value>, ApiError> {
    let (record, viewer) = game_and_viewer(&state, &id, account.as_ref().map(|a| &a.id), q.code.as_deref()).await?;
    let actions = state.store.actions(&id).await?;
    if record.finished() {
        // The verifiable log format has no place for it, so the moves the turn clock made are
        // marked beside it: `"by_clock": true` on their entries (`verify` ignores the field).
        let clocked: Vec<u64> = actions.iter().filter(|a| a.by_clock).map(|a| a.seq).collect();
        let mut log = serde_json::to_value(record.log(actions)).map_err(|_| ApiError::Internal)?;
        if let Some(entries) = log.get_mut("actions").and_then(Value::as_array_mut) {
            for entry in entries.iter_mut().filter(|e| e["seq"].as_u64().is_some_and(|s| clocked.contains(&s))) {
                entry["by_clock"] = Value::Bool(true);
            }
        }
        return Ok(Json(log));
    }
    // A running game: replay from the (still secret) seed to learn which events this viewer saw.
    let catalog = state.catalog.clone();
    let partial = state
        .replays
        .bounded(move || -> Result<Value, ApiError> {
            let mut entries = Vec::with_capacity(actions.len());
            let clocked: Vec<u64> = actions.iter().filter(|a| a.by_clock).map(|a| a.seq).collect();
            let (_, setup) = replay_stored(&catalog, &record, actions, |entry, events| {
                entries.push(PartialEntry {
                    seq: entry.seq,
                    seat: entry.seat,
                    action: viewer.is(entry.seat).then(|| entry.action.clone()),
                    events: EventOut::visible(events, viewer),
                    by_clock: clocked.contains(&entry.seq),
                });
            })?;
            let setup_events = EventOut::visible(&setup, viewer);
            let s = &record.setup;
            Ok(json!({
                "format": PARTIAL_LOG_FORMAT,
                "game_id": s.id,
                "game": s.game,
                "engine_version": s.engine_version,
                "options": s.options,
                "seats": s.seats,
                "seed_commitment": s.seed.commitment(),
                "viewer": viewer,
                "version": entries.len(),
                "setup_events": setup_events,
                "actions": entries,
            }))
        })
        .await??;
    Ok(Json(partial))
}

#[derive(Deserialize)]
struct ReplayQuery {
    at: u64,
    code: Option<String>,
}

/// The position of a game after its first `at` actions, as the requester's seat (or a spectator)
/// saw it then, with the events of that step. A finished game's whole log, seed included, is public,
/// so no step can reveal more than the log already does; a running game's step is the very view
/// this requester was sent live at that version, so it reveals nothing new either (the "Log so far"
/// of the web client).
async fn replay(
    State(state): State<AppState>,
    MaybeAuth(account): MaybeAuth,
    Path(id): Path<GameId>,
    Query(q): Query<ReplayQuery>,
) -> Result<Json<Value>, ApiError> {
    let (record, viewer) = game_and_viewer(&state, &id, account.as_ref().map(|a| &a.id), q.code.as_deref()).await?;
    let at = q.at;
    if record.finished() {
        // A finished game never changes: it is replayed once and kept with checkpoints, so any
        // step costs at most `CHECKPOINT_EVERY` actions (and no read of its whole log).
        let checkpoints = match state.replays.kept(&id) {
            Some(kept) => kept,
            None => state.replays.finished(&state.catalog, &record, state.store.actions(&id).await?).await?,
        };
        let last = checkpoints.len() as u64;
        if at > last {
            return Err(ApiError::NoSuchStep { at, last });
        }
        let steps = usize::try_from(at).map_err(|_| ApiError::NoSuchStep { at, last })?;
        let by_clock = checkpoints.by_clock(steps);
        let (game, events) = state.replays.bounded(move || checkpoints.position(steps)).await??;
        return Ok(Json(step_json(at, viewer, game.as_ref(), EventOut::visible(&events, viewer), by_clock)));
    }
    let actions = state.store.actions(&id).await?;
    let last = actions.len() as u64;
    if at > last {
        return Err(ApiError::NoSuchStep { at, last });
    }
    let catalog = state.catalog.clone();
    state
        .replays
        .bounded(move || -> Result<Json<Value>, ApiError> {
            let mut events = Vec::new();
            let steps: Vec<ActionRow> = actions.into_iter().take(at as usize).collect();
            let by_clock = at > 0 && steps.last().is_some_and(|a| a.by_clock);
            let (game, setup) =
                replay_stored(&catalog, &record, steps, |_, step| events = EventOut::visible(step, viewer))?;
            if at == 0 {
                events = EventOut::visible(&setup, viewer);
            }
            Ok(Json(step_json(at, viewer, game.as_ref(), events, by_clock)))
        })
        .await?
}

/// The answer of the replay route: step `at` as `viewer` saw it.
fn step_json(at: u64, viewer: Viewer, game: &dyn DynGame, events: Vec<EventOut>, by_clock: bool) -> Value {
    json!({
        "version": at,
        "viewer": viewer,
        "view": game.view(viewer),
        "to_act": game.to_act(),
        "events": events,
        "by_clock": by_clock,
        "outcome": game.outcome(),
    })
}

/// Rebuilds a stored game from its seed and `actions`, calling `each` with every action and the
/// events it produced; returns the game after the last one and the setup events. The hashes were
/// checked when the actions were stored and when the table was last rebuilt: not again here.
fn replay_stored(
    catalog: &Catalog,
    record: &GameRecord,
    actions: Vec<ActionRow>,
    mut each: impl FnMut(&LogEntry, &[DynEvent]),
) -> Result<(Box<dyn DynGame>, Vec<DynEvent>), ApiError> {
    let s = &record.setup;
    let descriptor = catalog.get(&s.game).ok_or_else(|| ApiError::UnknownGame(s.game.clone()))?;
    let entries = record.log(actions).actions;
    let start = ReplayStart { descriptor, seats: &s.seats, options: &s.options, seed: s.seed, initial_hash: None };
    let replayed =
        replay::replay(start, &entries, HashCheck::None, |entry, events, _| each(entry, events)).map_err(|e| {
            // A stored game that no longer sets up or replays is broken, whichever step failed.
            tracing::error!(game = %s.id, error = %e, "stored game does not replay");
            ApiError::GameBroken
        })?;
    Ok((replayed.game, replayed.setup_events))
}
