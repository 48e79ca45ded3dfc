//! `chapterhouse engine`: a JSON-lines driver for one engine on stdin/stdout, so tools and bots in
//! any language can drive a game. Each input line is one command; each gets one output line.
//! The messages are documented in `docs/engine-protocol.md`.

use crate::catalog::Catalog;
use crate::cli::find_game;
use game_core::{DynGame, GameDescriptor, GameLog, Seat, SeatNames, Seed, Viewer};
use serde::Deserialize;
use serde_json::{json, Value};
use std::io::{BufRead, Write};
use std::process::ExitCode;

/// Options of `chapterhouse engine`.
#[derive(Debug, clap::Args)]
pub struct EngineArgs {
    /// The game id (see `chapterhouse games`).
    #[arg(long)]
    pub game: String,
}

/// One command line.
#[derive(Debug, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
enum Command {
    Info,
    New {
        players: usize,
        #[serde(default)]
        options: Value,
        #[serde(default)]
        seed: Option<String>,
        #[serde(default)]
        names: Option<Vec<String>>,
    },
    ToAct,
    Legal {
        seat: u8,
    },
    Apply {
        seat: u8,
        action: Value,
    },
    View {
        viewer: ViewerArg,
    },
    State,
    Outcome,
    Log,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum ViewerArg {
    Seat(u8),
    Named(String),
}

struct Session<'a> {
    descriptor: &'a dyn GameDescriptor,
    game: Option<Table>,
}

struct Table {
    game: Box<dyn DynGame>,
    log: GameLog,
    seed: Seed,
    names: SeatNames,
}

fn error(code: &str, message: impl std::fmt::Display) -> Value {
    json!({"ok": false, "error": {"code": code, "message": message.to_string()}})
}

impl Session<'_> {
    fn table(&self) -> Result<&Table, Value> {
        self.game.as_ref().ok_or_else(|| error("engine/no_game", "no game yet: send {\"cmd\":\"new\",...} first"))
    }

    fn handle(&mut self, line: &str) -> Value {
        let raw: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => return error("proto/malformed_json", e),
        };
        let id = raw.get("id").cloned();
        let mut command = raw;
        if let Some(obj) = command.as_object_mut() {
            obj.remove("id");
        }
        let mut reply = match serde_json::from_value::<Command>(command) {
            Ok(cmd) => self.run(cmd).unwrap_or_else(|e| e),
            Err(e) => error("proto/bad_command", e),
        };
        if let (Some(id), Some(obj)) = (id, reply.as_object_mut()) {
            obj.insert("id".into(), id);
        }
        reply
    }

    fn run(&mut self, cmd: Command) -> Result<Value, Value> {
        match cmd {
            Command::Info => Ok(json!({"ok": true, "info": self.descriptor.info()})),
            Command::New { players, options, seed, names } => {
                let seed = match seed {
                    None => Seed::random(),
                    Some(s) => s.parse::<Seed>().map_err(|e| error("engine/bad_seed", e))?,
                };
                let options = self.descriptor.normalize_options(&options).map_err(|e| error(e.code(), e))?;
                let game = self.descriptor.create(players, &options, seed).map_err(|e| error(e.code(), e))?;
                let names = match names {
                    Some(n) if n.len() == players => SeatNames(n),
                    Some(_) => return Err(error("engine/bad_names", "names must have one entry per player")),
                    None => SeatNames::generic(players),
                };
                let log = GameLog::start("engine", self.descriptor, options, names.0.clone(), &seed, game.as_ref());
                let events = game.setup_events(&names);
                let reply = json!({
                    "ok": true,
                    "seed_commitment": seed.commitment(),
                    "to_act": game.to_act(),
                    "hash": game.state_hash(),
                    "events": events,
                });
                self.game = Some(Table { game, log, seed, names });
                Ok(reply)
            }
            Command::ToAct => Ok(json!({"ok": true, "to_act": self.table()?.game.to_act()})),
            Command::Legal { seat } => Ok(json!({"ok": true, "actions": self.table()?.game.legal_actions(Seat(seat))})),
            Command::Apply { seat, action } => {
                self.table()?;
                let Some(t) = self.game.as_mut() else { return Err(error("engine/no_game", "no game")) };
                let events = t.game.apply(Seat(seat), &action, &t.names).map_err(|e| error(e.code(), e))?;
                t.log.record(Seat(seat), action, t.game.state_hash());
                let outcome = t.game.outcome();
                if outcome.is_some() {
                    t.log.reveal(t.seed, outcome.clone());
                }
                Ok(json!({
                    "ok": true,
                    "events": events,
                    "to_act": t.game.to_act(),
                    "hash": t.game.state_hash(),
                    "outcome": outcome,
                }))
            }
            Command::View { viewer } => {
                let t = self.table()?;
                let viewer = match viewer {
                    ViewerArg::Seat(s) if usize::from(s) < t.game.players() => Viewer::Seat(Seat(s)),
                    ViewerArg::Named(n) if n == "spectator" => Viewer::Spectator,
                    other => return Err(error("engine/bad_viewer", format!("no such viewer {other:?}"))),
                };
                Ok(json!({"ok": true, "view": t.game.view(viewer)}))
            }
            Command::State => Ok(json!({"ok": true, "state": self.table()?.game.state()})),
            Command::Outcome => Ok(json!({"ok": true, "outcome": self.table()?.game.outcome()})),
            Command::Log => Ok(json!({"ok": true, "log": self.table()?.log})),
        }
    }
}

/// Drives the engine from `input` to `output` until end of input.
///
/// # Errors
/// Only I/O errors; every bad command gets an error line and the session goes on.
pub fn drive(game: &str, input: impl BufRead, mut output: impl Write) -> anyhow::Result<()> {
    let catalog = Catalog::standard();
    let descriptor = find_game(&catalog, game)?;
    let mut session = Session { descriptor, game: None };
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let reply = session.handle(&line);
        serde_json::to_writer(&mut output, &reply)?;
        output.write_all(b"\n")?;
        output.flush()?;
    }
    Ok(())
}

/// Runs `chapterhouse engine` on stdin/stdout.
///
/// # Errors
/// Unknown game, or an I/O error.
pub fn run(args: EngineArgs) -> anyhow::Result<ExitCode> {
    let stdin = std::io::stdin();
    drive(&args.game, stdin.lock(), std::io::stdout().lock())?;
    Ok(ExitCode::SUCCESS)
}
