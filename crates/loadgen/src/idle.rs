//! The idle-capacity shape: many open sockets that only listen, each subscribed to a public
//! lobby or a public game, and the server's resident memory per socket.

use crate::game::{connect, post, start_game, Socket};
use crate::stats::rss_kib;
use crate::Args;
use anyhow::{bail, Context};
use serde_json::json;
use std::time::Duration;

/// Games and lobbies the idle sockets are spread over.
const TARGETS: usize = 20;

/// Opens `args.idle` anonymous sockets, half following a public lobby and half watching a public
/// game, measures the server's RSS before and after (`--server-pid`), and holds them open for
/// `args.seconds` to show they stay open.
pub async fn run(args: &Args) -> anyhow::Result<()> {
    let client = reqwest::Client::new();
    let ws_url = format!("{}/ws", args.url.replacen("http", "ws", 1));
    let mut lobbies = Vec::new();
    let mut games = Vec::new();
    for _ in 0..TARGETS / 2 {
        let host = post(&client, format!("{}/api/guest", args.url), None, json!({"name": "idle-host"})).await?;
        let token = host["token"].as_str().context("token")?;
        let body = json!({"game": args.game, "public": true});
        let lobby = post(&client, format!("{}/api/lobbies", args.url), Some(token), body).await?;
        lobbies.push(lobby["lobby"]["id"].as_str().context("lobby id")?.to_string());
        games.push(start_game(args, &client, args.players, true).await?.0);
    }
    let server = args.server_pid.map(|p| p.to_string());
    let before = server.as_deref().map(rss_kib).unwrap_or(0);
    let mut sockets: Vec<Socket> = Vec::with_capacity(args.idle);
    for i in 0..args.idle {
        let mut ws = connect(&ws_url, None).await.with_context(|| format!("socket {i}"))?;
        let msg = if i % 2 == 0 {
            json!({"type": "subscribe_lobby", "lobby": lobbies[(i / 2) % lobbies.len()]})
        } else {
            json!({"type": "subscribe", "game": games[(i / 2) % games.len()]})
        };
        ws.send_text(&msg.to_string()).await?;
        let first = ws.recv_string().await?;
        if !(first.contains(r#""type":"lobby""#) || first.contains(r#""type":"snapshot""#)) {
            bail!("socket {i}: expected a lobby or a snapshot, got {first}");
        }
        sockets.push(ws);
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let after = server.as_deref().map(rss_kib).unwrap_or(0);
    println!(
        "idle sockets:         {} (half on {} public lobbies, half on {} public games)",
        sockets.len(),
        lobbies.len(),
        games.len()
    );
    if server.is_some() {
        let per = (after.saturating_sub(before) as f64 * 1024.0) / sockets.len().max(1) as f64;
        println!(
            "server rss:           {before} KiB before, {after} KiB with the sockets open: {per:.0} bytes per socket"
        );
    } else {
        println!("server rss:           not measured (give --server-pid)");
    }
    tokio::time::sleep(Duration::from_secs(args.seconds)).await;
    let mut open = 0;
    for ws in &mut sockets {
        if ws.ping().await.is_ok() {
            open += 1;
        }
    }
    println!("still open after {} s: {open}", args.seconds);
    if let Some(server) = server.as_deref() {
        // Memory the server used while accepting (HTTP upgrade buffers) is given back over
        // time: the resident size after holding the sockets is the figure per idle socket.
        let held = rss_kib(server);
        let per = (held.saturating_sub(before) as f64 * 1024.0) / sockets.len().max(1) as f64;
        println!("server rss held:      {held} KiB after {} s: {per:.0} bytes per idle socket", args.seconds);
    }
    Ok(())
}
