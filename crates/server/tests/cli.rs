//! The offline command-line tool: simulate, verify and the JSON-lines engine driver, run as a
//! user would run them (the real binary).

use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn chapterhouse(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chapterhouse")).args(args).output().expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chapterhouse-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn simulate_plays_every_game_at_every_player_count_and_prints_its_figures() {
    let catalog = chapterhouse::catalog::Catalog::standard();
    for info in catalog.infos() {
        for players in info.min_players..=info.max_players {
            let n = players.to_string();
            let o = chapterhouse(&["simulate", "--game", &info.id, "--players", &n, "--games", "3", "--seed", "7"]);
            assert!(o.status.success(), "{} with {players}: {}", info.id, String::from_utf8_lossy(&o.stderr));
            let out = stdout(&o);
            assert!(out.contains("games:             3"), "{out}");
            assert!(out.contains("games per second:") && out.contains("actions per game:"), "{out}");
            assert!(out.contains("scores:"), "{out}");
        }
    }
}

#[test]
fn simulate_rejects_unknown_games_bad_player_counts_and_bad_options_without_panicking() {
    for (args, needle) in [
        (vec!["simulate", "--game", "chess", "--players", "2"], "unknown game"),
        (vec!["simulate", "--game", "knights-templar", "--players", "9"], "2 to 8 players"),
        (vec!["simulate", "--game", "knights-templar", "--players", "3", "--options", "{nope"], "not valid JSON"),
        (vec!["simulate", "--game", "knights-templar", "--players", "3", "--options", "{\"x\":1}"], "invalid options"),
    ] {
        let o = chapterhouse(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

fn saved_log(dir: &Path, game: &str, players: &str) -> PathBuf {
    let d = dir.to_str().expect("utf-8 path");
    let o = chapterhouse(&[
        "simulate",
        "--game",
        game,
        "--players",
        players,
        "--games",
        "1",
        "--seed",
        "3",
        "--save-logs",
        d,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    dir.join(format!("{game}-0.json"))
}

#[test]
fn a_saved_log_verifies_and_an_altered_hash_or_action_fails_at_that_action() {
    let dir = temp_dir("verify");
    for (game, players) in
        [("knights-templar", "4"), ("templars-journey", "3"), ("secret-treasures", "2"), ("richard-the-lionheart", "3")]
    {
        let path = saved_log(&dir, game, players);
        let o = chapterhouse(&["verify", path.to_str().expect("utf-8")]);
        assert!(o.status.success(), "{game}: {}", stdout(&o));
        assert!(stdout(&o).starts_with("OK"), "{}", stdout(&o));

        let log: Value = serde_json::from_slice(&std::fs::read(&path).expect("log")).expect("json");
        let n = log["actions"].as_array().expect("actions").len();
        assert!(n > 10, "{game}: a real game has actions");

        let mut bad = log.clone();
        bad["actions"][5]["hash"] = json!("0".repeat(64));
        let bad_path = dir.join("bad-hash.json");
        std::fs::write(&bad_path, serde_json::to_vec(&bad).expect("json")).expect("write");
        let o = chapterhouse(&["verify", bad_path.to_str().expect("utf-8")]);
        assert_eq!(o.status.code(), Some(1));
        assert!(stdout(&o).contains("FAILED at action seq 6"), "{game}: {}", stdout(&o));

        // Replace action 6 by action 7 (another player's or a later step): rejected or diverging at 6.
        let mut bad = log.clone();
        bad["actions"][5]["action"] = json!({"type": "no_such_action"});
        std::fs::write(&bad_path, serde_json::to_vec(&bad).expect("json")).expect("write");
        let o = chapterhouse(&["verify", bad_path.to_str().expect("utf-8")]);
        assert_eq!(o.status.code(), Some(1));
        assert!(stdout(&o).contains("FAILED at action seq 6"), "{game}: {}", stdout(&o));

        let mut bad = log.clone();
        bad["seed"] = json!("1".repeat(64));
        std::fs::write(&bad_path, serde_json::to_vec(&bad).expect("json")).expect("write");
        let o = chapterhouse(&["verify", bad_path.to_str().expect("utf-8")]);
        assert_eq!(o.status.code(), Some(1));
        assert!(stdout(&o).contains("commitment"), "{}", stdout(&o));
    }
    let o = chapterhouse(&["verify", dir.join("missing.json").to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs the binary with stdout on a pipe whose reader is already gone, as `… | head -0` would leave it.
fn with_closed_stdout(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    Command::new(env!("CARGO_BIN_EXE_chapterhouse"))
        .args(args)
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("the binary runs")
}

#[test]
fn a_reader_that_goes_away_ends_the_output_quietly_and_keeps_the_exit_code() {
    let dir = temp_dir("pipe");
    let path = saved_log(&dir, "knights-templar", "3");
    let o = with_closed_stdout(&["verify", path.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stderr.is_empty(), "no panic message: {}", String::from_utf8_lossy(&o.stderr));

    let mut bad: Value = serde_json::from_slice(&std::fs::read(&path).expect("log")).expect("json");
    bad["actions"][3]["hash"] = json!("0".repeat(64));
    let bad_path = dir.join("bad.json");
    std::fs::write(&bad_path, serde_json::to_vec(&bad).expect("json")).expect("write");
    let o = with_closed_stdout(&["verify", bad_path.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(1), "a failed verification still says so by its exit code");
    assert!(o.stderr.is_empty(), "{}", String::from_utf8_lossy(&o.stderr));

    for args in [&["games"][..], &["simulate", "--game", "knights-templar", "--players", "2", "--games", "1"][..]] {
        let o = with_closed_stdout(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
        assert!(o.stderr.is_empty(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn engine_session(game: &str, lines: &[String]) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chapterhouse"))
        .args(["engine", "--game", game])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("engine starts");
    {
        let mut stdin = child.stdin.take().expect("stdin");
        for line in lines {
            writeln!(stdin, "{line}").expect("write");
        }
    }
    let out = child.wait_with_output().expect("engine exits");
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).expect("each reply is JSON")).collect()
}

#[test]
fn the_engine_driver_plays_a_game_and_answers_bad_input_with_error_codes() {
    let lines: Vec<String> = [
        "{not json",
        r#"{"cmd":"fly"}"#,
        r#"{"cmd":"legal","seat":0}"#,
        r#"{"cmd":"new","players":1}"#,
        r#"{"cmd":"new","players":3,"seed":"42","id":7}"#,
        r#"{"cmd":"view","viewer":"spectator"}"#,
        r#"{"cmd":"apply","seat":0,"action":{"type":"pick","card":95}}"#,
        r#"{"cmd":"apply","seat":0,"action":"nonsense"}"#,
        r#"{"cmd":"to_act"}"#,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let replies = engine_session("knights-templar", &lines);
    assert_eq!(replies.len(), lines.len(), "one reply per line");
    assert_eq!(replies[0]["error"]["code"], "proto/malformed_json");
    assert_eq!(replies[1]["error"]["code"], "proto/bad_command");
    assert_eq!(replies[2]["error"]["code"], "engine/no_game");
    assert_eq!(replies[3]["error"]["code"], "game/bad_player_count");
    assert_eq!(replies[4]["ok"], true);
    assert_eq!(replies[4]["id"], 7, "the id is echoed");
    assert_eq!(replies[4]["seed_commitment"].as_str().map(str::len), Some(64));
    assert!(replies[5]["view"]["fate"].is_object(), "the Fate row keyed by card id");
    assert_eq!(replies[6]["error"]["code"], "rule/illegal_action");
    assert_eq!(replies[7]["error"]["code"], "rule/malformed_action");
    assert!(replies[8]["to_act"].is_array());

    // Play a whole game through the driver, scripted from the library with the same seed.
    let catalog = chapterhouse::catalog::Catalog::standard();
    let descriptor = catalog.get("knights-templar").expect("in the catalog");
    let seed: game_core::Seed = "9".parse().expect("seed");
    let mut game = descriptor.create(2, &json!({}), seed).expect("setup");
    let mut script = vec![r#"{"cmd":"new","players":2,"seed":"9"}"#.to_string()];
    let names = game_core::SeatNames::generic(2);
    while game.outcome().is_none() {
        let seat = game.to_act()[0];
        let action = game.legal_actions(seat)[0].clone();
        script.push(json!({"cmd": "apply", "seat": seat.0, "action": action}).to_string());
        game.apply(seat, &action, &names).expect("legal");
    }
    script.push(r#"{"cmd":"outcome"}"#.to_string());
    script.push(r#"{"cmd":"log"}"#.to_string());
    let replies = engine_session("knights-templar", &script);
    assert!(replies.iter().all(|r| r["ok"] == true), "every scripted action applies");
    let outcome = &replies[replies.len() - 2]["outcome"];
    assert_eq!(outcome, &serde_json::to_value(game.outcome()).expect("json"));
    let log: game_core::GameLog = serde_json::from_value(replies[replies.len() - 1]["log"].clone()).expect("a log");
    assert_eq!(log.actions.len(), script.len() - 3);
    assert!(log.seed.is_some(), "the seed is revealed once the game is over");
    log.replay(descriptor).expect("the driver's log verifies");
}
