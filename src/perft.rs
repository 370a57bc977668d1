//! Perft: counting the leaves of the legal move tree, the standard test of a
//! move generator. Bulk counting at the last ply; the root can be split over
//! threads with rayon.

use rayon::prelude::*;

use crate::movegen::{count_legal, generate, All};
use crate::moves::{Move, MoveList};
use crate::position::Position;

/// Leaves of the legal move tree of `depth` plies.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal(pos) as u64,
        _ => {
            let mut list = MoveList::new();
            generate::<All>(pos, &mut list);
            let mut n = 0;
            for &m in &list {
                pos.make_move(m);
                n += perft(pos, depth - 1);
                pos.unmake_move();
            }
            n
        }
    }
}

/// Per-root-move counts (`divide`), in generation order. With `threads > 1`
/// the root moves are searched in parallel on a pool of that many threads.
pub fn divide(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = pos.legal_moves();
    let count = |m: Move| {
        let mut p = pos.clone();
        p.make_move(m);
        (m, perft(&mut p, depth - 1))
    };
    if threads <= 1 {
        return moves.iter().map(|&m| count(m)).collect();
    }
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| moves.par_iter().map(|&m| count(m)).collect()),
        Err(_) => moves.iter().map(|&m| count(m)).collect(),
    }
}

/// Leaves of the tree of `depth` plies, root split over `threads` threads.
pub fn perft_parallel(pos: &Position, depth: u32, threads: usize) -> u64 {
    if depth <= 1 || threads <= 1 {
        return perft(&mut pos.clone(), depth);
    }
    divide(pos, depth, threads).iter().map(|&(_, n)| n).sum()
}
