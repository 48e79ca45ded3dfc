//! Games and their write-ahead action logs.

use super::{int, json, opt_int, opt_text, raw_json, text, Backend, Fence, LobbyRecord, Store, StoreError};
use crate::clock::TurnLimit;
use crate::ids::{now_ms, AccountId, GameId, LobbyId};
use game_core::view_diff::push_uint;
use game_core::{GameLog, LogEntry, Outcome, Seat, Seed, StateHash};
use serde::Serialize;
use serde_json::Value;
use sqlx::{AnyConnection, Connection};

/// Where a stored game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// Being played.
    Running,
    /// Over, with an outcome.
    Finished,
    /// Its log no longer replays (or its row is unreadable): kept, not played.
    Broken,
}

impl GameStatus {
    fn as_str(self) -> &'static str {
        match self {
            GameStatus::Running => "running",
            GameStatus::Finished => "finished",
            GameStatus::Broken => "broken",
        }
    }

    pub(super) fn parse(s: &str) -> Result<GameStatus, StoreError> {
        match s {
            "running" => Ok(GameStatus::Running),
            "finished" => Ok(GameStatus::Finished),
            "broken" => Ok(GameStatus::Broken),
            other => Err(corrupt("status", format!("unknown game status {other:?}"))),
        }
    }
}

/// A game about to be stored, as set up at its start.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// Its id.
    pub id: GameId,
    /// The lobby it came from.
    pub lobby: Option<LobbyId>,
    /// The catalog id.
    pub game: String,
    /// The engine version.
    pub engine_version: String,
    /// Normalised options.
    pub options: Value,
    /// Seat names, in seat order.
    pub seats: Vec<String>,
    /// The account in each seat.
    pub accounts: Vec<AccountId>,
    /// Which seats bots play.
    pub bots: Vec<bool>,
    /// Whether anyone may watch.
    pub public: bool,
    /// The invite code of a private game.
    pub invite_code: Option<String>,
    /// Per-turn time limit.
    pub turn_seconds: Option<TurnLimit>,
    /// The secret seed.
    pub seed: Seed,
    /// The state hash after setup.
    pub initial_hash: StateHash,
}

impl NewGame {
    /// The facts that decide who may see or act in this game.
    pub fn access(&self) -> crate::access::GameAccess<'_> {
        crate::access::GameAccess {
            accounts: &self.accounts,
            bots: &self.bots,
            public: self.public,
            invite_code: self.invite_code.as_deref(),
            lobby: self.lobby.as_ref(),
        }
    }
}

/// A stored game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The game as it was set up.
    pub setup: NewGame,
    /// Running, finished or broken.
    pub status: GameStatus,
    /// The result of a finished game.
    pub outcome: Option<Outcome>,
}

impl GameRecord {
    /// Whether the game is over.
    pub fn finished(&self) -> bool {
        self.status == GameStatus::Finished
    }

    /// The complete log of this game; the seed is in it only if the game is finished.
    pub fn log(&self, actions: Vec<ActionRow>) -> GameLog {
        let s = &self.setup;
        GameLog {
            format: game_core::log::LOG_FORMAT.to_string(),
            game_id: s.id.0.clone(),
            game: s.game.clone(),
            engine_version: s.engine_version.clone(),
            options: s.options.clone(),
            seats: s.seats.clone(),
            seed_commitment: s.seed.commitment(),
            seed: self.finished().then_some(s.seed),
            initial_hash: s.initial_hash.clone(),
            actions: actions
                .into_iter()
                .map(|a| LogEntry {
                    seq: a.seq,
                    seat: a.seat,
                    // Checked to be JSON (within serde_json's nesting limit) when it was read or
                    // made, so this reads; were it not, a null fails the replay loudly.
                    action: serde_json::from_str(a.action.get()).unwrap_or(Value::Null),
                    hash: a.hash,
                })
                .collect(),
            outcome: self.outcome.clone(),
        }
    }
}

/// One accepted action, as appended.
#[derive(Clone, Debug)]
pub struct ActionRow {
    /// The game.
    pub game: GameId,
    /// 1 for the first action.
    pub seq: u64,
    /// Who acted.
    pub seat: Seat,
    /// The action's JSON text: as the engine writes it, for actions stored by this build.
    pub action: Box<serde_json::value::RawValue>,
    /// The state hash after it.
    pub hash: StateHash,
    /// Set on the action that ended the game: the outcome is recorded in the same commit.
    pub outcome: Option<Outcome>,
    /// Whether the turn clock made this move for a seat whose time ran out.
    pub by_clock: bool,
}

/// Equal rows hold the same action text (the text is what is stored).
impl PartialEq for ActionRow {
    fn eq(&self, other: &Self) -> bool {
        self.game == other.game
            && self.seq == other.seq
            && self.seat == other.seat
            && self.action.get() == other.action.get()
            && self.hash == other.hash
            && self.outcome == other.outcome
            && self.by_clock == other.by_clock
    }
}

/// A game one account played, for its history.
#[derive(Clone, Debug, Serialize)]
pub struct GameSummary {
    /// The game.
    pub id: GameId,
    /// The catalog id.
    pub game: String,
    /// The seat the account held.
    pub seat: Seat,
    /// Seat names.
    pub seats: Vec<String>,
    /// Running, finished or broken.
    pub status: GameStatus,
    /// The result once finished.
    pub outcome: Option<Outcome>,
    /// Start time (unix ms).
    pub created_at: i64,
    /// Whether the game waits for this account's seat now (running games whose table is live).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub your_turn: bool,
}

/// The most action rows in one `insert` statement (bounds the size of its parameter). As many as
/// the writer takes into one batch ([`super::writer::MAX_BATCH`]): at 200 saturated games one
/// batch in ten held more than 128 rows, and at 128 those went as a transaction of two inserts.
const INSERT_CHUNK: usize = 256;
const _: () = assert!(INSERT_CHUNK >= super::writer::MAX_BATCH, "a writer's batch is one statement");

/// One action row as the insert statement reads it from its JSON parameter.
#[derive(Serialize)]
struct RowJson<'a> {
    g: &'a str,
    s: u64,
    t: u8,
    /// The action's JSON text, as a JSON string: the database unescapes it back to the very text.
    a: &'a str,
    h: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    c: Option<u8>,
}

/// PostgreSQL: the rows are one `jsonb` array, read back as a record set (the fallback of
/// [`INSERT_ACTIONS_PG_LINES`]).
const INSERT_ACTIONS_PG: &str = "insert into actions (game_id, seq, seat, action, state_hash, by_clock, created_at) \
     select r.g, r.s, r.t, r.a, r.h, r.c, $1 \
     from jsonb_to_recordset($2::jsonb) as r(g text, s bigint, t bigint, a text, h text, c bigint)";

/// The statement of [`INSERT_ACTIONS_PG_LINES`] (a macro, so that [`FINISH_UNRATED_PG`] can hold
/// it too).
macro_rules! insert_action_lines {
    () => {
        "insert into actions (game_id, seq, seat, action, state_hash, by_clock, created_at) \
         select split_part(l, E'\\t', 1), split_part(l, E'\\t', 2)::bigint, split_part(l, E'\\t', 3)::bigint, \
         split_part(l, E'\\t', 4), split_part(l, E'\\t', 5), nullif(split_part(l, E'\\t', 6), '')::bigint, $1 \
         from unnest(string_to_array($2, E'\\n')) as l"
    };
}

/// PostgreSQL: the rows are one text, a line per row of six tab-separated fields (game, seq,
/// seat, action, hash, and `1` or nothing for by-clock; see [`row_lines`]). PostgreSQL splits
/// such a text in about a quarter of the time it takes to parse the same rows as `jsonb` (~1 µs
/// against ~3.5 µs a row), and nothing in it needs unescaping.
const INSERT_ACTIONS_PG_LINES: &str = insert_action_lines!();

/// SQLite: the same, through `json_each` (in array order).
const INSERT_ACTIONS_SQLITE: &str =
    "insert into actions (game_id, seq, seat, action, state_hash, by_clock, created_at) \
     select json_extract(value, '$.g'), json_extract(value, '$.s'), json_extract(value, '$.t'), \
     json_extract(value, '$.a'), json_extract(value, '$.h'), json_extract(value, '$.c'), $1 from json_each($2)";

/// PostgreSQL: a batch in which games end, as one statement that commits on its own, where it
/// took five round trips (`begin`, the insert, each game's `update` and the read of its lobby for
/// ratings, `commit`): the actions as in [`INSERT_ACTIONS_PG_LINES`], and each ended game (`$3`,
/// a line per game of its id and outcome, tab-separated) marked finished. It writes nothing if
/// the lobby of any of those games asks for ratings (its text says `"rated": true`), and answers
/// how many do: such a batch goes as a transaction that rates them ([`super::ratings::rate_game`]).
/// The games are looked up and marked by `finish_unrated_games` (migration 10003), whose plans
/// probe their keys however small the tables were when this statement was first planned, and
/// are made once per connection (migration 10004).
const FINISH_UNRATED_PG: &str = concat!(
    "with rated as (select finish_unrated_games($1, $3) as n), ins as (",
    insert_action_lines!(),
    " where (select n from rated) = 0) select n from rated"
);

/// Whether `text` holds no tab and no line break (it can be a field of a line of text).
fn plain(text: &str) -> bool {
    // Every byte is looked at, with no early exit, which the compiler turns into vector code.
    !text.bytes().fold(false, |found, b| found | (b == b'\t') | (b == b'\n'))
}

/// The ended games of `rows` as the lines `$3` of [`FINISH_UNRATED_PG`] reads (id and outcome),
/// or none when an id holds a tab or a line break (an outcome's JSON text never does).
fn ended_lines(rows: &[&ActionRow]) -> Result<Option<String>, StoreError> {
    let mut lines = String::new();
    for (row, outcome) in rows.iter().filter_map(|r| Some((r, r.outcome.as_ref()?))) {
        let outcome = serde_json::to_string(outcome).map_err(|e| corrupt("outcome", e))?;
        if !(plain(row.game.as_str()) && plain(&outcome)) {
            return Ok(None);
        }
        if !lines.is_empty() {
            lines.push('\n');
        }
        lines.push_str(row.game.as_str());
        lines.push('\t');
        lines.push_str(&outcome);
    }
    Ok(Some(lines))
}

/// `rows` as the lines [`INSERT_ACTIONS_PG_LINES`] reads, or none when a text field holds a tab
/// or a line break (an action sent with whitespace in it): those rows go as JSON instead.
fn row_lines(rows: &[&ActionRow]) -> Option<String> {
    let mut lines = String::with_capacity(rows.len() * 160);
    for (i, r) in rows.iter().enumerate() {
        let (game, action, hash) = (r.game.as_str(), r.action.get(), r.hash.0.as_str());
        if !(plain(game) && plain(action) && plain(hash)) {
            return None;
        }
        if i > 0 {
            lines.push('\n');
        }
        // Piece by piece: `write!` would take `fmt`'s way for each row.
        lines.push_str(game);
        lines.push('\t');
        push_uint(&mut lines, r.seq);
        lines.push('\t');
        push_uint(&mut lines, u64::from(r.seat.0));
        lines.push('\t');
        lines.push_str(action);
        lines.push('\t');
        lines.push_str(hash);
        lines.push('\t');
        if r.by_clock {
            lines.push('1');
        }
    }
    Some(lines)
}

/// Inserts `rows` (at most [`INSERT_CHUNK`]) with one statement, whatever their number: the rows
/// travel as one parameter (`$2`; `$1` is the time, shared), on PostgreSQL as lines of text
/// ([`row_lines`]), otherwise as JSON. Six parameters per row, each copied and converted by
/// sqlx's `Any` driver, were ~3% of the server's samples under load, and every batch size was its
/// own prepared statement; now one statement text serves every batch (docs/performance.md).
async fn insert_actions(conn: &mut AnyConnection, rows: &[&ActionRow], now: i64) -> Result<(), StoreError> {
    let postgres = conn.backend_name() == <sqlx::Postgres as sqlx::Database>::NAME;
    let (sql, param) = match postgres.then(|| row_lines(rows)).flatten() {
        Some(lines) => (INSERT_ACTIONS_PG_LINES, lines),
        None => {
            let json: Vec<RowJson<'_>> = rows
                .iter()
                .map(|r| RowJson {
                    g: r.game.as_str(),
                    s: r.seq,
                    t: r.seat.0,
                    a: r.action.get(),
                    h: &r.hash.0,
                    c: r.by_clock.then_some(1),
                })
                .collect();
            let json = serde_json::to_string(&json).map_err(|e| corrupt("actions", e))?;
            (if postgres { INSERT_ACTIONS_PG } else { INSERT_ACTIONS_SQLITE }, json)
        }
    };
    sqlx::query(sql).bind(now).bind(param).execute(conn).await.map_err(StoreError::from_insert)?;
    Ok(())
}

/// PostgreSQL: `rows` (at most [`INSERT_CHUNK`], games ending among them) with
/// [`FINISH_UNRATED_PG`]: whether they were written. They were not when one of the ended games
/// is rated, or a text field holds a tab or a line break; the caller then writes them in a
/// transaction.
async fn finish_unrated(conn: &mut AnyConnection, rows: &[&ActionRow], now: i64) -> Result<bool, StoreError> {
    let (Some(actions), Some(ended)) = (row_lines(rows), ended_lines(rows)?) else { return Ok(false) };
    let rated = sqlx::query(FINISH_UNRATED_PG)
        .bind(now)
        .bind(actions)
        .bind(ended)
        .fetch_one(conn)
        .await
        .map_err(StoreError::from_insert)?;
    Ok(int(&rated, "n")? == 0)
}

/// The games row of a new game, its values `$1` to `$14` (see [`bind_game`]).
macro_rules! insert_game {
    () => {
        "insert into games (id, lobby_id, game, engine_version, options, seats, bots, public, invite_code, \
         turn_seconds, seed, seed_commitment, initial_hash, status, created_at) \
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'running', $14)"
    };
}

/// PostgreSQL: a new game, its players (`$15`, a JSON array of `{seat, account}`) and its lobby's
/// new state (`$16` to `$18`, null without a lobby) in one statement, which commits on its own:
/// one round trip instead of five (`begin`, three statements, `commit`). Every part of it is
/// stored or none is, as in a transaction.
const START_GAME_PG: &str = concat!(
    "with game as (",
    insert_game!(),
    " returning id), \
     players as (insert into game_players (game_id, seat, account_id) select game.id, p.seat, p.account \
     from game, jsonb_to_recordset($15::jsonb) as p(seat bigint, account text)), \
     lobby as (update lobbies set status = $16, state = $17, updated_at = $14 where id = $18) \
     select 1"
);

/// Binds the values of [`insert_game!`] to `query`.
fn bind_game<'q>(
    query: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>,
    game: &'q NewGame,
    now: i64,
) -> Result<sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>, StoreError> {
    Ok(query
        .bind(game.id.as_str())
        .bind(game.lobby.as_ref().map(|l| l.as_str()))
        .bind(&game.game)
        .bind(&game.engine_version)
        .bind(game.options.to_string())
        .bind(serde_json::to_string(&game.seats).map_err(|e| corrupt("seats", e))?)
        .bind(serde_json::to_string(&game.bots).map_err(|e| corrupt("bots", e))?)
        .bind(i64::from(game.public))
        .bind(game.invite_code.as_deref())
        .bind(game.turn_seconds.map(|t| t.seconds() as i64))
        .bind(game.seed.to_hex())
        .bind(game.seed.commitment())
        .bind(&game.initial_hash.0)
        .bind(now))
}

const GAME_COLUMNS: &str =
    "id, lobby_id, game, engine_version, options, seats, bots, public, invite_code, turn_seconds, \
                            seed, initial_hash, status, outcome";

fn corrupt(col: &str, e: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt(format!("{col}: {e}"))
}

fn game_record(row: &sqlx::any::AnyRow, accounts: Vec<AccountId>) -> Result<GameRecord, StoreError> {
    let seats: Vec<String> = serde_json::from_value(json(row, "seats")?).map_err(|e| corrupt("seats", e))?;
    let seed: Seed = text(row, "seed")?.parse().map_err(|e| corrupt("seed", e))?;
    let outcome = match opt_text(row, "outcome")? {
        Some(o) => Some(serde_json::from_str(&o).map_err(|e| corrupt("outcome", e))?),
        None => None,
    };
    Ok(GameRecord {
        setup: NewGame {
            id: GameId(text(row, "id")?),
            lobby: opt_text(row, "lobby_id")?.map(LobbyId),
            game: text(row, "game")?,
            engine_version: text(row, "engine_version")?,
            options: json(row, "options")?,
            seats,
            accounts,
            bots: serde_json::from_value(json(row, "bots")?).map_err(|e| corrupt("bots", e))?,
            public: int(row, "public")? != 0,
            invite_code: opt_text(row, "invite_code")?,
            // Clamped into range: a value an older build stored must not stop the game loading.
            turn_seconds: opt_int(row, "turn_seconds")?.map(|t| TurnLimit::from(u64::try_from(t).unwrap_or(0))),
            seed,
            initial_hash: StateHash(text(row, "initial_hash")?),
        },
        status: GameStatus::parse(&text(row, "status")?)?,
        outcome,
    })
}

impl Store {
    /// Stores a new game, its players and its lobby's new state in one commit (on PostgreSQL in
    /// one statement).
    ///
    /// # Errors
    /// When the database fails; [`StoreError::Conflict`] when the game id is taken.
    pub async fn start_game(&self, game: &NewGame, lobby: Option<&LobbyRecord>) -> Result<(), StoreError> {
        let now = now_ms();
        let mut lease = self.pool().acquire().await?;
        if *self.backend() == Backend::Postgres {
            #[derive(Serialize)]
            struct Player<'a> {
                seat: usize,
                account: &'a str,
            }
            let players: Vec<Player<'_>> =
                game.accounts.iter().enumerate().map(|(seat, a)| Player { seat, account: a.as_str() }).collect();
            bind_game(sqlx::query(START_GAME_PG), game, now)?
                .bind(serde_json::to_string(&players).map_err(|e| corrupt("players", e))?)
                .bind(lobby.map(|l| l.status.as_str()))
                .bind(lobby.map(|l| l.state.as_str()))
                .bind(lobby.map(|l| l.id.as_str()))
                .execute(&mut *lease)
                .await
                .map_err(StoreError::from_insert)?;
            lease.keep();
            return Ok(());
        }
        let mut tx = lease.begin().await?;
        bind_game(sqlx::query(insert_game!()), game, now)?.execute(&mut *tx).await.map_err(StoreError::from_insert)?;
        if !game.accounts.is_empty() {
            // Every seat in one statement: one round trip, not one per player.
            let rows: Vec<String> =
                (0..game.accounts.len()).map(|i| format!("($1, ${}, ${})", 2 + 2 * i, 3 + 2 * i)).collect();
            let sql = format!("insert into game_players (game_id, seat, account_id) values {}", rows.join(", "));
            let mut query = sqlx::query(&sql).bind(game.id.as_str());
            for (seat, account) in game.accounts.iter().enumerate() {
                query = query.bind(seat as i64).bind(account.as_str());
            }
            query.execute(&mut *tx).await?;
        }
        if let Some(lobby) = lobby {
            sqlx::query("update lobbies set status = $1, state = $2, updated_at = $3 where id = $4")
                .bind(lobby.status.as_str())
                .bind(lobby.state.as_str())
                .bind(now)
                .bind(lobby.id.as_str())
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        lease.keep();
        Ok(())
    }

    async fn seat_accounts(&self, game: &GameId) -> Result<Vec<AccountId>, StoreError> {
        let rows = sqlx::query("select account_id from game_players where game_id = $1 order by seat")
            .bind(game.as_str())
            .fetch_all(self.pool())
            .await?;
        rows.iter().map(|r| text(r, "account_id").map(AccountId)).collect()
    }

    /// One game.
    ///
    /// # Errors
    /// When the database fails or the row is unreadable.
    pub async fn game(&self, id: &GameId) -> Result<Option<GameRecord>, StoreError> {
        let row = sqlx::query(&format!("select {GAME_COLUMNS} from games where id = $1"))
            .bind(id.as_str())
            .fetch_optional(self.pool())
            .await?;
        match row {
            None => Ok(None),
            Some(row) => Ok(Some(game_record(&row, self.seat_accounts(id).await?)?)),
        }
    }

    /// The ids of every game still running, oldest first (for recovery at start-up). Only ids:
    /// recovery reads each game on its own, so that one unreadable row stops only its game.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn running_games(&self) -> Result<Vec<GameId>, StoreError> {
        let rows = sqlx::query("select id from games where status = 'running' order by created_at")
            .fetch_all(self.pool())
            .await?;
        rows.iter().map(|row| text(row, "id").map(GameId)).collect()
    }

    /// Every stored action of a game, in order.
    ///
    /// # Errors
    /// When the database fails or a row is unreadable.
    pub async fn actions(&self, game: &GameId) -> Result<Vec<ActionRow>, StoreError> {
        let rows =
            sqlx::query("select seq, seat, action, state_hash, by_clock from actions where game_id = $1 order by seq")
                .bind(game.as_str())
                .fetch_all(self.pool())
                .await?;
        rows.iter()
            .map(|r| {
                Ok(ActionRow {
                    game: game.clone(),
                    seq: int(r, "seq")?.max(0) as u64,
                    seat: Seat(u8::try_from(int(r, "seat")?).map_err(|e| corrupt("seat", e))?),
                    action: raw_json(r, "action")?,
                    hash: StateHash(text(r, "state_hash")?),
                    outcome: None,
                    by_clock: opt_int(r, "by_clock")?.is_some_and(|b| b != 0),
                })
            })
            .collect()
    }

    /// The stored action `seq` of a game, if any (to check an append whose commit's reply was lost).
    ///
    /// # Errors
    /// When the database fails or the row is unreadable.
    pub async fn action_at(&self, game: &GameId, seq: u64) -> Result<Option<ActionRow>, StoreError> {
        let row =
            sqlx::query("select seq, seat, action, state_hash, by_clock from actions where game_id = $1 and seq = $2")
                .bind(game.as_str())
                .bind(seq as i64)
                .fetch_optional(self.pool())
                .await?;
        row.map(|r| {
            Ok(ActionRow {
                game: game.clone(),
                seq,
                seat: Seat(u8::try_from(int(&r, "seat")?).map_err(|e| corrupt("seat", e))?),
                action: raw_json(&r, "action")?,
                hash: StateHash(text(&r, "state_hash")?),
                outcome: None,
                by_clock: opt_int(&r, "by_clock")?.is_some_and(|b| b != 0),
            })
        })
        .transpose()
    }

    /// Appends actions of any number of games in one commit; an action that ends its game also
    /// marks the game finished with its outcome.
    ///
    /// The rows go in with one multi-row `insert` per [`INSERT_CHUNK`] rows rather than one
    /// statement each: a batch of a hundred actions is a few round trips, not a hundred.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if a seq is already taken (nothing of the batch is written then).
    pub async fn append_actions<'a>(&self, rows: impl IntoIterator<Item = &'a ActionRow>) -> Result<(), StoreError> {
        self.append_actions_fenced(rows, None).await
    }

    /// [`Store::append_actions`], refused unless `fence` (cluster mode) still holds every game's
    /// lease at its epoch. The lease rows are read `for share` in the appending transaction: a
    /// node taking a lease over waits for this commit, and then reads a log that includes it.
    ///
    /// # Errors
    /// [`StoreError::Fenced`] for a game whose lease this node no longer holds (nothing of the
    /// batch is written then), or as [`Store::append_actions`].
    pub async fn append_actions_fenced<'a>(
        &self,
        rows: impl IntoIterator<Item = &'a ActionRow>,
        fence: Option<&Fence<'_>>,
    ) -> Result<(), StoreError> {
        let mut lease = self.pool().acquire().await?;
        Store::append_actions_on(&mut lease, rows, fence).await?;
        lease.keep();
        Ok(())
    }

    /// [`Store::append_actions_fenced`] on `conn` (the writer keeps one connection for its
    /// appends rather than taking one from the pool, and testing it, for every batch).
    ///
    /// A batch that only adds actions (no game ends in it, no lease to check, at most
    /// [`INSERT_CHUNK`] rows) is one `insert` statement, which commits on its own: one round trip
    /// instead of three (`begin`, `insert`, `commit`).
    ///
    /// # Errors
    /// As [`Store::append_actions_fenced`].
    pub(crate) async fn append_actions_on<'a>(
        conn: &mut AnyConnection,
        rows: impl IntoIterator<Item = &'a ActionRow>,
        fence: Option<&Fence<'_>>,
    ) -> Result<(), StoreError> {
        let rows: Vec<&ActionRow> = rows.into_iter().collect();
        if rows.is_empty() {
            return Ok(());
        }
        let now = now_ms();
        if fence.is_none() && rows.len() <= INSERT_CHUNK {
            if rows.iter().all(|r| r.outcome.is_none()) {
                return insert_actions(conn, &rows, now).await;
            }
            if conn.backend_name() == <sqlx::Postgres as sqlx::Database>::NAME
                && finish_unrated(conn, &rows, now).await?
            {
                return Ok(());
            }
        }
        let mut tx = conn.begin().await?;
        if let Some(fence) = fence {
            let mut games: Vec<&GameId> = rows.iter().map(|r| &r.game).collect();
            games.sort();
            games.dedup();
            for game in games {
                let held = fence.epoch(game);
                let stored = sqlx::query("select epoch from table_leases where game = $1 and node = $2 for share")
                    .bind(game.as_str())
                    .bind(fence.node)
                    .fetch_optional(&mut *tx)
                    .await?
                    .map(|r| int(&r, "epoch"))
                    .transpose()?;
                if held.is_none() || stored.map(|e| e as u64) != held {
                    return Err(StoreError::Fenced(game.clone()));
                }
            }
        }
        for chunk in rows.chunks(INSERT_CHUNK) {
            insert_actions(&mut tx, chunk, now).await?;
        }
        // Games that end together are rated in id order, the order a rebuild takes them in.
        let mut ended: Vec<(&ActionRow, &Outcome)> =
            rows.iter().filter_map(|r| Some((*r, r.outcome.as_ref()?))).collect();
        ended.sort_by(|a, b| a.0.game.cmp(&b.0.game));
        for (row, outcome) in ended {
            let outcome_json = serde_json::to_string(outcome).map_err(|e| corrupt("outcome", e))?;
            sqlx::query("update games set status = 'finished', outcome = $1, finished_at = $2 where id = $3")
                .bind(outcome_json)
                .bind(now)
                .bind(row.game.as_str())
                .execute(&mut *tx)
                .await?;
            super::ratings::rate_game(&mut tx, &row.game, outcome).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Marks a game whose log no longer replays, so that it is not restored again.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn mark_broken(&self, game: &GameId) -> Result<(), StoreError> {
        sqlx::query("update games set status = $1 where id = $2")
            .bind(GameStatus::Broken.as_str())
            .bind(game.as_str())
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// The games an account played, newest first.
    ///
    /// # Errors
    /// When the database fails or a row is unreadable.
    pub async fn games_of(&self, account: &AccountId, limit: i64) -> Result<Vec<GameSummary>, StoreError> {
        let rows = sqlx::query(
            "select g.id, g.game, p.seat, g.seats, g.status, g.outcome, g.created_at \
             from game_players p join games g on g.id = p.game_id where p.account_id = $1 \
             order by g.created_at desc limit $2",
        )
        .bind(account.as_str())
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(GameSummary {
                    id: GameId(text(r, "id")?),
                    game: text(r, "game")?,
                    seat: Seat(u8::try_from(int(r, "seat")?).map_err(|e| corrupt("seat", e))?),
                    seats: serde_json::from_value(json(r, "seats")?).map_err(|e| corrupt("seats", e))?,
                    status: GameStatus::parse(&text(r, "status")?)?,
                    outcome: match opt_text(r, "outcome")? {
                        Some(o) => Some(serde_json::from_str(&o).map_err(|e| corrupt("outcome", e))?),
                        None => None,
                    },
                    created_at: int(r, "created_at")?,
                    your_turn: false,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(seq: u64, seat: u8, action: &str, by_clock: bool) -> ActionRow {
        ActionRow {
            game: GameId("g-1".into()),
            seq,
            seat: Seat(seat),
            action: serde_json::value::RawValue::from_string(action.into()).unwrap(),
            hash: StateHash("ab12".into()),
            outcome: None,
            by_clock,
        }
    }

    #[test]
    fn rows_are_lines_of_six_tab_separated_fields_unless_a_field_holds_a_tab_or_a_line_break() {
        let (a, b) = (row(1, 0, r#"{"pick":12}"#, false), row(12_345, 7, r#"{"name":"é"}"#, true));
        assert_eq!(row_lines(&[&a]).as_deref(), Some("g-1\t1\t0\t{\"pick\":12}\tab12\t"));
        assert_eq!(
            row_lines(&[&a, &b]).as_deref(),
            Some("g-1\t1\t0\t{\"pick\":12}\tab12\t\ng-1\t12345\t7\t{\"name\":\"é\"}\tab12\t1")
        );
        for spaced in ["{\"pick\":\t12}", "{\"pick\":\n12}", "[1,\n\t2]"] {
            assert_eq!(row_lines(&[&a, &row(2, 1, spaced, false)]), None, "{spaced:?}");
        }
        assert_eq!(
            row_lines(&[&row(3, 1, "{\"pick\": 12}", false)]).as_deref(),
            Some("g-1\t3\t1\t{\"pick\": 12}\tab12\t")
        );
    }
}
