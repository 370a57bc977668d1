//! Lazy SMP: the main thread and `threads - 1` helpers search the same root
//! independently, sharing only the transposition table (and the stop flag).
//! Helpers skip some iteration depths (the classic skip-size/phase pattern)
//! so that the threads spread over different depths. The main thread's
//! result is the engine's move; when it finishes it stops the helpers.
//!
//! All threads run on scoped threads with a large stack (the recursion holds
//! a move list per ply); if a thread cannot be spawned, the main search
//! runs on the caller's thread and missing helpers are skipped.

use std::sync::atomic::Ordering::Relaxed;

use super::history::Histories;
use super::{root_tt_key, SearchReporter, SearchResult, Shared, Worker};
use crate::moves::Move;
use crate::position::Position;
use crate::score::{Score, INFINITE};

const SKIP_SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
const STACK_BYTES: usize = 64 << 20;

/// Whether helper `id` (>= 1) skips iteration `depth`.
pub(crate) fn skip_depth(id: usize, depth: u32, game_ply: usize) -> bool {
    let i = (id - 1) % SKIP_SIZE.len();
    ((depth + game_ply as u32 + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 == 1
}

fn main_search(
    shared: &Shared,
    pos: &Position,
    root: &[Move],
    hist: &mut Histories,
    reporter: &mut dyn SearchReporter,
) -> SearchResult {
    let mut w = Worker::new(0, pos.clone(), shared, hist, Some(reporter), root);
    w.iterate();
    // If the search stopped inside an iteration with a different best move, tell the reporter.
    let last_reported = w.main.as_ref().and_then(|m| m.last_reported);
    if w.completed_depth > 0 && last_reported != w.root_moves.first().map(|r| r.mv) {
        let d = w.completed_depth;
        w.report(d, None);
    }
    w.wait_if_required();
    shared.abort.store(true, Relaxed);
    shared.nodes[0].store(w.nodes, Relaxed);
    let best = &w.root_moves[0];
    let score = if best.score != -INFINITE {
        best.score
    } else if best.prev_score != -INFINITE {
        best.prev_score
    } else {
        0
    };
    let mut ponder = best.pv.get(1).copied();
    if ponder.is_none() {
        let mut p = pos.clone();
        p.make_move(best.mv);
        ponder = shared.tt.probe(root_tt_key(&p)).map(|e| e.mv).filter(|&m| m.is_some() && p.is_legal(m));
    }
    SearchResult {
        best: Some(best.mv),
        ponder,
        score: Score(score),
        depth: w.completed_depth,
        nodes: 0, // filled in by `run` once every thread has stopped
    }
}

/// Runs one search on all threads; returns the main thread's result.
pub(crate) fn run(
    shared: &Shared,
    pos: &Position,
    root: &[Move],
    histories: &mut [Histories],
    reporter: &mut dyn SearchReporter,
) -> SearchResult {
    let fallback = SearchResult { best: root.first().copied(), ponder: None, score: Score(0), depth: 0, nodes: 0 };
    let Some((main_hist, helpers)) = histories.split_first_mut() else {
        return fallback;
    };
    let outcome = std::thread::scope(|s| {
        for (i, h) in helpers.iter_mut().enumerate() {
            let id = i + 1;
            let builder = std::thread::Builder::new().name(format!("chuhan-helper-{id}")).stack_size(STACK_BYTES);
            // A helper that cannot be spawned is simply missing.
            let _ = builder.spawn_scoped(s, move || {
                let mut w = Worker::new(id, pos.clone(), shared, h, None, root);
                w.iterate();
                shared.nodes[id].store(w.nodes, Relaxed);
            });
        }
        let builder = std::thread::Builder::new().name("chuhan-main".into()).stack_size(STACK_BYTES);
        let h: &mut Histories = main_hist;
        let r: &mut dyn SearchReporter = &mut *reporter;
        let outcome = match builder.spawn_scoped(s, move || main_search(shared, pos, root, h, r)) {
            Ok(handle) => Some(handle.join()),
            Err(_) => None,
        };
        // Whatever happened, the helpers must stop before the scope can end.
        shared.abort.store(true, Relaxed);
        outcome
    });
    let mut result = match outcome {
        Some(Ok(r)) => r,
        Some(Err(panic)) => std::panic::resume_unwind(panic),
        None => {
            // The main thread could not be spawned: search on the caller's thread.
            shared.abort.store(false, Relaxed);
            match histories.first_mut() {
                Some(h) => main_search(shared, pos, root, h, reporter),
                None => fallback,
            }
        }
    };
    result.nodes = shared.nodes.iter().map(|n| n.load(Relaxed)).sum();
    result
}
