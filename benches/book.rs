//! Opening-book probe time (target: under 10 microseconds per probe).
use criterion::{black_box, criterion_group, criterion_main, Criterion};

use chuhan::book::{OpeningBook, ProbeOptions, Randomness};
use chuhan::position::Position;

fn play(moves: &str) -> Position {
    let mut pos = Position::startpos();
    for t in moves.split_whitespace() {
        let m = pos.parse_move(t).unwrap();
        pos.make_move(m);
    }
    pos
}

fn benches(c: &mut Criterion) {
    let book = OpeningBook::embedded().unwrap();
    let start = Position::startpos();
    // A mirrored (stored the other way round) middle-of-book position and one off the book.
    let mid = play("b2e2 b9c7 b0c2 a9b9 a0b0");
    let off = play("a3a4 i6i5 i3i4 a6a5");
    assert!(!book.moves(&mid).is_empty());
    assert!(book.moves(&off).is_empty());
    let opts = ProbeOptions { randomness: Randomness::Medium, seed: 42 };
    let none = |_| false;
    c.bench_function("book_probe_startpos", |b| b.iter(|| book.probe(black_box(&start), opts, &none).map(|m| m.mv)));
    c.bench_function("book_probe_mirrored_mid", |b| b.iter(|| book.probe(black_box(&mid), opts, &none).map(|m| m.mv)));
    c.bench_function("book_probe_miss", |b| b.iter(|| book.probe(black_box(&off), opts, &none).map(|m| m.mv)));
}

criterion_group!(book_benches, benches);
criterion_main!(book_benches);
