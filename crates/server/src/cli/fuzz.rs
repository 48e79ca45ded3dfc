//! `chapterhouse fuzz`: feeds an engine random and mutated actions through the JSON layer the
//! server uses ([`DynGame::apply`]), and the same actions, mutated, through the socket message
//! parser ([`ClientMsg::parse`]). Not part of the test suite: it runs for as many actions as asked
//! (docs/reliability.md has the figures and the command).
//!
//! Checked at every step: nothing panics; a listed legal action applies; a mutated action is
//! either refused with the state untouched or is itself a listed legal action; junk is refused;
//! the parser answers every frame with a message or an error.

use crate::catalog::Catalog;
use crate::cli::find_game;
use crate::cli::outln;
use crate::protocol::ClientMsg;
use anyhow::bail;
use game_core::{DynGame, GameRng, Seat, SeatNames, Seed};
use serde_json::{json, Value};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::ExitCode;
use std::time::Instant;

/// Options of `chapterhouse fuzz`.
#[derive(Debug, clap::Args)]
pub struct FuzzArgs {
    /// The game id (see `chapterhouse games`).
    #[arg(long)]
    pub game: String,
    /// How many actions to feed in all (legal, mutated and junk).
    #[arg(long, default_value_t = 1_000_000)]
    pub actions: u64,
    /// Number of players; every allowed count in turn if omitted.
    #[arg(long)]
    pub players: Option<usize>,
    /// The seed of the run (games and choices follow from it). Random if omitted.
    #[arg(long)]
    pub seed: Option<u64>,
}

/// What a run fed and found.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct FuzzReport {
    /// Actions fed to the engine in all.
    pub actions: u64,
    /// Of which listed legal actions (all applied).
    pub legal: u64,
    /// Of which mutated legal actions.
    pub mutated: u64,
    /// Of which junk JSON.
    pub junk: u64,
    /// Frames fed to the socket parser.
    pub frames: u64,
    /// Games played to the end.
    pub games: u64,
    /// Attempts with added object keys that the engine took as the listed action without them
    /// (its action types ignore unknown fields): counted, not failures.
    pub lenient: u64,
    /// What went wrong (empty when the run is clean).
    pub failures: Vec<String>,
}

/// Values that break careless code: out-of-range and negative numbers, odd strings, wrong types
/// (the same ones game-core's harness swaps into legal actions).
fn hostile() -> [Value; 12] {
    [
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
    ]
}

/// `action` with one leaf (chosen by `rng`) replaced by a hostile value, or a key removed or
/// added.
fn mutate(action: &Value, rng: &mut GameRng) -> Value {
    // A random walk down from the root picks the node to damage, as a JSON pointer.
    let mut pointer = String::new();
    let mut node = action;
    loop {
        let next = match node {
            Value::Object(map) if !map.is_empty() && rng.below(4) != 0 => {
                map.iter().nth(rng.below(map.len())).map(|(k, v)| (k.replace('~', "~0").replace('/', "~1"), v))
            }
            Value::Array(items) if !items.is_empty() && rng.below(4) != 0 => {
                let i = rng.below(items.len());
                items.get(i).map(|v| (i.to_string(), v))
            }
            _ => None,
        };
        match next {
            Some((key, child)) => {
                pointer.push('/');
                pointer.push_str(&key);
                node = child;
            }
            None => break,
        }
    }
    let mut copy = action.clone();
    let Some(slot) = copy.pointer_mut(&pointer) else { return copy };
    match (rng.below(8), &mut *slot) {
        (0, Value::Object(map)) => {
            map.insert(ADDED_KEY.into(), json!(1));
        }
        (1, Value::Object(map)) if !map.is_empty() => {
            let key = map.keys().nth(rng.below(map.len())).cloned().unwrap_or_default();
            map.remove(&key);
        }
        _ => {
            let values = hostile();
            *slot = values[rng.below(values.len())].clone();
        }
    }
    copy
}

/// Whether `attempt` is `listed` with extra object keys (and nothing else changed).
fn listed_plus_keys(listed: &Value, attempt: &Value) -> bool {
    match (listed, attempt) {
        (Value::Object(l), Value::Object(a)) => {
            l.iter().all(|(k, v)| a.get(k).is_some_and(|av| listed_plus_keys(v, av)))
        }
        (Value::Array(l), Value::Array(a)) => {
            l.len() == a.len() && l.iter().zip(a).all(|(lv, av)| listed_plus_keys(lv, av))
        }
        (l, a) => l == a,
    }
}

/// The key [`mutate`] adds to an object.
const ADDED_KEY: &str = "unexpected";

/// A random JSON value, a few levels deep.
fn junk(rng: &mut GameRng, depth: usize) -> Value {
    match rng.below(if depth == 0 { 5 } else { 7 }) {
        0 => Value::Null,
        1 => json!(rng.below(1000) as i64 - 500),
        2 => json!(["pass", "take", "play", "", "card", "ship"][rng.below(6)]),
        3 => json!(rng.below(2) == 0),
        4 => hostile()[rng.below(12)].clone(),
        5 => Value::Array((0..rng.below(4)).map(|_| junk(rng, depth - 1)).collect()),
        _ => {
            let keys = ["type", "card", "seat", "city", "space", "choice", "count", "index"];
            Value::Object(
                (0..rng.below(4)).map(|_| (keys[rng.below(keys.len())].to_string(), junk(rng, depth - 1))).collect(),
            )
        }
    }
}

/// A socket frame around `action`, sometimes damaged (cut short, or a field of the envelope
/// replaced).
fn frame(action: &Value, version: u64, rng: &mut GameRng) -> String {
    let mut msg =
        json!({"type": "action", "game": "fuzz", "version": version, "action": action, "req": rng.below(100)});
    if rng.below(4) == 0 {
        msg = mutate(&msg, rng);
    }
    let text = msg.to_string();
    if rng.below(8) == 0 {
        let mut cut = rng.below(text.len().max(1));
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        return text[..cut].to_string();
    }
    text
}

fn feed_parser(text: &str, report: &mut FuzzReport) {
    report.frames += 1;
    if catch_unwind(|| {
        let _ = ClientMsg::parse(text);
    })
    .is_err()
    {
        report.failures.push(format!("the socket parser panicked on {text:?}"));
    }
}

/// Runs the fuzzer.
///
/// # Errors
/// Unknown game or a bad player count.
pub fn fuzz(args: &FuzzArgs) -> anyhow::Result<FuzzReport> {
    let catalog = Catalog::standard();
    let descriptor = find_game(&catalog, &args.game)?;
    let info = descriptor.info();
    let counts: Vec<usize> = match args.players {
        Some(n) if (info.min_players..=info.max_players).contains(&n) => vec![n],
        Some(n) => bail!("{} takes {} to {} players, not {n}", info.id, info.min_players, info.max_players),
        None => (info.min_players..=info.max_players).collect(),
    };
    let seed = args.seed.unwrap_or_else(|| Seed::random().to_hex().bytes().fold(0, |h, b| h * 31 + u64::from(b)));
    let mut rng = GameRng::from_u64(seed);
    let mut report = FuzzReport::default();
    let options = json!({});
    let mut game_no = 0u64;
    while report.actions < args.actions && report.failures.len() < 20 {
        let players = counts[(game_no as usize) % counts.len()];
        let game_seed = Seed::from_u64(seed.wrapping_add(game_no));
        game_no += 1;
        let mut game = descriptor.create(players, &options, game_seed)?;
        let names = SeatNames((0..players).map(|i| format!("P{i}")).collect());
        // A game that never ends would be a bug of its own; cap it well above any real game.
        for version in 0..200_000u64 {
            if report.actions >= args.actions || game.outcome().is_some() {
                break;
            }
            let to_act = game.to_act();
            let Some(&seat) = rng.choose(&to_act) else {
                report.failures.push(format!("game seed {game_seed:?}: not over, but waits for nobody"));
                break;
            };
            let legal = game.legal_actions(seat);
            let Some(chosen) = rng.choose(&legal).cloned() else {
                report.failures.push(format!("game seed {game_seed:?}: {seat} is waited for with no legal action"));
                break;
            };
            // Hostile attempts first, on this decision point, each on a copy.
            for _ in 0..2 {
                let (attempt, is_junk) =
                    if rng.below(3) == 0 { (junk(&mut rng, 3), true) } else { (mutate(&chosen, &mut rng), false) };
                let who = if rng.below(16) == 0 { Seat(rng.below(players + 2) as u8) } else { seat };
                check_hostile(game.as_ref(), who, &attempt, &legal, &names, &mut rng, &mut report, game_seed);
                feed_parser(&frame(&attempt, version, &mut rng), &mut report);
                report.actions += 1;
                if is_junk {
                    report.junk += 1;
                } else {
                    report.mutated += 1;
                }
            }
            feed_parser(&frame(&chosen, version, &mut rng), &mut report);
            match catch_unwind(AssertUnwindSafe(|| game.apply(seat, &chosen, &names))) {
                Ok(Ok(_)) => {}
                Ok(Err(e)) => {
                    report.failures.push(format!("game seed {game_seed:?}: legal {chosen} by {seat} refused: {e}"))
                }
                Err(_) => {
                    report.failures.push(format!("game seed {game_seed:?}: legal {chosen} by {seat} panicked"));
                    break;
                }
            }
            report.actions += 1;
            report.legal += 1;
        }
        if game.outcome().is_some() {
            report.games += 1;
        }
    }
    Ok(report)
}

/// One hostile attempt on a copy of the game: no panic; accepted only if it is a listed legal
/// action of that seat; refused without changing the state (checked on one attempt in eight:
/// hashing the whole state is the costly part).
#[allow(clippy::too_many_arguments)]
fn check_hostile(
    game: &dyn DynGame,
    seat: Seat,
    attempt: &Value,
    legal: &[Value],
    names: &SeatNames,
    rng: &mut GameRng,
    report: &mut FuzzReport,
    game_seed: Seed,
) {
    let check_hash = rng.below(8) == 0;
    let before = check_hash.then(|| game.state_hash());
    let mut copy = game.clone_box();
    match catch_unwind(AssertUnwindSafe(|| copy.apply(seat, attempt, names))) {
        Err(_) => report.failures.push(format!("game seed {game_seed:?}: {attempt} by {seat} panicked")),
        Ok(Ok(_)) => {
            // `seat` may be another seat than the one whose options `legal` holds.
            let theirs = if legal.contains(attempt) { legal.to_vec() } else { game.legal_actions(seat) };
            if theirs.contains(attempt) {
                return;
            }
            if theirs.iter().any(|l| listed_plus_keys(l, attempt)) {
                report.lenient += 1;
            } else {
                report.failures.push(format!("game seed {game_seed:?}: unlisted {attempt} by {seat} was accepted"));
            }
        }
        Ok(Err(_)) => {
            if let Some(before) = before {
                if copy.state_hash() != before {
                    report.failures.push(format!("game seed {game_seed:?}: refused {attempt} changed the state"));
                }
            }
        }
    }
}

/// `chapterhouse fuzz`: runs and prints the figures; exit 1 if anything went wrong.
///
/// # Errors
/// As [`fuzz`].
pub fn run(args: FuzzArgs) -> anyhow::Result<ExitCode> {
    // A panic is a finding, reported below with its input: keep the default hook from printing
    // each one as if the fuzzer itself had crashed.
    std::panic::set_hook(Box::new(|_| {}));
    let started = Instant::now();
    let report = fuzz(&args)?;
    let seconds = started.elapsed().as_secs_f64();
    outln!(
        "{}: {} actions ({} legal, {} mutated, {} junk), {} socket frames, {} games finished, in {:.1} s ({:.0} actions/s)",
        args.game,
        report.actions,
        report.legal,
        report.mutated,
        report.junk,
        report.frames,
        report.games,
        seconds,
        report.actions as f64 / seconds.max(1e-9)
    );
    if report.lenient > 0 {
        outln!("{} attempts with added keys were taken as the listed action without them", report.lenient);
    }
    if report.failures.is_empty() {
        outln!("no panic, no invariant broken");
        Ok(ExitCode::SUCCESS)
    } else {
        for failure in &report.failures {
            outln!("FAILED: {failure}");
        }
        Ok(ExitCode::FAILURE)
    }
}
