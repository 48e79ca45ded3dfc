//! The generic property harness every game crate runs.
//!
//! - [`check_contract`] plays random games and, at every decision point, checks that everything
//!   `legal_actions` lists applies, that actions it does not list (seen elsewhere, or sent by the
//!   wrong seat, or malformed JSON) are rejected without changing the state, that views do not
//!   change when information hidden from their viewer is re-drawn, that the state round-trips
//!   through its serialisation, and that the same seed and actions give the same hashes and a
//!   log that replays and verifies — and fails at the action that was tampered with.
//! - [`check_playouts`] plays many complete games cheaply and checks every one reaches an outcome.
//! - [`texts`]: checks of a translated rules-text catalog against the English one.
//!
//! These functions panic with a description of the first violation, so call them from tests.

pub mod texts;

use crate::dynamic::{Descriptor, DynGame, GameDescriptor, Wrapped};
use crate::game::{Game, RuleError};
use crate::hash::{state_hash, StateHash};
use crate::log::{GameLog, ReplayError};
use crate::rng::{GameRng, Seed};
use crate::seat::{Seat, SeatNames, Viewer};
use serde_json::{json, Value};

/// One random game played to its end.
#[derive(Clone, Debug)]
pub struct Playout<G: Game> {
    /// The final state.
    pub game: G,
    /// Every action taken, with its seat.
    pub actions: Vec<(Seat, G::Action)>,
    /// The state hash after setup, then after each action.
    pub hashes: Vec<StateHash>,
}

/// What a batch of playouts measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayoutSummary {
    /// Games played.
    pub games: usize,
    /// Actions applied in all.
    pub actions: usize,
    /// Most actions in one game.
    pub max_actions: usize,
    /// Lowest and highest score seen.
    pub score_range: (i64, i64),
}

/// Sets up a game from a numeric seed, panicking with the setup error.
pub fn setup<G: Game>(players: usize, options: &G::Options, seed: u64) -> G {
    match G::setup(players, options, Seed::from_u64(seed)) {
        Ok(g) => g,
        Err(e) => panic!("{} setup for {players} players failed: {e}", G::ID),
    }
}

/// Plays one random game with seed `seed` to its end, recording hashes only if `record` is set.
///
/// # Panics
/// If the game is not over after `max_steps` actions, waits for nobody while running, or rejects
/// an action it listed as legal.
pub fn random_playout<G: Game>(
    players: usize,
    options: &G::Options,
    seed: u64,
    max_steps: usize,
    record: bool,
) -> Playout<G> {
    let mut game: G = setup(players, options, seed);
    let mut rng = GameRng::from_u64(seed ^ 0x05ee_db07);
    let mut actions = Vec::new();
    let mut hashes = Vec::new();
    if record {
        hashes.push(state_hash(&game));
    }
    while game.outcome().is_none() {
        assert!(
            actions.len() < max_steps,
            "{} ({players} players, seed {seed}) did not end within {max_steps} actions",
            G::ID
        );
        let to_act = game.to_act();
        let seat =
            *rng.choose(&to_act).unwrap_or_else(|| panic!("{} waits for nobody but is not over (seed {seed})", G::ID));
        let legal = game.legal_actions(seat);
        let action = rng
            .choose(&legal)
            .unwrap_or_else(|| panic!("{} waits for {seat} who has no legal action (seed {seed})", G::ID))
            .clone();
        if let Err(e) = game.apply(seat, &action) {
            panic!("{} rejected its own legal action {action:?} by {seat}: {e} (seed {seed})", G::ID);
        }
        if record {
            hashes.push(state_hash(&game));
        }
        actions.push((seat, action));
    }
    Playout { game, actions, hashes }
}

/// Plays `games` random games (seeds `0..games`) of each `(players, options)` configuration and
/// shows `visit` every state each passes through: after setup and after every action. For tests
/// that look at every position the games reach (the rules texts' tests, for one).
///
/// # Panics
/// As [`random_playout`], or if a replayed action is rejected.
pub fn visit_random_games<G: Game>(
    configurations: impl IntoIterator<Item = (usize, G::Options)>,
    games: u64,
    max_steps: usize,
    mut visit: impl FnMut(&G),
) {
    for (players, options) in configurations {
        for seed in 0..games {
            let playout = random_playout::<G>(players, &options, seed, max_steps, false);
            let mut game: G = setup(players, &options, seed);
            visit(&game);
            for (seat, action) in &playout.actions {
                if let Err(e) = game.apply(*seat, action) {
                    panic!("replaying seed {seed} with {players} players: {e}");
                }
                visit(&game);
            }
        }
    }
}

/// Plays `games` random games (seeds `0..games`) and checks that each ends with a well-formed outcome.
///
/// # Panics
/// On the first game that does not end or whose outcome is malformed.
pub fn check_playouts<G: Game>(players: usize, options: &G::Options, games: u64, max_steps: usize) -> PlayoutSummary {
    let mut summary = PlayoutSummary { score_range: (i64::MAX, i64::MIN), ..Default::default() };
    for seed in 0..games {
        let p: Playout<G> = random_playout(players, options, seed, max_steps, false);
        check_outcome(&p.game, seed);
        summary.games += 1;
        summary.actions += p.actions.len();
        summary.max_actions = summary.max_actions.max(p.actions.len());
        if let Some(o) = p.game.outcome() {
            for s in o.scores {
                summary.score_range.0 = summary.score_range.0.min(s);
                summary.score_range.1 = summary.score_range.1.max(s);
            }
        }
    }
    summary
}

fn check_outcome<G: Game>(game: &G, seed: u64) {
    let outcome = game.outcome().unwrap_or_else(|| panic!("seed {seed}: no outcome"));
    let n = game.players();
    assert!(game.to_act().is_empty(), "seed {seed}: the game is over but still waits for {:?}", game.to_act());
    assert_eq!(outcome.scores.len(), n, "seed {seed}: one score per seat");
    assert_eq!(outcome.ranks.len(), n, "seed {seed}: one rank per seat");
    assert!(!outcome.winners.is_empty(), "seed {seed}: somebody wins");
    for w in &outcome.winners {
        assert_eq!(outcome.ranks[w.index()], 1, "seed {seed}: winners rank first");
    }
    for line in &outcome.breakdown {
        assert_eq!(line.points.len(), n, "seed {seed}: breakdown {:?} has one entry per seat", line.label);
    }
    for s in Seat::all(n) {
        assert!(game.legal_actions(s).is_empty(), "seed {seed}: {s} has legal actions after the end");
    }
}

/// Checks the whole contract on `games` random games (seeds `0..games`) at every decision point.
///
/// # Panics
/// On the first violation, with a description.
pub fn check_contract<G: Game>(players: usize, options: &G::Options, games: u64, max_steps: usize) {
    let mut pool: Vec<G::Action> = Vec::new();
    for seed in 0..games {
        let mut game: G = setup(players, options, seed);
        let mut rng = GameRng::from_u64(seed ^ 0x00c0_47ac);
        let mut steps = 0;
        while game.outcome().is_none() {
            check_decision_point(&game, &mut pool, &mut rng, seed);
            steps += 1;
            assert!(steps <= max_steps, "{} seed {seed}: no end within {max_steps} actions", G::ID);
            let to_act = game.to_act();
            let seat = *rng.choose(&to_act).expect("checked non-empty above");
            let legal = game.legal_actions(seat);
            let action = rng.choose(&legal).expect("checked non-empty above").clone();
            game.apply(seat, &action).expect("checked applicable above");
        }
        check_outcome(&game, seed);
        check_after_end(&game, &pool, seed);
        check_determinism_and_replay::<G>(players, options, seed, max_steps);
    }
}

fn check_decision_point<G: Game>(game: &G, pool: &mut Vec<G::Action>, rng: &mut GameRng, seed: u64) {
    let n = game.players();
    let before = state_hash(game);
    let to_act = game.to_act();
    assert!(!to_act.is_empty(), "seed {seed}: the game runs but waits for nobody");

    for seat in Seat::all(n) {
        let legal = game.legal_actions(seat);
        if !to_act.contains(&seat) {
            assert!(legal.is_empty(), "seed {seed}: {seat} is not waited for but has legal actions {legal:?}");
            continue;
        }
        assert!(!legal.is_empty(), "seed {seed}: {seat} is waited for but has no legal action");
        for action in &legal {
            let mut copy = game.clone();
            if let Err(e) = copy.apply(seat, action) {
                panic!("seed {seed}: listed action {action:?} of {seat} was rejected: {e}");
            }
            if pool.len() < 512 && !pool.contains(action) {
                pool.push(action.clone());
            }
        }
        // Actions seen elsewhere that are not legal here must be rejected without a change.
        for _ in 0..8 {
            let Some(candidate) = rng.choose(pool).cloned() else { break };
            if legal.contains(&candidate) {
                continue;
            }
            let mut copy = game.clone();
            assert!(copy.apply(seat, &candidate).is_err(), "seed {seed}: unlisted {candidate:?} by {seat} applied");
            assert_eq!(state_hash(&copy), before, "seed {seed}: a rejected action changed the state");
        }
        // The legal actions of a waited-for seat, sent by a seat that is not waited for.
        for other in Seat::all(n).filter(|s| !to_act.contains(s)) {
            let mut copy = game.clone();
            assert!(copy.apply(other, &legal[0]).is_err(), "seed {seed}: {other} acted out of turn");
            assert_eq!(state_hash(&copy), before, "seed {seed}: an out-of-turn action changed the state");
        }
        // A seat that does not exist.
        let mut copy = game.clone();
        assert!(copy.apply(Seat(n as u8), &legal[0]).is_err(), "seed {seed}: a seat beyond the table acted");
        assert_eq!(state_hash(&copy), before);
    }

    // Malformed JSON through the dynamic interface.
    let mut wrapped = Wrapped(game.clone());
    let names = SeatNames::generic(n);
    for junk in [json!(null), json!(42), json!("pass"), json!({"no_such_action": true}), json!([1, 2, 3])] {
        for seat in &to_act {
            match wrapped.apply(*seat, &junk, &names) {
                Err(RuleError::MalformedAction { .. }) | Err(RuleError::IllegalAction { .. }) => {}
                Ok(_) => panic!("seed {seed}: junk {junk} was accepted"),
                Err(e) => panic!("seed {seed}: junk {junk} gave {e:?}, expected a malformed-action error"),
            }
        }
    }
    // Legal actions with one field mutated into hostile values: rejected, or (if the mutation
    // happens to name another legal action) applied — never a panic, never a change on rejection.
    // Sampled at one decision point in eight, to keep the harness fast.
    let mutate = rng.below(8) == 0;
    for seat in to_act.iter().filter(|_| mutate) {
        let legal_json = wrapped.legal_actions(*seat);
        for action in legal_json.iter().take(2) {
            // The engine's own text (as listed) and another spelling of the same JSON.
            let listed = wrapped.legal_actions_json(*seat);
            let listed: Vec<&serde_json::value::RawValue> = serde_json::from_str(&listed).expect("a JSON array");
            let own = listed.iter().find(|raw| serde_json::from_str::<Value>(raw.get()).ok().as_ref() == Some(action));
            apply_text_agrees(game, *seat, action, own.expect("listed").get(), &names, seed);
            apply_text_agrees(game, *seat, action, &format!(" {action} "), &names, seed);
            // A bot's text choice is its value choice (the same draw from the same list).
            let (mut by_value, mut by_text) = (bot(seed), bot(seed));
            let chosen = by_text.choose_dyn_text(&wrapped, *seat).map(|t| serde_json::from_str::<Value>(t.get()));
            assert_eq!(by_value.choose_dyn(&wrapped, *seat), chosen.transpose().expect("listed text is JSON"));
            for junk in mutations(action) {
                apply_text_agrees(game, *seat, &junk, &junk.to_string(), &names, seed);
                let mut copy = Wrapped(game.clone());
                match copy.apply(*seat, &junk, &names) {
                    Ok(_) => assert!(legal_json.contains(&junk), "seed {seed}: unlisted {junk} was accepted"),
                    Err(_) => assert_eq!(copy.state_hash(), before, "seed {seed}: rejected {junk} changed the state"),
                }
            }
        }
    }
    assert_eq!(wrapped.state_hash(), before, "seed {seed}: junk changed the state");

    // Every reachable state keeps the game's invariants, and round-trips through its canonical
    // serialisation (whose `Deserialize` validates again).
    if let Err(e) = game.validate() {
        panic!("seed {seed}: a reachable state fails validation: {e}");
    }
    let json = serde_json::to_string(game).expect("states serialise");
    let back: G =
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("seed {seed}: state does not deserialise: {e}"));
    assert_eq!(state_hash(&back), before, "seed {seed}: state changed through serialisation");

    // Views do not depend on what their viewer cannot see.
    for viewer in Viewer::all(n) {
        let view = game.view(viewer);
        let scrambled = game.scramble_hidden(viewer, rng);
        assert_eq!(scrambled.view(viewer), view, "seed {seed}: {viewer:?}'s view depends on hidden information");
        if let Viewer::Seat(seat) = viewer {
            assert_eq!(
                scrambled.legal_actions(seat),
                game.legal_actions(seat),
                "seed {seed}: {seat}'s legal actions depend on information hidden from it"
            );
        }
        assert_eq!(scrambled.to_act(), to_act, "seed {seed}: who acts depends on hidden information");
    }
}

fn check_after_end<G: Game>(game: &G, pool: &[G::Action], seed: u64) {
    let before = state_hash(game);
    for action in pool.iter().take(16) {
        for seat in Seat::all(game.players()) {
            let mut copy = game.clone();
            assert_eq!(copy.apply(seat, action), Err(RuleError::GameOver), "seed {seed}: action after the end");
            assert_eq!(state_hash(&copy), before);
        }
    }
}

fn check_determinism_and_replay<G: Game>(players: usize, options: &G::Options, seed: u64, max_steps: usize) {
    let a: Playout<G> = random_playout(players, options, seed, max_steps, true);
    let b: Playout<G> = random_playout(players, options, seed, max_steps, true);
    assert_eq!(a.hashes, b.hashes, "seed {seed}: the same seed and actions gave different states");

    // Re-applying the recorded actions to a fresh setup gives the same hashes.
    let mut again: G = setup(players, options, seed);
    for ((seat, action), hash) in a.actions.iter().zip(&a.hashes[1..]) {
        again.apply(*seat, action).expect("replayed action applies");
        assert_eq!(&state_hash(&again), hash, "seed {seed}: replay diverged");
    }

    // The log format replays and verifies, and tampering is caught at the tampered action.
    let descriptor = Descriptor::<G>::new("test");
    let options_json = serde_json::to_value(options).expect("options serialise");
    let s = Seed::from_u64(seed);
    let fresh = descriptor.create(players, &options_json, s).expect("descriptor creates the game");
    let mut log = GameLog::start("test", &descriptor, options_json, SeatNames::generic(players).0, &s, fresh.as_ref());
    for ((seat, action), hash) in a.actions.iter().zip(&a.hashes[1..]) {
        log.record(*seat, serde_json::to_value(action).expect("actions serialise"), hash.clone());
    }
    log.reveal(s, a.game.outcome());
    let report = log.replay(&descriptor).unwrap_or_else(|e| panic!("seed {seed}: log does not verify: {e}"));
    assert_eq!(report.final_hash, state_hash(&a.game));

    if let Some(mid) = log.actions.len().checked_div(2).filter(|_| !log.actions.is_empty()) {
        let mut bad = log.clone();
        bad.actions[mid].hash = StateHash("0".repeat(64));
        let err = bad.replay(&descriptor).expect_err("a tampered hash must not verify");
        assert_eq!(err.failing_seq(), Some(mid as u64 + 1), "seed {seed}: tampered hash caught at the wrong place");

        let mut bad = log.clone();
        bad.actions[mid].action = json!({"tampered": true});
        let err = bad.replay(&descriptor).expect_err("a tampered action must not verify");
        assert!(
            matches!(err, ReplayError::Rejected { seq, .. } if seq == mid as u64 + 1),
            "seed {seed}: tampered action caught as {err:?}"
        );
    }
    let mut bad = log.clone();
    bad.seed = Some(Seed::from_u64(seed.wrapping_add(1)));
    assert!(matches!(bad.replay(&descriptor), Err(ReplayError::Commitment { .. })));
}

/// Copies of `action` with one leaf replaced by a hostile value (out-of-range and negative
/// numbers, odd strings, wrong types), for the no-panic checks.
fn bot(seed: u64) -> crate::bot::RandomBot {
    crate::bot::RandomBot::new(GameRng::from_u64(seed))
}

/// `apply_text` on `text` (a spelling of `action`) does what `apply` does on `action`: the same
/// events and state, or the same error; and the text it stores reads as `action`.
fn apply_text_agrees<G: Game>(game: &G, seat: Seat, action: &Value, text: &str, names: &SeatNames, seed: u64) {
    let mut by_value = Wrapped(game.clone());
    let mut by_text = Wrapped(game.clone());
    match (by_value.apply(seat, action, names), by_text.apply_text(seat, text, names)) {
        (Ok(expected), Ok((events, stored))) => {
            let json = |e: &Vec<crate::DynEvent>| serde_json::to_string(e).expect("events serialise");
            assert_eq!(json(&expected), json(&events), "seed {seed}: {text} gave other events");
            assert_eq!(by_value.state_hash(), by_text.state_hash(), "seed {seed}: {text} left another state");
            let stored: Value = serde_json::from_str(stored.get()).expect("stored text is JSON");
            assert_eq!(&stored, action, "seed {seed}: {text} stored as another action");
        }
        (Err(expected), Err(error)) => assert_eq!(expected, error, "seed {seed}: {text}"),
        (expected, got) => panic!("seed {seed}: {action} by value gave {expected:?}, as {text} gave {got:?}"),
    }
}

fn mutations(action: &Value) -> Vec<Value> {
    let hostile = [
        json!(-1),
        json!(255),
        json!(256),
        json!(65_536),
        json!(u64::MAX),
        json!(1.5),
        json!(""),
        json!("Lé1"),
        json!("x".repeat(300)),
        json!(null),
        json!([]),
        json!({}),
    ];
    let mut out = Vec::new();
    let mut paths = Vec::new();
    leaf_paths(action, &mut Vec::new(), &mut paths);
    for path in paths {
        for h in &hostile {
            let mut copy = action.clone();
            if let Some(slot) = path.iter().try_fold(&mut copy, |v, key| match key {
                PathKey::Field(k) => v.get_mut(k.as_str()),
                PathKey::Index(i) => v.get_mut(*i),
            }) {
                *slot = h.clone();
                out.push(copy);
            }
        }
    }
    // An unknown key beside the real ones: it must be refused, not applied and stored in the log.
    if let Value::Object(map) = action {
        let mut copy = map.clone();
        copy.insert("unexpected".into(), json!(1));
        out.push(Value::Object(copy));
    }
    out
}

#[derive(Clone)]
enum PathKey {
    Field(String),
    Index(usize),
}

fn leaf_paths(v: &Value, prefix: &mut Vec<PathKey>, out: &mut Vec<Vec<PathKey>>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                prefix.push(PathKey::Field(k.clone()));
                leaf_paths(child, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                prefix.push(PathKey::Index(i));
                leaf_paths(child, prefix, out);
                prefix.pop();
            }
        }
        _ => out.push(prefix.clone()),
    }
}
