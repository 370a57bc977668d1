//! Evaluation speed: the full static evaluation of every bench position
//! (`chuhan bench`'s positions), plus the same positions after a few seeded
//! random plies so that middlegames with contact between the pieces weigh
//! in. Criterion reports the time per pass; the evaluations per second are
//! the number of positions printed at start divided by it.
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use chuhan::eval::evaluate;
use chuhan::fen::BENCH_FENS;
use chuhan::position::Position;

/// The bench positions, and from each of them a few positions along a
/// seeded random walk of legal moves.
fn positions() -> Vec<Position> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(20);
    let mut out = Vec::new();
    for fen in BENCH_FENS {
        let start = Position::from_fen(fen).unwrap();
        out.push(start.clone());
        let mut pos = start;
        for _ in 0..12 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.gen_range(0..moves.len())];
            pos.make_move(m);
            out.push(pos.clone());
        }
    }
    out
}

fn benches(c: &mut Criterion) {
    let positions = positions();
    eprintln!("evaluate: {} positions per iteration", positions.len());
    let mut group = c.benchmark_group("eval");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("evaluate", |b| {
        b.iter(|| positions.iter().map(|p| evaluate(black_box(p)).0 as i64).sum::<i64>())
    });
    group.finish();
}

criterion_group! {
    name = group;
    config = Criterion::default().sample_size(30);
    targets = benches
}
criterion_main!(group);
