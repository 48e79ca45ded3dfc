//! `loadgen`: plays many games at once through a real Chapterhouse server, every player on its
//! own WebSocket, choosing random legal actions, and reports accepted actions per second, the
//! time from sending an action to the arrival of the last patch of that version at the game's
//! subscribers, the mover's ack separately, patch sizes, and its own CPU per action.
//!
//! Shapes:
//! - saturation (the default, `--think-ms 0`): each game sends its next action as soon as the
//!   last one is answered;
//! - realistic tables (`--think-ms 2000`): each game acts on average once every 2 s, at random
//!   moments, so the latency is what a player feels at that many live games;
//! - idle capacity (`--idle 10000 --server-pid <pid>`): sockets that only listen, and the
//!   server's memory per socket.
//!
//! ```text
//! cargo run --release -p loadgen -- --url http://127.0.0.1:8080 --games 200 --seconds 30
//! cargo run --release -p loadgen -- --games 1000 --players 4 --think-ms 2000 --seconds 60
//! cargo run --release -p loadgen -- --idle 10000 --server-pid "$(pgrep -n chapterhouse)"
//! ```

mod game;
mod idle;
mod scan;
mod stats;
mod ws;

use clap::Parser;
use stats::{cpu_times, Stats};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// mimalloc, as in the server: the generator allocates a little for every message it reads, and
/// glibc's malloc and free were a tenth of its CPU.
#[global_allocator]
static ALLOCATOR: chapterhouse_alloc::MiMalloc = chapterhouse_alloc::MiMalloc;

/// Drive many games at once and measure the server.
#[derive(Debug, Parser)]
pub struct Args {
    /// The server's base URL.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: String,
    /// Games played at the same time (each game slot starts a new game when one ends).
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// Players per game (people on sockets; no bots).
    #[arg(long, default_value_t = 3)]
    players: usize,
    /// How long to measure, in seconds (in the idle shape: how long to hold the sockets open).
    #[arg(long, default_value_t = 30)]
    seconds: u64,
    /// The catalog id of the game to play.
    #[arg(long, default_value = "knights-templar")]
    game: String,
    /// Mean pause of a game between two actions, in milliseconds (0: act as soon as answered).
    #[arg(long, default_value_t = 0)]
    think_ms: u64,
    /// Open this many idle sockets instead of playing (the idle-capacity shape).
    #[arg(long, default_value_t = 0)]
    idle: usize,
    /// The server's process id (on this machine), to read its memory (idle shape) or its CPU time
    /// per action, in user space and in the kernel (the other shapes).
    #[arg(long)]
    server_pid: Option<u32>,
    /// Base URLs of cluster nodes: game g is started through the g-th (which then owns it) and
    /// its player i's socket is on the (g + i)-th, so that players of one game sit on different
    /// nodes and actions cross nodes. Default: `--url` alone.
    #[arg(long, value_delimiter = ',')]
    sockets: Vec<String>,
    /// Print the first this many patch frames received (to see what the bytes are spent on).
    #[arg(long, default_value_t = 0)]
    show_frames: u64,
    /// Runtime threads. One (the default) is the cheapest per action: the generator then costs
    /// the shared machine as little CPU as it can, and no wake-up crosses threads. More spread
    /// it over cores when one core cannot keep up.
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let mut runtime = if args.threads <= 1 {
        tokio::runtime::Builder::new_current_thread()
    } else {
        let mut builder = tokio::runtime::Builder::new_multi_thread();
        builder.worker_threads(args.threads);
        builder
    };
    runtime.enable_all().build()?.block_on(run(Arc::new(args)))
}

async fn run(args: Arc<Args>) -> anyhow::Result<()> {
    if args.idle > 0 {
        return idle::run(&args).await;
    }
    let stats = Arc::new(Stats { show_frames: args.show_frames, slots: args.games as u64, ..Stats::default() });
    let started = Instant::now();
    let server = args.server_pid.map(|p| p.to_string());
    let cpu_before = cpu_times("self");
    let server_before = server.as_deref().map(cpu_times);
    let deadline = started + Duration::from_secs(args.seconds);
    let mut slots = Vec::new();
    for i in 0..args.games {
        slots.push(tokio::spawn(game::slot(args.clone(), stats.clone(), deadline, i as u64 + 1)));
    }
    let mut failures = 0;
    for s in slots {
        if let Ok(Err(e)) | Err(e) = s.await.map_err(anyhow::Error::from) {
            failures += 1;
            eprintln!("slot failed: {e:#}");
        }
    }
    println!("games at once:        {}", args.games);
    println!("players per game:     {}", args.players);
    println!("think time:           {} ms mean between a game's actions", args.think_ms);
    let server_cpu = server.as_deref().zip(server_before).map(|(pid, before)| cpu_times(pid).since(before));
    stats.report(started, cpu_times("self").since(cpu_before), server_cpu);
    println!("failed game slots:    {failures}");
    if failures > 0 {
        anyhow::bail!("{failures} game slots failed");
    }
    Ok(())
}
