//! The `chapterhouse` command: the server and its offline tools.

use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::process::ExitCode;

/// Chapterhouse: an authoritative server for four crusader-era board games.
#[derive(Debug, Parser)]
#[command(name = "chapterhouse", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the server (the default when no subcommand is given).
    Serve(chapterhouse::serve::ServeArgs),
    /// Play complete games with random bots and print throughput and score figures.
    Simulate(chapterhouse::cli::simulate::SimulateArgs),
    /// Replay a game log and check every state hash.
    Verify(chapterhouse::cli::verify::VerifyArgs),
    /// Drive an engine over JSON lines on stdin/stdout (see docs/engine-protocol.md).
    Engine(chapterhouse::cli::engine::EngineArgs),
    /// Feed an engine and the socket parser random and mutated actions (see docs/reliability.md).
    Fuzz(chapterhouse::cli::fuzz::FuzzArgs),
    /// List the games of the catalog.
    Games,
    /// Ratings: `ratings rebuild` recomputes them all from the stored finished games.
    Ratings(chapterhouse::cli::ratings::RatingsArgs),
}

/// mimalloc instead of the system allocator: under load the server spends a sixth of its time in
/// glibc's malloc and free (docs/performance.md), across many threads that share little. Called
/// through the `chapterhouse-alloc` crate, which skips mimalloc's aligned entry points where it can.
#[global_allocator]
static ALLOCATOR: chapterhouse_alloc::MiMalloc = chapterhouse_alloc::MiMalloc;

fn main() -> ExitCode {
    // Freed memory is reused, not handed back and faulted in again, under steady load.
    chapterhouse_alloc::purge_freed_memory_after(std::time::Duration::from_secs(10));
    // No subcommand means `serve`: `chapterhouse` and `chapterhouse --bind ...` both run the server.
    let mut args: Vec<OsString> = std::env::args_os().collect();
    let starts_with_flag = match args.get(1).map(|a| a.to_string_lossy().into_owned()) {
        None => true,
        Some(a) => a.starts_with('-') && !["-h", "--help", "-V", "--version"].contains(&a.as_str()),
    };
    if starts_with_flag {
        args.insert(1, "serve".into());
    }
    let Some(command) = Cli::parse_from(args).command else { return ExitCode::FAILURE };
    let result = match command {
        Command::Serve(args) => chapterhouse::serve::run(args),
        Command::Simulate(args) => chapterhouse::cli::simulate::run(args),
        Command::Verify(args) => chapterhouse::cli::verify::run(args),
        Command::Engine(args) => chapterhouse::cli::engine::run(args),
        Command::Fuzz(args) => chapterhouse::cli::fuzz::run(args),
        Command::Games => chapterhouse::cli::list_games(),
        Command::Ratings(args) => chapterhouse::cli::ratings::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
