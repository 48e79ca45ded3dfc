//! D1 and D2, the first phase of play: the players' rounds placing 4 knights each (at most 2 per
//! city) and then 2 Templars each. The random setup before it (draws, gold deal) is `setup.rs`.

use super::Events;
use crate::action::Action;
use crate::board::{City, Territory, SETUP_CITY_LIMIT, SETUP_KNIGHTS};
use crate::event::{Event, PlaceCause};
use crate::state::{Step, TemplarsJourney};
use game_core::Seat;

impl TemplarsJourney {
    pub(super) fn setup_knight_options(&self, seat: Seat) -> Vec<Action> {
        if self.players[seat].supply == 0 {
            return Vec::new();
        }
        City::ALL
            .into_iter()
            .filter(|c| {
                let city = self.city(*c);
                city.has_room() && city.of(seat) < SETUP_CITY_LIMIT
            })
            .map(|city| Action::SetupKnight { city })
            .collect()
    }

    pub(super) fn setup_templar_options(&self) -> Vec<Action> {
        Territory::ALL.into_iter().map(|territory| Action::SetupTemplar { territory }).collect()
    }

    pub(super) fn do_setup_knight(&mut self, seat: Seat, placed: usize, action: &Action, events: &mut Events) {
        if let Action::SetupKnight { city } = action {
            self.knight_from_supply(*city, seat);
            events.push(game_core::Event::public(Event::KnightPlaced { seat, city: *city, cause: PlaceCause::Setup }));
        }
        let placed = placed + 1;
        self.step = if placed < SETUP_KNIGHTS * self.players.len() {
            Step::SetupKnight { placed }
        } else {
            Step::SetupTemplar { placed: 0 }
        };
    }

    pub(super) fn do_setup_templar(&mut self, seat: Seat, placed: usize, action: &Action, events: &mut Events) {
        if let Action::SetupTemplar { territory } = action {
            self.players[seat].templars.push(*territory);
            events.push(game_core::Event::public(Event::TemplarPlaced { seat, territory: *territory }));
        }
        let placed = placed + 1;
        if placed < 2 * self.players.len() {
            self.step = Step::SetupTemplar { placed };
        } else {
            self.begin_action();
        }
    }
}
