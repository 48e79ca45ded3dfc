//! What one viewer may see, and the re-drawing of everything hidden from them.
//!
//! Hidden: other hands (counts only), other edicts (until the end), the edict drawn at
//! Nottingham (its drawer only), every deck's order and the Crusade deck's contents, the RNG.

use crate::board::{base_cost, Card, Cards, Character, Edict, EventCard, Faction, Location, Purchase, Side, Timing};
use crate::rules::{contribute, purchase};
use crate::state::{GameResult, Movement, RichardTheLionheart, Stage, Tracks, Verdicts};
use game_core::view_diff::{ViewParts, ViewText};
use game_core::{BySeat, GameRng, Seat, Viewer};
use serde::Serialize;
use std::sync::Arc;

/// One player as `viewer` sees them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerView {
    /// The seat.
    pub seat: Seat,
    /// The character (None while characters are being chosen).
    pub character: Option<Character>,
    /// The character's faction.
    pub faction: Option<Faction>,
    /// The side this round.
    pub side: Side,
    /// Coins.
    pub coins: u32,
    /// Prestige Points.
    pub prestige: u32,
    /// The number of cards in hand.
    pub hand_count: usize,
    /// The hand, for its owner only.
    pub hand: Option<Cards>,
    /// The edict, for its holder only (everyone's at the end).
    pub edict: Option<Edict>,
    /// Owns the Horse.
    pub horse: bool,
    /// Owns the Ship.
    pub ship: bool,
    /// Owns the faction skill.
    pub skill: bool,
    /// Where the figure stands.
    pub location: Option<Location>,
    /// Cards contributed to the Crusade this round.
    pub contributed: u8,
    /// Leopold's Captor of the King is spent.
    pub captor_used: bool,
}

/// The decision in progress, as public data (plus the viewer's own secret edict draw).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StageView {
    /// The decision: `choose_character`, `choose_side`, `captor`, `place`, `move`,
    /// `location_action`, `take_choice`, `keep_edict`, `ally_take`, `skill_return`, `purchase`, `trade`,
    /// `contribute` or `over`.
    pub name: &'static str,
    /// The phase of the round (0 = setup, 1–4, 7 = over).
    pub phase: u8,
    /// The seat deciding.
    pub seat: Option<Seat>,
    /// The move in progress.
    pub movement: Option<Movement>,
    /// The active player whose action the allies answer (ally takes).
    pub active: Option<Seat>,
    /// Allies still to answer, the current one first.
    pub pending_allies: Vec<Seat>,
    /// The edict drawn at Nottingham, for its drawer only.
    pub drawn_edict: Option<Edict>,
}

/// Costs of this round's purchases for the viewer (base costs for spectators).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Costs {
    /// A random card.
    pub random_card: u32,
    /// A specific card.
    pub specific_card: u32,
    /// A Prestige Point.
    pub prestige_point: u32,
    /// The Horse.
    pub horse: u32,
    /// The Ship.
    pub ship: u32,
    /// The faction skill.
    pub skill: u32,
    /// The 3rd contributed card.
    pub third_card: u32,
}

/// The active event.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EventView {
    /// Its id.
    pub id: EventCard,
    /// Its name.
    pub name: &'static str,
    /// `round` (a modifier) or `end` (resolved in Phase 6).
    pub timing: Timing,
}

/// Deck sizes (their order and contents are hidden).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DeckCounts {
    /// The Provisions deck.
    pub provisions: usize,
    /// The Crusade deck.
    pub crusade: usize,
    /// The Event deck.
    pub events: usize,
    /// Richard's edict deck.
    pub richard_edicts: usize,
    /// John's edict deck.
    pub john_edicts: usize,
    /// The Neutral edict deck.
    pub neutral_edicts: usize,
}

/// Everything one viewer may see.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    /// Who is looking (None for a spectator).
    pub viewer: Option<Seat>,
    /// The Game Round (1..=10).
    pub round: u8,
    /// The first player of the round.
    pub first_player: Seat,
    /// The seats the game waits for.
    pub to_act: Vec<Seat>,
    /// The decision in progress.
    pub stage: StageView,
    /// Whether the 4–6 player side of the board is used.
    pub big_board: bool,
    /// The players.
    pub players: BySeat<PlayerView>,
    /// The Crusade tracks.
    pub tracks: Tracks,
    /// The Reserve, per type.
    pub reserve: Cards,
    /// Deck sizes.
    pub decks: DeckCounts,
    /// The cards revealed by this round's Outcomes (until Phase 7 returns them).
    pub display: Cards,
    /// This round's comparisons.
    pub verdicts: Option<Verdicts>,
    /// The active event.
    pub active_event: Option<EventView>,
    /// Resolved events, oldest first.
    pub discarded_events: Vec<EventCard>,
    /// The Merchant's location.
    pub merchant: Option<Location>,
    /// The Mercenary's location.
    pub mercenary: Option<Location>,
    /// This round's costs.
    pub costs: Costs,
    /// The result, once the game is over.
    pub result: Option<GameResult>,
}

fn stage_view(game: &RichardTheLionheart, viewer: Viewer) -> StageView {
    let mut v = StageView {
        name: "over",
        phase: 7,
        seat: game.stage.seat(),
        movement: None,
        active: None,
        pending_allies: Vec::new(),
        drawn_edict: None,
    };
    let (name, phase) = match &game.stage {
        Stage::ChooseCharacter { .. } => ("choose_character", 0),
        Stage::ChooseSide { .. } => ("choose_side", 1),
        Stage::Captor { .. } => ("captor", 1),
        Stage::Place { .. } => ("place", 2),
        Stage::Move { movement, .. } => {
            v.movement = Some(movement.clone());
            ("move", 2)
        }
        Stage::LocationAction { .. } => ("location_action", 2),
        Stage::TakeChoice { .. } => ("take_choice", 2),
        Stage::KeepEdict { seat, drawn } => {
            if viewer.is(*seat) {
                v.drawn_edict = Some(*drawn);
            }
            ("keep_edict", 2)
        }
        Stage::AllyTake { active, pending } => {
            v.active = Some(*active);
            v.pending_allies = pending.clone();
            ("ally_take", 2)
        }
        Stage::SkillReturn { .. } => ("skill_return", 2),
        Stage::Purchase { .. } => ("purchase", 3),
        Stage::Trade { .. } => ("trade", 3),
        Stage::Contribute { .. } => ("contribute", 4),
        Stage::Over => ("over", 7),
    };
    v.name = name;
    v.phase = phase;
    v
}

fn costs(game: &RichardTheLionheart, viewer: Viewer) -> Costs {
    let any = Purchase::SpecificCard { card: Card::RB };
    match viewer {
        Viewer::Seat(s) if game.players.get(s).is_some_and(|p| p.character.is_some()) => Costs {
            random_card: purchase::cost(game, s, Purchase::RandomCard),
            specific_card: purchase::cost(game, s, any),
            prestige_point: purchase::cost(game, s, Purchase::PrestigePoint),
            horse: purchase::cost(game, s, Purchase::Horse),
            ship: purchase::cost(game, s, Purchase::Ship),
            skill: purchase::cost(game, s, Purchase::Skill),
            third_card: contribute::third_card_cost(game, s),
        },
        // No character: the printed costs with this round's (public) event applied.
        _ => {
            let fair = |base: u32| if game.event_is(EventCard::E05) { base.saturating_sub(1).max(1) } else { base };
            Costs {
                random_card: base_cost(Purchase::RandomCard, game.round),
                specific_card: base_cost(any, game.round),
                prestige_point: base_cost(Purchase::PrestigePoint, game.round),
                horse: fair(base_cost(Purchase::Horse, game.round)),
                ship: fair(base_cost(Purchase::Ship, game.round)),
                skill: base_cost(Purchase::Skill, game.round),
                third_card: 2 - u32::from(game.event_is(EventCard::E06)),
            }
        }
    }
}

/// The view of `viewer` (`Game::view`).
pub(crate) fn view(game: &RichardTheLionheart, viewer: Viewer) -> View {
    View {
        viewer: match viewer {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        },
        round: game.round,
        first_player: game.first_player,
        to_act: game.stage.seat().into_iter().collect(),
        stage: stage_view(game, viewer),
        big_board: game.big_board(),
        players: players_view(game, viewer),
        tracks: game.tracks,
        reserve: game.reserve,
        decks: deck_counts(game),
        display: game.display,
        verdicts: game.verdicts,
        active_event: active_event(game),
        discarded_events: game.discarded_events.clone(),
        merchant: game.merchant,
        mercenary: game.mercenary,
        costs: costs(game, viewer),
        result: game.result.clone(),
    }
}

/// Every viewer's view text as parts in [`View`]'s field order (`Game::view_texts`). `viewer`,
/// the stage, the players (a seat sees its own hand and edict) and the costs are written per
/// viewer; the rest (the tracks, the decks, the display, the events, the result) once per
/// action, every viewer getting the same parts for it, so that a table diffs them once. The
/// server's `view_patches` test checks that the parts join to the view's text at every step.
pub(crate) fn view_texts(game: &RichardTheLionheart, viewers: &[Viewer]) -> Vec<ViewParts> {
    // The shared runs straight from the game, as `view` writes those fields: no viewer's stage,
    // players or costs are worked out for them.
    let to_act: Vec<Seat> = game.stage.seat().into_iter().collect();
    let turn = Arc::new(ViewText::serialize_sized(
        &TurnRun { round: game.round, first_player: game.first_player, to_act: &to_act },
        64,
    ));
    let big_board = Arc::new(ViewText::serialize_sized(&BigBoardRun { big_board: game.big_board() }, 32));
    let board = Arc::new(ViewText::serialize(&BoardRun {
        tracks: &game.tracks,
        reserve: &game.reserve,
        decks: &deck_counts(game),
        display: &game.display,
        verdicts: &game.verdicts,
        active_event: &active_event(game),
        discarded_events: &game.discarded_events,
        merchant: game.merchant,
        mercenary: game.mercenary,
    }));
    let result = Arc::new(ViewText::serialize_sized(&ResultRun { result: &game.result }, 64));
    viewers
        .iter()
        .map(|&viewer| {
            let viewer_run = ViewerRun {
                viewer: match viewer {
                    Viewer::Seat(s) => Some(s),
                    Viewer::Spectator => None,
                },
            };
            let stage = StageRun { stage: stage_view(game, viewer) };
            let players = PlayersRun { players: players_view(game, viewer) };
            let costs = CostsRun { costs: costs(game, viewer) };
            ViewParts::new([
                Arc::new(ViewText::serialize_sized(&viewer_run, 32)),
                Arc::clone(&turn),
                Arc::new(ViewText::serialize_sized(&stage, 128)),
                Arc::clone(&big_board),
                Arc::new(ViewText::serialize(&players)),
                Arc::clone(&board),
                Arc::new(ViewText::serialize_sized(&costs, 256)),
                Arc::clone(&result),
            ])
        })
        .collect()
}

// [`View`]'s fields in runs, in its field order, with its field names: joined, the runs are
// exactly the text of the whole `View`.

#[derive(Serialize)]
struct ViewerRun {
    viewer: Option<Seat>,
}

#[derive(Serialize)]
struct TurnRun<'a> {
    round: u8,
    first_player: Seat,
    to_act: &'a [Seat],
}

#[derive(Serialize)]
struct StageRun {
    stage: StageView,
}

#[derive(Serialize)]
struct BigBoardRun {
    big_board: bool,
}

#[derive(Serialize)]
struct PlayersRun {
    players: BySeat<PlayerView>,
}

#[derive(Serialize)]
struct BoardRun<'a> {
    tracks: &'a Tracks,
    reserve: &'a Cards,
    decks: &'a DeckCounts,
    display: &'a Cards,
    verdicts: &'a Option<Verdicts>,
    active_event: &'a Option<EventView>,
    discarded_events: &'a [EventCard],
    merchant: Option<Location>,
    mercenary: Option<Location>,
}

#[derive(Serialize)]
struct CostsRun {
    costs: Costs,
}

#[derive(Serialize)]
struct ResultRun<'a> {
    result: &'a Option<GameResult>,
}

/// The sizes of the face-down decks.
fn deck_counts(game: &RichardTheLionheart) -> DeckCounts {
    DeckCounts {
        provisions: game.provisions.len(),
        crusade: game.crusade.len(),
        events: game.events.len(),
        richard_edicts: game.edicts.richard.len(),
        john_edicts: game.edicts.john.len(),
        neutral_edicts: game.edicts.neutral.len(),
    }
}

/// The active event, with its name and timing.
fn active_event(game: &RichardTheLionheart) -> Option<EventView> {
    game.active_event.map(|e| EventView { id: e, name: e.name(), timing: e.timing() })
}

/// Each player's area as `viewer` sees it: only a seat's own hand, and its own edict until the
/// game is over.
fn players_view(game: &RichardTheLionheart, viewer: Viewer) -> BySeat<PlayerView> {
    let over = game.stage == Stage::Over;
    game.players.map(|seat, p| {
        let own = viewer.is(seat);
        PlayerView {
            seat,
            character: p.character,
            faction: p.character.map(Character::faction),
            side: p.side,
            coins: p.coins,
            prestige: p.prestige,
            hand_count: p.hand.total(),
            hand: own.then_some(p.hand),
            edict: if own || over { p.edict } else { None },
            horse: p.horse,
            ship: p.ship,
            skill: p.skill,
            location: p.location,
            contributed: p.contributed,
            captor_used: p.captor_used,
        }
    })
}

/// A copy where everything hidden from `viewer` is re-drawn at random, consistently
/// (`Game::scramble_hidden`).
pub(crate) fn scramble_hidden(game: &RichardTheLionheart, viewer: Viewer, rng: &mut GameRng) -> RichardTheLionheart {
    let mut g = game.clone();
    g.rng = GameRng::from_u64(u64::from(rng.next_u32()));
    let hidden_hand = |s: Seat| !viewer.is(s);

    // Influence cards: the Provisions deck, the Crusade deck and the hands the viewer cannot see.
    let mut pool: Vec<Card> = g.provisions.iter().chain(g.crusade.iter()).copied().collect();
    for (s, p) in g.players.iter_mut() {
        if hidden_hand(s) {
            pool.extend(p.hand.to_vec());
        }
    }
    rng.shuffle(&mut pool);
    let mut rest = pool.into_iter();
    let provisions_len = g.provisions.len();
    g.provisions = rest.by_ref().take(provisions_len).collect();
    let crusade_len = g.crusade.len();
    g.crusade = rest.by_ref().take(crusade_len).collect();
    for (s, p) in g.players.iter_mut() {
        if hidden_hand(s) {
            let size = p.hand.total();
            let cards: Vec<Card> = rest.by_ref().take(size).collect();
            p.hand = Cards::from_cards(&cards);
        }
    }

    // Edicts: each deck, the edicts others hold (until the end) and an edict drawn by another player.
    let over = g.stage == Stage::Over;
    for faction in [Faction::Richard, Faction::John, Faction::Neutral] {
        let holders: Vec<Seat> = g
            .players
            .iter()
            .filter(|(s, p)| !over && hidden_hand(*s) && p.faction() == faction && p.edict.is_some())
            .map(|(s, _)| s)
            .collect();
        let drawn_slot = match &g.stage {
            Stage::KeepEdict { seat, drawn } if !viewer.is(*seat) && drawn.faction() == faction => Some(*drawn),
            _ => None,
        };
        let mut pool: Vec<Edict> = g.edicts.deck_mut(faction).clone();
        pool.extend(holders.iter().filter_map(|s| g.players[*s].edict));
        pool.extend(drawn_slot);
        rng.shuffle(&mut pool);
        let mut rest = pool.into_iter();
        for s in &holders {
            g.players[*s].edict = rest.next();
        }
        if drawn_slot.is_some() {
            if let (Stage::KeepEdict { drawn, .. }, Some(e)) = (&mut g.stage, rest.next()) {
                *drawn = e;
            }
        }
        *g.edicts.deck_mut(faction) = rest.collect();
    }

    rng.shuffle(&mut g.events);
    g
}
