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

/// `println!` for the offline commands, minus its panic: a reader that has gone away (`chapterhouse
/// verify log.json | head -1`) is not an error, so a closed pipe ends the output quietly while the
/// exit code still reports the command's own result. Other write errors are returned.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::cli::write_line(format_args!($($arg)*))?
    };
}
pub(crate) use outln;

/// Writes one line to stdout; see [`outln`].
///
/// # Errors
/// A write error other than a closed pipe.
pub(crate) fn write_line(line: std::fmt::Arguments<'_>) -> std::io::Result<()> {
    use std::io::Write;
    match writeln!(std::io::stdout().lock(), "{line}") {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

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
/// When stdout fails for another reason than a closed pipe.
pub fn list_games() -> anyhow::Result<ExitCode> {
    for info in Catalog::standard().infos() {
        outln!("{:<24} {} ({}–{} players)", info.id, info.name, info.min_players, info.max_players);
        for option in info.options {
            outln!("    option {}: {}", option.key, option.help);
        }
    }
    Ok(ExitCode::SUCCESS)
}
