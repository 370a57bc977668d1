//! Mate puzzles (tests/data/mates.epd, from real games): for every mate in 1
//! and 2 the engine must report the mate score (UCI `mate N` = dm) and play a
//! move of the `bm` list (all first moves that mate in exactly N) within a
//! fixed depth. Deeper mates are checked under `--ignored`.

use std::sync::Arc;

use chuhan::position::Position;
use chuhan::search::{Engine, NullReporter, SearchSignals};
use chuhan::time::SearchLimits;

struct Puzzle {
    fen: String,
    bm: Vec<String>,
    dm: i32,
    id: String,
}

fn puzzles() -> Vec<Puzzle> {
    let text = include_str!("data/mates.epd");
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.splitn(5, ' ').collect();
        assert_eq!(fields.len(), 5, "{line}");
        let fen = format!("{} {} - - 0 1", fields[0], fields[1]);
        let mut bm = Vec::new();
        let mut dm = 0;
        let mut id = String::new();
        for op in fields[4].split(';') {
            let op = op.trim();
            if let Some(rest) = op.strip_prefix("bm ") {
                bm = rest.split_whitespace().map(str::to_string).collect();
            } else if let Some(rest) = op.strip_prefix("dm ") {
                dm = rest.trim().parse().unwrap();
            } else if let Some(rest) = op.strip_prefix("id ") {
                id = rest.trim_matches('"').to_string();
            }
        }
        assert!(dm > 0 && !bm.is_empty(), "{line}");
        out.push(Puzzle { fen, bm, dm, id });
    }
    out
}

/// Searches every puzzle with `min_dm <= dm <= max_dm` to `depth`; returns
/// the failures (wrong score or a move outside `bm`).
fn run(min_dm: i32, max_dm: i32, depth: u32) -> (usize, Vec<String>) {
    let mut engine = Engine::new(16, 1);
    let mut checked = 0;
    let mut failures = Vec::new();
    for p in puzzles().into_iter().filter(|p| (min_dm..=max_dm).contains(&p.dm)) {
        let pos = Position::from_fen(&p.fen).unwrap();
        engine.new_game();
        let r = engine.search(
            &pos,
            &SearchLimits::depth(depth),
            None,
            Arc::new(SearchSignals::default()),
            &mut NullReporter,
        );
        let best = r.best.map(|m| m.to_string()).unwrap_or_default();
        if r.score.mate_moves() != Some(p.dm) || !p.bm.contains(&best) {
            failures.push(format!(
                "{}: score {:?} best {best}, expected mate {} with one of {:?}",
                p.id, r.score, p.dm, p.bm
            ));
        }
        checked += 1;
    }
    (checked, failures)
}

#[test]
fn mates_in_one_and_two() {
    assert_eq!(puzzles().len(), 23);
    let (checked, failures) = run(1, 2, 6);
    assert_eq!(checked, 12);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
#[ignore]
fn mates_in_three_and_four() {
    let (checked, failures) = run(3, 4, 14);
    assert_eq!(checked, 11);
    assert!(failures.is_empty(), "{failures:#?}");
}
