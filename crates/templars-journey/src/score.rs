//! Scoring: city evaluation in shipping rounds (majority, full city, ship loading), the temple
//! majority, the final scoring (seventh city, gold, missions) and the outcome with its
//! tie-break. The arithmetic is in small pure functions so it can be tested on its own.

use crate::board::{Country, EdictSpace, Mission};
use crate::event::Event;
use crate::rules::Events;
use crate::state::{Step, TemplarsJourney, VpSource};
use game_core::{BySeat, Outcome, ScoreLine, Seat};

/// VP for the majority in a city or the seventh city.
pub const MAJORITY_VP: u32 = 2;

/// The single player with the most knights, if the maximum is at least 1 and not shared.
pub fn sole_majority(knights: &BySeat<u32>) -> Option<Seat> {
    let max = *knights.0.iter().max()?;
    if max == 0 || knights.0.iter().filter(|k| **k == max).count() != 1 {
        return None;
    }
    knights.iter().find(|(_, k)| **k == max).map(|(s, _)| s)
}

/// Knights each player puts on a ship of `capacity`: players go in order of knights in the
/// city (most first, ties by `cw` ascending), one knight each per pass.
pub fn load_ship(knights: &BySeat<u32>, cw: &BySeat<usize>, capacity: u32) -> BySeat<u32> {
    let mut order: Vec<Seat> = knights.iter().filter(|(_, k)| **k > 0).map(|(s, _)| s).collect();
    order.sort_by_key(|s| (std::cmp::Reverse(knights[*s]), cw.get(*s).copied().unwrap_or(usize::MAX)));
    let mut left = knights.clone();
    let mut ship = knights.map(|_, _| 0);
    let mut loaded = 0;
    while loaded < capacity && left.0.iter().any(|k| *k > 0) {
        for &s in &order {
            if loaded == capacity {
                break;
            }
            if left[s] > 0 {
                left[s] -= 1;
                ship[s] += 1;
                loaded += 1;
            }
        }
    }
    ship
}

/// The temple majority: `vp` shared (rounded down) among the players with the most temple
/// knights, if that is at least 1.
pub fn temple_shares(temples: &BySeat<u32>, vp: u32) -> BySeat<u32> {
    let max = temples.0.iter().copied().max().unwrap_or(0);
    if max == 0 {
        return temples.map(|_, _| 0);
    }
    let tied = temples.0.iter().filter(|t| **t == max).count() as u32;
    temples.map(|_, t| if *t == max { vp / tied } else { 0 })
}

/// Mission points from measures (`None` = not eligible): 4 for the best distinct value, 2 for
/// the second best (dense ranking); `lower_is_better` for the distance mission.
pub fn mission_points(measures: &BySeat<Option<u32>>, lower_is_better: bool) -> BySeat<u32> {
    let mut values: Vec<u32> = measures.0.iter().flatten().copied().collect();
    values.sort_unstable();
    values.dedup();
    if !lower_is_better {
        values.reverse();
    }
    measures.map(|_, m| match m {
        Some(v) if values.first() == Some(v) => 4,
        Some(v) if values.get(1) == Some(v) => 2,
        _ => 0,
    })
}

impl TemplarsJourney {
    /// Evaluates the city of the edict on `space` (§7.1): majority, full city, loading, tile.
    pub(crate) fn evaluate_city(&mut self, space: EdictSpace, events: &mut Events) {
        let Some(city) = self.edict_on(space) else { return };
        let knights = self.city(city).knights.clone();
        match sole_majority(&knights) {
            Some(seat) => {
                self.players[seat].edicts.push(city);
                self.players[seat].gain(VpSource::CityMajority, MAJORITY_VP);
                events.push(game_core::Event::public(Event::EdictWon { seat, edict: city, vp: MAJORITY_VP }));
            }
            None => {
                self.removed_edicts.push(city);
                events.push(game_core::Event::public(Event::EdictRemoved { edict: city }));
            }
        }
        let capacity = self.city(city).tile.map_or(0, |t| t.capacity());
        if capacity > 0 && knights.0.iter().sum::<u32>() == capacity {
            let present: Vec<Seat> = knights.iter().filter(|(_, k)| **k > 0).map(|(s, _)| s).collect();
            for s in &present {
                self.players[*s].gain(VpSource::FullCity, 1);
            }
            events.push(game_core::Event::public(Event::FullCity { city, seats: present }));
        }
        let cw = knights.map(|s, _| self.cw(s));
        let ship = load_ship(&knights, &cw, space.ship_capacity());
        let left = knights.map(|s, k| k - ship[s]);
        let vp = ship.map(|_, s| if *s > 0 { 1 + s } else { 0 });
        for (seat, left) in left.iter() {
            self.players[seat].temple += left;
            self.players[seat].gain(VpSource::Ship, vp[seat]);
        }
        if let Some(slot) = self.ships.get_mut(space.index()) {
            *slot = ship.clone();
        }
        events.push(game_core::Event::public(Event::ShipLoaded { space, city, knights: ship, vp }));
        if left.0.iter().any(|k| *k > 0) {
            events.push(game_core::Event::public(Event::LeftToTemple { city, knights: left }));
        }
        let c = self.city_mut(city);
        c.knights = knights.map(|_, _| 0);
        if let Some(tile) = c.tile.take() {
            self.boxed_tiles.push(tile);
            events.push(game_core::Event::public(Event::TileRemoved { city, tile }));
        }
        self.edict_spaces[space.index()] = None;
        self.evaluated[space.index()] = true;
    }

    /// Scores the temple majority of shipping round `round` (2, 3 or 4 VP).
    pub(crate) fn temple_majority(&mut self, round: u8, events: &mut Events) {
        let temples = self.players.map(|_, p| p.temple);
        let shares = temple_shares(&temples, u32::from(round) + 1);
        let max = temples.0.iter().copied().max().unwrap_or(0);
        if max == 0 {
            return;
        }
        let leaders: Vec<Seat> = temples.iter().filter(|(_, t)| **t == max).map(|(s, _)| s).collect();
        let each = shares.0.iter().copied().max().unwrap_or(0);
        for s in &leaders {
            self.players[*s].gain(VpSource::TempleMajority, each);
        }
        events.push(game_core::Event::public(Event::TempleMajority { seats: leaders, vp: each }));
    }

    /// The measure of `mission` for `seat`, or `None` if the seat is not eligible.
    pub fn mission_measure(&self, mission: Mission, seat: Seat) -> Option<u32> {
        let p = &self.players[seat];
        let count_country = |c: Country| p.edicts.iter().filter(|e| e.country() == c).count() as u32;
        let m = match mission {
            Mission::M1 => p.gold,
            Mission::M2 => self.ships.iter().filter(|ship| ship.get(seat).is_some_and(|k| *k > 0)).count() as u32,
            Mission::M3 => p.temple,
            Mission::M4 => self.seventh_city.map_or(0, |c| self.city(c).of(seat)),
            Mission::M5 => {
                return match p.templars.as_slice() {
                    [a, b] => Some(a.distance(*b)),
                    _ => Some(0),
                }
            }
            Mission::M6 => {
                let mut countries: Vec<Country> = p.edicts.iter().map(|e| e.country()).collect();
                countries.sort();
                countries.dedup();
                countries.len() as u32
            }
            Mission::M7 => count_country(Country::HolyRomanEmpire),
            Mission::M8 => count_country(Country::France),
        };
        (m >= 1).then_some(m)
    }

    /// The missions in play at the end: the face-up ones, then each player's.
    pub fn missions_in_play(&self) -> Vec<Mission> {
        self.face_up_missions.iter().copied().chain(self.players.0.iter().map(|p| p.mission)).collect()
    }

    /// The final scoring (§7.4): seventh city, gold, missions; then the game is over.
    pub(crate) fn final_scoring(&mut self, events: &mut Events) {
        if let Some(city) = self.edict_on(EdictSpace::E7) {
            self.seventh_city = Some(city);
            let knights = self.city(city).knights.clone();
            let winner = sole_majority(&knights);
            let mut vp = self.players.map(|_, _| 0);
            match winner {
                Some(seat) => {
                    self.players[seat].edicts.push(city);
                    self.players[seat].gain(VpSource::SeventhCityMajority, MAJORITY_VP);
                    vp[seat] += MAJORITY_VP;
                }
                None => self.removed_edicts.push(city),
            }
            for (seat, k) in knights.iter() {
                self.players[seat].gain(VpSource::SeventhCityKnights, k / 2);
                vp[seat] += k / 2;
            }
            self.edict_spaces[EdictSpace::E7.index()] = None;
            self.evaluated[EdictSpace::E7.index()] = true;
            events.push(game_core::Event::public(Event::SeventhCity { city, winner, vp }));
        }
        let gold_vp = self.players.map(|_, p| p.gold / 4);
        for (seat, v) in gold_vp.iter() {
            self.players[seat].gain(VpSource::Gold, *v);
        }
        events.push(game_core::Event::public(Event::GoldScored { vp: gold_vp }));
        events.push(game_core::Event::public(Event::MissionsRevealed { missions: self.players.map(|_, p| p.mission) }));
        for mission in self.missions_in_play() {
            let measures = self.players.map(|seat, _| self.mission_measure(mission, seat));
            let points = mission_points(&measures, mission == Mission::M5);
            for (seat, v) in points.iter() {
                self.players[seat].gain(VpSource::Missions, *v);
            }
            events.push(game_core::Event::public(Event::MissionScored { mission, vp: points }));
        }
        self.step = Step::GameOver;
        if let Some(result) = outcome(self) {
            events.push(game_core::Event::public(Event::GameEnded {
                vp: self.players.map(|_, p| p.total_vp()),
                winners: result.winners,
            }));
        }
    }
}

/// The result once the game is over: VP, ranks by (VP, edicts owned), the breakdown (`Game::outcome`).
pub(crate) fn outcome(game: &TemplarsJourney) -> Option<Outcome> {
    if game.step != Step::GameOver {
        return None;
    }
    let scores: Vec<i64> = game.players.0.iter().map(|p| i64::from(p.total_vp())).collect();
    let keys: Vec<Vec<i64>> =
        game.players.0.iter().map(|p| vec![i64::from(p.total_vp()), p.edicts.len() as i64]).collect();
    let mut breakdown: Vec<ScoreLine> = VpSource::ALL
        .into_iter()
        .map(|src| {
            ScoreLine::new(
                src.label(),
                game.players.0.iter().map(|p| i64::from(p.vp.get(&src).copied().unwrap_or(0))).collect(),
            )
        })
        .collect();
    breakdown.push(ScoreLine::new(
        "Edicts owned (tie-break)",
        game.players.0.iter().map(|p| p.edicts.len() as i64).collect(),
    ));
    Some(Outcome::from_keys(scores, &keys, breakdown, Some("most edicts owned".to_string())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn by_seat<T: Clone>(values: &[T]) -> BySeat<T> {
        BySeat(values.to_vec())
    }

    #[test]
    fn the_venezia_ship_loads_red_blue_green_red_blue() {
        // Seats B, R, G with B first: Venezia R3 B2 G2, ship of 5.
        let ship = load_ship(&by_seat(&[2, 3, 2]), &by_seat(&[0, 1, 2]), 5);
        assert_eq!(ship, by_seat(&[2, 2, 1]));
    }

    #[test]
    fn dense_mission_ranking_gives_4_4_2() {
        assert_eq!(mission_points(&by_seat(&[Some(5), Some(5), Some(3)]), false), by_seat(&[4, 4, 2]));
        assert_eq!(mission_points(&by_seat(&[Some(1), None, None]), false), by_seat(&[4, 0, 0]));
        assert_eq!(mission_points(&by_seat(&[Some(1), Some(0), Some(4)]), true), by_seat(&[2, 4, 0]));
    }

    #[test]
    fn temple_shares_round_down() {
        assert_eq!(temple_shares(&by_seat(&[2, 1, 2]), 2), by_seat(&[1, 0, 1]));
        assert_eq!(temple_shares(&by_seat(&[1, 1, 1]), 2), by_seat(&[0, 0, 0]));
        assert_eq!(temple_shares(&by_seat(&[0, 0, 0]), 4), by_seat(&[0, 0, 0]));
    }

    #[test]
    fn a_shared_or_empty_maximum_has_no_majority() {
        assert_eq!(sole_majority(&by_seat(&[2, 2, 1])), None);
        assert_eq!(sole_majority(&by_seat(&[0, 0, 0])), None);
        assert_eq!(sole_majority(&by_seat(&[1, 3, 2])), Some(Seat(1)));
    }
}
