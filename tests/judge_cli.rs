//! `chuhan judge` end to end: spawns the real binary.

use std::process::Command;

fn judge(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chuhan")).arg("judge").args(args).output().expect("spawn chuhan");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const T01: &str = "3k5/9/9/9/9/9/9/9/9/5K2R w - - 0 1";
const T01_MOVES: &str = "i0i9 d9d8 i9i8 d8d9 i8i9 d9d8 i9i8 d8d9 i8i9";
const T14: &str = "3k5/9/c8/8R/9/9/9/9/9/5K3 w - - 0 1";
const T14_MOVES: &str = "i6i9 d9d8 i9i7 a7a6 i7i8 d8d9 i8i6 a6a7 i6i9 d9d8 i9i7 a7a6 i7i8 d8d9 i8i6 a6a7 i6i9";

#[test]
fn perpetual_check_line() {
    assert_eq!(judge(&["--fen", T01, "--moves", T01_MOVES]), (0, "0-1 perpetual check by red\n".into(), String::new()));
}

#[test]
fn rules_option_changes_the_verdict() {
    let (code, out, _) = judge(&["--fen", T14, "--moves", T14_MOVES]);
    assert_eq!((code, out.as_str()), (0, "1/2-1/2 repetition\n"));
    let (code, out, _) = judge(&["--fen", T14, "--moves", T14_MOVES, "--rules", "chinese"]);
    assert_eq!((code, out.as_str()), (0, "0-1 perpetual attack by red\n"));
}

#[test]
fn chase_mate_stalemate_limit_material_ongoing() {
    let cases = [
        (
            "4k4/9/n8/9/9/9/1R7/9/9/3K5 w - - 0 1",
            "b3a3 a7b9 a3b3 b9a7 b3a3 a7b9 a3b3 b9a7 b3a3",
            "0-1 perpetual chase by red",
        ),
        ("4k4/R8/9/9/9/9/9/9/9/1R3K3 w - - 0 1", "b0b9", "1-0 checkmate"),
        ("3k5/1P7/9/9/9/9/9/9/9/4K4 w - - 0 1", "b8c8", "1-0 stalemate"),
        ("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 118 1", "a0a1 d9d8", "1/2-1/2 natural move limit"),
        ("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 118 1", "a0a1", "* ongoing"),
        ("3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w - - 0 1", "", "1/2-1/2 insufficient material"),
        ("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", "a0a1 d9d8 a1a0 d8d9 a0a1 d9d8 a1a0 d8d9", "1/2-1/2 repetition"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", "h2e2 h9g7", "* ongoing"),
    ];
    for (fen, moves, expected) in cases {
        let (code, out, err) = judge(&["--fen", fen, "--moves", moves]);
        assert_eq!((code, out.trim_end()), (0, expected), "{fen} {moves}: {err}");
    }
}

#[test]
fn bad_moves_name_the_move_number_and_exit_2() {
    let (code, out, err) = judge(&["--moves", "h2e2 h9g7 zz99"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("move 3") && err.contains("zz99"), "{err}");
    let (code, _, err) = judge(&["--moves", "h2e2 h9g7 h2h3"]);
    assert_eq!(code, 2);
    assert!(err.contains("move 3") && err.contains("illegal"), "{err}");
    let (code, _, err) = judge(&["--fen", "not a fen"]);
    assert_eq!(code, 2);
    assert!(err.contains("FEN"), "{err}");
    let (code, _, _) = judge(&["--rules", "martian"]);
    assert_eq!(code, 2);
}

#[test]
fn moves_after_the_end_are_ignored_with_a_note() {
    let moves = format!("{T01_MOVES} d9d8 i9i0");
    let (code, out, err) = judge(&["--fen", T01, "--moves", &moves]);
    assert_eq!((code, out.as_str()), (0, "0-1 perpetual check by red\n"));
    assert!(err.contains("ended after move 9"), "{err}");
}

#[test]
fn explain_prints_the_deciding_span() {
    // T04: red's chariot chases the unprotected horse; black's horse only flees.
    let fen = "4k4/9/n8/9/9/9/1R7/9/9/3K5 w - - 0 1";
    // The start position occurs for the third time after 8 plies.
    let moves = "b3a3 a7b9 a3b3 b9a7 b3a3 a7b9 a3b3 b9a7";
    let (code, out, err) = judge(&["--fen", fen, "--moves", moves, "--explain"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "0-1 perpetual chase by red");
    assert_eq!(lines[1], "span: moves 1-8 after the position at ply 0 (rules asian)");
    // Eight moves, each with side, ICCS, Chinese notation and class.
    assert_eq!(lines.len(), 13, "{out}");
    let moves_lines = &lines[2..10];
    for (k, l) in moves_lines.iter().enumerate() {
        assert!(l.trim_start().starts_with(&format!("{}. ", k + 1)), "{l}");
    }
    assert_eq!(
        moves_lines[1].split_whitespace().collect::<Vec<_>>(),
        ["2.", "black", "a7b9", "马1退2", "idle:", "plain", "move"]
    );
    assert!(
        moves_lines[2]
            .contains("a3b3 车九平八  chase: chases the black horse on b9 with the chariot on b3 (unprotected)"),
        "{out}"
    );
    assert!(
        out.contains("red: 4 moves, 0 checks, 4 chases; rank 1: chased the black horse on a7 on every move"),
        "{out}"
    );
    assert!(out.contains("black: 4 moves, 0 checks, 0 chases; rank 0"), "{out}");
    assert!(out.ends_with("verdict: Asian rules (docs/rules.md 3.2): red has the higher rank (1 against 0): red loses for perpetual chase\n"), "{out}");
}

#[test]
fn explain_names_checks_mate_threats_and_the_chinese_rule() {
    // One check, one mate threat (the lone chariot against the general, the red
    // general covering the e-file): allowed under Asian rules, 一将一杀 under Chinese.
    let fen = "7R1/3k5/9/9/9/9/9/9/9/4K4 w - - 0 1";
    let moves = "h9h8 d8d7 h8h9 d7d8 h9h8 d8d7 h8h9 d7d8";
    let (code, out, _) = judge(&["--fen", fen, "--moves", moves, "--explain", "--rules", "chinese"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("0-1 perpetual attack by red\n"), "{out}");
    assert!(out.contains("1. red   h9h8 车二退一  check: gives check"), "{out}");
    assert!(out.contains("3. red   h8h9 车二进一  mate threat: threatens mate by checks"), "{out}");
    assert!(out.contains("red: 4 moves, 2 checks, 0 chases, 2 mate threats (4 attacks); forbidden"), "{out}");
    assert!(
        out.contains("verdict: Chinese rules (docs/rules.md 3.3): red is forbidden (长打) and black is not"),
        "{out}"
    );
    let (_, out, _) = judge(&["--fen", fen, "--moves", moves, "--explain"]);
    assert!(out.starts_with("1/2-1/2 repetition\n"), "{out}");
    assert!(out.contains("verdict: Asian rules (docs/rules.md 3.2): equal ranks (0 and 0)"), "{out}");
}

#[test]
fn explain_names_parries_and_pins() {
    // FSF-22: red's advisor moves parry the attacks on the chariot d1, which is
    // pinned by the horse c1; black chases d1 on every move and loses.
    let fen = "5k3/9/9/9/9/9/7r1/9/2nRA3c/4K4 w - - 0 1";
    let moves = "e1f0 h3h1 f0e1 h1h3 e1f0 h3h1 f0e1 h1h3";
    let (code, out, _) = judge(&["--fen", fen, "--moves", moves, "--explain"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("1-0 perpetual chase by black\n"), "{out}");
    assert!(out.contains("pinned by the black horse on c1, attacks its pinner"), "{out}");
    assert!(out.contains("takes away the screen of the black cannon on i1 (attacking the chariot on d1)"), "{out}");
    assert!(
        out.contains("chases the red chariot on d1 with the cannon on i1 (a chariot attacked by a horse or cannon)"),
        "{out}"
    );
    // A parry without a pin: the cut protection along the cannon's line.
    let fen = "3k5/C3arN2/9/1N7/9/9/9/9/9/4K4 b - - 0 1";
    let moves = "e8f9 b6c8 f9e8 c8b6 e8f9 b6c8 f9e8 c8b6";
    let (_, out, _) = judge(&["--fen", fen, "--moves", moves, "--explain"]);
    assert!(out.starts_with("0-1 perpetual chase by red\n"), "{out}");
    assert!(
        out.contains("idle: parry, no chase: the chariot on f8 threatens the red horse on g8 only because"),
        "{out}"
    );
}

#[test]
fn explain_without_a_repetition_and_with_bad_input() {
    let (code, out, _) = judge(&["--fen", "4k4/R8/9/9/9/9/9/9/9/1R3K3 w - - 0 1", "--moves", "b0b9", "--explain"]);
    assert_eq!(code, 0);
    assert_eq!(out, "1-0 checkmate\nno repetition span decided this game (rules asian)\n");
    let (code, out, err) = judge(&["--moves", "h2e2 zz", "--explain"]);
    assert_eq!(code, 2);
    assert!(out.is_empty() && err.contains("move 2"), "{err}");
}
