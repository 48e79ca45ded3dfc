//! `chapterhouse ratings rebuild`: recomputes every rating from the finished games in the store,
//! in the order they finished, with the code that rates a game when it ends (so the numbers are
//! the same; see [`crate::ratings`]).

use crate::store::Store;
use anyhow::Context;
use std::process::ExitCode;

/// Options of `chapterhouse ratings`.
#[derive(Debug, clap::Args)]
pub struct RatingsArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: RatingsCommand,
}

/// The `ratings` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum RatingsCommand {
    /// Recompute all ratings from the stored finished games (one commit: all or nothing).
    Rebuild {
        /// `postgres://...` or `sqlite:<file>`, as for `serve`.
        #[arg(long, env = "DATABASE_URL", default_value = "sqlite://chapterhouse.db")]
        database_url: String,
    },
}

/// Runs a `ratings` subcommand.
///
/// # Errors
/// When the store cannot be opened or the rebuild fails (nothing changes then).
pub fn run(args: RatingsArgs) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        match args.command {
            RatingsCommand::Rebuild { database_url } => {
                let store = Store::open(&database_url).await.context("cannot open the store")?;
                let games = store.rebuild_ratings().await.context("the rebuild failed; nothing was changed")?;
                println!("ratings rebuilt from {games} finished games");
                store.close().await;
                Ok(ExitCode::SUCCESS)
            }
        }
    })
}
