//! The board data against the spec's tables (§2), and setup (§3) against the RNG order, the
//! holdings, the gold deal and the placement order.

use game_core::{Game, GameRng, Seat, Seed, Viewer};
use templars_journey::action::Action;
use templars_journey::board::{gold_rate, City, Country, EdictSpace, Mission, Space, Territory, Tile};
use templars_journey::state::Step;
use templars_journey::{Options, TemplarsJourney};

fn t(id: &str) -> Territory {
    serde_json::from_value(serde_json::json!(id)).expect("a territory id")
}

#[test]
fn the_adjacency_is_exactly_the_20_land_borders_and_5_sea_lines_of_the_spec() {
    let land = [
        ("BRE", "PAR"),
        ("PAR", "BOR"),
        ("PAR", "LYO"),
        ("PAR", "BUR"),
        ("PAR", "COE"),
        ("BOR", "LYO"),
        ("BOR", "BAR"),
        ("LYO", "PRO"),
        ("LYO", "BUR"),
        ("PRO", "BAR"),
        ("BAR", "CAS"),
        ("BUR", "COE"),
        ("BUR", "BAY"),
        ("COE", "BAY"),
        ("BAY", "WIE"),
        ("WIE", "VEN"),
        ("LOM", "VEN"),
        ("LOM", "ROM"),
        ("VEN", "ROM"),
        ("ROM", "NAP"),
    ];
    let sea = [("LON", "BRE"), ("LON", "PAR"), ("LON", "COE"), ("PRO", "LOM"), ("BAR", "ROM")];
    let edges: Vec<(Territory, Territory)> = land.iter().chain(&sea).map(|(a, b)| (t(a), t(b))).collect();
    for a in Territory::ALL {
        for b in Territory::ALL {
            let listed = edges.contains(&(a, b)) || edges.contains(&(b, a));
            assert_eq!(a.is_adjacent(b), listed, "{a:?}-{b:?}");
        }
    }
}

#[test]
fn the_shortest_path_distances_match_the_spec_table() {
    let table: [(&str, [u32; 16]); 16] = [
        ("LON", [0, 1, 1, 2, 2, 3, 3, 4, 2, 1, 2, 3, 4, 4, 4, 5]),
        ("BRE", [1, 0, 1, 2, 2, 3, 3, 4, 2, 2, 3, 4, 4, 5, 4, 5]),
        ("PAR", [1, 1, 0, 1, 1, 2, 2, 3, 1, 1, 2, 3, 3, 4, 3, 4]),
        ("BOR", [2, 2, 1, 0, 1, 2, 1, 2, 2, 2, 3, 4, 3, 3, 2, 3]),
        ("LYO", [2, 2, 1, 1, 0, 1, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4]),
        ("PRO", [3, 3, 2, 2, 1, 0, 1, 2, 2, 3, 3, 3, 1, 2, 2, 3]),
        ("BAR", [3, 3, 2, 1, 2, 1, 0, 1, 3, 3, 4, 3, 2, 2, 1, 2]),
        ("CAS", [4, 4, 3, 2, 3, 2, 1, 0, 4, 4, 5, 4, 3, 3, 2, 3]),
        ("BUR", [2, 2, 1, 2, 1, 2, 3, 4, 0, 1, 1, 2, 3, 3, 4, 5]),
        ("COE", [1, 2, 1, 2, 2, 3, 3, 4, 1, 0, 1, 2, 4, 3, 4, 5]),
        ("BAY", [2, 3, 2, 3, 2, 3, 4, 5, 1, 1, 0, 1, 3, 2, 3, 4]),
        ("WIE", [3, 4, 3, 4, 3, 3, 3, 4, 2, 2, 1, 0, 2, 1, 2, 3]),
        ("LOM", [4, 4, 3, 3, 2, 1, 2, 3, 3, 4, 3, 2, 0, 1, 1, 2]),
        ("VEN", [4, 5, 4, 3, 3, 2, 2, 3, 3, 3, 2, 1, 1, 0, 1, 2]),
        ("ROM", [4, 4, 3, 2, 3, 2, 1, 2, 4, 4, 3, 2, 1, 1, 0, 1]),
        ("NAP", [5, 5, 4, 3, 4, 3, 2, 3, 5, 5, 4, 3, 2, 2, 1, 0]),
    ];
    for (i, (id, row)) in table.iter().enumerate() {
        let a = Territory::ALL[i];
        assert_eq!(a, t(id));
        for (j, d) in row.iter().enumerate() {
            assert_eq!(a.distance(Territory::ALL[j]), *d, "{a:?} to {:?}", Territory::ALL[j]);
        }
    }
}

#[test]
fn countries_cities_tiles_ships_and_gold_rates_match_the_spec() {
    use Country::*;
    let countries = [
        England,
        France,
        France,
        France,
        France,
        France,
        Aragon,
        Aragon,
        HolyRomanEmpire,
        HolyRomanEmpire,
        HolyRomanEmpire,
        HolyRomanEmpire,
        Italy,
        Italy,
        Italy,
        Italy,
    ];
    for (t, c) in Territory::ALL.into_iter().zip(countries) {
        assert_eq!(t.country(), c, "{t:?}");
    }
    let cities: Vec<Territory> = Territory::ALL.into_iter().filter(|t| t.city().is_some()).collect();
    assert_eq!(cities, ["LON", "PAR", "BOR", "LYO", "BAR", "COE", "WIE", "VEN", "ROM"].map(t).to_vec());
    let per_country = |c: Country| City::ALL.iter().filter(|e| e.country() == c).count();
    assert_eq!([England, France, Aragon, HolyRomanEmpire, Italy].map(per_country), [1, 3, 1, 2, 2]);
    assert_eq!(Tile::ALL.map(Tile::capacity), [4, 5, 5, 6, 6, 7, 8]);
    assert_eq!(EdictSpace::ALL.map(EdictSpace::ship_capacity), [4, 5, 5, 6, 6, 7, 0]);
    assert_eq!(EdictSpace::of_round(2), [EdictSpace::E2a, EdictSpace::E2b]);
    // (with a city tile, without) at setup, after shipping round 1, after shipping round 2.
    assert_eq!([0, 1, 2].map(|m| gold_rate(3, m)), [(4, 1), (4, 1), (4, 2)]);
    assert_eq!([0, 1, 2].map(|m| gold_rate(4, m)), [(5, 2), (5, 2), (5, 3)]);
    assert_eq!([0, 1, 2].map(|m| gold_rate(5, m)), [(6, 3), (6, 3), (6, 4)]);
}

/// Re-draws the four setup draws in the spec's order (§3 steps 2, 3, 7, 8) from `seed`.
fn expected_draws(players: usize, seed: u64) -> ([City; 9], [Tile; 7], [Mission; 8], Seat) {
    let mut rng = GameRng::from_seed(Seed::from_u64(seed));
    let mut edicts = City::ALL;
    rng.shuffle(&mut edicts);
    let mut tiles = Tile::ALL;
    rng.shuffle(&mut tiles);
    let mut missions = Mission::ALL;
    rng.shuffle(&mut missions);
    let first = Seat(rng.below(players) as u8);
    (edicts, tiles, missions, first)
}

#[test]
fn setup_draws_edicts_tiles_missions_and_the_first_player_in_the_spec_order() {
    for players in 3..=5 {
        for seed in 0..20 {
            let g = TemplarsJourney::setup(players, &Options::default(), Seed::from_u64(seed)).expect("setup");
            let (edicts, tiles, missions, first) = expected_draws(players, seed);
            assert_eq!(g.boxed_edicts, edicts[..2].to_vec());
            assert_eq!(g.edict_spaces, edicts[2..].iter().copied().map(Some).collect::<Vec<_>>());
            // Tiles in draw order onto the in-play cities in canonical order; boxed cities get none.
            let mut next_tile = tiles.into_iter();
            for c in City::ALL {
                let want = if edicts[..2].contains(&c) { None } else { next_tile.next() };
                assert_eq!(g.city(c).tile, want, "{players}p seed {seed}: tile of {c:?}");
            }
            assert_eq!(g.boxed_missions, missions[..3].to_vec());
            for (s, p) in g.players.iter() {
                assert_eq!(p.mission, missions[3 + s.index()]);
            }
            assert_eq!(g.face_up_missions, missions[3 + players..].to_vec());
            assert_eq!(g.face_up_missions.len(), 5 - players);
            assert_eq!(g.first, first);
            // The gold deal at the setup rate, judged by tile presence.
            let (with, without) = gold_rate(players, 0);
            for t in Territory::ALL {
                let tiled = t.city().is_some_and(|c| g.city(c).tile.is_some());
                assert_eq!(g.gold_at(t), if tiled { with } else { without }, "{players}p: gold in {t:?}");
            }
            for (_, p) in g.players.iter() {
                assert_eq!((p.gold, p.supply, p.temple, p.total_vp()), (5, 19, 0, 0));
                assert!(p.templars.is_empty() && p.edicts.is_empty());
            }
            assert_eq!(g.pope, Space::try_from("S1".to_string()).expect("S1"));
        }
    }
}

#[test]
fn setup_places_four_laps_of_knights_then_two_laps_of_templars_clockwise_from_the_first_player() {
    for players in 3..=5 {
        let mut g = TemplarsJourney::setup(players, &Options::default(), Seed::from_u64(7)).expect("setup");
        let first = g.first;
        for k in 0..4 * players {
            let seat = first.next(players, k);
            assert_eq!(g.to_act(), vec![seat], "{players}p knight placement {k}");
            assert!(matches!(g.step, Step::SetupKnight { .. }));
            let legal = g.legal_actions(seat);
            // Every legal city is active, has room and holds fewer than 2 of the seat's knights.
            for a in &legal {
                let Action::SetupKnight { city } = a else { panic!("{a:?}") };
                let c = g.city(*city);
                assert!(c.tile.is_some() && c.of(seat) < 2 && c.total() < c.tile.map_or(0, |t| t.capacity()));
            }
            let a = legal.last().expect("a city").clone();
            g.apply(seat, &a).expect("legal");
        }
        for (s, _) in g.players.iter() {
            let per_city: Vec<u32> = g.cities.iter().map(|c| c.of(s)).collect();
            assert_eq!(per_city.iter().sum::<u32>(), 4);
            assert!(per_city.iter().all(|k| *k <= 2));
            assert_eq!(g.players[s].supply, 15);
        }
        for k in 0..2 * players {
            let seat = first.next(players, k);
            assert_eq!(g.to_act(), vec![seat], "{players}p Templar placement {k}");
            assert_eq!(g.legal_actions(seat).len(), 16, "any of the 16 territories");
            g.apply(seat, &Action::SetupTemplar { territory: Territory::ALL[k % 16] }).expect("legal");
        }
        assert_eq!(g.step, Step::PopeStep);
        assert_eq!(g.to_act(), vec![first], "the first player starts the first action");
        assert!(g.players.0.iter().all(|p| p.templars.len() == 2));
        // Each player sees their own mission only.
        let view = g.view(Viewer::Seat(first));
        for (_, p) in view.players.iter() {
            assert_eq!(p.mission.is_some(), p.seat == first);
        }
    }
}
