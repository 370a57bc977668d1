//! `chuhan book build|probe|suite` end to end: spawns the real binary.

mod common;

use common::scratch_dir;

use std::process::Command;

fn chuhan(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chuhan")).arg("book").args(args).output().expect("spawn chuhan");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn build_reproduces_the_committed_book() {
    let dir = scratch_dir("book-cli");
    let out = dir.path().join("rebuilt.book");
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/book/openings.txt");
    let (code, stdout, stderr) = chuhan(&["build", src, "-o", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("records ->"), "{stdout}");
    let committed = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/book/chuhan.book")).unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), committed);
}

#[test]
fn build_fails_on_an_illegal_move_naming_line_and_ply() {
    let dir = scratch_dir("book-cli");
    let src = dir.path().join("bad.txt");
    std::fs::write(&src, "# test\nh2e2 h9g7 | 1 | C00 | ok\nh2e2 h9g7 h0g2 g7g6 | 1 | C00 | bad\n").unwrap();
    let out = dir.path().join("bad.book");
    let (code, _, stderr) = chuhan(&["build", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(stderr.contains("line 3, ply 4"), "{stderr}");
    assert!(!out.exists(), "no book is written when the source is bad");
}

#[test]
fn probe_lists_book_moves_and_rejects_a_corrupt_book() {
    let dir = scratch_dir("book-cli");
    let (code, stdout, _) = chuhan(&["probe", "--moves", "h2e2"]);
    assert_eq!(code, 0);
    assert!(stdout.lines().any(|l| l.starts_with("h9g7 ")), "{stdout}");
    let bad = dir.path().join("corrupt.book");
    std::fs::write(&bad, b"CHUHANBK\x01\x00\x00\x00").unwrap();
    let (code, _, stderr) = chuhan(&["probe", "--book", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(stderr.contains("truncated"), "{stderr}");
}

#[test]
fn verify_depth_reports_an_unbalanced_line() {
    let dir = scratch_dir("book-cli");
    let src = dir.path().join("verify.txt");
    std::fs::write(
        &src,
        "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 | 1 | C00 | 中炮对屏风马\ng0e2 h9g7 h0g2 i9h9 i0h0 h7h0 | 1 | A10 | 飞相局\n",
    )
    .unwrap();
    let out = dir.path().join("verify.book");
    let (code, stdout, stderr) = chuhan(&[
        "build",
        src.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--verify-depth",
        "6",
        "--verify-limit",
        "300",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("line 2: A10 飞相局"), "{stdout}");
    assert!(!stdout.contains("line 1:"), "{stdout}");
    assert!(stdout.contains("1 of 2 lines beyond 300"), "{stdout}");
}
