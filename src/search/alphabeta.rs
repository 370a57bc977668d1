//! The principal variation search (negamax, fail-soft) of one thread, with
//! node types as traits ([`Root`], [`Pv`], [`NonPv`]): transposition table
//! cutoffs, mate distance pruning, razoring, reverse futility, null move
//! (verified when zugzwang is plausible; with the tune entry
//! `MATE_THREAT_EXT`, off by default, a null move that is mated extends the
//! node), internal iterative reduction, singular (double, negative) and
//! check extensions with multi-cut, late move reductions, futility, late
//! move and SEE pruning. Margins come from [`super::params`].
//!
//! Repetitions are judged by `Worker::node_history` (the rules module's
//! detector) before the table is consulted, so a path-dependent verdict never
//! comes out of the table; the same call gives the node's table key (salted
//! by the history, see `tt_key`).

use super::correction::CorrectionKeys;
use super::history::{cont_index, gravity, victim_column, Histories};
use super::movepick::{MovePicker, OrderContext};
use super::params::*;
use super::see::see_ge;
use super::{root_tt_key, NodeHistory, Pruning, Worker, EVAL_NONE};
use crate::board::{code_of, PieceKind, EMPTY};
use crate::eval::{evaluate_after_null, evaluate_at, evaluate_raw, material_value, phase_of};
use crate::moves::Move;
use crate::position::Position;
use crate::rules::{natural_limit_reached, LimitPolicy};
use crate::score::{from_tt, mate_in, mated_in, INFINITE, MATE_BOUND, MAX_PLY};
use crate::tt::{Bound, TtEntry};

/// A node type.
pub(crate) trait NodeType {
    /// Whether the node is on a principal variation (open window).
    const PV: bool;
    /// Whether the node is the root.
    const ROOT: bool;
}

/// The root node.
pub(crate) struct Root;
/// A principal-variation node.
pub(crate) struct Pv;
/// A zero-window node.
pub(crate) struct NonPv;

impl NodeType for Root {
    const PV: bool = true;
    const ROOT: bool = true;
}
impl NodeType for Pv {
    const PV: bool = true;
    const ROOT: bool = false;
}
impl NodeType for NonPv {
    const PV: bool = false;
    const ROOT: bool = false;
}

/// The key of the position after the legal move `m` (to prefetch its table entry).
#[inline(always)]
pub(crate) fn key_after(pos: &Position, m: Move) -> u64 {
    let cells = pos.board().cells();
    let (f, t) = (m.from().index(), m.to().index());
    let mover = code_of(cells[f]) as usize;
    let victim = code_of(cells[t]) as usize;
    let z = &crate::position::zobrist::PIECE_SQUARE;
    pos.key().0 ^ z[mover][f] ^ z[mover][t] ^ z[victim][t] ^ crate::position::zobrist::SIDE
}

/// Table-key salt of a search that leaves out the move `m`.
#[inline(always)]
fn excluded_salt(m: Move) -> u64 {
    (m.0 as u64 + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93).rotate_left(17)
}

/// The static evaluation refined by the table's score when the entry's bound
/// says the score is at least as accurate.
#[inline]
pub(crate) fn refined_eval(static_eval: i32, tte: Option<TtEntry>, tt_score: Option<i32>) -> i32 {
    if let (Some(e), Some(s)) = (tte, tt_score) {
        let b = if s > static_eval { Bound::Lower } else { Bound::Upper };
        if e.bound == b || e.bound == Bound::Exact {
            return s;
        }
    }
    static_eval
}

/// `v` damped toward 0 as reversible plies pile up: times
/// `(n - plies) / n`, 0 from `n` plies on; `n = 0` leaves `v` as it is.
/// Positions that go long without a capture drift toward the natural
/// move limit's draw, so the search should not trust an edge it has not
/// converted.
#[inline]
pub(crate) fn damped(v: i32, plies: u32, n: i32) -> i32 {
    if n <= 0 {
        return v;
    }
    v * (n - plies.min(n as u32) as i32) / n
}

/// Whether a table bound lets `score` decide against `beta`.
#[inline]
pub(crate) fn bound_allows(bound: Bound, score: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score < beta,
    }
}

impl Worker<'_> {
    /// The static evaluation of the current position (from the table entry
    /// when it stored one), that evaluation corrected by the correction
    /// history, and the corrected one refined by the table's score when the
    /// entry's bound says the score is at least as accurate. Returns (raw,
    /// corrected, refined); the table keeps the raw one.
    #[inline]
    pub(super) fn static_eval(
        &self,
        tte: Option<TtEntry>,
        tt_score: Option<i32>,
        keys: CorrectionKeys,
    ) -> (i32, i32, i32) {
        let raw = match tte {
            Some(e) if e.eval != EVAL_NONE => e.eval,
            _ => self.evaluate(),
        };
        let corrected = self.corrected(raw, keys);
        (raw, corrected, refined_eval(corrected, tte, tt_score))
    }

    /// `raw` plus the correction history's correction, damped by the plies
    /// since the last capture (kept out of the mate band).
    #[inline]
    pub(super) fn corrected(&self, raw: i32, keys: CorrectionKeys) -> i32 {
        let c = self.hist.correction.correction(self.pos.side_to_move(), keys);
        let v = damped(raw + c, self.pos.state().plies_since_capture as u32, eval_damp());
        v.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// The static evaluation of the current position, computed (not read from
    /// the table), at the search's knowledge level.
    #[inline]
    pub(super) fn evaluate(&self) -> i32 {
        let parent = self.frame_at(self.ply, 1);
        // After a null move the board is the parent's.
        if self.ply > 0 && parent.mv == Move::NULL && parent.raw_eval != EVAL_NONE {
            let e = evaluate_after_null(&self.pos, parent.raw_eval);
            debug_assert_eq!(e, evaluate_at(&self.pos, self.shared.options.knowledge));
            return e;
        }
        evaluate_at(&self.pos, self.shared.options.knowledge)
    }

    /// Whether a node at `ply` may be extended: below a multiple of the
    /// iteration depth, so that no line grows without end.
    #[inline(always)]
    fn may_extend(&self, ply: usize) -> bool {
        (ply as i32) < check_extension_ply_factor() * self.root_depth
    }

    /// Chariots, horses and cannons of the side to move.
    pub(crate) fn major_pieces(&self) -> usize {
        let b = self.pos.board();
        let us = self.pos.side_to_move();
        b.count(us, PieceKind::Chariot) + b.count(us, PieceKind::Horse) + b.count(us, PieceKind::Cannon)
    }

    /// Rewards the quiet move `m` that caused a cutoff (and punishes the
    /// quiets tried before it), updating killers and the counter move.
    pub(crate) fn update_quiet_stats(&mut self, ply: usize, m: Move, tried: &[Move], bonus: i32) {
        let f = self.frame(ply);
        let (prev1, prev2, prev_mv) =
            (self.frame_at(ply, 1).cont_row, self.frame_at(ply, 2).cont_row, self.frame_at(ply, 1).mv);
        if f.killers[0] != m {
            let k = &mut self.frame_mut(ply).killers;
            k[1] = k[0];
            k[0] = m;
        }
        let side = self.pos.side_to_move().index();
        let cells = self.pos.board().cells();
        let hist: &mut Histories = self.hist;
        let mut apply = |mv: Move, b: i32| {
            gravity(&mut hist.butterfly[side][Histories::bf_index(mv)], b);
            let row = cont_index(code_of(cells[mv.from().index()]), mv.to().0);
            gravity(&mut hist.continuation[prev1][row], b);
            gravity(&mut hist.continuation[prev2][row], b);
        };
        apply(m, bonus);
        for &q in tried {
            apply(q, -bonus);
        }
        if prev_mv.is_some() {
            hist.counter[prev1] = m;
        }
    }

    /// Rewards the capture `m` (if any) and punishes the captures tried before.
    pub(crate) fn update_capture_stats(&mut self, m: Option<Move>, tried: &[Move], bonus: i32) {
        let cells = self.pos.board().cells();
        let hist: &mut Histories = self.hist;
        let mut apply = |mv: Move, b: i32| {
            let row = cont_index(code_of(cells[mv.from().index()]), mv.to().0);
            let victim = victim_column(cells[mv.to().index()]);
            gravity(&mut hist.capture[row][victim], b);
        };
        if let Some(m) = m {
            apply(m, bonus);
        }
        for &c in tried {
            apply(c, -bonus);
        }
    }

    /// Alpha-beta search of the current position to `depth` plies.
    pub(crate) fn search<N: NodeType>(&mut self, mut alpha: i32, mut beta: i32, mut depth: i32, cut_node: bool) -> i32 {
        let pv_node = N::PV;
        let root = N::ROOT;
        let ply = self.ply;
        self.clear_perpetual_mark(ply);
        if depth <= 0 {
            return if pv_node { self.qsearch::<Pv>(alpha, beta) } else { self.qsearch::<NonPv>(alpha, beta) };
        }
        if self.enter_node(pv_node) {
            return 0;
        }
        let in_check = self.pos.in_check();
        let key;
        if root {
            key = root_tt_key(&self.pos);
        } else {
            key = match self.node_history(ply) {
                NodeHistory::Verdict(s) => return s,
                NodeHistory::Open(k) => k,
            };
            // docs/rules.md section 4: 60 moves without a capture draw, unless mated
            // now (the count caps each side's checks as the judge does).
            if natural_limit_reached(&self.pos, LimitPolicy::default())
                && (!in_check || !self.pos.legal_moves().is_empty())
            {
                return self.draw_score(ply);
            }
            if ply >= MAX_PLY as usize - 2 {
                return if in_check { self.draw_score(ply) } else { evaluate_raw(&self.pos) };
            }
            // Mate distance pruning.
            alpha = alpha.max(mated_in(ply as u32).0);
            beta = beta.min(mate_in(ply as u32 + 1).0);
            if alpha >= beta {
                return alpha;
            }
        }

        // A singular-extension search leaves one move out: it asks another
        // question of the same position, so it keeps its own table entries.
        let excluded = self.frame(ply).excluded;
        let key = if excluded.is_some() { key ^ excluded_salt(excluded) } else { key };
        let tte = self.shared.tt.probe(key);
        let tt_move = if root { self.root_moves[self.pv_idx].mv } else { tte.map_or(Move::NULL, |e| e.mv) };
        let tt_score = tte.and_then(|e| from_tt(e.score, ply, self.limit_left()));
        let tt_pv = pv_node || tte.is_some_and(|e| e.is_pv);
        if !pv_node {
            if let (Some(e), Some(s)) = (tte, tt_score) {
                if e.depth >= depth && bound_allows(e.bound, s, beta) {
                    if s >= beta
                        && tt_move.is_some()
                        && self.pos.board().cell(tt_move.to()) == EMPTY
                        && self.pos.is_legal(tt_move)
                    {
                        self.update_quiet_stats(ply, tt_move, &[], history_bonus(depth));
                    }
                    return s;
                }
            }
        }

        // Static evaluation.
        let raw_eval;
        let static_eval;
        let eval;
        // The correction keys, only where a static evaluation exists.
        let corr_keys = (!in_check).then(|| CorrectionKeys::of(&self.pos));
        if let Some(keys) = corr_keys {
            (raw_eval, static_eval, eval) = self.static_eval(tte, tt_score, keys);
        } else {
            raw_eval = EVAL_NONE;
            static_eval = EVAL_NONE;
            eval = EVAL_NONE;
        }
        self.frame_mut(ply).static_eval = static_eval;
        self.frame_mut(ply).raw_eval = raw_eval;
        let improving = !in_check && {
            let p2 = self.frame_at(ply, 2).static_eval;
            let p4 = self.frame_at(ply, 4).static_eval;
            if p2 != EVAL_NONE {
                static_eval > p2
            } else {
                p4 == EVAL_NONE || static_eval > p4
            }
        };
        self.frame_mut(ply + 2).killers = [Move::NULL; 2];

        let pruning = self.shared.options.pruning;
        let shallow_pruning = pruning >= Pruning::Large;
        let mut mate_threat = false;
        if !pv_node && !in_check {
            // Razoring.
            if shallow_pruning && depth <= razor_depth() && eval + razor_margin(depth) < alpha {
                let v = self.qsearch::<NonPv>(alpha - 1, alpha);
                if v < alpha {
                    return v;
                }
            }
            // Reverse futility pruning.
            if shallow_pruning
                && depth <= rfp_depth()
                && eval - rfp_margin(depth, improving) >= beta
                && eval < MATE_BOUND
            {
                return eval;
            }
            // Null move, not after a null move and not without pieces that
            // can make threats (zugzwang: "no piece to move" is a loss here).
            let majors = self.major_pieces();
            if pruning >= Pruning::Medium
                && depth >= null_min_depth()
                && eval >= beta
                && static_eval >= beta
                && self.frame_at(ply, 1).mv.is_some()
                && ply >= self.nmp_min_ply
                && majors > 0
                && beta > -MATE_BOUND
                && !excluded.is_some()
            {
                let r = null_reduction(depth, eval - beta);
                self.play_null();
                let v = -self.search::<NonPv>(-beta, -beta + 1, depth - r, !cut_node);
                self.take_back_null();
                if self.stopped {
                    return 0;
                }
                // Passing loses to a mate: the opponent threatens one.
                mate_threat = v <= -MATE_BOUND;
                if v >= beta {
                    let v = if v >= MATE_BOUND { beta } else { v };
                    if majors > null_verify_pieces() as usize || depth < null_verify_depth() || self.nmp_min_ply != 0 {
                        return v;
                    }
                    // Verification: search again without null moves for a while.
                    self.nmp_min_ply = ply + (3 * (depth - r) / 4).max(1) as usize;
                    let w = self.search::<NonPv>(beta - 1, beta, depth - r, false);
                    self.nmp_min_ply = 0;
                    if w >= beta {
                        return v;
                    }
                }
            }
        }

        // Mate-threat extension: when passing loses to a mate, the node is
        // searched deeper (within the extensions' ply limit) to find the
        // defence. Xiangqi mates are often quiet moves that the reductions
        // and pruning below would otherwise cut short.
        if mate_threat && self.may_extend(ply) {
            depth += self.mate_threat_ext;
        }

        // Internal iterative reduction.
        if pruning >= Pruning::Small && (pv_node || cut_node) && depth >= iir_depth() && !tt_move.is_some() {
            depth -= 1;
        }

        let prev1 = self.frame_at(ply, 1);
        let cont = [prev1.cont_row, self.frame_at(ply, 2).cont_row];
        let counter = if prev1.mv.is_some() { self.hist.counter[prev1.cont_row] } else { Move::NULL };
        let killers = self.frame(ply).killers;
        let mut picker = MovePicker::new(&self.pos, tt_move, killers, counter);
        let tt_capture = tt_move.is_some() && self.pos.board().cell(tt_move.to()) != EMPTY;
        let root_list: Vec<Move> =
            if root { self.root_moves[self.pv_idx..].iter().map(|r| r.mv).collect() } else { Vec::new() };
        let mut root_i = 0;
        let mut best = -INFINITE;
        let mut best_move = Move::NULL;
        let mut move_count: i32 = 0;
        let mut quiets_tried: arrayvec::ArrayVec<Move, 64> = arrayvec::ArrayVec::new();
        let mut captures_tried: arrayvec::ArrayVec<Move, 32> = arrayvec::ArrayVec::new();

        loop {
            let m = if root {
                if root_i >= root_list.len() {
                    break;
                }
                root_i += 1;
                root_list[root_i - 1]
            } else {
                let next = picker.next(&self.pos, &OrderContext { hist: self.hist, cont });
                // Quiets the picker passed over as late-move-pruned count as tried.
                move_count += picker.take_skipped() as i32;
                match next {
                    Some(m) => m,
                    None => break,
                }
            };
            if m == excluded {
                continue;
            }
            move_count += 1;
            // Start loading the child's table entry now: the pruning tests
            // below give the load time to arrive (a pruned move wastes it).
            self.shared.tt.prefetch(key_after(&self.pos, m));
            let cells = self.pos.board().cells();
            let mover = code_of(cells[m.from().index()]);
            let victim = cells[m.to().index()];
            let capture = victim != EMPTY;
            let gives_check = self.pos.gives_check(m);
            let row = cont_index(mover, m.to().0);
            if root {
                self.report_currmove(depth, m, (move_count as usize + self.pv_idx) as u32);
            }
            // Pruning at shallow depth.
            if shallow_pruning && !root && best > -MATE_BOUND {
                let lmr_depth = (depth - 1 - lmr_base(depth, move_count) / LMR_UNIT).max(0);
                if !capture && !gives_check {
                    // Late move pruning (quiet checks are kept: many xiangqi mates are quiet checks).
                    if !in_check && depth <= lmp_depth() && move_count >= lmp_count(depth, improving) {
                        // Every later quiet move is pruned here too (depth,
                        // improving and the move count only grow, best only
                        // rises) unless it gives check: the picker yields only
                        // the quiet checks from now on and counts the rest.
                        picker.quiet_checks_only = true;
                        continue;
                    }
                    if !in_check && lmr_depth <= futility_depth() && static_eval + futility_margin(lmr_depth) <= alpha {
                        continue;
                    }
                    if lmr_depth <= see_prune_depth() && !see_ge(&self.pos, m, see_quiet_margin(lmr_depth)) {
                        continue;
                    }
                } else if capture && !gives_check {
                    // Futility pruning of captures: even the victim's whole
                    // value and a margin leave the score below alpha.
                    if !pv_node && !in_check && lmr_depth < capture_futility_depth() {
                        let div = capture_futility_hist_div();
                        let hist = if div > 0 { self.hist.capture[row][victim_column(victim)] as i32 / div } else { 0 };
                        if static_eval
                            + capture_futility_margin(lmr_depth)
                            + material_value(victim, phase_of(&self.pos))
                            + hist
                            <= alpha
                        {
                            continue;
                        }
                    }
                    if depth <= see_prune_depth() && !see_ge(&self.pos, m, see_capture_margin(depth)) {
                        continue;
                    }
                }
            }

            let quiet_hist = if capture {
                0
            } else {
                let h = &*self.hist;
                h.butterfly[self.pos.side_to_move().index()][Histories::bf_index(m)] as i32
                    + h.continuation[cont[0]][row] as i32
                    + h.continuation[cont[1]][row] as i32
            };

            // Extensions, while the ply is below a multiple of the iteration
            // depth (so that no line grows without end).
            let mut ext = 0;
            if self.may_extend(ply) {
                let singular_candidate = !root
                    && pruning >= Pruning::Small
                    && m == tt_move
                    && !excluded.is_some()
                    && depth >= se_depth() + 2 * (pv_node && tte.is_some_and(|e| e.is_pv)) as i32;
                let tt_lower = match (tte, tt_score) {
                    (Some(e), Some(s)) if e.bound != Bound::Upper && e.depth >= depth - 3 && s.abs() < MATE_BOUND => {
                        Some(s)
                    }
                    _ => None,
                };
                if let (true, Some(tts)) = (singular_candidate, tt_lower) {
                    // Singular extension: if every other move fails low
                    // against a margin below the table score, the table move
                    // is the only good one and is searched deeper; if the
                    // others reach beta too, the node is cut (multi-cut).
                    let sbeta = tts - singular_margin(depth, tt_pv && !pv_node);
                    let mark = self.frame(ply).perpetual_from;
                    self.frame_mut(ply).excluded = m;
                    let v = self.search::<NonPv>(sbeta - 1, sbeta, (depth - 1) / 2, cut_node);
                    let f = self.frame_mut(ply);
                    f.excluded = Move::NULL;
                    f.perpetual_from = f.perpetual_from.min(mark);
                    if self.stopped {
                        return 0;
                    }
                    if v < sbeta {
                        ext = 1;
                        if !pv_node && v < sbeta - se_double_margin() && self.frame(ply).double_ext < se_double_max() {
                            ext = 2;
                        }
                    } else if sbeta >= beta {
                        return sbeta;
                    } else if tts >= beta {
                        ext = -2;
                    } else if tts <= alpha && tts <= v {
                        ext = -1;
                    }
                } else if gives_check && depth >= check_extension_depth() {
                    ext = 1;
                }
            }
            let new_depth = depth - 1 + ext;
            self.frame_mut(ply + 1).double_ext = self.frame(ply).double_ext + (ext >= 2) as i32;

            if pv_node {
                // The child's line starts empty: a zero-window search that
                // fails high (no PV re-search follows) leaves no line of its
                // own, and this node must not copy a stale one from an
                // earlier sibling's subtree.
                self.pv_len[ply + 1] = ply + 1;
            }
            let nodes_before = self.nodes;
            self.play(m, row, Some(gives_check));
            let mut v = -INFINITE;
            if pruning >= Pruning::Small && depth >= 2 && move_count > 1 + root as i32 && (!capture || !tt_pv) {
                let mut r = lmr_base(depth, move_count);
                if tt_pv {
                    r -= LMR_UNIT;
                }
                if pv_node {
                    r -= LMR_UNIT + lmr_pv_scaled() / (2 + depth);
                }
                if cut_node {
                    r += lmr_cut_node();
                }
                if tt_capture {
                    r += lmr_tt_capture();
                }
                if !improving {
                    r += lmr_not_improving();
                }
                if gives_check {
                    r -= LMR_UNIT / 2;
                }
                if m == killers[0] || m == killers[1] || m == counter {
                    r -= LMR_UNIT / 2;
                }
                if capture {
                    r -= LMR_UNIT;
                } else {
                    r -= (quiet_hist - lmr_history_bias()) * LMR_UNIT / lmr_history_divisor();
                }
                // A move with a good history may go one ply deeper than the others.
                let d = (new_depth - r / LMR_UNIT).clamp(1, new_depth + 1);
                v = -self.search::<NonPv>(-alpha - 1, -alpha, d, true);
                if v > alpha && d < new_depth {
                    // Re-search to the full depth, one ply more when the reduced
                    // search beat alpha clearly, one less when it only just did.
                    let deeper = v > alpha + lmr_deeper_margin() + 4 * (new_depth - d);
                    let shallower = v < best + new_depth;
                    let full = new_depth + deeper as i32 - shallower as i32;
                    if full > d {
                        v = -self.search::<NonPv>(-alpha - 1, -alpha, full, !cut_node);
                    }
                }
            } else if !pv_node || move_count > 1 {
                v = -self.search::<NonPv>(-alpha - 1, -alpha, new_depth, !cut_node);
            }
            if pv_node && (move_count == 1 || (v > alpha && (root || v < beta))) {
                v = -self.search::<Pv>(-beta, -alpha, new_depth, false);
            }
            self.take_back();
            self.join_perpetual_mark(ply);
            if self.stopped {
                return 0;
            }

            if root {
                self.update_root_move(m, v, alpha, move_count, self.nodes - nodes_before);
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if pv_node && !root {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
            if m != best_move {
                if capture {
                    let _ = captures_tried.try_push(m);
                } else {
                    let _ = quiets_tried.try_push(m);
                }
            }
        }

        if move_count == 0 {
            // docs/rules.md section 2: no legal move loses, in check or not
            // (but leaving out the only move is no loss).
            return if excluded.is_some() { alpha } else { mated_in(ply as u32).0 };
        }

        if best >= beta && best_move.is_some() {
            let bonus = history_bonus(depth + (best > beta + 150) as i32);
            if self.pos.board().cell(best_move.to()) == EMPTY {
                self.update_quiet_stats(ply, best_move, &quiets_tried, bonus);
                self.update_capture_stats(None, &captures_tried, bonus);
            } else {
                self.update_capture_stats(Some(best_move), &captures_tried, bonus);
            }
        }

        if !(root && self.pv_idx > 0) {
            let bound = Bound::of_result(best, beta, pv_node && best_move.is_some());
            // The correction history learns from results that say more than
            // the static evaluation in the direction their bound allows, of
            // nodes whose best move was quiet (a capture's gain is not the
            // evaluation's error).
            if let Some(keys) = corr_keys.filter(|_| {
                !excluded.is_some()
                    && best.abs() < MATE_BOUND
                    && (!best_move.is_some() || self.pos.board().cell(best_move.to()) == EMPTY)
                    && !(bound == Bound::Lower && best <= static_eval)
                    && !(bound == Bound::Upper && best >= static_eval)
            }) {
                let side = self.pos.side_to_move();
                self.hist.correction.update(side, keys, best - static_eval, depth);
            }
            let (score, bound) = self.table_result(ply, best, bound);
            self.shared.tt.store(key, best_move, score, raw_eval, depth, bound, tt_pv);
        }
        best
    }
}
