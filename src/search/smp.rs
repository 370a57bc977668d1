//! Lazy SMP: the main thread and `threads - 1` helpers search the same root
//! independently, sharing only the transposition table (and the stop flag).
//! Helpers skip some iteration depths (the classic skip-size/phase pattern)
//! so that the threads spread over different depths. The main thread owns
//! the clock; when it finishes it stops the helpers. The threads then vote
//! for the move to play ([`pick`]): each thread's best move gets weight for
//! its score above the lowest and for the depth it completed, so a helper
//! that got further or found better wins over the main thread.
//!
//! All threads run on scoped threads with a large stack (the recursion holds
//! a move list per ply); if a thread cannot be spawned, the main search
//! runs on the caller's thread and missing helpers are skipped.

use std::sync::atomic::Ordering::Relaxed;

use super::history::Histories;
use super::{root_tt_key, Bound, IterationInfo, RootMove, SearchReporter, SearchResult, Shared, Worker};
use crate::moves::Move;
use crate::position::Position;
use crate::score::{Score, INFINITE, MATE_BOUND};

const SKIP_SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
const STACK_BYTES: usize = 64 << 20;

/// Whether helper `id` (>= 1) skips iteration `depth`.
pub(crate) fn skip_depth(id: usize, depth: u32, game_ply: usize) -> bool {
    let i = (id - 1) % SKIP_SIZE.len();
    ((depth + game_ply as u32 + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 == 1
}

/// What one thread found when it stopped: its best root move with that
/// move's score and line, and the depth it last completed.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ThreadBest {
    pub mv: Move,
    pub score: i32,
    pub depth: u32,
    pub seldepth: usize,
    pub pv: Vec<Move>,
}

/// Added to every thread's score above the lowest before it is weighted by
/// depth, so the thread with the lowest score still counts.
const VOTE_OFFSET: i64 = 20;

/// The best root move of a stopped thread: the first root move with the score
/// of its last search (of the previous iteration when the last was cut
/// short), or 0 when it has none. `None` before the first completed iteration.
fn thread_best(w: &Worker) -> Option<ThreadBest> {
    let best = w.root_moves.first()?;
    let score = last_score(best);
    Some(ThreadBest { mv: best.mv, score, depth: w.completed_depth, seldepth: best.seldepth, pv: best.pv.clone() })
        .filter(|t| t.depth > 0)
}

/// The score of a root move's last search, of the one before when the last
/// was cut short, or 0 when it has none.
fn last_score(rm: &RootMove) -> i32 {
    if rm.score != -INFINITE {
        rm.score
    } else if rm.prev_score != -INFINITE {
        rm.prev_score
    } else {
        0
    }
}

/// The index of the thread whose move is played, `bests[0]` being the main
/// thread's. A proven win takes the shortest mate found; otherwise each move
/// collects, from every thread that chose it, `(score - lowest + offset) *
/// depth`, and the move with most votes wins; on a tie (the same move
/// included) the deeper thread, whose line and score are then shown.
/// A thread that sees itself mated never wins the vote.
pub(crate) fn pick(bests: &[ThreadBest]) -> usize {
    let lowest = bests.iter().map(|t| t.score as i64).min().unwrap_or(0);
    let votes = |mv: Move| -> i64 {
        bests.iter().filter(|t| t.mv == mv).map(|t| (t.score as i64 - lowest + VOTE_OFFSET) * t.depth as i64).sum()
    };
    let mut chosen = 0;
    for (i, t) in bests.iter().enumerate().skip(1) {
        let c = &bests[chosen];
        let better = if c.score >= MATE_BOUND {
            t.score > c.score
        } else if t.score >= MATE_BOUND {
            true
        } else if t.score <= -MATE_BOUND {
            false
        } else {
            let (vt, vc) = (votes(t.mv), votes(c.mv));
            vt > vc || (vt == vc && t.depth > c.depth)
        };
        if better {
            chosen = i;
        }
    }
    chosen
}

/// The expected reply to `best`: the line's second move, or else the move the
/// table holds for the position after `best` (if it is legal there).
fn ponder_move(shared: &Shared, pos: &Position, best: Move, pv: &[Move]) -> Option<Move> {
    if let Some(&m) = pv.get(1) {
        return Some(m);
    }
    let mut p = pos.clone();
    p.make_move(best);
    shared.tt.probe(root_tt_key(&p)).map(|e| e.mv).filter(|&m| m.is_some() && p.is_legal(m))
}

fn main_search(
    shared: &Shared,
    pos: &Position,
    root: &[Move],
    hist: &mut Histories,
    reporter: &mut dyn SearchReporter,
) -> (SearchResult, Option<ThreadBest>) {
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
    let result = SearchResult {
        best: Some(best.mv),
        ponder: ponder_move(shared, pos, best.mv, &best.pv),
        score: Score(last_score(best)),
        depth: w.completed_depth,
        nodes: 0, // filled in by `run` once every thread has stopped
    };
    (result, thread_best(&w))
}

/// Whether the threads vote for the move: several threads, one line, and no
/// depth limit (a fixed-depth search answers with the main thread's move).
fn votes_apply(shared: &Shared) -> bool {
    shared.nodes.len() > 1 && shared.options.multipv <= 1 && shared.limits.depth.is_none()
}

/// Runs one search on all threads; returns the move the threads voted for
/// ([`pick`]), or the main thread's when no vote applies.
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
        let mut handles = Vec::with_capacity(helpers.len());
        for (i, h) in helpers.iter_mut().enumerate() {
            let id = i + 1;
            let builder = std::thread::Builder::new().name(format!("chuhan-helper-{id}")).stack_size(STACK_BYTES);
            // A helper that cannot be spawned is simply missing.
            if let Ok(handle) = builder.spawn_scoped(s, move || {
                let mut w = Worker::new(id, pos.clone(), shared, h, None, root);
                w.iterate();
                shared.nodes[id].store(w.nodes, Relaxed);
                thread_best(&w)
            }) {
                handles.push(handle);
            }
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
        let helper_bests: Vec<ThreadBest> = handles
            .into_iter()
            .filter_map(|h| match h.join() {
                Ok(best) => best,
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect();
        (outcome, helper_bests)
    });
    let (outcome, helper_bests) = outcome;
    let mut result = match outcome {
        Some(Ok((r, main_best))) => match main_best.filter(|_| votes_apply(shared) && !helper_bests.is_empty()) {
            Some(main_best) => {
                let mut bests = vec![main_best];
                bests.extend(helper_bests);
                let chosen = pick(&bests);
                if chosen == 0 {
                    r
                } else {
                    let t = &bests[chosen];
                    report_chosen(shared, t, reporter);
                    SearchResult {
                        best: Some(t.mv),
                        ponder: ponder_move(shared, pos, t.mv, &t.pv),
                        score: Score(t.score),
                        depth: t.depth,
                        nodes: 0,
                    }
                }
            }
            None => r,
        },
        Some(Err(panic)) => std::panic::resume_unwind(panic),
        None => {
            // The main thread could not be spawned: search on the caller's thread.
            shared.abort.store(false, Relaxed);
            match histories.first_mut() {
                Some(h) => main_search(shared, pos, root, h, reporter).0,
                None => fallback,
            }
        }
    };
    result.nodes = shared.total_nodes();
    result
}

/// Shows the line of a helper whose move won the vote, so that the last
/// line a GUI sees leads with the move played.
fn report_chosen(shared: &Shared, t: &ThreadBest, reporter: &mut dyn SearchReporter) {
    let nodes = shared.total_nodes();
    let time = shared.start.elapsed();
    let ms = time.as_millis().max(1) as u64;
    reporter.on_iteration(&IterationInfo {
        depth: t.depth,
        seldepth: t.seldepth as u32,
        multipv: 1,
        score: Score(t.score),
        bound: Bound::Exact,
        nodes,
        nps: nodes * 1000 / ms,
        hashfull: shared.tt.hashfull(),
        time,
        pv: t.pv.clone(),
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::MATE;

    fn best(mv: Move, score: i32, depth: u32) -> ThreadBest {
        ThreadBest { mv, score, depth, seldepth: depth as usize, pv: vec![mv] }
    }

    fn moves() -> (Move, Move, Move) {
        let pos = Position::startpos();
        let legal = pos.legal_moves();
        (legal[0], legal[1], legal[2])
    }

    #[test]
    fn the_main_thread_keeps_its_move_when_no_helper_is_better() {
        let (a, b, _) = moves();
        assert_eq!(pick(&[best(a, 30, 12)]), 0);
        assert_eq!(pick(&[best(a, 30, 12), best(a, 40, 11)]), 0, "same move, shallower: no change");
        // The same move from a deeper thread: its deeper line and score are shown.
        assert_eq!(pick(&[best(a, 30, 12), best(a, 40, 13)]), 1, "same move, deeper");
        assert_eq!(pick(&[best(a, 30, 12), best(b, 20, 12)]), 0, "lower score, same depth");
        assert_eq!(pick(&[best(a, 30, 12), best(b, 30, 11)]), 0, "same score, shallower");
    }

    #[test]
    fn a_deeper_or_better_helper_wins() {
        let (a, b, _) = moves();
        assert_eq!(pick(&[best(a, 30, 12), best(b, 30, 13)]), 1, "deeper");
        assert_eq!(pick(&[best(a, 30, 12), best(b, 80, 12)]), 1, "higher score");
        // Votes: a gets (30 - 10 + 20) * 12 = 480, b gets (10 - 10 + 20) * 15 = 300.
        assert_eq!(pick(&[best(a, 30, 12), best(b, 10, 15)]), 0, "deeper but much worse");
    }

    #[test]
    fn helpers_agreeing_outvote_the_main_thread() {
        let (a, b, c) = moves();
        // a: (50 - 0 + 20) * 12 = 840; b: 2 * (40 - 0 + 20) * 12 = 1440; c: 20 * 12 = 240.
        let bests = [best(a, 50, 12), best(b, 40, 12), best(c, 0, 12), best(b, 40, 12)];
        assert_eq!(bests[pick(&bests)].mv, b);
    }

    #[test]
    fn mates_override_the_vote() {
        let (a, b, c) = moves();
        assert_eq!(pick(&[best(a, 300, 20), best(b, MATE - 9, 8)]), 1, "a mate wins");
        assert_eq!(pick(&[best(a, MATE - 9, 12), best(b, MATE - 5, 9)]), 1, "the shorter mate wins");
        assert_eq!(pick(&[best(a, MATE - 5, 12), best(b, MATE - 9, 19)]), 0, "the longer mate loses");
        assert_eq!(pick(&[best(a, -300, 10), best(b, -MATE + 20, 25)]), 0, "a thread that is mated never wins");
        let bests = [best(a, -MATE + 20, 10), best(b, -200, 9), best(c, -MATE + 30, 12)];
        assert_eq!(pick(&bests), 1, "anything beats being mated");
    }
}
