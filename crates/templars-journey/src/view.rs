//! What one viewer may see, and the re-draw of everything hidden from a viewer that the
//! hidden-information test uses. Hidden: other players' missions (until the end), the boxed
//! missions and edicts, other players' unrevealed card choices, and the RNG.

use crate::board::{City, Country, EdictSpace, Mission, Space, Territory, Tile};
use crate::state::{CardPhase, Prompt, Step, TemplarsJourney, VpSource};
use crate::{rules, score};
use game_core::view_diff::{ViewParts, ViewText};
use game_core::{BySeat, GameRng, Outcome, Seat, Viewer};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// One territory as drawn on the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TerritoryView {
    /// Three-letter id.
    pub id: Territory,
    /// Display name.
    pub name: &'static str,
    /// Country (R).
    pub country: Country,
    /// The city space in it, if any.
    pub city: Option<City>,
    /// Gold lying there.
    pub gold: u32,
    /// Adjacent territories.
    pub neighbours: Vec<Territory>,
    /// The owner of each Templar standing there (a seat appears twice for two Templars).
    pub templars: Vec<Seat>,
}

/// One city space.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CityView {
    /// The city (and edict) id.
    pub id: City,
    /// Its country.
    pub country: Country,
    /// False for the two cities whose edicts went to the box at setup.
    pub in_play: bool,
    /// The tile while the city is active.
    pub tile: Option<Tile>,
    /// The tile's capacity (0 when inactive).
    pub capacity: u32,
    /// Knights per seat.
    pub knights: BySeat<u32>,
    /// The edict space its edict lies on, while on the track.
    pub edict_space: Option<EdictSpace>,
}

/// One edict space and its ship.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EdictSpaceView {
    /// The space.
    pub space: EdictSpace,
    /// The edict on it while unevaluated.
    pub edict: Option<City>,
    /// Whether it has been evaluated.
    pub evaluated: bool,
    /// Capacity of its ship (0 for `E7`).
    pub ship_capacity: u32,
    /// Knights per seat on its ship.
    pub ship: BySeat<u32>,
}

/// One player's public holdings, and the viewer's own secrets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    /// The seat.
    pub seat: Seat,
    /// Gold.
    pub gold: u32,
    /// Knights in the supply.
    pub supply: u32,
    /// Knights in the temple.
    pub temple: u32,
    /// Total VP.
    pub vp: u32,
    /// VP by source.
    pub vp_by_source: BTreeMap<VpSource, u32>,
    /// Territories of the Templars.
    pub templars: Vec<Territory>,
    /// Edicts won.
    pub edicts: Vec<City>,
    /// The mission card: the viewer's own, or everyone's once the game is over.
    pub mission: Option<Mission>,
    /// During the card choice: whether this player has chosen.
    pub has_chosen_card: Option<bool>,
    /// Whether this player holds the first-player marker.
    pub first_player: bool,
}

/// The decision point, with hidden choices reduced to "has chosen".
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum StepView {
    /// D1: setup knight placement.
    SetupKnight {
        /// Placements made.
        placed: usize,
    },
    /// D2: setup Templar placement.
    SetupTemplar {
        /// Placements made.
        placed: usize,
    },
    /// D3: the first player moves the Pope.
    PopeStep,
    /// D4.
    GreenFlag,
    /// D5.
    RedFlag,
    /// D6/D7.
    Leader {
        /// The marker holder.
        holder: Seat,
        /// Whether they received it with the Leader favour.
        received: bool,
    },
    /// D8.
    ChooseCards {
        /// Per seat: has chosen.
        chosen: BySeat<bool>,
    },
    /// A card action.
    Card {
        /// The acting player.
        seat: Seat,
        /// The decision point inside it.
        prompt: Prompt,
    },
    /// The game is over.
    GameOver,
}

/// Everything one viewer may see.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    /// Who this view is for.
    pub viewer: Viewer,
    /// The current leg of the round track (1 to 3).
    pub leg: u8,
    /// The Pope's space.
    pub pope: Space,
    /// The holder of the first-player marker.
    pub first_player: Seat,
    /// The seats the game waits for.
    pub to_act: Vec<Seat>,
    /// The decision point.
    pub step: StepView,
    /// Whether the decision point may be left with `decline`, `stop`, `accept` or `forgo`.
    pub optional: bool,
    /// The territories.
    pub territories: Vec<TerritoryView>,
    /// The 9 city spaces.
    pub cities: Vec<CityView>,
    /// The 7 edict spaces and their ships.
    pub edict_spaces: Vec<EdictSpaceView>,
    /// Edicts removed after a tie.
    pub removed_edicts: Vec<City>,
    /// The players.
    pub players: BySeat<PlayerView>,
    /// Face-up missions.
    pub face_up_missions: Vec<Mission>,
    /// The viewer's own hidden card choice, before the reveal.
    pub my_card: Option<u8>,
    /// The revealed cards of the current or last card phase.
    pub card_phase: Option<CardPhase>,
    /// Card phases played in the game and in this leg.
    pub card_phases: (u32, u32),
    /// The seventh city, once scored.
    pub seventh_city: Option<City>,
    /// The result, once the game is over.
    pub outcome: Option<Outcome>,
}

/// What `viewer` may see (`Game::view`).
pub(crate) fn view(game: &TemplarsJourney, viewer: Viewer) -> View {
    let chosen: Option<BySeat<bool>> = match &game.step {
        Step::ChooseCards { chosen } => Some(chosen.map(|_, c| c.is_some())),
        _ => None,
    };
    let my_card = match (&game.step, viewer) {
        (Step::ChooseCards { chosen }, Viewer::Seat(s)) => chosen.get(s).copied().flatten(),
        _ => None,
    };
    let territories = Territory::ALL
        .into_iter()
        .map(|t| TerritoryView {
            id: t,
            name: t.name(),
            country: t.country(),
            city: t.city(),
            gold: game.gold_at(t),
            neighbours: t.neighbours().to_vec(),
            templars: game
                .players
                .iter()
                .flat_map(|(s, p)| p.templars.iter().filter(move |x| **x == t).map(move |_| s))
                .collect(),
        })
        .collect();
    let cities = City::ALL
        .into_iter()
        .map(|c| {
            let state = game.city(c);
            CityView {
                id: c,
                country: c.country(),
                in_play: !game.boxed_edicts.contains(&c),
                tile: state.tile,
                capacity: state.tile.map_or(0, |t| t.capacity()),
                knights: state.knights.clone(),
                edict_space: game.space_of(c),
            }
        })
        .collect();
    let edict_spaces = EdictSpace::ALL
        .into_iter()
        .map(|s| EdictSpaceView {
            space: s,
            edict: game.edict_on(s),
            evaluated: game.evaluated.get(s.index()).copied().unwrap_or(false),
            ship_capacity: s.ship_capacity(),
            ship: game.ships.get(s.index()).cloned().unwrap_or_default(),
        })
        .collect();
    let players = players_view(game, viewer);
    let step = match &game.step {
        Step::SetupKnight { placed } => StepView::SetupKnight { placed: *placed },
        Step::SetupTemplar { placed } => StepView::SetupTemplar { placed: *placed },
        Step::PopeStep => StepView::PopeStep,
        Step::GreenFlag => StepView::GreenFlag,
        Step::RedFlag => StepView::RedFlag,
        Step::Leader { holder, received } => StepView::Leader { holder: *holder, received: *received },
        Step::ChooseCards { .. } => StepView::ChooseCards { chosen: chosen.clone().unwrap_or_default() },
        Step::Card { seat, prompt } => StepView::Card { seat: *seat, prompt: prompt.clone() },
        Step::GameOver => StepView::GameOver,
    };
    View {
        viewer,
        leg: game.pope.leg,
        pope: game.pope,
        first_player: game.first,
        to_act: rules::to_act(game),
        step,
        optional: game.is_optional(),
        territories,
        cities,
        edict_spaces,
        removed_edicts: game.removed_edicts.clone(),
        players,
        face_up_missions: game.face_up_missions.clone(),
        my_card,
        card_phase: game.card_phase.clone(),
        card_phases: (game.card_phases, game.leg_card_phases),
        seventh_city: game.seventh_city,
        outcome: score::outcome(game),
    }
}

/// Each player's area as `viewer` sees it: a seat sees its own mission, and everyone sees them
/// all once the game is over.
fn players_view(game: &TemplarsJourney, viewer: Viewer) -> BySeat<PlayerView> {
    let over = game.step == Step::GameOver;
    let chosen = match &game.step {
        Step::ChooseCards { chosen } => Some(chosen),
        _ => None,
    };
    game.players.map(|s, p| PlayerView {
        seat: s,
        gold: p.gold,
        supply: p.supply,
        temple: p.temple,
        vp: p.total_vp(),
        vp_by_source: p.vp.clone(),
        templars: p.templars.clone(),
        edicts: p.edicts.clone(),
        mission: (over || viewer.is(s)).then_some(p.mission),
        has_chosen_card: chosen.and_then(|c| c.get(s).map(Option::is_some)),
        first_player: s == game.first,
    })
}

/// Every viewer's view text as parts in [`View`]'s field order (`Game::view_texts`). Only
/// `viewer`, the players (each seat sees its own mission until the end) and `my_card` differ
/// between viewers: the map, the edicts, the step and the rest are written once per action, and
/// every viewer gets the same parts for them, so that a table diffs them once. The server's
/// `view_patches` test checks that the parts join to the view's text at every step.
pub(crate) fn view_texts(game: &TemplarsJourney, viewers: &[Viewer]) -> Vec<ViewParts> {
    let public = view(game, Viewer::Spectator);
    let board = Arc::new(ViewText::serialize(&BoardRun {
        leg: public.leg,
        pope: &public.pope,
        first_player: public.first_player,
        to_act: &public.to_act,
        step: &public.step,
        optional: public.optional,
        territories: &public.territories,
        cities: &public.cities,
        edict_spaces: &public.edict_spaces,
        removed_edicts: &public.removed_edicts,
    }));
    let missions = Arc::new(ViewText::serialize(&MissionsRun { face_up_missions: &public.face_up_missions }));
    let rest = Arc::new(ViewText::serialize(&RestRun {
        card_phase: &public.card_phase,
        card_phases: public.card_phases,
        seventh_city: public.seventh_city,
        outcome: &public.outcome,
    }));
    let mut public_players: Option<Arc<ViewText>> = None;
    viewers
        .iter()
        .map(|&viewer| {
            let players = match viewer {
                Viewer::Seat(_) => Arc::new(ViewText::serialize(&PlayersRun { players: &players_view(game, viewer) })),
                Viewer::Spectator => Arc::clone(
                    public_players
                        .get_or_insert_with(|| Arc::new(ViewText::serialize(&PlayersRun { players: &public.players }))),
                ),
            };
            let my_card = match (&game.step, viewer) {
                (Step::ChooseCards { chosen }, Viewer::Seat(s)) => chosen.get(s).copied().flatten(),
                _ => None,
            };
            ViewParts::new([
                Arc::new(ViewText::serialize_sized(&ViewerRun { viewer }, 32)),
                Arc::clone(&board),
                players,
                Arc::clone(&missions),
                Arc::new(ViewText::serialize_sized(&MyCardRun { my_card }, 32)),
                Arc::clone(&rest),
            ])
        })
        .collect()
}

// [`View`]'s fields in runs, in its field order, with its field names: joined, the runs are
// exactly the text of the whole `View`.

#[derive(Serialize)]
struct ViewerRun {
    viewer: Viewer,
}

#[derive(Serialize)]
struct BoardRun<'a> {
    leg: u8,
    pope: &'a Space,
    first_player: Seat,
    to_act: &'a [Seat],
    step: &'a StepView,
    optional: bool,
    territories: &'a [TerritoryView],
    cities: &'a [CityView],
    edict_spaces: &'a [EdictSpaceView],
    removed_edicts: &'a [City],
}

#[derive(Serialize)]
struct PlayersRun<'a> {
    players: &'a BySeat<PlayerView>,
}

#[derive(Serialize)]
struct MissionsRun<'a> {
    face_up_missions: &'a [Mission],
}

#[derive(Serialize)]
struct MyCardRun {
    my_card: Option<u8>,
}

#[derive(Serialize)]
struct RestRun<'a> {
    card_phase: &'a Option<CardPhase>,
    card_phases: (u32, u32),
    seventh_city: Option<City>,
    outcome: &'a Option<Outcome>,
}

/// A copy with everything hidden from `viewer` re-drawn: other players' missions and the
/// boxed missions are re-dealt among themselves, others' unrevealed cards re-chosen, and the
/// RNG re-seeded (`Game::scramble_hidden`).
pub(crate) fn scramble_hidden(game: &TemplarsJourney, viewer: Viewer, rng: &mut GameRng) -> TemplarsJourney {
    let mut g = game.clone();
    g.rng = GameRng::from_u64(u64::from(rng.next_u32()));
    if g.step != Step::GameOver {
        let hidden: Vec<Seat> = g.players.iter().map(|(s, _)| s).filter(|s| !viewer.is(*s)).collect();
        let mut pool: Vec<Mission> = hidden.iter().map(|s| g.players[*s].mission).collect();
        pool.extend(g.boxed_missions.iter().copied());
        rng.shuffle(&mut pool);
        for (s, m) in hidden.iter().zip(&pool) {
            g.players[*s].mission = *m;
        }
        g.boxed_missions = pool.get(hidden.len()..).map(<[Mission]>::to_vec).unwrap_or_default();
    }
    if let Step::ChooseCards { chosen } = &mut g.step {
        for (s, c) in chosen.iter_mut() {
            if c.is_some() && !viewer.is(s) {
                *c = Some(1 + rng.below(6) as u8);
            }
        }
    }
    g
}
