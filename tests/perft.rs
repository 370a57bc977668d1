//! Data-driven perft: every position of `tests/data/perft.epd` (published,
//! independently verified counts) and `tests/data/perft_rules.epd` (one case per
//! move rule) at every depth whose count stays under a node budget; the deep
//! counts run with `cargo test --release -- --ignored`.

use chuhan::fen::Setup;
use chuhan::perft::{divide, perft, perft_parallel};
use chuhan::position::Position;

/// Depths with more leaves than this are left to the ignored test.
const FAST_LIMIT: u64 = 12_000_000;

struct Case {
    fen: String,
    counts: Vec<(u32, u64)>,
    line: usize,
}

fn load(text: &str) -> Vec<Case> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim().to_string();
        let counts = parts
            .map(|p| {
                let mut it = p.split_whitespace();
                let d = it.next().unwrap().trim_start_matches('D').parse().unwrap();
                let n = it.next().unwrap().parse().unwrap();
                (d, n)
            })
            .collect();
        out.push(Case { fen, counts, line: i + 1 });
    }
    out
}

fn position(fen: &str) -> Position {
    // Some published positions have advisors on points no game reaches.
    let setup = Setup::parse(fen).unwrap();
    Position::from_setup(&setup).or_else(|_| Position::from_setup_relaxed(&setup)).unwrap()
}

fn run(text: &str, fast: bool) -> usize {
    let mut checked = 0;
    for case in load(text) {
        let pos = position(&case.fen);
        for &(depth, expected) in &case.counts {
            let is_fast = expected <= FAST_LIMIT;
            if is_fast != fast || (!fast && expected > 20_000_000_000) {
                continue;
            }
            let got = if fast { perft(&mut pos.clone(), depth) } else { perft_parallel(&pos, depth, 2) };
            assert_eq!(got, expected, "line {}: {} depth {depth}", case.line, case.fen);
            checked += 1;
        }
        assert_eq!(pos.to_fen(), position(&case.fen).to_fen());
    }
    checked
}

#[test]
fn published_counts() {
    let n = run(include_str!("data/perft.epd"), true);
    assert!(n >= 60, "only {n} counts checked");
}

#[test]
fn named_rule_cases() {
    let n = run(include_str!("data/perft_rules.epd"), true);
    assert_eq!(n, 33);
}

#[test]
#[ignore = "deep counts: minutes"]
fn published_counts_deep() {
    run(include_str!("data/perft.epd"), false);
}

#[test]
fn divide_sums_to_perft_and_threads_agree() {
    let pos = Position::startpos();
    let d = divide(&pos, 3, 1);
    assert_eq!(d.len(), 44);
    assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), 79_666);
    assert_eq!(divide(&pos, 3, 2), d);
    assert_eq!(perft_parallel(&pos, 4, 2), 3_290_240);
}

#[test]
fn strict_validation_rejects_the_off_point_advisor() {
    // The HORSE_CHECK case puts an advisor on d1, which docs/rules.md forbids.
    assert!(Position::from_fen("4k4/9/9/9/9/9/9/4n4/3A5/3K5 w - - 0 1").is_err());
}
