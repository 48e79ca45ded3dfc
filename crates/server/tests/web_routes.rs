//! The routes the web client reads besides the game socket: each game's rules texts, and the
//! position after any step of a game that is still running ("Log so far"), and the interface
//! catalogs' words for every scoring category and tie-break the engines give.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use common::play::Seen;
use common::{code, TestDb, TestServer, Ws};
use serde_json::json;

#[tokio::test]
async fn every_game_of_the_catalog_serves_its_rules_texts_and_an_unknown_game_is_refused() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let http = server.http();
    let catalog = http.get("/api/catalog").await;
    let games = catalog["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);
    for game in games {
        let id = game["id"].as_str().unwrap();
        let (status, texts) = http.call("GET", &format!("/api/catalog/{id}/texts"), None).await;
        assert_eq!(status, 200, "{id}: {texts}");
        assert_eq!(texts["game"], id, "{id}: the catalog of that game");
        assert!(texts["terms"].as_object().is_some_and(|t| !t.is_empty()), "{id}: terms");
        assert!(texts["steps"].as_object().is_some_and(|t| !t.is_empty()), "{id}: steps");
        assert!(texts["summary"].as_array().is_some_and(|s| s.len() >= 6), "{id}: a summary of 6 sections or more");
    }
    let (status, body) = http.call("GET", "/api/catalog/chess/texts", None).await;
    assert_eq!((status, code(&body)), (422, "game/unknown_game"));
    server.stop().await;
}

#[tokio::test]
async fn the_rules_texts_come_in_german_on_request_and_an_unknown_language_is_refused_by_name() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let http = server.http();
    for id in ["templars-journey", "secret-treasures", "knights-templar", "richard-the-lionheart"] {
        let en = http.get(&format!("/api/catalog/{id}/texts")).await;
        assert_eq!(en["lang"], "en", "{id}: English without ?lang");
        assert_eq!(http.get(&format!("/api/catalog/{id}/texts?lang=en")).await, en, "{id}: ?lang=en is the default");
        let de = http.get(&format!("/api/catalog/{id}/texts?lang=de")).await;
        assert_eq!((&de["game"], &de["lang"]), (&json!(id), &json!("de")), "{id}");
        let keys = |v: &serde_json::Value| v["terms"].as_object().unwrap().keys().cloned().collect::<Vec<_>>();
        assert_eq!(keys(&de), keys(&en), "{id}: the same terms in both languages");
        assert_ne!(de["summary"], en["summary"], "{id}: the German summary is German");
    }
    // The Templars' Journey terms follow its German rulebook.
    let de = http.get("/api/catalog/templars-journey/texts?lang=de").await;
    assert!(de["summary"][0]["heading"].as_str().unwrap().contains("Spielziel"), "{}", de["summary"][0]);
    for bad in ["fr", "DE", "", "de-DE"] {
        let (status, body) = http.call("GET", &format!("/api/catalog/knights-templar/texts?lang={bad}"), None).await;
        assert_eq!((status, code(&body)), (422, "catalog/unknown_language"), "lang={bad:?}: {body}");
        assert_eq!(
            body["error"]["details"]["supported"],
            json!(["en", "de"]),
            "the error names the languages there are"
        );
    }
    let (status, body) = http.call("GET", "/api/catalog/chess/texts?lang=de", None).await;
    assert_eq!((status, code(&body)), (422, "game/unknown_game"));
    server.stop().await;
}

#[tokio::test]
async fn a_running_game_replays_every_step_as_the_requester_saw_it_and_no_more() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let http = server.http();
    let (ana, _) = http.guest("Ana").await;
    let (ben, _) = http.guest("Ben").await;
    let created = ana.post("/api/lobbies", json!({"game": "knights-templar", "public": true})).await;
    let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
    ben.post(&format!("/api/lobbies/{lobby}/join"), json!({})).await;
    ben.post(&format!("/api/lobbies/{lobby}/seat"), json!({"seat": 1})).await;
    let game = ana.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await["game"].as_str().unwrap().to_string();
    let token = |h: &common::Http| h.token.clone().unwrap();
    let mut seats = [
        Seen::subscribe(Ws::connect(server.addr, Some(&token(&ana))).await, &game, None).await,
        Seen::subscribe(Ws::connect(server.addr, Some(&token(&ben))).await, &game, None).await,
    ];
    let mut watcher = Seen::subscribe(Ws::connect(server.addr, None).await, &game, None).await;
    // Ten moves, each by whoever is to move.
    for _ in 0..10 {
        let now = seats.iter().map(|s| s.version).max().unwrap();
        for s in &mut seats {
            s.catch_up(now).await;
        }
        let i = seats.iter().position(|s| s.to_move()).unwrap();
        let version = seats[i].version;
        let action = seats[i].legal[0].clone();
        seats[i].act(action, version).await.unwrap();
    }
    let version = seats.iter().map(|s| s.version).max().unwrap();
    for s in &mut seats {
        s.catch_up(version).await;
    }
    watcher.catch_up(version).await;
    for at in 0..=version {
        for (who, seen) in [(&ana, &seats[0]), (&ben, &seats[1]), (&http, &watcher)] {
            let (status, step) = who.call("GET", &format!("/api/games/{game}/replay?at={at}"), None).await;
            assert_eq!(status, 200, "step {at}: {step}");
            assert_eq!(step["version"], at);
            assert_eq!(step["outcome"], serde_json::Value::Null, "still running");
            if let Some(Some(live)) = seen.views.get(at as usize) {
                assert_eq!(&step["view"], live, "step {at} is the view this requester was sent live");
            }
        }
    }
    let (status, body) = ana.call("GET", &format!("/api/games/{game}/replay?at={}", version + 1), None).await;
    assert_eq!((status, code(&body)), (422, "game/no_such_step"));
    server.stop().await;
}

#[tokio::test]
async fn the_turn_clock_is_sent_to_the_table_and_a_timed_out_move_is_marked_as_the_clocks() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let http = server.http();
    let (ana, _) = http.guest("Ana").await;
    let (ben, _) = http.guest("Ben").await;
    let created =
        ana.post("/api/lobbies", json!({"game": "knights-templar", "public": true, "turn_seconds": 10})).await;
    let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
    ben.post(&format!("/api/lobbies/{lobby}/join"), json!({})).await;
    ben.post(&format!("/api/lobbies/{lobby}/seat"), json!({"seat": 1})).await;
    let game = ana.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await["game"].as_str().unwrap().to_string();
    let mut ws = Ws::connect(server.addr, None).await;
    ws.send(json!({"type": "subscribe", "game": game})).await;
    let snapshot = ws.recv_until(|m| m["type"] == "snapshot" || m["type"] == "error").await;
    assert_eq!(snapshot["type"], "snapshot", "{snapshot}");
    let waiting = snapshot["to_act"].clone();
    assert_eq!(snapshot["clock"]["seats"], waiting, "the clock runs for the people the game waits for");
    let left = snapshot["clock"]["remaining_ms"].as_u64().unwrap();
    assert!(left <= 1000, "at most the turn's ten 100-ms test seconds are left: {left}");
    // Nobody moves: the clock plays for the waiting seat, and says so.
    let patch = ws.recv_until(|m| m["type"] == "patch" || m["type"] == "error").await;
    assert_eq!(patch["type"], "patch", "{patch}");
    assert_eq!(patch["by_clock"], true, "the move is marked as the clock's: {patch}");
    assert!(patch["clock"]["remaining_ms"].as_u64().is_some(), "the next turn's clock comes with it");
    let log = http.get(&format!("/api/games/{game}/log")).await;
    assert_eq!(log["actions"][0]["by_clock"], true, "the log marks it: {log}");
    let step = http.get(&format!("/api/games/{game}/replay?at=1")).await;
    assert_eq!(step["by_clock"], true, "the replay marks it");
    server.stop().await;
}

#[tokio::test]
async fn the_games_list_marks_the_running_games_that_wait_for_me() {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db).await;
    let http = server.http();
    let (ana, _) = http.guest("Ana").await;
    let (ben, _) = http.guest("Ben").await;
    let created = ana.post("/api/lobbies", json!({"game": "knights-templar", "public": true})).await;
    let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
    ben.post(&format!("/api/lobbies/{lobby}/join"), json!({})).await;
    ben.post(&format!("/api/lobbies/{lobby}/seat"), json!({"seat": 1})).await;
    let game = ana.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await["game"].as_str().unwrap().to_string();
    let mut ws = Ws::connect(server.addr, None).await;
    ws.send(json!({"type": "subscribe", "game": game})).await;
    let snapshot = ws.recv_until(|m| m["type"] == "snapshot" || m["type"] == "error").await;
    let waiting: Vec<u64> = snapshot["to_act"].as_array().unwrap().iter().filter_map(|s| s.as_u64()).collect();
    assert_eq!(waiting.len(), 1, "Knights Templar waits for one seat: {snapshot}");
    let marked = |list: &serde_json::Value| -> bool {
        let entry = list["games"].as_array().unwrap().iter().find(|g| g["id"] == game.as_str()).cloned().unwrap();
        assert_eq!(entry["status"], "running");
        entry["your_turn"] == true
    };
    let (ana_list, ben_list) = (ana.get("/api/me/games").await, ben.get("/api/me/games").await);
    assert_eq!(marked(&ana_list), waiting == [0], "Ana's mark follows the game: {ana_list}");
    assert_eq!(marked(&ben_list), waiting == [1], "Ben's mark follows the game: {ben_list}");
    server.stop().await;
}

/// The result screen names each scoring category and tie-break in the reader's language by
/// looking up `result.category.<label>` and `result.tie.<rule>` in the interface catalogs, and
/// shows the engine's English when a key is missing. Every label and rule an engine gives in
/// random games at every player count has its key in both languages.
#[test]
fn every_scoring_category_and_tie_break_an_engine_gives_is_in_both_interface_catalogs() {
    use game_core::bot::RandomBot;
    use game_core::{GameRng, SeatNames, Seed};
    let lang = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/js/lang");
    let catalogs: Vec<(&str, String)> = ["en", "de"]
        .into_iter()
        .map(|l| (l, std::fs::read_to_string(format!("{lang}/{l}/ui.js")).expect("the interface catalog")))
        .collect();
    let catalog = chapterhouse::catalog::Catalog::standard();
    let mut keys = std::collections::BTreeSet::new();
    for info in catalog.infos() {
        let descriptor = catalog.get(&info.id).unwrap();
        let options = descriptor.normalize_options(&json!({})).unwrap();
        for players in info.min_players..=info.max_players {
            let names = SeatNames::generic(players);
            for n in 0..3u64 {
                let mut game = descriptor.create(players, &options, Seed::from_u64(n)).unwrap();
                let mut bot = RandomBot::new(GameRng::from_u64(n ^ 0x5eed));
                let mut steps = 0;
                while game.outcome().is_none() {
                    bot.step_dyn(game.as_mut(), &names).unwrap().expect("someone acts, with a legal action");
                    steps += 1;
                    assert!(steps < 20_000, "{} with {players} did not end", info.id);
                }
                let outcome = game.outcome().unwrap();
                keys.extend(outcome.breakdown.iter().map(|line| format!("result.category.{}", line.label)));
                keys.extend(outcome.tie_break.iter().map(|rule| format!("result.tie.{rule}")));
            }
        }
    }
    assert!(keys.iter().any(|k| k.starts_with("result.tie.")), "the games met a tie-break rule: {keys:?}");
    let mut missing = Vec::new();
    for (language, text) in &catalogs {
        for key in &keys {
            if !text.contains(&format!("{}:", serde_json::to_string(key).unwrap())) {
                missing.push(format!("{language}/ui.js lacks {key:?}"));
            }
        }
    }
    assert_eq!(missing, Vec::<String>::new());
}
