//! The turn flow (spec §3–§4): setup, Draw Phase, Select Phase with its decision points, card
//! resolution, Power draws, the Downfall check and the End Phase.
//!
//! Every function here is a trusted step: `apply` has already checked the action against
//! `legal_actions`. After each step [`KnightsTemplar::settle`] plays every decision that has a
//! single legal option (R7), so the game only ever waits where a real choice exists (I14).

use crate::card::{Card, CardType, DECK_SIZE};
use crate::event::KtEvent;
use crate::state::{Discard, EndReason, KnightsTemplar, Pending, SetupDraw, SetupHand, Stage};
use game_core::{BySeat, Event, GameRng, Seat};

type Events = Vec<Event<KtEvent>>;

/// The number of Fate cards per turn for `players` (spec §2.3); 0 for an unsupported count.
pub fn fate_size(players: usize) -> usize {
    match players {
        2 | 3 | 6 => 7,
        4 | 8 => 9,
        5 => 6,
        7 => 8,
        _ => 0,
    }
}

impl KnightsTemplar {
    /// Setup (spec §3) with `shuffle` standing for every shuffle of the full deck, then the
    /// first Draw Phase. Tests pass scripted shuffles; games pass the seeded RNG. `shuffle`
    /// returns false when it has no shuffle left to give (a script ran out): setup then fails.
    pub(crate) fn set_up(
        players: usize,
        rng: GameRng,
        mut shuffle: impl FnMut(&mut Vec<Card>) -> bool,
    ) -> Option<(Self, Events)> {
        let mut events = Events::new();
        let mut candidates: Vec<Seat> = Seat::all(players).collect();
        let mut setup_draws = Vec::new();
        let gm = loop {
            let mut deck: Vec<Card> = Card::all().collect();
            if !shuffle(&mut deck) {
                return None;
            }
            let iteration = setup_draws.len() as u32 + 1;
            let hands: Vec<SetupHand> = candidates
                .iter()
                .zip(deck.chunks(10))
                .map(|(seat, cards)| SetupHand {
                    seat: *seat,
                    cards: cards.to_vec(),
                    missions: cards.iter().filter(|c| c.kind() == CardType::Mission).count() as u32,
                })
                .collect();
            let best = hands.iter().map(|h| h.missions).max().unwrap_or(0);
            let leaders: Vec<Seat> = hands.iter().filter(|h| h.missions == best).map(|h| h.seat).collect();
            events.push(Event::public(KtEvent::SetupDraw { iteration, hands: hands.clone() }));
            setup_draws.push(SetupDraw { iteration, hands });
            if let [only] = leaders[..] {
                break only;
            }
            candidates = leaders;
        };
        events.push(Event::public(KtEvent::FirstGrandMaster { seat: gm }));
        let mut deck: Vec<Card> = Card::all().collect();
        if !shuffle(&mut deck) {
            return None;
        }
        let mut game = KnightsTemplar {
            players,
            rng,
            deck,
            fate: Vec::new(),
            tableaus: BySeat::from_fn(players, |_| Vec::new()),
            discard: Vec::new(),
            county_vp: BySeat::from_fn(players, |_| 0),
            gm,
            turn: 0,
            round: 0,
            picked: Vec::new(),
            picker: gm,
            fate_picks: BySeat::from_fn(players, |_| 0),
            stage: Stage::Select,
            power_queue: Vec::new(),
            pending: Pending::Resolving,
            setup_draws,
            end: None,
        };
        game.draw_phase(&mut events);
        game.settle(&mut events);
        Some((game, events))
    }

    /// Draw Phase: flip min(X, deck) cards into the Fate row; the GM picks first.
    pub(crate) fn draw_phase(&mut self, events: &mut Events) {
        self.turn += 1;
        let f = fate_size(self.players).min(self.deck.len());
        self.fate = self.deck.drain(..f).collect();
        events.push(Event::public(KtEvent::TurnStarted { turn: self.turn, fate: self.fate.clone() }));
        self.stage = Stage::Select;
        self.round = 1;
        self.picked.clear();
        self.fate_picks = BySeat::from_fn(self.players, |_| 0);
        self.picker = self.gm;
        self.pending = Pending::Pick { seat: self.gm };
    }

    /// Plays every pending decision that has exactly one option.
    pub(crate) fn settle(&mut self, events: &mut Events) {
        loop {
            match self.pending.clone() {
                Pending::Pick { seat } if self.fate.len() == 1 => {
                    let card = self.fate[0];
                    self.pick(seat, card, true, events);
                }
                Pending::Nominate => {
                    let candidates = self.unpicked();
                    if let [only] = candidates[..] {
                        self.nominate(only, true, events);
                    } else {
                        return;
                    }
                }
                Pending::Target { resolver, card } => {
                    let targets = self.targets(resolver);
                    if let [only] = targets[..] {
                        self.hit(resolver, card, only, events);
                    } else {
                        return;
                    }
                }
                _ => return,
            }
        }
    }

    /// DP1: `seat` takes `card` from the Fate row and plays it.
    pub(crate) fn pick(&mut self, seat: Seat, card: Card, automatic: bool, events: &mut Events) {
        self.fate.retain(|c| *c != card);
        self.fate_picks[seat] += 1;
        events.push(Event::public(KtEvent::Picked { seat, card, automatic }));
        self.resolve(seat, card, events);
        if !self.is_deciding() {
            self.after_resolution(events);
        }
    }

    /// DP2: the GM nominates `seat`.
    pub(crate) fn nominate(&mut self, seat: Seat, automatic: bool, events: &mut Events) {
        events.push(Event::public(KtEvent::Nominated { gm: self.gm, seat, automatic }));
        self.picker = seat;
        self.pending = Pending::Pick { seat };
    }

    /// DP3/DP4: the Enemy or Battle `card` of `resolver` hits `target`.
    pub(crate) fn hit(&mut self, resolver: Seat, card: Card, target: Card, events: &mut Events) {
        let Some(owner) = self.owner(target) else { return };
        self.tableaus[owner].retain(|c| *c != target);
        if card.kind() == CardType::Battle {
            self.tableaus[resolver].push(target);
            events.push(Event::public(KtEvent::Stole { seat: resolver, battle: card, from: owner, card: target }));
        } else {
            self.discard.push(Discard { card: target, face_down_by: None });
            events.push(Event::public(KtEvent::Destroyed { seat: resolver, enemy: card, owner, card: target }));
        }
        self.pending = Pending::Resolving;
        self.after_resolution(events);
    }

    /// DP5: `resolver` plays `keep` and discards the other Ally card face down.
    pub(crate) fn keep(&mut self, resolver: Seat, cards: [Card; 2], keep: Card, events: &mut Events) {
        let other = if cards[0] == keep { cards[1] } else { cards[0] };
        self.discard.push(Discard { card: other, face_down_by: Some(resolver) });
        events.push(Event::public(KtEvent::AllyKept { seat: resolver, card: keep }));
        events.push(Event::private(resolver, KtEvent::AllyDiscarded { seat: resolver, card: other }));
        self.pending = Pending::Resolving;
        self.resolve(resolver, keep, events);
        if !self.is_deciding() {
            self.after_resolution(events);
        }
    }

    /// Whether a resolution is waiting for a target or an Ally choice.
    fn is_deciding(&self) -> bool {
        matches!(self.pending, Pending::Target { .. } | Pending::AllyChoice { .. })
    }

    /// §4.3: plays `card` for `resolver`. Leaves a Target or AllyChoice pending if a decision is
    /// needed; otherwise the resolution is complete.
    fn resolve(&mut self, resolver: Seat, card: Card, events: &mut Events) {
        match card.kind() {
            kind if kind.stays_in_play() => {
                self.tableaus[resolver].push(card);
                events.push(Event::public(KtEvent::Placed { seat: resolver, card }));
            }
            CardType::Enemy | CardType::Battle => {
                self.discard.push(Discard { card, face_down_by: None });
                if self.targets(resolver).is_empty() {
                    events.push(Event::public(KtEvent::NoTarget { seat: resolver, card }));
                } else {
                    // A single target is taken by `settle` (after the caller returns) or by `hit`.
                    self.pending = Pending::Target { resolver, card };
                }
            }
            _ => {
                // Ally.
                self.discard.push(Discard { card, face_down_by: None });
                let k = self.deck.len().min(2);
                events.push(Event::public(KtEvent::AllyDrew { seat: resolver, ally: card, count: k as u32 }));
                match k {
                    0 => {}
                    1 => {
                        let drawn = self.deck.remove(0);
                        events.push(Event::public(KtEvent::AllySingle { seat: resolver, card: drawn }));
                        self.resolve(resolver, drawn, events);
                    }
                    _ => {
                        let cards = [self.deck.remove(0), self.deck.remove(0)];
                        events.push(Event::private(resolver, KtEvent::AllyCards { seat: resolver, cards }));
                        self.pending = Pending::AllyChoice { resolver, cards };
                    }
                }
            }
        }
    }

    /// What follows a complete resolution: the Downfall check (§4.5), then the next pick or draw.
    fn after_resolution(&mut self, events: &mut Events) {
        if self.tableaus.iter().any(|(s, _)| self.count(s, CardType::Downfall) >= 5) {
            self.finish(EndReason::FiveDownfall, events);
            return;
        }
        match self.stage {
            Stage::Select => {
                self.picked.push(self.picker);
                if self.fate.is_empty() {
                    self.start_power_draws(events);
                } else if self.picked.len() == self.players {
                    self.round += 1;
                    self.picked.clear();
                    self.picker = self.gm;
                    self.pending = Pending::Pick { seat: self.gm };
                } else {
                    self.pending = Pending::Nominate;
                }
            }
            Stage::PowerDraws => self.next_power_draw(events),
            Stage::Over => {}
        }
    }

    /// §4.4 step 1: the snapshot of Power drawers, clockwise from the GM.
    pub(crate) fn start_power_draws(&mut self, events: &mut Events) {
        self.stage = Stage::PowerDraws;
        let power = BySeat::from_fn(self.players, |s| self.count(s, CardType::Power));
        let m = power.iter().map(|(_, p)| *p).max().unwrap_or(0);
        self.power_queue = if m == 0 {
            Vec::new()
        } else {
            (0..self.players).map(|i| self.gm.next(self.players, i)).filter(|s| power[*s] == m).collect()
        };
        events.push(Event::public(KtEvent::PowerDrawers { seats: self.power_queue.clone(), power: m as u32 }));
        self.next_power_draw(events);
    }

    /// §4.4 step 2: the next drawer draws and plays the top card, or the End Phase follows.
    fn next_power_draw(&mut self, events: &mut Events) {
        if self.power_queue.is_empty() {
            self.end_phase(events);
            return;
        }
        let drawer = self.power_queue.remove(0);
        if self.deck.is_empty() {
            events.push(Event::public(KtEvent::PowerDrawEmpty { seat: drawer }));
            self.power_queue.clear();
            self.end_phase(events);
            return;
        }
        let card = self.deck.remove(0);
        events.push(Event::public(KtEvent::PowerDraw { seat: drawer, card }));
        self.pending = Pending::Resolving;
        self.resolve(drawer, card, events);
        if !self.is_deciding() {
            self.after_resolution(events);
        }
    }

    /// End Phase (E1–E3).
    pub(crate) fn end_phase(&mut self, events: &mut Events) {
        let missions = BySeat::from_fn(self.players, |s| self.count(s, CardType::Mission));
        if let Some(leader) = sole_leader(&missions, 0) {
            let changed = leader != self.gm;
            self.gm = leader;
            events.push(Event::public(KtEvent::GrandMaster { seat: leader, changed }));
        } else {
            events.push(Event::public(KtEvent::GrandMaster { seat: self.gm, changed: false }));
        }
        let counties = BySeat::from_fn(self.players, |s| self.count(s, CardType::County));
        let county_leader = sole_leader(&counties, 1);
        if let Some(s) = county_leader {
            self.county_vp[s] += 1;
        }
        events.push(Event::public(KtEvent::CountyPoint { seat: county_leader }));
        if self.deck.is_empty() {
            self.finish(EndReason::DeckEmpty, events);
        } else if self.tableaus.iter().any(|(s, _)| self.count(s, CardType::Downfall) >= 5) {
            self.finish(EndReason::FiveDownfall, events);
        } else {
            self.draw_phase(events);
        }
    }

    fn finish(&mut self, reason: EndReason, events: &mut Events) {
        self.stage = Stage::Over;
        self.end = Some(reason);
        self.pending = Pending::Over;
        self.power_queue.clear();
        events.push(Event::public(KtEvent::GameEnded { reason }));
    }

    /// Checks the card-conservation invariant I1: every card is in exactly one zone.
    pub fn cards_conserved(&self) -> bool {
        let mut seen = [0u8; DECK_SIZE + 1];
        let ally = match &self.pending {
            Pending::AllyChoice { cards, .. } => cards.to_vec(),
            _ => Vec::new(),
        };
        let all = self
            .deck
            .iter()
            .chain(&self.fate)
            .chain(self.tableaus.0.iter().flatten())
            .chain(self.discard.iter().map(|d| &d.card))
            .chain(&ally);
        for c in all {
            match seen.get_mut(usize::from(c.0)) {
                Some(n) => *n += 1,
                None => return false,
            }
        }
        seen[1..].iter().all(|n| *n == 1)
    }
}

/// The seat with the sole highest count, if that count is at least `min`.
fn sole_leader(counts: &BySeat<usize>, min: usize) -> Option<Seat> {
    let best = counts.iter().map(|(_, c)| *c).max()?;
    let leaders: Vec<Seat> = counts.iter().filter(|(_, c)| **c == best).map(|(s, _)| s).collect();
    match leaders[..] {
        [only] if best >= min => Some(only),
        _ => None,
    }
}
