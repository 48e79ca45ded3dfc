//! Ratings and profiles, on SQLite and PostgreSQL: rated games between registered players move
//! their Glicko-2 ratings, games with a bot or a guest or an unrated lobby do not, the leaderboard
//! and profiles show them, and `chapterhouse ratings rebuild` gives the very same numbers.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use common::play::Seen;
use common::{code, Http, TestDb, TestServer, Ws};
use game_core::GameRng;
use serde_json::{json, Value};
use sqlx::Connection;

const GAME: &str = "knights-templar";

async fn register(http: &Http, name: &str) -> (Http, String) {
    let session = http.post("/api/register", json!({"name": name, "password": "correct horse"})).await;
    let mut signed = http.clone();
    signed.token = Some(session["token"].as_str().unwrap().to_string());
    (signed, session["account"]["id"].as_str().unwrap().to_string())
}

/// A lobby hosted by `players[0]` with the others seated (and bots in `bots` seats after them),
/// started; returns the game id.
async fn start(players: &[&Http], bots: usize, rated: bool, public: bool) -> String {
    let host = players[0];
    let created = host.post("/api/lobbies", json!({"game": GAME, "rated": rated, "public": public})).await;
    assert_eq!(created["lobby"]["rated"], rated);
    let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
    let invite = created["lobby"]["invite_code"].clone();
    for (seat, p) in players.iter().enumerate().skip(1) {
        p.post(&format!("/api/lobbies/{lobby}/join"), json!({"code": invite})).await;
        p.post(&format!("/api/lobbies/{lobby}/seat"), json!({"seat": seat})).await;
    }
    for seat in players.len()..players.len() + bots {
        host.post(&format!("/api/lobbies/{lobby}/bots"), json!({"seat": seat})).await;
    }
    host.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await["game"].as_str().unwrap().to_string()
}

/// Plays `game` to its end with random legal actions of its human `players`; returns the outcome.
async fn play_out(server: &TestServer, players: &[&Http], game: &str, seed: u64) -> Value {
    let mut seen = Vec::new();
    for p in players {
        seen.push(Seen::subscribe(Ws::connect(server.addr, p.token.as_deref()).await, game, None).await);
    }
    let mut rng = GameRng::from_u64(seed);
    while seen[0].outcome.is_none() {
        let movers: Vec<usize> = (0..seen.len()).filter(|i| seen[*i].to_move()).collect();
        let Some(&mover) = rng.choose(&movers) else {
            // A bot is to move: everyone reads on to its move.
            let next = seen[0].version + 1;
            for s in seen.iter_mut() {
                s.catch_up(next).await;
            }
            continue;
        };
        let action = rng.choose(&seen[mover].legal).unwrap().clone();
        let version = seen[mover].version;
        let acked = seen[mover].act(action, version).await.expect("a legal action is accepted");
        for s in seen.iter_mut() {
            s.catch_up(acked).await;
        }
    }
    seen[0].outcome.clone().unwrap()
}

fn rating_of<'a>(board: &'a Value, account: &str) -> Option<&'a Value> {
    board["ratings"].as_array().unwrap().iter().find(|r| r["account"] == account)
}

#[tokio::test]
async fn rated_games_move_ratings_unrated_ones_do_not_and_a_rebuild_gives_the_same_numbers() {
    for db in TestDb::all().await {
        eprintln!("-- on {}", db.backend);
        let server = TestServer::start(&db).await;
        let http = server.http();
        let (ana, ana_id) = register(&http, "Ana").await;
        let (ben, ben_id) = register(&http, "Ben").await;
        let (cy, cy_id) = register(&http, "Cy").await;
        let (guest, _) = http.guest("Gus").await;

        // One rated game: its winner gains, its loser drops.
        let game = start(&[&ana, &ben], 0, true, true).await;
        let outcome = play_out(&server, &[&ana, &ben], &game, 1).await;
        let board = http.get(&format!("/api/leaderboard/{GAME}")).await;
        let (a, b) = (rating_of(&board, &ana_id).unwrap(), rating_of(&board, &ben_id).unwrap());
        assert_eq!((a["games"].as_i64(), b["games"].as_i64()), (Some(1), Some(1)));
        let ranks = outcome["ranks"].as_array().unwrap();
        let (ra, rb) = (a["rating"].as_f64().unwrap(), b["rating"].as_f64().unwrap());
        match ranks[0].as_u64().cmp(&ranks[1].as_u64()) {
            std::cmp::Ordering::Less => assert!(ra > 1500.0 && rb < 1500.0, "{board}"),
            std::cmp::Ordering::Greater => assert!(ra < 1500.0 && rb > 1500.0, "{board}"),
            std::cmp::Ordering::Equal => assert!((ra - rb).abs() < 1e-9, "{board}"),
        }
        assert!(a["deviation"].as_f64().unwrap() < 350.0);

        // Unrated: a lobby not rated, a game with a bot, a game with a guest.
        let game = start(&[&ana, &ben], 0, false, true).await;
        play_out(&server, &[&ana, &ben], &game, 2).await;
        let game = start(&[&ana], 1, true, true).await;
        play_out(&server, &[&ana], &game, 3).await;
        let game = start(&[&ben, &guest], 0, true, true).await;
        play_out(&server, &[&ben, &guest], &game, 4).await;
        let unchanged = http.get(&format!("/api/leaderboard/{GAME}")).await;
        assert_eq!(unchanged, board, "no unrated game moved a rating");

        // More rated games: two players, and three (placings become pairwise results).
        let game = start(&[&ben, &cy], 0, true, false).await;
        play_out(&server, &[&ben, &cy], &game, 5).await;
        let game = start(&[&cy, &ana, &ben], 0, true, true).await;
        play_out(&server, &[&cy, &ana, &ben], &game, 6).await;
        let board = http.get(&format!("/api/leaderboard/{GAME}")).await;
        let games: Vec<i64> = [&ana_id, &ben_id, &cy_id]
            .iter()
            .map(|id| rating_of(&board, id).unwrap()["games"].as_i64().unwrap())
            .collect();
        assert_eq!(games, [2, 3, 2]);
        let listed: Vec<f64> =
            board["ratings"].as_array().unwrap().iter().map(|r| r["rating"].as_f64().unwrap()).collect();
        assert!(listed.windows(2).all(|w| w[0] >= w[1]), "highest first: {listed:?}");
        let (status, body) = http.call("GET", "/api/leaderboard/chess", None).await;
        assert_eq!((status, code(&body)), (422, "game/unknown_game"));
        server.stop().await;

        // Spoil the stored ratings, then rebuild them from the games: the same numbers, exactly.
        let mut conn = sqlx::AnyConnection::connect(&db.url).await.unwrap();
        sqlx::query("update ratings set rating = 1, deviation = 1, games = 0").execute(&mut conn).await.unwrap();
        conn.close().await.unwrap();
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_chapterhouse"))
            .args(["ratings", "rebuild", "--database-url", &db.url])
            .env_remove("DATABASE_URL")
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        assert!(String::from_utf8_lossy(&output.stdout).contains("from 6 finished games"));
        let server = TestServer::start(&db).await;
        let rebuilt = server.http().get(&format!("/api/leaderboard/{GAME}")).await;
        assert_eq!(rebuilt, board, "the rebuild gives the same ratings as the games did when they ended");

        // Profiles show the ratings; others see only public games, the account itself all of them.
        let (mut ana, mut ben) = (ana, ben);
        ana.base = server.http().base;
        ben.base = ana.base.clone();
        let ben_seen_by_ana = ana.get(&format!("/api/accounts/{ben_id}/profile")).await;
        assert_eq!(ben_seen_by_ana["account"]["name"], "Ben");
        assert_eq!(ben_seen_by_ana["ratings"][0]["game"], GAME);
        assert_eq!(ben_seen_by_ana["ratings"][0]["rating"], rating_of(&board, &ben_id).unwrap()["rating"]);
        assert_eq!(ben_seen_by_ana["finished"].as_array().unwrap().len(), 4, "the private game is left out");
        let ben_own = ben.get(&format!("/api/accounts/{ben_id}/profile")).await;
        assert_eq!(ben_own["finished"].as_array().unwrap().len(), 5);
        server.stop().await;
        db.cleanup().await;
    }
}

#[tokio::test]
async fn a_profile_lists_results_opponents_links_and_your_turn_marks_and_a_guest_s_is_their_own() {
    for db in TestDb::all().await {
        eprintln!("-- on {}", db.backend);
        let server = TestServer::start(&db).await;
        let http = server.http();
        let (ana, ana_id) = register(&http, "Ana").await;
        let (ben, ben_id) = register(&http, "Ben").await;
        let finished = start(&[&ana, &ben], 0, false, true).await;
        let outcome = play_out(&server, &[&ana, &ben], &finished, 9).await;
        let running = start(&[&ana, &ben], 0, false, true).await;

        let page = ana.get(&format!("/api/accounts/{ana_id}/profile")).await;
        let done = &page["finished"][0];
        assert_eq!(done["id"], finished.as_str());
        assert_eq!(done["opponents"], json!(["Ben"]));
        assert_eq!(done["result"]["rank"], outcome["ranks"][0]);
        assert_eq!(done["result"]["score"], outcome["scores"][0]);
        assert_eq!(done["log"], format!("/api/games/{finished}/log"));
        assert_eq!(done["replay"], format!("#/replay/{finished}"));
        assert!(done["finished_at"].as_i64().unwrap() >= done["created_at"].as_i64().unwrap());
        let live = &page["running"][0];
        assert_eq!(live["id"], running.as_str());
        // Exactly one of the two is to move first in this game.
        let ben_page = ben.get(&format!("/api/accounts/{ben_id}/profile")).await;
        let marks = [live["your_turn"].as_bool().unwrap(), ben_page["running"][0]["your_turn"].as_bool().unwrap()];
        assert!(marks.iter().any(|m| *m), "someone's turn is marked: {marks:?}");
        // Someone else's page carries no "your turn" marks.
        let other = ben.get(&format!("/api/accounts/{ana_id}/profile")).await;
        assert_eq!(other["running"][0]["your_turn"], false);

        let (guest, guest_id) = http.guest("Gus").await;
        let own = guest.get(&format!("/api/accounts/{guest_id}/profile")).await;
        assert_eq!(own["account"]["kind"], "guest");
        let (status, body) = ana.call("GET", &format!("/api/accounts/{guest_id}/profile"), None).await;
        assert_eq!((status, code(&body)), (404, "account/not_found"));
        let (status, body) = http.call("GET", "/api/accounts/nobody/profile", None).await;
        assert_eq!((status, code(&body)), (404, "account/not_found"));
        server.stop().await;
        db.cleanup().await;
    }
}
