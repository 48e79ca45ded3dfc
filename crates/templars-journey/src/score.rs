//! Scoring: city evaluation in shipping rounds (majority, full city, ship loading), the temple
//! majority, the final scoring (seventh city, gold, missions) and the outcome with its
//! tie-break. The arithmetic is in small pure functions so it can be tested on its own.

use crate::board::{Country, EdictSpace, Mission};
use crate::event::Event as TjEvent;
use crate::rules::Events;
use crate::state::{TemplarsJourney, VpSource};
use game_core::{BySeat, Event, Outcome, ScoreLine, Seat};

/// VP for the majority in a city or the seventh city.
pub const MAJORITY_VP: u32 = 2;

/// The index of the single player with the most knights, if the maximum is at least 1 and not
/// shared.
pub fn sole_majority(knights: &[u32]) -> Option<usize> {
    let max = *knights.iter().max()?;
    if max == 0 || knights.iter().filter(|k| **k == max).count() != 1 {
        return None;
    }
    knights.iter().position(|k| *k == max)
}

/// Knights each player puts on a ship of `capacity`: players go in order of knights in the
/// city (most first, ties by `cw` ascending), one knight each per pass.
pub fn load_ship(knights: &[u32], cw: &[usize], capacity: u32) -> Vec<u32> {
    let mut order: Vec<usize> = (0..knights.len()).filter(|i| knights[*i] > 0).collect();
    order.sort_by_key(|i| (std::cmp::Reverse(knights[*i]), cw.get(*i).copied().unwrap_or(usize::MAX)));
    let mut left = knights.to_vec();
    let mut ship = vec![0; knights.len()];
    let mut loaded = 0;
    while loaded < capacity && left.iter().any(|k| *k > 0) {
        for &i in &order {
            if loaded == capacity {
                break;
            }
            if left[i] > 0 {
                left[i] -= 1;
                ship[i] += 1;
                loaded += 1;
            }
        }
    }
    ship
}

/// The temple majority: `vp` shared (rounded down) among the players with the most temple
/// knights, if that is at least 1.
pub fn temple_shares(temples: &[u32], vp: u32) -> Vec<u32> {
    let max = temples.iter().copied().max().unwrap_or(0);
    if max == 0 {
        return vec![0; temples.len()];
    }
    let tied = temples.iter().filter(|t| **t == max).count() as u32;
    temples.iter().map(|t| if *t == max { vp / tied } else { 0 }).collect()
}

/// Mission points from measures (`None` = not eligible): 4 for the best distinct value, 2 for
/// the second best (dense ranking); `lower_is_better` for the distance mission.
pub fn mission_points(measures: &[Option<u32>], lower_is_better: bool) -> Vec<u32> {
    let mut values: Vec<u32> = measures.iter().flatten().copied().collect();
    values.sort_unstable();
    values.dedup();
    if !lower_is_better {
        values.reverse();
    }
    measures
        .iter()
        .map(|m| match m {
            Some(v) if values.first() == Some(v) => 4,
            Some(v) if values.get(1) == Some(v) => 2,
            _ => 0,
        })
        .collect()
}

impl TemplarsJourney {
    /// Evaluates the city of the edict on `space` (§7.1): majority, full city, loading, tile.
    pub(crate) fn evaluate_city(&mut self, space: EdictSpace, events: &mut Events) {
        let Some(city) = self.edict_on(space) else { return };
        let n = self.player_count();
        let knights = self.city(city).knights.0.clone();
        match sole_majority(&knights) {
            Some(w) => {
                let seat = Seat(w as u8);
                self.players[seat].edicts.push(city);
                self.players[seat].gain(VpSource::CityMajority, MAJORITY_VP);
                events.push(Event::public(TjEvent::EdictWon { seat, edict: city, vp: MAJORITY_VP }));
            }
            None => {
                self.removed_edicts.push(city);
                events.push(Event::public(TjEvent::EdictRemoved { edict: city }));
            }
        }
        let capacity = self.city(city).tile.map_or(0, |t| t.capacity());
        if capacity > 0 && knights.iter().sum::<u32>() == capacity {
            let present: Vec<Seat> = (0..n).filter(|i| knights[*i] > 0).map(|i| Seat(i as u8)).collect();
            for s in &present {
                self.players[*s].gain(VpSource::FullCity, 1);
            }
            events.push(Event::public(TjEvent::FullCity { city, seats: present }));
        }
        let cw: Vec<usize> = (0..n).map(|i| self.cw(Seat(i as u8))).collect();
        let ship = load_ship(&knights, &cw, space.ship_capacity());
        let left: Vec<u32> = knights.iter().zip(&ship).map(|(k, s)| k - s).collect();
        let vp: Vec<u32> = ship.iter().map(|s| if *s > 0 { 1 + s } else { 0 }).collect();
        for i in 0..n {
            let seat = Seat(i as u8);
            self.players[seat].temple += left[i];
            self.players[seat].gain(VpSource::Ship, vp[i]);
        }
        if let Some(slot) = self.ships.get_mut(space.index()) {
            *slot = BySeat(ship.clone());
        }
        events.push(Event::public(TjEvent::ShipLoaded { space, city, knights: ship, vp }));
        if left.iter().any(|k| *k > 0) {
            events.push(Event::public(TjEvent::LeftToTemple { city, knights: left }));
        }
        let c = self.city_mut(city);
        c.knights = BySeat(vec![0; n]);
        if let Some(tile) = c.tile.take() {
            self.boxed_tiles.push(tile);
            events.push(Event::public(TjEvent::TileRemoved { city, tile }));
        }
        self.edict_spaces[space.index()] = None;
        self.evaluated[space.index()] = true;
    }

    /// Scores the temple majority of shipping round `round` (2, 3 or 4 VP).
    pub(crate) fn temple_majority(&mut self, round: u8, events: &mut Events) {
        let temples: Vec<u32> = self.players.0.iter().map(|p| p.temple).collect();
        let shares = temple_shares(&temples, u32::from(round) + 1);
        let max = temples.iter().copied().max().unwrap_or(0);
        if max == 0 {
            return;
        }
        let leaders: Vec<Seat> = (0..temples.len()).filter(|i| temples[*i] == max).map(|i| Seat(i as u8)).collect();
        let each = shares.iter().copied().max().unwrap_or(0);
        for s in &leaders {
            self.players[*s].gain(VpSource::TempleMajority, each);
        }
        events.push(Event::public(TjEvent::TempleMajority { seats: leaders, vp: each }));
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
        let n = self.player_count();
        if let Some(city) = self.edict_on(EdictSpace::E7) {
            self.seventh_city = Some(city);
            let knights = self.city(city).knights.0.clone();
            let winner = sole_majority(&knights).map(|w| Seat(w as u8));
            let mut vp = vec![0; n];
            match winner {
                Some(seat) => {
                    self.players[seat].edicts.push(city);
                    self.players[seat].gain(VpSource::SeventhCityMajority, MAJORITY_VP);
                    vp[seat.index()] += MAJORITY_VP;
                }
                None => self.removed_edicts.push(city),
            }
            for (i, k) in knights.iter().enumerate() {
                self.players[Seat(i as u8)].gain(VpSource::SeventhCityKnights, k / 2);
                vp[i] += k / 2;
            }
            self.edict_spaces[EdictSpace::E7.index()] = None;
            self.evaluated[EdictSpace::E7.index()] = true;
            events.push(Event::public(TjEvent::SeventhCity { city, winner, vp }));
        }
        let gold_vp: Vec<u32> = self.players.0.iter().map(|p| p.gold / 4).collect();
        for (i, v) in gold_vp.iter().enumerate() {
            self.players[Seat(i as u8)].gain(VpSource::Gold, *v);
        }
        events.push(Event::public(TjEvent::GoldScored { vp: gold_vp }));
        events.push(Event::public(TjEvent::MissionsRevealed {
            missions: self.players.0.iter().map(|p| p.mission).collect(),
        }));
        for mission in self.missions_in_play() {
            let measures: Vec<Option<u32>> = (0..n).map(|i| self.mission_measure(mission, Seat(i as u8))).collect();
            let points = mission_points(&measures, mission == Mission::M5);
            for (i, v) in points.iter().enumerate() {
                self.players[Seat(i as u8)].gain(VpSource::Missions, *v);
            }
            events.push(Event::public(TjEvent::MissionScored { mission, vp: points }));
        }
        self.step = crate::state::Step::GameOver;
        if let Some(outcome) = self.final_outcome() {
            events.push(Event::public(TjEvent::GameEnded {
                vp: self.players.0.iter().map(|p| p.total_vp()).collect(),
                winners: outcome.winners,
            }));
        }
    }

    /// The result once the game is over: VP, ranks by (VP, edicts owned), the breakdown.
    pub fn final_outcome(&self) -> Option<Outcome> {
        if self.step != crate::state::Step::GameOver {
            return None;
        }
        let scores: Vec<i64> = self.players.0.iter().map(|p| i64::from(p.total_vp())).collect();
        let keys: Vec<Vec<i64>> =
            self.players.0.iter().map(|p| vec![i64::from(p.total_vp()), p.edicts.len() as i64]).collect();
        let mut breakdown: Vec<ScoreLine> = VpSource::ALL
            .into_iter()
            .map(|src| {
                ScoreLine::new(
                    src.label(),
                    self.players.0.iter().map(|p| i64::from(p.vp.get(&src).copied().unwrap_or(0))).collect(),
                )
            })
            .collect();
        breakdown.push(ScoreLine::new(
            "Edicts owned (tie-break)",
            self.players.0.iter().map(|p| p.edicts.len() as i64).collect(),
        ));
        Some(Outcome::from_keys(scores, &keys, breakdown, Some("most edicts owned".to_string())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_venezia_ship_loads_red_blue_green_red_blue() {
        // Seats B, R, G with B first: Venezia R3 B2 G2, ship of 5.
        let ship = load_ship(&[2, 3, 2], &[0, 1, 2], 5);
        assert_eq!(ship, vec![2, 2, 1]);
    }

    #[test]
    fn dense_mission_ranking_gives_4_4_2() {
        assert_eq!(mission_points(&[Some(5), Some(5), Some(3)], false), vec![4, 4, 2]);
        assert_eq!(mission_points(&[Some(1), None, None], false), vec![4, 0, 0]);
        assert_eq!(mission_points(&[Some(1), Some(0), Some(4)], true), vec![2, 4, 0]);
    }

    #[test]
    fn temple_shares_round_down() {
        assert_eq!(temple_shares(&[2, 1, 2], 2), vec![1, 0, 1]);
        assert_eq!(temple_shares(&[1, 1, 1], 2), vec![0, 0, 0]);
        assert_eq!(temple_shares(&[0, 0, 0], 4), vec![0, 0, 0]);
    }

    #[test]
    fn a_shared_or_empty_maximum_has_no_majority() {
        assert_eq!(sole_majority(&[2, 2, 1]), None);
        assert_eq!(sole_majority(&[0, 0, 0]), None);
        assert_eq!(sole_majority(&[1, 3, 2]), Some(1));
    }
}
