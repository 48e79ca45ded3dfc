//! `chapterhouse verify`: replays a game log and checks the seed commitment and every state hash.

use crate::catalog::Catalog;
use crate::cli::find_game;
use crate::cli::outln;
use anyhow::Context;
use game_core::{GameLog, ReplayError, ReplayReport};
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `chapterhouse verify`.
#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// The log file (JSON, as written by `simulate --save-logs` or downloaded from the server).
    pub log: PathBuf,
}

/// Reads and verifies a log file.
///
/// # Errors
/// The outer error when the file cannot be read or parsed or names an unknown game; the inner
/// result is the verification itself.
pub fn verify_file(path: &std::path::Path) -> anyhow::Result<(GameLog, Result<ReplayReport, ReplayError>)> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let log: GameLog =
        serde_json::from_slice(&bytes).with_context(|| format!("{} is not a Chapterhouse game log", path.display()))?;
    let catalog = Catalog::standard();
    let descriptor = find_game(&catalog, &log.game)?;
    let result = log.replay(descriptor);
    Ok((log, result))
}

/// Runs `chapterhouse verify`: exit 0 when the log verifies, 1 (with the first failing action) when not.
///
/// # Errors
/// When the file cannot be read or is not a log.
pub fn run(args: VerifyArgs) -> anyhow::Result<ExitCode> {
    let (log, result) = verify_file(&args.log)?;
    match result {
        Ok(report) => {
            outln!(
                "OK: {} game {:?}, {} actions, seed matches its commitment, every state hash matches",
                log.game,
                log.game_id,
                report.actions
            );
            if let Some(o) = report.outcome {
                outln!(
                    "result: scores {:?}, winners {:?}",
                    o.scores,
                    o.winners.iter().map(|s| s.0).collect::<Vec<_>>()
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            match e.failing_seq().and_then(|seq| log.actions.get((seq as usize).saturating_sub(1))) {
                Some(entry) => {
                    outln!("FAILED at action seq {} (seat {}, action {}): {e}", entry.seq, entry.seat.0, entry.action)
                }
                None => outln!("FAILED: {e}"),
            }
            Ok(ExitCode::from(1))
        }
    }
}
