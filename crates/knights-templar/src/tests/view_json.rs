//! The lean view JSON (see `impl Serialize for View`): it says what the typed view says, and
//! what it leaves out can be read off what it sends without any rule, checked against the typed
//! view at every step of random games for every viewer.

use crate::card::{Card, CardType};
use crate::state::KnightsTemplar;
use crate::view::{PendingView, View};
use crate::Options;
use game_core::testing::{random_playout, setup};
use game_core::{Game, Seat, Viewer};
use serde_json::Value;

fn num(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// What the client computes from the JSON, compared with the typed view.
fn check(view: &View, json: &Value, what: &str) {
    let obj = json.as_object().expect("an object");
    for gone in ["to_act", "breakdown", "picked"] {
        assert!(!obj.contains_key(gone), "{what}: `{gone}` is left out");
    }
    // The Fate row: one key per card.
    let mut fate: Vec<u8> = json["fate"].as_object().expect("fate").keys().map(|k| k.parse().expect("id")).collect();
    fate.sort_unstable();
    let mut typed: Vec<u8> = view.fate.iter().map(|c| c.id.0).collect();
    typed.sort_unstable();
    assert_eq!(fate, typed, "{what}: fate");
    let pending = &json["pending"];
    let kind = pending["kind"].as_str().expect("kind");
    let pseat = pending.get("seat").map(num);
    let gm = num(&json["grand_master"]);
    let round = num(&json["round"]);
    let order: Vec<u64> = json["pick_order"].as_array().expect("pick_order").iter().map(num).collect();
    assert_eq!(order, view.pick_order.iter().map(|s| u64::from(s.0)).collect::<Vec<_>>(), "{what}: pick order");
    // As the client reads them: while the Select Phase waits for anything but a nomination, the
    // last seat called is still picking (it has taken its card unless the decision is `pick`).
    let picking = (json["stage"] == "select" && kind != "nominate").then(|| order.last().copied()).flatten();
    let seats = json["seats"].as_array().expect("seats");
    let scores = json["scores"].as_array().expect("scores");
    assert_eq!(seats.len(), scores.len(), "{what}: a score per seat");
    for (seat, p) in view.seats.iter() {
        let j = &seats[seat.index()];
        assert_eq!(j.as_object().map(|o| o.len()), Some(3), "{what}: seat, tableau, county_vp");
        let ids: Vec<u64> = j["tableau"].as_array().expect("tableau").iter().map(num).collect();
        assert_eq!(ids, p.tableau.iter().map(|c| u64::from(c.id.0)).collect::<Vec<_>>(), "{what}: tableau");
        let counts: Vec<usize> =
            CardType::ALL.iter().map(|t| ids.iter().filter(|id| Card(**id as u8).kind() == *t).count()).collect();
        assert_eq!(counts, p.counts, "{what}: counts from the tableau's printed types");
        assert_eq!(scores[seat.index()].as_i64(), Some(p.score_now), "{what}: score now");
        let s = u64::from(seat.0);
        let called = order.contains(&s);
        assert_eq!(called && picking != Some(s), p.picked_this_round, "{what}: picked this round");
        let picked_now = called && !(picking == Some(s) && kind == "pick");
        assert_eq!(round - 1 + u64::from(picked_now), u64::from(p.fate_picks), "{what}: Fate picks this turn");
    }
    match &view.pending {
        PendingView::Pick { seat } => {
            assert_eq!((kind, pseat), ("pick", None), "{what}");
            assert_eq!(picking, Some(u64::from(seat.0)), "{what}: the picker is the last seat called");
        }
        PendingView::Nominate { gm: by, candidates } => {
            assert_eq!((kind, pseat), ("nominate", None), "{what}");
            assert_eq!(u64::from(by.0), gm, "{what}: the Grand Master nominates");
            let uncalled: Vec<Seat> =
                view.seats.iter().map(|(s, _)| s).filter(|s| !order.contains(&u64::from(s.0))).collect();
            let mut sorted = candidates.clone();
            sorted.sort();
            assert_eq!(sorted, uncalled, "{what}: candidates are the seats not called yet");
        }
        PendingView::Target { resolver, card, options } => {
            assert_eq!((kind, pseat), ("target", Some(resolver.0 as u64)), "{what}");
            assert_eq!(num(&pending["card"]), u64::from(card.id.0));
            let typed: Vec<Value> = options.iter().map(|(s, c)| serde_json::json!([s.0, c.id.0])).collect();
            assert_eq!(pending["options"], Value::Array(typed), "{what}");
        }
        PendingView::AllyChoice { resolver, cards } => {
            assert_eq!((kind, pseat), ("ally_choice", Some(resolver.0 as u64)), "{what}");
            let typed = cards.map(|[a, b]| serde_json::json!([a.id.0, b.id.0]));
            assert_eq!(pending.get("cards").cloned(), typed, "{what}: the two cards, for the resolver only");
        }
        PendingView::Over => assert_eq!((kind, pseat), ("over", None), "{what}"),
    }
    for (d, j) in view.discard.iter().zip(json["discard"].as_array().expect("discard")) {
        assert_eq!(j["card"].as_u64(), d.card.map(|c| u64::from(c.id.0)), "{what}: discard");
        assert_eq!(j.get("face_down") == Some(&Value::Bool(true)), d.face_down, "{what}: face down");
    }
}

#[test]
fn everything_the_view_json_leaves_out_is_derivable_from_what_it_sends() {
    let mut kinds = std::collections::BTreeSet::new();
    for players in KnightsTemplar::MIN_PLAYERS..=KnightsTemplar::MAX_PLAYERS {
        for seed in 0..6 {
            let options = Options::default();
            let p = random_playout::<KnightsTemplar>(players, &options, seed, 5_000, false);
            let mut game: KnightsTemplar = setup(players, &options, seed);
            for (step, (seat, action)) in p.actions.iter().enumerate() {
                game.apply(*seat, action).expect("replays");
                for viewer in Viewer::all(players) {
                    let view = game.view(viewer);
                    let json = serde_json::to_value(&view).expect("json");
                    kinds.insert(format!("{:?}", std::mem::discriminant(&view.pending)));
                    let what = format!("{players} players, seed {seed}, step {step}, {viewer:?}");
                    check(&view, &json, &what);
                    assert_eq!(
                        game.view_text(viewer).as_str(),
                        serde_json::to_string(&view).expect("json"),
                        "{what}: the text written straight from the state is the view's"
                    );
                }
            }
        }
    }
    assert_eq!(kinds.len(), 5, "every decision point and the end were met");
}

/// After an action, the parts that changed carry their patch from the parts the same viewer
/// was given before (the table then takes it instead of diffing texts; the server's
/// `view_patches` test checks those patches against `json_patch::diff` at every step).
#[test]
fn changed_parts_carry_their_patch_from_the_last_ones() {
    let options = Options::default();
    let players = 4;
    let playout = random_playout::<KnightsTemplar>(players, &options, 7, 100_000, false);
    let mut game = setup::<KnightsTemplar>(players, &options, 7);
    let viewers: Vec<Viewer> = Seat::all(players).map(Viewer::Seat).collect();
    let mut cache = game_core::view_diff::ViewCache::default();
    let mut kept = game.view_texts(&viewers, &mut cache);
    let (mut changed, mut derived) = (0, 0);
    let mut derived_by_part = [0usize; 5];
    for (seat, action) in &playout.actions {
        game.apply(*seat, action).expect("recorded action");
        let parts = game.view_texts(&viewers, &mut cache);
        for (old, new) in kept.iter().zip(&parts) {
            for (i, (o, n)) in old.parts().iter().zip(new.parts()).enumerate() {
                if !std::sync::Arc::ptr_eq(o, n) {
                    changed += 1;
                    if n.follows(o) {
                        derived += 1;
                        derived_by_part[i] += 1;
                    }
                }
            }
        }
        kept = parts;
    }
    assert!(changed > 0);
    // The board (1), the discard (2) and the decision (3) are written with their patch; the
    // rest (4) changes once or twice a game and is diffed as text.
    for (part, count) in derived_by_part.iter().enumerate().take(4).skip(1) {
        assert!(*count > 0, "part {part} never carries its patch");
    }
    assert!(derived * 10 >= changed * 9, "only {derived} of {changed} changed parts carry their patch");
}
