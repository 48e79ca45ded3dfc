//! The `chapterhouse` command: the server and its offline tools.

use clap::{Parser, Subcommand};
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
    /// List the games of the catalog.
    Games,
}

fn main() -> ExitCode {
    // No subcommand means `serve` with its defaults.
    let command = match Cli::parse().command {
        Some(command) => command,
        None => match Cli::parse_from(["chapterhouse", "serve"]).command {
            Some(command) => command,
            None => return ExitCode::FAILURE,
        },
    };
    let result = match command {
        Command::Serve(args) => chapterhouse::serve::run(args),
        Command::Simulate(args) => chapterhouse::cli::simulate::run(args),
        Command::Verify(args) => chapterhouse::cli::verify::run(args),
        Command::Engine(args) => chapterhouse::cli::engine::run(args),
        Command::Games => chapterhouse::cli::list_games(),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
