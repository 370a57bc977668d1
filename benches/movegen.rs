//! Move generation, make/unmake and perft benchmarks.
use criterion::{black_box, criterion_group, criterion_main, Criterion};

use chuhan::perft::perft;
use chuhan::position::Position;

const MIDGAME: &str = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";

fn benches(c: &mut Criterion) {
    let start = Position::startpos();
    let mid = Position::from_fen(MIDGAME).unwrap();
    c.bench_function("perft4_startpos", |b| {
        b.iter(|| {
            let n = perft(&mut start.clone(), 4);
            assert_eq!(n, 3_290_240);
            n
        })
    });
    c.bench_function("movegen_startpos", |b| b.iter(|| black_box(&start).legal_moves().len()));
    c.bench_function("movegen_midgame", |b| b.iter(|| black_box(&mid).legal_moves().len()));
    c.bench_function("make_unmake_all_midgame", |b| {
        let moves = mid.legal_moves();
        let mut p = mid.clone();
        b.iter(|| {
            for &m in &moves {
                p.make_move(m);
                p.unmake_move();
            }
            p.key()
        })
    });
}

criterion_group! {
    name = group;
    config = Criterion::default().sample_size(20);
    targets = benches
}
criterion_main!(group);
