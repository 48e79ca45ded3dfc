//! Plays random games and prints their length and speed: `cargo run --release --example simulate -- 3 1000`.

use game_core::testing::check_playouts;
use secret_treasures::{Options, SecretTreasures};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let players: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(3);
    let games: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let stephanus = args.get(3).is_none_or(|a| a != "no-stephanus");
    let options = Options { stephanus, ..Options::default() };
    let started = Instant::now();
    let summary = check_playouts::<SecretTreasures>(players, &options, games, 100_000);
    let elapsed = started.elapsed();
    println!(
        "{players} players, stephanus {stephanus}: {} games, {} actions ({:.0} per game, max {}), scores {:?}, {:.2?} ({:.0} games/s)",
        summary.games,
        summary.actions,
        summary.actions as f64 / summary.games as f64,
        summary.max_actions,
        summary.score_range,
        elapsed,
        summary.games as f64 / elapsed.as_secs_f64()
    );
}
