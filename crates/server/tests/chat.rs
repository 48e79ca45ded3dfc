//! Table chat over real sockets, on SQLite and PostgreSQL: delivery and history, the text rules,
//! private lobbies, kicked members, spectators, the host's mute, the rate limit, and the game log
//! that chat never touches.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use common::{config, generous_limits, Http, TestDb, TestServer, Ws};
use serde_json::{json, Value};
use std::time::Duration;

const GAME: &str = "knights-templar";

/// A lobby by a new guest "Ana"; returns her client, her id, the lobby id and its invite code.
async fn lobby(http: &Http, public: bool) -> (Http, String, String, String) {
    let (ana, ana_id) = http.guest("Ana").await;
    let created = ana.post("/api/lobbies", json!({"game": GAME, "public": public})).await;
    let id = created["lobby"]["id"].as_str().unwrap().to_string();
    let code = created["lobby"]["invite_code"].as_str().unwrap_or_default().to_string();
    (ana, ana_id, id, code)
}

/// The `chat_history` that answered the last follow or subscribe (an empty one when the server sent
/// none: it sends none for a chat with nothing in it). The socket handles frames in order, so the
/// history, if any, comes before the answer to a ping sent after the request.
async fn history(ws: &mut Ws) -> Value {
    ws.send(json!({"type": "ping", "req": 1000})).await;
    let mut history = json!({"messages": [], "muted": []});
    loop {
        let msg = ws.recv().await;
        assert_ne!(msg["type"], "error", "{msg}");
        if msg["type"] == "pong" {
            return history;
        }
        if msg["type"] == "chat_history" {
            history = msg;
        }
    }
}

/// A socket following `lobby` (with `code`), its `chat_history` read and returned.
async fn follow(server: &TestServer, who: &Http, lobby: &str, code: Option<&str>) -> (Ws, Value) {
    let mut ws = Ws::connect(server.addr, who.token.as_deref()).await;
    ws.send(json!({"type": "subscribe_lobby", "lobby": lobby, "code": code, "req": 1})).await;
    let first = ws.recv().await;
    assert_eq!(first["type"], "lobby", "{first}");
    let history = history(&mut ws).await;
    (ws, history)
}

async fn say(ws: &mut Ws, room: (&str, &str), text: &str, req: u64) {
    ws.send(json!({"type": "chat", room.0: room.1, "text": text, "req": req})).await;
}

/// The next chat message (skipping lobby and game updates), or the error with `req`.
async fn next_chat(ws: &mut Ws) -> Value {
    ws.recv_until(|m| m["type"] == "chat" || m["type"] == "error").await
}

/// Nothing of chat arrives before a pong: what was sent before the ping was not delivered.
async fn no_chat_before_pong(ws: &mut Ws) {
    ws.send(json!({"type": "ping", "req": 999})).await;
    let mut seen = Vec::new();
    loop {
        let Some(msg) = ws.try_recv(Duration::from_secs(10)).await else { break };
        if msg["type"] == "pong" {
            break;
        }
        seen.push(msg);
    }
    assert!(seen.iter().all(|m| m["type"] != "chat"), "no chat expected: {seen:?}");
}

#[tokio::test]
async fn lobby_chat_reaches_every_follower_marks_spectators_and_comes_back_as_history_after_a_restart() {
    for db in TestDb::all().await {
        eprintln!("-- on {}", db.backend);
        let server = TestServer::start(&db).await;
        let http = server.http();
        let (ana, ana_id, lobby_id, _) = lobby(&http, true).await;
        let (ben, ben_id) = http.guest("Ben").await;
        ben.post(&format!("/api/lobbies/{lobby_id}/join"), json!({})).await;
        let (watcher, watcher_id) = http.guest("Watcher").await;

        let (mut ana_ws, history) = follow(&server, &ana, &lobby_id, None).await;
        assert_eq!(history["messages"], json!([]), "nothing said yet");
        let (mut ben_ws, _) = follow(&server, &ben, &lobby_id, None).await;
        let (mut watcher_ws, _) = follow(&server, &watcher, &lobby_id, None).await;

        say(&mut ana_ws, ("lobby", &lobby_id), "  Hello, table!  ", 2).await;
        for ws in [&mut ana_ws, &mut ben_ws, &mut watcher_ws] {
            let msg = next_chat(ws).await;
            assert_eq!(msg["type"], "chat", "{msg}");
            assert_eq!(msg["lobby"], lobby_id.as_str());
            assert_eq!(msg["text"], "Hello, table!", "trimmed");
            assert_eq!(msg["from"], json!({"account": ana_id, "name": "Ana", "seat": 0}));
            assert_eq!(msg["spectator"], false);
            assert!(msg["id"].as_i64().is_some() && msg["at"].as_i64().is_some(), "{msg}");
        }
        say(&mut ben_ws, ("lobby", &lobby_id), "hi", 3).await;
        let msg = next_chat(&mut ana_ws).await;
        assert_eq!(
            (msg["from"]["account"].as_str(), msg["from"]["seat"].clone()),
            (Some(ben_id.as_str()), Value::Null)
        );
        assert_eq!(msg["spectator"], false, "a member without a seat is no spectator");
        say(&mut watcher_ws, ("lobby", &lobby_id), "just looking", 4).await;
        let msg = next_chat(&mut ana_ws).await;
        assert_eq!(msg["from"]["account"], watcher_id.as_str());
        assert_eq!(msg["spectator"], true, "a follower who did not join writes as a spectator");

        // 60 more: the history keeps the last 50, oldest first.
        for i in 0..60 {
            say(&mut ben_ws, ("lobby", &lobby_id), &format!("line {i}"), 10 + i).await;
        }
        let last = ana_ws.recv_until(|m| m["type"] == "chat" && m["text"] == "line 59").await;
        server.stop().await;

        let server = TestServer::start(&db).await;
        let (_late_ws, history) = follow(&server, &ana, &lobby_id, None).await;
        assert_eq!(history["lobby"], lobby_id.as_str());
        let messages = history["messages"].as_array().unwrap();
        assert_eq!(messages.len(), 50);
        assert_eq!(messages[0]["text"], "line 10");
        assert_eq!(messages[49], last, "the history holds the messages as they were delivered");
        let ids: Vec<i64> = messages.iter().map(|m| m["id"].as_i64().unwrap()).collect();
        assert!(ids.windows(2).all(|w| w[0] < w[1]), "in order");
        server.stop().await;
        db.cleanup().await;
    }
}

#[tokio::test]
async fn empty_long_multi_line_anonymous_and_unfollowed_messages_are_refused_with_their_codes() {
    for db in TestDb::all().await {
        eprintln!("-- on {}", db.backend);
        let server = TestServer::start(&db).await;
        let http = server.http();
        let (ana, _, lobby_id, _) = lobby(&http, true).await;
        let (mut ws, _) = follow(&server, &ana, &lobby_id, None).await;
        let room = ("lobby", lobby_id.as_str());
        let cases = [
            ("   ", "chat/empty"),
            ("line one\nline two", "chat/control_character"),
            ("tab\tinside", "chat/control_character"),
        ];
        for (i, (text, expected)) in cases.iter().enumerate() {
            say(&mut ws, room, text, i as u64).await;
            let answer = next_chat(&mut ws).await;
            assert_eq!(
                (answer["code"].as_str(), answer["req"].as_u64()),
                (Some(*expected), Some(i as u64)),
                "{answer}"
            );
        }
        say(&mut ws, room, &"é".repeat(501), 7).await;
        let answer = next_chat(&mut ws).await;
        assert_eq!(answer["code"], "chat/too_long");
        assert_eq!(answer["details"], json!({"limit": 500, "chars": 501}));
        // Exactly 500 characters (after trimming) pass.
        say(&mut ws, room, &format!("  {}  ", "é".repeat(500)), 8).await;
        assert_eq!(next_chat(&mut ws).await["type"], "chat");

        ws.send(json!({"type": "chat", "text": "where?", "req": 9})).await;
        assert_eq!(next_chat(&mut ws).await["code"], "chat/no_room");
        ws.send(json!({"type": "chat", "lobby": lobby_id, "game": "g", "text": "both", "req": 10})).await;
        assert_eq!(next_chat(&mut ws).await["code"], "chat/no_room");

        // A lobby one does not follow, and an anonymous follower.
        let (_, _, other, _) = lobby(&http, true).await;
        say(&mut ws, ("lobby", &other), "hello?", 11).await;
        assert_eq!(next_chat(&mut ws).await["code"], "chat/not_following");
        let mut anonymous = Ws::connect(server.addr, None).await;
        anonymous.send(json!({"type": "subscribe_lobby", "lobby": lobby_id})).await;
        anonymous.recv_until(|m| m["type"] == "lobby").await;
        let history = history(&mut anonymous).await;
        assert_eq!(history["messages"].as_array().unwrap().len(), 1, "anyone may read a public lobby's chat");
        say(&mut anonymous, room, "boo", 12).await;
        assert_eq!(next_chat(&mut anonymous).await["code"], "auth/missing_token");

        // Nothing refused was stored: a new follower's history holds the one good message.
        let (_, history) = follow(&server, &ana, &lobby_id, None).await;
        assert_eq!(history["messages"].as_array().unwrap().len(), 1);
        server.stop().await;
        db.cleanup().await;
    }
}

#[tokio::test]
async fn a_private_lobby_s_chat_is_read_and_written_only_with_its_code() {
    for db in TestDb::all().await {
        eprintln!("-- on {}", db.backend);
        let server = TestServer::start(&db).await;
        let http = server.http();
        let (ana, _, lobby_id, invite) = lobby(&http, false).await;
        let (mut ana_ws, _) = follow(&server, &ana, &lobby_id, None).await;
        say(&mut ana_ws, ("lobby", &lobby_id), "friends only", 1).await;
        assert_eq!(next_chat(&mut ana_ws).await["text"], "friends only");

        // Without the code: no lobby, no history, no writing.
        let (stranger, _) = http.guest("Stranger").await;
        let mut stranger_ws = Ws::connect(server.addr, stranger.token.as_deref()).await;
        stranger_ws.send(json!({"type": "subscribe_lobby", "lobby": lobby_id, "code": "wrong", "req": 2})).await;
        let refused = stranger_ws.recv().await;
        assert_eq!(refused["code"], "lobby/invite_required");
        say(&mut stranger_ws, ("lobby", &lobby_id), "let me in", 3).await;
        assert_eq!(next_chat(&mut stranger_ws).await["code"], "chat/not_following");
        say(&mut ana_ws, ("lobby", &lobby_id), "still private", 4).await;
        assert_eq!(next_chat(&mut ana_ws).await["text"], "still private");
        no_chat_before_pong(&mut stranger_ws).await;

        // With the code: the history, and a spectator's voice.
        let (mut guest_ws, history) = follow(&server, &stranger, &lobby_id, Some(&invite)).await;
        let texts: Vec<&str> =
            history["messages"].as_array().unwrap().iter().map(|m| m["text"].as_str().unwrap()).collect();
        assert_eq!(texts, ["friends only", "still private"]);
        say(&mut guest_ws, ("lobby", &lobby_id), "hello from outside", 5).await;
        let heard = next_chat(&mut ana_ws).await;
        assert_eq!((heard["text"].as_str(), heard["spectator"].as_bool()), (Some("hello from outside"), Some(true)));
        server.stop().await;
        db.cleanup().await;
    }
}

#[tokio::test]
async fn a_kicked_member_can_no_longer_read_or_write_the_lobby_s_or_the_game_s_chat() {
    for db in TestDb::all().await {
        eprintln!("-- on {}", db.backend);
        let server = TestServer::start(&db).await;
        let http = server.http();
        let (ana, _, lobby_id, invite) = lobby(&http, false).await;
        let (ben, ben_id) = http.guest("Ben").await;
        ben.post(&format!("/api/lobbies/{lobby_id}/join"), json!({"code": invite})).await;
        ana.post(&format!("/api/lobbies/{lobby_id}/bots"), json!({"seat": 1})).await;
        let game =
            ana.post(&format!("/api/lobbies/{lobby_id}/start"), json!({})).await["game"].as_str().unwrap().to_string();

        let (mut ana_ws, _) = follow(&server, &ana, &lobby_id, None).await;
        let (mut ben_ws, _) = follow(&server, &ben, &lobby_id, None).await;
        ben_ws.send(json!({"type": "subscribe", "game": game, "req": 2})).await;
        let history = history(&mut ben_ws).await;
        assert_eq!(history["messages"], json!([]));
        say(&mut ben_ws, ("game", &game), "watching you", 3).await;
        let heard = ben_ws.recv_until(|m| m["type"] == "chat" || m["type"] == "error").await;
        assert_eq!((heard["game"].as_str(), heard["spectator"].as_bool()), (Some(game.as_str()), Some(true)));

        ana.post(&format!("/api/lobbies/{lobby_id}/kick"), json!({"account": ben_id})).await;
        let notice = ben_ws.recv_until(|m| m["type"] == "error").await;
        assert_eq!(notice["code"], "lobby/kicked");

        say(&mut ana_ws, ("lobby", &lobby_id), "he is gone", 4).await;
        assert_eq!(next_chat(&mut ana_ws).await["text"], "he is gone");
        no_chat_before_pong(&mut ben_ws).await;
        for (room, id) in [("lobby", &lobby_id), ("game", &game)] {
            say(&mut ben_ws, (room, id), "let me back", 5).await;
            assert_eq!(next_chat(&mut ben_ws).await["code"], "chat/not_following", "{room}");
        }
        // Following again is refused, so no history either.
        ben_ws.send(json!({"type": "subscribe_lobby", "lobby": lobby_id, "code": invite, "req": 6})).await;
        assert_eq!(ben_ws.recv().await["code"], "lobby/kicked");
        ben_ws.send(json!({"type": "subscribe", "game": game, "code": invite, "req": 7})).await;
        assert_eq!(ben_ws.recv().await["code"], "lobby/kicked");
        server.stop().await;
        db.cleanup().await;
    }
}

#[tokio::test]
async fn game_chat_names_seats_marks_spectators_and_leaves_the_game_log_unchanged() {
    for db in TestDb::all().await {
        eprintln!("-- on {}", db.backend);
        let server = TestServer::start(&db).await;
        let http = server.http();
        let (ana, ana_id, lobby_id, invite) = lobby(&http, false).await;
        ana.post(&format!("/api/lobbies/{lobby_id}/bots"), json!({"seat": 1})).await;
        let game =
            ana.post(&format!("/api/lobbies/{lobby_id}/start"), json!({})).await["game"].as_str().unwrap().to_string();
        // The bot moves at once when it is the first to act; once the game waits for Ana (who
        // never acts here), the log stays as it is unless chat were to touch it.
        let mut watch = Ws::connect(server.addr, ana.token.as_deref()).await;
        watch.send(json!({"type": "subscribe", "game": game})).await;
        watch
            .recv_until(|m| matches!(m["type"].as_str(), Some("snapshot" | "patch")) && m["to_act"] == json!([0]))
            .await;
        let log_before = ana.get(&format!("/api/games/{game}/log")).await;

        let mut ana_ws = Ws::connect(server.addr, ana.token.as_deref()).await;
        ana_ws.send(json!({"type": "subscribe", "game": game})).await;
        history(&mut ana_ws).await;
        // A spectator without the code neither reads nor writes.
        let mut anonymous = Ws::connect(server.addr, None).await;
        anonymous.send(json!({"type": "subscribe", "game": game, "req": 1})).await;
        assert_eq!(anonymous.recv().await["code"], "lobby/invite_required");
        let (stranger, _) = http.guest("Stranger").await;
        let mut stranger_ws = Ws::connect(server.addr, stranger.token.as_deref()).await;
        say(&mut stranger_ws, ("game", &game), "hi", 2).await;
        assert_eq!(next_chat(&mut stranger_ws).await["code"], "chat/not_following");
        // With the code they do, as a spectator.
        stranger_ws.send(json!({"type": "subscribe", "game": game, "code": invite, "req": 3})).await;
        history(&mut stranger_ws).await;

        say(&mut ana_ws, ("game", &game), "good luck", 4).await;
        for ws in [&mut ana_ws, &mut stranger_ws] {
            let msg = next_chat(ws).await;
            assert_eq!(msg["from"], json!({"account": ana_id, "name": "Ana", "seat": 0}));
            assert_eq!((msg["game"].as_str(), msg["spectator"].as_bool()), (Some(game.as_str()), Some(false)));
        }
        say(&mut stranger_ws, ("game", &game), "go Ana", 5).await;
        let msg = next_chat(&mut ana_ws).await;
        assert_eq!((msg["from"]["seat"].clone(), msg["spectator"].as_bool()), (Value::Null, Some(true)));

        // The lobby's chat is another room.
        let (_, lobby_history) = follow(&server, &ana, &lobby_id, None).await;
        assert_eq!(lobby_history["messages"], json!([]));
        // The game's log is the same as before: chat is no action.
        let log_after = ana.get(&format!("/api/games/{game}/log")).await;
        assert_eq!(log_after, log_before);
        assert!(!log_after.to_string().contains("good luck"));
        server.stop().await;
        db.cleanup().await;
    }
}

#[tokio::test]
async fn the_host_mutes_and_unmutes_a_member_in_the_lobby_and_its_game() {
    for db in TestDb::all().await {
        eprintln!("-- on {}", db.backend);
        let server = TestServer::start(&db).await;
        let http = server.http();
        let (ana, ana_id, lobby_id, invite) = lobby(&http, false).await;
        let (ben, ben_id) = http.guest("Ben").await;
        ben.post(&format!("/api/lobbies/{lobby_id}/join"), json!({"code": invite})).await;
        ben.post(&format!("/api/lobbies/{lobby_id}/seat"), json!({"seat": 1})).await;
        let (mut ana_ws, _) = follow(&server, &ana, &lobby_id, None).await;
        let (mut ben_ws, _) = follow(&server, &ben, &lobby_id, None).await;
        // Said before the mute: a later follower gets it in the history beside the mute.
        say(&mut ben_ws, ("lobby", &lobby_id), "before the mute", 10).await;
        for ws in [&mut ana_ws, &mut ben_ws] {
            assert_eq!(next_chat(ws).await["text"], "before the mute");
        }

        ben_ws.send(json!({"type": "chat_mute", "lobby": lobby_id, "account": ana_id, "muted": true, "req": 1})).await;
        assert_eq!(next_chat(&mut ben_ws).await["code"], "lobby/not_host");
        ana_ws.send(json!({"type": "chat_mute", "lobby": lobby_id, "account": ana_id, "muted": true, "req": 2})).await;
        assert_eq!(ana_ws.recv_until(|m| m["type"] == "error").await["code"], "chat/cannot_mute_host");
        let (_, stranger_id) = http.guest("Stranger").await;
        ana_ws
            .send(json!({"type": "chat_mute", "lobby": lobby_id, "account": stranger_id, "muted": true, "req": 3}))
            .await;
        assert_eq!(ana_ws.recv_until(|m| m["type"] == "error").await["code"], "lobby/no_such_member");

        ana_ws.send(json!({"type": "chat_mute", "lobby": lobby_id, "account": ben_id, "muted": true, "req": 4})).await;
        for ws in [&mut ana_ws, &mut ben_ws] {
            let notice = ws.recv_until(|m| m["type"] == "chat_muted").await;
            assert_eq!(notice, json!({"type": "chat_muted", "lobby": lobby_id, "account": ben_id, "muted": true}));
        }
        say(&mut ben_ws, ("lobby", &lobby_id), "but I want to talk", 5).await;
        assert_eq!(next_chat(&mut ben_ws).await["code"], "chat/muted");
        // A new follower learns who is muted with the history.
        let (_, history) = follow(&server, &ana, &lobby_id, None).await;
        assert_eq!(history["muted"], json!([ben_id]));
        let said: Vec<&Value> = history["messages"].as_array().unwrap().iter().map(|m| &m["text"]).collect();
        assert_eq!(said, [&json!("before the mute")]);

        // The mute holds in the lobby's game too.
        let game =
            ana.post(&format!("/api/lobbies/{lobby_id}/start"), json!({})).await["game"].as_str().unwrap().to_string();
        ben_ws.send(json!({"type": "subscribe", "game": game})).await;
        let history = ben_ws.recv_until(|m| m["type"] == "chat_history").await;
        assert_eq!(history["game"], game.as_str());
        assert_eq!(history["muted"], json!([ben_id]), "a mute is history enough to be sent");
        say(&mut ben_ws, ("game", &game), "in the game then?", 6).await;
        assert_eq!(next_chat(&mut ben_ws).await["code"], "chat/muted");

        ana_ws.send(json!({"type": "chat_mute", "lobby": lobby_id, "account": ben_id, "muted": false, "req": 7})).await;
        let notice = ben_ws.recv_until(|m| m["type"] == "chat_muted" && m["game"] == game.as_str()).await;
        assert_eq!(notice["muted"], false);
        say(&mut ben_ws, ("game", &game), "thanks", 8).await;
        let msg = next_chat(&mut ben_ws).await;
        assert_eq!((msg["text"].as_str(), msg["from"]["seat"].as_u64()), (Some("thanks"), Some(1)));
        server.stop().await;
        db.cleanup().await;
    }
}

#[tokio::test]
async fn the_host_mutes_a_spectator_who_wrote_in_the_game_s_chat_but_no_stranger() {
    for db in TestDb::all().await {
        eprintln!("-- on {}", db.backend);
        let server = TestServer::start(&db).await;
        let http = server.http();
        let (ana, _, lobby_id, _) = lobby(&http, true).await;
        ana.post(&format!("/api/lobbies/{lobby_id}/bots"), json!({"seat": 1})).await;
        let game =
            ana.post(&format!("/api/lobbies/{lobby_id}/start"), json!({})).await["game"].as_str().unwrap().to_string();
        let mut ana_ws = Ws::connect(server.addr, ana.token.as_deref()).await;
        ana_ws.send(json!({"type": "subscribe", "game": game})).await;
        history(&mut ana_ws).await;
        // Cal watches the public game (no member of the lobby) and writes; Dee only watches.
        let (cal, cal_id) = http.guest("Cal").await;
        let (_, dee_id) = http.guest("Dee").await;
        let mut cal_ws = Ws::connect(server.addr, cal.token.as_deref()).await;
        cal_ws.send(json!({"type": "subscribe", "game": game})).await;
        history(&mut cal_ws).await;
        say(&mut cal_ws, ("game", &game), "boo", 1).await;
        let heard = next_chat(&mut ana_ws).await;
        assert_eq!((heard["text"].as_str(), heard["spectator"].as_bool()), (Some("boo"), Some(true)));
        // The game tells its page who hosts its lobby (the table shows mute buttons to the host).
        let path = format!("/api/games/{game}");
        assert_eq!(ana.get(&path).await["game"]["you_host"], true);
        assert_eq!(cal.get(&path).await["game"]["you_host"], false);
        assert_eq!(http.get(&path).await["game"]["you_host"], false, "not signed in");

        ana_ws.send(json!({"type": "chat_mute", "lobby": lobby_id, "account": dee_id, "muted": true, "req": 2})).await;
        assert_eq!(
            ana_ws.recv_until(|m| m["type"] == "error").await["code"],
            "lobby/no_such_member",
            "neither a member nor an author here"
        );
        ana_ws.send(json!({"type": "chat_mute", "lobby": lobby_id, "account": cal_id, "muted": true, "req": 3})).await;
        for ws in [&mut ana_ws, &mut cal_ws] {
            let notice = ws.recv_until(|m| m["type"] == "chat_muted").await;
            assert_eq!((notice["account"].as_str(), notice["muted"].as_bool()), (Some(cal_id.as_str()), Some(true)));
        }
        say(&mut cal_ws, ("game", &game), "boo again", 4).await;
        assert_eq!(next_chat(&mut cal_ws).await["code"], "chat/muted");
        // And in the lobby's chat, which Cal may follow (the lobby is public).
        let (mut cal_lobby, history) = follow(&server, &cal, &lobby_id, None).await;
        assert_eq!(history["muted"], json!([cal_id]));
        say(&mut cal_lobby, ("lobby", &lobby_id), "here then", 5).await;
        assert_eq!(next_chat(&mut cal_lobby).await["code"], "chat/muted");
        server.stop().await;
        db.cleanup().await;
    }
}

/// The `chat_history` a new socket subscribing to `game` receives. (It may come before or after
/// the table's snapshot, but always before the answer to a ping sent after the subscribe.)
async fn watch(server: &TestServer, who: &Http, game: &str) -> Value {
    let mut ws = Ws::connect(server.addr, who.token.as_deref()).await;
    ws.send(json!({"type": "subscribe", "game": game})).await;
    history(&mut ws).await
}

#[tokio::test]
async fn a_room_found_empty_shows_later_messages_and_mutes_to_new_followers() {
    // A single server remembers which rooms it found empty, so that the players subscribing to
    // a game do not each read an empty history from the store; what is said or muted later must
    // still reach every new follower's history.
    for db in TestDb::all().await {
        eprintln!("-- on {}", db.backend);
        let server = TestServer::start(&db).await;
        let http = server.http();
        let (ana, _, lobby_id, _) = lobby(&http, true).await;
        let (ben, ben_id) = http.guest("Ben").await;
        ben.post(&format!("/api/lobbies/{lobby_id}/join"), json!({"seat": 1})).await;
        let (mut ana_ws, history) = follow(&server, &ana, &lobby_id, None).await;
        assert_eq!(history["messages"], json!([]));
        let (_, history) = follow(&server, &ben, &lobby_id, None).await;
        assert_eq!(history["messages"], json!([]), "still empty");
        say(&mut ana_ws, ("lobby", &lobby_id), "welcome", 2).await;
        assert_eq!(next_chat(&mut ana_ws).await["text"], "welcome");
        let (_, history) = follow(&server, &ben, &lobby_id, None).await;
        let said: Vec<&Value> = history["messages"].as_array().unwrap().iter().map(|m| &m["text"]).collect();
        assert_eq!(said, [&json!("welcome")], "the lobby spoke after it was found empty");

        let game =
            ana.post(&format!("/api/lobbies/{lobby_id}/start"), json!({})).await["game"].as_str().unwrap().to_string();
        for who in [&ana, &ben, &ana] {
            assert_eq!(watch(&server, who, &game).await, json!({"messages": [], "muted": []}), "a quiet game");
        }
        ana_ws.send(json!({"type": "chat_mute", "lobby": lobby_id, "account": ben_id, "muted": true, "req": 3})).await;
        ana_ws.recv_until(|m| m["type"] == "chat_muted").await;
        let history = watch(&server, &ben, &game).await;
        assert_eq!((&history["muted"], &history["messages"]), (&json!([ben_id]), &json!([])), "muted in the lobby");

        ana_ws.send(json!({"type": "subscribe", "game": game})).await;
        ana_ws.recv_until(|m| m["type"] == "snapshot").await;
        say(&mut ana_ws, ("game", &game), "good luck", 4).await;
        assert_eq!(next_chat(&mut ana_ws).await["text"], "good luck");
        let history = watch(&server, &ben, &game).await;
        let said: Vec<&Value> = history["messages"].as_array().unwrap().iter().map(|m| &m["text"]).collect();
        assert_eq!(said, [&json!("good luck")], "the game spoke after it was found empty");
        server.stop().await;
        db.cleanup().await;
    }
}

#[tokio::test]
async fn chat_is_rate_limited_per_account_and_a_refused_message_is_not_delivered() {
    for db in TestDb::all().await {
        eprintln!("-- on {}", db.backend);
        let mut config = config(&db);
        config.limits = chapterhouse::limits::LimitsConfig {
            chat: chapterhouse::limits::Rate::new(3, Duration::from_secs(3600)),
            ..generous_limits()
        };
        let server = TestServer::start_config(config).await;
        let http = server.http();
        let (ana, _, lobby_id, _) = lobby(&http, true).await;
        let (mut ws, _) = follow(&server, &ana, &lobby_id, None).await;
        // A second socket of the same account shares the allowance.
        let (mut second, _) = follow(&server, &ana, &lobby_id, None).await;
        for i in 0..3 {
            say(&mut ws, ("lobby", &lobby_id), &format!("message {i}"), i).await;
            assert_eq!(next_chat(&mut ws).await["text"], format!("message {i}"));
        }
        say(&mut second, ("lobby", &lobby_id), "one too many", 9).await;
        let refused = second.recv_until(|m| m["type"] == "error").await;
        assert_eq!((refused["code"].as_str(), refused["req"].as_u64()), (Some("proto/rate_limited"), Some(9)));
        assert!(refused["details"]["retry_after"].as_u64().unwrap() >= 1);
        no_chat_before_pong(&mut ws).await;
        server.stop().await;
        db.cleanup().await;
    }
}
