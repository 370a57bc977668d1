//! The search: [`Engine`] owns the transposition table, the per-thread
//! histories and the options, and runs iterative deepening with aspiration
//! windows on a main thread plus Lazy SMP helper threads that share the
//! table (the main thread keeps the clock and stops the others; then the
//! threads vote for the move, see `smp`).
//!
//! The search never prints: progress goes through [`SearchReporter`] (main
//! thread only, plus the line of a helper whose move won the vote). It polls `SearchSignals::stop`, the node limit and the hard
//! deadline every ~1k nodes. Repetitions are judged by each worker's
//! [`RepetitionDetector`] (the `rules` module, docs/rules.md section 3) through
//! `Worker::node_history`, which also gives the node's table key; the root avoids moves that complete a
//! repetition the mover loses ([`forbidden_moves`]).

mod alphabeta;
pub(crate) mod correction;
pub(crate) mod history;
pub(crate) mod movepick;
pub(crate) mod params;
mod qsearch;
pub(crate) mod report;
pub mod see;
mod smp;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::eval::Knowledge;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::repetition::NodeRepetition;
use crate::rules::{forbidden_moves, RepetitionDetector, RepetitionVerdict, RuleSet};
use crate::score::{mate_in, mated_in, to_tt, Score, INFINITE, MATE, MAX_PLY};
use crate::time::{SearchLimits, TimeManager};
use crate::tt::{TranspositionTable, TtProbe};
use alphabeta::Root;
use history::Histories;
pub use report::{Bound, CollectingReporter, IterationInfo, NullReporter, SearchReporter};

/// Signals from the protocol thread to a running search (shared via `Arc`).
#[derive(Debug, Default)]
pub struct SearchSignals {
    /// Stop as soon as possible and return the best move so far.
    pub stop: AtomicBool,
    /// The opponent played the pondered move: start the clock.
    pub ponderhit: AtomicBool,
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play (`None`: no legal move).
    pub best: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder: Option<Move>,
    /// Score of `best` from the side to move's view.
    pub score: Score,
    /// Last completed iteration depth.
    pub depth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
}

/// Search options set by the protocol.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Time reserved per move for communication lag.
    pub move_overhead: Duration,
    /// Number of principal variations to report.
    pub multipv: u32,
    /// Draw score offset: a draw counts as `-contempt` for the side to move at the root.
    pub contempt: i32,
    /// Repetition rules judged in the search (UCCI/UCI option `rules`, docs/rules.md 3.2/3.3).
    pub rules: RuleSet,
    /// How selective the search is (UCCI `pruning`).
    pub pruning: Pruning,
    /// How much the evaluation knows (UCCI `knowledge`).
    pub knowledge: Knowledge,
}

/// Selectivity of the search (UCCI `pruning`), each level adding to the one
/// below. Also the switch for measuring what each kind of pruning is worth
/// in self-play with one binary.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Pruning {
    /// Full-width principal variation search: check extensions, quiescence
    /// (with its delta and SEE pruning), table cutoffs and mate distance
    /// pruning only.
    None,
    /// Plus late move reductions and internal iterative reduction.
    Small,
    /// Plus null move pruning (with verification).
    Medium,
    /// Plus shallow-depth pruning: razoring, reverse futility, futility,
    /// late move and SEE pruning.
    #[default]
    Large,
}

impl Pruning {
    /// Every level, least pruning first.
    pub const ALL: [Pruning; 4] = [Pruning::None, Pruning::Small, Pruning::Medium, Pruning::Large];
}

/// Default table size in MB.
pub const DEFAULT_HASH_MB: usize = 16;
/// Default time kept back per move for communication lag, in milliseconds.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
            multipv: 1,
            contempt: 0,
            rules: RuleSet::Asian,
            pruning: Pruning::Large,
            knowledge: Knowledge::Large,
        }
    }
}

/// Evaluation placeholder for "not computed" (in check).
pub(crate) const EVAL_NONE: i32 = -32_001;
/// docs/rules.md section 4: 60 moves (120 plies) without a capture is a draw.
pub const NATURAL_LIMIT_PLIES: usize = crate::rules::NATURAL_LIMIT_PLIES as usize;
/// Deepest iteration.
pub const MAX_DEPTH: u32 = 100;
/// Frames kept below ply 0 so that `ply - 4` is always addressable.
const STACK_OFFSET: usize = 4;
/// Nodes between polls of the stop flag and the clock.
const POLL_INTERVAL: u64 = 1024;
/// Delay before the main thread reports the current root move.
const CURRMOVE_DELAY: Duration = Duration::from_secs(3);

/// What [`Worker::node_history`] found at a node.
pub(crate) enum NodeHistory {
    /// A repetition verdict, as a score for the side to move (a forbidden
    /// perpetual's mate-band score also marks the node's frame, see
    /// [`Frame::perpetual_from`]).
    Verdict(i32),
    /// No verdict: the node's table key.
    Open(u64),
}

/// Table-key salt of a position that occurred once before the root.
const SEEN_SALT: u64 = 0x6A09_E667_F3BC_C908;
/// Plies since the last capture from which the table key carries the
/// natural-limit bucket: below it the limit lies more than 56 plies ahead,
/// beyond the reach of a search (mates are guarded by `from_tt` anyway).
const LIMIT_KEY_FROM: usize = 64;
/// Width in plies of a natural-limit bucket.
const LIMIT_BUCKET_PLIES: usize = 8;

/// The table key of `pos`: its Zobrist key, salted when the position occurred
/// once before the root (`seen`) and, near the natural move limit, with the
/// bucket of its no-capture count (results that the history can
/// overturn are not shared with positions of another history).
#[inline(always)]
pub(crate) fn tt_key(pos: &Position, seen: bool) -> u64 {
    let mut key = pos.key().0;
    if seen {
        key ^= SEEN_SALT;
    }
    let psc = pos.state().plies_since_capture as usize;
    if psc >= LIMIT_KEY_FROM {
        let bucket = (psc.min(NATURAL_LIMIT_PLIES) - LIMIT_KEY_FROM) / LIMIT_BUCKET_PLIES + 1;
        key ^= (bucket as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(23);
    }
    key
}

/// The table key of a root `pos` whose state stack is its game history.
pub(crate) fn root_tt_key(pos: &Position) -> u64 {
    tt_key(pos, crate::rules::repetition::earlier_occurrences(pos).next().is_some())
}

/// One root move with its latest score and line.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub prev_score: i32,
    pub seldepth: usize,
    pub pv: Vec<Move>,
    /// Nodes this thread searched under the move, over every iteration so far.
    pub effort: u64,
}

/// Per-ply search frame.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Frame {
    pub mv: Move,
    pub cont_row: usize,
    pub static_eval: i32,
    /// The static evaluation before correction ([`EVAL_NONE`] in check).
    pub raw_eval: i32,
    pub killers: [Move; 2],
    /// The search ply of the earliest position that a forbidden-perpetual
    /// verdict in this node's subtree refers to (the start of its span, 0 when
    /// before the root); [`NO_PERPETUAL`] if none. A node whose result is a
    /// mate-band score and whose mark lies above it (smaller ply) does not
    /// store that score: it holds on this path only.
    pub perpetual_from: usize,
    /// The move a singular-extension search at this ply leaves out
    /// ([`Move::NULL`] outside one).
    pub excluded: Move,
    /// Double extensions on the path to this node.
    pub double_ext: i32,
}

/// [`Frame::perpetual_from`] when no forbidden perpetual was judged below.
pub(crate) const NO_PERPETUAL: usize = usize::MAX;

/// The table score of a path-dependent result: a mate farther away than any
/// natural-limit distance, which [`crate::score::from_tt`] never trusts.
pub(crate) const PATH_DEPENDENT: i32 = crate::score::MATE_BOUND;

impl Default for Frame {
    fn default() -> Self {
        Frame {
            mv: Move::NULL,
            cont_row: 0,
            static_eval: EVAL_NONE,
            raw_eval: EVAL_NONE,
            killers: [Move::NULL; 2],
            perpetual_from: NO_PERPETUAL,
            excluded: Move::NULL,
            double_ext: 0,
        }
    }
}

/// What all threads of one search share.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub signals: &'a SearchSignals,
    pub limits: &'a SearchLimits,
    pub options: &'a SearchOptions,
    pub abort: AtomicBool,
    pub nodes: Vec<AtomicU64>,
    pub start: Instant,
    /// The score of this side's previous search in the same game (two
    /// plies before this root), when known and `TM_PREV_MOVE` is on: time
    /// management then spends more when the score has fallen since.
    pub prev_move_score: Option<i32>,
}

impl Shared<'_> {
    fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Relaxed)).sum()
    }
}

/// Iterations searched when the root has a single legal move and the
/// clock governs the search (the move is forced; the depth gives its score
/// and a ponder move).
const SINGLE_REPLY_DEPTH: u32 = 4;

/// What only the main thread keeps: it owns the clock, reports, and decides
/// when the search ends.
pub(crate) struct MainThread<'a> {
    pub tm: TimeManager,
    pub reporter: &'a mut dyn SearchReporter,
    /// Best-move changes at the root, decayed per iteration (time management).
    pub best_move_changes: f64,
    /// Whether ponderhit has been seen (the clock then runs).
    pub ponderhit_seen: bool,
    /// The best move of the last report.
    pub last_reported: Option<Move>,
}

impl MainThread<'_> {
    /// Starts the clock at the first sight of ponderhit.
    fn check_ponderhit(&mut self, limits: &SearchLimits, signals: &SearchSignals) {
        if limits.ponder && !self.ponderhit_seen && signals.ponderhit.load(Relaxed) {
            self.ponderhit_seen = true;
            self.tm.start_now();
        }
    }
}

/// The state of one search thread.
pub(crate) struct Worker<'a> {
    /// Thread index: the slot of its node count, and a helper's depth-skip pattern.
    pub id: usize,
    pub pos: Position,
    pub shared: &'a Shared<'a>,
    pub hist: &'a mut Histories,
    /// The main thread's own state (`None` in helpers).
    pub main: Option<MainThread<'a>>,
    pub nodes: u64,
    pub next_poll: u64,
    pub stopped: bool,
    pub ply: usize,
    pub seldepth: usize,
    pub stack: Vec<Frame>,
    pub pv: Vec<[Move; MAX_PLY as usize + 2]>,
    pub pv_len: Vec<usize>,
    pub root_moves: Vec<RootMove>,
    pub pv_idx: usize,
    pub root_depth: i32,
    pub completed_depth: u32,
    pub nmp_min_ply: usize,
    /// Plies of the mate-threat extension ([`params::mate_threat_ext`],
    /// read once per search).
    pub mate_threat_ext: i32,
    /// Repetition verdicts (docs/rules.md section 3): reset with the game history at
    /// the root; `push` after every make (null moves included), `pop` before
    /// every unmake.
    pub rep: RepetitionDetector,
    /// `pos.game_ply()` at the search root.
    pub root_ply: usize,
}

impl<'a> Worker<'a> {
    fn new(
        id: usize,
        pos: Position,
        shared: &'a Shared<'a>,
        hist: &'a mut Histories,
        reporter: Option<&'a mut dyn SearchReporter>,
        root: &[Move],
    ) -> Worker<'a> {
        let main = reporter.map(|reporter| MainThread {
            tm: TimeManager::new(shared.limits, shared.options.move_overhead, pos.fullmove()),
            reporter,
            best_move_changes: 0.0,
            ponderhit_seen: false,
            last_reported: None,
        });
        let n = MAX_PLY as usize + 2;
        let mut rep = RepetitionDetector::new(shared.options.rules);
        rep.reset(&pos);
        let root_ply = pos.game_ply();
        Worker {
            id,
            pos,
            shared,
            hist,
            main,
            nodes: 0,
            next_poll: POLL_INTERVAL,
            stopped: false,
            ply: 0,
            seldepth: 0,
            stack: vec![Frame::default(); n + STACK_OFFSET + 2],
            pv: vec![[Move::NULL; MAX_PLY as usize + 2]; n],
            pv_len: vec![0; n + 1],
            root_moves: root
                .iter()
                .map(|&mv| RootMove {
                    mv,
                    score: -INFINITE,
                    prev_score: -INFINITE,
                    seldepth: 0,
                    pv: vec![mv],
                    effort: 0,
                })
                .collect(),
            pv_idx: 0,
            root_depth: 0,
            completed_depth: 0,
            nmp_min_ply: 0,
            mate_threat_ext: params::mate_threat_ext(),
            rep,
            root_ply,
        }
    }

    #[inline(always)]
    pub(crate) fn frame(&self, ply: usize) -> Frame {
        self.stack[ply + STACK_OFFSET]
    }

    /// The frame `back` plies before `ply` (back <= 4).
    #[inline(always)]
    pub(crate) fn frame_at(&self, ply: usize, back: usize) -> Frame {
        self.stack[ply + STACK_OFFSET - back]
    }

    #[inline(always)]
    pub(crate) fn frame_mut(&mut self, ply: usize) -> &mut Frame {
        &mut self.stack[ply + STACK_OFFSET]
    }

    /// Draw score at `ply` with contempt (a draw is worth `-contempt` to the root side).
    #[inline]
    pub(crate) fn draw_score(&self, ply: usize) -> i32 {
        let c = self.shared.options.contempt;
        if ply.is_multiple_of(2) {
            -c
        } else {
            c
        }
    }

    /// The history at the current (non-root) node: a repetition verdict as a
    /// score for the side to move (docs/rules.md section 3; the detector judges at
    /// the third occurrence, or at the second when the earlier one lies inside
    /// the search path; a forbidden perpetual is a mate-band score, `Win` ->
    /// `mate_in(ply)`, `Loss` -> `mated_in(ply)`, a permitted repetition the
    /// draw score), or else the node's table key ([`tt_key`]).
    ///
    /// Verdicts depend on the path: callers return them before the table is
    /// probed and never store them at this node. Ancestors store bounds derived
    /// from them; the key keeps those apart where it matters most: a position
    /// seen once before the root (where one more repetition below is a verdict)
    /// and one close to the natural limit never share entries with the same
    /// position reached fresh or with a different count.
    #[inline(always)]
    pub(crate) fn node_history(&mut self, ply: usize) -> NodeHistory {
        match self.rep.probe_node(&self.pos, self.root_ply) {
            NodeRepetition::Fresh => NodeHistory::Open(tt_key(&self.pos, false)),
            NodeRepetition::Seen => NodeHistory::Open(tt_key(&self.pos, true)),
            NodeRepetition::Verdict(v, start) => {
                if v != RepetitionVerdict::Draw {
                    self.frame_mut(ply).perpetual_from = start.saturating_sub(self.root_ply);
                }
                NodeHistory::Verdict(match v {
                    RepetitionVerdict::Win => mate_in(ply as u32).0,
                    RepetitionVerdict::Loss => mated_in(ply as u32).0,
                    RepetitionVerdict::Draw => self.draw_score(ply),
                })
            }
        }
    }

    /// Node entry: no perpetual judged below this node yet.
    #[inline(always)]
    pub(crate) fn clear_perpetual_mark(&mut self, ply: usize) {
        self.frame_mut(ply).perpetual_from = NO_PERPETUAL;
    }

    /// After the child at `ply + 1` returned: its perpetual mark joins this node's.
    #[inline(always)]
    pub(crate) fn join_perpetual_mark(&mut self, ply: usize) {
        let child = self.frame(ply + 1).perpetual_from;
        let f = self.frame_mut(ply);
        f.perpetual_from = f.perpetual_from.min(child);
    }

    /// The table form of the result `score` at `ply`, with its bound: as is,
    /// unless it is a mate-band score and a forbidden perpetual below it was
    /// judged over a span that starts above this node (the score then holds on
    /// this path only). Such a result is stored as [`PATH_DEPENDENT`], an upper
    /// bound no search trusts (see [`crate::score::from_tt`]), so only the move
    /// and the evaluation are kept.
    #[inline(always)]
    pub(crate) fn table_result(&self, ply: usize, score: i32, bound: crate::tt::Bound) -> (i32, crate::tt::Bound) {
        if score.abs() < crate::score::MATE_BOUND || self.frame(ply).perpetual_from >= ply {
            (to_tt(score, ply), bound)
        } else {
            (PATH_DEPENDENT, crate::tt::Bound::Upper)
        }
    }

    /// Plies left before the natural move limit at the current node (for
    /// [`crate::score::from_tt`]).
    #[inline(always)]
    pub(crate) fn limit_left(&self) -> i32 {
        NATURAL_LIMIT_PLIES as i32 - self.pos.state().plies_since_capture as i32
    }

    /// Node entry shared by the main search and quiescence: starts the PV
    /// line at a PV node, tracks seldepth, counts the node (polling the
    /// limits now and then). Returns whether the search has been stopped.
    #[inline(always)]
    pub(crate) fn enter_node(&mut self, pv_node: bool) -> bool {
        let ply = self.ply;
        if pv_node {
            self.pv_len[ply] = ply;
            self.seldepth = self.seldepth.max(ply + 1);
        }
        self.count_node();
        self.stopped
    }

    #[inline(always)]
    pub(crate) fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.poll();
        }
    }

    /// Publishes the node count and checks the stop conditions.
    fn poll(&mut self) {
        let shared = self.shared;
        shared.nodes[self.id].store(self.nodes, Relaxed);
        let mut interval = POLL_INTERVAL;
        if let Some(main) = self.main.as_mut() {
            let limits = shared.limits;
            main.check_ponderhit(limits, shared.signals);
            let mut stop = shared.signals.stop.load(Relaxed);
            if self.completed_depth >= 1 && main.tm.hard_expired() {
                stop = true;
            }
            if let Some(max) = limits.nodes {
                let total = shared.total_nodes();
                if total >= max {
                    stop = true;
                } else {
                    interval = interval.min(((max - total) / shared.nodes.len() as u64).max(1));
                }
            }
            if stop {
                shared.abort.store(true, Relaxed);
            }
        }
        self.next_poll = self.nodes + interval;
        self.stopped = shared.abort.load(Relaxed) || shared.signals.stop.load(Relaxed);
    }

    /// Copies the child's line behind `m` into this ply's line.
    pub(crate) fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line[ply] = m;
        line[ply + 1..child_len].copy_from_slice(&tail[0][ply + 1..child_len]);
        self.pv_len[ply] = child_len;
    }

    /// Records root move `m`'s result `v` (a score when it is the first move
    /// or beat `alpha`) and the `nodes` its subtree took.
    pub(crate) fn update_root_move(&mut self, m: Move, v: i32, alpha: i32, move_count: i32, nodes: u64) {
        let child_len = self.pv_len[1].max(1);
        let line: Vec<Move> = std::iter::once(m).chain(self.pv[1][1..child_len].iter().copied()).collect();
        let seldepth = self.seldepth;
        let first_line = self.pv_idx == 0;
        if let Some(rm) = self.root_moves.iter_mut().find(|r| r.mv == m) {
            rm.effort += nodes;
            if move_count == 1 || v > alpha {
                rm.score = v;
                rm.seldepth = seldepth;
                rm.pv = line;
                if let Some(main) = self.main.as_mut().filter(|_| move_count > 1 && first_line) {
                    main.best_move_changes += 1.0;
                }
            } else {
                rm.score = -INFINITE;
            }
        }
    }

    fn report_currmove(&mut self, depth: i32, m: Move, number: u32) {
        let start = self.shared.start;
        if let Some(main) = self.main.as_mut().filter(|_| start.elapsed() >= CURRMOVE_DELAY) {
            main.reporter.on_currmove(depth.max(0) as u32, m, number);
        }
    }

    fn report(&mut self, depth: u32, bound_of: Option<(usize, Bound)>) {
        let shared = self.shared;
        shared.nodes[self.id].store(self.nodes, Relaxed);
        let nodes = shared.total_nodes();
        let time = shared.start.elapsed();
        let ms = time.as_millis().max(1) as u64;
        let hashfull = shared.tt.hashfull();
        let multipv = (shared.options.multipv.max(1) as usize).min(self.root_moves.len());
        let lines: Vec<(usize, Bound)> = match bound_of {
            Some(x) => vec![x],
            None => (0..multipv).map(|i| (i, Bound::Exact)).collect(),
        };
        let mut infos = Vec::new();
        for (i, bound) in lines {
            let rm = &self.root_moves[i];
            let (score, depth) = if rm.score == -INFINITE {
                if rm.prev_score == -INFINITE {
                    continue;
                }
                (rm.prev_score, depth.saturating_sub(1).max(1))
            } else {
                (rm.score, depth)
            };
            infos.push(IterationInfo {
                depth,
                seldepth: rm.seldepth as u32,
                multipv: i as u32 + 1,
                score: Score(score),
                bound,
                nodes,
                nps: nodes * 1000 / ms,
                hashfull,
                time,
                pv: rm.pv.clone(),
            });
        }
        let first = self.root_moves.first().map(|r| r.mv);
        if let Some(main) = self.main.as_mut() {
            main.last_reported = first;
            for info in &infos {
                main.reporter.on_iteration(info);
            }
        }
    }

    fn sort_root_moves(&mut self, from: usize, to: usize) {
        self.root_moves[from..to].sort_by(|a, b| b.score.cmp(&a.score).then(b.prev_score.cmp(&a.prev_score)));
    }

    /// Iterative deepening with aspiration windows (all threads).
    fn iterate(&mut self) {
        let limits = self.shared.limits;
        let max_depth = limits.depth.map_or(MAX_DEPTH, |d| d.clamp(1, MAX_DEPTH));
        let multipv = (self.shared.options.multipv.max(1) as usize).min(self.root_moves.len());
        let game_ply = self.pos.game_ply();
        let mut stable_iterations = 0u32;
        let mut last_best = Move::NULL;
        let mut iteration_scores: Vec<i32> = Vec::new();
        for depth in 1..=max_depth {
            if self.main.is_none() && smp::skip_depth(self.id, depth, game_ply) {
                continue;
            }
            self.root_depth = depth as i32;
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            if let Some(main) = self.main.as_mut() {
                main.best_move_changes *= 0.5;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = params::aspiration_delta();
                let (mut alpha, mut beta) = if depth as i32 >= params::aspiration_depth() && prev.abs() < MATE / 2 {
                    ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
                } else {
                    (-INFINITE, INFINITE)
                };
                loop {
                    let v = self.search::<Root>(alpha, beta, depth as i32, false);
                    let len = self.root_moves.len();
                    self.sort_root_moves(pv_idx, len);
                    if self.stopped {
                        break;
                    }
                    if v <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (v - delta).max(-INFINITE);
                        if self.main.is_some() && self.shared.start.elapsed() >= Duration::from_secs(1) {
                            self.report(depth, Some((pv_idx, Bound::Upper)));
                        }
                    } else if v >= beta {
                        beta = (v + delta).min(INFINITE);
                        if self.main.is_some() && self.shared.start.elapsed() >= Duration::from_secs(1) {
                            self.report(depth, Some((pv_idx, Bound::Lower)));
                        }
                    } else {
                        break;
                    }
                    delta += delta / 2;
                }
                self.sort_root_moves(0, pv_idx + 1);
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            if self.main.is_none() {
                continue;
            }
            self.report(depth, None);

            let best = &self.root_moves[0];
            let score = best.score;
            if best.mv == last_best {
                stable_iterations += 1;
            } else {
                stable_iterations = 0;
                last_best = best.mv;
            }
            iteration_scores.push(score);
            if let Some(n) = limits.mate {
                if score >= MATE - (2 * n as i32 - 1) {
                    break;
                }
            }
            // A proven mate cannot change once the depth exceeds its distance.
            if (MATE - score.abs()) * 2 < depth as i32 && score.abs() >= crate::score::MATE_BOUND {
                break;
            }
            let reference = iteration_scores.iter().rev().skip(1).take(3).copied().max().unwrap_or(score);
            let reference = self.shared.prev_move_score.map_or(reference, |p| reference.max(p));
            let drop = reference - score;
            let signals = self.shared.signals;
            let Some(main) = self.main.as_mut() else { continue };
            // With one legal move there is nothing to choose: a search on the
            // clock ends once it has a score and a ponder move to show.
            if self.root_moves.len() == 1 && depth >= SINGLE_REPLY_DEPTH && main.tm.on_clock() {
                break;
            }
            let root_nodes: u64 = self.root_moves.iter().map(|r| r.effort).sum();
            let best_share = self.root_moves[0].effort as f64 / root_nodes.max(1) as f64;
            if main.tm.soft_expired(main.best_move_changes, drop, stable_iterations, best_share) {
                break;
            }
            main.check_ponderhit(limits, signals);
        }
    }

    /// Main thread after its iterations: in infinite or ponder mode, wait
    /// for `stop` (or for ponderhit, after which the result is final).
    fn wait_if_required(&mut self) {
        let seen = self.main.as_ref().is_some_and(|m| m.ponderhit_seen);
        wait_for_stop(self.shared, seen);
    }

    /// Plays `m` at the current ply (frame, position, repetition detector, ply).
    /// `gives_check`: whether `m` checks, if the caller knows.
    #[inline(always)]
    pub(crate) fn play(&mut self, m: Move, cont_row: usize, gives_check: Option<bool>) {
        let f = self.frame_mut(self.ply);
        f.mv = m;
        f.cont_row = cont_row;
        match gives_check {
            Some(check) => self.pos.make_move_checking(m, check),
            None => self.pos.make_move(m),
        }
        self.rep.push(self.pos.key());
        self.ply += 1;
    }

    /// Takes back the move [`Worker::play`] played.
    #[inline(always)]
    pub(crate) fn take_back(&mut self) {
        self.ply -= 1;
        self.rep.pop(self.pos.key());
        self.pos.unmake_move();
    }

    /// Passes (null move) at the current ply.
    #[inline(always)]
    pub(crate) fn play_null(&mut self) {
        let f = self.frame_mut(self.ply);
        f.mv = Move::NULL;
        f.cont_row = 0;
        self.pos.make_null_move();
        self.rep.push(self.pos.key());
        self.ply += 1;
    }

    /// Takes back the null move [`Worker::play_null`] played.
    #[inline(always)]
    pub(crate) fn take_back_null(&mut self) {
        self.ply -= 1;
        self.rep.pop(self.pos.key());
        self.pos.unmake_null_move();
    }
}

/// After the iterations: in infinite or ponder mode, wait for `stop` (or for
/// ponderhit, after which the result is final). `ponderhit_seen`: the main
/// thread already saw it.
fn wait_for_stop(shared: &Shared<'_>, ponderhit_seen: bool) {
    let limits = shared.limits;
    let signals = shared.signals;
    loop {
        if signals.stop.load(Relaxed) {
            return;
        }
        let pondering = limits.ponder && !ponderhit_seen && !signals.ponderhit.load(Relaxed);
        if !limits.infinite && !pondering {
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// What `tt` knows about `pos` (UCCI `probe`); safe while searches write it
/// (a torn entry fails the key check; the move is checked for legality).
pub fn probe_table(tt: &TranspositionTable, pos: &Position) -> Option<TtProbe> {
    let e = tt.probe(root_tt_key(pos))?;
    Some(TtProbe {
        best: (e.mv.is_some() && pos.is_legal(e.mv)).then_some(e.mv),
        bound: e.bound,
        // Shown as stored (mates counted from this position).
        score: (e.score != PATH_DEPENDENT)
            .then(|| Score(crate::score::from_tt(e.score, 0, i32::MAX).unwrap_or(e.score))),
        depth: e.depth,
    })
}

/// The moves a search considers at its root, decided once per `go`: the
/// legal moves, those left after the caller's exclusions (UCCI `banmoves`, UCI
/// `searchmoves`), and among them the moves that would complete a repetition
/// the mover loses under the rules in force ([`forbidden_moves`]).
#[derive(Clone, Debug)]
pub struct RootMoves {
    legal: MoveList,
    candidates: Vec<Move>,
    forbidden: MoveList,
}

impl RootMoves {
    /// The root moves of `pos`: legal, not in `banned`, and in `only` when
    /// `only` is not empty; `rules` decides which of them are forbidden.
    pub fn new(pos: &Position, banned: &[Move], only: &[Move], rules: RuleSet) -> RootMoves {
        let legal = pos.legal_moves();
        let candidates =
            legal.iter().copied().filter(|m| !banned.contains(m) && (only.is_empty() || only.contains(m))).collect();
        RootMoves { legal, candidates, forbidden: forbidden_moves(pos, rules) }
    }

    /// Every legal move of the position.
    pub fn legal(&self) -> &[Move] {
        &self.legal
    }

    /// The legal moves left after the exclusions (may be empty).
    pub fn candidates(&self) -> &[Move] {
        &self.candidates
    }

    /// Whether `m` would complete a repetition the mover loses (docs/rules.md section 3).
    pub fn is_forbidden(&self, m: Move) -> bool {
        self.forbidden.contains(&m)
    }

    /// The moves the search searches: the candidates (every legal move when
    /// the exclusions left none), without the forbidden ones unless nothing
    /// else remains (docs/rules.md section 3: such a move is avoided when any
    /// other move exists).
    pub fn searched(&self) -> Vec<Move> {
        let mut root: Vec<Move> =
            if self.candidates.is_empty() { self.legal.to_vec() } else { self.candidates.clone() };
        if root.iter().any(|m| !self.is_forbidden(*m)) {
            root.retain(|m| !self.is_forbidden(*m));
        }
        root
    }
}

/// One search to run on its own thread ([`Engine::go`]).
#[derive(Clone, Debug)]
pub struct SearchJob {
    /// The root position; its state stack is the game history (repetitions).
    pub position: Position,
    /// Depth, nodes, time.
    pub limits: SearchLimits,
    /// The root moves ([`RootMoves::new`]).
    pub root: RootMoves,
    /// When the request arrived: the time since then is already gone from the
    /// clock and the movetime (pondering starts its clock at ponderhit, so it
    /// is not charged there).
    pub issued: Instant,
}

/// The search engine: transposition table, thread histories and options.
pub struct Engine {
    /// Shared with whoever asks ([`Engine::table`]): the protocol answers
    /// `probe` from it while a search runs (the table is lock-free).
    tt: Arc<TranspositionTable>,
    hash_mb: usize,
    histories: Vec<Histories>,
    threads: usize,
    options: SearchOptions,
    /// The last search's root game ply and score (time management's
    /// reference for the next move); cleared on a new game.
    last_search: Option<(usize, i32)>,
}

impl Engine {
    /// An engine with a `hash_mb` table and `threads` search threads (at least 1).
    pub fn new(hash_mb: usize, threads: usize) -> Engine {
        let threads = threads.max(1);
        Engine {
            tt: Arc::new(TranspositionTable::new(hash_mb)),
            hash_mb,
            histories: (0..threads).map(|_| Histories::default()).collect(),
            threads,
            options: SearchOptions::default(),
            last_search: None,
        }
    }

    /// A new engine (empty table and histories) with this one's settings.
    fn fresh_copy(hash_mb: usize, threads: usize, options: &SearchOptions) -> Engine {
        let mut e = Engine::new(hash_mb, threads);
        e.options = options.clone();
        e
    }

    /// Reallocates the table (its contents are lost).
    pub fn set_hash(&mut self, mb: usize) {
        self.tt = Arc::new(TranspositionTable::new(mb));
        self.hash_mb = mb;
    }

    /// The table size in MB.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// The table, to read while a search writes it (see [`probe_table`]).
    pub fn table(&self) -> Arc<TranspositionTable> {
        Arc::clone(&self.tt)
    }

    /// Sets the number of search threads (at least 1).
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.max(1);
        self.histories.resize_with(self.threads, Histories::default);
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Forgets everything learnt: table and histories (a new game).
    pub fn new_game(&mut self) {
        self.tt.clear();
        for h in &mut self.histories {
            h.clear();
        }
        self.last_search = None;
    }

    /// Empties the table only.
    pub fn clear_hash(&mut self) {
        self.tt.clear();
    }

    /// The options (move overhead, MultiPV, contempt, rules, levels).
    pub fn options_mut(&mut self) -> &mut SearchOptions {
        &mut self.options
    }

    /// The options.
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// Table use of the current search generation, per mille.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// The score of the last search if it was this side's previous move in
    /// the same game (two plies before `pos`) and not a mate.
    fn prev_move_score(&self, pos: &Position) -> Option<i32> {
        self.last_search
            .filter(|&(ply, score)| ply + 2 == pos.game_ply() && score.abs() < crate::score::MATE_BOUND)
            .map(|(_, score)| score)
    }

    /// What the table knows about `pos` (UCCI `probe`).
    pub fn probe(&self, pos: &Position) -> Option<TtProbe> {
        probe_table(&self.tt, pos)
    }

    /// Searches `pos` (its state stack = the game history, for repetitions)
    /// on the calling thread. `root_moves`: if Some and non-empty, search only
    /// those of them that are legal (all legal moves if none is). Of those,
    /// moves that would complete a repetition the mover loses under
    /// `options().rules` are dropped unless nothing else remains.
    /// In `infinite` or `ponder` mode this does not return before
    /// `signals.stop` is set (pondering: or before ponderhit + the time budget,
    /// with the clock starting at ponderhit); otherwise it returns as soon as a
    /// limit is reached. No legal move: returns best None with the mated score.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &SearchLimits,
        root_moves: Option<&[Move]>,
        signals: Arc<SearchSignals>,
        reporter: &mut dyn SearchReporter,
    ) -> SearchResult {
        let root = RootMoves::new(pos, &[], root_moves.unwrap_or(&[]), self.options.rules);
        self.search_root(pos, limits, &root, signals, reporter)
    }

    /// [`Engine::search`] over root moves already decided ([`RootMoves::searched`]).
    pub fn search_root(
        &mut self,
        pos: &Position,
        limits: &SearchLimits,
        root: &RootMoves,
        signals: Arc<SearchSignals>,
        reporter: &mut dyn SearchReporter,
    ) -> SearchResult {
        self.tt.new_search();
        let start = Instant::now();
        let root = root.searched();
        let shared = Shared {
            tt: &self.tt,
            signals: &signals,
            limits,
            options: &self.options,
            abort: AtomicBool::new(false),
            nodes: (0..self.threads).map(|_| AtomicU64::new(0)).collect(),
            start,
            prev_move_score: self.prev_move_score(pos).filter(|_| params::tm_prev_move() != 0),
        };
        if root.is_empty() {
            // docs/rules.md section 2: no legal move (mate or stalemate) loses.
            let score = mated_in(0);
            reporter.on_iteration(&IterationInfo {
                depth: 0,
                seldepth: 0,
                multipv: 1,
                score,
                bound: Bound::Exact,
                nodes: 0,
                nps: 0,
                hashfull: self.tt.hashfull(),
                time: start.elapsed(),
                pv: Vec::new(),
            });
            wait_for_stop(&shared, false);
            return SearchResult { best: None, ponder: None, score, depth: 0, nodes: 0 };
        }
        let result = smp::run(&shared, pos, &root, &mut self.histories, reporter);
        self.last_search = (result.depth > 0).then_some((pos.game_ply(), result.score.0));
        result
    }

    /// Starts `job` on a thread of its own and returns at once. The engine
    /// moves into the thread and comes back with [`SearchHandle::join`]. The
    /// reporter hears every iteration, then [`SearchReporter::on_finish`] with
    /// the result the moment the search ends (on the search thread, so a
    /// protocol can print its move without waiting for `join`). A panic inside
    /// the search is caught: the engine forgets what it learnt, the reporter
    /// gets `on_finish(None)` and `join` says the search failed. If no thread
    /// can be started, the error comes back with an engine of the same settings.
    pub fn go(
        self,
        job: SearchJob,
        mut reporter: Box<dyn SearchReporter>,
    ) -> Result<SearchHandle, (Engine, std::io::Error)> {
        let signals = Arc::new(SearchSignals::default());
        let table = self.table();
        let (hash_mb, threads, options) = (self.hash_mb, self.threads, self.options.clone());
        let thread_signals = Arc::clone(&signals);
        let mut engine = self;
        let spawned = std::thread::Builder::new().name("chuhan-search".into()).spawn(move || {
            let SearchJob { position, mut limits, root, issued } = job;
            if !limits.ponder {
                let lag = issued.elapsed();
                if let Some(mt) = limits.movetime.as_mut() {
                    *mt = mt.saturating_sub(lag);
                }
                if let Some(c) = limits.clock.as_mut() {
                    c.time = c.time.saturating_sub(lag);
                }
            }
            let searched = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                engine.search_root(&position, &limits, &root, thread_signals, reporter.as_mut())
            }));
            let result = match searched {
                Ok(r) => Some(r),
                Err(_) => {
                    // A bug in the search: forget what was learnt, keep serving.
                    engine.new_game();
                    None
                }
            };
            reporter.on_finish(result.as_ref());
            (engine, result)
        });
        match spawned {
            Ok(thread) => Ok(SearchHandle { thread, signals, table, hash_mb, threads, options }),
            Err(e) => Err((Engine::fresh_copy(hash_mb, threads, &options), e)),
        }
    }
}

/// A search running on its own thread ([`Engine::go`]).
pub struct SearchHandle {
    thread: std::thread::JoinHandle<(Engine, Option<SearchResult>)>,
    signals: Arc<SearchSignals>,
    table: Arc<TranspositionTable>,
    hash_mb: usize,
    threads: usize,
    options: SearchOptions,
}

/// Why [`SearchHandle::join`] has no result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchFailed;

impl std::fmt::Display for SearchFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the search failed (internal error)")
    }
}

impl std::error::Error for SearchFailed {}

impl SearchHandle {
    /// Asks the search to stop as soon as possible (it then reports its move).
    pub fn stop(&self) {
        self.signals.stop.store(true, Relaxed);
    }

    /// The opponent played the pondered move: the clock starts now.
    pub fn ponderhit(&self) {
        self.signals.ponderhit.store(true, Relaxed);
    }

    /// The running search's table (lock-free: [`probe_table`] reads it safely).
    pub fn table(&self) -> &TranspositionTable {
        &self.table
    }

    /// Waits for the search to end and takes the engine back, with the result
    /// (`Err` if the search panicked: the engine is then a fresh one with the
    /// same settings).
    pub fn join(self) -> (Engine, Result<SearchResult, SearchFailed>) {
        match self.thread.join() {
            Ok((engine, Some(result))) => (engine, Ok(result)),
            Ok((engine, None)) => (engine, Err(SearchFailed)),
            Err(_) => (Engine::fresh_copy(self.hash_mb, self.threads, &self.options), Err(SearchFailed)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search_depth(fen: &str, depth: u32) -> SearchResult {
        let pos = Position::from_fen(fen).unwrap();
        let mut e = Engine::new(16, 1);
        e.search(&pos, &SearchLimits::depth(depth), None, Arc::new(SearchSignals::default()), &mut NullReporter)
    }

    #[test]
    fn damping_scales_by_plies_left() {
        use alphabeta::damped;
        assert_eq!(damped(300, 0, 200), 300);
        assert_eq!(damped(300, 100, 200), 150);
        assert_eq!(damped(-300, 100, 200), -150);
        assert_eq!(damped(300, 150, 200), 75);
        assert_eq!(damped(300, 200, 200), 0);
        assert_eq!(damped(300, 400, 200), 0);
        assert_eq!(damped(300, 100, 0), 300);
        let mut last = i32::MAX;
        for plies in 0..=250 {
            let v = damped(1000, plies, 200);
            assert!(v <= last && v >= 0, "not monotone at {plies}: {v}");
            last = v;
        }
    }

    #[test]
    fn long_quiet_stretches_shrink_the_score() {
        // Red is a chariot up in a quiet position (against two advisors and one
        // elephant: a win, not a drawn fortress); the same board after 100
        // plies without a capture is worth less, though still won.
        let fen = |halfmove| format!("3aka3/9/4b4/9/9/9/9/4B4/4A4/R2AK1B2 w - - {halfmove} 1");
        let fresh = search_depth(&fen(0), 4).score.0;
        let stale = search_depth(&fen(100), 4).score.0;
        assert!(fresh > 300, "{fresh}");
        assert!(stale > 0 && stale * 3 < fresh * 2, "fresh {fresh}, stale {stale}");
    }

    #[test]
    fn the_previous_moves_score_is_kept_for_the_same_sides_next_search() {
        let mut pos = Position::startpos();
        let mut e = Engine::new(1, 1);
        let go = |e: &mut Engine, pos: &Position| {
            e.search(pos, &SearchLimits::depth(3), None, Arc::new(SearchSignals::default()), &mut NullReporter)
        };
        assert_eq!(e.prev_move_score(&pos), None);
        let r = go(&mut e, &pos);
        assert_eq!(e.prev_move_score(&pos), None, "the same position is no next move");
        for t in ["h2e2", "h9g7"] {
            pos.try_make_move(pos.parse_move(t).unwrap()).unwrap();
        }
        assert_eq!(e.prev_move_score(&pos), Some(r.score.0));
        let mut other = pos.clone();
        other.try_make_move(other.parse_move("h0g2").unwrap()).unwrap();
        assert_eq!(e.prev_move_score(&other), None, "the other side's move");
        e.new_game();
        assert_eq!(e.prev_move_score(&pos), None, "a new game forgets it");
    }

    #[test]
    fn engine_is_send() {
        fn assert_send<T: Send>() {}
        assert_send::<Engine>();
        fn assert_sync<T: Send + Sync>() {}
        assert_sync::<SearchSignals>();
    }

    #[test]
    fn finds_mate_in_one() {
        // wukong-puzzle_0: e7e8 mates.
        let r = search_depth("2Rckab1C/4a4/4R3n/p5p2/9/2N6/2P5P/C5r2/4K4/2B2A3 w - - 0 1", 3);
        assert_eq!(r.best.map(|m| m.to_string()), Some("e7e8".to_string()));
        assert_eq!(r.score.mate_moves(), Some(1));
    }

    #[test]
    fn table_key_carries_the_seen_bit_and_the_natural_limit_bucket() {
        let at = |halfmove: u32| Position::from_fen(&format!("4k4/9/9/9/9/9/9/9/9/R4K3 w - - {halfmove} 1")).unwrap();
        let plain = at(0).key().0;
        // Far from the limit the count does not split entries.
        assert_eq!(tt_key(&at(0), false), plain);
        assert_eq!(tt_key(&at(63), false), plain);
        // Near it, one key per 8-ply bucket, the last from 120 on.
        let keys: Vec<u64> = [64, 71, 72, 119, 120, 200].iter().map(|&h| tt_key(&at(h), false)).collect();
        assert_ne!(keys[0], plain);
        assert_eq!(keys[0], keys[1]);
        assert_ne!(keys[1], keys[2]);
        assert_ne!(keys[3], keys[4]);
        assert_eq!(keys[4], keys[5]);
        // Seen before the root: another key, whatever the count.
        assert_ne!(tt_key(&at(0), true), plain);
        assert_ne!(tt_key(&at(64), true), keys[0]);
        // The root key finds an earlier occurrence in the history.
        let mut pos = at(0);
        assert_eq!(root_tt_key(&pos), plain);
        for t in ["a0a1", "e9e8", "a1a0", "e8e9"] {
            let m = pos.parse_move(t).unwrap();
            pos.make_move(m);
        }
        assert_eq!(pos.key().0, plain);
        assert_eq!(root_tt_key(&pos), tt_key(&pos, true));
    }

    #[test]
    fn no_legal_move_is_a_loss() {
        // Black to move, checkmated by the red chariot on the back rank.
        let pos = Position::from_fen("3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1").unwrap();
        assert!(pos.legal_moves().is_empty());
        let mut e = Engine::new(1, 1);
        let r = e.search(&pos, &SearchLimits::depth(3), None, Arc::new(SearchSignals::default()), &mut NullReporter);
        assert_eq!(r.best, None);
        assert_eq!(r.score, mated_in(0));
    }

    /// The shared state of a one-thread search over the given parts.
    fn one_thread<'a>(
        tt: &'a TranspositionTable,
        signals: &'a SearchSignals,
        limits: &'a SearchLimits,
        options: &'a SearchOptions,
    ) -> Shared<'a> {
        Shared {
            tt,
            signals,
            limits,
            options,
            abort: AtomicBool::new(false),
            nodes: vec![AtomicU64::new(0)],
            start: Instant::now(),
            prev_move_score: None,
        }
    }

    /// Runs `f` on a fresh worker of a one-thread search to `depth` (a 1 MB
    /// table, default options) at `pos`, handing it the table too.
    fn with_worker<R>(pos: Position, depth: u32, f: impl FnOnce(&mut Worker<'_>, &TranspositionTable) -> R) -> R {
        let tt = TranspositionTable::new(1);
        let signals = SearchSignals::default();
        let limits = SearchLimits::depth(depth);
        let options = SearchOptions::default();
        let shared = one_thread(&tt, &signals, &limits, &options);
        let mut hist = Histories::default();
        let mut w = Worker::new(0, pos, &shared, &mut hist, None, &[]);
        f(&mut w, &tt)
    }

    #[test]
    fn a_search_without_the_only_move_is_no_loss_and_keeps_its_own_entries() {
        // Black is checked on the e-file; d9 faces the red general: f9 is the only move.
        let pos = Position::from_fen("4k4/9/9/9/4R4/9/9/9/9/3K5 b - - 0 1").unwrap();
        let moves = pos.legal_moves();
        assert_eq!(moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(), ["e9f9"]);
        let key = tt_key(&pos, false);
        with_worker(pos, 4, |w, tt| {
            w.frame_mut(0).excluded = moves[0];
            let v = w.search::<alphabeta::NonPv>(-50, -49, 4, false);
            assert_eq!(v, -50, "leaving out the only move fails low, it does not lose");
            assert!(tt.probe(key).is_none(), "the excluded search stored under the position's own key");
            w.frame_mut(0).excluded = Move::NULL;
            let v = w.search::<alphabeta::NonPv>(-50, -49, 4, false);
            assert!(v > mated_in(0).0, "with f9 searched the side to move is not mated here: {v}");
            assert!(tt.probe(key).is_some());
        });
    }

    #[test]
    fn a_null_move_that_is_mated_extends_the_node() {
        // After a6a5 Black threatens d5 mate: the red general on d0 cannot
        // leave the d-file (e0 faces the black general) and nothing can
        // block or capture on d1-d5. Red to move can defend (i8d8).
        let fen = "4k4/8R/9/r8/9/9/9/9/9/3K5 b - - 0 1";
        // The depth stored by a zero-window search of depth 6 with the
        // extension of `ext` plies.
        let stored_depth = |ext: i32| {
            with_worker(Position::from_fen(fen).unwrap(), 6, |w, tt| {
                let m = w.pos.parse_move("a6a5").unwrap();
                let row = history::cont_index(crate::board::code_of(w.pos.board().cell(m.from())), m.to().0);
                w.play(m, row, None);
                let key = tt_key(&w.pos, false);
                w.root_depth = 6;
                w.mate_threat_ext = ext;
                // A window just below the static evaluation: the null move is
                // tried (eval >= beta) at depth 6 - 5 = 1, where Black's quiet
                // mate is found.
                let eval = w.evaluate();
                let v = w.search::<alphabeta::NonPv>(eval - 151, eval - 150, 6, false);
                assert!(v > -crate::score::MATE_BOUND, "Red has a defence: {v}");
                tt.probe(key).expect("the node stored its result").depth
            })
        };
        assert_eq!(stored_depth(0), 6);
        assert_eq!(stored_depth(1), 7, "the node was not extended for the mate threat");
        assert_eq!(stored_depth(2), 8);
    }

    #[test]
    fn quiescence_recaptures_a_chariot_near_an_even_window() {
        // Black to move has lost a chariot; the red chariot on a7 is
        // en prise to the cannon on b7 and nothing defends it. Standing pat
        // is a chariot down: only the recapture keeps the balance near even,
        // so delta pruning must not skip it for a window around 0.
        let pos = Position::from_fen("rnbakabn1/9/Rc5c1/2p1p1p1p/9/9/2P1P1P1P/1C5C1/9/1NBAKABNR b - - 0 1").unwrap();
        let v = with_worker(pos, 1, |w, _| w.qsearch::<alphabeta::Pv>(-100, 100));
        assert!(v > -100, "the recapture b7a7 was pruned: {v}");
    }

    #[test]
    fn repetition_scores_come_from_the_detector() {
        let tt = TranspositionTable::new(1);
        let signals = SearchSignals::default();
        let limits = SearchLimits::depth(1);
        let options = SearchOptions { contempt: 7, ..SearchOptions::default() };
        let shared = one_thread(&tt, &signals, &limits, &options);
        let mut hist = Histories::default();
        // The red chariot checks along ranks 9 and 8; the black general steps between e9 and e8.
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R4K3 w - - 0 1").unwrap();
        let mut w = Worker::new(0, pos, &shared, &mut hist, None, &[]);
        fn play(w: &mut Worker<'_>, t: &str) -> Option<i32> {
            let m = w.pos.parse_move(t).unwrap();
            w.pos.make_move(m);
            w.rep.push(w.pos.key());
            w.ply += 1;
            match w.node_history(w.ply) {
                NodeHistory::Verdict(s) => Some(s),
                NodeHistory::Open(_) => None,
            }
        }
        let verdicts: Vec<_> =
            ["a0a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8"].iter().map(|t| play(&mut w, t)).collect();
        assert_eq!(&verdicts[..4], &[None; 4], "no position repeats before a full cycle");
        // After a8a9 the position after a0a9 recurs (inside the search path) with
        // Black to move; Red checked with every move: Black wins (docs/rules.md 3.2).
        assert_eq!(verdicts[4], Some(mate_in(5).0));
        // One ply later, from Red's side: Red is the perpetual checker and loses.
        assert_eq!(verdicts[5], Some(mated_in(6).0));
        // A cycle without checks is a draw: the draw score with contempt.
        let mut hist = Histories::default();
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R4K3 w - - 0 1").unwrap();
        let mut w = Worker::new(0, pos, &shared, &mut hist, None, &[]);
        let verdicts: Vec<_> = ["a0a1", "e9e8", "a1a0", "e8e9"].iter().map(|t| play(&mut w, t)).collect();
        assert_eq!(verdicts, [None, None, None, Some(-7)]);
    }
}
