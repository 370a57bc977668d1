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
