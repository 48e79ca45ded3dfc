//! What the broadcast benches share: one accepted action as a table broadcasts it.

use game_core::view_diff::{diff_parts_memo, DiffMemo, ViewCache, ViewParts};
use game_core::{Game, Seat, Viewer};

/// How the viewers' patches are made: as the table makes them (the engine's own patches when it
/// writes them, else views written as parts and diffed), or always as parts.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Path {
    Table,
    Parts,
}

impl Path {
    fn engine_patches<G: Game>(self, game: &G) -> bool {
        self == Path::Table && game.writes_patches()
    }
}

/// What a table holds before its first action: every viewer's view as parts, or (the engine
/// writes its patches) the engine's memo of what the viewers were shown.
pub fn first_views<G: Game>(game: &G, viewers: &[Viewer], cache: &mut ViewCache, path: Path) -> Vec<ViewParts> {
    if path.engine_patches(game) {
        game.view_patches(&[], cache, &mut Vec::new());
        return Vec::new();
    }
    game.view_texts(viewers, cache)
}

/// Applies `action` of `seat` and makes every viewer's patch along `path`: the engine's own
/// patches, or every viewer's view written as parts and diffed against the parts `kept` from the
/// previous action (then kept in their place), as the table actor does: the bytes of the
/// patches.
pub fn broadcast_step<G: Game>(
    game: &mut G,
    (seat, action): &(Seat, G::Action),
    viewers: &[Viewer],
    (cache, memo, patches): (&mut ViewCache, &mut DiffMemo, &mut Vec<String>),
    kept: &mut Vec<ViewParts>,
    path: Path,
) -> usize {
    game.apply(*seat, action).expect("recorded action");
    if path.engine_patches(game) {
        assert!(game.view_patches(viewers, cache, patches), "the engine's memo was filled first");
        return patches.iter().map(String::len).sum();
    }
    let parts = game.view_texts(viewers, cache);
    memo.clear();
    let bytes = kept.iter().zip(&parts).map(|(old, new)| diff_parts_memo(old, new, memo).len()).sum();
    *kept = parts;
    bytes
}
