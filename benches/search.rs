//! SEE and fixed-depth search benchmarks (the evaluation has its own,
//! `benches/eval.rs`). The search benchmark
//! prints its node count (compare timings only between builds that agree)
//! and asserts that every timed run repeats it.
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};

use chuhan::fen::BENCH_FENS;
use chuhan::position::Position;
use chuhan::search::see::see;
use chuhan::search::{Engine, NullReporter, SearchSignals};
use chuhan::time::SearchLimits;

fn benches(c: &mut Criterion) {
    let positions: Vec<Position> = BENCH_FENS.iter().map(|f| Position::from_fen(f).unwrap()).collect();
    c.bench_function("see_all_captures_bench_positions", |b| {
        b.iter(|| {
            let mut s = 0i64;
            for p in &positions {
                for &m in &p.legal_moves() {
                    if p.piece_at(m.to()).is_some() {
                        s += see(p, m) as i64;
                    }
                }
            }
            s
        })
    });
    let mid = &positions[10];
    let mut engine = Engine::new(16, 1);
    // Clearing the 16 MB table for a new game takes longer than this search:
    // only the search is timed.
    let search = |engine: &mut Engine| {
        engine.new_game();
        let start = Instant::now();
        let r =
            engine.search(mid, &SearchLimits::depth(8), None, Arc::new(SearchSignals::default()), &mut NullReporter);
        (r.nodes, start.elapsed())
    };
    // The node count is line 11 of `chuhan bench 16 1 8`; it is printed so that
    // timings of two builds are compared only when they searched the same
    // tree, and every timed run must repeat it.
    let (expected, _) = search(&mut engine);
    eprintln!("search_depth8_midgame: {expected} nodes");
    c.bench_function("search_depth8_midgame", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let (nodes, time) = search(&mut engine);
                assert_eq!(nodes, expected);
                total += time;
            }
            total
        })
    });
}

criterion_group! {
    name = group;
    config = Criterion::default().sample_size(10);
    targets = benches
}
criterion_main!(group);
