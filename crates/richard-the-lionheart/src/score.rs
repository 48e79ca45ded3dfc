//! The end of the game: edict points, the Neutral's bonus and Victory Condition, the candidates
//! and the winner (rulebook "Winning the Game", spec §7).

use crate::board::{Card, Edict, Faction, Side};
use crate::event::Event;
use crate::state::{GameResult, Player, RichardTheLionheart, Stage, Tracks};
use game_core::{BySeat, Outcome, ScoreLine, Seat};

fn red_cards(p: &Player) -> u32 {
    Card::ALL.iter().filter(|c| c.side() == Side::Richard).map(|c| u32::from(p.hand.get(*c))).sum()
}

fn green_cards(p: &Player) -> u32 {
    Card::ALL.iter().filter(|c| c.side() == Side::John).map(|c| u32::from(p.hand.get(*c))).sum()
}

/// The Prestige Points an edict scores for its holder (§2.9).
pub fn edict_points(edict: Edict, t: &Tracks, p: &Player) -> u32 {
    let bonus = |cond: bool, pts: u32| if cond { pts } else { 0 };
    match edict {
        Edict::RE1 => bonus(t.ra >= 7, 3),
        Edict::RE2 => bonus(t.kr <= 3, 3),
        Edict::RE3 => bonus(t.kt >= 5, 3),
        Edict::RE4 => bonus(t.sa <= 3, 3),
        Edict::RE5 => red_cards(p).min(4),
        Edict::JE1 => bonus(t.sa >= 7, 3),
        Edict::JE2 => bonus(t.kr >= 5, 3),
        Edict::JE3 => bonus(t.kt <= 3, 3),
        Edict::JE4 => bonus(t.ra <= 3, 3),
        Edict::JE5 => green_cards(p).min(4),
        Edict::NE1 => bonus(t.ra.abs_diff(t.sa) <= 2, 2),
        Edict::NE2 => bonus(t.kr >= 5, 2),
        Edict::NE3 => bonus(t.kt >= 5, 2),
        Edict::NE4 => bonus(p.horse && p.ship, 2),
        Edict::NE5 => (p.hand.total() as u32 / 3).min(3),
    }
}

/// Whether a Neutral edict's Victory Condition holds (condition 5 only).
pub fn victory_condition(edict: Edict, t: &Tracks, p: &Player) -> bool {
    match edict {
        Edict::NE1 => t.ra.abs_diff(t.sa) <= 3,
        Edict::NE2 => t.kr >= 3,
        Edict::NE3 => t.kt >= 3,
        Edict::NE4 => p.horse || p.ship,
        Edict::NE5 => Card::ALL.iter().all(|c| p.hand.get(*c) >= 1),
        _ => false,
    }
}

/// The side that wins under end condition `condition` (None for condition 5).
pub fn winning_side(condition: u8) -> Option<Side> {
    match condition {
        1 | 3 => Some(Side::Richard),
        2 | 4 => Some(Side::John),
        _ => None,
    }
}

/// Ends the game under `condition`: scores edicts, picks candidates and winners.
pub fn finish(game: &mut RichardTheLionheart, condition: u8) {
    let t = game.tracks;
    let n = game.players.len();
    let side = winning_side(condition);
    let base: BySeat<u32> = game.players.map(|_, p| p.prestige);
    let edict: BySeat<u32> = game.players.map(|_, p| p.edict.map_or(0, |e| edict_points(e, &t, p)));
    let neutral: BySeat<u32> =
        game.players.map(|_, p| if condition == 5 && p.faction() == Faction::Neutral { 3 } else { 0 });
    for (s, p) in game.players.iter_mut() {
        p.prestige = base[s] + edict[s] + neutral[s];
    }
    let candidates: Vec<Seat> = Seat::all(n)
        .filter(|s| {
            let p = game.player(*s);
            match side {
                Some(side) => p.side == side,
                None => p.faction() != Faction::Neutral || p.edict.is_some_and(|e| victory_condition(e, &t, p)),
            }
        })
        .collect();
    let key = |s: &Seat| (game.player(*s).prestige, game.player(*s).coins);
    let best = candidates.iter().map(key).max();
    let winners: Vec<Seat> = candidates.iter().copied().filter(|s| Some(key(s)) == best).collect();
    let top_pp = candidates.iter().map(|s| game.player(*s).prestige).max();
    let tied_on_pp = candidates.iter().filter(|s| Some(game.player(**s).prestige) == top_pp).count() > 1;
    let tie_break = if winners.len() > 1 {
        Some("tied on Prestige Points and coins: shared victory".to_string())
    } else if tied_on_pp {
        Some("tied on Prestige Points: most coins".to_string())
    } else {
        None
    };
    for s in Seat::all(n) {
        if let Some(e) = game.player(s).edict {
            game.say(Event::EdictScored { seat: s, edict: e, points: edict[s] });
        }
    }
    game.say(Event::GameEnded { condition, winning_side: side, winners: winners.clone() });
    game.result = Some(GameResult {
        condition,
        winning_side: side,
        base_prestige: base,
        edict_points: edict,
        neutral_bonus: neutral,
        candidates,
        winners,
        tie_break,
    });
    game.stage = Stage::Over;
}

/// The outcome (`Game::outcome`): ranked by (candidate, Prestige Points, coins).
pub(crate) fn outcome(game: &RichardTheLionheart) -> Option<Outcome> {
    let r = game.result.as_ref()?;
    let scores: Vec<i64> = game.players.iter().map(|(_, p)| i64::from(p.prestige)).collect();
    let keys: Vec<Vec<i64>> = Seat::all(game.players.len())
        .map(|s| {
            let p = game.player(s);
            vec![i64::from(r.candidates.contains(&s)), i64::from(p.prestige), i64::from(p.coins)]
        })
        .collect();
    let to_i64 = |v: &BySeat<u32>| v.iter().map(|(_, x)| i64::from(*x)).collect::<Vec<i64>>();
    let breakdown = vec![
        ScoreLine::new("Prestige Points during play", to_i64(&r.base_prestige)),
        ScoreLine::new("Edict", to_i64(&r.edict_points)),
        ScoreLine::new("Neutral bonus (game round 10)", to_i64(&r.neutral_bonus)),
        ScoreLine::new(
            "In the winning faction (may win)",
            Seat::all(game.players.len()).map(|s| i64::from(r.candidates.contains(&s))).collect(),
        ),
        ScoreLine::new("Coins (tie-break)", game.players.iter().map(|(_, p)| i64::from(p.coins)).collect()),
    ];
    let rule = "only the winning faction may win; then most Prestige Points, then most coins, then a shared win";
    let tie_break = Some(match &r.tie_break {
        Some(t) => format!("{rule} ({t})"),
        None => rule.to_string(),
    });
    Some(Outcome::from_keys(scores, &keys, breakdown, tie_break))
}
