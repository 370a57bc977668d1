//! Cost of the search-facing repetition test (`RepetitionDetector`) per node,
//! and of a full span verdict.
//!
//! `tree_plain` walks a fixed tree with make/unmake only; `tree_detector` walks
//! the same tree keeping the counting filter and probing at every non-root
//! node. (tree_detector - tree_plain) / nodes is the per-node cost. Both
//! assert their node counts (and the detector its verdict count), so a fast
//! but wrong change fails.
use criterion::{black_box, criterion_group, criterion_main, Criterion};

use chuhan::position::Position;
use chuhan::rules::repetition::{judge_span, threefold_span_start};
use chuhan::rules::{play_moves, RepetitionDetector, RuleSet};

const MIDGAME: &str = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";
/// An endgame with few pieces, where depth-4 trees return to the root often.
const ENDGAME: &str = "4k4/9/n8/9/9/9/1R7/9/9/3K5 w - - 0 1";
const T14: &str = "3k5/9/c8/8R/9/9/9/9/9/5K3 w - - 0 1";
const T14_MOVES: &str = "i6i9 d9d8 i9i7 a7a6 i7i8 d8d9 i8i6 a6a7 i6i9 d9d8 i9i7 a7a6 i7i8 d8d9 i8i6 a6a7 i6i9";

fn walk_plain(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 1;
    for m in pos.legal_moves() {
        pos.make_move(m);
        n += walk_plain(pos, depth - 1);
        pos.unmake_move();
    }
    n
}

fn walk_detector(pos: &mut Position, det: &mut RepetitionDetector, depth: u32, root: usize) -> (u64, u64) {
    if pos.game_ply() > root && det.probe(pos, root).is_some() {
        return (1, 1);
    }
    if depth == 0 {
        return (1, 0);
    }
    let (mut n, mut v) = (1, 0);
    for m in pos.legal_moves() {
        pos.make_move(m);
        det.push(pos.key());
        let (a, b) = walk_detector(pos, det, depth - 1, root);
        det.pop(pos.key());
        pos.unmake_move();
        n += a;
        v += b;
    }
    (n, v)
}

/// A position with a history of at least 100 plies and at least 25 legal moves.
fn long_history() -> Position {
    let mut pos = Position::from_fen(MIDGAME).unwrap();
    let mut k = 0u64;
    while pos.game_ply() < 100 || pos.legal_moves().len() < 25 {
        let moves = pos.legal_moves();
        k = k.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let m = moves[(k >> 33) as usize % moves.len()];
        pos.make_move(m);
    }
    pos
}

fn benches(c: &mut Criterion) {
    for (name, fen, depth, expected) in [("midgame", MIDGAME, 3, (45_096, 0)), ("endgame", ENDGAME, 4, (11_618, 90))] {
        let pos = Position::from_fen(fen).unwrap();
        let plain = walk_plain(&mut pos.clone(), depth);
        let mut det = RepetitionDetector::new(RuleSet::Asian);
        det.reset(&pos);
        let (dn, dv) = walk_detector(&mut pos.clone(), &mut det, depth, 0);
        eprintln!("{name}: depth {depth}: {plain} nodes plain, {dn} nodes with detector, {dv} verdicts");
        assert_eq!((plain, dv), expected);
        assert_eq!(dn, plain);
        c.bench_function(&format!("tree_plain_{name}"), |b| {
            b.iter(|| {
                let n = walk_plain(&mut pos.clone(), depth);
                assert_eq!(n, plain);
                n
            })
        });
        c.bench_function(&format!("tree_detector_{name}"), |b| {
            b.iter(|| {
                let mut det = RepetitionDetector::new(RuleSet::Asian);
                det.reset(&pos);
                let r = walk_detector(&mut pos.clone(), &mut det, depth, 0);
                assert_eq!(r, (dn, dv));
                r
            })
        });
    }
    let hist = long_history();
    let mut det = RepetitionDetector::new(RuleSet::Asian);
    det.reset(&hist);
    c.bench_function("probe_long_history", |b| b.iter(|| det.probe(black_box(&hist), 90)));
    // The whole per-node overhead in a search: make + push, probe, pop + unmake,
    // against make + unmake alone, over every legal move of the long-history position.
    let moves = hist.legal_moves();
    let mut p = hist.clone();
    c.bench_function("make_unmake_all", |b| {
        b.iter(|| {
            for &m in &moves {
                p.make_move(m);
                black_box(p.key());
                p.unmake_move();
            }
        })
    });
    c.bench_function("make_push_probe_pop_unmake_all", |b| {
        b.iter(|| {
            let mut n = 0;
            for &m in &moves {
                p.make_move(m);
                det.push(p.key());
                n += det.probe(&p, 90).is_some() as u32;
                det.pop(p.key());
                p.unmake_move();
            }
            n
        })
    });
    let verdicts = moves
        .iter()
        .filter(|&&m| {
            p.make_move(m);
            det.push(p.key());
            let v = det.probe(&p, 90).is_some();
            det.pop(p.key());
            p.unmake_move();
            v
        })
        .count();
    eprintln!("{} moves per iteration in the two benches above, {verdicts} with a verdict", moves.len());
    let t14 = play_moves(T14, false, T14_MOVES.split_whitespace()).unwrap();
    let start = threefold_span_start(&t14).unwrap();
    for rules in [RuleSet::Asian, RuleSet::Chinese] {
        c.bench_function(&format!("judge_span_t14_{rules}"), |b| b.iter(|| judge_span(black_box(&t14), start, rules)));
    }
}

criterion_group! {
    name = group;
    config = Criterion::default().sample_size(10).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(2));
    targets = benches
}
criterion_main!(group);
