//! The task that owns one live game: it serialises the game's actions, writes each to the store
//! before anyone hears of it, and sends every subscriber the patch from its previous view.
//!
//! Views are kept as their JSON text and patched with [`game_core::view_diff`], which skips
//! unchanged parts of a view by comparing bytes: no `Value` tree is built per viewer per action.

use super::{rebuild, unsubscribed, Command, ConnId, Outbox, Rebuilt, TableConfig, TableInfo};
use crate::catalog::Catalog;
use crate::clock::deadline;
use crate::error::ApiError;
use crate::outbox::Frame;
use crate::protocol::{ack_text, error_text, Clock, PatchFrames, ServerMsg, SnapshotText};
use crate::store::writer::{AppendError, Writer};
use crate::store::{ActionRow, Store};
use game_core::view_diff::{diff_parts_memo_into, DiffMemo, ViewCache, ViewParts};
use game_core::{DynEvent, DynGame, GameRng, Outcome, RandomBot, Seat, SeatNames, Seed, Viewer};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::collections::VecDeque;
use std::sync::Arc;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// How many past versions each viewer keeps, to resume reconnecting clients with patches.
const HISTORY: usize = 256;

/// The legal actions of a viewer the game does not wait for.
const NO_ACTIONS: &str = "[]";

/// One viewer (a seat, or the spectators): its current view, recent messages, subscribers.
struct ViewerSync {
    viewer: Viewer,
    /// What it holds of its view at the table's version: what its next patch starts from.
    held: Held,
    /// The patch messages of recent versions, oldest first.
    history: VecDeque<(u64, Frame)>,
    subscribers: Vec<(ConnId, Outbox)>,
    /// Whether to keep the view and history even with no subscriber (players who may reconnect).
    keep: bool,
    /// Its legal actions at the table's version (kept viewers only), as the JSON array text sent.
    legal: Cow<'static, str>,
    /// The version since which `legal` has not changed: an action sent for any version from
    /// this one on was chosen among the very options the seat has now, so it is not stale.
    legal_since: u64,
}

/// What the table holds of a viewer's view at its version.
enum Held {
    /// Nothing: it was not kept up to date (nobody watched); a subscriber gets a snapshot.
    Nothing,
    /// The parts of its indexed compact JSON text, which the next view's parts are diffed with.
    Parts(ViewParts),
    /// Nothing, for an engine that writes its viewers' patches itself (`Game::view_patches`):
    /// its memo holds what every viewer was shown at this version.
    Engine,
}

impl Held {
    fn is_nothing(&self) -> bool {
        matches!(self, Held::Nothing)
    }
}

/// Where a table's actions go (the writer) and where it reloads its game from after a failed
/// commit (the store, replayed with the catalog's engine).
pub(super) struct Persistence {
    pub(super) writer: Writer,
    pub(super) store: Store,
    pub(super) catalog: Arc<Catalog>,
}

pub(super) struct Actor {
    info: Arc<TableInfo>,
    game: Box<dyn DynGame>,
    /// The game's result, once it is over: `game.outcome()`, kept from the last change of the
    /// game (scoring is asked for several times an action, and after the end by every check).
    outcome: Option<Outcome>,
    version: u64,
    seed: Seed,
    names: SeatNames,
    viewers: Vec<ViewerSync>,
    /// The view members already diffed for the action being broadcast: most of a view is the
    /// same for every viewer, and is diffed once for all of them.
    memo: DiffMemo,
    /// The engine's memo of the view parts it wrote last (parts whose inputs did not change
    /// are handed out again, not written again).
    view_cache: ViewCache,
    /// The engine's memo of the state JSON it hashed last (see `Game::write_canonical`).
    hash_cache: ViewCache,
    /// Whether the engine writes its viewers' patches itself (`Game::view_patches`), its memo of
    /// what they were shown (at this version, for every viewer), and the buffer it writes them
    /// in, kept from one action to the next.
    engine_patches: bool,
    patch_cache: ViewCache,
    patches: Vec<String>,
    /// The buffers an action's patch messages are written in, kept from one action to the next.
    frames: PatchFrames,
    /// The buffer each viewer's patch is written into, kept from one action to the next.
    patch: String,
    /// The viewers someone watches (their places in `viewers`, and who they are), a buffer
    /// kept from one action to the next.
    watched: (Vec<usize>, Vec<Viewer>),
    rx: mpsc::Receiver<Command>,
    store: Store,
    catalog: Arc<Catalog>,
    writer: Writer,
    shutdown: CancellationToken,
    config: TableConfig,
    /// Set when a commit failed after the action was applied: the state has run ahead of the
    /// store, and is reloaded from it before anything else is played or shown.
    needs_reload: bool,
    bot: RandomBot,
    bot_due: Option<Instant>,
    turn_due: Option<Instant>,
    /// The people (seat bits) `turn_due` runs for.
    turn_seats: u64,
    idle_due: Option<Instant>,
}

impl Actor {
    pub(super) fn new(
        info: Arc<TableInfo>,
        rebuilt: Rebuilt,
        seed: Seed,
        rx: mpsc::Receiver<Command>,
        Persistence { writer, store, catalog }: Persistence,
        shutdown: CancellationToken,
        config: TableConfig,
    ) -> Actor {
        let game = rebuilt.game;
        let all = Viewer::all(game.players());
        let keep = |viewer: &Viewer| match viewer {
            Viewer::Seat(s) => !info.bots.get(s.index()).copied().unwrap_or(false),
            Viewer::Spectator => false,
        };
        let kept: Vec<Viewer> = all.iter().copied().filter(keep).collect();
        let mut view_cache = ViewCache::default();
        let engine_patches = game.writes_patches();
        // An engine that writes its patches keeps what its viewers were shown itself (its memo
        // is filled below); the others' views are kept as parts.
        let mut views =
            if engine_patches { Vec::new().into_iter() } else { game.view_texts(&kept, &mut view_cache).into_iter() };
        let viewers = all
            .into_iter()
            .map(|viewer| {
                let keep = keep(&viewer);
                ViewerSync {
                    viewer,
                    held: match (keep, engine_patches) {
                        (false, _) => Held::Nothing,
                        (true, true) => Held::Engine,
                        (true, false) => views.next().map_or(Held::Nothing, Held::Parts),
                    },
                    history: VecDeque::new(),
                    subscribers: vec![],
                    keep,
                    legal: match viewer {
                        Viewer::Seat(seat) if keep && game.to_act().contains(&seat) => {
                            game.legal_actions_json(seat).into()
                        }
                        _ => NO_ACTIONS.into(),
                    },
                    legal_since: rebuilt.version,
                }
            })
            .collect();
        let mut actor = Actor {
            names: SeatNames(info.seats.clone()),
            info,
            outcome: game.outcome(),
            game,
            version: rebuilt.version,
            seed,
            viewers,
            memo: DiffMemo::default(),
            view_cache,
            hash_cache: ViewCache::default(),
            engine_patches,
            patch_cache: ViewCache::default(),
            patches: Vec::new(),
            frames: PatchFrames::default(),
            patch: String::new(),
            watched: Default::default(),
            rx,
            store,
            catalog,
            writer,
            shutdown,
            config,
            needs_reload: false,
            bot: RandomBot::new(GameRng::from_seed(Seed::random())),
            bot_due: None,
            turn_due: None,
            turn_seats: 0,
            idle_due: None,
        };
        // What the next patches start from: the engine's memo of this version.
        actor.prime_patches();
        actor.schedule();
        actor
    }

    fn finished(&self) -> bool {
        self.outcome.is_some()
    }

    /// Runs until shutdown, until every handle is gone, or until a finished game is left idle.
    /// Returns the subscribers it had if it was stopped (cluster mode: when the server is not
    /// shutting down, another node took the game's lease, and they follow the game there).
    pub(super) async fn run(mut self) -> Vec<(ConnId, Viewer, Outbox)> {
        // One wait for the stop, for the table's whole life: made afresh at every command, it
        // took its token's lock to register and again to deregister.
        let stopped = self.shutdown.clone().cancelled_owned();
        tokio::pin!(stopped);
        loop {
            let due = [self.bot_due, self.turn_due, self.idle_due].into_iter().flatten().min();
            tokio::select! {
                biased;
                () = &mut stopped => break,
                command = self.rx.recv() => match command {
                    None => break,
                    Some(command) => self.handle(command).await,
                },
                _ = sleep_until(due), if due.is_some() => {
                    if self.idle_due.is_some_and(|d| d <= Instant::now()) {
                        break;
                    }
                    self.timer_fired().await;
                }
            }
        }
        // Actions that arrived but will not be played still get an answer.
        self.rx.close();
        let error = if self.shutdown.is_cancelled() { ApiError::ShuttingDown } else { ApiError::Internal };
        while let Ok(command) = self.rx.try_recv() {
            if let Command::Action { req, out, .. } = command {
                out.send(error_text(&error, req, Some(&self.info.id)));
            }
        }
        if !self.shutdown.is_cancelled() {
            return Vec::new();
        }
        let mut subscribers = Vec::new();
        for v in &mut self.viewers {
            subscribers.extend(v.subscribers.drain(..).map(|(conn, out)| (conn, v.viewer, out)));
        }
        subscribers
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Subscribe { conn, viewer, last_version, out } => {
                // Never show a position the store does not hold.
                if self.needs_reload && !self.try_reload().await {
                    out.send(error_text(&ApiError::Unavailable, None, Some(&self.info.id)));
                    return;
                }
                self.subscribe(conn, viewer, last_version, out)
            }
            Command::Unsubscribe { conn, done } => {
                for v in &mut self.viewers {
                    v.subscribers.retain(|(c, _)| *c != conn);
                }
                unsubscribed(done);
                self.schedule_idle();
                self.release_if_unwatched();
            }
            Command::Action { seat, version, action, req, out, .. } => {
                let mut answer = Answer { out: Some(out), req, table: Arc::clone(&self.info) };
                let started = std::time::Instant::now();
                let result = self.client_action(seat, version, action, &mut answer).await;
                crate::metrics::action_done(&result, started.elapsed());
                // Written only if still owed: an accepted action's ack usually went out with its patch.
                answer.send(|| match result {
                    Ok(version) => ack_text(req, &self.info.id, version),
                    Err(e) => error_text(&e, req, Some(&self.info.id)),
                });
            }
        }
    }

    async fn client_action(
        &mut self,
        seat: Seat,
        version: u64,
        action: Box<RawValue>,
        answer: &mut Answer,
    ) -> Result<u64, ApiError> {
        if self.needs_reload && !self.try_reload().await {
            return Err(ApiError::Unavailable);
        }
        if self.finished() {
            return Err(ApiError::GameFinished);
        }
        if version != self.version && !self.still_current(seat, version) {
            return Err(ApiError::StaleVersion { current: self.version, sent: version });
        }
        self.play(seat, action.get(), false, Some(answer)).await
    }

    /// Whether an action `seat` chose at an older `version` may still be played: the seat's
    /// legal actions have not changed since then (another seat deciding at the same time, say),
    /// so it chose among exactly the options it has now.
    fn still_current(&self, seat: Seat, version: u64) -> bool {
        version < self.version
            && self.viewers.iter().any(|v| v.viewer == Viewer::Seat(seat) && v.keep && v.legal_since <= version)
    }

    /// Applies an action, commits it to the store, and only then tells every subscriber.
    ///
    /// The state is not copied first: `apply` leaves it untouched when it rejects an action, and
    /// nothing else reads it until the commit is answered (this task waits for it). If the commit
    /// fails, the state has run ahead of the store, and the store is the truth (a commit whose
    /// answer was lost may even have succeeded, and a diverged seq means another action is
    /// stored there): the table reloads the game from the store, now or, if the store cannot be
    /// reached, before it next plays or shows anything.
    ///
    /// `answer`, the sender's (when a client sent the action), gets its ack in the same queue
    /// entry as its own patch, so that the two go out in one write; it is left unsent otherwise.
    async fn play(
        &mut self,
        seat: Seat,
        action: &str,
        by_clock: bool,
        answer: Option<&mut Answer>,
    ) -> Result<u64, ApiError> {
        if self.shutdown.is_cancelled() {
            return Err(ApiError::ShuttingDown);
        }
        // The action is read from the text the client sent, and stored as the engine writes it.
        let (events, stored) = self.game.apply_text(seat, action, &self.names)?;
        self.outcome = self.game.outcome();
        let row = ActionRow {
            game: self.info.id.clone(),
            seq: self.version + 1,
            seat,
            action: stored,
            hash: self.game.state_hash_cached(&mut self.hash_cache),
            outcome: self.outcome.clone(),
            by_clock,
        };
        if let Err(e) = self.writer.append(row).await {
            let error = match e {
                AppendError::Stopped => ApiError::ShuttingDown,
                // Cluster mode: the lease moved; the node's lease keeper stops this table, and the
                // client, retrying, reaches the new owner.
                AppendError::Unavailable | AppendError::NotOwner => ApiError::Unavailable,
                AppendError::Diverged { seq } => {
                    tracing::error!(game = %self.info.id, seq, "table out of step with the store; reloading");
                    ApiError::Internal
                }
                AppendError::Failed(e) => {
                    tracing::error!(game = %self.info.id, error = %e, "action not committed");
                    ApiError::Internal
                }
            };
            self.needs_reload = true;
            if !self.shutdown.is_cancelled() {
                self.try_reload().await;
            }
            return Err(error);
        }
        self.version += 1;
        // The timers first: the patches carry the new turn's clock. Who is to act is asked of
        // the engine once, for both.
        let to_act = self.game.to_act();
        self.schedule_for(&to_act);
        self.broadcast(seat, &to_act, &events, by_clock, answer);
        if self.finished() {
            tracing::info!(game = %self.info.id, version = self.version, "game over");
            // After the last patches went out (they were written from what is let go of).
            self.release_if_unwatched();
        }
        Ok(self.version)
    }

    /// [`Actor::reload`], unless the writer knows the store is unreachable: then false at once.
    /// Reading an unreachable store waits out the pool's acquire timeout (seconds), and the
    /// client waiting behind it gets the same `server/unavailable` later; the writer probes the
    /// store and the next command tries again.
    async fn try_reload(&mut self) -> bool {
        !self.writer.health().is_down() && self.reload().await
    }

    /// Reloads the game from the store and sends every subscriber a snapshot of it. False (and
    /// the reload is tried again later) when the store cannot be read.
    async fn reload(&mut self) -> bool {
        let id = self.info.id.clone();
        let loaded = match (self.store.game(&id).await, self.store.actions(&id).await) {
            (Ok(Some(record)), Ok(actions)) => rebuild(&self.catalog, &record, &actions),
            (Ok(None), _) => Err("the game is gone from the store".to_string()),
            (Err(e), _) | (_, Err(e)) => Err(e.to_string()),
        };
        let Rebuilt { game, version } = match loaded {
            Ok(rebuilt) => rebuilt,
            Err(e) => {
                tracing::error!(game = %id, error = %e, "table not reloaded from the store yet");
                return false;
            }
        };
        tracing::warn!(game = %id, version, "table reloaded from the store after a failed commit");
        self.outcome = game.outcome();
        self.game = game;
        self.version = version;
        self.needs_reload = false;
        // The engine's memos are of one game's states.
        self.hash_cache = ViewCache::default();
        self.prime_patches();
        let to_act = self.game.to_act();
        for v in &mut self.viewers {
            v.legal = match v.viewer {
                Viewer::Seat(seat) if v.keep && to_act.contains(&seat) => self.game.legal_actions_json(seat).into(),
                _ => NO_ACTIONS.into(),
            };
            v.legal_since = version;
        }
        self.resubscribe_all();
        self.schedule();
        true
    }

    /// An engine that writes its patches: its memo made afresh, of the game as it is now (what
    /// the next patches start from; every viewer then needs a snapshot of it).
    fn prime_patches(&mut self) {
        if self.engine_patches {
            self.patch_cache = ViewCache::default();
            self.game.view_patches(&[], &mut self.patch_cache, &mut self.patches);
        }
    }

    /// Every watched viewer's subscribers sent a snapshot of the game as it is now, as to new
    /// subscribers: for when the table holds no patch for them (the engine's memo was not of the
    /// version before, which the table never lets happen).
    fn resync(&mut self) {
        tracing::error!(game = %self.info.id, version = self.version, "no patch from the engine: snapshots sent");
        self.prime_patches();
        self.resubscribe_all();
    }

    /// Every viewer's history and view forgotten, and each subscriber sent a snapshot of the game
    /// as it is now, as a new subscriber is.
    fn resubscribe_all(&mut self) {
        for i in 0..self.viewers.len() {
            let v = &mut self.viewers[i];
            v.history.clear();
            v.held = Held::Nothing;
            let subscribers = std::mem::take(&mut v.subscribers);
            let viewer = v.viewer;
            for (conn, out) in subscribers {
                self.subscribe(conn, viewer, None, out);
            }
        }
    }

    /// The legal actions sent to `viewer`: only a seat the game waits for has any.
    fn legal_actions(&self, viewer: Viewer, to_act: &[Seat]) -> Cow<'static, str> {
        match viewer {
            Viewer::Seat(seat) if to_act.contains(&seat) => self.game.legal_actions_json(seat).into(),
            _ => NO_ACTIONS.into(),
        }
    }

    /// The turn clock of the people the game waits for, when this table has a time limit.
    fn clock(&self) -> Option<Clock> {
        self.clock_for(&self.game.to_act())
    }

    /// [`Actor::clock`], for the seats the game waits for (`to_act`).
    fn clock_for(&self, to_act: &[Seat]) -> Option<Clock> {
        let due = self.turn_due?;
        let is_bot = |s: &Seat| self.info.bots.get(s.index()).copied().unwrap_or(false);
        let seats: Vec<Seat> = to_act.iter().copied().filter(|s| !is_bot(s)).collect();
        let remaining = due.saturating_duration_since(Instant::now());
        Some(Clock { seats, remaining_ms: u64::try_from(remaining.as_millis()).unwrap_or(u64::MAX) })
    }

    fn broadcast(
        &mut self,
        seat: Seat,
        to_act: &[Seat],
        events: &[DynEvent],
        by_clock: bool,
        mut answer: Option<&mut Answer>,
    ) {
        let clock = self.clock_for(to_act);
        let outcome = self.outcome.as_ref();
        let seed = outcome.map(|_| self.seed.to_hex());
        let version = self.version;
        self.memo.clear();
        // Taken for the broadcast (its buffers come back at the end): the viewers' loop below
        // borrows the rest of the table.
        let mut frames = std::mem::take(&mut self.frames);
        frames.start(&self.info.id, version, seat, to_act, seed.as_deref(), outcome, by_clock, clock.as_ref());
        let (mut watched, mut who) = std::mem::take(&mut self.watched);
        watched.clear();
        who.clear();
        for (i, v) in self.viewers.iter_mut().enumerate() {
            if v.keep || !v.subscribers.is_empty() {
                watched.push(i);
                who.push(v.viewer);
            } else {
                // Nobody watches this viewer: skip the work; a later subscriber gets a snapshot.
                v.held = Held::Nothing;
                v.history.clear();
            }
        }
        // The engine's own patches (its memo moves to this version even when nobody watches),
        // or every watched viewer's view written as parts, to be diffed with the parts it holds.
        let (mut views, mut patches) = (Vec::new().into_iter(), std::mem::take(&mut self.patches));
        let engine_wrote = if self.engine_patches {
            self.game.view_patches(&who, &mut self.patch_cache, &mut patches)
        } else {
            views = self.game.view_texts(&who, &mut self.view_cache).into_iter();
            false
        };
        if self.engine_patches && !engine_wrote {
            self.patches = patches;
            self.frames = frames;
            self.watched = (watched, who);
            self.resync();
            // The action was stored: its mover hears so, after its snapshot.
            if let Some(answer) = answer {
                if let Some(out) = answer.out.take() {
                    out.send(ack_text(answer.req, &self.info.id, version));
                }
            }
            return;
        }
        for (k, &i) in watched.iter().enumerate() {
            let viewer = self.viewers[i].viewer;
            let legal = self.legal_actions(viewer, to_act);
            let v = &mut self.viewers[i];
            let (text, held) = if engine_wrote {
                let text = matches!(v.held, Held::Engine).then(|| frames.frame(&patches[k], events, viewer, &legal));
                (text, Held::Engine)
            } else {
                let new_view = views.next().unwrap_or_default();
                let text = match &v.held {
                    Held::Parts(old_view) => {
                        diff_parts_memo_into(old_view, &new_view, &mut self.memo, &mut self.patch);
                        Some(frames.frame(&self.patch, events, viewer, &legal))
                    }
                    Held::Nothing | Held::Engine => None,
                };
                (text, Held::Parts(new_view))
            };
            if v.keep && v.legal != legal {
                v.legal = legal;
                v.legal_since = self.version;
            }
            v.held = held;
            let Some(text) = text else {
                continue;
            };
            v.history.push_back((self.version, text.clone()));
            if v.history.len() > HISTORY {
                v.history.pop_front();
            }
            // A subscriber whose queue is full has fallen behind: it is dropped here, and its
            // socket closes; it resumes from its last version when it reconnects.
            v.subscribers.retain(|(_, out)| match answer.as_deref_mut().and_then(|a| a.take_for(out)) {
                Some(a) => out.send_two(text.clone(), ack_text(a.req, &a.table.id, version)),
                None => out.send(text.clone()),
            });
            if outcome.is_some() {
                // The game is over: a client that missed patches now gets the final snapshot
                // (the whole view and the result), so the history would only hold memory while
                // the finished table lingers for late subscribers.
                v.history = VecDeque::new();
            }
        }
        self.frames = frames;
        self.patches = patches;
        self.watched = (watched, who);
    }

    fn subscribe(&mut self, conn: ConnId, viewer: Viewer, last_version: Option<u64>, out: Outbox) {
        for v in &mut self.viewers {
            v.subscribers.retain(|(c, _)| *c != conn);
        }
        let Some(index) = self.viewers.iter().position(|v| v.viewer == viewer) else { return };
        let version = self.version;
        let v = &self.viewers[index];
        let resumable = !v.held.is_nothing()
            && last_version.is_some_and(|last| {
                last == version || (last < version && v.history.front().is_some_and(|(first, _)| *first <= last + 1))
            });
        if let (true, Some(last)) = (resumable, last_version) {
            for (_, text) in v.history.iter().filter(|(n, _)| *n > last) {
                let _ = out.send(text.clone());
            }
            let _ = out.send(ServerMsg::Resumed { game: &self.info.id, version, clock: self.clock() }.to_text());
        } else {
            let parts = match &v.held {
                Held::Parts(view) => view.clone(),
                Held::Nothing | Held::Engine => {
                    self.game.view_texts(&[viewer], &mut self.view_cache).pop().unwrap_or_default()
                }
            };
            // The view goes out as the engine wrote it (its parts joined, each object's members
            // in the order of the engine's types), with nothing read or written again. Patches
            // name members by key, so their order in the client's copy does not matter.
            let view = parts.join();
            let to_act = self.game.to_act();
            let outcome = self.outcome.as_ref();
            let legal = self.legal_actions(viewer, &to_act);
            let snapshot = SnapshotText {
                game: &self.info.id,
                catalog_id: &self.info.catalog_id,
                version,
                seat: match viewer {
                    Viewer::Seat(s) => Some(s),
                    Viewer::Spectator => None,
                },
                seats: &self.info.seats,
                view: view.as_str(),
                to_act: &to_act,
                legal_actions: &legal,
                seed_commitment: &self.seed.commitment(),
                seed: outcome.map(|_| self.seed.to_hex()),
                outcome,
                clock: self.clock(),
            }
            .to_text();
            let _ = out.send(snapshot);
            let v = &mut self.viewers[index];
            if v.held.is_nothing() {
                // History from before was kept against no view: start afresh from this one.
                v.history.clear();
                v.held = if self.engine_patches { Held::Engine } else { Held::Parts(parts) };
            }
        }
        self.viewers[index].subscribers.push((conn, out));
        self.idle_due = None;
    }

    /// Sets the timers that follow a change: a bot's move, an absent player's deadline.
    ///
    /// The turn clock of a simultaneous decision keeps running when one of the people it waits for
    /// has decided and nobody new waits: otherwise every decision of a fast player would give the
    /// slow ones their whole time again. Any other change (the next person's turn, a person who
    /// starts waiting, the same person's next decision) starts a fresh turn limit; with one shared
    /// clock, everyone waiting gets it.
    fn schedule(&mut self) {
        let to_act = self.game.to_act();
        self.schedule_for(&to_act);
    }

    /// [`Actor::schedule`], for the seats the game waits for (`to_act`).
    fn schedule_for(&mut self, to_act: &[Seat]) {
        self.bot_due = None;
        let previous = (self.turn_due.take(), std::mem::take(&mut self.turn_seats));
        let waiting = to_act.iter().filter(|s| s.index() < 16).fold(0u16, |m, s| m | (1 << s.index()));
        self.info.waiting.store(waiting, std::sync::atomic::Ordering::Relaxed);
        if self.finished() {
            self.schedule_idle();
            return;
        }
        let is_bot = |s: &Seat| self.info.bots.get(s.index()).copied().unwrap_or(false);
        let now = Instant::now();
        if to_act.iter().any(is_bot) {
            self.bot_due = deadline(now, self.config.bot_delay);
        }
        if let Some(limit) = self.info.turn_seconds {
            let people = to_act.iter().filter(|s| !is_bot(s) && s.index() < 64).fold(0u64, |m, s| m | (1 << s.index()));
            if people != 0 {
                self.turn_seats = people;
                self.turn_due = match previous {
                    (Some(due), before) if people & !before == 0 && people != before => Some(due),
                    _ => {
                        let limit =
                            self.config.turn_second.saturating_mul(u32::try_from(limit.seconds()).unwrap_or(u32::MAX));
                        deadline(now, limit)
                    }
                };
            }
        }
    }

    fn finished_and_unwatched(&self) -> bool {
        self.finished() && self.viewers.iter().all(|v| v.subscribers.is_empty())
    }

    fn schedule_idle(&mut self) {
        if self.finished_and_unwatched() {
            self.idle_due = deadline(Instant::now(), self.config.idle_finished);
        }
    }

    /// A finished table that nobody watches waits only for a late subscriber: it keeps the game
    /// (the snapshot is written from it) and lets go of what playing needed, the views last sent,
    /// the engine's memos of its views and state text, the diff memo. Under load these were most
    /// of a finished table's memory, and finished tables linger `idle_finished`. A late
    /// subscriber gets a snapshot written afresh, as one of a table rebuilt from its log does.
    /// Called when the last subscriber leaves and after the game's last broadcast.
    fn release_if_unwatched(&mut self) {
        if !self.finished_and_unwatched() {
            return;
        }
        for v in &mut self.viewers {
            v.held = Held::Nothing;
            v.history = VecDeque::new();
        }
        self.memo = DiffMemo::default();
        self.view_cache = ViewCache::default();
        self.patches = Vec::new();
        self.prime_patches();
        self.hash_cache = ViewCache::default();
        self.frames = PatchFrames::default();
        self.patch = String::new();
    }

    /// A bot's move is due, or an absent player's time ran out: a random bot plays for the seat,
    /// and the move is recorded like any other.
    async fn timer_fired(&mut self) {
        let now = Instant::now();
        let to_act = self.game.to_act();
        let is_bot = |s: &Seat| self.info.bots.get(s.index()).copied().unwrap_or(false);
        // A person's move made because their time ran out is marked as the clock's, not theirs.
        let (seat, by_clock) = if self.bot_due.is_some_and(|d| d <= now) {
            (to_act.iter().copied().find(is_bot), false)
        } else if self.turn_due.is_some_and(|d| d <= now) {
            (to_act.iter().copied().find(|s| !is_bot(s)), true)
        } else {
            (None, false)
        };
        let Some(seat) = seat else {
            self.schedule();
            return;
        };
        let Some(action) = self.bot.choose_dyn_text(self.game.as_ref(), seat) else {
            tracing::error!(game = %self.info.id, %seat, "a seat the game waits for has no legal action");
            self.bot_due = None;
            self.turn_due = None;
            return;
        };
        if let Err(e) = self.play(seat, action.get(), by_clock, None).await {
            tracing::warn!(game = %self.info.id, %seat, error = %e, "bot move failed");
            // Try again later rather than spinning.
            let retry = self.config.bot_delay.max(std::time::Duration::from_millis(500));
            self.bot_due = self.bot_due.and_then(|_| deadline(Instant::now(), retry));
            self.turn_due = self.turn_due.and_then(|_| deadline(Instant::now(), std::time::Duration::from_secs(1)));
        }
    }
}

/// The answer owed to the sender of an action. If the table fails before answering (an engine
/// panic unwinds the task), dropping it still tells the sender: `server/internal`.
struct Answer {
    out: Option<Outbox>,
    req: Option<u64>,
    /// The table's own description, for its game's id (shared: no copy of the id per action).
    table: Arc<TableInfo>,
}

/// What an ack needs, once [`Answer::take_for`] has taken the answer over.
struct AckFor {
    req: Option<u64>,
    table: Arc<TableInfo>,
}

impl Answer {
    /// Takes the answer over if it is owed to the socket behind `out`: the caller then sends the
    /// ack, and [`Answer::send`] does nothing.
    fn take_for(&mut self, out: &Outbox) -> Option<AckFor> {
        if !self.out.as_ref().is_some_and(|mine| mine.same_socket(out)) {
            return None;
        }
        self.out = None;
        Some(AckFor { req: self.req, table: Arc::clone(&self.table) })
    }

    /// Sends the answer `text` writes, unless it was taken over.
    fn send(mut self, text: impl FnOnce() -> Frame) {
        if let Some(out) = self.out.take() {
            out.send(text());
        }
    }
}

impl Drop for Answer {
    fn drop(&mut self) {
        if let Some(out) = self.out.take() {
            out.send(error_text(&ApiError::Internal, self.req, Some(&self.table.id)));
        }
    }
}

async fn sleep_until(due: Option<Instant>) {
    match due {
        Some(due) => tokio::time::sleep_until(due).await,
        None => std::future::pending().await,
    }
}
