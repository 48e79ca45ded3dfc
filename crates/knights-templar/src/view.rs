//! What one viewer may see (spec §6): public zones, the viewer's own Ally cards and face-down
//! discards, and never the deck order, another player's Ally cards or the RNG; and the
//! re-drawing of what a viewer may not see, for the non-interference test.

use crate::card::{Card, CardType};
use crate::state::{Discard, EndReason, KnightsTemplar, Pending, SetupDraw, Stage};
use crate::{rules, score};
use game_core::view_diff::{push_int, write_members_patch, MemberOps, PatchOps, ViewParts, ViewText};
use game_core::{BySeat, GameRng, Outcome, ScoreLine, Seat, Viewer};
use serde::{Serialize, Serializer};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A card as shown to a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CardView {
    /// The card id (what actions name).
    pub id: Card,
    /// Its printed name.
    pub name: &'static str,
    /// Its type.
    pub kind: CardType,
}

impl From<Card> for CardView {
    fn from(card: Card) -> Self {
        CardView { id: card, name: card.name(), kind: card.kind() }
    }
}

/// A discard as shown: face-down cards are blank except to their discarder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct DiscardView {
    /// The card, if the viewer may see it.
    pub card: Option<CardView>,
    /// Whether it lies face down.
    pub face_down: bool,
}

/// One player's public area.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    /// The seat.
    pub seat: Seat,
    /// The tableau, in arrival order.
    pub tableau: Vec<CardView>,
    /// Cards of each type in the tableau, in [`CardType::ALL`] order.
    pub counts: Vec<usize>,
    /// Banked County VP.
    pub county_vp: u32,
    /// Fate picks this turn.
    pub fate_picks: u32,
    /// Whether the player has picked in this round.
    pub picked_this_round: bool,
    /// The score if the game ended now.
    pub score_now: i64,
}

/// The decision the game waits for, as the viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PendingView {
    /// A Fate pick by `seat`.
    Pick {
        /// The picker.
        seat: Seat,
    },
    /// The Grand Master nominates one of `candidates`.
    Nominate {
        /// The Grand Master.
        gm: Seat,
        /// Who may be nominated.
        candidates: Vec<Seat>,
    },
    /// `resolver` chooses a target for an Enemy (discard) or Battle (steal).
    Target {
        /// The chooser.
        resolver: Seat,
        /// The Enemy or Battle.
        card: CardView,
        /// Every card that may be chosen, with its owner.
        options: Vec<(Seat, CardView)>,
    },
    /// `resolver` chooses which of two Ally cards to play; `cards` only for the resolver.
    AllyChoice {
        /// The chooser.
        resolver: Seat,
        /// The two cards, shown only to the resolver.
        cards: Option<[CardView; 2]>,
    },
    /// The game is over.
    Over,
}

/// Everything one viewer may see.
///
/// Its JSON (what clients receive, and what every action's RFC 6902 patch is computed from) is
/// leaner than these fields: see [`View::serialize`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// Who is looking.
    pub viewer: Viewer,
    /// Number of players.
    pub players: usize,
    /// The turn number.
    pub turn: u32,
    /// The round within the Select Phase.
    pub round: u32,
    /// The seats called to pick in this round, in order (see [`KnightsTemplar::pick_order`]).
    pub pick_order: Vec<Seat>,
    /// `select`, `power_draws` or `over`.
    pub stage: Stage,
    /// The Grand Master.
    pub grand_master: Seat,
    /// Cards left in the deck (its order is secret).
    pub deck_count: usize,
    /// The Fate row.
    pub fate: Vec<CardView>,
    /// Each player's area.
    pub seats: BySeat<PlayerView>,
    /// The discard pile, oldest first.
    pub discard: Vec<DiscardView>,
    /// The decision the game waits for.
    pub pending: PendingView,
    /// The seats whose input is awaited.
    pub to_act: Vec<Seat>,
    /// Power drawers still to draw this turn.
    pub power_queue: Vec<Seat>,
    /// The public Grand Master draws of setup.
    pub setup_draws: Vec<SetupDraw>,
    /// Why the game ended.
    pub end: Option<EndReason>,
    /// The scoring breakdown so far (final once the game is over).
    pub breakdown: Vec<ScoreLine>,
    /// The result, once the game is over.
    pub outcome: Option<Outcome>,
}

/// What `viewer` may see of `game`.
pub(crate) fn view(game: &KnightsTemplar, viewer: Viewer) -> View {
    let (totals, breakdown) = game.score_lines();
    let seats = BySeat::from_fn(game.players, |s| PlayerView {
        seat: s,
        tableau: game.tableau(s).iter().map(|c| CardView::from(*c)).collect(),
        counts: CardType::ALL.iter().map(|t| game.count(s, *t)).collect(),
        county_vp: game.county_vp(s),
        fate_picks: game.fate_picks(s),
        picked_this_round: game.picked_this_round(s),
        score_now: totals.get(s).copied().unwrap_or(0),
    });
    let discard = game
        .discard
        .iter()
        .map(|d| DiscardView { card: seen(d, viewer).map(CardView::from), face_down: d.face_down_by.is_some() })
        .collect();
    let pending = pending_view(game, viewer);
    View {
        viewer,
        players: game.players,
        turn: game.turn,
        round: game.round,
        pick_order: game.pick_order(),
        stage: game.stage,
        grand_master: game.gm,
        deck_count: game.deck.len(),
        fate: game.fate.iter().map(|c| CardView::from(*c)).collect(),
        seats,
        discard,
        pending,
        to_act: rules::to_act(game),
        power_queue: game.power_queue.clone(),
        setup_draws: game.setup_draws.clone(),
        end: game.end,
        breakdown,
        outcome: score::outcome(game),
    }
}

/// The decision the game waits for, as `viewer` may see it.
fn pending_view(game: &KnightsTemplar, viewer: Viewer) -> PendingView {
    match &game.pending {
        Pending::Pick { seat } => PendingView::Pick { seat: *seat },
        Pending::Nominate => PendingView::Nominate { gm: game.gm, candidates: game.unpicked() },
        Pending::Target { resolver, card } => PendingView::Target {
            resolver: *resolver,
            card: (*card).into(),
            options: game.targets(*resolver).into_iter().filter_map(|c| game.owner(c).map(|o| (o, c.into()))).collect(),
        },
        Pending::AllyChoice { resolver, cards } => PendingView::AllyChoice {
            resolver: *resolver,
            cards: viewer.is(*resolver).then(|| [cards[0].into(), cards[1].into()]),
        },
        Pending::Resolving | Pending::Over => PendingView::Over,
    }
}

/// The card of a discard as `viewer` sees it: a face-down card only its discarder sees.
fn seen(discard: &Discard, viewer: Viewer) -> Option<Card> {
    match discard.face_down_by {
        Some(by) if !viewer.is(by) => None,
        _ => Some(discard.card),
    }
}

/// A copy of `game` in which every card `viewer` cannot see is dealt again at random: the deck,
/// another player's Ally cards, and face-down discards the viewer did not make.
pub(crate) fn scramble_hidden(game: &KnightsTemplar, viewer: Viewer, rng: &mut GameRng) -> KnightsTemplar {
    let mut game = game.clone();
    game.rng = GameRng::from_u64(u64::from(rng.next_u32()));
    // Pool every hidden card, then deal them back into the same places.
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

/// The JSON of a [`View`] (what clients receive, and what every action's RFC 6902 patch is
/// computed from) is leaner than its fields: every viewer receives the patch of every action, so
/// one action should change as few values as possible (issue 12: the median patch of a 4-player
/// game went from ~790 B to 314 B, then to ~190 B; `docs/performance.md`, "Bytes per patch").
///
/// - Cards are bare ids: names and types are static card data (the rules texts name every card;
///   the type follows from the id, ids running through [`CardType::ALL`] in order).
/// - `fate` is an object keyed by card id (values `true`): taking a card removes one key, where an
///   array would shift every later card. It lists the row in id order, not in flip order.
/// - `pick_order` says who picks and who has picked in this round (see
///   [`KnightsTemplar::pick_order`]): a nomination appends one seat, a finished pick changes
///   nothing in it.
/// - `scores` holds each seat's score if the game ended now, by seat.
/// - `pending` has one shape for every kind: `kind`, `seat` (the decider of a `target` or an
///   `ally_choice`) and the extras of its kind: `card` and `options` (`[seat, card]` pairs) for
///   `target`, `cards` for `ally_choice` (its resolver only). A `pick` is the last seat's of
///   `pick_order`, a `nominate` the `grand_master`'s, so neither carries a `seat`: each
///   nomination and each pick then changes `kind` alone, not `kind` and `seat`.
/// - Left out: per-type counts (the client counts the tableau's cards by their printed type),
///   the running breakdown (the final one is in `outcome`), the nomination's candidates (the
///   seats not in `pick_order`), each seat's Fate picks this turn and whether it has picked this
///   round (both read off `round` and `pick_order`: every seat is called once per round), and
///   who acts (the patch frame carries `to_act`). What takes the rules to work out, the score,
///   who is called to pick and which decision is awaited, is sent: the client holds no rules.
///
/// The crate's tests (`src/tests/view_json.rs`) check every derivation against these fields.
impl Serialize for View {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        LeanView::from(self).serialize(serializer)
    }
}

/// What `viewer` may see of `game`, as its JSON text: the same text as serialising [`view`],
/// written straight from the state. `view` also builds what the JSON leaves out (card names,
/// counts, the running breakdown), and a live table writes every viewer's view after every
/// action. The server's `view_patches` test checks that both give the same text at every step.
pub(crate) fn view_text(game: &KnightsTemplar, viewer: Viewer) -> ViewText {
    view_texts(game, &[viewer], &mut ViewMemo::default())
        .pop()
        .map_or_else(|| ViewText::new("null".to_owned()), |parts| parts.join())
}

/// [`view_text`] for each of `viewers`, as parts in [`LeanView`]'s field order. Only `viewer`,
/// a face-down discard and an Ally choice's cards differ between viewers: the rest (the board,
/// the seats, the scores, the result) is written once, and every viewer gets the same parts
/// for it (and for a discard or a decision it sees as others do).
pub(crate) fn view_texts(game: &KnightsTemplar, viewers: &[Viewer], memo: &mut ViewMemo) -> Vec<ViewParts> {
    let totals = game.score_totals();
    let board = match &memo.board {
        Some((last, text)) if last.matches(game, &totals) => Arc::clone(text),
        _ => {
            // Written only if asked for: viewers who were shown the last board take the patch.
            let inputs = BoardInputs::reuse(memo.spare_board.take(), game, totals);
            let text = ViewText::lazy({
                let inputs = Arc::clone(&inputs);
                move || board_text(&inputs)
            });
            let text = Arc::new(match &memo.board {
                Some((last, old)) if last.players == game.players => {
                    text.derived_from(old, member_ops(|ops| board_ops(ops, last, &inputs)))
                }
                _ => text,
            });
            // The inputs replaced are those of the texts the viewers still hold until this
            // broadcast is over: by the next new board nothing holds them, and their buffers are
            // filled again instead of allocated.
            memo.spare_board = memo.board.replace((inputs, Arc::clone(&text))).map(|(last, _)| last);
            text
        }
    };
    let outcome = score::outcome(game);
    let rest = match &memo.rest {
        Some((last, text))
            if last.power_queue == game.power_queue
                && last.setup_draws == game.setup_draws
                && last.end == game.end
                && last.outcome == outcome =>
        {
            Arc::clone(text)
        }
        _ => {
            let text = Arc::new(ViewText::serialize(&LeanRest {
                power_queue: &game.power_queue,
                setup_draws: &game.setup_draws,
                end: game.end,
                outcome: Cow::Borrowed(&outcome),
            }));
            let inputs = RestInputs {
                power_queue: game.power_queue.clone(),
                setup_draws: game.setup_draws.clone(),
                end: game.end,
                outcome,
            };
            memo.rest = Some((inputs, Arc::clone(&text)));
            text
        }
    };
    if *memo.discard != game.discard {
        // The texts just written become those the next ones follow.
        memo.last_discard = std::mem::replace(&mut memo.discard, Arc::new(game.discard.clone()));
        std::mem::swap(&mut memo.discards, &mut memo.last_discards);
        memo.discards.clear();
    }
    // Whoever laid no card face down sees the discard as a spectator does. The seats that did
    // are found in one pass over the pile, not one per viewer.
    let mut laid: Vec<Seat> = Vec::new();
    for by in game.discard.iter().filter_map(|d| d.face_down_by) {
        if !laid.contains(&by) {
            laid.push(by);
        }
    }
    let laid_face_down = |viewer: Viewer| laid.iter().any(|by| viewer.is(*by));
    let mut discard_for = |viewer: Viewer| {
        let seen_as = if laid_face_down(viewer) { viewer } else { Viewer::Spectator };
        if let Some((_, text)) = memo.discards.iter().find(|(v, _)| *v == seen_as) {
            return Arc::clone(text);
        }
        let text = ViewText::lazy({
            let pile = Arc::clone(&memo.discard);
            move || discard_text(&pile, seen_as)
        });
        let text = Arc::new(match memo.last_discards.iter().find(|(v, _)| *v == seen_as) {
            Some((_, old)) => {
                text.derived_from(old, member_ops(|ops| discard_ops(ops, &memo.last_discard, &game.discard, seen_as)))
            }
            None => text,
        });
        memo.discards.push((seen_as, Arc::clone(&text)));
        text
    };
    let mut head_for = |viewer: Viewer| {
        if let Some((_, text)) = memo.heads.iter().find(|(v, _)| *v == viewer) {
            return Arc::clone(text);
        }
        let text = Arc::new(ViewText::serialize_sized(&LeanViewer { viewer }, 32));
        memo.heads.push((viewer, Arc::clone(&text)));
        text
    };
    // The decision as everyone sees it, and as an Ally choice's resolver sees it: worked out
    // once, not once per viewer.
    let others = lean_pending(game, Viewer::Spectator);
    let resolver = match &game.pending {
        Pending::AllyChoice { resolver, .. } => Some((*resolver, lean_pending(game, Viewer::Seat(*resolver)))),
        _ => None,
    };
    let mut pending: Option<(&LeanPending, Arc<ViewText>)> = None;
    let mut texts = Vec::with_capacity(viewers.len());
    for &viewer in viewers {
        let own = match &resolver {
            Some((seat, theirs)) if viewer.is(*seat) => theirs,
            _ => &others,
        };
        let last = memo.pendings.iter().position(|(v, _, _)| *v == viewer);
        let unchanged =
            last.filter(|at| memo.pendings[*at].1.pending == *own).map(|at| Arc::clone(&memo.pendings[at].2));
        let text = match unchanged {
            Some(text) => text,
            None => {
                if pending.as_ref().is_none_or(|(shown, _)| *shown != own) {
                    let text = ViewText::lazy({
                        let part = LeanPendingPart { pending: own.clone() };
                        move || ViewText::serialize_sized(&part, 64)
                    });
                    // The patch from what this viewer was shown last; viewers who were shown
                    // something else have theirs diffed as text.
                    let text = match last.map(|at| &memo.pendings[at]) {
                        Some((_, shown, old)) => {
                            text.derived_from(old, member_ops(|ops| pending_ops(ops, &shown.pending, own)))
                        }
                        None => text,
                    };
                    pending = Some((own, Arc::new(text)));
                }
                let text = pending.as_ref().map(|(_, text)| Arc::clone(text)).unwrap_or_default();
                let part = LeanPendingPart { pending: own.clone() };
                match last {
                    Some(at) => (memo.pendings[at].1, memo.pendings[at].2) = (part, Arc::clone(&text)),
                    None => memo.pendings.push((viewer, part, Arc::clone(&text))),
                }
                text
            }
        };
        let parts = [head_for(viewer), Arc::clone(&board), discard_for(viewer), text, Arc::clone(&rest)];
        texts.push(ViewParts::new(parts));
    }
    texts
}

/// Each of `viewers`' patch from the view it was shown at the last call with `memo` to its view
/// now (see `game_core::Game::view_patches`), written from what changed in the state: no view
/// text is written, none is kept, and nothing is compared as text. Every member's operations
/// are those the parts of [`view_texts`] carry ([`board_ops`], [`discard_ops`],
/// [`pending_ops`]); the members after the decision, which seldom change, are diffed as text.
/// Most viewers see the same change (only a face-down card or an Ally choice's cards differ
/// between them): their patch is written once and copied.
pub(crate) fn view_patches(
    game: &KnightsTemplar,
    viewers: &[Viewer],
    memo: &mut PatchMemo,
    patches: &mut Vec<String>,
) -> bool {
    let totals = game.score_totals();
    let outcome = score::outcome(game);
    let others = lean_pending(game, Viewer::Spectator);
    let resolver = match &game.pending {
        Pending::AllyChoice { resolver, .. } => Some((*resolver, lean_pending(game, Viewer::Seat(*resolver)))),
        _ => None,
    };
    let Some(shown) = memo.shown.as_mut().filter(|shown| shown.board.players == game.players) else {
        memo.shown = Some(Shown {
            board: BoardInputs::of(game, totals),
            discard: game.discard.clone(),
            others,
            resolver,
            power_queue: game.power_queue.clone(),
            setup_draws: game.setup_draws.clone(),
            end: game.end,
            outcome,
        });
        patches.clear();
        return false;
    };
    // The members every viewer sees alike: the board, and those after the decision.
    let (shared, own) = (&mut memo.shared, &mut memo.own);
    shared.clear();
    if !shown.board.matches(game, &totals) {
        let mut board = match memo.spare.take() {
            Some(mut spare) => {
                spare.refill(game, totals);
                spare
            }
            None => BoardInputs::of(game, totals),
        };
        board_ops(shared, &shown.board, &board);
        std::mem::swap(&mut shown.board, &mut board);
        memo.spare = Some(board);
    }
    if shown.power_queue != game.power_queue {
        seats_ops(shared, "power_queue", &shown.power_queue, &game.power_queue);
        shown.power_queue.clone_from(&game.power_queue);
    }
    // The setup draws are written at setup and never change (nothing but `setup` writes them,
    // and a table's memo is of one game): not compared every action (their ~80 cards cost a
    // third of this function). The tests' check of every patch compares them.
    debug_assert_eq!(shown.setup_draws, game.setup_draws, "the setup draws changed after setup");
    if shown.end != game.end {
        diffed(shared, "end", &shown.end, &game.end);
        shown.end = game.end;
    }
    if shown.outcome != outcome {
        diffed(shared, "outcome", &shown.outcome, &outcome);
        shown.outcome = outcome;
    }
    // The discard pile and the decision, as most viewers see them (as a spectator does), and
    // for a viewer who sees them otherwise (who laid a card face down in the pile before or
    // after, an Ally choice's resolver before or after), as that viewer does.
    let discard_changed = shown.discard != game.discard;
    let mut apart = 0u64;
    if discard_changed {
        for by in shown.discard.iter().chain(&game.discard).filter_map(|d| d.face_down_by) {
            apart |= 1 << (by.0 % 64);
        }
    }
    for (seat, _) in shown.resolver.iter().chain(&resolver) {
        apart |= 1 << (seat.0 % 64);
    }
    patches.resize_with(viewers.len(), String::new);
    let mut common: Option<usize> = None;
    for (i, &viewer) in viewers.iter().enumerate() {
        let seen_as = match viewer {
            Viewer::Seat(seat) if apart & (1 << (seat.0 % 64)) != 0 => viewer,
            _ => Viewer::Spectator,
        };
        if seen_as == Viewer::Spectator {
            if let Some(first) = common {
                let (done, rest) = patches.split_at_mut(i);
                rest[0].clone_from(&done[first]);
                continue;
            }
            common = Some(i);
        }
        own.clear();
        if discard_changed {
            discard_ops(own, &shown.discard, &game.discard, seen_as);
        }
        let (old, new) =
            (pending_for(seen_as, &shown.others, &shown.resolver), pending_for(seen_as, &others, &resolver));
        if old != new {
            pending_ops(own, old, new);
        }
        write_members_patch(&[shared, own], &mut patches[i]);
    }
    if discard_changed {
        shown.discard.clone_from(&game.discard);
    }
    shown.others = others;
    shown.resolver = resolver;
    true
}

/// The decision as `viewer` sees it: `others`, or `resolver`'s own if it is the viewer.
fn pending_for<'a>(
    viewer: Viewer,
    others: &'a LeanPending,
    resolver: &'a Option<(Seat, LeanPending)>,
) -> &'a LeanPending {
    match resolver {
        Some((seat, theirs)) if viewer.is(*seat) => theirs,
        _ => others,
    }
}

/// The members' operations `write` writes, as the parts of [`view_texts`] carry them.
fn member_ops(write: impl FnOnce(&mut PatchOps)) -> Vec<MemberOps> {
    let mut ops = PatchOps::default();
    write(&mut ops);
    ops.finish()
}

/// The operations of the member `key` from `old` to `new`, diffed as their JSON text.
fn diffed<T: Serialize>(ops: &mut PatchOps, key: &'static str, old: &T, new: &T) {
    let text = |value: &T| serde_json::to_string(value).unwrap_or_else(|_| "null".to_owned());
    ops.diffed(key, &text(old), &text(new));
}

/// What [`view_patches`] showed the viewers last: the inputs of every member that can change
/// (the viewer's own member and the number of players never do).
#[derive(Default)]
pub(crate) struct PatchMemo {
    shown: Option<Shown>,
    /// The board's inputs before `shown`'s, to be filled again for the next board.
    spare: Option<BoardInputs>,
    /// The operations of the members every viewer sees alike, and of those one viewer sees
    /// its own way: buffers kept from one action to the next.
    shared: PatchOps,
    own: PatchOps,
}

struct Shown {
    board: BoardInputs,
    discard: Vec<Discard>,
    /// The decision as everyone but an Ally choice's resolver sees it, and as the resolver does.
    others: LeanPending,
    resolver: Option<(Seat, LeanPending)>,
    power_queue: Vec<Seat>,
    /// Kept for the debug builds' check that they never change.
    #[cfg_attr(not(debug_assertions), allow(dead_code))]
    setup_draws: Vec<SetupDraw>,
    end: Option<EndReason>,
    outcome: Option<Outcome>,
}

/// The decision as `viewer` sees it, as the view writes it: `LeanPending::from(&pending_view(
/// game, viewer))`, without building what the JSON leaves out.
fn lean_pending(game: &KnightsTemplar, viewer: Viewer) -> LeanPending {
    let mut pending = LeanPending { kind: "over", seat: None, card: None, options: None, cards: None };
    match &game.pending {
        Pending::Pick { .. } => pending.kind = "pick",
        Pending::Nominate => pending.kind = "nominate",
        Pending::Target { resolver, card } => {
            (pending.kind, pending.seat, pending.card) = ("target", Some(*resolver), Some(*card));
            pending.options =
                Some(game.targets(*resolver).into_iter().filter_map(|c| game.owner(c).map(|o| (o, c))).collect());
        }
        Pending::AllyChoice { resolver, cards } => {
            (pending.kind, pending.seat) = ("ally_choice", Some(*resolver));
            pending.cards = viewer.is(*resolver).then_some(*cards);
        }
        Pending::Resolving | Pending::Over => {}
    }
    pending
}

/// Writes into `ops` the patch from the decision `old` to `new` (each a [`LeanPending`]): as `json_patch` walks
/// an object, its members in key order (`card`, `cards`, `kind`, `options`, `seat`) each added
/// or changed, then those gone removed, in the same order.
fn pending_ops(ops: &mut PatchOps, old: &LeanPending, new: &LeanPending) {
    ops.member("pending");
    pending_members(ops, old, new, false);
    pending_members(ops, old, new, true);
}

/// The members of [`pending_ops`] that were added or changed, or (`removed`) those gone.
fn pending_members(ops: &mut PatchOps, old: &LeanPending, new: &LeanPending, removed: bool) {
    let card = |out: &mut String, c: &Card| push_number(out, c.0);
    let replace_card = |ops: &mut PatchOps, _: &Card, n: &Card| ops.replace(|out| push_number(out, n.0));
    let pair = |out: &mut String, a: u8, b: u8| {
        out.push('[');
        push_number(out, a);
        out.push(',');
        push_number(out, b);
        out.push(']');
    };
    let option = |out: &mut String, (s, c): &(Seat, Card)| pair(out, s.0, c.0);
    field(ops, removed, "card", old.card.as_ref(), new.card.as_ref(), replace_card, card);
    field(
        ops,
        removed,
        "cards",
        old.cards.as_ref(),
        new.cards.as_ref(),
        |ops, o, n| ops.items(o, n, replace_card, card),
        |out, cs| pair(out, cs[0].0, cs[1].0),
    );
    field(
        ops,
        removed,
        "kind",
        Some(&old.kind),
        Some(&new.kind),
        |ops, _, n| ops.replace(|out| out.push_str(&serde_json::to_string(n).unwrap_or_default())),
        |_, _| {},
    );
    field(
        ops,
        removed,
        "options",
        old.options.as_ref(),
        new.options.as_ref(),
        |ops, o, n| {
            ops.items(
                o,
                n,
                |ops, (os, oc), (ns, nc)| {
                    // A pair is an array: its seat at 0, its card at 1.
                    for (i, (was, is)) in [(os.0, ns.0), (oc.0, nc.0)].into_iter().enumerate() {
                        if was != is {
                            ops.at_index(i, |ops| ops.replace(|out| push_number(out, is)));
                        }
                    }
                },
                option,
            );
        },
        |out, options| {
            out.push('[');
            for (i, o) in options.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                option(out, o);
            }
            out.push(']');
        },
    );
    let seat = |out: &mut String, s: &Seat| push_number(out, s.0);
    field(
        ops,
        removed,
        "seat",
        old.seat.as_ref(),
        new.seat.as_ref(),
        |ops, _, n| ops.replace(|out| seat(out, n)),
        seat,
    );
}

/// One member `key` of an object going from `old` to `new`: when not `removed`, the
/// operations of a value in both (`changed`, if they differ) or the new value (`value`);
/// when `removed`, the removal of a member gone.
fn field<T: PartialEq>(
    ops: &mut PatchOps,
    removed: bool,
    key: &str,
    old: Option<&T>,
    new: Option<&T>,
    changed: impl FnOnce(&mut PatchOps, &T, &T),
    value: impl FnOnce(&mut String, &T),
) {
    match (old, new, removed) {
        (Some(o), Some(n), false) if o != n => ops.at_key(key, |ops| changed(ops, o, n)),
        (None, Some(n), false) => ops.at_key(key, |ops| ops.add(|out| value(out, n))),
        (Some(_), None, true) => ops.at_key(key, PatchOps::remove),
        _ => {}
    }
}

/// The discard pile as `viewer` sees it: the text serde writes for [`LeanDiscards`], written
/// by hand. The pile grows through the game and is written again whenever it changes, and
/// serde's generic path (every `"card"` key escaped and indexed as it is written) cost 5% of the
/// instructions of a table's views and patches (the `view_replay` bench). The server's
/// `view_patches` test compares the text with the serde view's at every step.
fn discard_text(discard: &[Discard], viewer: Viewer) -> ViewText {
    let mut text = String::with_capacity(16 + 32 * discard.len());
    text.push_str(r#"{"discard":["#);
    for (i, d) in discard.iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        text.push_str(r#"{"card":"#);
        match seen(d, viewer) {
            Some(card) => push_number(&mut text, card.0),
            None => text.push_str("null"),
        }
        if d.face_down_by.is_some() {
            text.push_str(r#","face_down":true"#);
        }
        text.push('}');
    }
    text.push_str("]}");
    ViewText::new(text)
}

/// Writes into `ops` the patch from the discard pile `old` to `new` as `viewer` sees them (see
/// [`discard_text`]): the operations `json_patch` finds between the two texts.
fn discard_ops(ops: &mut PatchOps, old: &[Discard], new: &[Discard], viewer: Viewer) {
    ops.member("discard");
    ops.items(
        old,
        new,
        |ops, o, n| {
            // The members in key order: `card`, then `face_down` (present only when true).
            let card = seen(n, viewer);
            if seen(o, viewer) != card {
                ops.at_key("card", |ops| ops.replace(|out| push_card(out, card)));
            }
            match (o.face_down_by.is_some(), n.face_down_by.is_some()) {
                (false, true) => ops.at_key("face_down", |ops| ops.add(|out| out.push_str("true"))),
                (true, false) => ops.at_key("face_down", PatchOps::remove),
                _ => {}
            }
        },
        |out, d| {
            out.push_str(r#"{"card":"#);
            push_card(out, seen(d, viewer));
            if d.face_down_by.is_some() {
                out.push_str(r#","face_down":true"#);
            }
            out.push('}');
        },
    );
}

/// A card as the view writes it: its id, or `null` for a face-down card not seen.
fn push_card(out: &mut String, card: Option<Card>) {
    match card {
        Some(card) => push_number(out, card.0),
        None => out.push_str("null"),
    }
}

/// Writes into `ops` the patch from the board written from `old` to the one written from `new`, for the same
/// number of players: the operations `json_patch` finds between the two [`LeanBoard`] texts,
/// member by member in key order.
fn board_ops(ops: &mut PatchOps, old: &BoardInputs, new: &BoardInputs) {
    let number = |ops: &mut PatchOps, key: &'static str, old: i64, new: i64| {
        if old != new {
            ops.member(key);
            ops.replace(|out| push_int(out, new));
        }
    };
    number(ops, "deck_count", count(old.deck_count), count(new.deck_count));
    if old.fate != new.fate {
        ops.member("fate");
        fate_ops(ops, &old.fate, &new.fate);
    }
    number(ops, "grand_master", i64::from(old.gm.0), i64::from(new.gm.0));
    if old.pick_order != new.pick_order {
        seats_ops(ops, "pick_order", &old.pick_order, &new.pick_order);
    }
    number(ops, "round", i64::from(old.round), i64::from(new.round));
    if old.totals != new.totals {
        ops.member("scores");
        ops.items(
            &old.totals.0,
            &new.totals.0,
            |ops, _, n| ops.replace(|out| push_int(out, *n)),
            |out, n| push_int(out, *n),
        );
    }
    let changed: Vec<_> = Seat::all(new.players).map(|s| (old.seat(s), new.seat(s))).filter(|(o, n)| o != n).collect();
    if !changed.is_empty() {
        ops.member("seats");
        for (o, n) in &changed {
            ops.at_index(n.seat.index(), |ops| seat_ops(ops, o, n));
        }
    }
    if old.stage != new.stage {
        ops.member("stage");
        ops.replace(|out| out.push_str(&serde_json::to_string(&new.stage).unwrap_or_default()));
    }
    number(ops, "turn", i64::from(old.turn), i64::from(new.turn));
}

/// The top-level member `key`, a list of seats, going from `old` to `new`.
fn seats_ops(ops: &mut PatchOps, key: &'static str, old: &[Seat], new: &[Seat]) {
    ops.member(key);
    ops.items(old, new, |ops, _, n| ops.replace(|out| push_number(out, n.0)), |out, n| push_number(out, n.0));
}

/// A count as the JSON integer serde writes for it.
fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// One seat of the board (a [`LeanSeat`]), its members in key order.
fn seat_ops(ops: &mut PatchOps, old: &LeanSeat<'_>, new: &LeanSeat<'_>) {
    let scalar = |ops: &mut PatchOps, key: &str, old: i64, new: i64| {
        if old != new {
            ops.at_key(key, |ops| ops.replace(|out| push_int(out, new)));
        }
    };
    scalar(ops, "county_vp", old.county_vp.into(), new.county_vp.into());
    ops.at_key("tableau", |ops| {
        ops.items(
            &old.tableau,
            &new.tableau,
            |ops, _, n| ops.replace(|out| push_number(out, n.0)),
            |out, n| push_number(out, n.0),
        );
    });
}

/// The Fate row, an object keyed by card id (values `true`): `json_patch` walks the new keys
/// in sorted order (as text: "10" before "9"), adding those the old row lacks, then removes the
/// old keys the new row lacks, in the same order.
fn fate_ops(ops: &mut PatchOps, old: &[Card], new: &[Card]) {
    let key = |c: &Card| {
        let mut text = String::with_capacity(3);
        push_number(&mut text, c.0);
        text
    };
    let mut added: Vec<String> = new.iter().filter(|c| !old.contains(c)).map(key).collect();
    let mut removed: Vec<String> = old.iter().filter(|c| !new.contains(c)).map(key).collect();
    added.sort_unstable();
    removed.sort_unstable();
    for id in &added {
        ops.at_key(id, |ops| ops.add(|out| out.push_str("true")));
    }
    for id in &removed {
        ops.at_key(id, PatchOps::remove);
    }
}

/// `n` in decimal, as serde writes it.
fn push_number(text: &mut String, n: u8) {
    push_int(text, i64::from(n));
}

/// The parts [`view_texts`] wrote last, with exactly the inputs each was written from: a part
/// whose inputs are unchanged is handed out again (the same `Arc`), not written again. The
/// table keeps it from one action to the next (`game_core::view_diff::ViewCache`).
#[derive(Default)]
pub(crate) struct ViewMemo {
    /// The discard pile the texts in `discards` show.
    discard: Arc<Vec<Discard>>,
    /// The discard pile before it last changed, and its texts: what the patches of the
    /// texts in `discards` start from.
    last_discard: Arc<Vec<Discard>>,
    last_discards: Vec<(Viewer, Arc<ViewText>)>,
    /// The discard as each viewer who laid a card face down sees it, and as everyone else does
    /// (under [`Viewer::Spectator`]).
    discards: Vec<(Viewer, Arc<ViewText>)>,
    /// The decision each viewer was shown last, and its text.
    pendings: Vec<(Viewer, LeanPendingPart, Arc<ViewText>)>,
    /// Each viewer's own member (which never changes).
    heads: Vec<(Viewer, Arc<ViewText>)>,
    /// The members after the pending decision, and what they were written from.
    rest: Option<(RestInputs, Arc<ViewText>)>,
    /// The board (the members every viewer shares before the discard), and what it was written
    /// from: a nomination, for one, leaves it as it was.
    board: Option<(Arc<BoardInputs>, Arc<ViewText>)>,
    /// The board's inputs before `board`'s, to be filled again for the next board
    /// ([`BoardInputs::reuse`]).
    spare_board: Option<Arc<BoardInputs>>,
}

/// The board's text: [`LeanBoard`] written from `inputs`.
fn board_text(inputs: &BoardInputs) -> ViewText {
    ViewText::serialize(&LeanBoard {
        players: inputs.players,
        turn: inputs.turn,
        round: inputs.round,
        stage: inputs.stage,
        grand_master: inputs.gm,
        pick_order: Cow::Borrowed(&inputs.pick_order),
        deck_count: inputs.deck_count,
        fate: inputs.fate.iter().map(|c| (*c, true)).collect(),
        seats: Seat::all(inputs.players).map(|s| inputs.seat(s)).collect(),
        scores: Cow::Borrowed(&inputs.totals.0),
    })
}

/// Everything [`LeanBoard`] is written from.
struct BoardInputs {
    players: usize,
    turn: u32,
    round: u32,
    stage: Stage,
    gm: Seat,
    deck_count: usize,
    fate: Vec<Card>,
    tableaus: BySeat<Vec<Card>>,
    county_vp: BySeat<u32>,
    pick_order: Vec<Seat>,
    totals: BySeat<i64>,
}

impl BoardInputs {
    /// Seat `s` as the board shows it.
    fn seat(&self, s: Seat) -> LeanSeat<'_> {
        LeanSeat {
            seat: s,
            tableau: Cow::Borrowed(self.tableaus.get(s).map_or(&[][..], Vec::as_slice)),
            county_vp: self.county_vp.get(s).copied().unwrap_or(0),
        }
    }

    /// The inputs of `game`'s board: `spare` filled again (its lists' buffers reused) if nothing
    /// else holds it any more, otherwise new ones ([`BoardInputs::of`]).
    fn reuse(spare: Option<Arc<BoardInputs>>, game: &KnightsTemplar, totals: BySeat<i64>) -> Arc<Self> {
        if let Some(mut spare) = spare {
            if let Some(inputs) = Arc::get_mut(&mut spare) {
                inputs.refill(game, totals);
                return spare;
            }
        }
        Arc::new(BoardInputs::of(game, totals))
    }

    /// Makes these the inputs of `game`'s board, as [`BoardInputs::of`] would write them. Every
    /// member is named, so that a new one cannot be left out.
    fn refill(&mut self, game: &KnightsTemplar, new_totals: BySeat<i64>) {
        let BoardInputs { players, turn, round, stage, gm, deck_count, fate, tableaus, county_vp, pick_order, totals } =
            self;
        *players = game.players;
        *turn = game.turn;
        *round = game.round;
        *stage = game.stage;
        *gm = game.gm;
        *deck_count = game.deck.len();
        fate.clone_from(&game.fate);
        tableaus.clone_from(&game.tableaus);
        county_vp.clone_from(&game.county_vp);
        pick_order.clear();
        pick_order.extend(game.pick_order_seats());
        *totals = new_totals;
    }

    fn of(game: &KnightsTemplar, totals: BySeat<i64>) -> Self {
        BoardInputs {
            players: game.players,
            turn: game.turn,
            round: game.round,
            stage: game.stage,
            gm: game.gm,
            deck_count: game.deck.len(),
            fate: game.fate.clone(),
            tableaus: game.tableaus.clone(),
            county_vp: game.county_vp.clone(),
            pick_order: game.pick_order(),
            totals,
        }
    }

    /// Whether `game` (with these score totals) writes the same board: compared in full, with
    /// nothing copied.
    fn matches(&self, game: &KnightsTemplar, totals: &BySeat<i64>) -> bool {
        self.players == game.players
            && self.turn == game.turn
            && self.round == game.round
            && self.stage == game.stage
            && self.gm == game.gm
            && self.deck_count == game.deck.len()
            && self.fate == game.fate
            && self.tableaus == game.tableaus
            && self.county_vp == game.county_vp
            && self.pick_order.iter().copied().eq(game.pick_order_seats())
            && self.totals == *totals
    }
}

struct RestInputs {
    power_queue: Vec<Seat>,
    setup_draws: Vec<SetupDraw>,
    end: Option<EndReason>,
    outcome: Option<Outcome>,
}

/// [`LeanView`]'s members that differ between viewers, and its runs of shared members, each
/// in its field order: joined, they are the same text.
#[derive(Serialize)]
struct LeanViewer {
    viewer: Viewer,
}

#[derive(Serialize)]
struct LeanBoard<'a> {
    players: usize,
    turn: u32,
    round: u32,
    stage: Stage,
    grand_master: Seat,
    pick_order: Cow<'a, [Seat]>,
    deck_count: usize,
    fate: BTreeMap<Card, bool>,
    seats: Vec<LeanSeat<'a>>,
    scores: Cow<'a, [i64]>,
}

#[derive(Serialize)]
struct LeanDiscards {
    discard: Vec<LeanDiscard>,
}

#[derive(Clone, Serialize, PartialEq)]
struct LeanPendingPart {
    pending: LeanPending,
}

#[derive(Serialize)]
struct LeanRest<'a> {
    power_queue: &'a [Seat],
    setup_draws: &'a [SetupDraw],
    end: Option<EndReason>,
    outcome: Cow<'a, Option<Outcome>>,
}

/// The lean view: its parts in field order, written as one object (`flatten` writes the same
/// text as one struct with all the fields would).
#[derive(Serialize)]
struct LeanView<'a> {
    #[serde(flatten)]
    viewer: LeanViewer,
    #[serde(flatten)]
    board: LeanBoard<'a>,
    #[serde(flatten)]
    discard: LeanDiscards,
    #[serde(flatten)]
    pending: LeanPendingPart,
    #[serde(flatten)]
    rest: LeanRest<'a>,
}

#[derive(Serialize, PartialEq)]
struct LeanSeat<'a> {
    seat: Seat,
    tableau: Cow<'a, [Card]>,
    county_vp: u32,
}

#[derive(Serialize)]
struct LeanDiscard {
    card: Option<Card>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    face_down: bool,
}

#[derive(Clone, Serialize, PartialEq)]
struct LeanPending {
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    seat: Option<Seat>,
    #[serde(skip_serializing_if = "Option::is_none")]
    card: Option<Card>,
    #[serde(skip_serializing_if = "Option::is_none")]
    options: Option<Vec<(Seat, Card)>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cards: Option<[Card; 2]>,
}

impl From<&PendingView> for LeanPending {
    fn from(p: &PendingView) -> Self {
        let mut pending = LeanPending { kind: "over", seat: None, card: None, options: None, cards: None };
        match p {
            PendingView::Pick { .. } => pending.kind = "pick",
            PendingView::Nominate { .. } => pending.kind = "nominate",
            PendingView::Target { resolver, card, options } => {
                (pending.kind, pending.seat) = ("target", Some(*resolver));
                pending.card = Some(card.id);
                pending.options = Some(options.iter().map(|(s, c)| (*s, c.id)).collect());
            }
            PendingView::AllyChoice { resolver, cards } => {
                (pending.kind, pending.seat) = ("ally_choice", Some(*resolver));
                pending.cards = cards.map(|[a, b]| [a.id, b.id]);
            }
            PendingView::Over => {}
        }
        pending
    }
}

impl<'a> From<&'a View> for LeanView<'a> {
    fn from(v: &'a View) -> Self {
        let seat = |p: &PlayerView| LeanSeat {
            seat: p.seat,
            tableau: Cow::Owned(p.tableau.iter().map(|c| c.id).collect()),
            county_vp: p.county_vp,
        };
        LeanView {
            viewer: LeanViewer { viewer: v.viewer },
            board: LeanBoard {
                players: v.players,
                turn: v.turn,
                round: v.round,
                stage: v.stage,
                grand_master: v.grand_master,
                pick_order: Cow::Borrowed(&v.pick_order),
                deck_count: v.deck_count,
                fate: v.fate.iter().map(|c| (c.id, true)).collect(),
                seats: v.seats.iter().map(|(_, p)| seat(p)).collect(),
                scores: Cow::Owned(v.seats.iter().map(|(_, p)| p.score_now).collect()),
            },
            discard: LeanDiscards {
                discard: v
                    .discard
                    .iter()
                    .map(|d| LeanDiscard { card: d.card.map(|c| c.id), face_down: d.face_down })
                    .collect(),
            },
            pending: LeanPendingPart { pending: LeanPending::from(&v.pending) },
            rest: LeanRest {
                power_queue: &v.power_queue,
                setup_draws: &v.setup_draws,
                end: v.end,
                outcome: Cow::Borrowed(&v.outcome),
            },
        }
    }
}
