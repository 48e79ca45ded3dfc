//! "Play again" on SQLite and PostgreSQL: a finished game's rematch lobby has the same game,
//! options and seats, bots come along, each former player accepts or declines, and once all have
//! answered the accepted ones are seated where they sat.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use common::play::Seen;
use common::{code, Http, TestDb, TestServer, Ws};
use game_core::GameRng;
use serde_json::{json, Value};

const GAME: &str = "knights-templar";

/// Ana hosts (options changed from the defaults), Ben sits in seat 1, a bot in seat 2; the game is
/// played to its end. Returns the game id and the options.
async fn finished_game(server: &TestServer, ana: &Http, ben: &Http) -> (String, Value) {
    let created = ana.post("/api/lobbies", json!({"game": GAME, "public": false, "turn_seconds": 600})).await;
    let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
    let options = created["lobby"]["options"].clone();
    let invite = created["lobby"]["invite_code"].clone();
    ben.post(&format!("/api/lobbies/{lobby}/join"), json!({"code": invite})).await;
    ben.post(&format!("/api/lobbies/{lobby}/seat"), json!({"seat": 1})).await;
    ana.post(&format!("/api/lobbies/{lobby}/bots"), json!({"seat": 2})).await;
    let game = ana.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await["game"].as_str().unwrap().to_string();
    let (status, body) = ana.call("POST", &format!("/api/games/{game}/rematch"), None).await;
    assert_eq!((status, code(&body)), (409, "game/running"));

    let mut seen = [
        Seen::subscribe(Ws::connect(server.addr, ana.token.as_deref()).await, &game, None).await,
        Seen::subscribe(Ws::connect(server.addr, ben.token.as_deref()).await, &game, None).await,
    ];
    let mut rng = GameRng::from_u64(3);
    while seen[0].outcome.is_none() {
        let movers: Vec<usize> = (0..2).filter(|i| seen[*i].to_move()).collect();
        let Some(&mover) = rng.choose(&movers) else {
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
    (game, options)
}

#[tokio::test]
async fn play_again_offers_the_same_game_options_and_seats_and_seats_those_who_accept_once_all_answered() {
    for db in TestDb::all().await {
        eprintln!("-- on {}", db.backend);
        let server = TestServer::start(&db).await;
        let http = server.http();
        let (ana, ana_id) = http.guest("Ana").await;
        let (ben, ben_id) = http.guest("Ben").await;
        let (game, options) = finished_game(&server, &ana, &ben).await;

        // Ben is at the result screen, watching the game.
        let mut ben_ws = Ws::connect(server.addr, ben.token.as_deref()).await;
        ben_ws.send(json!({"type": "subscribe", "game": game, "req": 1})).await;
        ben_ws.recv_until(|m| m["type"] == "snapshot").await;
        // The socket handles frames in order: once the ping is answered, the subscription is whole.
        ben_ws.send(json!({"type": "ping", "req": 2})).await;
        ben_ws.recv_until(|m| m["type"] == "pong").await;

        let (stranger, _) = http.guest("Stranger").await;
        let (status, body) = stranger.call("POST", &format!("/api/games/{game}/rematch"), None).await;
        assert_eq!((status, code(&body)), (403, "game/not_a_player"));

        let offered = ana.post(&format!("/api/games/{game}/rematch"), json!({})).await["lobby"].clone();
        let lobby = offered["id"].as_str().unwrap().to_string();
        let notice = ben_ws.recv_until(|m| m["type"] == "rematch").await;
        assert_eq!(notice["lobby"], lobby.as_str());
        assert_eq!(notice["by"]["account"], ana_id.as_str());

        assert_eq!((offered["game"].as_str(), offered["public"].as_bool()), (Some(GAME), Some(false)));
        assert_eq!(offered["options"], options);
        assert_eq!(offered["turn_seconds"], 600);
        assert!(offered["seats"][0].is_null() && offered["seats"][1].is_null(), "nobody is seated before all answered");
        assert_eq!(offered["seats"][2]["bot"], true, "the bot comes along");
        let invited = &offered["rematch"]["invited"];
        assert_eq!(invited[0], json!({"account": ana_id, "name": "Ana", "seat": 0, "accepted": true}));
        assert_eq!(invited[1], json!({"account": ben_id, "name": "Ben", "seat": 1, "accepted": null}));

        // Ben sees the private lobby without its code, being invited; a stranger may not answer.
        let seen_by_ben = ben.get(&format!("/api/lobbies/{lobby}")).await;
        assert_eq!(seen_by_ben["lobby"]["rematch"]["of"], game.as_str());
        let (status, body) =
            stranger.call("POST", &format!("/api/lobbies/{lobby}/rematch"), Some(json!({"accept": true}))).await;
        assert_eq!((status, code(&body)), (403, "rematch/not_invited"));

        // Asking again is the same lobby; Ben's own "Play again" is his acceptance.
        let again = ana.post(&format!("/api/games/{game}/rematch"), json!({})).await;
        assert_eq!(again["lobby"]["id"], lobby.as_str());
        let accepted = ben.post(&format!("/api/games/{game}/rematch"), json!({})).await["lobby"].clone();
        assert_eq!(accepted["id"], lobby.as_str());
        assert_eq!(accepted["seats"][0]["account"], ana_id.as_str());
        assert_eq!(accepted["seats"][1]["account"], ben_id.as_str());
        assert_eq!(accepted["members"].as_array().unwrap().len(), 2);

        // The rematch starts like any lobby.
        let started = ana.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await;
        assert!(started["game"].as_str().is_some_and(|g| g != game));
        server.stop().await;
        db.cleanup().await;
    }
}

#[tokio::test]
async fn a_player_who_declines_is_not_seated_and_the_others_are_once_everyone_answered() {
    for db in TestDb::all().await {
        eprintln!("-- on {}", db.backend);
        let server = TestServer::start(&db).await;
        let http = server.http();
        let (ana, ana_id) = http.guest("Ana").await;
        let (ben, ben_id) = http.guest("Ben").await;
        let (game, _) = finished_game(&server, &ana, &ben).await;
        let lobby = ana.post(&format!("/api/games/{game}/rematch"), json!({})).await["lobby"]["id"]
            .as_str()
            .unwrap()
            .to_string();
        let declined =
            ben.post(&format!("/api/lobbies/{lobby}/rematch"), json!({"accept": false})).await["lobby"].clone();
        assert_eq!(declined["rematch"]["invited"][1]["accepted"], false);
        let now = ana.get(&format!("/api/lobbies/{lobby}")).await["lobby"].clone();
        assert_eq!(now["seats"][0]["account"], ana_id.as_str(), "all answered: the accepted are seated");
        assert!(now["seats"][1].is_null());
        assert!(!now["members"].as_array().unwrap().iter().any(|m| m["account"] == ben_id.as_str()));
        // Answers are closed once everyone has answered.
        let (status, body) =
            ben.call("POST", &format!("/api/lobbies/{lobby}/rematch"), Some(json!({"accept": true}))).await;
        assert_eq!((status, code(&body)), (409, "lobby/started"));
        server.stop().await;
        db.cleanup().await;
    }
}
