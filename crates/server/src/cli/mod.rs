//! The offline subcommands of `chapterhouse`: simulate, verify, engine, games, ratings.

pub mod engine;
pub mod fuzz;
pub mod ratings;
pub mod simulate;
pub mod verify;

use crate::catalog::Catalog;
use anyhow::anyhow;
use game_core::GameDescriptor;
use std::process::ExitCode;

/// Looks up `id` in the catalog, with an error that lists the known games.
///
/// # Errors
/// When no game has that id.
pub fn find_game<'a>(catalog: &'a Catalog, id: &str) -> anyhow::Result<&'a dyn GameDescriptor> {
    catalog.get(id).ok_or_else(|| anyhow!("unknown game {id:?}; the games are: {}", catalog.ids().join(", ")))
}

/// `chapterhouse games`: prints the catalog.
///
/// # Errors
/// Never, in practice (writing to stdout).
pub fn list_games() -> anyhow::Result<ExitCode> {
    for info in Catalog::standard().infos() {
        println!("{:<24} {} ({}–{} players)", info.id, info.name, info.min_players, info.max_players);
        for option in info.options {
            println!("    option {}: {}", option.key, option.help);
        }
    }
    Ok(ExitCode::SUCCESS)
}
