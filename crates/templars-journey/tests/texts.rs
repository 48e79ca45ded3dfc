//! The English rules texts (`texts/en.json`) checked against the engine itself.
//!
//! The web client, the docs and the game log look every id they meet up in this catalog, so a
//! missing entry shows a player a raw code. The expected term keys come from the engine's public
//! board tables (territories, cities and their edicts, countries, tiles, edict spaces, the round
//! track walked with `Space::next`, missions, VP sources) and from random playouts at every
//! player count (card numbers, every decision point, every action type and every id a view
//! shows), so an id the engine gains and the catalog lacks fails here, as does a catalog entry
//! that names nothing the engine has.
//!
//! Lookup rule for clients: `steps[view.step.step]`, and during a card action (`"card"`) also
//! `steps[view.step.prompt.prompt]`; `actions[action.type]`.

use game_core::testing::texts::{
    check_every_change_is_reported, check_summary, english_catalog, json_id as id, section_texts,
};
use game_core::testing::visit_random_games;
use game_core::{Game, Viewer};
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::sync::OnceLock;
use templars_journey::board::{City, EdictSpace, Mission, Space, Territory, Tile};
use templars_journey::event::{Favour, Toss};
use templars_journey::state::{GoldTake, MoveKind, Prompt, VpSource};
use templars_journey::view::StepView;
use templars_journey::{Action, Options, TemplarsJourney, TEXTS_EN};

/// Random games per player count. The steps and action types are enumerated from the engine's
/// types; the playouts check that views and legal lists show nothing beyond them.
const GAMES_PER_COUNT: u64 = 12;
const MAX_STEPS: usize = 5_000;

/// View fields the catalog explains as `field:<name>`: the labels the client shows beside them.
const FIELDS: [&str; 19] = [
    "gold",
    "supply",
    "temple",
    "vp",
    "templars",
    "edicts",
    "mission",
    "first_player",
    "face_up_missions",
    "removed_edicts",
    "seventh_city",
    "capacity",
    "ship",
    "ship_capacity",
    "in_play",
    "penalised",
    "card_phases",
    "leg",
    "pope",
];

/// Every gold amount of a Collect-gold prompt; the match fails to compile when one is added.
fn gold_takes() -> [GoldTake; 3] {
    match GoldTake::Safe {
        GoldTake::Safe | GoldTake::Risky | GoldTake::Penalty => {}
    }
    [GoldTake::Safe, GoldTake::Risky, GoldTake::Penalty]
}

/// Every kind of Templar move; the match fails to compile when one is added.
fn move_kinds() -> [MoveKind; 3] {
    match MoveKind::Safe {
        MoveKind::Safe | MoveKind::Risky | MoveKind::Penalty => {}
    }
    [MoveKind::Safe, MoveKind::Risky, MoveKind::Penalty]
}

/// Every favour of the Pope; the match fails to compile when one is added.
fn favours() -> [Favour; 4] {
    match Favour::Leader {
        Favour::NewChance | Favour::Taxes | Favour::Leader | Favour::Veto => {}
    }
    [Favour::NewChance, Favour::Taxes, Favour::Leader, Favour::Veto]
}

/// Both sides of the chance marker; the match fails to compile when one is added.
fn tosses() -> [Toss; 2] {
    match Toss::Cross {
        Toss::Cross | Toss::Blank => {}
    }
    [Toss::Cross, Toss::Blank]
}

/// One value of every decision point the view can show: the view's steps, and inside a card
/// action every prompt. The matches fail to compile when a variant is added.
fn decision_points() -> (Vec<StepView>, Vec<Prompt>) {
    let (city, seat) = (City::Paris, game_core::Seat(0));
    let steps = vec![
        StepView::SetupKnight { placed: 0 },
        StepView::SetupTemplar { placed: 0 },
        StepView::PopeStep,
        StepView::GreenFlag,
        StepView::RedFlag,
        StepView::Leader { holder: seat, received: false },
        StepView::ChooseCards { chosen: game_core::BySeat(Vec::new()) },
        StepView::Card { seat, prompt: Prompt::Sacrifice },
        StepView::GameOver,
    ];
    for step in &steps {
        match step {
            StepView::SetupKnight { .. }
            | StepView::SetupTemplar { .. }
            | StepView::PopeStep
            | StepView::GreenFlag
            | StepView::RedFlag
            | StepView::Leader { .. }
            | StepView::ChooseCards { .. }
            | StepView::Card { .. }
            | StepView::GameOver => {}
        }
    }
    let prompts = vec![
        Prompt::GoldSource { take: GoldTake::Safe },
        Prompt::Taxes { penalty: false },
        Prompt::Sacrifice,
        Prompt::SafeCity,
        Prompt::SafeStep { city, spent: 0, chances: 0 },
        Prompt::CrossResult { city, spent: 0, chances: 0 },
        Prompt::NewChance { city, spent: 0, chances: 0 },
        Prompt::RiskyCity,
        Prompt::RiskyStep { city, done: 0 },
        Prompt::PenaltyCity,
        Prompt::PenaltyStep { city, done: 0 },
        Prompt::ChooseTemplar { kind: MoveKind::Safe },
        Prompt::MoveStep { kind: MoveKind::Safe, templar: 0, steps: 0, entered: Vec::new() },
        Prompt::SafeEffect { city },
        Prompt::EdictExchange { city },
        Prompt::Veto { city, target: City::Roma, asked: seat, later: Vec::new() },
        Prompt::PenaltyGold { entered: Vec::new() },
    ];
    for prompt in &prompts {
        match prompt {
            Prompt::GoldSource { .. }
            | Prompt::Taxes { .. }
            | Prompt::Sacrifice
            | Prompt::SafeCity
            | Prompt::SafeStep { .. }
            | Prompt::CrossResult { .. }
            | Prompt::NewChance { .. }
            | Prompt::RiskyCity
            | Prompt::RiskyStep { .. }
            | Prompt::PenaltyCity
            | Prompt::PenaltyStep { .. }
            | Prompt::ChooseTemplar { .. }
            | Prompt::MoveStep { .. }
            | Prompt::SafeEffect { .. }
            | Prompt::EdictExchange { .. }
            | Prompt::Veto { .. }
            | Prompt::PenaltyGold { .. } => {}
        }
    }
    (steps, prompts)
}

/// Every step id: the `step` tag of each view step and the `prompt` tag of each card prompt, as
/// the engine serialises them.
fn expected_steps() -> BTreeSet<String> {
    let (steps, prompts) = decision_points();
    let tag = |value: Value, field: &str| value.get(field).and_then(Value::as_str).map(str::to_string);
    let mut ids: BTreeSet<String> =
        steps.into_iter().filter_map(|s| tag(serde_json::to_value(s).unwrap_or_default(), "step")).collect();
    ids.extend(prompts.into_iter().filter_map(|p| tag(serde_json::to_value(p).unwrap_or_default(), "prompt")));
    ids
}

/// One value of every action, as the engine serialises it; the match fails to compile when a
/// variant is added.
fn expected_actions() -> BTreeSet<String> {
    let (city, territory, seat) = (City::Paris, Territory::Paris, game_core::Seat(0));
    let actions = vec![
        Action::SetupKnight { city },
        Action::SetupTemplar { territory },
        Action::MovePope { to: Space::start(1) },
        Action::PlaceKnight { city },
        Action::RemoveKnight { city, owner: seat },
        Action::ExchangeKnight { city, owner: seat },
        Action::Toss,
        Action::NewChance,
        Action::Decline,
        Action::Stop,
        Action::Forgo,
        Action::Accept,
        Action::PassLeader { to: seat },
        Action::ChooseCard { card: 1 },
        Action::TakeGold { territory },
        Action::Taxes { territory },
        Action::Sacrifice { city },
        Action::ChooseCity { city },
        Action::ChooseTemplar { territory },
        Action::MoveTemplar { to: territory },
        Action::ExchangeEdict { with: city },
        Action::Allow,
        Action::Veto,
    ];
    for action in &actions {
        match action {
            Action::SetupKnight { .. }
            | Action::SetupTemplar { .. }
            | Action::MovePope { .. }
            | Action::PlaceKnight { .. }
            | Action::RemoveKnight { .. }
            | Action::ExchangeKnight { .. }
            | Action::Toss
            | Action::NewChance
            | Action::Decline
            | Action::Stop
            | Action::Forgo
            | Action::Accept
            | Action::PassLeader { .. }
            | Action::ChooseCard { .. }
            | Action::TakeGold { .. }
            | Action::Taxes { .. }
            | Action::Sacrifice { .. }
            | Action::ChooseCity { .. }
            | Action::ChooseTemplar { .. }
            | Action::MoveTemplar { .. }
            | Action::ExchangeEdict { .. }
            | Action::Allow
            | Action::Veto => {}
        }
    }
    actions
        .into_iter()
        .filter_map(|a| serde_json::to_value(a).ok()?.get("type").and_then(Value::as_str).map(str::to_string))
        .collect()
}

fn catalog() -> Value {
    english_catalog(TEXTS_EN)
}

/// Every space of the round track, found by walking each leg from its start with the engine's
/// own successor rule.
fn round_track() -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut todo: Vec<Space> = (1..=3).map(Space::start).collect();
    while let Some(space) = todo.pop() {
        if found.insert(id(space)) {
            todo.extend(space.next().0);
        }
    }
    found
}

/// Every term key the engine's public API can name, given the card numbers it offers.
fn expected_terms(cards: &BTreeSet<String>) -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    keys.extend(Territory::ALL.iter().map(|t| format!("territory:{}", id(t))));
    keys.extend(Territory::ALL.iter().map(|t| format!("country:{}", id(t.country()))));
    keys.extend(City::ALL.iter().map(|c| format!("city:{}", id(c))));
    keys.extend(City::ALL.iter().map(|c| format!("edict:{}", id(c))));
    keys.extend(Tile::ALL.iter().map(|t| format!("tile:{}", id(t))));
    keys.extend(EdictSpace::ALL.iter().map(|s| format!("edict_space:{}", id(s))));
    keys.extend(round_track().iter().map(|s| format!("space:{s}")));
    keys.extend(Mission::ALL.iter().map(|m| format!("mission:{}", id(m))));
    keys.extend(cards.iter().map(|c| format!("card:{c}")));
    keys.extend(VpSource::ALL.iter().map(|s| format!("vp:{}", id(s))));
    keys.extend(gold_takes().iter().map(|t| format!("gold_take:{}", id(t))));
    keys.extend(move_kinds().iter().map(|k| format!("move_kind:{}", id(k))));
    keys.extend(favours().iter().map(|f| format!("favour:{}", id(f))));
    keys.extend(tosses().iter().map(|t| format!("toss:{}", id(t))));
    keys.extend(FIELDS.iter().map(|f| format!("field:{f}")));
    keys
}

/// What the random playouts met.
#[derive(Debug, Default)]
struct Seen {
    /// The decision points: `step.step`, and `step.prompt.prompt` inside a card action.
    steps: BTreeSet<String>,
    /// The `type` tag of every legal action.
    actions: BTreeSet<String>,
    /// The card numbers `choose_card` offers.
    cards: BTreeSet<String>,
    /// Term keys built from the ids views show.
    terms: BTreeSet<String>,
    /// Every object key in every view.
    fields: BTreeSet<String>,
}

/// The strings (or numbers) at `pointer`, whether it holds one value or a list of them.
fn ids_at(value: &Value, pointer: &str) -> Vec<String> {
    match value.pointer(pointer) {
        Some(Value::Array(items)) => items.iter().flat_map(|v| ids_at(v, "")).collect(),
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Number(n)) => vec![n.to_string()],
        _ => Vec::new(),
    }
}

impl Seen {
    fn term(&mut self, kind: &str, ids: Vec<String>) {
        self.terms.extend(ids.into_iter().map(|i| format!("{kind}:{i}")));
    }

    fn view(&mut self, view: &Value) {
        if let Some(step) = view.pointer("/step/step").and_then(Value::as_str) {
            self.steps.insert(step.to_string());
        }
        if let Some(prompt) = view.pointer("/step/prompt/prompt").and_then(Value::as_str) {
            self.steps.insert(prompt.to_string());
        }
        self.term("gold_take", ids_at(view, "/step/prompt/take"));
        self.term("move_kind", ids_at(view, "/step/prompt/kind"));
        self.term("space", ids_at(view, "/pope"));
        self.term("card", ids_at(view, "/my_card"));
        self.term("card", ids_at(view, "/card_phase/cards"));
        self.term("edict", ids_at(view, "/removed_edicts"));
        self.term("city", ids_at(view, "/seventh_city"));
        self.term("mission", ids_at(view, "/face_up_missions"));
        for t in view.get("territories").and_then(Value::as_array).into_iter().flatten() {
            self.term("territory", ids_at(t, "/id"));
            self.term("territory", ids_at(t, "/neighbours"));
            self.term("country", ids_at(t, "/country"));
            self.term("city", ids_at(t, "/city"));
        }
        for c in view.get("cities").and_then(Value::as_array).into_iter().flatten() {
            self.term("city", ids_at(c, "/id"));
            self.term("country", ids_at(c, "/country"));
            self.term("tile", ids_at(c, "/tile"));
            self.term("edict_space", ids_at(c, "/edict_space"));
        }
        for s in view.get("edict_spaces").and_then(Value::as_array).into_iter().flatten() {
            self.term("edict_space", ids_at(s, "/space"));
            self.term("edict", ids_at(s, "/edict"));
        }
        for p in view.get("players").and_then(Value::as_array).into_iter().flatten() {
            self.term("territory", ids_at(p, "/templars"));
            self.term("edict", ids_at(p, "/edicts"));
            self.term("mission", ids_at(p, "/mission"));
            for source in p.get("vp_by_source").and_then(Value::as_object).into_iter().flat_map(Map::keys) {
                self.terms.insert(format!("vp:{source}"));
            }
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

    fn game(&mut self, game: &TemplarsJourney) {
        for viewer in Viewer::all(game.players()) {
            self.view(&serde_json::to_value(game.view(viewer)).unwrap_or_default());
        }
        for seat in game.to_act() {
            for action in game.legal_actions(seat) {
                if let Action::ChooseCard { card } = action {
                    self.cards.insert(id(card));
                }
                let json = serde_json::to_value(action).unwrap_or_default();
                if let Some(tag) = json.get("type").and_then(Value::as_str) {
                    self.actions.insert(tag.to_string());
                }
            }
        }
    }
}

/// Plays the random games once for all tests, replaying each to look at every position.
fn seen() -> &'static Seen {
    static SEEN: OnceLock<Seen> = OnceLock::new();
    SEEN.get_or_init(|| {
        let mut seen = Seen::default();
        let counts = TemplarsJourney::MIN_PLAYERS..=TemplarsJourney::MAX_PLAYERS;
        let configurations = counts.map(|players| (players, Options::default()));
        visit_random_games(configurations, GAMES_PER_COUNT, MAX_STEPS, |game: &TemplarsJourney| seen.game(game));
        seen
    })
}

/// Everything wrong with `catalog` against the ids this engine has.
fn problems(catalog: &Value, seen: &Seen) -> Vec<String> {
    game_core::testing::texts::catalog_problems(
        catalog,
        &expected_terms(&seen.cards),
        &expected_steps(),
        &expected_actions(),
    )
}

#[test]
fn the_catalog_describes_this_game_with_a_summary_of_six_to_twelve_sections() {
    check_summary(&catalog(), TemplarsJourney::ID, TemplarsJourney::NAME);
}

#[test]
fn every_board_id_card_step_and_action_has_a_complete_text_and_no_entry_is_unknown() {
    let seen = seen();
    let problems = problems(&catalog(), seen);
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn the_playouts_meet_only_ids_the_api_enumerates_and_every_explained_field() {
    let seen = seen();
    let expected = expected_terms(&seen.cards);
    let unknown: Vec<_> = seen.terms.difference(&expected).collect();
    assert!(unknown.is_empty(), "views show ids the test does not enumerate: {unknown:?}");
    let absent: Vec<_> = FIELDS.iter().filter(|f| !seen.fields.contains(**f)).collect();
    assert!(absent.is_empty(), "explained fields that no view has: {absent:?}");
    let (all_steps, all_actions) = (expected_steps(), expected_actions());
    let steps: Vec<_> = seen.steps.difference(&all_steps).collect();
    assert!(steps.is_empty(), "views show steps the test does not enumerate: {steps:?}");
    let actions: Vec<_> = seen.actions.difference(&all_actions).collect();
    assert!(actions.is_empty(), "legal actions of types the test does not enumerate: {actions:?}");
    // Six action cards; 27 round-track spaces (9 per leg); D1 to D25 of the spec as 9 view steps
    // (D6 and D7 share `leader`; `card` and `game_over` included) and 17 card prompts; the 23
    // action types of docs/games/templars-journey.md.
    assert_eq!(seen.cards.len(), 6, "{:?}", seen.cards);
    assert_eq!(round_track().len(), 27);
    assert_eq!(all_steps.len(), 26);
    assert_eq!(all_actions.len(), 23);
    // The playouts reach nearly every decision point: a real game produces these ids.
    assert!(seen.steps.len() >= 24, "{:?}", seen.steps);
    assert!(seen.actions.len() >= 21, "{:?}", seen.actions);
}

#[test]
fn names_are_the_board_names_and_written_out_codes() {
    let catalog = catalog();
    let name = |key: String| catalog["terms"][&key]["name"].as_str().unwrap_or_default().to_string();
    for t in Territory::ALL {
        assert_eq!(name(format!("territory:{}", id(t))), t.name());
    }
    for c in City::ALL {
        assert_eq!(name(format!("city:{}", id(c))), c.name());
        assert_eq!(name(format!("edict:{}", id(c))), format!("Edict of {}", c.name()));
    }
    for s in VpSource::ALL {
        assert_eq!(name(format!("vp:{}", id(s))), s.label());
    }
    // Each tile's and ship's name states its capacity, so a tooltip shows the number.
    for t in Tile::ALL {
        assert!(name(format!("tile:{}", id(t))).contains(&format!("({} knights)", t.capacity())), "{t:?}");
    }
    for s in EdictSpace::ALL.iter().filter(|s| s.ship_capacity() > 0) {
        assert!(name(format!("edict_space:{}", id(s))).contains(&format!("ship of {}", s.ship_capacity())), "{s:?}");
    }
    // Each mission's short text says it is a mission, so a tooltip tells it from a card.
    for m in Mission::ALL {
        let short = catalog["terms"][format!("mission:{}", id(m))]["short"].as_str().unwrap_or_default();
        assert!(short.starts_with("Mission: "), "{m:?}: {short}");
    }
}

#[test]
fn no_text_shows_a_raw_board_code_or_identifier() {
    // The issue: players met codes with nothing to say what they mean. Territory, country, tile,
    // edict-space, round-track and mission ids are written out; snake_case tags never show.
    let mut codes: BTreeSet<String> = Territory::ALL.iter().map(id).collect();
    codes.extend(Territory::ALL.iter().map(|t| id(t.country())));
    codes.extend(Tile::ALL.iter().map(id));
    codes.extend(EdictSpace::ALL.iter().map(id));
    codes.extend(round_track());
    codes.extend(Mission::ALL.iter().map(id));
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
    let seen = seen();
    check_every_change_is_reported(&catalog(), "territory:XXX", |c| problems(c, seen));
}
