//! Evaluation, SEE and fixed-depth search benchmarks. The search benchmark
//! asserts its node count, so a fast-but-different search fails.
use std::sync::Arc;

use criterion::{black_box, criterion_group, criterion_main, Criterion};

use chuhan::bench::BENCH_FENS;
use chuhan::eval::evaluate;
use chuhan::position::Position;
use chuhan::search::see::see;
use chuhan::search::{Engine, NullReporter, SearchSignals};
use chuhan::time::SearchLimits;

fn benches(c: &mut Criterion) {
    let positions: Vec<Position> = BENCH_FENS.iter().map(|f| Position::from_fen(f).unwrap()).collect();
    c.bench_function("evaluate_bench_positions", |b| {
        b.iter(|| positions.iter().map(|p| evaluate(black_box(p)).0 as i64).sum::<i64>())
    });
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
    // Pinned: the same as line 11 of `chuhan bench 8` (update both together).
    let expected = 8555;
    c.bench_function("search_depth8_midgame", |b| {
        b.iter(|| {
            engine.new_game();
            let r = engine.search(
                mid,
                &SearchLimits::depth(8),
                None,
                Arc::new(SearchSignals::default()),
                &mut NullReporter,
            );
            assert_eq!(r.nodes, expected);
            r.nodes
        })
    });
}

criterion_group! {
    name = group;
    config = Criterion::default().sample_size(10);
    targets = benches
}
criterion_main!(group);
