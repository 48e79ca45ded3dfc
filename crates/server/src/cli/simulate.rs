//! `chapterhouse simulate`: plays complete games with random bots and prints throughput and scores.

use crate::catalog::Catalog;
use crate::cli::find_game;
use crate::cli::outln;
use anyhow::{bail, Context};
use game_core::bot::RandomBot;
use game_core::{GameLog, GameRng, SeatNames, Seed};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Options of `chapterhouse simulate`.
#[derive(Debug, clap::Args)]
pub struct SimulateArgs {
    /// The game id (see `chapterhouse games`).
    #[arg(long)]
    pub game: String,
    /// Number of players.
    #[arg(long)]
    pub players: usize,
    /// Number of complete games to play.
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Seed of the first game; game n uses seed + n. Random if omitted.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Game options as a JSON object (defaults if omitted).
    #[arg(long, default_value = "{}")]
    pub options: String,
    /// Write each game's log as `<dir>/<game>-<n>.json`.
    #[arg(long)]
    pub save_logs: Option<PathBuf>,
    /// Give up on a game after this many actions.
    #[arg(long, default_value_t = 100_000)]
    pub max_actions: usize,
}

/// What a simulation measured.
#[derive(Debug, Clone, PartialEq)]
pub struct SimulationReport {
    /// Games completed.
    pub games: u64,
    /// Actions applied in all.
    pub actions: u64,
    /// Lowest, mean and highest score over all seats of all games.
    pub scores: (i64, f64, i64),
    /// Wins per seat (a shared win counts for each winner).
    pub wins: Vec<u64>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// Plays the games and returns the figures.
///
/// # Errors
/// Unknown game, bad player count or options, a game that does not end within `max_actions`,
/// or a log that cannot be written.
pub fn simulate(args: &SimulateArgs) -> anyhow::Result<SimulationReport> {
    let catalog = Catalog::standard();
    let descriptor = find_game(&catalog, &args.game)?;
    let options: serde_json::Value = serde_json::from_str(&args.options).context("--options is not valid JSON")?;
    let options = descriptor.normalize_options(&options)?;
    let first: u64 = args.seed.unwrap_or_else(|| {
        let random = Seed::random().0;
        u64::from_le_bytes([random[0], random[1], random[2], random[3], random[4], random[5], random[6], random[7]])
    });
    if let Some(dir) = &args.save_logs {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let names = SeatNames::generic(args.players);
    let mut report = SimulationReport {
        games: 0,
        actions: 0,
        scores: (i64::MAX, 0.0, i64::MIN),
        wins: vec![0; args.players],
        seconds: 0.0,
    };
    let mut score_sum = 0i64;
    let mut score_count = 0i64;
    let started = Instant::now();
    for n in 0..args.games {
        let seed = Seed::from_u64(first.wrapping_add(n));
        let mut game = descriptor.create(args.players, &options, seed)?;
        let mut log = args.save_logs.as_ref().map(|_| {
            GameLog::start(format!("sim-{n}"), descriptor, options.clone(), names.0.clone(), &seed, game.as_ref())
        });
        let mut bot = RandomBot::new(GameRng::from_u64(first.wrapping_add(n) ^ 0xb07));
        let mut steps = 0usize;
        while game.outcome().is_none() {
            if steps >= args.max_actions {
                bail!("game {n} (seed {}) did not end within {} actions", seed.to_hex(), args.max_actions);
            }
            let to_act = game.to_act();
            let Some(seat) = bot.pick_seat(&to_act) else { bail!("game {n} waits for nobody but is not over") };
            let Some(action) = bot.choose_dyn(game.as_ref(), seat) else {
                bail!("game {n}: {seat} is waited for but has no legal action")
            };
            game.apply(seat, &action, &names).map_err(|e| anyhow::anyhow!("game {n}: legal action rejected: {e}"))?;
            if let Some(log) = log.as_mut() {
                log.record(seat, action, game.state_hash());
            }
            steps += 1;
        }
        let outcome = game.outcome();
        if let Some(o) = &outcome {
            for s in &o.scores {
                report.scores.0 = report.scores.0.min(*s);
                report.scores.2 = report.scores.2.max(*s);
                score_sum += s;
                score_count += 1;
            }
            for w in &o.winners {
                if let Some(c) = report.wins.get_mut(w.index()) {
                    *c += 1;
                }
            }
        }
        if let (Some(dir), Some(mut log)) = (&args.save_logs, log) {
            log.reveal(seed, outcome);
            let path = dir.join(format!("{}-{n}.json", args.game));
            let json = serde_json::to_vec_pretty(&log)?;
            std::fs::write(&path, json).with_context(|| format!("cannot write {}", path.display()))?;
        }
        report.games += 1;
        report.actions += steps as u64;
    }
    report.seconds = started.elapsed().as_secs_f64();
    if score_count > 0 {
        report.scores.1 = score_sum as f64 / score_count as f64;
    }
    Ok(report)
}

/// Runs `chapterhouse simulate` and prints its figures.
///
/// # Errors
/// As [`simulate`].
pub fn run(args: SimulateArgs) -> anyhow::Result<ExitCode> {
    let r = simulate(&args)?;
    let per_sec = r.games as f64 / r.seconds.max(1e-9);
    outln!("game:              {} ({} players)", args.game, args.players);
    outln!("games:             {}", r.games);
    outln!("time:              {:.3} s", r.seconds);
    outln!("games per second:  {per_sec:.1}");
    outln!("actions per second: {:.0}", r.actions as f64 / r.seconds.max(1e-9));
    outln!("actions per game:  {:.1}", r.actions as f64 / r.games.max(1) as f64);
    outln!("scores:            min {} / mean {:.2} / max {}", r.scores.0, r.scores.1, r.scores.2);
    let wins: Vec<String> = r.wins.iter().enumerate().map(|(i, w)| format!("P{i} {w}")).collect();
    outln!("wins by seat:      {}", wins.join(", "));
    if let Some(dir) = &args.save_logs {
        outln!("logs written to:   {}", dir.display());
    }
    Ok(ExitCode::SUCCESS)
}
