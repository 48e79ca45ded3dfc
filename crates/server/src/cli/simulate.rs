//! `chapterhouse simulate`: plays complete games with random bots and prints throughput and scores.

use crate::catalog::Catalog;
use crate::cli::find_game;
use crate::cli::outln;
use anyhow::{bail, Context};
use game_core::bot::RandomBot;
use game_core::view_diff::{diff_text, ViewText};
use game_core::{GameLog, GameRng, Seat, SeatNames, Seed, Viewer};
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
    /// Also measure the RFC 6902 patch each seat would receive per action (what a live table
    /// sends: the diff of the seat's view before and after, empty patches included).
    #[arg(long)]
    pub patch_bytes: bool,
}

/// Sizes of the serialised RFC 6902 patches the seats received, one per seat per action.
#[derive(Debug, Clone, PartialEq)]
pub struct PatchBytes {
    /// How many patches were measured (actions × seats).
    pub patches: u64,
    /// Median size in bytes.
    pub median: usize,
    /// 90th percentile.
    pub p90: usize,
    /// 99th percentile.
    pub p99: usize,
    /// Largest.
    pub max: usize,
    /// Mean size in bytes.
    pub mean: f64,
}

impl PatchBytes {
    /// The figures of `sizes` (nearest-rank percentiles, at the ranks `loadgen` reads); `None` if empty.
    pub fn from_sizes(mut sizes: Vec<usize>) -> Option<PatchBytes> {
        if sizes.is_empty() {
            return None;
        }
        sizes.sort_unstable();
        let at = |p: f64| sizes[(((sizes.len() - 1) as f64) * p).round() as usize];
        Some(PatchBytes {
            patches: sizes.len() as u64,
            median: at(0.5),
            p90: at(0.9),
            p99: at(0.99),
            max: at(1.0),
            mean: sizes.iter().sum::<usize>() as f64 / sizes.len() as f64,
        })
    }
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
    /// Patch sizes per receiving seat, with `--patch-bytes`.
    pub patch_bytes: Option<PatchBytes>,
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
        patch_bytes: None,
    };
    let mut patch_sizes = Vec::new();
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
        let seats: Vec<Viewer> = Seat::all(args.players).map(Viewer::Seat).collect();
        // Views as a live table keeps them, diffed as it diffs them.
        let mut views: Vec<ViewText> =
            if args.patch_bytes { seats.iter().map(|v| game.view_text(*v)).collect() } else { Vec::new() };
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
            for (viewer, old) in seats.iter().zip(views.iter_mut()) {
                let new = game.view_text(*viewer);
                patch_sizes.push(diff_text(old, &new).len());
                *old = new;
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
    report.patch_bytes = PatchBytes::from_sizes(patch_sizes);
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
    if let Some(p) = &r.patch_bytes {
        outln!(
            "patch bytes:       median {} / p90 {} / p99 {} / max {} / mean {:.0} ({} patches, one per seat per action)",
            p.median,
            p.p90,
            p.p99,
            p.max,
            p.mean,
            p.patches
        );
    }
    if let Some(dir) = &args.save_logs {
        outln!("logs written to:   {}", dir.display());
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(game: &str, players: usize, patch_bytes: bool) -> SimulateArgs {
        SimulateArgs {
            game: game.into(),
            players,
            games: 2,
            seed: Some(11),
            options: "{}".into(),
            save_logs: None,
            max_actions: 100_000,
            patch_bytes,
        }
    }

    #[test]
    fn percentiles_are_nearest_rank_over_the_sorted_sizes() {
        let p = PatchBytes::from_sizes(vec![50, 10, 40, 20, 30, 100, 60, 70, 80, 90, 2]).expect("figures");
        assert_eq!((p.patches, p.median, p.p90, p.p99, p.max), (11, 50, 90, 100, 100));
        assert!((p.mean - 552.0 / 11.0).abs() < 1e-9);
        assert_eq!(PatchBytes::from_sizes(Vec::new()), None);
    }

    #[test]
    fn patch_bytes_measure_one_patch_per_seat_per_action_for_every_game() {
        for game in ["knights-templar", "richard-the-lionheart", "secret-treasures", "templars-journey"] {
            let r = simulate(&args(game, 3, true)).expect("plays");
            let p = r.patch_bytes.expect("measured");
            assert_eq!(p.patches, r.actions * 3, "{game}");
            // "[]" is the smallest patch; an action always changes someone's view.
            assert!(p.median >= 2 && p.median <= p.p90 && p.p90 <= p.p99 && p.p99 <= p.max, "{game}: {p:?}");
            assert!(p.max > 2 && p.mean >= 2.0, "{game}: {p:?}");
            // The same seed measures the same patches.
            assert_eq!(simulate(&args(game, 3, true)).expect("again").patch_bytes, Some(p), "{game}");
        }
        assert_eq!(simulate(&args("knights-templar", 3, false)).expect("plays").patch_bytes, None);
    }

    #[test]
    fn patch_bytes_are_the_server_diff_of_consecutive_views() {
        // Replays the measured games by hand and sizes json_patch::diff of the parsed views: the
        // text diff the server uses gives the same patches, so the same figures.
        let a = args("knights-templar", 2, true);
        let r = simulate(&a).expect("plays");
        let catalog = Catalog::standard();
        let descriptor = find_game(&catalog, "knights-templar").expect("known");
        let options = descriptor.normalize_options(&serde_json::json!({})).expect("defaults");
        let names = SeatNames::generic(2);
        let mut sizes = Vec::new();
        for n in 0..a.games {
            let mut game = descriptor.create(2, &options, Seed::from_u64(11 + n)).expect("setup");
            let mut bot = RandomBot::new(GameRng::from_u64((11 + n) ^ 0xb07));
            let mut views: Vec<serde_json::Value> = Seat::all(2).map(|s| game.view(Viewer::Seat(s))).collect();
            while game.outcome().is_none() {
                bot.step_dyn(game.as_mut(), &names).expect("applies").expect("someone acts, with a legal action");
                for (s, old) in Seat::all(2).zip(views.iter_mut()) {
                    let new = game.view(Viewer::Seat(s));
                    sizes.push(serde_json::to_string(&json_patch::diff(old, &new)).expect("json").len());
                    *old = new;
                }
            }
        }
        assert_eq!(PatchBytes::from_sizes(sizes), r.patch_bytes);
    }
}
