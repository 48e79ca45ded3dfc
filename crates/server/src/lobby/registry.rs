//! The live lobbies: loaded from the store on first use, every change persisted before it is
//! shown, and sent to every socket that follows the lobby.

use super::{Lobby, LobbyStatus, Standing};
use crate::catalog::Catalog;
use crate::cluster::notice::Notice;
use crate::error::ApiError;
use crate::ids::{AccountId, GameId, LobbyId};
use crate::outbox::Frame;
use crate::protocol::ServerMsg;
use crate::store::{Account, GameRecord, GameStatus, NewGame, Store};
use crate::table::{Rebuilt, Tables};
use game_core::GameLog;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// One live lobby.
pub struct LobbyEntry {
    lobby: tokio::sync::Mutex<Lobby>,
    updates: broadcast::Sender<LobbyUpdate>,
    /// When it was last loaded or used, for evicting idle lobbies.
    used: Mutex<std::time::Instant>,
}

/// A lobby's new state, as sent to the sockets that follow it: each checks against `lobby` that
/// it may still see it (a removed member may not) before it forwards `text`.
#[derive(Clone, Debug)]
pub struct LobbyUpdate {
    /// The lobby after the change.
    pub lobby: Arc<Lobby>,
    /// Its `lobby` message frame.
    pub text: Frame,
}

/// The host removed `account` from `lobby` (whose game, if started, is `game`).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Kick {
    /// The lobby.
    pub lobby: LobbyId,
    /// Who was removed.
    pub account: AccountId,
    /// The lobby's game, if it started.
    pub game: Option<GameId>,
}

/// The live lobbies.
pub struct Lobbies {
    map: Mutex<HashMap<LobbyId, Arc<LobbyEntry>>>,
    kicks: broadcast::Sender<Kick>,
    store: Store,
    catalog: Arc<Catalog>,
    tables: Arc<Tables>,
}

/// What a host asks for when creating a lobby.
#[derive(Clone, Debug)]
pub struct NewLobby {
    /// The catalog id.
    pub game: String,
    /// Options (missing keys take defaults).
    pub options: Value,
    /// Listed publicly.
    pub public: bool,
    /// Per-turn time limit.
    pub turn_seconds: Option<crate::clock::TurnLimit>,
    /// Whether the game counts for ratings.
    pub rated: bool,
}

fn lobby_update(lobby: &Lobby) -> LobbyUpdate {
    let text = ServerMsg::Lobby { lobby: serde_json::to_value(lobby.view(true)).unwrap_or(Value::Null) }.to_text();
    LobbyUpdate { lobby: Arc::new(lobby.clone()), text }
}

/// Sends the lobby's new state to its followers, if it has any: with none, the message is not
/// written (most lobbies are joined over HTTP, and nobody follows them). Called with the lobby
/// locked, as [`Lobbies::follow`] subscribes: a follower either gets this update or reads the
/// state it carries.
fn tell_followers(entry: &LobbyEntry, lobby: &Lobby) {
    if entry.updates.receiver_count() > 0 {
        let _ = entry.updates.send(lobby_update(lobby));
    }
}

impl Lobbies {
    /// An empty registry.
    pub fn new(store: Store, catalog: Arc<Catalog>, tables: Arc<Tables>) -> Lobbies {
        Lobbies { map: Mutex::new(HashMap::new()), kicks: broadcast::channel(256).0, store, catalog, tables }
    }

    fn insert(&self, lobby: Lobby) -> Arc<LobbyEntry> {
        let id = lobby.id.clone();
        let entry = Arc::new(LobbyEntry {
            lobby: tokio::sync::Mutex::new(lobby),
            updates: broadcast::channel(64).0,
            used: Mutex::new(std::time::Instant::now()),
        });
        match self.map.lock() {
            Ok(mut map) => map.entry(id).or_insert(entry).clone(),
            Err(_) => entry,
        }
    }

    async fn entry(&self, id: &LobbyId) -> Result<Arc<LobbyEntry>, ApiError> {
        if let Some(entry) = self.map.lock().ok().and_then(|m| m.get(id).cloned()) {
            if let Ok(mut used) = entry.used.lock() {
                *used = std::time::Instant::now();
            }
            return Ok(entry);
        }
        let record = self.store.lobby(id).await?.ok_or(ApiError::LobbyNotFound)?;
        let lobby: Lobby = serde_json::from_str(&record.state).map_err(|e| {
            tracing::error!(lobby = %id, error = %e, "unreadable lobby");
            ApiError::Internal
        })?;
        Ok(self.insert(lobby))
    }

    /// Creates a lobby with `host` seated.
    ///
    /// # Errors
    /// `game/unknown_game`, `game/invalid_options`, or a store failure.
    pub async fn create(&self, host: &Account, new: NewLobby) -> Result<Lobby, ApiError> {
        let descriptor = self.catalog.get(&new.game).ok_or_else(|| ApiError::UnknownGame(new.game.clone()))?;
        let options = descriptor.normalize_options(&new.options)?;
        let info = descriptor.info();
        let mut lobby = Lobby::new(new.game, options, info.max_players, new.public, new.turn_seconds, host);
        lobby.rated = new.rated;
        self.store.insert_lobby(&lobby.record()).await?;
        self.insert(lobby.clone());
        Ok(lobby)
    }

    /// A copy of a lobby's state.
    ///
    /// # Errors
    /// `lobby/not_found`.
    pub async fn get(&self, id: &LobbyId) -> Result<Lobby, ApiError> {
        Ok(self.entry(id).await?.lobby.lock().await.clone())
    }

    /// The lobby now and a receiver of its later states.
    ///
    /// # Errors
    /// `lobby/not_found`.
    pub async fn follow(&self, id: &LobbyId) -> Result<(Lobby, broadcast::Receiver<LobbyUpdate>), ApiError> {
        let entry = self.entry(id).await?;
        let lobby = entry.lobby.lock().await;
        Ok((lobby.clone(), entry.updates.subscribe()))
    }

    /// Applies a change: on a copy, persisted, then made current and sent to followers.
    ///
    /// # Errors
    /// The change's own error, `lobby/not_found`, or a store failure (nothing changes then).
    pub async fn change(
        &self,
        id: &LobbyId,
        f: impl FnOnce(&mut Lobby) -> Result<(), ApiError>,
    ) -> Result<Lobby, ApiError> {
        self.change_seating(id, &[], f).await
    }

    /// [`Lobbies::change`] for a change that seats the new bot accounts `bots`: they are stored
    /// in the same commit as the lobby, so a change that fails (or loses a race) leaves none.
    async fn change_seating(
        &self,
        id: &LobbyId,
        bots: &[Account],
        f: impl FnOnce(&mut Lobby) -> Result<(), ApiError>,
    ) -> Result<Lobby, ApiError> {
        let entry = self.entry(id).await?;
        let mut current = entry.lobby.lock().await;
        let cluster = self.tables.cluster().cloned();
        let mut stored_state = None;
        if cluster.is_some() {
            // Another node may have changed it: start from the stored state.
            stored_state = Some(self.refresh(&entry, &mut current).await?);
        }
        let mut next = current.clone();
        f(&mut next)?;
        if next != *current {
            // In a cluster, written only over the state this change started from; a change
            // another node made in between wins, and this one is refused as retryable.
            let expected = cluster.as_ref().map(|_| stored_state.unwrap_or_else(|| current.record().state));
            if !self.store.update_lobby_with(&next.record(), expected.as_deref(), bots).await? {
                return Err(ApiError::Unavailable);
            }
            *current = next;
            tell_followers(&entry, &current);
            if let Some(cluster) = cluster {
                cluster.publish(Notice::Lobby { lobby: Box::new(current.clone()) }).await;
            }
        }
        Ok(current.clone())
    }

    /// Replaces `current` with the lobby's stored state, telling local followers if it changed.
    /// Returns the stored state as it is stored.
    async fn refresh(&self, entry: &LobbyEntry, current: &mut Lobby) -> Result<String, ApiError> {
        let record = self.store.lobby(&current.id).await?.ok_or(ApiError::LobbyNotFound)?;
        let stored: Lobby = serde_json::from_str(&record.state).map_err(|e| {
            tracing::error!(lobby = %current.id, error = %e, "unreadable lobby");
            ApiError::Internal
        })?;
        if stored != *current {
            *current = stored;
            tell_followers(entry, current);
        }
        Ok(record.state)
    }

    /// Cluster mode: another node changed a lobby (and stored it). If this node holds it, it
    /// takes the new state and tells its followers.
    pub async fn changed_elsewhere(&self, lobby: Lobby) {
        let Some(entry) = self.map.lock().ok().and_then(|m| m.get(&lobby.id).cloned()) else { return };
        let mut current = entry.lobby.lock().await;
        if *current != lobby {
            *current = lobby;
            tell_followers(&entry, &current);
        }
    }

    /// Cluster mode: a host on another node removed someone; this node's sockets act on it.
    pub fn kicked_elsewhere(&self, kick: Kick) {
        let _ = self.kicks.send(kick);
    }

    /// The host seats a new bot account.
    ///
    /// # Errors
    /// As [`Lobby::add_bot`].
    pub async fn add_bot(&self, id: &LobbyId, by: &Account, seat: usize) -> Result<Lobby, ApiError> {
        let lobby = self.get(id).await?;
        lobby.can_add_bot(&by.id, seat)?;
        let bot_number = lobby.seats.iter().flatten().filter(|s| s.bot).count() + 1;
        // Stored with the seat, or not at all.
        let bot = Account::new_bot(bot_number);
        self.change_seating(id, std::slice::from_ref(&bot), |lobby| lobby.add_bot(&by.id, seat, &bot)).await
    }

    /// The host starts the game: a fresh seed from the OS, the game stored with the lobby's new
    /// state in one commit, then its table started.
    ///
    /// # Errors
    /// `lobby/not_host`, `lobby/started`, `lobby/bad_player_count`, a setup error, or a store failure.
    pub async fn start(&self, id: &LobbyId, by: &Account) -> Result<(Lobby, GameId), ApiError> {
        let entry = self.entry(id).await?;
        let mut current = entry.lobby.lock().await;
        if self.tables.cluster().is_some() {
            // Seats may have changed on another node a moment ago: start from the stored lobby.
            self.refresh(&entry, &mut current).await?;
        }
        let descriptor = self.catalog.get(&current.game).ok_or_else(|| ApiError::UnknownGame(current.game.clone()))?;
        let info = descriptor.info();
        let seated = current.seated_for_start(&by.id, info.min_players, info.max_players)?;
        // From the OS CSPRNG: only its commitment is published until the game ends.
        let seed = game_core::Seed::random();
        let game = descriptor.create(seated.len(), &current.options, seed)?;
        let game_id = GameId::random();
        let names: Vec<String> = seated.iter().map(|s| s.name.clone()).collect();
        let log = GameLog::start(game_id.0.clone(), descriptor, current.options.clone(), names.clone(), &seed, &*game);
        let new_game = NewGame {
            id: game_id.clone(),
            lobby: Some(current.id.clone()),
            game: current.game.clone(),
            engine_version: log.engine_version,
            options: current.options.clone(),
            seats: names,
            accounts: seated.iter().map(|s| s.account.clone()).collect(),
            bots: seated.iter().map(|s| s.bot).collect(),
            public: current.public,
            invite_code: (!current.public).then(|| current.invite_code.clone()),
            turn_seconds: current.turn_seconds,
            seed,
            initial_hash: log.initial_hash,
        };
        let mut next = current.clone();
        next.status = LobbyStatus::Started;
        next.game_id = Some(game_id.clone());
        let cluster = self.tables.cluster().cloned();
        if let Some(cluster) = &cluster {
            // The lease first, so that no other node can take the new game before its table runs.
            cluster.claim_new(&game_id).await?;
        }
        self.store.start_game(&new_game, Some(&next.record())).await?;
        let record = GameRecord { setup: new_game, status: GameStatus::Running, outcome: None };
        self.tables.start(&record, Rebuilt { game, version: 0 });
        *current = next;
        tracing::info!(lobby = %id, game = %game_id, players = seated.len(), "game started");
        tell_followers(&entry, &current);
        if let Some(cluster) = &cluster {
            cluster.publish(Notice::Lobby { lobby: Box::new(current.clone()) }).await;
        }
        let started = current.clone();
        drop(current);
        drop(entry);
        // Nothing changes in a started lobby: unless someone follows it, it need not stay in memory.
        self.evict_unused(id);
        Ok((started, game_id))
    }

    /// How many lobbies are in memory.
    pub fn live(&self) -> usize {
        self.map.lock().map_or(0, |m| m.len())
    }

    /// Drops from memory the lobbies nobody follows or uses now that have started or were not
    /// used for `idle` (they stay in the store and are loaded again when asked for). Only entries
    /// no request holds are dropped, so no change can be made to a copy that is going away.
    pub async fn evict(&self, idle: std::time::Duration) {
        let candidates: Vec<(LobbyId, Arc<LobbyEntry>)> = match self.map.lock() {
            Ok(map) => map.iter().map(|(id, e)| (id.clone(), Arc::clone(e))).collect(),
            Err(_) => return,
        };
        for (id, entry) in candidates {
            let started = entry.lobby.lock().await.status == LobbyStatus::Started;
            let idle_for = entry.used.lock().map_or(std::time::Duration::ZERO, |u| u.elapsed());
            if started || idle_for >= idle {
                drop(entry);
                self.evict_unused(&id);
            }
        }
    }

    /// Drops lobby `id` from memory if nobody follows it and no request holds it.
    fn evict_unused(&self, id: &LobbyId) {
        if let Ok(mut map) = self.map.lock() {
            // Only the map holds it: no request is using it (entries are taken under this lock).
            if map.get(id).is_some_and(|e| Arc::strong_count(e) == 1 && e.updates.receiver_count() == 0) {
                map.remove(id);
            }
        }
    }

    /// Where `account`, having given `code`, stands with lobby `id` (`None` if it is unknown).
    pub async fn standing(&self, id: &LobbyId, account: Option<&AccountId>, code: Option<&str>) -> Option<Standing> {
        match self.entry(id).await {
            Ok(entry) => Some(entry.lobby.lock().await.standing(account, code)),
            Err(_) => None,
        }
    }

    /// The host removes `target`; a removed person's sockets stop watching the lobby's game.
    ///
    /// # Errors
    /// As [`Lobby::kick`].
    pub async fn kick(&self, id: &LobbyId, by: &AccountId, target: &AccountId) -> Result<Lobby, ApiError> {
        let lobby = self.change(id, |l| l.kick(by, target)).await?;
        if lobby.kicked.contains(target) {
            let kick = Kick { lobby: id.clone(), account: target.clone(), game: lobby.game_id.clone() };
            let _ = self.kicks.send(kick.clone());
            if let Some(cluster) = self.tables.cluster() {
                cluster.publish(Notice::Kick { lobby: id.clone(), kick }).await;
            }
        }
        Ok(lobby)
    }

    /// "Play again" for finished game `game`, asked by `by`, one of its players: the game's rematch
    /// lobby, created by the first to ask (same game, options, visibility, time limit and rated
    /// flag; new bots in the bots' seats; every person who played invited, `by` having accepted).
    /// Asking again, or after someone else, accepts the invitation to that lobby.
    ///
    /// # Errors
    /// `game/running`, `game/not_a_player`, `rematch/not_invited`, or a store failure.
    pub async fn rematch(&self, game: &GameRecord, by: &Account) -> Result<Lobby, ApiError> {
        let setup = &game.setup;
        if !game.finished() {
            return Err(ApiError::GameRunning);
        }
        let mine = |(a, bot): (&AccountId, &bool)| a == &by.id && !bot;
        if !setup.accounts.iter().zip(&setup.bots).any(mine) {
            return Err(ApiError::NotAPlayer);
        }
        if let Some(existing) = self.store.rematch_lobby(&setup.id).await? {
            return self.accept_rematch(&existing, by).await;
        }
        let descriptor = self.catalog.get(&setup.game).ok_or_else(|| ApiError::UnknownGame(setup.game.clone()))?;
        let max = descriptor.info().max_players;
        let rated = match &setup.lobby {
            Some(id) => self.get(id).await.is_ok_and(|l| l.rated),
            None => false,
        };
        let mut lobby =
            Lobby::new(setup.game.clone(), setup.options.clone(), max, setup.public, setup.turn_seconds, by);
        lobby.rated = rated;
        lobby.seats = vec![None; max];
        let mut invited = Vec::new();
        // New accounts for the bots, stored with the lobby (not if another rematch came first).
        let mut bots = Vec::new();
        for (seat, (account, bot)) in setup.accounts.iter().zip(&setup.bots).enumerate().take(max) {
            let name = setup.seats.get(seat).cloned().unwrap_or_default();
            if *bot {
                let bot = Account::new_bot(bots.len() + 1);
                lobby.seats[seat] =
                    Some(super::SeatHolder { account: bot.id.clone(), name: bot.name.clone(), bot: true });
                bots.push(bot);
            } else {
                let accepted = (account == &by.id).then_some(true);
                invited.push(super::rematch::Invitee { account: account.clone(), name, seat, accepted });
            }
        }
        lobby.rematch = Some(super::rematch::Rematch { of: setup.id.clone(), invited });
        lobby.seat_the_accepted();
        match self.store.insert_rematch_lobby(&setup.id, &lobby.record(), &bots).await {
            Ok(()) => {}
            // Another player asked at the same moment and was first: theirs is the rematch (this
            // lobby was not stored).
            Err(crate::store::StoreError::Conflict(_)) => {
                let first = self.store.rematch_lobby(&setup.id).await?.ok_or(ApiError::Internal)?;
                return self.accept_rematch(&first, by).await;
            }
            Err(e) => return Err(e.into()),
        }
        self.insert(lobby.clone());
        Ok(lobby)
    }

    /// `by` accepts the rematch in lobby `id` (already accepted or seated: nothing changes).
    async fn accept_rematch(&self, id: &LobbyId, by: &Account) -> Result<Lobby, ApiError> {
        self.change(id, |l| match l.answer_rematch(by, true) {
            Err(ApiError::LobbyStarted) if l.is_member(&by.id) => Ok(()),
            other => other,
        })
        .await
    }

    /// Every later removal from any lobby, for the sockets to act on.
    pub fn kicks(&self) -> broadcast::Receiver<Kick> {
        self.kicks.subscribe()
    }
}
