//! Plays random games and prints their throughput, and one mid-game view as JSON.
//!
//! `cargo run --release -p richard-the-lionheart --example simulate -- [games]`
#![allow(clippy::unwrap_used)]

use game_core::testing::{check_playouts, random_playout};
use game_core::{Game, Seat, Viewer};
use richard_the_lionheart::{Options, RichardTheLionheart};
use std::time::Instant;

fn main() {
    let games: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    for players in 2..=6 {
        let start = Instant::now();
        let s = check_playouts::<RichardTheLionheart>(players, &Options::default(), games, 3000);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{players} players: {games} games in {secs:.2}s ({:.0} games/s, {:.0} actions/game, max {})",
            games as f64 / secs,
            s.actions as f64 / games as f64,
            s.max_actions
        );
    }
    // A view in the middle of a 4-player game, as the web client receives it.
    let p = random_playout::<RichardTheLionheart>(4, &Options::default(), 1, 3000, false);
    let mut g = RichardTheLionheart::setup(4, &Options::default(), game_core::Seed::from_u64(1)).unwrap();
    for (seat, action) in p.actions.iter().take(60) {
        g.apply(*seat, action).unwrap();
    }
    let viewer = g.to_act().first().copied().unwrap_or(Seat(0));
    println!("legal actions of {viewer}: {}", serde_json::to_string(&g.legal_actions(viewer)).unwrap());
    println!("{}", serde_json::to_string_pretty(&g.view(Viewer::Seat(viewer))).unwrap());
}
