//! Knights Templar, the Warpspawn card game by Lloyd Krassner: a pure, deterministic rules engine
//! for 2–8 players, following `specs/knights-templar.md`.
//!
//! - [`card`]: the 95 cards, their names and types;
//! - [`state`]: the full (secret) state and read access to it;
//! - [`action`]: the five decisions a player makes;
//! - [`rules`]: setup and the turn flow, with single-option decisions played automatically;
//! - [`event`]: log lines;
//! - [`view`]: what each viewer may see;
//! - [`score`]: final scoring.

pub mod action;
pub mod card;
pub mod event;
pub mod rules;
pub mod score;
pub mod state;
pub mod view;

#[cfg(test)]
mod tests;

pub use action::Action;
pub use card::{Card, CardType};
pub use event::KtEvent;
pub use state::{Discard, EndReason, KnightsTemplar, Pending, Stage};
pub use view::KtView;

use game_core::{Event, Game, GameRng, Outcome, RuleError, Seat, Seed, SetupError, Viewer};
use serde::{Deserialize, Serialize};

/// The engine version, recorded in game logs.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The rules texts in English (see texts/en.json).
pub const TEXTS_EN: &str = include_str!("../texts/en.json");

/// The rules texts in German, with the same keys as the English ones (see texts/de.json).
pub const TEXTS_DE: &str = include_str!("../texts/de.json");

/// Knights Templar has no options.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct KtOptions {}

impl KnightsTemplar {
    /// A game whose setup shuffles are given by `shuffles`, in order (spec §3 step 2: the test
    /// hook for scripted shuffles). Each entry is the full deck after that shuffle, top first.
    ///
    /// # Errors
    /// [`SetupError`] for an unsupported player count, or if a scripted deck is not a permutation
    /// of the 95 cards or the script runs out.
    pub fn with_scripted_shuffles(players: usize, shuffles: Vec<Vec<Card>>) -> Result<Self, SetupError> {
        SetupError::check_players::<Self>(players)?;
        let sorted: Vec<Card> = Card::all().collect();
        for deck in &shuffles {
            let mut d = deck.clone();
            d.sort();
            if d != sorted {
                return Err(SetupError::InvalidOptions { reason: "a scripted deck must hold all 95 cards".into() });
            }
        }
        let mut script = shuffles.into_iter();
        let (game, _) = KnightsTemplar::set_up(players, GameRng::from_u64(0), |deck| match script.next() {
            Some(d) => {
                *deck = d;
                true
            }
            None => false,
        })
        .ok_or_else(|| SetupError::InvalidOptions { reason: "the scripted shuffles ran out".into() })?;
        Ok(game)
    }

    fn setup_events_replayed(&self) -> Vec<Event<KtEvent>> {
        let mut events: Vec<Event<KtEvent>> = self
            .setup_draws
            .iter()
            .map(|d| Event::public(KtEvent::SetupDraw { iteration: d.iteration, hands: d.hands.clone() }))
            .collect();
        if let Some(last) = self.setup_draws.last() {
            let best = last.hands.iter().map(|h| h.missions).max().unwrap_or(0);
            if let Some(gm) = last.hands.iter().find(|h| h.missions == best) {
                events.push(Event::public(KtEvent::FirstGrandMaster { seat: gm.seat }));
            }
        }
        events
    }
}

impl Game for KnightsTemplar {
    type Options = KtOptions;
    type Action = Action;
    type View = KtView;
    type Event = KtEvent;

    const ID: &'static str = "knights-templar";
    const NAME: &'static str = "Knights Templar";
    const MIN_PLAYERS: usize = 2;
    const MAX_PLAYERS: usize = 8;

    fn setup(players: usize, _options: &KtOptions, seed: Seed) -> Result<Self, SetupError> {
        SetupError::check_players::<Self>(players)?;
        let mut rng = GameRng::from_seed(seed);
        let (mut game, _) = KnightsTemplar::set_up(players, GameRng::from_u64(0), |deck| {
            rng.shuffle(deck);
            true
        })
        .ok_or_else(|| SetupError::InvalidOptions { reason: "setup could not shuffle".into() })?;
        // The stored RNG continues from where the setup shuffles left it.
        game.rng = rng;
        Ok(game)
    }

    fn setup_events(&self) -> Vec<Event<KtEvent>> {
        self.setup_events_replayed()
    }

    fn players(&self) -> usize {
        self.players
    }

    fn to_act(&self) -> Vec<Seat> {
        match &self.pending {
            Pending::Pick { seat } => vec![*seat],
            Pending::Nominate => vec![self.gm],
            Pending::Target { resolver, .. } | Pending::AllyChoice { resolver, .. } => vec![*resolver],
            Pending::Resolving | Pending::Over => Vec::new(),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if !self.to_act().contains(&seat) {
            return Vec::new();
        }
        match &self.pending {
            Pending::Pick { .. } => self.fate.iter().map(|c| Action::Pick { card: *c }).collect(),
            Pending::Nominate => self.unpicked().into_iter().map(|s| Action::Nominate { seat: s }).collect(),
            Pending::Target { resolver, .. } => {
                self.targets(*resolver).into_iter().map(|c| Action::Target { card: c }).collect()
            }
            Pending::AllyChoice { cards, .. } => cards.iter().map(|c| Action::Keep { card: *c }).collect(),
            Pending::Resolving | Pending::Over => Vec::new(),
        }
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Event<KtEvent>>, RuleError> {
        RuleError::check(self, seat, action)?;
        let mut events = Vec::new();
        match (self.pending.clone(), *action) {
            (Pending::Pick { .. }, Action::Pick { card }) => self.pick(seat, card, false, &mut events),
            (Pending::Nominate, Action::Nominate { seat: nominee }) => self.nominate(nominee, false, &mut events),
            (Pending::Target { resolver, card }, Action::Target { card: target }) => {
                self.hit(resolver, card, target, &mut events)
            }
            (Pending::AllyChoice { resolver, cards }, Action::Keep { card }) => {
                self.keep(resolver, cards, card, &mut events)
            }
            _ => return Err(RuleError::IllegalAction { action: format!("{action:?}") }),
        }
        self.settle(&mut events);
        Ok(events)
    }

    fn view(&self, viewer: Viewer) -> KtView {
        self.make_view(viewer)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.final_outcome()
    }

    fn scramble_hidden(&self, viewer: Viewer, rng: &mut GameRng) -> Self {
        let mut game = self.clone();
        game.rng = GameRng::from_u64(u64::from(rng.next_u32()));
        // Pool every card the viewer cannot see: the deck, another player's Ally cards, and
        // face-down discards the viewer did not make; deal them back into the same places.
        let mut hidden: Vec<Card> = game.deck.clone();
        let ally_hidden = matches!(&game.pending, Pending::AllyChoice { resolver, .. } if !viewer.is(*resolver));
        if let (true, Pending::AllyChoice { cards, .. }) = (ally_hidden, &game.pending) {
            hidden.extend(cards);
        }
        let foreign_face_down: Vec<usize> = game
            .discard
            .iter()
            .enumerate()
            .filter(|(_, d)| matches!(d.face_down_by, Some(by) if !viewer.is(by)))
            .map(|(i, _)| i)
            .collect();
        hidden.extend(foreign_face_down.iter().map(|i| game.discard[*i].card));
        rng.shuffle(&mut hidden);
        let mut dealt = hidden.into_iter();
        for slot in game.deck.iter_mut() {
            *slot = dealt.next().unwrap_or(*slot);
        }
        if ally_hidden {
            if let Pending::AllyChoice { cards, .. } = &mut game.pending {
                for slot in cards.iter_mut() {
                    *slot = dealt.next().unwrap_or(*slot);
                }
            }
        }
        for i in foreign_face_down {
            game.discard[i].card = dealt.next().unwrap_or(game.discard[i].card);
        }
        game
    }
}
