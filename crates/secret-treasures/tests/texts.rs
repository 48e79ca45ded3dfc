//! The English rules texts (`texts/en.json`) checked against the engine itself.
//!
//! The web client, the docs and the game log look every id they meet up in this catalog, so a
//! missing entry shows a player a raw code. The expected term keys come from the engine's public
//! API (every card, room, storehouse, portal, piece kind, ring type, score source, end trigger and
//! option) and from random playouts at every player count and option set (every id a view or a
//! legal action shows must be one of them), so an id the engine gains and the catalog lacks fails
//! here, as does a catalog entry that names nothing the engine has.
//!
//! Lookup rule for clients: `steps[view.phase.phase]`, and during a turn (`"turn"`) also
//! `steps[view.phase.step]`; `actions[tag]`, where the tag is the action itself when it is a
//! string (`"stop"`) and its only key when it is an object (`{"room": 4}`).

use game_core::testing::texts::{
    check_every_change_is_reported, check_summary, english_catalog, json_id as id, section_texts,
};
use game_core::testing::visit_random_games;
use game_core::{Game, Seat, Viewer};
use secret_treasures::board::{self, STOREHOUSES};
use secret_treasures::state::{Score, Trigger};
use secret_treasures::{Action, Card, Kind, Options, Phase, Portal, Ring, SecretTreasures, Step, TEXTS_EN};
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// Random games per player count and option set: the playouts check that views and legal lists
/// show no id beyond what the test enumerates from the engine's types.
const GAMES_PER_CONFIG: u64 = 3;
const MAX_STEPS: usize = 20_000;

/// The wooden figures, catalogued as characters like the cards: each is a field of the view
/// holding its place (Vitus has no card).
const FIGURES: [&str; 3] = ["remigius", "vitus", "severus"];

/// View fields the catalog explains as `field:<name>`: the labels the client shows beside them.
const FIELDS: [&str; 21] = [
    "token",
    "hand_size",
    "pile_top",
    "has_chosen",
    "stock",
    "reserve",
    "total",
    "rooms",
    "hand",
    "my_choice",
    "door",
    "bag",
    "removed",
    "raphael",
    "final_turns_left",
    "final_turn",
    "start_player",
    "round",
    "church",
    "scored",
    "carrying",
];

/// Both portals; the match fails to compile when one is added.
fn portals() -> [Portal; 2] {
    match Portal::Main {
        Portal::Main | Portal::Side => {}
    }
    [Portal::Main, Portal::Side]
}

/// Both ways the end can begin; the match fails to compile when one is added.
fn triggers() -> [Trigger; 2] {
    match Trigger::BagEmpty {
        Trigger::BagEmpty | Trigger::AllRooms => {}
    }
    [Trigger::BagEmpty, Trigger::AllRooms]
}

/// One value of every phase, and of every step of a turn; the matches fail to compile when a
/// variant is added.
fn decision_points() -> (Vec<Phase>, Vec<Step>) {
    let seat = Seat(0);
    let phases = vec![
        Phase::PlaceRemigius { seat },
        Phase::PlaceVitus { seat },
        Phase::PlaceSeverus { seat },
        Phase::ChooseRings { seat },
        Phase::FirstRound,
        Phase::Turn { seat, step: Step::Card },
        Phase::Over,
    ];
    for phase in &phases {
        match phase {
            Phase::PlaceRemigius { .. }
            | Phase::PlaceVitus { .. }
            | Phase::PlaceSeverus { .. }
            | Phase::ChooseRings { .. }
            | Phase::FirstRound
            | Phase::Turn { .. }
            | Phase::Over => {}
        }
    }
    let steps = vec![
        Step::Portal,
        Step::Card,
        Step::Move { card: Card::Lucas, steps: 0, visited: Vec::new() },
        Step::Stash { left: 1 },
        Step::Benjamin { steps: 0, carrying: None, picked: false },
        Step::Storehouse,
        Step::Door,
        Step::Remigius { start: 1, steps: 0, forced: false },
    ];
    for step in &steps {
        match step {
            Step::Portal
            | Step::Card
            | Step::Move { .. }
            | Step::Stash { .. }
            | Step::Benjamin { .. }
            | Step::Storehouse
            | Step::Door
            | Step::Remigius { .. } => {}
        }
    }
    (phases, steps)
}

/// The string at `field` of a value's JSON.
fn tag(value: impl Serialize, field: &str) -> Option<String> {
    serde_json::to_value(value).ok()?.get(field).and_then(Value::as_str).map(str::to_string)
}

/// Every step id: the `phase` tag of each phase and the `step` tag of each step of a turn.
fn expected_steps() -> BTreeSet<String> {
    let (phases, steps) = decision_points();
    let mut ids: BTreeSet<String> = phases.iter().filter_map(|p| tag(p, "phase")).collect();
    ids.extend(steps.iter().filter_map(|s| tag(s, "step")));
    ids
}

/// An action's type: the action itself when it serialises as a string, else its only key.
fn action_type(json: &Value) -> Option<String> {
    match json {
        Value::String(s) => Some(s.clone()),
        Value::Object(map) if map.len() == 1 => map.keys().next().cloned(),
        _ => None,
    }
}

/// One value of every action, as the engine serialises it; the match fails to compile when a
/// variant is added.
fn expected_actions() -> BTreeSet<String> {
    let actions = vec![
        Action::Room(1),
        Action::Single(Ring::X),
        Action::Card(Card::Lucas),
        Action::Portal(Portal::Main),
        Action::StashChalice,
        Action::StashBook,
        Action::StashRing { ring: Ring::X, area: 1 },
        Action::Pickup { owner: Seat(0), ring: Ring::X, area: 1 },
        Action::Stash { area: 1 },
        Action::Storehouse(1),
        Action::Passage([9, 13]),
        Action::Stop,
    ];
    for action in &actions {
        match action {
            Action::Room(_)
            | Action::Single(_)
            | Action::Card(_)
            | Action::Portal(_)
            | Action::StashChalice
            | Action::StashBook
            | Action::StashRing { .. }
            | Action::Pickup { .. }
            | Action::Stash { .. }
            | Action::Storehouse(_)
            | Action::Passage(_)
            | Action::Stop => {}
        }
    }
    actions.iter().filter_map(|a| action_type(&serde_json::to_value(a).unwrap_or_default())).collect()
}

fn catalog() -> Value {
    english_catalog(TEXTS_EN)
}

/// The keys of a value's JSON object.
fn object_keys(value: impl Serialize) -> Vec<String> {
    match serde_json::to_value(value) {
        Ok(Value::Object(map)) => map.keys().cloned().collect(),
        other => panic!("not an object: {other:?}"),
    }
}

/// Every term key the engine's public API can name.
fn expected_terms() -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    keys.extend(Card::ALL.iter().map(|c| format!("character:{}", id(c))));
    keys.extend(FIGURES.iter().map(|f| format!("character:{f}")));
    keys.extend((1..=board::ROOMS).map(|r| format!("room:{r}")));
    keys.extend((1..=STOREHOUSES.len()).map(|s| format!("storehouse:{s}")));
    keys.extend(portals().iter().map(|p| format!("portal:{}", id(p))));
    keys.extend(Kind::ALL.iter().map(|k| format!("kind:{}", id(k))));
    keys.extend(Ring::ALL.iter().map(|r| format!("ring:{}", id(r))));
    keys.extend(object_keys(Score::default()).iter().map(|s| format!("score:{s}")));
    keys.extend(triggers().iter().map(|t| format!("trigger:{}", id(t))));
    keys.extend(SecretTreasures::option_specs().iter().map(|o| format!("option:{}", o.key)));
    keys.extend(FIELDS.iter().map(|f| format!("field:{f}")));
    keys
}

/// What the random playouts met.
#[derive(Debug, Default)]
struct Seen {
    /// The decision points: `phase.phase`, and `phase.step` during a turn.
    steps: BTreeSet<String>,
    /// The type of every legal action.
    actions: BTreeSet<String>,
    /// Term keys built from the ids views and legal actions show.
    terms: BTreeSet<String>,
    /// Every object key in every view.
    fields: BTreeSet<String>,
}

impl Seen {
    fn term(&mut self, kind: &str, value: Option<&Value>) {
        match value {
            Some(Value::String(s)) => {
                self.terms.insert(format!("{kind}:{s}"));
            }
            Some(Value::Number(n)) => {
                self.terms.insert(format!("{kind}:{n}"));
            }
            Some(Value::Array(items)) => items.iter().for_each(|v| self.term(kind, Some(v))),
            _ => {}
        }
    }

    /// A place (`{"portal": "main"}`, `{"room": 4}`, `{"storehouse": 2}`) as a term.
    fn place(&mut self, place: Option<&Value>) {
        for (kind, value) in place.and_then(Value::as_object).into_iter().flatten() {
            self.term(kind, Some(value));
        }
    }

    /// Every kind named as a key of a count (`stock`, `reserve`, `removed`).
    fn counts(&mut self, counts: Option<&Value>) {
        for kind in counts.and_then(Value::as_object).into_iter().flat_map(Map::keys) {
            self.terms.insert(format!("kind:{kind}"));
        }
    }

    fn view(&mut self, view: &Value) {
        if let Some(phase) = view.pointer("/phase/phase").and_then(Value::as_str) {
            self.steps.insert(phase.to_string());
        }
        if let Some(step) = view.pointer("/phase/step").and_then(Value::as_str) {
            self.steps.insert(step.to_string());
        }
        self.term("character", view.pointer("/phase/card"));
        self.term("ring", view.pointer("/phase/carrying/ring"));
        self.term("room", view.pointer("/phase/carrying/from"));
        self.term("character", view.get("hand"));
        self.term("character", view.get("my_choice"));
        self.term("character", view.pointer("/raphael/top"));
        self.term("room", view.get("remigius"));
        self.term("room", view.get("severus"));
        self.term("room", view.get("door"));
        self.place(view.get("vitus"));
        self.counts(view.get("removed"));
        self.term("trigger", view.pointer("/trigger/1"));
        for key in view.get("options").and_then(Value::as_object).into_iter().flat_map(Map::keys) {
            self.terms.insert(format!("option:{key}"));
        }
        for seat in view.get("seats").and_then(Value::as_array).into_iter().flatten() {
            self.place(seat.get("token"));
            self.term("character", seat.get("pile_top"));
            self.counts(seat.get("stock"));
            self.counts(seat.get("reserve"));
            for source in seat.get("score").and_then(Value::as_object).into_iter().flat_map(Map::keys) {
                self.terms.insert(format!("score:{source}"));
            }
        }
        for room in view.get("rooms").and_then(Value::as_array).into_iter().flatten() {
            self.term("room", room.get("room"));
            let spaces = ["chalices", "books"].iter().filter_map(|f| room.get(*f)?.as_array()).flatten();
            let areas = room.get("areas").and_then(Value::as_array).into_iter().flatten();
            for piece in spaces.chain(areas.filter_map(Value::as_array).flatten()) {
                self.term("kind", piece.get("kind"));
            }
        }
        for house in view.get("storehouses").and_then(Value::as_array).into_iter().flatten() {
            self.term("storehouse", house.get("number"));
            self.term("kind", house.get("tiles"));
        }
        self.walk(view);
    }

    /// Collects every field name.
    fn walk(&mut self, value: &Value) {
        match value {
            Value::Object(map) => {
                for (key, inner) in map {
                    self.fields.insert(key.clone());
                    self.walk(inner);
                }
            }
            Value::Array(items) => items.iter().for_each(|v| self.walk(v)),
            _ => {}
        }
    }

    fn action(&mut self, json: &Value) {
        let Some(kind) = action_type(json) else { panic!("an action that is neither a string nor one key: {json}") };
        let inner = json.get(&kind);
        match kind.as_str() {
            "room" | "portal" | "storehouse" => self.term(&kind, inner),
            "card" => self.term("character", inner),
            "passage" => self.term("room", inner),
            "single" => self.term("ring", inner),
            "stash_ring" | "pickup" => self.term("ring", inner.and_then(|v| v.get("ring"))),
            _ => {}
        }
        self.actions.insert(kind);
    }

    fn game(&mut self, game: &SecretTreasures) {
        for viewer in Viewer::all(game.players()) {
            self.view(&serde_json::to_value(game.view(viewer)).unwrap_or_default());
        }
        for seat in game.to_act() {
            for action in game.legal_actions(seat) {
                self.action(&serde_json::to_value(action).unwrap_or_default());
            }
        }
    }
}

/// Every player count with the default options, and without Stephanus and with the first-game
/// placement where those are allowed.
fn configurations() -> Vec<(usize, Options)> {
    let mut configs = Vec::new();
    for players in SecretTreasures::MIN_PLAYERS..=SecretTreasures::MAX_PLAYERS {
        configs.push((players, Options::default()));
        if players < 5 {
            configs.push((players, Options { stephanus: false, first_game_placement: true }));
        }
    }
    configs
}

/// Plays the random games once for all tests, replaying each to look at every position.
fn seen() -> &'static Seen {
    static SEEN: OnceLock<Seen> = OnceLock::new();
    SEEN.get_or_init(|| {
        let mut seen = Seen::default();
        visit_random_games(configurations(), GAMES_PER_CONFIG, MAX_STEPS, |game: &SecretTreasures| seen.game(game));
        seen
    })
}

/// Everything wrong with `catalog` against the ids this engine has.
fn problems(catalog: &Value) -> Vec<String> {
    game_core::testing::texts::catalog_problems(catalog, &expected_terms(), &expected_steps(), &expected_actions())
}

#[test]
fn the_catalog_describes_this_game_with_a_summary_of_six_to_twelve_sections() {
    check_summary(&catalog(), SecretTreasures::ID, SecretTreasures::NAME);
}

#[test]
fn every_card_figure_room_piece_step_and_action_has_a_complete_text_and_no_entry_is_unknown() {
    let problems = problems(&catalog());
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn the_playouts_meet_only_ids_the_api_enumerates_and_every_explained_field() {
    let seen = seen();
    let expected = expected_terms();
    let unknown: Vec<_> = seen.terms.difference(&expected).collect();
    assert!(unknown.is_empty(), "views and actions show ids the test does not enumerate: {unknown:?}");
    let (all_steps, all_actions) = (expected_steps(), expected_actions());
    let steps: Vec<_> = seen.steps.difference(&all_steps).collect();
    assert!(steps.is_empty(), "views show steps the test does not enumerate: {steps:?}");
    let actions: Vec<_> = seen.actions.difference(&all_actions).collect();
    assert!(actions.is_empty(), "legal actions of types the test does not enumerate: {actions:?}");
    let absent: Vec<_> = FIELDS.iter().chain(&FIGURES).filter(|f| !seen.fields.contains(**f)).collect();
    assert!(absent.is_empty(), "explained fields or figures that no view has: {absent:?}");
    // D1 to D14 of the spec: 7 phases (`turn` included) and 8 steps of a turn (D8 and D14 share
    // `move`); the 12 action types of docs/games/secret-treasures.md.
    assert_eq!(all_steps.len(), 15);
    assert_eq!(all_actions.len(), 12);
    // The playouts reach every decision point and action type: a real game produces these ids.
    assert_eq!(seen.steps, all_steps);
    assert_eq!(seen.actions, all_actions);
}

#[test]
fn names_are_the_printed_names_and_card_texts_state_the_bells_numbers() {
    let catalog = catalog();
    let term = |key: String, field: &str| catalog["terms"][&key][field].as_str().unwrap_or_default().to_string();
    for card in Card::ALL {
        let key = format!("character:{}", id(card));
        assert_eq!(term(key.clone(), "name"), card.name());
        if card != Card::Bells {
            let number = format!("Its Bells number is {}:", card.bells_number());
            assert!(term(key, "text").contains(&number), "{card:?} does not say {number}");
        }
    }
    for room in 1..=board::ROOMS {
        let name = term(format!("room:{room}"), "name");
        let church = if board::is_church(room) { " (church)" } else { "" };
        assert_eq!(name, format!("Room {room}{church}"));
    }
    for (i, boxes) in STOREHOUSES.iter().enumerate() {
        let short = term(format!("storehouse:{}", i + 1), "short");
        assert!(short.contains(&format!("with {boxes} boxes")), "storehouse {}: {short}", i + 1);
    }
}

#[test]
fn no_text_shows_a_raw_ring_code_or_identifier() {
    // The issue: "rings are X/Y/Z" with nothing to say what they are. The texts write ring types
    // as "ring type X" (capital), never the wire's lower-case `x`, and no snake_case tag
    // (`bag_empty`, `stash_ring`, `first_game_placement`) shows.
    let codes: BTreeSet<String> = Ring::ALL.iter().map(id).collect();
    for text in section_texts(&catalog()) {
        let shown: Vec<&str> = text
            .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .filter(|w| codes.contains(*w) || w.contains('_'))
            .collect();
        assert!(shown.is_empty(), "{shown:?} in: {text}");
    }
}

#[test]
fn removing_any_entry_or_adding_an_unknown_one_is_reported() {
    check_every_change_is_reported(&catalog(), "room:99", problems);
}
