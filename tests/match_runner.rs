//! Integration tests of `chuhan match`: fault handling with fake engines
//! (tests/fake_engines/fake_engine.py), a knockout, the binary's output and
//! PGN, real games against Debian's fairy-stockfish (UCCI and UCI), and the
//! Chuhan self-match.
//!
//! Every PGN written is replayed with our own Position: all moves legal, the
//! Chinese comments match, and rule terminations match the final position.

mod common;

use std::path::Path;
use std::process::Command;

use chuhan::tools::adjudicate::{self, GameResult, RuleSettings, Termination};
use chuhan::tools::args;
use chuhan::tools::notation;
use chuhan::tools::pgn;
use chuhan::tools::stats::SprtVerdict;
use chuhan::tools::tournament::{self, Report, Silent};
use chuhan::Position;
use common::scratch_dir;

const FSF: &str = "/usr/games/fairy-stockfish";

fn fake(mode: &str) -> String {
    format!("{}/tests/fake_engines/fake_engine.py {mode}", env!("CARGO_MANIFEST_DIR"))
}

fn run(cmdline: &[String]) -> Report {
    let cfg = args::parse(cmdline).unwrap();
    tournament::run(&cfg, &mut Silent).unwrap()
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

/// `bad` (engine 0) against the scripted opponent, two games with colours swapped.
fn fault_match(mode: &str, extra: &str) -> Report {
    // A short handshake timeout only where the handshake is meant to fail
    // (python start-up on a loaded machine can take a while).
    let init = if mode == "noucciok" { "inittimeout=1.5" } else { "inittimeout=20" };
    let mut a = vec!["-engine".to_string(), format!("cmd={}", fake(mode)), "name=bad".into(), init.into()];
    a.extend(["-engine".to_string(), format!("cmd={}", fake("script")), "name=good".into()]);
    a.extend(words("-each st=0.3 -games 2 -ratinginterval 0 -openings startpos"));
    a.extend(words(extra));
    run(&a)
}

fn assert_bad_lost(report: &Report, games: u32, termination: Termination) {
    assert_eq!(report.games, games, "{report}");
    assert_eq!(report.totals[0].losses, games, "{report}");
    assert_eq!(report.terminations.get(&termination), Some(&games), "{report}");
}

#[test]
fn crash_loses_and_recover_goes_on() {
    let r = fault_match("crash:2", "-recover");
    assert_bad_lost(&r, 2, Termination::Crash);
    assert!(r.stopped.is_none());
    // Without -recover the match stops after the crash.
    let r = fault_match("crash:2", "");
    assert_bad_lost(&r, 1, Termination::Crash);
    assert!(r.stopped.as_deref().is_some_and(|s| s.contains("-recover")), "{r}");
    assert!(r.stopped_by_fault);
}

#[test]
fn hanging_engine_loses_on_time_and_is_restarted() {
    assert_bad_lost(&fault_match("hang:2", "-recover"), 2, Termination::TimeForfeit);
}

#[test]
fn slow_engine_loses_on_time() {
    assert_bad_lost(&fault_match("slow:1", "-recover"), 2, Termination::TimeForfeit);
}

#[test]
fn illegal_unparsable_and_missing_moves_lose() {
    assert_bad_lost(&fault_match("illegal:3", ""), 2, Termination::IllegalMove);
    assert_bad_lost(&fault_match("garbage:0", ""), 2, Termination::IllegalMove);
    assert_bad_lost(&fault_match("nomove:1", ""), 2, Termination::IllegalMove);
    assert_bad_lost(&fault_match("resign:4", ""), 2, Termination::Resignation);
}

#[test]
fn referee_bans_the_move_that_completes_a_forbidden_perpetual() {
    // Both seats play docs/rules.md T01's perpetual check from its position. Before
    // red's fifth check, the third occurrence that would lose, the referee
    // sends `banmoves i8i9` (UCCI); the scripted engine answers a banned move
    // with `resign`. Without the ban the game would end "perpetual check".
    let dir = scratch_dir("match-banmoves");
    let epd = dir.path().join("t01.epd");
    std::fs::write(&epd, "3k5/9/9/9/9/9/9/9/9/5K2R w - - 0 1\n").unwrap();
    let mut a = Vec::new();
    for name in ["red", "black"] {
        a.extend([
            "-engine".to_string(),
            format!("cmd={}", fake("perpetual")),
            format!("name={name}"),
            "inittimeout=20".into(),
        ]);
    }
    a.extend(words(&format!("-each st=0.3 -games 1 -ratinginterval 0 -openings file={}", epd.display())));
    let r = run(&a);
    assert_eq!(r.games, 1, "{r}");
    assert_eq!(r.totals[0].losses, 1, "{r}");
    assert_eq!(r.terminations.get(&Termination::Resignation), Some(&1), "{r}");
}

#[test]
fn sprt_stops_the_match_when_a_bound_is_crossed() {
    // `mixed` resigns two games in three: a score near 1/6, far below elo1.
    let r = fault_match("mixed:0", "-games 40 -sprt elo0=0 elo1=200 alpha=0.05 beta=0.05");
    assert!(r.games < 40, "{r}");
    assert_eq!(r.sprt_verdict, Some(SprtVerdict::AcceptH0), "{r}");
    assert!(r.llr().is_some_and(|l| l <= r.sprt.unwrap().bounds().0), "{r}");
    assert!(r.stopped.as_deref().is_some_and(|s| s.starts_with("SPRT")), "{r}");
    assert!(r.to_string().contains("H0 accepted"), "{r}");
}

#[test]
fn engine_without_handshake_loses_each_game() {
    assert_bad_lost(&fault_match("noucciok", "-recover"), 2, Termination::StartFailure);
    let r = fault_match("noucciok", "");
    assert_bad_lost(&r, 1, Termination::StartFailure);
    assert!(r.stopped.is_some());
}

#[test]
fn knockout_with_bye_ends_with_one_winner() {
    // Scripted engines lose with Red at ply 20 (no move left); `illegal:0` loses every game.
    let mut a = Vec::new();
    for (mode, name) in [("script", "s1"), ("script", "s2"), ("illegal:0", "bad")] {
        a.extend(["-engine".to_string(), format!("cmd={}", fake(mode)), format!("name={name}")]);
    }
    a.extend(words("-each st=0.3 -tournament knockout -concurrency 2 -seed 7 -ratinginterval 0 -openings startpos"));
    let r = run(&a);
    let text = r.knockout.join("\n");
    assert!(text.contains("has a bye"), "{r}");
    assert_eq!(r.knockout.iter().filter(|l| l.starts_with("winner: ")).count(), 1, "{r}");
    assert!(!text.contains("unfinished"), "{r}");
    // Two mini-matches, each at least two games.
    assert!(r.games >= 4, "{r}");
    assert!(r.knockout.last().is_some_and(|w| !w.contains("bad")), "{r}");
}

/// Replays every game of a PGN file with our own Position and checks the
/// Chinese comments and the rule terminations. Returns the number of games.
fn replay_pgn(path: &Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let games: Vec<&str> = text.split("\n[Event ").collect();
    for (i, game_text) in games.iter().enumerate() {
        let game_text = if i == 0 { game_text.to_string() } else { format!("[Event {game_text}") };
        let parsed = pgn::parse_games(&game_text);
        assert_eq!(parsed.len(), 1, "{game_text}");
        let g = &parsed[0];
        let mut pos = match &g.fen {
            Some(f) => Position::from_fen(f).unwrap(),
            None => Position::startpos(),
        };
        assert!(game_text.contains("[Variant \"xiangqi\"]"));
        for m in &g.moves {
            let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{e} in\n{game_text}"));
            let cn = notation::chinese(&pos, mv).unwrap();
            assert!(game_text.contains(&format!("{m} {{{cn}")), "{m} {cn} missing in\n{game_text}");
            pos.make_move(mv);
        }
        let tag = |name: &str| {
            let start = game_text.find(&format!("[{name} \"")).unwrap() + name.len() + 3;
            game_text[start..].split('"').next().unwrap().to_string()
        };
        let result = tag("Result");
        assert_eq!(g.result.as_deref(), Some(result.as_str()));
        let termination = tag("Termination");
        let verdict = adjudicate::judge(&pos, &RuleSettings::default());
        let rule_ended = ["checkmate", "stalemate", "repetition", "move limit", "insufficient material"];
        if rule_ended.contains(&termination.as_str()) {
            let v = verdict.unwrap_or_else(|| panic!("game not over by the rules:\n{game_text}"));
            assert_eq!(v.termination.text(), termination);
            assert_eq!(v.result.pgn(), result);
        } else {
            assert!(verdict.is_none(), "{game_text}");
        }
        if termination == "checkmate" || termination == "stalemate" {
            assert!(pos.legal_moves().is_empty());
            assert_eq!(result, GameResult::loss_for(pos.side_to_move()).pgn());
        }
    }
    games.len()
}

#[test]
fn binary_prints_progress_report_and_pgn() {
    let dir = scratch_dir("match-bin");
    let pgn_path = dir.path().join("games.pgn");
    let out = Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .arg("match")
        .args(["-engine", &format!("cmd={}", fake("script")), "name=A"])
        .args(["-engine", &format!("cmd={}", fake("script")), "name=B", "proto=uci"])
        .args(words("-each st=0.5 -games 2 -repeat -ratinginterval 1 -openings startpos -pgnout"))
        .arg(&pgn_path)
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    for want in ["Games 1/2", "Games 2/2: A vs B: 1-0-1", "Final report: 2 games", "Terminations: illegal move: 2;"] {
        assert!(stdout.contains(want), "`{want}` missing in\n{stdout}");
    }
    assert!(stdout.contains("Pentanomial [LL, LD, DD+WL, WD, WW] = [0, 0, 1, 0, 0]"), "{stdout}");
    assert_eq!(replay_pgn(&pgn_path), 2);
    let text = std::fs::read_to_string(&pgn_path).unwrap();
    assert!(text.contains("1. h2e2 {炮二平五 +0.00/1"), "{text}");
    assert!(text.contains("[TimeControl \"0.5/move\"]"));
    assert!(text.contains("[Result \"0-1\"]"));
    assert!(text.contains("[PlyCount \"20\"]"));

    // An engine that cannot start stops the match without -recover: exit 1.
    let failing = Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .args(["match", "-engine", "cmd=/nonexistent/engine", "-engine", &format!("cmd={}", fake("script"))])
        .args(words("-each st=0.3 -games 2 -openings startpos"))
        .output()
        .unwrap();
    assert_eq!(failing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&failing.stdout).contains("engine failed to start: 1;"));
    let bad =
        Command::new(env!("CARGO_BIN_EXE_chuhan")).args(["match", "-engine", "cmd=x", "-games", "1"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("error:"));
}

#[test]
fn fairy_stockfish_mates_from_epd_openings() {
    if !Path::new(FSF).exists() {
        eprintln!("skipped: {FSF} not installed");
        return;
    }
    let dir = scratch_dir("match-fsf-mates");
    let pgn_path = dir.path().join("mates.pgn");
    let epd = format!("{}/tests/data/mate_in_one.epd", env!("CARGO_MANIFEST_DIR"));
    let mut a = words(&format!("-engine cmd={FSF} name=fsf-ucci -engine cmd={FSF} name=fsf-uci proto=uci ranks=1"));
    a.extend(words(&format!("-each st=0.1 option.Threads=1 -games 8 -repeat -openings file={epd} format=epd")));
    a.extend(["-pgnout".to_string(), pgn_path.display().to_string()]);
    let r = run(&a);
    assert_eq!(r.games, 8, "{r}");
    assert_eq!(r.terminations.get(&Termination::Checkmate), Some(&8), "{r}");
    assert_eq!(r.head_to_head().draws, 0);
    assert_eq!(replay_pgn(&pgn_path), 8);
}

#[test]
fn fairy_stockfish_full_games_ucci_and_uci() {
    if !Path::new(FSF).exists() {
        eprintln!("skipped: {FSF} not installed");
        return;
    }
    let dir = scratch_dir("match-fsf-games");
    let pgn_path = dir.path().join("games.pgn");
    let mut a =
        words(&format!("-engine cmd={FSF} name=ucci tc=3+0.03 -engine cmd={FSF} name=uci proto=uci ranks=1 depth=3"));
    a.extend(words("-each option.Threads=1 -games 2 -concurrency 2 -maxmoves 30 -resign movecount=3 score=800"));
    a.extend(["-pgnout".to_string(), pgn_path.display().to_string()]);
    let r = run(&a);
    assert_eq!(r.games, 2, "{r}");
    for t in [Termination::TimeForfeit, Termination::IllegalMove, Termination::Crash, Termination::Stall] {
        assert_eq!(r.terminations.get(&t), None, "{r}");
    }
    assert_eq!(replay_pgn(&pgn_path), 2);
    let text = std::fs::read_to_string(&pgn_path).unwrap();
    assert!(text.contains("[WhiteTimeControl \"3+0.03\"]") || text.contains("[BlackTimeControl \"3+0.03\"]"));
}

#[test]
fn chuhan_self_match() {
    let dir = scratch_dir("match-self");
    let pgn_path = dir.path().join("self.pgn");
    let me = env!("CARGO_BIN_EXE_chuhan");
    let mut a =
        // A functional check (two whole games, no fault): the margin keeps
        // scheduling delays on a loaded machine (the other tests of this
        // file run at the same time) from counting as forfeits; clock
        // honesty is measured separately (README, "Clock honesty").
        words(&format!(
            "-engine cmd={me} -engine cmd={me} -each st=0.05 timemargin=1000 -games 2 -repeat -concurrency 2 -maxmoves 50"
        ));
    a.extend(["-pgnout".to_string(), pgn_path.display().to_string()]);
    let r = run(&a);
    assert_eq!(r.games, 2, "{r}");
    for t in [
        Termination::TimeForfeit,
        Termination::IllegalMove,
        Termination::Crash,
        Termination::Stall,
        Termination::StartFailure,
    ] {
        assert_eq!(r.terminations.get(&t), None, "{r}");
    }
    assert_eq!(replay_pgn(&pgn_path), 2);
}

#[test]
fn pgn_in_chinese_and_wxf_reads_back_as_openings() {
    let dir = scratch_dir("match-notations");
    let me = env!("CARGO_BIN_EXE_chuhan");
    let mut played: Vec<Vec<String>> = Vec::new();
    for notation in ["iccs", "chinese", "wxf"] {
        let pgn_path = dir.path().join(format!("{notation}.pgn"));
        let mut a = words(&format!("-engine cmd={me} -engine cmd={me} -each depth=1 -games 2 -maxmoves 30"));
        a.extend(words("-ratinginterval 0 -openings startpos"));
        a.extend(["-pgnout".to_string(), pgn_path.display().to_string(), format!("notation={notation}")]);
        let r = run(&a);
        assert_eq!(r.games, 2, "{r}");
        let text = std::fs::read_to_string(&pgn_path).unwrap();
        let tag = match notation {
            "iccs" => "ICCS",
            "chinese" => "Chinese",
            _ => "WXF",
        };
        assert_eq!(text.matches(&format!("[Format \"{tag}\"]")).count(), 2, "{text}");
        if notation == "chinese" {
            assert!(
                text.contains("1. 炮") || text.contains("1. 马") || text.contains("1. 兵") || text.contains("1. 车")
            );
        }
        // Read back through the opening loader: every move legal, every ply kept.
        let spec = chuhan::tools::opening::OpeningSpec {
            file: pgn_path.clone(),
            format: chuhan::tools::opening::OpeningFormat::Pgn,
            order: chuhan::tools::opening::OpeningOrder::Sequential,
            plies: None,
            start: 1,
        };
        let openings = chuhan::tools::opening::load(&spec, 1).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(openings.len(), 2);
        for (o, plies) in openings.iter().zip(text.match_indices("[PlyCount \"")) {
            let n: usize = text[plies.0 + 11..].split('"').next().unwrap().parse().unwrap();
            assert_eq!(o.moves.len(), n, "{text}");
        }
        played.push(openings.iter().flat_map(|o| o.moves.iter().map(|m| m.to_string())).collect());
    }
    // depth=1 self-play is deterministic: the three files hold the same games.
    assert_eq!(played[0], played[1]);
    assert_eq!(played[0], played[2]);
    // An unknown notation is an argument error.
    let bad = Command::new(me)
        .args(["match", "-engine", "cmd=x", "-engine", "cmd=y", "-pgnout", "f", "notation=san"])
        .output();
    let bad = bad.unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("notation="), "{}", String::from_utf8_lossy(&bad.stderr));
}

#[test]
fn pgnout_and_openings_that_are_not_regular_files_fail_at_once() {
    let dir = scratch_dir("match-notfiles");
    let fifo = dir.path().join("games.pgn");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let me = env!("CARGO_BIN_EXE_chuhan");
    let start = std::time::Instant::now();
    for (flag, value, why) in [
        ("-pgnout", fifo.display().to_string(), "not a regular file"),
        ("-openings", format!("file={}", fifo.display()), "is not a regular file (it is a FIFO)"),
        ("-openings", "file=/dev/zero".to_string(), "is not a regular file (it is a character device)"),
    ] {
        let out = Command::new(me)
            .args(["match", "-engine", &format!("cmd={me}"), "-engine", &format!("cmd={me}")])
            .args(["-each", "depth=1", "-games", "1", flag, &value])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{flag} {value}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(why), "{flag} {value}: {err}");
    }
    assert!(start.elapsed() < std::time::Duration::from_secs(10));
}
