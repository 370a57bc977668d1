//! The `eval` command (protocol and `chuhan eval`): the breakdown's final
//! score is the engine's evaluation, and bad input keeps the engine serving.

mod common;

use std::process::Command;

use chuhan::eval::evaluate;
use chuhan::fen::BENCH_FENS;
use chuhan::position::Position;
use common::*;

/// The two numbers of the `Final evaluation: R (Red's view), S (X to move)` line.
fn finals(lines: &[String]) -> (i32, i32) {
    let last = lines.iter().find(|l| l.starts_with("Final evaluation: ")).unwrap_or_else(|| panic!("{lines:?}"));
    let w: Vec<&str> = last.split_whitespace().collect();
    (w[2].parse().expect(last), w[5].parse().expect(last))
}

fn red_view(pos: &Position) -> i32 {
    let e = evaluate(pos).0;
    if pos.side_to_move() == chuhan::Color::Red {
        e
    } else {
        -e
    }
}

fn eval_cli(args: &[&str]) -> (Vec<String>, String, Option<i32>) {
    let out = Command::new(env!("CARGO_BIN_EXE_chuhan")).arg("eval").args(args).output().expect("spawn chuhan");
    let stdout = String::from_utf8(out.stdout).unwrap().lines().map(str::to_string).collect();
    (stdout, String::from_utf8(out.stderr).unwrap(), out.status.code())
}

#[test]
fn protocol_eval_totals_are_the_evaluation() {
    for dialect in ["uci", "ucci"] {
        let mut e = Engine::start();
        e.send(dialect);
        e.expect_line(&format!("{dialect}ok"), SECS5);
        for fen in BENCH_FENS.iter().take(6).chain(["3k5/9/9/9/9/9/9/4C4/9/4K4 b - - 0 1"].iter()) {
            let pos = Position::from_fen(fen).unwrap();
            e.send(&format!("position fen {fen}"));
            e.send("eval");
            let lines = e.sync();
            assert!(lines[0].starts_with(" Term "), "{lines:?}");
            assert!(lines.iter().any(|l| l.starts_with(" MATERIAL ")), "{lines:?}");
            assert_eq!(finals(&lines), (red_view(&pos), evaluate(&pos).0), "{fen}: {lines:?}");
        }
        // With moves: the position after them.
        e.send("position startpos moves h2e2 h9g7");
        e.send("eval");
        let pos = position_after(None, &["h2e2", "h9g7"]);
        assert_eq!(finals(&e.sync()), (red_view(&pos), evaluate(&pos).0));
        // A bad position: an error, no table, and the engine still serves.
        e.send("position fen 9/9/9 w");
        e.send("eval");
        let lines = e.sync();
        assert!(lines.iter().any(|l| l == "info string error: the last position could not be set; no evaluation"));
        assert!(lines.iter().all(|l| !l.starts_with("Final")), "{lines:?}");
        e.send("eval now");
        let lines = e.sync();
        assert!(lines.len() == 1 && lines[0].starts_with("info string error:"), "{lines:?}");
        e.send("position startpos");
        e.send("eval");
        let start = Position::startpos();
        assert_eq!(finals(&e.sync()), (red_view(&start), evaluate(&start).0));
        e.send("quit");
    }
}

#[test]
fn cli_eval() {
    let (lines, _, code) = eval_cli(&[]);
    assert_eq!(code, Some(0));
    let start = Position::startpos();
    assert_eq!(finals(&lines), (red_view(&start), evaluate(&start).0));
    for fen in BENCH_FENS {
        let pos = Position::from_fen(fen).unwrap();
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let (lines, _, code) = eval_cli(&fields);
        assert_eq!(code, Some(0), "{fen}");
        assert_eq!(finals(&lines), (red_view(&pos), evaluate(&pos).0), "{fen}");
        // One quoted argument works too.
        assert_eq!(eval_cli(&[fen]).0, lines);
    }
    let (lines, err, code) = eval_cli(&["rnbakabnr/9/9 w"]);
    assert_eq!(code, Some(2));
    assert!(lines.is_empty() && err.starts_with("error: invalid FEN:"), "{err}");
}
