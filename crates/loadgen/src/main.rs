//! `loadgen`: plays many games at once through a real Chapterhouse server, every player on its
//! own WebSocket, choosing random legal actions, and reports accepted actions per second and the
//! time from sending an action to the arrival of the last patch of that version at the game's
//! subscribers (p50/p99/max).
//!
//! ```text
//! cargo run --release -p loadgen -- --url http://127.0.0.1:8080 --games 200 --seconds 30
//! ```

use anyhow::{bail, Context};
use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use game_core::GameRng;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::net::TcpStream;
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Drive many games at once and measure the server.
#[derive(Debug, Parser)]
struct Args {
    /// The server's base URL.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: String,
    /// Games played at the same time (each game slot starts a new game when one ends).
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// Players per game (people on sockets; no bots).
    #[arg(long, default_value_t = 3)]
    players: usize,
    /// How long to measure, in seconds.
    #[arg(long, default_value_t = 30)]
    seconds: u64,
    /// The catalog id of the game to play.
    #[arg(long, default_value = "knights-templar")]
    game: String,
}

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

struct Player {
    token: String,
    ws: Socket,
    seat: u64,
    version: u64,
    to_act: Vec<u64>,
    legal: Vec<Value>,
    over: bool,
}

#[derive(Default)]
struct Stats {
    accepted: AtomicU64,
    rejected: AtomicU64,
    games_finished: AtomicU64,
    latencies_us: Mutex<Vec<u64>>,
}

async fn post(client: &reqwest::Client, url: String, token: Option<&str>, body: Value) -> anyhow::Result<Value> {
    let mut request = client.post(&url).json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.with_context(|| format!("POST {url}"))?;
    let status = response.status();
    let value: Value = response.json().await.unwrap_or(Value::Null);
    if !status.is_success() {
        bail!("POST {url}: {status} {value}");
    }
    Ok(value)
}

async fn recv(ws: &mut Socket) -> anyhow::Result<Value> {
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await
            .context("no message for 30 s")?
            .context("socket closed")??;
        if let Message::Text(text) = frame {
            return Ok(serde_json::from_str(text.as_str())?);
        }
    }
}

impl Player {
    fn absorb(&mut self, msg: &Value) {
        if let Some(v) = msg["version"].as_u64() {
            if msg["type"] == "snapshot" || msg["type"] == "patch" {
                self.version = v;
                self.to_act =
                    msg["to_act"].as_array().map(|a| a.iter().filter_map(Value::as_u64).collect()).unwrap_or_default();
                self.legal = msg["legal_actions"].as_array().cloned().unwrap_or_default();
                self.over = !msg["outcome"].is_null();
            }
        }
    }

    fn to_move(&self) -> bool {
        !self.over && self.to_act.contains(&self.seat) && !self.legal.is_empty()
    }
}

/// Sets up one game: guests, a lobby, seats, start, and every player subscribed.
async fn new_game(args: &Args, client: &reqwest::Client, ws_url: &str) -> anyhow::Result<(String, Vec<Player>)> {
    let mut tokens = Vec::new();
    for i in 0..args.players {
        let session =
            post(client, format!("{}/api/guest", args.url), None, json!({"name": format!("load{i}")})).await?;
        tokens.push(session["token"].as_str().context("token")?.to_string());
    }
    let lobby = post(client, format!("{}/api/lobbies", args.url), Some(&tokens[0]), json!({"game": args.game})).await?;
    let id = lobby["lobby"]["id"].as_str().context("lobby id")?.to_string();
    let code = lobby["lobby"]["invite_code"].clone();
    for (seat, token) in tokens.iter().enumerate().skip(1) {
        post(client, format!("{}/api/lobbies/{id}/join", args.url), Some(token), json!({"code": code})).await?;
        post(client, format!("{}/api/lobbies/{id}/seat", args.url), Some(token), json!({"seat": seat})).await?;
    }
    let started = post(client, format!("{}/api/lobbies/{id}/start", args.url), Some(&tokens[0]), json!({})).await?;
    let game = started["game"].as_str().context("game id")?.to_string();
    let mut players = Vec::new();
    for token in tokens {
        // The token travels as a subprotocol, never in the URL (docs/protocol.md).
        let mut request = tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(ws_url)?;
        request
            .headers_mut()
            .insert("sec-websocket-protocol", format!("chapterhouse, chapterhouse.token.{token}").parse()?);
        let (mut ws, _) = tokio_tungstenite::connect_async(request).await?;
        recv(&mut ws).await?; // welcome
        ws.send(Message::text(json!({"type": "subscribe", "game": game}).to_string())).await?;
        let snapshot = recv(&mut ws).await?;
        if snapshot["type"] != "snapshot" {
            bail!("expected a snapshot, got {snapshot}");
        }
        let mut player = Player {
            token,
            ws,
            seat: snapshot["seat"].as_u64().unwrap_or(0),
            version: 0,
            to_act: vec![],
            legal: vec![],
            over: false,
        };
        player.absorb(&snapshot);
        players.push(player);
    }
    Ok((game, players))
}

/// One game slot: plays games back to back until `deadline`.
async fn slot(args: Arc<Args>, stats: Arc<Stats>, deadline: Instant, seed: u64) -> anyhow::Result<()> {
    let client = reqwest::Client::new();
    let ws_url = format!("{}/ws", args.url.replacen("http", "ws", 1));
    let mut rng = GameRng::from_u64(seed);
    while Instant::now() < deadline {
        let (game, mut players) = new_game(&args, &client, &ws_url).await?;
        while Instant::now() < deadline {
            let movers: Vec<usize> = (0..players.len()).filter(|i| players[*i].to_move()).collect();
            let Some(&mover) = rng.choose(&movers) else { break };
            let action = rng.choose(&players[mover].legal).cloned().context("legal action")?;
            let version = players[mover].version;
            let sent = Instant::now();
            let msg = json!({"type": "action", "game": game, "version": version, "action": action, "req": 1});
            players[mover].ws.send(Message::text(msg.to_string())).await?;
            let mut last = sent;
            for (i, p) in players.iter_mut().enumerate() {
                loop {
                    let msg = recv(&mut p.ws).await?;
                    if msg["type"] == "error" {
                        stats.rejected.fetch_add(1, Ordering::Relaxed);
                        bail!("action refused: {msg}");
                    }
                    p.absorb(&msg);
                    let done = msg["type"] == "patch" && p.version > version;
                    if done {
                        last = Instant::now();
                        if i != mover {
                            break;
                        }
                    }
                    if i == mover && msg["type"] == "ack" {
                        break;
                    }
                }
            }
            stats.accepted.fetch_add(1, Ordering::Relaxed);
            stats.latencies_us.lock().await.push(last.duration_since(sent).as_micros() as u64);
        }
        if players.iter().all(|p| p.over) {
            stats.games_finished.fetch_add(1, Ordering::Relaxed);
        }
        for mut p in players {
            let _ = p.ws.close(None).await;
            let _ = p.token;
        }
    }
    Ok(())
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)] as f64 / 1000.0
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Arc::new(Args::parse());
    let stats = Arc::new(Stats::default());
    let started = Instant::now();
    let deadline = started + Duration::from_secs(args.seconds);
    let mut slots = Vec::new();
    for i in 0..args.games {
        slots.push(tokio::spawn(slot(args.clone(), stats.clone(), deadline, i as u64 + 1)));
    }
    let mut failures = 0;
    for s in slots {
        if let Ok(Err(e)) | Err(e) = s.await.map_err(anyhow::Error::from) {
            failures += 1;
            eprintln!("slot failed: {e:#}");
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    let mut latencies = stats.latencies_us.lock().await.clone();
    latencies.sort_unstable();
    let accepted = stats.accepted.load(Ordering::Relaxed);
    println!("games at once:        {}", args.games);
    println!("players per game:     {}", args.players);
    println!("elapsed:              {elapsed:.1} s (including game setup)");
    println!("accepted actions:     {accepted}");
    println!("actions per second:   {:.0}", accepted as f64 / elapsed);
    println!("games finished:       {}", stats.games_finished.load(Ordering::Relaxed));
    println!("refused actions:      {}", stats.rejected.load(Ordering::Relaxed));
    println!("failed game slots:    {failures}");
    println!(
        "action -> last patch: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        percentile(&latencies, 1.0)
    );
    if failures > 0 {
        bail!("{failures} game slots failed");
    }
    Ok(())
}
