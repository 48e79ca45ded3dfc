//! One game slot: sets up a game (guests, lobby, seats, start, every player subscribed), plays it
//! with random legal actions, and starts another when it ends, until the deadline.

use crate::scan::{self, Msg};
use crate::stats::{ActionTiming, Stats};
use crate::Args;
use anyhow::{bail, Context};
use game_core::GameRng;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use crate::ws::Socket;

struct Player {
    ws: Socket,
    view: View,
}

/// What a player's socket has learnt of the game.
struct View {
    seat: u64,
    version: u64,
    /// The seats the game waits for, as a bit set.
    to_act: u64,
    /// The seat's legal actions, as the JSON array the server sent (empty when it has none).
    legal: String,
    over: bool,
}

impl View {
    fn absorb(&mut self, msg: Msg<'_>) {
        if msg.kind == "snapshot" || msg.kind == "patch" {
            self.version = msg.version.unwrap_or(self.version);
            self.to_act = msg.to_act.unwrap_or(0);
            self.legal.clear();
            if let Some(legal) = msg.legal_actions.filter(|l| *l != "[]") {
                self.legal.push_str(legal);
            }
            self.over = msg.outcome;
        }
    }

    fn to_move(&self) -> bool {
        !self.over && self.seat < 64 && self.to_act & (1 << self.seat) != 0 && !self.legal.is_empty()
    }

    /// One of the seat's legal actions, chosen by `rng`.
    fn choose(&self, rng: &mut GameRng) -> anyhow::Result<String> {
        choose_legal(&self.legal, rng)
    }
}

/// One action of the JSON array `legal`, chosen by `rng`, as its JSON text.
fn choose_legal(legal: &str, rng: &mut GameRng) -> anyhow::Result<String> {
    let legal: Vec<&serde_json::value::RawValue> = serde_json::from_str(legal).context("legal actions")?;
    Ok(rng.choose(&legal).context("legal action")?.get().to_string())
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

/// The next message about `game` or none (read from `ws`, borrowed until its next read) and its
/// size; messages about another game (what was on its way before a finished game was left) are
/// passed over. An `error` from the server ends the slot (the load generator only sends legal
/// actions at the current version, so any refusal is a finding), except a rate limit's, which
/// ends the game (see [`slot`]).
async fn recv<'t>(ws: &'t mut Socket, stats: &Stats, game: &str) -> anyhow::Result<(Msg<'t>, usize)> {
    loop {
        ws.next().await?;
        let text = ws.text()?;
        if scan::game_of(text).with_context(|| format!("unreadable message {text}"))?.is_none_or(|g| g == game) {
            break;
        }
    }
    let text: &'t str = ws.text()?;
    if stats.shown.load(std::sync::atomic::Ordering::Relaxed) < stats.show_frames && text.contains(r#""type":"patch""#)
    {
        stats.shown.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        eprintln!("{text}");
    }
    let msg = scan::read(text).with_context(|| format!("unreadable message {text}"))?;
    if msg.kind == "error" {
        if text.contains(r#""code":"proto/rate_limited""#) {
            return Err(Throttled(text.to_string()).into());
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
    // The token travels as a subprotocol, never in the URL (docs/protocol.md).
    let protocols = token.map(|token| format!("chapterhouse, chapterhouse.token.{token}"));
    let mut ws = Socket::connect(ws_url, protocols.as_deref()).await?;
    ws.next().await?; // welcome
    Ok(ws)
}

/// A new game of `tokens`, each player subscribed to it on its socket in `sockets` (opened now if
/// it has none yet).
async fn new_game(
    args: &Args,
    stats: &Stats,
    client: &reqwest::Client,
    ws_urls: &[String],
    tokens: &[String],
    sockets: &mut HashMap<String, Socket>,
    offset: usize,
) -> anyhow::Result<(String, Vec<Player>)> {
    let bases = if args.sockets.is_empty() { std::slice::from_ref(&args.url) } else { &args.sockets[..] };
    let game = start_game_on(args, &bases[offset % bases.len()], client, tokens, false).await?;
    let mut players = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let mut ws = match sockets.remove(token) {
            Some(ws) => ws,
            None => connect(&ws_urls[(i + offset) % ws_urls.len()], Some(token)).await?,
        };
        ws.send_text(&json!({"type": "subscribe", "game": game}).to_string()).await?;
        let mut view = View { seat: 0, version: 0, to_act: 0, legal: String::new(), over: false };
        let (snapshot, _) = recv(&mut ws, stats, &game).await?;
        if snapshot.kind != "snapshot" {
            bail!("expected a snapshot, got a {}", snapshot.kind);
        }
        view.seat = snapshot.seat.unwrap_or(0);
        view.absorb(snapshot);
        players.push(Player { ws, view });
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
/// turns to host. Each keeps one socket from game to game, as the web client keeps one per page:
/// it leaves a finished game (`unsubscribe`) and subscribes to the next one on the same socket.
/// The server limits what one account may do (lobbies started, messages per second) to what a
/// person does; when a short saturation run with few games goes faster than that, the slot takes
/// in more players (a new game, with the larger circle taking turns), and the report counts it.
pub async fn slot(args: Arc<Args>, stats: Arc<Stats>, deadline: Instant, seed: u64) -> anyhow::Result<()> {
    let client = reqwest::Client::new();
    let bases = if args.sockets.is_empty() { std::slice::from_ref(&args.url) } else { &args.sockets[..] };
    let ws_urls: Vec<String> = bases.iter().map(|u| format!("{}/ws", u.replacen("http", "ws", 1))).collect();
    let mut rng = GameRng::from_u64(seed);
    let mut first = true;
    let mut games = seed as usize;
    let base = &bases[games % bases.len()];
    let mut circle = guests(base, &client, args.players).await?;
    let mut sockets: HashMap<String, Socket> = HashMap::new();
    let mut host = 0;
    while Instant::now() < deadline {
        games += 1;
        let tokens: Vec<String> = (0..args.players).map(|i| circle[(host + i) % circle.len()].clone()).collect();
        host = (host + 1) % circle.len();
        let played = async {
            let (game, players) = new_game(&args, &stats, &client, &ws_urls, &tokens, &mut sockets, games).await?;
            if first {
                first = false;
                stats.slot_ready();
                // Spread the first actions of the realistic shape over one think time.
                tokio::time::sleep(think(&mut rng, args.think_ms)).await;
            }
            let players = play(&args, &stats, &mut rng, deadline, &game, players).await?;
            // Leave the game; the sockets serve the next one.
            for (token, mut p) in tokens.iter().zip(players) {
                p.ws.send_text(&json!({"type": "unsubscribe", "game": game}).to_string()).await?;
                sockets.insert(token.clone(), p.ws);
            }
            anyhow::Ok(())
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
    for (_, mut ws) in sockets {
        ws.close().await;
    }
    Ok(())
}

/// Plays `game` until it ends or `deadline`; the players come back for the next game.
async fn play(
    args: &Args,
    stats: &Stats,
    rng: &mut GameRng,
    deadline: Instant,
    game: &str,
    mut players: Vec<Player>,
) -> anyhow::Result<Vec<Player>> {
    let mut sizes = Vec::with_capacity(players.len());
    while Instant::now() < deadline {
        let movers: Vec<usize> = (0..players.len()).filter(|i| players[*i].view.to_move()).collect();
        let Some(&mover) = rng.choose(&movers) else { break };
        let action = players[mover].view.choose(rng)?;
        let version = players[mover].view.version;
        let msg = format!(r#"{{"type":"action","game":"{game}","version":{version},"action":{action},"req":1}}"#);
        let sent = Instant::now();
        players[mover].ws.send_text(&msg).await?;
        let us = |t: Instant| t.duration_since(sent).as_micros() as u64;
        // The mover first: its patch and then its ack, timed as they arrive.
        let (mut own_patch, mut ack) = (None, None);
        let p = &mut players[mover];
        while ack.is_none() {
            let (msg, size) = recv(&mut p.ws, stats, game).await?;
            match msg.kind {
                "ack" => ack = Some(Instant::now()),
                "patch" if msg.version.is_some_and(|v| v > version) => {
                    own_patch = Some(Instant::now());
                    sizes.push((size as u64, msg.patch_len as u64));
                    p.view.absorb(msg);
                }
                _ => p.view.absorb(msg),
            }
        }
        let own_patch = own_patch.context("an ack came before the mover's patch")?;
        let mut last = own_patch;
        for (i, p) in players.iter_mut().enumerate() {
            if i == mover {
                continue;
            }
            loop {
                let (msg, size) = recv(&mut p.ws, stats, game).await?;
                let done = msg.kind == "patch" && msg.version.is_some_and(|v| v > version);
                let patch_len = msg.patch_len as u64;
                p.view.absorb(msg);
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
    if players.iter().all(|p| p.view.over) {
        stats.games_finished.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
    Ok(players)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PATCH: &str = r#"{"type":"patch","game":"g","version":7,"seat":3,"patch":[{"op":"replace","path":"/deck_count","value":84}],"events":[{"data":{"type":"picked","seat":3},"text":"a \"quoted\" name","private":false}],"to_act":[0,3],"legal_actions":[{"type":"keep","card":72},{"type":"keep","card":36}],"seed":null,"outcome":null}"#;

    #[test]
    fn a_patch_frame_is_read_without_building_what_the_generator_does_not_use() {
        let msg = scan::read(PATCH).expect("a patch frame");
        assert_eq!((msg.kind, msg.version, msg.seat), ("patch", Some(7), Some(3)));
        assert_eq!(msg.to_act, Some(0b1001), "seats 0 and 3");
        assert_eq!(msg.patch_len, r#"[{"op":"replace","path":"/deck_count","value":84}]"#.len());
        assert!(!msg.outcome, "a null outcome is no outcome");
        let legal = msg.legal_actions.expect("legal actions");
        assert_eq!(legal, r#"[{"type":"keep","card":72},{"type":"keep","card":36}]"#);
        let mut rng = GameRng::from_u64(1);
        let chosen: Vec<String> = (0..32).map(|_| choose_legal(legal, &mut rng).expect("an action")).collect();
        for action in [r#"{"type":"keep","card":72}"#, r#"{"type":"keep","card":36}"#] {
            assert!(chosen.iter().any(|c| c == action), "{action} is chosen sometimes");
        }
        assert!(chosen.iter().all(|c| c.contains(r#""type":"keep""#)));
        assert!(choose_legal("[]", &mut rng).is_err(), "no legal action to choose");

        let over = PATCH
            .replace(r#""outcome":null"#, r#""outcome":{"winners":[1]}"#)
            .replace(r#""to_act":[0,3]"#, r#""to_act":[]"#);
        let msg = scan::read(&over).expect("a final patch");
        assert!(msg.outcome);
        assert_eq!(msg.to_act, Some(0));
        let ack = scan::read(r#"{"type":"ack","req":1,"game":"g","version":8}"#).expect("an ack");
        assert_eq!((ack.kind, ack.to_act, ack.patch_len), ("ack", None, 0));
        assert!(scan::read(&PATCH.replace("[0,3]", "[64]")).is_err(), "seat 64 does not fit");
    }
}
