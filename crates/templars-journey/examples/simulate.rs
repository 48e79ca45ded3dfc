//! Plays random games and prints the engine time per complete game.
//!
//! `cargo run --release -p templars-journey --example simulate -- <players> <games>`

use game_core::testing::random_playout;
use std::time::Instant;
use templars_journey::{Options, TemplarsJourney};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let players: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(4);
    let games: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let start = Instant::now();
    let mut actions = 0;
    for seed in 0..games {
        let p = random_playout::<TemplarsJourney>(players, &Options::default(), seed, 3_000, false);
        actions += p.actions.len();
    }
    let elapsed = start.elapsed();
    println!(
        "{players} players: {games} games, {actions} actions in {:.3} s: {:.1} µs per game, {:.2} µs per action",
        elapsed.as_secs_f64(),
        elapsed.as_secs_f64() * 1e6 / games as f64,
        elapsed.as_secs_f64() * 1e6 / actions.max(1) as f64
    );
}
