//! One game slot: sets up a game (guests, lobby, seats, start, every player subscribed), plays it
//! with random legal actions, and starts another when it ends, until the deadline.

use crate::stats::{ActionTiming, Stats};
use crate::Args;
use anyhow::{bail, Context};
use futures_util::{SinkExt, StreamExt};
use game_core::GameRng;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The fields of a server message the load generator reads; the rest (the view, the patch
/// itself, events) is skipped without being built, so that the generator stays cheap.
#[derive(Deserialize)]
struct Msg {
    #[serde(rename = "type")]
    kind: String,
    version: Option<u64>,
    seat: Option<u64>,
    to_act: Option<Vec<u64>>,
    legal_actions: Option<Vec<Box<serde_json::value::RawValue>>>,
    outcome: Option<serde::de::IgnoredAny>,
    /// The size of the RFC 6902 patch itself, in bytes (the frame also carries events, legal
    /// actions and who acts).
    #[serde(default, rename = "patch", deserialize_with = "raw_len")]
    patch_len: usize,
}

fn raw_len<'de, D: serde::Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    let raw: &'de serde_json::value::RawValue = Deserialize::deserialize(d)?;
    Ok(raw.get().len())
}

struct Player {
    ws: Socket,
    seat: u64,
    version: u64,
    to_act: Vec<u64>,
    legal: Vec<Box<serde_json::value::RawValue>>,
    over: bool,
}

impl Player {
    fn absorb(&mut self, msg: Msg) {
        if msg.kind == "snapshot" || msg.kind == "patch" {
            self.version = msg.version.unwrap_or(self.version);
            self.to_act = msg.to_act.unwrap_or_default();
            self.legal = msg.legal_actions.unwrap_or_default();
            self.over = msg.outcome.is_some();
        }
    }

    fn to_move(&self) -> bool {
        !self.over && self.to_act.contains(&self.seat) && !self.legal.is_empty()
    }
}

/// POSTs `body` as JSON and returns the JSON answer.
pub async fn post(client: &reqwest::Client, url: String, token: Option<&str>, body: Value) -> anyhow::Result<Value> {
    let mut request = client.post(&url).json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.with_context(|| format!("POST {url}"))?;
    let status = response.status();
    let value: Value = response.json().await.unwrap_or(Value::Null);
    if !status.is_success() {
        return Err(Refused { url, status, answer: value }.into());
    }
    Ok(value)
}

/// A request the server refused: its status and JSON answer.
#[derive(Debug)]
pub struct Refused {
    url: String,
    status: reqwest::StatusCode,
    answer: Value,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "POST {}: {} {}", self.url, self.status, self.answer)
    }
}

impl std::error::Error for Refused {}

/// A socket message the server refused under its rate limits: the refusal's text.
#[derive(Debug)]
struct Throttled(String);

impl std::fmt::Display for Throttled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "rate-limited: {}", self.0)
    }
}

impl std::error::Error for Throttled {}

/// Whether `error` is one of the server's rate limits, over HTTP or the socket.
fn rate_limited(error: &anyhow::Error) -> bool {
    error.is::<Throttled>()
        || error.downcast_ref::<Refused>().is_some_and(|r| r.status == reqwest::StatusCode::TOO_MANY_REQUESTS)
}

/// The next text frame, as its bytes.
pub async fn recv_text(ws: &mut Socket) -> anyhow::Result<String> {
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await
            .context("no message for 30 s")?
            .context("socket closed")??;
        if let Message::Text(text) = frame {
            return Ok(text.as_str().to_string());
        }
    }
}

/// The next message and its size; an `error` from the server ends the slot (the load generator
/// only sends legal actions at the current version, so any refusal is a finding), except a rate
/// limit's, which ends the game (see [`slot`]).
async fn recv(ws: &mut Socket, stats: &Stats) -> anyhow::Result<(Msg, usize)> {
    let text = recv_text(ws).await?;
    if stats.shown.load(std::sync::atomic::Ordering::Relaxed) < stats.show_frames && text.contains(r#""type":"patch""#)
    {
        stats.shown.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        eprintln!("{text}");
    }
    let msg: Msg = serde_json::from_str(&text).with_context(|| format!("unreadable message {text}"))?;
    if msg.kind == "error" {
        if text.contains(r#""code":"proto/rate_limited""#) {
            return Err(Throttled(text).into());
        }
        stats.rejected.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        bail!("refused: {text}");
    }
    Ok((msg, text.len()))
}

/// `players` new guest accounts through the node at `url`: their tokens.
pub async fn guests(url: &str, client: &reqwest::Client, players: usize) -> anyhow::Result<Vec<String>> {
    let mut tokens = Vec::new();
    for i in 0..players {
        let session = post(client, format!("{url}/api/guest"), None, json!({"name": format!("load{i}")})).await?;
        tokens.push(session["token"].as_str().context("token")?.to_string());
    }
    Ok(tokens)
}

/// New guests, a lobby (public when `public`), every seat taken, the game started: the game id
/// and the players' tokens.
pub async fn start_game(
    args: &Args,
    client: &reqwest::Client,
    players: usize,
    public: bool,
) -> anyhow::Result<(String, Vec<String>)> {
    let tokens = guests(&args.url, client, players).await?;
    let game = start_game_on(args, &args.url, client, &tokens, public).await?;
    Ok((game, tokens))
}

/// A lobby created by the first of `tokens` through the node at `url` (a cluster: the node that
/// starts a game owns it), the others joining it each into their seat (one request each, as
/// boardgame.io's Lobby API joins a seat), the game started: the game id.
pub async fn start_game_on(
    args: &Args,
    url: &str,
    client: &reqwest::Client,
    tokens: &[String],
    public: bool,
) -> anyhow::Result<String> {
    let body = json!({"game": args.game, "public": public});
    let lobby = post(client, format!("{url}/api/lobbies"), Some(&tokens[0]), body).await?;
    let id = lobby["lobby"]["id"].as_str().context("lobby id")?.to_string();
    let code = lobby["lobby"]["invite_code"].clone();
    for (seat, token) in tokens.iter().enumerate().skip(1) {
        post(client, format!("{url}/api/lobbies/{id}/join"), Some(token), json!({"code": code, "seat": seat})).await?;
    }
    let started = post(client, format!("{url}/api/lobbies/{id}/start"), Some(&tokens[0]), json!({})).await?;
    started["game"].as_str().context("game id").map(str::to_string)
}

/// Opens a socket (with `token`, or anonymous) and waits for its welcome.
pub async fn connect(ws_url: &str, token: Option<&str>) -> anyhow::Result<Socket> {
    let mut request = tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(ws_url)?;
    if let Some(token) = token {
        // The token travels as a subprotocol, never in the URL (docs/protocol.md).
        request
            .headers_mut()
            .insert("sec-websocket-protocol", format!("chapterhouse, chapterhouse.token.{token}").parse()?);
    }
    // tungstenite zero-fills its whole read buffer (128 KiB by default) on every read that finds
    // it short; patches are a few hundred bytes, so a small buffer saves that memset (it was 40%
    // of loadgen's CPU). No Nagle delay, as browsers do for WebSockets.
    let config = WebSocketConfig::default().read_buffer_size(8 * 1024);
    let (mut ws, _) = tokio_tungstenite::connect_async_with_config(request, Some(config), true).await?;
    recv_text(&mut ws).await?; // welcome
    Ok(ws)
}

async fn new_game(
    args: &Args,
    stats: &Stats,
    client: &reqwest::Client,
    ws_urls: &[String],
    tokens: &[String],
    offset: usize,
) -> anyhow::Result<(String, Vec<Player>)> {
    let bases = if args.sockets.is_empty() { std::slice::from_ref(&args.url) } else { &args.sockets[..] };
    let game = start_game_on(args, &bases[offset % bases.len()], client, tokens, false).await?;
    let mut players = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let ws_url = &ws_urls[(i + offset) % ws_urls.len()];
        let mut ws = connect(ws_url, Some(token)).await?;
        ws.send(Message::text(json!({"type": "subscribe", "game": game}).to_string())).await?;
        let (snapshot, _) = recv(&mut ws, stats).await?;
        if snapshot.kind != "snapshot" {
            bail!("expected a snapshot, got a {}", snapshot.kind);
        }
        let mut player =
            Player { ws, seat: snapshot.seat.unwrap_or(0), version: 0, to_act: vec![], legal: vec![], over: false };
        player.absorb(snapshot);
        players.push(player);
    }
    Ok((game, players))
}

/// How long a game waits before its next action: nothing in the saturation shape; in the
/// realistic shape, an exponential wait whose mean is `think_ms` (so each game acts on average
/// once every `think_ms`, at random moments).
fn think(rng: &mut GameRng, think_ms: u64) -> Duration {
    if think_ms == 0 {
        return Duration::ZERO;
    }
    let uniform = (rng.below(1 << 20) as f64 + 0.5) / (1u64 << 20) as f64;
    Duration::from_secs_f64(-uniform.ln() * think_ms as f64 / 1000.0)
}

/// Plays games back to back until `deadline`.
///
/// The slot's players stay signed in from game to game, as people who play again do, and take
/// turns to host. The server limits what one account may do (lobbies started, messages per
/// second) to what a person does; when a short saturation run with few games goes faster than
/// that, the slot takes in more players (a new game, with the larger circle taking turns), and
/// the report counts it.
pub async fn slot(args: Arc<Args>, stats: Arc<Stats>, deadline: Instant, seed: u64) -> anyhow::Result<()> {
    let client = reqwest::Client::new();
    let bases = if args.sockets.is_empty() { std::slice::from_ref(&args.url) } else { &args.sockets[..] };
    let ws_urls: Vec<String> = bases.iter().map(|u| format!("{}/ws", u.replacen("http", "ws", 1))).collect();
    let mut rng = GameRng::from_u64(seed);
    let mut first = true;
    let mut games = seed as usize;
    let base = &bases[games % bases.len()];
    let mut circle = guests(base, &client, args.players).await?;
    let mut host = 0;
    while Instant::now() < deadline {
        games += 1;
        let tokens: Vec<String> = (0..args.players).map(|i| circle[(host + i) % circle.len()].clone()).collect();
        host = (host + 1) % circle.len();
        let played = async {
            let (game, players) = new_game(&args, &stats, &client, &ws_urls, &tokens, games).await?;
            if first {
                first = false;
                stats.ready.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                // Spread the first actions of the realistic shape over one think time.
                tokio::time::sleep(think(&mut rng, args.think_ms)).await;
            }
            play(&args, &stats, &mut rng, deadline, &game, players).await
        }
        .await;
        match played {
            Err(e) if rate_limited(&e) => {
                stats.rate_limited.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                circle.extend(guests(base, &client, args.players).await?);
            }
            played => played?,
        }
    }
    Ok(())
}

/// Plays `game` until it ends or `deadline`, then closes the players' sockets.
async fn play(
    args: &Args,
    stats: &Stats,
    rng: &mut GameRng,
    deadline: Instant,
    game: &str,
    mut players: Vec<Player>,
) -> anyhow::Result<()> {
    let mut sizes = Vec::with_capacity(players.len());
    while Instant::now() < deadline {
        let movers: Vec<usize> = (0..players.len()).filter(|i| players[*i].to_move()).collect();
        let Some(&mover) = rng.choose(&movers) else { break };
        let action = rng.choose(&players[mover].legal).context("legal action")?.get().to_string();
        let version = players[mover].version;
        let msg = format!(r#"{{"type":"action","game":"{game}","version":{version},"action":{action},"req":1}}"#);
        let sent = Instant::now();
        players[mover].ws.send(Message::text(msg)).await?;
        let us = |t: Instant| t.duration_since(sent).as_micros() as u64;
        // The mover first: its patch and then its ack, timed as they arrive.
        let (mut own_patch, mut ack) = (None, None);
        let p = &mut players[mover];
        while ack.is_none() {
            let (msg, size) = recv(&mut p.ws, stats).await?;
            match msg.kind.as_str() {
                "ack" => ack = Some(Instant::now()),
                "patch" if msg.version.is_some_and(|v| v > version) => {
                    own_patch = Some(Instant::now());
                    sizes.push((size as u64, msg.patch_len as u64));
                    p.absorb(msg);
                }
                _ => p.absorb(msg),
            }
        }
        let own_patch = own_patch.context("an ack came before the mover's patch")?;
        let mut last = own_patch;
        for (i, p) in players.iter_mut().enumerate() {
            if i == mover {
                continue;
            }
            loop {
                let (msg, size) = recv(&mut p.ws, stats).await?;
                let done = msg.kind == "patch" && msg.version.is_some_and(|v| v > version);
                let patch_len = msg.patch_len as u64;
                p.absorb(msg);
                if done {
                    last = last.max(Instant::now());
                    sizes.push((size as u64, patch_len));
                    break;
                }
            }
        }
        let ack = ack.unwrap_or(own_patch);
        let timing = ActionTiming { last_patch_us: us(last), own_patch_us: us(own_patch), ack_us: us(ack) };
        stats.record(timing, &sizes);
        sizes.clear();
        let pause = think(rng, args.think_ms);
        if !pause.is_zero() {
            tokio::time::sleep(pause).await;
        }
    }
    if players.iter().all(|p| p.over) {
        stats.games_finished.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
    for mut p in players {
        let _ = p.ws.close(None).await;
    }
    Ok(())
}
