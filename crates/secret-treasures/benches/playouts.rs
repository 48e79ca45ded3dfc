//! Engine throughput: complete random games (setup included), through the typed engine.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use game_core::testing::random_playout;
use std::hint::black_box;

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("secret-treasures");
    for players in [2usize, 3, 5] {
        group.throughput(Throughput::Elements(1));
        let mut seed = 0u64;
        group.bench_function(format!("random game, {players} players"), |b| {
            b.iter(|| {
                seed += 1;
                let p = random_playout::<secret_treasures::SecretTreasures>(
                    players,
                    &secret_treasures::Options::default(),
                    seed,
                    100_000,
                    false,
                );
                black_box(p.actions.len())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
