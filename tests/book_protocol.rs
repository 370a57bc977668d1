//! The opening book through the protocol, against the
//! real binary: book moves on timed `go`, `usebook`/`OwnBook` off, `bookfiles`
//! / `BookFile` with missing, corrupt, truncated and custom files (probed in
//! order), `randomness`, banmoves and repetitions excluding book moves.

mod common;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use chuhan::book::{canonical, BookEntry, OpeningBook};
use chuhan::position::Position;
use common::*;

/// The openings the embedded book must offer at the start.
/// The embedded book's moves in the start position (the choice among them is random).
fn start_book_moves() -> Vec<String> {
    let book = OpeningBook::embedded().unwrap();
    let moves: Vec<String> = book.moves(&Position::startpos()).iter().map(|(m, _)| m.to_string()).collect();
    assert!(MAIN_OPENINGS.iter().all(|m| moves.iter().any(|b| b == m)), "{moves:?}");
    moves
}

const MAIN_OPENINGS: &[&str] = &["h2e2", "b2e2", "c3c4", "g3g4", "c0e2", "g0e2", "b0c2", "h0g2"];

fn ucci() -> Engine {
    let mut e = Engine::start();
    e.send("ucci");
    let lines = e.expect_line("ucciok", SECS5);
    assert!(lines.iter().any(|l| l == "option usebook type check default true"), "{lines:?}");
    assert!(lines.iter().any(|l| l == "option bookfiles type string default"), "{lines:?}");
    assert!(
        lines.iter().any(|l| l
            == "option randomness type combo var medium var none var tiny var small var large \
                                   var huge default medium"),
        "{lines:?}"
    );
    e
}

fn uci() -> Engine {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.expect_line("uciok", SECS5);
    assert!(lines.iter().any(|l| l == "option name OwnBook type check default true"), "{lines:?}");
    assert!(lines.iter().any(|l| l == "option name BookFile type string default <empty>"), "{lines:?}");
    e
}

/// A book file holding one move from the start position: `e0e1`, a move the
/// embedded book never plays (so answers from this book are recognisable).
fn king_book(dir: &Path, name: &str) -> PathBuf {
    let pos = Position::startpos();
    let m = pos.parse_move("e0e1").unwrap();
    let (key, mv) = canonical(&pos, m);
    let book = OpeningBook::from_entries(vec![BookEntry { key, mv, weight: 7 }]);
    let path = dir.join(name);
    std::fs::write(&path, book.to_bytes()).expect("write book");
    path
}

/// Sends `go_line` and returns the lines up to `bestmove` and how long it took.
fn go(e: &mut Engine, pos: &Position, go_line: &str) -> (Vec<String>, Duration) {
    let t0 = Instant::now();
    e.send(go_line);
    let (lines, t) = e.expect_bestmove(SECS20);
    assert_legal_output(pos, &lines);
    (lines, t.duration_since(t0))
}

/// The book answer in `lines`: (move, score field, ponder), checking the
/// `info depth 0 ... pv <move>` line comes right before `bestmove <move>`.
fn book_answer(lines: &[String]) -> Option<(String, String, Option<String>)> {
    let n = lines.len();
    let best = lines.last()?;
    let mv = best_of(best)?;
    let info = lines.get(n.checked_sub(2)?)?;
    let w: Vec<&str> = info.split_whitespace().collect();
    if w.len() < 6 || w[0] != "info" || w[1] != "depth" || w[2] != "0" || w[3] != "score" {
        return None;
    }
    let pv = w.iter().position(|x| *x == "pv")?;
    assert_eq!(w[pv + 1..], [mv.as_str()], "book pv is the move played: {lines:?}");
    Some((mv, w[4..pv].join(" "), ponder_of(best)))
}

/// Whether the lines show a real search (an `info depth N` with N >= 1).
fn searched(lines: &[String]) -> bool {
    lines.iter().any(|l| {
        let w: Vec<&str> = l.split_whitespace().collect();
        w.len() > 2 && w[0] == "info" && w[1] == "depth" && w[2].parse::<u32>().is_ok_and(|d| d >= 1)
    })
}

#[test]
fn ucci_startpos_timed_go_plays_a_main_opening_from_the_book_at_once() {
    let book = OpeningBook::embedded().unwrap();
    let start = Position::startpos();
    let weights: Vec<(String, u16)> = book.moves(&start).iter().map(|&(m, w)| (m.to_string(), w)).collect();
    let mut e = ucci();
    for _ in 0..4 {
        e.send("setoption newgame");
        e.send("position startpos");
        let (lines, took) = go(&mut e, &start, "go time 60000");
        let (mv, score, ponder) = book_answer(&lines).unwrap_or_else(|| panic!("no book answer: {lines:?}"));
        assert!(!searched(&lines), "a book move is played without searching: {lines:?}");
        assert!(weights.iter().any(|(m, _)| *m == mv), "{mv} is not a book move");
        let weight = weights.iter().find(|(m, _)| *m == mv).map(|&(_, w)| w).unwrap();
        // The score is the static evaluation (GUIs show it as one); the weight
        // goes in an info string.
        let eval = chuhan::eval::evaluate(&start).0;
        assert_eq!(score, eval.to_string(), "UCCI reports the evaluation as the score");
        assert!(lines.iter().any(|l| *l == format!("info string book move {mv} weight {weight}")), "{lines:?}");
        // The ponder move is the book's favourite reply.
        let mut after = start.clone();
        after.make_move(start.parse_move(&mv).unwrap());
        let reply = book.moves(&after).first().map(|&(m, _)| m.to_string());
        assert_eq!(ponder, reply, "{lines:?}");
        assert!(took < Duration::from_secs(2), "book move took {took:?}");
    }
    // Deeper in a line, from the other side, and on a movetime go as well.
    let pos = position_after(None, &["h2e2"]);
    e.send("position startpos moves h2e2");
    let (lines, _) = go(&mut e, &pos, "go movetime 5000");
    let (mv, _, _) = book_answer(&lines).unwrap_or_else(|| panic!("no book answer: {lines:?}"));
    assert!(book.moves(&pos).iter().any(|&(m, _)| m.to_string() == mv), "{mv}");
}

#[test]
fn randomness_none_plays_the_heaviest_move_and_huge_varies() {
    let book = OpeningBook::embedded().unwrap();
    let start = Position::startpos();
    let top = book.moves(&start)[0].0.to_string();
    let mut e = ucci();
    e.send("setoption randomness none");
    e.expect_until(SECS5, "randomness note", |l| l.starts_with("info string randomness"));
    for _ in 0..3 {
        e.send("setoption newgame");
        e.send("position startpos");
        let (lines, _) = go(&mut e, &start, "go time 60000");
        assert_eq!(book_answer(&lines).map(|a| a.0), Some(top.clone()), "{lines:?}");
    }
    e.send("setoption randomness huge");
    e.expect_until(SECS5, "randomness note", |l| l.starts_with("info string randomness"));
    let mut seen = HashSet::new();
    for _ in 0..12 {
        e.send("setoption newgame");
        e.send("position startpos");
        let (lines, _) = go(&mut e, &start, "go time 60000");
        seen.insert(book_answer(&lines).unwrap_or_else(|| panic!("{lines:?}")).0);
    }
    // Uniform over at least 8 candidates: 12 equal draws would be a 1 in 8^11 event.
    assert!(seen.len() >= 2, "new games draw new seeds: {seen:?}");
}

#[test]
fn usebook_false_searches_and_analysis_goes_never_use_the_book() {
    let start = Position::startpos();
    let mut e = ucci();
    e.send("position startpos");
    for go_line in ["go depth 3", "go nodes 3000"] {
        let (lines, _) = go(&mut e, &start, go_line);
        assert!(searched(&lines) && book_answer(&lines).is_none(), "{go_line}: {lines:?}");
    }
    e.send("go infinite");
    e.expect_no_bestmove(Duration::from_millis(200));
    e.send("stop");
    let (lines, _) = e.expect_bestmove(SECS5);
    assert!(book_answer(&lines).is_none(), "{lines:?}");
    e.send("setoption usebook false");
    assert!(e.sync().is_empty(), "usebook is silent");
    let (lines, _) = go(&mut e, &start, "go time 2000");
    assert!(searched(&lines), "{lines:?}");
    assert!(book_answer(&lines).is_none(), "{lines:?}");
    e.send("setoption usebook true");
    let (lines, _) = go(&mut e, &start, "go time 60000");
    assert!(book_answer(&lines).is_some(), "{lines:?}");
}

#[test]
fn missing_corrupt_and_truncated_book_files_are_reported_and_skipped() {
    let dir = scratch_dir("book-protocol");
    let start = Position::startpos();
    let garbage = dir.path().join("garbage.book");
    std::fs::write(&garbage, b"this is not an opening book, just some text long enough for a header").unwrap();
    let truncated = dir.path().join("truncated.book");
    let full = OpeningBook::embedded().unwrap().to_bytes();
    std::fs::write(&truncated, &full[..full.len() - 5]).unwrap();
    let mut e = ucci();

    // Only a missing file: an error naming it, then the engine searches.
    e.send("setoption bookfiles /nonexistent/chuhan.book");
    let (lines, _) = e.expect_until(SECS5, "summary", |l| l.starts_with("info string bookfiles:"));
    assert!(
        lines[0].starts_with("info string error: book file '/nonexistent/chuhan.book' not used: cannot read book"),
        "{lines:?}"
    );
    assert!(lines.last().unwrap().contains("no book loaded"), "{lines:?}");
    e.send("position startpos");
    let (lines, _) = go(&mut e, &start, "go time 2000");
    assert!(searched(&lines) && book_answer(&lines).is_none(), "{lines:?}");

    // Bad files among good ones: each bad one named with its reason; the rest work.
    let value = format!("/nonexistent/x.book;{};{};embedded", garbage.display(), truncated.display());
    e.send(&format!("setoption bookfiles {value}"));
    let (lines, _) = e.expect_until(SECS5, "summary", |l| l.starts_with("info string bookfiles:"));
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(lines[0].contains("'/nonexistent/x.book' not used"), "{lines:?}");
    assert!(lines[1].contains(&format!("'{}' not used: not a Chuhan book", garbage.display())), "{lines:?}");
    assert!(lines[2].contains(&format!("'{}' not used: book file truncated", truncated.display())), "{lines:?}");
    assert!(lines.iter().take(3).all(|l| l.starts_with("info string error: ")), "{lines:?}");
    assert!(lines[3].contains("probing embedded ("), "{lines:?}");
    let (lines, _) = go(&mut e, &start, "go time 60000");
    let (mv, _, _) = book_answer(&lines).unwrap_or_else(|| panic!("{lines:?}"));
    assert!(start_book_moves().contains(&mv), "{mv} is not a book move");

    // A book whose header is intact but whose records were tampered with.
    let tampered = dir.path().join("tampered.book");
    let mut bytes = full.clone();
    let n = bytes.len();
    bytes[n - 3] ^= 0x55;
    std::fs::write(&tampered, &bytes).unwrap();
    e.send(&format!("setoption bookfiles {}", tampered.display()));
    let (lines, _) = e.expect_until(SECS5, "summary", |l| l.starts_with("info string bookfiles:"));
    assert!(lines[0].starts_with("info string error: book file") && lines[0].contains("corrupt"), "{lines:?}");
    let (lines, _) = go(&mut e, &start, "go time 2000");
    assert!(searched(&lines), "{lines:?}");

    // Back to the default (empty value: the embedded book).
    e.send("setoption bookfiles");
    e.expect_until(SECS5, "summary", |l| l.starts_with("info string bookfiles: probing embedded"));
    let (lines, _) = go(&mut e, &start, "go time 60000");
    assert!(book_answer(&lines).is_some(), "{lines:?}");
    e.send("quit");
    e.expect_line("bye", SECS5);
}

#[test]
fn devices_fifos_and_directories_as_book_paths_are_refused_at_once() {
    let dir = scratch_dir("book-protocol");
    let fifo = dir.path().join("never-written.fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let mut e = ucci();
    let start = Instant::now();
    e.send(&format!("setoption bookfiles /dev/zero;{};{};embedded", fifo.display(), dir.path().display()));
    e.send("isready");
    let lines = e.expect_line("readyok", SECS5);
    assert!(start.elapsed() < Duration::from_secs(2), "{:?}", start.elapsed());
    let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("info string error: book file")).collect();
    assert_eq!(errors.len(), 3, "{lines:?}");
    assert!(errors[0].ends_with("'/dev/zero' not used: /dev/zero is not a regular file (it is a character device)"));
    assert!(errors[1].ends_with("is not a regular file (it is a FIFO)"), "{lines:?}");
    assert!(errors[2].ends_with("is not a regular file (it is a directory)"), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("info string bookfiles: probing embedded")), "{lines:?}");
    e.send("quit");
    e.expect_line("bye", SECS5);
}

#[test]
fn books_are_probed_in_the_listed_order() {
    let start = Position::startpos();
    let dir = scratch_dir("book-protocol");
    let king = king_book(dir.path(), "king.book");
    let mut e = ucci();
    e.send(&format!("setoption bookfiles {};embedded", king.display()));
    e.expect_until(SECS5, "summary", |l| l.starts_with("info string bookfiles: probing"));
    e.send("position startpos");
    let (lines, _) = go(&mut e, &start, "go time 60000");
    assert_eq!(book_answer(&lines).map(|a| a.0), Some("e0e1".to_string()), "{lines:?}");
    assert!(lines.iter().any(|l| l == "info string book move e0e1 weight 7"), "{lines:?}");
    // After h2e2 only the embedded book (second in the list) knows the position.
    let pos = position_after(None, &["h2e2"]);
    e.send("position startpos moves h2e2");
    let (lines, _) = go(&mut e, &pos, "go time 60000");
    let (mv, _, _) = book_answer(&lines).unwrap_or_else(|| panic!("{lines:?}"));
    assert!(OpeningBook::embedded().unwrap().moves(&pos).iter().any(|&(m, _)| m.to_string() == mv));
    e.send(&format!("setoption bookfiles embedded;{}", king.display()));
    e.expect_until(SECS5, "summary", |l| l.starts_with("info string bookfiles: probing"));
    e.send("position startpos");
    let (lines, _) = go(&mut e, &start, "go time 60000");
    let (mv, _, _) = book_answer(&lines).unwrap_or_else(|| panic!("{lines:?}"));
    assert_ne!(mv, "e0e1", "the embedded book answers first now");
}

#[test]
fn banned_and_repeating_book_moves_fall_back_to_search() {
    let book = OpeningBook::embedded().unwrap();
    let start = Position::startpos();
    let all: Vec<String> = book.moves(&start).iter().map(|&(m, _)| m.to_string()).collect();
    assert!(all.len() >= MAIN_OPENINGS.len());
    let mut e = ucci();
    // Banning all but one book move: that one is played from the book.
    e.send("position startpos");
    e.send(&format!("banmoves {}", all[1..].join(" ")));
    let (lines, _) = go(&mut e, &start, "go time 60000");
    assert_eq!(book_answer(&lines).map(|a| a.0), Some(all[0].clone()), "{lines:?}");
    // Banning every book move: a search, and a move that is not banned.
    e.send("position startpos");
    e.send(&format!("banmoves {}", all.join(" ")));
    let (lines, _) = go(&mut e, &start, "go time 3000");
    assert!(searched(&lines) && book_answer(&lines).is_none(), "{lines:?}");
    let best = best_of(lines.last().unwrap()).unwrap();
    assert!(!all.contains(&best), "{best} is banned");

    // A book move that would recreate an earlier position is not played
    // from the book: e0e1 e9e8 e1e0 e8e9 returns to the start, where the
    // custom book's only move e0e1 would repeat the position after ply 1.
    let dir = scratch_dir("book-protocol");
    let king = king_book(dir.path(), "king-repeat.book");
    e.send(&format!("setoption bookfiles {}", king.display()));
    e.expect_until(SECS5, "summary", |l| l.starts_with("info string bookfiles: probing"));
    e.send("position startpos");
    let (lines, _) = go(&mut e, &start, "go time 60000");
    assert_eq!(book_answer(&lines).map(|a| a.0), Some("e0e1".to_string()), "{lines:?}");
    let moves = ["e0e1", "e9e8", "e1e0", "e8e9"];
    let pos = position_after(None, &moves);
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    let (lines, _) = go(&mut e, &pos, "go time 2000");
    assert!(searched(&lines) && book_answer(&lines).is_none(), "{lines:?}");
}

#[test]
fn uci_ownbook_and_bookfile() {
    let start = Position::startpos();
    let mut e = uci();
    e.send("position startpos");
    let (lines, took) = go(&mut e, &start, "go wtime 60000 btime 60000 winc 0 binc 0");
    let (mv, score, _) = book_answer(&lines).unwrap_or_else(|| panic!("{lines:?}"));
    assert!(start_book_moves().contains(&mv), "{mv} is not a book move");
    // UCI tools read `score cp` as an evaluation: it is the static
    // evaluation, and the weight goes in an info string.
    assert_eq!(score, format!("cp {}", chuhan::eval::evaluate(&start).0));
    assert!(lines.iter().any(|l| l.starts_with(&format!("info string book move {mv} weight "))), "{lines:?}");
    assert!(took < Duration::from_secs(2));

    e.send("setoption name BookFile value /nonexistent/a.book");
    let (lines, _) = e.expect_until(SECS5, "summary", |l| l.starts_with("info string bookfiles:"));
    assert!(lines[0].starts_with("info string error: book file '/nonexistent/a.book' not used"), "{lines:?}");
    let (lines, _) = go(&mut e, &start, "go movetime 300");
    assert!(searched(&lines) && book_answer(&lines).is_none(), "{lines:?}");

    let dir = scratch_dir("book-protocol");
    let king = king_book(dir.path(), "king-uci.book");
    e.send(&format!("setoption name BookFile value {}", king.display()));
    e.expect_until(SECS5, "summary", |l| l.starts_with("info string bookfiles: probing"));
    let (lines, _) = go(&mut e, &start, "go wtime 60000 btime 60000");
    assert_eq!(book_answer(&lines).map(|a| a.0), Some("e0e1".to_string()), "{lines:?}");

    e.send("setoption name OwnBook value false");
    assert!(e.sync().is_empty());
    let (lines, _) = go(&mut e, &start, "go wtime 2000 btime 2000");
    assert!(searched(&lines) && book_answer(&lines).is_none(), "{lines:?}");
    // Ponder goes search even with the book on.
    e.send("setoption name OwnBook value true");
    e.send("go ponder wtime 60000 btime 60000");
    e.expect_no_bestmove(Duration::from_millis(200));
    e.send("stop");
    let (lines, _) = e.expect_bestmove(SECS5);
    assert!(book_answer(&lines).is_none(), "{lines:?}");
}
