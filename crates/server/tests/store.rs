//! The store suite, run on SQLite and on PostgreSQL.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use chapterhouse::clock::TurnLimit;
use chapterhouse::ids::{AccountId, GameId, LobbyId};
use chapterhouse::lobby::LobbyStatus;
use chapterhouse::store::writer::{AppendError, Writer};
use chapterhouse::store::{Account, AccountKind, ActionRow, GameStatus, LobbyRecord, NewGame, Store, StoreError};
use common::TestDb;
use game_core::{Outcome, Seat, Seed, StateHash};
use serde_json::json;

async fn each_backend<F, Fut>(test: F)
where
    F: Fn(Store) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    each_database(|store, _, _| test(store)).await;
}

/// [`each_backend`], the test also given the database's URL and backend (`sqlite` or
/// `postgres`), for what it does beside the store.
async fn each_database<F, Fut>(test: F)
where
    F: Fn(Store, String, &'static str) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    for db in TestDb::all().await {
        eprintln!("-- on {}", db.backend);
        let store = Store::open(&db.url).await.expect("open and migrate");
        test(store.clone(), db.url.clone(), db.backend).await;
        store.close().await;
        db.cleanup().await;
    }
}

fn new_game(accounts: Vec<AccountId>) -> NewGame {
    let n = accounts.len();
    NewGame {
        id: GameId::random(),
        lobby: None,
        game: "some-game".into(),
        engine_version: "1.0.0".into(),
        options: json!({"x": true}),
        seats: (0..n).map(|i| format!("P{i}")).collect(),
        bots: vec![false; n],
        accounts,
        public: false,
        invite_code: Some("code".into()),
        turn_seconds: Some(TurnLimit::new(30).unwrap()),
        seed: Seed::from_u64(9),
        initial_hash: StateHash("h0".into()),
    }
}

/// A start stores the game, who sits where and its lobby's new state together (on PostgreSQL in
/// one statement); a start the store refuses (here: a game id already taken) stores none of them.
#[tokio::test]
async fn a_start_stores_the_game_its_players_and_its_lobby_together_or_nothing() {
    each_backend(|store| async move {
        let a = store.create_account("A", AccountKind::Guest, None, None).await.unwrap();
        let b = store.create_account("B", AccountKind::Registered, None, None).await.unwrap();
        let open = LobbyRecord {
            id: LobbyId::random(),
            game: "some-game".into(),
            public: true,
            status: LobbyStatus::Open,
            host: a.id.clone(),
            state: json!({"seats": ["A", "B"], "say": "a \"quoted\" é"}).to_string(),
        };
        store.insert_lobby(&open).await.unwrap();
        let game = NewGame { lobby: Some(open.id.clone()), ..new_game(vec![a.id.clone(), b.id.clone(), a.id.clone()]) };
        let started = LobbyRecord {
            status: LobbyStatus::Started,
            state: json!({"game": game.id.as_str()}).to_string(),
            ..open.clone()
        };
        store.start_game(&game, Some(&started)).await.unwrap();
        let record = store.game(&game.id).await.unwrap().expect("the game is stored");
        assert_eq!(format!("{:?}", record.setup), format!("{game:?}"), "every field as given");
        assert_eq!(record.status, GameStatus::Running);
        assert_eq!(store.lobby(&open.id).await.unwrap(), Some(started.clone()), "the lobby's new state");
        assert_eq!(store.games_of(&b.id, 10).await.unwrap().len(), 1, "B sits in it");
        assert!(store.public_open_lobbies(10).await.unwrap().is_empty(), "the lobby is no longer open");

        // The same game id again, with another lobby: refused, and that lobby stays as it was.
        let other = LobbyRecord { id: LobbyId::random(), ..open.clone() };
        store.insert_lobby(&other).await.unwrap();
        let again = NewGame { lobby: Some(other.id.clone()), ..game.clone() };
        let moved = LobbyRecord { status: LobbyStatus::Started, ..other.clone() };
        let refused = store.start_game(&again, Some(&moved)).await;
        assert!(matches!(refused, Err(StoreError::Conflict(_))), "{refused:?}");
        assert_eq!(store.lobby(&other.id).await.unwrap(), Some(other.clone()), "the other lobby is untouched");
        let kept = store.game(&game.id).await.unwrap().expect("still there");
        assert_eq!(format!("{:?}", kept.setup), format!("{game:?}"));
        assert_eq!(store.games_of(&b.id, 10).await.unwrap().len(), 1, "no second seat for B");

        // A game without a lobby, and without players (a start with no accounts stores none).
        let alone = new_game(vec![]);
        store.start_game(&alone, None).await.unwrap();
        let stored = store.game(&alone.id).await.unwrap().expect("stored");
        assert_eq!(format!("{:?}", stored.setup), format!("{alone:?}"));
    })
    .await;
}

fn row(game: &GameId, seq: u64) -> ActionRow {
    ActionRow {
        game: game.clone(),
        seq,
        seat: Seat((seq % 2) as u8),
        // Text a store must give back byte for byte: quotes, backslashes, escapes, non-ASCII.
        action: serde_json::value::to_raw_value(&json!({"step": seq, "say": "a \"quoted\" \\ é ☃ 🜲\n\u{1}\u{0}"}))
            .unwrap(),
        hash: StateHash(format!("h{seq}")),
        outcome: None,
        // The second move is one the turn clock made: the flag must come back as stored.
        by_clock: seq == 2,
    }
}

#[tokio::test]
async fn registered_names_are_unique_whatever_their_case_but_guest_names_are_not() {
    each_backend(|store| async move {
        let ada = store.create_account("Ada", AccountKind::Registered, Some("phc"), None).await.unwrap();
        let again = store.create_account("ADA", AccountKind::Registered, Some("phc"), Some("hash-again")).await;
        assert!(matches!(again, Err(StoreError::Conflict(_))), "{again:?}");
        let expiry = chapterhouse::accounts::TOKEN_IDLE_EXPIRY;
        assert!(store.account_by_token("hash-again", expiry).await.unwrap().is_none(), "no token without its account");
        store.create_account("Ada", AccountKind::Guest, None, None).await.unwrap();
        store.create_account("Ada", AccountKind::Guest, None, None).await.unwrap();
        let (found, phc) = store.registered_account("ada").await.unwrap().unwrap();
        assert_eq!((found.id, phc.as_str()), (ada.id, "phc"));
        assert!(store.registered_account("nobody").await.unwrap().is_none());
    })
    .await;
}

#[tokio::test]
async fn an_account_made_with_its_token_signs_in_with_it() {
    each_backend(|store| async move {
        let guest = store.create_account("Cy", AccountKind::Guest, None, Some("hash-cy")).await.unwrap();
        let found = store.account_by_token("hash-cy", chapterhouse::accounts::TOKEN_IDLE_EXPIRY).await.unwrap();
        assert_eq!(found.map(|a| (a.id, a.name)), Some((guest.id.clone(), "Cy".to_string())));
        assert_eq!(store.live_tokens(&guest.id).await.unwrap(), 1);
    })
    .await;
}

#[tokio::test]
async fn using_a_token_moves_its_expiry_on_at_most_once_a_minute() {
    use sqlx::Connection;
    sqlx::any::install_default_drivers();
    for db in TestDb::all().await {
        let store = Store::open(&db.url).await.expect("open and migrate");
        store.create_account("Di", AccountKind::Guest, None, Some("hash-di")).await.unwrap();
        let mut conn = <sqlx::AnyConnection as sqlx::Connection>::connect(&db.url).await.unwrap();
        let last_used = || async {
            let row =
                sqlx::query("select coalesce(last_used_at, created_at) as used from tokens where hash = 'hash-di'")
                    .fetch_one(&mut sqlx::AnyConnection::connect(&db.url).await.unwrap())
                    .await
                    .unwrap();
            sqlx::Row::get::<i64, _>(&row, "used")
        };
        let expiry = chapterhouse::accounts::TOKEN_IDLE_EXPIRY;
        // Just issued: using it records nothing new.
        let issued = last_used().await;
        assert!(store.account_by_token("hash-di", expiry).await.unwrap().is_some());
        assert_eq!(last_used().await, issued, "{}", db.backend);
        // Last used 20 days ago: still valid, and using it moves its expiry on to now.
        let long_ago = chapterhouse::ids::now_ms() - 20 * 24 * 3600 * 1000;
        sqlx::query(&format!("update tokens set created_at = {long_ago}, last_used_at = {long_ago}"))
            .execute(&mut conn)
            .await
            .unwrap();
        assert!(store.account_by_token("hash-di", expiry).await.unwrap().is_some());
        assert!(last_used().await >= chapterhouse::ids::now_ms() - 60_000, "{}", db.backend);
        conn.close().await.unwrap();
        store.close().await;
        db.cleanup().await;
    }
}

#[tokio::test]
async fn a_revoked_token_no_longer_signs_in() {
    each_backend(|store| async move {
        let account = store.create_account("Bea", AccountKind::Guest, None, None).await.unwrap();
        store.insert_token("hash-1", &account.id).await.unwrap();
        assert_eq!(
            store.account_by_token("hash-1", chapterhouse::accounts::TOKEN_IDLE_EXPIRY).await.unwrap().map(|a| a.name),
            Some("Bea".to_string())
        );
        assert!(store.revoke_token("hash-1").await.unwrap());
        assert!(!store.revoke_token("hash-1").await.unwrap(), "revoking twice reports nothing revoked");
        assert!(store.account_by_token("hash-1", chapterhouse::accounts::TOKEN_IDLE_EXPIRY).await.unwrap().is_none());
        assert_eq!(store.live_tokens(&account.id).await.unwrap(), 0);
    })
    .await;
}

/// A new public open lobby hosted by `host`, its state `{"n": 1}`.
fn open_lobby(host: &AccountId) -> LobbyRecord {
    LobbyRecord {
        id: LobbyId::random(),
        game: "g".into(),
        public: true,
        status: LobbyStatus::Open,
        host: host.clone(),
        state: json!({"n": 1}).to_string(),
    }
}

#[tokio::test]
async fn lobbies_are_saved_listed_when_public_and_open_and_read_back() {
    each_backend(|store| async move {
        let host = store.create_account("Host", AccountKind::Guest, None, None).await.unwrap();
        let mut public = open_lobby(&host.id);
        let private = LobbyRecord { id: LobbyId::random(), public: false, ..public.clone() };
        store.insert_lobby(&public).await.unwrap();
        store.insert_lobby(&private).await.unwrap();
        let listed = store.public_open_lobbies(10).await.unwrap();
        assert_eq!(listed.iter().map(|l| &l.id).collect::<Vec<_>>(), vec![&public.id]);
        public.status = LobbyStatus::Started;
        public.state = json!({"n": 2}).to_string();
        store.update_lobby_with(&public, None, &[]).await.unwrap();
        assert!(store.public_open_lobbies(10).await.unwrap().is_empty());
        assert_eq!(store.lobby(&public.id).await.unwrap().unwrap(), public);
    })
    .await;
}

#[tokio::test]
async fn a_lobby_change_stores_the_bots_it_seats_with_it_or_neither() {
    each_backend(|store| async move {
        let host = store.create_account("Host", AccountKind::Guest, None, None).await.unwrap();
        let mut lobby = open_lobby(&host.id);
        store.insert_lobby(&lobby).await.unwrap();
        let bot = |name: &str| Account { id: AccountId::random(), name: name.into(), kind: AccountKind::Bot };
        let (seated, lost) = (bot("Bot 1"), bot("Bot 2"));
        let first = json!({"n": 1}).to_string();
        lobby.state = json!({"n": 2}).to_string();
        let stored =
            store.update_lobby_with(&lobby, Some(first.as_str()), std::slice::from_ref(&seated)).await.unwrap();
        assert!(stored, "written over the state it started from");
        assert_eq!(store.account(&seated.id).await.unwrap(), Some(seated.clone()));
        assert_eq!(store.lobby(&lobby.id).await.unwrap().unwrap(), lobby);
        // Another change started from {"n": 1} too and comes second: neither its state nor its bot.
        let stale = LobbyRecord { state: json!({"n": 3}).to_string(), ..lobby.clone() };
        let stored = store.update_lobby_with(&stale, Some(first.as_str()), std::slice::from_ref(&lost)).await.unwrap();
        assert!(!stored, "refused over a state that changed");
        assert_eq!(store.account(&lost.id).await.unwrap(), None, "the losing change's bot is not left behind");
        assert_eq!(store.lobby(&lobby.id).await.unwrap().unwrap(), lobby);
    })
    .await;
}

#[tokio::test]
async fn a_rematch_is_stored_with_its_lobby_and_bots_and_the_loser_of_a_race_stores_none_of_them() {
    each_backend(|store| async move {
        let a = store.create_account("A", AccountKind::Guest, None, None).await.unwrap();
        let b = store.create_account("B", AccountKind::Guest, None, None).await.unwrap();
        let game = new_game(vec![a.id.clone(), b.id.clone()]);
        store.start_game(&game, None).await.unwrap();
        let lobby = |host: &AccountId| LobbyRecord {
            id: LobbyId::random(),
            game: "some-game".into(),
            public: true,
            status: LobbyStatus::Open,
            host: host.clone(),
            state: json!({}).to_string(),
        };
        let (first, second) = (lobby(&a.id), lobby(&b.id));
        let bot = || Account { id: AccountId::random(), name: "Bot 1".into(), kind: AccountKind::Bot };
        let (first_bot, second_bot) = (bot(), bot());
        store.insert_rematch_lobby(&game.id, &first, std::slice::from_ref(&first_bot)).await.unwrap();
        assert_eq!(store.account(&first_bot.id).await.unwrap(), Some(first_bot.clone()));
        // B asked at the same moment and came second.
        let lost = store.insert_rematch_lobby(&game.id, &second, std::slice::from_ref(&second_bot)).await;
        assert!(matches!(lost, Err(StoreError::Conflict(_))), "{lost:?}");
        assert_eq!(store.account(&second_bot.id).await.unwrap(), None, "the second lobby's bot is not left behind");
        assert_eq!(store.rematch_lobby(&game.id).await.unwrap(), Some(first.id.clone()));
        assert_eq!(store.lobby(&first.id).await.unwrap(), Some(first.clone()));
        assert_eq!(store.lobby(&second.id).await.unwrap(), None, "the second lobby is not left behind");
        let listed = store.public_open_lobbies(10).await.unwrap();
        assert_eq!(listed.iter().map(|l| &l.id).collect::<Vec<_>>(), vec![&first.id]);
    })
    .await;
}

#[tokio::test]
async fn appended_actions_come_back_in_order_and_a_seq_cannot_be_written_twice() {
    each_backend(|store| async move {
        let a = store.create_account("A", AccountKind::Guest, None, None).await.unwrap();
        let b = store.create_account("B", AccountKind::Bot, None, None).await.unwrap();
        let game = new_game(vec![a.id.clone(), b.id.clone()]);
        store.start_game(&game, None).await.unwrap();
        store.append_actions(&[row(&game.id, 1), row(&game.id, 2)]).await.unwrap();
        let duplicate = store.append_actions(&[row(&game.id, 3), row(&game.id, 2)]).await;
        assert!(matches!(duplicate, Err(StoreError::Conflict(_))), "{duplicate:?}");
        let stored = store.actions(&game.id).await.unwrap();
        assert_eq!(stored, vec![row(&game.id, 1), row(&game.id, 2)], "the failed batch wrote nothing");

        let running = store.running_games().await.unwrap();
        assert_eq!(running, vec![game.id.clone()]);
        let record = &store.game(&game.id).await.unwrap().unwrap();
        assert_eq!(record.setup.accounts, vec![a.id.clone(), b.id.clone()]);
        assert_eq!(record.setup.seed, Seed::from_u64(9));
        assert!(record.log(stored.clone()).seed.is_none(), "a running game's log has no seed");

        let outcome = Outcome::from_scores(vec![3, 1], vec![]);
        store.append_actions(&[ActionRow { outcome: Some(outcome.clone()), ..row(&game.id, 3) }]).await.unwrap();
        assert!(store.running_games().await.unwrap().is_empty());
        let finished = store.game(&game.id).await.unwrap().unwrap();
        assert!(finished.finished());
        let log = finished.log(store.actions(&game.id).await.unwrap());
        assert_eq!(log.seed, Some(Seed::from_u64(9)));
        assert_eq!(log.seed_commitment, Seed::from_u64(9).commitment());
        assert_eq!(log.outcome, Some(outcome));
        assert_eq!(log.actions.len(), 3);

        let history = store.games_of(&a.id, 10).await.unwrap();
        assert_eq!(history.len(), 1);
        assert_eq!((history[0].seat, history[0].status), (Seat(0), GameStatus::Finished));
    })
    .await;
}

/// Games that end in one batch are all finished with their outcomes and their actions stored,
/// whatever their lobbies say about ratings; a batch the store refuses finishes none of its
/// games.
#[tokio::test]
async fn games_ending_in_one_batch_are_finished_rated_or_not_and_a_refused_batch_finishes_none() {
    each_backend(|store| async move {
        let a = store.create_account("A", AccountKind::Guest, None, None).await.unwrap();
        let b = store.create_account("B", AccountKind::Guest, None, None).await.unwrap();
        let in_lobby = |state: String| {
            let store = store.clone();
            let (a, b) = (a.id.clone(), b.id.clone());
            async move {
                let lobby = LobbyRecord { state, ..open_lobby(&a) };
                store.insert_lobby(&lobby).await.unwrap();
                let game = NewGame { lobby: Some(lobby.id.clone()), ..new_game(vec![a, b]) };
                let started = LobbyRecord { status: LobbyStatus::Started, ..lobby };
                store.start_game(&game, Some(&started)).await.unwrap();
                game.id
            }
        };
        let unrated = in_lobby(json!({"rated": false}).to_string()).await;
        let rated = in_lobby(json!({"rated": true}).to_string()).await;
        // Written with spaces (PostgreSQL reads a lobby's text for the word, not its JSON).
        let spaced = in_lobby("{ \"rated\" : false }".to_string()).await;
        let no_lobby = new_game(vec![a.id.clone(), b.id.clone()]);
        store.start_game(&no_lobby, None).await.unwrap();
        let ends = |game: &GameId, seq: u64, score: i64| ActionRow {
            outcome: Some(Outcome::from_scores(vec![score, 1], vec![])),
            ..row(game, seq)
        };

        // Two games end in the first batch, beside a move of a third, which ends in the second.
        let first = [row(&unrated, 1), ends(&unrated, 2, 5), ends(&no_lobby.id, 1, 6), row(&rated, 1)];
        store.append_actions(&first).await.unwrap();
        // A rated game and an unrated one end together.
        store.append_actions(&[ends(&rated, 2, 7), ends(&spaced, 1, 8)]).await.unwrap();
        for (game, actions, score) in [(&unrated, 2, 5), (&no_lobby.id, 1, 6), (&rated, 2, 7), (&spaced, 1, 8)] {
            let record = store.game(game).await.unwrap().unwrap();
            assert!(record.finished(), "{game:?} is finished");
            assert_eq!(record.outcome, Some(Outcome::from_scores(vec![score, 1], vec![])), "{game:?}'s outcome");
            assert_eq!(store.actions(game).await.unwrap().len(), actions, "{game:?}'s actions");
        }

        // A batch that ends a game but holds a seq already stored: nothing of it is written.
        let other = in_lobby(json!({"rated": false}).to_string()).await;
        store.append_actions(&[row(&other, 1)]).await.unwrap();
        let refused = store.append_actions(&[ends(&other, 2, 9), row(&unrated, 2)]).await;
        assert!(matches!(refused, Err(StoreError::Conflict(_))), "{refused:?}");
        let record = store.game(&other).await.unwrap().unwrap();
        assert!(!record.finished() && record.outcome.is_none(), "the refused batch finished nothing");
        assert_eq!(store.actions(&other).await.unwrap(), vec![row(&other, 1)]);
        assert_eq!(store.running_games().await.unwrap(), vec![other.clone()]);
    })
    .await;
}

/// An action is stored as the very text it was sent as, line breaks and tabs between its tokens
/// too (on PostgreSQL such a batch travels as JSON, not as lines of tab-separated fields), in a
/// batch with plain ones.
#[tokio::test]
async fn an_action_sent_with_tabs_and_line_breaks_comes_back_byte_for_byte() {
    each_backend(|store| async move {
        let a = store.create_account("A", AccountKind::Guest, None, None).await.unwrap();
        let game = new_game(vec![a.id.clone()]);
        store.start_game(&game, None).await.unwrap();
        let spaced = |seq: u64, text: &str| ActionRow {
            action: serde_json::value::RawValue::from_string(text.to_string()).unwrap(),
            ..row(&game.id, seq)
        };
        let rows = [row(&game.id, 1), spaced(2, "{\n\t\"step\": 2,\r\n \"say\": \"\\t\"\n}"), row(&game.id, 3)];
        store.append_actions(&rows).await.unwrap();
        store.append_actions(&[spaced(4, "{\"step\":\t4}")]).await.unwrap();
        let stored = store.actions(&game.id).await.unwrap();
        assert_eq!(
            stored.iter().map(|r| r.action.get()).collect::<Vec<_>>(),
            [rows[0].action.get(), "{\n\t\"step\": 2,\r\n \"say\": \"\\t\"\n}", rows[2].action.get(), "{\"step\":\t4}",]
        );
        assert_eq!(stored[..3], rows, "and every other field as it was");
    })
    .await;
}

/// Every stored action belongs to a stored game, and a game with actions stays (on PostgreSQL
/// a check per statement and triggers, on SQLite a foreign key): an action of a game the store
/// does not hold is refused, alone or in a batch, which then stores nothing; and neither deleting
/// the game, nor renaming it, nor moving its actions to a game that does not exist, gets through.
#[tokio::test]
async fn an_action_needs_its_stored_game_and_a_game_with_actions_stays() {
    each_database(|store, url, backend| async move {
        let a = store.create_account("A", AccountKind::Guest, None, None).await.unwrap();
        let game = new_game(vec![a.id.clone(), a.id.clone()]);
        store.start_game(&game, None).await.unwrap();
        let stranger = GameId::random();
        let alone = store.append_actions(&[row(&stranger, 1)]).await;
        assert!(alone.is_err(), "an action of no stored game: {alone:?}");
        let batch = store.append_actions(&[row(&game.id, 1), row(&stranger, 1), row(&game.id, 2)]).await;
        assert!(batch.is_err(), "a batch holding one: {batch:?}");
        assert!(store.actions(&game.id).await.unwrap().is_empty(), "the refused batch stored nothing");
        assert!(store.actions(&stranger).await.unwrap().is_empty());
        store.append_actions(&[row(&game.id, 1), row(&game.id, 2)]).await.unwrap();

        let mut conn = <sqlx::AnyConnection as sqlx::Connection>::connect(&url).await.unwrap();
        if backend == "sqlite" {
            // As the server's own connections do (SQLite checks foreign keys per connection).
            sqlx::Executor::execute(&mut conn, "PRAGMA foreign_keys = ON").await.unwrap();
        }
        let id = game.id.as_str();
        // Its players go first: their own key to the game would refuse what follows by itself.
        sqlx::query("delete from game_players where game_id = $1").bind(id).execute(&mut conn).await.unwrap();
        let refused = [
            ("delete the game", "delete from games where id = $1"),
            ("rename the game", "update games set id = 'renamed' where id = $1"),
            ("move its actions", "update actions set game_id = 'no-such-game' where game_id = $1"),
        ];
        for (what, sql) in refused {
            let done = sqlx::query(sql).bind(id).execute(&mut conn).await;
            assert!(done.is_err(), "{what}: {done:?}");
        }
        let everything = sqlx::query("delete from games").execute(&mut conn).await;
        assert!(everything.is_err(), "delete every game: {everything:?}");
        if backend == "postgres" {
            let truncated = sqlx::query("truncate games cascade").execute(&mut conn).await;
            assert!(truncated.is_err(), "truncate the games: {truncated:?}");
        }
        let _ = sqlx::Connection::close(conn).await;
        assert_eq!(store.actions(&game.id).await.unwrap(), vec![row(&game.id, 1), row(&game.id, 2)]);
        assert!(store.game(&game.id).await.unwrap().is_some());
    })
    .await;
}

/// A database that a newer server migrated (a migration this server does not know) is refused at
/// open, on either backend, rather than used with a schema the server was not built for; the
/// versions of PostgreSQL's own migrations are known to it, so opening again is no such case.
#[tokio::test]
async fn a_database_migrated_by_a_newer_server_is_refused() {
    for db in TestDb::all().await {
        eprintln!("-- on {}", db.backend);
        let store = Store::open(&db.url).await.expect("open and migrate");
        store.close().await;
        let store = Store::open(&db.url).await.expect("opened again");
        store.close().await;
        let mut conn = <sqlx::AnyConnection as sqlx::Connection>::connect(&db.url).await.unwrap();
        sqlx::query(
            "insert into _sqlx_migrations (version, description, success, checksum, execution_time) \
             values (99999, 'from a newer server', true, $1, 0)",
        )
        .bind(vec![0u8; 48])
        .execute(&mut conn)
        .await
        .unwrap();
        let refused = Store::open(&db.url).await;
        assert!(
            matches!(refused, Err(StoreError::Migrate(sqlx::migrate::MigrateError::VersionMissing(99999)))),
            "{refused:?}"
        );
        sqlx::query("delete from _sqlx_migrations where version = 99999").execute(&mut conn).await.unwrap();
        let _ = sqlx::Connection::close(conn).await;
        Store::open(&db.url).await.expect("opens without it").close().await;
        db.cleanup().await;
    }
}

#[tokio::test]
async fn the_writer_commits_appends_of_many_games_arriving_together() {
    each_backend(|store| async move {
        let a = store.create_account("A", AccountKind::Guest, None, None).await.unwrap();
        let mut games = Vec::new();
        for _ in 0..20 {
            let game = new_game(vec![a.id.clone(), a.id.clone()]);
            store.start_game(&game, None).await.unwrap();
            games.push(game.id);
        }
        let (writer, task) = Writer::spawn(store.clone());
        let mut appends = Vec::new();
        for game in &games {
            for seq in 1..=5 {
                let writer = writer.clone();
                let row = row(game, seq);
                appends.push(tokio::spawn(async move { writer.append(row).await }));
                tokio::task::yield_now().await;
            }
        }
        // One append that must fail (another action at seq 1) does not fail the others in its batch.
        let other = ActionRow {
            action: serde_json::value::to_raw_value(&json!({"other": true})).unwrap(),
            ..row(&games[0], 1)
        };
        let bad = writer.append(other).await;
        assert!(matches!(bad, Err(AppendError::Diverged { seq: 1 })), "{bad:?}");
        for append in appends {
            append.await.unwrap().unwrap();
        }
        // The very same append again is found committed (what a retry after a lost reply sees).
        assert!(writer.append(row(&games[0], 1)).await.is_ok());
        drop(writer);
        task.await.unwrap();
        for game in &games {
            let seqs: Vec<u64> = store.actions(game).await.unwrap().iter().map(|r| r.seq).collect();
            assert_eq!(seqs, vec![1, 2, 3, 4, 5]);
        }
    })
    .await;
}

#[tokio::test]
async fn a_broken_game_is_not_restored_again() {
    each_backend(|store| async move {
        let a = store.create_account("A", AccountKind::Guest, None, None).await.unwrap();
        let game = new_game(vec![a.id.clone(), a.id]);
        store.start_game(&game, None).await.unwrap();
        store.mark_broken(&game.id).await.unwrap();
        assert!(store.running_games().await.unwrap().is_empty());
        assert_eq!(store.game(&game.id).await.unwrap().unwrap().status, GameStatus::Broken);
    })
    .await;
}
