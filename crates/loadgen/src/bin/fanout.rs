//! The transport's floor for a table's shape: what it costs a server process just to take one
//! WebSocket message from a player and send one frame to each of the game's players, each on
//! its own socket, with nothing else (no game, no store, no JSON). The same runtime, WebSocket
//! library and per-socket writer task as the server.
//!
//! `fanout --games 200 --players 4 --seconds 10 --bytes 728` starts itself as the server in a
//! child process, plays "games" in which one player at a time sends a small message and waits
//! until every player of the game has the server's frame, and prints rounds per second and the
//! server process's CPU per round (from `/proc`, Linux only).
//!
//! `../shared/bench/ws-echo` answers on the sender's own socket, all frames in one write: one
//! send per round. A table sends one frame per player, on as many sockets: this measures that.

use anyhow::{bail, Context, Result};
use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

#[derive(Parser, Debug)]
struct Args {
    /// Games played at once.
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// Players (sockets) per game.
    #[arg(long, default_value_t = 4)]
    players: usize,
    /// How long to measure, in seconds.
    #[arg(long, default_value_t = 10)]
    seconds: u64,
    /// Bytes of each frame the server sends (the median patch frame of Knights Templar is ~728).
    #[arg(long, default_value_t = 728)]
    bytes: usize,
    /// Run as the server on this address (the driver starts this itself).
    #[arg(long, hide = true)]
    serve: Option<String>,
}

// The load generator's reading of a process's CPU time from /proc (the rest of it is unused here).
#[allow(dead_code)]
#[path = "../stats.rs"]
mod stats;

type Groups = Arc<Mutex<HashMap<String, Vec<mpsc::UnboundedSender<Arc<str>>>>>>;

fn main() -> Result<()> {
    let args = Args::parse();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    match &args.serve {
        Some(addr) => runtime.block_on(serve(addr.clone(), args.bytes)),
        None => runtime.block_on(drive(&args)),
    }
}

async fn serve(addr: String, bytes: usize) -> Result<()> {
    let listener = TcpListener::bind(&addr).await?;
    let frame: Arc<str> = "x".repeat(bytes).into();
    let groups: Groups = Arc::default();
    loop {
        let (stream, _) = listener.accept().await?;
        stream.set_nodelay(true)?;
        tokio::spawn(connection(stream, groups.clone(), frame.clone()));
    }
}

async fn connection(stream: TcpStream, groups: Groups, frame: Arc<str>) {
    let Ok(ws) = tokio_tungstenite::accept_async(stream).await else { return };
    let (mut sink, mut stream) = ws.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<Arc<str>>();
    // The writer task: what is queued together goes out in one write, as in the server.
    tokio::spawn(async move {
        while let Some(text) = rx.recv().await {
            let mut batch = vec![text];
            while let Ok(more) = rx.try_recv() {
                batch.push(more);
            }
            for text in batch {
                if sink.feed(Message::Text(text.as_ref().into())).await.is_err() {
                    return;
                }
            }
            if sink.flush().await.is_err() {
                return;
            }
        }
    });
    let mut group = None;
    while let Some(Ok(message)) = stream.next().await {
        let Message::Text(text) = message else { continue };
        match group.as_ref() {
            None => {
                let name = text.as_str().to_owned();
                groups.lock().map(|mut g| g.entry(name.clone()).or_default().push(tx.clone())).ok();
                group = Some(name);
            }
            Some(name) => {
                let members = groups.lock().ok().and_then(|g| g.get(name).cloned()).unwrap_or_default();
                for member in members {
                    let _ = member.send(frame.clone());
                }
            }
        }
    }
}

async fn drive(args: &Args) -> Result<()> {
    if args.players == 0 || args.games == 0 {
        bail!("--games and --players must be at least 1");
    }
    let port = TcpListener::bind("127.0.0.1:0").await?.local_addr()?.port();
    let addr = format!("127.0.0.1:{port}");
    let mut child = std::process::Command::new(std::env::current_exe()?)
        .args(["--serve", &addr, "--bytes", &args.bytes.to_string()])
        .spawn()
        .context("starting the server")?;
    let result = drive_against(args, &addr, child.id()).await;
    let _ = child.kill();
    let _ = child.wait();
    result
}

async fn drive_against(args: &Args, addr: &str, server: u32) -> Result<()> {
    let url = format!("ws://{addr}/");
    let started = Instant::now();
    let mut players = Vec::new();
    for game in 0..args.games {
        let mut group = Vec::new();
        for _ in 0..args.players {
            let ws = loop {
                match tokio_tungstenite::connect_async(url.as_str()).await {
                    Ok((ws, _)) => break ws,
                    Err(_) if started.elapsed() < Duration::from_secs(10) => {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                    Err(e) => return Err(e).context("connecting"),
                }
            };
            let (mut sink, stream) = ws.split();
            sink.send(Message::Text(format!("game-{game}").into())).await?;
            group.push((sink, stream));
        }
        players.push(group);
    }
    // Every join is in before the first round.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let cpu0 = stats::cpu_times(&server.to_string()).total();
    let t0 = Instant::now();
    let deadline = t0 + Duration::from_secs(args.seconds);
    let action: String = r#"{"type":"action","game":"0b7c6a1e","version":42,"action":{"pick":17},"req":7}"#.into();
    let mut tasks = Vec::new();
    for mut group in players {
        let action = action.clone();
        tasks.push(tokio::spawn(async move {
            let mut rounds = 0u64;
            let mut latencies = Vec::new();
            let mut mover = 0;
            while Instant::now() < deadline {
                let sent = Instant::now();
                group[mover].0.send(Message::Text(action.as_str().into())).await?;
                for (_, stream) in &mut group {
                    stream.next().await.context("closed")??;
                }
                latencies.push(sent.elapsed().as_micros() as u64);
                rounds += 1;
                mover = (mover + 1) % group.len();
            }
            anyhow::Ok((rounds, latencies))
        }));
    }
    let (mut rounds, mut latencies) = (0u64, Vec::new());
    for task in tasks {
        let (r, l) = task.await??;
        rounds += r;
        latencies.extend(l);
    }
    let elapsed = t0.elapsed().as_secs_f64();
    let cpu = stats::cpu_times(&server.to_string()).total() - cpu0;
    latencies.sort_unstable();
    let pct = |q: f64| {
        latencies.get(((latencies.len().max(1) - 1) as f64 * q) as usize).copied().unwrap_or(0) as f64 / 1000.0
    };
    println!("games at once:        {}", args.games);
    println!("players per game:     {} (one socket each; {} B per frame)", args.players, args.bytes);
    println!("rounds per second:    {:.0}", rounds as f64 / elapsed);
    println!("round trip:           p50 {:.2} ms, p99 {:.2} ms", pct(0.5), pct(0.99));
    println!(
        "server cpu:           {:.0}% of a core, {:.1} us per round (1 message in, {} frames out)",
        100.0 * cpu / elapsed,
        1e6 * cpu / rounds.max(1) as f64,
        args.players
    );
    Ok(())
}
