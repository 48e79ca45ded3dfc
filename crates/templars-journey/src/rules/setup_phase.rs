//! D1 and D2: the setup rounds placing 4 knights (at most 2 per city) and 2 Templars per player.

use super::Events;
use crate::action::Action;
use crate::board::{City, Territory, SETUP_CITY_LIMIT, SETUP_KNIGHTS};
use crate::event::{Event as TjEvent, PlaceCause};
use crate::state::{Step, TemplarsJourney};
use game_core::{Event, Seat};

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
            events.push(Event::public(TjEvent::KnightPlaced { seat, city: *city, cause: PlaceCause::Setup }));
        }
        let placed = placed + 1;
        self.step = if placed < SETUP_KNIGHTS * self.player_count() {
            Step::SetupKnight { placed }
        } else {
            Step::SetupTemplar { placed: 0 }
        };
    }

    pub(super) fn do_setup_templar(&mut self, seat: Seat, placed: usize, action: &Action, events: &mut Events) {
        if let Action::SetupTemplar { territory } = action {
            self.players[seat].templars.push(*territory);
            events.push(Event::public(TjEvent::TemplarPlaced { seat, territory: *territory }));
        }
        let placed = placed + 1;
        if placed < 2 * self.player_count() {
            self.step = Step::SetupTemplar { placed };
        } else {
            self.begin_action();
        }
    }
}
