//! Conventions of the programs people plug Chuhan into (xboard via uci2wb,
//! pikafish-terminal, puzzle tools, fixed-time GUIs), against the real binary.

mod common;

use chuhan::position::Position;
use common::*;

fn uci() -> Engine {
    let mut e = Engine::start();
    e.send("uci");
    e.expect_line("uciok", SECS5);
    e
}

#[test]
fn empty_string_options_are_the_empty_string() {
    // xboard re-sends every option; an empty string comes as `<empty>`.
    let mut e = uci();
    e.send("setoption name BookFile value <empty>");
    let (lines, _) = e.expect_until(SECS5, "summary", |l| l.starts_with("info string bookfiles:"));
    assert!(lines.iter().all(|l| !l.contains("error")), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "info string bookfiles: probing embedded (2136 records)", "{lines:?}");
    // The built-in book still answers.
    e.send("position startpos");
    e.send("go wtime 60000 btime 60000");
    let (lines, _) = e.expect_bestmove(SECS5);
    assert!(lines.iter().any(|l| l.starts_with("info string book move ")), "{lines:?}");
}

#[test]
fn combos_list_their_default_first() {
    let mut e = Engine::start();
    e.send("ucci");
    let lines = e.expect_line("ucciok", SECS5);
    for l in lines.iter().filter(|l| l.contains(" type combo ")) {
        let w: Vec<&str> = l.split_whitespace().collect();
        let first_var = w[w.iter().position(|x| *x == "var").unwrap() + 1];
        let default = w[w.iter().position(|x| *x == "default").unwrap() + 1];
        assert_eq!(first_var, default, "{l}");
    }
    assert!(lines
        .iter()
        .any(|l| l == "option pruning type combo var large var none var small var medium default large"));
}

#[test]
fn go_perft_prints_pikafish_style_counts() {
    let mut e = uci();
    e.send("position startpos moves h2e2");
    e.send("go perft 2");
    let (lines, _) = e.expect_until(SECS5, "Nodes searched", |l| l.starts_with("Nodes searched: "));
    let mut pos = Position::startpos();
    pos.make_move(pos.parse_move("h2e2").unwrap());
    let expected = chuhan::perft::divide(&pos, 2, 1);
    let counts: Vec<&String> = lines.iter().filter(|l| l.contains(": ") && !l.starts_with("Nodes")).collect();
    assert_eq!(counts.len(), expected.len(), "{lines:?}");
    for (m, n) in &expected {
        assert!(lines.contains(&format!("{m}: {n}")), "{m}: {n} missing in {lines:?}");
    }
    let total: u64 = expected.iter().map(|&(_, n)| n).sum();
    assert_eq!(lines[lines.len() - 2], "");
    assert_eq!(lines.last().unwrap(), &format!("Nodes searched: {total}"));
    // Out of range or malformed: an error, and the engine keeps serving.
    e.send("go perft 0");
    e.expect_until(SECS5, "error", |l| l.starts_with("info string error: perft depth"));
    e.send("go perft x");
    e.expect_until(SECS5, "error", |l| l.starts_with("info string error:"));
    e.send("isready");
    e.expect_line("readyok", SECS5);
}

#[test]
fn puzzle_positions_are_accepted_with_a_warning() {
    let mut e = uci();
    // A red soldier behind its start rank (puzzles have them).
    let fen = "4k4/9/9/9/9/9/9/9/4P4/3AK4 w - - 0 1";
    e.send(&format!("position fen {fen}"));
    e.expect_until(SECS5, "warning", |l| {
        l.starts_with("info string warning: red soldier on e1 cannot stand there")
            && l.ends_with("accepted (the engine plays such positions)")
    });
    e.send("go depth 3");
    let (lines, _) = e.expect_bestmove(SECS5);
    let pos = Position::from_setup_relaxed(&chuhan::fen::Setup::parse(fen).unwrap()).unwrap();
    assert_legal_output(&pos, &lines);
    // What cannot be represented is still refused.
    e.send("position fen 4k4/9/9/9/9/9/9/9/9/3AKA3 w - - 0 1 moves");
    e.send("position fen RRRk5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
    e.expect_until(SECS5, "refusal", |l| l.starts_with("info string error: bad FEN: red has more than 2 chariots"));
    e.send("go depth 1");
    assert_eq!(e.expect_bestmove(SECS5).0.last().unwrap(), "bestmove (none)");
}

#[test]
fn movetime_keeps_the_move_overhead_back() {
    // Fixed-time GUIs (xboard -st via uci2wb sends `movetime`) flag an answer
    // that comes late: the budget is movetime minus the overhead.
    let mut e = uci();
    e.send("setoption name OwnBook value false");
    e.send("setoption name Move Overhead value 100");
    e.send("debug on");
    e.send("position startpos moves h2e2");
    e.send("go movetime 300");
    let (lines, _) = e.expect_bestmove(SECS5);
    assert!(lines.iter().any(|l| l.starts_with("info string debug: budget soft 200 ms hard 200 ms")), "{lines:?}");
}

#[test]
fn d_and_flip() {
    let mut e = uci();
    e.send("position fen 3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1");
    e.send("d");
    let (lines, _) = e.expect_until(SECS5, "checkers", |l| l.starts_with("Checkers:"));
    assert!(lines.iter().any(|l| l == "3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1"), "{lines:?}");
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1").unwrap();
    assert!(lines.iter().any(|l| *l == format!("Key: {:016X}", pos.key().0)), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "Checkers: d0");
    e.send("flip");
    e.send("d");
    let (lines, _) = e.expect_until(SECS5, "checkers", |l| l.starts_with("Checkers:"));
    assert!(lines.iter().any(|l| l == "3rk4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "Checkers: d9");
}

#[test]
fn bench_and_compiler_in_the_protocol() {
    let mut e = uci();
    e.send("position startpos moves h2e2");
    e.send("bench 16 1 4 current");
    let (lines, _) = e.expect_until(SECS20, "bench end", |l| l.ends_with(" nps") && l.contains(" nodes "));
    assert!(lines.iter().any(|l| l.starts_with("Nodes searched  : ")), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b")),
        "{lines:?}"
    );
    e.send("bench 16 1 4 nowhere/file.epd");
    e.expect_until(SECS5, "error", |l| l.starts_with("info string error: bench:"));
    e.send("compiler");
    let (lines, _) = e.expect_until(SECS5, "compiler", |l| l.to_ascii_lowercase().contains("rustc"));
    assert!(!lines.is_empty());
    e.send("isready");
    e.expect_line("readyok", SECS5);
}
