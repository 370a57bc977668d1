//! The search: [`Engine`] owns the transposition table, the per-thread
//! histories and the options, and runs iterative deepening with aspiration
//! windows on a main thread plus Lazy SMP helper threads that share the
//! table (the main thread decides the move).
//!
//! The search never prints: progress goes through [`SearchReporter`] (main
//! thread only). It polls `SearchSignals::stop`, the node limit and the hard
//! deadline every ~1k nodes. Repetitions are judged by the single function
//! [`repetition_score`] (a placeholder for the `rules` module's verdicts).

mod alphabeta;
pub mod history;
pub mod movepick;
pub mod params;
mod qsearch;
pub mod report;
pub mod see;
mod smp;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::score::{mated_in, Score, INFINITE, MATE, MAX_PLY};
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
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions { move_overhead: Duration::from_millis(30), multipv: 1, contempt: 0 }
    }
}

/// Evaluation placeholder for "not computed" (in check).
pub(crate) const EVAL_NONE: i32 = -32_001;
/// rules.md section 4: 60 moves (120 plies) without a capture is a draw.
pub const NATURAL_LIMIT_PLIES: usize = 120;
/// Deepest iteration.
pub const MAX_DEPTH: u32 = 100;
/// Score for winning by the perpetual-check rule (not a mate score).
pub const RULE_WIN: i32 = 15_000;
/// Frames kept below ply 0 so that `ply - 4` is always addressable.
const STACK_OFFSET: usize = 4;
/// Nodes between polls of the stop flag and the clock.
const POLL_INTERVAL: u64 = 1024;
/// Delay before the main thread reports the current root move.
const CURRMOVE_DELAY: Duration = Duration::from_secs(3);

/// The verdict on a repetition inside the search, from the side to move's
/// view, or `None` if the position does not repeat.
///
/// A repetition counts when the current key occurred before since the last
/// capture (and the last null move): once inside the search path, or twice
/// before the root (the third occurrence, rules.md section 3). The only
/// verdict judged here is perpetual check, which loses in both rule sets
/// (rules.md 3.2/3.3): if one side checked with every move of the cycle and
/// the other did not, the checking side loses. Everything else is scored as
/// `draw` (chases are the `rules` module's job). Such scores are
/// path-dependent: the search returns them before the table is consulted
/// and never stores them at this node.
pub fn repetition_score(pos: &Position, ply: usize, draw: i32) -> Option<i32> {
    let states = pos.states();
    let n = states.len() - 1;
    let window = (states[n].plies_since_capture as usize).min(n);
    if window < 4 {
        return None;
    }
    let key = states[n].key;
    let root = n.saturating_sub(ply);
    let mut earlier = 0;
    let mut i = n;
    while i >= 2 && n - (i - 2) <= window {
        // A null move in between breaks the cycle.
        if !states[i].mv.is_some() || !states[i - 1].mv.is_some() {
            return None;
        }
        i -= 2;
        if states[i].key != key {
            continue;
        }
        if i < root {
            earlier += 1;
            if earlier < 2 {
                continue;
            }
        }
        // Moves i+1..=n: ours are n-1, n-3, ..., theirs n, n-2, ...
        let them_check = (i + 2..=n).step_by(2).all(|k| states[k].in_check);
        let us_check = (i + 1..n).step_by(2).all(|k| states[k].in_check);
        return Some(match (us_check, them_check) {
            (false, true) => RULE_WIN - ply as i32,
            (true, false) => -RULE_WIN + ply as i32,
            _ => draw,
        });
    }
    None
}

/// One root move with its latest score and line.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub prev_score: i32,
    pub seldepth: usize,
    pub pv: Vec<Move>,
}

/// Per-ply search frame.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Frame {
    pub mv: Move,
    pub cont_row: usize,
    pub static_eval: i32,
    pub killers: [Move; 2],
}

impl Default for Frame {
    fn default() -> Self {
        Frame { mv: Move::NULL, cont_row: 0, static_eval: EVAL_NONE, killers: [Move::NULL; 2] }
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
}

impl Shared<'_> {
    fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Relaxed)).sum()
    }
}

/// The state of one search thread.
pub(crate) struct Worker<'a> {
    pub id: usize,
    pub pos: Position,
    pub shared: &'a Shared<'a>,
    pub hist: &'a mut Histories,
    pub reporter: Option<&'a mut dyn SearchReporter>,
    pub tm: TimeManager,
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
    pub best_move_changes: f64,
    pub ponderhit_seen: bool,
    pub last_reported: Option<Move>,
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
        let tm = TimeManager::new(shared.limits, shared.options.move_overhead);
        let n = MAX_PLY as usize + 2;
        Worker {
            id,
            pos,
            shared,
            hist,
            reporter,
            tm,
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
                .map(|&mv| RootMove { mv, score: -INFINITE, prev_score: -INFINITE, seldepth: 0, pv: vec![mv] })
                .collect(),
            pv_idx: 0,
            root_depth: 0,
            completed_depth: 0,
            nmp_min_ply: 0,
            best_move_changes: 0.0,
            ponderhit_seen: false,
            last_reported: None,
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
        if self.id == 0 {
            let limits = shared.limits;
            if limits.ponder && !self.ponderhit_seen && shared.signals.ponderhit.load(Relaxed) {
                self.ponderhit_seen = true;
                self.tm.start_now();
            }
            let mut stop = shared.signals.stop.load(Relaxed);
            if self.completed_depth >= 1 && self.tm.hard_expired() {
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

    pub(crate) fn update_root_move(&mut self, m: Move, v: i32, alpha: i32, move_count: i32) {
        let child_len = self.pv_len[1].max(1);
        let line: Vec<Move> = std::iter::once(m).chain(self.pv[1][1..child_len].iter().copied()).collect();
        let seldepth = self.seldepth;
        let main = self.id == 0 && self.pv_idx == 0;
        if let Some(rm) = self.root_moves.iter_mut().find(|r| r.mv == m) {
            if move_count == 1 || v > alpha {
                rm.score = v;
                rm.seldepth = seldepth;
                rm.pv = line;
                if move_count > 1 && main {
                    self.best_move_changes += 1.0;
                }
            } else {
                rm.score = -INFINITE;
            }
        }
    }

    fn report_currmove(&mut self, depth: i32, m: Move, number: u32) {
        if self.shared.start.elapsed() >= CURRMOVE_DELAY {
            if let Some(r) = self.reporter.as_deref_mut() {
                r.on_currmove(depth.max(0) as u32, m, number);
            }
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
        if let Some(first) = self.root_moves.first() {
            self.last_reported = Some(first.mv);
        }
        if let Some(r) = self.reporter.as_deref_mut() {
            for info in &infos {
                r.on_iteration(info);
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
            if self.id > 0 && smp::skip_depth(self.id, depth, game_ply) {
                continue;
            }
            self.root_depth = depth as i32;
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            self.best_move_changes *= 0.5;
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = params::ASPIRATION_DELTA;
                let (mut alpha, mut beta) = if depth as i32 >= params::ASPIRATION_DEPTH && prev.abs() < MATE / 2 {
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
                        if self.id == 0 && self.shared.start.elapsed() >= Duration::from_secs(1) {
                            self.report(depth, Some((pv_idx, Bound::Upper)));
                        }
                    } else if v >= beta {
                        beta = (v + delta).min(INFINITE);
                        if self.id == 0 && self.shared.start.elapsed() >= Duration::from_secs(1) {
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
            if self.id != 0 {
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
            let drop = reference - score;
            if self.tm.soft_expired(self.best_move_changes, drop, stable_iterations) {
                break;
            }
            if limits.ponder && !self.ponderhit_seen && self.shared.signals.ponderhit.load(Relaxed) {
                self.ponderhit_seen = true;
                self.tm.start_now();
            }
        }
    }

    /// Main thread after its iterations: in infinite or ponder mode, wait
    /// for `stop` (or for ponderhit, after which the result is final).
    fn wait_if_required(&mut self) {
        let limits = self.shared.limits;
        let signals = self.shared.signals;
        loop {
            if signals.stop.load(Relaxed) {
                return;
            }
            let pondering = limits.ponder && !self.ponderhit_seen && !signals.ponderhit.load(Relaxed);
            if !limits.infinite && !pondering {
                return;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

/// The search engine: transposition table, thread histories and options.
pub struct Engine {
    tt: TranspositionTable,
    histories: Vec<Histories>,
    threads: usize,
    options: SearchOptions,
}

impl Engine {
    /// An engine with a `hash_mb` table and `threads` search threads (at least 1).
    pub fn new(hash_mb: usize, threads: usize) -> Engine {
        let threads = threads.max(1);
        Engine {
            tt: TranspositionTable::new(hash_mb),
            histories: (0..threads).map(|_| Histories::default()).collect(),
            threads,
            options: SearchOptions::default(),
        }
    }

    /// Reallocates the table (its contents are lost).
    pub fn set_hash(&mut self, mb: usize) {
        self.tt = TranspositionTable::new(mb);
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
    }

    /// Empties the table only.
    pub fn clear_hash(&mut self) {
        self.tt.clear();
    }

    /// The options (move overhead, MultiPV, contempt).
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

    /// What the table knows about `pos` (UCCI `probe`).
    pub fn probe(&self, pos: &Position) -> Option<TtProbe> {
        let e = self.tt.probe(pos.key().0)?;
        Some(TtProbe {
            best: (e.mv.is_some() && pos.is_legal(e.mv)).then_some(e.mv),
            bound: e.bound,
            score: Score(crate::score::from_tt(e.score, 0)),
            depth: e.depth,
        })
    }

    /// Searches `pos` (its state stack = the game history, for repetitions).
    /// `root_moves`: if Some and non-empty, search only those (UCCI banmoves
    /// removes moves; the caller passes the rest; if all are banned it passes None).
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
        self.tt.new_search();
        let start = Instant::now();
        let legal: MoveList = pos.legal_moves();
        let mut root: Vec<Move> = match root_moves {
            Some(list) if !list.is_empty() => legal.iter().copied().filter(|m| list.contains(m)).collect(),
            _ => legal.to_vec(),
        };
        if root.is_empty() {
            root = legal.to_vec();
        }
        let shared = Shared {
            tt: &self.tt,
            signals: &signals,
            limits,
            options: &self.options,
            abort: AtomicBool::new(false),
            nodes: (0..self.threads).map(|_| AtomicU64::new(0)).collect(),
            start,
        };
        if root.is_empty() {
            // rules.md section 2: no legal move (mate or stalemate) loses.
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
            let mut w = Worker::new(0, pos.clone(), &shared, &mut self.histories[0], None, &[]);
            w.wait_if_required();
            return SearchResult { best: None, ponder: None, score, depth: 0, nodes: 0 };
        }
        smp::run(&shared, pos, &root, &mut self.histories, reporter)
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
    fn no_legal_move_is_a_loss() {
        // Black to move, checkmated by the red chariot on the back rank.
        let pos = Position::from_fen("3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1").unwrap();
        assert!(pos.legal_moves().is_empty());
        let mut e = Engine::new(1, 1);
        let r = e.search(&pos, &SearchLimits::depth(3), None, Arc::new(SearchSignals::default()), &mut NullReporter);
        assert_eq!(r.best, None);
        assert_eq!(r.score, mated_in(0));
    }

    #[test]
    fn perpetual_check_verdict() {
        // The red chariot checks along ranks 9 and 8; the black general steps between e9 and e8.
        let mut pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R4K3 w - - 0 1").unwrap();
        let seq = ["a0a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8"];
        let mut verdicts = Vec::new();
        for (i, t) in seq.iter().enumerate() {
            let m = pos.parse_move(t).unwrap();
            pos.make_move(m);
            verdicts.push(repetition_score(&pos, i + 1, 7));
        }
        assert_eq!(verdicts[3], None, "no position repeats before a full cycle");
        // After a8a9 the position after a0a9 recurs with Black to move; Red checked
        // with every move and Black never did: Black (to move) wins.
        assert_eq!(verdicts[4], Some(RULE_WIN - 5));
        // One ply later, from Red's side: Red is the perpetual checker and loses.
        assert_eq!(verdicts[5], Some(-(RULE_WIN - 6)));
        // Before the root, a single earlier occurrence is not yet a verdict.
        assert_eq!(repetition_score(&pos, 0, 7), None);
        // A cycle without checks is a draw (the score passed in).
        let mut pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R4K3 w - - 0 1").unwrap();
        for t in ["a0a1", "e9e8", "a1a0", "e8e9"] {
            let m = pos.parse_move(t).unwrap();
            pos.make_move(m);
        }
        assert_eq!(repetition_score(&pos, 4, 7), Some(7));
    }
}
