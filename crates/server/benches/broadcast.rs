//! The game's share of a table's broadcast, per accepted action: every viewer's view written as
//! parts (`view_texts`) and diffed against the parts kept from the previous action
//! (`diff_parts_memo`), as the table actor does. Four seated viewers (the loadgen's shape), random
//! games replayed from recorded actions, one game after another and (Knights Templar) 200 games
//! in turn, as a loaded server plays them. Figures are in docs/performance.md.
//!
//! `cargo bench -p chapterhouse --bench broadcast -- --warm-up-time 1 --measurement-time 4`

use common::{broadcast_step, first_views, Path};
use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkGroup, Criterion, Throughput};
use game_core::testing::{random_playout, setup};
use game_core::view_diff::{DiffMemo, ViewCache};
use game_core::{Game, Seat, Viewer};
use std::hint::black_box;

mod common;

/// Random games by seed, with their recorded actions.
type Recorded<G> = Vec<(u64, Vec<(Seat, <G as Game>::Action)>)>;

/// Random games `1..=games` (their seeds and recorded actions), every seat as a viewer, and a
/// criterion group measuring per action.
fn recorded<G: Game>(
    c: &mut Criterion,
    players: usize,
    games: u64,
    samples: usize,
) -> (Recorded<G>, Vec<Viewer>, BenchmarkGroup<'_, WallTime>) {
    let options = G::Options::default();
    let games: Vec<_> =
        (1..=games).map(|seed| (seed, random_playout::<G>(players, &options, seed, 100_000, false).actions)).collect();
    let actions: usize = games.iter().map(|(_, a)| a.len()).sum();
    let mut group = c.benchmark_group(format!("broadcast/{}", G::ID));
    group.sample_size(samples);
    group.throughput(Throughput::Elements(actions as u64));
    (games, Seat::all(players).map(Viewer::Seat).collect(), group)
}

fn broadcast<G: Game>(c: &mut Criterion, players: usize, path: Path) {
    let options = G::Options::default();
    let (games, viewers, mut group) = recorded::<G>(c, players, 8, 20);
    let how = if path == Path::Parts { ", as parts" } else { "" };
    group.bench_function(format!("views and patches per action, {players} players{how}"), |b| {
        b.iter_batched(
            || games.iter().map(|(seed, _)| setup::<G>(players, &options, *seed)).collect::<Vec<_>>(),
            |mut tables| {
                let (mut memo, mut patches) = (DiffMemo::default(), Vec::new());
                let mut bytes = 0usize;
                for (game, (_, actions)) in tables.iter_mut().zip(&games) {
                    let mut cache = ViewCache::default();
                    let mut kept = first_views(game, &viewers, &mut cache, path);
                    for recorded in actions {
                        let memos = (&mut cache, &mut memo, &mut patches);
                        bytes += broadcast_step(game, recorded, &viewers, memos, &mut kept, path);
                    }
                }
                black_box(bytes)
            },
            BatchSize::LargeInput,
        );
    });
    group.finish();
}

/// [`broadcast`] with `tables` games played side by side, one action each in turn, as a loaded
/// server plays them: each table's views, memos and caches have left the CPU's caches by its
/// next action.
fn broadcast_interleaved<G: Game>(c: &mut Criterion, players: usize, tables: u64, path: Path) {
    let options = G::Options::default();
    let (games, viewers, mut group) = recorded::<G>(c, players, tables, 10);
    let longest = games.iter().map(|(_, a)| a.len()).max().unwrap_or(0);
    let how = if path == Path::Parts { ", as parts" } else { "" };
    let name = format!("views and patches per action, {players} players, {tables} tables in turn{how}");
    group.bench_function(name, |b| {
        b.iter_batched(
            || {
                let mut live: Vec<_> = games
                    .iter()
                    .map(|(seed, _)| {
                        (setup::<G>(players, &options, *seed), ViewCache::default(), DiffMemo::default(), Vec::new())
                    })
                    .collect();
                let kept: Vec<_> =
                    live.iter_mut().map(|(game, cache, _, _)| first_views(game, &viewers, cache, path)).collect();
                (live, kept)
            },
            |(mut live, mut kept)| {
                let mut bytes = 0usize;
                for step in 0..longest {
                    for ((game, cache, memo, patches), ((_, actions), kept)) in
                        live.iter_mut().zip(games.iter().zip(&mut kept))
                    {
                        let Some(recorded) = actions.get(step) else { continue };
                        bytes += broadcast_step(game, recorded, &viewers, (cache, memo, patches), kept, path);
                    }
                }
                black_box(bytes)
            },
            BatchSize::LargeInput,
        );
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    // Knights Templar writes its patches itself; the views written as parts are what the table
    // made before, and what it falls back to for any engine that does not.
    for path in [Path::Table, Path::Parts] {
        broadcast::<knights_templar::KnightsTemplar>(c, 4, path);
        broadcast_interleaved::<knights_templar::KnightsTemplar>(c, 4, 200, path);
    }
    broadcast::<templars_journey::TemplarsJourney>(c, 4, Path::Table);
    broadcast::<secret_treasures::SecretTreasures>(c, 4, Path::Table);
    broadcast::<richard_the_lionheart::RichardTheLionheart>(c, 4, Path::Table);
}

criterion_group!(group, benches);
criterion_main!(group);
