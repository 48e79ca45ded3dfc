//! Kill and restart: the real binary is killed with SIGKILL mid-game and restarted on the same
//! database; every acknowledged action is there, the games (bots included) go on to the end, and
//! their logs verify with `chapterhouse verify`.
#![allow(clippy::unwrap_used)] // tests: a panic is the failure report

mod common;

use chapterhouse::catalog::Catalog;
use common::play::Seen;
use common::{Http, TestDb, Ws};
use game_core::{GameLog, GameRng};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const GAME: &str = "knights-templar";

struct Process {
    child: Child,
    addr: SocketAddr,
}

impl Process {
    async fn start(db: &TestDb, log: &std::path::Path) -> Process {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let log = std::fs::OpenOptions::new().create(true).append(true).open(log).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_chapterhouse"))
            // Every player plays as fast as it can from one address: no rate limits here.
            .args([
                "serve",
                "--bind",
                &addr.to_string(),
                "--database-url",
                &db.url,
                "--bot-delay-ms",
                "5",
                "--no-limits",
            ])
            .env("RUST_LOG", "info")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("start the chapterhouse binary");
        let process = Process { child, addr };
        let client = reqwest::Client::new();
        for _ in 0..400 {
            if let Ok(r) = client.get(format!("http://{addr}/healthz")).send().await {
                if r.status().is_success() {
                    return process;
                }
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("the server did not come up");
    }

    fn http(&self) -> Http {
        Http::new(format!("http://{}", self.addr))
    }
}

struct Table {
    game: String,
    players: Vec<Http>,
    acked: Vec<Value>,
}

async fn open_table(http: &Http, with_bot: bool) -> Table {
    let (ana, _) = http.guest("Ana").await;
    let created = ana.post("/api/lobbies", json!({"game": GAME, "public": true})).await;
    let lobby = created["lobby"]["id"].as_str().unwrap().to_string();
    let mut players = vec![ana.clone()];
    if with_bot {
        ana.post(&format!("/api/lobbies/{lobby}/bots"), json!({"seat": 1})).await;
    } else {
        let (ben, _) = http.guest("Ben").await;
        ben.post(&format!("/api/lobbies/{lobby}/join"), json!({})).await;
        ben.post(&format!("/api/lobbies/{lobby}/seat"), json!({"seat": 1})).await;
        players.push(ben);
    }
    let game = ana.post(&format!("/api/lobbies/{lobby}/start"), json!({})).await["game"].as_str().unwrap().to_string();
    Table { game, players, acked: Vec::new() }
}

/// Plays up to `steps` random actions by the table's people (bots play themselves).
async fn play(addr: SocketAddr, table: &mut Table, rng: &mut GameRng, steps: usize) -> Vec<Seen> {
    let mut seen = Vec::new();
    for p in &table.players {
        seen.push(Seen::subscribe(Ws::connect(addr, p.token.as_deref()).await, &table.game, None).await);
    }
    for _ in 0..steps {
        if seen[0].outcome.is_some() {
            break;
        }
        // Wait until a person is to move (a bot may be thinking).
        let mut mover = None;
        for _ in 0..400 {
            if seen[0].outcome.is_some() {
                break;
            }
            if let Some(i) = seen.iter().position(Seen::to_move) {
                mover = Some(i);
                break;
            }
            let msg = seen[0].ws.recv().await;
            seen[0].absorb(msg);
            let v = seen[0].version;
            for s in seen.iter_mut().skip(1) {
                s.catch_up(v).await;
            }
        }
        let Some(i) = mover else { break };
        let action = rng.choose(&seen[i].legal).unwrap().clone();
        let version = seen[i].version;
        seen[i].act(action.clone(), version).await.expect("accepted");
        table.acked.push(action);
        let v = seen[i].version;
        for s in seen.iter_mut() {
            s.catch_up(v).await;
        }
    }
    seen
}

#[tokio::test]
async fn after_a_sigkill_every_acknowledged_action_is_there_and_the_games_finish_and_verify() {
    for db in TestDb::all().await {
        eprintln!("-- on {}", db.backend);
        let dir = tempfile::tempdir().unwrap();
        let log_file = dir.path().join("server.log");
        let mut rng = GameRng::from_u64(42);

        let mut server = Process::start(&db, &log_file).await;
        let http = server.http();
        let mut tables =
            [open_table(&http, false).await, open_table(&http, false).await, open_table(&http, true).await];
        for table in tables.iter_mut() {
            play(server.addr, table, &mut rng, 3).await;
        }
        // One more action in flight when the process dies: it may or may not have been committed.
        let mut last = play(server.addr, &mut tables[0], &mut rng, 0).await;
        if let Some(i) = last.iter().position(Seen::to_move) {
            let action = rng.choose(&last[i].legal).unwrap().clone();
            let version = last[i].version;
            last[i]
                .ws
                .send(json!({"type": "action", "game": tables[0].game, "version": version, "action": action}))
                .await;
        }
        server.child.kill().expect("SIGKILL");
        server.child.wait().unwrap();

        let mut server = Process::start(&db, &log_file).await;
        let http = server.http();
        for table in tables.iter_mut() {
            for p in table.players.iter_mut() {
                p.base = http.base.clone();
            }
            let acked_before = table.acked.len();
            let seen = play(server.addr, table, &mut rng, 0).await;
            assert!(seen[0].version as usize >= acked_before, "every acknowledged action survived the kill");
            // Play on to the end (bots included).
            let mut guard = 0;
            loop {
                let seen = play(server.addr, table, &mut rng, 50).await;
                if seen[0].outcome.is_some() {
                    break;
                }
                guard += 1;
                assert!(guard < 100, "the game ends");
            }
            let log: GameLog =
                serde_json::from_value(table.players[0].get(&format!("/api/games/{}/log", table.game)).await).unwrap();
            let catalog = Catalog::standard();
            log.replay(catalog.get(GAME).unwrap()).expect("the log verifies");
            // The people's acknowledged actions are in the log, in order (bots' actions between them).
            let people: Vec<Value> = log
                .actions
                .iter()
                .filter(|e| table.players.len() == 2 || e.seat.0 == 0)
                .map(|e| e.action.clone())
                .collect();
            let mut it = people.iter();
            for acked in &table.acked[..acked_before] {
                assert!(it.any(|a| a == acked), "acknowledged action {acked} is in the log");
            }
            common::cluster::cli_verifies(&log, &dir.path().join(format!("{}.json", table.game)));
        }

        // A graceful stop (SIGTERM) exits cleanly.
        let pid = server.child.id().to_string();
        Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        let status = server.child.wait().unwrap();
        assert!(status.success(), "SIGTERM stops the server cleanly: {status}");
        let log = std::fs::read_to_string(&log_file).unwrap_or_default();
        assert!(log.contains("unfinished games restored"), "the server log tells of recovery");
        db.cleanup().await;
    }
}
