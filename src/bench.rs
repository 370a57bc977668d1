//! `chuhan bench`: a fixed set of positions searched to a fixed depth on one
//! thread with a 16 MB table cleared before each position. The total node
//! count is a signature of the search: a change that alters it changes the
//! search, one that keeps it does not (record it as `Bench: N` in commits).
//!
//! The positions: the start position; 34 opening and middlegame positions
//! reached by Fairy-Stockfish (depth 9) playing on from twelve common opening
//! lines (central cannon vs screen horses, same-direction cannons, pawn,
//! elephant, horse and palace-corner cannon openings); six mate puzzles from
//! `tests/data/mates.epd`; seven composed endgames. This module does not
//! print; the command-line front end formats the result.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::fen::BENCH_FENS;
use crate::moves::Move;
use crate::position::Position;
use crate::search::{Engine, NullReporter, SearchSignals};
use crate::time::SearchLimits;

/// Default bench depth.
pub const BENCH_DEPTH: u32 = 11;
/// Table size used by the bench.
pub const BENCH_HASH_MB: usize = 16;

/// The result for one position.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// The position.
    pub fen: &'static str,
    /// The move found.
    pub best: Option<Move>,
    /// Nodes searched.
    pub nodes: u64,
}

/// The result of a bench run.
#[derive(Clone, Debug)]
pub struct BenchReport {
    /// One line per position.
    pub lines: Vec<BenchLine>,
    /// Total nodes (the signature).
    pub nodes: u64,
    /// Wall time of the searches.
    pub time: Duration,
}

impl BenchReport {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let s = self.time.as_secs_f64();
        if s > 0.0 {
            (self.nodes as f64 / s) as u64
        } else {
            0
        }
    }
}

/// Searches every bench position to `depth` (1 thread, 16 MB, table and
/// histories cleared per position). Positions that fail to parse (none do;
/// a test checks) are skipped.
pub fn run_bench(depth: u32) -> BenchReport {
    let mut engine = Engine::new(BENCH_HASH_MB, 1);
    let limits = SearchLimits::depth(depth.max(1));
    let mut lines = Vec::new();
    let mut time = Duration::ZERO;
    for &fen in BENCH_FENS {
        let Ok(pos) = Position::from_fen(fen) else { continue };
        engine.new_game();
        let start = Instant::now();
        let r = engine.search(&pos, &limits, None, Arc::new(SearchSignals::default()), &mut NullReporter);
        time += start.elapsed();
        lines.push(BenchLine { fen, best: r.best, nodes: r.nodes });
    }
    let nodes = lines.iter().map(|l| l.nodes).sum();
    BenchReport { lines, nodes, time }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_valid_and_distinct() {
        assert!((30..=50).contains(&BENCH_FENS.len()));
        let mut keys = std::collections::HashSet::new();
        for fen in BENCH_FENS {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert!(!pos.legal_moves().is_empty(), "{fen}");
            assert!(keys.insert(pos.key()), "duplicate {fen}");
        }
    }

    #[test]
    fn node_count_is_deterministic() {
        let a = run_bench(5);
        let b = run_bench(5);
        assert_eq!(a.lines.len(), BENCH_FENS.len());
        assert_eq!(a.nodes, b.nodes);
        assert!(a.lines.iter().zip(&b.lines).all(|(x, y)| x.nodes == y.nodes && x.best == y.best));
    }
}
