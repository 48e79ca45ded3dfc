//! Prints a real view as JSON, for the docs: `cargo run --example view`.

use game_core::{Game, Seat, Seed, Viewer};
use secret_treasures::{Action, Card, Options, Ring, SecretTreasures};

fn main() {
    let options = Options { first_game_placement: true, ..Options::default() };
    let Ok(mut game) = SecretTreasures::setup(3, &options, Seed::from_u64(1)) else { return };
    let start = game.start_player();
    let steps = [
        (start, Action::Single(Ring::Z)),
        (start.next(3, 1), Action::Single(Ring::X)),
        (start.next(3, 2), Action::Single(Ring::Y)),
        (start, Action::Card(Card::Anselmus)),
        (start.next(3, 1), Action::Card(Card::Maria)),
        (start.next(3, 2), Action::Card(Card::Josua)),
        (start, Action::Room(1)),
        (start, Action::StashRing { ring: Ring::X, area: 1 }),
    ];
    for (seat, action) in steps {
        if let Err(e) = game.apply(seat, &action) {
            eprintln!("{action:?}: {e}");
            return;
        }
    }
    let viewer = Viewer::Seat(Seat(start.next(3, 1).0));
    println!("legal for {start:?}: {}", serde_json::to_string(&game.legal_actions(start)).unwrap_or_default());
    println!("{}", serde_json::to_string_pretty(&game.view(viewer)).unwrap_or_default());
}
