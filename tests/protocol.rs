//! Scripted UCCI and UCI sessions against the real binary: every
//! `go` form, ponder/ponderhit, stop during infinite search, banmoves, bad
//! input, quit and end of input. Timing bounds here are loose sanity checks
//! (tests run in parallel on a shared machine); the figures the issue asks
//! for are measured by `tests/tools/protocol_latency.py` (see README).

mod common;

use std::time::{Duration, Instant};

use chuhan::fen::START_FEN;
use common::*;

fn ucci() -> Engine {
    let mut e = Engine::start();
    e.send("ucci");
    let lines = e.expect_line("ucciok", SECS5);
    assert!(lines[0].starts_with("id name Chuhan"), "{lines:?}");
    assert!(lines.iter().any(|l| l == "option usemillisec type check default true"), "{lines:?}");
    // These tests exercise the search; the book is tested in tests/book_protocol.rs.
    e.send("setoption usebook false");
    e
}

fn uci() -> Engine {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.expect_line("uciok", SECS5);
    assert!(lines.iter().any(|l| l.starts_with("option name Hash type spin")), "{lines:?}");
    // These tests exercise the search; the book is tested in tests/book_protocol.rs.
    e.send("setoption name OwnBook value false");
    e
}

/// Runs `go_line` from `position_line` and checks the move and every pv.
fn search(e: &mut Engine, position_line: &str, pos: &chuhan::Position, go_line: &str) -> (Vec<String>, Duration) {
    e.send(position_line);
    let t0 = Instant::now();
    e.send(go_line);
    let (lines, t) = e.expect_bestmove(SECS20);
    assert_legal_output(pos, &lines);
    (lines, t.duration_since(t0))
}

#[test]
fn ucci_handshake_isready_quit_bye() {
    let mut e = ucci();
    e.sync();
    e.send("quit");
    e.expect_line("bye", SECS5);
    assert!(e.wait_exit(SECS5).success());
}

#[test]
fn uci_handshake_and_quit_without_bye() {
    let mut e = uci();
    e.sync();
    e.send("quit");
    e.expect_silence(Duration::from_millis(100));
    assert!(e.wait_exit(SECS5).success());
}

#[test]
fn isready_before_the_handshake_and_a_session_without_one() {
    // `isready` and the handshake itself are served before a dialect is chosen.
    let mut e = Engine::start();
    e.send("isready");
    e.expect_line("readyok", SECS5);
    e.send("ucci");
    e.expect_line("ucciok", SECS5);
    // A client that never sends `uci`/`ucci` is served as UCI (Stockfish does).
    let mut e = Engine::start();
    e.send("position startpos moves h2e2");
    e.send("go depth 3");
    let (lines, _) = e.expect_bestmove(SECS5);
    assert!(lines.iter().any(|l| l.contains(" score cp ")), "UCI spelling: {lines:?}");
    let after = position_after(None, &["h2e2"]);
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
    assert!(after.parse_move(&best).is_ok(), "{best} is legal after h2e2");
}

#[test]
fn ucci_every_go_form_from_startpos_and_fen() {
    let mut e = ucci();
    let start = position_after(None, &["h2e2", "h9g7"]);
    let pline = "position startpos moves h2e2 h9g7";
    let (lines, _) = search(&mut e, pline, &start, "go depth 3");
    assert!(lines.iter().any(|l| l.starts_with("info depth 3 ") && l.contains(" score ") && l.contains(" pv ")));
    // Scores are plain integers in UCCI.
    let info = lines.iter().rev().find(|l| l.contains(" score ")).unwrap();
    let w: Vec<&str> = info.split_whitespace().collect();
    let s = w[w.iter().position(|x| *x == "score").unwrap() + 1];
    assert!(s.parse::<i32>().is_ok(), "{info}");
    for field in ["seldepth", "nodes", "nps", "hashfull", "time"] {
        assert!(info.contains(&format!(" {field} ")), "{field} missing in {info}");
    }
    search(&mut e, pline, &start, "go nodes 3000");
    let (_, t) = search(&mut e, pline, &start, "go movetime 100");
    assert!(t < Duration::from_millis(1000), "{t:?}");
    search(&mut e, pline, &start, "go time 2000 increment 0");
    search(&mut e, pline, &start, "go time 5000 movestogo 20 opptime 5000 oppmovestogo 20");
    search(&mut e, pline, &start, "go draw time 3000 increment 100 opptime 3000 oppincrement 100");
    // FEN with moves (a middlegame).
    let fen = "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3";
    let pos = position_after(Some(fen), &["b0c2", "a9a8"]);
    search(&mut e, &format!("position fen {fen} moves b0c2 a9a8"), &pos, "go depth 4");
    // Searches that only end at stop: go infinite, depth infinite, bare go.
    for go in ["go infinite", "go depth infinite", "go"] {
        e.send(pline);
        e.send(go);
        e.expect_no_bestmove(Duration::from_millis(300));
        e.send("stop");
        let (lines, _) = e.expect_bestmove(SECS5);
        assert_legal_output(&start, &lines);
        assert!(best_of(lines.last().unwrap()).is_some(), "{lines:?}");
    }
    // depth 0: the static evaluation and no move.
    e.send("go depth 0");
    let (lines, _) = e.expect_bestmove(SECS5);
    assert_eq!(lines.last().unwrap(), "nobestmove");
    assert!(lines.iter().any(|l| l.starts_with("info depth 0 score ")), "{lines:?}");
    // `stop` when idle answers nobestmove in UCCI.
    e.send("stop");
    e.expect_line("nobestmove", SECS5);
}

#[test]
fn ucci_seconds_mode() {
    let mut e = ucci();
    e.send("setoption usemillisec false");
    e.send("position startpos");
    let t0 = Instant::now();
    e.send("go time 1 movestogo 1");
    let (lines, t) = e.expect_bestmove(SECS5);
    assert!(best_of(lines.last().unwrap()).is_some());
    // One second for the last move before the control: the budget is below it.
    assert!(t.duration_since(t0) < Duration::from_millis(1500), "{:?}", t.duration_since(t0));
}

#[test]
fn ponder_then_ponderhit_and_ponder_then_stop() {
    let mut e = ucci();
    let pos = position_after(None, &["h2e2"]);
    e.send("position startpos moves h2e2");
    e.send("go ponder time 600 increment 0");
    // Pondering: no bestmove on its own, however long.
    e.expect_until(SECS5, "an info line", |l| l.starts_with("info depth"));
    e.sync();
    e.expect_no_bestmove(Duration::from_millis(800));
    let t0 = Instant::now();
    e.send("ponderhit");
    let (lines, t) = e.expect_bestmove(SECS5);
    assert_legal_output(&pos, &lines);
    assert!(best_of(lines.last().unwrap()).is_some());
    // The clock starts at ponderhit (800 ms of pondering already exceeded the
    // 600 ms clock); the move follows promptly. Bounds are loose: the test
    // machine is shared. The measured figures are in the README.
    assert!(t.duration_since(t0) < Duration::from_millis(1500), "{:?}", t.duration_since(t0));
    // Bare `go ponder` ends only at stop.
    e.send("go ponder");
    e.expect_no_bestmove(Duration::from_millis(300));
    e.send("stop");
    let (lines, _) = e.expect_bestmove(SECS5);
    assert!(best_of(lines.last().unwrap()).is_some(), "{lines:?}");
    // ponderhit when not pondering is refused with a note.
    e.send("ponderhit");
    e.expect_until(SECS5, "error", |l| l.starts_with("info string error: ponderhit"));
}

#[test]
fn isready_and_stop_answered_at_once_during_infinite_search() {
    let mut e = ucci();
    e.send("position startpos");
    e.send("go infinite");
    e.expect_until(SECS5, "an info line", |l| l.starts_with("info depth"));
    for _ in 0..5 {
        let t0 = Instant::now();
        e.send("isready");
        let (_, t) = e.expect_until(SECS5, "readyok", |l| l == "readyok");
        assert!(t.duration_since(t0) < Duration::from_millis(250), "{:?}", t.duration_since(t0));
    }
    let t0 = Instant::now();
    e.send("stop");
    let (lines, t) = e.expect_bestmove(SECS5);
    assert!(best_of(lines.last().unwrap()).is_some());
    assert!(t.duration_since(t0) < Duration::from_millis(300), "{:?}", t.duration_since(t0));
}

#[test]
fn banmoves_honoured_and_cleared_by_position() {
    let mut e = ucci();
    let pos = position_after(None, &[]);
    let keep = "h2e2";
    let banned: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).filter(|m| m != keep).collect();
    e.send("position startpos");
    e.send(&format!("banmoves {}", banned.join(" ")));
    e.send("go depth 3");
    let (lines, _) = e.expect_bestmove(SECS20);
    assert_eq!(lines.last().map(|l| best_of(l)), Some(Some(keep.to_string())), "{lines:?}");
    assert_legal_output(&pos, &lines);
    // Ban everything: no move.
    e.send(&format!("banmoves {keep} {}", banned.join(" ")));
    e.send("go depth 3");
    let (lines, _) = e.expect_bestmove(SECS5);
    assert_eq!(lines.last().unwrap(), "nobestmove");
    // `position` clears the bans.
    e.send("position startpos");
    e.send("go depth 2");
    let (lines, _) = e.expect_bestmove(SECS5);
    assert!(best_of(lines.last().unwrap()).is_some(), "{lines:?}");
}

#[test]
fn bad_position_keeps_serving_and_answers_nobestmove() {
    let mut e = ucci();
    // Malformed FEN.
    e.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w");
    e.expect_until(SECS5, "error", |l| l.starts_with("info string error: bad FEN"));
    e.send("go depth 2");
    assert_eq!(e.expect_bestmove(SECS5).0.last().unwrap(), "nobestmove");
    // Illegal move in the list (the first one is legal: nothing may be applied).
    e.send("position startpos moves h2e2 h2e2");
    e.expect_until(SECS5, "error", |l| l.starts_with("info string error: move 2 of the list: illegal move h2e2"));
    e.send("go depth 2");
    assert_eq!(e.expect_bestmove(SECS5).0.last().unwrap(), "nobestmove");
    // Unparsable move.
    e.send("position startpos moves h2e2 zz99");
    e.expect_until(SECS5, "error", |l| l.starts_with("info string error: move 2 of the list"));
    // A legal but invalid position (generals facing).
    e.send("position fen 4k4/9/9/9/9/9/9/9/9/4K4 w");
    e.expect_until(SECS5, "error", |l| l.contains("face each other"));
    e.send("go depth 1");
    assert_eq!(e.expect_bestmove(SECS5).0.last().unwrap(), "nobestmove");
    // A good position restores normal service.
    e.send("position startpos moves h2e2");
    e.send("go depth 2");
    let (lines, _) = e.expect_bestmove(SECS5);
    assert_legal_output(&position_after(None, &["h2e2"]), &lines);
    assert!(best_of(lines.last().unwrap()).is_some());
}

#[test]
fn malformed_lines_get_one_info_string_each() {
    let mut e = ucci();
    let cases: &[(&[u8], &str)] = &[
        (b"hello\n", "info string unknown command: hello"),
        (b"go  depth x\n", "info string error: depth: 'x' is not a valid number"),
        (b"setoption nosuch 1\n", "info string error: unknown option 'nosuch' (ignored)"),
        (b"setoption hashsize huge\n", "info string error: option hashsize: 'huge'"),
        (b"position\n", "info string error: 'position' needs"),
        (b"go time\n", "info string error: 'time' needs a number"),
        (b"\xff\xfe\x00\x01garbage\n", "info string unknown command: "),
        (b"banmoves h2\n", "info string error: move 1 of the list"),
    ];
    for (input, want) in cases {
        e.send_bytes(input);
        let (lines, _) = e.expect_until(SECS5, want, |l| l.starts_with("info string"));
        assert!(lines.last().unwrap().starts_with(want), "{:?} -> {lines:?}", String::from_utf8_lossy(input));
    }
    // Empty lines, CRLF, mixed case, extra whitespace: no output but readyok.
    e.send_bytes(b"\n\r\n   \t \n");
    e.send_bytes(b"  IsReady \r\n");
    assert!(e.expect_line("readyok", SECS5).len() == 1);
    // A very long line (100 kB) and an over-long line (2 MB).
    e.send(&"x".repeat(100_000));
    let (lines, _) = e.expect_until(SECS5, "unknown", |l| l.starts_with("info string"));
    assert!(lines[0].starts_with("info string unknown command: xxx") && lines[0].len() < 200, "{lines:?}");
    e.send(&"position startpos moves ".repeat(90_000));
    let (lines, _) = e.expect_until(SECS5, "too long", |l| l.starts_with("info string"));
    assert!(lines[0].contains("too long") && lines[0].ends_with("the next go answers nobestmove"), "{lines:?}");
    // A position line that could not be read: no move.
    e.send("go depth 2");
    assert_eq!(e.expect_bestmove(SECS5).0.last().unwrap(), "nobestmove");
    // Still serving.
    e.send("position   STARTPOS");
    e.send("GO   DEPTH   2");
    let (lines, _) = e.expect_bestmove(SECS5);
    assert_legal_output(&position_after(None, &[]), &lines);
    assert!(best_of(lines.last().unwrap()).is_some());
}

#[test]
fn options_are_stored_and_echoed_honestly() {
    let mut e = ucci();
    for line in [
        "setoption hashsize 8",
        "setoption threads 2",
        "setoption ponder true",
        "setoption debug false",
        "setoption contempt 10",
        "setoption newgame",
        "setoption rules chinese",
        "setoption pruning small",
        "setoption knowledge small",
    ] {
        e.send(line);
    }
    assert!(e.sync().is_empty(), "silent options");
    for (line, note) in [
        ("setoption promotion true", "not supported"),
        ("setoption randomness small", "opening book"),
        ("setoption style risky", "no effect"),
        ("setoption idle small", "no effect"),
        ("setoption batch true", "batch"),
        ("setoption usehash false", "cleared before every search"),
        // Last: a second line ("no book loaded") follows the error.
        ("setoption bookfiles a.obk", "error: book file 'a.obk' not used"),
    ] {
        e.send(line);
        let (lines, _) = e.expect_until(SECS5, note, |l| l.starts_with("info string"));
        assert!(lines.last().unwrap().contains(note), "{line} -> {lines:?}");
    }
    e.send("position startpos");
    e.send("go depth 3");
    let (lines, _) = e.expect_bestmove(SECS20);
    assert_legal_output(&position_after(None, &[]), &lines);
}

#[test]
fn probe_prints_pophash() {
    let mut e = ucci();
    e.send("probe startpos");
    let (lines, _) = e.expect_until(SECS5, "pophash", |l| l.starts_with("pophash"));
    assert_eq!(lines.last().unwrap(), "pophash");
    e.send("position startpos");
    e.send("go depth 5");
    let (lines, _) = e.expect_bestmove(SECS20);
    let best = best_of(lines.last().unwrap()).unwrap();
    e.send("probe startpos");
    let (lines, _) = e.expect_until(SECS5, "pophash", |l| l.starts_with("pophash"));
    let l = lines.last().unwrap();
    assert!(l.starts_with(&format!("pophash bestmove {best}")), "{l}");
    assert!(l.contains(" depth "), "{l}");
}

#[test]
fn mated_side_has_no_move() {
    // Red is checkmated: chariots on e1 (guarded by the horse on f3) and d0;
    // no legal move loses (docs/rules.md section 2).
    let fen = "3k5/9/9/9/9/9/5n3/9/4r4/3rK4 w";
    let mut e = ucci();
    e.send(&format!("position fen {fen}"));
    e.send("go depth 3");
    let (lines, _) = e.expect_bestmove(SECS5);
    assert_eq!(lines.last().unwrap(), "nobestmove", "{lines:?}");
    let mut u = uci();
    u.send(&format!("position fen {fen}"));
    u.send("go depth 3");
    let (lines, _) = u.expect_bestmove(SECS5);
    assert_eq!(lines.last().unwrap(), "bestmove (none)", "{lines:?}");
    assert!(lines.iter().any(|l| l == "info depth 0 score mate 0"), "{lines:?}");
}

#[test]
fn quit_during_search_exits_cleanly() {
    let mut e = ucci();
    e.send("position startpos");
    e.send("go infinite");
    e.expect_until(SECS5, "an info line", |l| l.starts_with("info depth"));
    let t0 = Instant::now();
    e.send("quit");
    e.expect_line("bye", SECS5);
    assert!(e.wait_exit(SECS5).success());
    assert!(t0.elapsed() < Duration::from_millis(1000), "{:?}", t0.elapsed());
}

#[test]
fn end_of_input_exits_like_quit() {
    // Idle.
    let mut e = ucci();
    e.close_input();
    assert!(e.wait_exit(SECS5).success());
    // Searching.
    let mut e = uci();
    e.send("position startpos");
    e.send("go infinite");
    e.expect_until(SECS5, "an info line", |l| l.starts_with("info depth"));
    e.close_input();
    assert!(e.wait_exit(SECS5).success());
    // Before any command.
    let mut e = Engine::start();
    e.close_input();
    assert!(e.wait_exit(SECS5).success());
}

#[test]
fn uci_session() {
    let mut e = uci();
    e.send("setoption name Hash value 8");
    e.send("setoption name Threads value 1");
    e.send("setoption name Move Overhead value 20");
    e.send("setoption Ponder true");
    e.send("setoption name Clear Hash");
    e.send("ucinewgame");
    assert!(e.sync().is_empty());
    let pos = position_after(None, &["h2e2", "h9g7"]);
    let pline = "position startpos moves h2e2 h9g7";
    let (lines, _) = search(&mut e, pline, &pos, "go depth 3");
    assert!(lines.iter().any(|l| l.contains(" score cp ") && l.contains(" multipv 1 ")), "{lines:?}");
    search(&mut e, pline, &pos, "go wtime 3000 btime 3000 winc 0 binc 0");
    search(&mut e, pline, &pos, "go wtime 3000 btime 3000 movestogo 10");
    search(&mut e, pline, &pos, "go nodes 3000");
    let (_, t) = search(&mut e, pline, &pos, "go movetime 100");
    assert!(t < Duration::from_millis(1000), "{t:?}");
    search(&mut e, pline, &pos, "go searchmoves a0a1 i0i1 depth 3");
    // A bare FEN line and a mate search.
    let fen = "3k5/9/9/9/9/9/9/9/4R4/2R1K4 w";
    let mate_pos = position_after(Some(fen), &[]);
    let (lines, _) = search(&mut e, &format!("fen {fen}"), &mate_pos, "go mate 2");
    assert!(lines.iter().any(|l| l.contains(" score mate ")), "{lines:?}");
    // MultiPV 2 prints two lines per depth.
    e.send("setoption name MultiPV value 2");
    let (lines, _) = search(&mut e, pline, &pos, "go depth 3");
    assert!(lines.iter().any(|l| l.contains(" multipv 2 ")), "{lines:?}");
    e.send("setoption name MultiPV value 1");
    // Ponder + ponderhit with a clock.
    e.send(pline);
    e.send("go ponder wtime 1000 btime 1000");
    e.expect_no_bestmove(Duration::from_millis(300));
    e.send("ponderhit");
    let (lines, _) = e.expect_bestmove(SECS5);
    assert_legal_output(&pos, &lines);
    // Stop during infinite search; `stop` when idle prints nothing in UCI.
    e.send("go infinite");
    e.expect_no_bestmove(Duration::from_millis(200));
    e.send("stop");
    e.expect_bestmove(SECS5);
    e.send("stop");
    assert!(e.sync().is_empty());
    // UCI plays the moves up to the first illegal one and drops the rest
    // with a warning (the Stockfish convention); a bad FEN still gets
    // `bestmove (none)`.
    e.send("position startpos moves e0e1 e1e2 h9g7");
    e.expect_until(SECS5, "warning", |l| {
        l.starts_with("info string warning: move 2 of the list") && l.ends_with("(2 moves) were dropped")
    });
    e.send("go depth 2");
    let (lines, _) = e.expect_bestmove(SECS5);
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
    assert!(position_after(None, &["e0e1"]).parse_move(&best).is_ok(), "{best} is Black's move after e0e1");
    e.send("position fen 9/9/9 w");
    e.send("go depth 2");
    let (lines, _) = e.expect_bestmove(SECS5);
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    e.send("quit");
    assert!(e.wait_exit(SECS5).success());
}

#[test]
fn ucci_draw_and_resign() {
    let mut e = ucci();
    // Dead drawn (no attacking piece left) and a draw offered: accept.
    let drawn = "3k5/4a4/9/9/9/9/9/4B4/4A4/4KA3 w";
    e.send(&format!("position fen {drawn}"));
    e.send("go draw depth 3");
    let (lines, _) = e.expect_bestmove(SECS5);
    assert!(lines.last().unwrap().ends_with(" draw"), "{lines:?}");
    // The same without the offer: no draw.
    e.send("go depth 3");
    let (lines, _) = e.expect_bestmove(SECS5);
    assert!(!lines.last().unwrap().contains("draw"), "{lines:?}");
    // Not dead drawn: an offer is declined.
    e.send(&format!("position fen {START_FEN}"));
    e.send("go draw depth 2");
    let (lines, _) = e.expect_bestmove(SECS5);
    assert!(!lines.last().unwrap().contains("draw"), "{lines:?}");
    // Hopelessly lost (Black's only move a6a5 is met by c0d0 mate: d8 is
    // covered by the chariot on a8, e9 by the facing general): resign, unless
    // turned off.
    let lost = "3k5/R8/9/p8/9/9/9/9/9/2R1K4 b";
    e.send(&format!("position fen {lost}"));
    e.send("go depth 4");
    let (lines, _) = e.expect_bestmove(SECS5);
    let last = lines.last().unwrap();
    assert!(last.starts_with("bestmove a6a5") && last.ends_with(" resign"), "{lines:?}");
    e.send("setoption resign false");
    e.send("go depth 4");
    let (lines, _) = e.expect_bestmove(SECS5);
    assert_eq!(best_of(lines.last().unwrap()).as_deref(), Some("a6a5"));
    assert!(!lines.last().unwrap().contains("resign"), "{lines:?}");
}

#[test]
fn currmove_after_a_few_seconds_and_huge_hash_refused() {
    let mut e = ucci();
    // More memory than any test machine has: refused, the engine keeps serving.
    e.send("setoption hashsize 65536");
    let lines = e.sync();
    if std::path::Path::new("/proc/meminfo").exists() {
        assert!(lines.iter().any(|l| l.starts_with("info string error: hashsize 65536 MB does not fit")), "{lines:?}");
    }
    e.send("setoption hashsize 16");
    e.send("position startpos");
    let t0 = Instant::now();
    e.send("go infinite");
    let (lines, t) = e.expect_until(Duration::from_secs(15), "currmove", |l| l.contains(" currmove "));
    assert!(t.duration_since(t0) >= Duration::from_millis(2900), "{:?}", t.duration_since(t0));
    let l = lines.last().unwrap();
    let w: Vec<&str> = l.split_whitespace().collect();
    let m = w[w.iter().position(|x| *x == "currmove").unwrap() + 1];
    chuhan::Position::startpos().parse_move(m).unwrap();
    e.send("stop");
    let (lines, _) = e.expect_bestmove(SECS5);
    assert_legal_output(&chuhan::Position::startpos(), &lines);
}

#[test]
fn commands_during_a_search_never_corrupt_it() {
    let mut e = ucci();
    let start = position_after(None, &[]);
    e.send("position startpos");
    e.send("go infinite");
    e.expect_until(SECS5, "an info line", |l| l.starts_with("info depth"));
    // `position` and `banmoves` act on the session's copy: the search goes on
    // with the start position.
    e.send("position startpos moves h2e2");
    e.send("banmoves h9g7");
    e.expect_no_bestmove(Duration::from_millis(200));
    e.send("stop");
    let (lines, _) = e.expect_bestmove(SECS5);
    assert_legal_output(&start, &lines);
    assert!(best_of(lines.last().unwrap()).is_some());
    // The next search uses the new position (a new ban list replaces the old one).
    let after = position_after(None, &["h2e2"]);
    let ban: Vec<String> = after.legal_moves().iter().map(|m| m.to_string()).filter(|m| m != "b9c7").collect();
    e.send(&format!("banmoves {}", ban.join(" ")));
    e.send("go depth 3");
    let (lines, _) = e.expect_bestmove(SECS20);
    assert_legal_output(&after, &lines);
    assert_eq!(best_of(lines.last().unwrap()).as_deref(), Some("b9c7"), "{lines:?}");
    // `setoption hashsize` while thinking stops the search first (its
    // bestmove comes before the option takes effect), then serves on.
    e.send("position startpos");
    e.send("go infinite");
    e.expect_until(SECS5, "an info line", |l| l.starts_with("info depth"));
    e.send("setoption hashsize 4");
    let (lines, _) = e.expect_bestmove(SECS5);
    assert_legal_output(&start, &lines);
    e.send("go depth 2");
    let (lines, _) = e.expect_bestmove(SECS5);
    assert!(best_of(lines.last().unwrap()).is_some());
    // `go` while thinking: the first search ends (with its move) before the second starts.
    e.send("go infinite");
    e.expect_until(SECS5, "an info line", |l| l.starts_with("info depth"));
    e.send("go depth 2");
    let (first, _) = e.expect_bestmove(SECS5);
    let (second, _) = e.expect_bestmove(SECS5);
    assert!(best_of(first.last().unwrap()).is_some() && best_of(second.last().unwrap()).is_some());
    // A probe while thinking is answered at once from the running search's
    // table (docs/protocol.md "States"): the root has been searched, so its entry is there
    // with a legal best move, and the search goes on until `stop`.
    e.send("position startpos moves h2e2");
    e.send("go infinite");
    e.expect_until(SECS5, "an info line", |l| l.starts_with("info depth 3"));
    e.send("probe startpos moves h2e2");
    let (lines, _) = e.expect_until(SECS5, "pophash", |l| l.starts_with("pophash"));
    let pophash = lines.last().unwrap();
    assert!(pophash.starts_with("pophash bestmove ") && pophash.contains(" depth "), "{pophash}");
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "the probe did not end the search: {lines:?}");
    e.send("stop");
    e.expect_bestmove(SECS5);
}

#[test]
fn rules_option_reaches_the_search() {
    // docs/rules.md T14 with the cycle played twice: i6i9 completes the third
    // occurrence, a draw under asian rules and a loss for red (one check, one
    // chase) under chinese rules. Everything else is banned, so the score of
    // i6i9 (UCCI: plain integers) shows which rule set the search used.
    let cycle = ["i6i9", "d9d8", "i9i7", "a7a6", "i7i8", "d8d9", "i8i6", "a6a7"];
    let moves: Vec<&str> = cycle.iter().chain(cycle.iter()).copied().collect();
    let fen = "3k5/9/c8/8R/9/9/9/9/9/5K3 w - - 0 1";
    let pos = position_after(Some(fen), &moves);
    let banned: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).filter(|m| m != "i6i9").collect();
    let mut e = ucci();
    let mut score_under = |rules: &str| -> i32 {
        e.send(&format!("setoption rules {rules}"));
        e.send(&format!("position fen {fen} moves {}", moves.join(" ")));
        e.send(&format!("banmoves {}", banned.join(" ")));
        e.send("go depth 3");
        let (lines, _) = e.expect_bestmove(SECS20);
        assert_eq!(best_of(lines.last().unwrap()), Some("i6i9".to_string()), "{lines:?}");
        let info = lines.iter().rev().find(|l| l.contains(" score ")).unwrap();
        let words: Vec<&str> = info.split_whitespace().collect();
        let i = words.iter().position(|w| *w == "score").unwrap();
        words[i + 1].parse().unwrap()
    };
    assert_eq!(score_under("chinese"), -(chuhan::score::MATE - 1));
    assert_eq!(score_under("asian"), 0);
}

#[test]
fn pruning_and_knowledge_reach_the_search() {
    // The same fixed-depth search from a clean table, at each level: fewer
    // levels of pruning search more nodes; less knowledge scores differently.
    let mut e = ucci();
    let mut run = |settings: &[&str]| -> (u64, i64) {
        for line in settings {
            e.send(line);
        }
        e.send("setoption newgame");
        e.send("position fen r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3");
        e.send("go depth 5");
        let (lines, _) = e.expect_bestmove(Duration::from_secs(30));
        let last = lines.iter().rev().find(|l| l.starts_with("info depth 5")).expect("a depth-5 line").clone();
        let field = |name: &str| -> i64 {
            let words: Vec<&str> = last.split_whitespace().collect();
            let i = words.iter().position(|w| *w == name).unwrap();
            words[i + 1].parse().unwrap()
        };
        (field("nodes") as u64, field("score"))
    };
    let large = run(&["setoption pruning large"]);
    let none = run(&["setoption pruning none"]);
    assert!(none.0 > 2 * large.0, "pruning none {none:?} vs large {large:?}");
    let material = run(&["setoption pruning large", "setoption knowledge none"]);
    let full = run(&["setoption knowledge large"]);
    assert_eq!(full, large, "back at the defaults, the same search");
    assert_ne!(material.1, full.1, "knowledge none vs large");
}
