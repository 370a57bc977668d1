//! The `chuhan match` command line, cutechess-cli style: `-engine key=value
//! ...` groups and `-option value` switches, parsed by hand into a
//! [`MatchConfig`]. See README "Match" for the full list; [`USAGE`] is the
//! short help.
//!
//! Parsing only: nothing is started or opened here.

use std::fmt;
use std::path::PathBuf;

use super::adjudicate::{RuleSet, RuleSettings};
use super::engine::{EngineConfig, Protocol};
use super::game::{DrawAdjudication, GameSettings, ResignAdjudication};
use super::opening::{OpeningFormat, OpeningOrder, OpeningSpec};
use super::stats::Sprt;
use super::tc::{parse_seconds, TimeControl};

/// Short help for `chuhan match`.
pub const USAGE: &str = "\
usage: chuhan match -engine cmd=PATH [name=N] [proto=ucci|uci] [option.NAME=VALUE] [dir=D] [arg=A]
                    [tc=TC] [st=S] [depth=N] [nodes=N] [timemargin=MS] [ranks=0|1] [inittimeout=S]
                    -engine ... [-each KEY=VALUE ...]
                    [-tc TC] [-games N] [-rounds N] [-repeat] [-concurrency N]
                    [-openings startpos | file=F [format=epd|pgn] [order=sequential|random] [plies=N] [start=N]]
                    [-pgnout FILE [notation=iccs|chinese|wxf]] [-sprt elo0=A elo1=B alpha=X beta=Y] [-ratinginterval N]
                    [-tournament round-robin|gauntlet|knockout] [-seed S] [-event NAME]
                    [-draw movenumber=N movecount=M score=S] [-resign movecount=M score=S [twosided=true]]
                    [-maxmoves N] [-movelimit PLIES] [-rules asian|chinese] [-hangtimeout S] [-recover]
TC: T[+I] (seconds or M:SS), M/T[+I] (repeating period), periods joined by ',' (40/5400,10/900)";

/// The tournament format.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum TournamentKind {
    /// Every engine plays every other.
    RoundRobin,
    /// The first engine plays each of the others.
    Gauntlet,
    /// Random pairing, byes, best-of-three mini-matches (docs/rules.md section 5).
    Knockout,
}

/// Everything `chuhan match` was asked to do.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub(crate) engines: Vec<EngineConfig>,
    /// Games per encounter per round.
    pub(crate) games: u32,
    pub(crate) rounds: u32,
    /// Play each opening with both colours.
    pub(crate) repeat: bool,
    pub(crate) concurrency: usize,
    /// `None`: the default suite.
    pub(crate) openings: Option<OpeningSpec>,
    /// `-openings startpos`: every game from the start position (no suite).
    pub(crate) start_position_only: bool,
    pub(crate) pgn_out: Option<PathBuf>,
    /// Movetext notation of `-pgnout` (`notation=iccs|chinese|wxf`).
    pub(crate) pgn_notation: super::pgn::PgnNotation,
    pub(crate) sprt: Option<Sprt>,
    /// Print the rating every N games (0: only at the end).
    pub(crate) rating_interval: u32,
    pub(crate) tournament: TournamentKind,
    pub(crate) seed: u64,
    pub(crate) event: String,
    pub(crate) game: GameSettings,
    /// Restart crashed or hung engines and go on.
    pub(crate) recover: bool,
}

/// A command line that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgError(pub String);

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ArgError {}

fn err<T>(msg: impl Into<String>) -> Result<T, ArgError> {
    Err(ArgError(msg.into()))
}

fn num<T: std::str::FromStr>(key: &str, value: &str) -> Result<T, ArgError> {
    value.trim().parse().map_err(|_| ArgError(format!("bad value for {key}: `{value}`")))
}

fn flag(key: &str, value: &str) -> Result<bool, ArgError> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" | "1" => Ok(true),
        "false" | "off" | "no" | "0" => Ok(false),
        _ => err(format!("bad value for {key}: `{value}` (true/false)")),
    }
}

fn apply_engine_key(e: &mut EngineConfig, key: &str, value: &str) -> Result<(), ArgError> {
    if let Some(name) = key.strip_prefix("option.") {
        if name.is_empty() {
            return err("option. needs a name");
        }
        e.options.retain(|(n, _)| n != name);
        e.options.push((name.to_string(), value.to_string()));
        return Ok(());
    }
    match key {
        "cmd" => e.cmd = value.to_string(),
        "name" => e.name = value.to_string(),
        "dir" => e.dir = Some(PathBuf::from(value)),
        "arg" => e.args.push(value.to_string()),
        "proto" => {
            e.protocol = match value.to_ascii_lowercase().as_str() {
                "ucci" => Protocol::Ucci,
                "uci" => Protocol::Uci,
                _ => return err(format!("unknown protocol `{value}` (ucci or uci)")),
            }
        }
        "tc" => {
            e.tc = if value.eq_ignore_ascii_case("inf") {
                None
            } else {
                Some(TimeControl::parse(value).map_err(|x| ArgError(x.to_string()))?)
            }
        }
        "st" => {
            let ms = parse_seconds(value).filter(|&ms| ms > 0).ok_or_else(|| ArgError(format!("bad st=`{value}`")))?;
            e.tc = Some(TimeControl::MoveTime(ms));
        }
        "depth" => e.depth = Some(num::<u32>(key, value)?).filter(|&d| d > 0),
        "nodes" => e.nodes = Some(num::<u64>(key, value)?).filter(|&n| n > 0),
        "timemargin" => e.time_margin_ms = Some(num(key, value)?),
        "ranks" => {
            e.rank_base = match value {
                "0" => 0,
                "1" => 1,
                _ => return err("ranks= is 0 (ICCS) or 1 (h10g8)"),
            }
        }
        "inittimeout" => {
            e.init_timeout_ms = parse_seconds(value).ok_or_else(|| ArgError(format!("bad inittimeout=`{value}`")))?
        }
        _ => return err(format!("unknown engine setting `{key}`")),
    }
    Ok(())
}

/// Splits `key=value` (the value may contain `=`).
fn key_value(token: &str) -> Result<(&str, &str), ArgError> {
    token.split_once('=').ok_or_else(|| ArgError(format!("expected key=value, found `{token}`")))
}

/// Parses the arguments after `match`.
pub fn parse(args: &[String]) -> Result<MatchConfig, ArgError> {
    let mut engine_groups: Vec<Vec<(String, String)>> = Vec::new();
    let mut each: Vec<(String, String)> = Vec::new();
    let mut cfg = MatchConfig {
        engines: Vec::new(),
        games: 1,
        rounds: 1,
        repeat: false,
        concurrency: 1,
        openings: None,
        start_position_only: false,
        pgn_out: None,
        pgn_notation: super::pgn::PgnNotation::Iccs,
        sprt: None,
        rating_interval: 10,
        tournament: TournamentKind::RoundRobin,
        seed: 1,
        event: "chuhan match".to_string(),
        game: GameSettings::default(),
        recover: false,
    };
    let mut i = 0;
    // The values following a switch up to the next `-switch`.
    let values = |i: &mut usize| -> Vec<String> {
        let mut out = Vec::new();
        while *i < args.len() && !(args[*i].starts_with('-') && args[*i].len() > 1 && !is_number(&args[*i])) {
            out.push(args[*i].clone());
            *i += 1;
        }
        out
    };
    let one = |switch: &str, v: Vec<String>| -> Result<String, ArgError> {
        match v.as_slice() {
            [x] => Ok(x.clone()),
            _ => err(format!("{switch} takes one value")),
        }
    };
    while i < args.len() {
        let switch = args[i].clone();
        i += 1;
        let v = values(&mut i);
        let pairs = || -> Result<Vec<(String, String)>, ArgError> {
            v.iter().map(|t| key_value(t).map(|(k, v)| (k.to_string(), v.to_string()))).collect()
        };
        match switch.as_str() {
            "-engine" => engine_groups.push(pairs()?),
            "-each" => each.extend(pairs()?),
            "-tc" => each.push(("tc".into(), one(&switch, v)?)),
            "-games" => cfg.games = num(&switch, &one(&switch, v)?)?,
            "-rounds" => cfg.rounds = num(&switch, &one(&switch, v)?)?,
            "-repeat" => {
                // cutechess accepts an optional count; only 2 (both colours) is meaningful here.
                if v.len() > 1 || v.first().is_some_and(|c| c != "2") {
                    return err("-repeat takes no value (each opening is played twice, colours swapped)");
                }
                cfg.repeat = true;
            }
            "-concurrency" => cfg.concurrency = num(&switch, &one(&switch, v)?)?,
            "-pgnout" => {
                let file = v.first().ok_or_else(|| ArgError("-pgnout needs a file".into()))?;
                cfg.pgn_out = Some(PathBuf::from(file));
                for extra in &v[1..] {
                    let notation = extra.strip_prefix("notation=").and_then(super::pgn::PgnNotation::parse);
                    match notation {
                        Some(n) => cfg.pgn_notation = n,
                        None => {
                            return err(format!(
                                "-pgnout: unknown setting `{extra}` (notation=iccs, notation=chinese or notation=wxf)"
                            ))
                        }
                    }
                }
            }
            "-ratinginterval" => cfg.rating_interval = num(&switch, &one(&switch, v)?)?,
            "-seed" => cfg.seed = num(&switch, &one(&switch, v)?)?,
            "-event" => cfg.event = v.join(" "),
            "-recover" => cfg.recover = true,
            "-maxmoves" => cfg.game.max_moves = num(&switch, &one(&switch, v)?)?,
            "-movelimit" => cfg.game.rules.move_limit_plies = num(&switch, &one(&switch, v)?)?,
            "-hangtimeout" => {
                let s = one(&switch, v)?;
                cfg.game.hang_timeout_ms =
                    parse_seconds(&s).ok_or_else(|| ArgError(format!("bad -hangtimeout `{s}`")))?;
            }
            "-rules" => {
                cfg.game.rules = RuleSettings {
                    rule_set: match one(&switch, v)?.to_ascii_lowercase().as_str() {
                        "asian" => RuleSet::Asian,
                        "chinese" => RuleSet::Chinese,
                        other => return err(format!("unknown rule set `{other}` (asian or chinese)")),
                    },
                    ..cfg.game.rules
                }
            }
            "-tournament" => {
                cfg.tournament = match one(&switch, v)?.to_ascii_lowercase().as_str() {
                    "round-robin" | "roundrobin" => TournamentKind::RoundRobin,
                    "gauntlet" => TournamentKind::Gauntlet,
                    "knockout" => TournamentKind::Knockout,
                    other => return err(format!("unknown tournament `{other}`")),
                }
            }
            "-openings" if v.len() == 1 && v[0] == "startpos" => cfg.start_position_only = true,
            "-openings" => {
                let mut spec = OpeningSpec {
                    file: PathBuf::new(),
                    format: OpeningFormat::Epd,
                    order: OpeningOrder::Sequential,
                    plies: None,
                    start: 1,
                };
                let mut format_given = false;
                for (k, val) in pairs()? {
                    match k.as_str() {
                        "file" => spec.file = PathBuf::from(val),
                        "format" => {
                            format_given = true;
                            spec.format = match val.as_str() {
                                "epd" => OpeningFormat::Epd,
                                "pgn" => OpeningFormat::Pgn,
                                _ => return err(format!("unknown opening format `{val}` (epd or pgn)")),
                            }
                        }
                        "order" => {
                            spec.order = match val.as_str() {
                                "sequential" => OpeningOrder::Sequential,
                                "random" => OpeningOrder::Random,
                                _ => return err(format!("unknown opening order `{val}`")),
                            }
                        }
                        "plies" => spec.plies = Some(num(&k, &val)?),
                        "start" => spec.start = num(&k, &val)?,
                        "policy" => {}
                        _ => return err(format!("unknown -openings setting `{k}`")),
                    }
                }
                if spec.file.as_os_str().is_empty() {
                    return err("-openings needs file=");
                }
                if !format_given && spec.file.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn")) {
                    spec.format = OpeningFormat::Pgn;
                }
                cfg.openings = Some(spec);
            }
            "-sprt" => {
                let mut s = Sprt { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05 };
                for (k, val) in pairs()? {
                    match k.as_str() {
                        "elo0" => s.elo0 = num(&k, &val)?,
                        "elo1" => s.elo1 = num(&k, &val)?,
                        "alpha" => s.alpha = num(&k, &val)?,
                        "beta" => s.beta = num(&k, &val)?,
                        _ => return err(format!("unknown -sprt setting `{k}`")),
                    }
                }
                let ok = |x: f64| x > 0.0 && x < 0.5;
                if s.elo1 <= s.elo0 || s.elo1.is_nan() || s.elo0.is_nan() || !ok(s.alpha) || !ok(s.beta) {
                    return err("-sprt needs elo0 < elo1 and 0 < alpha, beta < 0.5");
                }
                cfg.sprt = Some(s);
            }
            "-draw" => {
                let mut d = DrawAdjudication { move_number: 0, move_count: 0, score: 0 };
                for (k, val) in pairs()? {
                    match k.as_str() {
                        "movenumber" => d.move_number = num(&k, &val)?,
                        "movecount" => d.move_count = num(&k, &val)?,
                        "score" => d.score = num(&k, &val)?,
                        _ => return err(format!("unknown -draw setting `{k}`")),
                    }
                }
                if d.move_count == 0 {
                    return err("-draw needs movecount=N (N >= 1)");
                }
                cfg.game.draw = Some(d);
            }
            "-resign" => {
                let mut r = ResignAdjudication { move_count: 0, score: 0, two_sided: false };
                for (k, val) in pairs()? {
                    match k.as_str() {
                        "movecount" => r.move_count = num(&k, &val)?,
                        "score" => r.score = num(&k, &val)?,
                        "twosided" => r.two_sided = flag(&k, &val)?,
                        _ => return err(format!("unknown -resign setting `{k}`")),
                    }
                }
                if r.move_count == 0 || r.score <= 0 {
                    return err("-resign needs movecount=N and score=S (both >= 1)");
                }
                cfg.game.resign = Some(r);
            }
            other => return err(format!("unknown argument `{other}`\n{USAGE}")),
        }
    }

    for group in &engine_groups {
        let mut e = EngineConfig::new("");
        for (k, v) in each.iter().chain(group.iter()) {
            apply_engine_key(&mut e, k, v)?;
        }
        if e.cmd.trim().is_empty() {
            return err("every -engine needs cmd=");
        }
        if e.name.is_empty() {
            let program = e.cmd.split_whitespace().next().unwrap_or("engine");
            e.name = program.rsplit('/').next().unwrap_or(program).to_string();
        }
        if e.tc.is_none() && e.depth.is_none() && e.nodes.is_none() {
            return err(format!("engine `{}` has no limit: give tc=, st=, depth= or nodes=", e.name));
        }
        cfg.engines.push(e);
    }
    // Distinct names, so the report can tell a self-match's sides apart.
    for i in 1..cfg.engines.len() {
        let base = cfg.engines[i].name.clone();
        let mut n = 2;
        while cfg.engines[..i].iter().any(|e| e.name == cfg.engines[i].name) {
            cfg.engines[i].name = format!("{base}-{n}");
            n += 1;
        }
    }
    if cfg.engines.len() < 2 {
        return err(format!("a match needs at least two -engine\n{USAGE}"));
    }
    if cfg.games == 0 || cfg.rounds == 0 || cfg.concurrency == 0 {
        return err("-games, -rounds and -concurrency must be at least 1");
    }
    if cfg.sprt.is_some() && cfg.engines.len() != 2 {
        return err("-sprt needs exactly two engines");
    }
    Ok(cfg)
}

fn is_number(s: &str) -> bool {
    s.parse::<f64>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(s: &str) -> Result<MatchConfig, ArgError> {
        parse(&s.split_whitespace().map(String::from).collect::<Vec<_>>())
    }

    #[test]
    fn full_command_line() {
        let c = parse_str(
            "-engine cmd=/usr/games/fairy-stockfish name=fsf proto=uci ranks=1 option.Hash=16 \
             -engine cmd=./chuhan st=0.05 -each tc=40/90+0.5 option.Threads=1 -games 4 -rounds 2 -repeat \
             -concurrency 2 -openings file=o.pgn order=random plies=8 -pgnout out.pgn \
             -sprt elo0=0 elo1=10 alpha=0.05 beta=0.1 -ratinginterval 5 -tournament gauntlet -seed 42 \
             -draw movenumber=40 movecount=8 score=10 -resign movecount=3 score=900 twosided=true -recover \
             -maxmoves 200 -movelimit 0 -rules chinese -hangtimeout 5",
        )
        .unwrap();
        assert_eq!(c.engines.len(), 2);
        let (a, b) = (&c.engines[0], &c.engines[1]);
        assert_eq!((a.name.as_str(), a.protocol, a.rank_base), ("fsf", Protocol::Uci, 1));
        assert_eq!(a.options, [("Threads".to_string(), "1".to_string()), ("Hash".to_string(), "16".to_string())]);
        assert_eq!(a.tc, Some(TimeControl::parse("40/90+0.5").unwrap()));
        assert_eq!((b.name.as_str(), b.protocol), ("chuhan", Protocol::Ucci));
        assert_eq!(b.tc, Some(TimeControl::MoveTime(50)));
        assert_eq!((c.games, c.rounds, c.repeat, c.concurrency), (4, 2, true, 2));
        let o = c.openings.unwrap();
        assert_eq!((o.format, o.order, o.plies), (OpeningFormat::Pgn, OpeningOrder::Random, Some(8)));
        assert_eq!(c.sprt, Some(Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.1 }));
        assert_eq!((c.rating_interval, c.tournament, c.seed, c.recover), (5, TournamentKind::Gauntlet, 42, true));
        assert_eq!(c.game.draw, Some(DrawAdjudication { move_number: 40, move_count: 8, score: 10 }));
        assert_eq!(c.game.resign, Some(ResignAdjudication { move_count: 3, score: 900, two_sided: true }));
        assert_eq!(
            (c.game.max_moves, c.game.rules.move_limit_plies, c.game.rules.rule_set),
            (200, 0, RuleSet::Chinese)
        );
        assert_eq!(c.game.hang_timeout_ms, 5000);
    }

    #[test]
    fn self_match_names_are_made_distinct() {
        let c = parse_str("-engine cmd=chuhan -engine cmd=chuhan -each depth=2").unwrap();
        assert_eq!((c.engines[0].name.as_str(), c.engines[1].name.as_str()), ("chuhan", "chuhan-2"));
        assert_eq!(c.engines[1].depth, Some(2));
    }

    #[test]
    fn rejects_bad_command_lines() {
        for bad in [
            "-engine cmd=a tc=1 -engine cmd=b",
            "-engine cmd=a tc=1",
            "-engine name=x tc=1 -engine cmd=b tc=1",
            "-engine cmd=a tc=1 -engine cmd=b tc=1 -games 0",
            "-engine cmd=a tc=1 -engine cmd=b tc=1 -bogus",
            "-engine cmd=a tc=1 -engine cmd=b tc=1 -sprt elo0=5 elo1=0",
            "-engine cmd=a tc=x -engine cmd=b tc=1",
            "-engine cmd=a proto=xboard tc=1 -engine cmd=b tc=1",
            "-engine cmd=a tc=1 -engine cmd=b tc=1 -tournament swiss",
            "-engine cmd=a tc=1 -engine cmd=b tc=1 -openings format=epd",
            "-engine cmd=a tc=1 -engine cmd=b tc=1 -draw score=5",
            "-engine cmd=a tc=1 oops -engine cmd=b tc=1",
        ] {
            assert!(parse_str(bad).is_err(), "{bad}");
        }
    }
}
