//! Logs recorded by an earlier build (before the engines were reshaped, 2026-11-23) must still
//! verify: the engines' state hashes are part of every stored game, so a refactor or a faster hash
//! that changed one byte of a state's canonical JSON would break every audit of an old game.

use chapterhouse::cli::verify::verify_file;
use std::path::Path;

#[test]
fn logs_recorded_by_an_earlier_build_still_verify_hash_for_hash() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut games = std::collections::BTreeSet::new();
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/golden exists") {
        let path = entry.expect("a directory entry").path();
        let (log, result) = verify_file(&path).expect("a readable log");
        let report = result.unwrap_or_else(|e| panic!("{} no longer verifies: {e}", path.display()));
        assert_eq!(report.actions, log.actions.len(), "{}", path.display());
        assert!(report.actions > 50, "{} is a whole game", path.display());
        assert_eq!(report.outcome, log.outcome, "{}: the same result", path.display());
        games.insert(log.game.clone());
        checked += 1;
    }
    assert_eq!(checked, 10, "every golden log was checked");
    assert_eq!(games.len(), 4, "every game has golden logs: {games:?}");
}

#[test]
fn a_golden_log_with_one_altered_hash_fails_at_that_action() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/knights-templar-2.json");
    let mut log: game_core::GameLog = serde_json::from_slice(&std::fs::read(&path).expect("readable")).expect("a log");
    log.actions[9].hash = game_core::StateHash("0".repeat(64));
    let catalog = chapterhouse::catalog::Catalog::standard();
    let err = log.replay(catalog.get(&log.game).expect("in the catalog")).expect_err("the altered log fails");
    assert_eq!(err.failing_seq(), Some(10));
}
