//! The web client knows each card's type from its id (the view JSON sends bare ids): its table
//! must be the engine's card list.

use knights_templar::{Card, CardType};

#[test]
fn the_web_clients_card_type_table_is_the_engines() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/js/games/knights-templar.js");
    let js = std::fs::read_to_string(path).expect("the web client's Knights Templar module");
    let list = |name: &str| -> Vec<String> {
        let line = js.lines().find(|l| l.starts_with(&format!("const {name} = ["))).expect(name);
        let inner = line.split_once('[').and_then(|(_, r)| r.split_once(']')).map(|(l, _)| l).expect("a list");
        inner.split(',').map(|x| x.trim().trim_matches('\'').to_string()).collect()
    };
    let types = list("TYPES");
    let sizes: Vec<usize> = list("TYPE_SIZES").iter().map(|n| n.parse().expect("a count")).collect();
    let engine: Vec<String> = CardType::ALL
        .iter()
        .map(|t| serde_json::to_value(t).ok().and_then(|v| v.as_str().map(String::from)).expect("a name"))
        .collect();
    assert_eq!(types, engine, "TYPES in the engine's order");
    let mut id = 1u8;
    for (kind, n) in CardType::ALL.iter().zip(&sizes) {
        for _ in 0..*n {
            assert_eq!(Card(id).kind(), *kind, "card {id}");
            id += 1;
        }
    }
    assert_eq!(usize::from(id - 1), Card::all().count(), "TYPE_SIZES covers every card");
}

/// What the web client's `expand` (web/js/games/knights-templar.js) must read off the view JSON,
/// written by the engine's typed view: each seat's per-type counts, score now, Fate picks this
/// turn and pick flag, and the decision's kind and decider.
fn expected(view: &knights_templar::View) -> serde_json::Value {
    use knights_templar::view::PendingView;
    let decider = match &view.pending {
        PendingView::Pick { seat } => Some(*seat),
        PendingView::Nominate { gm, .. } => Some(*gm),
        PendingView::Target { resolver, .. } | PendingView::AllyChoice { resolver, .. } => Some(*resolver),
        PendingView::Over => None,
    };
    let kind = serde_json::to_value(&view.pending).ok().and_then(|v| v.get("kind").cloned());
    let seats: Vec<serde_json::Value> = view
        .seats
        .iter()
        .map(|(_, p)| {
            serde_json::json!({
                "counts": p.counts,
                "score_now": p.score_now,
                "fate_picks": p.fate_picks,
                "picked_this_round": p.picked_this_round,
            })
        })
        .collect();
    serde_json::json!({ "kind": kind, "seat": decider.map(|s| s.0), "seats": seats })
}

/// Runs the client's `expand` in Node.js on the view JSON of every viewer at every step of random
/// games at every player count, and compares what it reads with the typed view. Node.js is part
/// of the toolchain (the browser tests run on it); without it this fails under `CI=true` and is
/// reported and skipped elsewhere.
#[test]
fn the_web_client_reads_the_view_json_as_the_engine_means_it() {
    use game_core::testing::visit_random_games;
    use game_core::{Game, Viewer};
    use knights_templar::{KnightsTemplar, Options};
    use std::process::Command;

    if Command::new("node").arg("--version").output().is_err() {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "Node.js is missing, and CI=true");
        eprintln!("skipped: no Node.js on PATH to run the web client's code");
        return;
    }
    let mut cases = Vec::new();
    let counts = KnightsTemplar::MIN_PLAYERS..=KnightsTemplar::MAX_PLAYERS;
    visit_random_games(counts.map(|n| (n, Options::default())), 3, 5_000, |game: &KnightsTemplar| {
        for viewer in Viewer::all(game.players()) {
            let view = game.view(viewer);
            let json = serde_json::to_value(&view).expect("the view JSON");
            cases.push(serde_json::json!({ "view": json, "expected": expected(&view) }));
        }
    });
    assert!(cases.len() > 10_000, "random games give many views ({})", cases.len());

    let dir = std::env::temp_dir().join(format!("kt-web-client-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let data = dir.join("cases.json");
    std::fs::write(&data, serde_json::to_vec(&cases).expect("cases")).expect("write the cases");
    let script = dir.join("check.mjs");
    std::fs::write(&script, NODE_CHECK).expect("write the script");
    let module = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/js/games/knights-templar.js");
    let module = module.canonicalize().expect("the web client's Knights Templar module");
    let out = Command::new("node").arg(&script).arg(&module).arg(&data).output().expect("run node");
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "the client's reading differs:\n{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout.trim(), format!("checked {}", cases.len()), "every case was checked");
}

/// Loads the client module with the two browser globals its imports touch, expands every case's
/// view and prints the first differences.
const NODE_CHECK: &str = r#"
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
globalThis.navigator = { language: 'en', languages: ['en'] };
globalThis.document = { documentElement: {} };
const { expand } = await import(pathToFileURL(process.argv[2]).href);
const cases = JSON.parse(readFileSync(process.argv[3], 'utf8'));
const wrong = [];
for (const [i, { view, expected }] of cases.entries()) {
  const v = expand(view);
  const got = { // keys in the order serde_json writes them (sorted)
    kind: v.pending.kind,
    seat: v.pending.seat,
    seats: v.seats.map((s) => ({ counts: s.counts, fate_picks: s.fate_picks, picked_this_round: s.picked_this_round, score_now: s.score_now })),
  };
  if (JSON.stringify(got) !== JSON.stringify(expected)) wrong.push(`case ${i}:\n  got      ${JSON.stringify(got)}\n  expected ${JSON.stringify(expected)}\n  view     ${JSON.stringify(view)}`);
}
if (wrong.length) {
  console.log(`${wrong.length} of ${cases.length} differ; the first:\n${wrong.slice(0, 3).join('\n')}`);
  process.exit(1);
}
console.log(`checked ${cases.length}`);
"#;
