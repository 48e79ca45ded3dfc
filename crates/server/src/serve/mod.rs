//! `chapterhouse serve`: configuration, start-up (store, migrations, recovery), and a graceful
//! shutdown that stops taking actions, lets every pending write finish, and closes sockets with
//! a close frame.

use crate::accounts::Passwords;
use crate::catalog::Catalog;
use crate::cluster::Node;
use crate::http::app;
use crate::limits::{Limits, LimitsConfig};
use crate::lobby::registry::Lobbies;
use crate::replays::Replays;
use crate::state::AppState;
use crate::store::writer::Writer;
use crate::store::Store;
use crate::table::{TableConfig, Tables};
use anyhow::Context;
use axum::serve::ListenerExt;
use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// Options of `chapterhouse serve`.
#[derive(Clone, Debug, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "CHAPTERHOUSE_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,
    /// `postgres://...` for PostgreSQL, or `sqlite:<file>` (a missing file is created).
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite://chapterhouse.db")]
    pub database_url: String,
    /// Directory of the static web client, served at `/`.
    #[arg(long, env = "CHAPTERHOUSE_WEB_DIR", default_value = "web")]
    pub web_dir: PathBuf,
    /// Log filter, e.g. `info` or `chapterhouse=debug,tower_http=info`.
    #[arg(long = "log", env = "RUST_LOG", default_value = "info")]
    pub log: String,
    /// How long a bot waits before it moves, in milliseconds.
    #[arg(long, env = "CHAPTERHOUSE_BOT_DELAY_MS", default_value_t = 400)]
    pub bot_delay_ms: u64,
    /// How long one second of a turn limit lasts, in milliseconds (1000; tests and demos shorten
    /// it so that a 10-second limit, the shortest a lobby may set, runs out quickly).
    #[arg(long, env = "CHAPTERHOUSE_TURN_SECOND_MS", default_value_t = 1000, hide = true)]
    pub turn_second_ms: u64,
    /// How many messages may wait for one socket; a client further behind is disconnected.
    #[arg(long, env = "CHAPTERHOUSE_SOCKET_QUEUE", default_value_t = crate::outbox::DEFAULT_CAPACITY)]
    pub socket_queue: usize,
    /// The kernel's send buffer for each accepted socket, in bytes (unset: the kernel sizes it,
    /// up to `net.ipv4.tcp_wmem`'s maximum, 4 MiB by default). A client that stops reading holds
    /// this much of the kernel's memory before its messages queue up in the server and it is cut
    /// off (`--socket-queue`): a smaller buffer bounds that memory and cuts such a client off
    /// sooner, and a buffer smaller than one burst of patches slows ordinary clients.
    #[arg(long, env = "CHAPTERHOUSE_SOCKET_SEND_BUFFER")]
    pub socket_send_buffer: Option<usize>,
    /// Take the client's address from the last `X-Forwarded-For` entry (set this only behind a
    /// reverse proxy that writes that header, or clients can pick their own address).
    #[arg(long, env = "CHAPTERHOUSE_TRUST_FORWARDED_FOR")]
    pub trust_forwarded_for: bool,
    /// Turn off the rate limits and per-address caps: only for a load test on a private machine,
    /// where every simulated player comes from one address.
    #[arg(long, env = "CHAPTERHOUSE_NO_LIMITS")]
    pub no_limits: bool,
    /// Run as one node of a cluster joined by the NATS server at this URL (`nats://host:4222`);
    /// needs a PostgreSQL `--database-url` shared by every node (see docs/scaling.md).
    #[arg(long, env = "CHAPTERHOUSE_NATS_URL")]
    pub nats_url: Option<String>,
}

/// What a server needs besides its listener.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// The store's URL.
    pub database_url: String,
    /// The web client's directory.
    pub web_dir: PathBuf,
    /// Table tunables.
    pub tables: TableConfig,
    /// How many messages may wait for one socket before it is closed as fallen behind.
    pub socket_queue: usize,
    /// The kernel's send buffer for each accepted socket (`None`: the kernel's own sizing).
    pub socket_send_buffer: Option<usize>,
    /// The games to host (the standard catalog; tests add games of their own).
    pub catalog: Arc<Catalog>,
    /// Rate limits and caps.
    pub limits: LimitsConfig,
    /// Whether `X-Forwarded-For` names the client.
    pub trust_forwarded_for: bool,
    /// Cluster mode: the NATS server joining the nodes (`None`: one node on its own).
    pub nats_url: Option<String>,
}

impl From<&ServeArgs> for ServerConfig {
    fn from(args: &ServeArgs) -> Self {
        ServerConfig {
            database_url: args.database_url.clone(),
            web_dir: args.web_dir.clone(),
            tables: TableConfig {
                bot_delay: Duration::from_millis(args.bot_delay_ms),
                turn_second: Duration::from_millis(args.turn_second_ms.max(1)),
                ..TableConfig::default()
            },
            socket_queue: args.socket_queue,
            socket_send_buffer: args.socket_send_buffer,
            catalog: Arc::new(Catalog::standard()),
            limits: if args.no_limits { LimitsConfig::unlimited() } else { LimitsConfig::default() },
            trust_forwarded_for: args.trust_forwarded_for,
            nats_url: args.nats_url.clone(),
        }
    }
}

/// Runs the server until SIGINT or SIGTERM.
///
/// # Errors
/// When the store cannot be opened or migrated, or the address cannot be bound.
pub fn run(args: ServeArgs) -> anyhow::Result<std::process::ExitCode> {
    let filter = tracing_subscriber::EnvFilter::try_new(&args.log).context("invalid --log filter")?;
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        let listener = TcpListener::bind(args.bind).await.with_context(|| format!("cannot listen on {}", args.bind))?;
        serve(listener, ServerConfig::from(&args), stop_signal()).await
    })?;
    Ok(std::process::ExitCode::SUCCESS)
}

/// Resolves on SIGINT or SIGTERM.
async fn stop_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(term) => term,
            Err(_) => {
                let _ = interrupt.await;
                return;
            }
        };
        tokio::select! {
            _ = interrupt => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = interrupt.await;
    }
}

/// Opens the store at `config.database_url`, runs migrations, restores unfinished games, then
/// serves on `listener` until `shutdown` resolves, and shuts down gracefully.
///
/// # Errors
/// When the store cannot be opened, migrated or read for recovery, or serving fails.
pub async fn serve(
    listener: TcpListener,
    config: ServerConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    crate::metrics::install();
    let store = Store::open(&config.database_url).await.context("cannot open the store")?;
    tracing::info!(backend = ?store.backend(), "store ready");
    let cluster = match &config.nats_url {
        Some(url) => Some(Node::connect(url, store.clone()).await?),
        None => None,
    };
    let (writer, writer_task) = Writer::spawn_fenced(store.clone(), cluster.as_ref().map(|c| c.leases()));
    let catalog = config.catalog.clone();
    let stopping = CancellationToken::new();
    let tables = Arc::new(Tables::new(store.clone(), catalog.clone(), writer, stopping.clone(), config.tables));
    if let Some(cluster) = &cluster {
        // Unfinished games are not all this node's: each node's lease keeper takes its share of
        // the games nobody holds.
        tables.join_cluster(Arc::clone(cluster));
    } else {
        let (restored, broken) = tables.recover().await.context("cannot restore unfinished games")?;
        tracing::info!(restored, broken, "unfinished games restored");
    }
    let state = AppState {
        lobbies: Arc::new(Lobbies::new(store.clone(), catalog.clone(), tables.clone())),
        store: store.clone(),
        catalog,
        tables: tables.clone(),
        shutdown: stopping.clone(),
        sockets_closing: CancellationToken::new(),
        sockets: TaskTracker::new(),
        next_conn: Arc::new(AtomicU64::new(1)),
        sessions: Arc::default(),
        socket_queue: config.socket_queue,
        web_dir: config.web_dir,
        limits: Arc::new(Limits::new(config.limits)),
        passwords: Arc::new(Passwords::for_this_machine()),
        replays: Arc::new(Replays::for_this_machine()),
        trust_forwarded_for: config.trust_forwarded_for,
        chat: Arc::default(),
    };
    let cluster_stop = CancellationToken::new();
    if let Some(cluster) = &cluster {
        cluster.start(state.clone(), cluster_stop.clone()).await.context("cannot join the cluster")?;
    }
    let addr = listener.local_addr()?;
    tracing::info!(%addr, "listening");

    let accept_stop = stopping.clone();
    let router = app(state.clone()).into_make_service_with_connect_info::<SocketAddr>();
    // Without TCP_NODELAY a small frame (an ack right after a patch) waits for the client's
    // delayed ACK, tens of milliseconds (Nagle's algorithm): every accepted socket sends at once.
    let send_buffer = config.socket_send_buffer;
    let listener = listener.tap_io(move |tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::warn!(error = %e, "cannot set TCP_NODELAY on an accepted socket");
        }
        if let Some(bytes) = send_buffer {
            if let Err(e) = socket2::SockRef::from(&*tcp).set_send_buffer_size(bytes) {
                tracing::warn!(error = %e, bytes, "cannot set SO_SNDBUF on an accepted socket");
            }
        }
    });
    let http = tokio::spawn(async move {
        axum::serve(listener, router).with_graceful_shutdown(async move { accept_stop.cancelled().await }).await
    });
    tokio::spawn(housekeeping(state.clone(), stopping.clone()));
    let signal_stop = stopping.clone();
    tokio::spawn(async move {
        shutdown.await;
        signal_stop.cancel();
    });
    stopping.cancelled().await;

    // 1. No new connections and no new actions; actions being committed finish, and their patches
    //    are queued for their sockets.
    tracing::info!("shutting down: finishing pending actions");
    tables.wait_stopped().await;
    // The cluster's tasks hold the tables (and so the writer): they stop now. The leases renewed
    // last stay valid for the few moments the writer needs to finish.
    cluster_stop.cancel();
    // A table queues each action's ack (or error) on its mover's socket itself, before it
    // stops: every action that was stored and broadcast has its ack queued by now.
    // 2. Sockets send what is queued, then a close frame.
    state.sockets_closing.cancel();
    state.sockets.close();
    if tokio::time::timeout(Duration::from_secs(5), state.sockets.wait()).await.is_err() {
        tracing::warn!("some sockets did not close in time");
    }
    if tokio::time::timeout(Duration::from_secs(5), http).await.is_err() {
        tracing::warn!("some HTTP requests did not finish in time");
    }
    // 3. The writer stops once every table (its only users) is gone; then the pool closes.
    drop(state);
    drop(tables);
    let _ = tokio::time::timeout(Duration::from_secs(5), writer_task).await;
    // Every append is written: the other nodes may take this node's games at once.
    if let Some(cluster) = cluster {
        cluster.leave().await;
    }
    store.close().await;
    tracing::info!("stopped");
    Ok(())
}

/// A lobby nobody follows is dropped from memory once started, or after this long unused.
const LOBBY_IDLE: Duration = Duration::from_secs(600);

/// How often forgotten rate-limit state and expired sessions are purged.
const HOUSEKEEPING_EVERY: Duration = Duration::from_secs(60);

/// Periodic clean-up until shutdown: rate limiters forget idle clients; expired tokens and the
/// guest accounts nobody can use any more are deleted.
async fn housekeeping(state: AppState, stopping: CancellationToken) {
    let mut tick = tokio::time::interval(HOUSEKEEPING_EVERY);
    loop {
        tokio::select! {
            _ = stopping.cancelled() => return,
            _ = tick.tick() => {}
        }
        state.limits.purge();
        state.lobbies.evict(LOBBY_IDLE).await;
        crate::metrics::upkeep();
        match state.store.purge_expired(crate::accounts::TOKEN_IDLE_EXPIRY).await {
            Ok((tokens, guests)) if tokens + guests > 0 => tracing::info!(tokens, guests, "expired sessions purged"),
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "purging expired sessions failed"),
        }
    }
}
