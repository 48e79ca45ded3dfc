//! Engine throughput: complete random games of Knights Templar (setup included).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use game_core::testing::random_playout;
use knights_templar::{KnightsTemplar, KtOptions};
use std::hint::black_box;

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("knights-templar");
    for players in [2usize, 4, 8] {
        group.throughput(Throughput::Elements(1));
        let mut seed = 0u64;
        group.bench_function(format!("random game, {players} players"), |b| {
            b.iter(|| {
                seed += 1;
                let p = random_playout::<KnightsTemplar>(players, &KtOptions::default(), seed, 10_000, false);
                black_box(p.actions.len())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
