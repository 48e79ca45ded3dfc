//! The broadcast bench's Knights Templar loop (`broadcast.rs`: every seat's view written as
//! parts and diffed against the parts of the previous action) over a fixed amount of work, for
//! an instruction counter rather than a clock: cachegrind's count is the same on every run,
//! whatever else the machine is doing, where a timing on the shared 2-core machine moves by
//! 10–20%. Eight recorded 4-player games, replayed `REPS` times (the first argument, default 1);
//! with `parts` after it, the patches are made from views written as parts and diffed (as the
//! table made them before the engine wrote its own).
//!
//! ```sh
//! cargo bench -p chapterhouse --bench view_replay --no-run
//! valgrind --tool=cachegrind --cache-sim=no target/release/deps/view_replay-<hash> 1
//! valgrind --tool=cachegrind --cache-sim=no target/release/deps/view_replay-<hash> 3
//! ```
//!
//! Instructions per action: the difference of the two totals over twice the actions printed
//! (the recording of the games is in both). Figures are in docs/performance.md.

use common::{broadcast_step, first_views, Path};
use game_core::testing::{random_playout, setup};
use game_core::view_diff::{DiffMemo, ViewCache};
use game_core::{Game, Seat, Viewer};
use knights_templar::KnightsTemplar;
use std::hint::black_box;

mod common;

fn main() {
    // `cargo bench` passes `--bench`: only a number is taken as the repetitions.
    let reps: usize = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(1);
    // `parts`: the views written as parts and diffed, as the table made the patches before the
    // engine wrote them itself.
    let path = if std::env::args().any(|a| a == "parts") { Path::Parts } else { Path::Table };
    let players = 4;
    let options = <KnightsTemplar as Game>::Options::default();
    let games: Vec<_> = (1..=8u64)
        .map(|seed| (seed, random_playout::<KnightsTemplar>(players, &options, seed, 100_000, false).actions))
        .collect();
    let viewers: Vec<Viewer> = Seat::all(players).map(Viewer::Seat).collect();
    let (mut actions, mut bytes) = (0usize, 0usize);
    for _ in 0..reps {
        let (mut memo, mut patches) = (DiffMemo::default(), Vec::new());
        for (seed, recorded) in &games {
            let mut game = setup::<KnightsTemplar>(players, &options, *seed);
            let mut cache = ViewCache::default();
            let mut kept = first_views(&game, &viewers, &mut cache, path);
            for action in recorded {
                let memos = (&mut cache, &mut memo, &mut patches);
                bytes += broadcast_step(&mut game, action, &viewers, memos, &mut kept, path);
                actions += 1;
            }
        }
    }
    println!("{actions} actions replayed, {} patch bytes", black_box(bytes));
}
