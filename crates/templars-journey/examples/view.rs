//! Prints a view and the legal actions of a game in progress, as JSON (used for the docs).
//!
//! `cargo run -p templars-journey --example view -- <seed> <actions>`

use game_core::{Game, GameRng, Seed, Viewer};
use templars_journey::{Options, TemplarsJourney};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    let steps: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(40);
    let Ok(mut g) = TemplarsJourney::setup(3, &Options::default(), Seed::from_u64(seed)) else { return };
    let mut rng = GameRng::from_u64(seed);
    for _ in 0..steps {
        let to_act = g.to_act();
        let Some(&seat) = rng.choose(&to_act) else { break };
        let legal = g.legal_actions(seat);
        let Some(action) = rng.choose(&legal).cloned() else { break };
        if g.apply(seat, &action).is_err() {
            break;
        }
    }
    let Some(&seat) = g.to_act().first() else { return };
    let view = g.view(Viewer::Seat(seat));
    println!("{}", serde_json::to_string_pretty(&view).unwrap_or_default());
    println!("{}", serde_json::to_string(&g.legal_actions(seat)).unwrap_or_default());
}
