//! Engine throughput: complete random games (setup included) of every game in the catalog,
//! through the typed `Game` API. Figures are in docs/performance.md.
//!
//! `cargo bench -p chapterhouse --bench engines -- --warm-up-time 1 --measurement-time 4`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use game_core::testing::random_playout;
use game_core::Game;
use std::hint::black_box;

fn playouts<G: Game>(c: &mut Criterion, player_counts: &[usize]) {
    let mut group = c.benchmark_group(G::ID);
    group.throughput(Throughput::Elements(1));
    for &players in player_counts {
        let mut seed = 0u64;
        group.bench_function(format!("random game, {players} players"), |b| {
            b.iter(|| {
                seed += 1;
                let p = random_playout::<G>(players, &G::Options::default(), seed, 100_000, false);
                black_box(p.actions.len())
            })
        });
    }
    group.finish();
}

fn engines(c: &mut Criterion) {
    playouts::<knights_templar::KnightsTemplar>(c, &[2, 4, 8]);
    playouts::<templars_journey::TemplarsJourney>(c, &[3, 4, 5]);
    playouts::<secret_treasures::SecretTreasures>(c, &[2, 3, 5]);
    playouts::<richard_the_lionheart::RichardTheLionheart>(c, &[2, 4, 6]);
}

criterion_group!(benches, engines);
criterion_main!(benches);
