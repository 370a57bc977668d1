//! How the search talks to the outside: one [`IterationInfo`] per completed
//! iteration (and per aspiration failure), and the current root move after a
//! few seconds. The protocol layer implements [`SearchReporter`] and formats
//! UCCI or UCI text; the search itself never prints.

use std::time::Duration;

use crate::moves::Move;
use crate::score::Score;
pub use crate::tt::Bound;

/// One line of search progress.
#[derive(Clone, Debug)]
pub struct IterationInfo {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Which principal variation (1-based) this line is.
    pub multipv: u32,
    /// Score from the side to move's view.
    pub score: Score,
    /// Exact, or a bound after an aspiration failure.
    pub bound: Bound,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Transposition table use, per mille.
    pub hashfull: u32,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// Receives search progress (called from the main search thread only).
pub trait SearchReporter: Send {
    /// An iteration finished (or failed high/low with `info.bound` not exact).
    fn on_iteration(&mut self, info: &IterationInfo);
    /// The root move now searched (reported once the search has run a few seconds).
    fn on_currmove(&mut self, _depth: u32, _mv: Move, _number: u32) {}
    /// The search ended ([`crate::search::Engine::go`] only): its result, or
    /// `None` when it failed. Called on the search thread before `join` returns.
    fn on_finish(&mut self, _result: Option<&crate::search::SearchResult>) {}
}

/// A reporter that ignores everything (bench, tests).
#[derive(Copy, Clone, Debug, Default)]
pub struct NullReporter;

impl SearchReporter for NullReporter {
    fn on_iteration(&mut self, _info: &IterationInfo) {}
}

/// A reporter that keeps every line (tests, tools).
#[derive(Clone, Debug, Default)]
pub struct CollectingReporter {
    /// The lines received, in order.
    pub lines: Vec<IterationInfo>,
}

impl SearchReporter for CollectingReporter {
    fn on_iteration(&mut self, info: &IterationInfo) {
        self.lines.push(info.clone());
    }
}
