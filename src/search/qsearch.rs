//! Quiescence search: captures until the position is quiet (stand pat on the
//! static evaluation), all evasions when in check. Captures that cannot
//! raise the score to alpha even with a margin (delta pruning) or that lose
//! material by SEE are skipped. No legal evasion is a loss (docs/rules.md section 2).

use super::alphabeta::{bound_allows, key_after, refined_eval, NodeType};
use super::correction::CorrectionKeys;
use super::history::cont_index;
use super::movepick::{MovePicker, OrderContext};
use super::params::delta_margin;
use super::see::see_ge;
use super::{NodeHistory, Worker, EVAL_NONE};
use crate::board::{code_of, EMPTY};
use crate::eval::{evaluate_raw, material_value, phase_of};
use crate::moves::Move;
use crate::score::{from_tt, mated_in, to_tt, INFINITE, MATE_BOUND, MAX_PLY};
use crate::tt::Bound;

/// Table depth of quiescence entries: in check (all evasions) and not.
const QS_DEPTH_CHECK: i32 = 0;
const QS_DEPTH_CAPTURES: i32 = -1;

impl Worker<'_> {
    /// Quiescence search of the current position.
    pub(crate) fn qsearch<N: NodeType>(&mut self, mut alpha: i32, beta: i32) -> i32 {
        let pv_node = N::PV;
        let ply = self.ply;
        self.clear_perpetual_mark(ply);
        if self.enter_node(pv_node) {
            return 0;
        }
        let key = match self.node_history(ply) {
            NodeHistory::Verdict(s) => return s,
            NodeHistory::Open(k) => k,
        };
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY as usize - 2 {
            return if in_check { self.draw_score(ply) } else { evaluate_raw(&self.pos) };
        }
        // Evaluate before the table probe: the parent prefetched this node's
        // entry, and the evaluation gives the line time to arrive (probing
        // first stalled on it; most quiescence probes miss anyway, so taking
        // the stored evaluation saved little).
        let evaluated = if in_check { EVAL_NONE } else { self.evaluate() };
        let tte = self.shared.tt.probe(key);
        let tt_score = tte.and_then(|e| from_tt(e.score, ply, self.limit_left()));
        let qdepth = if in_check { QS_DEPTH_CHECK } else { QS_DEPTH_CAPTURES };
        if !pv_node {
            if let (Some(e), Some(s)) = (tte, tt_score) {
                if e.depth >= qdepth && bound_allows(e.bound, s, beta) {
                    return s;
                }
            }
        }
        let tt_move = tte.map_or(Move::NULL, |e| e.mv);

        let mut best;
        let static_eval;
        if in_check {
            best = -INFINITE;
            static_eval = EVAL_NONE;
        } else {
            static_eval = self.corrected(evaluated, CorrectionKeys::of(&self.pos));
            best = refined_eval(static_eval, tte, tt_score);
            if best >= beta {
                if tte.is_none() {
                    self.shared.tt.store(key, Move::NULL, to_tt(best, ply), evaluated, qdepth, Bound::Lower, false);
                }
                return best;
            }
            alpha = alpha.max(best);
        }
        let futility_base = if in_check { -INFINITE } else { static_eval + delta_margin() };
        // The victim is valued as the evaluation values it (its tapered
        // material), not in SEE units: the two differ by up to 1.8x, and a
        // smaller value skips recaptures that restore an even balance.
        let phase = phase_of(&self.pos);

        let cont = [self.frame_at(ply, 1).cont_row, self.frame_at(ply, 2).cont_row];
        let mut picker = MovePicker::new_qsearch(&self.pos, tt_move);
        let mut best_move = Move::NULL;
        let mut move_count = 0;
        while let Some(m) = picker.next(&self.pos, &OrderContext { hist: self.hist, cont }) {
            move_count += 1;
            // Start loading the child's table entry now: the pruning tests
            // below give the load time to arrive (a pruned move wastes it).
            self.shared.tt.prefetch(key_after(&self.pos, m));
            let cells = self.pos.board().cells();
            let victim = cells[m.to().index()];
            let mover = code_of(cells[m.from().index()]);
            if !in_check && best > -MATE_BOUND {
                if victim != EMPTY {
                    let optimistic = futility_base + material_value(victim, phase);
                    if optimistic <= alpha {
                        best = best.max(optimistic);
                        continue;
                    }
                }
                if !see_ge(&self.pos, m, 0) {
                    continue;
                }
            }
            self.play(m, cont_index(mover, m.to().0), None);
            let v = -self.qsearch::<N>(-beta, -alpha);
            self.take_back();
            self.join_perpetual_mark(ply);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }
        if in_check && move_count == 0 {
            return mated_in(ply as u32).0;
        }
        let bound = Bound::of_result(best, beta, pv_node && best_move.is_some());
        let (score, bound) = self.table_result(ply, best, bound);
        self.shared.tt.store(key, best_move, score, evaluated, qdepth, bound, pv_node);
        best
    }
}
