//! Opening book: building from text, the binary format and its corruption
//! checks, mirrored look-up, the probe (legality, exclusion, repetition guard,
//! randomness), the embedded book, and the opening suite file.

mod common;

use std::collections::{HashMap, HashSet};

use chuhan::book::suite;
use chuhan::book::text::parse_lines;
use chuhan::book::{
    mirror_key, BookError, BuildError, OpeningBook, ProbeOptions, Randomness, HEADER_LEN, MAX_FILE_LEN, MAX_RECORDS,
    RECORD_LEN,
};
use chuhan::files::FileError;
use chuhan::moves::Move;
use chuhan::position::zobrist::KEY_VERSION;
use chuhan::position::Position;
use common::scratch_dir;

const OPENINGS: &str = include_str!("../book/openings.txt");
const BOOK_BYTES: &[u8] = include_bytes!("../book/chuhan.book");
const SUITE: &str = include_str!("../book/suite.epd");

fn play(moves: &str) -> Position {
    let mut pos = Position::startpos();
    for t in moves.split_whitespace() {
        let m = pos.parse_move(t).unwrap_or_else(|e| panic!("{t}: {e}"));
        pos.make_move(m);
    }
    pos
}

fn mv(t: &str) -> Move {
    Move::from_iccs(t).unwrap()
}

fn no_exclusion(_: Move) -> bool {
    false
}

const SMALL: &str = "\
# two lines that transpose, one that does not
h2e2 h9g7 h0g2 b9c7 i0h0 | 10 | C00 | 中炮对屏风马
h2e2 b9c7 h0g2 h9g7 i0h0 | 3 | C00 | 中炮对屏风马
h0g2 h7e7 | 3 | A40 | 起马
h2e2 h7e7 | 2 | D00 | 顺炮
";

#[test]
fn build_from_small_text_merges_transpositions() {
    let (book, stats) = OpeningBook::build(SMALL).unwrap();
    assert_eq!(stats.lines, 4);
    assert_eq!(stats.plies, 14);
    let start = Position::startpos();
    // h2e2 and h0g2 from the (symmetric) start: stored once each with their mirrors.
    let moves = book.moves(&start);
    let get = |ms: &[(Move, u16)], t: &str| ms.iter().find(|(m, _)| *m == mv(t)).map(|&(_, w)| w);
    assert_eq!(get(&moves, "h2e2"), Some(8), "15 (10 + 3 + 2) split over h2e2 and b2e2, rounded up");
    assert_eq!(get(&moves, "b2e2"), Some(8));
    assert_eq!(get(&moves, "h0g2"), Some(2), "3 split: ceil(3/2)");
    assert_eq!(get(&moves, "b0c2"), Some(2));
    assert_eq!(moves.len(), 4);
    // Both move orders reach the same position after 4 plies: one record, weights added.
    let a = play("h2e2 h9g7 h0g2 b9c7");
    let b = play("h2e2 b9c7 h0g2 h9g7");
    assert_eq!(a.key(), b.key());
    assert_eq!(book.moves(&a), vec![(mv("i0h0"), 13)]);
    assert_eq!(book.moves(&b), vec![(mv("i0h0"), 13)]);
    // After h2e2 Black has three book replies, heaviest first.
    let after = book.moves(&play("h2e2"));
    assert_eq!(after, vec![(mv("h9g7"), 10), (mv("b9c7"), 3), (mv("h7e7"), 2)]);
    // Round trip through the binary format.
    let bytes = book.to_bytes();
    assert_eq!(bytes.len(), HEADER_LEN + book.len() * RECORD_LEN);
    assert_eq!(OpeningBook::from_bytes(&bytes).unwrap(), book);
}

#[test]
fn build_rejects_illegal_lines() {
    let text = "h2e2 h9g7 | 1 | C00 | ok\nh2e2 h9g7 h0g2 h9h8 | 1 | C00 | bad";
    match OpeningBook::build(text) {
        Err(BuildError::Move { line: 2, ply: 4, .. }) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn mirrored_lookup() {
    let (book, _) = OpeningBook::build("h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 | 5 | C00 | 中炮对屏风马").unwrap();
    // Only one orientation is stored per position...
    let keys: HashSet<u64> = book.entries().iter().map(|e| e.key).collect();
    assert_eq!(keys.len(), 6);
    // ...and the mirror image finds the mirrored moves.
    let pos = play("h2e2 h9g7 h0g2");
    let mirrored = play("b2e2 b9c7 b0c2");
    assert_eq!(mirror_key(&pos), mirrored.key().0);
    assert_eq!(book.moves(&pos), vec![(mv("i9h9"), 5)]);
    assert_eq!(book.moves(&mirrored), vec![(mv("a9b9"), 5)]);
    let deep = play("b2e2 b9c7 b0c2 a9b9 a0b0");
    assert_eq!(book.moves(&deep), vec![(mv("h9g7"), 5)]);
    let opts = ProbeOptions { randomness: Randomness::None, seed: 0 };
    let bm = book.probe(&mirrored, opts, &no_exclusion).unwrap();
    assert_eq!((bm.mv, bm.weight, bm.ponder), (mv("a9b9"), 5, Some(mv("a0b0"))));
    // A position off the book.
    assert!(book.probe(&play("c3c4"), opts, &no_exclusion).is_none());
}

#[test]
fn probe_excludes_and_never_repeats() {
    let (book, _) = OpeningBook::build(SMALL).unwrap();
    let start = Position::startpos();
    let opts = ProbeOptions { randomness: Randomness::None, seed: 1 };
    let best = book.probe(&start, opts, &no_exclusion).unwrap();
    assert!(best.mv == mv("h2e2") || best.mv == mv("b2e2"));
    assert_eq!(best.weight, 8);
    let only_horse = |m: Move| m != mv("h0g2");
    assert_eq!(book.probe(&start, opts, &only_horse).unwrap().mv, mv("h0g2"));
    assert!(book.probe(&start, opts, &|_| true).is_none());

    // The only book move would bring back the start position: skipped.
    let (book, _) = OpeningBook::build("h0g2 h9g7 g2h0 g7h9 h0g2 | 1 | A40 | 往返").unwrap();
    let pos = play("h0g2 h9g7 g2h0");
    assert_eq!(book.moves(&pos), vec![(mv("g7h9"), 1)]);
    assert!(book.probe(&pos, opts, &no_exclusion).is_none());
    // The same position reached without that history is playable.
    let fresh = Position::from_fen(&pos.to_fen()).unwrap();
    assert_eq!(book.probe(&fresh, opts, &no_exclusion).map(|b| b.mv), Some(mv("g7h9")));
}

#[test]
fn randomness_varies_with_seed_and_level() {
    let book = OpeningBook::embedded().unwrap();
    let start = Position::startpos();
    let pick = |r: Randomness, seed: u64| book.probe(&start, ProbeOptions { randomness: r, seed }, &no_exclusion);
    let top = book.moves(&start)[0].0;
    for seed in 0..20 {
        assert_eq!(pick(Randomness::None, seed).unwrap().mv, top);
    }
    let medium: HashSet<Move> = (0..200).map(|s| pick(Randomness::Medium, s).unwrap().mv).collect();
    assert!(medium.len() >= 4, "{medium:?}");
    assert_eq!(pick(Randomness::Medium, 7), pick(Randomness::Medium, 7), "same seed, same choice");
    let huge: HashSet<Move> = (0..400).map(|s| pick(Randomness::Huge, s).unwrap().mv).collect();
    assert!(huge.len() > medium.len() || huge.len() == book.moves(&start).len());
}

/// The embedded book is decoded once: every call shares the same records.
#[test]
fn embedded_book_is_decoded_once() {
    let (a, b) = (OpeningBook::embedded().unwrap(), OpeningBook::embedded().unwrap());
    assert!(!a.is_empty());
    assert!(std::ptr::eq(a.entries().as_ptr(), b.entries().as_ptr()));
    assert_eq!(a, OpeningBook::from_bytes(BOOK_BYTES).unwrap());
}

/// The weighted draw follows the weights: over many seeds, each start-position
/// move is chosen about as often as its share of the (scaled) weights says.
#[test]
fn weighted_choice_follows_the_weights() {
    let book = OpeningBook::embedded().unwrap();
    let start = Position::startpos();
    let moves = book.moves(&start);
    assert!(moves.len() >= 4);
    let n = 4000;
    for (r, exponent) in [(Randomness::Medium, 1.0), (Randomness::Large, 0.5), (Randomness::Huge, 0.0)] {
        let mut counts: HashMap<Move, u32> = HashMap::new();
        for seed in 0..n {
            let bm = book.probe(&start, ProbeOptions { randomness: r, seed }, &no_exclusion).unwrap();
            *counts.entry(bm.mv).or_insert(0) += 1;
        }
        let total: f64 = moves.iter().map(|&(_, w)| (w as f64).powf(exponent)).sum();
        for &(m, w) in &moves {
            let expected = (w as f64).powf(exponent) / total;
            let seen = *counts.get(&m).unwrap_or(&0) as f64 / n as f64;
            // More than 4 standard deviations of a share drawn 4000 times.
            assert!((seen - expected).abs() < 0.035, "{r:?}: {m} chosen {seen:.3}, weight share {expected:.3}");
        }
    }
}

fn corrupt(f: impl FnOnce(&mut Vec<u8>)) -> BookError {
    let mut b = BOOK_BYTES.to_vec();
    f(&mut b);
    OpeningBook::from_bytes(&b).unwrap_err()
}

/// Rewrites the checksum so that only the intended defect remains.
fn fix_checksum(b: &mut [u8]) {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &x in &b[HEADER_LEN..] {
        h ^= x as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    b[24..32].copy_from_slice(&h.to_le_bytes());
}

#[test]
fn corrupt_files_are_rejected() {
    assert!(OpeningBook::from_bytes(BOOK_BYTES).is_ok());
    assert_eq!(OpeningBook::from_bytes(&[]), Err(BookError::Truncated { len: 0 }));
    assert_eq!(OpeningBook::from_bytes(&BOOK_BYTES[..20]), Err(BookError::Truncated { len: 20 }));
    assert_eq!(corrupt(|b| b[0] = b'X'), BookError::BadMagic);
    assert_eq!(corrupt(|b| b[8] = 9), BookError::UnsupportedFormat { found: 9 });
    assert_eq!(
        corrupt(|b| b[12] = KEY_VERSION as u8 + 1),
        BookError::KeyVersionMismatch { found: KEY_VERSION + 1, expected: KEY_VERSION }
    );
    assert!(matches!(corrupt(|b| b.truncate(b.len() - 5)), BookError::LengthMismatch { .. }));
    assert!(matches!(corrupt(|b| b.push(0)), BookError::LengthMismatch { .. }));
    assert!(matches!(corrupt(|b| b[HEADER_LEN + 3] ^= 0x40), BookError::ChecksumMismatch { .. }));
    // Swap the first two records: valid checksum, wrong order.
    let e = corrupt(|b| {
        let (r0, r1) = (HEADER_LEN, HEADER_LEN + RECORD_LEN);
        let first: Vec<u8> = b[r0..r1].to_vec();
        b.copy_within(r1..r1 + RECORD_LEN, r0);
        b[r1..r1 + RECORD_LEN].copy_from_slice(&first);
        fix_checksum(b);
    });
    assert_eq!(e, BookError::Unsorted { index: 1 });
    // A move code pointing off the board, and a zero weight.
    let e = corrupt(|b| {
        b[HEADER_LEN + 8..HEADER_LEN + 10].copy_from_slice(&0x3FFFu16.to_le_bytes());
        fix_checksum(b);
    });
    assert_eq!(e, BookError::BadRecord { index: 0 });
    let e = corrupt(|b| {
        b[HEADER_LEN + 10..HEADER_LEN + 12].copy_from_slice(&0u16.to_le_bytes());
        fix_checksum(b);
    });
    assert_eq!(e, BookError::BadRecord { index: 0 });
    // Every truncation of the real file is rejected, none panics.
    for len in 0..BOOK_BYTES.len().min(400) {
        assert!(OpeningBook::from_bytes(&BOOK_BYTES[..len]).is_err(), "{len}");
    }
    // Missing file: an I/O error naming the path; the messages are readable.
    let e = OpeningBook::load(std::path::Path::new("/nonexistent/chuhan.book")).unwrap_err();
    assert!(matches!(e, BookError::File(FileError::Io { .. })), "{e:?}");
    assert!(e.to_string().contains("/nonexistent/chuhan.book"), "{e}");
    assert!(BookError::BadMagic.to_string().contains("not a Chuhan book"));
}

#[test]
fn load_and_merge_files() {
    let tmp = scratch_dir("book-test");
    let dir = tmp.path();
    let (a, _) = OpeningBook::build("h2e2 h9g7 | 4 | C00 | a").unwrap();
    let (b, _) = OpeningBook::build("h2e2 h9g7 | 6 | C00 | b\nc3c4 g6g5 | 2 | E40 | c").unwrap();
    let (pa, pb) = (dir.join("a.book"), dir.join("b.book"));
    std::fs::write(&pa, a.to_bytes()).unwrap();
    std::fs::write(&pb, b.to_bytes()).unwrap();
    assert_eq!(OpeningBook::load(&pa).unwrap(), a);
    let both = OpeningBook::load_all(&[&pa, &pb]).unwrap();
    assert_eq!(both.moves(&play("h2e2")), vec![(mv("h9g7"), 10)]);
    assert_eq!(both.moves(&play("c3c4")), vec![(mv("g6g5"), 2)]);
}

#[test]
fn embedded_book_is_built_from_openings_txt() {
    let (book, stats) = OpeningBook::build(OPENINGS).unwrap();
    assert_eq!(book.to_bytes(), BOOK_BYTES, "book/chuhan.book is stale: run `chuhan book build`");
    assert_eq!(OpeningBook::embedded().unwrap(), book);
    assert!(stats.lines >= 300, "{} lines", stats.lines);
}

#[test]
fn openings_cover_every_ecco_group_and_depth() {
    let lines = parse_lines(OPENINGS).unwrap();
    for group in ['A', 'B', 'C', 'D', 'E'] {
        let n = lines.iter().filter(|l| l.ecco.starts_with(group)).count();
        assert!(n >= 20, "group {group}: {n} lines");
    }
    for l in &lines {
        assert!((8..=16).contains(&l.moves.len()), "line {}: {} plies", l.line, l.moves.len());
        assert!(!l.name.is_empty());
    }
}

#[test]
fn embedded_start_moves_include_the_main_openings() {
    let book = OpeningBook::embedded().unwrap();
    let moves: Vec<Move> = book.moves(&Position::startpos()).iter().map(|&(m, _)| m).collect();
    for t in ["h2e2", "b2e2", "c3c4", "g3g4", "c0e2", "g0e2", "b0c2", "h0g2"] {
        assert!(moves.contains(&mv(t)), "{t} missing from {moves:?}");
    }
}

#[test]
fn probe_returns_a_legal_book_move_on_every_book_position() {
    let book = OpeningBook::embedded().unwrap();
    let lines = parse_lines(OPENINGS).unwrap();
    let opts = ProbeOptions { randomness: Randomness::Medium, seed: 0x1234 };
    let mut probed = 0;
    for l in &lines {
        let mut pos = Position::startpos();
        for (ply, &m) in l.moves.iter().enumerate() {
            let listed = book.moves(&pos);
            assert!(listed.iter().any(|&(x, _)| x == m), "line {} ply {}: {m} not offered", l.line, ply + 1);
            let bm = book
                .probe(&pos, ProbeOptions { seed: opts.seed ^ ply as u64, ..opts }, &no_exclusion)
                .unwrap_or_else(|| panic!("line {} ply {}: no book move", l.line, ply + 1));
            assert!(pos.is_legal(bm.mv));
            assert!(listed.iter().any(|&(x, w)| x == bm.mv && w == bm.weight));
            if let Some(p) = bm.ponder {
                let mut child = pos.clone();
                child.make_move(bm.mv);
                assert!(child.is_legal(p), "ponder {p} illegal after {}", bm.mv);
            }
            probed += 1;
            pos.make_move(m);
        }
    }
    assert!(probed > 3000);
}

#[test]
fn suite_parses_and_every_position_is_legal_and_distinct() {
    let entries = suite::parse(SUITE).unwrap();
    assert!(entries.len() >= 500, "{} positions", entries.len());
    let mut keys = HashSet::new();
    for (pos, e) in &entries {
        assert!((suite::MIN_PLY..=suite::MAX_PLY).contains(&e.ply), "{}: ply {}", e.fen, e.ply);
        let b = e.ecco.as_bytes();
        assert!(b.len() == 3 && (b'A'..=b'E').contains(&b[0]), "{}", e.ecco);
        assert!(!pos.legal_moves().is_empty());
        assert!(keys.insert(pos.key().0.min(mirror_key(pos))), "duplicate {}", e.fen);
        if let Some(s) = e.score {
            assert!(s.abs() <= suite::BALANCE_LIMIT);
        }
    }
    // The match runner reads the same file.
    let openings = chuhan::tools::opening::parse_epd(SUITE, "book/suite.epd").unwrap();
    assert_eq!(openings.len(), entries.len());
    // The first positions span the ECCO groups.
    let first: HashSet<char> = entries.iter().take(30).map(|(_, e)| e.ecco.as_bytes()[0] as char).collect();
    assert_eq!(first.len(), 5, "{first:?}");
    // The suite is what the generator makes from the book lines (when unscored).
    if entries.iter().all(|(_, e)| e.score.is_none()) {
        let cands = suite::interleave(suite::candidates(&parse_lines(OPENINGS).unwrap()));
        assert_eq!(cands.len(), entries.len());
        assert!(cands.iter().zip(&entries).all(|(c, (_, e))| c.fen == e.fen && c.ecco == e.ecco));
    }
}

#[test]
fn book_paths_that_are_not_books_fail_fast_with_a_reason() {
    let start = std::time::Instant::now();
    let tmp = scratch_dir("book-paths");
    let dir = tmp.path().to_path_buf();
    // A device that never ends.
    let e = OpeningBook::load(std::path::Path::new("/dev/zero")).unwrap_err();
    assert!(matches!(e, BookError::File(FileError::NotRegular { kind: "a character device", .. })), "{e:?}");
    assert_eq!(e.to_string(), "/dev/zero is not a regular file (it is a character device)");
    // A FIFO nobody writes to.
    let fifo = dir.join("fifo.book");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let e = OpeningBook::load(&fifo).unwrap_err();
    assert!(matches!(e, BookError::File(FileError::NotRegular { kind: "a FIFO", .. })), "{e:?}");
    // A directory.
    let e = OpeningBook::load(&dir).unwrap_err();
    assert!(e.to_string().ends_with("is not a regular file (it is a directory)"), "{e}");
    // A (sparse) file one byte larger than the largest valid book.
    let big = dir.join("big.book");
    std::fs::File::create(&big).unwrap().set_len(MAX_FILE_LEN + 1).unwrap();
    let e = OpeningBook::load(&big).unwrap_err();
    assert_eq!(e, BookError::File(FileError::TooLarge { path: big.display().to_string(), limit: MAX_FILE_LEN }));
    assert!(e.to_string().contains(&format!("is larger than {MAX_FILE_LEN} bytes")), "{e}");
    // In a list, the first bad file stops the load with its reason.
    let good = dir.join("good.book");
    std::fs::write(&good, BOOK_BYTES).unwrap();
    assert!(OpeningBook::load_all(&[&good]).is_ok());
    assert!(matches!(OpeningBook::load_all(&[&good, &fifo]), Err(BookError::File(FileError::NotRegular { .. }))));
    assert!(start.elapsed() < std::time::Duration::from_secs(5), "{:?}", start.elapsed());
}

#[test]
fn truncated_book_files_say_how_much_is_left() {
    let tmp = scratch_dir("book-truncated");
    let dir = tmp.path().to_path_buf();
    let records = (BOOK_BYTES.len() - HEADER_LEN) / RECORD_LEN;
    // Cut in the middle of the last record, and after a whole record.
    let cut = dir.join("cut.book");
    std::fs::write(&cut, &BOOK_BYTES[..BOOK_BYTES.len() - 5]).unwrap();
    let e = OpeningBook::load(&cut).unwrap_err();
    assert!(matches!(e, BookError::LengthMismatch { .. }), "{e:?}");
    let text = e.to_string();
    assert!(text.starts_with("book file truncated: "), "{text}");
    assert!(text.contains(&format!("({} whole records and a partial one)", records - 1)), "{text}");
    std::fs::write(&cut, &BOOK_BYTES[..BOOK_BYTES.len() - RECORD_LEN]).unwrap();
    let text = OpeningBook::load(&cut).unwrap_err().to_string();
    assert!(text.contains(&format!("({} whole records)", records - 1)), "{text}");
    // Padding is named as such.
    let mut padded = BOOK_BYTES.to_vec();
    padded.push(0);
    std::fs::write(&cut, &padded).unwrap();
    assert!(OpeningBook::load(&cut).unwrap_err().to_string().starts_with("book file padded: "));
    // A header announcing more records than the format allows is refused
    // before its length is even compared.
    let e = corrupt(|b| b[16..20].copy_from_slice(&(MAX_RECORDS + 1).to_le_bytes()));
    assert_eq!(e, BookError::TooManyRecords { records: MAX_RECORDS + 1 });
}
