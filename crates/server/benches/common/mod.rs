//! What the broadcast benches share: one accepted action as a table broadcasts it.

use game_core::view_diff::{diff_parts_memo, DiffMemo, ViewCache, ViewParts};
use game_core::{Game, Seat, Viewer};

/// Applies `action` of `seat`, writes every viewer's view as parts and diffs each against the
/// parts `kept` from the previous action (then kept in their place), as the table actor does:
/// the bytes of the patches.
pub fn broadcast_step<G: Game>(
    game: &mut G,
    (seat, action): &(Seat, G::Action),
    viewers: &[Viewer],
    cache: &mut ViewCache,
    memo: &mut DiffMemo,
    kept: &mut Vec<ViewParts>,
) -> usize {
    game.apply(*seat, action).expect("recorded action");
    let parts = game.view_texts(viewers, cache);
    memo.clear();
    let bytes = kept.iter().zip(&parts).map(|(old, new)| diff_parts_memo(old, new, memo).len()).sum();
    *kept = parts;
    bytes
}
